//! A deadlock's cycle: which thread holds which lock and waits for which,
//! from the failing schedule (a thread's first event the schedule leaves
//! out is the acquisition it is blocked at).

use causa_core::collections::HashSet;
use causa_symbolic::{EventRef, SymOp, SymTrace};

/// A thread blocked at the deadlock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub thread: usize,
    /// The acquisition it is blocked at (not in the failing schedule).
    pub waits: EventRef,
    /// The acquisition, in the failing schedule, of the lock it waits for
    /// by the thread that holds it then.
    pub held_by: EventRef,
    /// The join that thread is blocked at, waiting for this one to finish
    /// (it holds the lock across the join), if it is.
    pub holder_joins: Option<EventRef>,
}

fn mutex(sym: &SymTrace, r: EventRef) -> Option<(u64, bool)> {
    match sym.threads[r.0].events[r.1].op {
        SymOp::Lock { mutex, .. } => Some((mutex, true)),
        SymOp::Unlock { mutex } => Some((mutex, false)),
        _ => None,
    }
}

/// Each thread's first event that `failing` leaves out: where it is
/// blocked, for a thread stuck at the deadlock.
fn stopped_at(sym: &SymTrace, failing: &[EventRef]) -> Vec<EventRef> {
    let ran: HashSet<EventRef> = failing.iter().copied().collect();
    sym.threads
        .iter()
        .enumerate()
        .filter_map(|(t, th)| (0..th.events.len()).find(|k| !ran.contains(&(t, *k))).map(|k| (t, k)))
        .collect()
}

/// The threads blocked at a lock another thread (or the thread itself)
/// holds at the end of `failing`, each with that thread's acquisition.
pub fn cycle(sym: &SymTrace, failing: &[EventRef]) -> Vec<Waiting> {
    // The acquisitions of `failing` whose lock is not released in it.
    let held: Vec<(EventRef, u64)> = failing
        .iter()
        .filter_map(|r| match mutex(sym, *r) {
            Some((m, true)) => Some((*r, m)),
            _ => None,
        })
        .filter(|(r, m)| !failing.iter().any(|u| u.0 == r.0 && u.1 > r.1 && mutex(sym, *u) == Some((*m, false))))
        .collect();
    let stopped = stopped_at(sym, failing);
    let joining = |holder: usize, child: usize| {
        stopped.iter().copied().find(|r| {
            r.0 == holder && matches!(&sym.threads[r.0].events[r.1].op, SymOp::Join { child: c } if *c == sym.threads[child].thread)
        })
    };
    let mut out = Vec::new();
    for &(t, k) in &stopped {
        let Some((m, true)) = mutex(sym, (t, k)) else { continue };
        // Held by another thread, or else by this one (a default mutex
        // taken twice: the thread waits for itself).
        let holder = held
            .iter()
            .find(|(h, hm)| *hm == m && h.0 != t)
            .or_else(|| held.iter().find(|(h, hm)| *hm == m && h.0 == t));
        if let Some((h, _)) = holder {
            let holder_joins = if h.0 == t { None } else { joining(h.0, t) };
            out.push(Waiting { thread: t, waits: (t, k), held_by: *h, holder_joins });
        }
    }
    out
}

/// A thread blocked at a semaphore with no unit left: every post of the
/// failing schedule was taken by an earlier wait.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Starved {
    pub thread: usize,
    /// The wait it is blocked at (not in the failing schedule).
    pub wait: EventRef,
    /// The semaphore's posts in the failing schedule.
    pub posts: Vec<EventRef>,
    /// Its waits that went through in the failing schedule.
    pub taken: Vec<EventRef>,
}

/// The threads of a deadlock blocked at a semaphore wait.
pub fn starved(sym: &SymTrace, failing: &[EventRef]) -> Vec<Starved> {
    let on = |r: &EventRef, sem: u64, post: bool| match sym.threads[r.0].events[r.1].op {
        SymOp::SemPost { sem: s } => post && s == sem,
        SymOp::SemWait { sem: s } => !post && s == sem,
        _ => false,
    };
    stopped_at(sym, failing)
        .into_iter()
        .filter_map(|(t, k)| {
            let SymOp::SemWait { sem } = sym.threads[t].events[k].op else { return None };
            Some(Starved {
                thread: t,
                wait: (t, k),
                posts: failing.iter().copied().filter(|r| on(r, sem, true)).collect(),
                taken: failing.iter().copied().filter(|r| on(r, sem, false)).collect(),
            })
        })
        .collect()
}

/// A thread blocked at a condition variable whose signals all came before
/// its wait: a condition variable keeps no signal for a later waiter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostSignal {
    pub thread: usize,
    /// Its wait (in the failing schedule).
    pub wait: EventRef,
    /// The signals and broadcasts of that condition variable before it.
    pub signals: Vec<EventRef>,
}

/// The threads of a deadlock blocked waiting at a condition variable that
/// was signalled before they waited (and not after).
pub fn lost_signals(sym: &SymTrace, failing: &[EventRef]) -> Vec<LostSignal> {
    let pos = |r: EventRef| failing.iter().position(|x| *x == r);
    let mut out = Vec::new();
    for (t, k) in stopped_at(sym, failing) {
        let th = &sym.threads[t];
        let SymOp::WaitReturn { cond, .. } = th.events[k].op else { continue };
        let Some(w) = (0..k).rev().find(|j| matches!(th.events[*j].op, SymOp::Wait { cond: c, .. } if c == cond))
        else {
            continue;
        };
        let Some(at) = pos((t, w)) else { continue };
        let signals: Vec<EventRef> = failing
            .iter()
            .copied()
            .filter(|r| {
                matches!(sym.threads[r.0].events[r.1].op, SymOp::Signal { cond: c } | SymOp::Broadcast { cond: c } if c == cond)
            })
            .collect();
        if !signals.is_empty() && signals.iter().all(|s| pos(*s).is_some_and(|p| p < at)) {
            out.push(LostSignal { thread: t, wait: (t, w), signals });
        }
    }
    out
}
