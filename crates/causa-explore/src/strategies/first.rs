//! The `first` strategy: run each thread for as long as it can, never preempting.

use super::nothing_enabled;
use causa_core::{Choice, PickContext, ScheduleError, Scheduler, Tid};

/// Non-preemptive, deterministic strategy.
///
/// The thread that took the previous step keeps running while it is enabled; when it
/// blocks or exits, the enabled thread with the lowest `Tid` (the oldest) takes over.
/// When it yields (`sched_yield`, `sleep`), the next enabled thread after it in `Tid`
/// order takes over (wrapping around), so spin-waits with a yield make progress.
/// Every execution is the same, so exploring with it more than once finds nothing new;
/// `begin_execution` nevertheless always agrees, as the caller bounds the count.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstScheduler {
    /// See [`FirstScheduler::exit_last`]: the most steps the end waits.
    exit_delay: Option<usize>,
    /// The step at which the end first waited in this execution.
    waiting_since: Option<usize>,
}

impl FirstScheduler {
    /// A new `first` strategy.
    pub fn new() -> Self {
        FirstScheduler::default()
    }

    /// The same, except that a step that would end the program (`main`
    /// returning, `exit`) waits while another thread can move or a buffered
    /// store can be flushed, for at most `delay` steps: the run then shows
    /// every thread's operations up to where it ends or blocks. MCR's
    /// executions continue this way: its queries reorder the events of a
    /// trace, and a thread the program's end cut short has none there. The
    /// bound stops a thread that never ends (an endless loop) from running
    /// every execution to the step limit.
    pub fn exit_last(delay: usize) -> Self {
        FirstScheduler { exit_delay: Some(delay), waiting_since: None }
    }

    /// Whether the step `t` would take must wait (see [`FirstScheduler::exit_last`]).
    fn holds_back(&mut self, ctx: &PickContext<'_>, t: Tid) -> bool {
        let Some(delay) = self.exit_delay else { return false };
        if !(ctx.ends_program)(t) {
            return false;
        }
        let since = *self.waiting_since.get_or_insert(ctx.step);
        ctx.step - since < delay
    }
}

impl Scheduler for FirstScheduler {
    fn name(&self) -> &'static str {
        "first"
    }

    fn begin_execution(&mut self) -> bool {
        self.waiting_since = None;
        true
    }

    fn pick_thread(&mut self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError> {
        let lowest = ctx.enabled.iter().copied().min();
        let after_yield = ctx.yielded.and_then(|y| ctx.enabled.iter().copied().filter(|t| *t > y).min().or(lowest));
        let t = match after_yield.or(ctx.current.filter(|t| ctx.enabled.contains(t))) {
            Some(t) => t,
            None => lowest.ok_or_else(|| nothing_enabled(ctx))?,
        };
        if self.holds_back(ctx, t) {
            if let Some(other) = ctx.enabled.iter().copied().find(|o| *o != t && !(ctx.ends_program)(*o)) {
                return Ok(other);
            }
        }
        Ok(t)
    }

    /// As the default, except that with [`FirstScheduler::exit_last`] the
    /// buffered stores (TSO/PSO) are flushed before a step that would end
    /// the program.
    fn pick(&mut self, ctx: &PickContext<'_>) -> Result<Choice, ScheduleError> {
        if let Some(&(thread, addr)) = ctx.flushes.first() {
            if ctx.enabled.is_empty() {
                return Ok(Choice::Flush { thread, addr });
            }
            let t = self.pick_thread(ctx)?;
            if self.holds_back(ctx, t) {
                return Ok(Choice::Flush { thread, addr });
            }
            return Ok(Choice::Run(t));
        }
        self.pick_thread(ctx).map(Choice::Run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testutil::{ctx, names, preemptions, simulate};

    #[test]
    fn a_yield_passes_the_processor_to_the_next_thread() {
        let names = names(3);
        let mut s = FirstScheduler::new();
        let mut c = ctx(5, &[0, 1, 2], None, &names);
        c.yielded = Some(1);
        assert_eq!(s.pick_thread(&c), Ok(2));
        c.yielded = Some(2);
        assert_eq!(s.pick_thread(&c), Ok(0));
        let mut alone = ctx(6, &[1], None, &names);
        alone.yielded = Some(1);
        assert_eq!(s.pick_thread(&alone), Ok(1));
    }

    #[test]
    fn keeps_running_the_current_thread() {
        let names = names(3);
        let mut s = FirstScheduler::new();
        assert!(s.begin_execution());
        assert_eq!(s.pick_thread(&ctx(5, &[0, 1, 2], Some(2), &names)), Ok(2));
        assert_eq!(s.pick_thread(&ctx(6, &[0, 1, 2], Some(1), &names)), Ok(1));
    }

    #[test]
    fn falls_back_to_the_lowest_enabled_tid() {
        let names = names(3);
        let mut s = FirstScheduler::new();
        assert_eq!(s.pick_thread(&ctx(0, &[0, 1, 2], None, &names)), Ok(0));
        assert_eq!(s.pick_thread(&ctx(3, &[1, 2], None, &names)), Ok(1));
        assert_eq!(s.pick_thread(&ctx(4, &[2], None, &names)), Ok(2));
    }

    #[test]
    fn never_preempts_and_repeats_itself() {
        let budgets = [3, 2, 4];
        let runs = simulate(&mut FirstScheduler::new(), &budgets, 3);
        assert_eq!(runs[0], vec![0, 0, 0, 1, 1, 2, 2, 2, 2]);
        assert!(runs.iter().all(|r| r == &runs[0]));
        assert_eq!(preemptions(&runs[0], &budgets), 0);
    }

    #[test]
    fn exit_last_lets_the_other_threads_move_before_the_program_ends() {
        let names = names(3);
        let main_exits = |t: Tid| t == 0;
        let mut c = ctx(5, &[0, 1, 2], Some(0), &names);
        c.ends_program = &main_exits;
        assert_eq!(FirstScheduler::new().pick_thread(&c), Ok(0), "plain `first` lets main end the program");
        let mut s = FirstScheduler::exit_last(2);
        assert!(s.begin_execution());
        assert_eq!(s.pick_thread(&c), Ok(1));
        let mut alone = ctx(6, &[0], Some(0), &names);
        alone.ends_program = &main_exits;
        assert_eq!(s.pick_thread(&alone), Ok(0), "nobody else can move");
        let mut later = ctx(7, &[0, 1, 2], Some(0), &names);
        later.ends_program = &main_exits;
        assert_eq!(s.pick_thread(&later), Ok(0), "the end waited 2 steps, its most");
        assert!(s.begin_execution());
        assert_eq!(s.pick_thread(&later), Ok(1), "a new execution waits again");
    }

    #[test]
    fn empty_enabled_set_is_an_error_not_a_panic() {
        let names = names(1);
        let err = FirstScheduler::new().pick_thread(&ctx(7, &[], None, &names)).unwrap_err();
        assert!(matches!(err, ScheduleError::Diverged { step: 7, .. }));
        assert_eq!(FirstScheduler::new().name(), "first");
    }
}
