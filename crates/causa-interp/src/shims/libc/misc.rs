//! Process control, assertions, pseudo-random numbers, sleeping and errno.

use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, ret_u64, Call, Registry, Ret};
use causa_core::{BugKind, EventKind};
use causa_ir::Value;

pub fn register(r: &mut Registry) {
    r.visible("libc", "exit", EventKind::Exit, exit);
    r.visible("libc", "_exit", EventKind::Exit, exit);
    r.visible("libc", "_Exit", EventKind::Exit, exit);
    r.add("libc", "abort", |_, _| Err(Stop::bug(BugKind::Abort, "abort() was called")));
    r.add("libc", "__assert_fail", assert_fail);
    r.add("libc", "__assert", assert_fail);
    r.add("libc", "rand", |m, _| ret_i32(next_rand(m)));
    r.add("libc", "random", |m, _| ret_u64(next_rand(m) as u64));
    r.add("libc", "srand", |m, c| {
        m.rand_state = c.int(0) as u64;
        Ok(Ret::Value(Value::ZERO))
    });
    r.add("libc", "srandom", |m, c| {
        m.rand_state = c.int(0) as u64;
        Ok(Ret::Value(Value::ZERO))
    });
    r.add("libc", "abs", |_, c| ret_i32(c.i32(0).wrapping_abs()));
    r.add("libc", "labs", |_, c| ret_u64((c.int(0) as u64 as i64).wrapping_abs() as u64));
    r.add("libc", "llabs", |_, c| ret_u64((c.int(0) as u64 as i64).wrapping_abs() as u64));
    r.visible("libc", "sleep", EventKind::Sleep, |_, _| ret_i32(0));
    r.visible("libc", "usleep", EventKind::Sleep, |_, _| ret_i32(0));
    r.visible("libc", "nanosleep", EventKind::Sleep, |_, _| ret_i32(0));
    r.add("libc", "time", |m, c| {
        if c.ptr(0) != 0 {
            m.store(c.ptr(0), &m.ptr_ty(), &Value::ZERO)?;
        }
        ret_u64(0)
    });
    r.add("libc", "getpid", |_, _| ret_i32(4242));
    r.add("libc", "__errno_location", errno_location);
}

/// End the program; the `exit` event carries the status (like main's return).
fn exit(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    if let Some(e) = m.events.last_mut() {
        e.addr = 0;
        e.value = c.i32(0) as u32 as u128;
        e.size = 4;
    }
    Err(Stop::Exit(c.i32(0)))
}

fn assert_fail(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let text =
        |p: u64| m.mem.read_cstr(p, Some(256), &|_| String::new()).map(|b| String::from_utf8_lossy(&b).into_owned());
    let expr = text(c.ptr(0)).unwrap_or_else(|_| "?".into());
    let func = text(c.ptr(3)).unwrap_or_default();
    let msg = if func.is_empty() {
        format!("assertion `{expr}` failed")
    } else {
        format!("assertion `{expr}` failed in {func}")
    };
    Err(Stop::bug(BugKind::AssertionViolation, msg))
}

/// glibc's `rand()` TYPE_0 generator: deterministic per execution, seed 1 by default.
fn next_rand(m: &mut Machine) -> i32 {
    m.rand_state = m.rand_state.wrapping_mul(1103515245).wrapping_add(12345) & 0x7fff_ffff;
    m.rand_state as i32
}

/// Each thread gets its own `errno` object, created on first use.
fn errno_location(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let key = u32::MAX - 1;
    let th = &m.threads[c.t as usize];
    if let Some((_, v)) = th.specific.iter().find(|(k, _)| *k == key) {
        return ret_u64(*v);
    }
    let addr = m.mem.alloc_heap(4, causa_ir::NONE, "errno");
    m.threads[c.t as usize].specific.push((key, addr));
    ret_u64(addr)
}
