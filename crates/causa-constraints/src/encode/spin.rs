//! Busy-wait parking, mirrored from the interpreter (`causa_interp::spin`).
//!
//! Two kinds of loops are parked there: a thread whose visible read repeats an
//! earlier read's fingerprint with no change in between, and a thread whose
//! timed condition wait repeats an earlier timed wait's fingerprint with nothing
//! changed but the waits' own releases and re-acquisitions of their mutexes (its next
//! timeout needs another thread's change first). Both share one form
//! ([`Spin`]): the parked step happens only after a change, by another thread,
//! to what the loop observed.

use super::Encoder;
use crate::formula::{Ev, Formula};
use crate::trace::{Op, Trace};
use causa_core::collections::HashMap;

/// A loop the interpreter may park: the thread's step `k` repeats the
/// fingerprint of its step `j`; the parked step is `next` (the event after `k`);
/// `wakers` are the other threads' events that change something the loop
/// observed from `j` to `k` (only they can let it move on). `timeout`: a timed
/// wait's loop, where only a return that times out is parked.
#[derive(Clone, Debug)]
pub(super) struct Spin {
    pub j: Ev,
    pub next: Ev,
    pub wakers: Vec<Ev>,
    pub timeout: bool,
}

impl Encoder<'_> {
    /// Read loops: the parked thread's next event happens (before the cut)
    /// only after another thread changed what its loop observed.
    pub fn spin_constraints(&mut self) -> Formula {
        let reads: Vec<Spin> = self.spin_pairs.iter().filter(|s| !s.timeout).cloned().collect();
        let parts = reads.iter().map(|s| self.woken_spin(s)).collect();
        Formula::and(parts)
    }

    /// Timed-wait loops: the wait-return `r` may time out (before the cut) only
    /// after another thread changed what its loop observed.
    pub(super) fn timeout_parking(&mut self, r: Ev) -> Formula {
        let timed: Vec<Spin> = self.spin_pairs.iter().filter(|s| s.timeout && s.next == r).cloned().collect();
        let parts = timed.iter().map(|s| self.woken_spin(s)).collect();
        Formula::and(parts)
    }

    fn woken_spin(&mut self, s: &Spin) -> Formula {
        let mut alts: Vec<Formula> = vec![self.after_cut(s.next)];
        for &c in &s.wakers {
            alts.push(Formula::and(vec![Formula::Before(s.j, c), Formula::Before(c, s.next), self.validity(c)]));
        }
        Formula::or(alts)
    }

    /// The other threads' changes (writes, a lock's acquisitions and
    /// releases) of what the parked busy wait `p` ([`Op::Spin`]) observes.
    fn spin_wakers(&self, p: Ev) -> Vec<Ev> {
        let t = self.trace.events[p].thread;
        let observed = &self.trace.footprints[p];
        (0..self.trace.len())
            .filter(|c| self.trace.events[*c].thread != t && self.trace.changes[*c])
            .filter(|c| causa_core::overlaps(observed, self.trace.footprints[*c].iter().copied()))
            .collect()
    }

    /// The parked busy wait `p` goes on: another thread wrote what its loop
    /// observes after the loop's start `since` and before `p`.
    pub fn spin_woken(&mut self, p: Ev, since: Ev) -> Formula {
        let wakers = self.spin_wakers(p);
        let alts = wakers
            .into_iter()
            .map(|c| Formula::and(vec![Formula::Before(since, c), Formula::Before(c, p), self.validity(c)]))
            .collect();
        Formula::or(alts)
    }

    /// The parked busy wait `p` is stuck at `cut`: no other thread writes
    /// what its loop observes between the loop's start `since` and the cut.
    pub(super) fn spin_stuck(&self, p: Ev, since: Ev, cut: Ev) -> Formula {
        let parts = self
            .spin_wakers(p)
            .into_iter()
            .map(|c| Formula::or(vec![Formula::Before(c, since), Formula::Before(cut, c)]))
            .collect();
        Formula::and(parts)
    }

    /// The earliest waker of the parked step `next` placed between the loop's
    /// first step and it under `pos`, for each loop parking `next` (`timeout`:
    /// the timed-wait loops, else the read loops).
    pub(super) fn wakers_of(&self, next: Ev, timeout: bool, pos: &[i64]) -> Vec<Ev> {
        let loops = self.spin_pairs.iter().filter(|s| s.next == next && s.timeout == timeout);
        loops
            .filter_map(|s| {
                let between = s.wakers.iter().copied().filter(|c| pos[s.j] < pos[*c] && pos[*c] < pos[s.next]);
                between.min_by_key(|c| pos[*c])
            })
            .collect()
    }
}

/// The loops of a trace the interpreter may park (see [`Spin`]).
pub(super) fn spins(trace: &Trace, po_pred: &[Option<Ev>]) -> Vec<Spin> {
    // The thread's next step: under TSO/PSO not a flush of one of its
    // buffered stores, which the memory system does whether or not the
    // thread is parked.
    let flush = |e: Ev| trace.relaxed.as_ref().is_some_and(|r| r.buffered[e]);
    let mut next_of = vec![None; trace.len()];
    for (e, p) in po_pred.iter().enumerate() {
        let mut p = *p;
        while let Some(q) = p.filter(|q| flush(*q)) {
            p = po_pred[q];
        }
        if let (Some(p), false) = (p, flush(e)) {
            next_of[p] = Some(e);
        }
    }
    let reads = read_pairs(trace, &next_of).into_iter().chain(unlock_pairs(trace, &next_of)).map(|p| (p, false));
    let waits = timed_wait_pairs(trace, &next_of).into_iter().map(|p| (p, true));
    reads
        .chain(waits)
        .map(|((j, k, next), timeout)| {
            let t = trace.events[k].thread;
            let observed: Vec<(u64, u64)> = (j..=k)
                .filter(|e| trace.events[*e].thread == t)
                .flat_map(|e| trace.footprints[e].iter().copied())
                .collect();
            let wakers = (0..trace.len())
                .filter(|c| trace.changes[*c] && trace.events[*c].thread != t)
                .filter(|c| causa_core::overlaps(&observed, trace.footprints[*c].iter().copied()))
                .collect();
            Spin { j, next, wakers, timeout }
        })
        .collect()
}

/// Pairs of reads of one thread that make the interpreter park it: same
/// fingerprint, the earlier among the thread's last [`Trace::SPIN_WINDOW`]
/// reads, no own state change between them; with the thread's next event.
fn read_pairs(trace: &Trace, next_of: &[Option<Ev>]) -> Vec<(Ev, Ev, Ev)> {
    pairs_where(trace, next_of, |k| trace.changes[k], |_| true)
}

/// Pairs of unlocks of one thread that park it (a polling loop under a
/// lock): same fingerprint (0: the thread still held a lock), the earlier
/// among the thread's last [`Trace::SPIN_WINDOW`] such unlocks, no own
/// state change between them but locks and unlocks; with the thread's next
/// event.
fn unlock_pairs(trace: &Trace, next_of: &[Option<Ev>]) -> Vec<(Ev, Ev, Ev)> {
    let sync = |k: Ev| matches!(trace.events[k].op, Op::Lock { .. } | Op::Unlock { .. });
    pairs_where(trace, next_of, |k| trace.changes[k] && !sync(k), |k| matches!(trace.events[k].op, Op::Unlock { .. }))
}

/// Pairs (earlier, event, its thread's next event) of `eligible` events of
/// one thread with the same fingerprint (not 0), the earlier among the
/// thread's last [`Trace::SPIN_WINDOW`] eligible ones since its last event
/// that `resets`.
fn pairs_where(
    trace: &Trace,
    next_of: &[Option<Ev>],
    resets: impl Fn(Ev) -> bool,
    eligible: impl Fn(Ev) -> bool,
) -> Vec<(Ev, Ev, Ev)> {
    let mut recent: HashMap<u32, Vec<Ev>> = HashMap::default();
    let mut pairs = Vec::new();
    for (k, next) in next_of.iter().enumerate() {
        let t = trace.events[k].thread;
        if resets(k) {
            recent.remove(&t);
            continue;
        }
        let print = trace.prints.get(k).copied().unwrap_or(0);
        if print == 0 || !eligible(k) {
            continue;
        }
        let window = recent.entry(t).or_default();
        if let Some(next) = *next {
            // The latest earlier one with the same fingerprint gives the
            // strongest condition (a change after it is also after the others).
            pairs.extend(window.iter().rev().find(|j| trace.prints[**j] == print).map(|j| (*j, k, next)));
        }
        remember(window, k);
    }
    pairs
}

/// Pairs of timed waits of one thread that park its second wait's timeout:
/// same fingerprint, the earlier among the thread's last
/// [`Trace::SPIN_WINDOW`] timed waits, no own state change between them but
/// waits and their returns; with the second wait's return.
fn timed_wait_pairs(trace: &Trace, next_of: &[Option<Ev>]) -> Vec<(Ev, Ev, Ev)> {
    let mut recent: HashMap<u32, Vec<Ev>> = HashMap::default();
    let mut pairs = Vec::new();
    for (k, next) in next_of.iter().enumerate() {
        let t = trace.events[k].thread;
        let is_wait = matches!(trace.events[k].op, Op::Wait { .. });
        let print = trace.prints.get(k).copied().unwrap_or(0);
        if !is_wait || print == 0 {
            continue;
        }
        let window = recent.entry(t).or_default();
        if let (Some(j), Some(next)) = (window.iter().rev().find(|j| trace.prints[**j] == print), *next) {
            let changed_itself = (j + 1..k).any(|x| {
                let own = trace.events[x].thread == t;
                own && trace.changes[x] && !matches!(trace.events[x].op, Op::Wait { .. } | Op::WaitReturn { .. })
            });
            if !changed_itself {
                pairs.push((*j, k, next));
            }
        }
        remember(window, k);
    }
    pairs
}

fn remember(window: &mut Vec<Ev>, e: Ev) {
    if window.len() == Trace::SPIN_WINDOW {
        window.remove(0);
    }
    window.push(e);
}
