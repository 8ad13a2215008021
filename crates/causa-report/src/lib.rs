//! Human-readable and machine-readable rendering of executions and findings.
//!
//! This crate owns how causa shows its results: the failing execution as a table
//! with one column per thread ([`render_columns`]), a finding as a compiler-style
//! diagnostic with the offending source line and a caret ([`render_finding`]), and
//! the versioned JSON document every command prints with `--json` ([`Report`]).
//!
//! Boundaries: everything here is a pure function from data to `String`. Nothing
//! prints, reads files or looks at the terminal; source text comes in through a
//! caller-supplied `source_line` callback, and the output is plain text without
//! ANSI colours. Types of the shared vocabulary (events, findings, thread names)
//! come from `causa-core`.

pub mod columns;
pub mod finding;
pub mod json;
pub mod legend;

pub use columns::{render_columns, ColumnOptions};
pub use finding::render_finding;
pub use json::{BugJson, LocationJson, Report, Verdict, SCHEMA_VERSION};
pub use legend::render_heap_legend;

use causa_core::SourceLoc;

/// A `source_line` callback that knows no source text (locations are still shown).
pub fn no_source(_: &SourceLoc) -> Option<String> {
    None
}

/// `file:line`, the short form of a location used in tables and notes.
pub(crate) fn file_line(loc: &SourceLoc) -> String {
    format!("{}:{}", loc.file, loc.line)
}

/// Words filled into lines of at most `width` characters (a longer word
/// gets a line of its own).
pub fn wrap<'a>(words: impl IntoIterator<Item = &'a str>, width: usize) -> Vec<String> {
    wrap_hanging(words, width, width)
}

/// [`wrap`] with the first line `first` characters wide and the others
/// `rest` (for a first line printed with a shorter indent than the rest).
pub fn wrap_hanging<'a>(words: impl IntoIterator<Item = &'a str>, first: usize, rest: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for w in words {
        let width = if lines.is_empty() { first } else { rest };
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Cuts `s` to at most `width` characters, ending with `…` when something was cut.
pub(crate) fn truncate(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_string()
    } else if width == 0 {
        String::new()
    } else {
        let mut t: String = s.chars().take(width - 1).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncate_counts_characters() {
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("abcd", 3), "ab…");
        assert_eq!(truncate("→→→→", 2), "→…");
        assert_eq!(truncate("abc", 0), "");
    }

    #[test]
    fn a_hanging_wrap_gives_the_first_line_its_own_width() {
        let words = ["aaa", "bbb", "ccc", "ddd", "eee"];
        // First line 11 wide (three words), the others 7 (two words).
        assert_eq!(wrap_hanging(words, 11, 7), vec!["aaa bbb ccc", "ddd eee"]);
        assert_eq!(wrap_hanging(words, 7, 11), vec!["aaa bbb", "ccc ddd eee"]);
        // `wrap` is both widths the same; a longer word gets its own line.
        assert_eq!(wrap(words, 7), vec!["aaa bbb", "ccc ddd", "eee"]);
        assert_eq!(wrap(["abcdefgh", "x"], 4), vec!["abcdefgh", "x"]);
    }
}
