//! State a C library function keeps for the whole process, told from the
//! failing run alone: `strtok`'s position, which every call reads and
//! moves (the interpreter models it as one hidden shared object, named
//! [`STRTOK_POSITION`]). Symbolic execution does not model `strtok` (the
//! position points into whichever thread's string was passed last, and
//! the call writes into that string), so such a failure has no
//! differential schedule; when the run shows another thread's call
//! between two calls of one thread, that is the diagnosis, and
//! `strtok_r` the remedy.

use causa_core::event::EventRecord;

/// The interpreter's name of `strtok`'s position.
const STRTOK_POSITION: &str = "strtok's position";

/// `` `parse` (thread 0.2)'s `strtok` at tok.c:9 (step 8) came between
/// … ``: the first call of another thread between two calls of one
/// thread; None when the run has none. `function`: the function a source line is in.
pub(crate) fn strtok_interleaved(
    records: &[EventRecord],
    function: &dyn Fn(&causa_core::SourceLoc) -> Option<std::sync::Arc<str>>,
) -> Option<String> {
    let calls: Vec<&EventRecord> =
        records.iter().filter(|r| r.object.as_deref().is_some_and(|o| o.starts_with(STRTOK_POSITION))).collect();
    // (Each thread's last call so far, and the last call of all.)
    let mut last_of: Vec<(&causa_core::ThreadName, usize)> = Vec::new();
    let mut last: Option<usize> = None;
    for (i, c) in calls.iter().enumerate() {
        let mine = last_of.iter().find(|(t, _)| **t == c.thread).map(|(_, k)| *k);
        if let (Some(k), Some(l)) = (mine, last) {
            if calls[l].thread != c.thread && l > k {
                return Some(sentence(calls[k], calls[l], c, function));
            }
        }
        last_of.retain(|(t, _)| **t != c.thread);
        last_of.push((&c.thread, i));
        last = Some(i);
    }
    None
}

/// The diagnosis: `other` moved the position between `before` and `after`
/// (one thread's two calls).
fn sentence(
    before: &EventRecord,
    other: &EventRecord,
    after: &EventRecord,
    function: &dyn Fn(&causa_core::SourceLoc) -> Option<std::sync::Arc<str>>,
) -> String {
    let who = |r: &EventRecord| match r.location.as_ref().and_then(function) {
        Some(f) => format!("`{f}` (thread {})", r.thread),
        None => format!("thread {}", r.thread),
    };
    let place = |r: &EventRecord| match &r.location {
        Some(l) => format!("{}:{}, step {}", causa_interp::memory::short_file(&l.file), l.line, r.seq),
        None => format!("step {}", r.seq),
    };
    format!(
        "{}'s call of `strtok` ({}) came between two calls of {} (steps {} and {}): `strtok` keeps one position for the whole process, so that call moved it to its own string, and a call with NULL after it goes on from there, not in the string thread {} passed. `strtok_r`, with a position of each caller's own, avoids the failure (symbolic execution does not model `strtok`)",
        who(other),
        place(other),
        who(before),
        before.seq,
        after.seq,
        before.thread,
    )
}
