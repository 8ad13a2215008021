//! `causa reproduce PROG --paths DIR`: a schedule that makes the recorded
//! failure happen again, computed from the per-thread paths alone (the
//! path-guided search, then CLAP's solver), and confirmed by replay.

use crate::args::{ReproduceArgs, ReproduceMethod};
use crate::explain_out::{after_bug, with_explanation};
use crate::load::{config, load, Failure, EXIT_BUG, EXIT_UNSUPPORTED};
use crate::output::{bug_report, print_bug_trailer, render_bug, save_schedule};
use causa_core::paths::PathLog;
use causa_explore::guided::SearchOptions;
use causa_explore::reproduce::{reproduce, Method, ReproduceError, ReproduceOptions, Reproduced};
use causa_interp::OutputMode;
use causa_symbolic::{ClapError, ClapOptions, SymError};

pub fn run(args: &ReproduceArgs) -> Result<i32, Failure> {
    let c = &args.common;
    let mut log = PathLog::read(&args.paths).map_err(|e| Failure::input("bad-path-log", e.to_string()))?;
    let prep = load(c)?;
    locate_native_crash(&mut log, &prep.program);
    let mut cfg = config(c, 0, &[], OutputMode::Capture);
    // Without --memory-model, the log's.
    if c.memory_model.is_none() {
        cfg.memory_model = log.memory_model;
    }
    let opts = ReproduceOptions {
        method: match args.method {
            ReproduceMethod::Auto => Method::Auto,
            ReproduceMethod::Search => Method::Search,
            ReproduceMethod::Solver => Method::Solver,
        },
        search: SearchOptions { max_preemptions: args.search_preemptions, max_steps: args.search_steps },
        clap: ClapOptions { minimize: !args.any_schedule, ..ClapOptions::default() },
    };
    let r = reproduce(&prep, &cfg, &log, &opts).map_err(failure)?;
    let ex = &r.execution;
    // The log's argv starts with the program's name.
    let program_args: Vec<String> = log.argv.iter().skip(1).cloned().collect();
    let f = ex.outcome.finding().cloned().expect("a reproduction fails");
    let path = save_schedule(&prep, ex, c, f.kind.code())
        .map_err(|e| Failure::input("io-error", format!("cannot save the schedule: {e}")))?;
    let mut ecfg = cfg.clone();
    if !log.argv.is_empty() {
        ecfg.argv = log.argv.clone();
    }
    if c.json {
        let stats = json_stats(&r, args, &log);
        let explanation = after_bug(&prep, &ecfg, ex, &args.explain, true)?;
        let report = bug_report("reproduce", c, ex, stats, &path, &program_args).to_json_string();
        println!("{}", with_explanation(report, explanation));
        return Ok(EXIT_BUG);
    }
    println!(
        "causa reproduce: reproduced {} in thread {} with {} ({})",
        f.kind,
        f.thread,
        crate::output::counted(r.preemptions, "context switch"),
        if r.minimal { "the fewest possible" } else { "not minimised" }
    );
    if let (None, Some(sig)) = (&log.failure, &log.interrupted) {
        println!("  the recorded run was stopped by {sig} before it ended: its threads' paths end in this deadlock");
    }
    for line in summary(&r) {
        println!("  {line}");
    }
    println!();
    print!("{}", render_bug(&f, ex));
    println!();
    print_bug_trailer(true, c, &path, &program_args);
    after_bug(&prep, &ecfg, ex, &args.explain, false)?;
    Ok(EXIT_BUG)
}

/// A native crash's log holds the faulting instruction's address, not a
/// source location: look it up in the recording executable, so the
/// reproduction must fail on the same line. Without it (the executable gone,
/// the crash in a library), any location of the same kind and thread counts,
/// and the user is told.
fn locate_native_crash(log: &mut PathLog, program: &causa_ir::Program) {
    if let Err(why) = causa_record::symbolize::locate_crash(log, program) {
        if let Some(f) = &log.failure {
            eprintln!(
                "causa: note: where the native run crashed is unknown ({why}); a {} in thread {} anywhere counts",
                f.kind, f.thread
            );
        }
    }
}

/// How the schedule was found, in a few lines.
fn summary(r: &Reproduced) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(s) = &r.search {
        let outcome = match r.found_by {
            Method::Search => "found it",
            _ => "found nothing within its budget",
        };
        lines.push(format!(
            "path-guided search {outcome}: {} schedule{} run, {} left their recorded paths, preemption bound {}",
            s.executions,
            if s.executions == 1 { "" } else { "s" },
            s.pruned,
            s.bound
        ));
    }
    if let Some(sol) = &r.solution {
        let s = &sol.stats;
        lines.push(format!(
            "solver, from the paths alone: {} threads, {} shared accesses, {} access points; {} constraints, {} variables",
            s.threads, s.shared_accesses, s.access_points, s.constraints, s.variables
        ));
        lines.push(format!(
            "symbolic execution {:.3}s, solving {:.3}s ({} queries)",
            r.symbolic_time.as_secs_f64(),
            s.solve_time.as_secs_f64(),
            s.queries
        ));
    }
    let accesses = shared_accesses(&r.execution);
    lines.push(format!(
        "the schedule: {}, {}; log to confirmed schedule {:.3}s",
        crate::output::counted(r.execution.steps.len(), "step"),
        crate::output::counted(accesses, "shared access"),
        r.total_time.as_secs_f64()
    ));
    lines
}

/// Reads, writes and read-modify-writes of shared memory in the schedule.
fn shared_accesses(ex: &causa_interp::Execution) -> usize {
    use causa_core::EventKind::{Read, Rmw, Write};
    ex.events.iter().filter(|e| matches!(e.kind, Read | Write | Rmw)).count()
}

fn json_stats(r: &Reproduced, args: &ReproduceArgs, log: &PathLog) -> serde_json::Value {
    let sol = r.solution.as_ref().map(|s| &s.stats);
    let search = r.search.clone().unwrap_or_default();
    serde_json::json!({
        "method": match r.found_by { Method::Search => "search", _ => "solver" },
        "search_executions": search.executions,
        "search_pruned": search.pruned,
        "search_bound": search.bound,
        "threads": sol.map(|s| s.threads),
        "shared_accesses": shared_accesses(&r.execution),
        "access_points": sol.map(|s| s.access_points),
        "constraints": sol.map(|s| s.constraints),
        "variables": sol.map(|s| s.variables),
        "symbolic_seconds": r.symbolic_time.as_secs_f64(),
        "solver_seconds": sol.map_or(0.0, |s| s.solve_time.as_secs_f64()),
        "queries": sol.map_or(0, |s| s.queries),
        "seconds": r.total_time.as_secs_f64(),
        "context_switches": r.preemptions,
        "fewest_context_switches": r.minimal,
        "replay_confirmed": true,
        "paths_dir": args.paths.display().to_string(),
        // The signal that stopped a recorded run that hung (null: the run
        // failed as the log records).
        "interrupted": log.failure.is_none().then_some(log.interrupted.as_ref()).flatten(),
    })
}

fn failure(e: ReproduceError) -> Failure {
    let (exit, code) = match &e {
        ReproduceError::Fingerprint { .. } => (crate::load::EXIT_INPUT, "path-log-mismatch"),
        ReproduceError::NoFailure => (crate::load::EXIT_INPUT, "no-failure"),
        ReproduceError::ModelMismatch { .. } => (crate::load::EXIT_INPUT, "path-log-mismatch"),
        ReproduceError::Relaxed(_) => (EXIT_UNSUPPORTED, "unsupported"),
        ReproduceError::Kind(_) | ReproduceError::HangBySolver(_) => (EXIT_UNSUPPORTED, "unsupported"),
        ReproduceError::Symbolic(SymError::Mismatch(_)) => (crate::load::EXIT_INPUT, "path-log-mismatch"),
        ReproduceError::Symbolic(SymError::Unsupported { .. })
        | ReproduceError::Model(ClapError::Unsupported { .. }) => (EXIT_UNSUPPORTED, "unsupported"),
        ReproduceError::Model(_) | ReproduceError::NotFound { .. } => (EXIT_UNSUPPORTED, "no-schedule"),
        ReproduceError::NotReproduced(_) => (EXIT_UNSUPPORTED, "internal-error"),
    };
    Failure { exit, code, message: e.to_string() }
}
