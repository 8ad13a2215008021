//! String, memory and conversion functions (`<string.h>`, `<stdlib.h>`,
//! `<ctype.h>`). Every byte access is checked like a program access.

use super::stdio::cstr;
use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, ret_u64, Call, Registry, Ret};
use causa_core::EventKind;
use causa_ir::Value;

pub fn register(r: &mut Registry) {
    r.visible_if_shared("string", "memcpy", EventKind::Write, &[0, 1], |m, c| {
        copy_bytes(m, c)?;
        ret_u64(c.ptr(0))
    });
    r.visible_if_shared("string", "memmove", EventKind::Write, &[0, 1], |m, c| {
        copy_bytes(m, c)?;
        ret_u64(c.ptr(0))
    });
    r.visible_if_shared("string", "memset", EventKind::Write, &[0], |m, c| {
        set_bytes(m, c)?;
        ret_u64(c.ptr(0))
    });
    r.add("string", "memcmp", |m, c| {
        let n = c.int(2) as u64;
        let (a, b) = (m.read_bytes(c.ptr(0), n)?, m.read_bytes(c.ptr(1), n)?);
        ret_i32(compare(&a, &b))
    });
    r.add("string", "memchr", |m, c| {
        let n = c.int(2) as u64;
        let a = m.read_bytes(c.ptr(0), n)?;
        ret_u64(a.iter().position(|&b| b == c.int(1) as u8).map(|i| c.ptr(0) + i as u64).unwrap_or(0))
    });
    r.add("string", "strlen", |m, c| ret_u64(cstr(m, c.ptr(0))?.len() as u64));
    r.add("string", "strnlen", |m, c| {
        ret_u64(m.mem.read_cstr(c.ptr(0), Some(c.int(1) as usize), &|x| m.describe(x))?.len() as u64)
    });
    r.add("string", "strcpy", |m, c| {
        let mut s = cstr(m, c.ptr(1))?;
        s.push(0);
        m.write_bytes(c.ptr(0), &s)?;
        ret_u64(c.ptr(0))
    });
    r.add("string", "strncpy", |m, c| {
        let n = c.int(2) as usize;
        let mut s = m.mem.read_cstr(c.ptr(1), Some(n), &|x| m.describe(x))?;
        s.resize(n, 0);
        m.write_bytes(c.ptr(0), &s)?;
        ret_u64(c.ptr(0))
    });
    r.add("string", "strcat", |m, c| {
        let d = cstr(m, c.ptr(0))?.len() as u64;
        let mut s = cstr(m, c.ptr(1))?;
        s.push(0);
        m.write_bytes(c.ptr(0) + d, &s)?;
        ret_u64(c.ptr(0))
    });
    r.add("string", "strncat", |m, c| {
        let d = cstr(m, c.ptr(0))?.len() as u64;
        let mut s = m.mem.read_cstr(c.ptr(1), Some(c.int(2) as usize), &|x| m.describe(x))?;
        s.push(0);
        m.write_bytes(c.ptr(0) + d, &s)?;
        ret_u64(c.ptr(0))
    });
    r.add("string", "strcmp", |m, c| ret_i32(compare(&cstr(m, c.ptr(0))?, &cstr(m, c.ptr(1))?)));
    r.add("string", "strncmp", |m, c| {
        let n = Some(c.int(2) as usize);
        let a = m.mem.read_cstr(c.ptr(0), n, &|x| m.describe(x))?;
        let b = m.mem.read_cstr(c.ptr(1), n, &|x| m.describe(x))?;
        ret_i32(compare(&a, &b))
    });
    r.add("string", "strchr", |m, c| {
        let s = cstr(m, c.ptr(0))?;
        let ch = c.int(1) as u8;
        let pos = if ch == 0 { Some(s.len()) } else { s.iter().position(|&b| b == ch) };
        ret_u64(pos.map(|i| c.ptr(0) + i as u64).unwrap_or(0))
    });
    r.add("string", "strrchr", |m, c| {
        let s = cstr(m, c.ptr(0))?;
        let ch = c.int(1) as u8;
        let pos = if ch == 0 { Some(s.len()) } else { s.iter().rposition(|&b| b == ch) };
        ret_u64(pos.map(|i| c.ptr(0) + i as u64).unwrap_or(0))
    });
    r.add("string", "strstr", |m, c| {
        let (h, n) = (cstr(m, c.ptr(0))?, cstr(m, c.ptr(1))?);
        let pos = if n.is_empty() { Some(0) } else { h.windows(n.len()).position(|w| w == n.as_slice()) };
        ret_u64(pos.map(|i| c.ptr(0) + i as u64).unwrap_or(0))
    });
    r.add("string", "strdup", |m, c| {
        let s = cstr(m, c.ptr(0))?;
        dup(m, c, s)
    });
    r.add("string", "strndup", |m, c| {
        let s = m.mem.read_cstr(c.ptr(0), Some(c.int(1) as usize), &|x| m.describe(x))?;
        dup(m, c, s)
    });
    r.add("stdlib", "atoi", |m, c| ret_i32(parse_int(&cstr(m, c.ptr(0))?, 10).0 as i32));
    r.add("stdlib", "atol", |m, c| ret_u64(parse_int(&cstr(m, c.ptr(0))?, 10).0 as u64));
    r.add("stdlib", "atoll", |m, c| ret_u64(parse_int(&cstr(m, c.ptr(0))?, 10).0 as u64));
    for name in ["strtol", "strtoll", "strtoul", "strtoull"] {
        r.add("stdlib", name, strtol);
    }
    r.add("ctype", "__ctype_b_loc", ctype_b_loc);
    r.add("ctype", "toupper", |_, c| ret_i32((c.i32(0) as u8 as char).to_ascii_uppercase() as i32));
    r.add("ctype", "tolower", |_, c| ret_i32((c.i32(0) as u8 as char).to_ascii_lowercase() as i32));
}

fn compare(a: &[u8], b: &[u8]) -> i32 {
    match a.iter().zip(b).find(|(x, y)| x != y) {
        Some((x, y)) => *x as i32 - *y as i32,
        None => a.len() as i32 - b.len() as i32,
    }
    .signum()
}

/// `memcpy`/`memmove(dest, src, n)` (also `llvm.memcpy`/`llvm.memmove`). When the
/// call is visible, its event is a write of `n` bytes at `dest`, or a read at
/// `src` when only the source is shared. Stack pointers copied along escape.
pub fn copy_bytes(m: &mut Machine, c: &Call<'_>) -> Result<(), Stop> {
    let (dest, src, n) = (c.ptr(0), c.ptr(1), c.int(2) as u64);
    if c.visible {
        let dest_shared = m.mem.is_shared(dest);
        if let Some(e) = m.events.last_mut() {
            e.size = n.min(u32::MAX as u64) as u32;
            if !dest_shared {
                e.kind = EventKind::Read;
                e.addr = src;
            }
        }
    }
    if n > 0 {
        let data = m.read_bytes(src, n)?;
        m.write_bytes(dest, &data)?;
        m.mem.escape_words(&data);
    }
    Ok(())
}

/// `memset(dest, byte, n)` (also `llvm.memset`); visible as a write of `n` bytes.
pub fn set_bytes(m: &mut Machine, c: &Call<'_>) -> Result<(), Stop> {
    let n = c.int(2) as u64;
    if c.visible {
        if let Some(e) = m.events.last_mut() {
            e.size = n.min(u32::MAX as u64) as u32;
            e.value = c.int(1) as u8 as u128;
        }
    }
    m.write_bytes(c.ptr(0), &vec![c.int(1) as u8; n as usize])
}

fn dup(m: &mut Machine, c: &Call<'_>, mut s: Vec<u8>) -> Result<Ret, Stop> {
    s.push(0);
    let Ret::Value(p) = super::alloc::alloc_at(m, c, s.len() as u64, c.name)? else {
        return ret_u64(0);
    };
    m.write_bytes(p.as_addr(), &s)?;
    Ok(Ret::Value(p))
}

/// Parse like strtol: leading space, sign, base prefix. Returns (value, bytes used).
pub fn parse_int(s: &[u8], base: u32) -> (i128, usize) {
    let mut i = 0;
    while i < s.len() && (s[i] as char).is_ascii_whitespace() {
        i += 1;
    }
    let neg = i < s.len() && s[i] == b'-';
    if i < s.len() && (s[i] == b'-' || s[i] == b'+') {
        i += 1;
    }
    let mut base = base;
    if (base == 0 || base == 16) && s.len() > i + 1 && s[i] == b'0' && (s[i + 1] | 0x20) == b'x' {
        base = 16;
        i += 2;
    } else if base == 0 && i < s.len() && s[i] == b'0' {
        base = 8;
    } else if base == 0 {
        base = 10;
    }
    let start = i;
    let mut v: i128 = 0;
    while i < s.len() {
        let Some(d) = (s[i] as char).to_digit(base) else {
            break;
        };
        v = v.saturating_mul(base as i128).saturating_add(d as i128);
        i += 1;
    }
    if i == start {
        return (0, 0);
    }
    (if neg { -v } else { v }, i)
}

fn strtol(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let s = cstr(m, c.ptr(0))?;
    let (v, used) = parse_int(&s, c.int(2) as u32);
    if c.ptr(1) != 0 {
        m.store(c.ptr(1), &m.ptr_ty(), &Value::Int((c.ptr(0) + used as u64) as u128))?;
    }
    let v = if c.name.ends_with("ul") || c.name.ends_with("ull") {
        v as u64
    } else {
        v.clamp(i64::MIN as i128, i64::MAX as i128) as i64 as u64
    };
    ret_u64(v)
}

/// glibc's classification table (`(*__ctype_b_loc())[c]`), built once per execution.
fn ctype_b_loc(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    const KEY: u32 = u32::MAX - 2;
    if let Some((_, v)) = m.threads[c.t as usize].specific.iter().find(|(k, _)| *k == KEY) {
        return ret_u64(*v);
    }
    let bit = |b: u32| -> u16 {
        if b < 8 {
            (1u16 << b) << 8
        } else {
            (1u16 << b) >> 8
        }
    };
    let mut table = vec![0u8; 384 * 2];
    for i in 0..384usize {
        let ch = (i as i32 - 128) as u8;
        let cc = ch as char;
        let mut f = 0u16;
        if i >= 128 {
            if cc.is_ascii_uppercase() {
                f |= bit(0);
            }
            if cc.is_ascii_lowercase() {
                f |= bit(1);
            }
            if cc.is_ascii_alphabetic() {
                f |= bit(2);
            }
            if cc.is_ascii_digit() {
                f |= bit(3);
            }
            if cc.is_ascii_hexdigit() {
                f |= bit(4);
            }
            if matches!(ch, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
                f |= bit(5);
            }
            if (0x20..0x7f).contains(&ch) {
                f |= bit(6);
            }
            if (0x21..0x7f).contains(&ch) {
                f |= bit(7);
            }
            if ch == b' ' || ch == b'\t' {
                f |= bit(8);
            }
            if ch < 0x20 || ch == 0x7f {
                f |= bit(9);
            }
            if cc.is_ascii_punctuation() {
                f |= bit(10);
            }
            if cc.is_ascii_alphanumeric() {
                f |= bit(11);
            }
        }
        table[i * 2..i * 2 + 2].copy_from_slice(&f.to_le_bytes());
    }
    let t = m.mem.alloc_heap(table.len() as u64, causa_ir::NONE, "ctype table");
    m.write_bytes(t, &table)?;
    let cell = m.mem.alloc_heap(8, causa_ir::NONE, "ctype table");
    m.write_bytes(cell, &(t + 256).to_le_bytes())?;
    m.threads[c.t as usize].specific.push((KEY, cell));
    ret_u64(cell)
}
