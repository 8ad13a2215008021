//! Tests of the column and list layouts.

use super::*;
use causa_core::EventKind;
use std::sync::Arc;

fn t(s: &str) -> ThreadName {
    s.parse().unwrap()
}

fn ev(seq: usize, thread: &str, kind: EventKind, object: Option<&str>) -> EventRecord {
    EventRecord {
        seq,
        thread: t(thread),
        kind,
        object: object.map(str::to_string),
        width: None,
        value: None,
        new_value: None,
        other_thread: None,
        location: Some(SourceLoc { file: Arc::from("bank.c"), line: 10 + seq as u32, column: 5 }),
        atomic: false,
        flushed: false,
        local_of: None,
    }
}

/// A small execution: main forks 0.1 and 0.2, they lock, read and write.
fn sample() -> Vec<EventRecord> {
    let mut fork = ev(1, "0", EventKind::Fork, None);
    fork.other_thread = Some(t("0.1"));
    let mut read = ev(4, "0.1", EventKind::Read, Some("balance"));
    read.value = Some("100".into());
    let mut write = ev(5, "0.2", EventKind::Write, Some("balance"));
    write.value = Some("50".into());
    vec![
        ev(0, "0", EventKind::Begin, None),
        fork,
        ev(2, "0.1", EventKind::Begin, None),
        ev(3, "0.1", EventKind::Lock, Some("m")),
        read,
        write,
    ]
}

fn threads() -> Vec<ThreadName> {
    vec![t("0"), t("0.1"), t("0.2")]
}

fn src(l: &SourceLoc) -> Option<String> {
    Some(format!("   stmt_{}();  ", l.line))
}

/// Character offset of `needle` in `line`.
fn col(line: &str, needle: &str) -> usize {
    width(&line[..line.find(needle).unwrap()])
}

#[test]
fn header_line_is_exact() {
    let out = render_columns(&sample(), &threads(), &src, &ColumnOptions::default());
    let head = out.lines().next().unwrap();
    assert_eq!(head, "   step  thread 0      thread 0.1          thread 0.2          location   source");
    assert!(!out.contains('\u{1b}'));
    assert_eq!(out.lines().count(), 7);
}

#[test]
fn events_sit_in_their_thread_column() {
    let out = render_columns(&sample(), &threads(), &src, &ColumnOptions::default());
    let lines: Vec<&str> = out.lines().collect();
    let c1 = col(lines[0], "thread 0.1");
    let c2 = col(lines[0], "thread 0.2");
    assert_eq!(col(lines[0], "thread 0 "), 9);
    assert_eq!(col(lines[2], "fork 0.1"), 9);
    assert_eq!(col(lines[4], "lock m"), c1);
    assert_eq!(col(lines[5], "read balance → 100"), c1);
    assert_eq!(col(lines[6], "write balance = 50"), c2);
    // Step on the left, location and trimmed source on the right.
    assert!(lines[4].starts_with("      3  "));
    let loc = col(lines[0], "location");
    assert_eq!(col(lines[4], "bank.c:13"), loc);
    assert!(lines[4].ends_with("bank.c:13  stmt_13();"));
}

#[test]
fn last_event_is_marked() {
    let out = render_columns(&sample(), &threads(), &src, &ColumnOptions::default());
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[6].starts_with(">>    5  "));
    assert_eq!(out.matches(">>").count(), 1);
    let plain = ColumnOptions { highlight_last: false, ..ColumnOptions::default() };
    let out = render_columns(&sample(), &threads(), &src, &plain);
    assert!(!out.contains(">>"));
    assert!(out.lines().nth(6).unwrap().starts_with("   5  "));
}

#[test]
fn long_descriptions_are_truncated() {
    let mut events = sample();
    events[3].object = Some("a_really_long_lock_name_in_a_struct.field".into());
    let opts = ColumnOptions { max_width: 90, ..ColumnOptions::default() };
    let out = render_columns(&events, &threads(), &src, &opts);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.iter().all(|l| width(l) <= 90), "{out}");
    let c1 = col(lines[0], "thread 0.1");
    let c2 = col(lines[0], "thread 0.2");
    let cell: String = lines[4].chars().skip(c1).take(c2 - c1).collect();
    assert!(cell.trim_end().ends_with('…'), "{cell:?}");
    assert!(cell.starts_with("lock a_really"));
}

#[test]
fn long_executions_keep_head_and_tail() {
    let events: Vec<EventRecord> =
        (0..40).map(|i| ev(i, if i % 2 == 0 { "0" } else { "0.1" }, EventKind::Yield, None)).collect();
    let opts = ColumnOptions { max_rows: Some(10), ..ColumnOptions::default() };
    let out = render_columns(&events, &threads()[..2], &src, &opts);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1 + 10 + 1);
    assert!(lines[3].trim_start().starts_with('2'));
    assert_eq!(lines[4], "         … 30 events omitted …");
    assert!(lines[5].trim_start().starts_with("33 "));
    assert!(lines[11].starts_with(">>   39"));
}

#[test]
fn too_many_threads_fall_back_to_a_list() {
    let many: Vec<ThreadName> = (0..12).map(|i| t("0").child(i + 1)).collect();
    let events = sample();
    let out = render_columns(&events, &many, &crate::no_source, &ColumnOptions::default());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "   step  thread  event               location");
    assert_eq!(lines[6], ">>    5  0.2     write balance = 50  bank.c:15");
}

#[test]
fn unknown_threads_get_a_column_and_empty_input_has_a_header() {
    let out = render_columns(&sample(), &[], &src, &ColumnOptions::default());
    assert!(out.starts_with("   step  thread 0      thread 0.1          thread 0.2 "));
    let out = render_columns(&[], &[], &src, &ColumnOptions::default());
    assert_eq!(out, "   step  thread  event\n");
}

#[test]
fn module_doc_example() {
    let mut fork = ev(1, "0", EventKind::Fork, None);
    fork.other_thread = Some(t("0.1"));
    let mut write = ev(3, "0.1", EventKind::Write, Some("x"));
    write.value = Some("1".into());
    let mut events = vec![ev(0, "0", EventKind::Begin, None), fork, ev(2, "0.1", EventKind::Begin, None), write];
    for (e, line) in events.iter_mut().zip([5, 8, 2, 3]) {
        e.location.as_mut().unwrap().line = line;
    }
    let source = |l: &SourceLoc| {
        let text = match l.line {
            5 => "int main(void) {",
            8 => "pthread_create(&t, 0, f, 0);",
            2 => "void *f(void *a) {",
            _ => "x = 1;",
        };
        Some(format!("    {text}"))
    };
    let out = render_columns(&events, &threads()[..2], &source, &ColumnOptions::default());
    // The leading newline keeps the header's indentation visible.
    let expected = "
   step  thread 0      thread 0.1    location  source
      0  begin                       bank.c:5  int main(void) {
      1  fork 0.1                    bank.c:8  pthread_create(&t, 0, f, 0);
      2                begin         bank.c:2  void *f(void *a) {
>>    3                write x = 1   bank.c:3  x = 1;
";
    assert_eq!(out, expected[1..]);
}

#[test]
fn long_file_names_keep_their_line_number() {
    assert_eq!(super::truncate_front("a_fairly_long_program_name_xy.c:123", 12), "…me_xy.c:123");
    assert_eq!(super::truncate_front("short.c:4", 12), "short.c:4");
}
