//! A sequence-lock reader that checks the counter only before its reads:
//! the reader reads `seq`, tests it (no write in progress), then reads the
//! data; the writer updates `seq` before its writes of that data, after the
//! reader's read of `seq`, and the reader never reads `seq` again, so its
//! test passes on the value from before the writer began and it keeps data
//! read while the writer was halfway. The data flows alone say "one lock
//! over the writes and the reads"; the diagnosis is the missing second
//! check, told with it. (The writer's later events may lie after the
//! failure, outside the failing schedule: only its update of the counter
//! and one write after it are asked for.)

use super::{join_and, unique, who};
use crate::{Explanation, Run};
use causa_symbolic::EventRef;

/// The sentence, when the failing schedule shows such a reader (see the
/// module docs); None otherwise.
pub(super) fn unchecked_sequence(e: &Explanation) -> Option<String> {
    let t = e.failing_thread()?;
    let mine: Vec<EventRef> = e.failing.iter().copied().filter(|r| r.0 == t).collect();
    let reads = |r: &EventRef| e.info_of(*r).op == "read";
    // The reader's last tested read of a counter that a writer updates
    // after it, before that writer's writes of data the reader then reads.
    mine.iter().copied().rev().filter(reads).find_map(|s| {
        // (Tested; a counter read atomically or updated in one step. A
        // loop's test right before the check has the check's place: not
        // told apart from it.)
        e.branches_on.get(&s).filter(|b| !b.is_empty())?;
        let counter = e.info_of(s).addr?;
        let on = |r: &EventRef, a: u64| e.info_of(*r).addr == Some(a);
        let later: Vec<EventRef> = mine.iter().copied().filter(|r| r.1 > s.1).collect();
        // (Not read again after it.)
        if later.iter().any(|r| on(r, counter)) {
            return None;
        }
        let from = e.place(s)?;
        let update = e.failing[from..].iter().copied().find(|r| r.0 != t && on(r, counter) && e.info_of(*r).stores)?;
        if !(e.info_of(s).atomic || e.info_of(update).op == "update") {
            return None;
        }
        // The reader's reads right after its read of the counter, in the
        // same function (the section the counter guards), one of them of
        // data the writer wrote after its update, in the update's function
        // (the write begun).
        let function = |r: &EventRef| &e.info_of(*r).function;
        let data: Vec<EventRef> =
            later.iter().copied().take_while(|r| reads(r) && function(r) == function(&s)).collect();
        let start = e.place(update)?;
        let begun = |r: &EventRef| {
            let (addr, at) = (e.info_of(*r).addr, e.place(*r));
            e.failing[start..].iter().any(|x| {
                x.0 == update.0
                    && function(x) == function(&update)
                    && e.info_of(*x).stores
                    && e.info_of(*x).addr == addr
                    && e.place(*x) < at
            })
        };
        if !data.iter().any(begun) {
            return None;
        }
        let line = |r: EventRef| e.line(r).unwrap_or_default();
        let name = |r: EventRef| e.object(r).map(|o| format!("`{o}`")).unwrap_or_else(|| "the data".into());
        let names = unique(data.iter().map(|r| name(*r)));
        let seen: Vec<String> = data
            .iter()
            .map(|r| format!("{} = {}", name(*r), e.value(*r, Run::Failing).unwrap_or("?")))
            .collect();
        let ctr = e.object(s)?;
        let value = e.value(s, Run::Failing).map(|v| format!(" ({v})")).unwrap_or_default();
        let changed = e.value(update, Run::Failing).map(|v| format!(" ({v})")).unwrap_or_default();
        Some(format!(
            "{} reads `{ctr}`{value} at {} and tests it, then reads {} (at {}); {} updates `{ctr}`{changed} at {} before writing them, after the reader's read of `{ctr}`, and the reader does not read `{ctr}` again: its test passed on the value from before the writer began, and it keeps what it read while the writer was halfway ({}). Reading `{ctr}` again after the reads and retrying unless it still holds the value read first (a sequence lock's second check) avoids the failure; so does one lock held over the writes and the reads.",
            who(e, s),
            line(s),
            join_and(&names),
            join_and(&unique(data.iter().map(|r| line(*r)))),
            who(e, update),
            line(update),
            join_and(&seen),
        ))
    })
}
