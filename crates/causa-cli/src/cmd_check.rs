//! `causa check`: can this program fail under any interleaving? Maximal
//! Causality Reduction answers bug, verified or unknown.

use crate::args::CheckArgs;
use crate::explain_out::{after_bug, with_explanation};
use crate::load::{config, load, Failure, EXIT_BUG, EXIT_OK, EXIT_UNSUPPORTED};
use crate::output::{bug_report, print_bug_trailer, render_bug, report_for, save_schedule};
use causa_explore::mcr::{check, McrOptions, McrStats, McrVerdict};
use causa_explore::minimize::fewer_preemptions;
use causa_explore::{replay, schedule_of};
use causa_interp::OutputMode;
use causa_report::Verdict;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// How often `check` without a terminal prints a progress line.
const PLAIN_PROGRESS: Duration = Duration::from_secs(10);

/// When an unbounded check has run this long, it says once how to get an
/// answer sooner (`CAUSA_CHECK_HINT_AFTER=SECS` sets another time: the
/// tests use 0).
const HINT_AFTER: Duration = Duration::from_secs(60);

fn hint_after() -> Duration {
    std::env::var("CAUSA_CHECK_HINT_AFTER")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map_or(HINT_AFTER, Duration::from_secs)
}

pub fn run(args: &CheckArgs) -> Result<i32, Failure> {
    let c = &args.common;
    let prep = load(c)?;
    let cfg = config(c, args.seed, &args.args, OutputMode::Capture);
    let opts = McrOptions {
        max_executions: args.max_executions,
        timeout: args.timeout.map(Duration::from_secs_f64),
        all_outcomes: false,
        races: c.races,
        probes: args.probes,
        ..McrOptions::default()
    };
    let bar = (std::io::stderr().is_terminal() && !c.json).then(|| {
        let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template("{spinner} {msg} [{elapsed_precise}]")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        b
    });
    let started = std::time::Instant::now();
    // Without a terminal (a log, CI): a plain line every PLAIN_PROGRESS.
    let mut printed = started;
    // (Only when nothing bounds the check: a user who gave a bound chose it.)
    let after = hint_after();
    let mut hint = args.timeout.is_none() && args.max_executions.is_none() && !c.json;
    let mut progress = |s: &McrStats, queue: usize| {
        if started.elapsed() >= after && std::mem::take(&mut hint) {
            let probes = match s.probes.run {
                0 => String::new(),
                n => format!(" ({} found no bug either)", crate::output::counted(n, "random probe")),
            };
            let h = format!(
                "causa check: still exploring after {}s{probes}; `causa test` samples many more random schedules and often finds a bug sooner, and `--timeout SECS` bounds this check (verdict: unknown when it ends first)",
                after.as_secs()
            );
            match &bar {
                Some(b) => b.println(h),
                None => eprintln!("{h}"),
            }
        }
        let rate = s.executions as f64 / started.elapsed().as_secs_f64().max(1e-9);
        let probes = if s.probes.run > 0 { format!(", {} random probes", s.probes.run) } else { String::new() };
        let msg = format!("{} executions ({rate:.0}/s), {queue} queued, {} queries{probes}", s.executions, s.queries);
        if let Some(b) = &bar {
            b.set_message(msg);
            b.tick();
        } else if !c.json && printed.elapsed() >= PLAIN_PROGRESS {
            eprintln!("causa check: {msg} after {:.0}s", started.elapsed().as_secs_f64());
            printed = std::time::Instant::now();
        }
    };
    let result = check(&prep, &cfg, &opts, &mut progress);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let s = &result.stats;
    let elapsed = started.elapsed().as_secs_f64();
    let (median, longest) = s.query_time_summary();
    let stats = serde_json::json!({
        "executions": s.executions,
        "queries": s.queries,
        "seconds": elapsed,
        "execution_seconds": s.exec_time.as_secs_f64(),
        "solver_seconds": s.solve_time.as_secs_f64(),
        "query_median_ms": median.as_secs_f64() * 1e3,
        "query_max_ms": longest.as_secs_f64() * 1e3,
        "largest_trace": s.largest_trace,
        "infeasible": s.infeasible,
        "inputs_fixed": true,
        "input_seed": args.seed,
        "probes": s.probes.run,
        "probe_seconds": s.probes.time.as_secs_f64(),
        "found_by": if s.bug_from_probe.is_some() { "random probe" } else { "mcr" },
    });
    let probes = match s.probes.run {
        0 => String::new(),
        n => format!(
            ", {} in {} ({:.2}s)",
            crate::output::counted(n, "random probe"),
            crate::output::counted(s.probes.batches, "batch"),
            s.probes.time.as_secs_f64()
        ),
    };
    let stats_line = format!(
        "  {}, {} ({} satisfiable, median {:.2} ms, max {:.1} ms){probes}; {:.2}s: {:.2}s executing, {:.2}s solving; largest trace {}",
        crate::output::counted(s.executions, "execution"),
        crate::output::counted(s.queries as usize, "solver query"),
        s.sat,
        median.as_secs_f64() * 1e3,
        longest.as_secs_f64() * 1e3,
        elapsed,
        s.exec_time.as_secs_f64(),
        s.solve_time.as_secs_f64(),
        crate::output::counted(s.largest_trace, "event")
    );
    let inputs_line = if prep.program.functions.iter().any(|f| f.name.starts_with("__VERIFIER_nondet_")) {
        Some(format!(
            "  program inputs (__VERIFIER_nondet_*) are fixed for the whole check (seed {}{}); exploring inputs is not part of this version",
            args.seed,
            if c.input.is_empty() { String::new() } else { ", with --input values first".into() }
        ))
    } else {
        None
    };
    match result.verdict {
        McrVerdict::Error(e) => Err(Failure::from(e)),
        McrVerdict::Verified | McrVerdict::Unknown(_) => {
            let (verdict, exit, line) = match &result.verdict {
                McrVerdict::Verified => (Verdict::Verified, EXIT_OK, "verified: no interleaving fails".to_string()),
                McrVerdict::Unknown(r) => (Verdict::Unknown, EXIT_UNSUPPORTED, format!("unknown: {r}")),
                _ => unreachable!("handled above"),
            };
            if c.json {
                let mut r = report_for("check", c, None, stats);
                r.verdict = verdict;
                if let McrVerdict::Unknown(reason) = &result.verdict {
                    r.error = Some(reason.clone());
                }
                println!("{}", r.to_json_string());
            } else {
                println!("causa check: {line}");
                println!("{stats_line}");
                if let Some(l) = &inputs_line {
                    println!("{l}");
                }
                if let Some(n) = crate::output::weak_atomics_note(&prep.program) {
                    println!("{n}");
                }
            }
            Ok(exit)
        }
        McrVerdict::Bug(ex) => {
            // Fewer preemptions where that is cheap, then replay the schedule
            // to report (with readable records) and to confirm it.
            let (small, preemptions) = fewer_preemptions(&prep, &cfg, *ex, causa_explore::minimize::EDIT_BUDGET);
            let f = small.outcome.finding().cloned().expect("a bug verdict carries a finding");
            let full = replay(&prep, &cfg, &schedule_of(&prep, &small));
            let confirmed = full.outcome.finding().is_some_and(|g| g.same_as(&f));
            let shown = if confirmed { &full } else { &small };
            let path = save_schedule(&prep, shown, c, f.kind.code())
                .map_err(|e| Failure::input("io-error", format!("cannot save the schedule: {e}")))?;
            if c.json {
                let mut stats = stats;
                stats["replay_confirmed"] = serde_json::json!(confirmed);
                stats["preemptions"] = serde_json::json!(preemptions);
                let explanation = after_bug(&prep, &cfg, shown, &args.explain, true)?;
                let report = bug_report("check", c, shown, stats, &path, &args.args).to_json_string();
                println!("{}", with_explanation(report, explanation));
                return Ok(EXIT_BUG);
            }
            let found = match s.bug_from_probe {
                Some(p) => format!(
                    "found by random probe {p}, after {} of MCR (`--probes`)",
                    crate::output::counted(s.executions, "execution")
                ),
                None => format!("found in execution {}", s.executions),
            };
            println!(
                "causa check: bug: {} ({found}; shown with {preemptions} preemption{})",
                f.kind,
                if preemptions == 1 { "" } else { "s" }
            );
            println!("{stats_line}");
            if let Some(l) = &inputs_line {
                println!("{l}");
            }
            println!();
            print!("{}", render_bug(&f, shown));
            println!();
            print_bug_trailer(confirmed, c, &path, &args.args);
            after_bug(&prep, &cfg, shown, &args.explain, false)?;
            Ok(EXIT_BUG)
        }
    }
}
