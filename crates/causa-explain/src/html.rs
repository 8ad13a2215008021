//! `--html FILE`: one self-contained page (inline CSS and SVG, no script, no
//! network): the summary, the four figures, swim lanes of both schedules
//! (a lane per thread, only the projection's events) with the differing
//! data flows as arrows and the segments to make atomic boxed, the source
//! lines involved, and the full failing schedule folded.

use crate::{Explanation, Run};
use causa_symbolic::EventRef;
use std::collections::BTreeMap;
use std::fmt::Write;

const LANE: usize = 210;
/// Room right of the lanes for the data-flow arrows' bends.
const MARGIN: usize = 90;
const ROW: usize = 40;
const TOP: usize = 36;

pub fn render(e: &Explanation) -> String {
    let f = &e.failure;
    let mut o = String::new();
    let at = f.location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
    let title = format!("{} in thread {}{at}", f.kind, f.thread);
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>causa explain: {}</title>\n<style>{}</style></head><body>\n",
        esc(&title),
        STYLE
    );
    let _ = writeln!(o, "<h1>causa explain</h1><p class=\"bug\">{}</p>", esc(&title));
    let _ = writeln!(o, "<p class=\"msg\">{}</p>", esc(&f.message));
    let _ = writeln!(o, "<h2>Summary</h2><p class=\"summary\">{}</p>", esc(&crate::summary::summary(e)));
    if let (Some(fl), Some(t)) = (&e.flipped, e.try_text()) {
        let _ = writeln!(
            o,
            "<p class=\"flip\">Control flow differs: thread {}'s {} failed in the failing run and succeeds in the alternate; its failing-run events from that try on are not run by the alternate, which re-executes the other way{}.</p>",
            esc(&e.threads[fl.thread].to_string()),
            esc(&t),
            esc(&e.new_path_items(12).map(|p| format!("; it runs instead: {}", p.join(", "))).unwrap_or_default())
        );
    } else if let (Some(fl), Some(b)) = (&e.flipped, e.flip_text()) {
        let _ = writeln!(
            o,
            "<p class=\"flip\">Control flow differs: thread {} takes {}{}; its failing-run events {} are not run by the alternate, which re-executes the other way{}.</p>",
            esc(&e.threads[fl.thread].to_string()),
            esc(&b),
            if fl.switch || fl.object { "" } else if fl.taken { " (taken in the failing run: yes)" } else { " (taken in the failing run: no)" },
            if fl.object { "from that call on" } else { "after the branch" },
            esc(&e.new_path_items(12).map(|p| format!("; it runs instead: {}", p.join(", "))).unwrap_or_default())
        );
    }
    let _ = writeln!(
        o,
        "<p class=\"meta\">mode {}{} · failing schedule {} events · root cause: {} · replayed alternate: {} · solver {:.3} s ({} queries)</p>",
        e.mode,
        if e.memory_model.buffers_stores() {
            format!(" · memory model {} (a store is shown where it becomes visible: flush)", e.memory_model.to_string().to_uppercase())
        } else {
            String::new()
        },
        e.failing.len(),
        esc(&crate::text::root_cause(e)),
        esc(&crate::text::outcome(e.alternate_outcome.as_ref())),
        e.solve_time.as_secs_f64(),
        e.queries
    );
    for note in [crate::text::set_aside(e), crate::text::taken_further(e)].into_iter().flatten() {
        let _ = writeln!(o, "<p class=\"meta\">{}</p>", esc(&format!("{note}.")));
    }
    if e.alternate.is_some() {
        let g = &e.dsp.figures;
        let _ = writeln!(
            o,
            "<table class=\"figures\"><tr><th>operations</th><th>data-flow variations</th><th>broken segments</th><th>context-switch variations</th></tr><tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr></table>",
            g.operations, g.data_flows, g.broken_segments, g.context_switches
        );
        let _ = writeln!(o, "<div class=\"lanes\">");
        let _ = writeln!(o, "<div><h2>Failing schedule</h2>{}</div>", lanes(e, &e.dsp.events, Run::Failing));
        let _ =
            writeln!(o, "<div><h2>Alternate schedule</h2>{}</div>", lanes(e, &e.dsp.alternate_events, Run::Alternate));
        let _ = writeln!(o, "</div>");
        let _ = writeln!(
            o,
            "<p class=\"legend\"><span class=\"red\">red arrow</span>: a data flow only the failing schedule has · <span class=\"green\">green arrow</span>: one only the alternate has · dashed box: should run atomically · ⋮: follows events of its thread the projection leaves out</p>"
        );
        o.push_str(&sources(e));
    }
    let legend = crate::text::heap_legend(e, &[&o]);
    if let Some((_, rows)) = legend.split_once('\n') {
        let _ = writeln!(
            o,
            "<h2>Heap blocks</h2><p class=\"meta\">Events name a heap block by the thread that allocated it and its order there; where each was allocated:</p><pre class=\"src\">{}</pre>",
            esc(rows.trim_end())
        );
    }
    let _ = writeln!(
        o,
        "<details><summary>Full failing schedule ({} events)</summary><ol class=\"full\">",
        e.failing.len()
    );
    for r in &e.failing {
        let v = e.value(*r, Run::Failing).map(|v| format!(" = {v}")).unwrap_or_default();
        let cls = if e.dsp.events.contains(r) { " class=\"shown\"" } else { "" };
        let _ = writeln!(o, "<li{cls}>{}{}</li>", esc(&e.event_text(*r)), esc(&v));
    }
    let _ = writeln!(o, "</ol></details>\n</body></html>");
    o
}

/// A schedule as swim lanes: an SVG with a lane per thread.
fn lanes(e: &Explanation, order: &[EventRef], run: Run) -> String {
    let mut threads: Vec<usize> = e.dsp.events.iter().chain(&e.dsp.alternate_events).map(|r| r.0).collect();
    threads.sort();
    threads.dedup();
    let lane = |t: usize| threads.iter().position(|x| *x == t).unwrap_or(0);
    let pos: BTreeMap<EventRef, (usize, usize)> =
        order.iter().enumerate().map(|(i, r)| (*r, (lane(r.0) * LANE + 8, TOP + i * ROW))).collect();
    let (w, h) = (threads.len() * LANE + MARGIN, TOP + order.len() * ROW + 10);
    let mut s =
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">");
    s.push_str("<defs><marker id=\"ah\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"context-stroke\"/></marker></defs>");
    for (i, t) in threads.iter().enumerate() {
        let x = i * LANE;
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"0\" width=\"{}\" height=\"{h}\" class=\"lane{}\"/><text x=\"{}\" y=\"22\" class=\"head\">{}</text>",
            x + 2,
            LANE - 4,
            i % 2,
            x + 10,
            esc(&e.thread_text(*t))
        );
    }
    if run == Run::Alternate {
        for a in &e.dsp.atomic {
            let ys: Vec<usize> = a.events.iter().filter_map(|r| pos.get(r).map(|p| p.1)).collect();
            if let (Some(lo), Some(hi)) = (ys.iter().min(), ys.iter().max()) {
                let _ = write!(
                    s,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"atomic\"/>",
                    lane(a.thread) * LANE + 4,
                    lo - 4,
                    LANE - 8,
                    hi - lo + ROW
                );
            }
        }
    }
    let (flows, class) = match run {
        Run::Failing => (&e.dsp.failing_only, "red"),
        Run::Alternate => (&e.dsp.alternate_only, "green"),
    };
    let gaps = crate::text::after_left_out(order);
    for (r, (x, y)) in &pos {
        // The operation on the first line; its value and source line on the
        // second, so that a long object name never hides the value; the
        // whole text as the box's tooltip.
        let v = e.value(*r, run).map(|v| format!("= {v}")).unwrap_or_default();
        let line = e.line(*r).unwrap_or_default();
        let op = match gaps.contains(r) {
            true => format!("{} {}", crate::text::SKIPPED, e.op_text_in(*r, run)),
            false => e.op_text_in(*r, run),
        };
        let second = value_and_line(&v, &line, 30);
        let differs = flows.iter().any(|f| f.read == *r);
        let _ = write!(
            s,
            "<g><title>{}</title><rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" rx=\"5\" class=\"ev{}\"/><text x=\"{}\" y=\"{}\">{}</text><text x=\"{}\" y=\"{}\" class=\"loc\">{}</text></g>",
            esc(&format!("{op} {v} {line}")),
            LANE - 16,
            ROW - 8,
            if differs { " differs" } else { "" },
            x + 6,
            y + 14,
            esc(&clip(&op, 26)),
            x + 6,
            y + 27,
            esc(&second)
        );
    }
    for f in flows {
        let (Some(w), Some(r)) = (f.write.and_then(|w| pos.get(&w)), pos.get(&f.read)) else { continue };
        let (x1, y1) = (w.0 + LANE - 16, w.1 + (ROW - 8) / 2);
        let (x2, y2) = (r.0 + LANE - 16, r.1 + (ROW - 8) / 2);
        let bend = x1.max(x2) + 20 + (y2.abs_diff(y1) / 8).min(MARGIN - 25);
        let _ = write!(s, "<path d=\"M{x1},{y1} C{bend},{y1} {bend},{y2} {x2},{y2}\" class=\"flow {class}\" marker-end=\"url(#ah)\"/>");
    }
    s.push_str("</svg>");
    s
}

/// The source lines of the projection's events (in either schedule: the
/// writes the alternate moves before the failure may be ones the failing
/// run never reached), a line of context each side.
fn sources(e: &Explanation) -> String {
    let mut lines: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for r in e.dsp.events.iter().chain(&e.dsp.alternate_events) {
        if let Some(l) = &e.info_of(*r).loc {
            lines.entry(l.file.to_string()).or_default().push(l.line);
        }
    }
    let mut o = String::from("<h2>Source</h2>");
    for (file, mut ls) in lines {
        ls.sort();
        ls.dedup();
        let Some(text) = causa_ir::source::read_source(&file) else {
            let _ = writeln!(o, "<p class=\"meta\">{}: not readable here</p>", esc(&file));
            continue;
        };
        let src: Vec<&str> = text.lines().collect();
        let _ = writeln!(o, "<h3>{}</h3><pre class=\"src\">", esc(causa_interp::memory::short_file(&file)));
        let mut last = 0usize;
        for &l in &ls {
            let (lo, hi) = ((l as usize).saturating_sub(1).max(1).max(last + 1), (l as usize + 1).min(src.len()));
            if lo > last + 1 && last > 0 {
                o.push_str("<span class=\"gap\">   ⋮</span>");
            }
            for n in lo..=hi {
                let cls = if ls.contains(&(n as u32)) { "hl" } else { "ctx" };
                let _ =
                    write!(o, "<span class=\"{cls}\">{n:>4}  {}</span>", esc(src.get(n - 1).copied().unwrap_or("")));
            }
            last = last.max(hi);
        }
        o.push_str("</pre>");
    }
    o
}

/// A box's second line, `= 3 · bank.c:14`, in at most `n` characters: a
/// long file name is cut from its start, so that the line number stays
/// (`= 3 · …_two_workers.c:37`), and then the value from its end.
fn value_and_line(v: &str, line: &str, n: usize) -> String {
    let sep = if v.is_empty() || line.is_empty() { "" } else { " · " };
    let len = |s: &str| s.chars().count();
    let room = n.saturating_sub(len(v) + len(sep)).max(12.min(len(line)));
    let line = match len(line) > room {
        true => format!("…{}", line.chars().skip(len(line) + 1 - room).collect::<String>()),
        false => line.to_string(),
    };
    let v = clip(v, n.saturating_sub(len(sep) + len(&line)).max(1));
    format!("{v}{sep}{line}")
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:16px;color:#222}\
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:18px 0 6px}h3{font-size:14px;margin:10px 0 4px}\
.bug{font-weight:600;color:#a00;margin:0}.msg{color:#555;margin:2px 0 8px}\
.flip{background:#eef4ff;border-left:4px solid #3060c0;padding:8px 12px}\
.summary{background:#fff8e0;border-left:4px solid #e0b000;padding:8px 12px;line-height:1.45}\
.meta,.legend{color:#555;font-size:13px}.red{color:#c00}.green{color:#080}\
table.figures{border-collapse:collapse;margin:8px 0}table.figures td,table.figures th{border:1px solid #ccc;padding:4px 10px;text-align:center;font-size:13px}\
.lanes{display:flex;gap:24px;flex-wrap:wrap;align-items:flex-start}\
svg text{font-family:monospace;font-size:12px;fill:#222}svg text.head{font-weight:bold;font-family:system-ui,sans-serif}svg text.loc{fill:#666;font-size:10px}\
.lane0{fill:#f4f6fa}.lane1{fill:#eef1f6}.ev{fill:#fff;stroke:#99a}.ev.differs{stroke:#c60;stroke-width:2}\
.atomic{fill:none;stroke:#333;stroke-dasharray:6 4;stroke-width:1.5}\
.flow{fill:none;stroke-width:2}.flow.red{stroke:#c00}.flow.green{stroke:#080}\
pre.src{background:#f7f7f7;padding:6px;font-size:12px}.hl{background:#ffe9a8;display:block}.ctx{color:#777;display:block}.gap{color:#aaa;display:block}\
ol.full{font-family:monospace;font-size:12px}ol.full li.shown{font-weight:bold}";

#[cfg(test)]
mod tests {
    #[test]
    fn a_boxs_second_line_keeps_the_line_number() {
        use super::value_and_line;
        assert_eq!(value_and_line("= 3", "bank.c:14", 30), "= 3 · bank.c:14");
        let long = "shutdown_signals_one_of_two_workers.c:37";
        let got = value_and_line("= 3", long, 30);
        assert_eq!(got.chars().count(), 30, "{got}");
        assert!(got.starts_with("= 3 · …") && got.ends_with("_workers.c:37"), "{got}");
        assert!(value_and_line("", long, 30).ends_with(".c:37"));
        // A long value gives way to a line of at least 12 characters.
        let got = value_and_line("= 0x7fffffffe000 (a pointer)", long, 30);
        assert!(got.ends_with("…orkers.c:37") && got.chars().count() <= 30, "{got}");
        assert_eq!(value_and_line("= 1", "", 30), "= 1");
    }
}
