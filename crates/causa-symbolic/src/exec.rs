//! Guided symbolic execution: each thread alone, along its recorded path.
//!
//! Integer and pointer registers hold expressions ([`crate::Expr`]); a load from
//! shared memory yields a fresh read expression, a store to shared memory
//! records its value's expression, and every conditional branch, switch and
//! indirect call follows the next recorded decision and adds the condition it
//! implies to the thread's path condition. Memory the thread allocated on its
//! own stack is private (its contents are tracked exactly); static objects
//! that are not read-only and heap blocks are shared.
//!
//! A shared access through an address computed from shared data keeps that
//! address as an expression (the solver resolves it, CLAP §8.4), unless it is
//! a pointer with one known value ([`resolve`]: pinned, with the read
//! required to return it). A memory error stops the failing thread at the
//! operation it names, with the predicate of [`crate::fault`]; a shared
//! stack object dies when its function returns, a shared thread-local
//! instance when its thread ends ([`SymTrace::deaths`]). A
//! synchronisation object at an address computed from shared data is the
//! run's (an interpreter's log records each call's objects:
//! `ThreadPath::objects`), with a path condition that the address is that
//! one, flippable like a branch (the alternate may use another object).
//! Not covered yet, each reported as [`SymError::Unsupported`] by name and
//! source location (never concretised silently): such objects in a native
//! recording's log, this thread's own stack memory at such an index,
//! atomic read-modify-write of floats, `long double`, `fmod` and vector
//! arithmetic on shared data ([`float`]: `float` and `double` are covered), bulk memory
//! functions on shared memory ([`bulk`]; `strlen` and `strdup` of constants
//! and of the thread's own memory are followed), and most library functions
//! beyond pthread mutexes, condition variables, semaphores, thread creation
//! and join (with the joined thread's result: [`SymTrace::join_results`]),
//! heap allocation, assertions and program inputs. A stack object becomes
//! shared when its address escapes, exactly when the interpreter shares it:
//! stored anywhere as a pointer-sized value, or passed to a new thread. Its
//! contents at that point are its initial value for the other threads
//! ([`SymTrace::escaped`]).

use crate::expr::ExprId;
use crate::trace::{Branch, Fault, Object, ReadKey, SymEvent, SymOp, SymThread, SymTrace};
use causa_core::collections::HashMap;
use causa_core::paths::{Decision, PathLog, ThreadPath};
use causa_core::{BugKind, ThreadName};
use causa_ir::{BinOp, Callee, CastOp, FnId, LocId, Op, Operand, Program, Term, Ty, Value, NONE};

mod atomic;
mod attrs;
mod bulk;
mod files;
mod float;
mod format;
mod keys;
mod library;
mod numbers;
mod pointed;
pub(crate) mod pure;
mod resolve;
mod scan;
mod scan_text;
mod spin;
mod stored;
mod strings;
mod tls;
mod tokens;

/// Why symbolic execution could not follow a log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SymError {
    #[error("the path log does not fit the program: {0}")]
    Mismatch(String),
    #[error("unsupported in symbolic execution: {what}{}", at.as_ref().map(|a| format!(" (at {a})")).unwrap_or_default())]
    Unsupported { what: String, at: Option<String> },
}

/// A register: an integer or pointer expression, a concrete float, or an
/// aggregate of registers.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Reg {
    Int(ExprId),
    Float(Value),
    Agg(Vec<Reg>),
}

struct Frame {
    func: FnId,
    block: u32,
    prev: u32,
    ip: usize,
    regs: Vec<Reg>,
    dest: u32,
    /// A `__VERIFIER_atomic_*` function: runs without interruption.
    atomic: bool,
    /// The stack objects it allocated (they die when it returns).
    allocas: Vec<u32>,
    /// A `pthread_once` routine: the once it marks done when it returns.
    once_done: Option<u64>,
}

/// Where an access goes.
enum Addr {
    Concrete(u64),
    /// Computed from shared data: resolved when solving.
    Symbolic(ExprId),
}

/// An operation that can be a memory error ([`Thread::memory_fault`]).
pub(crate) enum Access {
    /// An access of this many bytes: a write, a read, or either (`None`:
    /// the operations of synchronisation objects).
    Bytes(u64, Option<bool>),
    Free,
}

/// Where threads start: (start routine, argument), by thread name.
type Starts = HashMap<ThreadName, (FnId, Reg)>;

/// How many times symbolic execution runs again with the reads found
/// determined ([`crate::determined`]) as constants: each run can fold more
/// writes into constants, and so determine more reads.
const DETERMINED_PASSES: usize = 8;

/// Run every thread of `log` along its path; reads whose value program
/// order and thread creation fix ([`crate::determined`]) are constants.
pub fn execute(program: &Program, log: &PathLog) -> Result<SymTrace, SymError> {
    let (mut trace, mut pass) = execute_with(program, log, HashMap::default(), Pass::default())?;
    // A value pinned, or a string's address computed, with only the
    // writes of the threads followed so far known: run again knowing every
    // value written ([`resolve`], `pointed.rs`).
    // (Should that pass fail, where a pin it no longer makes was needed,
    // such as a lock's address, the first pass's trace is kept.)
    if pass.partial {
        tracing::debug!("symbolic execution again: a pointer was resolved before every thread's writes were known");
        let prior = pass.learnt();
        match execute_with(program, log, HashMap::default(), prior) {
            Ok((t, p)) => (trace, pass) = (t, p),
            // (Unless a string's targets were not known in the first pass:
            // its trace is only a first look at what the threads write.)
            Err(e) if pass.stand_ins => return Err(e),
            Err(e) => tracing::debug!(%e, "symbolic execution knowing every write failed: the first pass is kept"),
        }
    }
    for _ in 0..DETERMINED_PASSES {
        let found = crate::determined::reads(&trace);
        if found.len() <= trace.determined.len() {
            break;
        }
        // By their places in the threads: the next pass numbers its reads
        // anew.
        let known = found.into_iter().map(|(id, v)| (trace.read_keys[id as usize], v)).collect();
        let prior = pass.learnt();
        match execute_with(program, log, known, prior) {
            Ok((t, p)) => (trace, pass) = (t, p),
            // A determined value is the one the run read, unless the log
            // combines paths of several runs (explain's neighbouring run
            // extends the other threads' paths: a read of a count the
            // failing thread, cut short there, never adds to, is determined
            // to another value than the one a branch of the other run
            // tested). Keep the trace of the pass before.
            Err(e) => {
                tracing::debug!(%e, "symbolic execution with determined reads failed: the pass before is kept");
                break;
            }
        }
    }
    Ok(trace)
}

/// The id the interpreter gives the first object it allocates as the
/// program runs: after the null object, the globals and the functions, the
/// blocks of `argv` when `main` takes it (its table and one per argument),
/// and the `FILE`s it creates at start for the standard streams the program
/// declares (`causa_interp::shims::libc::file::init_std_streams`), so that
/// stack and heap objects have the same addresses in the trace as in the
/// run.
fn first_dynamic_object(program: &Program, log: &PathLog) -> u32 {
    let streams =
        program.globals.iter().filter(|g| g.external && causa_ir::STD_STREAMS.contains(&&*g.name)).count() as u32;
    let takes_argv = program.function_by_name("main").is_some_and(|m| program.functions[m as usize].params.len() >= 2);
    let argv = if takes_argv { 1 + log.argv.len() as u32 } else { 0 };
    1 + program.space.num_globals + program.space.num_functions + argv + streams
}

/// What one symbolic execution learnt that the next may use.
#[derive(Default)]
struct Pass {
    /// The values each shared location was written (`resolve::Written`).
    written: resolve::Written,
    /// Who wrote each shared location (`resolve::Writers`).
    writers: resolve::Writers,
    /// A value was pinned, or a string's address computed, before every
    /// thread's writes were known.
    partial: bool,
    /// What each location written can hold ([`stored`]).
    values: stored::Values,
    /// The objects allocated by the end.
    objects: Vec<Object>,
    /// Where writes through computed addresses whose targets were not
    /// known may have landed: no location there is pinned ([`resolve`]).
    spoiled: resolve::Spoiled,
    /// A pass ran (the first has no pass before).
    ran: bool,
    /// A string was read through a pointer none of whose targets was
    /// known yet (`pointed.rs`), or an index into the thread's own memory
    /// was pinned before every thread's writes were known
    /// ([`Thread::address`]): the trace is not a model of the run.
    stand_ins: bool,
}

impl Pass {
    /// What the next pass starts from.
    fn learnt(&mut self) -> Pass {
        Pass {
            written: std::mem::take(&mut self.written),
            writers: std::mem::take(&mut self.writers),
            values: std::mem::take(&mut self.values),
            objects: std::mem::take(&mut self.objects),
            spoiled: std::mem::take(&mut self.spoiled),
            ran: true,
            ..Pass::default()
        }
    }
}

/// One symbolic execution, with the reads of `known` as constants and
/// what the pass before wrote (`prior`).
fn execute_with(
    program: &Program,
    log: &PathLog,
    known: HashMap<ReadKey, u128>,
    prior: Pass,
) -> Result<(SymTrace, Pass), SymError> {
    if !program.space.tagged() {
        return Err(SymError::Unsupported { what: "32-bit programs".into(), at: None });
    }
    let main =
        program.function_by_name("main").ok_or_else(|| SymError::Mismatch("the program has no `main`".into()))?;
    let mut st = State {
        program,
        trace: SymTrace::default(),
        starts: Starts::default(),
        handles: HashMap::default(),
        next_object: first_dynamic_object(program, log),
        failure: log.failure.clone(),
        failure_occurrence: log.failure_occurrence,
        objects_recorded: log.threads.iter().any(|t| !t.objects.is_empty()),
        written: Default::default(),
        prior_written: prior.written,
        writers: Default::default(),
        prior_writers: prior.writers,
        spoiled: prior.spoiled,
        stored: Default::default(),
        prior_values: prior.values,
        prior_objects: prior.objects,
        first_pass: !prior.ran,
        stand_ins: false,
        partial: false,
        known: HashMap::default(),
        keys: Default::default(),
    };
    st.known = known;
    st.trace.memory_model = log.memory_model;
    for (g, glob) in program.globals.iter().enumerate() {
        if glob.external {
            continue;
        }
        if !glob.is_const {
            st.trace.initial.push((program.global_addr(g), glob.init.clone()));
        }
        let size = glob.ty.store_size().max(glob.init.len() as u64);
        let base = program.global_addr(g);
        st.trace.objects.push(Object { base, size, heap: false, read_only: glob.is_const });
    }
    for (i, path) in log.threads.iter().enumerate() {
        let (func, arg) = if i == 0 {
            (main, None)
        } else {
            let (f, a) = st.starts.get(&path.thread).cloned().ok_or_else(|| {
                SymError::Mismatch(format!("thread {} is in the log but no thread creates it", path.thread))
            })?;
            (f, Some(a))
        };
        let t = Thread::run(&mut st, i, path, func, arg)?;
        st.trace.threads.push(t);
    }
    join_reads_last(&mut st.trace);
    realloc_copies_unread(&st)?;
    crate::fault::predicates(&mut st.trace);
    let values = stored::values(&st);
    let pass = Pass {
        written: st.written,
        writers: st.writers,
        partial: st.partial,
        values,
        objects: st.trace.objects.clone(),
        spoiled: st.spoiled,
        ran: true,
        stand_ins: st.stand_ins,
    };
    Ok((st.trace, pass))
}

/// The joins' results ([`SymTrace::join_results`]) renumbered after every
/// other read, so that the other reads keep the ids they would have
/// without them: the solver's variables are named by read id, and which
/// of several equally good schedules Z3 gives first depends on those names
/// (refcount_nonatomic_release, whose results decide nothing before its
/// failure: its flip's first schedule changed with the ids, and its
/// explanation took 1.3-2.0 s instead of 0.7; docs/performance.md).
fn join_reads_last(trace: &mut SymTrace) {
    if trace.join_results.is_empty() {
        return;
    }
    let joined: std::collections::BTreeSet<u32> = trace.join_results.iter().map(|(r, _)| *r).collect();
    let n = trace.reads.len() as u32;
    let order: Vec<u32> = (0..n).filter(|r| !joined.contains(r)).chain(joined.iter().copied()).collect();
    let mut new_id = vec![0; n as usize];
    for (new, old) in order.iter().enumerate() {
        new_id[*old as usize] = new as u32;
    }
    trace.exprs.renumber_reads(&new_id);
    trace.reads = order.iter().map(|r| trace.reads[*r as usize]).collect();
    trace.read_keys = order.iter().map(|r| trace.read_keys[*r as usize]).collect();
    for r in trace.determined.iter_mut().chain(trace.join_results.iter_mut().map(|(r, _)| r)) {
        *r = new_id[*r as usize];
    }
    for th in &mut trace.threads {
        for e in &mut th.events {
            if let SymOp::Arrive { serial, .. } = &mut e.op {
                *serial = new_id[*serial as usize];
            }
        }
    }
}

struct State<'p> {
    program: &'p Program,
    trace: SymTrace,
    starts: Starts,
    /// pthread_t values handed out, by value.
    handles: HashMap<u128, ThreadName>,
    next_object: u32,
    /// The failure the log recorded.
    failure: Option<causa_core::Finding>,
    /// For a deadlock, the blocking operations its thread completed at its
    /// location first ([`causa_core::paths::PathLog::failure_occurrence`]).
    failure_occurrence: Option<u32>,
    /// The log holds the synchronisation objects of its calls
    /// ([`ThreadPath::objects`]: an interpreter's log with such calls).
    objects_recorded: bool,
    /// Values written to each shared location so far ([`resolve`]).
    written: resolve::Written,
    /// Those the pass before saw written by the end.
    prior_written: resolve::Written,
    /// Who wrote each shared location so far ([`resolve`]), and who the
    /// pass before saw write it by the end.
    writers: resolve::Writers,
    prior_writers: resolve::Writers,
    /// [`Pass::spoiled`], this pass's and the pass before's.
    spoiled: resolve::Spoiled,
    /// Everything written to each shared location so far ([`stored`]).
    stored: stored::StoredMap,
    /// What each location the pass before wrote can hold.
    prior_values: stored::Values,
    /// The objects the pass before allocated by the end.
    prior_objects: Vec<Object>,
    /// No pass ran before this one.
    first_pass: bool,
    /// See [`Pass::stand_ins`].
    stand_ins: bool,
    /// A value was pinned, or a string's address computed, before every
    /// thread's writes were known (the next pass knows them).
    partial: bool,
    /// Reads whose value is determined: read id → value.
    /// Reads found determined in the pass before, by place.
    known: HashMap<ReadKey, u128>,
    /// Thread-specific-data keys.
    keys: keys::Keys,
}

pub(crate) struct Thread<'s, 'p> {
    st: &'s mut State<'p>,
    index: usize,
    path: &'s ThreadPath,
    next_decision: usize,
    next_input: usize,
    /// The next of [`ThreadPath::onces`], [`ThreadPath::values`] and
    /// [`ThreadPath::tries`].
    next_once: usize,
    next_value: usize,
    next_try: usize,
    /// The next of [`ThreadPath::sizes`], and the current library call's
    /// recorded arguments from there: (position, value, whether the read
    /// it is computed from is tied to it; a formatting call's are not).
    next_size: usize,
    call_sizes: Vec<(usize, u64, bool)>,
    /// The next of [`ThreadPath::objects`], and the current library call's
    /// recorded objects from there: (position, address in the run).
    next_object_arg: usize,
    call_objects: Vec<(usize, u64)>,
    /// The current library call's synchronisation-object positions.
    object_positions: &'static [usize],
    children: u32,
    frames: Vec<Frame>,
    out: SymThread,
    /// Objects on this thread's stack.
    private: causa_core::collections::HashSet<u32>,
    /// Contents of private memory: address → (size, value).
    local: HashMap<u64, (u32, Reg)>,
    /// Private objects a bulk memory operation wrote (byte entries).
    bulk: causa_core::collections::HashSet<u32>,
    /// The last value this thread wrote to each shared address.
    own_writes: HashMap<u64, Reg>,
    /// Per read of this thread (by read id): what it last wrote to the
    /// address before the read, if anything ([`resolve`]).
    own_before_read: HashMap<u32, ExprId>,
    /// Reads [`resolve`] required to return one value, and the value.
    pinned: HashMap<u32, u128>,
    /// How deep [`resolve`] is in following own writes back.
    pin_depth: u32,
    /// Whether [`resolve`] may pin a read to this thread's own last write
    /// (only where a concrete value is needed).
    own_pins: bool,
    /// [`Thread::resolve_concrete`] pinned a read of this thread's own
    /// write (cleared by whoever asks).
    pinned_own: bool,
    loc: LocId,
    /// Nesting of uninterruptible sections, and the current one's number.
    atomic_depth: u32,
    section: u32,
    /// Sizes of this thread's stack objects (and thread-local instances).
    stack_sizes: HashMap<u32, u64>,
    /// This thread's instances of thread-local globals: (global, object).
    thread_locals: Vec<(u32, u32)>,
    /// The private object the thread's result points into (its thread-local
    /// instance, or a stack object): the joining thread can reach it, so
    /// its death is recorded ([`Thread::die`]).
    handed_back: Option<u32>,
    /// The thread blocked forever at the log's deadlock.
    blocked: bool,
    /// [`Thread::address`] is resolving an array element's address (see
    /// [`resolve`]).
    indexing: bool,
    /// ... an element's address in this thread's own memory, which
    /// symbolic execution cannot leave computed: a location never written
    /// is pinned to the value it started with, null included ([`resolve`]).
    private_index: bool,
    /// Its thread-specific data.
    specific: keys::Specific,
    /// The path condition the last branch added (None: its condition was a
    /// constant).
    last_condition: Option<usize>,
    /// Instructions executed, and the reads of the current one
    /// ([`ReadKey`]).
    steps: u64,
    step_reads: u32,
}

impl<'s, 'p> Thread<'s, 'p> {
    fn run(
        st: &'s mut State<'p>,
        index: usize,
        path: &'s ThreadPath,
        func: FnId,
        arg: Option<Reg>,
    ) -> Result<SymThread, SymError> {
        let out = SymThread {
            thread: path.thread.clone(),
            events: Vec::new(),
            path: Vec::new(),
            branches: Vec::new(),
            unfinished: false,
            inputs_at: Vec::new(),
            failure_condition: None,
            start: Some(st.program.functions[func as usize].name.to_string()),
        };
        let mut t = Thread {
            st,
            index,
            path,
            next_decision: 0,
            next_input: 0,
            next_once: 0,
            next_value: 0,
            next_try: 0,
            next_size: 0,
            call_sizes: Vec::new(),
            next_object_arg: 0,
            call_objects: Vec::new(),
            object_positions: &[],
            children: 0,
            frames: Vec::new(),
            out,
            private: Default::default(),
            local: HashMap::default(),
            bulk: Default::default(),
            own_writes: HashMap::default(),
            own_before_read: HashMap::default(),
            pinned: HashMap::default(),
            pin_depth: 0,
            own_pins: false,
            pinned_own: false,
            loc: NONE,
            atomic_depth: 0,
            section: 0,
            stack_sizes: HashMap::default(),
            thread_locals: Vec::new(),
            handed_back: None,
            blocked: false,
            indexing: false,
            private_index: false,
            specific: Default::default(),
            last_condition: None,
            steps: 0,
            step_reads: 0,
        };
        t.event(SymOp::Begin);
        let args: Vec<Reg> = match arg {
            Some(a) => vec![a],
            None => {
                // main(argc, argv): argv is not modelled; argc is concrete.
                let n = t.st.program.functions[func as usize].params.len();
                let argc = t.st.trace.exprs.constant(32, 1);
                (0..n).map(|i| if i == 0 { Reg::Int(argc) } else { t.zero(64) }).collect()
            }
        };
        t.push(func, args, NONE)?;
        t.execute()?;
        if t.next_decision < t.path.decisions.len() {
            return Err(SymError::Mismatch(format!(
                "thread {} ended with {} recorded decisions left",
                t.path.thread,
                t.path.decisions.len() - t.next_decision
            )));
        }
        Ok(t.out)
    }

    fn at(&self) -> Option<String> {
        self.st.program.loc(self.loc).map(|l| l.to_string())
    }

    fn unsupported(&self, what: impl Into<String>) -> SymError {
        SymError::Unsupported { what: what.into(), at: self.at() }
    }

    fn event(&mut self, op: SymOp) {
        let section = if self.atomic_depth > 0 { self.section } else { 0 };
        self.out.events.push(SymEvent { op, loc: self.loc, section });
    }

    fn zero(&mut self, bits: u32) -> Reg {
        Reg::Int(self.st.trace.exprs.constant(bits, 0))
    }

    fn push(&mut self, func: FnId, args: Vec<Reg>, dest: u32) -> Result<(), SymError> {
        let f = &self.st.program.functions[func as usize];
        let Some(body) = &f.body else {
            return Err(self.unsupported(format!("external function `{}`", f.name)));
        };
        let mut regs = vec![Reg::Float(Value::ZERO); body.num_locals as usize];
        for (i, a) in args.into_iter().enumerate().take(regs.len()) {
            regs[i] = a;
        }
        let atomic = causa_ir::is_atomic_function(&f.name);
        if atomic {
            self.enter_atomic();
        }
        self.frames.push(Frame {
            func,
            block: 0,
            prev: NONE,
            ip: 0,
            regs,
            dest,
            atomic,
            allocas: Vec::new(),
            once_done: None,
        });
        self.enter_block()
    }

    fn operand(&mut self, op: &Operand) -> Reg {
        match op {
            Operand::Local(l) => self.frames.last().expect("frame").regs[*l as usize].clone(),
            Operand::Const(v) => self.konst(v),
        }
    }

    fn konst(&mut self, v: &Value) -> Reg {
        match v {
            Value::Int(x) => Reg::Int(self.st.trace.exprs.constant(128, *x)),
            Value::Agg(items) => Reg::Agg(items.iter().map(|x| self.konst(x)).collect()),
            other => Reg::Float(other.clone()),
        }
    }

    /// An integer operand as an expression `bits` wide.
    fn int(&mut self, op: &Operand, bits: u32) -> Result<ExprId, SymError> {
        match self.operand(op) {
            Reg::Int(e) => Ok(self.fit(e, bits)),
            _ => Err(self.unsupported("a floating-point or aggregate value used as an integer")),
        }
    }

    /// `e` cut or extended (zero) to `bits` (constants are stored 128 bits wide).
    fn fit(&mut self, e: ExprId, bits: u32) -> ExprId {
        let x = &mut self.st.trace.exprs;
        let have = x.bits(e);
        if have == bits {
            e
        } else if let Some(v) = x.value(e) {
            x.constant(bits, v)
        } else if have > bits {
            x.cast(CastOp::Trunc, have, bits, e)
        } else {
            x.cast(CastOp::ZExt, have, bits, e)
        }
    }

    /// A concrete address, or an error naming what needed it.
    fn addr(&mut self, op: &Operand, what: &str) -> Result<u64, SymError> {
        let e = self.int(op, 64)?;
        let e = self.resolve_concrete(e);
        if let Some(v) = self.st.trace.exprs.value(e) {
            return Ok(v as u64);
        }
        Err(self.unsupported(format!(
            "{what} through an address computed from shared data (a symbolic address, not a pointer with one known value)"
        )))
    }

    fn set(&mut self, dest: u32, r: Reg) {
        if dest != NONE {
            self.frames.last_mut().expect("frame").regs[dest as usize] = r;
        }
    }

    fn next_decision(&mut self) -> Option<Decision> {
        let d = self.path.decisions.get(self.next_decision).copied();
        self.next_decision += 1;
        d
    }

    fn condition(&mut self, c: ExprId) -> Result<(), SymError> {
        self.last_condition = None;
        match self.st.trace.exprs.value(c) {
            Some(1) => Ok(()),
            Some(_) => Err(SymError::Mismatch(format!(
                "thread {} takes a branch its concrete values rule out{}",
                self.path.thread,
                self.at().map(|a| format!(" at {a}")).unwrap_or_default()
            ))),
            None => {
                self.last_condition = Some(self.out.path.len());
                self.out.path.push((c, self.out.events.len()));
                Ok(())
            }
        }
    }

    /// Resolve the phis of the current block for the edge taken.
    fn enter_block(&mut self) -> Result<(), SymError> {
        let fr = self.frames.last().expect("frame");
        let body = self.st.program.functions[fr.func as usize].body.as_ref().expect("defined");
        let block = &body.blocks[fr.block as usize];
        let prev = fr.prev;
        let mut vals = Vec::new();
        for phi in &block.phis {
            let op = phi.incoming.iter().find(|(b, _)| *b == prev).map(|(_, o)| o.clone());
            vals.push((phi.dest, op));
        }
        for (dest, op) in vals {
            let r = match op {
                Some(o) => self.operand(&o),
                None => return Err(SymError::Mismatch("a phi node without an entry for the edge taken".into())),
            };
            self.set(dest, r);
        }
        Ok(())
    }

    /// Run the thread until it ends, fails, or needs a decision the log does
    /// not have (then it is marked unfinished).
    fn execute(&mut self) -> Result<(), SymError> {
        loop {
            if !self.run_frames()? {
                return Ok(());
            }
            if !self.next_key_destructor()? {
                break;
            }
        }
        self.end_location();
        self.event(SymOp::End);
        // Its shared thread-local instances die with it, in its `end` step.
        let instances: Vec<u32> = self.thread_locals.iter().map(|(_, id)| *id).collect();
        self.die(&instances);
        Ok(())
    }

    /// Run until the thread's frames are done (true) or it stops (false).
    fn run_frames(&mut self) -> Result<bool, SymError> {
        let program = self.st.program;
        while let Some(fr) = self.frames.last() {
            let body = program.functions[fr.func as usize].body.as_ref().expect("defined");
            let block = &body.blocks[fr.block as usize];
            if fr.ip < block.instrs.len() {
                let ins = &block.instrs[fr.ip];
                self.loc = ins.loc;
                self.frames.last_mut().expect("frame").ip += 1;
                self.steps += 1;
                self.step_reads = 0;
                if !self.instr(&ins.op, ins.dest)? {
                    return Ok(false);
                }
                continue;
            }
            self.loc = block.term_loc;
            if !self.terminator(&block.term)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The shared ones of objects `ids` die now, with the thread's last
    /// event so far ([`SymTrace::deaths`]).
    fn die(&mut self, ids: &[u32]) {
        let events = self.out.events.len();
        for id in ids.iter().filter(|id| !self.private.contains(id) || self.handed_back == Some(**id)) {
            self.st.trace.deaths.push((causa_ir::make_addr(*id, 0), self.index, events));
        }
    }

    fn jump(&mut self, to: u32) -> Result<(), SymError> {
        let fr = self.frames.last_mut().expect("frame");
        fr.prev = fr.block;
        fr.block = to;
        fr.ip = 0;
        self.enter_block()
    }

    /// Whether this is where the log's failure happened: the failing thread,
    /// with every recorded decision followed, at an operation of the failure's
    /// kind and source location.
    pub(crate) fn at_failure(&self, kind: BugKind) -> bool {
        let Some(f) = &self.st.failure else { return false };
        f.thread == self.path.thread
            && f.kind == kind
            && self.next_decision >= self.path.decisions.len()
            && match (f.location.as_ref(), self.st.program.loc(self.loc)) {
                // A native crash located from the executable is
                // line-precise (column 0): the same line of the same file.
                (Some(w), Some(g)) if w.column == 0 => w.file == g.file && w.line == g.line,
                (w, g) => w == g,
            }
    }

    /// A division by `y` (`bits` wide): false when the thread fails here
    /// (division by zero, the log's failure: `y = 0` is the bug predicate);
    /// otherwise a symbolic divisor adds `y ≠ 0` to the path condition.
    fn divisor_nonzero(&mut self, bits: u32, y: ExprId) -> Result<bool, SymError> {
        let zero = self.st.trace.exprs.constant(bits, 0);
        if self.at_failure(BugKind::DivisionByZero) {
            let is_zero = self.st.trace.exprs.icmp(causa_ir::ICmpPred::Eq, bits, y, zero);
            self.condition(is_zero)?;
            self.fail(BugKind::DivisionByZero, "division by zero".into());
            return Ok(false);
        }
        if self.st.trace.exprs.value(y).is_none() {
            let ne = self.st.trace.exprs.icmp(causa_ir::ICmpPred::Ne, bits, y, zero);
            self.condition(ne)?;
        }
        Ok(true)
    }

    /// Whether the log's memory error happens at this operation on `addr`:
    /// the failing thread at the failure's location, at an operation of the
    /// kind the failure names (its message says a free, a read or a write),
    /// that can be invalid (its address is computed from shared data, lies in
    /// a heap block that may be freed, or is invalid as it stands). If so the
    /// fault is recorded (its predicate is built when solving, over every
    /// object, [`crate::fault`]) and the thread fails here.
    pub(crate) fn memory_fault(&mut self, addr: &Operand, access: Access) -> Result<bool, SymError> {
        if !self.at_failure(BugKind::MemoryError) {
            return Ok(false);
        }
        let message = self.st.failure.as_ref().map(|f| f.message.clone()).unwrap_or_default();
        let frees = message.contains("free of");
        let (len, write) = match access {
            Access::Free if frees => (0, false),
            Access::Bytes(len, w) if !frees && w.is_none_or(|w| w == message.contains("write")) => {
                (len, w == Some(true))
            }
            _ => return Ok(false),
        };
        let e = self.int(addr, 64)?;
        // A known address inside a static or stack object, with room for the
        // access: valid in every schedule (unless the stack object's
        // function returned: the log says whether it did; a static object
        // never dies, and a call that touches one and a dead local, such as
        // `strcpy(copy, local)`, fails at the local).
        let dead = message.contains("dead stack frame") || message.contains("after its thread ended");
        let in_static = |a: u64| self.classify(a).1.is_some_and(|g| !self.st.program.globals[g].external);
        if let Some(a) = self.st.trace.exprs.value(e).map(|a| a as u64).filter(|a| len > 0 && (!dead || in_static(*a)))
        {
            let valid = |o: &Object| {
                causa_ir::addr_alloc(a) == causa_ir::addr_alloc(o.base)
                    && !o.heap
                    && !(write && o.read_only)
                    && causa_ir::addr_offset(a).checked_add(len).is_some_and(|end| end <= o.size)
            };
            if self.st.trace.objects.iter().any(valid) {
                return Ok(false);
            }
        }
        self.st.trace.fault = Some(Fault { thread: self.index, addr: e, len, write, functions: Vec::new() });
        self.fail(BugKind::MemoryError, message);
        Ok(true)
    }

    /// Whether the log's memory error is this indirect call through `p`
    /// (the interpreter's "call through an invalid function pointer"): if
    /// so the fault is recorded (valid when `p` is the address of one of
    /// the program's functions) and the thread fails here.
    fn call_fault(&mut self, p: &Operand) -> Result<bool, SymError> {
        let message = self.st.failure.as_ref().map(|f| f.message.clone()).unwrap_or_default();
        if !self.at_failure(BugKind::MemoryError) || !message.contains("invalid function pointer") {
            return Ok(false);
        }
        let e = self.int(p, 64)?;
        let space = &self.st.program.space;
        let functions = (0..self.st.program.functions.len() as u32).map(|f| space.function_addr(f)).collect();
        self.st.trace.fault = Some(Fault { thread: self.index, addr: e, len: 0, write: false, functions });
        self.fail(BugKind::MemoryError, message);
        Ok(true)
    }

    pub(crate) fn stop_unfinished(&mut self) -> bool {
        self.out.unfinished = true;
        false
    }

    /// [`Thread::stop_unfinished`] for a library call: the shims' answer
    /// that the thread stops before the call.
    pub(crate) fn stopped_before(&mut self) -> Option<Option<Reg>> {
        self.stop_unfinished();
        None
    }

    /// Whether the current block's branch is in path logs (see
    /// `causa_ir::local`); a branch that is not has a constant condition here.
    fn recorded(&self) -> bool {
        let Some(fr) = self.frames.last() else { return true };
        let body = self.st.program.functions[fr.func as usize].body.as_ref();
        body.and_then(|b| b.recorded.get(fr.block as usize).copied()).unwrap_or(true)
    }

    /// Follow a branch path logs leave out: its condition is a constant.
    fn local_branch(&mut self, term: &Term) -> Result<(), SymError> {
        let unknown = || {
            SymError::Mismatch(
                "a branch that path logs leave out depends on shared data here (a bug in causa's analysis)".into(),
            )
        };
        let target = match term {
            Term::CondBr { c, t, f } => {
                let c = self.int(c, 1)?;
                let v = self.st.trace.exprs.value(c).ok_or_else(unknown)?;
                if v & 1 == 1 {
                    *t
                } else {
                    *f
                }
            }
            Term::Switch { v, cases, default } => {
                let Reg::Int(x) = self.operand(v) else { return Err(unknown()) };
                let x = self.st.trace.exprs.value(x).ok_or_else(unknown)?;
                cases.iter().find(|(c, _)| *c == x).map_or(*default, |(_, b)| *b)
            }
            _ => return Err(unknown()),
        };
        self.jump(target)
    }

    fn terminator(&mut self, term: &Term) -> Result<bool, SymError> {
        if matches!(term, Term::CondBr { .. } | Term::Switch { .. }) && !self.recorded() {
            self.local_branch(term)?;
            return Ok(true);
        }
        match term {
            Term::Br(b) => self.jump(*b)?,
            Term::CondBr { c, t, f } => {
                let Some(d) = self.next_decision() else { return Ok(self.stop_unfinished()) };
                let Decision::Branch(taken) = d else {
                    return Err(SymError::Mismatch(format!("a conditional branch, but the log has {d:?}")));
                };
                let c = self.int(c, 1)?;
                let want = self.st.trace.exprs.constant(1, taken as u128);
                let cond = self.st.trace.exprs.icmp(causa_ir::ICmpPred::Eq, 1, c, want);
                let before = self.out.path.len();
                self.condition(cond)?;
                if self.out.path.len() > before {
                    let func = self.frames.last().expect("frame").func;
                    let doomed = self.st.program.fails_at_once(func, if taken { *f } else { *t });
                    let branch = Branch {
                        condition: before,
                        loc: self.loc,
                        taken,
                        switch: false,
                        doomed,
                        object: false,
                        failed_try: false,
                    };
                    self.out.branches.push(branch);
                }
                self.jump(if taken { *t } else { *f })?;
            }
            Term::Switch { v, cases, default } => {
                let Some(d) = self.next_decision() else { return Ok(self.stop_unfinished()) };
                let Decision::Switch(k) = d else {
                    return Err(SymError::Mismatch(format!("a switch, but the log has {d:?}")));
                };
                let Reg::Int(x) = self.operand(v) else { return Err(self.unsupported("a switch on a non-integer")) };
                let w = self.st.trace.exprs.bits(x);
                let before = self.out.path.len();
                let target = if k == 0 {
                    // One condition, x differs from every case: flipped, it
                    // says some case holds.
                    let mut none = self.st.trace.exprs.constant(1, 1);
                    for (c, _) in cases.clone() {
                        let cv = self.st.trace.exprs.constant(w, c);
                        let ne = self.st.trace.exprs.icmp(causa_ir::ICmpPred::Ne, w, x, cv);
                        none = self.st.trace.exprs.and(none, ne);
                    }
                    self.condition(none)?;
                    *default
                } else {
                    let (c, b) = cases
                        .get(k as usize - 1)
                        .copied()
                        .ok_or_else(|| SymError::Mismatch(format!("switch case {k} of {} recorded", cases.len())))?;
                    let cv = self.st.trace.exprs.constant(w, c);
                    let eq = self.st.trace.exprs.icmp(causa_ir::ICmpPred::Eq, w, x, cv);
                    self.condition(eq)?;
                    b
                };
                if self.out.path.len() > before {
                    self.out.branches.push(Branch {
                        condition: before,
                        loc: self.loc,
                        taken: true,
                        switch: true,
                        doomed: false,
                        object: false,
                        failed_try: false,
                    });
                }
                self.jump(target)?;
            }
            Term::Ret(v) => {
                let r = v.as_ref().map(|o| self.operand(o));
                let fr = self.frames.pop().expect("frame");
                if fr.atomic {
                    self.leave_atomic();
                }
                if self.frames.is_empty() {
                    self.returns(r.as_ref());
                }
                // Its shared stack objects die here, in the step of the
                // thread's last event (a return is not a scheduling point).
                self.die(&fr.allocas);
                if let (Some(r), false) = (r, self.frames.is_empty()) {
                    self.set(fr.dest, r);
                }
                if let Some(once) = fr.once_done {
                    self.sync(SymOp::OnceDone { once });
                }
            }
            Term::Unreachable => {
                self.event(SymOp::Fail { kind: BugKind::Abort, message: "reached `unreachable` code".into() });
                return Ok(false);
            }
            Term::Unsupported { what } => return Err(self.unsupported(what.to_string())),
        }
        Ok(true)
    }

    /// Execute one instruction; false when the thread stops.
    fn instr(&mut self, op: &Op, dest: u32) -> Result<bool, SymError> {
        let r = match op {
            Op::Bin { op, bits, a, b } => {
                let (x, y) = (self.int(a, *bits)?, self.int(b, *bits)?);
                if matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem)
                    && !self.divisor_nonzero(*bits, y)?
                {
                    return Ok(false);
                }
                match self.st.trace.exprs.bin(*op, *bits, x, y) {
                    Some(e) => Reg::Int(e),
                    None => {
                        let message = "division by zero".to_string();
                        self.event(SymOp::Fail { kind: BugKind::DivisionByZero, message });
                        return Ok(false);
                    }
                }
            }
            Op::ICmp { pred, bits, a, b } => {
                let (x, y) = (self.int(a, *bits)?, self.int(b, *bits)?);
                Reg::Int(self.st.trace.exprs.icmp(*pred, *bits, x, y))
            }
            Op::Cast { op, from, to, a } => match (from, to) {
                (Ty::Int(_) | Ty::Ptr, Ty::Int(_) | Ty::Ptr) => {
                    let (fb, tb) = (int_bits(from), int_bits(to));
                    let x = self.int(a, fb)?;
                    Reg::Int(self.st.trace.exprs.cast(*op, fb, tb, x))
                }
                _ => match self.operand(a) {
                    // (A float converted to an integer is an integer.)
                    Reg::Float(v) => self.konst(&causa_ir::ops::cast(*op, from, to, &v)),
                    Reg::Int(e) => match self.st.trace.exprs.value(e) {
                        Some(v) => self.konst(&causa_ir::ops::cast(*op, from, to, &Value::Int(v))),
                        None => self.fcast(*op, from, to, e)?,
                    },
                    Reg::Agg(_) => return Err(self.unsupported("a vector cast")),
                },
            },
            Op::Select { c, a, b } => {
                let c = self.int(c, 1)?;
                match (self.operand(a), self.operand(b)) {
                    (Reg::Int(x), Reg::Int(y)) => {
                        let w = self.st.trace.exprs.bits(x).max(self.st.trace.exprs.bits(y));
                        let (x, y) = (self.fit(x, w), self.fit(y, w));
                        Reg::Int(self.st.trace.exprs.select(c, x, y))
                    }
                    (x, y) => match self.st.trace.exprs.value(c) {
                        Some(v) => {
                            if v & 1 == 1 {
                                x
                            } else {
                                y
                            }
                        }
                        None => self.select_float(c, x, y)?,
                    },
                }
            }
            Op::Copy { a } => self.operand(a),
            Op::Alloca { count, size: elem, .. } => {
                // (Private contents are kept per address; only the count must be known.)
                let n = self.addr(count, "an allocation size")?;
                let id = self.new_object();
                self.private.insert(id);
                if let Some(f) = self.frames.last_mut() {
                    f.allocas.push(id);
                }
                self.stack_sizes.insert(id, n.saturating_mul(*elem));
                let (base, size) = (causa_ir::make_addr(id, 0), n.saturating_mul(*elem));
                self.st.trace.objects.push(Object { base, size, heap: false, read_only: false });
                Reg::Int(self.st.trace.exprs.constant(64, causa_ir::make_addr(id, 0) as u128))
            }
            Op::ThreadLocal { global, offset } => self.thread_local(*global, *offset),
            Op::Gep { base, offset, indices } => {
                let mut e = self.int(base, 64)?;
                let off = self.st.trace.exprs.constant(64, *offset as i128 as u128);
                e = self.st.trace.exprs.bin(BinOp::Add, 64, e, off).expect("add");
                for (idx, scale, bits) in indices {
                    let i = self.int(idx, *bits)?;
                    let i = self.st.trace.exprs.cast(CastOp::SExt, *bits, 64, i);
                    let s = self.st.trace.exprs.constant(64, *scale as i128 as u128);
                    let d = self.st.trace.exprs.bin(BinOp::Mul, 64, i, s).expect("mul");
                    e = self.st.trace.exprs.bin(BinOp::Add, 64, e, d).expect("add");
                }
                Reg::Int(e)
            }
            Op::Load { addr, ty, .. } if self.memory_fault(addr, Access::Bytes(ty.store_size(), Some(false)))? => {
                return Ok(false)
            }
            Op::Store { addr, ty, .. } if self.memory_fault(addr, Access::Bytes(ty.store_size(), Some(true)))? => {
                return Ok(false)
            }
            Op::Rmw { addr, ty, .. } | Op::CmpXchg { addr, ty, .. }
                if self.memory_fault(addr, Access::Bytes(ty.store_size(), None))? =>
            {
                return Ok(false)
            }
            Op::Load { addr, ty, .. } | Op::Rmw { addr, ty, .. } | Op::CmpXchg { addr, ty, .. }
                if self.parked_at_read(addr, ty)? =>
            {
                return Ok(false)
            }
            Op::Load { addr, ty, atomic } => self.load(addr, ty, *atomic)?,
            Op::Store { addr, val, ty, atomic } => {
                self.store(addr, val, ty, *atomic)?;
                return Ok(true);
            }
            Op::Fence => {
                if self.st.trace.memory_model.buffers_stores() && self.atomic_depth == 0 {
                    self.sync(SymOp::Fence);
                }
                return Ok(true);
            }
            Op::Rmw { op, addr, val, ty } => {
                let v = self.int(val, int_bits(ty))?;
                self.rmw(addr, ty, |x, old| atomic::rmw_value(x, *op, int_bits(ty), old, v))?
            }
            Op::CmpXchg { addr, expected, new, ty } => {
                let bits = int_bits(ty);
                let (want, new) = (self.int(expected, bits)?, self.int(new, bits)?);
                let mut hit = None;
                let old = self.rmw(addr, ty, |x, old| {
                    let eq = x.icmp(causa_ir::ICmpPred::Eq, bits, old, want);
                    hit = Some(eq);
                    Some(x.select(eq, new, old))
                })?;
                match (old, hit) {
                    (Reg::Int(old), Some(eq)) => Reg::Agg(vec![Reg::Int(old), Reg::Int(eq)]),
                    _ => return Err(self.unsupported("a compare-and-exchange on private memory")),
                }
            }
            Op::ExtractValue { agg, indices } => {
                let mut r = self.operand(agg);
                for i in indices {
                    r = match r {
                        Reg::Agg(items) => items.get(*i as usize).cloned().unwrap_or(Reg::Float(Value::ZERO)),
                        _ => return Err(self.unsupported("extractvalue of a scalar")),
                    };
                }
                r
            }
            Op::Call { callee, args, ret } => return self.call(callee, args, ret, dest),
            Op::FBin { op, ty, a, b } => self.fbin(*op, ty, a, b)?,
            Op::FNeg { ty, a } => self.fneg(ty, a)?,
            Op::FCmp { pred, a, b } => self.fcmp(*pred, a, b)?,
            other => return Err(self.unsupported(format!("instruction {}", op_name(other)))),
        };
        self.set(dest, r);
        Ok(true)
    }

    fn new_object(&mut self) -> u32 {
        let id = self.st.next_object;
        self.st.next_object += 1;
        id
    }

    /// Whether an access at `addr` is private to this thread, and whether the
    /// object is read-only static data.
    fn classify(&self, addr: u64) -> (bool, Option<usize>) {
        let id = causa_ir::addr_alloc(addr);
        let globals = self.st.program.space.num_globals;
        let global = (id >= 1 && id <= globals).then(|| id as usize - 1);
        (self.private.contains(&id), global)
    }

    fn load(&mut self, addr: &Operand, ty: &Ty, atomic: bool) -> Result<Reg, SymError> {
        let size = ty.store_size() as u32;
        let a = match self.address(addr, "a load")? {
            Addr::Concrete(a) => a,
            Addr::Symbolic(at) => return self.shared_read(0, Some(at), ty, atomic),
        };
        if self.classify(a).0 {
            return self.load_own(a, ty);
        }
        if let Some(tail) = self.constant_from(a) {
            let bytes = tail.get(..size as usize).ok_or_else(|| self.unsupported("a load outside a constant"))?;
            return Ok(self.konst(&causa_ir::value::decode(ty, bytes)));
        }
        self.shared_read(a, None, ty, atomic)
    }

    /// The bytes of the read-only static object `a` points into, from `a`
    /// to its end (None: `a` is not in one).
    pub(super) fn constant_from(&self, a: u64) -> Option<&'p [u8]> {
        let program: &'p Program = self.st.program;
        let g = self.classify(a).1.filter(|g| program.globals[*g].is_const)?;
        Some(program.globals[g].init.get((a - program.global_addr(g)) as usize..).unwrap_or_default())
    }

    /// A read of shared memory: a fresh symbolic value, or the constant it
    /// must return (determined).
    fn shared_read(&mut self, addr: u64, at: Option<ExprId>, ty: &Ty, atomic: bool) -> Result<Reg, SymError> {
        if !matches!(ty, Ty::Int(_) | Ty::Ptr | Ty::F32 | Ty::F64) {
            return Err(self.unsupported(format!("a shared load of {}", float::ty_name(ty))));
        }
        let size = ty.store_size() as u32;
        let (id, key) = self.new_read();
        // (Through a computed address: never determined.)
        let value = self.read_value((id, key), int_bits(ty), at.is_none());
        if let (None, Some(Reg::Int(w))) = (at, self.own_writes.get(&addr)) {
            self.own_before_read.insert(id, *w);
        }
        self.event(SymOp::Read { addr, size, value, atomic, at });
        // A `float` or `double` read is its pattern; a determined one, its value.
        Ok(self.fp_result(value, matches!(ty, Ty::F32 | Ty::F64), int_bits(ty)))
    }

    /// The value of read `id` (at `key`) of `bits` bits: the constant the
    /// pass before found it must return, where it `may_be_known` (then it
    /// is determined), else a fresh read expression.
    fn read_value(&mut self, (id, key): (u32, ReadKey), bits: u32, may_be_known: bool) -> ExprId {
        match self.st.known.get(&key) {
            Some(&v) if may_be_known => {
                self.st.trace.determined.push(id);
                self.st.trace.exprs.constant(bits, v)
            }
            _ => self.st.trace.exprs.read(id, bits),
        }
    }

    /// A new shared read of this thread (its event comes next): its id and
    /// place.
    pub(super) fn new_read(&mut self) -> (u32, ReadKey) {
        let id = self.st.trace.reads.len() as u32;
        let key = (self.index, self.steps, self.step_reads);
        self.step_reads += 1;
        self.st.trace.reads.push((self.index, self.out.events.len()));
        self.st.trace.read_keys.push(key);
        (id, key)
    }

    /// The address of an access: concrete, or computed from shared data
    /// (resolved by the solver); an error when a computed address is into
    /// this thread's private memory (not modelled).
    fn address(&mut self, op: &Operand, what: &str) -> Result<Addr, SymError> {
        let e = self.int(op, 64)?;
        let e = if self.st.trace.exprs.value(e).is_none() {
            // An element of an array at an index read from shared memory
            // stays symbolic where the index may still hold its initial
            // value (index 0 is an element, unlike a null pointer).
            self.indexing = self.st.trace.exprs.constant_term(e).is_some_and(|c| causa_ir::addr_alloc(c as u64) != 0);
            let r = self.resolve(e).unwrap_or(e);
            self.indexing = false;
            r
        } else {
            e
        };
        if let Some(v) = self.st.trace.exprs.value(e) {
            return Ok(Addr::Concrete(v as u64));
        }
        let base = self.st.trace.exprs.constant_term(e).map(|c| causa_ir::addr_alloc(c as u64));
        if base.is_some_and(|id| self.private.contains(&id)) {
            // (The index from reads whose value no schedule changes: a
            // worker's id that main stored before creating it.)
            self.indexing = true;
            self.private_index = true;
            let r = self.resolve_concrete(e);
            self.private_index = false;
            self.indexing = false;
            if let Some(v) = self.st.trace.exprs.value(r) {
                // (Before every thread's writes are known, a pin here is a
                // first look only: should the pass that knows them not
                // make it, the access is unsupported, not this trace.)
                if self.st.first_pass {
                    self.st.stand_ins = true;
                    self.st.partial = true;
                }
                return Ok(Addr::Concrete(v as u64));
            }
            return Err(self.unsupported(format!(
                "{what} of this thread's own stack memory at an index computed from shared data"
            )));
        }
        Ok(Addr::Symbolic(e))
    }

    fn store(&mut self, addr: &Operand, val: &Operand, ty: &Ty, atomic: bool) -> Result<(), SymError> {
        let size = ty.store_size() as u32;
        let v = self.operand(val);
        let a = match self.address(addr, "a store")? {
            Addr::Concrete(a) => a,
            Addr::Symbolic(at) => return self.shared_write(0, Some(at), v, ty, atomic),
        };
        let (private, _) = self.classify(a);
        if private {
            // (A pointer kept in private memory escapes with it: `escape`.)
            return self.store_own(a, size, v);
        }
        self.own_writes.insert(a, v.clone());
        self.shared_write(a, None, v, ty, atomic)
    }

    /// The value of type `ty` at `a` in this thread's own memory.
    pub(super) fn load_own(&mut self, a: u64, ty: &Ty) -> Result<Reg, SymError> {
        let size = ty.store_size() as u32;
        let id = causa_ir::addr_alloc(a);
        match self.local.get(&a) {
            Some((s, r)) if *s == size => Ok(r.clone()),
            _ if self.bulk.contains(&id) => self.load_bytes(a, ty),
            // Part of a wider value, or narrower ones put together (a
            // small struct stored field by field and loaded whole): the
            // object's values are kept byte-addressed from now on.
            _ if self.mixed(a, size) => {
                self.bulk.insert(id);
                self.load_bytes(a, ty)
            }
            _ => Ok(self.zero(int_bits(ty).max(1))),
        }
    }

    /// The constant of type `ty` a library call `what` finds at `at` in the
    /// thread's own memory (`noun`: what it is there, for the errors when
    /// it is shared or computed from shared data).
    pub(super) fn own_constant(&mut self, what: &str, noun: &str, at: u64, ty: &Ty) -> Result<u128, SymError> {
        if !self.classify(at).0 {
            return Err(self.unsupported(format!("`{what}` with {noun} in shared memory")));
        }
        match self.load_own(at, ty)? {
            Reg::Int(e) => self
                .st
                .trace
                .exprs
                .value(e)
                .ok_or_else(|| self.unsupported(format!("`{what}` with {noun} computed from shared data"))),
            _ => Err(self.unsupported(format!("`{what}` with {noun} that is not an integer"))),
        }
    }

    /// Constant bytes a library call `what` writes at `at`, which must be
    /// the thread's own memory (into shared memory the call is an event
    /// not modelled here: reported as unsupported, by name).
    pub(super) fn store_own_bytes(&mut self, what: &str, at: u64, bytes: &[u8]) -> Result<(), SymError> {
        if !self.classify(at).0 {
            return Err(self.unsupported(format!("`{what}` writing shared memory")));
        }
        let values = bytes.iter().map(|b| self.st.trace.exprs.constant(8, *b as u128)).collect();
        self.store_private(what, at, values)
    }

    /// `v` stored into this thread's own memory at `a`: values of another
    /// size it overlaps make the object byte-addressed, and it replaces
    /// what it covers.
    pub(super) fn store_own(&mut self, a: u64, size: u32, v: Reg) -> Result<(), SymError> {
        if self.mixed(a, size) {
            self.bulk.insert(causa_ir::addr_alloc(a));
        }
        self.overwrite(a, size)?;
        self.local.insert(a, (size, v));
        Ok(())
    }

    /// A write of `v` to shared memory (at `addr`, or at the symbolic address
    /// `at`).
    fn shared_write(&mut self, addr: u64, at: Option<ExprId>, v: Reg, ty: &Ty, atomic: bool) -> Result<(), SymError> {
        let e = match v {
            Reg::Int(e) => e,
            Reg::Float(Value::F32(f)) if *ty == Ty::F32 => self.st.trace.exprs.constant(32, f.to_bits() as u128),
            Reg::Float(Value::F64(f)) if *ty == Ty::F64 => self.st.trace.exprs.constant(64, f.to_bits() as u128),
            _ => return Err(self.unsupported(format!("a shared store of {}", float::ty_name(ty)))),
        };
        let e = self.fit(e, int_bits(ty));
        self.escape_value(e, ty);
        match at {
            None => self.note_write(addr, e),
            Some(p) => self.note_symbolic_write(p, ty.store_size() as u32),
        }
        self.event(SymOp::Write { addr, size: ty.store_size() as u32, value: e, atomic, at });
        Ok(())
    }

    fn call(&mut self, callee: &Callee, args: &[Operand], ret: &Ty, dest: u32) -> Result<bool, SymError> {
        self.object_positions = &[];
        let program = self.st.program;
        let fid = match callee {
            Callee::Direct(f) => *f,
            Callee::Indirect(op) => {
                if self.call_fault(op)? {
                    return Ok(false);
                }
                let Some(Decision::Call(k)) = self.next_decision() else {
                    return Err(SymError::Mismatch("an indirect call without a recorded target".into()));
                };
                let name = self.path.targets.get(k as usize).cloned().unwrap_or_default();
                let f = program
                    .function_by_name(&name)
                    .ok_or_else(|| SymError::Mismatch(format!("the log calls `{name}`, which the program lacks")))?;
                let p = self.int(op, 64)?;
                let fa = self.st.trace.exprs.constant(64, program.space.function_addr(f) as u128);
                let eq = self.st.trace.exprs.icmp(causa_ir::ICmpPred::Eq, 64, p, fa);
                self.condition(eq)?;
                f
            }
            Callee::Asm => return Err(self.unsupported("inline assembly")),
        };
        let argv: Vec<Reg> = args.iter().map(|a| self.operand(a)).collect();
        let f = &program.functions[fid as usize];
        if f.body.is_some() && !causa_ir::svcomp_intercepted(&f.name) {
            self.push(fid, argv, dest)?;
            return Ok(true);
        }
        let name: &str = &f.name;
        if name == "pthread_once" {
            return self.once(args, dest);
        }
        if name == "pthread_exit" {
            // Every frame ends here (main's too: the program goes on until
            // the other threads end), then its key destructors and its `end`.
            self.specific.exited = true;
            let r = args.first().map(|a| self.operand(a));
            self.returns(r.as_ref());
            while let Some(fr) = self.frames.pop() {
                if fr.atomic {
                    self.leave_atomic();
                }
                self.die(&fr.allocas);
            }
            return Ok(true);
        }
        if self.parked_at_call(name, args)? {
            return Ok(false);
        }
        // (The positions whose values the log holds: a sized call's, and a
        // formatting call's integer and pointer arguments.)
        let mut at: Vec<(usize, bool)> = causa_core::paths::sized_args(name).iter().map(|&i| (i, true)).collect();
        if let Some(from) = causa_core::paths::format_args_from(name) {
            at.extend((from..argv.len()).filter(|&i| matches!(argv[i], Reg::Int(_))).map(|i| (i, false)));
        }
        self.call_sizes = at
            .iter()
            .enumerate()
            .filter_map(|(k, &(i, tied))| self.path.sizes.get(self.next_size + k).map(|v| (i, *v, tied)))
            .collect();
        self.next_size += at.len();
        let objects = causa_core::paths::object_args(name);
        let recorded = objects.iter().enumerate();
        let recorded = recorded.filter_map(|(k, &i)| self.path.objects.get(self.next_object_arg + k).map(|v| (i, *v)));
        self.call_objects = recorded.collect();
        self.next_object_arg += objects.len();
        self.object_positions = objects;
        if self.past_the_run(objects, args) {
            // (Deadlocked threads are followed past the operation they
            // blocked at; their objects there are the run's no more.)
            self.stop_unfinished();
            return Ok(false);
        }
        let r = crate::shims::call(self, name, args, &argv, ret)?;
        if self.blocked {
            return Ok(false);
        }
        match r {
            Some(Some(v)) => self.set(dest, v),
            Some(None) => {}
            None => return Ok(false),
        }
        Ok(true)
    }
}

/// What [`crate::shims`] needs from the executing thread.
impl Thread<'_, '_> {
    pub(crate) fn addr_arg(&mut self, args: &[Operand], i: usize, what: &str) -> Result<u64, SymError> {
        let Some(a) = args.get(i) else {
            return Err(SymError::Mismatch(format!("{what}: missing argument")));
        };
        let before = self.out.path.len();
        self.pinned_own = false;
        let r = match self.addr(a, what) {
            Err(e) => self.object_from_log(a, i).unwrap_or(Err(e)),
            ok => ok,
        };
        // The conditions that hold a synchronisation object's address to the
        // run's (reads pinned to the one value they can read, or the logged
        // object): flippable like a branch, the alternate may use another
        // object. (Not a read of the thread's own write pinned to it: the
        // lazy initialisation whose `if (!stats)` flip is the explanation
        // was explained by another thread's write between the creator's
        // store and its read of `stats` for the lock instead.)
        if r.is_ok() && !self.pinned_own && self.object_positions.contains(&i) {
            for condition in before..self.out.path.len() {
                let object = Branch {
                    condition,
                    loc: self.loc,
                    taken: true,
                    switch: false,
                    doomed: false,
                    object: true,
                    failed_try: false,
                };
                self.out.branches.push(object);
            }
        }
        r
    }

    /// Whether the current call, on synchronisation objects at `objects`
    /// of `args`, is one this thread did not make in the run: the log
    /// records the objects of every such call each thread made or was
    /// blocked at, and has none for this one, whose object's address is
    /// computed from shared data (one at a constant address is followed as
    /// before).
    fn past_the_run(&mut self, objects: &[usize], args: &[Operand]) -> bool {
        if !self.st.objects_recorded || self.call_objects.len() == objects.len() {
            return false;
        }
        objects.iter().filter_map(|i| args.get(*i)).any(|a| match self.int(a, 64) {
            Ok(e) => self.st.trace.exprs.value(e).is_none(),
            Err(_) => false,
        })
    }

    /// A synchronisation object at an address computed from shared data
    /// (argument `i` of the current call): the run's, recorded in the log
    /// ([`ThreadPath::objects`]), with a path condition that the address is
    /// that one. A static object's address is the run's itself; a heap or
    /// stack block's number depends on the order of allocations, so the
    /// address is the run's offset into the one block the address
    /// expression's bases name (None: no record, or no such block).
    fn object_from_log(&mut self, op: &Operand, i: usize) -> Option<Result<u64, SymError>> {
        let &(_, recorded) = self.call_objects.iter().find(|(j, _)| *j == i)?;
        let e = self.int(op, 64).ok()?;
        let e = self.resolve(e).unwrap_or(e);
        let alloc = causa_ir::addr_alloc(recorded);
        let globals = self.st.program.space.num_globals;
        let v = if alloc >= 1 && alloc <= globals {
            recorded
        } else {
            let mut blocks = std::collections::BTreeSet::new();
            if !self.bases(e, &mut blocks, 0) || blocks.len() != 1 {
                return None;
            }
            let block = blocks.into_iter().next()?;
            if block == 0 || self.private.contains(&block) {
                return None;
            }
            causa_ir::make_addr(block, causa_ir::addr_offset(recorded))
        };
        let x = &mut self.st.trace.exprs;
        let c = x.constant(64, v as u128);
        let eq = x.icmp(causa_ir::ICmpPred::Eq, 64, e, c);
        Some(self.condition(eq).map(|()| v))
    }

    /// Collect into `blocks` the block of each constant base of the address
    /// `e` (a sum's constant, each side of a select); false when a part of
    /// it has none.
    fn bases(&self, e: ExprId, blocks: &mut std::collections::BTreeSet<u32>, depth: u32) -> bool {
        let x = &self.st.trace.exprs;
        if depth > 16 {
            return false;
        }
        match x.get(e) {
            crate::expr::Expr::Select { a, b, .. } => {
                let (a, b) = (*a, *b);
                self.bases(a, blocks, depth + 1) && self.bases(b, blocks, depth + 1)
            }
            _ => match x.constant_term(e) {
                Some(c) => {
                    blocks.insert(causa_ir::addr_alloc(c as u64));
                    true
                }
                None => false,
            },
        }
    }

    /// A pointer argument's expression (pinned to its one known value when
    /// it has one, [`resolve`]).
    pub(crate) fn pointer(&mut self, op: &Operand) -> Result<ExprId, SymError> {
        let e = self.int(op, 64)?;
        Ok(self.resolve(e).unwrap_or(e))
    }

    /// The value of `e` when it is a constant.
    pub(crate) fn constant(&self, e: ExprId) -> Option<u64> {
        self.st.trace.exprs.value(e).map(|v| v as u64)
    }

    pub(crate) fn unsupported_what(&self, what: String) -> SymError {
        self.unsupported(what)
    }

    pub(crate) fn unsupported_call(&self, name: &str) -> SymError {
        self.unsupported(format!("external function `{name}`"))
    }

    /// A synchronisation operation. At the log's deadlock (the failing
    /// thread's blocking operation at the failure's location) the thread
    /// stops there, blocked forever ([`Thread::blocked`]).
    pub(crate) fn sync(&mut self, op: SymOp) {
        let blocks = blocks(&op);
        self.event(op);
        if blocks && !self.blocked && self.at_failure(BugKind::Deadlock) && self.blocked_here() {
            self.blocked = true;
            let message = self.st.failure.as_ref().map(|f| f.message.clone()).unwrap_or_default();
            self.fail(BugKind::Deadlock, message);
        }
    }

    /// Whether the blocking operation just recorded is the one the log's
    /// deadlock blocked at: as many of them before it at its location as
    /// the log counts (an unrolled loop's operations share one location).
    /// (The log does not count barrier waits: a barrier's departure is
    /// taken at its first occurrence.)
    fn blocked_here(&self) -> bool {
        let Some(k) = self.st.failure_occurrence else { return true };
        let counted = |op: &SymOp| blocks(op) && !matches!(op, SymOp::Depart { .. });
        let evs = &self.out.events;
        let here = self.st.program.loc(self.loc);
        let before = evs[..evs.len().saturating_sub(1)]
            .iter()
            .filter(|e| counted(&e.op) && self.st.program.loc(e.loc) == here)
            .count();
        before as u32 == k || evs.last().is_some_and(|e| !counted(&e.op))
    }

    pub(crate) fn fail(&mut self, kind: BugKind, message: String) {
        if crate::model::fails_locally(kind) {
            self.out.failure_condition = self.last_condition;
        }
        self.event(SymOp::Fail { kind, message });
    }

    pub(crate) fn assume(&mut self, c: &Operand) -> Result<(), SymError> {
        let x = self.int(c, 32)?;
        let zero = self.st.trace.exprs.constant(32, 0);
        let ne = self.st.trace.exprs.icmp(causa_ir::ICmpPred::Ne, 32, x, zero);
        self.condition(ne)
    }

    pub(crate) fn input(&mut self, function: &str, bits: u32) -> Result<Reg, SymError> {
        let (f, v) = self.path.inputs.get(self.next_input).cloned().ok_or_else(|| {
            SymError::Mismatch(format!("thread {} reads more inputs than the log has", self.path.thread))
        })?;
        self.next_input += 1;
        self.out.inputs_at.push(self.out.events.len());
        if f != function {
            return Err(SymError::Mismatch(format!(
                "the log has an input from `{f}` where the program calls `{function}`"
            )));
        }
        Ok(Reg::Int(self.st.trace.exprs.constant(bits, v as u128)))
    }

    /// Argument `i` as a concrete integer (`what` names the call for
    /// errors). One computed from shared data is the run's value when the
    /// log has it ([`ThreadPath::sizes`]), with a path condition that it is
    /// that value: every schedule explained or solved for computes the
    /// same size, as the run's path does. A value a formatting call prints
    /// is the run's without that condition: the text written is the run's
    /// in every schedule (a status line's counters, which the failure
    /// seldom depends on; tying them would tie the failure's own reads to
    /// the run's values), and an alternate whose text would differ and
    /// matter fails on replay.
    pub(crate) fn concrete_arg(&mut self, args: &[Operand], i: usize, bits: u32, what: &str) -> Result<u128, SymError> {
        let e = match self.arg_value(args, i, bits, what)? {
            Ok(v) => return Ok(v),
            Err(e) => e,
        };
        let Some(&(_, v, tied)) = self.call_sizes.iter().find(|(j, _, _)| *j == i) else {
            return Err(self.unsupported(format!("{what} with a value computed from shared data")));
        };
        let v = u128::from(v) & causa_ir::value::mask(bits);
        if !tied {
            tracing::debug!(what, value = v, "a printed value computed from shared data is the run's");
            return Ok(v);
        }
        let x = &mut self.st.trace.exprs;
        let c = x.constant(bits, v);
        let eq = x.icmp(causa_ir::ICmpPred::Eq, bits, e, c);
        self.condition(eq)?;
        // (The read it is, required to return that value: the thread's
        // later uses of it, `copy[n] = 0` after `memcpy(copy, msg, n)`,
        // are concrete too.)
        self.pin_recorded(e, v);
        Ok(v)
    }

    /// Argument `i` as a concrete integer, else the expression it is
    /// computed by from shared data.
    pub(crate) fn arg_value(
        &mut self,
        args: &[Operand],
        i: usize,
        bits: u32,
        what: &str,
    ) -> Result<Result<u128, ExprId>, SymError> {
        let a = args.get(i).ok_or_else(|| SymError::Mismatch(format!("{what}: missing argument")))?;
        let e = self.int(a, bits)?;
        // A size read from shared memory that only ever held one value is
        // required to be that value ([`resolve`]).
        let e = self.resolve_concrete(e);
        Ok(self.st.trace.exprs.value(e).ok_or(e))
    }

    /// A mutex lock that took `mutex`, as the run's did: a relock when
    /// this thread holds it already and did not block there (the mutex is
    /// recursive: a default one deadlocks, the log's failure then), so
    /// that its critical section is the outermost one. In a deadlock, a
    /// thread other than the failing one the run left blocked at this very
    /// call ([`Thread::parked_at_last_object_call`]) did block there: its
    /// lock stays a lock, which the deadlock query finds stuck.
    pub(crate) fn lock_mutex(&mut self, mutex: u64) {
        let again = self.holds(mutex) && !self.parked_at_last_object_call();
        self.sync(SymOp::Lock { mutex, shared: false });
        if again && !self.blocked {
            if let Some(e) = self.out.events.last_mut() {
                e.op = SymOp::Relock { mutex };
            }
        }
    }

    /// Whether, in a deadlock's log that records every synchronisation
    /// call's objects, the current call is this thread's last such call:
    /// the run left the thread blocked there (the interpreter records the
    /// call a deadlocked thread is parked at; a relock of a recursive mutex
    /// that did not block is followed by its unlock, recorded too).
    fn parked_at_last_object_call(&self) -> bool {
        self.st.objects_recorded
            && self.st.failure.as_ref().is_some_and(|f| f.kind == BugKind::Deadlock)
            && !self.object_positions.is_empty()
            && self.next_object_arg >= self.path.objects.len()
    }

    /// A mutex unlock: one that leaves `mutex` held (a recursive mutex
    /// this thread locked more than once) is a [`SymOp::Reunlock`].
    pub(crate) fn unlock_mutex(&mut self, mutex: u64) {
        let relocks = |op: &SymOp| match op {
            SymOp::Relock { mutex: m } if *m == mutex => 1,
            SymOp::Reunlock { mutex: m } if *m == mutex => -1,
            _ => 0,
        };
        let nested: i64 = self.out.events.iter().map(|e| relocks(&e.op)).sum();
        self.sync(if nested > 0 { SymOp::Reunlock { mutex } } else { SymOp::Unlock { mutex } });
    }

    /// Whether this thread holds `mutex` (its own acquisitions and releases
    /// so far).
    pub(crate) fn holds(&self, mutex: u64) -> bool {
        let mut n = 0i64;
        for e in &self.out.events {
            match e.op {
                SymOp::Lock { mutex: m, .. } | SymOp::WaitReturn { mutex: m, .. } if m == mutex => n += 1,
                SymOp::Unlock { mutex: m } | SymOp::Wait { mutex: m, .. } if m == mutex => n -= 1,
                _ => {}
            }
        }
        n > 0
    }

    /// The log's failure message.
    pub(crate) fn failure_message(&self) -> String {
        self.st.failure.as_ref().map(|f| f.message.clone()).unwrap_or_default()
    }

    pub(crate) fn set_barrier_count(&mut self, barrier: u64, n: u32) {
        self.st.trace.barrier_count.retain(|(b, _)| *b != barrier);
        self.st.trace.barrier_count.push((barrier, n));
    }

    /// The generation of this thread's next arrival at `barrier` (its
    /// arrivals so far); an error for a barrier never initialised.
    pub(crate) fn barrier_arrival(&mut self, barrier: u64) -> Result<u32, SymError> {
        if self.st.trace.barrier_count_of(barrier).is_none() {
            return Err(self.unsupported("pthread_barrier_wait on a barrier no thread run so far initialised"));
        }
        let arrived = |e: &SymEvent| matches!(e.op, SymOp::Arrive { barrier: b, .. } if b == barrier);
        Ok(self.out.events.iter().filter(|e| arrived(e)).count() as u32)
    }

    /// This thread's arrival at `barrier` for generation `gen`, and what
    /// `pthread_barrier_wait` returns: `PTHREAD_BARRIER_SERIAL_THREAD` (-1)
    /// when the arrival is the last of its generation, else 0 (minus a 1-bit
    /// read of whether it is last).
    pub(crate) fn barrier_serial(&mut self, barrier: u64, gen: u32) -> Reg {
        let (serial, _) = self.new_read();
        let x = &mut self.st.trace.exprs;
        let last = x.read(serial, 1);
        let wide = x.cast(CastOp::ZExt, 1, 32, last);
        let zero = x.constant(32, 0);
        let ret = x.bin(BinOp::Sub, 32, zero, wide).unwrap_or(zero);
        self.sync(SymOp::Arrive { barrier, gen, serial });
        Reg::Int(ret)
    }

    pub(crate) fn set_sem_initial(&mut self, sem: u64, v: u128) {
        self.st.trace.sem_initial.retain(|(s, _)| *s != sem);
        self.st.trace.sem_initial.push((sem, v));
    }

    /// Enter an uninterruptible section (nested ones join the outer).
    pub(crate) fn enter_atomic(&mut self) {
        if self.atomic_depth == 0 {
            self.section += 1;
        }
        self.atomic_depth += 1;
    }

    pub(crate) fn leave_atomic(&mut self) {
        self.atomic_depth = self.atomic_depth.saturating_sub(1);
    }

    /// A pointer-sized value `e` stored to memory: the private object it
    /// points into (if any) becomes shared.
    fn escape_value(&mut self, e: ExprId, ty: &Ty) {
        if matches!(ty, Ty::Ptr | Ty::Int(32 | 64)) {
            self.escape_expr(e);
        }
    }

    /// A constant address `e` escapes (a symbolic one cannot point into
    /// private memory: private addresses are never computed from shared data).
    fn escape_expr(&mut self, e: ExprId) {
        if let Some(v) = self.st.trace.exprs.value(e) {
            self.escape(v as u64);
        }
    }

    /// The private object `addr` points into becomes shared; its current
    /// contents are what other threads find there. The private objects its
    /// contents point into become shared with it (as in the interpreter's
    /// `Memory::escape`: a pointer kept in private memory, `char *rest =
    /// line;`, makes its target reachable only when it escapes too).
    pub(crate) fn escape(&mut self, addr: u64) {
        let id = causa_ir::addr_alloc(addr);
        // (Most shared writes of a pointer-sized value find nothing to escape.)
        if !self.private.contains(&id) {
            return;
        }
        let mut work = vec![id];
        while let Some(id) = work.pop() {
            if self.private.remove(&id) {
                let targets = self.pointed_to(id);
                self.share(id);
                work.extend(targets);
            }
        }
    }

    /// The objects that pointer-sized words of private object `id`'s
    /// constant contents point into, its words read as the interpreter
    /// reads them (aligned, from the object's start).
    fn pointed_to(&self, id: u32) -> Vec<u32> {
        let word = self.st.program.space.layout.ptr_bytes;
        let base = causa_ir::make_addr(id, 0);
        let mut bytes: std::collections::BTreeMap<u64, u8> = Default::default();
        for (a, (size, r)) in self.local.iter().filter(|(a, _)| causa_ir::addr_alloc(**a) == id) {
            if let Some(v) = match r {
                Reg::Int(e) => self.st.trace.exprs.value(*e),
                _ => None,
            } {
                for k in 0..(*size as u64).min(16) {
                    bytes.insert(a - base + k, (v >> (8 * k)) as u8);
                }
            }
        }
        let words: std::collections::BTreeSet<u64> = bytes.keys().map(|o| o / word * word).collect();
        words
            .into_iter()
            .map(|w| (0..word).fold(0u64, |acc, k| acc | (bytes.get(&(w + k)).copied().unwrap_or(0) as u64) << (8 * k)))
            .map(causa_ir::addr_alloc)
            .filter(|t| self.private.contains(t))
            .collect()
    }

    /// Private object `id`, no longer private: its current contents are
    /// what other threads find there.
    fn share(&mut self, id: u32) {
        let mut words: Vec<(u64, u32, ExprId)> = Vec::new();
        let mut floats: Vec<(u64, u32, u128)> = Vec::new();
        for (a, (size, r)) in &self.local {
            if causa_ir::addr_alloc(*a) == id {
                match r {
                    Reg::Int(e) => words.push((*a, *size, *e)),
                    // A `float` or `double`: its pattern.
                    Reg::Float(v @ (Value::F32(_) | Value::F64(_))) => floats.push((*a, *size, v.as_int())),
                    _ => {}
                }
            }
        }
        for (a, size, bits) in floats {
            words.push((a, size, self.st.trace.exprs.constant(size * 8, bits)));
        }
        words.sort_unstable();
        let mut fitted = Vec::with_capacity(words.len());
        for (a, size, e) in words {
            fitted.push((a, size, self.fit(e, size * 8)));
        }
        self.escape_image(id, &mut fitted);
        // What the thread stored there is its last write of each word.
        for (a, _, e) in &fitted {
            self.own_writes.insert(*a, Reg::Int(*e));
        }
        self.local.retain(|a, _| causa_ir::addr_alloc(*a) != id);
        self.st.trace.escaped.extend(fitted);
        let size = self.stack_sizes.get(&id).copied().unwrap_or(0);
        self.st.trace.zeroed_objects.push((id, size));
    }

    /// `realloc(p, n)`: `malloc` when `p` is null; otherwise the
    /// interpreter's one step frees `p`'s block (a `free` event) and
    /// copies its bytes into a fresh block. A use of the old block after
    /// the `realloc` (the usual bug) is a use after free. The copy's values
    /// are those the block held at the free, which the schedule decides;
    /// they are not modelled: the trace is refused when an access at a
    /// known address reads them ([`realloc_copies_unread`]); a read through
    /// a pointer computed from shared data that the solver points at them
    /// sees the new block's zeros, and an alternate built on that fails its
    /// replay (every alternate is replayed).
    pub(crate) fn reallocate(&mut self, args: &[Operand]) -> Result<Option<Option<Reg>>, SymError> {
        let n = self.concrete_arg(args, 1, 64, "realloc")? as u64;
        let Some(p) = args.first() else {
            return Err(SymError::Mismatch("realloc: missing argument".into()));
        };
        let old = self.pointer(p)?;
        if self.constant(old) == Some(0) {
            return Ok(Some(Some(self.allocate(n))));
        }
        if self.memory_fault(p, Access::Free)? {
            return Ok(None);
        }
        let op = self.free_op(old, true);
        // The interpreter allocates the new block before it frees the old.
        let new = self.allocate(n);
        self.sync(op);
        // (The whole new block when the old one is not known.)
        let base = self.constant(old).map(causa_ir::addr_alloc);
        let old_size =
            self.st.trace.objects.iter().find(|o| Some(causa_ir::addr_alloc(o.base)) == base).map(|o| o.size);
        let copied = old_size.unwrap_or(n).min(n);
        if let (Reg::Int(e), true) = (&new, copied > 0) {
            if let Some(addr) = self.st.trace.exprs.value(*e) {
                let at = self.at();
                self.st.trace.realloc_copies.push((addr as u64, copied, at));
            }
        }
        Ok(Some(Some(new)))
    }

    /// The event of a `free` (a `realloc`'s: `realloc`) of the pointer `p`:
    /// of its block, or of `p` itself when it is computed from shared data.
    pub(crate) fn free_op(&self, p: ExprId, realloc: bool) -> SymOp {
        match self.constant(p) {
            Some(object) => SymOp::Free { object, at: None, realloc },
            None => SymOp::Free { object: 0, at: Some(p), realloc },
        }
    }

    /// `malloc`/`calloc` of `size` bytes: a fresh shared heap block, zeroed
    /// as the interpreter zeroes it.
    pub(crate) fn allocate(&mut self, size: u64) -> Reg {
        let id = self.new_object();
        self.st.trace.zeroed_objects.push((id, size));
        self.st.trace.objects.push(Object { base: causa_ir::make_addr(id, 0), size, heap: true, read_only: false });
        Reg::Int(self.st.trace.exprs.constant(64, causa_ir::make_addr(id, 0) as u128))
    }

    /// A heap block of `size` bytes that is this thread's own until its
    /// address escapes (as the interpreter's `Memory::make_private`): its
    /// address. (Its zero image is given when it escapes: `share`.)
    pub(crate) fn allocate_own(&mut self, size: u64) -> u64 {
        let id = self.new_object();
        self.st.trace.objects.push(Object { base: causa_ir::make_addr(id, 0), size, heap: true, read_only: false });
        self.private.insert(id);
        self.stack_sizes.insert(id, size);
        causa_ir::make_addr(id, 0)
    }

    pub(crate) fn int_reg(&mut self, bits: u32, v: u128) -> Reg {
        Reg::Int(self.st.trace.exprs.constant(bits, v))
    }

    /// `pthread_create(handle_ptr, attr, start, arg)`.
    pub(crate) fn spawn(&mut self, args: &[Operand]) -> Result<(), SymError> {
        let handle_ptr = self.addr_arg(args, 0, "pthread_create's thread id")?;
        let start = self.addr_arg(args, 2, "pthread_create's start routine")?;
        let f = self
            .st
            .program
            .function_at(start)
            .ok_or_else(|| self.unsupported("pthread_create with an invalid start routine"))?;
        let arg = args.get(3).map(|a| self.operand(a)).unwrap_or(Reg::Float(Value::ZERO));
        if let Reg::Int(e) = arg {
            self.escape_expr(e);
        }
        self.children += 1;
        let child = self.path.thread.child(self.children);
        let handle = 0x1000 + self.st.handles.len() as u128 + 1;
        self.st.handles.insert(handle, child.clone());
        self.st.starts.insert(child.clone(), (f, arg));
        // The handle goes where the program keeps it (as in the interpreter,
        // part of the fork: no access point of its own).
        let h = self.int_reg(64, handle);
        let (private, _) = self.classify(handle_ptr);
        let shared = if private {
            self.local.insert(handle_ptr, (8, h));
            None
        } else {
            let e = self.st.trace.exprs.constant(64, handle);
            self.own_writes.insert(handle_ptr, h);
            Some((handle_ptr, e))
        };
        self.event(SymOp::Fork { child, handle: shared });
        Ok(())
    }

    /// `pthread_join(handle, result)` with `result` not null: a read that
    /// is the `child`'s result ([`SymTrace::join_results`], placed at the
    /// join this thread records next) stored at `result`; when that is
    /// shared memory, the join writes it (as in the interpreter, part of
    /// the join's step): its address and value.
    pub(crate) fn join_result(
        &mut self,
        args: &[Operand],
        child: &ThreadName,
    ) -> Result<Option<(u64, ExprId)>, SymError> {
        let Some(at) = args.get(1) else { return Ok(None) };
        let at = self.addr(at, "pthread_join's result")?;
        if at == 0 {
            return Ok(None);
        }
        // (A constant when the thread returned one: determined.)
        let read = self.new_read();
        let value = self.read_value(read, 64, true);
        self.st.trace.join_results.push((read.0, child.clone()));
        if self.classify(at).0 {
            self.store_own(at, 8, Reg::Int(value))?;
            return Ok(None);
        }
        self.own_writes.insert(at, Reg::Int(value));
        self.note_write(at, value);
        Ok(Some((at, value)))
    }

    /// What this thread returns (`r`, its start routine's return value or
    /// `pthread_exit`'s argument; None: returning void, 0 as in the
    /// interpreter), for the joins that take it; the first time only (a
    /// key destructor returning afterwards is not the thread's result), and
    /// not for `main`, which nobody joins.
    fn returns(&mut self, r: Option<&Reg>) {
        let name = &self.path.thread;
        if self.index == 0 || self.st.trace.returned.iter().any(|(n, _)| n == name) {
            return;
        }
        let x = match r {
            Some(Reg::Int(e)) => *e,
            _ => self.st.trace.exprs.constant(64, 0),
        };
        let x = self.fit(x, 64);
        self.st.trace.returned.push((name.clone(), x));
        let object = self.st.trace.exprs.value(x).map(|a| causa_ir::addr_alloc(a as u64));
        self.handed_back = object.filter(|o| self.private.contains(o));
    }

    /// `pthread_join(handle, ...)`: the child it names.
    pub(crate) fn join_target(&mut self, args: &[Operand]) -> Result<ThreadName, SymError> {
        let h = self.int(&args[0], 64)?;
        let value = match self.st.trace.exprs.value(h) {
            Some(v) => Some(v),
            // A handle read back from shared memory where this thread stored it.
            None => match self.st.trace.exprs.get(h).clone() {
                crate::expr::Expr::Read { id, .. } => {
                    let (t, e) = self.st.trace.reads[id as usize];
                    let addr = match (t == self.index).then(|| &self.out.events[e].op) {
                        Some(SymOp::Read { addr, .. }) => Some(*addr),
                        _ => None,
                    };
                    match addr.and_then(|a| self.own_writes.get(&a)).cloned() {
                        Some(Reg::Int(x)) => self.st.trace.exprs.value(x),
                        _ => None,
                    }
                }
                _ => None,
            },
        };
        value
            .and_then(|v| self.st.handles.get(&v).cloned())
            .ok_or_else(|| self.unsupported("pthread_join of a thread id that is not known here"))
    }
}

/// An operation a thread can block at (where a deadlock can leave it).
fn blocks(op: &SymOp) -> bool {
    matches!(
        op,
        SymOp::Lock { .. }
            | SymOp::SemWait { .. }
            | SymOp::Join { .. }
            | SymOp::WaitReturn { .. }
            | SymOp::Depart { .. }
    )
}

fn int_bits(ty: &Ty) -> u32 {
    match ty {
        Ty::Ptr => 64,
        t => t.int_bits().max(1),
    }
}

fn op_name(op: &Op) -> &'static str {
    match op {
        Op::InsertValue { .. } => "insertvalue",
        Op::ExtractElement { .. } | Op::InsertElement { .. } | Op::ShuffleVector { .. } => "vector operations",
        Op::VaArg { .. } => "va_arg",
        Op::Unsupported { .. } => "an unsupported instruction",
        _ => "this instruction",
    }
}

/// No access at a known address reads bytes `realloc` copied from a shared
/// block (their values are not modelled: the read would see the new
/// block's zeros).
fn realloc_copies_unread(st: &State<'_>) -> Result<(), SymError> {
    if st.trace.realloc_copies.is_empty() {
        return Ok(());
    }
    for th in &st.trace.threads {
        for e in &th.events {
            let read: Vec<(u64, u64)> = match &e.op {
                SymOp::Read { addr, size, at: None, .. } => vec![(*addr, *size as u64)],
                SymOp::Rmw { addr, size, at: None, .. } => vec![(*addr, *size as u64)],
                SymOp::Bulk { reads, at: None, .. } => reads.iter().map(|p| (p.addr, p.size as u64)).collect(),
                _ => continue,
            };
            for (a, n) in read {
                if let Some((_, _, call)) = st.trace.realloc_copies.iter().find(|(b, len, _)| a < b + len && *b < a + n)
                {
                    return Err(SymError::Unsupported {
                        what: format!(
                            "a read of bytes `realloc` copied from a shared block (the realloc{})",
                            call.as_ref().map(|c| format!(" at {c}")).unwrap_or_default()
                        ),
                        at: st.program.loc(e.loc).map(|l| l.to_string()),
                    });
                }
            }
        }
    }
    Ok(())
}
