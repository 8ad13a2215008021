//! Results of an execution and the internal "stop" signal that unwinds stepping.

use causa_core::finding::FindingNote;
use causa_core::{BugKind, Event, Finding, ScheduleError, SourceLoc, ThreadName};

/// Failures of the tool (not of the analysed program).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InterpError {
    #[error("unsupported {what}{}", at(.loc))]
    Unsupported { what: String, loc: Option<SourceLoc> },
    #[error("{0}")]
    Schedule(#[from] ScheduleError),
    #[error("unsupported external function{} {}", if .0.len() > 1 { "s" } else { "" }, list(.0))]
    UnsupportedExternals(Vec<(String, Vec<SourceLoc>)>),
}

fn at(loc: &Option<SourceLoc>) -> String {
    match loc {
        Some(l) => format!(" at {l}"),
        None => String::new(),
    }
}

fn list(items: &[(String, Vec<SourceLoc>)]) -> String {
    items
        .iter()
        .map(|(name, locs)| {
            let sites: Vec<String> = locs.iter().map(|l| l.to_string()).collect();
            if sites.is_empty() {
                format!("`{name}`")
            } else {
                format!("`{name}` (called at {})", sites.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl InterpError {
    pub fn code(&self) -> &'static str {
        match self {
            InterpError::Unsupported { .. } => "unsupported-instruction",
            InterpError::Schedule(ScheduleError::Diverged { .. }) => "schedule-diverged",
            InterpError::Schedule(_) => "bad-schedule",
            InterpError::UnsupportedExternals(_) => "unsupported-external",
        }
    }
}

/// Why stepping stopped early. Findings get their thread, location and step
/// filled in by the machine.
#[derive(Debug, Clone)]
pub enum Stop {
    Bug {
        kind: BugKind,
        message: String,
        notes: Vec<FindingNote>,
    },
    /// A use after free or double free, with the thread and place of the
    /// `free` that came first (the machine names them in a note).
    Freed {
        message: String,
        by: crate::memory::FreedBy,
    },
    Exit(i32),
    Infeasible(String),
    Bound(String),
    Error(InterpError),
}

impl Stop {
    pub fn bug(kind: BugKind, message: impl Into<String>) -> Stop {
        Stop::Bug { kind, message: message.into(), notes: Vec::new() }
    }

    pub fn memory(message: impl Into<String>) -> Stop {
        Stop::bug(BugKind::MemoryError, message)
    }

    pub fn pthread(message: impl Into<String>) -> Stop {
        Stop::bug(BugKind::InvalidPthreadUse, message)
    }

    pub fn unsupported(what: impl Into<String>) -> Stop {
        Stop::Error(InterpError::Unsupported { what: what.into(), loc: None })
    }
}

impl From<crate::memory::MemError> for Stop {
    fn from(e: crate::memory::MemError) -> Stop {
        match e.freed {
            Some(by) => Stop::Freed { message: e.message, by },
            None => Stop::memory(e.message),
        }
    }
}

/// How one execution ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The program ended normally with this exit code.
    Exit(i32),
    Bug(Finding),
    /// An assumption was false: not a real execution.
    Infeasible(String),
    /// A bound stopped the execution.
    BoundReached(String),
    Error(InterpError),
}

impl Outcome {
    pub fn finding(&self) -> Option<&Finding> {
        match self {
            Outcome::Bug(f) => Some(f),
            _ => None,
        }
    }
}

/// A thread that had not ended when the program stopped ([`Execution::cut_off`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutOff {
    pub thread: causa_core::Tid,
    /// Its next operation could have happened instead of the stop (once its
    /// buffered stores, if any, were flushed); false: it was blocked (on a
    /// lock, a condition variable, a join, …).
    pub ready: bool,
    /// The event standing for its next operation in the constraint model:
    /// the synchronisation operation it waits at (as after a deadlock,
    /// [`crate::deadlock::blocked_event`]); for a ready thread otherwise a
    /// `begin` if it never ran, else a `fence` (the operation is unknown;
    /// like most operations under TSO/PSO, it waits for the thread's
    /// buffered stores). None: blocked on something the model cannot name.
    pub next: Option<Event>,
}

/// Everything recorded about one execution.
#[derive(Debug, Clone)]
pub struct Execution {
    pub outcome: Outcome,
    pub events: Vec<Event>,
    /// After a deadlock: for each blocked thread whose operation is known, the
    /// event that operation would record (not in `events`: it never ran). The
    /// constraint model needs them to ask for the same deadlock in another
    /// schedule.
    pub blocked: Vec<Event>,
    /// The objects those operations wait on, by address, as the run's
    /// records name objects (`full`, `accounts`): an object nothing in
    /// `events` touched (a semaphore only initialised) has no name there.
    pub blocked_names: std::collections::BTreeMap<u64, String>,
    /// Under TSO/PSO, when the execution stopped before every store became
    /// visible (a failure, `exit`, the step bound): the `write` events the
    /// flushes of the stores still buffered would record, oldest first per
    /// thread (not in `events`: they never happened). The constraint model
    /// needs them to ask for reads of their values in another schedule.
    pub unflushed: Vec<Event>,
    /// The threads that had not ended when a failure or `exit` stopped the
    /// program (busy waits parked for good left out). Their next operations
    /// never ran, so no trace of this execution shows them: `causa check`
    /// asks for each one's next operation ([`CutOff::next`]) before the stop.
    pub cut_off: Vec<CutOff>,
    /// Each thread's control-flow path, indexed by `Tid`, when
    /// [`Config::record_paths`] is set (empty otherwise).
    pub paths: Vec<causa_core::paths::ThreadPath>,
    /// The bytes of the bulk operations among `events` (memcpy, memset on
    /// shared memory), in event order.
    pub bulk: Vec<causa_core::BulkAccess>,
    /// Thread chosen at each visible step. Equal to the events' threads, except
    /// that a step whose operation failed may have recorded no event (a failing
    /// memory access does not; a failing `pthread_mutex_unlock` does).
    pub steps: Vec<causa_core::Tid>,
    /// The memory model the execution followed.
    pub memory_model: causa_core::MemoryModel,
    /// The steps that flushed a buffered store (TSO/PSO), with its address.
    pub flushes: std::collections::BTreeMap<usize, u64>,
    /// Thread names indexed by `Tid`.
    pub names: Vec<ThreadName>,
    /// Program inputs read, in order.
    pub inputs: Vec<i128>,
    /// LLVM instructions interpreted.
    pub instructions: u64,
    /// Stack objects other threads could reach whose function returned, and
    /// thread-local instances they could reach whose thread ended: (the
    /// index in `events` of the thread's last event before the return, or
    /// of its `end`; the object's address; its size). The object died in
    /// that event's step.
    pub deaths: Vec<(usize, u64, u64)>,
    /// A use after free or double free: the `free` that came first, as its
    /// thread and which of that thread's `free` calls it was (from 0;
    /// `u32::MAX` for the free inside a `realloc`). The finding's note gives
    /// only its place, which a loop of frees shares.
    pub freed_by: Option<(causa_core::Tid, u32)>,
    /// Captured standard output and error (when capturing).
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Digest of every global variable's bytes when the execution ended (when
    /// [`Config::final_state`] is set): two executions with the same digest and
    /// outcome ended in the same state.
    pub final_state: Option<u64>,
    /// Readable event descriptions, built by [`crate::Machine::finish`] when
    /// [`Config::keep_records`] is set (empty otherwise).
    pub records: Vec<causa_core::event::EventRecord>,
    /// The heap blocks allocated, in allocation order, when
    /// [`Config::keep_records`] is set (empty otherwise).
    pub heap_blocks: Vec<causa_core::event::HeapBlock>,
}

impl Execution {
    /// What the constraint model sees of the execution: the events, then the
    /// flushes of the stores left in store buffers ([`Execution::unflushed`]),
    /// the next operations of the threads the stop cut off
    /// ([`Execution::cut_off_next`]), and the blocked operations after a
    /// deadlock.
    pub fn model_events(&self) -> std::borrow::Cow<'_, [Event]> {
        if self.blocked.is_empty() && self.unflushed.is_empty() && self.cut_off.is_empty() {
            return std::borrow::Cow::Borrowed(&self.events);
        }
        let next = self.cut_off.iter().filter_map(|c| c.next);
        let all = self.events.iter().chain(&self.unflushed).copied().chain(next).chain(self.blocked.iter().copied());
        std::borrow::Cow::Owned(all.collect())
    }

    /// The program exited while another thread could still take a step or a
    /// buffered store could still become visible. Its final state then
    /// depends on where the exit fell among writes no read saw; nothing can
    /// fail after an exit, so no failure depends on it.
    pub fn exited_early(&self) -> bool {
        matches!(self.outcome, Outcome::Exit(_)) && (!self.unflushed.is_empty() || self.cut_off.iter().any(|c| c.ready))
    }

    /// The index in [`Execution::model_events`] of each cut-off thread's
    /// next operation, with the thread.
    pub fn cut_off_next(&self) -> impl Iterator<Item = (usize, causa_core::Tid)> + '_ {
        let first = self.events.len() + self.unflushed.len();
        self.cut_off.iter().filter(|c| c.next.is_some()).enumerate().map(move |(i, c)| (first + i, c.thread))
    }

    /// The thread chosen at each visible step.
    pub fn schedule_steps(&self) -> Vec<ThreadName> {
        self.steps.iter().map(|t| self.names[*t as usize].clone()).collect()
    }
}

/// Where program output goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputMode {
    /// Keep it in [`Execution::stdout`]/[`Execution::stderr`].
    Capture,
    /// Write it to the real stdout/stderr as it happens (and keep nothing).
    PassThrough,
}

/// Per-execution settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Bound on visible steps.
    pub max_steps: usize,
    /// Bound on instructions between two visible steps of one thread.
    pub max_local_instructions: u64,
    /// Given program inputs, used first.
    pub inputs: Vec<i128>,
    /// Seed for inputs beyond the given ones.
    pub input_seed: u64,
    pub output: OutputMode,
    /// argv of the program (argv[0] included).
    pub argv: Vec<String>,
    /// Maximum bytes of captured output kept per stream.
    pub max_output: usize,
    /// Build the readable [`Execution::records`] (object names, locations) at the
    /// end of the execution. Testing loops turn this off and rebuild the records
    /// by replaying the one execution they report.
    pub keep_records: bool,
    /// Compute [`Execution::final_state`] (a digest of all globals at the end).
    pub final_state: bool,
    /// Report data races (see `race.rs`).
    pub detect_races: bool,
    /// Record each thread's control-flow path ([`Execution::paths`]).
    pub record_paths: bool,
    /// SC, or store buffers under TSO/PSO (see `buffers.rs`).
    pub memory_model: causa_core::MemoryModel,
    /// Follow these recorded paths (see `paths.rs`): a thread that leaves
    /// its path ends the execution as infeasible; inputs come from each
    /// thread's record.
    pub follow: Option<std::sync::Arc<Vec<causa_core::paths::ThreadPath>>>,
    /// Keep a digest of the state for the scheduler ([`causa_core::PickContext::state`]).
    pub state_digest: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_steps: 100_000,
            max_local_instructions: 50_000_000,
            inputs: Vec::new(),
            input_seed: 0,
            output: OutputMode::Capture,
            argv: vec!["prog".to_string()],
            max_output: 1 << 20,
            keep_records: true,
            final_state: false,
            detect_races: false,
            record_paths: false,
            memory_model: causa_core::MemoryModel::Sc,
            follow: None,
            state_digest: false,
        }
    }
}
