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

/// The last update of `addr` the failing schedule loses: (a thread's read,
/// another thread's write after it, the first thread's plain write over
/// that one), all before the failure.
fn lost_in_failing(e: &crate::Explanation, addr: u64) -> Option<(EventRef, EventRef, EventRef)> {
    let access = |r: EventRef| {
        let i = e.info_of(r);
        match (i.op, i.addr) {
            ("read", Some(a)) if a == addr => Some((a, false)),
            ("write" | "update", Some(a)) if a == addr => Some((a, true)),
            _ => None,
        }
    };
    let plain_write = |r: EventRef| e.info_of(r).op == "write";
    causa_symbolic::refine::lost_updates((&[], &e.failing), false, |r| r.0, access, plain_write).pop()
}

/// `` The failing schedule loses an update of `refs`: `release` (thread
/// 0.1) reads it at rc.c:42 and writes it at rc.c:42 over `retain` (thread
/// 0)'s write at rc.c:37; making the updates at rc.c lines 37 and 42 atomic
/// … keeps every update. `` Told when no block of lines made atomic would
/// keep a region together (it spans two runs of a statement) and the
/// location it accesses loses an update in the failing schedule: that is
/// the defect to fix, whichever order then fails.
pub(crate) fn sentence(e: &crate::Explanation, addr: u64) -> Option<String> {
    use crate::summary::who;
    let (r, x, w) = lost_in_failing(e, addr)?;
    let at = |r: EventRef| e.line(r).unwrap_or_default();
    let valued = |r: EventRef| e.value(r, crate::Run::Failing).map_or_else(String::new, |v| format!(" ({v})"));
    let object = e.object(r).unwrap_or_else(|| "the location".into());
    let mut lines: Vec<u32> = [r, x, w].iter().filter_map(|r| e.info_of(*r).loc.as_ref().map(|l| l.line)).collect();
    lines.sort_unstable();
    lines.dedup();
    let file = e.info_of(r).loc.as_ref().map(|l| causa_interp::memory::short_file(&l.file).to_string());
    let place = match (file, lines.as_slice()) {
        (Some(f), [l]) => format!("the update at {f}:{l}"),
        (Some(f), [a, b]) => format!("the updates at {f} lines {a} and {b}"),
        _ => "these updates".into(),
    };
    Some(format!(
        "The failing schedule loses an update of `{object}`: {} reads it{} at {} and writes it{} at {} over {}'s write{} at {}, which is lost; making {place} atomic (under one lock, or with C11 atomics) keeps every update.",
        who(e, r),
        valued(r),
        at(r),
        valued(w),
        at(w),
        who(e, x),
        valued(x),
        at(x),
    ))
}

/// Whether `(first, last)` are the read and the write of the update that
/// [`sentence`] tells as lost, and `out` has that sentence already (a
/// region made of that update would only say it again).
pub(crate) fn told(e: &crate::Explanation, (first, last): (EventRef, EventRef), out: &[String]) -> bool {
    let Some(addr) = e.info_of(first).addr else { return false };
    match lost_in_failing(e, addr) {
        Some((r, _, w)) if (r, w) == (first, last) => sentence(e, addr).is_some_and(|s| out.contains(&s)),
        _ => false,
    }
}
