//! A deadlock of a busy wait: a thread spins in a loop until a location
//! changes (`while (!ready) ;`, a spin lock's compare-and-swap), and the
//! last write of it before the thread's reads leaves it at a value that
//! keeps the thread looping, with no write after them: the interpreter
//! parks the thread, and the other threads finish or wait for it.

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

/// The value a read saw (the old value of a read-modify-write).
fn seen(e: &Explanation, r: EventRef) -> Option<String> {
    let v = e.value(r, Run::Failing)?;
    Some(v.split('→').next().unwrap_or(v).to_string())
}

/// "Deadlock: `waiter` (thread 0.1) spins at p.c:8 until `ready` changes: it
/// reads 0 there, written last by `main` (thread 0) at p.c:18, and no
/// thread writes `ready` after that …", for each parked busy wait.
pub(crate) fn sentences(e: &Explanation) -> Vec<String> {
    parked(e).into_iter().filter_map(|p| sentence(e, p)).collect()
}

fn sentence(e: &Explanation, p: EventRef) -> Option<String> {
    let obj = e.object(p)?;
    let at = |r: EventRef| e.line(r).unwrap_or_default();
    let touches = |r: &EventRef| e.object(*r).as_deref() == Some(obj.as_str());
    let is_write = |r: &EventRef| matches!(e.info_of(*r).op, "write" | "update");
    // The thread's last read of it, and the last write of it by another
    // thread in the failing schedule.
    let read = e.failing.iter().rev().find(|r| r.0 == p.0 && touches(r) && e.info_of(**r).op != "write").copied();
    let write = e.failing.iter().rev().find(|r| r.0 != p.0 && touches(r) && is_write(r)).copied();
    let reads = match read.and_then(|r| seen(e, r)) {
        Some(v) => format!("it reads {v} there"),
        None => "it reads it there".to_string(),
    };
    let last = match write {
        Some(w) => {
            // The writer finished without writing it again (a spin lock
            // never released).
            let ended = e.failing.iter().any(|r| r.0 == w.0 && e.info_of(*r).op == "end");
            let ended = if ended { ", which ends without writing it again" } else { "" };
            format!(", written last by {} at {}{ended}, and no thread writes `{obj}` after that", who(e, w), at(w))
        }
        None => format!(", and no other thread writes `{obj}`"),
    };
    Some(format!(
        "Deadlock: {} spins at {} until `{obj}` changes: {reads}{last}, so it never leaves the loop.",
        who(e, p),
        at(p)
    ))
}
