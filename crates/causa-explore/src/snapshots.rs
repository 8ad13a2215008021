//! Depth-first runs resumed from saved machines instead of re-run from the
//! start.
//!
//! Each execution of a depth-first exploration repeats the previous one's
//! choices up to its resume step ([`DfsScheduler::resume_step`]) and only
//! then goes its own way. Running that shared prefix again makes a search
//! quadratic in the trace length: a backtrack near the end of a trace of `n`
//! steps costs `n` steps, though the new part may be a single step before
//! the run is cut. [`Snapshots`] keeps clones of the machine at some steps of
//! the current path and starts each execution from the latest clone at or
//! before its resume step.
//!
//! Where to save (a clone costs about as much as copying the events so far):
//! - on new ground, at gaps that grow with the trace (`MIN_GAP` steps, or
//!   half the steps so far), so a long run saves a logarithmic number of
//!   clones;
//! - while replaying from a clone towards the resume step, at half the
//!   remaining distance, then at the resume step itself: the binary
//!   checkpointing of reverse debuggers, which makes a backtrack that moves
//!   one step back at a time replay a logarithmic number of steps, amortised.
//!
//! Written here because it is the exploration's policy, not the
//! interpreter's: the interpreter only pauses ([`Machine::run_until`]).

use crate::DfsScheduler;
use causa_interp::{Config, Execution, Machine, Prepared};
use std::sync::Arc;

/// Fewest steps between two saved machines.
const MIN_GAP: usize = 16;

/// The saved machines of the current path, ascending by step.
#[derive(Default)]
pub struct Snapshots {
    saved: Vec<Machine>,
    /// Steps not run again thanks to a saved machine (statistics).
    pub skipped_steps: u64,
}

impl Snapshots {
    pub fn new() -> Self {
        Snapshots::default()
    }

    /// Run `dfs`'s next execution (after its `begin_execution`), resuming
    /// from the latest saved machine at or before its resume step.
    pub fn run(&mut self, prep: &Arc<Prepared>, cfg: &Arc<Config>, dfs: &mut DfsScheduler) -> Execution {
        let resume = dfs.resume_step();
        while self.saved.last().is_some_and(|m| m.steps.len() > resume) {
            self.saved.pop();
        }
        let mut m = match self.saved.last() {
            Some(s) => s.clone(),
            None => Machine::new(prep.clone(), cfg.clone()),
        };
        self.skipped_steps += m.steps.len() as u64;
        loop {
            let at = m.steps.len();
            let last = self.saved.last().map_or(0, |s| s.steps.len());
            match m.run_until(dfs, next_pause(at, last, resume)) {
                Some(outcome) => return m.conclude(dfs, outcome),
                None => self.saved.push(m.clone()),
            }
        }
    }
}

/// The step at which to save the machine next: it is at step `at`, the
/// latest saved machine at `last`, and the execution resumes (leaves the
/// previous one's path) at `resume`.
fn next_pause(at: usize, last: usize, resume: usize) -> usize {
    if at < resume {
        let half = at + (resume - at) / 2;
        if let Some(p) = [half, resume].into_iter().find(|&p| p > at && p >= last + MIN_GAP) {
            return p;
        }
    }
    let from = at.max(last);
    from + MIN_GAP.max(from / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_halve_the_way_to_the_resume_step_then_grow() {
        // From the start towards step 1000: 500, 750, 875, … then 1000.
        assert_eq!(next_pause(0, 0, 1000), 500);
        assert_eq!(next_pause(500, 500, 1000), 750);
        assert_eq!(next_pause(990, 984, 1000), 1000);
        // Too close to the last saved machine: no save before new ground.
        assert_eq!(next_pause(995, 990, 1000), 995 + 497);
        // On new ground the gap grows with the steps.
        assert_eq!(next_pause(0, 0, 0), MIN_GAP);
        assert_eq!(next_pause(1000, 1000, 10), 1500);
    }
}
