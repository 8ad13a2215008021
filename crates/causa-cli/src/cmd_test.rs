//! `causa test`: many executions under random or PCT schedules.

use crate::args::{TestArgs, TestStrategy};
use crate::explain_out::{after_bug, with_explanation};
use crate::load::{config, load, Failure, EXIT_BUG, EXIT_OK, EXIT_UNSUPPORTED};
use crate::output::{bug_report, outcome_line, print_bug_trailer, render_bug, report_for, save_schedule};
use causa_core::Scheduler;
use causa_explore::minimize::fewer_preemptions;
use causa_explore::{replay, schedule_of, test, DfsScheduler, PctScheduler, RandomScheduler, TestStats};
use causa_interp::{Config, Outcome, OutputMode};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Arc;

pub fn run(args: &TestArgs) -> Result<i32, Failure> {
    let c = &args.common;
    let prep = load(c)?;
    let cfg = config(c, args.seed, &args.args, OutputMode::Capture);
    let cfg = Arc::new(cfg);
    let mut sched: Box<dyn Scheduler> = match args.strategy {
        TestStrategy::Random => Box::new(RandomScheduler::new(args.seed)),
        TestStrategy::Pct => Box::new(PctScheduler::new(args.seed, args.depth)),
        TestStrategy::Dfs => Box::new(DfsScheduler::new()),
    };
    let bar = if std::io::stderr().is_terminal() && !c.json {
        let b = ProgressBar::with_draw_target(Some(args.iterations as u64), ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} executions  {msg}  [{elapsed_precise}]")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Some(b)
    } else {
        None
    };
    let mut last_draw = 0usize;
    let mut progress = |s: &TestStats| {
        if let Some(b) = &bar {
            if s.executions - last_draw >= 97 || s.executions == args.iterations {
                last_draw = s.executions;
                b.set_position(s.executions as u64);
                b.set_message(format!("{:.0}/s", s.executions_per_second()));
            }
        }
    };
    let result = test(&prep, &cfg, sched.as_mut(), args.iterations, &mut progress);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let st = &result.stats;
    let mut stats = serde_json::json!({
        "executions": st.executions,
        "iterations": args.iterations,
        "executions_per_second": (st.executions_per_second() * 10.0).round() / 10.0,
        "seconds": st.elapsed.as_secs_f64(),
        "infeasible": st.infeasible,
        "bound_reached": st.bounded,
        "instructions": st.instructions,
        "strategy": sched.name(),
        "seed": args.seed,
    });
    // DFS stopping before --iterations means it ran out of interleavings.
    let exhaustive = args.strategy == TestStrategy::Dfs && st.executions < args.iterations;
    if args.strategy == TestStrategy::Dfs {
        stats["exhaustive"] = serde_json::json!(exhaustive);
    }
    let Some((index, ex)) = result.stopped_by else {
        if c.json {
            let mut r = report_for("test", c, None, stats);
            if st.bounded > 0 && st.bounded == st.executions {
                // Every execution was cut short by a bound: nothing was tested to the end.
                r.verdict = causa_report::Verdict::Unknown;
            }
            println!("{}", r.to_json_string());
        } else {
            println!(
                "causa test: no bug found in {} executions ({} strategy, seed {})",
                st.executions,
                sched.name(),
                args.seed
            );
            print_stats(st);
            if exhaustive {
                println!("  every interleaving was explored ({} in all)", st.executions);
            }
            if let Some(dir) = &args.record_paths {
                println!("  no execution failed: no path log written to {}", dir.display());
            }
            if let Some(n) = crate::output::weak_atomics_note(&prep.program) {
                println!("{n}");
            }
        }
        return Ok(if st.bounded > 0 && st.bounded == st.executions { EXIT_UNSUPPORTED } else { EXIT_OK });
    };
    if let Outcome::Error(e) = &ex.outcome {
        let f = Failure::from(e.clone());
        if c.json {
            println!("{}", report_for("test", c, Some(&ex), stats).to_json_string());
            return Ok(f.exit);
        }
        return Err(f);
    }
    // Fewer preemptions where that is cheap; then the saved schedule must
    // reproduce the same bug at the same step (round trip).
    let (ex, preemptions, confirmed) = if result.replay_confirmed {
        let (small, n) = fewer_preemptions(&prep, &cfg, ex, causa_explore::minimize::EDIT_BUDGET);
        let again = replay(&prep, &cfg, &schedule_of(&prep, &small));
        let ok = matches!((again.outcome.finding(), small.outcome.finding()), (Some(a), Some(b)) if a.same_as(b));
        (if ok { again } else { small }, n, ok)
    } else {
        (ex, 0, false)
    };
    let Outcome::Bug(f) = &ex.outcome else { unreachable!("the loop stops only on bugs and errors") };
    let recorded = match &args.record_paths {
        Some(dir) => Some(record_paths(dir, &prep, &cfg, &ex, c)?),
        None => None,
    };
    let path = save_schedule(&prep, &ex, c, f.kind.code())
        .map_err(|e| Failure::input("io-error", format!("cannot save the schedule: {e}")))?;
    stats["preemptions"] = serde_json::json!(preemptions);
    stats["bug_execution"] = serde_json::json!(index + 1);
    stats["replay_confirmed"] = serde_json::json!(confirmed);
    if let Some(dir) = &args.record_paths {
        stats["paths_dir"] = serde_json::json!(dir.display().to_string());
    }
    if c.json {
        let explanation = after_bug(&prep, &cfg, &ex, &args.explain, true)?;
        let report = bug_report("test", c, &ex, stats, &path, &args.args).to_json_string();
        println!("{}", with_explanation(report, explanation));
        return Ok(EXIT_BUG);
    }
    println!(
        "causa test: {} in execution {} of {} ({} strategy, seed {})",
        outcome_line(&ex.outcome),
        index + 1,
        args.iterations,
        sched.name(),
        args.seed
    );
    print_stats(st);
    if let Some(line) = &recorded {
        println!("  {line}");
    }
    println!();
    print!("{}", render_bug(f, &ex));
    println!();
    print_bug_trailer(confirmed, c, &path, &args.args);
    after_bug(&prep, &cfg, &ex, &args.explain, false)?;
    Ok(EXIT_BUG)
}

/// Run the failing schedule again recording every thread's path, and write
/// the log; the recorded run must fail the same way.
fn record_paths(
    dir: &std::path::Path,
    prep: &Arc<causa_interp::Prepared>,
    cfg: &Config,
    ex: &causa_interp::Execution,
    c: &crate::args::ProgramArgs,
) -> Result<String, Failure> {
    let rec_cfg = Config { record_paths: true, ..cfg.clone() };
    let rec = replay(prep, &rec_cfg, &schedule_of(prep, ex));
    let same = matches!((rec.outcome.finding(), ex.outcome.finding()), (Some(a), Some(b)) if a.same_as(b));
    if !same {
        return Err(Failure::input(
            "internal",
            format!(
                "recording the paths of the failing schedule did not fail the same way ({}); please report this bug in causa",
                outcome_line(&rec.outcome)
            ),
        ));
    }
    crate::cmd_log::record(dir, prep, &rec, c, &cfg.argv)
}

fn print_stats(st: &TestStats) {
    println!(
        "  {} executions in {:.2}s ({:.0} executions/s), {} infeasible, {} stopped by a bound",
        st.executions,
        st.elapsed.as_secs_f64(),
        st.executions_per_second(),
        st.infeasible,
        st.bounded
    );
    if let Some(b) = &st.first_bound {
        println!("  the first stopped by a bound: {b}");
    }
}
