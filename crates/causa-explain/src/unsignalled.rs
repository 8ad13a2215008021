//! A lost wake-up of the "condition changed, nobody told" kind: a waiter
//! checks its predicate (reads a flag under the mutex), finds it false and
//! waits; another thread then makes the predicate true but sends no signal
//! or broadcast on the condition variable afterwards (its last one came
//! before the wait), so the waiter never checks again.

use crate::summary::who;
use crate::{EventRef, Explanation};

/// The waits a deadlock's threads are blocked at: each thread's last event
/// in the failing schedule, when it is a wait.
fn blocked_waits(e: &Explanation) -> Vec<EventRef> {
    if e.failure.kind != causa_core::BugKind::Deadlock {
        return Vec::new();
    }
    (0..e.threads.len())
        .filter_map(|t| e.failing.iter().rev().find(|r| r.0 == t).copied())
        .filter(|r| e.info_of(*r).op == "wait")
        // (The waiters took the change back: `exhausted.rs`.)
        .filter(|r| !e.exhausted.iter().any(|x| x.wait == *r))
        .collect()
}

/// The change nobody signalled, for a blocked wait: (the waiter's read of
/// the predicate, the other thread's later write of it).
pub(crate) fn change(e: &Explanation, wait: EventRef) -> Option<(EventRef, EventRef)> {
    let pos = |r: EventRef| e.place(r);
    let wi = pos(wait)?;
    let t = wait.0;
    let cond = e.object(wait);
    // The waiter's reads since it took the mutex: its predicate.
    let since = e.failing[..wi].iter().rposition(|r| r.0 == t && e.info_of(*r).op == "lock").unwrap_or(0);
    let reads: Vec<EventRef> =
        e.failing[since..wi].iter().copied().filter(|r| r.0 == t && e.info_of(*r).op == "read").collect();
    let signalled_after = |i: usize| {
        e.failing[i..].iter().any(|r| matches!(e.info_of(*r).op, "signal" | "broadcast") && e.object(*r) == cond)
    };
    // A write of it by another thread after the read (before or after the
    // wait) with no signal after it.
    reads.iter().rev().find_map(|&r| {
        let obj = e.object(r)?;
        let ri = pos(r)?;
        let write = e.failing[ri..].iter().enumerate().find(|(_, w)| {
            w.0 != t && matches!(e.info_of(**w).op, "write" | "update") && e.object(**w).as_deref() == Some(&obj)
        });
        let (i, w) = write?;
        (!signalled_after(ri + i)).then_some((r, *w))
    })
}

/// The last signal or broadcast on `wait`'s condition variable before it.
fn last_signal(e: &Explanation, wait: EventRef) -> Option<EventRef> {
    let wi = e.place(wait)?;
    let cond = e.object(wait);
    e.failing[..wi]
        .iter()
        .rev()
        .find(|r| matches!(e.info_of(**r).op, "signal" | "broadcast") && e.object(**r) == cond)
        .copied()
}

/// "Deadlock: `worker` (thread 0.1) reads `shutting_down` at s.c:15 and
/// waits at s.c:16; `main` (thread 0) writes `shutting_down` at s.c:36
/// afterwards but sends no signal on `cv` after it …", for the deadlock's
/// waiters whose predicate one write changed without a signal (grouped by
/// that write).
pub(crate) fn sentences(e: &Explanation) -> Vec<String> {
    let mut by_write: Vec<(EventRef, Vec<(EventRef, EventRef)>)> = Vec::new();
    for wait in blocked_waits(e) {
        if let Some((r, w)) = change(e, wait) {
            match by_write.iter_mut().find(|(x, _)| *x == w) {
                Some((_, v)) => v.push((r, wait)),
                None => by_write.push((w, vec![(r, wait)])),
            }
        }
    }
    let at = |r: EventRef| e.line(r).unwrap_or_default();
    let name = |r: EventRef| e.named(r, "it");
    by_write
        .into_iter()
        .map(|(w, waiters)| {
            let (r0, w0) = waiters[0];
            // (Said only when the writer does not hold the waiter's mutex
            // at its write already.)
            let mutex = match mutex_of(e, w0) {
                Some(lock) if !holds_at(e, lock, w) => {
                    e.object(lock).map(|m| format!(" while holding `{m}`")).unwrap_or_default()
                }
                _ => String::new(),
            };
            // One clause when they all read and wait at the same lines.
            let same = waiters.iter().all(|(r, wait)| (at(*r), at(*wait)) == (at(r0), at(w0)));
            let told: Vec<String> = if same && waiters.len() > 1 {
                let whom: Vec<String> = waiters.iter().map(|(_, wait)| who(e, *wait)).collect();
                let whom = crate::summary::join_and(&whom);
                vec![format!("{whom} read {} at {} and wait at {}", name(r0), at(r0), at(w0))]
            } else {
                let each = |(r, wait): &(EventRef, EventRef)| {
                    format!("{} reads {} at {} and waits at {}", who(e, *wait), name(*r), at(*r), at(*wait))
                };
                waiters.iter().map(each).collect()
            };
            let never = match waiters.len() {
                1 => "the waiter never checks again",
                2 => "neither waiter checks again",
                _ => "no waiter checks again",
            };
            let before = match (signals_other(e, w, w0), last_signal(e, w0)) {
                (Some(s), _) => format!(" (it signals {} at {} instead)", name(s), at(s)),
                (None, Some(s)) => format!(" (its last, at {}, came before the wait)", at(s)),
                (None, None) => String::new(),
            };
            let fix = match mutex.is_empty() {
                true => format!("Broadcasting {} after writing {}", name(w0), name(r0)),
                false => format!("Writing {}{mutex} and broadcasting {} after it", name(r0), name(w0)),
            };
            format!(
                "Deadlock: {}; {} writes {} at {} afterwards, but sends no signal on {} after it{before}, so {never}. {fix} avoids the deadlock.",
                crate::summary::join_and(&told),
                who(e, w),
                name(w),
                at(w),
                name(w0),
            )
        })
        .collect()
}

/// The mutex the waiter holds at its wait: its last lock before it.
fn mutex_of(e: &Explanation, wait: EventRef) -> Option<EventRef> {
    let wi = e.place(wait)?;
    e.failing[..wi].iter().rev().find(|r| r.0 == wait.0 && e.info_of(**r).op == "lock").copied()
}

/// Whether `w`'s thread holds the mutex `lock` takes at its event `w`
/// (its last lock or unlock of it before `w` is a lock; a condition wait
/// gives the mutex back before it returns).
fn holds_at(e: &Explanation, lock: EventRef, w: EventRef) -> bool {
    let m = e.info_of(lock).addr;
    e.info[w.0][..w.1]
        .iter()
        .rev()
        .find(|i| i.addr == m && matches!(i.op, "lock" | "unlock"))
        .is_some_and(|i| i.op == "lock")
}

/// The writer's next signal or broadcast after its write `w`, when it is
/// on another condition variable than the one `wait` waits on (a
/// producer that signals `not_full` where the consumer waits on
/// `not_empty`).
fn signals_other(e: &Explanation, w: EventRef, wait: EventRef) -> Option<EventRef> {
    let next =
        (w.1 + 1..e.info[w.0].len()).map(|k| (w.0, k)).find(|r| matches!(e.info_of(*r).op, "signal" | "broadcast"))?;
    (e.object(next).is_some() && e.object(next) != e.object(wait)).then_some(next)
}
