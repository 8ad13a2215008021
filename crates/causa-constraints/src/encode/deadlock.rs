//! The deadlock query. MCR's other queries change what a read returns; they
//! never ask for an execution that stops early. Whether a thread can get stuck
//! depends on the order of synchronisation operations that return nothing
//! (semaphore waits, and lock acquisitions whose order is not explored), so
//! every trace also gets one question: is there a point (the cut) at which
//! every thread that exists has finished or cannot take its next step, and at
//! least one is stuck? A stuck thread's next step stays out of the trace's
//! reachable prefix, so a satisfying order is a schedule that ends in a
//! deadlock the interpreter reports.

use super::{Encoder, Query};
use crate::formula::{Ev, Formula};
use crate::trace::Op;
use causa_core::collections::HashMap;
use causa_core::Tid;
use std::collections::BTreeMap;

impl Encoder<'_> {
    /// The deadlock query for this trace, or `None` when no thread of it can
    /// get stuck on anything whose order the other queries leave unexplored.
    pub fn deadlock(&mut self) -> Option<Query> {
        let cut = self.cut();
        let n = self.trace.len();
        let threads = self.events_by_thread();
        // Every event is strictly on one side of the cut.
        let mut parts: Vec<Formula> =
            (0..n).map(|e| Formula::or(vec![Formula::Before(e, cut), Formula::Before(cut, e)])).collect();
        let mut stuck_somewhere = Vec::new();
        // Joins, barriers and `pthread_once` alone cannot deadlock a trace's
        // events (a cycle of them would be a cycle of must-happen-before),
        // except a barrier fewer threads arrive at than it waits for.
        let mut needed = false;
        let mut shared: HashMap<(u64, Tid, bool), Formula> = HashMap::default();
        for evs in threads.values() {
            let mut alts = Vec::new();
            let (first, last) = (evs[0], evs[evs.len() - 1]);
            // Not created yet.
            if let Some(fork) = self.extra_pred[first] {
                alts.push(Formula::Before(cut, fork));
            }
            // Finished.
            if matches!(self.trace.events[last].op, Op::End) {
                alts.push(Formula::and(vec![Formula::Before(last, cut), self.validity(last)]));
            }
            // Stuck at one of its blocking steps: everything before it happened
            // as in the trace, the step itself cannot happen at the cut.
            for &e in &evs[1..] {
                let Some(stuck) = self.stuck(e, &mut shared) else { continue };
                needed |= matches!(
                    self.trace.events[e].op,
                    Op::Lock { .. } | Op::WaitReturn { .. } | Op::SemWait { .. } | Op::Spin { .. }
                ) || self.short_generation(e);
                let Some(prev) = self.po_pred[e] else { continue };
                // Its thread's steps up to `prev` happen as in the trace (not
                // `validity(e)`: a join's would also require the child's end).
                let reached = vec![self.validity(prev), self.observation(prev)];
                let mut at = vec![Formula::Before(prev, cut), Formula::Before(cut, e), stuck];
                at.extend(reached);
                let at = Formula::and(at);
                stuck_somewhere.push(at.clone());
                alts.push(at);
            }
            parts.push(Formula::or(alts));
        }
        if !needed {
            return None;
        }
        parts.push(Formula::or(stuck_somewhere));
        Some(Query { goal: Formula::and(parts) })
    }

    /// `e` departs from a barrier generation that fewer threads arrive at
    /// (in the whole trace) than the barrier waits for (initialised for 3,
    /// waited at by 2).
    fn short_generation(&self, e: Ev) -> bool {
        let Op::Depart { barrier, gen } = self.trace.events[e].op else { return false };
        self.generation_count(barrier, gen).is_some_and(|count| !self.generation_complete(barrier, gen, count))
    }

    /// `e` acquires `mutex` while its own thread holds it (a section of the
    /// thread taken before `e` and not released before it): it blocks
    /// whatever the other threads do.
    fn relocks(&self, e: Ev, mutex: u64) -> bool {
        let me = self.trace.events[e].thread;
        self.lock_pairs
            .get(&mutex)
            .into_iter()
            .flatten()
            .any(|&(l, u)| l != e && self.trace.events[l].thread == me && l < e && u.is_none_or(|u| u > e))
    }

    /// Each thread's events, in order.
    fn events_by_thread(&self) -> BTreeMap<Tid, Vec<Ev>> {
        let mut threads: BTreeMap<Tid, Vec<Ev>> = BTreeMap::new();
        for (e, ev) in self.trace.events.iter().enumerate() {
            threads.entry(ev.thread).or_default().push(e);
        }
        threads
    }

    /// The events that happen before the cut under `pos` (a model of
    /// [`Encoder::deadlock`]), in order: the schedule that reaches the deadlock.
    pub fn before_cut(&self, pos: &[i64]) -> Vec<Ev> {
        let cut = pos[self.cut()];
        let mut v: Vec<Ev> = (0..self.trace.len()).filter(|e| pos[*e] < cut).collect();
        v.sort_by_key(|e| (pos[*e], *e));
        v
    }

    /// Some thread's position relative to the cut differs from the one in
    /// `pos` (to ask for another deadlock).
    pub fn other_cut(&self, pos: &[i64]) -> Formula {
        let cut = self.cut();
        let threads = self.events_by_thread();
        let mut alts = Vec::new();
        for evs in threads.values() {
            let inside = evs.iter().take_while(|e| pos[**e] < pos[cut]).count();
            if inside > 0 {
                alts.push(Formula::Before(cut, evs[inside - 1]));
            }
            if let Some(next) = evs.get(inside) {
                alts.push(Formula::Before(*next, cut));
            }
        }
        Formula::or(alts)
    }

    /// When the blocking step `e` cannot happen at the cut (its thread's
    /// previous step being before the cut), or `None` if `e` never waits.
    /// `memo` keeps the formulas that depend only on the object (and thread):
    /// "no unit left", "held by another thread".
    fn stuck(&mut self, e: Ev, memo: &mut HashMap<(u64, Tid, bool), Formula>) -> Option<Formula> {
        let cut = self.cut();
        let me = self.trace.events[e].thread;
        let mut held = |enc: &mut Self, mutex: u64, shared: bool| {
            if let Some(f) = memo.get(&(mutex, me, shared)) {
                return f.clone();
            }
            let f = enc.held_at(me, cut, mutex, shared);
            let f = enc.named(f);
            memo.insert((mutex, me, shared), f.clone());
            f
        };
        Some(match self.trace.events[e].op {
            // A mutex whose order is not explored is never held while its
            // holder blocks or at its end ([`crate::ordered_mutexes`]): a thread
            // waiting for it is never part of a deadlock. (A symbolic trace,
            // from recorded paths, explores no orders: any lock can block.)
            Op::Lock { mutex, shared, tried: false, order } if order.is_some() || self.trace.symbolic => {
                if self.relocks(e, mutex) {
                    Formula::True
                } else {
                    held(self, mutex, shared)
                }
            }
            Op::SemWait { sem, tried: false } => {
                // Keyed by the semaphore alone (thread `Tid::MAX`).
                if let Some(f) = memo.get(&(sem, Tid::MAX, false)) {
                    return Some(f.clone());
                }
                let f = self.units_gone(sem, cut);
                let f = self.named(f);
                memo.insert((sem, Tid::MAX, false), f.clone());
                f
            }
            Op::WaitReturn { cond, mutex, timed, .. } => {
                let held = held(self, mutex, false);
                if timed {
                    // It can time out. (Not asked: a timed-wait loop the
                    // interpreter parked, stuck for want of a change; the
                    // executions themselves report it.)
                    held
                } else {
                    Formula::or(vec![self.not_woken(e, cond, cut), held])
                }
            }
            Op::Join { .. } | Op::OnceResume { .. } => {
                // Waits for the child's end, or for the routine to be marked done.
                let waited = match self.trace.events[e].op {
                    Op::Join { .. } => self.extra_pred[e],
                    Op::OnceResume { once } => (0..self.trace.len())
                        .find(|d| matches!(self.trace.events[*d].op, Op::OnceDone { once: o } if o == once)),
                    _ => None,
                };
                // (A child that never ends, a routine never marked done: stuck.)
                waited.map(|w| Formula::Before(cut, w)).unwrap_or(Formula::True)
            }
            // A parked busy wait: nothing it observes changes after its
            // loop's start.
            Op::Spin { since, .. } => self.spin_stuck(e, since, cut),
            // (Fewer threads ever arrive than the barrier waits for: stuck in
            // any order.)
            Op::Depart { .. } if self.short_generation(e) => Formula::True,
            Op::Depart { barrier, gen } => {
                let arrivals = self.arrivals.get(&(barrier, gen)).cloned().unwrap_or_default();
                Formula::or(arrivals.into_iter().map(|a| Formula::Before(cut, a)).collect())
            }
            _ => return None,
        })
    }
}
