//! Alternates that avoid the failure by losing an update instead.
//!
//! An alternate may avoid a failure only by bringing in another race: a
//! thread reads a location, another thread writes it, and the first then
//! writes it back over that write. The checked value may then come out
//! right by accident (a singleton created twice whose creation counter loses
//! one of its two increments), and the explanation would be about the
//! counter, not about the failure. Such an alternate is set aside when the
//! failing schedule does not lose that update too; the next one, or a
//! flipped branch, is asked for instead.

use causa_core::collections::HashMap;
use causa_symbolic::{EventRef, SymOp, SymTrace};

/// The location an event reads (false) or writes (true), when the trace
/// knows it (an address computed from shared data is left out).
fn access(sym: &SymTrace, r: EventRef) -> Option<(u64, bool)> {
    match sym.threads[r.0].events[r.1].op {
        SymOp::Read { addr, at: None, .. } if addr != 0 => Some((addr, false)),
        SymOp::Write { addr, at: None, .. } if addr != 0 => Some((addr, true)),
        SymOp::Rmw { addr, .. } if addr != 0 => Some((addr, true)),
        _ => None,
    }
}

/// An update `alternate` loses and `failing` does not: (a thread's read,
/// another thread's write after it, the first thread's next access to the
/// location, a plain write), with the other write between the two in
/// `alternate` only.
pub(crate) fn introduced(
    sym: &SymTrace,
    failing: &[EventRef],
    alternate: &[EventRef],
) -> Option<(EventRef, EventRef, EventRef)> {
    let fpos: HashMap<EventRef, usize> = failing.iter().enumerate().map(|(i, r)| (*r, i)).collect();
    for (i, &a1) in alternate.iter().enumerate() {
        let Some((loc, false)) = access(sym, a1) else { continue };
        let on_loc = |r: EventRef| access(sym, r).is_some_and(|(l, _)| l == loc);
        let Some(j) = (i + 1..alternate.len()).find(|j| alternate[*j].0 == a1.0 && on_loc(alternate[*j])) else {
            continue;
        };
        let a2 = alternate[j];
        if !matches!(sym.threads[a2.0].events[a2.1].op, SymOp::Write { .. }) {
            continue;
        }
        for &x in &alternate[i + 1..j] {
            if x.0 == a1.0 || access(sym, x) != Some((loc, true)) {
                continue;
            }
            // Between them in the failing schedule too (or after the read
            // there, when the failure comes before the write).
            let also = match (fpos.get(&a1), fpos.get(&x)) {
                (Some(p1), Some(px)) => p1 < px && fpos.get(&a2).is_none_or(|p2| px < p2),
                _ => false,
            };
            if !also {
                return Some((a1, x, a2));
            }
        }
    }
    None
}
