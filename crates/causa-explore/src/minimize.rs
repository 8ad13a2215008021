//! Fewer preemptions for a counterexample.
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
//!   non-preemptive `first` strategy continue. Each try is one execution.

use crate::mcr::Prefix;
use causa_constraints::{Encoder, Formula, OrderSolver, SolveResult, Z3Solver};
use causa_core::{BugKind, Choice, Finding, PickContext, ScheduleError, Scheduler, Tid};
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
    let mut tries = 0;
    'improve: while tries < budget {
        let steps = Prefix::of(&best);
        for &p in &points {
            if tries >= budget {
                break 'improve;
            }
            tries += 1;
            let (trial, trial_points) = run(prep, &cfg, &steps.truncated(p));
            if trial.outcome.finding().is_some_and(|f| same_bug(f, &bug)) && trial_points.len() < points.len() {
                best = trial;
                points = trial_points;
                continue 'improve;
            }
        }
        break;
    }
    let n = points.len();
    (best, n)
}

/// Traces longer than this are not given to the solver (the preemption count
/// is quadratic in the trace length).
pub const SOLVER_MAX_EVENTS: usize = 600;

/// Conflict budget of each query of the solver-bounded reduction: a
/// deterministic limit (a time limit made the shown counterexample depend on
/// the machine's load: a test's query gave up under a loaded debug build,
/// and its 1-preemption counterexample kept 47).
const QUERY_CONFLICTS: u32 = 20_000;

/// Z3's resource budget of each such query (also deterministic): on a long
/// trace one conflict costs much more, and 20,000 of them ran for minutes
/// (bench/programs/bank_long.c at WORK=40, 494 events: over 5 minutes in
/// its first query; 3.5 s with this budget). 10 M units left racey (seed 1)
/// at 3 preemptions instead of 0 and bbuf (seed 0) at 16 instead of 10.
const QUERY_RESOURCES: u32 = 14_000_000;

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
