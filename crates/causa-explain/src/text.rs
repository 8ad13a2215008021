//! The terminal view: the failing and the alternate schedule side by side
//! (one column per thread, only the projection's events, each with its
//! source line), the data flows that differ, the segments to make atomic,
//! the summary and the four quality figures.

use crate::{Explanation, Run};
use causa_interp::Outcome;
use causa_symbolic::EventRef;
use std::fmt::Write;

/// Widest total line before the two schedules go one above the other.
const WIDE: usize = 150;
/// Widest cell (longer texts are cut with `…`).
const CELL: usize = 40;

/// The root cause's size: `4 events (unsat core)`; an empty core says the
/// failure holds whatever the order.
pub(crate) fn root_cause(e: &Explanation) -> String {
    match e.root_cause.len() {
        0 if e.root_held > 0 => format!(
            "no order that keeps in the failing order the {} events whose order the failure does not depend on (the failing run's paths decide the failure then)",
            e.root_held
        ),
        0 => "no order (the failing run's paths alone decide the failure)".to_string(),
        1 => "1 event (unsat core)".to_string(),
        n => format!("{n} events (unsat core)"),
    }
}

pub fn render(e: &Explanation) -> String {
    let mut o = String::new();
    let f = &e.failure;
    let at = f.location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
    let _ = writeln!(o, "causa explain: {} in thread {}{at} (mode {})", f.kind, f.thread, e.mode);
    let _ = writeln!(
        o,
        "  failing schedule: {} event{} ({}); root cause: {}",
        e.failing.len(),
        if e.failing.len() == 1 { "" } else { "s" },
        if e.failing_from_run { "the run's own order" } else { "the solver's, with the fewest context switches" },
        root_cause(e)
    );
    if e.memory_model.buffers_stores() {
        let _ = writeln!(
            o,
            "  memory model {}: a store waits in its thread's store buffer; `flush` is where it becomes visible",
            e.memory_model.to_string().to_uppercase()
        );
    }
    let _ = writeln!(o, "  alternate schedule: {}", search(e));
    if let Some(note) = taken_further(e) {
        let _ = writeln!(o, "  ({note})");
    }
    if let Some(note) = set_aside(e) {
        let _ = writeln!(o, "  ({note})");
    }
    if e.alternate.is_some() {
        let _ = writeln!(
            o,
            "  replayed ({}), the alternate schedule {}",
            e.alternate_finish.as_deref().unwrap_or("not finished"),
            outcome(e.alternate_outcome.as_ref())
        );
    }
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "{}",
        causa_report::wrap(format!("Summary: {}", crate::summary::summary(e)).split_whitespace(), 100).join("\n")
    );
    if e.alternate.is_none() {
        let legend = heap_legend(e, &[&o]);
        if !legend.is_empty() {
            let _ = write!(o, "\n{legend}");
        }
        return o;
    }
    let d = &e.dsp;
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "Differential schedule projection: {} (operations {}, data-flow variations {}, broken segments {}, context-switch variations {})",
        if d.figures.operations <= e.failing.len() {
            format!("{} of {} events", d.figures.operations, e.failing.len())
        } else {
            format!(
                "{} events, of the failing schedule's {} and events the failing run never reached",
                d.figures.operations,
                e.failing.len()
            )
        },
        d.figures.operations,
        d.figures.data_flows,
        d.figures.broken_segments,
        d.figures.context_switches
    );
    let _ = writeln!(o);
    let tables = columns(e);
    let skips = tables.contains(SKIPPED);
    o.push_str(&tables);
    if skips {
        let _ = writeln!(o, "  ({SKIPPED} marks an event that follows events of its thread the projection leaves out)");
    }
    if let (Some(f), Some(path)) = (&e.flipped, e.new_path_items(12)) {
        let _ = writeln!(o);
        let at = e.flip_text().unwrap_or_default();
        let head = match e.try_text() {
            Some(t) => {
                format!("After its {t} succeeds, thread {} runs (in the replayed alternate):", e.threads[f.thread])
            }
            None => format!("After taking {at}, thread {} runs (in the replayed alternate):", e.threads[f.thread]),
        };
        // One event per word: an event is not split across lines.
        let n = path.len();
        let items: Vec<String> =
            path.into_iter().enumerate().map(|(i, p)| if i + 1 < n { format!("{p},") } else { p }).collect();
        let words = head.split_whitespace().chain(items.iter().map(String::as_str));
        let _ = writeln!(o, "{}", causa_report::wrap(words, 100).join("\n  "));
    }
    if !d.failing_only.is_empty() || !d.alternate_only.is_empty() {
        let _ = writeln!(o);
        let _ = writeln!(o, "Data flows that differ (* above): failing → alternate");
        // One line per read (per run of bytes of a bulk read).
        let mut keys: Vec<(EventRef, Option<(u64, u32)>)> =
            d.failing_only.iter().chain(&d.alternate_only).map(|f| (f.read, f.bytes)).collect();
        keys.sort();
        keys.dedup();
        // Three or more consecutive reads of one thread that the alternate
        // does not run (or does not follow) for the same reason are one
        // line ([`Folded`]).
        let mut group = Folded::default();
        let start = o.len();
        for (r, bytes) in keys {
            let foldable = bytes.is_none() && !d.alternate_only.iter().any(|f| f.read == r);
            match e.unshown(r).filter(|why| foldable && why.of_several().is_some()) {
                Some(why) => {
                    if !group.takes(r, &why) {
                        group.flush(e, &mut o);
                    }
                    group.push(r, why);
                    continue;
                }
                None => group.flush(e, &mut o),
            }
            let _ = writeln!(o, "{}", flow_line(e, r, bytes));
        }
        group.flush(e, &mut o);
        let lines = o.split_off(start);
        o.push_str(&same_lines_once(&lines));
    }
    if !d.atomic.is_empty() {
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "Should run atomically (another thread's access comes between them in the failing schedule only):"
        );
        // The same statements of the same thread (turns of a loop, repeated
        // calls) are listed once, with how many times.
        let mut lines: Vec<(String, usize)> = Vec::new();
        for a in &d.atomic {
            // (All in one file: named once, each event by its line.)
            let file = |r: &EventRef| e.info_of(*r).loc.as_ref().map(|l| causa_interp::memory::short_file(&l.file));
            let one = a.events.first().and_then(file).filter(|f| a.events.iter().all(|r| file(r) == Some(*f)));
            let at = |r: &EventRef| match (&one, &e.info_of(*r).loc) {
                (Some(_), Some(l)) => format!(":{}", l.line),
                _ => e.line(*r).unwrap_or_default(),
            };
            let evs: Vec<String> = a.events.iter().map(|r| format!("{} {}", e.op_text(*r), at(r))).collect();
            let whose = match &one {
                Some(f) => format!("{} in {f}", e.thread_text(a.thread)),
                None => e.thread_text(a.thread),
            };
            let line = format!("{whose}: {}", evs.join(", "));
            // (Kept whole for the count below; cut at events when printed.)
            match lines.iter_mut().find(|(l, _)| *l == line) {
                Some((_, n)) => *n += 1,
                None => lines.push((line, 1)),
            }
        }
        for (line, n) in lines {
            let times = if n > 1 { format!(" ({n} times)") } else { String::new() };
            // (A long region goes on over lines of its own, indented, cut
            // between two events: at most 100 columns with the indent.)
            let text = format!("{line}{times}");
            let items: Vec<&str> = text.split(", ").collect();
            let pieces: Vec<String> = items
                .iter()
                .enumerate()
                .map(|(i, item)| if i + 1 < items.len() { format!("{item},") } else { item.to_string() })
                .collect();
            for (i, row) in
                causa_report::wrap_hanging(pieces.iter().map(String::as_str), 98, 94).into_iter().enumerate()
            {
                let _ = writeln!(o, "{}{row}", if i == 0 { "  " } else { "      " });
            }
        }
    }
    let _ = writeln!(o);
    let legend = heap_legend(e, &[&o]);
    if !legend.is_empty() {
        let _ = writeln!(o, "{legend}");
    }
    if e.timed_out {
        let _ = writeln!(
            o,
            "The time limit ran out (--explain-timeout): the search stopped early, and a more similar alternate may exist."
        );
    }
    let _ = writeln!(
        o,
        "solver: {} queries ({}), {:.3}s; total {:.3}s",
        e.queries,
        e.arithmetic.name(),
        e.solve_time.as_secs_f64(),
        e.total_time.as_secs_f64()
    );
    o
}

/// Where the heap blocks `texts` name were allocated
/// ([`causa_report::render_heap_legend`]); empty when they name none.
pub(crate) fn heap_legend(e: &Explanation, texts: &[&str]) -> String {
    let blocks = causa_report::legend::named(&e.heap_blocks, texts);
    let cache = std::cell::RefCell::new(causa_ir::source::SourceCache::new());
    causa_report::render_heap_legend(&blocks, &|l| cache.borrow_mut().line(l))
}

/// How the alternate was searched and what came of it.
fn search(e: &Explanation) -> String {
    let Some(_) = &e.alternate else {
        return match e.mode {
            causa_symbolic::Mode::Symbiosis => {
                format!("none ({} pairs of the root cause inverted and tried)", e.pairs_tried)
            }
            _ => "none".into(),
        };
    };
    if let (Some(f), Some(b)) = (&e.flipped, e.flip_text()) {
        let paths = paths_rejected(e).unwrap_or_else(|| match e.held_stage {
            0 => "no schedule of the failing run's paths avoids the failure for good".into(),
            n => format!(
                "no schedule of the failing run's paths avoids the failure for good with the {n} events whose order it does not depend on kept in order"
            ),
        });
        let takes = match e.try_text() {
            Some(t) => format!("'s {t} succeeds"),
            None => format!(" takes {b}"),
        };
        return format!(
            "thread {}{takes} ({paths}; {} {} tried)",
            e.threads[f.thread],
            e.flips_tried,
            e.flips_noun(e.flips_tried)
        );
    }
    let how = match (e.mode, e.inverted, e.window) {
        // Progressive mode's window optimum, bettered by one inverted pair.
        (causa_symbolic::Mode::Progressive, Some((a, b)), Some(w)) => format!(
            "{} moved before {} ({} pair{} of the root cause tried; more similar than the best order with {w} of {} segments before the failure reordered)",
            e.event_text(b),
            e.event_text(a),
            e.pairs_tried,
            if e.pairs_tried == 1 { "" } else { "s" },
            e.segments
        ),
        (_, Some((a, b)), _) => format!(
            "{} moved before {} ({} pair{} tried)",
            e.event_text(b),
            e.event_text(a),
            e.pairs_tried,
            if e.pairs_tried == 1 { "" } else { "s" }
        ),
        (_, None, Some(w)) if e.held > 0 => format!(
            "{w} of {} segments before the failure reordered ({} of their events, whose order the failure does not depend on, kept in order)",
            e.segments,
            e.held
        ),
        (_, None, Some(w)) => format!("{w} of {} segments before the failure reordered", e.segments),
        _ => "every event free to move".into(),
    };
    let opt = match e.mode {
        causa_symbolic::Mode::Symbiosis => "",
        _ if e.inverted.is_some() => "",
        _ if e.optimal => ", optimal",
        _ => ", best found within the conflict budget",
    };
    // (Those set aside for losing an update are told on the next line.)
    let why = if e.lost_updates == 0 { "whose replay failed later" } else { "set aside" };
    let rejected = match e.rejected {
        0 => String::new(),
        n => format!(
            " among those with other data flows than the {n} more similar one{} {why}",
            if n == 1 { "" } else { "s" }
        ),
    };
    format!("{how}{opt}{rejected}")
}

/// The threads a neighbouring run took further, when any were.
pub(crate) fn taken_further(e: &Explanation) -> Option<String> {
    let names: Vec<String> = e.extended.iter().map(|t| format!("thread {t}")).collect();
    (!names.is_empty()).then(|| {
        format!(
            "{} had not got far when the failure stopped the run: the later path comes from a run of the failing schedule with the other threads first",
            names.join(", ")
        )
    })
}

/// When a branch was flipped after alternates of the failing run's paths
/// were rejected (their replay failed later, or they lost another update):
/// what became of those. (Without any, the paths' search found none, or
/// its first one failed the same check again later.)
pub(crate) fn paths_rejected(e: &Explanation) -> Option<String> {
    let n = e.rejected;
    let what = match e.lost_updates {
        0 => "failed later on replay",
        l if l >= n => "lost another update",
        _ => "failed later on replay or lost another update",
    };
    (n > 0 && e.flipped.is_some()).then(|| match n {
        1 => format!("the most similar schedule of the failing run's paths {what}"),
        n => format!("the {n} most similar schedules of the failing run's paths each {what}"),
    })
}

/// How many alternates were set aside for losing an update, when any were.
pub(crate) fn set_aside(e: &Explanation) -> Option<String> {
    let n = e.lost_updates;
    (n > 0).then(|| {
        format!(
            "{n} alternate{} that avoided the failure only by losing another update (a thread's write over one it did not read) set aside",
            if n == 1 { "" } else { "s" }
        )
    })
}

pub(crate) fn outcome(o: Option<&Outcome>) -> String {
    match o {
        Some(Outcome::Exit(c)) => format!("runs to the end (exit code {c})"),
        Some(Outcome::Bug(f)) => format!("fails too: {} in thread {}", f.kind, f.thread),
        Some(other) => format!("ends with {other:?}"),
        None => "was not run".into(),
    }
}

/// One schedule's projected events as a table: a column per thread.
fn table(e: &Explanation, title: &str, order: &[EventRef], run: Run, threads: &[usize]) -> Vec<String> {
    let d = &e.dsp;
    let differs = |r: EventRef| {
        let flows = if run == Run::Failing { &d.failing_only } else { &d.alternate_only };
        flows.iter().any(|f| f.read == r)
    };
    let cell = |r: EventRef| {
        let line = e.table_line(r);
        let v = e.value(r, run).map(|v| format!("={v}")).unwrap_or_default();
        let mark = if differs(r) { "*" } else { "" };
        cut(&format!("{mark}{}{v}{line}", e.op_text_in(r, run)))
    };
    let heads: Vec<String> = threads.iter().map(|t| cut(&e.thread_text(*t))).collect();
    let gaps = after_left_out(order);
    let mut cells: Vec<(usize, String)> = Vec::new();
    for r in order {
        let Some(c) = threads.iter().position(|t| *t == r.0) else { continue };
        cells.push((c, if gaps.contains(r) { format!("{SKIPPED} {}", cell(*r)) } else { cell(*r) }));
    }
    let width: Vec<usize> = (0..threads.len())
        .map(|c| {
            cells
                .iter()
                .filter(|(x, _)| *x == c)
                .map(|(_, s)| s.chars().count())
                .chain([heads[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let row = |texts: Vec<String>| -> String {
        texts.iter().zip(&width).map(|(t, w)| pad(t, *w)).collect::<Vec<_>>().join("  ")
    };
    let mut lines = vec![title.to_string(), row(heads.clone())];
    lines.push(row(width.iter().map(|w| "─".repeat(*w)).collect()));
    for (c, s) in cells {
        lines.push(row((0..threads.len()).map(|x| if x == c { s.clone() } else { String::new() }).collect()));
    }
    lines
}

/// The mark of a thread's event shown after some of its events the
/// projection leaves out.
pub(crate) const SKIPPED: &str = "⋮";

/// The events of `order` (one schedule's projection) that follow events
/// of their thread the projection leaves out: marked [`SKIPPED`], so that
/// a lock and an unlock two iterations apart do not read as a pair.
pub(crate) fn after_left_out(order: &[EventRef]) -> std::collections::BTreeSet<EventRef> {
    let mut last: std::collections::BTreeMap<usize, usize> = Default::default();
    let mut out = std::collections::BTreeSet::new();
    for r in order {
        if last.insert(r.0, r.1).is_some_and(|k| r.1 > k + 1) {
            out.insert(*r);
        }
    }
    out
}

/// Both schedules' tables, side by side when they fit.
fn columns(e: &Explanation) -> String {
    let d = &e.dsp;
    let mut threads: Vec<usize> = d.events.iter().chain(&d.alternate_events).map(|r| r.0).collect();
    threads.sort();
    threads.dedup();
    let left = table(e, "failing schedule", &d.events, Run::Failing, &threads);
    let right = table(e, "alternate schedule", &d.alternate_events, Run::Alternate, &threads);
    let lw = left.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let rw = right.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut o = String::new();
    if lw + rw + 3 <= WIDE {
        for i in 0..left.len().max(right.len()) {
            let l = left.get(i).map(String::as_str).unwrap_or("");
            let r = right.get(i).map(String::as_str).unwrap_or("");
            let _ = writeln!(o, "  {} │ {}", pad(l, lw), r.trim_end());
        }
    } else {
        for l in left.iter().chain([String::new()].iter()).chain(&right) {
            let _ = writeln!(o, "  {}", l.trim_end());
        }
    }
    o
}

fn pad(s: &str, w: usize) -> String {
    let n = s.chars().count();
    format!("{s}{}", " ".repeat(w.saturating_sub(n)))
}

/// A cell cut to [`CELL`] characters; its source line (` :14`) is kept and
/// the text before it is cut instead.
fn cut(s: &str) -> String {
    if s.chars().count() <= CELL {
        return s.to_string();
    }
    let line = s.rfind(" :").filter(|i| s[i + 2..].bytes().all(|b| b.is_ascii_digit()) && s.len() > i + 2);
    let (text, tail) = match line {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let keep = CELL.saturating_sub(tail.chars().count() + 1).max(1);
    let mut t: String = text.chars().take(keep).collect();
    t.push('…');
    t.push_str(tail);
    t
}

/// The line of the data flows of read `r` (of the bytes `bytes` of a bulk
/// read): `x (thread 0.2 at a.c:14): read 2 from … → read 1 from …`.
fn flow_line(e: &Explanation, r: EventRef, bytes: Option<(u64, u32)>) -> String {
    let d = &e.dsp;
    // An address computed from shared data may reach another object.
    let elsewhere = |run: Run| match (run, e.elsewhere_in_alternate(r)) {
        (Run::Alternate, Some(o)) => format!(" (at {o})"),
        _ => String::new(),
    };
    let mine = |f: &&crate::Flow| f.read == r && f.bytes == bytes;
    let src = |flows: &[crate::Flow], run: Run| {
        flows.iter().find(mine).map(|f| format!("read {}{}", e.source_text(f, run), elsewhere(run))).unwrap_or_else(
            || match run {
                Run::Alternate if e.skipped(r) => e.unshown(r).map(|u| u.to_string()).unwrap_or_default(),
                Run::Failing if !e.failing.contains(&r) => "not reached (the failure comes first)".into(),
                _ => "the same".into(),
            },
        )
    };
    let at = e.line(r).map(|l| format!(" at {l}")).unwrap_or_default();
    // A bulk read's bytes: `box.a (in memcpy box, thread 0.2 at …)`.
    let any = d.failing_only.iter().chain(&d.alternate_only).find(mine);
    let (what, inside) = match any.and_then(|f| e.flow_part(f)) {
        Some(p) => (p, format!("in {}, ", e.op_text(r))),
        None => (e.object(r).unwrap_or_default(), String::new()),
    };
    let (mut failing, mut alternate) = (src(&d.failing_only, Run::Failing), src(&d.alternate_only, Run::Alternate));
    // The same text on both sides (the same value from the same line
    // of the same thread, a loop's other turn): which write it is.
    let write = |flows: &[crate::Flow]| flows.iter().find(mine).and_then(|f| f.write);
    if let (true, Some(a), Some(b)) = (failing == alternate, write(&d.failing_only), write(&d.alternate_only)) {
        failing = format!("{failing} ({} write there)", ordinal(e.write_turn(a)));
        alternate = format!("{alternate} ({} write there)", ordinal(e.write_turn(b)));
    }
    format!("  {what} ({inside}thread {}{at}): {failing} → {alternate}", e.threads[r.0])
}

/// The reads of a folded line, from each read's object and `file:line`:
/// the first file named, and `done[2] :28, next_job :22, …`, each object
/// and line once, in the thread's order, at most [`FOLDED_ITEMS`] of them
/// (a long loop's turns).
fn folded_items(reads: impl Iterator<Item = (String, Option<String>)>) -> (Option<String>, String) {
    let mut file = None;
    let mut items: Vec<String> = Vec::new();
    for (what, at) in reads {
        let (f, line) = match at.as_deref().and_then(|l| l.rsplit_once(':')) {
            Some((f, n)) => (Some(f.to_string()), format!(" :{n}")),
            None => (None, String::new()),
        };
        file = file.or(f);
        let item = format!("{what}{line}");
        if !items.contains(&item) {
            items.push(item);
        }
    }
    if items.len() > FOLDED_ITEMS {
        items.truncate(FOLDED_ITEMS);
        items.push("…".into());
    }
    (file, items.join(", "))
}

/// At most this many objects and lines are named on a folded line.
const FOLDED_ITEMS: usize = 8;

/// Consecutive identical lines once, with how many reads they stand for:
/// two reads of one location by one statement that see the same in both
/// schedules (`x->v != 1 && x->v != 2`) say the same.
fn same_lines_once(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let mut n = 1;
        while lines.peek() == Some(&line) {
            lines.next();
            n += 1;
        }
        let _ = match n {
            1 => writeln!(out, "{line}"),
            _ => writeln!(out, "{line} ({n} reads there)"),
        };
    }
    out
}

/// Reads of one thread in a row that the alternate leaves out for one
/// reason that names no value ([`crate::Unshown::of_several`]), listed on
/// one line of the data flows when there are three or more: a flipped
/// thread's later turns of a loop would otherwise take a line each
/// (job_claim_race: 8 of 14 lines).
#[derive(Default)]
struct Folded {
    reads: Vec<EventRef>,
    why: Option<crate::Unshown>,
}

impl Folded {
    /// Whether `r`, left out for `why`, continues the group.
    fn takes(&self, r: EventRef, why: &crate::Unshown) -> bool {
        self.reads.last().is_none_or(|last| last.0 == r.0 && self.why.as_ref() == Some(why))
    }

    fn push(&mut self, r: EventRef, why: crate::Unshown) {
        self.reads.push(r);
        self.why = Some(why);
    }

    /// The group's line (one or two reads: as any other flow), and a new
    /// group.
    fn flush(&mut self, e: &Explanation, o: &mut String) {
        let (reads, why) = (std::mem::take(&mut self.reads), self.why.take());
        let Some(why) = why else { return };
        // (Two keep a line each, with what they read.)
        if reads.len() < 3 {
            for r in reads {
                let _ = writeln!(o, "{}", flow_line(e, r, None));
            }
            return;
        }
        let what = |r: EventRef| e.object(r).unwrap_or_default();
        let thread = e.threads[reads[0].0].to_string();
        let items = reads.iter().map(|r| (what(*r), e.line(*r)));
        let (file, items) = folded_items(items);
        let at = file.map(|f| format!(" at {f}")).unwrap_or_default();
        let why = why.of_several().unwrap_or_default();
        let n = reads.len();
        let _ = writeln!(o, "  {n} reads (thread {thread}{at}: {items}): read in the failing schedule → {why}");
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `21st`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_cells_keep_their_source_line() {
        assert_eq!(cut("read x=1 :3"), "read x=1 :3");
        let long = "write heap@0.1#2.next=&heap@0.1#1.value :11";
        let c = cut(long);
        assert_eq!(c.chars().count(), CELL, "{c}");
        assert!(c.ends_with("… :11"), "{c}");
        let plain = "x".repeat(40);
        assert_eq!(cut(&plain).chars().count(), CELL);
    }

    #[test]
    fn folded_reads_name_each_object_and_line_once_and_the_first_few() {
        let at = |n: u32| Some(format!("job.c:{n}"));
        let reads = [("done[2]", 28), ("next_job", 22), ("done[3]", 28), ("next_job", 22)];
        let (file, items) = folded_items(reads.iter().map(|(w, n)| (w.to_string(), at(*n))));
        assert_eq!(file.as_deref(), Some("job.c"));
        assert_eq!(items, "done[2] :28, next_job :22, done[3] :28");
        let many = (0..12).map(|i| (format!("slot[{i}]"), at(5)));
        let (_, items) = folded_items(many);
        assert!(items.starts_with("slot[0] :5, slot[1] :5,"), "{items}");
        assert!(items.ends_with("slot[7] :5, …"), "{items}");
        let (file, items) = folded_items([("x".to_string(), None), ("y".to_string(), at(3))].into_iter());
        assert_eq!((file.as_deref(), items.as_str()), (Some("job.c"), "x, y :3"));
    }

    #[test]
    fn ordinals_have_their_english_suffix() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal).to_vec();
        let want =
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th"];
        assert_eq!(got, want);
    }
}
