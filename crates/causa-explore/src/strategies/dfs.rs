//! The `dfs` strategy: every interleaving, by depth-first backtracking.

use super::{nothing_enabled, FirstScheduler};
use causa_core::{Choice, PickContext, ScheduleError, Scheduler, ThreadName, Tid};
use std::fmt;

/// One step of the current execution: the threads that were enabled there, in the
/// order they are tried, and which of them the current execution takes.
#[derive(Clone, Debug)]
struct ChoicePoint {
    /// Enabled threads, then flushable stores (TSO/PSO); `alternatives[0]` is
    /// the non-preemptive choice.
    alternatives: Vec<Alt>,
    /// Index into `alternatives` of the thread this execution runs.
    chosen: usize,
    /// The thread of the previous step could go on here: every alternative
    /// but 0 preempts it.
    preemptive: bool,
    /// Preemptions the path takes before this point.
    preempted: usize,
}

impl ChoicePoint {
    /// Preemptions up to and including this point's choice.
    fn preemptions(&self) -> usize {
        self.preempted + usize::from(self.preemptive && self.chosen > 0)
    }

    /// Whether alternative `i` stays within `bound` preemptions.
    fn allows(&self, i: usize, bound: usize) -> bool {
        i == 0 || !self.preemptive || self.preempted < bound
    }
}

/// One alternative at a choice point, by thread name: the thread's next
/// operation, or the flush of its oldest buffered store to an address.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Alt {
    thread: ThreadName,
    flush: Option<u64>,
}

impl fmt::Display for Alt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.flush {
            Some(a) => write!(f, "{} flush {a:#x}", self.thread),
            None => write!(f, "{}", self.thread),
        }
    }
}

/// Naive exhaustive enumeration of all interleavings: at every visible step, every
/// enabled thread is tried, by depth-first backtracking over the tree of choices.
///
/// No reduction of any kind, so the number of executions grows exponentially; it is
/// meant as a test oracle on small programs (for reduced explorers such as MCR, which
/// must reach the same set of outcomes).
///
/// The strategy keeps the path of the current execution, one choice point per
/// visible step. `begin_execution` backtracks: it drops the exhausted choice points at
/// the end of the path, moves the deepest remaining one to its next alternative and
/// keeps the path up to it; it returns `false` once the whole tree has been explored.
/// `pick_thread` replays the retained path, then extends it taking alternative 0 at
/// each new step. Alternative 0 is what [`FirstScheduler`] picks (the current thread
/// if it is still enabled, the next thread after one that yielded, else the lowest
/// `Tid`), the others follow ascending by `Tid`; so the first execution is the
/// `first` strategy's one.
///
/// Threads are identified by their [`ThreadName`], never by `Tid`. The program must be
/// deterministic under its schedule: if replaying the path reaches a step whose
/// enabled threads differ from those recorded, `pick_thread` reports
/// [`ScheduleError::Diverged`]. A replay that ends before the end of the path cannot
/// be reported by `end_execution`; it is kept in [`DfsScheduler::divergence`] too.
/// After a divergence the exploration goes on but is no longer exhaustive.
///
/// [`DfsScheduler::with_preemption_bound`] limits the exploration to the
/// schedules with at most that many preemptions (iterative context bounding,
/// as CHESS does): an alternative other than 0 at a step where the previous
/// step's thread could go on is a preemption.
#[derive(Clone, Debug, Default)]
pub struct DfsScheduler {
    path: Vec<ChoicePoint>,
    /// At most this many preemptions per execution (`None`: no bound).
    bound: Option<usize>,
    /// The bound left out some alternative.
    bounded: bool,
    /// With [`DfsScheduler::with_state_cache`]: the states reached so far
    /// (digest and scheduling situation) with the fewest preemptions they
    /// were reached with.
    seen: Option<causa_core::collections::HashMap<u64, usize>>,
    /// Length of the path retained by the last `begin_execution` (steps to replay).
    replay_len: usize,
    started: usize,
    complete: bool,
    divergence: Option<ScheduleError>,
}

impl DfsScheduler {
    /// A fresh exhaustive exploration.
    pub fn new() -> Self {
        DfsScheduler::default()
    }

    /// Every interleaving with at most `bound` preemptions.
    pub fn with_preemption_bound(bound: usize) -> Self {
        DfsScheduler { bound: Some(bound), ..DfsScheduler::default() }
    }

    /// Merge equal states: at a new step whose state (the machine's digest,
    /// [`PickContext::state`], with the enabled threads, the current one and
    /// the flushable stores) was reached before with at most as many
    /// preemptions, the execution is cut ([`ScheduleError::Pruned`]): every
    /// continuation from there was, or is being, explored from the earlier
    /// visit, with at least as large a preemption budget.
    pub fn with_state_cache(mut self) -> Self {
        self.seen = Some(Default::default());
        self
    }

    /// Preemptions of the current execution (so far).
    pub fn preemptions(&self) -> usize {
        self.path.last().map_or(0, ChoicePoint::preemptions)
    }

    /// The first step at which the current execution may differ from the
    /// previous one: the steps before it repeat the previous execution's
    /// choices, so a machine saved there by the previous execution can be
    /// resumed instead of running them again.
    pub fn resume_step(&self) -> usize {
        self.replay_len.saturating_sub(1)
    }

    /// Whether the preemption bound left out some schedule so far.
    pub fn was_bounded(&self) -> bool {
        self.bounded
    }

    /// Number of executions begun so far (`begin_execution` calls that returned `true`).
    pub fn executions_started(&self) -> usize {
        self.started
    }

    /// Whether every interleaving has been explored (`begin_execution` returned `false`).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The first divergence seen: a replayed step whose enabled threads differed from
    /// the recorded ones, or an execution that ended before the end of the replayed
    /// path. When set, the exploration is not exhaustive.
    pub fn divergence(&self) -> Option<&ScheduleError> {
        self.divergence.as_ref()
    }

    fn diverged(&mut self, step: usize, reason: String) -> ScheduleError {
        let err = ScheduleError::Diverged { step, reason };
        if self.divergence.is_none() {
            self.divergence = Some(err.clone());
        }
        err
    }
}

/// The choices of `ctx` in the order they are tried: the `first` strategy's
/// pick, then the other enabled threads ascending by `Tid`, then the flushes.
fn alternatives(ctx: &PickContext<'_>) -> Result<Vec<Choice>, ScheduleError> {
    let mut alts = Vec::with_capacity(ctx.enabled.len() + ctx.flushes.len());
    if !ctx.enabled.is_empty() {
        let first = FirstScheduler::new().pick_thread(ctx)?;
        alts.push(Choice::Run(first));
        alts.extend(ctx.enabled.iter().copied().filter(|&t| t != first).map(Choice::Run));
    }
    alts.extend(ctx.flushes.iter().map(|&(thread, addr)| Choice::Flush { thread, addr }));
    Ok(alts)
}

fn alt(ctx: &PickContext<'_>, c: Choice) -> Alt {
    let flush = match c {
        Choice::Run(_) => None,
        Choice::Flush { addr, .. } => Some(addr),
    };
    Alt { thread: ctx.name(c.thread()).clone(), flush }
}

/// The machine's state digest with what the scheduler sees of the step.
fn situation(state: u64, ctx: &PickContext<'_>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    state.hash(&mut h);
    for &t in ctx.enabled {
        ctx.name(t).hash(&mut h);
    }
    ctx.current.map(|t| ctx.name(t)).hash(&mut h);
    ctx.yielded.map(|t| ctx.name(t)).hash(&mut h);
    for &(t, a) in ctx.flushes {
        (ctx.name(t), a).hash(&mut h);
    }
    h.finish()
}

fn sorted(alts: &[Alt]) -> Vec<&Alt> {
    let mut v: Vec<&Alt> = alts.iter().collect();
    v.sort();
    v
}

fn list(names: &[&Alt]) -> String {
    let v: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    format!("{{{}}}", v.join(", "))
}

impl Scheduler for DfsScheduler {
    fn name(&self) -> &'static str {
        "dfs"
    }

    fn needs_fixed_inputs(&self) -> bool {
        true
    }

    fn begin_execution(&mut self) -> bool {
        if self.complete {
            return false;
        }
        if self.started == 0 {
            self.path.clear();
            self.replay_len = 0;
            self.started = 1;
            return true;
        }
        let bound = self.bound.unwrap_or(usize::MAX);
        while let Some(last) = self.path.last_mut() {
            if last.chosen + 1 < last.alternatives.len() {
                if last.allows(last.chosen + 1, bound) {
                    last.chosen += 1;
                    self.replay_len = self.path.len();
                    self.started += 1;
                    return true;
                }
                self.bounded = true;
            }
            self.path.pop();
        }
        self.replay_len = 0;
        self.complete = true;
        false
    }

    fn pick_thread(&mut self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError> {
        match self.pick(ctx)? {
            Choice::Run(t) => Ok(t),
            Choice::Flush { thread, .. } => {
                let reason = format!("the exploration path flushes a store of thread {} here", ctx.name(thread));
                Err(self.diverged(ctx.step, reason))
            }
        }
    }

    fn pick(&mut self, ctx: &PickContext<'_>) -> Result<Choice, ScheduleError> {
        if ctx.enabled.is_empty() && ctx.flushes.is_empty() {
            return Err(nothing_enabled(ctx));
        }
        let step = ctx.step;
        let alts = alternatives(ctx)?;
        if step > self.path.len() {
            let reason =
                format!("step {step} comes after the {} steps chosen so far in this execution", self.path.len());
            return Err(self.diverged(step, reason));
        }
        if step == self.path.len() {
            // A new choice point: take alternative 0.
            let alternatives = alts.iter().map(|&c| alt(ctx, c)).collect();
            let preempted = self.path.last().map_or(0, ChoicePoint::preemptions);
            if let (Some(seen), Some(state)) = (self.seen.as_mut(), ctx.state) {
                let key = situation(state, ctx);
                match seen.get(&key) {
                    Some(&p) if p <= preempted => {
                        let reason = "this state was explored before with as few preemptions".to_string();
                        return Err(ScheduleError::Pruned { step, reason });
                    }
                    _ => {
                        seen.insert(key, preempted);
                    }
                }
            }
            let preemptive = ctx.current.is_some();
            self.path.push(ChoicePoint { alternatives, chosen: 0, preemptive, preempted });
            return Ok(alts[0]);
        }
        // Replaying the retained path.
        let names: Vec<Alt> = alts.iter().map(|&c| alt(ctx, c)).collect();
        let point = &self.path[step];
        let (now, then) = (sorted(&names), sorted(&point.alternatives));
        if now != then {
            let reason = format!(
                "replaying the exploration path, the enabled threads are {} but were {} \
                 when this step was first reached: the program is not deterministic under \
                 its schedule",
                list(&now),
                list(&then)
            );
            return Err(self.diverged(step, reason));
        }
        let want = &point.alternatives[point.chosen];
        match alts.iter().copied().find(|&c| &alt(ctx, c) == want) {
            Some(c) => Ok(c),
            // Unreachable when the sets are equal; kept as an error, not a panic.
            None => {
                let reason = format!("choice {want} is not available");
                Err(self.diverged(step, reason))
            }
        }
    }

    fn end_execution(&mut self, steps: usize) {
        if steps < self.replay_len {
            let reason = format!(
                "the execution ended after {steps} steps, before the {} steps of the \
                 exploration path it replays: the program is not deterministic under its \
                 schedule",
                self.replay_len
            );
            self.diverged(steps, reason);
        }
        // Choice points the execution did not get to (after an error) were not taken.
        self.path.truncate(steps);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::testutil::{ctx, names, preemptions, simulate};
    use std::collections::BTreeSet;

    /// A simulated program: logical thread `t` takes `budgets[t]` steps and may take
    /// its next one when `enabled(t, done)` holds, `done[u]` being the steps taken so
    /// far by each thread. `stop(trace)` ends the execution early (a bug).
    struct Program<'a> {
        budgets: &'a [usize],
        enabled: &'a dyn Fn(usize, &[usize]) -> bool,
        stop: &'a dyn Fn(&[usize]) -> bool,
        /// Renumber the threads in every other execution, so `Tid`s differ between
        /// executions while names stay.
        shuffle_tids: bool,
    }

    impl Program<'_> {
        fn new(budgets: &[usize]) -> Program<'_> {
            Program { budgets, enabled: &|_, _| true, stop: &|_| false, shuffle_tids: false }
        }

        /// One execution; returns the logical threads picked.
        fn run(&self, s: &mut DfsScheduler) -> Vec<usize> {
            let n = self.budgets.len();
            let logical_names = names(n as u32);
            // tid_of[logical]; reversed in odd executions when shuffling.
            let tid_of: Vec<Tid> = if self.shuffle_tids && s.executions_started() % 2 == 0 {
                (0..n as Tid).rev().collect()
            } else {
                (0..n as Tid).collect()
            };
            let mut names_by_tid = logical_names.clone();
            for (l, &t) in tid_of.iter().enumerate() {
                names_by_tid[t as usize] = logical_names[l].clone();
            }
            let logical_of = |t: Tid| tid_of.iter().position(|&x| x == t).unwrap();
            let mut done = vec![0; n];
            let mut trace: Vec<usize> = Vec::new();
            let mut current: Option<Tid> = None;
            loop {
                let mut enabled: Vec<Tid> = (0..n)
                    .filter(|&l| done[l] < self.budgets[l] && (self.enabled)(l, &done))
                    .map(|l| tid_of[l])
                    .collect();
                enabled.sort();
                if enabled.is_empty() {
                    break;
                }
                let cur = current.filter(|t| enabled.contains(t));
                let t = s.pick_thread(&ctx(trace.len(), &enabled, cur, &names_by_tid)).unwrap();
                assert!(enabled.contains(&t), "picked {t}, not in {enabled:?}");
                let l = logical_of(t);
                done[l] += 1;
                trace.push(l);
                current = Some(t);
                if (self.stop)(&trace) {
                    break;
                }
            }
            s.end_execution(trace.len());
            trace
        }

        /// Every execution until the strategy says the tree is explored.
        fn explore(&self, s: &mut DfsScheduler) -> Vec<Vec<usize>> {
            let mut runs = Vec::new();
            while s.begin_execution() {
                runs.push(self.run(s));
                assert!(runs.len() < 10_000, "exploration does not end");
            }
            assert!(s.is_complete());
            assert_eq!(s.executions_started(), runs.len());
            assert_eq!(s.divergence(), None);
            runs
        }
    }

    fn distinct(runs: &[Vec<usize>]) -> BTreeSet<Vec<usize>> {
        let set: BTreeSet<Vec<usize>> = runs.iter().cloned().collect();
        assert_eq!(set.len(), runs.len(), "some schedule was run twice: {runs:?}");
        set
    }

    #[test]
    fn two_threads_of_two_steps_have_six_interleavings() {
        let mut s = DfsScheduler::new();
        assert_eq!(s.name(), "dfs");
        let runs = Program::new(&[2, 2]).explore(&mut s);
        assert_eq!(runs.len(), 6);
        let set = distinct(&runs);
        for r in &set {
            assert_eq!(r.iter().filter(|&&t| t == 0).count(), 2);
            assert_eq!(r.iter().filter(|&&t| t == 1).count(), 2);
        }
        // Depth-first, the deepest choice point first, and at each choice point
        // alternative 0 (no preemption) first.
        let order = vec![
            vec![0, 0, 1, 1],
            vec![0, 1, 1, 0],
            vec![0, 1, 0, 1],
            vec![1, 1, 0, 0],
            vec![1, 0, 0, 1],
            vec![1, 0, 1, 0],
        ];
        assert_eq!(runs, order);
        assert!(!s.begin_execution(), "stays complete");
        assert_eq!(s.executions_started(), 6);
    }

    #[test]
    fn a_preemption_bound_keeps_exactly_the_schedules_within_it() {
        let budgets = [2, 2, 1];
        let all = distinct(&Program::new(&budgets).explore(&mut DfsScheduler::new()));
        let count = |t: &Vec<usize>| {
            let picks: Vec<Tid> = t.iter().map(|&l| l as Tid).collect();
            preemptions(&picks, &budgets)
        };
        let mut sizes = Vec::new();
        for bound in 0..4 {
            let runs = distinct(&Program::new(&budgets).explore(&mut DfsScheduler::with_preemption_bound(bound)));
            let want: BTreeSet<Vec<usize>> = all.iter().filter(|t| count(t) <= bound).cloned().collect();
            assert_eq!(runs, want, "bound {bound}");
            sizes.push(runs.len());
        }
        // Without preemptions only the orders of whole threads: 3! = 6.
        assert_eq!(sizes[0], 6);
        assert!(sizes[0] < sizes[1] && sizes[1] < sizes[2], "{sizes:?}");
        assert_eq!(*sizes.last().unwrap(), all.len());
    }

    #[test]
    fn three_threads_of_one_step_have_six_interleavings() {
        let runs = Program::new(&[1, 1, 1]).explore(&mut DfsScheduler::new());
        assert_eq!(runs.len(), 6);
        let set = distinct(&runs);
        let mut all = Vec::new();
        for a in 0..3 {
            for b in 0..3 {
                for c in 0..3 {
                    if a != b && b != c && a != c {
                        all.push(vec![a, b, c]);
                    }
                }
            }
        }
        assert_eq!(set, all.into_iter().collect());
    }

    #[test]
    fn counts_are_multinomial() {
        // (2+1+2)! / (2! 1! 2!) = 30 and (3+3)! / (3! 3!) = 20.
        let runs = Program::new(&[2, 1, 2]).explore(&mut DfsScheduler::new());
        assert_eq!(distinct(&runs).len(), 30);
        let runs = Program::new(&[3, 3]).explore(&mut DfsScheduler::new());
        assert_eq!(distinct(&runs).len(), 20);
        let runs = Program::new(&[4]).explore(&mut DfsScheduler::new());
        assert_eq!(runs, vec![vec![0, 0, 0, 0]]);
    }

    #[test]
    fn first_execution_is_the_first_strategy() {
        let budgets = [3, 2, 4];
        let first = simulate(&mut FirstScheduler::new(), &budgets, 1);
        let dfs = simulate(&mut DfsScheduler::new(), &budgets, 1);
        assert_eq!(dfs, first);
        assert_eq!(preemptions(&dfs[0], &budgets), 0);
    }

    #[test]
    fn a_yield_is_followed_as_in_the_first_strategy() {
        let names = names(3);
        let mut s = DfsScheduler::new();
        assert!(s.begin_execution());
        let mut c = ctx(0, &[0, 1, 2], None, &names);
        c.yielded = Some(1);
        assert_eq!(s.pick_thread(&c), Ok(2));
        s.end_execution(1);
        // Then the others, ascending.
        assert!(s.begin_execution());
        assert_eq!(s.pick_thread(&c), Ok(0));
        s.end_execution(1);
        assert!(s.begin_execution());
        assert_eq!(s.pick_thread(&c), Ok(1));
        s.end_execution(1);
        assert!(!s.begin_execution());
    }

    #[test]
    fn threads_enabled_only_later_are_handled() {
        // Thread 0: creates thread 1, does one step, then joins thread 1 (enabled only
        // once thread 1 took both its steps). Thread 1 exists after thread 0's first.
        let p = Program {
            enabled: &|t, done| match t {
                0 => done[0] < 2 || done[1] == 2,
                _ => done[0] >= 1,
            },
            ..Program::new(&[3, 2])
        };
        let runs = p.explore(&mut DfsScheduler::new());
        let want: BTreeSet<Vec<usize>> =
            [vec![0, 0, 1, 1, 0], vec![0, 1, 0, 1, 0], vec![0, 1, 1, 0, 0]].into_iter().collect();
        assert_eq!(distinct(&runs), want);
    }

    #[test]
    fn threads_are_followed_by_name_when_tids_change() {
        let plain = Program::new(&[2, 1, 1]).explore(&mut DfsScheduler::new());
        let p = Program { shuffle_tids: true, ..Program::new(&[2, 1, 1]) };
        let shuffled = p.explore(&mut DfsScheduler::new());
        assert_eq!(shuffled.len(), 12);
        assert_eq!(distinct(&shuffled), distinct(&plain));
    }

    #[test]
    fn executions_that_stop_early_prune_their_subtree() {
        // A "bug" whenever thread 1 moves first ends that execution at once.
        let p = Program { stop: &|trace| trace == [1], ..Program::new(&[2, 2]) };
        let runs = p.explore(&mut DfsScheduler::new());
        let want: BTreeSet<Vec<usize>> =
            [vec![0, 0, 1, 1], vec![0, 1, 0, 1], vec![0, 1, 1, 0], vec![1]].into_iter().collect();
        assert_eq!(distinct(&runs), want);
    }

    #[test]
    fn a_different_enabled_set_on_replay_is_a_divergence() {
        let names = names(2);
        let mut s = DfsScheduler::new();
        assert!(s.begin_execution());
        assert_eq!(s.pick_thread(&ctx(0, &[0, 1], None, &names)), Ok(0));
        assert_eq!(s.pick_thread(&ctx(1, &[0, 1], Some(0), &names)), Ok(0));
        assert_eq!(s.pick_thread(&ctx(2, &[1], None, &names)), Ok(1));
        s.end_execution(3);
        // Backtracking retains steps 0 and 1 (now choosing thread 0.1 at step 1).
        assert!(s.begin_execution());
        assert_eq!(s.pick_thread(&ctx(0, &[0, 1], None, &names)), Ok(0));
        let err = s.pick_thread(&ctx(1, &[1], None, &names)).expect_err("thread 0 vanished from the enabled set");
        let ScheduleError::Diverged { step, reason } = &err else {
            panic!("not a divergence: {err:?}");
        };
        assert_eq!(*step, 1);
        assert!(reason.contains("are {0.1} but were {0, 0.1}"), "{reason}");
        assert!(reason.contains("not deterministic"), "{reason}");
        assert_eq!(s.divergence(), Some(&err));
    }

    #[test]
    fn ending_before_the_replayed_path_is_a_divergence() {
        let names = names(2);
        let mut s = DfsScheduler::new();
        assert!(s.begin_execution());
        for (i, cur) in [None, Some(0)].into_iter().enumerate() {
            assert_eq!(s.pick_thread(&ctx(i, &[0, 1], cur, &names)), Ok(0));
        }
        s.end_execution(2);
        assert!(s.begin_execution());
        assert_eq!(s.pick_thread(&ctx(0, &[0, 1], None, &names)), Ok(0));
        assert_eq!(s.divergence(), None);
        s.end_execution(1);
        let Some(ScheduleError::Diverged { step: 1, reason }) = s.divergence() else {
            panic!("no divergence: {:?}", s.divergence());
        };
        assert!(reason.contains("ended after 1 steps"), "{reason}");
    }

    #[test]
    fn skipped_steps_and_empty_enabled_sets_are_errors() {
        let names = names(2);
        let mut s = DfsScheduler::new();
        assert!(s.begin_execution());
        let err = s.pick_thread(&ctx(0, &[], None, &names)).unwrap_err();
        assert!(matches!(err, ScheduleError::Diverged { step: 0, .. }));
        let err = s.pick_thread(&ctx(3, &[0], None, &names)).unwrap_err();
        assert!(matches!(err, ScheduleError::Diverged { step: 3, .. }));
    }

    #[test]
    fn a_program_without_steps_has_one_execution() {
        let mut s = DfsScheduler::new();
        assert!(!s.is_complete());
        assert!(s.begin_execution());
        s.end_execution(0);
        assert!(!s.begin_execution());
        assert!(s.is_complete());
        assert_eq!(s.executions_started(), 1);
    }
}
