//! Destroying a lock another thread holds (`pthread_mutex_destroy` inside
//! another thread's critical section), and taking a lock another thread
//! destroyed: the interpreter reports both as invalid pthread uses, and MCR
//! asks for each destroy whether it can come inside another thread's
//! critical section, and whether another thread's acquisition can come
//! after it.

use super::{Encoder, Query};
use crate::formula::{Ev, Formula};
use crate::trace::Op;

impl Encoder<'_> {
    /// (destroy, lock, its unlock) of another thread's critical sections of
    /// the destroyed lock that the destroy could fall inside: the destroy is
    /// not forced before the lock, nor the unlock before the destroy.
    pub fn destroy_candidates(&self) -> Vec<(Ev, Ev, Option<Ev>)> {
        let mut out = Vec::new();
        for d in self.trace.prefix_len..self.trace.len() {
            let ev = &self.trace.events[d];
            let Op::Destroy { mutex } = ev.op else { continue };
            for &(l, u) in self.lock_pairs_of(mutex) {
                let other = self.trace.events[l].thread != ev.thread;
                if other && !self.mhb_before(d, l) && !u.is_some_and(|u| self.mhb_before(u, d)) {
                    out.push((d, l, u));
                }
            }
        }
        out
    }

    /// The schedule reaches the destroy `d` after the lock `l` and before its
    /// unlock `u`.
    pub fn destroy_held(&mut self, d: Ev, l: Ev, u: Option<Ev>) -> Query {
        let mut parts = vec![self.validity(d), self.validity(l), Formula::Before(l, d), Formula::Same(self.cut(), d)];
        parts.extend(u.map(|u| Formula::Before(d, u)));
        Query { goal: Formula::and(parts) }
    }

    /// (destroy, acquisition) of the destroyed lock by another thread that
    /// could come after the destroy (it is not forced before it).
    pub fn after_destroy_candidates(&self) -> Vec<(Ev, Ev)> {
        let mut out = Vec::new();
        for (d, ev) in self.trace.events.iter().enumerate() {
            let Op::Destroy { mutex } = ev.op else { continue };
            for &(l, _) in self.lock_pairs_of(mutex) {
                let other = self.trace.events[l].thread != ev.thread;
                if other && l >= self.trace.prefix_len && !self.mhb_before(l, d) {
                    out.push((d, l));
                }
            }
        }
        out
    }

    /// The schedule reaches the acquisition `l` after the destroy `d`.
    pub fn lock_after_destroy(&mut self, d: Ev, l: Ev) -> Query {
        let parts = vec![self.validity(d), self.validity(l), Formula::Before(d, l), Formula::Same(self.cut(), l)];
        Query { goal: Formula::and(parts) }
    }
}
