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
    let plain_write = |r: EventRef| matches!(sym.threads[r.0].events[r.1].op, SymOp::Write { .. });
    let lost =
        causa_symbolic::refine::lost_updates((failing, alternate), true, |r| r.0, |r| access(sym, r), plain_write);
    lost.first().copied()
}
