//! Must-happen-before within a thread under TSO and PSO (dissertation §2.2).
//!
//! A store that went through a store buffer may become visible after later
//! operations of its thread: under TSO after later reads (of any address),
//! under PSO also after later stores to other addresses. Everything else keeps
//! program order: reads among themselves, a read before a later store, and
//! every other operation (fences, atomics, synchronisation, thread end) after
//! all earlier operations of the thread and before all later ones. A read of
//! an address the thread has a buffered store to may come before that store
//! becomes visible: it then returns the store's value (store-to-load
//! forwarding, [`Encoder::own_store`], as the interpreter does).
//!
//! A read whose address the solver resolves (a symbolic trace's location 0)
//! is ordered like a synchronisation operation: it may read any location.
//!
//! Under SC every event's only thread predecessor is the previous event.

use crate::formula::Ev;
use crate::trace::{Op, Relaxed, Trace};
use causa_core::collections::HashMap;
use causa_core::MemoryModel;
use std::collections::BTreeMap;

/// The immediate thread predecessors of every event under `r` (program order
/// relaxed as the module docs say).
pub(super) fn thread_preds(trace: &Trace, r: &Relaxed) -> Vec<Vec<Ev>> {
    let mut by_thread: BTreeMap<u32, Vec<Ev>> = BTreeMap::new();
    for (i, e) in trace.events.iter().enumerate() {
        by_thread.entry(e.thread).or_default().push(i);
    }
    let mut preds = vec![Vec::new(); trace.len()];
    for mut evs in by_thread.into_values() {
        evs.sort_by_key(|&e| r.po[e]);
        // The last event that is not a buffered store; the buffered stores
        // since it (the newest per location, and the newest of all).
        let mut last_other: Option<Ev> = None;
        let mut pending: HashMap<u64, Ev> = HashMap::default();
        let mut pending_last: Option<Ev> = None;
        for e in evs {
            let mut p: Vec<Ev> = last_other.into_iter().collect();
            if r.buffered[e] {
                match r.model {
                    MemoryModel::Pso => p.extend(trace.writes_of(e).filter_map(|(l, _)| pending.get(&l).copied())),
                    _ => p.extend(pending_last),
                }
                for (l, _) in trace.writes_of(e) {
                    pending.insert(l, e);
                }
                pending_last = Some(e);
            } else if matches!(trace.events[e].op, Op::Read { loc, .. } if loc != 0 || !trace.symbolic) {
                // Not after the pending stores, even to its own address: it
                // reads its own newest one (forwarding) or memory. (A store
                // whose address the solver computes, location 0, is not
                // forwarded from: a later read waits for it.)
                if trace.symbolic {
                    p.extend(pending.get(&0).copied());
                }
                last_other = Some(e);
            } else {
                match r.model {
                    MemoryModel::Pso => p.extend(pending.values().copied()),
                    _ => p.extend(pending_last),
                }
                pending.clear();
                pending_last = None;
                last_other = Some(e);
            }
            p.sort_unstable();
            p.dedup();
            preds[e] = p;
        }
    }
    preds
}

/// Must-happen-before as sets: bit `a` of `reach[b]` says `a` happens before
/// `b`. Predecessors later in the trace than their event (which a run's trace
/// never has) are left out, so the sets can only miss facts.
pub(super) fn reach(preds: &[Vec<Ev>], extra: &[Option<Ev>]) -> Vec<Vec<u64>> {
    let n = preds.len();
    let words = n.div_ceil(64);
    let mut reach: Vec<Vec<u64>> = Vec::with_capacity(n);
    for e in 0..n {
        let mut set = vec![0u64; words];
        for &p in preds[e].iter().chain(&extra[e]) {
            if p < e {
                for (s, x) in set.iter_mut().zip(&reach[p]) {
                    *s |= *x;
                }
                set[p / 64] |= 1 << (p % 64);
            }
        }
        reach.push(set);
    }
    reach
}

impl super::Encoder<'_> {
    /// Under TSO/PSO, the store a plain read `r` of `loc` forwards from when
    /// it comes before that store becomes visible: its thread's newest store
    /// to `loc` before it in program order, when that store is buffered.
    pub(super) fn own_store(&self, r: Ev, loc: u64) -> Option<Ev> {
        let rel = self.trace.relaxed.as_ref()?;
        if !matches!(self.trace.events[r].op, Op::Read { .. }) {
            return None;
        }
        let me = self.trace.events[r].thread;
        let newest = self
            .writes
            .get(&loc)?
            .iter()
            .copied()
            .filter(|&w| self.trace.events[w].thread == me && rel.po[w] < rel.po[r])
            .max_by_key(|&w| rel.po[w])?;
        rel.buffered[newest].then_some(newest)
    }
}
