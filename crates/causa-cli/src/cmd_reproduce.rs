//! `causa reproduce PROG --paths DIR`: a schedule that makes the recorded
//! failure happen again, computed from the per-thread paths alone (CLAP), and
//! confirmed by replay.

use crate::args::ReproduceArgs;
use crate::load::{config, load, Failure, EXIT_BUG, EXIT_UNSUPPORTED};
use crate::output::{bug_report, print_bug_trailer, render_bug, save_schedule};
use causa_core::paths::PathLog;
use causa_explore::reproduce::{reproduce, ReproduceError};
use causa_interp::OutputMode;
use causa_symbolic::{ClapError, ClapOptions, SymError};

pub fn run(args: &ReproduceArgs) -> Result<i32, Failure> {
    let c = &args.common;
    let log = PathLog::read(&args.paths).map_err(|e| Failure::input("bad-path-log", e.to_string()))?;
    let prep = load(c)?;
    let mut cfg = config(c, 0, &[], OutputMode::Capture);
    // Without --memory-model, the log's.
    if c.memory_model.is_none() {
        cfg.memory_model = log.memory_model;
    }
    let opts = ClapOptions { minimize: !args.any_schedule, ..ClapOptions::default() };
    let r = reproduce(&prep, &cfg, &log, &opts).map_err(failure)?;
    let ex = &r.execution;
    // The log's argv starts with the program's name.
    let program_args: Vec<String> = log.argv.iter().skip(1).cloned().collect();
    let f = ex.outcome.finding().cloned().expect("a reproduction fails");
    let path = save_schedule(&prep, ex, c, f.kind.code())
        .map_err(|e| Failure::input("io-error", format!("cannot save the schedule: {e}")))?;
    let s = &r.solution.stats;
    let stats = serde_json::json!({
        "threads": s.threads,
        "shared_accesses": s.shared_accesses,
        "access_points": s.access_points,
        "constraints": s.constraints,
        "variables": s.variables,
        "symbolic_seconds": r.symbolic_time.as_secs_f64(),
        "solver_seconds": s.solve_time.as_secs_f64(),
        "queries": s.queries,
        "seconds": r.total_time.as_secs_f64(),
        "context_switches": r.preemptions,
        "fewest_context_switches": r.solution.minimal,
        "replay_confirmed": true,
        "paths_dir": args.paths.display().to_string(),
    });
    if c.json {
        println!("{}", bug_report("reproduce", c, ex, stats, &path, &program_args).to_json_string());
        return Ok(EXIT_BUG);
    }
    println!(
        "causa reproduce: reproduced {} in thread {} with {} context switch{} ({})",
        f.kind,
        f.thread,
        r.preemptions,
        if r.preemptions == 1 { "" } else { "es" },
        if r.solution.minimal { "the fewest the model allows" } else { "not minimised" }
    );
    println!(
        "  from the paths alone: {} threads, {} shared accesses, {} access points; {} constraints, {} variables",
        s.threads, s.shared_accesses, s.access_points, s.constraints, s.variables
    );
    println!(
        "  symbolic execution {:.3}s, solving {:.3}s ({} queries), log to confirmed schedule {:.3}s",
        r.symbolic_time.as_secs_f64(),
        s.solve_time.as_secs_f64(),
        s.queries,
        r.total_time.as_secs_f64()
    );
    println!();
    print!("{}", render_bug(&f, ex));
    println!();
    print_bug_trailer(true, c, &path, &program_args);
    Ok(EXIT_BUG)
}

fn failure(e: ReproduceError) -> Failure {
    let (exit, code) = match &e {
        ReproduceError::Fingerprint { .. } => (crate::load::EXIT_INPUT, "path-log-mismatch"),
        ReproduceError::NoFailure => (crate::load::EXIT_INPUT, "no-failure"),
        ReproduceError::ModelMismatch { .. } => (crate::load::EXIT_INPUT, "path-log-mismatch"),
        ReproduceError::Relaxed(_) => (EXIT_UNSUPPORTED, "unsupported"),
        ReproduceError::Kind(_) => (EXIT_UNSUPPORTED, "unsupported"),
        ReproduceError::Symbolic(SymError::Mismatch(_)) => (crate::load::EXIT_INPUT, "path-log-mismatch"),
        ReproduceError::Symbolic(SymError::Unsupported { .. }) | ReproduceError::Model(ClapError::Unsupported(_)) => {
            (EXIT_UNSUPPORTED, "unsupported")
        }
        ReproduceError::Model(_) => (EXIT_UNSUPPORTED, "no-schedule"),
        ReproduceError::NotReproduced(_) => (EXIT_UNSUPPORTED, "internal-error"),
    };
    Failure { exit, code, message: e.to_string() }
}
