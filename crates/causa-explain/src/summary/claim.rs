//! An element one thread claims and another takes without claiming: the
//! claiming thread reads an index (`top`) and the element it designates,
//! then moves the index on in one atomic step (a compare-and-swap); the
//! other thread read the same index value before that claim and takes the
//! same element, but never updates the index. Both take it (a
//! work-stealing deque whose owner takes the last task without the
//! compare-and-swap the thief uses). The data flows alone say which read
//! came before which update; the diagnosis is the claim one side skips.

use super::who;
use crate::{Explanation, Run};
use causa_symbolic::EventRef;

/// The sentence, when the failing schedule shows such a pair (see the
/// module docs); None otherwise.
pub(super) fn unclaimed_take(e: &Explanation) -> Option<String> {
    e.failing.iter().enumerate().find_map(|(at, &claim)| told(e, at, claim))
}

fn told(e: &Explanation, at: usize, claim: EventRef) -> Option<String> {
    // The claimer's read of the index, then of the element.
    let (own, index, old, new) = super::aba::swapped_after_read(e, at)?;
    if old == new {
        return None;
    }
    let on = |r: &EventRef, a: Option<u64>| e.info_of(*r).addr == a;
    let read = |r: &EventRef| e.info_of(*r).op == "read";
    let before = &e.failing[..at];
    // (Plain reads: a C11 atomic beside the index is another index, such
    // as a deque's `bottom`, not the element.)
    let mine = |r: &EventRef| r.0 == claim.0 && r.1 > own.1 && read(r) && !e.info_of(*r).atomic;
    let elements: Vec<EventRef> = before[e.place(own)?..].iter().copied().filter(mine).collect();
    // Another thread read the same index value before the claim and then
    // one of those elements, and stores nothing to the index afterwards.
    let taker = before.iter().copied().find_map(|x| {
        if x.0 == claim.0 || !read(&x) || !on(&x, Some(index)) || e.value(x, Run::Failing) != Some(old) {
            return None;
        }
        let later: Vec<EventRef> = e.failing[e.place(x)?..].iter().copied().filter(|r| r.0 == x.0).collect();
        if later.iter().any(|r| on(r, Some(index)) && e.info_of(*r).stores) {
            return None;
        }
        let took = later.iter().copied().find(|r| {
            read(r)
                && !e.info_of(*r).atomic
                && elements
                    .iter()
                    .any(|el| on(r, e.info_of(*el).addr) && e.value(*r, Run::Failing) == e.value(*el, Run::Failing))
        })?;
        Some((x, took))
    })?;
    // (The taker's latest read of the index before it took the element.)
    let (first, took) = taker;
    let seen = e.failing[e.place(first)?..e.place(took)?]
        .iter()
        .copied()
        .rfind(|r| r.0 == took.0 && read(r) && on(r, Some(index)))
        .unwrap_or(first);
    // (The claimer's read of that element.)
    let element = elements.iter().copied().find(|el| on(el, e.info_of(took).addr))?;
    let line = |r: EventRef| e.line(r).unwrap_or_default();
    let ix = e.object(claim)?;
    let el = e.object(took).map(|o| format!("`{o}`")).unwrap_or_else(|| "the element".into());
    let value = e.value(took, Run::Failing).map(|v| format!(" ({v})")).unwrap_or_default();
    Some(format!(
        "{} and {} both take {el}{value}: {} reads it at {} and claims it by updating `{ix}` ({old}→{new}) at {} in one atomic step, but {} read `{ix}` ({old}) at {}, before that claim, and takes {el} at {} without claiming it (it never updates `{ix}`). Claiming it the same way in both (a compare-and-swap of `{ix}` from the value read, giving the element up when the swap fails) avoids the failure.",
        who(e, took),
        who(e, claim),
        who(e, claim),
        line(element),
        line(claim),
        who(e, took),
        line(seen),
        line(took),
    ))
}
