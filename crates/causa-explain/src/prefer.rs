//! A continuation for the alternate schedule's replay: one thread first.

use causa_core::{PickContext, ScheduleError, Scheduler, ThreadName, Tid};

/// Runs the named thread whenever it is enabled; otherwise keeps the
/// current thread running (no preemption), else the oldest enabled one.
/// After the model's part of an alternate, letting one thread finish first
/// (the one still using what another is about to free, say) is often what
/// keeps the failure from coming back.
pub(crate) struct Prefer(pub ThreadName);

impl Scheduler for Prefer {
    fn name(&self) -> &'static str {
        "prefer"
    }

    fn begin_execution(&mut self) -> bool {
        true
    }

    fn pick_thread(&mut self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError> {
        if let Some(t) = ctx.enabled.iter().copied().find(|t| *ctx.name(*t) == self.0) {
            return Ok(t);
        }
        match ctx.current.filter(|t| ctx.enabled.contains(t)) {
            Some(t) => Ok(t),
            None => ctx
                .enabled
                .iter()
                .copied()
                .min()
                .ok_or_else(|| ScheduleError::Diverged { step: ctx.step, reason: "no thread is enabled".into() }),
        }
    }
}
