//! Invalid uses of a mutex, told in the summary: an unlock by a thread that
//! does not hold the mutex, which no order of the threads avoids (the
//! failing thread's own path decides it, so there is no alternate schedule;
//! the summary says who holds the mutex instead), and a destroy of a mutex
//! that another thread holds or uses afterwards (or of a condition variable
//! another thread waits on), which the order decides.

use crate::summary::who;
use crate::{EventRef, Explanation};

/// "Invalid unlock: `finish_batch` (thread 0.1) unlocks `queue_lock` at
/// q.c:18, but `main` (thread 0) holds it (locked at q.c:24) …", or None when
/// the failure is not such an unlock.
pub(crate) fn sentence(e: &Explanation) -> Option<String> {
    let f = &e.failure;
    if f.kind != causa_core::BugKind::InvalidPthreadUse {
        return None;
    }
    if f.message.starts_with("pthread_cond_wait's unlock of mutex")
        || f.message.starts_with("pthread_cond_timedwait's unlock of mutex")
    {
        return wait_sentence(e);
    }
    if f.message.starts_with("pthread_join of detached thread") || f.message.ends_with("is joined twice") {
        return join_sentence(e);
    }
    // The interpreter's words for it (`shims/pthread/mutex.rs`).
    if !f.message.starts_with("unlock of mutex") {
        return None;
    }
    // The unlock is the failure itself (its marker ends the thread's events).
    let (at, marker) = failing_step(e)?;
    let line = e.failure_line().or_else(|| e.line(marker)).unwrap_or_default();
    let who_unlocks = who(e, marker);
    let rule = "only the thread that holds a mutex may unlock it, and on the failing run's paths this thread does not hold it there, so no order of the threads avoids the failure";
    let named = |o: &str| f.message.contains(&format!("mutex {o} ")) || f.message.contains(&format!("mutex {o},"));
    Some(match holder(e, &e.failing[..at], named) {
        Some((l, name)) => format!(
            "Invalid unlock: {who_unlocks} unlocks `{name}` at {line}, but {} holds it (locked at {}): {rule}. Unlocking it in the thread that locked it (and handing the work over with a condition variable or a semaphore) avoids it.",
            who(e, l),
            e.line(l).unwrap_or_default()
        ),
        None => format!(
            "Invalid unlock: {who_unlocks} unlocks a mutex at {line} that no thread holds then: {rule}. Unlocking only a mutex the thread has locked avoids it."
        ),
    })
}

/// Where the failure is (`q.c:18`), and who makes it: the failing
/// thread's last event and its place in the failing schedule.
fn failing_place(e: &Explanation) -> Option<(String, usize, EventRef)> {
    let (at, marker) = failing_step(e)?;
    Some((e.failure_line().or_else(|| e.line(marker)).unwrap_or_default(), at, marker))
}

/// "Invalid wait: `main` (thread 0) waits at w.c:18 with `m`, which it
/// does not hold …": a condition wait whose mutex the caller does not
/// hold (the wait releases it), which the failing thread's own path
/// decides.
fn wait_sentence(e: &Explanation) -> Option<String> {
    let f = &e.failure;
    let (line, at, marker) = failing_place(e)?;
    let call = f.message.split('\'').next().unwrap_or("the wait");
    // `… unlock of mutex m, which is not locked` / `… of mutex m by thread
    // 0, but it is held by thread 0.1`.
    let rest = f.message.split_once("unlock of mutex ")?.1;
    let m = rest.split([',', ' ']).next().filter(|m| !m.is_empty())?;
    let rule = format!("`{call}` releases its mutex while it waits and takes it again before it returns, so the caller must hold it; on the failing run's paths this thread does not hold it there, so no order of the threads avoids the failure");
    let fix = format!("Locking `{m}` before the wait (and testing the condition under it) avoids it.");
    Some(match holder(e, &e.failing[..at], |o| o == m) {
        Some((l, _)) if l.0 != marker.0 => format!(
            "Invalid wait: {} waits at {line} with `{m}`, which {} holds (locked at {}): {rule}. {fix}",
            who(e, marker),
            who(e, l),
            e.line(l).unwrap_or_default()
        ),
        _ => format!(
            "Invalid wait: {} waits at {line} with `{m}`, which it does not hold: {rule}. {fix}",
            who(e, marker)
        ),
    })
}

/// "Invalid join: `main` (thread 0) joins thread 0.1 at j.c:19, but …": a
/// join of a detached thread, or of one already joined.
fn join_sentence(e: &Explanation) -> Option<String> {
    let f = &e.failure;
    let (line, _, marker) = failing_place(e)?;
    if let Some(t) = f.message.strip_prefix("pthread_join of detached thread ") {
        return Some(format!(
            "Invalid join: {} joins thread {t} at {line}, but thread {t} is detached (created with a detached attribute, or detached by `pthread_detach`): a detached thread cannot be joined, in any order of the threads. Creating it joinable, or waiting for its work another way (a semaphore, a condition variable), avoids it.",
            who(e, marker)
        ));
    }
    let t = f.message.strip_prefix("thread ")?.strip_suffix(" is joined twice")?;
    Some(format!(
        "Invalid join: {} joins thread {t} at {line}, which was joined already: a thread can be joined once, whatever the order of the threads. Joining it in one place only avoids it.",
        who(e, marker)
    ))
}

/// "Invalid destroy: `main` (thread 0) destroys `c.lock` at d.c:33 while
/// `user` (thread 0.2) holds it …" or "Invalid lock: `logger` (thread 0.1)
/// locks `log_lock` at d.c:9 after `main` (thread 0) destroyed it at
/// d.c:21 …"; None for other failures.
pub(crate) fn destroy_sentence(e: &Explanation) -> Option<String> {
    let f = &e.failure;
    if f.kind != causa_core::BugKind::InvalidPthreadUse {
        return None;
    }
    let (at, step) = failing_step(e)?;
    let obj = e.object(step)?;
    let line = |r: EventRef| e.line(r).unwrap_or_default();
    let fix = "a lock may be destroyed only when no thread holds it or will take it again. Destroying it after the threads that use it have finished (joining them first) avoids the failure";
    let waiting = waiter(e, &e.failing[..at], &obj);
    match e.info_of(step).op {
        "destroy" if waiting.is_some() => {
            let w = waiting?;
            Some(format!(
                "Invalid destroy: {} destroys `{obj}` at {} while {} waits on it (since {}), and no signal or broadcast on it came in between: a condition variable may be destroyed only when no thread waits on it. Waking its waiters and destroying it after they have finished (joining them first) avoids the failure.",
                who(e, step),
                line(step),
                who(e, w),
                line(w)
            ))
        }
        "destroy" => {
            let (l, _) = holder(e, &e.failing[..at], |o| o == obj)?;
            Some(format!(
                "Invalid destroy: {} destroys `{obj}` at {} while {} holds it (locked at {}): {fix}.",
                who(e, step),
                line(step),
                who(e, l),
                line(l)
            ))
        }
        "lock" | "rdlock" if causa_core::finding::misuse::is_use_after_destroy(&f.message) => {
            let destroyed = |r: &&EventRef| e.info_of(**r).op == "destroy" && e.object(**r).as_deref() == Some(&obj);
            let d = *e.failing[..at].iter().rev().find(destroyed)?;
            Some(format!(
                "Invalid lock: {} locks `{obj}` at {} after {} destroyed it at {}: {fix}.",
                who(e, step),
                line(step),
                who(e, d),
                line(d)
            ))
        }
        _ => None,
    }
}

/// The failing thread's last event in the failing schedule, and where it
/// stands there.
fn failing_step(e: &Explanation) -> Option<(usize, EventRef)> {
    let ft = e.failing_thread()?;
    let at = e.failing.iter().rposition(|r| r.0 == ft)?;
    Some((at, e.failing[at]))
}

/// A wait on the condition variable `obj`, by another thread than the one
/// whose step ends `before`, that no signal or broadcast on it follows in
/// `before`: that thread still waits at the end of it.
fn waiter(e: &Explanation, before: &[EventRef], obj: &str) -> Option<EventRef> {
    let me = before.last()?.0;
    let on = |r: &EventRef, ops: &[&str]| ops.contains(&e.info_of(*r).op) && e.object(*r).as_deref() == Some(obj);
    let i = before.iter().rposition(|r| r.0 != me && on(r, &["wait"]))?;
    (!before[i..].iter().any(|r| on(r, &["signal", "broadcast"]))).then_some(before[i])
}

/// The lock (or read lock), by another thread than the failing one, still
/// held at the end of `before` of a lock whose name `named` accepts, with
/// that name.
pub(crate) fn holder(e: &Explanation, before: &[EventRef], named: impl Fn(&str) -> bool) -> Option<(EventRef, String)> {
    let mut held: Vec<(EventRef, String)> = Vec::new();
    for r in before {
        let Some(obj) = e.object(*r) else { continue };
        match e.info_of(*r).op {
            "lock" | "rdlock" => held.push((*r, obj)),
            "unlock" => held.retain(|(l, o)| !(l.0 == r.0 && *o == obj)),
            _ => {}
        }
    }
    held.into_iter().rev().find(|(_, o)| named(o))
}
