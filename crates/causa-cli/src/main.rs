//! The `causa` command: argument parsing, dispatch and exit codes only; the work
//! is done by the library crates.

mod args;
mod cmd_build;
mod cmd_check;
mod cmd_explain;
mod cmd_log;
mod cmd_reproduce;
mod cmd_run;
mod cmd_shims;
mod cmd_test;
mod explain_out;
mod load;
mod output;

use args::{Cli, Command};
use clap::Parser;

fn main() {
    // Behave like a C tool when the reader of our output goes away (`causa shims | head`).
    // SAFETY: restoring the default disposition of SIGPIPE before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    init_log();
    let (json, result) = match &cli.command {
        Command::Run(a) => (a.common.json, cmd_run::run(a)),
        Command::Test(a) => (a.common.json, cmd_test::run(a)),
        Command::Check(a) => (a.common.json, cmd_check::run(a)),
        Command::Shims(a) => (a.json, Ok(cmd_shims::run(a))),
        Command::Reproduce(a) => (a.common.json, cmd_reproduce::run(a)),
        Command::Explain(a) => (a.common.json, cmd_explain::run(a)),
        Command::Log(a) => (matches!(a.command, args::LogCommand::Show { json: true, .. }), cmd_log::run(a)),
        Command::Build(a) => (a.json, cmd_build::run(a)),
    };
    let code = match result {
        Ok(code) => code,
        Err(f) => {
            if json {
                let doc = serde_json::json!({
                    "schema": 1,
                    "command": match &cli.command { Command::Run(_) => "run", Command::Test(_) => "test", Command::Check(_) => "check", Command::Shims(_) => "shims", Command::Reproduce(_) => "reproduce", Command::Explain(_) => "explain", Command::Log(_) => "log", Command::Build(_) => "build" },
                    "verdict": "error",
                    "error": f.message,
                    "error_code": f.code,
                });
                println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
            } else {
                eprintln!("causa: error[{}]: {}", f.code, f.message);
            }
            f.exit
        }
    };
    std::process::exit(code);
}

/// Diagnostics of the tool's own work on stderr, off unless `CAUSA_LOG`
/// asks for them, with `tracing`'s filter syntax: `CAUSA_LOG=debug` shows
/// each phase of an explanation with its time, `CAUSA_LOG=trace` also each
/// solver query (docs/performance.md uses them to see where time goes).
fn init_log() {
    let Ok(filter) = std::env::var("CAUSA_LOG") else { return };
    let filter = match tracing_subscriber::EnvFilter::try_new(&filter) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("causa: warning: CAUSA_LOG={filter:?} is not a filter ({e}); diagnostics stay off");
            return;
        }
    };
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_target(false).init();
}
