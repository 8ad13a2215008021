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
            r.0 == holder && matches!(&sym.threads[r.0].events[r.1].op, SymOp::Join { child: c, .. } if *c == sym.threads[child].thread)
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
    /// When nothing posts it and every post of the failing schedule is of
    /// a semaphore its own thread waits on (a producer that posts `empty`,
    /// which it waits on, instead of `full`): each such post, with a wait
    /// of its thread on the same semaphore.
    pub own_posts: Vec<(EventRef, EventRef)>,
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
            let posts: Vec<EventRef> = failing.iter().copied().filter(|r| on(r, sem, true)).collect();
            // When nothing posts it: every post of the run, each with a
            // wait of its own thread on the same semaphore (None: a post of
            // another thread's semaphore, and then none is told).
            let own_posts = match posts.is_empty() {
                true => failing
                    .iter()
                    .filter_map(|r| match sym.threads[r.0].events[r.1].op {
                        SymOp::SemPost { sem: s } => Some((*r, s)),
                        _ => None,
                    })
                    .map(|(p, s)| failing.iter().find(|w| w.0 == p.0 && on(w, s, false)).map(|w| (p, *w)))
                    .collect::<Option<Vec<_>>>()
                    .unwrap_or_default(),
                false => Vec::new(),
            };
            Some(Starved {
                thread: t,
                wait: (t, k),
                posts,
                taken: failing.iter().copied().filter(|r| on(r, sem, false)).collect(),
                own_posts,
            })
        })
        .collect()
}

/// A barrier generation fewer threads arrive at than the barrier waits for:
/// every thread that arrives waits forever, in any order. Or a barrier
/// more threads arrive at, in all, than a whole number of generations
/// takes (three threads at a barrier of two): whichever arrive last wait
/// forever, in any order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortBarrier {
    /// How many threads the barrier waits for (`pthread_barrier_init`).
    pub count: u32,
    /// The arrivals of the generation; for a barrier more threads arrive
    /// at than `count` (in all, not a multiple of it), every arrival.
    pub arrivals: Vec<EventRef>,
}

impl ShortBarrier {
    /// How many of its arrivals wait forever.
    pub fn left_waiting(&self) -> usize {
        let count = self.count.max(1) as usize;
        match self.arrivals.len() {
            n if n < count => n,
            n => n % count,
        }
    }
}

/// The barrier generations of a deadlock's trace that too few threads
/// arrive at. (A barrier more threads arrive at than its count is one
/// generation of them all, [`SymTrace::barrier_generations`]: it is told
/// by its arrivals in all, which no order makes a multiple of its count.)
pub fn short_barriers(sym: &SymTrace) -> Vec<ShortBarrier> {
    let gens = sym.barrier_generations();
    let count_of = |barrier: u64| sym.barrier_count_of(barrier);
    let mut out: Vec<ShortBarrier> = gens
        .iter()
        .filter_map(|((barrier, _), arrivals)| {
            let count = count_of(*barrier)?;
            (arrivals.len() < count as usize).then(|| ShortBarrier { count, arrivals: arrivals.clone() })
        })
        .collect();
    if out.is_empty() {
        let mut by_barrier: std::collections::BTreeMap<u64, Vec<EventRef>> = Default::default();
        for ((barrier, _), arrivals) in gens {
            by_barrier.entry(barrier).or_default().extend(arrivals);
        }
        out.extend(by_barrier.into_iter().filter_map(|(barrier, mut arrivals)| {
            let count = count_of(barrier)?;
            arrivals.sort();
            (count > 0 && arrivals.len() > count as usize && !arrivals.len().is_multiple_of(count as usize))
                .then_some(ShortBarrier { count, arrivals })
        }));
    }
    out
}

/// A thread blocked at a condition variable whose signals all came before
/// its wait, with no thread waiting then (a condition variable keeps no
/// signal for a later waiter); or whose signals came while it waited and
/// woke another waiter each, which found its own predicate false and
/// waited again (a signal wakes one).
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
/// only by signals that woke another waiter that waited again at once.
/// (`exhausted`: those blocked with their predicate taken back, which are
/// not lost signals: [`exhausted`].)
pub fn lost_signals(sym: &SymTrace, failing: &[EventRef], exhausted: &[Exhausted]) -> Vec<LostSignal> {
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
    // Whether the waiter that returned at `failing[j]` only read before it
    // waited on the same condition variable again (its predicate was still
    // false: the signal was not for it). A waiter that wrote (took a
    // message, say) used the signal: one that blocks later blocks because
    // nothing more came, which waking every waiter does not change.
    let waits_again = |j: usize| {
        let (u, _) = failing[j];
        let SymOp::WaitReturn { cond, .. } = *op(failing[j]) else { return false };
        let mut next = failing[j + 1..].iter().filter(|r| r.0 == u).map(|r| op(*r));
        next.find(|o| !matches!(o, SymOp::Read { .. }))
            .is_some_and(|o| matches!(o, SymOp::Wait { cond: c, .. } if *c == cond))
    };
    let mut out = Vec::new();
    for (t, k) in stopped_at(sym, failing) {
        let th = &sym.threads[t];
        let SymOp::WaitReturn { cond, .. } = th.events[k].op else { continue };
        // (Not lost: taken by the waiters themselves.)
        if exhausted.iter().any(|x| x.thread == t) {
            continue;
        }
        let Some(w) = (0..k).rev().find(|j| matches!(th.events[*j].op, SymOp::Wait { cond: c, .. } if c == cond))
        else {
            continue;
        };
        let Some(at) = pos((t, w)) else { continue };
        // What it tested before this wait, since it took the mutex.
        let (locked, reads) = predicate_reads(sym, failing, t, at);
        let predicate: Vec<u64> = reads.iter().map(|(_, a)| *a).collect();
        // The waiter that returned at `failing[j]` went on without taking
        // back any of that (it wrote none of it: a shutdown flag it saw
        // set, not a message it took): what woke it would have woken this
        // thread just as well.
        let leaves_it = |j: usize| {
            let u = failing[j].0;
            !predicate.is_empty()
                && !failing[j + 1..].iter().filter(|r| r.0 == u).any(|r| {
                    matches!(*op(*r), SymOp::Write { addr, .. } | SymOp::Rmw { addr, .. } if predicate.contains(&addr))
                })
        };
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
        // Earlier signals were for earlier waits; those between its check
        // of the predicate under the mutex and its wait, while nobody
        // waited, and none after: lost to it (their sender did not hold
        // the mutex).
        let between: Vec<EventRef> = signals
            .iter()
            .filter(|(p, _)| locked.is_some_and(|l| l < *p) && *p < at && !waiting_at(*p))
            .map(|(_, s)| *s)
            .collect();
        if !between.is_empty() && signals.iter().all(|(p, _)| *p < at) {
            out.push(LostSignal { thread: t, wait: (t, w), signals: between, woke: Vec::new() });
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
                let woken = ret.min_by_key(|(_, ret, _)| *ret).and_then(|(_, ret, _)| *ret)?;
                (waits_again(woken) || leaves_it(woken)).then_some(failing[woken])
            })
            .collect();
        if !during.is_empty() && woke.iter().all(Option::is_some) {
            let signals = during.into_iter().map(|(_, s)| s).collect();
            out.push(LostSignal { thread: t, wait: (t, w), signals, woke: woke.into_iter().flatten().collect() });
        }
    }
    out
}

/// A thread blocked at a condition variable whose predicate the waiters
/// themselves took back: the signals on it announced changes of a
/// location the thread read before its wait (messages queued), which
/// threads that wait on the same condition variable or run what the
/// thread runs (and never signal it) then undid (took the messages): the
/// location's last write is theirs. No signal was lost or woke the wrong
/// waiter: the waiters take more than the other threads provide
/// (consumers expecting more messages than are sent), which waking more
/// of them does not change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exhausted {
    pub thread: usize,
    /// Its wait (in the failing schedule).
    pub wait: EventRef,
    /// Its read of the predicate before the wait.
    pub read: EventRef,
    /// The signals and broadcasts of that condition variable.
    pub signals: Vec<EventRef>,
    /// The waiting threads' writes of the location read, after the first
    /// signal.
    pub taken: Vec<EventRef>,
}

/// The threads of a deadlock blocked at a condition variable whose
/// predicate the waiters took back ([`Exhausted`]).
pub fn exhausted(sym: &SymTrace, failing: &[EventRef]) -> Vec<Exhausted> {
    stopped_at(sym, failing).into_iter().filter_map(|r| taken_back(sym, failing, r)).collect()
}

/// What thread `t` tested before its wait at `failing[at]`: the position
/// of the lock it took last before it (None: none), and its reads at
/// fixed addresses since then, as (position, address), the last first.
fn predicate_reads(sym: &SymTrace, failing: &[EventRef], t: usize, at: usize) -> (Option<usize>, Vec<(usize, u64)>) {
    let op = |r: EventRef| &sym.threads[r.0].events[r.1].op;
    let locked = failing[..at].iter().rposition(|r| r.0 == t && matches!(op(*r), SymOp::Lock { .. }));
    let reads = (locked.unwrap_or(0)..at)
        .rev()
        .filter(|i| failing[*i].0 == t)
        .filter_map(|i| match *op(failing[i]) {
            SymOp::Read { addr, at: None, .. } => Some((i, addr)),
            _ => None,
        })
        .collect();
    (locked, reads)
}

/// [`Exhausted`] for the thread stopped at `(t, k)`, when it is.
fn taken_back(sym: &SymTrace, failing: &[EventRef], (t, k): EventRef) -> Option<Exhausted> {
    let op = |r: EventRef| &sym.threads[r.0].events[r.1].op;
    let SymOp::WaitReturn { cond, .. } = *op((t, k)) else { return None };
    let w = (0..k).rev().find(|j| matches!(op((t, *j)), SymOp::Wait { cond: c, .. } if *c == cond))?;
    let at = failing.iter().position(|x| *x == (t, w))?;
    let signals: Vec<usize> = (0..failing.len())
        .filter(|i| matches!(op(failing[*i]), SymOp::Signal { cond: c } | SymOp::Broadcast { cond: c } if *c == cond))
        .collect();
    let first = *signals.first()?;
    let waits =
        |u: usize| failing.iter().any(|r| r.0 == u && matches!(op(*r), SymOp::Wait { cond: c, .. } if *c == cond));
    let signals_too = |u: usize| signals.iter().any(|i| failing[*i].0 == u);
    // A waiting thread: one that waits on it, or runs what the blocked
    // thread runs (a consumer that found a message each time), and does
    // not signal it.
    let same = |u: usize| sym.threads[u].start.is_some() && sym.threads[u].start == sym.threads[t].start;
    let waiter = |u: usize| (waits(u) || same(u)) && !signals_too(u);
    let writes = |i: usize, a: u64| match op(failing[i]) {
        SymOp::Write { addr, at: None, .. } | SymOp::Rmw { addr, at: None, .. } => *addr == a,
        _ => false,
    };
    // Its predicate: what it read since it took the mutex, the last first.
    let (_, reads) = predicate_reads(sym, failing, t, at);
    // Another thread changed a part of it after the read with no signal
    // after the change (`unsignalled.rs`).
    let unsignalled = |j: usize| !signals.iter().any(|s| *s > j);
    let changed =
        |i: usize, a: u64| (i..failing.len()).any(|j| writes(j, a) && !waiter(failing[j].0) && unsignalled(j));
    if reads.iter().any(|(i, a)| changed(*i, *a)) {
        return None;
    }
    // Another thread changed a part of it after the read, signalled, and
    // nobody undid the change (a shutdown flag set once): waking the
    // thread would let it see that change, so the waiters did not take
    // everything back.
    let last_write = |a: u64| (0..failing.len()).rev().find(|j| writes(*j, a));
    let stands = |i: usize, a: u64| {
        (i..failing.len()).any(|j| writes(j, a) && !waiter(failing[j].0))
            && last_write(a).is_some_and(|j| !waiter(failing[j].0))
    };
    if reads.iter().any(|(i, a)| stands(*i, *a)) {
        return None;
    }
    reads.into_iter().find_map(|(i, addr)| {
        let taken: Vec<EventRef> =
            (first..failing.len()).filter(|j| writes(*j, addr) && waiter(failing[*j].0)).map(|j| failing[j]).collect();
        // The location's last write is a waiter's: what it holds at the
        // end is what the waiters left.
        let last = (0..failing.len()).rev().find(|j| writes(*j, addr))?;
        (last > first && waiter(failing[last].0)).then(|| Exhausted {
            thread: t,
            wait: (t, w),
            read: failing[i],
            signals: signals.iter().map(|j| failing[*j]).collect(),
            taken,
        })
    })
}
