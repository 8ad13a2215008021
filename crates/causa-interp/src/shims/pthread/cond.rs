//! Condition variables. A wait is two steps: `wait` releases the mutex and
//! queues the thread; once woken (or at any time for `timedwait`, which may time
//! out) and the mutex is free, `wait-return` re-acquires it. A `signal` with
//! waiters leaves a token that one thread already waiting takes when it returns
//! (which one is a scheduling choice); a `broadcast` wakes every waiter. Spurious
//! wake-ups are not modelled.

use super::{mutex, EINVAL, ETIMEDOUT};
use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, Call, Registry, Ret};
use crate::thread::Pending;
use causa_core::{EventKind, Tid};
use causa_ir::Value;

pub fn register(r: &mut Registry) {
    r.visible("pthread", "pthread_cond_wait", EventKind::Wait, |m, c| wait(m, c, false));
    r.visible("pthread", "pthread_cond_timedwait", EventKind::Wait, |m, c| wait(m, c, true));
    r.visible("pthread", "pthread_cond_signal", EventKind::Signal, |m, c| wake(m, c.ptr(0), false));
    r.visible("pthread", "pthread_cond_broadcast", EventKind::Broadcast, |m, c| wake(m, c.ptr(0), true));
    r.add("pthread", "pthread_cond_init", |m, c| {
        m.sync.conds.insert(c.ptr(0), Default::default());
        ret_i32(0)
    });
    // Visible when other threads can reach it: destroying it while another
    // thread waits on it is invalid, and the order decides that.
    r.visible_if_shared("pthread", "pthread_cond_destroy", EventKind::Destroy, &[0], |m, c| {
        if m.sync.conds.get(&c.ptr(0)).is_some_and(|w| !w.waiters.is_empty()) {
            return Err(Stop::pthread(format!(
                "destroying condition variable {} while threads wait on it",
                m.describe(c.ptr(0))
            )));
        }
        m.sync.conds.remove(&c.ptr(0));
        ret_i32(0)
    });
    r.add("pthread", "pthread_condattr_init", |_, _| ret_i32(0));
    r.add("pthread", "pthread_condattr_destroy", |_, _| ret_i32(0));
    // Every clock is the same virtual clock, and timed waits do not read it.
    // (glibc accepts CLOCK_REALTIME and CLOCK_MONOTONIC.)
    r.add("pthread", "pthread_condattr_setclock", |_, c| ret_i32(if matches!(c.i32(1), 0 | 1) { 0 } else { EINVAL }));
}

fn wait(m: &mut Machine, c: &Call<'_>, timed: bool) -> Result<Ret, Stop> {
    // (The condition variable's memory is checked before every call on it,
    // `step::call`.)
    let (cond, mx) = (c.ptr(0), c.ptr(1));
    mutex::release(m, c.t, mx, &format!("{}'s unlock", c.name))?;
    m.sync.conds.entry(cond).or_default().waiters.push(c.t);
    if let Some(e) = m.events.last_mut() {
        e.value = timed as u128;
        e.value2 = mx as u128; // the mutex the wait releases
    }
    // A timed wait may time out: it keeps the fingerprint of the waiting
    // thread's state (busy-wait detection, see `spin.rs`).
    if timed {
        m.note_timed_wait(c.t, cond, mx);
    }
    let since = m.steps.len() as u64;
    Ok(Ret::Park(Pending::CondWait { cond, mutex: mx, timed, signalled: false, since }))
}

fn wake(m: &mut Machine, cond: u64, all: bool) -> Result<Ret, Stop> {
    let step = m.steps.len() as u64;
    let c = m.sync.conds.entry(cond).or_default();
    if all {
        for t in std::mem::take(&mut c.waiters) {
            if let Pending::CondWait { signalled, .. } = &mut m.threads[t as usize].pending {
                *signalled = true;
            }
        }
    } else if !c.waiters.is_empty() {
        c.tokens.push(step);
    }
    ret_i32(0)
}

/// Whether a thread waiting on `cond` since step `since` has a token to take.
pub fn token_for(m: &Machine, cond: u64, since: u64) -> bool {
    m.sync.conds.get(&cond).is_some_and(|c| c.token(since).is_some())
}

/// The `wait-return` step: re-acquire the mutex and return from the wait
/// (`timed`: of a `pthread_cond_timedwait`, whose outcome, woken or timed
/// out, goes into the thread's path like a lock try's).
pub fn finish_wait(
    m: &mut Machine,
    t: Tid,
    (cond, mx): (u64, u64),
    since: u64,
    (signalled, timed): (bool, bool),
) -> Result<(), Stop> {
    // Not woken by a broadcast: take a signal's token if one is there (else a
    // timed wait times out).
    let mut signalled = signalled;
    if let Some(c) = m.sync.conds.get_mut(&cond) {
        if !signalled {
            if let Some(i) = c.token(since) {
                c.tokens.remove(i);
                signalled = true;
            }
        }
        c.waiters.retain(|x| *x != t);
    }
    if timed {
        m.note_try(t, signalled)?;
    }
    m.record(
        t,
        EventKind::WaitReturn,
        cond,
        0,
        signalled as u128,
        mx as u128, // the mutex it re-acquires
        false,
    );
    mutex::lock_for(m, t, mx)?;
    let rv = if signalled { 0 } else { ETIMEDOUT };
    m.complete_parked_call(t, Value::Int(rv as u32 as u128))
}
