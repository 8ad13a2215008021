//! POSIX semaphores (unnamed). Failures return -1 and set errno.

use super::mutex::valid_timespec;
use super::{EAGAIN, EINVAL, ETIMEDOUT};
use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::libc::misc::set_errno;
use crate::shims::{ptr, ret_i32, Call, Registry, Ret};
use causa_core::{EventKind, Tid};
use causa_ir::{Ty, Value};

pub fn register(r: &mut Registry) {
    r.add("sem", "sem_init", |m, c| {
        m.mem.check(c.ptr(0), 4, crate::memory::Access::Write, m)?;
        m.sync.sems.insert(c.ptr(0), c.int(2) as u32);
        ret_i32(0)
    });
    r.add("sem", "sem_destroy", |m, c| {
        m.sync.sems.remove(&c.ptr(0));
        ret_i32(0)
    });
    r.visible("sem", "sem_wait", EventKind::SemWait, wait).enabled_when(wait_enabled, waits);
    r.visible("sem", "sem_trywait", EventKind::SemWait, trywait);
    // Always enabled: at value 0, timing out is the scheduler's choice.
    r.visible("sem", "sem_timedwait", EventKind::SemWait, timedwait);
    r.visible("sem", "sem_post", EventKind::SemPost, post);
    r.add("sem", "sem_getvalue", |m, c| {
        let v = sem(m, c.ptr(0))?;
        m.store(c.ptr(1), &Ty::Int(32), &Value::Int(v as u128))?;
        ret_i32(0)
    });
}

fn sem(m: &Machine, addr: u64) -> Result<u32, Stop> {
    m.sync
        .sems
        .get(&addr)
        .copied()
        .ok_or_else(|| Stop::pthread(format!("semaphore {} used before sem_init", m.describe(addr))))
}

fn wait_enabled(m: &Machine, _t: Tid, args: &[Value]) -> bool {
    m.sync.sems.get(&ptr(args, 0)).is_none_or(|v| *v > 0)
}

fn waits(m: &Machine, _t: Tid, args: &[Value]) -> (String, Option<Tid>) {
    (format!("waits in sem_wait on semaphore {} whose value is 0", m.describe(ptr(args, 0))), None)
}

/// The event of a semaphore operation keeps the value before it, and for a
/// try/timed wait whether it failed or took a unit (the constraint model needs
/// both).
fn note(m: &mut Machine, before: u32, tried: bool) {
    if let Some(e) = m.events.last_mut() {
        e.value = before as u128;
        e.value2 = match (tried, before) {
            (false, _) => 0,
            (true, 0) => causa_core::SEM_FAILED,
            (true, _) => causa_core::SEM_TRIED,
        };
    }
}

fn wait(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let v = sem(m, c.ptr(0))?;
    note(m, v, false);
    m.sync.sems.insert(c.ptr(0), v - 1);
    ret_i32(0)
}

fn trywait(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let v = sem(m, c.ptr(0))?;
    note(m, v, true);
    m.note_try(c.t, v != 0)?;
    if v == 0 {
        set_errno(m, c.t, EAGAIN)?;
        return ret_i32(-1);
    }
    m.sync.sems.insert(c.ptr(0), v - 1);
    ret_i32(0)
}

/// `sem_timedwait(sem, abstime)`: decrements a positive value, else times out
/// at once (errno ETIMEDOUT, or EINVAL for an invalid `abstime`, as in glibc).
fn timedwait(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let v = sem(m, c.ptr(0))?;
    note(m, v, true);
    m.note_try(c.t, v != 0)?;
    if v == 0 {
        let code = if valid_timespec(m, c.ptr(1))? { ETIMEDOUT } else { EINVAL };
        set_errno(m, c.t, code)?;
        return ret_i32(-1);
    }
    m.sync.sems.insert(c.ptr(0), v - 1);
    ret_i32(0)
}

fn post(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let v = sem(m, c.ptr(0))?;
    note(m, v, false);
    m.sync.sems.insert(c.ptr(0), v + 1);
    ret_i32(0)
}
