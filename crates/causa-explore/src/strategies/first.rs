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
    /// See [`FirstScheduler::with_turns`]: the most steps one thread takes in
    /// a row while another can move.
    turn: Option<usize>,
    /// The thread that took the last steps, and how many in a row.
    running: Option<(Tid, usize)>,
    /// Whether a thread passed the processor on at the end of its turn in
    /// this execution.
    passed: bool,
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
        FirstScheduler { exit_delay: Some(delay), ..FirstScheduler::default() }
    }

    /// The same, except that a thread that has taken `steps` steps in a
    /// row while another thread could move passes the processor on, as a
    /// yield does. Without it, a thread looping until another thread sets a
    /// flag (and doing work in the loop, so that it is no parked busy wait)
    /// runs to the step limit in every run that lets it start the loop
    /// first: MCR's trace of such a run has none of the other thread's
    /// later operations, so it has nothing to reorder, and the
    /// 100,000-event trace cost 9.5 s to model.
    pub fn with_turns(self, steps: usize) -> Self {
        FirstScheduler { turn: Some(steps), ..self }
    }

    /// With [`FirstScheduler::with_turns`]: the thread to run instead of `t`
    /// (the next one after it that can move, in `Tid` order, wrapping
    /// around), when `t` has had its turn.
    fn turn_over(&self, ctx: &PickContext<'_>, t: Tid) -> Option<Tid> {
        let turn = self.turn?;
        let (last, run) = self.running?;
        if last != t || run < turn {
            return None;
        }
        next_after(ctx, t, |o| o != t && !(ctx.ends_program)(o))
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

/// The first enabled thread after `t` in `Tid` order that `keep` keeps,
/// wrapping around (how a yield and the end of a turn pass the processor on).
fn next_after(ctx: &PickContext<'_>, t: Tid, keep: impl Fn(Tid) -> bool) -> Option<Tid> {
    let kept = || ctx.enabled.iter().copied().filter(|o| keep(*o));
    kept().filter(|o| *o > t).min().or_else(|| kept().min())
}

impl Scheduler for FirstScheduler {
    fn name(&self) -> &'static str {
        "first"
    }

    fn begin_execution(&mut self) -> bool {
        self.waiting_since = None;
        self.running = None;
        self.passed = false;
        true
    }

    fn pick_thread(&mut self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError> {
        let lowest = ctx.enabled.iter().copied().min();
        let after_yield = ctx.yielded.and_then(|y| next_after(ctx, y, |_| true));
        let mut t = match after_yield.or(ctx.current.filter(|t| ctx.enabled.contains(t))) {
            Some(t) => t,
            None => lowest.ok_or_else(|| nothing_enabled(ctx))?,
        };
        if self.holds_back(ctx, t) {
            if let Some(other) = ctx.enabled.iter().copied().find(|o| *o != t && !(ctx.ends_program)(*o)) {
                t = other;
            }
        }
        if let Some(other) = self.turn_over(ctx, t) {
            t = other;
            self.passed = true;
        }
        self.running = match self.running {
            Some((last, run)) if last == t => Some((t, run + 1)),
            _ => Some((t, 1)),
        };
        Ok(t)
    }

    fn passed_turns(&self) -> bool {
        self.passed
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
    fn with_turns_a_thread_passes_on_after_its_turn() {
        let names = names(3);
        let mut s = FirstScheduler::new().with_turns(3);
        assert!(s.begin_execution());
        // Thread 1 runs three steps, then 2 (the next after it) takes over,
        // and after its three, 0 (wrapping around).
        let mut current = Some(1);
        let picks: Vec<Tid> = (0..9)
            .map(|i| {
                let t = s.pick_thread(&ctx(i, &[0, 1, 2], current, &names)).expect("a thread");
                current = Some(t);
                t
            })
            .collect();
        assert_eq!(picks, vec![1, 1, 1, 2, 2, 2, 0, 0, 0]);
        assert!(s.passed_turns());
        assert!(s.begin_execution());
        assert!(!s.passed_turns(), "a new execution starts without");
        // Alone, a thread keeps running.
        let mut alone = FirstScheduler::new().with_turns(2);
        for i in 0..5 {
            assert_eq!(alone.pick_thread(&ctx(i, &[1], Some(1), &names)), Ok(1));
        }
        // Without turns, the current thread keeps running.
        let mut plain = FirstScheduler::new();
        for i in 0..5 {
            assert_eq!(plain.pick_thread(&ctx(i, &[0, 1, 2], Some(1), &names)), Ok(1));
        }
        assert!(!plain.passed_turns() && !alone.passed_turns());
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
