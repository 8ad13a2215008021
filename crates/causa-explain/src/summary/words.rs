//! How events, threads, lines and lists are said: the words the other
//! parts of the summary are made of.

use super::*;

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `read of `balance` at bank.c:4`.
pub(super) fn event_phrase(e: &Explanation, r: EventRef) -> String {
    // (A copy's event is named by the object it writes: `memcpy into
    // `copy``; its source is named where its data flows are.)
    let of = match e.info_of(r).op {
        "memcpy" | "memmove" | "strcpy" | "strncpy" | "strcat" | "strncat" => "into",
        _ => "of",
    };
    let obj = e.object(r).map(|o| format!(" {of} `{o}`")).unwrap_or_default();
    let at = e.line(r).map(|l| format!(" at {l}")).unwrap_or_default();
    format!("{}{obj}{at}", noun(e.info_of(r).op))
}

/// An event's operation as a noun; a memory error's faulting access as
/// what it is: `second free`, `access to the freed block`.
pub(super) fn fault_noun(e: &Explanation, r: EventRef) -> &str {
    match e.info_of(r).op {
        "faulting access" if e.failure.message.starts_with("double free") => "second free",
        "faulting access" if e.failure.message.starts_with("use after free") => "access to the freed block",
        op => noun(op),
    }
}

/// An operation as a noun: `strcpy` for a copy that reads the object
/// (`strcpy from`) too.
pub(super) fn noun(op: &str) -> &str {
    op.strip_suffix(" from").unwrap_or(op)
}

/// `` `deposit` (thread 0.1) ``: the function an event is in, and its thread.
pub(crate) fn who(e: &Explanation, r: EventRef) -> String {
    match &e.info_of(r).function {
        Some(f) => format!("`{f}` (thread {})", e.threads[r.0]),
        None => format!("thread {}", e.threads[r.0]),
    }
}

/// [`who`] of one thread's events `evs`: named by their function when
/// they are all in one, or the first and the last are (a call in between
/// goes deeper: `get`'s lookup and insert around `compute`), else by the
/// function the thread starts in (a check in `taken` and an add in `add`,
/// both called by `sign_up`).
pub(super) fn who_over(e: &Explanation, evs: &[EventRef]) -> String {
    let (Some(&first), Some(&last)) = (evs.first(), evs.last()) else { return String::new() };
    let f = &e.info_of(first).function;
    if evs.iter().all(|r| &e.info_of(*r).function == f) || &e.info_of(last).function == f {
        return who(e, first);
    }
    started_as(e, first.0)
}

/// `` `sign_up` (thread 0.2) ``: thread `t` by the function it starts in.
pub(super) fn started_as(e: &Explanation, t: usize) -> String {
    match e.starts.get(t).cloned().flatten() {
        Some(start) => format!("`{start}` (thread {})", e.threads[t]),
        None => format!("thread {}", e.threads[t]),
    }
}

/// `reads `balance` at bank.c:13`.
pub(super) fn verb_phrase(e: &Explanation, r: EventRef) -> String {
    let obj = e.object(r).map(|o| format!(" `{o}`")).unwrap_or_default();
    let how = if e.info_of(r).realloc { " (its `realloc` moves the block)" } else { "" };
    verb_on(e, r, &format!("{obj}{how}"))
}

/// [`verb_phrase`] of a flow's read; a copy from one shared object into
/// another names both: `copies `samples[0]` into `heap@0.2#1[0]` at
/// a.c:26` (its event is named by the destination, the flow is about the
/// source).
pub(super) fn flow_verb_phrase(e: &Explanation, f: &crate::Flow) -> String {
    match (e.info_of(f.read).op, e.flow_part(f)) {
        ("memcpy" | "memmove", Some(part)) => {
            let into = e.object(f.read).map(|o| format!(" into `{o}`")).unwrap_or_default();
            verb_on(e, f.read, &format!(" `{part}`{into}"))
        }
        _ => verb_phrase(e, f.read),
    }
}

/// `` `writes{obj} at bank.c:14` ``: the event's verb, `obj` and its line.
pub(super) fn verb_on(e: &Explanation, r: EventRef, obj: &str) -> String {
    let at = e.line(r).map(|l| format!(" at {l}")).unwrap_or_default();
    format!("{}{obj}{at}", verb(e.info_of(r).op))
}

/// An operation as a verb (`reads`, `locks`).
pub(super) fn verb(op: &str) -> &str {
    match op {
        "read" => "reads",
        "write" => "writes",
        "update" => "updates",
        "memcpy" | "memmove" => "copies",
        "memset" => "fills",
        "strcpy" | "strncpy" => "copies a string into",
        "strcpy from" | "strncpy from" | "strcat from" => "copies the string in",
        "memcpy from" | "memmove from" => "copies",
        "strcat" => "appends to",
        "sprintf" | "snprintf" => "formats a string into",
        "fgets" | "fread" | "read(fd)" => "reads from a file into",
        "fscanf" => "scans from a file into",
        "sscanf" => "scans a string into",
        "sscanf from" => "parses",
        "strcmp" | "strncmp" | "memcmp" => "compares",
        "strlen" | "strnlen" => "measures the string in",
        "atoi" | "atol" | "atoll" | "strtol" | "strtoll" | "strtoul" | "strtoull" => "parses a number from",
        "strchr" | "strrchr" | "strstr" | "strpbrk" | "memchr" => "searches",
        "strspn" | "strcspn" => "scans",
        "lock" => "locks",
        "rdlock" => "read-locks",
        "unlock" => "unlocks",
        "free" => "frees",
        "destroy" => "destroys",
        other => other,
    }
}

/// A thread's accesses to one object on one line, said once: `reads
/// `tail` twice and writes it at semq.c:7` (None when they are not).
pub(super) fn on_one_line(e: &Explanation, v: &[EventRef]) -> Option<String> {
    let (line, obj) = (e.line(v[0])?, e.object(v[0])?);
    if v.len() < 2 || v.iter().any(|r| e.line(*r).as_ref() != Some(&line) || e.object(*r).as_ref() != Some(&obj)) {
        return None;
    }
    let mut verbs: Vec<(&str, usize)> = Vec::new();
    for r in v {
        let op = e.info_of(*r).op;
        match verbs.iter_mut().find(|(o, _)| *o == op) {
            Some((_, n)) => *n += 1,
            None => verbs.push((op, 1)),
        }
    }
    let parts: Vec<String> = verbs
        .iter()
        .enumerate()
        .map(|(i, (op, n))| {
            let what = if i == 0 { format!("`{obj}`") } else { "it".into() };
            let times = match n {
                1 => String::new(),
                2 => " twice".into(),
                n => format!(" {n} times"),
            };
            format!("{} {what}{times}", verb(op))
        })
        .collect();
    Some(format!("{} at {line}", join_and(&parts)))
}

/// `once.c:31` / `once.c lines 31–33`: where events are (None: in no file
/// or several).
pub(super) fn lines_of(e: &Explanation, v: &[EventRef]) -> Option<String> {
    let lines: Vec<(String, u32)> =
        v.iter().filter_map(|r| e.info_of(*r).loc.as_ref().map(|l| (l.file.to_string(), l.line))).collect();
    match (lines.iter().map(|l| l.1).min(), lines.iter().map(|l| l.1).max(), lines.first()) {
        (Some(lo), Some(hi), Some((file, _))) if lines.iter().all(|l| l.0 == *file) => {
            let file = causa_interp::memory::short_file(file);
            Some(if lo == hi { format!("{file}:{lo}") } else { format!("{file} lines {lo}–{hi}") })
        }
        _ => None,
    }
}

/// `makes 13 accesses to `q_count` (pfscan.c lines 34–39)`: a long run of
/// one thread's events in few words.
pub(super) fn many(e: &Explanation, v: &[EventRef]) -> String {
    let objects: Vec<String> = unique(v.iter().filter_map(|r| e.object(*r))).iter().map(|o| format!("`{o}`")).collect();
    let range = lines_of(e, v).map(|l| format!(" ({l})")).unwrap_or_default();
    format!("makes {} accesses to {}{range}", v.len(), join_and(&objects))
}

/// `once` / `3 times`.
pub(crate) fn times(n: usize) -> String {
    if n == 1 {
        "once".to_string()
    } else {
        format!("{n} times")
    }
}

/// `items` without repeats, in their first order.
pub(crate) fn unique<T: PartialEq>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// The functions of `a` and `b` when both are known and they differ.
pub(crate) fn two_functions(e: &Explanation, a: EventRef, b: EventRef) -> Option<(&str, &str)> {
    match (&e.info_of(a).function, &e.info_of(b).function) {
        (Some(f), Some(g)) if f != g => Some((f, g)),
        _ => None,
    }
}

/// `bank.c lines 12–13` / `bank.c line 12`: the lines from `a` to `b`.
pub(crate) fn line_range(e: &Explanation, a: EventRef, b: EventRef) -> String {
    match (e.info_of(a).loc.as_ref(), e.info_of(b).loc.as_ref()) {
        (Some(x), Some(y)) if x.file == y.file => {
            let file = causa_interp::memory::short_file(&x.file);
            // Two functions' lines: each named, not the lines between
            // (which may be any code).
            if let Some((fa, fb)) = two_functions(e, a, b).filter(|_| x.line != y.line) {
                return format!("{file} line {} (`{fa}`) through line {} (`{fb}`)", x.line, y.line);
            }
            let (lo, hi) = (x.line.min(y.line), x.line.max(y.line));
            if lo == hi {
                format!("{file} line {lo}")
            } else {
                format!("{file} lines {lo}–{hi}")
            }
        }
        _ => "these events".into(),
    }
}

pub(crate) fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [a] => a.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
