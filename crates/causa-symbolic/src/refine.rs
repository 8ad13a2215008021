//! What the next query rules out after an alternate is rejected.
//!
//! An alternate whose replay fails (or that the caller sets aside) is
//! excluded from the next query. The general exclusion is "other data flows
//! or synchronisation orders" ([`crate::coarsen::another_class`]); it rules
//! out one class of orders, and the next best is often its neighbour with
//! the same flaw. The usual flaw is a lost update the failing schedule does
//! not have: a thread reads a location, another thread writes it, and the
//! first writes it back over that write. Two unlocked list pushes lose one
//! node in the failing run; the most similar alternate loses the other
//! thread's node instead, and the assertion on the list's length fails
//! again. Such a rejection rules out that interleaving of those three
//! events instead, for a replay that failed; for an alternate set aside for
//! losing an update, every update of the same location that the failing
//! schedule does not lose (a refinement like a counterexample-guided one:
//! only the locations an alternate showed a lost update on, not every
//! location the model has, each quadratic in its accesses). Ruling out only
//! the triple shown was not enough for three semaphore holders that each
//! increment and decrement a shared count: the next nine alternates each
//! lost another of its updates.

use crate::alternate::Verdict;
use crate::model::Model;
use crate::trace::SymTrace;
use causa_constraints::formula::Ev;
use causa_constraints::{Formula, Op};
use causa_core::collections::HashMap;

/// The location an event reads (false) or writes (true); accesses through
/// computed addresses (location 0) are left out.
pub(crate) fn access(model: &Model, e: Ev) -> Option<(u64, bool)> {
    match model.trace.events[e].op {
        Op::Read { loc, .. } if loc != 0 => Some((loc, false)),
        Op::Write { loc, .. } | Op::Rmw { loc, .. } if loc != 0 => Some((loc, true)),
        _ => None,
    }
}

/// The updates `order` loses, each as (a thread's read, another thread's
/// write after it, the first thread's next access to the location, a plain
/// write), with the other write between the two; with `new_only`, one that
/// `sigma` does not lose (the other write is not between the two there, nor
/// after the read when `sigma` ends before the first thread's write). Over
/// any events: `thread`, the location each reads (false) or writes (true),
/// and whether it is a plain write, say what they are (the model's here,
/// the symbolic trace's in causa-explain's test of a replayed alternate).
pub fn lost_updates<E: Copy + Eq + std::hash::Hash>(
    (sigma, order): (&[E], &[E]),
    new_only: bool,
    thread: impl Fn(E) -> usize,
    access: impl Fn(E) -> Option<(u64, bool)>,
    plain_write: impl Fn(E) -> bool,
) -> Vec<(E, E, E)> {
    let spos: HashMap<E, usize> = sigma.iter().enumerate().map(|(i, e)| (*e, i)).collect();
    let mut out = Vec::new();
    for (i, &a1) in order.iter().enumerate() {
        let Some((loc, false)) = access(a1) else { continue };
        let on_loc = |e: E| access(e).is_some_and(|(l, _)| l == loc);
        let Some(j) = (i + 1..order.len()).find(|j| thread(order[*j]) == thread(a1) && on_loc(order[*j])) else {
            continue;
        };
        let a2 = order[j];
        if !plain_write(a2) {
            continue;
        }
        for &x in &order[i + 1..j] {
            if thread(x) == thread(a1) || access(x) != Some((loc, true)) {
                continue;
            }
            if !(new_only && loses(&spos, (a1, x, a2))) {
                out.push((a1, x, a2));
            }
        }
    }
    out
}

/// Whether the order whose positions `pos` gives loses the update `(a1, x,
/// a2)`: `x` after `a1` and before `a2` (or `a2` not in it).
fn loses<E: Eq + std::hash::Hash>(pos: &HashMap<E, usize>, (a1, x, a2): (E, E, E)) -> bool {
    match (pos.get(&a1), pos.get(&x)) {
        (Some(p1), Some(px)) => p1 < px && pos.get(&a2).is_none_or(|p2| px < p2),
        _ => false,
    }
}

/// Every update of location `loc` the model's threads could lose that
/// `sigma` does not: (a thread's read of `loc`, another thread's write of
/// it, the first thread's next access to it in program order, a plain
/// write).
fn new_lost_at(model: &Model, sigma: &[Ev], loc: u64) -> Vec<(Ev, Ev, Ev)> {
    let spos: HashMap<Ev, usize> = sigma.iter().enumerate().map(|(i, e)| (*e, i)).collect();
    let on_loc = |e: Ev| access(model, e).filter(|(l, _)| *l == loc);
    let thread = |e: Ev| model.trace.events[e].thread;
    let writes: Vec<Ev> = (0..model.trace.len()).filter(|e| on_loc(*e).is_some_and(|(_, w)| w)).collect();
    let mut out = Vec::new();
    for events in &model.event_of {
        let mine: Vec<Ev> = events.iter().flatten().copied().filter(|e| on_loc(*e).is_some()).collect();
        for w in mine.windows(2) {
            let (a1, a2) = (w[0], w[1]);
            if on_loc(a1) != Some((loc, false)) || !matches!(model.trace.events[a2].op, Op::Write { .. }) {
                continue;
            }
            for &x in writes.iter().filter(|x| thread(**x) != thread(a1)) {
                if !loses(&spos, (a1, x, a2)) {
                    out.push((a1, x, a2));
                }
            }
        }
    }
    out
}

/// [`lost_updates`] over the model's events.
fn lost_in_model(model: &Model, sigma: &[Ev], order: &[Ev], new_only: bool) -> Vec<(Ev, Ev, Ev)> {
    let thread = |e: Ev| model.trace.events[e].thread as usize;
    let plain_write = |e: Ev| matches!(model.trace.events[e].op, Op::Write { .. });
    lost_updates((sigma, order), new_only, thread, |e| access(model, e), plain_write)
}

/// "Not the rejected `order`": the lost updates it has do not happen (in
/// each, the other write comes before the read or after the write back),
/// else other data flows or synchronisation orders. Set aside for losing
/// an update: no update of those locations that `sigma` does not lose is
/// lost. Failed on replay: every one,
/// `sigma`'s own too (an alternate that keeps the failing schedule's lost
/// update and fails again later, the list whose length is checked after its
/// traversal, shows that one is the failure's cause).
pub(crate) fn exclude(sym: &SymTrace, model: &Model, sigma: &[Ev], order: &[Ev], why: Verdict) -> Formula {
    let mut lost = lost_in_model(model, sigma, order, why == Verdict::LosesUpdate);
    if lost.is_empty() {
        return crate::coarsen::another_class(sym, model, order);
    }
    if why == Verdict::LosesUpdate {
        let locs: std::collections::BTreeSet<u64> =
            lost.iter().filter_map(|(a1, _, _)| access(model, *a1)).map(|(l, _)| l).collect();
        lost = locs.into_iter().flat_map(|l| new_lost_at(model, sigma, l)).collect();
    }
    let not_lost = |(a1, x, a2): (Ev, Ev, Ev)| Formula::or(vec![Formula::Before(x, a1), Formula::Before(a2, x)]);
    Formula::and(lost.into_iter().map(not_lost).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two threads' read-then-write of one location (the trace's events:
    /// thread 1's read 0 and write 1, thread 2's read 2 and write 3).
    fn two_updates() -> Model {
        let ops = [
            (1, Op::Read { loc: 8, value: 0 }),
            (1, Op::Write { loc: 8, value: 1 }),
            (2, Op::Read { loc: 8, value: 0 }),
            (2, Op::Write { loc: 8, value: 1 }),
        ];
        let events = ops.into_iter().map(|(thread, op)| causa_constraints::trace::TraceEvent { thread, op }).collect();
        Model {
            trace: causa_constraints::trace::Trace { events, ..Default::default() },
            origin: vec![(1, 0), (1, 1), (2, 0), (2, 1)],
            event_of: vec![],
            last: 3,
            failure: (0, causa_core::BugKind::AssertionViolation),
            cells: Default::default(),
        }
    }

    #[test]
    fn an_update_the_failing_schedule_loses_too_is_not_new() {
        let m = two_updates();
        // σ: thread 2's write between thread 1's read and write.
        let sigma = [0, 2, 3, 1];
        assert_eq!(lost_in_model(&m, &sigma, &sigma, true), vec![]);
        assert_eq!(lost_in_model(&m, &sigma, &sigma, false), vec![(0, 3, 1)]);
        // The alternate loses thread 1's update instead.
        assert_eq!(lost_in_model(&m, &sigma, &[2, 0, 1, 3], true), vec![(2, 1, 3)]);
        // Serial orders lose nothing.
        for serial in [[0, 1, 2, 3], [2, 3, 0, 1]] {
            assert_eq!(lost_in_model(&m, &sigma, &serial, false), vec![]);
        }
    }
}
