//! pthread mutexes and spin locks. A mutex is created lazily the first time its
//! address is used; its type comes from `pthread_mutex_init`'s attribute or, for
//! static initializers, from glibc's `__kind` field (offset 16; 12 in 32-bit programs).

use super::{EBUSY, EDEADLK, EINVAL, EPERM, ETIMEDOUT};
use crate::machine::Machine;
use crate::memory::Access;
use crate::outcome::Stop;
use crate::shims::{ret_i32, Call, Registry, Ret};
use crate::sync::{Mutex, MutexKind};
use causa_core::{EventKind, Tid};
use causa_ir::{Ty, Value};

pub fn register(r: &mut Registry) {
    r.visible("pthread", "pthread_mutex_lock", EventKind::Lock, lock).enabled_when(lock_enabled, lock_waits);
    r.visible("pthread", "pthread_mutex_trylock", EventKind::Lock, trylock);
    // Always enabled: when the mutex is not free, timing out is the scheduler's choice.
    r.visible("pthread", "pthread_mutex_timedlock", EventKind::Lock, timedlock);
    r.visible("pthread", "pthread_mutex_unlock", EventKind::Unlock, unlock);
    r.add("pthread", "pthread_mutex_init", init);
    // Visible, so that MCR can ask whether it can come while another thread
    // holds the mutex.
    r.visible_if_shared("pthread", "pthread_mutex_destroy", EventKind::Destroy, &[0], destroy);
    r.add("pthread", "pthread_mutexattr_init", |m, c| {
        m.store(c.ptr(0), &Ty::Int(32), &Value::ZERO)?;
        ret_i32(0)
    });
    r.add("pthread", "pthread_mutexattr_destroy", |_, _| ret_i32(0));
    // Process sharing, priority protocols and robustness change nothing in causa
    // (one process, no priorities, a thread that ends holding a mutex keeps it).
    for name in ["pthread_mutexattr_setpshared", "pthread_mutexattr_setprotocol", "pthread_mutexattr_setrobust"] {
        r.add("pthread", name, |_, _| ret_i32(0));
    }
    r.add("pthread", "pthread_mutexattr_settype", |m, c| {
        m.store(c.ptr(0), &Ty::Int(32), &Value::Int(c.int(1)))?;
        ret_i32(0)
    });
    r.add("pthread", "pthread_mutexattr_gettype", |m, c| {
        let v = m.load(c.ptr(0), &Ty::Int(32))?;
        m.store(c.ptr(1), &Ty::Int(32), &v)?;
        ret_i32(0)
    });
    r.visible("pthread", "pthread_spin_lock", EventKind::Lock, |m, c| {
        spin_at(m, c.ptr(0))?;
        lock(m, c)
    })
    .enabled_when(lock_enabled, lock_waits);
    r.visible("pthread", "pthread_spin_trylock", EventKind::Lock, |m, c| {
        spin_at(m, c.ptr(0))?;
        trylock(m, c)
    });
    r.visible("pthread", "pthread_spin_unlock", EventKind::Unlock, |m, c| {
        spin_at(m, c.ptr(0))?;
        unlock(m, c)
    });
    r.add("pthread", "pthread_spin_init", |m, c| {
        m.sync.mutexes.insert(c.ptr(0), Mutex::new(MutexKind::Normal));
        m.sync.destroyed.remove(&c.ptr(0));
        ret_i32(0)
    });
    r.visible_if_shared("pthread", "pthread_spin_destroy", EventKind::Destroy, &[0], destroy);
}

fn kind_of(code: u32) -> MutexKind {
    match code {
        1 => MutexKind::Recursive,
        2 => MutexKind::ErrorCheck,
        _ => MutexKind::Normal,
    }
}

/// A spin lock is a plain (non-recursive) lock: unlike a mutex, its type is
/// never read from the C object, which is only an `int`.
fn spin_at(m: &mut Machine, addr: u64) -> Result<(), Stop> {
    if !m.sync.mutexes.contains_key(&addr) {
        not_destroyed(m, addr, "spin lock")?;
        m.mem.check(addr, 4, Access::Read, m)?;
        m.sync.mutexes.insert(addr, Mutex::new(MutexKind::Normal));
    }
    Ok(())
}

/// The mutex at `addr`, created on first use (checking that the memory is valid).
pub fn mutex_at(m: &mut Machine, addr: u64) -> Result<&mut Mutex, Stop> {
    if !m.sync.mutexes.contains_key(&addr) {
        not_destroyed(m, addr, "mutex")?;
        m.mem.check(addr, 4, Access::Read, m)?;
        // glibc's __kind: after __lock, __count, __owner (and __nusers on 64-bit).
        let kind_at = if m.program().space.layout.ptr_bytes == 4 { 12 } else { 16 };
        let kind =
            m.load(addr + kind_at, &Ty::Int(32)).map(|v| kind_of(v.as_int() as u32)).unwrap_or(MutexKind::Normal);
        m.sync.mutexes.insert(addr, Mutex::new(kind));
    }
    Ok(m.sync.mutexes.get_mut(&addr).expect("just inserted"))
}

/// A lock used after `pthread_mutex_destroy` (undefined until it is
/// initialised again) is an invalid use.
pub fn not_destroyed(m: &Machine, addr: u64, what: &str) -> Result<(), Stop> {
    match m.sync.destroyed.get(&addr) {
        Some(&(t, loc)) => {
            let at = m.loc_of(loc).map(|l| format!(" at {}:{}", crate::memory::short_file(&l.file), l.line));
            let destroyer = m.names[t as usize].to_string();
            let at = at.unwrap_or_default();
            Err(Stop::pthread(causa_core::finding::misuse::use_after_destroy(what, &m.describe(addr), &destroyer, &at)))
        }
        None => Ok(()),
    }
}

fn lock_enabled(m: &Machine, t: Tid, args: &[Value]) -> bool {
    m.sync
        .mutexes
        .get(&crate::shims::ptr(args, 0))
        .is_none_or(|x| x.can_lock(t) || (x.kind == MutexKind::ErrorCheck && x.owner == Some(t)))
}

fn lock_waits(m: &Machine, t: Tid, args: &[Value]) -> (String, Option<Tid>) {
    let a = crate::shims::ptr(args, 0);
    let owner = m.sync.mutexes.get(&a).and_then(|x| x.owner);
    (crate::shims::with_holder(m, t, format!("waits for mutex {}", m.describe(a)), owner), owner)
}

fn acquire(m: &mut Machine, t: Tid, addr: u64) -> Result<i32, Stop> {
    let loc = m.threads[t as usize].loc;
    let x = mutex_at(m, addr)?;
    match x.owner {
        None => {
            x.owner = Some(t);
            x.count = 1;
            x.locked_at = loc;
            Ok(0)
        }
        Some(o) if o == t && x.kind == MutexKind::Recursive => {
            x.count += 1;
            Ok(0)
        }
        Some(o) if o == t && x.kind == MutexKind::ErrorCheck => Ok(EDEADLK),
        Some(_) => Ok(EBUSY),
    }
}

fn lock(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    ret_i32(acquire(m, c.t, c.ptr(0))?)
}

/// Lock for a thread that the scheduler let through (used by condition waits).
pub fn lock_for(m: &mut Machine, t: Tid, addr: u64) -> Result<(), Stop> {
    acquire(m, t, addr).map(|_| ())
}

fn trylock(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let r = acquire(m, c.t, c.ptr(0))?;
    let took = !(r == EBUSY || r == EDEADLK);
    m.note_try(c.t, took)?;
    if !took {
        mark_failed(m);
        return ret_i32(EBUSY);
    }
    mark_try(m);
    ret_i32(r)
}

/// Record the step's acquisition as a try (trylock, timedlock) that could
/// not have waited: the explorer treats its lock's order specially.
pub fn mark_try(m: &mut Machine) {
    if let Some(e) = m.events.last_mut() {
        e.value = causa_core::LOCK_TRY;
    }
}

/// A failed try acquires nothing: record the step as such. It observed the
/// lock held, like a read (a loop of failed trylocks is parked as a busy
/// wait until another thread changes the lock, `crate::spin`).
pub fn mark_failed(m: &mut Machine) {
    if let Some(e) = m.events.last_mut() {
        e.kind = EventKind::TrylockFail;
        let (t, lock) = (e.thread, e.addr);
        m.note_read(t, lock, causa_core::LOCK_TRY);
    }
}

/// `pthread_mutex_timedlock(mutex, abstime)`: locks like `pthread_mutex_lock`
/// when it can; otherwise the call times out at once (ETIMEDOUT, recorded as a
/// failed trylock), or fails with EINVAL for an invalid `abstime` as in glibc.
fn timedlock(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let r = acquire(m, c.t, c.ptr(0))?;
    m.note_try(c.t, r == 0)?;
    if r == 0 {
        mark_try(m);
        return ret_i32(0);
    }
    mark_failed(m);
    if r == EDEADLK {
        return ret_i32(EDEADLK); // an error-checking mutex the caller holds
    }
    ret_i32(if valid_timespec(m, c.ptr(1))? { ETIMEDOUT } else { EINVAL })
}

/// Whether the `struct timespec` at `at` has `0 <= tv_nsec < 10^9` (checked
/// only when a call would wait, like glibc).
pub fn valid_timespec(m: &Machine, at: u64) -> Result<bool, Stop> {
    let word = m.program().space.layout.ptr_bytes;
    let ty = Ty::Int(word as u32 * 8);
    let nsec = causa_ir::value::sext(m.load(at + word, &ty)?.as_int(), word as u32 * 8);
    Ok((0..1_000_000_000).contains(&nsec))
}

/// Release `addr` held by `t`; reports unlocking a mutex one does not own.
pub fn release(m: &mut Machine, t: Tid, addr: u64, what: &str) -> Result<i32, Stop> {
    let x = mutex_at(m, addr)?;
    match x.owner {
        Some(o) if o == t => {
            x.count -= 1;
            if x.count == 0 {
                x.owner = None;
            }
            Ok(0)
        }
        Some(o) if x.kind == MutexKind::Normal || x.kind == MutexKind::Recursive => {
            let owner = m.names[o as usize].clone();
            Err(Stop::pthread(format!(
                "{what} of mutex {} by thread {}, but it is held by thread {owner}",
                m.describe(addr),
                m.names[t as usize]
            )))
        }
        None if x.kind != MutexKind::ErrorCheck => {
            Err(Stop::pthread(format!("{what} of mutex {}, which is not locked", m.describe(addr))))
        }
        _ => Ok(EPERM),
    }
}

fn unlock(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let r = release(m, c.t, c.ptr(0), "unlock")?;
    // A polling loop may be parked here (busy-wait detection, `spin.rs`):
    // the unlock event keeps the thread's fingerprint.
    if r == 0 && c.visible {
        m.note_unlock(c.t, c.ptr(0));
    }
    ret_i32(r)
}

fn init(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let kind = if c.ptr(1) != 0 { kind_of(m.load(c.ptr(1), &Ty::Int(32))?.as_int() as u32) } else { MutexKind::Normal };
    m.mem.check(c.ptr(0), 4, Access::Write, m)?;
    if let Some(old) = m.sync.mutexes.get(&c.ptr(0)) {
        if old.owner.is_some() {
            return Err(Stop::pthread(format!(
                "pthread_mutex_init of mutex {} while it is locked",
                m.describe(c.ptr(0))
            )));
        }
    }
    m.sync.mutexes.insert(c.ptr(0), Mutex::new(kind));
    m.sync.destroyed.remove(&c.ptr(0));
    ret_i32(0)
}

fn destroy(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    if let Some(x) = m.sync.mutexes.get(&c.ptr(0)) {
        if x.owner.is_some() {
            return Err(Stop::pthread(format!("destroying mutex {} while it is locked", m.describe(c.ptr(0)))));
        }
    }
    m.sync.mutexes.remove(&c.ptr(0));
    mark_destroyed(m, c);
    ret_i32(0)
}

/// The lock at the call's first argument is destroyed by the calling thread
/// here ([`not_destroyed`] reports a later use).
pub fn mark_destroyed(m: &mut Machine, c: &Call<'_>) {
    let at = m.threads[c.t as usize].loc;
    m.sync.destroyed.insert(c.ptr(0), (c.t, at));
}
