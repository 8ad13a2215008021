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
//! synchronisation object) and the must-happen-before order (program order,
//! fork and join; under TSO/PSO the model's, which leaves a thread's flushes
//! free) has the same data flows and the same synchronisation, so the same
//! values, paths and outcome. Among those:
//! - one that stays on a thread while its next event is ready, and else
//!   goes on with the thread whose next event comes first in the alternate.
//!   It is kept when it switches less and does not break more of the
//!   failing schedule's segments nor keep fewer of its switches;
//! - then each event σ does not have (a store σ never flushed, a thread's
//!   `end` or a `join` past the failure) moves to where it breaks the fewest
//!   of σ's segments and switches. The solver leaves these events' places
//!   open (its soft constraints name σ's events only), and one it puts
//!   between two consecutive events of σ shows as a context switch of σ the
//!   alternate does not keep. Those left last, after the failing thread's
//!   point, are left out of the model's part;
//! - then σ's events at the switches the alternate adds move where the DSP
//!   shows fewer events, one at a time and then part of a thread's run in
//!   one piece (store_forwarding under PSO: three of a thread's flushes
//!   between the other thread's events, where only the first had to come
//!   before that thread's read).
//!
//! Left as they are: alternates with uninterruptible sections, frees (a
//! memory error's predicate ranges over accesses and frees the conflicts
//! above do not order), or more than [`MAX_EVENTS`] events.

use crate::model::Model;
use crate::trace::{SymOp, SymTrace};
use causa_constraints::formula::Ev;
use causa_constraints::{Encoder, Formula, Op};
use causa_core::collections::HashMap;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Longer alternates are left as they are (the dependency graph is
/// quadratic).
const MAX_EVENTS: usize = 4000;

/// What an event touches: a location (read or written) or a
/// synchronisation object.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Touch {
    None,
    /// A location's address and the access's size in bytes (a union's
    /// word read over its bytes written one by one: they overlap).
    Read(u64, u32),
    Write(u64, u32),
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
        Op::Read { loc, .. } => Touch::Read(*loc, size_of(&sym.threads[t].events[k].op)),
        Op::Write { loc, .. } | Op::Rmw { loc, .. } => Touch::Write(*loc, size_of(&sym.threads[t].events[k].op)),
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

/// The bytes an access touches (a thread handle a fork or join writes: 8).
fn size_of(op: &SymOp) -> u32 {
    match op {
        SymOp::Read { size, .. } | SymOp::Write { size, .. } | SymOp::Rmw { size, .. } => (*size).max(1),
        _ => 8,
    }
}

fn conflict(a: Touch, b: Touch) -> bool {
    let object = |o: u32, w: bool, other: Touch| match other {
        Touch::Read(x, _) => w && causa_ir::addr_alloc(x) == o,
        Touch::Write(x, _) => causa_ir::addr_alloc(x) == o,
        Touch::Object(p, v) => o == p && (w || v),
        _ => false,
    };
    match (a, b) {
        (Touch::None, _) | (_, Touch::None) => false,
        (Touch::All, _) | (_, Touch::All) => true,
        (Touch::Object(o, w), other) | (other, Touch::Object(o, w)) => object(o, w, other),
        (Touch::Read(x, n), Touch::Write(y, m))
        | (Touch::Write(x, n), Touch::Read(y, m))
        | (Touch::Write(x, n), Touch::Write(y, m)) => x < y + m as u64 && y < x + n as u64,
        (Touch::Sync(a, b), Touch::Sync(c, d)) => a == c || a == d || b == c || b == d,
        _ => false,
    }
}

/// `order`'s first `upto` events with fewer context switches, and the
/// events σ does not have placed where they disturb σ least (see the module
/// docs), or `order` itself; and how many of its events the model orders
/// (the events σ lacks that are left last, after the failing thread's
/// point, are left to the run).
pub(crate) fn coarsen(
    sym: &SymTrace,
    model: &Model,
    enc: &Encoder<'_>,
    sigma: &[Ev],
    order: &[Ev],
    upto: usize,
) -> (Vec<Ev>, usize) {
    let events = &model.trace.events;
    let n = upto.min(order.len());
    let skip = n > MAX_EVENTS
        || model.trace.sections.iter().any(|s| *s != 0)
        || events.iter().any(|e| matches!(e.op, Op::Free { .. }));
    if skip || n < 3 {
        return (order.to_vec(), upto);
    }
    let prefix = &order[..n];
    let graph = Graph::of(sym, model, enc, prefix);
    let thread = |e: Ev| events[e].thread;
    let whole =
        |idx: &[usize]| -> Vec<Ev> { idx.iter().map(|i| prefix[*i]).chain(order[n..].iter().copied()).collect() };
    let switch_pairs = |o: &[Ev]| crate::figures::switch_pairs(o, thread);
    let sigma_switches = switch_pairs(sigma);
    // The data flows that differ are the same in every order of the graph.
    let flows = flow_ends(events, sigma, order);
    let mut in_sigma = vec![false; events.len()];
    for e in sigma {
        in_sigma[*e] = true;
    }
    let extra: Vec<bool> = prefix.iter().map(|e| !in_sigma[*e]).collect();
    // (Scored as it is proposed: without the events σ lacks that come last,
    // after the failing thread's point, which the model's part leaves out.
    // Scored with them, a fence the failing run never reached stayed
    // before the other thread's events: one switch less than after the
    // failing read, one more event in the DSP once trimmed.)
    let score = |idx: &[usize]| -> Score {
        let o = whole(&idx[..ordered_len(idx, &extra, n)]);
        let broken = crate::figures::broken_segments(sigma, &o, thread);
        let varied = crate::figures::varied_switches(sigma, &o, thread);
        // (Each switch of an order is one pair: their number is the count.)
        let pairs = switch_pairs(&o);
        (broken, varied, shown_by_switches(&sigma_switches, &pairs, &flows), pairs.len())
    };
    let mut best: Vec<usize> = (0..n).collect();
    // The alternate is an order of its own graph: its earliest event not
    // placed yet is always ready.
    if let Some(fewer) = graph.fewer_switches(|i| thread(prefix[i])) {
        let (old, new) = (score(&best), score(&fewer));
        if new.0 <= old.0 && new.1 <= old.1 && new.3 < old.3 {
            best = fewer;
        }
    }
    // σ's events at the switches the alternate adds may move too.
    let added: BTreeSet<Ev> =
        switch_pairs(&whole(&best)).difference(&sigma_switches).flat_map(|(a, b)| [*a, *b]).collect();
    let movable: Vec<bool> = prefix.iter().zip(&extra).map(|(e, x)| *x || added.contains(e)).collect();
    graph.settle(&mut best, (&movable, &extra), |i| thread(prefix[i]), score);
    // The extra events now after the failing thread's point (the model's
    // part ends there: `upto` counts up to it), last, need not happen in
    // that part: it ends without them.
    let ordered = ordered_len(&best, &extra, n);
    (whole(&best[..ordered]), upto - (n - ordered))
}

/// How many of `order`'s first events the model's part keeps: all but the
/// `extra` ones (events σ lacks) that come last, after the failing
/// thread's point (index `n - 1`).
fn ordered_len(order: &[usize], extra: &[bool], n: usize) -> usize {
    let stop = order.iter().position(|i| *i == n - 1).unwrap_or(n - 1);
    let mut ordered = order.len();
    while ordered > stop + 1 && extra[order[ordered - 1]] {
        ordered -= 1;
    }
    ordered
}

/// The order constraints among an alternate's first events (indices into
/// them): the must-happen-before order (program order, fork and join; under
/// TSO/PSO the model's, which leaves a thread's flushes free) and the
/// alternate's order of each two conflicting events.
struct Graph {
    /// Each event's successors (later indices).
    succ: Vec<Vec<usize>>,
    /// Each event's predecessors (earlier indices).
    pred: Vec<Vec<usize>>,
}

impl Graph {
    fn of(sym: &SymTrace, model: &Model, enc: &Encoder<'_>, prefix: &[Ev]) -> Graph {
        let n = prefix.len();
        let touches: Vec<Touch> = prefix.iter().map(|e| touch(sym, model, *e)).collect();
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
        for j in 0..n {
            for i in 0..j {
                let (a, b) = (prefix[i], prefix[j]);
                if enc.mhb_before(a, b) || conflict(touches[i], touches[j]) {
                    succ[i].push(j);
                    pred[j].push(i);
                }
            }
        }
        Graph { succ, pred }
    }

    /// Where `x` can go in `order`: its position, the first and the last
    /// place in the order without it (before the event now at that index),
    /// and that order.
    fn places(&self, order: &[usize], x: usize) -> (usize, usize, usize, Vec<usize>) {
        let mut at = vec![0usize; order.len()];
        for (p, i) in order.iter().enumerate() {
            at[*i] = p;
        }
        let px = at[x];
        let lo = self.pred[x].iter().map(|i| at[*i] + 1).max().unwrap_or(0);
        let hi = self.succ[x].iter().map(|i| at[*i]).min().unwrap_or(order.len());
        let mut rest = order.to_vec();
        rest.remove(px);
        (px, lo.min(px), hi - 1, rest)
    }

    /// An order of the graph that stays on a thread while its next event is
    /// ready, and else goes on with the thread whose next event comes first
    /// (None: the indices' own order is not one of the graph's).
    fn fewer_switches(&self, thread: impl Fn(usize) -> u32) -> Option<Vec<usize>> {
        let n = self.succ.len();
        let mut preds: Vec<usize> = self.pred.iter().map(Vec::len).collect();
        // Each thread's events, in order.
        let mut queues: BTreeMap<u32, VecDeque<usize>> = BTreeMap::new();
        for i in 0..n {
            queues.entry(thread(i)).or_default().push_back(i);
        }
        let mut out: Vec<usize> = Vec::with_capacity(n);
        let mut cur = thread(0);
        while out.len() < n {
            let ready = |t: &u32, q: &VecDeque<usize>| q.front().filter(|i| preds[**i] == 0).map(|i| (*t, *i));
            let next = queues
                .get(&cur)
                .and_then(|q| ready(&cur, q))
                .or_else(|| queues.iter().filter_map(|(t, q)| ready(t, q)).min_by_key(|(_, i)| *i));
            let (t, i) = next?;
            queues.get_mut(&t).map(|q| q.pop_front());
            for &j in &self.succ[i] {
                preds[j] -= 1;
            }
            out.push(i);
            cur = t;
        }
        Some(out)
    }

    /// Moves events of `order` (an order of the graph) between the last
    /// event each must follow and the first it must precede, where `score`
    /// improves: first each `extra` event as late as it can be (also where
    /// the score stays), then each `movable` event to its best place
    /// (anywhere when the range is short, else next to an event of its own
    /// thread or as late as it can be); then part of a run
    /// ([`Graph::move_runs`]). Latest first, so that what must follow an
    /// event has moved before it does. A move keeps the graph's order, so
    /// the data flows stay.
    fn settle(
        &self,
        order: &mut Vec<usize>,
        (movable, extra): (&[bool], &[bool]),
        thread: impl Fn(usize) -> u32,
        score: impl Fn(&[usize]) -> Score,
    ) {
        if order.len() > MAX_SETTLED {
            return;
        }
        let current = self.settle_events(order, (movable, extra), &thread, &score);
        self.move_runs(order, movable, &thread, &score, current);
    }

    /// [`Graph::settle`]'s moves of one event at a time; the score after.
    fn settle_events(
        &self,
        order: &mut Vec<usize>,
        (movable, extra): (&[bool], &[bool]),
        thread: &impl Fn(usize) -> u32,
        score: &impl Fn(&[usize]) -> Score,
    ) -> Score {
        let mut current = score(order);
        // First each extra event as late as it can be, where that scores
        // no worse: out of the way of the moves after.
        let extras: Vec<usize> = order.iter().rev().copied().filter(|i| extra[*i]).collect();
        for x in extras {
            let (px, _, hi, mut rest) = self.places(order, x);
            if hi != px {
                rest.insert(hi, x);
                let s = score(&rest);
                if improves(s, current) || s == current {
                    *order = rest;
                    current = s;
                }
            }
        }
        let moving: Vec<usize> = order.iter().rev().copied().filter(|i| movable[*i]).collect();
        for x in moving {
            let (px, lo, hi, mut rest) = self.places(order, x);
            let t = thread(x);
            let mut best: Option<(Score, usize)> = None;
            for q in lo..=hi {
                // (or as late as it can be; in a short range, anywhere)
                let beside = q == hi || (q > 0 && thread(rest[q - 1]) == t) || (q < rest.len() && thread(rest[q]) == t);
                if q == px || !(beside || hi - lo <= SHORT_RANGE) {
                    continue;
                }
                let mut o = rest.clone();
                o.insert(q, x);
                let s = score(&o);
                // A later place that scores the same is taken too: it
                // leaves room before for the events moved after it.
                let better = improves(s, current) || (s == current && q > px && extra[x]);
                if better && best.is_none_or(|(b, _)| improves(s, b)) {
                    best = Some((s, q));
                }
            }
            if let Some((s, q)) = best {
                rest.insert(q, x);
                *order = rest;
                current = s;
            }
        }
        current
    }

    /// Part of a thread's run moved in one piece (a prefix, a suffix or the
    /// whole of it, with a movable event): what one event's move cannot do
    /// without first scoring worse (store_forwarding under PSO: three of a
    /// thread's flushes between another thread's events, where only the
    /// first had to come before that thread's read). Latest run first;
    /// runs longer than [`SHORT_RANGE`] are not cut.
    fn move_runs(
        &self,
        order: &mut Vec<usize>,
        movable: &[bool],
        thread: &impl Fn(usize) -> u32,
        score: &impl Fn(&[usize]) -> Score,
        mut current: Score,
    ) {
        let firsts: Vec<usize> = {
            let mut v = Vec::new();
            for (k, i) in order.iter().enumerate() {
                if k == 0 || thread(order[k - 1]) != thread(*i) {
                    v.push(*i);
                }
            }
            v
        };
        for first in firsts.into_iter().rev() {
            let Some(s) = order.iter().position(|i| *i == first) else { continue };
            let t = thread(first);
            let e = s + order[s..].iter().take_while(|i| thread(**i) == t).count();
            // (A long run is left whole: every piece of it at every place
            // is a score each; bank_long's runs cost a quarter second.)
            if e - s < 2 || e - s > SHORT_RANGE || !order[s..e].iter().any(|i| movable[*i]) {
                continue;
            }
            let blocks = (s + 1..=e).map(|b| (s, b)).chain((s + 1..e).map(|a| (a, e)));
            let mut best: Option<(Score, Vec<usize>)> = None;
            for (a, b) in blocks.filter(|(a, b)| b - a >= 2) {
                let block = &order[a..b];
                let mut rest: Vec<usize> = order[..a].to_vec();
                rest.extend_from_slice(&order[b..]);
                let mut at = vec![usize::MAX; self.succ.len()];
                for (p, i) in rest.iter().enumerate() {
                    at[*i] = p;
                }
                let outside =
                    |list: &Vec<usize>| list.iter().map(|i| at[*i]).filter(|p| *p != usize::MAX).collect::<Vec<_>>();
                let lo = block.iter().flat_map(|i| outside(&self.pred[*i])).map(|p| p + 1).max().unwrap_or(0);
                let hi = block.iter().flat_map(|i| outside(&self.succ[*i])).min().unwrap_or(rest.len());
                for q in lo..=hi.min(rest.len()) {
                    let beside =
                        q == hi || (q > 0 && thread(rest[q - 1]) == t) || (q < rest.len() && thread(rest[q]) == t);
                    if q == a || !(beside || hi - lo <= SHORT_RANGE) {
                        continue;
                    }
                    let mut o = rest[..q].to_vec();
                    o.extend_from_slice(block);
                    o.extend_from_slice(&rest[q..]);
                    let sc = score(&o);
                    if improves(sc, current) && best.as_ref().is_none_or(|(b, _)| improves(sc, *b)) {
                        best = Some((sc, o));
                    }
                }
            }
            if let Some((sc, o)) = best {
                *order = o;
                current = sc;
            }
        }
    }
}

/// σ's segments the alternate breaks, σ's switches it does not keep, the
/// events of the switches one has and the other has not (the DSP shows
/// them), and the alternate's switches.
type Score = (usize, usize, usize, usize);

/// `s` is better than `than` and worse in neither of σ's figures (a move
/// does not trade a broken segment for a lost switch: the solver weighed
/// those).
fn improves(s: Score, than: Score) -> bool {
    s.0 <= than.0 && s.1 <= than.1 && s < than
}

/// A range of places this short is tried whole.
const SHORT_RANGE: usize = 64;

/// Longer alternates are not settled (each move scores every place it
/// could go).
const MAX_SETTLED: usize = 1500;

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
            Touch::Read(l, _) => {
                alternatives.extend(last_write.get(&l).map(|w| Formula::Before(e, *w)));
                reads_since.entry(l).or_default().push(e);
            }
            Touch::Write(l, _) => {
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

/// How many events the DSP shows: those of the switches one of `a`, `b`
/// has and the other has not, and the `flows` ends.
fn shown_by_switches(a: &BTreeSet<(Ev, Ev)>, b: &BTreeSet<(Ev, Ev)>, flows: &BTreeSet<Ev>) -> usize {
    let mut shown = flows.clone();
    shown.extend(a.symmetric_difference(b).flat_map(|(x, y)| [*x, *y]));
    shown.len()
}

/// The reads whose source (the latest write to their location before them,
/// or none) differs between `sigma` and `order`, with those writes; reads
/// through computed addresses are left out.
fn flow_ends(events: &Events, sigma: &[Ev], order: &[Ev]) -> BTreeSet<Ev> {
    let sources = |o: &[Ev]| {
        let mut last: HashMap<u64, Ev> = HashMap::default();
        let mut src: HashMap<Ev, Option<Ev>> = HashMap::default();
        for &e in o {
            match events[e].op {
                Op::Read { loc, .. } if loc != 0 => {
                    src.insert(e, last.get(&loc).copied());
                }
                Op::Rmw { loc, .. } if loc != 0 => {
                    src.insert(e, last.get(&loc).copied());
                    last.insert(loc, e);
                }
                Op::Write { loc, .. } if loc != 0 => {
                    last.insert(loc, e);
                }
                _ => {}
            }
        }
        src
    };
    let (before, after) = (sources(sigma), sources(order));
    let mut ends = BTreeSet::new();
    for (r, w) in &after {
        let other = before.get(r);
        if other != Some(w) {
            ends.insert(*r);
            ends.extend(*w);
            ends.extend(other.copied().flatten());
        }
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::SymThread;
    use causa_core::{BugKind, ThreadName};

    /// Two workers: t1 writes a twice, t2 writes b and reads a; main forks
    /// them, joins them and fails.
    fn two_workers() -> SymTrace {
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
                SymOp::Join { child: t1.clone(), result: None },
                SymOp::Join { child: t2.clone(), result: None },
                SymOp::Fail { kind: BugKind::Abort, message: "abort".into() },
            ],
        ));
        sym.threads.push(SymThread::of_ops(t1, vec![SymOp::Begin, w(a), w(a), SymOp::End]));
        sym.threads.push(SymThread::of_ops(
            t2,
            vec![SymOp::Begin, w(b), SymOp::Read { addr: a, size: 4, value: r, atomic: false, at: None }, SymOp::End],
        ));
        sym.reads = vec![(2, 2)];
        sym
    }

    /// Two workers: t1 writes a twice, t2 writes b and reads a. An
    /// alternate that switches at every event becomes one that runs t1 up
    /// to its first write, t2 whole (its read of a must stay between t1's
    /// writes), then the rest of t1.
    #[test]
    fn switches_merge_and_conflicting_accesses_keep_their_order() {
        let sym = two_workers();
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
        let (out, upto) = coarsen(&sym, &model, &enc, &sigma, &alternate, n);
        assert_eq!(upto, n);
        let want: Vec<Ev> =
            [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (2, 3), (1, 2), (1, 3), (0, 3), (0, 4)]
                .into_iter()
                .map(|(t, k)| ev(t, k))
                .collect();
        assert_eq!(out, want);
        let events = &model.trace.events;
        let switches = |o: &[Ev]| crate::figures::switch_pairs(o, |e| events[e].thread).len();
        assert!(switches(&out) < switches(&alternate));
        // An order that already switches least is left as it is.
        assert_eq!(coarsen(&sym, &model, &enc, &sigma, &want, n), (want, n));
    }

    /// An event σ does not have (t1's `end`: the failing run stopped
    /// before it) that the solver put inside t2's segment goes where it
    /// breaks nothing, after the failing thread's point, and leaves the
    /// model's part.
    #[test]
    fn events_the_failing_schedule_lacks_move_out_of_its_segments() {
        let sym = two_workers();
        let model = crate::model::build(&sym).expect("main fails");
        let enc = Encoder::new(&model.trace);
        let ev = |t: usize, k: usize| model.event_of[t][k].expect("an access point");
        let evs = |v: &[(usize, usize)]| -> Vec<Ev> { v.iter().map(|(t, k)| ev(*t, *k)).collect() };
        let sigma = evs(&[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (2, 3)]);
        let alternate = evs(&[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (1, 3), (2, 1), (2, 2), (2, 3)]);
        let thread = |e: Ev| model.trace.events[e].thread;
        assert_eq!(crate::figures::broken_segments(&sigma, &alternate, thread), 1);
        let (out, upto) = coarsen(&sym, &model, &enc, &sigma, &alternate, alternate.len());
        assert_eq!((out, upto), (sigma.clone(), sigma.len()));
        // Where it must come before an event that stays, it moves as late
        // as that allows: just before main's join of t1.
        let mut with_join = alternate.clone();
        with_join.push(ev(0, 3));
        let (out, upto) = coarsen(&sym, &model, &enc, &sigma, &with_join, with_join.len());
        let mut want = sigma.clone();
        want.extend([ev(1, 3), ev(0, 3)]);
        assert_eq!((out, upto), (want, with_join.len()));
    }

    /// As peterson_fenced.c under PSO: the alternate moves t2's read of a
    /// before t1's first write of it (σ's switches there are lost either
    /// way) and runs t2's `end`, which σ lacks, right after it. Scored
    /// where it stands, the `end` kept one switch fewer than after the
    /// failing thread's point (t1's last write); but there it leaves the
    /// model's part, and what is proposed then shows one event fewer.
    #[test]
    fn an_event_the_failing_schedule_lacks_is_scored_without_it_once_it_is_last() {
        let sym = two_workers();
        let model = crate::model::build(&sym).expect("main fails");
        let enc = Encoder::new(&model.trace);
        let ev = |t: usize, k: usize| model.event_of[t][k].expect("an access point");
        let evs = |v: &[(usize, usize)]| -> Vec<Ev> { v.iter().map(|(t, k)| ev(*t, *k)).collect() };
        let sigma = evs(&[(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (2, 1), (1, 1), (2, 2), (1, 2)]);
        let alternate = evs(&[(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (2, 1), (2, 2), (2, 3), (1, 1), (1, 2)]);
        let (out, upto) = coarsen(&sym, &model, &enc, &sigma, &alternate, alternate.len());
        let want = evs(&[(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (2, 1), (2, 2), (1, 1), (1, 2)]);
        assert_eq!((out, upto), (want, alternate.len() - 1));
    }

    #[test]
    fn what_conflicts() {
        let (x, y) = (causa_ir::make_addr(3, 0), causa_ir::make_addr(3, 8));
        assert!(!conflict(Touch::Read(x, 8), Touch::Read(x, 8)));
        assert!(conflict(Touch::Read(x, 8), Touch::Write(x, 8)));
        assert!(!conflict(Touch::Write(x, 8), Touch::Write(y, 8)));
        // Of other widths: where their bytes overlap (a word read over
        // bytes written one by one).
        assert!(conflict(Touch::Read(x, 4), Touch::Write(x + 2, 1)));
        assert!(conflict(Touch::Write(x + 3, 1), Touch::Read(x, 4)));
        assert!(!conflict(Touch::Read(x, 4), Touch::Write(x + 4, 1)));
        assert!(conflict(Touch::Write(x, 16), Touch::Write(y, 4)));
        // Through a computed address into x's object: its writes conflict
        // with every access to the object, its reads with the writes.
        assert!(conflict(Touch::Object(3, true), Touch::Read(y, 8)));
        assert!(!conflict(Touch::Object(3, false), Touch::Read(y, 8)));
        assert!(conflict(Touch::Object(3, false), Touch::Write(y, 8)));
        assert!(!conflict(Touch::Object(4, true), Touch::Write(y, 8)));
        assert!(conflict(Touch::Sync(7, 9), Touch::Sync(9, 9)));
        assert!(conflict(Touch::All, Touch::Read(x, 8)));
        assert!(!conflict(Touch::None, Touch::All));
    }
}

#[cfg(test)]
mod run_moves {
    use super::*;

    /// The score `coarsen` gives an order of indices that are events
    /// themselves (no data flow differs).
    fn score_against<'a>(sigma: &'a [usize], thread: &'a impl Fn(usize) -> u32) -> impl Fn(&[usize]) -> Score + 'a {
        move |o: &[usize]| {
            let pairs = crate::figures::switch_pairs(o, thread);
            let shown = shown_by_switches(&crate::figures::switch_pairs(sigma, thread), &pairs, &BTreeSet::new());
            (
                crate::figures::broken_segments(sigma, o, thread),
                crate::figures::varied_switches(sigma, o, thread),
                shown,
                pairs.len(),
            )
        }
    }

    /// As store_forwarding under PSO: σ runs thread A's read p, thread B
    /// (b0 b1 b2), the rest of A (a0 a1 a2 and its end a3), then the rest
    /// of B (b3). p reads a location b1 writes; a0 (a flush) must come
    /// before b2 (the read that sees it); nothing orders a0, a1 and a2
    /// (flushes of other locations), which come before a3; a1 and a2 are
    /// of stores after p. The solver's
    /// alternate runs all three flushes after b0. Moving one event at a
    /// time gets part of the way; moving a1 and a2 in one piece after b2
    /// then leaves only a0 between B's events.
    #[test]
    fn part_of_a_run_moves_in_one_piece() {
        let (p, b0, b1, b2, a0, a1, a2, a3, b3) = (0, 1, 2, 3, 4, 5, 6, 7, 8);
        let thread = |i: usize| u32::from((b0..=b2).contains(&i) || i == b3);
        let edges = [(p, b1), (b0, b1), (b1, b2), (b2, b3), (a0, b2), (p, a1), (p, a2), (a0, a3), (a1, a3), (a2, a3)];
        let mut graph = Graph { succ: vec![Vec::new(); 9], pred: vec![Vec::new(); 9] };
        for (x, y) in edges {
            graph.succ[x].push(y);
            graph.pred[y].push(x);
        }
        let sigma = [p, b0, b1, b2, a0, a1, a2, a3, b3];
        let score = score_against(&sigma, &thread);
        let mut order = vec![p, b0, a0, a1, a2, b1, b2, a3, b3];
        let before = score(&order);
        // Without moving runs.
        let mut single = order.clone();
        let moving = [true; 9];
        graph.settle_events(&mut single, (&moving, &[false; 9]), &thread, &score);
        graph.settle(&mut order, (&moving, &[false; 9]), thread, &score);
        let after = score(&order);
        assert!(improves(score(&single), before), "{single:?}");
        assert!(improves(after, score(&single)), "{single:?} → {order:?}");
        assert_eq!(order, vec![p, b0, b1, a0, b2, a1, a2, a3, b3]);
    }
}
