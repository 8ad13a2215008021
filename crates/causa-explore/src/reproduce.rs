//! From a path log to a confirmed schedule, two ways:
//! - the path-guided search ([`crate::guided`], CLAP §7's
//!   generate-and-validate): the interpreter's schedules by growing
//!   preemption bound, every thread held to its recorded path;
//! - the solver (CLAP §3–6): execute every thread symbolically along its
//!   recorded path, solve CLAP's constraints for an order of the shared access
//!   points that reaches the failure with few context switches, and run that
//!   order in the interpreter.
//!
//! [`Method::Auto`] searches first, within its budget, and hands over to the
//! solver when the search finds nothing. Either way the resulting schedule is
//! replayed exactly as `causa run --schedule` does and must show the same
//! failure at the same place. A schedule that does not reproduce is reported
//! as a bug in causa, never as a success.

use crate::guided::{described, search, SearchOptions, SearchStats, Target};
use crate::minimize::PreemptionRecorder;
use crate::{replay, run_once, schedule_of, ReplayScheduler};
use causa_core::paths::PathLog;
use causa_core::{Schedule, Scheduler, ThreadName};
use causa_interp::{Config, Execution, Outcome, Prepared};
use causa_symbolic::{ClapError, ClapOptions, Solution, SymError, SymOp};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a log was not turned into a confirmed schedule.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ReproduceError {
    #[error(
        "the path log was recorded from another build of the program (log fingerprint {log}, program {program}); \
         record it again with this build"
    )]
    Fingerprint { log: String, program: String },
    #[error("the path log records no failure: there is nothing to reproduce")]
    NoFailure,
    #[error("the recorded run was stopped by {0} while it ran; the solver needs to know which thread failed where, so only the path-guided search looks for the hang it was stopped in (drop `--method solver`)")]
    HangBySolver(String),
    #[error("the solver does not model failures of kind `{0}` in this version (assertion violations, abort, division by zero, memory errors, deadlocks and some invalid pthread use; the path-guided search reproduces every kind)")]
    Kind(causa_core::BugKind),
    #[error("{}", not_found(.search, .solver.as_deref()))]
    NotFound {
        search: SearchStats,
        /// Why the solver did not take over (`None`: not asked to).
        solver: Option<String>,
    },
    #[error("the path log was recorded under memory model {log}, not {asked}; drop --memory-model or record again")]
    ModelMismatch { log: causa_core::MemoryModel, asked: causa_core::MemoryModel },
    #[error("the solver does not reproduce a failure recorded under {0} in this version when a buffered store's address is computed from shared data (it does under TSO, and the path-guided search does under every model)")]
    Relaxed(causa_core::MemoryModel),
    #[error("symbolic execution along the recorded paths failed: {0}")]
    Symbolic(#[from] SymError),
    #[error("{0}")]
    Model(#[from] ClapError),
    #[error("this is a bug in causa: the computed schedule does not reproduce the recorded failure ({0})")]
    NotReproduced(String),
}

/// How `causa reproduce` looks for a schedule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// The path-guided search, then the solver if the search finds nothing.
    #[default]
    Auto,
    /// Only the path-guided search.
    Search,
    /// Only the solver.
    Solver,
}

/// Options of [`reproduce`].
#[derive(Clone, Debug, Default)]
pub struct ReproduceOptions {
    pub method: Method,
    pub search: SearchOptions,
    pub clap: ClapOptions,
}

/// A confirmed reproduction.
pub struct Reproduced {
    /// The replay of the saved schedule (it fails as the log says).
    pub execution: Execution,
    pub schedule: Schedule,
    /// The method that found the schedule ([`Method::Search`] or
    /// [`Method::Solver`]).
    pub found_by: Method,
    /// What the path-guided search did, if it ran.
    pub search: Option<SearchStats>,
    /// The solver's answer, if it found the schedule.
    pub solution: Option<Solution>,
    /// Preemptions of the replayed schedule (switches away from a thread that
    /// could have continued).
    pub preemptions: usize,
    /// No schedule with fewer preemptions reaches the failure (as the method
    /// that found it counts them).
    pub minimal: bool,
    /// Symbolic execution (zero when the solver did not run).
    pub symbolic_time: Duration,
    /// From reading the log to the confirmed replay.
    pub total_time: Duration,
}

/// The path log of `ex` (run with `Config::record_paths`) of the program
/// `prep`, named `program`, run with `argv`.
pub fn path_log(prep: &Prepared, ex: &Execution, program: &str, argv: Vec<String>) -> PathLog {
    PathLog {
        program: program.to_string(),
        fingerprint: prep.program.fingerprint.clone(),
        memory_model: ex.memory_model,
        argv,
        failure: ex.outcome.finding().cloned(),
        native_crash: None,
        failure_occurrence: deadlock_occurrence(prep, ex),
        interrupted: None,
        threads: ex.paths.clone(),
    }
}

/// For a deadlock: the blocking operations the failing thread completed at
/// the failure's source location ([`PathLog::failure_occurrence`]; barrier
/// waits are not counted, the first one reached is taken there).
fn deadlock_occurrence(prep: &Prepared, ex: &Execution) -> Option<u32> {
    use causa_core::EventKind as K;
    let f = ex.outcome.finding().filter(|f| f.kind == causa_core::BugKind::Deadlock)?;
    let t = ex.names.iter().position(|n| *n == f.thread)?;
    let at = f.location.as_ref()?;
    let n = ex
        .events
        .iter()
        .filter(|e| e.thread as usize == t && prep.program.loc(e.loc) == Some(at))
        .filter(|e| matches!(e.kind, K::Lock | K::ReadLock | K::WriteLock | K::SemWait | K::Join | K::WaitReturn))
        .count();
    Some(n as u32)
}

/// An order of the symbolic trace's events as replay steps: each event's
/// thread, and under TSO/PSO, at a buffered store's place, its flush (the
/// thread's oldest store under TSO: an address computed from shared data is
/// known only then). A store through a computed address under PSO has no
/// address to flush by: the memory model is returned as the error.
pub fn steps_of(
    sym: &causa_symbolic::SymTrace,
    order: &[causa_symbolic::EventRef],
    model: causa_core::MemoryModel,
) -> Result<(Vec<ThreadName>, BTreeMap<usize, u64>), causa_core::MemoryModel> {
    let steps = order.iter().map(|(t, _)| sym.threads[*t].thread.clone()).collect();
    let mut flushes = BTreeMap::new();
    if model.buffers_stores() {
        for (i, (t, k)) in order.iter().enumerate() {
            let e = &sym.threads[*t].events[*k];
            match e.op {
                SymOp::Write { at: Some(_), .. } if causa_symbolic::model::buffered(e) => {
                    if model != causa_core::MemoryModel::Tso {
                        return Err(model);
                    }
                    flushes.insert(i, crate::strategies::OLDEST_STORE);
                }
                SymOp::Write { addr, .. } if causa_symbolic::model::buffered(e) => {
                    flushes.insert(i, addr);
                }
                _ => {}
            }
        }
    }
    Ok((steps, flushes))
}

/// Reproduce the failure recorded in `log` (for the program `prep`; `cfg`
/// gives the run's limits, its inputs and arguments come from the log).
pub fn reproduce(
    prep: &Arc<Prepared>,
    cfg: &Config,
    log: &PathLog,
    opts: &ReproduceOptions,
) -> Result<Reproduced, ReproduceError> {
    // The same schedule whatever the thread solved before
    // (`causa_constraints::in_own_context`).
    causa_constraints::in_own_context(|| reproduce_here(prep, cfg, log, opts))
}

fn reproduce_here(
    prep: &Arc<Prepared>,
    cfg: &Config,
    log: &PathLog,
    opts: &ReproduceOptions,
) -> Result<Reproduced, ReproduceError> {
    let start = Instant::now();
    if log.fingerprint != prep.program.fingerprint {
        return Err(ReproduceError::Fingerprint {
            log: log.fingerprint.clone(),
            program: prep.program.fingerprint.clone(),
        });
    }
    let model = log.memory_model;
    if model != cfg.memory_model {
        return Err(ReproduceError::ModelMismatch { log: model, asked: cfg.memory_model });
    }
    // A run stopped from outside (it records no failure) is reproduced
    // when its paths end in a deadlock: the hang it was stopped in.
    let target = match (&log.failure, &log.interrupted) {
        (Some(f), _) => Target::Failure(f.clone()),
        (None, Some(_)) => Target::Hang,
        (None, None) => return Err(ReproduceError::NoFailure),
    };
    let mut cfg = cfg.clone();
    cfg.argv = if log.argv.is_empty() { cfg.argv } else { log.argv.clone() };
    let mut searched = None;
    if opts.method != Method::Solver {
        let (found, stats) = search(prep, &cfg, &log.threads, &target, &opts.search);
        if let Some(found) = found {
            let schedule = schedule_of(prep, &found.execution);
            cfg.inputs = schedule.inputs.clone();
            let execution = replay(prep, &cfg, &schedule);
            check(&target, &execution.outcome, "replaying the searched schedule")?;
            return Ok(Reproduced {
                schedule: schedule_of(prep, &execution),
                execution,
                found_by: Method::Search,
                search: Some(stats),
                solution: None,
                preemptions: found.preemptions,
                minimal: true,
                symbolic_time: Duration::ZERO,
                total_time: start.elapsed(),
            });
        }
        if opts.method == Method::Search || target == Target::Hang {
            let solver = log.interrupted.as_ref().map(|sig| stopped_not_hung(sig, &stats));
            return Err(ReproduceError::NotFound { search: stats, solver });
        }
        searched = Some(stats);
    }
    let Target::Failure(failure) = &target else {
        return Err(ReproduceError::HangBySolver(log.interrupted.clone().unwrap_or_default()));
    };
    let solver_start = Instant::now();
    let gave_up = |searched: &Option<SearchStats>, e: ReproduceError| match searched {
        Some(s) => ReproduceError::NotFound { search: s.clone(), solver: Some(e.to_string()) },
        None => e,
    };
    if !causa_symbolic::model::solver_models(failure.kind) {
        return Err(gave_up(&searched, ReproduceError::Kind(failure.kind)));
    }
    let sym = causa_symbolic::execute(&prep.program, log).map_err(|e| gave_up(&searched, e.into()))?;
    let symbolic_time = solver_start.elapsed();
    let solution =
        causa_symbolic::solve(&sym, &opts.clap).map_err(|e| gave_up(&searched, e.located(&prep.program).into()))?;
    let (steps, flushes) = steps_of(&sym, &solution.order, model).map_err(ReproduceError::Relaxed)?;
    cfg.inputs = solution.inputs.iter().filter_map(|(t, i)| log.threads[*t].inputs.get(*i).map(|x| x.1)).collect();
    // The solver's order, step by step; nothing runs after it.
    let mut guided = PreemptionRecorder::new(ReplayScheduler::new(steps).with_flushes(flushes));
    guided.begin_execution();
    let ex = run_once(prep, &Arc::new(cfg.clone()), &mut guided);
    check(&target, &ex.outcome, "following the solver's order")?;
    let preemptions = guided.preemptions.len();
    let schedule = schedule_of(prep, &ex);
    let execution = replay(prep, &cfg, &schedule);
    check(&target, &execution.outcome, "replaying the saved schedule")?;
    Ok(Reproduced {
        execution,
        schedule,
        found_by: Method::Solver,
        search: searched,
        minimal: solution.minimal,
        solution: Some(solution),
        preemptions,
        symbolic_time,
        total_time: start.elapsed(),
    })
}

/// The search's account, and why the solver did not help.
fn not_found(s: &SearchStats, solver: Option<&str>) -> String {
    let covered = match s.complete_up_to {
        Some(c) => format!("every schedule with at most {c} preemption{} that follows the paths", plural(c)),
        None => "not even every non-preemptive schedule".to_string(),
    };
    let mut m = format!(
        "no schedule found: the path-guided search ran {} schedule{} ({} steps{}; {} left their recorded paths; covered: {covered})",
        s.executions,
        plural(s.executions),
        s.steps,
        if s.out_of_budget { ", its whole budget" } else { "" },
        s.pruned
    );
    match solver {
        Some(why) => m.push_str(&format!("; the solver did not take over: {why}")),
        None => m.push_str("; raise the search budget or try `--method solver`"),
    }
    m
}

/// Why a search that found no deadlock at the ends of a stopped run's
/// paths does not go on.
fn stopped_not_hung(signal: &str, s: &SearchStats) -> String {
    let stopped = format!(
        "it needs the thread that failed and where, and the recorded run records none (it was stopped by {signal})"
    );
    if s.out_of_budget {
        format!("{stopped}; raise `--search-steps` to look further for a deadlock the paths end in")
    } else {
        format!(
            "{stopped}; no schedule that follows the paths ends in a deadlock, so the run was probably stopped while it was still working \
             (a long loop, or waiting for input), not because it hung"
        )
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The run ends as `want` says ([`Target::matches`]).
fn check(want: &Target, got: &Outcome, doing: &str) -> Result<(), ReproduceError> {
    match got {
        Outcome::Bug(f) if want.matches(f) => Ok(()),
        Outcome::Bug(f) => Err(ReproduceError::NotReproduced(format!("{doing}: {} instead of {want}", described(f)))),
        other => Err(ReproduceError::NotReproduced(format!("{doing}: the run ended with {other:?}"))),
    }
}
