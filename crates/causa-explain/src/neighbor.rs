//! The paths of the threads a failure cut short.
//!
//! The failing run stops at the failure, so a thread that had not started
//! by then (or had not got far) has no path past that point, and the model
//! has none of its later events: no alternate can move them before the
//! failure. `abort_bad_state.c` is the plain case: `finish` aborts before
//! `start` has run at all, and the only way out, `start` first, is not in
//! the model.
//!
//! When the failing run's own paths admit no alternate, a neighbouring run
//! is made: the failing schedule up to one of the failing thread's steps
//! (its last first), then every other thread while one can move, the
//! failing thread last. Where the other threads' paths there extend their
//! paths in the failing run, they replace them; the failing thread keeps
//! its own. The events past the failing run's end are not in the failing
//! schedule, and the solver may place them before the failure.

use crate::prefer::Last;
use causa_core::paths::{PathLog, ThreadPath};
use causa_core::{Scheduler, ThreadName};
use causa_explore::{run_once, ReplayScheduler};
use causa_interp::{Config, Execution, Prepared};
use std::sync::Arc;

/// At most this many of the failing thread's steps are tried as the point
/// where the other threads go first.
const TRIES: usize = 8;

/// `log` (the failing run's) with the paths of the threads other than
/// `failing` extended by a neighbouring run (see the module docs), and the
/// threads it took further; None when no such run gets any of them further.
pub(crate) fn extended(
    prep: &Arc<Prepared>,
    cfg: &Config,
    ex: &Execution,
    log: &PathLog,
    failing: &ThreadName,
) -> Option<(PathLog, Vec<ThreadName>)> {
    let prefix = causa_explore::mcr::Prefix::of(ex);
    let mut cfg = cfg.clone();
    cfg.memory_model = ex.memory_model;
    cfg.record_paths = true;
    let cfg = Arc::new(cfg);
    let points: Vec<usize> = (0..prefix.steps.len()).filter(|k| prefix.steps[*k] == *failing).collect();
    for &k in points.iter().rev().take(TRIES) {
        let flushes = prefix.flushes.iter().filter(|(i, _)| **i < k).map(|(i, a)| (*i, *a)).collect();
        let mut sched = ReplayScheduler::new(prefix.steps[..k].to_vec())
            .with_flushes(flushes)
            .with_fallback(Box::new(Last(failing.clone())));
        sched.begin_execution();
        let run = run_once(prep, &cfg, &mut sched);
        if let Some(merged) = merge(log, &run.paths, failing) {
            return Some(merged);
        }
    }
    None
}

/// `log` with each other thread's path replaced by its path in `run` where
/// that extends it (the same decisions first), or added when `log` has
/// none, and the threads that got further; None when none does or one
/// contradicts its path in `log`.
fn merge(log: &PathLog, run: &[ThreadPath], failing: &ThreadName) -> Option<(PathLog, Vec<ThreadName>)> {
    let mut out = log.clone();
    let mut further = Vec::new();
    for p in run.iter().filter(|p| p.thread != *failing) {
        match out.threads.iter_mut().find(|q| q.thread == p.thread) {
            Some(q) => {
                let extends = p.decisions.starts_with(&q.decisions)
                    && p.targets.starts_with(&q.targets)
                    && p.inputs.starts_with(&q.inputs)
                    && p.onces.starts_with(&q.onces)
                    && p.values.starts_with(&q.values)
                    && p.tries.starts_with(&q.tries);
                if !extends {
                    return None;
                }
                // (Straight-line code past the failing run's end needs no
                // decision, but what a library call returned there, such
                // as a line `fgets` read, is in the path only now.)
                let longer = p.decisions.len() > q.decisions.len()
                    || p.inputs.len() > q.inputs.len()
                    || p.onces.len() > q.onces.len()
                    || p.values.len() > q.values.len()
                    || p.tries.len() > q.tries.len();
                if longer {
                    further.push(p.thread.clone());
                }
                *q = p.clone();
            }
            None => {
                further.push(p.thread.clone());
                out.threads.push(p.clone());
            }
        }
    }
    (!further.is_empty()).then_some((out, further))
}
