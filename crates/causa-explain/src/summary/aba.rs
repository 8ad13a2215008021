//! The ABA problem: a thread reads a pointer `top` (A) and a field of the
//! block it points to (`A->next`, N), then updates `top` from A to N in one
//! atomic step (a compare-and-swap). Between its read and its update, other
//! threads changed `top` away from A and back to A (popped A, pushed it
//! again), and A's field no longer holds N. The compare-and-swap compares
//! only the pointer, so it succeeds and installs the stale N. Making the
//! reader's lines atomic is one fix, but the diagnosis a developer looks
//! for is the value that came back: told as such, with the fixes that keep
//! a compare-and-swap (a counter beside the pointer, or no reuse of a block
//! another thread may still hold).

use super::{join_and, line_range, unique, who, who_over};
use crate::{Explanation, Run};
use causa_symbolic::EventRef;

/// The ABA sentence, when the failing schedule shows one (see the module
/// docs); None otherwise.
pub(super) fn aba(e: &Explanation) -> Option<String> {
    e.failing.iter().enumerate().find_map(|(at, &cas)| told(e, at, cas))
}

/// An atomic update (`old→new`) at place `at` of the failing schedule
/// whose thread's latest access to the same location before it is a read
/// of `old`: (the read, the location, `old`, `new`). The shape of a
/// compare-and-swap after a load, which [`aba`] and
/// [`super::claim::unclaimed_take`] start from.
pub(super) fn swapped_after_read(e: &Explanation, at: usize) -> Option<(EventRef, u64, &str, &str)> {
    let update = e.failing[at];
    let info = e.info_of(update);
    if info.op != "update" {
        return None;
    }
    let addr = info.addr?;
    let (old, new) = e.value(update, Run::Failing)?.split_once('→')?;
    let read = e.failing[..at].iter().copied().rfind(|r| r.0 == update.0 && e.info_of(*r).addr == Some(addr))?;
    (e.info_of(read).op == "read" && e.value(read, Run::Failing) == Some(old)).then_some((read, addr, old, new))
}

/// The ABA sentence for the update `cas` at place `at` of the failing
/// schedule, when it is one.
fn told(e: &Explanation, at: usize, cas: EventRef) -> Option<String> {
    // The thread's latest access to `top` before the update: a read of A.
    let (read, addr, old, new) = swapped_after_read(e, at)?;
    let (old, new) = (old.to_string(), new.to_string());
    let block = old.strip_prefix('&')?;
    let same = |r: EventRef| e.info_of(r).addr == Some(addr);
    let before = &e.failing[..at];
    let from = e.place(read)?;
    // What the thread read of A's block in between, and installs.
    let field = before[from..].iter().copied().find(|r| {
        r.0 == cas.0
            && e.info_of(*r).op == "read"
            && e.object(*r).is_some_and(|o| o.starts_with(&format!("{block}.")))
            && e.value(*r, Run::Failing) == Some(new.as_str())
    })?;
    let field_name = e.object(field)?;
    // Others changed `top` away from A and back to A in between.
    let changes: Vec<EventRef> =
        before[from..].iter().copied().filter(|r| r.0 != cas.0 && same(*r) && e.info_of(*r).stores).collect();
    let after = |r: EventRef| e.value(r, Run::Failing).map(|v| v.rsplit('→').next().unwrap_or(v).to_string());
    let back = changes.iter().copied().rposition(|r| after(r).as_deref() == Some(old.as_str()))?;
    let away = changes[..back].iter().copied().find(|r| after(*r).as_deref() != Some(old.as_str()))?;
    let back = changes[back];
    // And A's field changed after the thread read it.
    let place = e.place(field)?;
    let rewritten = e.failing[place..at]
        .iter()
        .copied()
        .find(|r| r.0 != cas.0 && e.info_of(*r).stores && e.object(*r).as_deref() == Some(field_name.as_str()))?;
    let now = after(rewritten)?;
    if now == new {
        return None;
    }
    let line = |r: EventRef| e.line(r).unwrap_or_default();
    let top = e.object(cas)?;
    // (Each other thread named once, by its function over its changes.)
    let others: Vec<String> = unique(changes.iter().map(|r| r.0))
        .into_iter()
        .map(|t| who_over(e, &changes.iter().copied().filter(|r| r.0 == t).collect::<Vec<_>>()))
        .collect();
    let flipped = match &e.flipped {
        Some(f) if f.thread == cas.0 && f.events_before == cas.1 + 1 => {
            format!(
                " In the alternate the update fails, since `{top}` has moved on, and {} reads `{top}` again.",
                who(e, cas)
            )
        }
        _ => String::new(),
    };
    Some(format!(
        "{} reads `{top}` ({old}) at {} and `{field_name}` ({new}) at {}, then updates `{top}` from {old} to {new} at {} in one atomic step. In between, {} changed `{top}` from {old} (at {}) and back to {old} (at {}), and `{field_name}` became {now} (at {}): the update compares only the pointer, sees {old} again and installs the stale {new} (the ABA problem).{flipped} Pairing `{top}` with a counter that every update of it increments, compared and swapped together, or not reusing a block while another thread may still hold a pointer to it (hazard pointers, deferred freeing), avoids the failure; so does making {} atomic.",
        who(e, cas),
        line(read),
        line(field),
        line(cas),
        join_and(&others),
        line(away),
        line(back),
        line(rewritten),
        line_range(e, read, cas),
    ))
}
