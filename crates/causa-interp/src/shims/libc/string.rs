//! String, memory and conversion functions (`<string.h>`, `<stdlib.h>`,
//! `<ctype.h>`). Every byte access is checked like a program access.
//!
//! A function that reads or writes shared memory is a visible operation,
//! one scheduling point, like a load or a store: its event is one access of
//! the bytes it touched ([`seen`]). Without it, another thread could never
//! run between the call and the thread's previous visible operation, and
//! `strlen(name)` racing with a `strcpy(name, …)` would go unseen. (The call
//! is one atomic step: a torn read inside one `strlen` is not modelled.)

pub use super::convert::parse_int;
use super::stdio::{cstr, cstr_upto};
use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, ret_u64, Call, Registry, Ret};
use causa_core::cconv::{compare, next_token, span};
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
    r.visible_if_shared("string", "memcmp", EventKind::Read, &[0, 1], |m, c| {
        let n = c.int(2) as u64;
        let (a, b) = (m.read_bytes(c.ptr(0), n)?, m.read_bytes(c.ptr(1), n)?);
        let r = compare(&a, &b);
        seen(m, c, vec![(c.ptr(0), a), (c.ptr(1), b)], None)?;
        ret_i32(r)
    });
    r.visible_if_shared("string", "memchr", EventKind::Read, &[0], |m, c| {
        let n = c.int(2) as u64;
        let a = m.read_bytes(c.ptr(0), n)?;
        let r = a.iter().position(|&b| b == c.int(1) as u8).map(|i| c.ptr(0) + i as u64).unwrap_or(0);
        seen(m, c, vec![(c.ptr(0), a)], None)?;
        ret_u64(r)
    });
    r.visible_if_shared("string", "strlen", EventKind::Read, &[0], |m, c| {
        let s = cstr(m, c.ptr(0))?;
        let n = s.len() as u64;
        seen(m, c, vec![(c.ptr(0), terminated(s, None))], None)?;
        ret_u64(n)
    });
    r.visible_if_shared("string", "strnlen", EventKind::Read, &[0], |m, c| {
        let bound = Some(c.int(1) as usize);
        let s = cstr_upto(m, c.ptr(0), bound)?;
        let n = s.len() as u64;
        seen(m, c, vec![(c.ptr(0), terminated(s, bound))], None)?;
        ret_u64(n)
    });
    // Visible on shared memory, like memcpy: one access of the string's
    // bytes and its NUL.
    r.visible_if_shared("string", "strcpy", EventKind::Write, &[0, 1], |m, c| {
        let n = cstr(m, c.ptr(1))?.len() as u64 + 1;
        copy_n(m, c, (c.ptr(0), c.ptr(1), n))?;
        ret_u64(c.ptr(0))
    });
    r.visible_if_shared("string", "strncpy", EventKind::Write, &[0, 1], |m, c| {
        let n = c.int(2) as usize;
        let s = cstr_upto(m, c.ptr(1), Some(n))?;
        let read = terminated(s.clone(), Some(n));
        let mut data = s;
        data.resize(n, 0);
        let old = m.replace_bytes(c.ptr(0), &data)?;
        seen(m, c, vec![(c.ptr(1), read)], Some((c.ptr(0), old, data)))?;
        ret_u64(c.ptr(0))
    });
    r.visible_if_shared("string", "strcat", EventKind::Write, &[0, 1], |m, c| append(m, c, None));
    r.visible_if_shared("string", "strncat", EventKind::Write, &[0, 1], |m, c| append(m, c, Some(c.int(2) as usize)));
    // Visible on shared memory: one read of the bytes compared.
    r.visible_if_shared("string", "strcmp", EventKind::Read, &[0, 1], |m, c| {
        let (a, b) = (cstr(m, c.ptr(0))?, cstr(m, c.ptr(1))?);
        if c.visible {
            compared(m, c, &a, &b)?;
        }
        ret_i32(compare(&a, &b))
    });
    r.visible_if_shared("string", "strncmp", EventKind::Read, &[0, 1], |m, c| {
        let (a, b) = bounded_pair(m, c)?;
        ret_i32(compare(&a, &b))
    });
    r.visible_if_shared("string", "strchr", EventKind::Read, &[0], |m, c| {
        let s = read_strings(m, c, &[0])?.remove(0);
        let ch = c.int(1) as u8;
        let pos = if ch == 0 { Some(s.len()) } else { s.iter().position(|&b| b == ch) };
        ret_u64(pos.map(|i| c.ptr(0) + i as u64).unwrap_or(0))
    });
    r.visible_if_shared("string", "strrchr", EventKind::Read, &[0], |m, c| {
        let s = read_strings(m, c, &[0])?.remove(0);
        let ch = c.int(1) as u8;
        let pos = if ch == 0 { Some(s.len()) } else { s.iter().rposition(|&b| b == ch) };
        ret_u64(pos.map(|i| c.ptr(0) + i as u64).unwrap_or(0))
    });
    r.visible_if_shared("string", "strstr", EventKind::Read, &[0, 1], |m, c| {
        let v = read_strings(m, c, &[0, 1])?;
        let (h, n) = (&v[0], &v[1]);
        let pos = if n.is_empty() { Some(0) } else { h.windows(n.len()).position(|w| w == n.as_slice()) };
        ret_u64(pos.map(|i| c.ptr(0) + i as u64).unwrap_or(0))
    });
    r.visible_if_shared("string", "strdup", EventKind::Read, &[0], |m, c| {
        let s = read_strings(m, c, &[0])?.remove(0);
        dup(m, c, s)
    });
    r.visible_if_shared("string", "strndup", EventKind::Read, &[0], |m, c| {
        let bound = Some(c.int(1) as usize);
        let s = cstr_upto(m, c.ptr(0), bound)?;
        seen(m, c, vec![(c.ptr(0), terminated(s.clone(), bound))], None)?;
        dup(m, c, s)
    });
    r.visible_if_shared("string", "strspn", EventKind::Read, &[0, 1], |m, c| {
        let v = read_strings(m, c, &[0, 1])?;
        ret_u64(span(&v[0], &v[1], true) as u64)
    });
    r.visible_if_shared("string", "strcspn", EventKind::Read, &[0, 1], |m, c| {
        let v = read_strings(m, c, &[0, 1])?;
        ret_u64(span(&v[0], &v[1], false) as u64)
    });
    r.visible_if_shared("string", "strpbrk", EventKind::Read, &[0, 1], |m, c| {
        let v = read_strings(m, c, &[0, 1])?;
        let n = span(&v[0], &v[1], false);
        ret_u64(if n < v[0].len() { c.ptr(0) + n as u64 } else { 0 })
    });
    r.visible("string", "strtok", EventKind::Write, strtok);
    r.visible_if_shared("string", "strtok_r", EventKind::Write, &[0], |m, c| {
        let ty = m.ptr_ty();
        let mut saved = if c.ptr(0) == 0 { m.load(c.ptr(2), &ty)?.as_addr() } else { 0 };
        let r = tokenize(m, c, &mut saved)?;
        m.store(c.ptr(2), &ty, &Value::Int(saved as u128))?;
        ret_u64(r)
    });
    r.add("string", "strsep", strsep);
    r.visible_if_shared("string", "strcasecmp", EventKind::Read, &[0, 1], |m, c| {
        let v = read_strings(m, c, &[0, 1])?;
        ret_i32(compare_ci(&v[0], &v[1]))
    });
    r.visible_if_shared("string", "strncasecmp", EventKind::Read, &[0, 1], |m, c| {
        let (a, b) = bounded_pair(m, c)?;
        ret_i32(compare_ci(&a, &b))
    });
    super::convert::register(r);
    r.add("ctype", "__ctype_b_loc", ctype_b_loc);
    r.add("ctype", "toupper", |_, c| ret_i32((c.i32(0) as u8 as char).to_ascii_uppercase() as i32));
    r.add("ctype", "tolower", |_, c| ret_i32((c.i32(0) as u8 as char).to_ascii_lowercase() as i32));
}

/// The name of `strtok`'s position, one for the whole process.
pub(crate) const STRTOK_POSITION: &str = "strtok's position";

/// `strtok(s, delim)`. Its position is one for the whole process, as in
/// glibc: a hidden object every call reads and writes, so two threads'
/// calls conflict and one thread can go on with the other's string (the
/// classic reason `strtok` is not thread-safe). Each call is a visible step.
fn strtok(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let pos = m.hidden_object(STRTOK_POSITION, 8)?;
    let before = m.read_bytes(pos, 8)?;
    let mut saved = u64::from_le_bytes(before[..8].try_into().expect("8 bytes"));
    let r = tokenize(m, c, &mut saved)?;
    let after = saved.to_le_bytes().to_vec();
    m.write_bytes(pos, &after)?;
    // The call's event reads and writes the position too.
    let event = m.events.len() - 1;
    let write = (pos, before.clone(), after);
    match m.bulk.last_mut().filter(|b| b.event == event) {
        Some(b) => {
            b.reads.push((pos, before));
            b.writes.push(write);
        }
        None => m.bulk.push(causa_core::BulkAccess { event, reads: vec![(pos, before)], writes: vec![write] }),
    }
    if let Some(e) = m.events.last_mut() {
        if e.kind != EventKind::Write || e.size == 0 {
            (e.kind, e.addr, e.size) = (EventKind::Write, pos, 8);
        }
    }
    ret_u64(r)
}

/// glibc's `strtok_r(s, delim, …)` with the position in `saved`: the next token
/// of `s` (or of `saved` when `s` is NULL), NUL-terminated in place; 0 at the end.
fn tokenize(m: &mut Machine, c: &Call<'_>, saved: &mut u64) -> Result<u64, Stop> {
    let s = if c.ptr(0) == 0 { *saved } else { c.ptr(0) };
    if s == 0 {
        return Err(Stop::memory(format!("{}(NULL, …) without a string to continue", c.name)));
    }
    let (text, set) = (cstr(m, s)?, cstr(m, c.ptr(1))?);
    let token = next_token(&text, &set);
    *saved = s + token.next as u64;
    let ended = match token.cut {
        Some(end) => Some((s + end as u64, m.replace_bytes(s + end as u64, &[0])?, vec![0])),
        None => None,
    };
    seen(m, c, vec![(s, terminated(text, None)), (c.ptr(1), terminated(set, None))], ended)?;
    Ok(token.start.map_or(0, |start| s + start as u64))
}

/// `strsep(&s, delim)`: the token at `s`, ended in place; `s` moves past it (NULL at the end).
fn strsep(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let ty = m.ptr_ty();
    let begin = m.load(c.ptr(0), &ty)?.as_addr();
    if begin == 0 {
        return ret_u64(0);
    }
    let (text, set) = (cstr(m, begin)?, cstr(m, c.ptr(1))?);
    let n = span(&text, &set, false);
    let next = if n < text.len() {
        m.write_bytes(begin + n as u64, &[0])?;
        begin + n as u64 + 1
    } else {
        0
    };
    m.store(c.ptr(0), &ty, &Value::Int(next as u128))?;
    ret_u64(begin)
}

/// Case-insensitive comparison: glibc returns the difference of the first
/// differing bytes, lowered.
fn compare_ci(a: &[u8], b: &[u8]) -> i32 {
    let lower = |s: &[u8], i: usize| s.get(i).map_or(0, |b| b.to_ascii_lowercase() as i32);
    (0..a.len().max(b.len())).map(|i| lower(a, i) - lower(b, i)).find(|d| *d != 0).unwrap_or(0)
}

/// `memcpy`/`memmove(dest, src, n)` (also `llvm.memcpy`/`llvm.memmove`). When the
/// call is visible, its event is a write of `n` bytes at `dest`, or a read at
/// `src` when only the source is shared. Stack pointers copied along escape.
pub fn copy_bytes(m: &mut Machine, c: &Call<'_>) -> Result<(), Stop> {
    copy_n(m, c, (c.ptr(0), c.ptr(1), c.int(2) as u64))
}

/// What a visible call did to shared memory, as its event: the spans it
/// read (address, bytes) and what it wrote (address, bytes before and
/// after); spans of private memory are left out. The event is a write at
/// the span written when that is shared, else a read at the first shared
/// span read, else an access of no bytes (nothing shared was touched).
///
/// With race detection, each span is checked against the accesses other
/// threads are parked at ([`footprint`] must name the same spans).
pub(crate) fn seen(
    m: &mut Machine,
    c: &Call<'_>,
    reads: Vec<(u64, Vec<u8>)>,
    write: Option<(u64, Vec<u8>, Vec<u8>)>,
) -> Result<(), Stop> {
    seen_writes(m, c, reads, write.into_iter().collect())
}

/// A span a call wrote: its address, its bytes before and after.
pub(crate) type Written = (u64, Vec<u8>, Vec<u8>);

/// [`seen`] of a call that may write several spans (`sscanf`'s values):
/// the event is at the first shared one.
pub(crate) fn seen_writes(
    m: &mut Machine,
    c: &Call<'_>,
    reads: Vec<(u64, Vec<u8>)>,
    writes: Vec<Written>,
) -> Result<(), Stop> {
    if !c.visible {
        return Ok(());
    }
    let reads: Vec<(u64, Vec<u8>)> = reads.into_iter().filter(|(p, b)| !b.is_empty() && m.mem.is_shared(*p)).collect();
    let writes: Vec<_> = writes.into_iter().filter(|(p, _, new)| !new.is_empty() && m.mem.is_shared(*p)).collect();
    let event = m.events.len() - 1;
    let Some(e) = m.events.last_mut() else { return Ok(()) };
    let (kind, addr, size) = match (writes.first(), reads.first()) {
        (Some((p, _, new)), _) => (EventKind::Write, *p, new.len()),
        (None, Some((p, b))) => (EventKind::Read, *p, b.len()),
        (None, None) => {
            e.size = 0;
            return Ok(());
        }
    };
    (e.kind, e.addr, e.size) = (kind, addr, size.min(u32::MAX as usize) as u32);
    let spans: Vec<(u64, u64, bool)> = reads
        .iter()
        .map(|(p, b)| (*p, b.len() as u64, false))
        .chain(writes.iter().map(|(p, _, new)| (*p, new.len() as u64, true)))
        .collect();
    // A read of one span, repeated with the same bytes and nothing changed,
    // is a busy wait like a load's (`while (strcmp(state, "done"))`): its
    // fingerprint covers the bytes. (Two spans are not parked: the event's
    // footprint names only the first.)
    if let ([(p, bytes)], []) = (&reads[..], &writes[..]) {
        m.note_read(c.t, *p, causa_core::paths::fnv1a(bytes) as u128);
    }
    m.bulk.push(causa_core::BulkAccess { event, reads, writes });
    for (p, len, writes) in spans {
        m.check_race(c.t, p, len, writes, false)?;
    }
    Ok(())
}

/// The shared bytes a call of `name` with arguments `a` is about to read
/// and write, as (address, length, writes): the spans its event will have
/// ([`seen`]), for the data-race check of a thread parked at the call.
/// Empty for other functions (and for `sprintf` into shared memory, whose
/// length only formatting tells).
pub(crate) fn footprint(m: &Machine, name: &str, a: &[u64]) -> Vec<(u64, u64, bool)> {
    let base = name.strip_prefix("llvm.").map_or(name, |n| n.split('.').next().unwrap_or(n));
    let arg = |i: usize| a.get(i).copied().unwrap_or(0);
    let text = |i: usize, bound: Option<usize>| cstr_upto(m, arg(i), bound).ok();
    // A string argument as read: its bytes and NUL, unless the bound stopped it.
    let string =
        |i: usize, bound: Option<usize>| text(i, bound).map(|s| (arg(i), terminated(s, bound).len() as u64, false));
    let n = arg(2);
    let spans: Vec<Option<(u64, u64, bool)>> = match base {
        "memcpy" | "memmove" => vec![Some((arg(1), n, false)), Some((arg(0), n, true))],
        "memset" => vec![Some((arg(0), n, true))],
        "memcmp" => vec![Some((arg(0), n, false)), Some((arg(1), n, false))],
        "memchr" => vec![Some((arg(0), n, false))],
        "strcpy" => {
            let s = string(1, None);
            vec![s, s.map(|(_, len, _)| (arg(0), len, true))]
        }
        "strncpy" => vec![string(1, Some(n as usize)), Some((arg(0), n, true))],
        "strcat" | "strncat" => {
            let bound = (base == "strncat").then_some(n as usize);
            let (d, s) = (text(0, None), text(1, bound));
            let write = d.as_ref().zip(s.as_ref()).map(|(d, s)| (arg(0) + d.len() as u64, s.len() as u64 + 1, true));
            vec![string(0, None), string(1, bound), write]
        }
        "strcmp" => match (text(0, None), text(1, None)) {
            (Some(x), Some(y)) => {
                let k = x.iter().zip(&y).position(|(p, q)| p != q).unwrap_or(x.len().min(y.len())) as u64 + 1;
                vec![Some((arg(0), k, false)), Some((arg(1), k, false))]
            }
            _ => Vec::new(),
        },
        "strncmp" | "strncasecmp" => vec![string(0, Some(n as usize)), string(1, Some(n as usize))],
        "strnlen" | "strndup" => vec![string(0, Some(arg(1) as usize))],
        "strlen" | "strchr" | "strrchr" | "strdup" | "atoi" | "atol" | "atoll" | "atof" | "strtol" | "strtoll"
        | "strtoul" | "strtoull" | "strtod" | "strtof" => vec![string(0, None)],
        "strstr" | "strspn" | "strcspn" | "strpbrk" | "strcasecmp" => vec![string(0, None), string(1, None)],
        "strtok" | "strtok_r" if arg(0) != 0 => {
            let (t, set) = (text(0, None), text(1, None));
            let end = t.as_ref().zip(set.as_ref()).and_then(|(t, set)| {
                let start = span(t, set, true);
                let end = start + span(&t[start..], set, false);
                (start < t.len() && end < t.len()).then_some(end)
            });
            let position = (base == "strtok").then(|| m.hidden_made(STRTOK_POSITION).map(|p| (p, 8, true))).flatten();
            vec![string(0, None), string(1, None), end.map(|e| (arg(0) + e as u64, 1, true)), position]
        }
        "strtok" => vec![m.hidden_made(STRTOK_POSITION).map(|p| (p, 8, true))],
        _ => Vec::new(),
    };
    spans.into_iter().flatten().filter(|(p, len, _)| *len > 0 && m.mem.is_shared(*p)).collect()
}

/// The bytes a read of the C string `s` touched: `s` and its NUL, unless
/// the `bound` stopped it first.
pub(crate) fn terminated(mut s: Vec<u8>, bound: Option<usize>) -> Vec<u8> {
    if bound.is_none_or(|n| s.len() < n) {
        s.push(0);
    }
    s
}

/// The C strings at arguments `args`, noted as read ([`seen`]).
pub(crate) fn read_strings(m: &mut Machine, c: &Call<'_>, args: &[usize]) -> Result<Vec<Vec<u8>>, Stop> {
    let strings: Vec<Vec<u8>> = args.iter().map(|i| cstr(m, c.ptr(*i))).collect::<Result<_, _>>()?;
    let spans = args.iter().zip(&strings).map(|(i, s)| (c.ptr(*i), terminated(s.clone(), None))).collect();
    seen(m, c, spans, None)?;
    Ok(strings)
}

/// The strings at arguments 0 and 1, at most `n` (argument 2) bytes of
/// each, noted as read (`strncmp`, `strncasecmp`).
fn bounded_pair(m: &mut Machine, c: &Call<'_>) -> Result<(Vec<u8>, Vec<u8>), Stop> {
    let n = Some(c.int(2) as usize);
    let a = cstr_upto(m, c.ptr(0), n)?;
    let b = cstr_upto(m, c.ptr(1), n)?;
    seen(m, c, vec![(c.ptr(0), terminated(a.clone(), n)), (c.ptr(1), terminated(b.clone(), n))], None)?;
    Ok((a, b))
}

/// `strcat`/`strncat(dest, src[, n])`: reads both strings, writes `src`
/// (at most `n` bytes of it) and a NUL at the end of `dest`.
fn append(m: &mut Machine, c: &Call<'_>, bound: Option<usize>) -> Result<Ret, Stop> {
    let d = cstr(m, c.ptr(0))?;
    let s = cstr_upto(m, c.ptr(1), bound)?;
    let at = c.ptr(0) + d.len() as u64;
    let mut data = s.clone();
    data.push(0);
    let old = m.replace_bytes(at, &data)?;
    seen(m, c, vec![(c.ptr(0), terminated(d, None)), (c.ptr(1), terminated(s, bound))], Some((at, old, data)))?;
    ret_u64(c.ptr(0))
}

/// `strcmp(a, b)` made visible: its event reads the bytes compared (up to
/// the first that differs, or the NUL) of each shared string.
fn compared(m: &mut Machine, c: &Call<'_>, a: &[u8], b: &[u8]) -> Result<(), Stop> {
    let n = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len())) + 1;
    let upto = |s: &[u8]| {
        let mut bytes = s.get(..n).unwrap_or(s).to_vec();
        bytes.resize(n, 0);
        bytes
    };
    seen(m, c, vec![(c.ptr(0), upto(a)), (c.ptr(1), upto(b))], None)
}

/// A copy of `n` bytes from `src` to `dest` ([`copy_bytes`]).
fn copy_n(m: &mut Machine, c: &Call<'_>, (dest, src, n): (u64, u64, u64)) -> Result<(), Stop> {
    if n == 0 {
        seen(m, c, Vec::new(), None)?;
        return Ok(());
    }
    let data = m.read_bytes(src, n)?;
    let old = m.replace_bytes(dest, &data)?;
    if m.mem.is_shared(dest) {
        m.mem.escape_words(&data);
    }
    seen(m, c, vec![(src, data.clone())], Some((dest, old, data)))?;
    Ok(())
}

/// `memset(dest, byte, n)` (also `llvm.memset`); visible as a write of `n` bytes.
pub fn set_bytes(m: &mut Machine, c: &Call<'_>) -> Result<(), Stop> {
    let n = c.int(2) as u64;
    let data = vec![c.int(1) as u8; n as usize];
    let old = m.replace_bytes(c.ptr(0), &data)?;
    seen(m, c, Vec::new(), Some((c.ptr(0), old, data)))?;
    if c.visible {
        if let Some(e) = m.events.last_mut() {
            e.value = c.int(1) as u8 as u128;
        }
    }
    Ok(())
}

fn dup(m: &mut Machine, c: &Call<'_>, mut s: Vec<u8>) -> Result<Ret, Stop> {
    s.push(0);
    let Ret::Value(p) = super::alloc::alloc_at(m, c, s.len() as u64, c.name)? else {
        return ret_u64(0);
    };
    m.write_bytes(p.as_addr(), &s)?;
    Ok(Ret::Value(p))
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
    let t = m.mem.alloc_heap(table.len() as u64, causa_ir::NONE, "ctype table", c.t);
    m.write_bytes(t, &table)?;
    let cell = m.mem.alloc_heap(8, causa_ir::NONE, "ctype table", c.t);
    m.write_bytes(cell, &(t + 256).to_le_bytes())?;
    m.threads[c.t as usize].specific.push((KEY, cell));
    ret_u64(cell)
}
