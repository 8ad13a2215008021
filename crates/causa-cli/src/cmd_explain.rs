//! `causa explain PROG --schedule FILE`: replay the failing schedule with its
//! paths recorded and show what differs from the most similar schedule that
//! does not fail (`causa_explain`).

use crate::args::ExplainArgs;
use crate::cmd_run::read_schedule;
use crate::explain_out::{print_text, write_files};
use crate::load::{config, load, Failure, EXIT_BUG, EXIT_UNSUPPORTED};
use causa_explore::replay;
use causa_interp::OutputMode;

pub fn run(args: &ExplainArgs) -> Result<i32, Failure> {
    let c = &args.common;
    let prep = load(c)?;
    let schedule = read_schedule(&args.schedule, &prep.program.fingerprint)?;
    let mut cfg = config(c, 0, &[], OutputMode::Capture);
    cfg.record_paths = true;
    let ex = replay(&prep, &cfg, &schedule);
    if ex.outcome.finding().is_none() {
        return Err(Failure::input(
            "no-failure",
            format!("{} does not fail when replayed: there is nothing to explain", args.schedule.display()),
        ));
    }
    let e = causa_explain::explain(&prep, &cfg, &ex, &args.explain.options()).map_err(|e| Failure {
        exit: EXIT_UNSUPPORTED,
        code: "cannot-explain",
        message: e.to_string(),
    })?;
    let files = write_files(&e, &args.explain)?;
    if c.json {
        println!("{}", serde_json::to_string_pretty(&causa_explain::json::render(&e)).unwrap_or_default());
        return Ok(EXIT_BUG);
    }
    print_text(&e, &files);
    Ok(EXIT_BUG)
}
