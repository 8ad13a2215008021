//! Formatted and plain output: printf family, puts, putchar and friends.
//! Output goes to the machine's stdout/stderr (captured or passed through).

use super::file::stream_fd;
use super::format::{format_c, ArgClass, FmtArg, FormatError};
use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, Call, Registry, Ret};
use causa_core::BugKind;
use causa_ir::Value;

pub fn register(r: &mut Registry) {
    r.add("stdio", "printf", |m, c| print_to(m, c, 1, 0));
    r.add("stdio", "fprintf", |m, c| {
        let fd = stream_fd(m, c.ptr(0))?;
        print_to(m, c, fd, 1)
    });
    r.add("stdio", "sprintf", |m, c| format_into(m, c, None, 1));
    r.add("stdio", "snprintf", |m, c| format_into(m, c, Some(c.int(1) as usize), 2));
    r.add("stdio", "puts", |m, c| {
        let mut s = cstr(m, c.ptr(0))?;
        s.push(b'\n');
        m.output(1, &s);
        ret_i32(s.len() as i32)
    });
    r.add("stdio", "fputs", |m, c| {
        let fd = stream_fd(m, c.ptr(1))?;
        let s = cstr(m, c.ptr(0))?;
        m.output(fd, &s);
        ret_i32(1)
    });
    r.add("stdio", "putchar", |m, c| {
        m.output(1, &[c.int(0) as u8]);
        ret_i32(c.int(0) as u8 as i32)
    });
    for name in ["fputc", "putc"] {
        r.add("stdio", name, |m, c| {
            let fd = stream_fd(m, c.ptr(1))?;
            m.output(fd, &[c.int(0) as u8]);
            ret_i32(c.int(0) as u8 as i32)
        });
    }
    r.add("stdio", "fflush", |_, _| ret_i32(0));
    r.add("stdio", "setvbuf", |_, _| ret_i32(0));
    r.add("stdio", "perror", |m, c| {
        let mut s = if c.ptr(0) != 0 { cstr(m, c.ptr(0))? } else { Vec::new() };
        s.extend_from_slice(b": error\n");
        m.output(2, &s);
        Ok(Ret::Value(Value::ZERO))
    });
}

/// The bytes of the C string at `p`.
pub fn cstr(m: &Machine, p: u64) -> Result<Vec<u8>, Stop> {
    Ok(m.mem.read_cstr(p, None, &|x| m.describe(x))?)
}

/// Format with the format string at argument `fmt_at`, arguments after it.
pub fn format(m: &Machine, c: &Call<'_>, fmt_at: usize) -> Result<Vec<u8>, Stop> {
    let fmt = cstr(m, c.ptr(fmt_at))?;
    let mut next = fmt_at + 1;
    let args = c.args;
    let mut next_arg = |class: ArgClass| -> Result<FmtArg, FormatError> {
        let Some(v) = args.get(next) else {
            return Err(FormatError::MissingArgument { index: next - fmt_at - 1 });
        };
        next += 1;
        Ok(match (class, v) {
            (ArgClass::Float, v) => FmtArg::Float(v.as_f64()),
            (ArgClass::Ptr | ArgClass::Str, v) => FmtArg::Ptr(v.as_addr()),
            (_, Value::F32(f)) => FmtArg::Float(*f as f64),
            (_, Value::F64(f)) => FmtArg::Float(*f),
            (_, v) => FmtArg::Int(v.as_int()),
        })
    };
    let mut read_str = |p: u64, max: Option<usize>| m.mem.read_cstr(p, max, &|x| m.describe(x)).map_err(|e| e.0);
    format_c(&fmt, &mut next_arg, &mut read_str).map_err(|e| match e {
        FormatError::MissingArgument { .. } => Stop::bug(
            BugKind::MemoryError,
            format!("{}: the format string reads more arguments than were passed", c.name),
        ),
        FormatError::BadString { message, .. } => Stop::bug(BugKind::MemoryError, format!("{}: {message}", c.name)),
        other => Stop::unsupported(format!("{} format: {other}", c.name)),
    })
}

fn print_to(m: &mut Machine, c: &Call<'_>, fd: i32, fmt_at: usize) -> Result<Ret, Stop> {
    let out = format(m, c, fmt_at)?;
    m.output(fd, &out);
    ret_i32(out.len() as i32)
}

fn format_into(m: &mut Machine, c: &Call<'_>, limit: Option<usize>, fmt_at: usize) -> Result<Ret, Stop> {
    let mut out = format(m, c, fmt_at)?;
    let full = out.len();
    if let Some(n) = limit {
        if n == 0 {
            return ret_i32(full as i32);
        }
        out.truncate(n - 1);
    }
    out.push(0);
    m.write_bytes(c.ptr(0), &out)?;
    ret_i32(full as i32)
}
