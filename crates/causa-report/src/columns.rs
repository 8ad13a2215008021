//! The failing execution as a table with one column per thread.
//!
//! ```text
//!    step  thread 0      thread 0.1    location  source
//!       0  begin                       bank.c:5  int main(void) {
//!       1  fork 0.1                    bank.c:8  pthread_create(&t, 0, f, 0);
//!       2                begin         bank.c:2  void *f(void *a) {
//! >>    3                write x = 1   bank.c:3  x = 1;
//! ```
//!
//! When the threads do not fit in `max_width` (at least [`MIN_COLUMN`] characters
//! each), the table falls back to one line per event: `step  thread  event  location
//! source`.

use crate::{file_line, truncate};
use causa_core::event::EventRecord;
use causa_core::{SourceLoc, ThreadName};

/// Narrowest thread column; with less room the list format is used.
pub const MIN_COLUMN: usize = 12;
/// Events shown before the omission row when rows are limited (at most).
const HEAD_ROWS: usize = 3;
const SEP: &str = "  ";
/// Widest `file:line` column.
const MAX_LOCATION: usize = 32;
/// Room kept for the source text before the thread columns share the rest.
const SOURCE_RESERVE: usize = 40;
/// Widest event column in the list format.
const MAX_EVENT: usize = 48;

/// How [`render_columns`] lays out the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnOptions {
    /// Total width of a line in characters.
    pub max_width: usize,
    /// Most events shown; the rest is replaced by one `… N events omitted …` row.
    /// A few events from the start are kept, the others come from the end.
    pub max_rows: Option<usize>,
    /// Mark the last event (the failing one) with `>>`.
    pub highlight_last: bool,
}

impl Default for ColumnOptions {
    /// 160 columns, all rows, last event highlighted.
    fn default() -> Self {
        ColumnOptions { max_width: 160, max_rows: None, highlight_last: true }
    }
}

enum Row<'a> {
    Event { ev: &'a EventRecord, last: bool, loc: String, src: String },
    Omitted(usize),
}

/// Renders `events` as per-thread columns (or as a list when too many threads).
///
/// `threads` gives the column order; threads that appear in `events` but not in
/// `threads` get extra columns in order of first appearance. `source_line` returns
/// the text of a location's line (trimmed here). Every line of the result ends
/// with `\n`; there is no trailing whitespace and no ANSI escape.
pub fn render_columns(
    events: &[EventRecord],
    threads: &[ThreadName],
    source_line: &dyn Fn(&SourceLoc) -> Option<String>,
    opts: &ColumnOptions,
) -> String {
    let rows = select_rows(events, opts.max_rows, source_line);
    let layout = Layout::new(&rows, opts);
    let columns = column_threads(events, threads);
    let lines = match column_widths(&rows, &columns, &layout, opts.max_width) {
        Some(widths) => column_lines(&rows, &columns, &widths, &layout, opts.max_width),
        None => list_lines(&rows, &layout, opts.max_width),
    };
    let mut out = String::new();
    for l in lines {
        out.push_str(truncate(&l, opts.max_width).trim_end());
        out.push('\n');
    }
    out
}

/// Picks the rows to show: all events, or the first few and the last ones.
fn select_rows<'a>(
    events: &'a [EventRecord],
    max_rows: Option<usize>,
    source_line: &dyn Fn(&SourceLoc) -> Option<String>,
) -> Vec<Row<'a>> {
    let n = events.len();
    let event_row = |i: usize| {
        let ev = &events[i];
        let (loc, src) = match &ev.location {
            Some(l) => (file_line(l), source_line(l).map(|s| s.trim().to_string()).unwrap_or_default()),
            None => (String::new(), String::new()),
        };
        Row::Event { ev, last: i + 1 == n, loc, src }
    };
    match max_rows {
        Some(m) if n > m => {
            let head = HEAD_ROWS.min(m / 3);
            let mut rows: Vec<Row> = (0..head).map(event_row).collect();
            rows.push(Row::Omitted(n - m));
            rows.extend((n - (m - head)..n).map(event_row));
            rows
        }
        _ => (0..n).map(event_row).collect(),
    }
}

/// The threads, in column order.
fn column_threads(events: &[EventRecord], threads: &[ThreadName]) -> Vec<ThreadName> {
    let mut cols = threads.to_vec();
    for e in events {
        if !cols.contains(&e.thread) {
            cols.push(e.thread.clone());
        }
    }
    cols
}

fn header(t: &ThreadName) -> String {
    format!("thread {t}")
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// Widths shared by both formats.
struct Layout {
    marker: usize,
    step: usize,
    /// `file:line` column width; 0 when no shown event has a location.
    loc: usize,
    /// Widest source text; 0 when there is none.
    src: usize,
}

impl Layout {
    fn new(rows: &[Row], opts: &ColumnOptions) -> Layout {
        let (mut step, mut loc, mut src) = (width("step"), 0, 0);
        for r in rows {
            if let Row::Event { ev, loc: l, src: s, .. } = r {
                step = step.max(ev.seq.to_string().len());
                loc = loc.max(width(l));
                src = src.max(width(s));
            }
        }
        if loc > 0 {
            loc = loc.max(width("location")).min(MAX_LOCATION);
        }
        Layout { marker: if opts.highlight_last { 3 } else { 0 }, step, loc, src }
    }

    /// Marker and step number.
    fn prefix(&self, last: bool, step: &str) -> String {
        let m = if last && self.marker > 0 { ">>" } else { "" };
        format!("{m:<mw$}{step:>sw$}", mw = self.marker, sw = self.step)
    }

    /// Appends the location and source columns (the source gets the rest of the line).
    fn suffix(&self, line: &mut String, loc: &str, src: &str, max_width: usize) {
        if self.loc > 0 {
            line.push_str(SEP);
            line.push_str(&format!("{:<w$}", truncate_front(loc, self.loc), w = self.loc));
        }
        if self.src > 0 {
            let room = max_width.saturating_sub(width(line) + SEP.len());
            line.push_str(SEP);
            line.push_str(&truncate(src, room));
        }
    }
}

/// `s` cut from the front (`…name.c:12`), so a long file name keeps its line.
fn truncate_front(s: &str, w: usize) -> String {
    let n = width(s);
    if n <= w || w == 0 {
        return s.to_string();
    }
    let tail: String = s.chars().skip(n - (w - 1)).collect();
    format!("…{tail}")
}

/// `s` truncated and padded to exactly `w` characters.
fn cell(s: &str, w: usize) -> String {
    format!("{:<w$}", truncate(s, w))
}

/// Thread column widths, or `None` when the threads do not fit.
fn column_widths(rows: &[Row], columns: &[ThreadName], layout: &Layout, max_width: usize) -> Option<Vec<usize>> {
    if columns.is_empty() {
        return None;
    }
    let mut fixed = layout.marker + layout.step;
    if layout.loc > 0 {
        fixed += SEP.len() + layout.loc;
    }
    if layout.src > 0 {
        fixed += SEP.len() + layout.src.clamp(width("source"), SOURCE_RESERVE);
    }
    let share = (max_width.saturating_sub(fixed) / columns.len()).saturating_sub(SEP.len());
    if share < MIN_COLUMN {
        return None;
    }
    let widths = columns
        .iter()
        .map(|t| {
            let natural = rows
                .iter()
                .filter_map(|r| match r {
                    Row::Event { ev, .. } if &ev.thread == t => Some(width(&ev.describe())),
                    _ => None,
                })
                .fold(width(&header(t)), usize::max);
            natural.clamp(MIN_COLUMN, share)
        })
        .collect();
    Some(widths)
}

fn column_lines(
    rows: &[Row],
    columns: &[ThreadName],
    widths: &[usize],
    layout: &Layout,
    max_width: usize,
) -> Vec<String> {
    let mut head = layout.prefix(false, "step");
    for (t, w) in columns.iter().zip(widths) {
        head.push_str(SEP);
        head.push_str(&cell(&header(t), *w));
    }
    layout.suffix(&mut head, "location", "source", max_width);
    let mut lines = vec![head];
    for r in rows {
        match r {
            Row::Event { ev, last, loc, src } => {
                let mut l = layout.prefix(*last, &ev.seq.to_string());
                for (t, w) in columns.iter().zip(widths) {
                    let text = if *t == ev.thread { ev.describe() } else { String::new() };
                    l.push_str(SEP);
                    l.push_str(&cell(&text, *w));
                }
                layout.suffix(&mut l, loc, src, max_width);
                lines.push(l);
            }
            Row::Omitted(n) => lines.push(omitted(layout, *n)),
        }
    }
    lines
}

fn list_lines(rows: &[Row], layout: &Layout, max_width: usize) -> Vec<String> {
    let (mut thread_w, mut event_w) = (width("thread"), width("event"));
    for r in rows {
        if let Row::Event { ev, .. } = r {
            thread_w = thread_w.max(width(&ev.thread.to_string()));
            event_w = event_w.max(width(&ev.describe()));
        }
    }
    let event_w = event_w.min(MAX_EVENT);
    let line = |last: bool, step: &str, thread: &str, event: &str, loc: &str, src: &str| {
        let mut l = layout.prefix(last, step);
        l.push_str(SEP);
        l.push_str(&cell(thread, thread_w));
        l.push_str(SEP);
        l.push_str(&cell(event, event_w));
        layout.suffix(&mut l, loc, src, max_width);
        l
    };
    let mut lines = vec![line(false, "step", "thread", "event", "location", "source")];
    for r in rows {
        match r {
            Row::Event { ev, last, loc, src } => {
                let t = ev.thread.to_string();
                lines.push(line(*last, &ev.seq.to_string(), &t, &ev.describe(), loc, src));
            }
            Row::Omitted(n) => lines.push(omitted(layout, *n)),
        }
    }
    lines
}

fn omitted(layout: &Layout, n: usize) -> String {
    let noun = if n == 1 { "event" } else { "events" };
    format!("{}{SEP}… {n} {noun} omitted …", layout.prefix(false, ""))
}

#[cfg(test)]
mod tests;
