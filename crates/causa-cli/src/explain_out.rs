//! Explaining a failing execution from the command line: `causa explain`
//! and the explanation `check`, `test` and `reproduce` print after a bug
//! (unless `--no-explain`).

use crate::args::{AutoExplain, ExplainFlags};
use crate::load::Failure;
use causa_explain::Explanation;
use causa_explore::{replay, schedule_of};
use causa_interp::{Config, Execution, Prepared};
use std::sync::Arc;

/// Replay `ex`'s schedule with its paths recorded and explain its failure.
pub fn explain_execution(
    prep: &Arc<Prepared>,
    cfg: &Config,
    ex: &Execution,
    flags: &ExplainFlags,
) -> Result<Explanation, String> {
    let mut cfg = cfg.clone();
    cfg.record_paths = true;
    let recorded = if ex.paths.is_empty() { replay(prep, &cfg, &schedule_of(prep, ex)) } else { ex.clone() };
    if recorded.outcome.finding().is_none() {
        return Err("the failing schedule did not fail when replayed with its paths recorded".into());
    }
    causa_explain::explain(prep, &cfg, &recorded, &flags.options()).map_err(|e| e.to_string())
}

/// Write the `--html` and `--dot` files the flags ask for.
pub fn write_files(e: &Explanation, flags: &ExplainFlags) -> Result<Vec<String>, Failure> {
    let mut written = Vec::new();
    let write = |path: &std::path::Path, text: String| {
        std::fs::write(path, text)
            .map_err(|err| Failure::input("io-error", format!("cannot write {}: {err}", path.display())))
    };
    if let Some(p) = &flags.html {
        write(p, causa_explain::html::render(e))?;
        written.push(format!("HTML report: {}", p.display()));
    }
    if let Some(p) = &flags.dot {
        write(p, causa_explain::dot::render(e))?;
        written.push(format!("Graphviz graph: {} (render with `dot -Tsvg`)", p.display()));
    }
    Ok(written)
}

/// The terminal view, then where the `--html` and `--dot` files went.
pub fn print_text(e: &Explanation, files: &[String]) {
    print!("{}", causa_explain::text::render(e));
    for f in files {
        println!("{f}");
    }
}

/// After a command found a bug: explain it (unless `--no-explain`). With
/// `json`, returns the explanation's JSON (or its error) to add to the
/// report; else prints it.
pub fn after_bug(
    prep: &Arc<Prepared>,
    cfg: &Config,
    ex: &Execution,
    auto: &AutoExplain,
    json: bool,
) -> Result<Option<serde_json::Value>, Failure> {
    // A data race's report already names its two accesses: there is no
    // failing run to explain (`causa explain` on its schedule says so).
    let race = ex.outcome.finding().is_some_and(|f| f.kind == causa_core::BugKind::DataRace);
    if auto.no_explain || race {
        return Ok(None);
    }
    // Explaining can take seconds on long or arithmetic-heavy traces: say so
    // where a person is watching.
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        eprintln!("causa: explaining the bug (--no-explain skips this)…");
    }
    match explain_execution(prep, cfg, ex, &auto.flags) {
        Ok(e) => {
            let files = write_files(&e, &auto.flags)?;
            if json {
                return Ok(Some(causa_explain::json::render(&e)));
            }
            println!();
            print_text(&e, &files);
            Ok(None)
        }
        Err(msg) => {
            if json {
                return Ok(Some(serde_json::json!({ "error": msg })));
            }
            println!();
            println!("causa explain: cannot explain this failure: {msg}");
            Ok(None)
        }
    }
}

/// Add the explanation to a JSON report.
pub fn with_explanation(report: String, explanation: Option<serde_json::Value>) -> String {
    let Some(x) = explanation else { return report };
    match serde_json::from_str::<serde_json::Value>(&report) {
        Ok(mut v) => {
            v["explanation"] = x;
            serde_json::to_string_pretty(&v).unwrap_or(report)
        }
        Err(_) => report,
    }
}
