//! The `first` strategy: run each thread for as long as it can, never preempting.

use super::nothing_enabled;
use causa_core::{PickContext, ScheduleError, Scheduler, Tid};

/// Non-preemptive, deterministic strategy.
///
/// The thread that took the previous step keeps running while it is enabled; when it
/// blocks or exits, the enabled thread with the lowest `Tid` (the oldest) takes over.
/// When it yields (`sched_yield`, `sleep`), the next enabled thread after it in `Tid`
/// order takes over (wrapping around), so spin-waits with a yield make progress.
/// Every execution is the same, so exploring with it more than once finds nothing new;
/// `begin_execution` nevertheless always agrees, as the caller bounds the count.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstScheduler;

impl FirstScheduler {
    /// A new `first` strategy.
    pub fn new() -> Self {
        FirstScheduler
    }
}

impl Scheduler for FirstScheduler {
    fn name(&self) -> &'static str {
        "first"
    }

    fn begin_execution(&mut self) -> bool {
        true
    }

    fn pick_thread(&mut self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError> {
        if let Some(y) = ctx.yielded {
            let next = ctx.enabled.iter().copied().filter(|t| *t > y).min();
            if let Some(t) = next.or_else(|| ctx.enabled.iter().copied().min()) {
                return Ok(t);
            }
        }
        match ctx.current.filter(|t| ctx.enabled.contains(t)) {
            Some(t) => Ok(t),
            None => ctx.enabled.iter().copied().min().ok_or_else(|| nothing_enabled(ctx)),
        }
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
    fn empty_enabled_set_is_an_error_not_a_panic() {
        let names = names(1);
        let err = FirstScheduler::new().pick_thread(&ctx(7, &[], None, &names)).unwrap_err();
        assert!(matches!(err, ScheduleError::Diverged { step: 7, .. }));
        assert_eq!(FirstScheduler::new().name(), "first");
    }
}
