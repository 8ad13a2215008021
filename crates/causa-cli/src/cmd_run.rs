//! `causa run`: one execution.

use crate::args::{RunArgs, Strategy};
use crate::load::{config, load, Failure, EXIT_BUG, EXIT_OK, EXIT_UNSUPPORTED};
use crate::output::{outcome_line, render_bug, replay_command, report_for, save_schedule, write_trace};
use causa_core::{Schedule, Scheduler};
use causa_explore::{replay, run_once, FirstScheduler, PctScheduler, RandomScheduler};
use causa_interp::{Config, Outcome, OutputMode};
use std::sync::Arc;

pub fn run(args: &RunArgs) -> Result<i32, Failure> {
    let c = &args.common;
    let prep = load(c)?;
    let mut cfg = config(c, args.seed, &args.args, if c.json { OutputMode::Capture } else { OutputMode::PassThrough });
    // One run: its whole output goes into the JSON document.
    cfg.max_output = Config::default().max_output;
    cfg.record_paths = args.record_paths.is_some();
    let argv = cfg.argv.clone();
    let (ex, strategy) = match &args.schedule {
        Some(path) => {
            let s = read_schedule(path, &prep.program.fingerprint)?;
            let model = s.memory_model;
            if c.memory_model.is_some_and(|m| m != model) {
                return Err(Failure::input(
                    "bad-schedule",
                    format!(
                        "{} was made under memory model {model}, not {}; drop --memory-model to replay it",
                        path.display(),
                        cfg.memory_model
                    ),
                ));
            }
            (replay(&prep, &cfg, &s), "replay")
        }
        None => {
            let mut sched: Box<dyn Scheduler> = match args.strategy {
                Strategy::First => Box::new(FirstScheduler::new()),
                Strategy::Random => Box::new(RandomScheduler::new(args.seed)),
                Strategy::Pct => Box::new(PctScheduler::new(args.seed, args.depth)),
            };
            sched.begin_execution();
            (run_once(&prep, &Arc::new(cfg), sched.as_mut()), sched.name())
        }
    };
    if let Some(path) = &args.trace {
        write_trace(path, &ex)
            .map_err(|e| Failure::input("io-error", format!("cannot write trace {}: {e}", path.display())))?;
    }
    let recorded = match &args.record_paths {
        Some(dir) => Some(crate::cmd_log::record(dir, &prep, &ex, c, &argv)?),
        None => None,
    };
    // A replayed bug already has its schedule file; a new one is saved.
    let mut schedule_path = None;
    if let Outcome::Bug(f) = &ex.outcome {
        let p = match &args.schedule {
            Some(given) => given.clone(),
            None => save_schedule(&prep, &ex, c, f.kind.code())
                .map_err(|e| Failure::input("io-error", format!("cannot save the schedule: {e}")))?,
        };
        schedule_path = Some(p);
    }
    let exit = match &ex.outcome {
        Outcome::Bug(_) => EXIT_BUG,
        Outcome::Exit(_) | Outcome::Infeasible(_) => EXIT_OK,
        Outcome::BoundReached(_) => EXIT_UNSUPPORTED,
        Outcome::Error(e) => Failure::from(e.clone()).exit,
    };
    let stats = serde_json::json!({
        "threads": ex.names.len(),
        "steps": ex.steps.len(),
        "events": ex.events.len(),
        "instructions": ex.instructions,
        "strategy": strategy,
        "exit_code": match ex.outcome { Outcome::Exit(c) => Some(c), _ => None },
        "inputs": ex.inputs.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        "program_stdout": String::from_utf8_lossy(&ex.stdout),
        "program_stderr": String::from_utf8_lossy(&ex.stderr),
    });
    if c.json {
        let mut r = report_for("run", c, Some(&ex), stats);
        if let Some(p) = &schedule_path {
            r.schedule_file = Some(p.display().to_string());
            r.replay_command = Some(replay_command(c, p, &args.args));
            if let Some(b) = &mut r.bug {
                b.schedule = r.schedule_file.clone();
            }
        }
        r.events = Some(ex.records.clone());
        if let Some(dir) = &args.record_paths {
            r.stats["paths_dir"] = serde_json::json!(dir.display().to_string());
        }
        println!("{}", r.to_json_string());
        return Ok(exit);
    }
    println!();
    println!("causa run: {}", outcome_line(&ex.outcome));
    println!(
        "  threads: {}   visible steps: {}   instructions: {}   strategy: {}",
        ex.names.len(),
        ex.steps.len(),
        ex.instructions,
        strategy
    );
    if !ex.inputs.is_empty() {
        let v: Vec<String> = ex.inputs.iter().map(|v| v.to_string()).collect();
        println!("  program inputs: {}", v.join(","));
    }
    if let Some(line) = &recorded {
        println!("  {line}");
    }
    if let Outcome::Bug(f) = &ex.outcome {
        println!();
        print!("{}", render_bug(f, &ex));
        if let Some(p) = &schedule_path {
            println!();
            if args.schedule.is_some() {
                println!("schedule: {}", p.display());
            } else {
                println!("schedule saved to {}", p.display());
            }
            println!("replay with: {}", replay_command(c, p, &args.args));
        }
    }
    Ok(exit)
}

/// Read a schedule file and check that it was made for this build of the program.
pub(crate) fn read_schedule(path: &std::path::Path, fingerprint: &str) -> Result<Schedule, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input("io-error", format!("cannot read schedule {}: {e}", path.display())))?;
    let s =
        Schedule::from_text(&text).map_err(|e| Failure::input("bad-schedule", format!("{}: {e}", path.display())))?;
    if !s.fingerprint.is_empty() && s.fingerprint != fingerprint {
        return Err(Failure::input(
            "schedule-mismatch",
            format!(
                "schedule {} was made for another build of the program (fingerprint {} but the program is {}); the program or its flags changed",
                path.display(),
                s.fingerprint,
                fingerprint
            ),
        ));
    }
    Ok(s)
}
