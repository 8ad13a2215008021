//! Condition variables. A wait is two steps: `wait` releases the mutex and
//! queues the thread; once signalled (or at any time for `timedwait`, which may
//! time out) and the mutex is free, `wait-return` re-acquires it. Signals wake
//! waiters in arrival order; spurious wake-ups are not modelled.

use super::{mutex, ETIMEDOUT};
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
        m.sync.conds.insert(c.ptr(0), Vec::new());
        ret_i32(0)
    });
    r.add("pthread", "pthread_cond_destroy", |m, c| {
        if m.sync.conds.get(&c.ptr(0)).is_some_and(|w| !w.is_empty()) {
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
}

fn wait(m: &mut Machine, c: &Call<'_>, timed: bool) -> Result<Ret, Stop> {
    let (cond, mx) = (c.ptr(0), c.ptr(1));
    m.mem.check(cond, 4, crate::memory::Access::Read, &|x| m.describe(x))?;
    mutex::release(m, c.t, mx, "pthread_cond_wait's unlock")?;
    m.sync.conds.entry(cond).or_default().push(c.t);
    if let Some(e) = m.events.last_mut() {
        e.value2 = mx as u128; // the mutex the wait releases
    }
    Ok(Ret::Park(Pending::CondWait { cond, mutex: mx, timed, signalled: false }))
}

fn wake(m: &mut Machine, cond: u64, all: bool) -> Result<Ret, Stop> {
    let waiters = m.sync.conds.entry(cond).or_default();
    let woken: Vec<Tid> = if all {
        std::mem::take(waiters)
    } else if waiters.is_empty() {
        vec![]
    } else {
        vec![waiters.remove(0)]
    };
    for t in woken {
        if let Pending::CondWait { signalled, .. } = &mut m.threads[t as usize].pending {
            *signalled = true;
        }
    }
    ret_i32(0)
}

/// The `wait-return` step: re-acquire the mutex and return from the wait.
pub fn finish_wait(m: &mut Machine, t: Tid, cond: u64, mx: u64, _timed: bool, signalled: bool) -> Result<(), Stop> {
    m.record(
        t,
        EventKind::WaitReturn,
        cond,
        0,
        signalled as u128,
        mx as u128, // the mutex it re-acquires
        false,
    );
    if let Some(w) = m.sync.conds.get_mut(&cond) {
        w.retain(|x| *x != t);
    }
    mutex::lock_for(m, t, mx)?;
    let rv = if signalled { 0 } else { ETIMEDOUT };
    m.complete_parked_call(t, Value::Int(rv as u32 as u128))
}
