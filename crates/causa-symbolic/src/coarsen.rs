//! Fewer context switches in an alternate schedule, same data flows.
//!
//! The similarity objectives (AAAI-19 §4.2) count the failing schedule's
//! segments the alternate breaks and its context switches the alternate
//! does not keep, but not the switches the alternate adds: once a segment
//! is broken, interleaving it further costs nothing, and the solver's
//! alternate often switches threads at every event (pfscan: a worker's
//! dequeue event by event against the other's statistics update). Every
//! added switch puts two more events in the DSP and in front of the reader.
//!
//! Any order that keeps the alternate's order of each two conflicting events
//! (accesses to one location, at least one a write; operations on one
//! synchronisation object) and program order, fork and join, has the same
//! data flows and the same synchronisation, so the same values, paths and
//! outcome. Among those, this one stays on a thread while its next event is
//! ready, and else goes on with the thread whose next event comes first in
//! the alternate. It is kept when it switches less and does not break more
//! of the failing schedule's segments nor keep fewer of its switches.
//!
//! Left as they are: alternates with uninterruptible sections, frees (a
//! memory error's predicate ranges over accesses and frees the conflicts
//! above do not order), or more than [`MAX_EVENTS`] events.

use crate::model::Model;
use crate::trace::{SymOp, SymTrace};
use causa_constraints::formula::Ev;
use causa_constraints::{Encoder, Formula, Op};
use causa_core::collections::HashMap;

/// Longer alternates are left as they are (the dependency graph is
/// quadratic).
const MAX_EVENTS: usize = 4000;

/// What an event touches: a location (read or written) or a
/// synchronisation object.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Touch {
    None,
    Read(u64),
    Write(u64),
    Sync(u64, u64),
    /// An access through a computed address (location 0 in the model) into
    /// this object (any location of it), and whether it writes.
    Object(u32, bool),
    /// Something the order of every other event may matter to.
    All,
}

fn touch(sym: &SymTrace, model: &Model, e: Ev) -> Touch {
    let op = &model.trace.events[e].op;
    let (t, k) = model.origin[e];
    // A bulk access may span locations and two objects.
    if matches!(sym.threads[t].events[k].op, SymOp::Bulk { .. }) {
        return Touch::All;
    }
    match op {
        Op::Read { loc: 0, .. } | Op::Write { loc: 0, .. } | Op::Rmw { loc: 0, .. } => {
            let object = match &sym.threads[t].events[k].op {
                SymOp::Read { at: Some(p), .. } | SymOp::Write { at: Some(p), .. } => {
                    crate::relevant::object_of(sym, *p)
                }
                _ => None,
            };
            object.map_or(Touch::All, |o| Touch::Object(o, !matches!(op, Op::Read { .. })))
        }
        Op::Read { loc, .. } => Touch::Read(*loc),
        Op::Write { loc, .. } | Op::Rmw { loc, .. } => Touch::Write(*loc),
        Op::Lock { mutex, .. } | Op::Unlock { mutex } | Op::TrylockFail { mutex } => Touch::Sync(*mutex, *mutex),
        Op::Wait { cond, mutex, .. } | Op::WaitReturn { cond, mutex, .. } => Touch::Sync(*cond, *mutex),
        Op::Signal { cond, .. } | Op::Broadcast { cond, .. } => Touch::Sync(*cond, *cond),
        Op::SemWait { sem, .. } | Op::SemFail { sem } | Op::SemPost { sem } => Touch::Sync(*sem, *sem),
        Op::Arrive { barrier, .. } | Op::Depart { barrier, .. } => Touch::Sync(*barrier, *barrier),
        Op::OnceCall { once, .. } | Op::OnceResume { once } | Op::OnceDone { once } => Touch::Sync(*once, *once),
        Op::Begin | Op::End | Op::Fork { .. } | Op::Join { .. } | Op::Local => Touch::None,
        _ => Touch::All,
    }
}

fn conflict(a: Touch, b: Touch) -> bool {
    let object = |o: u32, w: bool, other: Touch| match other {
        Touch::Read(x) => w && causa_ir::addr_alloc(x) == o,
        Touch::Write(x) => causa_ir::addr_alloc(x) == o,
        Touch::Object(p, v) => o == p && (w || v),
        _ => false,
    };
    match (a, b) {
        (Touch::None, _) | (_, Touch::None) => false,
        (Touch::All, _) | (_, Touch::All) => true,
        (Touch::Object(o, w), other) | (other, Touch::Object(o, w)) => object(o, w, other),
        (Touch::Read(x), Touch::Write(y)) | (Touch::Write(x), Touch::Read(y)) | (Touch::Write(x), Touch::Write(y)) => {
            x == y
        }
        (Touch::Sync(a, b), Touch::Sync(c, d)) => a == c || a == d || b == c || b == d,
        _ => false,
    }
}

/// `order`'s first `upto` events with fewer context switches (see the
/// module docs), or `order` itself.
pub(crate) fn coarsen(
    sym: &SymTrace,
    model: &Model,
    enc: &Encoder<'_>,
    sigma: &[Ev],
    order: &[Ev],
    upto: usize,
) -> Vec<Ev> {
    let events = &model.trace.events;
    let n = upto.min(order.len());
    let skip = n > MAX_EVENTS
        || model.trace.sections.iter().any(|s| *s != 0)
        || events.iter().any(|e| matches!(e.op, Op::Free { .. }));
    if skip || n < 3 {
        return order.to_vec();
    }
    let prefix = &order[..n];
    let thread = |e: Ev| events[e].thread;
    let touches: Vec<Touch> = prefix.iter().map(|e| touch(sym, model, *e)).collect();
    // Each event's successors among the prefix, and how many predecessors
    // it waits for.
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut preds = vec![0usize; n];
    for j in 0..n {
        for i in 0..j {
            let (a, b) = (prefix[i], prefix[j]);
            if thread(a) == thread(b) || conflict(touches[i], touches[j]) || enc.mhb_before(a, b) {
                succ[i].push(j);
                preds[j] += 1;
            }
        }
    }
    // Each thread's events, in the alternate's order.
    let mut queues: HashMap<u32, std::collections::VecDeque<usize>> = HashMap::default();
    for (i, e) in prefix.iter().enumerate() {
        queues.entry(thread(*e)).or_default().push_back(i);
    }
    let mut out: Vec<Ev> = Vec::with_capacity(order.len());
    let mut cur = thread(prefix[0]);
    while out.len() < n {
        let ready =
            |t: &u32, q: &std::collections::VecDeque<usize>| q.front().filter(|i| preds[**i] == 0).map(|i| (*t, *i));
        let next = queues
            .get(&cur)
            .and_then(|q| ready(&cur, q))
            .or_else(|| queues.iter().filter_map(|(t, q)| ready(t, q)).min_by_key(|(_, i)| *i));
        // The alternate is an order of its own graph: its earliest event not
        // placed yet is always ready.
        let Some((t, i)) = next else { return order.to_vec() };
        queues.get_mut(&t).map(|q| q.pop_front());
        for &j in &succ[i] {
            preds[j] -= 1;
        }
        out.push(prefix[i]);
        cur = t;
    }
    out.extend_from_slice(&order[n..]);
    let thread = |e: Ev| events[e].thread;
    let score = |o: &[Ev]| {
        let broken = crate::figures::broken_segments(sigma, o, thread);
        (broken, crate::figures::varied_switches(sigma, o, thread), switches(events, o))
    };
    let (old, new) = (score(order), score(&out));
    if new.0 <= old.0 && new.1 <= old.1 && new.2 < old.2 {
        out
    } else {
        order.to_vec()
    }
}

/// "Not the data flows and synchronisation orders of `prefix`": one of its
/// reads moves before the write it reads or after the next write to its
/// location, two consecutive writes to a location swap, or two consecutive
/// operations on a synchronisation object swap. (Accesses through computed
/// addresses are left out: where they go is the solver's.)
pub(crate) fn another_class(sym: &SymTrace, model: &Model, prefix: &[Ev]) -> Formula {
    let mut last_write: HashMap<u64, Ev> = HashMap::default();
    let mut reads_since: HashMap<u64, Vec<Ev>> = HashMap::default();
    let mut last_op: HashMap<u64, Ev> = HashMap::default();
    let mut alternatives = Vec::new();
    for &e in prefix {
        match touch(sym, model, e) {
            Touch::Read(l) => {
                alternatives.extend(last_write.get(&l).map(|w| Formula::Before(e, *w)));
                reads_since.entry(l).or_default().push(e);
            }
            Touch::Write(l) => {
                alternatives.extend(last_write.get(&l).map(|w| Formula::Before(e, *w)));
                let reads = reads_since.remove(&l).unwrap_or_default();
                alternatives.extend(reads.into_iter().map(|r| Formula::Before(e, r)));
                last_write.insert(l, e);
            }
            Touch::Sync(a, b) => {
                for k in if a == b { vec![a] } else { vec![a, b] } {
                    alternatives.extend(last_op.get(&k).map(|p| Formula::Before(e, *p)));
                    last_op.insert(k, e);
                }
            }
            _ => {}
        }
    }
    Formula::or(alternatives)
}

type Events = [causa_constraints::trace::TraceEvent];

fn switches(events: &Events, order: &[Ev]) -> usize {
    order.windows(2).filter(|w| events[w[0]].thread != events[w[1]].thread).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::SymThread;
    use causa_core::{BugKind, ThreadName};

    /// Two workers: t1 writes a twice, t2 writes b and reads a. An
    /// alternate that switches at every event becomes one that runs t1 up
    /// to its first write, t2 whole (its read of a must stay between t1's
    /// writes), then the rest of t1.
    #[test]
    fn switches_merge_and_conflicting_accesses_keep_their_order() {
        let mut sym = SymTrace::default();
        let (a, b) = (causa_ir::make_addr(3, 0), causa_ir::make_addr(4, 0));
        let (main, t1, t2) = (ThreadName::main(), ThreadName::main().child(1), ThreadName::main().child(2));
        let one = sym.exprs.constant(32, 1);
        let r = sym.exprs.read(0, 32);
        let w = |addr| SymOp::Write { addr, size: 4, value: one, atomic: false, at: None };
        sym.threads.push(SymThread::of_ops(
            main.clone(),
            vec![
                SymOp::Begin,
                SymOp::Fork { child: t1.clone(), handle: None },
                SymOp::Fork { child: t2.clone(), handle: None },
                SymOp::Join { child: t1.clone() },
                SymOp::Join { child: t2.clone() },
                SymOp::Fail { kind: BugKind::Abort, message: "abort".into() },
            ],
        ));
        sym.threads.push(SymThread::of_ops(t1, vec![SymOp::Begin, w(a), w(a), SymOp::End]));
        sym.threads.push(SymThread::of_ops(
            t2,
            vec![SymOp::Begin, w(b), SymOp::Read { addr: a, size: 4, value: r, atomic: false, at: None }, SymOp::End],
        ));
        sym.reads = vec![(2, 2)];
        let model = crate::model::build(&sym).expect("main fails");
        let enc = Encoder::new(&model.trace);
        let ev = |t: usize, k: usize| model.event_of[t][k].expect("an access point");
        // σ: main forks, t1 whole, t2 whole, main joins.
        let sigma: Vec<Ev> = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3)]
            .into_iter()
            .chain([(0, 3), (0, 4)])
            .map(|(t, k)| ev(t, k))
            .collect();
        // The alternate: t2's read between t1's writes, switching at every event.
        let alternate: Vec<Ev> =
            [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (1, 1), (2, 1), (2, 2), (1, 2), (2, 3), (1, 3), (0, 3), (0, 4)]
                .into_iter()
                .map(|(t, k)| ev(t, k))
                .collect();
        let n = alternate.len();
        let out = coarsen(&sym, &model, &enc, &sigma, &alternate, n);
        let want: Vec<Ev> =
            [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (2, 3), (1, 2), (1, 3), (0, 3), (0, 4)]
                .into_iter()
                .map(|(t, k)| ev(t, k))
                .collect();
        assert_eq!(out, want);
        let events = &model.trace.events;
        assert!(switches(events, &out) < switches(events, &alternate));
        // An order that already switches least is left as it is.
        assert_eq!(coarsen(&sym, &model, &enc, &sigma, &want, n), want);
    }

    #[test]
    fn what_conflicts() {
        let (x, y) = (causa_ir::make_addr(3, 0), causa_ir::make_addr(3, 8));
        assert!(!conflict(Touch::Read(x), Touch::Read(x)));
        assert!(conflict(Touch::Read(x), Touch::Write(x)));
        assert!(!conflict(Touch::Write(x), Touch::Write(y)));
        // Through a computed address into x's object: its writes conflict
        // with every access to the object, its reads with the writes.
        assert!(conflict(Touch::Object(3, true), Touch::Read(y)));
        assert!(!conflict(Touch::Object(3, false), Touch::Read(y)));
        assert!(conflict(Touch::Object(3, false), Touch::Write(y)));
        assert!(!conflict(Touch::Object(4, true), Touch::Write(y)));
        assert!(conflict(Touch::Sync(7, 9), Touch::Sync(9, 9)));
        assert!(conflict(Touch::All, Touch::Read(x)));
        assert!(!conflict(Touch::None, Touch::All));
    }
}
