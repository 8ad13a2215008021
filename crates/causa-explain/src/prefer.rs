//! A continuation for the alternate schedule's replay: one thread first.

use causa_core::{PickContext, ScheduleError, Scheduler, ThreadName, Tid};
use causa_explore::FirstScheduler;

/// Runs the named thread whenever it is enabled; otherwise does what the
/// `first` strategy does (no preemption). After the model's part of an
/// alternate, letting one thread finish first (the one still using what
/// another is about to free, say) is often what keeps the failure from
/// coming back.
pub(crate) struct Prefer(pub ThreadName);

impl Scheduler for Prefer {
    fn name(&self) -> &'static str {
        "prefer"
    }

    fn begin_execution(&mut self) -> bool {
        true
    }

    fn pick_thread(&mut self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError> {
        match ctx.enabled.iter().copied().find(|t| *ctx.name(*t) == self.0) {
            Some(t) => Ok(t),
            None => FirstScheduler::new().pick_thread(ctx),
        }
    }
}

/// Runs every other thread while one is enabled, the named one only when
/// nothing else can move; no preemption among the others.
pub(crate) struct Last(pub ThreadName);

impl Scheduler for Last {
    fn name(&self) -> &'static str {
        "last"
    }

    fn begin_execution(&mut self) -> bool {
        true
    }

    fn pick_thread(&mut self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError> {
        let other = |t: &Tid| *ctx.name(*t) != self.0;
        match ctx.current.filter(other).or_else(|| ctx.enabled.iter().copied().find(other)) {
            Some(t) => Ok(t),
            None => FirstScheduler::new().pick_thread(ctx),
        }
    }
}
