//! The `pct` strategy: probabilistic concurrency testing.

use super::{nothing_enabled, ExecutionSeeds};
use causa_core::collections::HashMap;
use causa_core::{PickContext, ScheduleError, Scheduler, ThreadName, Tid};
use rand::Rng;
use rand_pcg::Pcg64Mcg;

/// Length estimate used until an execution has been seen.
const INITIAL_ESTIMATE: usize = 100;

/// PCT, from S. Burckhardt, P. Kothari, M. Musuvathi and S. Nagarakatte, "A Randomized
/// Scheduler with Probabilistic Guarantees of Finding Bugs", ASPLOS 2010.
///
/// Each thread gets a random initial priority, distinct and at least `depth`, when it
/// is first seen (by [`ThreadName`], since `Tid`s may differ between executions;
/// threads first seen together are taken in name order). `depth − 1` priority change
/// points are drawn uniformly, without repetition when there is room, from the step
/// indices `1..k`, where `k` estimates the execution length: 100 at first, then the
/// largest step count seen so far (reported through `end_execution`). At every step the
/// enabled thread of highest priority runs, except that at the `i`-th change point the
/// thread about to run has its priority lowered to `i`, below every initial priority,
/// and the choice is made again. Step indices are [`PickContext::step`], so step `k_i`
/// is taken after `k_i` steps; step 0 is never a change point.
///
/// For a program with `n` threads and `k` steps this finds any bug of depth `d` with
/// probability at least `1 / (n · k^(d−1))` per execution. With `depth` 1 (or 0) there
/// are no change points: threads simply run in a random priority order.
///
/// Each execution draws from a fresh stream seeded with
/// [`PctScheduler::execution_seed`]; it is fully determined by that seed and the length
/// estimate in force when it begins ([`PctScheduler::length_estimate`]), which is what
/// [`PctScheduler::with_length_estimate`] restores.
#[derive(Clone, Debug)]
pub struct PctScheduler {
    seeds: ExecutionSeeds,
    depth: u32,
    estimate: usize,
    seen_max: Option<usize>,
    rng: Pcg64Mcg,
    /// Current priority of each thread seen in this execution (all distinct).
    priorities: HashMap<ThreadName, u64>,
    /// `change_points[i - 1]` is the step of the `i`-th change point.
    change_points: Vec<usize>,
}

impl PctScheduler {
    /// PCT seeded with `seed` (the first execution uses `seed` itself), aiming at bugs of
    /// depth up to `depth`.
    pub fn new(seed: u64, depth: u32) -> Self {
        let seeds = ExecutionSeeds::new(seed);
        let rng = seeds.rng();
        let mut s = PctScheduler {
            seeds,
            depth,
            estimate: INITIAL_ESTIMATE,
            seen_max: None,
            rng,
            priorities: HashMap::default(),
            change_points: Vec::new(),
        };
        s.prepare();
        s
    }

    /// Use `k` instead of 100 as the length estimate until the first execution ends.
    pub fn with_length_estimate(mut self, k: usize) -> Self {
        self.estimate = k;
        self.prepare();
        self
    }

    /// The bug depth this instance targets.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Current estimate `k` of the execution length.
    pub fn length_estimate(&self) -> usize {
        self.estimate
    }

    /// Seed of the current execution (the one most recently begun, or execution 0
    /// before any). Running again with this value as `--seed` and the same length
    /// estimate makes its first execution identical to the current one.
    pub fn execution_seed(&self) -> u64 {
        self.seeds.current()
    }

    /// Index of the current execution, counting from 0.
    pub fn execution_index(&self) -> u64 {
        self.seeds.index()
    }

    /// Reseed and draw the change points of the current execution.
    fn prepare(&mut self) {
        self.rng = self.seeds.rng();
        self.priorities.clear();
        self.change_points.clear();
        let wanted = self.depth.saturating_sub(1) as usize;
        let room = self.estimate.saturating_sub(1); // the steps 1..k
        if room == 0 {
            return;
        }
        while self.change_points.len() < wanted {
            let p = self.rng.random_range(1..self.estimate);
            if wanted > room || !self.change_points.contains(&p) {
                self.change_points.push(p);
            }
        }
    }

    /// Give the enabled threads not seen yet their random initial priority: a uniformly
    /// random rank among all the threads seen so far, above `depth`.
    fn learn(&mut self, ctx: &PickContext<'_>) {
        let mut new: Vec<&ThreadName> =
            ctx.enabled.iter().map(|&t| ctx.name(t)).filter(|n| !self.priorities.contains_key(*n)).collect();
        new.sort();
        let floor = u64::from(self.depth.max(1));
        for name in new {
            let rank = self.rng.random_range(0..=self.priorities.len() as u64);
            for p in self.priorities.values_mut() {
                if *p >= floor + rank {
                    *p += 1;
                }
            }
            self.priorities.insert(name.clone(), floor + rank);
        }
    }

    fn highest(&self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError> {
        ctx.enabled.iter().copied().max_by_key(|&t| self.priorities[ctx.name(t)]).ok_or_else(|| nothing_enabled(ctx))
    }
}

impl Scheduler for PctScheduler {
    fn name(&self) -> &'static str {
        "pct"
    }

    fn begin_execution(&mut self) -> bool {
        self.seeds.advance();
        self.prepare();
        true
    }

    fn pick_thread(&mut self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError> {
        self.learn(ctx);
        let mut chosen = self.highest(ctx)?;
        for i in 0..self.change_points.len() {
            if self.change_points[i] == ctx.step {
                let p = self.priorities.get_mut(ctx.name(chosen)).expect("enabled threads have priorities");
                *p = i as u64 + 1;
                chosen = self.highest(ctx)?;
            }
        }
        Ok(chosen)
    }

    fn end_execution(&mut self, steps: usize) {
        let max = self.seen_max.map_or(steps, |m| m.max(steps));
        self.seen_max = Some(max);
        self.estimate = max;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testutil::{ctx, names, preemptions, simulate};

    const BUDGETS: [usize; 4] = [10, 8, 12, 6];

    #[test]
    fn same_seed_same_executions() {
        let a = simulate(&mut PctScheduler::new(42, 3), &BUDGETS, 8);
        let b = simulate(&mut PctScheduler::new(42, 3), &BUDGETS, 8);
        assert_eq!(a, b);
        assert!(a.iter().any(|r| r != &a[0]));
    }

    #[test]
    fn different_seeds_differ() {
        let a = simulate(&mut PctScheduler::new(1, 3), &BUDGETS, 8);
        let b = simulate(&mut PctScheduler::new(2, 3), &BUDGETS, 8);
        assert_ne!(a, b);
    }

    #[test]
    fn depth_one_runs_by_a_fixed_priority_order() {
        for seed in 0..20 {
            let runs = simulate(&mut PctScheduler::new(seed, 1), &BUDGETS, 3);
            for run in &runs {
                // Highest priority first, each to completion: exactly n − 1 switches,
                // none of them a preemption.
                assert_eq!(preemptions(run, &BUDGETS), 0, "seed {seed}: {run:?}");
                assert_eq!(run.windows(2).filter(|w| w[0] != w[1]).count(), BUDGETS.len() - 1);
            }
        }
    }

    #[test]
    fn depth_one_picks_the_highest_priority_enabled_thread() {
        let names = names(3);
        let mut s = PctScheduler::new(5, 1);
        let all = s.pick_thread(&ctx(0, &[0, 1, 2], None, &names)).unwrap();
        let order = |s: &PctScheduler, t: Tid| s.priorities[&names[t as usize]];
        assert!((0..3).all(|t| t == all || order(&s, t) < order(&s, all)));
        // Take the top thread away: the next one in priority order runs; give it back:
        // it runs again, even though another thread was running.
        let rest: Vec<Tid> = (0..3).filter(|&t| t != all).collect();
        let second = s.pick_thread(&ctx(1, &rest, None, &names)).unwrap();
        assert_eq!(second, *rest.iter().max_by_key(|&&t| order(&s, t)).unwrap());
        assert_eq!(s.pick_thread(&ctx(2, &[0, 1, 2], Some(second), &names)), Ok(all));
    }

    #[test]
    fn preemptions_are_bounded_by_depth_minus_one() {
        let mut preempted = 0;
        for seed in 0..30 {
            let mut s = PctScheduler::new(seed, 3).with_length_estimate(36);
            for run in simulate(&mut s, &BUDGETS, 4) {
                let p = preemptions(&run, &BUDGETS);
                assert!(p <= 2, "seed {seed}: {p} preemptions in {run:?}");
                preempted += p;
            }
        }
        assert!(preempted > 0, "depth 3 never preempted");
    }

    #[test]
    fn priorities_follow_names_not_tids() {
        // Same threads, created in a different Tid order: the same names run.
        let fwd = names(3);
        let rev = vec![fwd[0].clone(), fwd[2].clone(), fwd[1].clone()];
        let mut a = PctScheduler::new(11, 2).with_length_estimate(4);
        let mut b = PctScheduler::new(11, 2).with_length_estimate(4);
        for step in 0..4 {
            let ta = a.pick_thread(&ctx(step, &[0, 1, 2], None, &fwd)).unwrap();
            let tb = b.pick_thread(&ctx(step, &[0, 1, 2], None, &rev)).unwrap();
            assert_eq!(fwd[ta as usize], rev[tb as usize], "step {step}");
        }
    }

    #[test]
    fn change_point_lowers_the_chosen_thread() {
        let names = names(2);
        let mut s = PctScheduler::new(3, 2).with_length_estimate(2); // only step 1
        assert_eq!(s.change_points, vec![1]);
        let top = s.pick_thread(&ctx(0, &[0, 1], None, &names)).unwrap();
        let other = 1 - top;
        assert_eq!(s.pick_thread(&ctx(1, &[0, 1], Some(top), &names)), Ok(other));
        assert_eq!(s.priorities[&names[top as usize]], 1);
        assert_eq!(s.pick_thread(&ctx(2, &[0, 1], Some(other), &names)), Ok(other));
    }

    #[test]
    fn length_estimate_tracks_the_longest_execution() {
        let mut s = PctScheduler::new(0, 4);
        assert_eq!((s.length_estimate(), s.depth(), s.name()), (100, 4, "pct"));
        assert_eq!(s.change_points.len(), 3);
        assert!(s.change_points.iter().all(|&p| (1..100).contains(&p)));
        s.end_execution(30);
        assert_eq!(s.length_estimate(), 30);
        s.end_execution(12);
        assert_eq!(s.length_estimate(), 30);
        assert!(s.begin_execution());
        assert!(s.change_points.iter().all(|&p| (1..30).contains(&p)));
    }

    #[test]
    fn execution_seed_reproduces_that_execution() {
        let mut s = PctScheduler::new(8, 3);
        let runs = simulate(&mut s, &BUDGETS, 3);
        // Execution 2 began with the estimate left by executions 0 and 1.
        let again = simulate(&mut PctScheduler::new(s.execution_seed(), 3).with_length_estimate(36), &BUDGETS, 1);
        assert_eq!(again[0], runs[2]);
    }
}
