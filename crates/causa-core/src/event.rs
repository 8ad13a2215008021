//! Visible events: what the interpreter reports at every scheduling point.
//!
//! [`Event`] is the compact form recorded on the hot path (no strings, no heap).
//! [`EventRecord`] is the readable form built once per report: thread names,
//! object names (`counter`, `buf[3]`, `heap#2 (malloc at bank.c:12)+8`) and source
//! locations resolved.

use crate::{MemoryModel, SourceLoc, ThreadName, Tid};
use serde::{Deserialize, Serialize};

/// What a visible event did.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// The first event of every thread.
    Begin,
    /// The thread returned from its start routine or called `pthread_exit`.
    End,
    Read,
    Write,
    /// Atomic read-modify-write (`atomicrmw`, successful or failed `cmpxchg`).
    Rmw,
    Fork,
    Join,
    /// A mutex or spin lock acquisition; `value` is [`LOCK_TRY`] for a
    /// successful trylock/timedlock.
    Lock,
    /// A `trylock` that did not acquire the lock.
    TrylockFail,
    Unlock,
    /// `pthread_cond_wait`: releases the mutex and waits.
    Wait,
    /// Return from a condition wait: re-acquires the mutex.
    WaitReturn,
    Signal,
    Broadcast,
    ReadLock,
    WriteLock,
    RwUnlock,
    /// An arrival at a barrier (`value` = generation, `value2` = count << 1 |
    /// whether it was the last to arrive) or a departure after waiting
    /// (`value2` = 0).
    BarrierWait,
    SemWait,
    SemPost,
    Yield,
    Sleep,
    Free,
    /// `pthread_mutex_destroy`, `pthread_spin_destroy` or
    /// `pthread_rwlock_destroy` of a lock other threads can reach (`addr`).
    Destroy,
    /// A memory fence under TSO/PSO (it waits for the thread's store buffer
    /// to drain; under SC fences are not visible).
    Fence,
    /// Start of an uninterruptible `__VERIFIER_atomic` section.
    AtomicBegin,
    AtomicEnd,
    /// A `pthread_once` step; `value` says which (see [`once_step`]).
    Once,
    /// A call to `exit`/`abort` or the return from `main`.
    Exit,
    /// The operation that failed (reports only; never recorded by the interpreter).
    Fails,
}

impl EventKind {
    /// Stable lower-case name used in traces and reports.
    pub fn name(self) -> &'static str {
        use EventKind::*;
        match self {
            Begin => "begin",
            End => "end",
            Read => "read",
            Write => "write",
            Rmw => "rmw",
            Fork => "fork",
            Join => "join",
            Lock => "lock",
            TrylockFail => "trylock-fail",
            Unlock => "unlock",
            Wait => "wait",
            WaitReturn => "wait-return",
            Signal => "signal",
            Broadcast => "broadcast",
            ReadLock => "rdlock",
            WriteLock => "wrlock",
            RwUnlock => "rwunlock",
            BarrierWait => "barrier-wait",
            SemWait => "sem-wait",
            SemPost => "sem-post",
            Yield => "yield",
            Sleep => "sleep",
            Free => "free",
            Destroy => "destroy",
            Fence => "fence",
            AtomicBegin => "atomic-begin",
            AtomicEnd => "atomic-end",
            Once => "once",
            Exit => "exit",
            Fails => "FAILS:",
        }
    }

    /// Whether the event can change state other threads observe (everything but
    /// reads, yields, sleeps and failed trylocks). Busy-wait detection parks a
    /// spinning thread until such an event happens.
    pub fn changes_shared_state(self) -> bool {
        !matches!(self, EventKind::Read | EventKind::Yield | EventKind::Sleep | EventKind::TrylockFail)
    }

    /// Whether the event accesses program memory (for object naming and values).
    pub fn is_memory_access(self) -> bool {
        matches!(self, EventKind::Read | EventKind::Write | EventKind::Rmw)
    }

    /// An operation of a library call on the synchronisation object its
    /// first argument points to (a lock, condition variable, semaphore or
    /// barrier).
    pub fn on_sync_object(self) -> bool {
        use EventKind::*;
        matches!(
            self,
            Lock | TrylockFail
                | Unlock
                | Wait
                | Signal
                | Broadcast
                | ReadLock
                | WriteLock
                | RwUnlock
                | BarrierWait
                | SemWait
                | SemPost
                | Destroy
        )
    }
}

/// The bytes a visible bulk operation (`memcpy`, `memmove`, `memset`, a
/// string function touching shared memory) read and wrote. Its [`Event`]
/// names only the first address and the size; the constraint model splits
/// the bytes into the locations the program's other accesses use.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BulkAccess {
    /// Index of the operation's event in the execution's events.
    pub event: usize,
    /// Each shared span read: its address and bytes (`memcmp` of two shared
    /// blocks reads two).
    pub reads: Vec<(u64, Vec<u8>)>,
    /// Each shared span written: its address, its bytes before and after
    /// (the destination; `strtok` also moves the process's position).
    pub writes: Vec<(u64, Vec<u8>, Vec<u8>)>,
}

/// `Event::value` of a lock acquisition made by a trylock or timedlock (which
/// would not have waited for the lock).
pub const LOCK_TRY: u128 = 1;

/// `Event::value2` of a `sem_trywait`/`sem_timedwait` that found the semaphore
/// at 0 and failed (`value` keeps the semaphore's value before every operation).
pub const SEM_FAILED: u128 = 1;

/// `Event::value2` of a `sem_trywait`/`sem_timedwait` that took a unit (it
/// would have failed instead of waiting).
pub const SEM_TRIED: u128 = 2;

/// Compact visible event as recorded during an execution.
///
/// Invariant: `thread` is the [`Tid`] of the execution that recorded it; `loc` is an
/// index into the program's location table (`u32::MAX` when unknown); `addr` is the
/// accessed address for memory events, the sync object's address for sync events,
/// and the child/target thread's `Tid` for fork/join.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Event {
    pub thread: Tid,
    pub kind: EventKind,
    pub loc: u32,
    pub addr: u64,
    /// Access width in bytes (0 for non-memory events).
    pub size: u32,
    /// Value read (read/rmw) or written (write); `1` for a `wait-return` that was
    /// signalled (`0`: a timed wait that timed out); for a `wait`, 1 if timed,
    /// else 0; exit status for `exit`.
    pub value: u128,
    /// Value written by an rmw; the value a write overwrote; the mutex of a
    /// `wait` or `wait-return`.
    pub value2: u128,
    /// The fingerprint of the thread's local state at a read, at an rmw that
    /// left the value as it was (a failed test-and-set or compare-and-swap),
    /// at an unlock after which it holds no lock and at a timed wait; 0
    /// otherwise (busy-wait detection, see `causa_interp::spin`; the constraint
    /// model mirrors it).
    pub print: u64,
    /// The access is atomic (C11 atomic, rmw or inside an atomic section).
    pub atomic: bool,
    /// The uninterruptible section (`__VERIFIER_atomic_*`) the event belongs to;
    /// 0 outside any. Events of one section run with no other thread in between.
    pub section: u32,
    /// Position of the operation in its thread's program order. Events of a
    /// thread are recorded in this order, except under TSO/PSO, where a store
    /// is recorded when it is flushed, later than the operations that followed
    /// it (its `po` is where it was issued).
    pub po: u32,
}

impl Event {
    /// Under `model`, whether the event is a store that went through its
    /// thread's store buffer (a plain write; atomic stores and stores inside
    /// uninterruptible sections write through): the event is its flush.
    pub fn buffered(&self, model: MemoryModel) -> bool {
        model.buffers_stores() && self.kind == EventKind::Write && !self.atomic
    }

    /// Whether the event can change state other threads observe: as its kind
    /// says ([`EventKind::changes_shared_state`]), except an rmw that wrote
    /// back the value it read (a failed test-and-set or compare-and-swap in a
    /// spin loop), which leaves memory as it was.
    pub fn changes_shared_state(&self) -> bool {
        self.kind.changes_shared_state() && !(self.kind == EventKind::Rmw && self.value == self.value2)
    }

    /// The memory (byte ranges `[start, end)`) or synchronisation objects (one
    /// byte at their address) the event reads or changes. Busy-wait detection
    /// uses it in the interpreter and in the constraint model alike: a parked
    /// spinner waits for a change that overlaps what its loop observed.
    pub fn footprint(&self) -> impl Iterator<Item = (u64, u64)> {
        use EventKind::*;
        let one = |a: u64| (a, a + 1);
        let (first, second) = match self.kind {
            Read | Write | Rmw => (Some((self.addr, self.addr + self.size.max(1) as u64)), None),
            // A free's `value` is the freed block's size.
            Free => (Some((self.addr, self.addr + (self.value as u64).max(1))), None),
            // A condition wait also releases / re-acquires its mutex (`value2`).
            Wait | WaitReturn => (Some(one(self.addr)), Some(one(self.value2 as u64))),
            Lock | TrylockFail | Unlock | Signal | Broadcast | ReadLock | WriteLock | RwUnlock | BarrierWait
            | SemWait | SemPost | Once | Destroy => (Some(one(self.addr)), None),
            Begin | End | Fork | Join | Yield | Sleep | Fence | AtomicBegin | AtomicEnd | Exit | Fails => (None, None),
        };
        first.into_iter().chain(second)
    }
}

/// Whether two footprints (see [`Event::footprint`]) share a byte.
pub fn overlaps(a: &[(u64, u64)], b: impl IntoIterator<Item = (u64, u64)>) -> bool {
    b.into_iter().any(|(s, e)| a.iter().any(|(s2, e2)| s < *e2 && *s2 < e))
}

/// The `value` of a [`EventKind::Once`] event, shared by the interpreter that
/// records it and the constraint model that reads it.
pub mod once_step {
    /// A call that found the routine not run: this thread runs it.
    pub const CALLED_FIRST: u128 = 0;
    /// A call that found the routine running in another thread: it waits.
    pub const FOUND_RUNNING: u128 = 1;
    /// A call that found the routine done.
    pub const FOUND_DONE: u128 = 2;
    /// A waiting caller resumes after the routine finished.
    pub const RESUMED: u128 = 3;
    /// The routine returned: the once is done.
    pub const MARKED_DONE: u128 = 4;

    /// What a call that found `found` (one of the first three) did, in words.
    pub fn describe(found: u128) -> &'static str {
        match found {
            CALLED_FIRST => "ran the routine",
            FOUND_RUNNING => "waited for another thread's routine",
            _ => "found the routine done",
        }
    }
}

/// A heap block of a run as events name it (`heap#1`, `heap@0.1#2`), with
/// the call that allocated it and where: the reports' legend (a reader
/// sees `heap#1.refs` where the program says `shared->refs`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct HeapBlock {
    pub name: String,
    /// `malloc`, `calloc`, `realloc`, …
    pub by: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<SourceLoc>,
}

/// Readable form of an [`Event`], as written to `--trace` files and reports.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct EventRecord {
    /// Position in the execution (0-based visible step).
    pub seq: usize,
    pub thread: ThreadName,
    pub kind: EventKind,
    /// The object as a person would name it, when the event touches one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_value: Option<String>,
    /// Other thread involved (fork/join target).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_thread: Option<ThreadName>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceLoc>,
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub atomic: bool,
    /// A store that went through a store buffer (TSO/PSO): the event is the
    /// moment it became visible, shown as `flush x = 1`.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub flushed: bool,
    /// The object is a local variable of a function's frame: which
    /// function's, in which thread (another thread reaching it holds its
    /// address).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub local_of: Option<LocalOf>,
}

/// The frame a local variable lives in ([`EventRecord::local_of`]).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct LocalOf {
    pub function: String,
    pub thread: ThreadName,
}

impl EventRecord {
    /// The object of a bulk access (`memcpy` of a struct): what it spans and
    /// its size, `shared (16 bytes)`.
    pub fn bulk_object(span: &str, size: u32) -> String {
        format!("{span} ({size} bytes)")
    }

    /// What a bulk access spans, when this is one ([`EventRecord::bulk_object`]).
    pub fn span(&self) -> Option<&str> {
        let size = self.width?;
        self.object.as_deref()?.strip_suffix(&format!(" ({size} bytes)"))
    }

    /// Short human description: `write counter = 2`, `lock m`, `fork 0.1`.
    pub fn describe(&self) -> String {
        let mut s = if self.flushed { "flush".to_string() } else { self.kind.name().to_string() };
        if let Some(o) = &self.other_thread {
            s.push(' ');
            s.push_str(&o.to_string());
        }
        if let Some(obj) = &self.object {
            s.push(' ');
            s.push_str(obj);
        }
        match (self.kind, &self.value, &self.new_value) {
            (EventKind::Rmw, Some(v), Some(n)) => s.push_str(&format!(" {v}→{n}")),
            (EventKind::Read, Some(v), _) => s.push_str(&format!(" → {v}")),
            (EventKind::WaitReturn, Some(v), _) => s.push_str(&format!(" ({v})")),
            (_, Some(v), _) => s.push_str(&format!(" = {v}")),
            _ => {}
        }
        s
    }
}
