//! The seam between the interpreter and the exploration strategies.
//!
//! The interpreter runs threads until each is parked at its next visible operation,
//! computes which threads are enabled, and asks a [`Scheduler`] which one moves. It
//! never chooses by itself. Strategies (first, random, PCT, replay, later MCR) live in
//! `causa-explore`. The machine records the chosen thread of every step itself,
//! so strategies never need to.

use crate::{Choice, ScheduleError, ThreadName, Tid};

/// Everything a strategy may look at to pick the next thread.
pub struct PickContext<'a> {
    /// Index of the visible step about to be taken (0-based).
    pub step: usize,
    /// Enabled threads, ascending by `Tid`; never empty.
    pub enabled: &'a [Tid],
    /// The thread that took the previous step, if it is still enabled: choosing it
    /// is not a preemption.
    pub current: Option<Tid>,
    /// The thread that took the previous step if that step gave up the processor
    /// (`sched_yield`, `sleep`, a condition wait); `current` is `None` then.
    pub yielded: Option<Tid>,
    /// Stable names of all threads of this execution, indexed by `Tid`.
    pub names: &'a [ThreadName],
    /// Buffered stores that may become visible now (TSO/PSO; always empty under
    /// SC): `(thread, address)` of each flushable store, ascending by thread,
    /// then oldest first. Under TSO at most one per thread.
    pub flushes: &'a [(Tid, u64)],
    /// A digest of the machine's state (memory and what each thread has
    /// observed), when the run was configured to keep one; equal digests
    /// stand for equal states.
    pub state: Option<u64>,
    /// Whether a thread's next step ends the whole program (`main`
    /// returning, `exit`), cutting the other threads short. Asked lazily:
    /// only strategies that care call it.
    pub ends_program: &'a dyn Fn(Tid) -> bool,
    /// Whether a thread that is not enabled is held back only because it
    /// is parked in a busy wait (its next turn would repeat its last one,
    /// nothing it observed having changed). A strategy that follows a
    /// computed order may still choose it: the machine then lets it take
    /// that turn. Asked lazily.
    pub parked: &'a dyn Fn(Tid) -> bool,
}

impl PickContext<'_> {
    /// Name of a thread of this execution.
    pub fn name(&self, tid: Tid) -> &ThreadName {
        &self.names[tid as usize]
    }
}

/// A scheduling strategy.
pub trait Scheduler {
    /// Short name for reports (`first`, `random`, `pct`, `replay`).
    fn name(&self) -> &'static str;

    /// Prepare the next execution. Returns `false` when the strategy has nothing
    /// more to run (exhaustive strategies); sampling strategies always return `true`.
    fn begin_execution(&mut self) -> bool;

    /// Choose the thread that takes the next visible step; must be in `ctx.enabled`.
    fn pick_thread(&mut self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError>;

    /// Choose the next step: a thread's operation or the flush of a buffered
    /// store (TSO/PSO). By default stores are flushed as late as possible: only
    /// when no thread can move (a thread waiting at a fence or a synchronisation
    /// operation for its own buffer to drain is not enabled), the oldest store
    /// of the lowest thread. Strategies that explore store orders override this.
    fn pick(&mut self, ctx: &PickContext<'_>) -> Result<Choice, ScheduleError> {
        match ctx.flushes.first() {
            Some(&(thread, addr)) if ctx.enabled.is_empty() => Ok(Choice::Flush { thread, addr }),
            _ => self.pick_thread(ctx).map(Choice::Run),
        }
    }

    /// Called once the execution has ended, with the number of visible steps taken.
    fn end_execution(&mut self, _steps: usize) {}

    /// The strategy enumerates schedules of one deterministic program, so the
    /// program inputs must stay the same in every execution.
    fn needs_fixed_inputs(&self) -> bool {
        false
    }

    /// Whether, in this execution, the strategy made a thread that could
    /// go on pass the processor on because it had run long enough (the
    /// `first` strategy's turns): the run is then one of many where that
    /// thread runs longer first.
    fn passed_turns(&self) -> bool {
        false
    }
}

impl<S: Scheduler + ?Sized> Scheduler for Box<S> {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn begin_execution(&mut self) -> bool {
        (**self).begin_execution()
    }
    fn pick_thread(&mut self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError> {
        (**self).pick_thread(ctx)
    }
    fn pick(&mut self, ctx: &PickContext<'_>) -> Result<Choice, ScheduleError> {
        (**self).pick(ctx)
    }
    fn end_execution(&mut self, steps: usize) {
        (**self).end_execution(steps)
    }

    fn needs_fixed_inputs(&self) -> bool {
        (**self).needs_fixed_inputs()
    }

    fn passed_turns(&self) -> bool {
        (**self).passed_turns()
    }
}
