//! Path logs on the command line: `--record-paths DIR` (writing) and
//! `causa log show DIR` (reading).

use crate::args::{LogArgs, LogCommand, ProgramArgs};
use crate::load::{Failure, EXIT_OK};
use causa_core::paths::{Decision, PathLog, ThreadPath};
use causa_interp::{Execution, Prepared};
use std::path::Path;

/// Write the paths `ex` recorded (it ran with `Config::record_paths`) to `dir`;
/// returns a one-line summary for the user.
pub fn record(
    dir: &Path,
    prep: &Prepared,
    ex: &Execution,
    args: &ProgramArgs,
    argv: &[String],
) -> Result<String, Failure> {
    let log = causa_explore::reproduce::path_log(prep, ex, &args.program.join(" "), argv.to_vec());
    let bytes = log.write(dir).map_err(|e| Failure::input("io-error", format!("cannot write the path log: {e}")))?;
    let decisions: usize = log.threads.iter().map(|t| t.decisions.len()).sum();
    Ok(format!(
        "paths recorded in {} ({} threads, {decisions} decisions, {bytes} bytes)",
        dir.display(),
        log.threads.len()
    ))
}

pub fn run(args: &LogArgs) -> Result<i32, Failure> {
    match &args.command {
        LogCommand::Show { dir, json } => show(dir, *json),
    }
}

fn show(dir: &Path, json: bool) -> Result<i32, Failure> {
    let log = PathLog::read(dir).map_err(|e| Failure::input("bad-path-log", e.to_string()))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&to_json(&log)).unwrap_or_default());
        return Ok(EXIT_OK);
    }
    println!("path log {}", dir.display());
    println!("  program: {}   fingerprint: {}   memory model: {}", log.program, log.fingerprint, log.memory_model);
    println!("  argv: {}", log.argv.join(" "));
    match &log.failure {
        Some(f) => {
            let at = f.location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
            println!("  failure: {} in thread {}{at}: {}", f.kind, f.thread, f.message);
        }
        None => match &log.interrupted {
            Some(sig) => println!(
                "  failure: none recorded: the run was stopped by {sig} before it ended (if it had hung, `causa reproduce` finds the deadlock its paths end in)"
            ),
            None => println!("  failure: none (the recorded run did not fail)"),
        },
    }
    if let Some(c) = &log.native_crash {
        println!("  native crash: instruction {:#x} of {} (`causa reproduce` finds its line)", c.pc, c.executable);
    }
    for t in &log.threads {
        println!();
        println!("thread {}: {}", t.thread, counts(t));
        for (f, v) in &t.inputs {
            println!("  input {f} → {v}");
        }
        if !t.onces.is_empty() {
            let found: Vec<&str> = t.onces.iter().map(|o| causa_core::once_step::describe((*o).into())).collect();
            println!("  pthread_once calls: {}", found.join(", "));
        }
        if !t.values.is_empty() {
            let values: Vec<String> = t.values.iter().map(u64::to_string).collect();
            println!("  clock and rand() values: {}", values.join(", "));
        }
        if !t.tries.is_empty() {
            let tries: Vec<&str> = t.tries.iter().map(|b| if *b { "yes" } else { "no" }).collect();
            println!(
                "  lock and semaphore tries, timed condition waits (yes: took the lock or unit, or was woken): {}",
                tries.join(", ")
            );
        }
        if !t.sizes.is_empty() {
            let sizes: Vec<String> = t.sizes.iter().map(u64::to_string).collect();
            println!("  call arguments (sizes of memcpy, malloc, …; values sprintf prints): {}", sizes.join(", "));
        }
        if !t.objects.is_empty() {
            let objects: Vec<String> = t.objects.iter().map(|a| format!("{a:#x}")).collect();
            println!("  synchronisation objects (the interpreter's addresses): {}", objects.join(", "));
        }
        for line in causa_report::wrap(readable(t).iter().map(String::as_str), 96) {
            println!("  {line}");
        }
        if t.trimmed > 0 {
            println!(
                "  (and {} more of the last branch: the path ends in a loop, a busy wait that spun until the run was stopped; the first {} are kept)",
                t.trimmed,
                causa_core::paths::TRAILING_RUN_KEPT
            );
        }
    }
    Ok(EXIT_OK)
}

fn counts(t: &ThreadPath) -> String {
    let n = |f: fn(&Decision) -> bool| t.decisions.iter().filter(|d| f(d)).count();
    let plural = crate::output::counted;
    format!(
        "{} ({}, {}, {}), {}",
        plural(t.decisions.len(), "decision"),
        plural(n(|d| matches!(d, Decision::Branch(_))), "branch"),
        plural(n(|d| matches!(d, Decision::Switch(_))), "switch"),
        plural(n(|d| matches!(d, Decision::Call(_))), "indirect call"),
        plural(t.inputs.len(), "input")
    )
}

/// The decisions as words: `T`/`F` for branch outcomes (runs as `T×12`),
/// `case 2` / `default` for switches, `call f` for indirect calls.
fn readable(t: &ThreadPath) -> Vec<String> {
    let mut words = Vec::new();
    let mut i = 0;
    while i < t.decisions.len() {
        let d = t.decisions[i];
        let run = t.decisions[i..].iter().take_while(|x| **x == d).count();
        let word = match d {
            Decision::Branch(b) => {
                let c = if b { "T" } else { "F" };
                if run > 1 {
                    format!("{c}×{run}")
                } else {
                    c.to_string()
                }
            }
            Decision::Switch(0) => "default".to_string(),
            Decision::Switch(k) => format!("case {k}"),
            Decision::Call(k) => format!("call {}", t.targets.get(k as usize).map(String::as_str).unwrap_or("?")),
        };
        words.push(word);
        i += if matches!(d, Decision::Branch(_)) { run } else { 1 };
    }
    if words.is_empty() {
        words.push("(no decisions)".to_string());
    }
    words
}

fn to_json(log: &PathLog) -> serde_json::Value {
    let threads: Vec<serde_json::Value> = log
        .threads
        .iter()
        .map(|t| {
            let decisions: Vec<serde_json::Value> = t
                .decisions
                .iter()
                .map(|d| match d {
                    Decision::Branch(b) => serde_json::json!(b),
                    Decision::Switch(k) => serde_json::json!({ "switch": k }),
                    Decision::Call(k) => serde_json::json!({ "call": t.targets.get(*k as usize) }),
                })
                .collect();
            serde_json::json!({
                "thread": t.thread.to_string(),
                "inputs": t.inputs.iter().map(|(f, v)| serde_json::json!({ "function": f, "value": v.to_string() })).collect::<Vec<_>>(),
                "decisions": decisions,
                "decisions_left_out": t.trimmed,
                "once_calls": t.onces.iter().map(|o| causa_core::once_step::describe((*o).into())).collect::<Vec<_>>(),
                "values": t.values.iter().map(u64::to_string).collect::<Vec<_>>(),
                "lock_tries": t.tries,
                "call_sizes": t.sizes.iter().map(u64::to_string).collect::<Vec<_>>(),
                "sync_objects": t.objects.iter().map(|a| format!("{a:#x}")).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "schema": 1,
        "command": "log show",
        "program": log.program,
        "fingerprint": log.fingerprint,
        "memory_model": log.memory_model,
        "argv": log.argv,
        "failure": log.failure,
        "native_crash": log.native_crash,
        "interrupted": log.interrupted,
        "threads": threads,
    })
}
