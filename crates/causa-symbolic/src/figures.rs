//! How much an alternate schedule departs from the failing one, over any
//! event type with a thread (AAAI-19 Table 2's broken segments and
//! context-switch variations): the DSP reports them (causa-explain, on
//! event references) and the coarsening of alternates keeps them
//! (`coarsen.rs`, on model events).

use causa_core::collections::HashMap;
use std::collections::BTreeSet;
use std::hash::Hash;

/// Each event's position in `order`.
pub fn positions<T: Copy + Eq + Hash>(order: &[T]) -> HashMap<T, usize> {
    order.iter().enumerate().map(|(i, e)| (*e, i)).collect()
}

/// `order`'s context switches: consecutive events of two threads.
pub fn switch_pairs<T: Copy + Ord, K: PartialEq>(order: &[T], thread: impl Fn(T) -> K) -> BTreeSet<(T, T)> {
    order.windows(2).filter(|w| thread(w[0]) != thread(w[1])).map(|w| (w[0], w[1])).collect()
}

/// Segments of `failing` (maximal runs of one thread, two events or more)
/// that `alternate` interrupts with another thread's event, or leaves an
/// end of out.
pub fn broken_segments<T: Copy + Eq + Hash, K: PartialEq>(
    failing: &[T],
    alternate: &[T],
    thread: impl Fn(T) -> K,
) -> usize {
    let at = positions(alternate);
    let mut count = 0;
    let mut start = 0;
    for k in 1..=failing.len() {
        if k < failing.len() && thread(failing[k]) == thread(failing[start]) {
            continue;
        }
        if k - start >= 2 {
            let t = thread(failing[start]);
            count += match (at.get(&failing[start]), at.get(&failing[k - 1])) {
                (Some(&x), Some(&y)) => alternate[x.min(y)..=x.max(y)].iter().any(|e| thread(*e) != t) as usize,
                _ => 1,
            };
        }
        start = k;
    }
    count
}

/// Context switches of `failing` (consecutive events of two threads) whose
/// two events are not consecutive in `alternate`.
pub fn varied_switches<T: Copy + Eq + Hash, K: PartialEq>(
    failing: &[T],
    alternate: &[T],
    thread: impl Fn(T) -> K,
) -> usize {
    let at = positions(alternate);
    failing
        .windows(2)
        .filter(|w| thread(w[0]) != thread(w[1]))
        .filter(|w| !matches!((at.get(&w[0]), at.get(&w[1])), (Some(&i), Some(&j)) if j == i + 1))
        .count()
}

/// An alternate's departure from the failing schedule as AAAI-19 ranks
/// it: (data flows it has that `failing` does not, broken segments,
/// context-switch variations).
pub fn figures_key(
    sym: &crate::trace::SymTrace,
    failing: &[crate::EventRef],
    alternate: &[crate::EventRef],
) -> (usize, usize, usize) {
    let thread = |r: crate::EventRef| r.0;
    (
        new_flows(sym, failing, alternate),
        broken_segments(failing, alternate, thread),
        varied_switches(failing, alternate, thread),
    )
}

/// [`figures_key`] and, last, how many events the differences between the
/// two schedules touch: the reads and writes of the data flows one of them
/// has and the other does not, and the events of the context switches one
/// of them has and the other does not (the operations of the projection a
/// DSP shows, as far as events of the model tell them: the tie-breaker of
/// two alternates with the same figures). Each schedule's data flows are
/// computed once for both.
pub fn figures_and_touched(
    sym: &crate::trace::SymTrace,
    failing: &[crate::EventRef],
    alternate: &[crate::EventRef],
) -> (usize, usize, usize, usize) {
    let thread = |r: crate::EventRef| r.0;
    let f: BTreeSet<_> = crate::symbiosis::data_flows(sym, failing).into_iter().collect();
    let a_flows = crate::symbiosis::data_flows(sym, alternate);
    // (Counted as `new_flows` counts them.)
    let new = a_flows.iter().filter(|x| !f.contains(x)).count();
    let a: BTreeSet<_> = a_flows.into_iter().collect();
    let (fs, as_) = (switch_pairs(failing, thread), switch_pairs(alternate, thread));
    let mut events = BTreeSet::new();
    for (r, w) in f.symmetric_difference(&a) {
        events.insert(*r);
        events.extend(*w);
    }
    for (x, y) in fs.symmetric_difference(&as_) {
        events.insert(*x);
        events.insert(*y);
    }
    (new, broken_segments(failing, alternate, thread), varied_switches(failing, alternate, thread), events.len())
}

/// The data flows `alternate` has that `failing` does not.
pub fn new_flows(sym: &crate::trace::SymTrace, failing: &[crate::EventRef], alternate: &[crate::EventRef]) -> usize {
    let f: BTreeSet<_> = crate::symbiosis::data_flows(sym, failing).into_iter().collect();
    crate::symbiosis::data_flows(sym, alternate).into_iter().filter(|x| !f.contains(x)).count()
}
