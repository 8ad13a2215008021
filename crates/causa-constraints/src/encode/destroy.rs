//! Destroying a lock another thread holds (`pthread_mutex_destroy` inside
//! another thread's critical section), taking a lock another thread
//! destroyed, and destroying a condition variable another thread waits on:
//! the interpreter reports them as invalid pthread uses, and MCR asks for
//! each destroy whether it can come inside another thread's critical
//! section (or wait), and whether another thread's acquisition can come
//! after it.

use super::{Encoder, Query};
use crate::formula::{Ev, Formula};
use crate::trace::Op;

/// `e` comes inside the critical section from `l` to `u` (to the end when
/// it has no release).
fn inside(l: Ev, u: Option<Ev>, e: Ev) -> Formula {
    Formula::and(std::iter::once(Formula::Before(l, e)).chain(u.map(|u| Formula::Before(e, u))).collect())
}

impl Encoder<'_> {
    /// The critical sections (acquisition, release if any) of `mutex` by
    /// other threads than `e`'s.
    fn others_sections(&self, e: Ev, mutex: u64) -> impl Iterator<Item = (Ev, Option<Ev>)> + '_ {
        let t = self.trace.events[e].thread;
        self.lock_pairs_of(mutex).iter().copied().filter(move |(l, _)| self.trace.events[*l].thread != t)
    }

    /// (destroy, lock, its unlock) of another thread's critical sections of
    /// the destroyed lock that the destroy could fall inside: the destroy is
    /// not forced before the lock, nor the unlock before the destroy.
    pub fn destroy_candidates(&self) -> Vec<(Ev, Ev, Option<Ev>)> {
        let mut out = Vec::new();
        for d in self.trace.prefix_len..self.trace.len() {
            let Op::Destroy { mutex } = self.trace.events[d].op else { continue };
            for (l, u) in self.others_sections(d, mutex) {
                if !self.mhb_before(d, l) && !u.is_some_and(|u| self.mhb_before(u, d)) {
                    out.push((d, l, u));
                }
            }
        }
        out
    }

    /// The other threads' waits on the condition variable `cond` that the
    /// destroy `e` destroys.
    fn others_waits(&self, e: Ev, cond: u64) -> Vec<Ev> {
        let t = self.trace.events[e].thread;
        let on = |w: &Ev| matches!(self.trace.events[*w].op, Op::Wait { cond: c, .. } if c == cond);
        (0..self.trace.len()).filter(|w| self.trace.events[*w].thread != t && on(w)).collect()
    }

    /// The signals and broadcasts on `cond`.
    fn wakes_of(&self, cond: u64) -> impl Iterator<Item = Ev> + '_ {
        (0..self.trace.len()).filter(move |s| {
            matches!(self.trace.events[*s].op, Op::Signal { cond: c, .. } | Op::Broadcast { cond: c, .. } if c == cond)
        })
    }

    /// `d` comes while the wait `w` on `cond` waits: after it, with no
    /// signal or broadcast on `cond` between them.
    fn waiting_at(&self, w: Ev, d: Ev, cond: u64) -> Formula {
        let quiet = self.wakes_of(cond).map(|s| Formula::or(vec![Formula::Before(s, w), Formula::Before(d, s)]));
        Formula::and(std::iter::once(Formula::Before(w, d)).chain(quiet).collect())
    }

    /// A signal or broadcast on `cond` comes between the wait `w` and `d`.
    fn woken_between(&self, w: Ev, d: Ev, cond: u64) -> Formula {
        let wakes = self.wakes_of(cond).map(|s| Formula::and(vec![Formula::Before(w, s), Formula::Before(s, d)]));
        Formula::or(wakes.collect())
    }

    /// (destroy, wait) of another thread's waits on the destroyed condition
    /// variable that the destroy could come during (it is not forced before
    /// the wait).
    pub fn destroy_wait_candidates(&self) -> Vec<(Ev, Ev)> {
        let mut out = Vec::new();
        for d in self.trace.prefix_len..self.trace.len() {
            let Op::Destroy { mutex: cond } = self.trace.events[d].op else { continue };
            out.extend(self.others_waits(d, cond).into_iter().filter(|w| !self.mhb_before(d, *w)).map(|w| (d, w)));
        }
        out
    }

    /// The schedule reaches the destroy `d` while the wait `w` waits.
    pub fn destroy_waited(&mut self, d: Ev, w: Ev) -> Query {
        let Op::Destroy { mutex: cond } = self.trace.events[d].op else { unreachable!("a destroy") };
        let waiting = self.waiting_at(w, d, cond);
        let parts = vec![self.validity(d), self.validity(w), waiting, Formula::Same(self.cut(), d)];
        Query { goal: Formula::and(parts) }
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
        for d in 0..self.trace.len() {
            let Op::Destroy { mutex } = self.trace.events[d].op else { continue };
            for (l, _) in self.others_sections(d, mutex) {
                if l >= self.trace.prefix_len && !self.mhb_before(l, d) {
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

    /// What makes the trace's event `e` an invalid use of a destroyed or held
    /// lock, when it is a destroy (it comes inside another thread's critical
    /// section of the lock) or an acquisition of a lock the trace destroys
    /// (it comes after a destroy): the condition a schedule reaching `e`
    /// must meet to fail there as the run did. None for other events.
    pub fn misuse_at(&self, e: Ev) -> Option<Formula> {
        self.misuse_parts(e).map(|parts| Formula::or(parts.into_iter().map(|(_, f)| f).collect()))
    }

    /// What an alternate schedule that does not fail at `e` (as in
    /// [`Encoder::misuse_at`]) must do instead: not merely move a destroy
    /// before another thread's acquisition (that takes a destroyed lock), but
    /// end every other thread's critical section that ends in the trace
    /// before it and start one that does not end after it; take the lock
    /// before every destroy of it.
    pub fn misuse_avoided(&self, e: Ev) -> Option<Formula> {
        match self.trace.events[e].op {
            Op::Destroy { mutex } => {
                let done = self.others_sections(e, mutex).map(|(l, u)| match u {
                    Some(u) => Formula::Before(u, e),
                    None => Formula::Before(e, l),
                });
                // A condition variable: each other thread's wait comes after
                // the destroy, or is woken before it.
                let woken = self
                    .others_waits(e, mutex)
                    .into_iter()
                    .map(|w| Formula::or(vec![Formula::Before(e, w), self.woken_between(w, e, mutex)]));
                Some(Formula::and(done.chain(woken).collect()))
            }
            Op::Lock { .. } => {
                let destroys = self.misuse_parts(e)?;
                Some(Formula::and(destroys.into_iter().map(|(d, _)| Formula::Before(e, d)).collect()))
            }
            _ => None,
        }
    }

    /// The events one of which a schedule failing at `e` as in
    /// [`Encoder::misuse_at`] places before it: the other threads'
    /// acquisitions of the destroyed lock, or the destroys of the acquired one.
    pub fn misuse_events(&self, e: Ev) -> Vec<Ev> {
        self.misuse_parts(e).unwrap_or_default().into_iter().map(|(x, _)| x).collect()
    }

    /// Each of [`Encoder::misuse_events`] with the condition it makes `e`
    /// fail under.
    fn misuse_parts(&self, e: Ev) -> Option<Vec<(Ev, Formula)>> {
        match self.trace.events[e].op {
            Op::Destroy { mutex } => {
                let held = self.others_sections(e, mutex).map(|(l, u)| (l, inside(l, u, e)));
                let waits = self.others_waits(e, mutex);
                let waiting = waits.into_iter().map(|w| (w, self.waiting_at(w, e, mutex)));
                Some(held.chain(waiting).collect())
            }
            Op::Lock { mutex, .. } => {
                let destroys: Vec<(Ev, Formula)> = (0..self.trace.len())
                    .filter(|d| self.trace.events[*d].op == Op::Destroy { mutex })
                    .map(|d| (d, Formula::Before(d, e)))
                    .collect();
                (!destroys.is_empty()).then_some(destroys)
            }
            _ => None,
        }
    }
}
