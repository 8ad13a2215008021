//! Operations with two outcomes that only the schedule decides: a trylock (or
//! timedlock), a `sem_trywait`/`sem_timedwait`, the return of a timed condition
//! wait. MCR treats each like a read with two possible values and asks for the
//! outcome the trace did not show.

use super::{Encoder, Query};
use crate::formula::{Ev, Formula};
use crate::trace::Op;

impl Encoder<'_> {
    /// Events (after the prefix) whose outcome MCR asks to flip.
    pub fn flips(&self) -> impl Iterator<Item = Ev> + '_ {
        (self.trace.prefix_len..self.trace.len()).filter(|e| {
            matches!(
                self.trace.events[*e].op,
                Op::Lock { tried: true, .. }
                    | Op::TrylockFail { .. }
                    | Op::SemWait { tried: true, .. }
                    | Op::SemFail { .. }
                    | Op::WaitReturn { timed: true, .. }
            )
        })
    }

    /// `e` (one of [`Encoder::flips`]) gets the other outcome, its thread
    /// reaching it along the same path; the schedule ends at `e`:
    /// - a trylock that acquired finds the mutex held by another thread, one
    ///   that failed finds it free;
    /// - a semaphore try that took a unit finds none left, one that failed
    ///   finds one;
    /// - a timed condition wait that was woken times out (no wake-up left for
    ///   it), one that timed out is woken.
    pub fn flip(&mut self, e: Ev) -> Query {
        let cut = self.cut();
        let mut parts = vec![self.validity(e)];
        match self.trace.events[e].op {
            Op::Lock { mutex, shared, .. } => {
                // It must not acquire: the cut (up to which critical sections
                // exclude each other) falls just before it, after its thread's
                // previous event and every other thread's acquisition placed before it.
                let me = self.trace.events[e].thread;
                parts.push(self.held_at(me, e, mutex, shared));
                parts.push(Formula::Before(cut, e));
                parts.extend(self.po_pred[e].map(|p| Formula::Before(p, cut)));
                let pairs = self.lock_pairs.get(&mutex).cloned().unwrap_or_default();
                for (l, _) in pairs.into_iter().filter(|(l, _)| self.trace.events[*l].thread != me) {
                    parts.push(Formula::or(vec![Formula::Before(l, cut), Formula::Before(e, l)]));
                }
                return Query { goal: Formula::and(parts) };
            }
            Op::TrylockFail { mutex } => parts.push(self.free(e, mutex)),
            Op::SemWait { sem, .. } => parts.push(self.units_gone(sem, e)),
            Op::SemFail { sem } => parts.push(self.sem_unit(e, sem)),
            Op::WaitReturn { cond, signalled: true, .. } => parts.push(self.timed_out(e, cond)),
            Op::WaitReturn { cond, signalled: false, .. } => parts.push(self.woken(e, cond)),
            _ => return Query { goal: Formula::False },
        }
        parts.push(Formula::Same(cut, e));
        Query { goal: Formula::and(parts) }
    }
}
