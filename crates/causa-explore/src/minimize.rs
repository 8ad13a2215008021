//! Fewer preemptions, and fewer steps, for a counterexample.
//!
//! A bug schedule found by sampling or by the solver often switches threads more
//! than it needs to. Two reductions, each kept only if a real execution shows
//! the same bug (kind and location) with fewer preemptions:
//! - Solver-bounded (CLAP §6): on the bug's own trace, ask for a schedule that
//!   reaches the failing thread's last event along the same path with at most
//!   k = 0, 1, … preempted segments; the first answer is the fewest the model
//!   can count (it does not see why a thread stopped, so a switch at a blocked
//!   lock counts as a preemption). For a deadlock, ask instead for a cut at
//!   which the same threads are stuck at the same operations (the deadlock
//!   query on the trace plus the blocked operations, which the execution lists
//!   apart). Not for races (their bug is not one thread's step), nor for
//!   traces over [`SOLVER_MAX_EVENTS`] events.
//! - Greedy, cheap: at each preemption (a switch away from a thread that could
//!   have continued), try to stop following the schedule there and let the
//!   non-preemptive `first` strategy continue, or move the preempted thread's
//!   next steps to the switch, or the preempting thread's steps after them
//!   (Jalbert and Sen's trace simplification, each move checked by running
//!   it instead of by a dependence analysis). Each try is one execution.
//!
//! - Shorter, last: a long stretch of one thread's steps before a preemption
//!   (a loop's turns) is cut to the fewest that still show the same bug
//!   ([`shortened`]).
//!
//! The solver runs first, under one resource budget for all its queries, and
//! the edits go on from what it found. (Edits first, the solver then asking
//! only for fewer than they left, was as fast, but it changed the schedule
//! shown on 20 corpus programs rather than 9, and made some explanations
//! worse: ringbuf_count_unlocked_decrement's no longer named the lost
//! update.)

use crate::mcr::Prefix;
use causa_constraints::{Encoder, Formula, OrderSolver, SolveResult, Z3Solver};
use causa_core::{BugKind, Choice, Finding, PickContext, ScheduleError, Scheduler, ThreadName, Tid};
use causa_interp::{Config, Execution, Machine, Prepared};
use std::sync::Arc;

/// Decorator: records which steps were preemptions.
pub struct PreemptionRecorder<S> {
    inner: S,
    /// Step indices at which the chosen thread was not the one that could continue.
    pub preemptions: Vec<usize>,
}

impl<S: Scheduler> PreemptionRecorder<S> {
    pub fn new(inner: S) -> Self {
        PreemptionRecorder { inner, preemptions: Vec::new() }
    }
}

impl<S: Scheduler> Scheduler for PreemptionRecorder<S> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn begin_execution(&mut self) -> bool {
        self.preemptions.clear();
        self.inner.begin_execution()
    }
    fn pick_thread(&mut self, ctx: &PickContext<'_>) -> Result<Tid, ScheduleError> {
        let t = self.inner.pick_thread(ctx)?;
        if ctx.current.is_some_and(|c| c != t) {
            self.preemptions.push(ctx.step);
        }
        Ok(t)
    }
    fn pick(&mut self, ctx: &PickContext<'_>) -> Result<Choice, ScheduleError> {
        let c = self.inner.pick(ctx)?;
        if ctx.current.is_some_and(|cur| cur != c.thread()) {
            self.preemptions.push(ctx.step);
        }
        Ok(c)
    }
    fn end_execution(&mut self, steps: usize) {
        self.inner.end_execution(steps)
    }
}

/// Run `prefix`, then continue without preemptions; returns the execution and
/// its preemption points.
fn run(prep: &Arc<Prepared>, cfg: &Arc<Config>, prefix: &Prefix) -> (Execution, Vec<usize>) {
    let mut rec = PreemptionRecorder::new(prefix.scheduler());
    rec.begin_execution();
    let ex = Machine::new(prep.clone(), cfg.clone()).run(&mut rec);
    (ex, rec.preemptions)
}

fn same_bug(a: &Finding, b: &Finding) -> bool {
    // Which thread of a deadlock blocks last (and so where it is reported)
    // depends on the schedule.
    a.kind == b.kind && (a.location == b.location || a.kind == BugKind::Deadlock)
}

/// Reduce the preemptions of the bug shown by `ex` (run with `cfg`, whose inputs
/// must be the ones `ex` used). Returns the execution to report and its number
/// of preemptions; at most `budget` extra executions are run.
pub fn fewer_preemptions(prep: &Arc<Prepared>, cfg: &Config, ex: Execution, budget: usize) -> (Execution, usize) {
    let Some(bug) = ex.outcome.finding().cloned() else {
        let n = 0;
        return (ex, n);
    };
    let cfg = Arc::new(Config { inputs: ex.inputs.clone(), ..cfg.clone() });
    let (mut best, mut points) = run(prep, &cfg, &Prefix::of(&ex));
    if !best.outcome.finding().is_some_and(|f| same_bug(f, &bug)) {
        // Not reproducible by replay (should not happen): keep what we have.
        return (ex, 0);
    }
    if let Some((e, p)) = solved(prep, &cfg, &best, &bug, points.len()) {
        if p.len() < points.len() {
            (best, points) = (e, p);
        }
    }
    edited(prep, &cfg, &bug, (&mut best, &mut points), budget);
    shortened(prep, &cfg, &bug, (&mut best, &mut points), SHORTEN_BUDGET.min(budget));
    let n = points.len();
    (best, n)
}

/// The greedy reduction: at each preemption in turn, the edits of
/// [`edits`], each tried by one execution; the first that shows the same
/// bug with fewer preemptions is kept and the scan goes on from there (an
/// edit at step `p` leaves the steps before `p`, and so the preemptions
/// there, as they were). Passes are repeated while one improves, until
/// `budget` executions have run.
fn edited(
    prep: &Arc<Prepared>,
    cfg: &Arc<Config>,
    bug: &Finding,
    (best, points): (&mut Execution, &mut Vec<usize>),
    budget: usize,
) {
    let mut tries = 0;
    let mut improved = true;
    let mut steps = Prefix::of(best);
    while improved && tries < budget {
        improved = false;
        let mut i = 0;
        'points: while i < points.len() {
            let p = points[i];
            for edit in edits(&steps, p) {
                if tries >= budget {
                    return;
                }
                tries += 1;
                let (trial, trial_points) = run(prep, cfg, &edit);
                if trial.outcome.finding().is_some_and(|f| same_bug(f, bug)) && trial_points.len() < points.len() {
                    *best = trial;
                    *points = trial_points;
                    steps = Prefix::of(best);
                    improved = true;
                    i = points.partition_point(|q| *q < p);
                    continue 'points;
                }
            }
            i += 1;
        }
    }
}

/// Schedules without the preemption at step `p` of `steps`: stop following
/// `steps` there and go on without preemptions; or let the preempted
/// thread run its next stretch of steps at `p` (the steps between come
/// after it); or let the preempting thread's stretch come after that
/// stretch instead (as in Jalbert and Sen's trace simplification, each
/// move checked by running it rather than by a dependence analysis). The
/// moves keep every step's thread, so not under a relaxed memory model,
/// whose flushes are numbered by step.
fn edits(steps: &Prefix, p: usize) -> Vec<Prefix> {
    let mut out = vec![steps.truncated(p)];
    let s = &steps.steps;
    if !steps.flushes.is_empty() || p == 0 || p >= s.len() {
        return out;
    }
    let Some(q) = (p..s.len()).find(|&i| s[i] == s[p - 1]) else {
        return out;
    };
    let r = stretch_end(s, q);
    out.push(rearranged(s, [0..p, q..r, p..q, r..s.len()]));
    let e = stretch_end(s, p);
    if e < q {
        out.push(rearranged(s, [0..p, e..r, p..e, r..s.len()]));
    }
    out
}

/// The end of the stretch of steps of one thread that starts at `from`.
fn stretch_end(s: &[ThreadName], from: usize) -> usize {
    (from..s.len()).find(|&i| s[i] != s[from]).unwrap_or(s.len())
}

/// The schedule of the steps of `s` in the ranges `parts`, in that order
/// (not under a relaxed model: it keeps no flushes).
fn rearranged(s: &[ThreadName], parts: [std::ops::Range<usize>; 4]) -> Prefix {
    Prefix { steps: parts.into_iter().flat_map(|x| s[x].iter().cloned()).collect(), flushes: Default::default() }
}

/// A preempted thread's stretch of steps longer than this is shortened
/// ([`shortened`]). Shorter ones are left as they are: the few steps are
/// quick to read, and moving them changed what many shown counterexamples
/// look like for no gain.
pub const LONG_STRETCH: usize = 64;

/// How many executions the shortening may run (each of them stops at the
/// bug, early in the schedule when a try works).
const SHORTEN_BUDGET: usize = 64;

/// Shorter counterexamples. A thread that runs a long stretch of steps
/// before it is preempted (a loop's turns: a worker incrementing a counter
/// until a stop flag is set ran 2,618 turns, 10,474 steps, in a random
/// probe's counterexample) shows a run whose length says nothing about the
/// bug, and costs the explanation its time. At each such preemption the
/// preempting thread's stretch is moved to after the first `k` steps of
/// the preempted one, for the smallest `k` of 1…16, 32, 64 … whose
/// execution shows the same bug in fewer steps with no more preemptions.
/// Each try is one execution.
fn shortened(
    prep: &Arc<Prepared>,
    cfg: &Arc<Config>,
    bug: &Finding,
    (best, points): (&mut Execution, &mut Vec<usize>),
    budget: usize,
) {
    let mut tries = 0;
    let mut i = 0;
    while i < points.len() && tries < budget {
        let steps = Prefix::of(best);
        let p = points[i];
        let Some((a, e)) = long_stretch(&steps, p) else {
            i += 1;
            continue;
        };
        let s = &steps.steps;
        let mut kept = None;
        for k in (1..=16).chain((5..).map(|b| 1usize << b)).take_while(|k| *k < p - a) {
            if tries >= budget {
                return;
            }
            tries += 1;
            let trial = rearranged(s, [0..a + k, p..e, a + k..p, e..s.len()]);
            let (ex, ex_points) = run(prep, cfg, &trial);
            if ex.outcome.finding().is_some_and(|f| same_bug(f, bug))
                && ex_points.len() <= points.len()
                && ex.steps.len() < best.steps.len()
            {
                kept = Some((ex, ex_points, a + k));
                break;
            }
        }
        match kept {
            Some((ex, ex_points, moved_to)) => {
                *best = ex;
                *points = ex_points;
                i = points.partition_point(|q| *q <= moved_to);
            }
            None => i += 1,
        }
    }
}

/// At the preemption at step `p` of `steps`: the start of the preempted
/// thread's stretch that ends there, when it is longer than
/// [`LONG_STRETCH`], and the end of the preempting thread's stretch (None
/// under a relaxed model, whose flushes are numbered by step).
fn long_stretch(steps: &Prefix, p: usize) -> Option<(usize, usize)> {
    let s = &steps.steps;
    if !steps.flushes.is_empty() || p == 0 || p >= s.len() {
        return None;
    }
    let a = (0..p).rev().take_while(|&j| s[j] == s[p - 1]).last().unwrap_or(p);
    (p - a > LONG_STRETCH).then_some((a, stretch_end(s, p)))
}

/// How many executions the greedy reduction may run ([`fewer_preemptions`]'s
/// `budget` in `causa check` and `causa test`): a random counterexample of
/// 1,460 steps had 247 preemptions, and each edit that is kept removes one
/// or two (a scan tries up to three edits at each).
pub const EDIT_BUDGET: usize = 1024;

/// Traces longer than this are not given to the solver (the preemption count
/// is quadratic in the trace length).
pub const SOLVER_MAX_EVENTS: usize = 600;

/// Nor traces whose preemption count needs more constraints than this (one
/// per pair of consecutive steps of a thread and step of another thread):
/// Z3 takes them in at about 20 µs each, and on the 205 fail/ programs no
/// trace above 10,425 of them had its preemptions reduced by the solver
/// (14,964, 20,625 and 24,674: none fewer, after 1.6–4.6 s). A probe's
/// counterexample of work_queue.c (552 events, 208,796 constraints) spent
/// 4.9 s there for nothing before the edits took it to 1 preemption.
pub const SOLVER_MAX_CONSTRAINTS: usize = 12_000;

/// Conflict budget of each query of the solver-bounded reduction: a
/// deterministic limit (a time limit made the shown counterexample depend on
/// the machine's load: a test's query gave up under a loaded debug build,
/// and its 1-preemption counterexample kept 47).
const QUERY_CONFLICTS: u32 = 20_000;

/// Z3's resource budget of each such query (also deterministic): on a long
/// trace one conflict costs much more, and 20,000 of them ran for minutes
/// (bench/programs/bank_long.c at WORK=40, 494 events: over 5 minutes in
/// its first query; 3.5 s with this budget).
const QUERY_RESOURCES: u32 = 14_000_000;

/// No query of the solver-bounded reduction is started once its queries
/// together have spent this many of Z3's resource units (about 1.5 s
/// here); the query running then keeps its own [`QUERY_RESOURCES`]. (Lowering
/// a query's budget to what is left resets Z3's parameters, which changes
/// the model it gives: the solver-only test in `mcr_oracle.rs` was then
/// shown with 3 or 47 preemptions instead of 1.) The queries ask for 0, 1, 2 … preemptions,
/// and the last ones, near the fewest, are the costly ones: with 14 M units
/// for each query and nothing for them all, hash_table_racy_count's three
/// queries took 23 s and found nothing (0 and 1 refuted, 2 out of budget)
/// after a search of 5 s, bbuf's nine 17 s. With the edits that follow,
/// no corpus program is shown with more preemptions than before; racey's
/// `causa test --seed 1` is, 1 instead of 0 (docs/performance.md). (Asking
/// from the counterexample's count down was tried: the first query, at
/// most one fewer than a random schedule's many, ran out of budget on
/// bbuf, racey and job_claim_race.)
const REDUCTION_RESOURCES: u64 = 3_000_000;

/// The solver-bounded reduction (see the module docs): the first schedule with
/// fewer than `below` preempted segments, if one reaches the same bug.
fn solved(
    prep: &Arc<Prepared>,
    cfg: &Arc<Config>,
    ex: &Execution,
    bug: &Finding,
    below: usize,
) -> Option<(Execution, Vec<usize>)> {
    if bug.kind == BugKind::DataRace {
        return None;
    }
    let deadlock = bug.kind == BugKind::Deadlock;
    let trace = crate::mcr::failure_trace(ex);
    if trace.len() > SOLVER_MAX_EVENTS || !trace.approximations.is_empty() {
        return None;
    }
    let mut enc = Encoder::new(&trace);
    if enc.preemption_constraints() > SOLVER_MAX_CONSTRAINTS {
        return None;
    }
    let base = enc.base();
    // A deadlock: a cut where the threads are stuck; else the failing
    // thread's last event (`target`).
    let (reach, target) = if deadlock {
        (enc.deadlock()?, None)
    } else {
        let tid = ex.names.iter().position(|n| *n == bug.thread)?;
        let target = (0..trace.len()).rev().find(|e| trace.events[*e].thread as usize == tid)?;
        let mut reach = enc.reach(target);
        // A destroyed or held lock: the order that makes the step fail.
        if bug.kind == BugKind::InvalidPthreadUse {
            if let Some(misuse) = enc.misuse_at(target) {
                reach.goal = Formula::and(vec![reach.goal, misuse]);
            }
        }
        (reach, Some(target))
    };
    let vars = enc.preemption_vars();
    let mut solver = Z3Solver::new();
    // A cheap reduction: a query that needs many conflicts gives up (the
    // counterexample keeps its preemptions).
    solver.set_conflict_budget(Some(QUERY_CONFLICTS));
    solver.set_resource_budget(Some(QUERY_RESOURCES));
    solver.reset(enc.variables(), &base, &enc.defs);
    for k in 0..below {
        if solver.resources_so_far() >= REDUCTION_RESOURCES {
            return None;
        }
        let goal = Formula::and(vec![reach.goal.clone(), Formula::AtMost(vars.clone(), k as u32)]);
        match solver.solve(&goal, &enc.defs) {
            SolveResult::Sat(pos) => {
                let values = solver.var_values(enc.num_vars());
                let events = match target {
                    // With the acquisition or destroy a misuse needs before it.
                    Some(t) => {
                        let before = enc.misuse_events(t).into_iter().filter(|x| pos[*x] < pos[t]);
                        let targets: Vec<usize> = std::iter::once(t).chain(before).collect();
                        enc.relevant_to(&targets, &pos, &values)
                    }
                    None => enc.before_cut(&pos),
                };
                let prefix = crate::mcr::prefix_of(ex, &trace, &events);
                let (found, points) = run(prep, cfg, &prefix);
                return found.outcome.finding().is_some_and(|f| same_bug(f, bug)).then_some((found, points));
            }
            SolveResult::Unsat => continue,
            SolveResult::Unknown => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use causa_core::ThreadName;

    fn prefix(threads: &str) -> Prefix {
        let name = |c: char| match c {
            'm' => ThreadName::main(),
            c => ThreadName::main().child(c.to_digit(10).expect("a digit")),
        };
        Prefix { steps: threads.chars().map(name).collect(), flushes: Default::default() }
    }

    fn shown(p: &Prefix) -> String {
        p.steps
            .iter()
            .map(|t| if *t == ThreadName::main() { 'm' } else { t.to_string().chars().last().unwrap_or('?') })
            .collect()
    }

    #[test]
    fn only_a_long_stretch_before_a_preemption_is_shortened() {
        let long = format!("m{}2m", "1".repeat(LONG_STRETCH + 1));
        // Thread 1's stretch starts at step 1; thread 2's is step p alone.
        let p = LONG_STRETCH + 2;
        assert_eq!(long_stretch(&prefix(&long), p), Some((1, p + 1)));
        let short = format!("m{}2m", "1".repeat(LONG_STRETCH));
        assert_eq!(long_stretch(&prefix(&short), LONG_STRETCH + 1), None);
        let mut relaxed = prefix(&long);
        relaxed.flushes.insert(3, 0x1000);
        assert_eq!(long_stretch(&relaxed, p), None);
    }

    #[test]
    fn edits_stop_there_or_move_a_stretch_of_steps() {
        // Thread 1 is preempted at step 1 by 2; 3 runs, then 1 again for two
        // steps.
        let s = prefix("m12311m");
        let e: Vec<String> = edits(&s, 2).iter().map(shown).collect();
        assert_eq!(e, vec!["m1", "m11123m", "m13112m"].into_iter().map(String::from).collect::<Vec<_>>());
        // When the preempting stretch reaches up to the preempted thread's
        // next one, the two moves are the same schedule: one is tried.
        let e: Vec<String> = edits(&prefix("m1221m"), 2).iter().map(shown).collect();
        assert_eq!(e, vec!["m1", "m1122m"].into_iter().map(String::from).collect::<Vec<_>>());
        // A thread that does not run again: only the stop.
        assert_eq!(edits(&prefix("m1222"), 2).len(), 1);
        // Under a relaxed model (flushes numbered by step): only the stop.
        let mut relaxed = prefix("m12311m");
        relaxed.flushes.insert(3, 0x1000);
        assert_eq!(edits(&relaxed, 2).len(), 1);
    }
}
