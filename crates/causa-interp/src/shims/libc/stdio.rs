//! Formatted and plain output: printf family (also the `va_list` forms), puts,
//! putchar, fwrite and friends. Output goes to the machine's stdout/stderr
//! (captured or passed through); only those two streams can be written.

use super::file::stream_fd;
use super::format::{format_c, ArgClass, FmtArg, FormatError};
use super::misc::{errno, error_message};
use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, ret_u64, Call, Registry, Ret};
use causa_core::{BugKind, EventKind};
use causa_ir::Value;

pub fn register(r: &mut Registry) {
    r.add("stdio", "printf", |m, c| {
        let out = format(m, c, 0)?;
        print_to(m, 1, out)
    });
    r.add("stdio", "fprintf", |m, c| {
        let fd = out_fd(m, c.ptr(0))?;
        let out = format(m, c, 1)?;
        print_to(m, fd, out)
    });
    r.visible_if_shared("stdio", "sprintf", EventKind::Write, &[0], |m, c| {
        let out = format(m, c, 1)?;
        format_into(m, c, None, out)
    });
    r.visible_if_shared("stdio", "snprintf", EventKind::Write, &[0], |m, c| {
        let out = format(m, c, 2)?;
        format_into(m, c, Some(c.int(1) as usize), out)
    });
    r.add("stdio", "vprintf", |m, c| {
        let out = vformat(m, c, 0)?;
        print_to(m, 1, out)
    });
    r.add("stdio", "vfprintf", |m, c| {
        let fd = out_fd(m, c.ptr(0))?;
        let out = vformat(m, c, 1)?;
        print_to(m, fd, out)
    });
    r.visible_if_shared("stdio", "vsprintf", EventKind::Write, &[0], |m, c| {
        let out = vformat(m, c, 1)?;
        format_into(m, c, None, out)
    });
    r.visible_if_shared("stdio", "vsnprintf", EventKind::Write, &[0], |m, c| {
        let out = vformat(m, c, 2)?;
        format_into(m, c, Some(c.int(1) as usize), out)
    });
    r.add("stdio", "fwrite", |m, c| {
        let fd = out_fd(m, c.ptr(3))?;
        let (size, n) = (c.int(1) as u64, c.int(2) as u64);
        let Some(total) = size.checked_mul(n).filter(|t| *t > 0) else {
            return ret_u64(0);
        };
        let data = m.read_bytes(c.ptr(0), total)?;
        m.output(fd, &data);
        ret_u64(n)
    });
    r.add("stdio", "getchar", |_, _| Err(Stop::unsupported("reading standard input")));
    r.add("stdio", "puts", |m, c| {
        let mut s = cstr(m, c.ptr(0))?;
        s.push(b'\n');
        m.output(1, &s);
        ret_i32(s.len() as i32)
    });
    r.add("stdio", "fputs", |m, c| {
        let fd = out_fd(m, c.ptr(1))?;
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
            let fd = out_fd(m, c.ptr(1))?;
            m.output(fd, &[c.int(0) as u8]);
            ret_i32(c.int(0) as u8 as i32)
        });
    }
    r.add("stdio", "fflush", |_, _| ret_i32(0));
    r.add("stdio", "setvbuf", |_, _| ret_i32(0));
    r.add("stdio", "perror", |m, c| {
        let code = errno(m, c.t)?;
        let mut s = if c.ptr(0) != 0 { cstr(m, c.ptr(0))? } else { Vec::new() };
        if !s.is_empty() {
            s.extend_from_slice(b": ");
        }
        s.extend_from_slice(error_message(code).as_bytes());
        s.push(b'\n');
        m.output(2, &s);
        Ok(Ret::Value(Value::ZERO))
    });
}

/// The bytes of the C string at `p`.
pub fn cstr(m: &Machine, p: u64) -> Result<Vec<u8>, Stop> {
    cstr_upto(m, p, None)
}

/// The C string at `p`, at most `bound` bytes of it (without its NUL).
pub fn cstr_upto(m: &Machine, p: u64, bound: Option<usize>) -> Result<Vec<u8>, Stop> {
    Ok(m.mem.read_cstr(p, bound, m)?)
}

/// The descriptor of a stream the program writes to: stdout or stderr.
fn out_fd(m: &Machine, stream: u64) -> Result<i32, Stop> {
    match stream_fd(m, stream)? {
        0 => Err(Stop::unsupported("writing to standard input")),
        fd => Ok(fd),
    }
}

/// Format with the format string at argument `fmt_at`, arguments after it.
pub fn format(m: &Machine, c: &Call<'_>, fmt_at: usize) -> Result<Vec<u8>, Stop> {
    let mut next = fmt_at + 1;
    let args = c.args;
    let mut slots = ilp32_slots(m, c.ptr(fmt_at))?;
    let mut next_arg = |class: ArgClass| -> Result<FmtArg, FormatError> {
        let Some(v) = args.get(next) else {
            return Err(FormatError::MissingArgument { index: next - fmt_at - 1 });
        };
        next += 1;
        let slot = slots.as_mut().and_then(|s| s.next());
        Ok(match (class, v) {
            (ArgClass::Float, v) => FmtArg::Float(v.as_f64()),
            (ArgClass::Ptr | ArgClass::Str, v) => FmtArg::Ptr(v.as_addr()),
            (_, Value::F32(f)) => FmtArg::Float(*f as f64),
            (_, Value::F64(f)) => FmtArg::Float(*f),
            (_, v) => FmtArg::Int(slot.map_or(v.as_int(), |s| s.extend(v.as_int() as u64) as u128)),
        })
    };
    format_with(m, c.name, c.ptr(fmt_at), &mut next_arg)
}

/// Format with the format string at argument `fmt_at` and the `va_list` after
/// it, then leave the `va_list` where clang's `va_arg` would have left it.
fn vformat(m: &mut Machine, c: &Call<'_>, fmt_at: usize) -> Result<Vec<u8>, Stop> {
    let mut va = VaList::open(m, c.ptr(fmt_at + 1), ilp32_slots(m, c.ptr(fmt_at))?)?;
    let m_ref: &Machine = m;
    let mut next_arg = |class: ArgClass| va.next(m_ref, class);
    let out = format_with(m_ref, c.name, c.ptr(fmt_at), &mut next_arg)?;
    va.close(m)?;
    Ok(out)
}

/// Format the format string at `fmt`, pulling arguments through `next_arg`.
fn format_with(
    m: &Machine,
    name: &str,
    fmt: u64,
    next_arg: &mut dyn FnMut(ArgClass) -> Result<FmtArg, FormatError>,
) -> Result<Vec<u8>, Stop> {
    let fmt = cstr(m, fmt)?;
    let mut read_str = |p: u64, max: Option<usize>| m.mem.read_cstr(p, max, m).map_err(|e| e.message);
    format_c(&fmt, next_arg, &mut read_str).map_err(|e| match e {
        FormatError::MissingArgument { .. } => {
            Stop::bug(BugKind::MemoryError, format!("{name}: the format string reads more arguments than were passed"))
        }
        FormatError::BadString { message, .. } => Stop::bug(BugKind::MemoryError, format!("{name}: {message}")),
        other => Stop::unsupported(format!("{name} format: {other}")),
    })
}

/// A `va_list` as causa's `va_start` builds it, read like clang's `va_arg`.
///
/// x86-64: the argument points to `{gp_offset, fp_offset, overflow_arg_area,
/// reg_save_area}`; integers come from the register save area while
/// `gp_offset < 48`, doubles while `fp_offset < 176`, everything else from the
/// overflow area in 8-byte slots. i386: the argument is the area itself, with
/// 4-byte slots (8 for `long long` and `double`); it is passed by value, so the
/// caller's copy does not move.
struct VaList {
    /// Address of the x86-64 `va_list` struct (0 on i386).
    list: u64,
    gp: u32,
    fp: u32,
    overflow: u64,
    reg_save: u64,
    /// i386: the slot of each argument the format string reads, in order.
    slots: Option<std::vec::IntoIter<Slot>>,
}

impl VaList {
    fn open(m: &Machine, ap: u64, slots: Option<std::vec::IntoIter<Slot>>) -> Result<VaList, Stop> {
        if slots.is_some() {
            return Ok(VaList { list: 0, gp: 48, fp: 304, overflow: ap, reg_save: 0, slots });
        }
        let raw = m.read_bytes(ap, 24)?;
        let word = |i: usize| u64::from_le_bytes(raw[i..i + 8].try_into().expect("8 bytes"));
        let half = |i: usize| u32::from_le_bytes(raw[i..i + 4].try_into().expect("4 bytes"));
        Ok(VaList { list: ap, gp: half(0), fp: half(4), overflow: word(8), reg_save: word(16), slots: None })
    }

    /// The next argument, of the class the formatter asks for.
    fn next(&mut self, m: &Machine, class: ArgClass) -> Result<FmtArg, FormatError> {
        let float = class == ArgClass::Float;
        let x86_64 = self.slots.is_none();
        let slot = self.slots.as_mut().map(|s| s.next().unwrap_or(Slot { bytes: 4, signed: false }));
        let (at, len) = if float && x86_64 && self.fp < 176 {
            self.fp += 16;
            (self.reg_save + (self.fp - 16) as u64, 8)
        } else if !float && x86_64 && self.gp < 48 {
            self.gp += 8;
            (self.reg_save + (self.gp - 8) as u64, 8)
        } else {
            let len = slot.map_or(8, |s| s.bytes);
            self.overflow += len;
            (self.overflow - len, len)
        };
        let bytes = m.read_bytes(at, len).map_err(|_| FormatError::MissingArgument { index: 0 })?;
        let mut raw = [0u8; 8];
        raw[..len as usize].copy_from_slice(&bytes);
        let raw = slot.map_or(u64::from_le_bytes(raw), |s| s.extend(u64::from_le_bytes(raw)));
        Ok(match class {
            ArgClass::Float => FmtArg::Float(f64::from_bits(raw)),
            ArgClass::Ptr | ArgClass::Str => FmtArg::Ptr(raw),
            ArgClass::Int { .. } | ArgClass::Char => FmtArg::Int(raw as u128),
        })
    }

    /// Store the advanced offsets and overflow pointer back (x86-64).
    fn close(&self, m: &mut Machine) -> Result<(), Stop> {
        if self.list == 0 {
            return Ok(());
        }
        let mut raw = Vec::with_capacity(16);
        raw.extend_from_slice(&self.gp.to_le_bytes());
        raw.extend_from_slice(&self.fp.to_le_bytes());
        raw.extend_from_slice(&self.overflow.to_le_bytes());
        m.write_bytes(self.list, &raw)
    }
}

/// An i386 argument slot: 4 bytes (`int`, `long`, `size_t`, pointers) or 8
/// (`long long`, `intmax_t`, `double`); `signed` for a 4-byte `%d`/`%i` argument.
#[derive(Clone, Copy)]
struct Slot {
    bytes: u64,
    signed: bool,
}

impl Slot {
    /// The slot's raw bits as the formatter wants them: it reads `%ld` as 8 bytes
    /// (a `long` is 4 on i386), so a signed 4-byte value is sign-extended.
    fn extend(self, raw: u64) -> u64 {
        if self.bytes == 4 && self.signed {
            raw as u32 as i32 as i64 as u64
        } else {
            raw
        }
    }
}

/// i386 only (`None` otherwise): the slot of each variadic argument the format
/// string at `fmt` reads, in order. The formatter's `ArgClass` does not tell
/// `%ld` (4 bytes on i386) from `%lld`.
fn ilp32_slots(m: &Machine, fmt: u64) -> Result<Option<std::vec::IntoIter<Slot>>, Stop> {
    if m.program().space.layout.ptr_bytes != 4 {
        return Ok(None);
    }
    let fmt = cstr(m, fmt)?;
    let mut slots = Vec::new();
    let int = Slot { bytes: 4, signed: false };
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        while i < fmt.len() && b"-+ #0'I".contains(&fmt[i]) {
            i += 1;
        }
        let mut width_or_prec = |i: &mut usize| {
            if fmt.get(*i) == Some(&b'*') {
                slots.push(int);
                *i += 1;
            }
            while fmt.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
        };
        width_or_prec(&mut i);
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            width_or_prec(&mut i);
        }
        let mut wide = false;
        while let Some(&b) = fmt.get(i).filter(|b| b"hlLqjzZt".contains(b)) {
            let ll = b == b'l' && fmt.get(i + 1) == Some(&b'l');
            wide |= ll || b == b'q' || b == b'j';
            i += if ll { 2 } else { 1 };
        }
        match fmt.get(i) {
            Some(b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A') => slots.push(Slot { bytes: 8, signed: false }),
            Some(b'%') | None => {}
            Some(&conv) => slots.push(Slot { bytes: if wide { 8 } else { 4 }, signed: matches!(conv, b'd' | b'i') }),
        }
        i += 1;
    }
    Ok(Some(slots.into_iter()))
}

fn print_to(m: &mut Machine, fd: i32, out: Vec<u8>) -> Result<Ret, Stop> {
    m.output(fd, &out);
    ret_i32(out.len() as i32)
}

/// Store formatted output at `buf`, NUL-terminated and cut to `limit` bytes
/// (snprintf); returns the full length.
/// Into shared memory, the call is visible: one write of the bytes it
/// stores (the strings its `%s` arguments point to are read without a
/// scheduling point).
fn format_into(m: &mut Machine, c: &Call<'_>, limit: Option<usize>, mut out: Vec<u8>) -> Result<Ret, Stop> {
    let full = out.len();
    if let Some(n) = limit {
        if n == 0 {
            super::string::seen(m, c, Vec::new(), None)?;
            return ret_i32(full as i32);
        }
        out.truncate(n - 1);
    }
    out.push(0);
    let buf = c.ptr(0);
    let old = m.replace_bytes(buf, &out)?;
    super::string::seen(m, c, Vec::new(), Some((buf, old, out)))?;
    ret_i32(full as i32)
}
