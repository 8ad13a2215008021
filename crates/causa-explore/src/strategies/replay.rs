//! The `replay` strategy: follow a recorded schedule step by step.

use causa_core::{Choice, PickContext, ScheduleError, Scheduler, ThreadName, Tid};
use std::collections::BTreeMap;
use std::fmt;

/// In [`ReplayScheduler::with_flushes`]: flush the thread's only flushable
/// store (under TSO, its oldest), whose address the caller does not know
/// (a store through an address the solver computed).
pub const OLDEST_STORE: u64 = u64::MAX;

/// Follows a list of thread names, one per visible step (the `steps` of a
/// [`causa_core::Schedule`]).
///
/// At step `i` the thread named `steps[i]` must exist and be enabled; otherwise the
/// replay has diverged from the recording and `pick_thread` returns
/// [`ScheduleError::Diverged`] for that step, saying why. When the steps run out while
/// the program still runs, the fallback strategy given with
/// [`ReplayScheduler::with_fallback`] takes over (for example to finish a shortened
/// schedule); without one, that too is a divergence. A replay is one execution:
/// `begin_execution` agrees only the first time.
pub struct ReplayScheduler {
    steps: Vec<ThreadName>,
    /// Steps that flush a buffered store (TSO/PSO), with its address.
    flushes: BTreeMap<usize, u64>,
    /// Number of leading steps followed so far.
    consumed: usize,
    started: bool,
    fallback: Option<Box<dyn Scheduler>>,
    /// Whether the fallback chose a step (the steps ran out before the program ended).
    fell_back: bool,
}

impl ReplayScheduler {
    /// Replay `steps`: `steps[i]` names the thread that takes visible step `i`.
    pub fn new(steps: Vec<ThreadName>) -> Self {
        ReplayScheduler {
            steps,
            flushes: BTreeMap::new(),
            consumed: 0,
            started: false,
            fallback: None,
            fell_back: false,
        }
    }

    /// Whether the fallback chose any step of this execution: when it did
    /// not, the execution is the same whatever the fallback.
    pub fn fell_back(&self) -> bool {
        self.fell_back
    }

    /// The steps among `steps` that flush a buffered store of their thread to
    /// the given address (a TSO/PSO schedule's [`causa_core::Schedule::flushes`]).
    /// `flushes` maps steps to the address of the store they flush
    /// ([`OLDEST_STORE`]: the thread's only flushable store, under TSO its
    /// oldest, whatever its address).
    pub fn with_flushes(mut self, flushes: BTreeMap<usize, u64>) -> Self {
        self.flushes = flushes;
        self
    }

    /// Let `fallback` choose once the steps run out, instead of reporting a divergence.
    pub fn with_fallback(mut self, fallback: Box<dyn Scheduler>) -> Self {
        self.fallback = Some(fallback);
        self
    }

    /// Whether every step of the schedule has been followed.
    pub fn is_exhausted(&self) -> bool {
        self.consumed >= self.steps.len()
    }

    /// The schedule being replayed.
    pub fn steps(&self) -> &[ThreadName] {
        &self.steps
    }

    fn diverged(step: usize, reason: String) -> ScheduleError {
        ScheduleError::Diverged { step, reason }
    }

    /// The `Tid` of the thread named `want` in this execution.
    fn tid_of(ctx: &PickContext<'_>, want: &ThreadName) -> Result<Tid, ScheduleError> {
        match ctx.names.iter().position(|n| n == want) {
            Some(t) => Ok(t as Tid),
            None => Err(Self::diverged(ctx.step, format!("thread {want} does not exist"))),
        }
    }
}

impl fmt::Debug for ReplayScheduler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReplayScheduler")
            .field("steps", &self.steps.len())
            .field("consumed", &self.consumed)
            .field("started", &self.started)
            .field("fallback", &self.fallback.as_ref().map(|s| s.name()))
            .finish()
    }
}

impl Scheduler for ReplayScheduler {
    fn name(&self) -> &'static str {
        "replay"
    }

    fn begin_execution(&mut self) -> bool {
        if self.started {
            return false;
        }
        self.started = true;
        if let Some(f) = &mut self.fallback {
            f.begin_execution();
        }
        true
    }

    fn pick_thread(&mut self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError> {
        let step = ctx.step;
        let Some(want) = self.steps.get(step) else {
            return match &mut self.fallback {
                Some(f) => {
                    self.fell_back = true;
                    f.pick_thread(ctx)
                }
                None => Err(Self::diverged(
                    step,
                    format!("the schedule ended after {} steps but the program continues", self.steps.len()),
                )),
            };
        };
        let tid = Self::tid_of(ctx, want)?;
        // A parked busy wait named by the schedule takes its next turn (a
        // computed order may run two turns with nothing changed between).
        if !ctx.enabled.contains(&tid) && !(ctx.parked)(tid) {
            let enabled: Vec<String> = ctx.enabled.iter().map(|&t| ctx.name(t).to_string()).collect();
            return Err(Self::diverged(
                step,
                format!("thread {want} is not enabled (enabled: {})", enabled.join(", ")),
            ));
        }
        self.consumed = self.consumed.max(step + 1);
        Ok(tid)
    }

    fn pick(&mut self, ctx: &PickContext<'_>) -> Result<Choice, ScheduleError> {
        let step = ctx.step;
        let (Some(&addr), Some(want)) = (self.flushes.get(&step), self.steps.get(step)) else {
            return match (&mut self.fallback, step >= self.steps.len()) {
                (Some(f), true) => {
                    self.fell_back = true;
                    f.pick(ctx)
                }
                _ => self.pick_thread(ctx).map(Choice::Run),
            };
        };
        let thread = Self::tid_of(ctx, want)?;
        let mut own = ctx.flushes.iter().filter(|(t, _)| *t == thread);
        let addr = match (addr, own.next(), own.next()) {
            (OLDEST_STORE, Some(&(_, a)), None) => a,
            _ => addr,
        };
        if !ctx.flushes.contains(&(thread, addr)) {
            return Err(Self::diverged(step, format!("thread {want} has no store to {addr:#x} that can be flushed")));
        }
        self.consumed = self.consumed.max(step + 1);
        Ok(Choice::Flush { thread, addr })
    }

    fn end_execution(&mut self, steps: usize) {
        if let Some(f) = &mut self.fallback {
            f.end_execution(steps);
        }
    }

    fn passed_turns(&self) -> bool {
        self.fallback.as_ref().is_some_and(|f| f.passed_turns())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testutil::{ctx, names};
    use crate::strategies::FirstScheduler;

    fn parse(s: &str) -> Vec<ThreadName> {
        s.split_whitespace().map(|n| n.parse().unwrap()).collect()
    }

    #[test]
    fn follows_names_and_runs_once() {
        let names = names(3);
        let mut s = ReplayScheduler::new(parse("0 0.2 0.1 0.2"));
        assert_eq!(s.name(), "replay");
        assert!(s.begin_execution());
        let picks: Vec<Tid> = (0..4).map(|i| s.pick_thread(&ctx(i, &[0, 1, 2], None, &names)).unwrap()).collect();
        assert_eq!(picks, vec![0, 2, 1, 2]);
        assert!(s.is_exhausted());
        assert!(!s.begin_execution());
    }

    #[test]
    fn looks_threads_up_by_name_not_tid() {
        let n = names(3);
        let swapped = vec![n[0].clone(), n[2].clone(), n[1].clone()];
        let mut s = ReplayScheduler::new(parse("0.1 0.2"));
        assert_eq!(s.pick_thread(&ctx(0, &[0, 1, 2], None, &swapped)), Ok(2));
        assert!(!s.is_exhausted());
        assert_eq!(s.pick_thread(&ctx(1, &[0, 1, 2], None, &swapped)), Ok(1));
        assert!(s.is_exhausted());
    }

    #[test]
    fn disabled_thread_is_a_divergence_at_that_step() {
        let names = names(3);
        let mut s = ReplayScheduler::new(parse("0 0.1"));
        assert_eq!(s.pick_thread(&ctx(0, &[0, 1, 2], None, &names)), Ok(0));
        let err = s.pick_thread(&ctx(1, &[0, 2], Some(0), &names)).unwrap_err();
        assert_eq!(
            err,
            ScheduleError::Diverged { step: 1, reason: "thread 0.1 is not enabled (enabled: 0, 0.2)".into() }
        );
        assert!(!s.is_exhausted());
    }

    #[test]
    fn unknown_thread_is_a_divergence() {
        let names = names(3);
        let mut s = ReplayScheduler::new(parse("0.3"));
        let err = s.pick_thread(&ctx(0, &[0, 1, 2], None, &names)).unwrap_err();
        assert_eq!(err, ScheduleError::Diverged { step: 0, reason: "thread 0.3 does not exist".into() });
    }

    #[test]
    fn running_out_without_fallback_is_a_divergence() {
        let names = names(2);
        let mut s = ReplayScheduler::new(parse("0.1"));
        assert_eq!(s.pick_thread(&ctx(0, &[0, 1], None, &names)), Ok(1));
        let err = s.pick_thread(&ctx(1, &[0], None, &names)).unwrap_err();
        let reason = "the schedule ended after 1 steps but the program continues".to_string();
        assert_eq!(err, ScheduleError::Diverged { step: 1, reason });
        assert!(s.is_exhausted());
    }

    #[test]
    fn fallback_takes_over_when_the_steps_run_out() {
        let names = names(3);
        let mut s = ReplayScheduler::new(parse("0.2")).with_fallback(Box::new(FirstScheduler::new()));
        assert!(s.begin_execution());
        assert_eq!(s.pick_thread(&ctx(0, &[0, 1, 2], None, &names)), Ok(2));
        assert!(!s.fell_back(), "the steps chose so far");
        // `first` keeps the current thread, then takes the lowest enabled one.
        assert_eq!(s.pick_thread(&ctx(1, &[0, 1, 2], Some(2), &names)), Ok(2));
        assert!(s.fell_back());
        assert_eq!(s.pick_thread(&ctx(2, &[1, 2], None, &names)), Ok(1));
        assert!(s.is_exhausted());
        assert!(format!("{s:?}").contains("Some(\"first\")"));
    }

    #[test]
    fn empty_schedule_is_exhausted_from_the_start() {
        let names = names(1);
        let mut s = ReplayScheduler::new(Vec::new());
        assert!(s.is_exhausted());
        assert!(s.pick_thread(&ctx(0, &[0], None, &names)).is_err());
    }
}
