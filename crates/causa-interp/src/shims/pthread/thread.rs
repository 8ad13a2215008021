//! pthread_create/join/exit/self/equal/detach, thread attributes and sched_yield.
//! A `pthread_t` holds `Tid + 1`, so 0 is never a valid thread.
//!
//! causa lays out the `pthread_attr_t` objects that `pthread_attr_init` zeroes:
//! the detach state is the `int` at offset 0, the stack size the `size_t` at the
//! next word (0: the default, 8 MiB).

use super::{EDEADLK, EINVAL, ESRCH};
use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, ret_u64, Call, Registry, Ret};
use causa_core::{EventKind, Tid};
use causa_ir::{Ty, Value};

pub fn register(r: &mut Registry) {
    r.visible("pthread", "pthread_create", EventKind::Fork, create);
    r.visible("pthread", "pthread_join", EventKind::Join, join).enabled_when(join_enabled, join_waits);
    r.add("pthread", "pthread_exit", exit);
    r.add("pthread", "pthread_self", |_, c| ret_u64(c.t as u64 + 1));
    r.add("pthread", "pthread_equal", |_, c| ret_i32((c.int(0) == c.int(1)) as i32));
    r.add("pthread", "pthread_detach", detach);
    r.visible("pthread", "sched_yield", EventKind::Yield, |_, _| ret_i32(0));
    r.visible("pthread", "pthread_yield", EventKind::Yield, |_, _| ret_i32(0));
    r.add("pthread", "pthread_attr_init", |m, c| {
        let size = if m.program().space.layout.ptr_bytes == 4 { 36 } else { 56 };
        m.write_bytes(c.ptr(0), &vec![0; size])?;
        ret_i32(0)
    });
    r.add("pthread", "pthread_attr_destroy", |_, _| ret_i32(0));
    r.add("pthread", "pthread_attr_setdetachstate", |m, c| {
        if !matches!(c.i32(1), JOINABLE | DETACHED) {
            return ret_i32(EINVAL);
        }
        m.store(c.ptr(0), &Ty::Int(32), &Value::Int(c.int(1)))?;
        ret_i32(0)
    });
    r.add("pthread", "pthread_attr_getdetachstate", |m, c| {
        let v = m.load(c.ptr(0), &Ty::Int(32))?;
        m.store(c.ptr(1), &Ty::Int(32), &v)?;
        ret_i32(0)
    });
    r.add("pthread", "pthread_attr_setstacksize", |m, c| {
        if (c.int(1) as u64) < STACK_MIN {
            return ret_i32(EINVAL);
        }
        let word = m.program().space.layout.ptr_bytes;
        m.store(c.ptr(0) + word, &m.ptr_ty(), &Value::Int(c.int(1)))?;
        ret_i32(0)
    });
    r.add("pthread", "pthread_attr_getstacksize", |m, c| {
        let word = m.program().space.layout.ptr_bytes;
        let size = match m.load(c.ptr(0) + word, &m.ptr_ty())?.as_int() {
            0 => DEFAULT_STACK,
            n => n as u64,
        };
        m.store(c.ptr(1), &m.ptr_ty(), &Value::Int(size as u128))?;
        ret_i32(0)
    });
}

/// `PTHREAD_CREATE_JOINABLE` and `PTHREAD_CREATE_DETACHED`.
const JOINABLE: i32 = 0;
const DETACHED: i32 = 1;
/// glibc's default stack size (the usual `ulimit -s`) and `PTHREAD_STACK_MIN`.
const DEFAULT_STACK: u64 = 8 << 20;
const STACK_MIN: u64 = 16384;

/// The thread a `pthread_t` value designates.
pub fn target(m: &Machine, v: u128) -> Option<Tid> {
    let t = (v as u64).checked_sub(1)?;
    (t < m.threads.len() as u64).then_some(t as Tid)
}

fn create(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let Some(func) = m.program().function_at(c.ptr(2)) else {
        return Err(Stop::pthread(format!("pthread_create with an invalid start routine ({})", m.describe(c.ptr(2)))));
    };
    if m.program().functions[func as usize].body.is_none() {
        return Err(Stop::unsupported(format!(
            "thread start routine `{}` is an external function",
            m.program().functions[func as usize].name
        )));
    }
    let detached = c.ptr(1) != 0 && m.load(c.ptr(1), &Ty::Int(32))?.as_int() as i32 == DETACHED;
    let arg = c.args.get(3).cloned().unwrap_or(Value::ZERO);
    m.mem.escape(arg.as_addr());
    let child = m.spawn(c.t, func, arg);
    m.threads[child as usize].detached = detached;
    // pthread_t is an unsigned long: pointer-sized.
    m.store(c.ptr(0), &m.ptr_ty(), &Value::Int(child as u128 + 1))?;
    if let Some(e) = m.events.last_mut() {
        e.addr = child as u64;
    }
    ret_i32(0)
}

fn join_enabled(m: &Machine, t: Tid, args: &[Value]) -> bool {
    match target(m, crate::shims::arg(args, 0)) {
        Some(x) if x != t => m.threads[x as usize].is_finished(),
        _ => true, // invalid joins are reported by the handler
    }
}

fn join_waits(m: &Machine, _t: Tid, args: &[Value]) -> (String, Option<Tid>) {
    match target(m, crate::shims::arg(args, 0)) {
        Some(x) => (format!("waits in pthread_join for thread {} to finish", m.names[x as usize]), Some(x)),
        None => ("waits in pthread_join".into(), None),
    }
}

fn join(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let Some(x) = target(m, c.int(0)) else {
        return Err(Stop::pthread(format!("pthread_join of an invalid thread id {:#x}", c.int(0))));
    };
    if x == c.t {
        return ret_i32(EDEADLK);
    }
    if m.threads[x as usize].detached {
        return Err(Stop::pthread(format!("pthread_join of detached thread {}", m.names[x as usize])));
    }
    if m.threads[x as usize].joined {
        return Err(Stop::pthread(format!("thread {} is joined twice", m.names[x as usize])));
    }
    m.threads[x as usize].joined = true;
    if let Some(e) = m.events.last_mut() {
        e.addr = x as u64;
    }
    if c.ptr(1) != 0 {
        let rv = m.threads[x as usize].retval;
        m.store(c.ptr(1), &m.ptr_ty(), &Value::Int(rv as u128))?;
    }
    ret_i32(0)
}

fn exit(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let frames = std::mem::take(&mut m.threads[c.t as usize].frames);
    for f in &frames {
        m.end_frame(c.t, &f.allocas, crate::memory::Life::Exited);
    }
    // For main too: main ends and the program goes on until the other threads end.
    m.thread_returned(c.t, c.ptr(0))?;
    // Its key destructors run first, in this step.
    if m.threads[c.t as usize].frames.is_empty() {
        Ok(Ret::Ended)
    } else {
        Ok(Ret::Pushed)
    }
}

fn detach(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    match target(m, c.int(0)) {
        Some(x) if m.threads[x as usize].detached => ret_i32(EINVAL),
        Some(x) => {
            m.threads[x as usize].detached = true;
            ret_i32(0)
        }
        None => ret_i32(ESRCH),
    }
}
