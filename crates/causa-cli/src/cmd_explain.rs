//! `causa explain PROG --schedule FILE`: replay the failing schedule with its
//! paths recorded and show what differs from the most similar schedule that
//! does not fail (`causa_explain`, Symbiosis mode).

use crate::args::ExplainArgs;
use crate::cmd_run::read_schedule;
use crate::load::{config, load, Failure, EXIT_BUG, EXIT_UNSUPPORTED};
use causa_explain::{EventInfo, Explanation, Flow};
use causa_explore::replay;
use causa_interp::memory::short_file;
use causa_interp::{Outcome, OutputMode};
use causa_symbolic::symbiosis::EventRef;
use std::collections::HashMap;

pub fn run(args: &ExplainArgs) -> Result<i32, Failure> {
    let c = &args.common;
    let prep = load(c)?;
    let schedule = read_schedule(&args.schedule, &prep.program.fingerprint)?;
    let mut cfg = config(c, 0, &[], OutputMode::Capture);
    cfg.record_paths = true;
    let ex = replay(&prep, &cfg, &schedule);
    let Some(f) = ex.outcome.finding().cloned() else {
        return Err(Failure::input(
            "no-failure",
            format!("{} does not fail when replayed: there is nothing to explain", args.schedule.display()),
        ));
    };
    let e = causa_explain::explain(&prep, &cfg, &ex).map_err(|e| Failure {
        exit: EXIT_UNSUPPORTED,
        code: "cannot-explain",
        message: e.to_string(),
    })?;
    // Object names from the replayed execution's readable events.
    let names: HashMap<u64, String> =
        ex.events.iter().zip(&ex.records).filter_map(|(ev, r)| r.object.clone().map(|o| (ev.addr, o))).collect();
    let view = View { e: &e, names };
    if c.json {
        println!("{}", serde_json::to_string_pretty(&view.json(&f)).unwrap_or_default());
        return Ok(EXIT_BUG);
    }
    let at = f.location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
    println!("causa explain: {} in thread {}{at} (mode symbiosis)", f.kind, f.thread);
    println!(
        "  failing schedule ({}): {} events\n  root cause: {} events (unsat core); {} pair{} inverted and tried",
        if e.failing_from_run {
            "the replayed run's own order"
        } else {
            "the solver's on the replayed run's paths, with the fewest context switches"
        },
        e.failing.len(),
        e.root_cause.len(),
        e.pairs_tried,
        if e.pairs_tried == 1 { "" } else { "s" }
    );
    let Some((a, b, _)) = &e.alternate else {
        println!();
        println!("no alternate schedule: inverting no single pair of root-cause events avoids the failure");
        println!("(the failure may need two orders changed at once, or another path; not handled yet)");
        return Ok(EXIT_BUG);
    };
    println!("  alternate schedule: {} moved before {}", view.event(*b), view.event(*a));
    println!("  replayed, the alternate schedule {}", outcome(e.alternate_outcome.as_ref()));
    println!();
    let reads = e.dsp.failing_only.len().max(e.dsp.alternate_only.len());
    println!(
        "differential schedule projection: {} of {} events; {} read{} another write",
        e.dsp.events.len(),
        e.failing.len(),
        reads,
        if reads == 1 { " sees" } else { "s see" }
    );
    for fl in &e.dsp.failing_only {
        let other = e.dsp.alternate_only.iter().find(|g| g.read == fl.read);
        println!("  {}", view.event(fl.read));
        println!("      failing:   {}", view.source(fl));
        println!("      alternate: {}", other.map(|g| view.source(g)).unwrap_or_else(|| "(does not happen)".into()));
    }
    for g in e.dsp.alternate_only.iter().filter(|g| !e.dsp.failing_only.iter().any(|f| f.read == g.read)) {
        println!("  {}", view.event(g.read));
        println!("      failing:   (does not happen)");
        println!("      alternate: {}", view.source(g));
    }
    println!();
    println!("failing order of the projection's events:");
    for ev in &e.dsp.events {
        println!("  {}", view.event(*ev));
    }
    println!();
    println!(
        "solver: {} queries, {:.3}s; total {:.3}s",
        e.queries,
        e.solve_time.as_secs_f64(),
        e.total_time.as_secs_f64()
    );
    Ok(EXIT_BUG)
}

fn outcome(o: Option<&Outcome>) -> String {
    match o {
        Some(Outcome::Exit(c)) => format!("runs to the end (exit code {c})"),
        Some(Outcome::Bug(f)) => format!("fails too: {} in thread {}", f.kind, f.thread),
        Some(other) => format!("ends with {other:?}"),
        None => "was not run".into(),
    }
}

struct View<'a> {
    e: &'a Explanation,
    names: HashMap<u64, String>,
}

impl View<'_> {
    fn info(&self, r: EventRef) -> &EventInfo {
        &self.e.info[r.0][r.1]
    }

    /// `thread 0.1 read balance at bank.c:4`
    fn event(&self, r: EventRef) -> String {
        let i = self.info(r);
        let obj = i.addr.map(|a| self.names.get(&a).cloned().unwrap_or_else(|| format!("{a:#x}")));
        format!("thread {} {}{}{}", self.e.threads[r.0], i.op, obj.map(|o| format!(" {o}")).unwrap_or_default(), at(i))
    }

    /// Where a flow's read takes its value from.
    fn source(&self, f: &Flow) -> String {
        match f.write {
            Some(w) => {
                let i = self.info(w);
                format!("the {} by thread {}{}", i.op, self.e.threads[w.0], at(i))
            }
            None => "the initial value".into(),
        }
    }

    fn json(&self, f: &causa_core::Finding) -> serde_json::Value {
        let ev = |r: &EventRef| serde_json::json!({ "thread": self.e.threads[r.0].to_string(), "event": r.1, "text": self.event(*r) });
        let flow = |fl: &Flow| serde_json::json!({ "read": ev(&fl.read), "write": fl.write.as_ref().map(ev) });
        serde_json::json!({
            "schema": 1,
            "command": "explain",
            "mode": "symbiosis",
            "verdict": "bug",
            "bug": { "kind": f.kind.code(), "thread": f.thread.to_string(), "message": f.message, "location": f.location.as_ref().map(|l| l.to_string()) },
            "failing_events": self.e.failing.len(),
            "failing_from_run": self.e.failing_from_run,
            "root_cause": self.e.root_cause.iter().map(ev).collect::<Vec<_>>(),
            "inverted": self.e.alternate.as_ref().map(|(a, b, _)| vec![ev(a), ev(b)]),
            "alternate_fails": self.e.alternate_outcome.as_ref().map(|o| matches!(o, Outcome::Bug(_))),
            "dsp": {
                "events": self.e.dsp.events.iter().map(ev).collect::<Vec<_>>(),
                "failing_flows": self.e.dsp.failing_only.iter().map(flow).collect::<Vec<_>>(),
                "alternate_flows": self.e.dsp.alternate_only.iter().map(flow).collect::<Vec<_>>(),
            },
            "stats": { "pairs_tried": self.e.pairs_tried, "queries": self.e.queries, "solver_seconds": self.e.solve_time.as_secs_f64(), "seconds": self.e.total_time.as_secs_f64() },
        })
    }
}

/// ` at bank.c:14`, or nothing without a location.
fn at(i: &EventInfo) -> String {
    i.loc.as_ref().map(|l| format!(" at {}:{}", short_file(&l.file), l.line)).unwrap_or_default()
}
