//! Read-write locks: many readers or one writer. Readers are not blocked by
//! waiting writers (glibc's default, reader-preferring).

use super::mutex::{mark_failed, mark_try};
use super::EBUSY;
use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ptr, ret_i32, Call, Registry, Ret};
use causa_core::{EventKind, Tid};
use causa_ir::Value;

pub fn register(r: &mut Registry) {
    r.visible("pthread", "pthread_rwlock_rdlock", EventKind::ReadLock, |m, c| rd(m, c, false))
        .enabled_when(rd_enabled, waits);
    r.visible("pthread", "pthread_rwlock_wrlock", EventKind::WriteLock, |m, c| wr(m, c, false))
        .enabled_when(wr_enabled, waits);
    r.visible("pthread", "pthread_rwlock_tryrdlock", EventKind::ReadLock, |m, c| rd(m, c, true));
    r.visible("pthread", "pthread_rwlock_trywrlock", EventKind::WriteLock, |m, c| wr(m, c, true));
    r.visible("pthread", "pthread_rwlock_unlock", EventKind::RwUnlock, unlock);
    r.add("pthread", "pthread_rwlock_init", |m, c| {
        m.sync.rwlocks.insert(c.ptr(0), Default::default());
        m.sync.destroyed.remove(&c.ptr(0));
        ret_i32(0)
    });
    r.add("pthread", "pthread_rwlockattr_init", |_, _| ret_i32(0));
    r.add("pthread", "pthread_rwlockattr_destroy", |_, _| ret_i32(0));
    r.visible_if_shared("pthread", "pthread_rwlock_destroy", EventKind::Destroy, &[0], |m, c| {
        if m.sync.rwlocks.get(&c.ptr(0)).is_some_and(|l| l.writer.is_some() || !l.readers.is_empty()) {
            return Err(Stop::pthread(format!("destroying rwlock {} while it is held", m.describe(c.ptr(0)))));
        }
        m.sync.rwlocks.remove(&c.ptr(0));
        super::mutex::mark_destroyed(m, c);
        ret_i32(0)
    });
}

fn rd_enabled(m: &Machine, _t: Tid, args: &[Value]) -> bool {
    m.sync.rwlocks.get(&ptr(args, 0)).is_none_or(|l| l.writer.is_none())
}

fn wr_enabled(m: &Machine, _t: Tid, args: &[Value]) -> bool {
    m.sync.rwlocks.get(&ptr(args, 0)).is_none_or(|l| l.writer.is_none() && l.readers.is_empty())
}

/// What a blocked rdlock or wrlock waits for, and the holder it waits on:
/// the writer, else a reader other than itself (a thread that asks for the
/// write lock while it reads, with other readers: it waits on them too).
fn waits(m: &Machine, t: Tid, args: &[Value]) -> (String, Option<Tid>) {
    let a = ptr(args, 0);
    let what = format!("waits for rwlock {}", m.describe(a));
    let Some(l) = m.sync.rwlocks.get(&a) else { return (what, None) };
    if let Some(w) = l.writer {
        let held = crate::shims::with_holder(m, t, what, Some(w));
        return (format!("{held} (for writing)"), Some(w));
    }
    let mut readers: Vec<Tid> = l.readers.clone();
    readers.dedup();
    let holder = readers.iter().copied().find(|r| *r != t).or(readers.first().copied());
    let text = match readers.as_slice() {
        [] => what,
        [r] => format!("{} (for reading)", crate::shims::with_holder(m, t, what, Some(*r))),
        many => {
            let names: Vec<String> = many
                .iter()
                .map(|r| match *r == t {
                    true => format!("{} (itself)", m.names[*r as usize]),
                    false => m.names[*r as usize].to_string(),
                })
                .collect();
            format!("{what}, held for reading by threads {}", listed(&names))
        }
    };
    (text, holder)
}

/// "a", "a and b", "a, b and c".
fn listed(names: &[String]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

fn rd(m: &mut Machine, c: &Call<'_>, try_: bool) -> Result<Ret, Stop> {
    super::mutex::not_destroyed(m, c.ptr(0), "rwlock")?;
    let l = m.sync.rwlocks.entry(c.ptr(0)).or_default();
    if l.writer.is_some() {
        if try_ {
            mark_failed(m);
            m.note_try(c.t, false)?;
            return ret_i32(EBUSY);
        }
        return Err(Stop::pthread("rdlock granted while a writer holds the lock (internal)"));
    }
    l.readers.push(c.t);
    if try_ {
        mark_try(m);
        m.note_try(c.t, true)?;
    }
    ret_i32(0)
}

fn wr(m: &mut Machine, c: &Call<'_>, try_: bool) -> Result<Ret, Stop> {
    super::mutex::not_destroyed(m, c.ptr(0), "rwlock")?;
    let l = m.sync.rwlocks.entry(c.ptr(0)).or_default();
    if l.writer.is_some() || !l.readers.is_empty() {
        if try_ {
            mark_failed(m);
            m.note_try(c.t, false)?;
            return ret_i32(EBUSY);
        }
        return Err(Stop::pthread("wrlock granted while the lock is held (internal)"));
    }
    l.writer = Some(c.t);
    if try_ {
        mark_try(m);
        m.note_try(c.t, true)?;
    }
    ret_i32(0)
}

fn unlock(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    super::mutex::not_destroyed(m, c.ptr(0), "rwlock")?;
    let l = m.sync.rwlocks.entry(c.ptr(0)).or_default();
    if l.writer == Some(c.t) {
        l.writer = None;
    } else if let Some(i) = l.readers.iter().position(|x| *x == c.t) {
        l.readers.remove(i);
    } else {
        return Err(Stop::pthread(format!(
            "pthread_rwlock_unlock of rwlock {} by thread {}, which does not hold it",
            m.describe(c.ptr(0)),
            m.names[c.t as usize]
        )));
    }
    ret_i32(0)
}
