//! Path logs: each thread's own control-flow path, the input of `causa reproduce`.
//!
//! A path log records, per thread, only the decisions needed to follow that
//! thread's path through the program (no shared-memory order, no values read
//! from shared memory, no lock order), plus the program inputs each thread read,
//! what the failure was, and a fingerprint of the program, so that a log is never
//! used with another build. The interpreter (`causa run/test --record-paths`)
//! and the native recorder write the same format.
//!
//! A log is a directory:
//! - `manifest.json`: format name and version, program, fingerprint, memory
//!   model, `argv`, the failure (a [`Finding`], or null), optionally a
//!   native crash's address and the signal that stopped a native run from
//!   outside (`interrupted`), and one entry per
//!   thread (its name, file, and how many decisions and inputs it holds, which
//!   the reader checks against the file);
//! - one binary file per thread, `t<name>.path` (e.g. `t0.1.path`), written by
//!   that thread alone (a native recorder needs no synchronisation):
//!
//! ```text
//! magic "CAUSAPTH", version u32 LE
//! thread name                      (varint length, UTF-8 bytes)
//! indirect-call targets: count, then each function name (varint length, bytes)
//! inputs: count, then each input function's name (varint length, bytes)
//!         and the value read (zigzag varint)
//! decisions: count, byte length, bytes (see below)
//! outcomes:  pthread_once calls: count, then one byte each (what the call
//!            found: 0 not run, so it ran the routine; 1 running in another
//!            thread, so it waited; 2 done)
//!            library values: count, then each value (varint): a clock
//!            read's in nanoseconds, a `rand`/`random` call's result, a
//!            read from a `FILE` (`fgetc`/`getc`: the byte or -1 as a u32;
//!            `fgets`/`fread`: the byte count, all ones for `fgets`' end
//!            of file, then the bytes eight to a value, little-endian;
//!            `read` likewise, all ones for -1; `open`'s descriptor and
//!            `close`'s result as u32)
//!            lock tries (trylock, timedlock, rwlock tryrdlock/trywrlock,
//!            sem_trywait, sem_timedwait, pthread_cond_timedwait): count,
//!            then one byte each (1: it took the lock or unit, or the timed
//!            wait was woken)
//!            call sizes: count, then each value (varint): the arguments at
//!            the positions [`SIZED_CALLS`] lists of each call of those
//!            functions, and the integer and pointer arguments of each
//!            [`FORMAT_CALLS`] call from its first variadic one, in order
//!            synchronisation objects: count, then each address (varint):
//!            the arguments at the positions [`OBJECT_CALLS`] lists of each
//!            call of those functions, in order (the interpreter's
//!            addresses; a native recording leaves the list empty)
//! FNV-1a 64 of everything before it, u64 LE
//! ```
//!
//! Decisions, in the order the thread made them, of the branches whose
//! condition a shared read can influence (a branch computed only from
//! constants and stack addresses takes the same way in every schedule, and
//! whoever replays the thread computes it; version 1 recorded those too): a
//! tag byte `0..=0x7f` starts
//! a run of `tag + 1` conditional-branch outcomes packed 8 per byte (bit 0 of
//! the first byte is the first outcome; 1 = the `true` successor); `0x80` is a
//! `switch`, followed by the index of the case taken (varint, 0 = default, `i`
//! = the i-th case); `0x81` is an indirect call, followed by the index of the
//! called function in the thread's targets table (varint). About one bit per
//! branch.

use crate::{Finding, MemoryModel, ThreadName};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Current path-log format version (2: branches no shared read influences
/// are left out, see `causa_ir::local`; 3: parameters every call passes
/// local values count as local there; 4: what each `pthread_once`, clock
/// read, pseudo-random number and lock try returned; 5: timed condition
/// waits and read-write lock tries among the lock tries; 6: reads from a
/// `FILE` among the library values; 7: what each `fscanf` consumed and
/// returned, each `getline`'s line, `ftell`'s position and `fseek`'s
/// result among them; 8: what each `open`, `read` and `close` of a
/// descriptor returned, `read`'s bytes with it; 9: the sizes of
/// [`SIZED_CALLS`]; 10: the synchronisation objects of [`OBJECT_CALLS`]).
pub const PATHS_VERSION: u32 = 10;
const FORMAT: &str = "causa-paths";
const MAGIC: &[u8; 8] = b"CAUSAPTH";
const MANIFEST: &str = "manifest.json";
const TAG_SWITCH: u8 = 0x80;
const TAG_CALL: u8 = 0x81;
const MAX_RUN: usize = 128;

/// The library functions whose integer arguments at these positions the
/// interpreter records ([`ThreadPath::sizes`]): a size, a fill byte or a
/// character computed from shared data is the one value symbolic execution
/// cannot leave symbolic (how many bytes a copy touches decides its
/// accesses), so it takes the run's value, and the explanation's and the
/// solver's schedules must compute the same value.
pub const SIZED_CALLS: &[(&str, &[usize])] = &[
    ("memcpy", &[2]),
    ("memmove", &[2]),
    ("memset", &[1, 2]),
    ("memcmp", &[2]),
    ("memchr", &[1, 2]),
    ("strncpy", &[2]),
    ("strncmp", &[2]),
    ("strnlen", &[1]),
    ("strchr", &[1]),
    ("strrchr", &[1]),
    ("malloc", &[0]),
    ("calloc", &[0, 1]),
    ("realloc", &[1]),
];

/// The synchronisation calls whose object arguments (at these positions)
/// the interpreter records ([`ThreadPath::objects`]). Symbolic execution
/// needs each object's address; one the program computes from shared data
/// (`pthread_mutex_lock(&acc[to].m)` with `to` read from shared memory) is
/// taken at the run's offset into its object, with a path condition that
/// the address is that one: the explanation's and the solver's schedules
/// lock the same mutex as the run. Not compared when a log is followed (an
/// address depends on the order of allocations), and left empty by the
/// native recorder (its addresses are the process's own).
pub const OBJECT_CALLS: &[(&str, &[usize])] = &[
    ("pthread_mutex_lock", &[0]),
    ("pthread_mutex_unlock", &[0]),
    ("pthread_mutex_trylock", &[0]),
    ("pthread_mutex_timedlock", &[0]),
    ("pthread_spin_lock", &[0]),
    ("pthread_spin_unlock", &[0]),
    ("pthread_spin_trylock", &[0]),
    ("pthread_rwlock_rdlock", &[0]),
    ("pthread_rwlock_wrlock", &[0]),
    ("pthread_rwlock_unlock", &[0]),
    ("pthread_rwlock_tryrdlock", &[0]),
    ("pthread_rwlock_trywrlock", &[0]),
    ("pthread_cond_wait", &[0, 1]),
    ("pthread_cond_timedwait", &[0, 1]),
    ("pthread_cond_signal", &[0]),
    ("pthread_cond_broadcast", &[0]),
    ("sem_wait", &[0]),
    ("sem_post", &[0]),
    ("sem_trywait", &[0]),
    ("sem_timedwait", &[0]),
    ("pthread_barrier_wait", &[0]),
];

/// The argument positions of `function` that [`ThreadPath::objects`]
/// records; empty for others.
pub fn object_args(function: &str) -> &'static [usize] {
    OBJECT_CALLS.iter().find(|(f, _)| *f == function).map_or(&[], |(_, at)| at)
}

/// The formatting functions whose variadic arguments the interpreter
/// records too ([`ThreadPath::sizes`]), with the position of the first:
/// every integer or pointer argument from there on, in order (a
/// floating-point or aggregate one is not recorded). `snprintf(status, n,
/// "%d/%d", done, total)` of shared counters prints the run's values.
/// (A pointer's value is the recording's own: a native run's differs from
/// the interpreter's, so they are not compared when following a log.)
pub const FORMAT_CALLS: &[(&str, usize)] = &[("sprintf", 2), ("snprintf", 3)];

/// The first variadic argument [`ThreadPath::sizes`] records of a
/// [`FORMAT_CALLS`] function.
pub fn format_args_from(function: &str) -> Option<usize> {
    FORMAT_CALLS.iter().find(|(f, _)| *f == function).map(|(_, at)| *at)
}

/// The argument positions of `function` (an `llvm.memcpy.*` intrinsic
/// named by its base) that [`ThreadPath::sizes`] records; empty for others.
pub fn sized_args(function: &str) -> &'static [usize] {
    let base = function.strip_prefix("llvm.").map_or(function, |n| n.split('.').next().unwrap_or(n));
    SIZED_CALLS.iter().find(|(f, _)| *f == base).map_or(&[], |(_, at)| at)
}

/// One control-flow decision of a thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A conditional branch: whether the `true` successor was taken.
    Branch(bool),
    /// A `switch`: 0 for the default destination, `i` for the i-th case.
    Switch(u32),
    /// An indirect call: index into [`ThreadPath::targets`].
    Call(u32),
}

/// One thread's recorded path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadPath {
    pub thread: ThreadName,
    /// The functions called indirectly, in first-call order.
    pub targets: Vec<String>,
    /// Program inputs the thread read, in order: (input function, value).
    pub inputs: Vec<(String, i128)>,
    pub decisions: Vec<Decision>,
    /// What each `pthread_once` call of the thread found, in order
    /// ([`crate::event::once_step`]: it ran the routine, waited for
    /// another thread's, or found it done). Symbolic execution follows
    /// them (who runs the routine is the schedule's choice, not a branch).
    pub onces: Vec<u8>,
    /// What each call of the thread whose value comes from outside the
    /// program returned, in order: a clock read (`clock_gettime`,
    /// `gettimeofday`, `clock`, in nanoseconds: the interpreter's virtual
    /// clock, or the machine's in a native recording) or a pseudo-random
    /// number (`rand`, `random`: their state is the process's, so a value
    /// depends on the order of the threads' calls), or what a read from a
    /// `FILE` delivered (`fgets`, `fread`, `fgetc`, `getc`: see the format
    /// above), which symbolic execution takes from here.
    pub values: Vec<u64>,
    /// Whether each `pthread_mutex_trylock`/`pthread_spin_trylock`/
    /// `pthread_mutex_timedlock`/`pthread_rwlock_tryrdlock`/
    /// `pthread_rwlock_trywrlock` of the thread took the lock, each
    /// `sem_trywait`/`sem_timedwait` a unit, and each
    /// `pthread_cond_timedwait` was woken (rather than timing out), in order.
    pub tries: Vec<bool>,
    /// The arguments of each call of a [`SIZED_CALLS`] function at the
    /// positions listed there, and the integer and pointer arguments of
    /// each [`FORMAT_CALLS`] call, in order.
    pub sizes: Vec<u64>,
    /// The addresses of the synchronisation objects of each call of an
    /// [`OBJECT_CALLS`] function, at the positions listed there, in order
    /// (interpreter runs only: empty in a native recording).
    pub objects: Vec<u64>,
    /// Decisions at the end of the path read from its file but not kept:
    /// a path that ends in more than [`TRAILING_RUN_KEPT`] identical branch
    /// decisions (a thread that spun in a busy wait until a native run was
    /// stopped: a billion turns a second) keeps that many of them, which
    /// is far more than the interpreter needs to park the loop.
    pub trimmed: u64,
}

/// The most decisions of a path's final run of identical branch decisions
/// that are kept in memory ([`ThreadPath::trimmed`]): kept whole, a second
/// of a spinning thread took 8 GB.
pub const TRAILING_RUN_KEPT: usize = 1_000_000;

impl ThreadPath {
    pub fn new(thread: ThreadName) -> ThreadPath {
        ThreadPath {
            thread,
            targets: Vec::new(),
            inputs: Vec::new(),
            decisions: Vec::new(),
            onces: Vec::new(),
            values: Vec::new(),
            tries: Vec::new(),
            sizes: Vec::new(),
            objects: Vec::new(),
            trimmed: 0,
        }
    }

    /// Record an indirect call of `function`.
    pub fn call(&mut self, function: &str) {
        let i = match self.targets.iter().position(|t| t == function) {
            Some(i) => i,
            None => {
                self.targets.push(function.to_string());
                self.targets.len() - 1
            }
        };
        self.decisions.push(Decision::Call(i as u32));
    }

    /// The thread's binary file.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&PATHS_VERSION.to_le_bytes());
        put_str(&mut out, &self.thread.to_string());
        put_varint(&mut out, self.targets.len() as u64);
        for t in &self.targets {
            put_str(&mut out, t);
        }
        put_varint(&mut out, self.inputs.len() as u64);
        for (f, v) in &self.inputs {
            put_str(&mut out, f);
            put_varint(&mut out, zigzag(*v));
        }
        let body = encode_decisions(&self.decisions);
        put_varint(&mut out, self.decisions.len() as u64);
        put_varint(&mut out, body.len() as u64);
        out.extend_from_slice(&body);
        put_varint(&mut out, self.onces.len() as u64);
        out.extend_from_slice(&self.onces);
        put_varint(&mut out, self.values.len() as u64);
        for c in &self.values {
            put_varint(&mut out, *c);
        }
        put_varint(&mut out, self.tries.len() as u64);
        out.extend(self.tries.iter().map(|t| *t as u8));
        put_varint(&mut out, self.sizes.len() as u64);
        for v in &self.sizes {
            put_varint(&mut out, *v);
        }
        put_varint(&mut out, self.objects.len() as u64);
        for v in &self.objects {
            put_varint(&mut out, *v);
        }
        let h = fnv1a(&out);
        out.extend_from_slice(&h.to_le_bytes());
        out
    }

    /// Parse a thread's binary file; `what` names it in errors.
    pub fn decode(bytes: &[u8], what: &str) -> Result<ThreadPath, PathLogError> {
        Self::decode_inner(bytes, what).map_err(|e| match e {
            PathLogError::Corrupt { file, reason } if file.is_empty() => {
                PathLogError::Corrupt { file: what.to_string(), reason }
            }
            e => e,
        })
    }

    fn decode_inner(bytes: &[u8], what: &str) -> Result<ThreadPath, PathLogError> {
        let bad = |reason: String| PathLogError::Corrupt { file: what.to_string(), reason };
        if bytes.len() < MAGIC.len() + 4 + 8 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(bad("not a causa thread-path file (wrong magic or too short)".into()));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != PATHS_VERSION {
            return Err(PathLogError::Version { file: what.to_string(), found: version });
        }
        let (content, tail) = bytes.split_at(bytes.len() - 8);
        if fnv1a(content) != u64::from_le_bytes(tail.try_into().expect("8 bytes")) {
            return Err(bad("checksum mismatch (the file is truncated or damaged)".into()));
        }
        let mut r = Reader { bytes: content, at: 12 };
        let name = r.string()?;
        let thread: ThreadName = name.parse().map_err(|_| bad(format!("invalid thread name {name:?}")))?;
        let mut p = ThreadPath::new(thread);
        for _ in 0..r.count()? {
            p.targets.push(r.string()?);
        }
        for _ in 0..r.count()? {
            let f = r.string()?;
            p.inputs.push((f, unzigzag(r.varint()?)));
        }
        let n = r.varint()?;
        let len = r.count()?;
        let body = r.take(len)?;
        (p.decisions, p.trimmed) = decode_decisions(body, n, p.targets.len()).map_err(bad)?;
        let onces = r.count()?;
        p.onces = r.take(onces)?.to_vec();
        if let Some(o) = p.onces.iter().find(|o| u128::from(**o) > crate::event::once_step::FOUND_DONE) {
            return Err(bad(format!("a `pthread_once` call found {o}, which is not an outcome (0, 1 or 2)")));
        }
        for _ in 0..r.count()? {
            p.values.push(r.varint()?);
        }
        let tries = r.count()?;
        for t in r.take(tries)? {
            match t {
                0 | 1 => p.tries.push(*t == 1),
                other => return Err(bad(format!("a lock try's outcome is {other}, not 0 or 1"))),
            }
        }
        for _ in 0..r.count()? {
            p.sizes.push(r.varint()?);
        }
        for _ in 0..r.count()? {
            p.objects.push(r.varint()?);
        }
        if r.at != content.len() {
            return Err(bad(format!("{} unexpected bytes after the outcomes", content.len() - r.at)));
        }
        Ok(p)
    }

    /// The file name of this thread's path in a log directory.
    pub fn file_name(&self) -> String {
        format!("t{}.path", self.thread)
    }
}

/// A whole path log (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathLog {
    pub program: String,
    pub fingerprint: String,
    pub memory_model: MemoryModel,
    pub argv: Vec<String>,
    /// What went wrong in the recorded run (None: it did not fail).
    pub failure: Option<Finding>,
    /// A native run killed by a signal: where in the machine code (the
    /// failure then has no source location; `causa reproduce` finds it from
    /// the executable's debug information).
    pub native_crash: Option<NativeCrash>,
    /// For a deadlock: how many blocking operations (lock, semaphore or
    /// condition wait, join, barrier) the failing thread completed at the
    /// failure's source location before it blocked there. An unrolled loop
    /// puts several at one location, and the thread's decisions do not tell
    /// them apart. None: unknown (the first reached with every decision
    /// followed).
    pub failure_occurrence: Option<u32>,
    /// A native run stopped from outside before it ended (Ctrl-C, `kill`,
    /// `timeout`): the signal's name ("SIGINT", "SIGTERM", "SIGHUP",
    /// "SIGQUIT"). Such a log records no failure: its paths end where the
    /// threads were, and a run stopped because it hung ends in the calls
    /// its threads were blocked in, which `causa reproduce` looks for.
    pub interrupted: Option<String>,
    pub threads: Vec<ThreadPath>,
}

/// The machine-code address of a native crash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NativeCrash {
    /// The recording executable, as the kernel named it (`/proc/self/exe`).
    pub executable: String,
    /// The faulting instruction's address as the executable's ELF file
    /// numbers it (the load address of a position-independent executable
    /// subtracted).
    pub pc: u64,
}

#[derive(Serialize, Deserialize)]
struct Manifest {
    format: String,
    version: u32,
    program: String,
    fingerprint: String,
    memory_model: MemoryModel,
    argv: Vec<String>,
    failure: Option<Finding>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    native_crash: Option<NativeCrash>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    failure_occurrence: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    interrupted: Option<String>,
    threads: Vec<ManifestThread>,
}

#[derive(Serialize, Deserialize)]
struct ManifestThread {
    thread: String,
    file: String,
    decisions: u64,
    inputs: u64,
    onces: u64,
    values: u64,
    tries: u64,
    sizes: u64,
    objects: u64,
}

impl PathLog {
    /// Write the log into `dir` (created if missing; an earlier log there is
    /// replaced). Returns the bytes of the thread files.
    pub fn write(&self, dir: &Path) -> Result<usize, PathLogError> {
        let io = |path: PathBuf| move |e: std::io::Error| PathLogError::Io { path, message: e.to_string() };
        std::fs::create_dir_all(dir).map_err(io(dir.to_path_buf()))?;
        // Thread files of an earlier log would be mistaken for this one's.
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().ends_with(".path") {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        let mut threads = Vec::new();
        let mut bytes = 0;
        for t in &self.threads {
            let path = dir.join(t.file_name());
            let encoded = t.encode();
            bytes += encoded.len();
            std::fs::write(&path, encoded).map_err(io(path.clone()))?;
            threads.push(ManifestThread {
                thread: t.thread.to_string(),
                file: t.file_name(),
                decisions: t.decisions.len() as u64,
                inputs: t.inputs.len() as u64,
                onces: t.onces.len() as u64,
                values: t.values.len() as u64,
                tries: t.tries.len() as u64,
                sizes: t.sizes.len() as u64,
                objects: t.objects.len() as u64,
            });
        }
        let m = Manifest {
            format: FORMAT.into(),
            version: PATHS_VERSION,
            program: self.program.clone(),
            fingerprint: self.fingerprint.clone(),
            memory_model: self.memory_model,
            argv: self.argv.clone(),
            failure: self.failure.clone(),
            native_crash: self.native_crash.clone(),
            failure_occurrence: self.failure_occurrence,
            interrupted: self.interrupted.clone(),
            threads,
        };
        let path = dir.join(MANIFEST);
        let text = serde_json::to_string_pretty(&m).expect("manifest serialises");
        std::fs::write(&path, text + "\n").map_err(io(path.clone()))?;
        Ok(bytes)
    }

    /// Read the log in `dir`, checking every file against the manifest.
    pub fn read(dir: &Path) -> Result<PathLog, PathLogError> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path).map_err(|e| PathLogError::Io {
            path: path.clone(),
            message: format!("{e} (is {} a path-log directory?)", dir.display()),
        })?;
        let corrupt = |reason: String| PathLogError::Corrupt { file: path.display().to_string(), reason };
        let m: Manifest = serde_json::from_str(&text).map_err(|e| corrupt(e.to_string()))?;
        if m.format != FORMAT {
            return Err(corrupt(format!("format is {:?}, not {FORMAT:?}", m.format)));
        }
        if m.version != PATHS_VERSION {
            return Err(PathLogError::Version { file: path.display().to_string(), found: m.version });
        }
        let mut threads = Vec::new();
        for mt in &m.threads {
            if mt.file.contains('/') || mt.file.contains('\\') || mt.file.starts_with('.') {
                return Err(corrupt(format!("thread file name {:?} is not a plain file name", mt.file)));
            }
            let tpath = dir.join(&mt.file);
            let bytes =
                std::fs::read(&tpath).map_err(|e| PathLogError::Io { path: tpath.clone(), message: e.to_string() })?;
            let what = tpath.display().to_string();
            let t = ThreadPath::decode(&bytes, &what)?;
            let counts = |t: &ThreadPath| {
                [
                    t.decisions.len() + t.trimmed as usize,
                    t.inputs.len(),
                    t.onces.len(),
                    t.values.len(),
                    t.tries.len(),
                    t.sizes.len(),
                    t.objects.len(),
                ]
                .map(|n| n as u64)
            };
            let listed = [mt.decisions, mt.inputs, mt.onces, mt.values, mt.tries, mt.sizes, mt.objects];
            if t.thread.to_string() != mt.thread || counts(&t) != listed {
                let say = |c: [u64; 7]| {
                    format!(
                        "{} decisions, {} inputs, {} once calls, {} library values, {} lock tries, {} call sizes and {} synchronisation objects",
                        c[0], c[1], c[2], c[3], c[4], c[5], c[6]
                    )
                };
                return Err(PathLogError::Corrupt {
                    file: what,
                    reason: format!(
                        "the manifest lists thread {} with {}; the file holds thread {} with {}",
                        mt.thread,
                        say(listed),
                        t.thread,
                        say(counts(&t))
                    ),
                });
            }
            threads.push(t);
        }
        Ok(PathLog {
            program: m.program,
            fingerprint: m.fingerprint,
            memory_model: m.memory_model,
            argv: m.argv,
            failure: m.failure,
            native_crash: m.native_crash,
            failure_occurrence: m.failure_occurrence,
            interrupted: m.interrupted,
            threads,
        })
    }
}

/// Why a path log could not be written or read.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum PathLogError {
    #[error("{}: {message}", path.display())]
    Io { path: PathBuf, message: String },
    #[error("{file}: corrupt path log: {reason}")]
    Corrupt { file: String, reason: String },
    #[error("{file}: path-log format version {found}, but this causa reads version {PATHS_VERSION}")]
    Version { file: String, found: u32 },
}

fn encode_decisions(ds: &[Decision]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut run: Vec<bool> = Vec::new();
    let flush = |run: &mut Vec<bool>, out: &mut Vec<u8>| {
        if run.is_empty() {
            return;
        }
        out.push((run.len() - 1) as u8);
        for chunk in run.chunks(8) {
            out.push(chunk.iter().enumerate().fold(0u8, |b, (i, bit)| b | ((*bit as u8) << i)));
        }
        run.clear();
    };
    for d in ds {
        match d {
            Decision::Branch(b) => {
                run.push(*b);
                if run.len() == MAX_RUN {
                    flush(&mut run, &mut out);
                }
            }
            Decision::Switch(i) | Decision::Call(i) => {
                flush(&mut run, &mut out);
                out.push(if matches!(d, Decision::Switch(_)) { TAG_SWITCH } else { TAG_CALL });
                put_varint(&mut out, *i as u64);
            }
        }
    }
    flush(&mut run, &mut out);
    out
}

/// The decisions of a path, and how many of its final run of identical
/// branch decisions were left out ([`ThreadPath::trimmed`]).
fn decode_decisions(body: &[u8], n: u64, targets: usize) -> Result<(Vec<Decision>, u64), String> {
    let mut ds = Decisions { kept: Vec::with_capacity(n.min(1 << 20) as usize), run: 0, held: 0 };
    let mut r = Reader { bytes: body, at: 0 };
    while r.at < body.len() {
        let tag = r.take(1).map_err(|e| e.to_string())?[0];
        match tag {
            0..=0x7f => {
                let len = tag as usize + 1;
                let bytes = r.take(len.div_ceil(8)).map_err(|e| e.to_string())?;
                (0..len).for_each(|i| ds.push(Decision::Branch(bytes[i / 8] >> (i % 8) & 1 == 1)));
            }
            TAG_SWITCH => ds.push(Decision::Switch(r.varint().map_err(|e| e.to_string())? as u32)),
            TAG_CALL => {
                let i = r.varint().map_err(|e| e.to_string())?;
                if i as usize >= targets {
                    return Err(format!("indirect call to target #{i}, but the file lists {targets} targets"));
                }
                ds.push(Decision::Call(i as u32));
            }
            other => return Err(format!("unknown decision tag {other:#x} at byte {}", r.at - 1)),
        }
    }
    if ds.kept.len() as u64 + ds.held != n {
        return Err(format!("{} decisions decoded, {n} announced", ds.kept.len() as u64 + ds.held));
    }
    Ok((ds.kept, ds.held))
}

/// Decoded decisions, with the current run of identical branch decisions
/// beyond [`TRAILING_RUN_KEPT`] counted rather than stored (`held`) until
/// another decision shows it was not the path's last.
struct Decisions {
    kept: Vec<Decision>,
    /// Length of the current run of identical branch decisions.
    run: usize,
    held: u64,
}

impl Decisions {
    fn push(&mut self, d: Decision) {
        let same = matches!(d, Decision::Branch(_)) && self.kept.last() == Some(&d);
        if same && self.run >= TRAILING_RUN_KEPT {
            self.held += 1;
            return;
        }
        if !same {
            // The run held back was not the last: its decisions are kept.
            if let Some(&last) = self.kept.last().filter(|_| self.held > 0) {
                self.kept.extend(std::iter::repeat_n(last, self.held as usize));
                self.held = 0;
            }
            self.run = 0;
        }
        self.run += 1;
        self.kept.push(d);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], PathLogError> {
        let end = self.at.checked_add(n).filter(|e| *e <= self.bytes.len()).ok_or_else(|| PathLogError::Corrupt {
            file: String::new(),
            reason: format!("{n} bytes needed at byte {}, the file ends first", self.at),
        })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn varint(&mut self) -> Result<u64, PathLogError> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.take(1)?[0];
            if shift == 63 && b > 1 {
                break;
            }
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(PathLogError::Corrupt { file: String::new(), reason: format!("invalid varint before byte {}", self.at) })
    }
    /// A count or length, bounded by the bytes left (each item takes at least one).
    fn count(&mut self) -> Result<usize, PathLogError> {
        let n = self.varint()?;
        if n > (self.bytes.len() - self.at) as u64 {
            return Err(PathLogError::Corrupt {
                file: String::new(),
                reason: format!("count {n} at byte {} exceeds the bytes left", self.at),
            });
        }
        Ok(n as usize)
    }
    fn string(&mut self) -> Result<String, PathLogError> {
        let n = self.count()?;
        let at = self.at;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| PathLogError::Corrupt {
            file: String::new(),
            reason: format!("invalid UTF-8 string at byte {at}"),
        })
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// Inputs are at most 64-bit; their i128 form is folded to a u64 zigzag.
fn zigzag(v: i128) -> u64 {
    let v = v as i64;
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i128 {
    (((v >> 1) as i64) ^ -((v & 1) as i64)) as i128
}

/// The 64-bit FNV-1a digest of `bytes` (log checksums, the interpreter's
/// digests of memory).
pub fn fnv1a<'a>(bytes: impl IntoIterator<Item = &'a u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ *b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn decision() -> impl Strategy<Value = Decision> {
        prop_oneof![
            8 => any::<bool>().prop_map(Decision::Branch),
            1 => (0u32..1000).prop_map(Decision::Switch),
            1 => (0u32..3).prop_map(Decision::Call),
        ]
    }

    fn thread() -> impl Strategy<Value = ThreadPath> {
        (
            prop::collection::vec(decision(), 0..600),
            prop::collection::vec(("[a-z_]{1,12}", any::<i64>()), 0..5),
            prop::sample::select(vec!["0", "0.1", "0.2.3"]),
            (
                prop::collection::vec(0u8..3, 0..4),
                prop::collection::vec(any::<u64>(), 0..4),
                prop::collection::vec(any::<bool>(), 0..4),
                prop::collection::vec(any::<u64>(), 0..4),
                prop::collection::vec(any::<u64>(), 0..4),
            ),
        )
            .prop_map(|(decisions, inputs, name, (onces, values, tries, sizes, objects))| ThreadPath {
                thread: name.parse().unwrap(),
                targets: vec!["f".into(), "g".into(), "h".into()],
                inputs: inputs.into_iter().map(|(f, v)| (f, v as i128)).collect(),
                decisions,
                onces,
                values,
                tries,
                sizes,
                objects,
                trimmed: 0,
            })
    }

    proptest! {
        #[test]
        fn thread_files_round_trip(t in thread()) {
            let back = ThreadPath::decode(&t.encode(), "t").unwrap();
            prop_assert_eq!(back, t);
        }

        #[test]
        fn truncated_or_flipped_files_are_errors(t in thread(), cut in 0usize..64, flip in 0usize..64) {
            let bytes = t.encode();
            let short = &bytes[..bytes.len().saturating_sub(cut + 1)];
            prop_assert!(ThreadPath::decode(short, "t").is_err());
            let mut damaged = bytes.clone();
            let i = flip % damaged.len();
            damaged[i] ^= 0x10;
            prop_assert!(ThreadPath::decode(&damaged, "t").is_err());
        }
    }

    #[test]
    fn about_one_bit_per_branch() {
        let mut t = ThreadPath::new("0".parse().unwrap());
        t.decisions = (0..8000).map(|i| Decision::Branch(i % 3 == 0)).collect();
        let size = t.encode().len();
        assert!(size < 8000 / 8 + 8000 / 128 + 64, "{size} bytes for 8000 branches");
    }

    #[test]
    fn outcomes_that_are_none_are_errors() {
        let mut t = ThreadPath::new("0".parse().unwrap());
        t.onces = vec![0, 3];
        let e = ThreadPath::decode(&t.encode(), "t").unwrap_err().to_string();
        assert!(e.contains("found 3, which is not an outcome"), "{e}");
        t.onces = vec![0];
        // The last try's byte, before the (empty) call sizes' and objects'
        // counts and the checksum, made 2 (and the checksum redone).
        t.tries = vec![true];
        let mut bytes = t.encode();
        let n = bytes.len();
        bytes[n - 11] = 2;
        let h = fnv1a(&bytes[..n - 8]);
        bytes[n - 8..].copy_from_slice(&h.to_le_bytes());
        let e = ThreadPath::decode(&bytes, "t").unwrap_err().to_string();
        assert!(e.contains("a lock try's outcome is 2"), "{e}");
    }

    #[test]
    fn sized_calls_are_found_by_name_and_by_intrinsic() {
        assert_eq!(sized_args("memcpy"), &[2]);
        assert_eq!(sized_args("llvm.memset.p0i8.i64"), &[1, 2]);
        assert_eq!(sized_args("calloc"), &[0, 1]);
        assert!(sized_args("llvm.memcpyx").is_empty() && sized_args("printf").is_empty());
        assert_eq!((format_args_from("snprintf"), format_args_from("printf")), (Some(3), None));
        assert_eq!(object_args("pthread_cond_wait"), &[0, 1]);
        assert!(object_args("pthread_mutex_init").is_empty() && object_args("memcpy").is_empty());
    }

    #[test]
    fn calls_name_their_targets() {
        let mut t = ThreadPath::new("0".parse().unwrap());
        t.call("worker");
        t.call("other");
        t.call("worker");
        assert_eq!(t.decisions, vec![Decision::Call(0), Decision::Call(1), Decision::Call(0)]);
        assert_eq!(t.targets, vec!["worker".to_string(), "other".to_string()]);
    }

    #[test]
    fn only_a_final_run_of_one_branch_beyond_the_bound_is_left_out() {
        let long = TRAILING_RUN_KEPT + 10;
        let path = |ds: Vec<Decision>| {
            let mut t = ThreadPath::new("0.1".parse().unwrap());
            t.decisions = ds;
            ThreadPath::decode(&t.encode(), "t").unwrap()
        };
        // A spin that ended: every turn kept.
        let mut ended = vec![Decision::Branch(true); long];
        ended.push(Decision::Branch(false));
        let p = path(ended.clone());
        assert_eq!((p.decisions.len(), p.trimmed), (long + 1, 0));
        assert_eq!(p.decisions, ended);
        // A spin the path ends in: the first TRAILING_RUN_KEPT turns.
        let mut spinning = vec![Decision::Switch(2)];
        spinning.extend(vec![Decision::Branch(true); long]);
        let p = path(spinning);
        assert_eq!((p.decisions.len(), p.trimmed), (1 + TRAILING_RUN_KEPT, 10));
        assert_eq!(p.decisions[0], Decision::Switch(2));
        assert!(p.decisions[1..].iter().all(|d| *d == Decision::Branch(true)));
        // Alternating branches are no run.
        let mixed: Vec<Decision> = (0..long).map(|i| Decision::Branch(i % 2 == 0)).collect();
        assert_eq!(path(mixed).trimmed, 0);
    }

    #[test]
    fn logs_round_trip_and_disagreeing_manifests_are_errors() {
        let dir = std::env::temp_dir().join(format!("causa-paths-test-{}", std::process::id()));
        let mut t = ThreadPath::new("0.1".parse().unwrap());
        t.decisions = vec![Decision::Branch(true), Decision::Switch(2), Decision::Branch(false)];
        t.inputs = vec![("__VERIFIER_nondet_int".into(), -3)];
        t.onces = vec![1, 2];
        t.values = vec![1_700_000_000_123_456_789];
        t.tries = vec![false, true];
        let log = PathLog {
            program: "p.c".into(),
            fingerprint: "abc".into(),
            memory_model: MemoryModel::Sc,
            argv: vec!["p".into(), "x y".into()],
            failure: None,
            native_crash: None,
            failure_occurrence: Some(1),
            interrupted: Some("SIGINT".into()),
            threads: vec![ThreadPath::new("0".parse().unwrap()), t],
        };
        log.write(&dir).unwrap();
        assert_eq!(PathLog::read(&dir).unwrap(), log);
        // A thread file replaced by another thread's.
        std::fs::copy(dir.join("t0.path"), dir.join("t0.1.path")).unwrap();
        let e = PathLog::read(&dir).unwrap_err().to_string();
        assert!(e.contains("the manifest lists thread 0.1"), "{e}");
        std::fs::remove_file(dir.join("t0.1.path")).unwrap();
        assert!(PathLog::read(&dir).is_err());
        std::fs::write(dir.join("manifest.json"), "{\"format\": \"causa-paths\"").unwrap();
        let e = PathLog::read(&dir).unwrap_err().to_string();
        assert!(e.contains("corrupt path log"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
        let e = PathLog::read(&dir).unwrap_err().to_string();
        assert!(e.contains("is") && e.contains("a path-log directory?"), "{e}");
    }
}
