//! A deadlock of a busy wait: a thread spins in a loop until a location
//! changes (`while (!ready) ;`, a spin lock's compare-and-swap), and the
//! last write of it before the thread's reads leaves it at a value that
//! keeps the thread looping, with no write after them: the interpreter
//! parks the thread, and the other threads finish or wait for it. A loop
//! of failed trylocks is told by the lock's holder instead, and busy waits
//! that wait for each other as one cycle.

use crate::summary::who;
use crate::{EventRef, Explanation, Run};

/// The parked busy waits: each thread's event the symbolic trace marks as
/// its next read in a loop no other thread can end.
fn parked(e: &Explanation) -> Vec<EventRef> {
    if e.failure.kind != causa_core::BugKind::Deadlock {
        return Vec::new();
    }
    let spins =
        |(t, info): (usize, &Vec<crate::EventInfo>)| info.iter().position(|i| i.op == "spins on").map(|k| (t, k));
    e.info.iter().enumerate().filter_map(spins).collect()
}

/// Thread `t` ends in the failing schedule.
fn ended(e: &Explanation, t: usize) -> bool {
    e.end_of(t).is_some()
}

/// The value a read saw (the old value of a read-modify-write).
fn seen(e: &Explanation, r: EventRef) -> Option<String> {
    let v = e.value(r, Run::Failing)?;
    Some(v.split('→').next().unwrap_or(v).to_string())
}

/// "Deadlock: `waiter` (thread 0.1) spins at p.c:8 until `ready` changes: it
/// reads 0 there, written last by `main` (thread 0) at p.c:18, and no
/// thread writes `ready` after that …", for each parked busy wait.
pub(crate) fn sentences(e: &Explanation) -> Vec<String> {
    let spins = parked(e);
    if let Some(s) = cycle_sentence(e, &spins) {
        return vec![s];
    }
    spins.into_iter().filter_map(|p| sentence(e, p)).collect()
}

/// The last write, by another thread in the failing schedule, of what the
/// parked busy wait `p` spins on (None: no other thread writes it).
fn last_write(e: &Explanation, p: EventRef) -> Option<EventRef> {
    let obj = e.object(p)?;
    let touches = |r: &EventRef| e.object(*r).as_deref() == Some(obj.as_str());
    let is_write = |r: &EventRef| matches!(e.info_of(*r).op, "write" | "update");
    e.failing.iter().rev().find(|r| r.0 != p.0 && touches(r) && is_write(r)).copied()
}

/// Busy waits that wait for each other: every parked thread spins on what
/// another parked thread wrote last (two spin locks taken in opposite
/// orders). "Deadlock: A spins at … until `second` changes, last written
/// by B at …, and B spins at … until `first` changes, last written by A
/// at …: each waits for the other …".
fn cycle_sentence(e: &Explanation, spins: &[EventRef]) -> Option<String> {
    if spins.len() < 2 {
        return None;
    }
    let writes: Vec<EventRef> = spins.iter().map(|p| last_write(e, *p)).collect::<Option<_>>()?;
    if !writes.iter().all(|w| spins.iter().any(|p| p.0 == w.0)) {
        return None;
    }
    let at = |r: EventRef| e.line(r).unwrap_or_default();
    let parts: Vec<String> = spins
        .iter()
        .zip(&writes)
        .map(|(p, w)| {
            let obj = e.object(*p).unwrap_or_default();
            format!(
                "{} spins at {} until `{obj}` changes, last written by {} at {}",
                who(e, *p),
                at(*p),
                who(e, *w),
                at(*w)
            )
        })
        .collect();
    // Written by read-modify-writes (test-and-set, compare-and-swap): locks.
    let locks = writes.iter().all(|w| e.info_of(*w).op == "update");
    let fix = if locks {
        let objects: Vec<String> = spins.iter().filter_map(|p| e.object(*p)).map(|o| format!("`{o}`")).collect();
        format!(" Taking {} in one order in every thread avoids the deadlock.", crate::summary::join_and(&objects))
    } else {
        String::new()
    };
    Some(format!(
        "Deadlock: {}: each waits for a write that only another waiting thread would make, so none leaves its loop.{fix}",
        parts.join("; ")
    ))
}

fn sentence(e: &Explanation, p: EventRef) -> Option<String> {
    let obj = e.object(p)?;
    let at = |r: EventRef| e.line(r).unwrap_or_default();
    let touches = |r: &EventRef| e.object(*r).as_deref() == Some(obj.as_str());
    // The thread's last look at it in the failing schedule: a read, or a
    // trylock that found it held. The loop is told at that line.
    let look = e.failing.iter().rev().find(|r| r.0 == p.0 && touches(r) && e.info_of(**r).op != "write").copied();
    if let Some(l) = look.filter(|l| e.info_of(*l).op == "trylock (busy)") {
        return Some(trylock_sentence(e, p, l, &obj));
    }
    let reads = match look.and_then(|r| seen(e, r)) {
        Some(v) => format!("it reads {v} there"),
        None => "it reads it there".to_string(),
    };
    let last = match last_write(e, p) {
        Some(w) => {
            // The writer finished without writing it again (a spin lock
            // never released).
            let again = if ended(e, w.0) { ", which ends without writing it again" } else { "" };
            format!(", written last by {} at {}{again}, and no thread writes `{obj}` after that", who(e, w), at(w))
        }
        None => format!(", and no other thread writes `{obj}`"),
    };
    Some(format!(
        "Deadlock: {} spins at {} until `{obj}` changes: {reads}{last}, so it never leaves the loop.",
        who(e, p),
        at(look.unwrap_or(p))
    ))
}

/// A loop of trylocks on a lock another thread took and never releases:
/// "Deadlock: `worker` (thread 0.2) tries to lock `m` at t.c:7 until it
/// gets it, but `worker` (thread 0.1) locked it at t.c:7 and ends without
/// unlocking it …".
fn trylock_sentence(e: &Explanation, p: EventRef, look: EventRef, obj: &str) -> String {
    let at = |r: EventRef| e.line(r).unwrap_or_default();
    let on = |r: &EventRef, op: &str| e.info_of(*r).op == op && e.object(*r).as_deref() == Some(obj);
    // The other thread's acquisition it does not release in the schedule.
    let held =
        e.failing.iter().rev().find(|r| r.0 != p.0 && (on(r, "lock") || on(r, "rdlock")) && !e.unlocked_later(**r));
    let holder = match held {
        Some(h) => {
            let how = if ended(e, h.0) { "ends without unlocking it" } else { "does not unlock it" };
            format!("but {} locked it at {} and {how}", who(e, *h), at(*h))
        }
        None => "but it stays held".to_string(),
    };
    format!(
        "Deadlock: {} tries to lock `{obj}` at {} in a loop until it gets it, {holder}, so the loop never ends.",
        who(e, p),
        at(look)
    )
}
