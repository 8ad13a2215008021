//! Explaining a failure (issue 6): the few events and data flows that make
//! the difference between a failing schedule and the most similar schedule
//! that does not fail — a differential schedule projection (DSP, Symbiosis
//! TOSEM'16 §3.6; AAAI-19 §2; notes `symbiosis.md` §6, `maxsmt.md` §2.3).
//!
//! The failing execution's paths are executed symbolically
//! ([`causa_symbolic::execute`]); the failing schedule, its root cause and
//! an alternate schedule come from [`causa_symbolic::alternate`] in the
//! chosen [`Mode`]; the alternate schedule is replayed in the interpreter to
//! confirm it does not fail; [`dsp::projection`] keeps what differs, with
//! the four quality figures and the segments that should run atomically;
//! [`summary`] says it in a paragraph; [`text`], [`json`], [`dot`] and
//! [`html`] render it.

use causa_core::collections::HashMap;
use causa_core::{Scheduler, ThreadName};
use causa_explore::{run_once, FirstScheduler, ReplayScheduler};
use causa_interp::{Config, Execution, Outcome, Prepared};
use causa_symbolic::{
    AlternateOptions, ClapError, EventRef, FlippedBranch, Mode, Proposal, SymError, SymOp, SymTrace, Verdict,
};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

mod align;
mod barrier;
mod constant_reads;
pub mod deadlock;
mod describe;
pub mod dot;
pub mod dsp;
mod exhausted;
pub mod html;
pub mod json;
mod library_state;
mod lost;
mod misuse;
mod neighbor;
mod prefer;
mod sem_order;
mod snapshot;
mod spin;
pub mod summary;
pub mod text;
mod unsignalled;

pub use describe::Run;
pub use dsp::{Atomic, Dsp, Figures, Flow};
use std::time::{Duration, Instant};

/// Why no explanation was computed.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    #[error("the execution did not fail: there is nothing to explain")]
    NoFailure,
    #[error("symbolic execution of the failing run: {0}")]
    Symbolic(#[from] SymError),
    #[error("{0}")]
    Model(#[from] ClapError),
    #[error(
        "a data race is two unordered accesses, not a failing run (`causa run --races --schedule FILE` names both); \
         `causa explain` explains failures: assertion violations, aborts, divisions by zero, memory errors, deadlocks \
         and invalid pthread use"
    )]
    DataRace,
    /// A failure from state a library function keeps for the whole
    /// process (`strtok`'s position), told from the run alone.
    #[error("no alternate schedule, but the failing run shows the cause: {0}")]
    LibraryState(String),
}

/// A join the alternate run made past its thread's last event in the
/// symbolic trace: the failing run never reached it (`main` fails on a
/// result it read before the join that waits for the thread computing it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaterJoin {
    /// The joining thread and the joined one (thread indices of [`EventRef`]).
    pub thread: usize,
    pub joins: usize,
    pub loc: Option<causa_core::SourceLoc>,
}

/// What an event of the explanation is, for display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventInfo {
    /// `read`, `write`, `update`, `lock`, `begin`, …
    pub op: &'static str,
    /// The memory or synchronisation object, when it has an address (for
    /// an access through an address computed from shared data: the one the
    /// failing run accessed).
    pub addr: Option<u64>,
    /// Such an access's object in the alternate run, when it is another one.
    pub alternate_addr: Option<u64>,
    /// A bulk access's size (`memcpy` of a struct): its object is named by
    /// address and size ([`Explanation::spans`]).
    pub span: Option<u32>,
    /// A plain access's size in bytes.
    pub size: Option<u32>,
    pub loc: Option<causa_core::SourceLoc>,
    /// The function the event's source line is in.
    pub function: Option<Arc<str>>,
    /// A store that goes through its thread's store buffer (TSO/PSO): its
    /// place in a schedule is when it becomes visible, its flush.
    pub buffered: bool,
    /// A `free` that is a `realloc`'s (the block moved).
    pub realloc: bool,
    /// An exclusive lock or an unlock of a reader-writer lock (shown as
    /// `wrlock` and `rwunlock`, as the run lists them).
    pub rw: bool,
    /// A C11 atomic load or store (each access whole, but a load and a
    /// store are still two steps).
    pub atomic: bool,
    /// A write of one of the program's constants (`flag = 1`), not of a
    /// value computed from what its thread read.
    pub constant: bool,
    /// A join's thread (its index among the trace's threads).
    pub joins: Option<usize>,
    /// A `pthread_create`'s thread (its index among the trace's threads).
    pub forks: Option<usize>,
    /// It stores to shared memory (a write, an atomic update, a library
    /// call that writes, such as `snprintf` into a shared buffer).
    pub stores: bool,
}

/// Why the alternate does not show an event of the failing run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unshown {
    /// Its thread goes another way before it (a flipped branch, or past the
    /// replayed part another path than the recorded one).
    OtherWay,
    /// A read (past the replayed part) of this value, stored by an operation
    /// the failing run never reached.
    LateValue(String),
    /// An event after such a read.
    AfterLateValue,
    /// A read of this value stored by an operation the failing run never
    /// reached, which the failure does not depend on (its thread's later
    /// events are still shown).
    SeenLate(String),
    /// A read its thread runs on the path it takes after the flipped branch
    /// too (the same statement, the same object), and what it read there
    /// (the turn after a loop the alternate leaves earlier).
    OnTheNewPath(String),
}

impl Unshown {
    /// The reason said of several reads of one thread at once, for the
    /// reasons that name no value (the data flows list three or more such
    /// reads in a row on one line); None for the others.
    pub fn of_several(&self) -> Option<&'static str> {
        match self {
            Unshown::OtherWay => Some("not run (its thread goes the other way before them)"),
            Unshown::AfterLateValue => {
                Some("not followed (before them, its thread read a value the failing run never stored)")
            }
            _ => None,
        }
    }
}

/// A value read that an operation the failing run never reached stored:
/// an update's (`1→2`) is the value it read and the one it wrote, and only
/// the first was stored by that operation.
pub(crate) fn late_value(v: &str) -> String {
    match v.contains('→') {
        true => format!("{v}, {}", late_store(v)),
        false => format!("{v} {}", late_store(v)),
    }
}

/// Who stored such a value: `stored by an operation the failing run never
/// reached`, of an update's read value `its 1 stored by …`.
pub(crate) fn late_store(v: &str) -> String {
    match v.split_once('→') {
        Some((old, _)) => format!("its {old} stored by an operation the failing run never reached"),
        None => "stored by an operation the failing run never reached".into(),
    }
}

impl std::fmt::Display for Unshown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unshown::OtherWay => write!(f, "not run (its thread goes the other way before it)"),
            Unshown::LateValue(v) => write!(f, "read {} (not followed further)", late_value(v)),
            Unshown::SeenLate(v) => write!(f, "read {}", late_value(v)),
            Unshown::AfterLateValue => {
                write!(f, "not followed (before it, its thread read a value the failing run never stored)")
            }
            Unshown::OnTheNewPath(v) => write!(f, "read {v} there on the path its thread takes instead"),
        }
    }
}

/// An explanation of one failure.
#[derive(Clone, Debug)]
pub struct Explanation {
    pub mode: Mode,
    /// The failing run's memory model (under TSO/PSO a buffered store is
    /// placed where it becomes visible).
    pub memory_model: causa_core::MemoryModel,
    /// The failure explained.
    pub failure: causa_core::Finding,
    /// Thread names, by the thread index of [`EventRef`].
    pub threads: Vec<ThreadName>,
    /// The function each thread starts in, by thread index.
    pub starts: Vec<Option<String>>,
    /// Every event of every thread, by [`EventRef`] (`info[t][k]`).
    pub info: Vec<Vec<EventInfo>>,
    /// Names of the objects events touch (`balance`, `buf[3]`), by address.
    pub names: BTreeMap<u64, String>,
    /// Names of the blocks frees free (`heap#1`), by address.
    pub blocks: BTreeMap<u64, String>,
    /// The failing run's heap blocks, where each was allocated (the
    /// reports' legend for `heap#1`).
    pub heap_blocks: Vec<causa_core::event::HeapBlock>,
    /// Names of what bulk accesses span (`shared`, `b->data`), by address
    /// and size.
    pub spans: BTreeMap<(u64, u32), String>,
    /// Names of what plain accesses touch, by address and size (a union's
    /// members share an address: `st.word`, `st.half.sent`).
    pub sized: BTreeMap<(u64, u32), String>,
    /// The frames of the objects that are local variables (`i` of `main`
    /// in thread 0), by address.
    pub locals: BTreeMap<u64, causa_core::LocalOf>,
    /// Values read or written, as the failing and the alternate runs saw them.
    pub failing_values: BTreeMap<EventRef, String>,
    pub alternate_values: BTreeMap<EventRef, String>,
    /// The failing schedule the explanation works on (access points in
    /// order, ending at the failure).
    pub failing: Vec<EventRef>,
    /// Whether `failing` is the run's own order (else the solver's, on the
    /// run's paths, with the fewest context switches).
    pub failing_from_run: bool,
    /// The threads the failure cut short that a neighbouring run took
    /// further (their later events come from it: `neighbor.rs`).
    pub extended: Vec<ThreadName>,
    /// Why the threads the failure cut short could not be followed past the
    /// failing run (a neighbouring run took them further, but symbolic
    /// execution of their later paths failed), when that was tried.
    pub not_followed: Option<String>,
    /// The root-cause sub-schedule (events of Φ_root's unsat core).
    pub root_cause: Vec<EventRef>,
    /// The alternate schedule, when one was found.
    pub alternate: Option<Vec<EventRef>>,
    /// Reads past the replayed part of the alternate whose value came from
    /// a write the failing run never reached; their threads are not
    /// followed from there on.
    pub late_reads: Vec<EventRef>,
    /// Joins the replayed alternate made past the trace's events.
    pub later_joins: Vec<LaterJoin>,
    /// Symbiosis mode: the inverted pair.
    pub inverted: Option<(EventRef, EventRef)>,
    /// A use after free or double free: the `free` that came first.
    pub freeing: Option<EventRef>,
    /// The alternate schedule replayed in the interpreter (the model's part:
    /// up to the failing thread's point): how it ended,
    pub alternate_outcome: Option<Outcome>,
    /// and how the program was finished after that part.
    pub alternate_finish: Option<String>,
    pub dsp: Dsp,
    /// Symbiosis mode: pairs tried.
    pub pairs_tried: usize,
    /// Progressive mode: segments left free before the failure, of `segments`.
    pub window: Option<usize>,
    /// Progressive mode: events of the window kept in the failing order
    /// because the failure depends on none of them.
    pub held: usize,
    /// The root cause was computed with this many such events held in the
    /// failing order (0: every event free).
    pub root_held: usize,
    /// The alternate was found with this many such events held in the
    /// failing order (progressive mode's first stage; 0: not so).
    pub held_stage: usize,
    pub segments: usize,
    /// Max SMT modes: the alternate is proven optimal.
    pub optimal: bool,
    /// A path-schedule dependent failure: the branch the alternate takes the
    /// other way (no schedule of the failing run's paths was accepted).
    pub flipped: Option<Flip>,
    /// Per shared read, the places of its thread's branches whose
    /// conditions depend on its value (the number of the thread's events
    /// before each branch).
    pub branches_on: BTreeMap<EventRef, Vec<usize>>,
    /// Per write of a value computed from shared reads, those reads (of
    /// its own thread, in order).
    pub computed_from: BTreeMap<EventRef, Vec<EventRef>>,
    /// The count each semaphore was given by `sem_init` (the last one).
    pub sem_initial: BTreeMap<u64, u128>,
    /// The failing thread's branch that led to the failure (an assertion's
    /// condition), as the number of the thread's events before it: the
    /// reads in `branches_on` at that place are what the check sees.
    pub failure_branch: Option<(usize, usize)>,
    /// Branches whose flip was tried.
    pub flips_tried: usize,
    /// Alternates of the failing run's paths whose replay failed later,
    /// before this one.
    pub rejected: usize,
    /// Of the alternates set aside, those that avoided the failure only by
    /// losing an update the failing schedule does not lose (`lost.rs`; 0
    /// when none was accepted and the first is shown after all).
    pub lost_updates: usize,
    /// A deadlock: the threads blocked at a lock another one holds,
    pub deadlock: Vec<deadlock::Waiting>,
    /// and those waiting for a signal that came before their wait.
    pub lost_signals: Vec<deadlock::LostSignal>,
    /// and those waiting at a semaphore every unit of which was taken,
    pub starved: Vec<deadlock::Starved>,
    /// and those waiting at a barrier too few threads arrive at,
    pub short_barriers: Vec<deadlock::ShortBarrier>,
    /// and those waiting at a condition variable whose predicate the
    /// waiters took back.
    pub exhausted: Vec<deadlock::Exhausted>,
    pub queries: u64,
    pub solve_time: Duration,
    /// The solvers' arithmetic.
    pub arithmetic: causa_symbolic::Arithmetic,
    /// The time limit ([`ExplainOptions::time_limit`]) ran out: the
    /// search stopped early.
    pub timed_out: bool,
    pub total_time: Duration,
}

/// A write through a computed address that the model makes of a call's
/// whole output (`snprintf(buf + used, sizeof buf - used, …)`, taken on the
/// path where the bound leaves room for it) but that wrote fewer bytes in
/// the run: its output was cut short there, a path the model does not
/// follow. (What, where.)
fn cut_short(sym: &SymTrace, run: &align::Alignment, ex: &Execution) -> Option<(String, Option<String>)> {
    let mut paired: Vec<(&EventRef, &usize)> = run.events.iter().collect();
    paired.sort();
    paired.into_iter().find_map(|((t, k), i)| {
        let SymOp::Write { size, at: Some(_), .. } = sym.threads[*t].events[*k].op else { return None };
        let rec = ex.records.get(*i)?;
        let wrote = rec.width.filter(|w| *w != size && rec.span().is_some())?;
        let at = rec.location.as_ref().map(|l| format!("{}:{}", causa_interp::memory::short_file(&l.file), l.line));
        Some((
            format!(
                "a call whose output, {size} bytes, was cut short to {wrote} in the failing run (its bound is computed from shared data; only output that fits is followed)"
            ),
            at,
        ))
    })
}

/// A constant a write stores, as the run shows it: an int signed; a copy
/// of a few bytes (`bulk`: the run's access is one of bytes, as a
/// `memcpy(log + at, "beta;", 5)` or `snprintf` at a computed address,
/// one write in the model) as the text it is, else its bytes.
fn written_text(v: u128, size: u32, bulk: bool) -> String {
    if !bulk && matches!(size, 1 | 2 | 4 | 8) {
        return causa_ir::value::sext(v, size * 8).to_string();
    }
    let bytes: Vec<u8> = (0..size.min(16)).map(|i| (v >> (8 * i)) as u8).collect();
    let text = bytes.strip_suffix(&[0]).unwrap_or(&bytes);
    if text.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        return format!("{:?}", String::from_utf8_lossy(text));
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
}

/// A branch the alternate schedule takes the other way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flip {
    /// Thread index.
    pub thread: usize,
    pub loc: Option<causa_core::SourceLoc>,
    /// Whether the failing run took it (the alternate does not; a switch:
    /// true, the alternate goes to another case).
    pub taken: bool,
    /// A switch rather than a two-way branch.
    pub switch: bool,
    /// Not a branch: the address of the synchronisation object the thread
    /// uses there, computed from shared data (the alternate uses another).
    pub object: bool,
    /// Not a branch: a try (`pthread_mutex_trylock`, `sem_trywait`) that
    /// failed in the failing run and succeeds in the alternate (the
    /// thread's event `events_before`).
    pub failed_try: bool,
    /// The thread's events before the branch: the alternate runs none of
    /// its failing-run events from this index on (it re-executes the other
    /// way).
    pub events_before: usize,
    /// What the thread does instead: its events after the branch in the
    /// replayed alternate run.
    pub new_path: Vec<causa_core::event::EventRecord>,
    /// The branch is on its `pthread_barrier_wait`'s result: that arrival,
    /// and whether it was the last of its generation in the failing
    /// schedule (the alternate has the other).
    pub serial: Option<(EventRef, bool)>,
}

impl Explanation {
    /// Why the alternate does not show event `r` of the failing run
    /// (None: it does).
    pub fn unshown(&self, r: EventRef) -> Option<Unshown> {
        if !self.skipped(r) {
            None
        } else if self.late_reads.contains(&r) {
            let v = self.alternate_values.get(&r).cloned().unwrap_or_else(|| "a value".into());
            Some(if self.followed_past(r) { Unshown::SeenLate(v) } else { Unshown::LateValue(v) })
        } else if self.late_reads.iter().any(|l| l.0 == r.0 && l.1 < r.1 && !self.followed_past(*l)) {
            Some(Unshown::AfterLateValue)
        } else if let Some(v) = self.on_the_new_path(r) {
            Some(Unshown::OnTheNewPath(v))
        } else {
            Some(Unshown::OtherWay)
        }
    }

    /// Whether the alternate shows events of late read `l`'s thread after it.
    fn followed_past(&self, l: EventRef) -> bool {
        self.alternate.as_ref().is_some_and(|a| a.iter().any(|x| x.0 == l.0 && x.1 > l.1))
    }

    /// What the flipped thread's new path read at the place and object of
    /// its skipped read `r`, when it runs that statement too.
    fn on_the_new_path(&self, r: EventRef) -> Option<String> {
        let f = self.flipped.as_ref().filter(|f| f.thread == r.0)?;
        let i = self.info_of(r);
        if i.op != "read" {
            return None;
        }
        let (loc, object) = (i.loc.as_ref()?, self.object(r)?);
        f.new_path
            .iter()
            .filter(|n| n.kind == causa_core::EventKind::Read)
            .filter(|n| n.location.as_ref().is_some_and(|l| (&l.file, l.line) == (&loc.file, loc.line)))
            .find(|n| n.object.as_deref() == Some(object.as_str()))
            .map(|n| n.value.clone().unwrap_or_else(|| "a value".into()))
    }

    /// Whether event `r` of the failing run is not run by the alternate:
    /// its thread took the other way at the flipped branch before it, or,
    /// past the replayed part, another way than its recorded path.
    pub fn skipped(&self, r: EventRef) -> bool {
        self.flipped.as_ref().is_some_and(|f| r.0 == f.thread && r.1 >= f.events_before)
            || self.alternate.as_ref().is_some_and(|a| self.failing.contains(&r) && !a.contains(&r))
    }

    /// What the flipped thread does instead, in the replayed alternate:
    /// `read w → 0 :5`, `end :9` (the first `limit` events, then how many
    /// more).
    pub fn new_path_items(&self, limit: usize) -> Option<Vec<String>> {
        let f = self.flipped.as_ref().filter(|f| !f.new_path.is_empty())?;
        let mut parts: Vec<String> = f
            .new_path
            .iter()
            .take(limit)
            .map(|r| match &r.location {
                Some(l) => format!("{} :{}", r.describe(), l.line),
                None => r.describe(),
            })
            .collect();
        if f.new_path.len() > limit {
            parts.push(format!("… {} more", f.new_path.len() - limit));
        }
        Some(parts)
    }

    /// What the flips tried are, for `n` of them: branches, or branches or
    /// tries when the failing run has a try that failed (flipped too).
    pub fn flips_noun(&self, n: usize) -> &'static str {
        let tries =
            self.failing.iter().any(|r| matches!(self.info_of(*r).op, "trylock (busy)" | "sem_trywait (none left)"));
        match (tries, n == 1) {
            (false, true) => "branch",
            (false, false) => "branches",
            (true, true) => "branch or try",
            (true, false) => "branches or tries",
        }
    }

    /// A flipped try: `try to lock `b` at deposit.c:7`, `try to take a
    /// unit of `ready` at poll.c:9` (None: the flip is a branch's).
    pub fn try_text(&self) -> Option<String> {
        let f = self.flipped.as_ref().filter(|f| f.failed_try)?;
        let r = (f.thread, f.events_before);
        let sem = self.threads_events_op(r) == Some("sem_trywait (none left)");
        let (what, noun) = if sem { ("take a unit of", "its semaphore") } else { ("lock", "its mutex") };
        let obj = self.named(r, noun);
        Some(format!("try to {what} {obj} at {}", self.line(r).unwrap_or_else(|| "an unknown line".into())))
    }

    /// `the other branch at pfscan.c:34` (or `another branch` when its line
    /// is unknown).
    pub fn flip_text(&self) -> Option<String> {
        let f = self.flipped.as_ref()?;
        let other = self.other_object(f);
        let what = match &other {
            Some(o) => o,
            None if f.switch => "another case of the switch",
            None => "the other branch",
        };
        Some(match &f.loc {
            // (A branch of causa's own C library: named by its function,
            // whose lines the program's files do not have.)
            Some(l) if &*l.file == causa_ir::compile::RUNTIME_FILE => match causa_ir::compile::runtime_function(l.line)
            {
                Some(func) => format!("{what} in causa's `{func}`"),
                None => format!("{what} in causa's C library (line {})", l.line),
            },
            Some(l) => format!("{what} at {}:{}", causa_interp::memory::short_file(&l.file), l.line),
            None => format!("{what} (line unknown)"),
        })
    }

    /// `a mutex other than `a``: what a flipped synchronisation object's
    /// thread uses instead (None: a branch).
    fn other_object(&self, f: &Flip) -> Option<String> {
        if !f.object {
            return None;
        }
        let r = (f.thread, f.events_before);
        // (The operations' names as `EventInfo::op` has them.)
        let noun = match self.threads_events_op(r) {
            Some("lock" | "unlock" | "relock (recursive)" | "unlock (still held)" | "trylock (busy)") => "a mutex",
            Some("rdlock") => "a read-write lock",
            Some("wait" | "wake" | "timed out" | "signal" | "broadcast") => "a condition variable",
            Some(op) if op.starts_with("sem_") => "a semaphore",
            Some("barrier" | "barrier exit") => "a barrier",
            _ => "a synchronisation object",
        };
        Some(match self.object(r) {
            Some(o) => format!("{noun} other than `{o}`"),
            None => format!("{noun} other than the failing run's"),
        })
    }

    /// The operation of event `r`, when the failing run has it.
    fn threads_events_op(&self, r: EventRef) -> Option<&str> {
        self.info.get(r.0)?.get(r.1).map(|i| i.op)
    }

    /// Why the flipped branch goes the other way when it tests the result of
    /// `pthread_barrier_wait`: `it arrives last at `bar`, so …`.
    pub fn serial_text(&self) -> Option<String> {
        let (a, last) = self.flipped.as_ref()?.serial?;
        let bar = self.named(a, "the barrier");
        Some(if last {
            format!("it no longer arrives last at {bar}, so its `pthread_barrier_wait` returns 0 instead of PTHREAD_BARRIER_SERIAL_THREAD")
        } else {
            format!("it arrives last at {bar}, so its `pthread_barrier_wait` returns PTHREAD_BARRIER_SERIAL_THREAD")
        })
    }

    /// The alternate schedule was replayed and ran to the end without failing.
    pub fn alternate_passes(&self) -> bool {
        self.alternate_outcome.as_ref().is_some_and(passes)
    }

    /// The alternate schedule was replayed and the explained failure did not
    /// happen (another may have, later).
    pub fn alternate_avoids_failure(&self) -> bool {
        self.alternate_outcome.as_ref().is_some_and(|o| avoids(o, &self.failure))
    }
}

/// Options of [`explain`].
#[derive(Clone, Debug)]
pub struct ExplainOptions {
    pub mode: Mode,
    /// Max SMT modes: the conflict budget of each solver call (None: the
    /// mode's, [`Mode::conflict_budget`]; 0: no budget).
    pub max_conflicts: Option<u32>,
    /// Max SMT modes: how each query is solved.
    pub engine: causa_symbolic::Engine,
    /// How long the explanation's solver queries may run in all (None:
    /// no limit; default [`DEFAULT_TIME_LIMIT`]). Past it no query is
    /// asked: the search ends with what it found.
    pub time_limit: Option<Duration>,
}

/// The default of [`ExplainOptions::time_limit`]: two minutes. The
/// slowest explanation of the benchmark's rows takes under ten seconds;
/// Symbiosis mode on a long run whose queries each take seconds (a full
/// model of hundreds of critical sections) stops there instead of running
/// on. A limit of Z3's deterministic resource units was tried first: on
/// such a model its dense difference logic spent 2–5 s per query for
/// 0.1–0.3 million units (docs/performance.md), so the units are no
/// measure of the time.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(120);

impl Default for ExplainOptions {
    fn default() -> Self {
        ExplainOptions {
            mode: Mode::Progressive,
            max_conflicts: None,
            engine: Default::default(),
            time_limit: Some(DEFAULT_TIME_LIMIT),
        }
    }
}

/// Explain the failure of `ex`, an execution of `prep` run with
/// `Config::record_paths` (its paths are what is executed symbolically).
pub fn explain(
    prep: &Arc<Prepared>,
    cfg: &Config,
    ex: &Execution,
    opts: &ExplainOptions,
) -> Result<Explanation, ExplainError> {
    // The same explanation whatever the thread explained before.
    causa_constraints::in_own_context(|| explain_here(prep, cfg, ex, opts))
}

fn explain_here(
    prep: &Arc<Prepared>,
    cfg: &Config,
    ex: &Execution,
    opts: &ExplainOptions,
) -> Result<Explanation, ExplainError> {
    let start = Instant::now();
    let Some(failure) = ex.outcome.finding().cloned() else {
        return Err(ExplainError::NoFailure);
    };
    if failure.kind == causa_core::BugKind::DataRace {
        return Err(ExplainError::DataRace);
    }
    let run_steps = ex.steps.iter().map(|t| ex.names[*t as usize].clone()).collect();
    let aopts = AlternateOptions {
        mode: opts.mode,
        max_conflicts: match opts.max_conflicts.unwrap_or(opts.mode.conflict_budget()) {
            0 => None,
            n => Some(n),
        },
        engine: opts.engine,
        run_steps: Some(run_steps),
        deadline: opts.time_limit.map(|t| start + t),
        ..Default::default()
    };
    let log = causa_explore::reproduce::path_log(prep, ex, "explain", cfg.argv.clone());
    let mut tried = match attempt(prep, (cfg, ex), &failure, &aopts, log) {
        Err(ExplainError::Symbolic(SymError::Unsupported { what, at })) if what.contains("`strtok`") => {
            let functions = Functions::new(&prep.program);
            let records = with_records(prep, cfg, ex);
            return Err(match library_state::strtok_interleaved(&records, &|l| functions.at(l)) {
                Some(s) => ExplainError::LibraryState(s),
                None => ExplainError::Symbolic(SymError::Unsupported { what, at }),
            });
        }
        r => r?,
    };
    let mut extended = Vec::new();
    let mut not_followed = None;
    // No alternate in the failing run's own paths: the threads the failure
    // cut short may need to go further first (`neighbor.rs`).
    if tried.accepted.is_none() && failure.kind != causa_core::BugKind::Deadlock {
        if let Some((log, further)) = neighbor::extended(prep, cfg, ex, &tried.log, &failure.thread) {
            let again = attempt(prep, (cfg, ex), &failure, &aopts, log);
            if let Err(e) = &again {
                tracing::debug!(error = %e, "explain: the threads taken further could not be followed");
                not_followed = Some(match e {
                    ExplainError::Symbolic(inner) => inner.to_string(),
                    other => other.to_string(),
                });
            }
            if let Ok(mut again) = again {
                if again.accepted.is_some() {
                    // (The solver's work counts both searches.)
                    again.s.queries += tried.s.queries;
                    again.s.solve_time += tried.s.solve_time;
                    tried = again;
                    extended = further;
                }
            }
        }
    }
    // No alternate to show at all: the last resort, the run's own paths
    // again with the flips whose first schedule failed on replay asked for
    // their most similar schedule
    // (`AlternateOptions::similar_of_failed_flips`).
    if tried.accepted.is_none() && tried.s.alternate.is_none() && tried.s.flips_tried > 0 {
        let last = AlternateOptions { similar_of_failed_flips: true, ..aopts.clone() };
        let mut again = attempt(prep, (cfg, ex), &failure, &last, tried.log.clone())?;
        if again.accepted.is_some() {
            again.s.queries += tried.s.queries;
            again.s.solve_time += tried.s.solve_time;
            tried = again;
            extended = Vec::new();
        }
    }
    let Attempt { sym, s, mut replays, lost_updates, accepted, .. } = tried;
    // The chosen alternate's replay: the last accepted (a flip's, or another
    // alternate's when the mode's first failed later), else the last
    // offered (`alternate` offers the one it shows again, last).
    let chosen = match accepted {
        Some(i) => Some(replays.swap_remove(i)),
        None => replays.pop(),
    }
    .map(|(run, how, _)| (run, how));
    let lost_updates = if accepted.is_some() { lost_updates } else { 0 };
    let mut objects = align::Objects::default();
    let run_aligned = align::align(&sym, ex, None);
    if let Some(why) = cut_short(&sym, &run_aligned, ex) {
        return Err(ExplainError::Symbolic(SymError::Unsupported { what: why.0, at: why.1 }));
    }
    // The solver's failing schedule shows the values its own replay saw
    // (the run's are those of another order).
    let replayed_failing = (!s.failing_from_run).then(|| replay_failing(prep, cfg, ex, &sym, &s.failing, &failure));
    let (ex, failing_run) = match replayed_failing.as_ref().and_then(|r| r.as_ref()) {
        Some(replayed) => (replayed, align::align(&sym, replayed, None)),
        None => (ex, run_aligned),
    };
    failing_run.name_objects(&sym, ex, &mut objects);
    let mut failing_values = failing_run.values(ex);
    // Under TSO/PSO the failing schedule (the solver's) may make a store
    // visible before the failure that the run had not flushed yet: its
    // value, when a constant, is the program's.
    for &(t, k) in &s.failing {
        if let SymOp::Write { value, size, .. } = &sym.threads[t].events[k].op {
            if let (None, Some(v)) = (failing_values.get(&(t, k)), sym.exprs.value(*value)) {
                let bulk = failing_run
                    .events
                    .get(&(t, k))
                    .and_then(|i| ex.records.get(*i))
                    .is_some_and(|r| r.span().is_some());
                failing_values.insert((t, k), written_text(v, *size, bulk));
            }
        }
    }
    let mut new_path = Vec::new();
    let (cycle, lost, starved, short_barriers, exhausted) = match failure.kind {
        causa_core::BugKind::Deadlock => {
            let exhausted = deadlock::exhausted(&sym, &s.failing);
            (
                deadlock::cycle(&sym, &s.failing),
                deadlock::lost_signals(&sym, &s.failing, &exhausted),
                deadlock::starved(&sym, &s.failing),
                deadlock::short_barriers(&sym),
                exhausted,
            )
        }
        _ => (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new()),
    };
    let mut resolved = dsp::Resolved {
        failing: failing_run.resolved(&sym, ex),
        failing_appended: failing_run.appended(&sym, ex),
        ..Default::default()
    };
    let mut alternate = s.alternate.clone();
    let mut late_reads = Vec::new();
    let mut later_joins = Vec::new();
    let freeing = freeing(prep, &sym, &s.failing, (&failure, ex));
    let incidental = s.incidental.as_deref();
    let (replayed, mut alternate_values, dsp) = match (&s.alternate, chosen) {
        (Some(alt), Some((run, how))) => {
            let until = s.flipped.as_ref().map(|f| (f.thread, f.events_before));
            let alternate_run = align::align(&sym, &run, until);
            let (mut alt, late) = ran(&sym, (alt, s.alternate_prefix), &alternate_run, &run, incidental);
            // A flipped try (the failing run's event): it has the other
            // outcome in the alternate, the first event of the thread's new
            // path, not this one.
            let tried = s.flipped.as_ref().filter(|f| f.branch.failed_try).map(|f| (f.thread, f.events_before));
            if let Some(t) = tried {
                alt.retain(|r| *r != t);
            }
            let alt = &alt;
            late_reads = late;
            later_joins = alternate_run.later_joins(&sym, &run);
            alternate = Some(alt.clone());
            alternate_run.name_objects(&sym, &run, &mut objects);
            resolved.alternate = alternate_run.resolved(&sym, &run);
            resolved.alternate_appended = alternate_run.appended(&sym, &run);
            if let Some(f) = &s.flipped {
                new_path = alternate_run.after(&sym, &run, f.thread, f.events_before);
            }
            let mut vals = alternate_run.values(&run);
            // A copy of a few bytes to a computed address is one wide write
            // in the model, one bulk access without a value in the run: its
            // constant bytes (the same in every schedule).
            for &(t, k) in alt {
                if let SymOp::Write { value, size, .. } = &sym.threads[t].events[k].op {
                    let record = alternate_run.events.get(&(t, k)).and_then(|i| run.records.get(*i));
                    if let (true, Some(v)) = (record.is_some_and(|r| r.span().is_some()), sym.exprs.value(*value)) {
                        vals.entry((t, k)).or_insert_with(|| written_text(v, *size, true));
                    }
                }
            }
            let mut pair: Vec<EventRef> = s.inverted.iter().flat_map(|(a, b)| [*a, *b]).collect();
            // A deadlock's acquisitions belong to its explanation.
            pair.extend(cycle.iter().flat_map(|w| [w.waits, w.held_by]));
            pair.extend(lost.iter().flat_map(|l| std::iter::once(l.wait).chain(l.signals.iter().copied())));
            // A use after free's `free` (the order that matters is its and
            // the failing access's, rarely consecutive).
            pair.extend(freeing);
            // A try that succeeds in the alternate: the try, and (a lock
            // try's) the failing run's critical section it fell in.
            if let Some(t) = tried {
                pair.extend(dsp::try_and_holder(&sym, &s.failing, t));
            }
            let quiet = quiet(incidental, s.flipped.as_ref(), &s.failing);
            let mut dsp = dsp::projection(&sym, (&s.failing, alt), &resolved, (&pair, freeing), &quiet);
            // A late read's flow in the alternate (from a write the failing
            // run never reached, so not among the trace's flows) differs
            // too: a double free's second check reads the reset pointer.
            let late: BTreeSet<EventRef> =
                dsp.failing_only.iter().map(|f| f.read).filter(|r| late_reads.contains(r)).collect();
            dsp.figures.data_flows += late.len();
            (Some((run.outcome, how)), vals, dsp)
        }
        _ => (None, BTreeMap::new(), Dsp::default()),
    };
    let functions = Functions::new(&prep.program);
    let mut info: Vec<Vec<EventInfo>> = sym
        .threads
        .iter()
        .map(|t| {
            t.events
                .iter()
                .map(|e| {
                    let buffered = sym.memory_model.buffers_stores() && causa_symbolic::model::buffered(e);
                    event_info((&prep.program, &sym), (&e.op, e.loc, buffered), &functions)
                })
                .collect()
        })
        .collect();
    // An access whose address the solver resolves is shown at the object
    // each run accessed.
    for (&(t, k), &a) in &resolved.failing {
        info[t][k].addr = Some(a);
    }
    for (&(t, k), &a) in &resolved.alternate {
        info[t][k].alternate_addr = Some(a).filter(|a| info[t][k].addr != Some(*a));
    }
    // A word read over bytes written one by one: its value in hex, as its
    // bytes are (`0xbebafeca`, not -1095041334).
    let parts = dsp.failing_only.iter().chain(&dsp.alternate_only).filter(|f| f.bytes.is_some());
    for r in parts.map(|f| f.read).collect::<BTreeSet<EventRef>>() {
        let Some(n) = info[r.0][r.1].size.filter(|_| info[r.0][r.1].span.is_none()) else { continue };
        for values in [&mut failing_values, &mut alternate_values] {
            if let Some(v) = values.get_mut(&r) {
                *v = in_hex(v, n);
            }
        }
    }
    null_pointers(&info, [&mut failing_values, &mut alternate_values]);
    let flipped = s.flipped.map(|f: FlippedBranch| Flip {
        thread: f.thread,
        loc: prep.program.loc(f.branch.loc).cloned(),
        taken: f.branch.taken,
        switch: f.branch.switch,
        object: f.branch.object,
        failed_try: f.branch.failed_try,
        events_before: f.events_before,
        new_path: std::mem::take(&mut new_path),
        serial: serial_arrival(&sym, &s.failing, &f),
    });
    let branches_on = branches_on(&sym);
    let computed_from = computed_from(&sym);
    let failure_branch = sym.threads.iter().enumerate().find_map(|(t, th)| {
        let i = th.failure_condition?;
        th.path.get(i).map(|&(_, k)| (t, k))
    });
    Ok(Explanation {
        mode: opts.mode,
        memory_model: sym.memory_model,
        failure,
        threads: sym.threads.iter().map(|t| t.thread.clone()).collect(),
        starts: sym.threads.iter().map(|t| t.start.clone()).collect(),
        info,
        names: objects.names,
        blocks: objects.blocks,
        heap_blocks: ex.heap_blocks.clone(),
        spans: objects.spans,
        sized: objects.sized,
        locals: objects.locals,
        failing_values,
        alternate_values,
        failing: s.failing,
        failing_from_run: s.failing_from_run,
        extended,
        not_followed,
        root_cause: s.root_cause,
        alternate,
        late_reads,
        later_joins,
        inverted: s.inverted,
        freeing,
        alternate_outcome: replayed.as_ref().map(|r| r.0.clone()),
        alternate_finish: replayed.map(|r| r.1),
        dsp,
        pairs_tried: s.pairs_tried,
        window: s.window,
        held: s.held,
        root_held: s.root_held,
        held_stage: s.held_stage,
        segments: s.segments,
        optimal: s.optimal,
        flipped,
        branches_on,
        computed_from,
        sem_initial: sym.sem_initial.iter().copied().collect(),
        failure_branch,
        flips_tried: s.flips_tried,
        rejected: s.rejected,
        lost_updates,
        deadlock: cycle,
        lost_signals: lost,
        starved,
        short_barriers,
        exhausted,
        queries: s.queries,
        solve_time: s.solve_time,
        arithmetic: s.arithmetic,
        timed_out: s.timed_out,
        total_time: start.elapsed(),
    })
}

/// Per read event, the places of the branches of its thread that depend
/// on its value.
fn branches_on(sym: &SymTrace) -> BTreeMap<EventRef, Vec<usize>> {
    let mut out: BTreeMap<EventRef, Vec<usize>> = BTreeMap::new();
    for (t, th) in sym.threads.iter().enumerate() {
        for &(c, k) in &th.path {
            for id in sym.exprs.read_ids(c) {
                match sym.reads.get(id as usize) {
                    Some(&(rt, rk)) if rt == t => {
                        let places = out.entry((rt, rk)).or_default();
                        if !places.contains(&k) {
                            places.push(k);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// Per write of a value computed from shared reads of its own thread,
/// those reads' events.
fn computed_from(sym: &SymTrace) -> BTreeMap<EventRef, Vec<EventRef>> {
    let mut out = BTreeMap::new();
    for (t, th) in sym.threads.iter().enumerate() {
        for (k, e) in th.events.iter().enumerate() {
            let SymOp::Write { value, .. } = e.op else { continue };
            let mut from: Vec<EventRef> =
                sym.exprs.read_ids(value).into_iter().filter_map(|id| sym.reads.get(id as usize).copied()).collect();
            from.retain(|r| r.0 == t);
            from.sort();
            from.dedup();
            if !from.is_empty() {
                out.insert((t, k), from);
            }
        }
    }
    out
}

/// `dsp::projection`'s quiet events: those the failure does not depend on
/// that the failing schedule has after a flipped thread leaves its
/// recorded path (the thread's own, which the alternate does not run, and
/// the other threads', whose bookkeeping then sees other values: a
/// statistics counter the flipped thread no longer updates).
fn quiet(
    incidental: Option<&[Vec<bool>]>,
    flipped: Option<&FlippedBranch>,
    failing: &[EventRef],
) -> BTreeSet<EventRef> {
    let (Some(f), Some(inc)) = (flipped, incidental) else { return BTreeSet::new() };
    let is = |r: &EventRef| inc[r.0][r.1];
    let mut quiet: BTreeSet<EventRef> =
        (f.events_before..inc[f.thread].len()).map(|k| (f.thread, k)).filter(is).collect();
    if let Some(from) = failing.iter().position(|r| r.0 == f.thread && r.1 >= f.events_before) {
        quiet.extend(failing[from..].iter().copied().filter(is));
    }
    quiet
}

/// The arrival whose `pthread_barrier_wait` result the flipped branch
/// tests, and whether it came last of its generation in `failing`.
fn serial_arrival(sym: &SymTrace, failing: &[EventRef], f: &FlippedBranch) -> Option<(EventRef, bool)> {
    let (c, _) = *sym.threads[f.thread].path.get(f.branch.condition)?;
    let a = sym.serial_arrival(c)?;
    let SymOp::Arrive { barrier, gen, .. } = sym.threads[a.0].events[a.1].op else { return None };
    let same = |r: &&EventRef| matches!(sym.threads[r.0].events[r.1].op, SymOp::Arrive { barrier: b, gen: g, .. } if b == barrier && g == gen);
    let last = failing.iter().rfind(same) == Some(&a);
    Some((a, last))
}

/// The defined functions of each source file, by the line they start at.
struct Functions(HashMap<Arc<str>, Vec<(u32, Arc<str>)>>);

impl Functions {
    fn new(program: &causa_ir::Program) -> Functions {
        let mut by_file: HashMap<Arc<str>, Vec<(u32, Arc<str>)>> = HashMap::default();
        for f in program.functions.iter().filter(|f| f.body.is_some()) {
            if let Some(l) = program.loc(f.loc) {
                by_file.entry(l.file.clone()).or_default().push((l.line, f.name.clone()));
            }
        }
        for v in by_file.values_mut() {
            v.sort();
        }
        Functions(by_file)
    }

    /// The function a source line is in: the last one defined at or before
    /// it in its file (C functions do not nest).
    fn at(&self, loc: &causa_core::SourceLoc) -> Option<Arc<str>> {
        let v = self.0.get(&loc.file)?;
        let i = v.partition_point(|(line, _)| *line <= loc.line);
        i.checked_sub(1).map(|i| v[i].1.clone())
    }
}

/// A pointer-sized location that either run shows holding a pointer
/// (`&heap#1`, `&config`): its 0 is shown as `NULL` (a read of a pointer
/// not set yet "sees NULL (initial value)", not "sees 0").
fn null_pointers(info: &[Vec<EventInfo>], values: [&mut BTreeMap<EventRef, String>; 2]) {
    let plain = |r: &EventRef| {
        let i = info.get(r.0).and_then(|t| t.get(r.1))?;
        (i.size == Some(8) && i.span.is_none() && matches!(i.op, "read" | "write" | "update")).then_some(i.addr?)
    };
    let pointers: BTreeSet<u64> = values
        .iter()
        .flat_map(|m| m.iter())
        .filter(|(_, v)| v.starts_with('&'))
        .filter_map(|(r, _)| plain(r))
        .collect();
    for m in values {
        for (r, v) in m.iter_mut() {
            if v == "0" && plain(r).is_some_and(|a| pointers.contains(&a)) {
                *v = "NULL".to_string();
            }
        }
    }
}

/// A value of `size` bytes as the run showed it (`-1095041334`) in hex
/// (`0xbebafeca`); as it was when it is no number.
fn in_hex(v: &str, size: u32) -> String {
    match describe::number(v) {
        Some(x) if size <= 16 => {
            let mask = if size >= 16 { u128::MAX } else { (1u128 << (8 * size)) - 1 };
            format!("{:#x}", (x as u128) & mask)
        }
        _ => v.to_string(),
    }
}

fn event_info(
    (program, sym): (&causa_ir::Program, &SymTrace),
    (sym_op, loc, buffered): (&SymOp, causa_ir::LocId, bool),
    functions: &Functions,
) -> EventInfo {
    let (op, addr) = match sym_op {
        SymOp::Begin => ("begin", None),
        SymOp::End => ("end", None),
        SymOp::Read { addr, .. } => ("read", Some(*addr)),
        SymOp::Write { addr, .. } => ("write", Some(*addr)),
        SymOp::Rmw { addr, .. } => ("update", Some(*addr)),
        // A copy whose destination is private: its event reads the source.
        SymOp::Bulk { what, addr, writes, .. } if writes.is_empty() => {
            let op = match *what {
                "strcpy" => "strcpy from",
                "strncpy" => "strncpy from",
                "strcat" => "strcat from",
                "memcpy" => "memcpy from",
                "memmove" => "memmove from",
                "sscanf" => "sscanf from",
                other => other,
            };
            (op, Some(*addr))
        }
        SymOp::Bulk { what, addr, .. } => (*what, Some(*addr)),
        SymOp::Free { object, .. } => ("free", Some(*object)),
        SymOp::Destroy { mutex } => ("destroy", Some(*mutex)),
        SymOp::Lock { mutex, shared: true } => ("rdlock", Some(*mutex)),
        SymOp::Lock { mutex, .. } => ("lock", Some(*mutex)),
        SymOp::Unlock { mutex } => ("unlock", Some(*mutex)),
        SymOp::Relock { mutex } => ("relock (recursive)", Some(*mutex)),
        SymOp::Reunlock { mutex } => ("unlock (still held)", Some(*mutex)),
        SymOp::TrylockFail { mutex } => ("trylock (busy)", Some(*mutex)),
        SymOp::Wait { cond, .. } => ("wait", Some(*cond)),
        SymOp::WaitReturn { cond, woken: false, .. } => ("timed out", Some(*cond)),
        SymOp::WaitReturn { cond, .. } => ("wake", Some(*cond)),
        SymOp::Signal { cond } => ("signal", Some(*cond)),
        SymOp::Broadcast { cond } => ("broadcast", Some(*cond)),
        SymOp::SemWait { sem, tried: false } => ("sem_wait", Some(*sem)),
        SymOp::SemWait { sem, tried: true } => ("sem_trywait (took one)", Some(*sem)),
        SymOp::SemFail { sem } => ("sem_trywait (none left)", Some(*sem)),
        SymOp::SemPost { sem } => ("sem_post", Some(*sem)),
        SymOp::Arrive { barrier, .. } => ("barrier", Some(*barrier)),
        SymOp::Depart { barrier, .. } => ("barrier exit", Some(*barrier)),
        SymOp::Fork { .. } => ("fork", None),
        SymOp::Join { .. } => ("join", None),
        SymOp::AtomicBegin => ("atomic begin", None),
        SymOp::AtomicEnd => ("atomic end", None),
        SymOp::Fence => ("fence", None),
        SymOp::Yield => ("yield", None),
        SymOp::Spin { addr, .. } => ("spins on", Some(*addr)),
        SymOp::OnceCall { once, found: 0 } => ("once: runs it", Some(*once)),
        SymOp::OnceCall { once, found: 1 } => ("once: waits", Some(*once)),
        SymOp::OnceCall { once, .. } => ("once: done already", Some(*once)),
        SymOp::OnceResume { once } => ("once: resumes", Some(*once)),
        SymOp::OnceDone { once } => ("once: routine done", Some(*once)),
        SymOp::Fail { kind: causa_core::BugKind::MemoryError, .. } => ("faulting access", None),
        SymOp::Fail { .. } => ("failure", None),
    };
    let loc = program.loc(loc).cloned();
    let function = loc.as_ref().and_then(|l| functions.at(l));
    let span = match sym_op {
        SymOp::Bulk { size, .. } => Some(*size),
        // A struct copied whole through an address computed from shared
        // data: named as the run named the copy (`ring[0]`, not its first
        // field), when it did.
        SymOp::Read { size, at: Some(_), .. }
        | SymOp::Write { size, at: Some(_), .. }
        | SymOp::Rmw { size, at: Some(_), .. } => Some(*size),
        _ => None,
    };
    let size = match sym_op {
        SymOp::Read { size, .. } | SymOp::Write { size, .. } | SymOp::Rmw { size, .. } => Some(*size),
        _ => None,
    };
    let realloc = matches!(sym_op, SymOp::Free { realloc: true, .. });
    let rw = match sym_op {
        SymOp::Lock { mutex, shared: false } | SymOp::Unlock { mutex } => sym.rwlocks.contains(mutex),
        _ => false,
    };
    let stores = match sym_op {
        SymOp::Write { .. } | SymOp::Rmw { .. } => true,
        SymOp::Bulk { writes, .. } => !writes.is_empty(),
        _ => false,
    };
    let atomic = matches!(sym_op, SymOp::Read { atomic: true, .. } | SymOp::Write { atomic: true, .. });
    let constant = matches!(sym_op, SymOp::Write { value, .. } if sym.exprs.value(*value).is_some());
    let thread_of = |child: &causa_core::ThreadName| sym.threads.iter().position(|t| &t.thread == child);
    let joins = match sym_op {
        SymOp::Join { child, .. } => thread_of(child),
        _ => None,
    };
    let forks = match sym_op {
        SymOp::Fork { child, .. } => thread_of(child),
        _ => None,
    };
    EventInfo {
        op,
        addr,
        alternate_addr: None,
        span,
        size,
        loc,
        function,
        buffered,
        realloc,
        rw,
        atomic,
        constant,
        joins,
        forks,
        stores,
    }
}

/// A use after free or double free: the `free` the finding's note names.
/// The run says which of its thread's `free` calls it was (a loop frees
/// several blocks at one line); failing that, the failing order's last
/// `free` by that thread at that line.
fn freeing(
    prep: &Prepared,
    sym: &SymTrace,
    failing: &[EventRef],
    (failure, run): (&causa_core::Finding, &Execution),
) -> Option<EventRef> {
    if failure.kind != causa_core::BugKind::MemoryError {
        return None;
    }
    if let Some((u, nth)) = run.freed_by {
        let t = sym.thread_index(run.names.get(u as usize)?)?;
        let mut frees = sym.threads[t].events.iter().enumerate().filter(|(_, e)| matches!(e.op, SymOp::Free { .. }));
        if let Some((k, _)) = frees.nth(nth as usize) {
            return Some((t, k)).filter(|r| failing.contains(r));
        }
    }
    failure.notes.iter().find_map(|n| {
        let t = sym.thread_index(n.thread.as_ref()?)?;
        let at = n.location.as_ref()?;
        let here = |r: &EventRef| {
            let ev = &sym.threads[t].events[r.1];
            let loc = prep.program.loc(ev.loc);
            matches!(ev.op, SymOp::Free { .. }) && loc.is_some_and(|l| l.file == at.file && l.line == at.line)
        };
        failing.iter().rev().copied().filter(|r| r.0 == t).find(here)
    })
}

/// The run ended normally (an alternate counts only then).
fn passes(o: &Outcome) -> bool {
    matches!(o, Outcome::Exit(_))
}

/// The run ended normally, or failed another way than `failure`: another
/// kind, thread or source line (a run stopped by a bound or an error says
/// nothing). The step does not count: an alternate that fails the same
/// assertion a few events later has not avoided it. Nor does the column:
/// a use after free at the same line of the same thread, in the unlock
/// instead of the read of its argument (pbzip2), is the same failure to
/// whoever reads the line.
fn avoids(o: &Outcome, failure: &causa_core::Finding) -> bool {
    let line = source_line;
    match o {
        Outcome::Exit(_) => true,
        Outcome::Bug(f) => (f.kind, &f.thread, line(f)) != (failure.kind, &failure.thread, line(failure)),
        _ => false,
    }
}

/// A finding's file and line (its column does not count: see [`avoids`]).
pub(crate) fn source_line(f: &causa_core::Finding) -> Option<(&str, u32)> {
    f.location.as_ref().map(|l| (&*l.file, l.line))
}

/// Random continuations tried after the non-preemptive one fails.
const CONTINUATIONS: u64 = 32;

/// One search for the alternate over the paths of `log`: the symbolic
/// trace, the search's answer, every alternate's replay (the run, how it was
/// continued, whether it was accepted), the lost updates set aside, and the
/// last accepted replay.
struct Attempt {
    log: causa_core::paths::PathLog,
    sym: SymTrace,
    s: causa_symbolic::Alternate,
    replays: Vec<(Execution, String, bool)>,
    lost_updates: usize,
    accepted: Option<usize>,
}

fn attempt(
    prep: &Arc<Prepared>,
    (cfg, ex): (&Config, &Execution),
    failure: &causa_core::Finding,
    aopts: &AlternateOptions,
    log: causa_core::paths::PathLog,
) -> Result<Attempt, ExplainError> {
    let sym = causa_symbolic::execute(&prep.program, &log)?;
    // Each alternate offered is replayed; it is accepted when the program
    // then runs to its end without failing, unless it avoids the failure by
    // losing an update the failing schedule does not lose (`lost.rs`).
    let mut replays: Vec<(Execution, String, bool)> = Vec::new();
    let mut lost_updates = 0;
    let mut accept = |p: &Proposal<'_>| {
        let mut cfg = cfg.clone();
        // The alternate runs under the failing run's memory model.
        cfg.memory_model = ex.memory_model;
        cfg.inputs = p
            .inputs
            .iter()
            .filter_map(|(t, i)| log.threads.get(*t).and_then(|th| th.inputs.get(*i)).map(|x| x.1))
            .collect();
        let (run, how) = replay_alternate(prep, &cfg, &sym, &p.order[..p.prefix], failure);
        let clean = passes(&run.outcome);
        let loses = clean && lost::introduced(&sym, p.failing, &p.order[..p.prefix]).is_some();
        let again = matches!(run.outcome, Outcome::Bug(_)) && !avoids(&run.outcome, failure);
        if let Outcome::Bug(f) = &run.outcome {
            tracing::debug!(kind = ?f.kind, thread = %f.thread, location = ?f.location, message = %f.message, "explain: an alternate's replay failed");
        }
        // (A first look is not an answer: its replay is not kept.)
        if !p.look {
            lost_updates += usize::from(loses);
            replays.push((run, how, clean && !loses));
        }
        match (clean, loses) {
            (true, false) => Verdict::Accepted,
            (true, true) => Verdict::LosesUpdate,
            _ if again => Verdict::FailsAgain,
            _ => Verdict::Fails,
        }
    };
    let s = causa_symbolic::alternate(&sym, aopts, &mut accept).map_err(|e| e.noted(&sym).located(&prep.program))?;
    let accepted = replays.iter().rposition(|r| r.2);
    Ok(Attempt { log, sym, s, replays, lost_updates, accepted })
}

/// The records of `ex`'s events (its own, or those of its schedule run
/// again keeping them).
fn with_records(prep: &Arc<Prepared>, cfg: &Config, ex: &Execution) -> Vec<causa_core::event::EventRecord> {
    if !ex.records.is_empty() {
        return ex.records.clone();
    }
    let mut cfg = cfg.clone();
    cfg.memory_model = ex.memory_model;
    cfg.keep_records = true;
    let steps = ex.steps.iter().map(|t| ex.names[*t as usize].clone()).collect();
    let mut sched = ReplayScheduler::new(steps).with_flushes(ex.flushes.clone());
    sched.begin_execution();
    run_once(prep, &Arc::new(cfg), &mut sched).records
}

/// The solver's failing schedule `order` run in the interpreter (then
/// without preemption), when it fails where `ex` did.
fn replay_failing(
    prep: &Arc<Prepared>,
    cfg: &Config,
    ex: &Execution,
    sym: &SymTrace,
    order: &[EventRef],
    failure: &causa_core::Finding,
) -> Option<Execution> {
    let (steps, flushes) = causa_explore::reproduce::steps_of(sym, order, sym.memory_model).ok()?;
    let mut cfg = cfg.clone();
    cfg.memory_model = ex.memory_model;
    let mut sched = ReplayScheduler::new(steps).with_flushes(flushes).with_fallback(Box::new(FirstScheduler::new()));
    sched.begin_execution();
    let run = run_once(prep, &Arc::new(cfg), &mut sched);
    // (At its own step: the order may run more or fewer events first.)
    let same = |f: &causa_core::Finding| {
        (f.kind, &f.thread, &f.location) == (failure.kind, &failure.thread, &failure.location)
    };
    matches!(&run.outcome, Outcome::Bug(f) if same(f)).then_some(run)
}

/// Run the model's part of the alternate (`order`: access points up to the
/// failing thread's point) in the interpreter, then let the program finish:
/// without preemption first, then with each thread first in turn, then
/// with a few seeded random schedules, until one runs to its end. The
/// first that runs to its end, else the first that avoids
/// the explained failure, else the first; and how it was finished.
fn replay_alternate(
    prep: &Arc<Prepared>,
    cfg: &Config,
    sym: &SymTrace,
    order: &[EventRef],
    failure: &causa_core::Finding,
) -> (Execution, String) {
    let (steps, flushes) = match causa_explore::reproduce::steps_of(sym, order, sym.memory_model) {
        Ok(x) => x,
        Err(_) => (order.iter().map(|(t, _)| sym.threads[*t].thread.clone()).collect(), Default::default()),
    };
    let cfg = Arc::new(cfg.clone());
    let run = |fallback: Box<dyn Scheduler>| {
        let mut sched = ReplayScheduler::new(steps.clone()).with_flushes(flushes.clone()).with_fallback(fallback);
        sched.begin_execution();
        (run_once(prep, &cfg, &mut sched), sched.fell_back())
    };
    let clean = |r: &Execution| passes(&r.outcome);
    let (first, fell_back) = run(Box::new(FirstScheduler::new()));
    let mut runs = vec![(first, "finished without preemption".to_string())];
    // A run that ended before the order did (failed or diverged inside it)
    // is the same whatever continues it: no other continuation is tried.
    if !fell_back {
        return runs.swap_remove(0);
    }
    let run = |fallback: Box<dyn Scheduler>| run(fallback).0;
    for t in &sym.threads {
        if runs.iter().any(|(r, _)| clean(r)) {
            break;
        }
        let r = run(Box::new(prefer::Prefer(t.thread.clone())));
        runs.push((r, format!("finished with thread {} first", t.thread)));
    }
    for seed in 1..=CONTINUATIONS {
        if runs.iter().any(|(r, _)| clean(r)) {
            break;
        }
        let r = run(Box::new(causa_explore::RandomScheduler::new(seed)));
        runs.push((r, format!("finished by a random schedule (seed {seed})")));
    }
    let avoids = |r: &Execution| avoids(&r.outcome, failure);
    let pick =
        runs.iter().position(|(r, _)| clean(r)).or_else(|| runs.iter().position(|(r, _)| avoids(r))).unwrap_or(0);
    runs.swap_remove(pick)
}

/// The alternate's events the replay ran, in the order it ran them: the
/// replayed part whole, then each thread's events up to its first access
/// the run does not have, or whose value came from another write than the
/// one the trace's events put before it. Past the replayed part the
/// program runs by itself, and a thread may go another way than the
/// symbolic trace's (pfscan: a worker that now reads an empty queue leaves
/// its loop), or read what a write the failing run never reached stored
/// (bbuf: a consumer's late read of `count` sees the producer's next
/// items); its events from there on are not shown as if the trace
/// explained them. The model leaves the order of those events open, so
/// they are put in the run's order.
fn ran(
    sym: &SymTrace,
    (alt, prefix): (&[EventRef], usize),
    aligned: &align::Alignment,
    run: &Execution,
    incidental: Option<&[Vec<bool>]>,
) -> (Vec<EventRef>, Vec<EventRef>) {
    // A read the failure does not depend on (`printf` of a statistics
    // counter) may see a value the failing run never stored without
    // leaving what follows in its thread unexplained.
    let incidental = |r: &EventRef| incidental.is_some_and(|inc| inc[r.0][r.1]);
    let resolved = aligned.resolved(sym, run);
    let positions = aligned.positions(sym, run);
    let at = |r: EventRef, addr: u64| resolved.get(&r).copied().unwrap_or(addr);
    // An access or a synchronisation operation the run does not have (a
    // thread that went the other way at a branch: a `return` before its
    // `lock`).
    let unrun = |r: &EventRef| {
        let op = &sym.threads[r.0].events[r.1].op;
        let sync = !align::sync_kinds(op).is_empty();
        (op.is_access() && !aligned.events.contains_key(r)) || (sync && !positions.contains_key(r))
    };
    // In the replayed part too, a thread whose replay went another way (the
    // failing thread past a branch the alternate takes the other way:
    // `if (bad) { fprintf(…, bad); abort(); }`) is shown up to the access
    // it did not run.
    let replayed = &alt[..prefix.min(alt.len())];
    let mut gone: BTreeMap<usize, usize> = BTreeMap::new();
    for r in replayed.iter().filter(|r| unrun(r)) {
        gone.entry(r.0).or_insert(r.1);
    }
    let shown: Vec<EventRef> = replayed.iter().copied().filter(|r| gone.get(&r.0).is_none_or(|k| r.1 < *k)).collect();
    // Each thread's first event not shown past the replayed part.
    let mut cut: BTreeMap<usize, usize> = BTreeMap::new();
    let mut late_reads: Vec<EventRef> = Vec::new();
    // Incidental late reads: left out, their threads still followed.
    let mut aside: BTreeSet<EventRef> = BTreeSet::new();
    loop {
        let mut tail = Vec::new();
        for &r in alt.iter().skip(prefix) {
            if cut.get(&r.0).is_some_and(|k| r.1 >= *k) || aside.contains(&r) {
                continue;
            }
            if unrun(&r) {
                cut.insert(r.0, r.1);
                continue;
            }
            tail.push(r);
        }
        let mut out = shown.clone();
        let past: causa_core::collections::HashSet<EventRef> = tail.iter().copied().collect();
        out.extend(in_run_order(&tail, &positions));
        let late: Vec<EventRef> = causa_symbolic::symbiosis::data_flows_at(sym, &out, at)
            .into_iter()
            .filter(|(r, w)| past.contains(r) && !same_source(aligned, run, *r, *w))
            .map(|(r, _)| r)
            .collect();
        if late.is_empty() {
            late_reads.retain(|r| cut.get(&r.0) == Some(&r.1) || aside.contains(r));
            return (out, late_reads);
        }
        for r in late {
            if incidental(&r) {
                aside.insert(r);
                late_reads.push(r);
                continue;
            }
            let k = cut.entry(r.0).or_insert(r.1);
            *k = (*k).min(r.1);
            late_reads.push(r);
        }
    }
}

/// Whether the run's read `r` got its value from the run's event of the
/// trace's write `w` (None: from no write of the run).
fn same_source(aligned: &align::Alignment, run: &Execution, r: EventRef, w: Option<EventRef>) -> bool {
    let Some(&i) = aligned.events.get(&r) else { return false };
    let (addr, size) = (run.events[i].addr, run.events[i].size as u64);
    // The latest write overlapping the read (a bulk write spans many bytes).
    let src = (0..i).rev().find(|j| {
        let e = &run.events[*j];
        e.addr < addr + size.max(1)
            && addr < e.addr + (e.size as u64).max(1)
            && matches!(e.kind, causa_core::EventKind::Write | causa_core::EventKind::Rmw)
    });
    src == w.and_then(|w| aligned.events.get(&w).copied())
}

/// `events` sorted by where the run has them (`positions`: the accesses
/// and the synchronisation events paired with the run's); an event not
/// paired just before its thread's next paired one there, else just after
/// its thread's previous one; a thread with none paired there keeps its
/// events' places at the end.
fn in_run_order(events: &[EventRef], positions: &HashMap<EventRef, usize>) -> Vec<EventRef> {
    let at = |r: &EventRef| positions.get(r).copied();
    let key = |i: usize| -> (usize, u8, usize) {
        let r = events[i];
        if let Some(k) = at(&r) {
            return (k, 1, r.1);
        }
        let same = |j: &usize| events[*j].0 == r.0;
        if let Some(k) = (i + 1..events.len()).filter(same).find_map(|j| at(&events[j])) {
            return (k, 0, r.1);
        }
        if let Some(k) = (0..i).rev().filter(same).find_map(|j| at(&events[j])) {
            return (k, 2, r.1);
        }
        (usize::MAX, 0, i)
    };
    let mut order: Vec<usize> = (0..events.len()).collect();
    order.sort_by_key(|i| key(*i));
    order.into_iter().map(|i| events[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use causa_core::{BugKind, Finding, SourceLoc, ThreadName};

    fn assertion(line: u32, step: usize) -> Finding {
        Finding {
            kind: BugKind::AssertionViolation,
            message: "assertion failed".into(),
            thread: ThreadName::main(),
            location: Some(SourceLoc { file: "p.c".into(), line, column: 5 }),
            step,
            notes: Vec::new(),
            cycle: Vec::new(),
        }
    }

    #[test]
    fn a_late_update_says_which_of_its_values_was_stored() {
        assert_eq!(late_value("1"), "1 stored by an operation the failing run never reached");
        assert_eq!(late_value("1→2"), "1→2, its 1 stored by an operation the failing run never reached");
        assert_eq!(
            Unshown::LateValue("0→1".into()).to_string(),
            "read 0→1, its 0 stored by an operation the failing run never reached (not followed further)"
        );
    }

    #[test]
    fn the_same_assertion_failing_later_is_not_avoided() {
        let failure = assertion(31, 30);
        assert!(!avoids(&Outcome::Bug(assertion(31, 31)), &failure));
        assert!(avoids(&Outcome::Bug(assertion(32, 30)), &failure));
        let mut other_column = assertion(31, 31);
        other_column.location = Some(SourceLoc { file: "p.c".into(), line: 31, column: 9 });
        assert!(!avoids(&Outcome::Bug(other_column), &failure));
        assert!(avoids(&Outcome::Exit(0), &failure));
    }
}
