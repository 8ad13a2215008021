//! Process control, assertions, pseudo-random numbers, sleeping, errno, the
//! environment and the clock.
//!
//! Everything here is deterministic: the environment is empty (`getenv` returns
//! NULL), and time comes from a virtual clock that advances 1 µs per visible
//! step of the execution (`time` stays at 0).

use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, ret_u64, Call, Registry, Ret};
use causa_core::{BugKind, EventKind, Tid};
use causa_ir::{Ty, Value};

/// errno values (Linux).
pub const EPERM: i32 = 1;
pub const ENOENT: i32 = 2;
pub const EINTR: i32 = 4;
pub const EBADF: i32 = 9;
pub const EAGAIN: i32 = 11;
pub const ENOMEM: i32 = 12;
pub const EBUSY: i32 = 16;
pub const EINVAL: i32 = 22;
pub const ERANGE: i32 = 34;
pub const EDEADLK: i32 = 35;
pub const ETIMEDOUT: i32 = 110;

/// glibc's messages for the errno values causa's shims produce.
const MESSAGES: [(i32, &str); 12] = [
    (0, "Success"),
    (EPERM, "Operation not permitted"),
    (ENOENT, "No such file or directory"),
    (EINTR, "Interrupted system call"),
    (EBADF, "Bad file descriptor"),
    (EAGAIN, "Resource temporarily unavailable"),
    (ENOMEM, "Cannot allocate memory"),
    (EBUSY, "Device or resource busy"),
    (EINVAL, "Invalid argument"),
    (ERANGE, "Numerical result out of range"),
    (EDEADLK, "Resource deadlock avoided"),
    (ETIMEDOUT, "Connection timed out"),
];

/// `specific` keys of the per-thread cells kept here (pthread keys count up from 0;
/// `u32::MAX - 2` is the ctype table).
const ERRNO_KEY: u32 = u32::MAX - 1;
/// The strerror texts, allocated once per execution (kept by the main thread).
const STRERROR_KEY: u32 = u32::MAX - 3;
/// A thread's buffer for "Unknown error N" (overwritten by the next call, like glibc's).
const UNKNOWN_ERROR_KEY: u32 = u32::MAX - 4;
const UNKNOWN_ERROR_LEN: u64 = 32;

/// The virtual clock: 1 µs per visible step so far.
fn now_ns(m: &Machine) -> u64 {
    1000 * m.steps.len() as u64
}

/// Thread `t` reads the virtual clock (noted in its recorded path; the
/// recorded run's value when following one).
fn read_clock(m: &mut Machine, t: Tid) -> Result<u64, Stop> {
    let ns = now_ns(m);
    m.note_value(t, ns)
}

pub fn register(r: &mut Registry) {
    r.visible("libc", "exit", EventKind::Exit, exit);
    r.visible("libc", "_exit", EventKind::Exit, exit);
    r.visible("libc", "_Exit", EventKind::Exit, exit);
    r.add("libc", "abort", |_, _| Err(Stop::bug(BugKind::Abort, "abort() was called")));
    r.add("libc", "__assert_fail", assert_fail);
    r.add("libc", "__assert", assert_fail);
    r.add("libc", "rand", |m, c| ret_i32(draw(m, c.t)? as i32));
    r.add("libc", "random", |m, c| ret_u64(draw(m, c.t)?));
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
    r.add("libc", "__errno_location", |m, c| ret_u64(errno_cell(m, c.t)));
    r.add("libc", "strerror", |m, c| ret_u64(strerror_at(m, c.t, c.i32(0))?));
    // The environment is empty: deterministic, whatever the host's is.
    r.add("libc", "getenv", |_, _| ret_u64(0));
    r.add("libc", "rand_r", rand_r);
    r.add("libc", "clock_gettime", clock_gettime);
    r.add("libc", "gettimeofday", gettimeofday);
    // CPU time in CLOCKS_PER_SEC (10^6) units: the virtual clock's microseconds.
    r.add("libc", "clock", |m, c| ret_u64(read_clock(m, c.t)? / 1000));
    r.add("libc", "sysconf", sysconf);
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
    let text = |p: u64| {
        m.mem.read_cstr(p, Some(256), &crate::memory::Unnamed).map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    let expr = text(c.ptr(0)).unwrap_or_else(|_| "?".into());
    let func = text(c.ptr(3)).unwrap_or_default();
    let msg = if func.is_empty() {
        format!("assertion `{expr}` failed")
    } else {
        format!("assertion `{expr}` failed in {func}")
    };
    Err(Stop::bug(BugKind::AssertionViolation, msg))
}

/// Thread `t`'s next pseudo-random number (noted in its recorded path; the
/// recorded run's when following one).
fn draw(m: &mut Machine, t: Tid) -> Result<u64, Stop> {
    let v = next_rand(m) as u64;
    m.note_value(t, v)
}

/// glibc's `rand()` TYPE_0 generator: deterministic per execution, seed 1 by default.
fn next_rand(m: &mut Machine) -> i32 {
    m.rand_state = m.rand_state.wrapping_mul(1103515245).wrapping_add(12345) & 0x7fff_ffff;
    m.rand_state as i32
}

/// The address of thread `t`'s `errno` object, created (as 0) on first use.
pub fn errno_cell(m: &mut Machine, t: Tid) -> u64 {
    if let Some((_, v)) = m.threads[t as usize].specific.iter().find(|(k, _)| *k == ERRNO_KEY) {
        return *v;
    }
    let addr = m.mem.alloc_heap(4, causa_ir::NONE, "errno", t);
    // Each thread's errno is its own: accesses to it are not visible operations.
    m.mem.make_private(addr);
    m.threads[t as usize].specific.push((ERRNO_KEY, addr));
    addr
}

/// Set thread `t`'s `errno` (what `*__errno_location()` reads).
pub fn set_errno(m: &mut Machine, t: Tid, code: i32) -> Result<(), Stop> {
    let cell = errno_cell(m, t);
    m.store(cell, &Ty::Int(32), &Value::Int(code as u32 as u128))
}

/// Thread `t`'s current `errno`.
pub fn errno(m: &mut Machine, t: Tid) -> Result<i32, Stop> {
    let cell = errno_cell(m, t);
    Ok(m.load(cell, &Ty::Int(32))?.as_int() as u32 as i32)
}

/// glibc's `strerror` text for `code`.
pub fn error_message(code: i32) -> String {
    match MESSAGES.iter().find(|(c, _)| *c == code) {
        Some((_, text)) => (*text).to_string(),
        None => format!("Unknown error {code}"),
    }
}

/// The address of the C string `strerror(code)` returns for thread `t`: a fixed
/// text for the known codes (one block per execution), else the thread's buffer.
pub fn strerror_at(m: &mut Machine, t: Tid, code: i32) -> Result<u64, Stop> {
    if let Some(i) = MESSAGES.iter().position(|(c, _)| *c == code) {
        let offset: usize = MESSAGES[..i].iter().map(|(_, text)| text.len() + 1).sum();
        let base = match m.threads[0].specific.iter().find(|(k, _)| *k == STRERROR_KEY) {
            Some((_, v)) => *v,
            None => {
                let mut texts = Vec::new();
                for (_, text) in MESSAGES {
                    texts.extend_from_slice(text.as_bytes());
                    texts.push(0);
                }
                let base = m.mem.alloc_heap(texts.len() as u64, causa_ir::NONE, "strerror", 0);
                m.write_bytes(base, &texts)?;
                m.threads[0].specific.push((STRERROR_KEY, base));
                base
            }
        };
        return Ok(base + offset as u64);
    }
    let buf = match m.threads[t as usize].specific.iter().find(|(k, _)| *k == UNKNOWN_ERROR_KEY) {
        Some((_, v)) => *v,
        None => {
            let buf = m.mem.alloc_heap(UNKNOWN_ERROR_LEN, causa_ir::NONE, "strerror", t);
            m.threads[t as usize].specific.push((UNKNOWN_ERROR_KEY, buf));
            buf
        }
    };
    let mut text = error_message(code).into_bytes();
    text.push(0);
    m.write_bytes(buf, &text)?;
    Ok(buf)
}

/// glibc's `rand_r`: three steps of the LCG, 11 + 10 + 10 bits.
fn rand_r(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let mut next = m.load(c.ptr(0), &Ty::Int(32))?.as_int() as u32;
    let mut step = |bits: u32| {
        next = next.wrapping_mul(1103515245).wrapping_add(12345);
        (next / 65536) % (1 << bits)
    };
    let mut result = step(11);
    result = (result << 10) ^ step(10);
    result = (result << 10) ^ step(10);
    m.store(c.ptr(0), &Ty::Int(32), &Value::Int(next as u128))?;
    ret_i32(result as i32)
}

/// Write `(seconds, fraction)` as two `long`s (`time_t` and `long`/`suseconds_t`).
fn write_time(m: &mut Machine, at: u64, secs: u64, frac: u64) -> Result<(), Stop> {
    let (ty, word) = (m.ptr_ty(), m.program().space.layout.ptr_bytes);
    m.store(at, &ty, &Value::Int(secs as u128))?;
    m.store(at + word, &ty, &Value::Int(frac as u128))
}

/// `clock_gettime(clk, ts)`: every clock reads the virtual clock.
fn clock_gettime(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    // CLOCK_REALTIME … CLOCK_BOOTTIME, and the *_ALARM and TAI clocks.
    if !matches!(c.i32(0), 0..=11) {
        set_errno(m, c.t, EINVAL)?;
        return ret_i32(-1);
    }
    let ns = read_clock(m, c.t)?;
    write_time(m, c.ptr(1), ns / 1_000_000_000, ns % 1_000_000_000)?;
    ret_i32(0)
}

/// `gettimeofday(tv, tz)`: the virtual clock; the time zone is UTC.
fn gettimeofday(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let us = read_clock(m, c.t)? / 1000;
    if c.ptr(0) != 0 {
        write_time(m, c.ptr(0), us / 1_000_000, us % 1_000_000)?;
    }
    if c.ptr(1) != 0 {
        m.write_bytes(c.ptr(1), &[0; 8])?; // struct timezone: two ints
    }
    ret_i32(0)
}

/// `sysconf(name)`: two processors, 4 KiB pages; other names are not modelled
/// and fail with EINVAL.
fn sysconf(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    const SC_PAGESIZE: i32 = 30;
    const SC_NPROCESSORS_CONF: i32 = 83;
    const SC_NPROCESSORS_ONLN: i32 = 84;
    match c.i32(0) {
        SC_NPROCESSORS_CONF | SC_NPROCESSORS_ONLN => ret_u64(2),
        SC_PAGESIZE => ret_u64(4096),
        _ => {
            set_errno(m, c.t, EINVAL)?;
            ret_u64(u64::MAX)
        }
    }
}
