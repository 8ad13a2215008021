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
        SymOp::SemWait { sem: s, .. } => !post && s == sem,
        _ => false,
    };
    stopped_at(sym, failing)
        .into_iter()
        .filter_map(|(t, k)| {
            let SymOp::SemWait { sem, tried: false } = sym.threads[t].events[k].op else { return None };
            Some(Starved {
                thread: t,
                wait: (t, k),
                posts: failing.iter().copied().filter(|r| on(r, sem, true)).collect(),
                taken: failing.iter().copied().filter(|r| on(r, sem, false)).collect(),
            })
        })
        .collect()
}

/// A barrier generation fewer threads arrive at than the barrier waits for:
/// every thread that arrives waits forever, in any order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortBarrier {
    /// How many threads the barrier waits for (`pthread_barrier_init`).
    pub count: u32,
    /// The arrivals of the generation.
    pub arrivals: Vec<EventRef>,
}

/// The barrier generations of a deadlock's trace that too few threads
/// arrive at.
pub fn short_barriers(sym: &SymTrace) -> Vec<ShortBarrier> {
    let mut gens: std::collections::BTreeMap<(u64, u32), Vec<EventRef>> = Default::default();
    for (t, th) in sym.threads.iter().enumerate() {
        for (k, e) in th.events.iter().enumerate() {
            if let SymOp::Arrive { barrier, gen, .. } = e.op {
                gens.entry((barrier, gen)).or_default().push((t, k));
            }
        }
    }
    gens.into_iter()
        .filter_map(|((barrier, _), arrivals)| {
            let count = sym.barrier_count.iter().find(|(b, _)| *b == barrier)?.1;
            (arrivals.len() < count as usize).then_some(ShortBarrier { count, arrivals })
        })
        .collect()
}

/// A thread blocked at a condition variable whose signals all came before
/// its wait, with no thread waiting then (a condition variable keeps no
/// signal for a later waiter); or whose signals came while it waited and
/// woke another waiter each (a signal wakes one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostSignal {
    pub thread: usize,
    /// Its wait (in the failing schedule).
    pub wait: EventRef,
    /// The signals and broadcasts of that condition variable before it;
    /// or, when `woke` is not empty, the signals that came while it waited.
    pub signals: Vec<EventRef>,
    /// For each of those signals, the other waiter's return from its wait
    /// that the signal caused instead (empty: the signals came first).
    pub woke: Vec<EventRef>,
}

/// The threads of a deadlock blocked waiting at a condition variable that
/// was signalled before they waited when nobody waited (and not after), or
/// only by signals that woke another waiter.
pub fn lost_signals(sym: &SymTrace, failing: &[EventRef]) -> Vec<LostSignal> {
    let pos = |r: EventRef| failing.iter().position(|x| *x == r);
    let op = |r: EventRef| &sym.threads[r.0].events[r.1].op;
    let on = |r: EventRef, cond: u64| matches!(op(r), SymOp::Signal { cond: c } | SymOp::Broadcast { cond: c } if *c == cond);
    // Each wait of `cond` in `failing` and its return (None: still waiting).
    let waits = |cond: u64| {
        let mut v: Vec<(usize, Option<usize>, EventRef)> = Vec::new();
        for (i, r) in failing.iter().enumerate() {
            match op(*r) {
                SymOp::Wait { cond: c, .. } if *c == cond => v.push((i, None, *r)),
                SymOp::WaitReturn { cond: c, .. } if *c == cond => {
                    if let Some(w) = v.iter_mut().rev().find(|w| w.2 .0 == r.0 && w.1.is_none()) {
                        w.1 = Some(i);
                    }
                }
                _ => {}
            }
        }
        v
    };
    let mut out = Vec::new();
    for (t, k) in stopped_at(sym, failing) {
        let th = &sym.threads[t];
        let SymOp::WaitReturn { cond, .. } = th.events[k].op else { continue };
        let Some(w) = (0..k).rev().find(|j| matches!(th.events[*j].op, SymOp::Wait { cond: c, .. } if c == cond))
        else {
            continue;
        };
        let Some(at) = pos((t, w)) else { continue };
        let waits = waits(cond);
        let signals: Vec<(usize, EventRef)> =
            failing.iter().copied().enumerate().filter(|(_, r)| on(*r, cond)).collect();
        // A signal while another thread waited was not lost: it woke that one.
        let waiting_at = |p: usize| waits.iter().any(|(i, ret, _)| *i < p && ret.is_none_or(|j| j > p));
        if !signals.is_empty() && signals.iter().all(|(p, _)| *p < at && !waiting_at(*p)) {
            let signals = signals.into_iter().map(|(_, s)| s).collect();
            out.push(LostSignal { thread: t, wait: (t, w), signals, woke: Vec::new() });
            continue;
        }
        // The signals (not broadcasts) that came while it waited, each with
        // the other waiter it woke.
        let during: Vec<(usize, EventRef)> = signals.into_iter().filter(|(p, _)| *p > at).collect();
        let woke: Vec<Option<EventRef>> = during
            .iter()
            .map(|(p, s)| {
                if matches!(op(*s), SymOp::Broadcast { .. }) {
                    return None;
                }
                let ret = waits.iter().filter(|(i, ret, r)| r.0 != t && *i < *p && ret.is_some_and(|j| j > *p));
                ret.min_by_key(|(_, ret, _)| *ret).and_then(|(_, ret, _)| ret.map(|j| failing[j]))
            })
            .collect();
        if !during.is_empty() && woke.iter().all(Option::is_some) {
            let signals = during.into_iter().map(|(_, s)| s).collect();
            out.push(LostSignal { thread: t, wait: (t, w), signals, woke: woke.into_iter().flatten().collect() });
        }
    }
    out
}
