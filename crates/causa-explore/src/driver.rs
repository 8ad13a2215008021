//! Driving executions: one run, a testing loop over many runs, and replay.
//!
//! Schedules saved here contain the thread of every visible step plus the
//! program inputs, so a replay reproduces the execution exactly.

use crate::strategies::ReplayScheduler;
use causa_core::{Schedule, ScheduleError, Scheduler};
use causa_interp::memory::short_file;
use causa_interp::{Config, Execution, Machine, Outcome, Prepared};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Run one execution of `prep` under `sched`.
pub fn run_once(prep: &Arc<Prepared>, cfg: &Arc<Config>, sched: &mut dyn Scheduler) -> Execution {
    Machine::new(prep.clone(), cfg.clone()).run(sched)
}

/// The first execution under random schedules (seeds `0..seeds`) for which
/// `wanted` holds (tests and examples that need a counterexample to work on).
pub fn first_random_run(
    prep: &Arc<Prepared>,
    cfg: &Arc<Config>,
    seeds: u64,
    wanted: impl Fn(&Execution) -> bool,
) -> Option<Execution> {
    (0..seeds).find_map(|seed| {
        let mut s = crate::RandomScheduler::new(seed);
        s.begin_execution();
        Some(run_once(prep, cfg, &mut s)).filter(|ex| wanted(ex))
    })
}

/// Statistics of a testing loop.
#[derive(Clone, Debug, Default)]
pub struct TestStats {
    pub executions: usize,
    pub infeasible: usize,
    pub bounded: usize,
    /// Why the first execution a bound stopped was stopped.
    pub first_bound: Option<String>,
    pub instructions: u64,
    pub events: u64,
    pub elapsed: Duration,
}

impl TestStats {
    pub fn executions_per_second(&self) -> f64 {
        self.executions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Result of a testing loop: the first execution that found a bug or failed, if any.
pub struct TestResult {
    pub stats: TestStats,
    /// The execution that stopped the loop (bug or tool error), with its 0-based
    /// index. For a bug it is the replay of the saved schedule (with readable
    /// records) when that replay reproduced the same bug.
    pub stopped_by: Option<(usize, Execution)>,
    /// A bug's schedule was replayed and gave the same bug at the same step.
    pub replay_confirmed: bool,
}

/// Run up to `iterations` executions, stopping at the first bug or tool error.
/// `progress` is called after every execution with the stats so far.
pub fn test(
    prep: &Arc<Prepared>,
    cfg: &Arc<Config>,
    sched: &mut dyn Scheduler,
    iterations: usize,
    progress: &mut dyn FnMut(&TestStats),
) -> TestResult {
    let start = Instant::now();
    let mut stats = TestStats::default();
    let fast = Arc::new(Config { keep_records: false, ..(**cfg).clone() });
    for i in 0..iterations {
        if !sched.begin_execution() {
            break;
        }
        // Program inputs not given explicitly vary from execution to execution
        // (seeded); the saved schedule records the ones used.
        let mut machine = Machine::new(prep.clone(), fast.clone());
        if !sched.needs_fixed_inputs() {
            machine.reseed_inputs(cfg.input_seed.wrapping_add(i as u64));
        }
        let ex = machine.run(sched);
        stats.executions += 1;
        stats.instructions += ex.instructions;
        stats.events += ex.events.len() as u64;
        stats.elapsed = start.elapsed();
        match &ex.outcome {
            Outcome::Bug(f) => {
                progress(&stats);
                let again = replay(prep, cfg, &schedule_of(prep, &ex));
                let confirmed = again.outcome.finding().is_some_and(|g| g.same_as(f));
                let ex = if confirmed { again } else { ex };
                return TestResult { stats, stopped_by: Some((i, ex)), replay_confirmed: confirmed };
            }
            Outcome::Error(_) => {
                progress(&stats);
                return TestResult { stats, stopped_by: Some((i, ex)), replay_confirmed: false };
            }
            Outcome::Infeasible(_) => stats.infeasible += 1,
            Outcome::BoundReached(b) => {
                stats.bounded += 1;
                stats.first_bound.get_or_insert_with(|| b.clone());
            }
            Outcome::Exit(_) => {}
        }
        progress(&stats);
    }
    stats.elapsed = start.elapsed();
    TestResult { stats, stopped_by: None, replay_confirmed: false }
}

/// The schedule of an execution, with a readable comment per step.
pub fn schedule_of(prep: &Prepared, ex: &Execution) -> Schedule {
    let mut comments = Vec::with_capacity(ex.steps.len());
    for (i, _) in ex.steps.iter().enumerate() {
        let c = match ex.records.get(i) {
            Some(r) => {
                let at =
                    r.location.as_ref().map(|l| format!("  {}:{}", short_file(&l.file), l.line)).unwrap_or_default();
                format!("{}{at}", r.describe())
            }
            None if i + 1 == ex.steps.len() => match ex.outcome.finding() {
                Some(f) => format!("fails: {}", f.kind),
                None => String::new(),
            },
            None => String::new(),
        };
        comments.push(c);
    }
    Schedule {
        program: prep.program.inputs.join(" "),
        fingerprint: prep.program.fingerprint.clone(),
        memory_model: ex.memory_model,
        inputs: ex.inputs.clone(),
        steps: ex.schedule_steps(),
        flushes: ex.flushes.clone(),
        comments,
    }
}

/// Replay a schedule exactly (the schedule's inputs are used as program inputs,
/// unless `cfg` gives inputs of its own). The replay must use every step: an
/// execution that ends before the schedule does is a divergence, like a step
/// whose thread is not enabled.
pub fn replay(prep: &Arc<Prepared>, cfg: &Config, schedule: &Schedule) -> Execution {
    let mut cfg = cfg.clone();
    if cfg.inputs.is_empty() {
        cfg.inputs = schedule.inputs.clone();
    }
    cfg.memory_model = schedule.memory_model;
    let cfg = Arc::new(cfg);
    let mut sched = ReplayScheduler::new(schedule.steps.clone()).with_flushes(schedule.flushes.clone());
    sched.begin_execution();
    let mut ex = run_once(prep, &cfg, &mut sched);
    if !sched.is_exhausted() && !matches!(ex.outcome, Outcome::Error(_)) {
        let step = ex.steps.len();
        let reason = format!(
            "the execution ended after {step} steps ({}) but the schedule has {}",
            match &ex.outcome {
                Outcome::Bug(f) => format!("bug: {}", f.kind),
                Outcome::Exit(c) => format!("exit code {c}"),
                Outcome::Infeasible(_) => "infeasible".to_string(),
                Outcome::BoundReached(b) => b.clone(),
                Outcome::Error(_) => unreachable!("excluded above"),
            },
            schedule.steps.len()
        );
        ex.outcome = Outcome::Error(causa_interp::InterpError::Schedule(ScheduleError::Diverged { step, reason }));
    }
    ex
}
