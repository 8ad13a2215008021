//! Random probes between MCR's executions.
//!
//! MCR's cost is its solver queries: each execution asks, for every read
//! after its prefix, whether each other value the read could see is
//! reachable. On a long trace that is hundreds of queries per execution
//! (bench/programs/work_queue.c, 552 events: about 900, 8 s), and its
//! worklist is first in, first out, so a bug two value changes deep waits
//! behind every one-change state of the first trace: that program had no
//! verdict after 120 s, while `causa test` (uniform random schedules) found
//! its lost update in its first execution. A flaky test's bug is, by
//! definition, one that many schedules show.
//!
//! So `causa check` runs a batch of random executions (with the check's
//! fixed program inputs) each time MCR is about to have asked
//! [`PROBE_EVERY`] queries since the last batch, counting the queries of
//! the trace it is about to explore, and before the queries of its first
//! trace of [`PROBE_LONG_TRACE`] events or more. The probes take turns among PCT of
//! depth 2, PCT of depth 3 and uniform random choice (`causa test`'s
//! strategies): PCT's schedules switch threads at one or two points only,
//! so a bug it shows comes with few preemptions (work_queue.c: a PCT
//! schedule with 1 preemption explained in 2.0 s, a uniform one reduced to
//! 5 preemptions in 15 s), and uniform choice finds the bugs that need
//! many switches (bbuf.c: no PCT probe of depth 2 in 2,000 found it, uniform
//! choice in 5). Every probe of the batch runs, and of those that show a
//! bug the one with the fewest preemptions ends the check (it is a real
//! execution; `causa check` then reduces its preemptions further and
//! replays it, as for MCR's own). Probes never decide `verified`: only
//! MCR's exhausted worklist does, and the probes change nothing in what it
//! explores. A probe that ends otherwise (normally, in a bound, in an error
//! of causa's own) is left to MCR, which reaches every state a probe can.
//!
//! Deterministic: when a batch runs depends only on query counts, and the
//! probes' seeds only on how many probes ran before (`strategies`' seed
//! derivation), so the same program and flags give the same verdict and
//! schedule. A check whose whole exploration asks fewer than
//! [`PROBE_EVERY`] queries, on traces shorter than [`PROBE_LONG_TRACE`]
//! events, runs no probe at all.
//!
//! (Written here rather than taken from a crate: it is a loop over this
//! crate's own interpreter and strategies.)

use crate::minimize::PreemptionRecorder;
use crate::strategies::{PctScheduler, RandomScheduler};
use causa_core::Scheduler;
use causa_interp::{Config, Execution, Machine, Outcome, Prepared};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// MCR queries (asked, plus those of the trace about to be explored) that
/// call for a batch of probes. Checks with fewer queries in all run none
/// (most programs of the test corpus: their bug is found, or their states
/// exhausted, within a few hundred queries).
pub const PROBE_EVERY: u64 = 500;

/// A trace this long gets a batch before its queries when none ran yet,
/// whatever their number: a long trace's queries can each take minutes.
/// Three clients taking and giving back pooled connections 12 times each,
/// counting them outside the lock (412 events): MCR was still in its
/// first trace's 26 queries after 430 s; a uniform random schedule shows
/// the lost update at once.
pub const PROBE_LONG_TRACE: usize = 300;

/// Random executions per batch, by default (`causa check --probes`).
pub const DEFAULT_BATCH: usize = 100;

/// The seed of the probes' random streams (fixed: the check's `--seed` is
/// its program inputs').
const PROBE_SEED: u64 = 0x005e_ed0f_c4ec;

/// The probes' strategies, in turn: PCT of depth 2, PCT of depth 3, uniform.
fn strategies() -> Vec<PreemptionRecorder<Box<dyn Scheduler>>> {
    let all: [Box<dyn Scheduler>; 3] = [
        Box::new(PctScheduler::new(PROBE_SEED, 2)),
        Box::new(PctScheduler::new(PROBE_SEED + 1, 3)),
        Box::new(RandomScheduler::new(PROBE_SEED + 2)),
    ];
    all.into_iter().map(PreemptionRecorder::new).collect()
}

/// What the probes of one check did so far.
#[derive(Clone, Debug, Default)]
pub struct ProbeStats {
    /// Probes run.
    pub run: usize,
    /// Batches run.
    pub batches: usize,
    /// Time spent running them.
    pub time: Duration,
}

/// The probes of one check.
pub struct Probes {
    batch: usize,
    strategies: Vec<PreemptionRecorder<Box<dyn Scheduler>>>,
    /// MCR's query count when the last batch was due (the queries of the
    /// trace explored after it included).
    covered: u64,
    pub stats: ProbeStats,
}

impl Probes {
    /// `batch` random executions per batch (0: no probes).
    pub fn new(batch: usize) -> Probes {
        Probes { batch, strategies: strategies(), covered: 0, stats: ProbeStats::default() }
    }

    /// How many queries of the next trace would make a batch due, MCR
    /// having asked `asked` so far (u64::MAX: no probes).
    pub fn wanted(&self, asked: u64) -> u64 {
        match self.batch {
            0 => u64::MAX,
            _ => PROBE_EVERY.saturating_sub(asked.saturating_sub(self.covered)),
        }
    }

    /// Whether a batch is due before exploring a trace of `events` events
    /// whose states take `upcoming` queries, MCR having asked `asked` so
    /// far: [`PROBE_EVERY`] queries, or the first trace of at least
    /// [`PROBE_LONG_TRACE`] events when no batch ran yet. When it is, those
    /// queries count as covered by it.
    pub fn due(&mut self, asked: u64, upcoming: u64, events: usize) -> bool {
        let first_long = self.stats.batches == 0 && events >= PROBE_LONG_TRACE;
        if self.batch == 0 || (!first_long && upcoming < self.wanted(asked)) {
            return false;
        }
        self.covered = asked + upcoming;
        true
    }

    /// Run one batch: of its probes that show a bug, the one with the
    /// fewest preemptions (the first of those), with its number (counting
    /// all probes from 1); None: none did, or `out_of_time` said to stop
    /// first.
    pub fn batch(
        &mut self,
        prep: &Arc<Prepared>,
        cfg: &Arc<Config>,
        out_of_time: &dyn Fn() -> bool,
    ) -> Option<(usize, Execution)> {
        let start = Instant::now();
        self.stats.batches += 1;
        let mut best: Option<(usize, usize, Execution)> = None;
        for _ in 0..self.batch {
            let turn = self.stats.run % self.strategies.len();
            let sched = &mut self.strategies[turn];
            if out_of_time() || !sched.begin_execution() {
                break;
            }
            // (The check's program inputs: fixed, as in MCR's executions.)
            let ex = Machine::new(prep.clone(), cfg.clone()).run(sched);
            self.stats.run += 1;
            let preemptions = sched.preemptions.len();
            if matches!(ex.outcome, Outcome::Bug(_)) && best.as_ref().is_none_or(|(p, _, _)| preemptions < *p) {
                best = Some((preemptions, self.stats.run, ex));
            }
        }
        self.stats.time += start.elapsed();
        best.map(|(_, n, ex)| (n, ex))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_due_once_per_probe_every_queries_counting_those_to_come() {
        let mut p = Probes::new(10);
        assert!(!p.due(0, PROBE_EVERY - 1, 10));
        assert!(!p.due(PROBE_EVERY - 2, 1, 10));
        assert!(p.due(PROBE_EVERY - 2, 2, 10));
        // The trace's queries are covered: the next trace alone is not enough.
        assert!(!p.due(PROBE_EVERY, PROBE_EVERY - 1, 10));
        assert!(p.due(PROBE_EVERY, PROBE_EVERY, 10));
        // A trace of many queries calls for a batch before each.
        assert!(p.due(2 * PROBE_EVERY + 1, 3 * PROBE_EVERY, 10));
        assert!(p.due(5 * PROBE_EVERY + 1, 3 * PROBE_EVERY, 10));
        // What the next trace needs for a batch: what makes `due` say yes.
        let mut q = Probes::new(10);
        assert_eq!(q.wanted(0), PROBE_EVERY);
        assert_eq!(q.wanted(PROBE_EVERY - 7), 7);
        assert!(!q.due(PROBE_EVERY - 7, 6, 10) && q.due(PROBE_EVERY - 7, 7, 10));
        assert_eq!(q.wanted(PROBE_EVERY), PROBE_EVERY, "counted from the batch");
        // The first long trace gets a batch whatever its queries; later
        // ones by the count.
        let mut l = Probes::new(10);
        assert!(l.due(0, 1, PROBE_LONG_TRACE));
        l.stats.batches = 1;
        assert!(!l.due(1, 1, PROBE_LONG_TRACE));
        assert!(l.due(1, PROBE_EVERY, PROBE_LONG_TRACE));
        // No batch size, no probes.
        let mut none = Probes::new(0);
        assert_eq!(none.wanted(0), u64::MAX);
        assert!(!none.due(0, 100 * PROBE_EVERY, 10) && !none.due(0, 0, PROBE_LONG_TRACE));
    }
}
