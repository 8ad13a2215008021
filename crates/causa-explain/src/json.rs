//! `--json`: the events, edges, figures, mode and solver time.

use crate::{Explanation, Flow, Run};
use causa_symbolic::EventRef;
use serde_json::{json, Value};

pub fn render(e: &Explanation) -> Value {
    let f = &e.failure;
    let ev = |r: &EventRef| {
        json!({
            "thread": e.threads[r.0].to_string(),
            "index": r.1,
            "op": e.info_of(*r).op,
            "object": e.object(*r),
            "alternate_object": e.object_in(*r, Run::Alternate),
            "location": e.line(*r),
            "function": e.info_of(*r).function.as_deref(),
            "failing_value": e.value(*r, Run::Failing),
            "alternate_value": e.value(*r, Run::Alternate),
        })
    };
    let id = |r: &EventRef| format!("{}#{}", e.threads[r.0], r.1);
    // A bulk read's flow covers some of its bytes: named, and counted.
    let flow = |fl: &Flow| match fl.bytes {
        None => json!({ "read": id(&fl.read), "write": fl.write.as_ref().map(id) }),
        Some((_, n)) => {
            json!({ "read": id(&fl.read), "write": fl.write.as_ref().map(id), "part": e.flow_part(fl), "bytes": n })
        }
    };
    let switch = |(a, b): &(EventRef, EventRef)| json!([id(a), id(b)]);
    let d = &e.dsp;
    // (The heap blocks the failing run's events name, where allocated.)
    let texts: Vec<String> = e
        .failing
        .iter()
        .map(|r| format!("{} {}", e.event_text(*r), e.value(*r, Run::Failing).unwrap_or_default()))
        .collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let heap_blocks = causa_report::legend::named(&e.heap_blocks, &texts);
    json!({
        "heap_blocks": heap_blocks,
        "schema": 1,
        "command": "explain",
        "mode": e.mode.name(),
        "memory_model": e.memory_model.to_string(),
        "verdict": "bug",
        "bug": { "kind": f.kind.code(), "thread": f.thread.to_string(), "message": f.message, "location": f.location.as_ref().map(|l| l.to_string()) },
        "summary": crate::summary::summary(e),
        "failing_events": e.failing.len(),
        "failing_from_run": e.failing_from_run,
        "extended_threads": e.extended.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
        "not_followed": e.not_followed,
        "root_cause": e.root_cause.iter().map(id).collect::<Vec<_>>(),
        "alternate_found": e.alternate.is_some(),
        "alternate_fails": e.alternate_outcome.as_ref().map(|o| o.finding().is_some()),
        "inverted": e.inverted.as_ref().map(|(a, b)| vec![id(a), id(b)]),
        "window": e.window.map(|w| json!({ "segments": w, "of": e.segments, "held_events": e.held })),
        "optimal": e.optimal,
        "flipped": e.flipped.as_ref().map(|fl| json!({
            "thread": e.threads[fl.thread].to_string(),
            "location": fl.loc.as_ref().map(|l| l.to_string()),
            "taken_in_failing_run": fl.taken,
            "switch": fl.switch,
            "object": fl.object,
            "events_before": fl.events_before,
            "new_path": fl.new_path,
        })),
        "flips_tried": e.flips_tried,
        "rejected": e.rejected,
        "lost_updates_set_aside": e.lost_updates,
        "deadlock": e.deadlock.iter().map(|w| json!({
            "thread": e.threads[w.thread].to_string(),
            "waits_for": e.object(w.waits),
            "waits_at": id(&w.waits),
            "held_by": id(&w.held_by),
        })).collect::<Vec<_>>(),
        "lost_signals": e.lost_signals.iter().map(|l| json!({
            "thread": e.threads[l.thread].to_string(),
            "wait": id(&l.wait),
            "signals": l.signals.iter().map(id).collect::<Vec<_>>(),
            "woke": l.woke.iter().map(id).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "exhausted": e.exhausted.iter().map(|x| json!({
            "thread": e.threads[x.thread].to_string(),
            "wait": id(&x.wait),
            "read": id(&x.read),
            "signals": x.signals.iter().map(id).collect::<Vec<_>>(),
            "taken": x.taken.iter().map(id).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "short_barriers": e.short_barriers.iter().map(|b| json!({
            "barrier": b.arrivals.first().and_then(|r| e.object(*r)),
            "count": b.count,
            "arrivals": b.arrivals.iter().map(id).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "starved": e.starved.iter().map(|s| json!({
            "thread": e.threads[s.thread].to_string(),
            "semaphore": e.object(s.wait),
            "wait": id(&s.wait),
            "posts": s.posts.iter().map(id).collect::<Vec<_>>(),
            "taken": s.taken.iter().map(id).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "dsp": {
            "events": d.events.iter().map(|r| { let mut v = ev(r); v["id"] = json!(id(r)); v }).collect::<Vec<_>>(),
            "alternate_order": d.alternate_events.iter().map(id).collect::<Vec<_>>(),
            "failing_flows": d.failing_only.iter().map(flow).collect::<Vec<_>>(),
            "alternate_flows": d.alternate_only.iter().map(flow).collect::<Vec<_>>(),
            "failing_switches": d.failing_switches.iter().map(switch).collect::<Vec<_>>(),
            "alternate_switches": d.alternate_switches.iter().map(switch).collect::<Vec<_>>(),
            "atomic": d.atomic.iter().map(|a| json!({ "thread": e.threads[a.thread].to_string(), "events": a.events.iter().map(id).collect::<Vec<_>>() })).collect::<Vec<_>>(),
        },
        "figures": {
            "operations": d.figures.operations,
            "data_flow_variations": d.figures.data_flows,
            "broken_segments": d.figures.broken_segments,
            "context_switch_variations": d.figures.context_switches,
        },
        "stats": { "pairs_tried": e.pairs_tried, "queries": e.queries, "solver_seconds": e.solve_time.as_secs_f64(), "arithmetic": e.arithmetic.name(), "seconds": e.total_time.as_secs_f64(), "timed_out": e.timed_out },
    })
}
