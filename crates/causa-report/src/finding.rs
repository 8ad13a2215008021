//! A finding as a compiler-style diagnostic.
//!
//! ```text
//! error[deadlock]: all threads are blocked
//!   --> bank.c:20:5
//!    |
//! 20 |     pthread_mutex_lock(&b);
//!    |     ^
//!    = thread 0.1, after 17 visible steps
//!    = note: thread 0.2 waits for mutex a held by thread 0.1 (at bank.c:31)
//!    = cycle: 0.1 → 0.2 → 0.1
//! ```
//!
//! The gutter follows rustc: its width is the number of digits of the line number,
//! and the `|` and `=` of every line are aligned.

use crate::file_line;
use causa_core::finding::FindingNote;
use causa_core::{Finding, SourceLoc};

/// Tabs in source lines are shown as this many spaces (the caret follows).
const TAB: &str = "    ";

/// Renders `f` like a compiler diagnostic. `source_line` returns the full text of
/// a location's line (untrimmed, so that the caret lines up); without it, or
/// without a location, the snippet is left out. Every line ends with `\n`.
pub fn render_finding(f: &Finding, source_line: &dyn Fn(&SourceLoc) -> Option<String>) -> String {
    let mut out = format!("error[{}]: {}\n", f.kind.code(), f.message);
    let digits = f.location.as_ref().map_or(1, |l| l.line.to_string().len());
    let pad = " ".repeat(digits);
    if let Some(loc) = &f.location {
        out.push_str(&format!("{pad}--> {loc}\n"));
        if let Some(text) = source_line(loc) {
            let text = text.trim_end();
            out.push_str(&format!("{pad} |\n"));
            let shown = text.replace('\t', TAB);
            out.push_str(format!("{} | {shown}", loc.line).trim_end());
            out.push('\n');
            if loc.column > 0 {
                let offset = caret_offset(text, loc.column);
                out.push_str(&format!("{pad} | {}^\n", " ".repeat(offset)));
            }
        }
    }
    out.push_str(&format!("{pad} = {}\n", when(f)));
    for note in &f.notes {
        out.push_str(&format!("{pad} = note: {}\n", note_text(note)));
    }
    if !f.cycle.is_empty() {
        let mut names: Vec<String> = f.cycle.iter().map(|t| t.to_string()).collect();
        if f.cycle.len() > 1 && f.cycle.first() != f.cycle.last() {
            names.push(names[0].clone());
        }
        out.push_str(&format!("{pad} = cycle: {}\n", names.join(" → ")));
    }
    out
}

/// Display offset of 1-based byte column `column` in `text`, tabs expanded.
fn caret_offset(text: &str, column: u32) -> usize {
    let mut end = (column as usize - 1).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].chars().map(|c| if c == '\t' { TAB.len() } else { 1 }).sum()
}

/// `thread T message (at file:line)`. The message is written to follow the thread
/// name (`waits for mutex m held by thread 0.1`); a message that already starts
/// with `thread T` is not prefixed again.
fn note_text(note: &FindingNote) -> String {
    let mut s = String::new();
    if let Some(t) = &note.thread {
        let name = format!("thread {t}");
        let named =
            note.message.strip_prefix(&name).is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', ':', ',']));
        if !named {
            s.push_str(&name);
            s.push(' ');
        }
    }
    s.push_str(&note.message);
    if let Some(loc) = &note.location {
        s.push_str(&format!(" (at {})", file_line(loc)));
    }
    s
}

/// Where in the execution the failure happened: `Finding::step` is the number of
/// visible steps taken (the JSON `step`); the rows of the step table are numbered
/// from 0, so the last one shown is `step - 1`.
fn when(f: &Finding) -> String {
    match f.step {
        0 => format!("thread {}, before any visible step", f.thread),
        1 => format!("thread {}, after 1 visible step", f.thread),
        n => format!("thread {}, after {n} visible steps", f.thread),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use causa_core::{BugKind, ThreadName};
    use std::sync::Arc;

    fn t(s: &str) -> ThreadName {
        s.parse().unwrap()
    }

    fn loc(line: u32, column: u32) -> SourceLoc {
        SourceLoc { file: Arc::from("bank.c"), line, column }
    }

    fn deadlock() -> Finding {
        Finding {
            kind: BugKind::Deadlock,
            message: "all threads are blocked".into(),
            thread: t("0.1"),
            location: Some(loc(20, 5)),
            step: 17,
            notes: vec![
                FindingNote {
                    thread: Some(t("0.2")),
                    message: "waits for mutex a held by thread 0.1".into(),
                    location: Some(loc(31, 5)),
                },
                FindingNote {
                    thread: Some(t("0.1")),
                    message: "thread 0.1 waits for mutex b held by thread 0.2".into(),
                    location: None,
                },
            ],
            cycle: vec![t("0.1"), t("0.2")],
        }
    }

    fn source(l: &SourceLoc) -> Option<String> {
        match l.line {
            20 => Some("    pthread_mutex_lock(&b);\n".into()),
            7 => Some("\tassert(x == 2);".into()),
            _ => None,
        }
    }

    #[test]
    fn deadlock_renders_exactly() {
        let expected = "\
error[deadlock]: all threads are blocked
  --> bank.c:20:5
   |
20 |     pthread_mutex_lock(&b);
   |     ^
   = thread 0.1, after 17 visible steps
   = note: thread 0.2 waits for mutex a held by thread 0.1 (at bank.c:31)
   = note: thread 0.1 waits for mutex b held by thread 0.2
   = cycle: 0.1 → 0.2 → 0.1
";
        assert_eq!(render_finding(&deadlock(), &source), expected);
    }

    #[test]
    fn caret_follows_tabs_and_snippet_is_optional() {
        let f = Finding {
            kind: BugKind::AssertionViolation,
            message: "assertion `x == 2` failed".into(),
            thread: t("0"),
            location: Some(loc(7, 2)),
            step: 3,
            notes: vec![],
            cycle: vec![],
        };
        let expected = "\
error[assertion-violation]: assertion `x == 2` failed
 --> bank.c:7:2
  |
7 |     assert(x == 2);
  |     ^
  = thread 0, after 3 visible steps
";
        assert_eq!(render_finding(&f, &source), expected);
        let out = render_finding(&f, &crate::no_source);
        assert_eq!(out.lines().nth(1), Some(" --> bank.c:7:2"));
        assert_eq!(out.lines().nth(2), Some("  = thread 0, after 3 visible steps"));
    }

    #[test]
    fn no_location_and_closed_cycle() {
        let mut f = deadlock();
        f.location = None;
        f.notes.clear();
        f.cycle = vec![t("0.1"), t("0.2"), t("0.1")];
        let out = render_finding(&f, &source);
        assert_eq!(
            out,
            "error[deadlock]: all threads are blocked\n  = thread 0.1, after 17 visible steps\n  = cycle: 0.1 → 0.2 → 0.1\n"
        );
    }

    #[test]
    fn caret_column_is_clamped() {
        assert_eq!(caret_offset("ab", 99), 2);
        assert_eq!(caret_offset("é=1", 2), 0);
        assert_eq!(caret_offset("é=1", 3), 1);
    }
}
