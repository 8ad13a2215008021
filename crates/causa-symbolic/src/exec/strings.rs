//! The C library's pure string functions (`atoi` and the `strtol` family,
//! `strchr`, `strrchr`, `strstr`, `strspn`, `strcspn`, `strpbrk`,
//! `strnlen`, `memchr`) of a string whose bytes the schedule decides: in
//! shared memory, or in the thread's own memory holding bytes computed from
//! shared data (a local copy of a shared message).
//!
//! A shared string is one event reading every byte from the string to the
//! end of its object, as `strlen`'s model reads it ([`Thread::text`]); its
//! result is an expression of those bytes, built as the function scans
//! them (the scan's state a few bits, updated byte by byte with selects).
//! The string is required to end inside its object: without a NUL there the
//! interpreter would read past it (a memory error, another failure).
//! Written by hand: these are glibc's definitions unrolled over a known
//! number of bytes, which no crate builds as solver terms.

use super::{Reg, Thread};
use crate::expr::{ExprId, Exprs};
use crate::trace::SymOp;
use crate::SymError;
use causa_ir::{BinOp, CastOp, ICmpPred, Operand};

/// A string's bytes: known, or expressions.
pub(crate) enum Text {
    Known(Vec<u8>),
    Bytes(Vec<ExprId>),
}

/// The names these models answer to (events name their function).
const NAMES: [&str; 14] = [
    "atoi", "atol", "atoll", "strtol", "strtoll", "strtoul", "strtoull", "strchr", "strrchr", "strstr", "strspn",
    "strcspn", "strpbrk", "strnlen",
];

fn static_name(name: &str) -> &'static str {
    NAMES.iter().find(|n| **n == name).copied().unwrap_or("a string function")
}

impl Thread<'_, '_> {
    /// The string at `s` for `name`: its bytes when they are known,
    /// else their expressions. A shared string is read by one event (at
    /// most `bound` bytes, else to its object's end); a NUL is required
    /// among the bytes read unless the bound stops the function first.
    pub(super) fn text(&mut self, s: u64, name: &str, bound: Option<u64>) -> Result<Text, SymError> {
        let what = static_name(name);
        if self.is_shared(s) {
            return self.shared_text(s, what, bound).map(Text::Bytes);
        }
        let bytes = match self.c_string(s, what) {
            Ok(known) => return Ok(Text::Known(known)),
            Err(e) if self.constant_from(s).is_some() => return Err(e),
            Err(e) => {
                let extent = self.private_extent(s, what)?;
                let n = bound.map_or(extent, |b| b.min(extent));
                let bytes = self.private_byte_values(s, n)?;
                if bytes.iter().all(|b| self.st.trace.exprs.value(*b).is_some()) {
                    // Every byte known: c_string's error stands.
                    return Err(e);
                }
                bytes
            }
        };
        self.ends_inside(&bytes, what, bound)?;
        Ok(Text::Bytes(bytes))
    }

    /// The bytes of the shared string at `s`, read by one event named
    /// `what` (at most `bound` bytes, else to its object's end), a NUL
    /// required among them unless the bound stops the function first.
    pub(super) fn shared_text(
        &mut self,
        s: u64,
        what: &'static str,
        bound: Option<u64>,
    ) -> Result<Vec<ExprId>, SymError> {
        let extent = self.extent(s, what)?;
        let n = bound.map_or(extent, |b| b.min(extent));
        let reads = self.bulk_reads(s, n, what)?;
        let bytes: Vec<ExprId> = reads.iter().map(|p| p.value).collect();
        self.event(SymOp::Bulk { what, addr: s, size: n as u32, reads, writes: Vec::new() });
        self.ends_inside(&bytes, what, bound)?;
        Ok(bytes)
    }

    /// Require a NUL among `bytes` unless `bound` stops the function
    /// before their end.
    fn ends_inside(&mut self, bytes: &[ExprId], what: &str, bound: Option<u64>) -> Result<(), SymError> {
        if bound.is_some_and(|b| b <= bytes.len() as u64) {
            return Ok(());
        }
        let (_, ends) = self.first_nul(bytes);
        if self.st.trace.exprs.value(ends) == Some(0) {
            return Err(self.unsupported(format!("`{what}` of a string that does not end inside its object")));
        }
        self.condition(ends)
    }

    /// `atoi`, `atol`, `atoll` and the `strtol` family in base `base` of
    /// `bytes` at `s`: glibc's conversion (leading space, a sign, digits;
    /// clamped to the type as [`causa_core::cconv::clamp`]); the end
    /// pointer, when asked for, stored into the thread's own memory at
    /// `end_at`. Bases 0 and 16 (whose prefixes the scan does not follow)
    /// are reported.
    pub(super) fn parse_int_of(
        &mut self,
        name: &str,
        (s, bytes): (u64, &[ExprId]),
        end_at: u64,
        base: u32,
    ) -> Result<Reg, SymError> {
        if base == 0 || base == 16 {
            return Err(self.unsupported(format!(
                "`{name}` in base {base} of a string the schedule decides (bases 2–36 but 16 are followed)"
            )));
        }
        if end_at != 0 && !self.classify(end_at).0 {
            return Err(self.unsupported(format!("`{name}` storing its end pointer into shared memory")));
        }
        let e = &mut self.st.trace.exprs;
        let (result, end) = parse_fold(e, bytes, base, name.starts_with("strtou"));
        if end_at != 0 {
            let start = e.constant(64, s as u128);
            let ptr = e.bin(BinOp::Add, 64, start, end).expect("add");
            self.overwrite(end_at, 8)?;
            self.local.insert(end_at, (8, Reg::Int(ptr)));
        }
        let e = &mut self.st.trace.exprs;
        Ok(Reg::Int(if name == "atoi" { e.cast(CastOp::Trunc, 64, 32, result) } else { result }))
    }

    /// `memchr(s, c, n)`: the first `c` among the `n` bytes, else a null
    /// pointer; one event reading them when `s` is shared.
    pub(crate) fn memory_find(&mut self, args: &[Operand]) -> Result<Reg, SymError> {
        let s = self.addr_arg(args, 0, "memchr")?;
        let c = self.concrete_arg(args, 1, 32, "memchr")? as u8;
        let n = self.concrete_arg(args, 2, 64, "memchr")?.min(u64::MAX as u128) as u64;
        let mut reads = Vec::new();
        let bytes = self.byte_values(s, n, "memchr", &mut reads)?;
        if let Some(first) = reads.first() {
            let (addr, size) = (first.addr, reads.len() as u32);
            self.event(SymOp::Bulk { what: "memchr", addr, size, reads, writes: Vec::new() });
        }
        let e = &mut self.st.trace.exprs;
        let (mut ptr, byte) = (e.constant(64, 0), e.constant(8, c as u128));
        for (k, &b) in bytes.iter().enumerate().rev() {
            let hit = e.icmp(ICmpPred::Eq, 8, b, byte);
            let here = e.constant(64, s as u128 + k as u128);
            ptr = e.select(hit, here, ptr);
        }
        Ok(Reg::Int(ptr))
    }

    /// `strnlen` of `bytes` (at most `max` of them were read): the index of
    /// the first NUL, else `max`.
    pub(super) fn bounded_length(&mut self, bytes: &[ExprId], max: u64) -> ExprId {
        let (index, _) = self.first_nul(bytes);
        let e = &mut self.st.trace.exprs;
        let m = e.constant(64, max as u128);
        let below = e.icmp(ICmpPred::Ult, 64, index, m);
        e.select(below, index, m)
    }
}

/// `strchr`/`strrchr(s, c)` of `bytes`: the first (last) `c` before
/// the NUL, the NUL itself when `c` is 0; else a null pointer.
pub(super) fn find_byte(e: &mut Exprs, last: bool, (s, bytes): (u64, &[ExprId]), c: u8) -> ExprId {
    let (null, zero8, byte) = (e.constant(64, 0), e.constant(8, 0), e.constant(8, c as u128));
    let mut ptr = null;
    if last {
        let mut ended = e.constant(1, 0);
        for (k, &b) in bytes.iter().enumerate() {
            let hit = e.icmp(ICmpPred::Eq, 8, b, byte);
            let live = e.not(ended);
            let hit = e.and(live, hit);
            let here = e.constant(64, s as u128 + k as u128);
            ptr = e.select(hit, here, ptr);
            let nul = e.icmp(ICmpPred::Eq, 8, b, zero8);
            ended = e.or(ended, nul);
        }
    } else {
        for (k, &b) in bytes.iter().enumerate().rev() {
            let hit = e.icmp(ICmpPred::Eq, 8, b, byte);
            let nul = e.icmp(ICmpPred::Eq, 8, b, zero8);
            let here = e.constant(64, s as u128 + k as u128);
            let past = e.select(nul, null, ptr);
            ptr = e.select(hit, here, past);
        }
    }
    ptr
}

/// `strspn`, `strcspn` (a length) and `strpbrk` (a pointer or null) of
/// `bytes` with the known `set`.
pub(super) fn span_of(e: &mut Exprs, name: &str, (s, bytes): (u64, &[ExprId]), set: &[u8]) -> ExprId {
    let zero8 = e.constant(8, 0);
    let mut r = match name {
        "strpbrk" => e.constant(64, 0),
        _ => e.constant(64, bytes.len() as u128),
    };
    for (k, &b) in bytes.iter().enumerate().rev() {
        let mut member = e.constant(1, 0);
        for &x in set {
            let is = eq8(e, b, x);
            member = e.or(member, is);
        }
        let nul = e.icmp(ICmpPred::Eq, 8, b, zero8);
        let at = e.constant(64, k as u128);
        r = match name {
            "strspn" => {
                let stop = e.not(member);
                e.select(stop, at, r)
            }
            "strcspn" => {
                let stop = e.or(member, nul);
                e.select(stop, at, r)
            }
            _ => {
                let here = e.constant(64, s as u128 + k as u128);
                let null = e.constant(64, 0);
                let past = e.select(nul, null, r);
                e.select(member, here, past)
            }
        };
    }
    r
}

/// `strstr` of `bytes` and the known, non-empty `needle`: the first
/// place the needle starts before the NUL, else a null pointer.
pub(super) fn find_text(e: &mut Exprs, (s, bytes): (u64, &[ExprId]), needle: &[u8]) -> ExprId {
    let (null, zero8) = (e.constant(64, 0), e.constant(8, 0));
    let mut ptr = null;
    for k in (0..bytes.len()).rev() {
        let mut here = e.constant(1, (k + needle.len() <= bytes.len()) as u128);
        for (j, &x) in needle.iter().enumerate() {
            if let Some(&b) = bytes.get(k + j) {
                let same = eq8(e, b, x);
                here = e.and(here, same);
            }
        }
        let nul = e.icmp(ICmpPred::Eq, 8, bytes[k], zero8);
        let at = e.constant(64, s as u128 + k as u128);
        let past = e.select(nul, null, ptr);
        ptr = e.select(here, at, past);
    }
    ptr
}

/// The `strtol` scan of `bytes` in `base` (2–36 but 16): the value as a
/// 64-bit long (unsigned: an unsigned long), and the index where the
/// conversion ended (0 when nothing was converted).
fn parse_fold(e: &mut Exprs, bytes: &[ExprId], base: u32, unsigned: bool) -> (ExprId, ExprId) {
    let one = e.constant(1, 1);
    let (mut lead, mut signed, mut digits, mut neg) = (one, e.constant(1, 0), e.constant(1, 0), e.constant(1, 0));
    // Without room for a number past `i64::MAX` (at most 18 decimal
    // digits), 64 bits and no clamping. Else the significant digits are
    // counted up to `limit`, a count past the type for sure, and the value,
    // exact below it, is kept in the bits that holds: one comparison at the
    // end instead of a clamp at every byte (which made a 32-byte buffer's
    // query a hundred times slower).
    let small = (base as u128).checked_pow(bytes.len() as u32).is_some_and(|m| m <= i64::MAX as u128);
    let Long { width, limit, cap, fits } = long(base, unsigned);
    let width = if small { 64 } else { width };
    let mut acc = e.constant(width, 0);
    let mut end = e.constant(64, 0);
    let (mut count, mut nonzero) = (e.constant(8, 0), e.constant(1, 0));
    let (step, full) = (e.constant(8, 1), e.constant(8, limit as u128));
    let zero8 = e.constant(8, 0);
    let wide_base = e.constant(width, base as u128);
    for (k, &b) in bytes.iter().enumerate() {
        let space = is_space(e, b);
        let minus = eq8(e, b, b'-');
        let plus = eq8(e, b, b'+');
        let sign = e.or(minus, plus);
        let (value, digit) = digit_of(e, b, base);
        let opens = e.or(lead, signed);
        let starts = e.and(opens, digit);
        let goes_on = e.and(digits, digit);
        let takes_sign = e.and(lead, minus);
        neg = e.select(takes_sign, one, neg);
        signed = e.and(lead, sign);
        lead = e.and(lead, space);
        digits = e.or(starts, goes_on);
        let wide = e.cast(CastOp::ZExt, 8, width, value);
        let times = e.bin(BinOp::Mul, width, acc, wide_base).expect("mul");
        let next = e.bin(BinOp::Add, width, times, wide).expect("add");
        acc = e.select(digits, next, acc);
        if !small {
            let not_zero = e.icmp(ICmpPred::Ne, 8, value, zero8);
            let significant = e.and(digits, not_zero);
            nonzero = e.or(nonzero, significant);
            let counts = e.and(digits, nonzero);
            let at_limit = e.icmp(ICmpPred::Eq, 8, count, full);
            let more = e.bin(BinOp::Add, 8, count, step).expect("add");
            let more = e.select(at_limit, full, more);
            count = e.select(counts, more, count);
        }
        let after = e.constant(64, k as u128 + 1);
        end = e.select(digits, after, end);
    }
    let result = if small {
        let zero = e.constant(64, 0);
        let negated = e.bin(BinOp::Sub, 64, zero, acc).expect("sub");
        e.select(neg, negated, acc)
    } else {
        let over = e.icmp(ICmpPred::Eq, 8, count, full);
        let cap = e.constant(width, cap);
        let m = e.select(over, cap, acc);
        // Only a number of more than `fits` significant digits can be
        // past the type: the comparisons are asked of those alone (asked
        // of every number, they tripled the query's time).
        let fits = e.constant(8, fits as u128);
        let near = e.icmp(ICmpPred::Ugt, 8, count, fits);
        clamped(e, (m, width), (neg, near), unsigned)
    };
    (result, end)
}

/// How a long number is scanned in `base`: past the type for sure at
/// `limit` significant digits; below that exact in `width` bits, which
/// also hold `cap`, a magnitude past the type.
struct Long {
    width: u32,
    limit: u32,
    cap: u128,
    /// Numbers of at most this many significant digits are inside the
    /// type.
    fits: u32,
}

fn long(base: u32, unsigned: bool) -> Long {
    // The largest magnitude the type holds (a negative long: 2^63).
    let max: u128 = if unsigned { u64::MAX as u128 } else { 1 << 63 };
    let (mut power, mut digits) = (1u128, 0);
    while power <= max {
        power *= base as u128;
        digits += 1;
    }
    // `digits` + 1 significant digits make at least base^digits > max;
    // fewer stay below base^digits, whose bits hold them.
    // base^(digits - 1) ≤ max: fewer digits than `digits` fit the type.
    Long { width: 128 - power.leading_zeros(), limit: digits + 1, cap: max + 1, fits: digits - 1 }
}

/// glibc's clamping of the magnitude `m` (of `width` bits) with the sign
/// `neg` to a 64-bit long (or unsigned long).
/// `near`: whether `m` can be past the type at all.
fn clamped(e: &mut Exprs, (m, width): (ExprId, u32), (neg, near): (ExprId, ExprId), unsigned: bool) -> ExprId {
    let zero = e.constant(width, 0);
    let negated = e.bin(BinOp::Sub, width, zero, m).expect("sub");
    let negated = e.cast(CastOp::Trunc, width, 64, negated);
    let plain = e.cast(CastOp::Trunc, width, 64, m);
    if unsigned {
        let umax = e.constant(width, u64::MAX as u128);
        let over = e.icmp(ICmpPred::Ugt, width, m, umax);
        let over = e.and(near, over);
        let value = e.select(neg, negated, plain);
        let clamped = e.constant(64, u64::MAX as u128);
        return e.select(over, clamped, value);
    }
    let max = e.constant(width, i64::MAX as u128);
    let min = e.constant(width, 1u128 << 63);
    let (big, small) = (e.icmp(ICmpPred::Ugt, width, m, max), e.icmp(ICmpPred::Ugt, width, m, min));
    let (big, small) = (e.and(near, big), e.and(near, small));
    let (long_max, long_min) = (e.constant(64, i64::MAX as u128), e.constant(64, 1u128 << 63));
    let positive = e.select(big, long_max, plain);
    let negative = e.select(small, long_min, negated);
    e.select(neg, negative, positive)
}

/// The value of the byte `b` as a digit (8 bits) and whether it is one in
/// `base`.
fn digit_of(e: &mut Exprs, b: ExprId, base: u32) -> (ExprId, ExprId) {
    let range = |e: &mut Exprs, lo: u8, hi: u8| {
        let (l, h) = (e.constant(8, lo as u128), e.constant(8, hi as u128));
        let above = e.icmp(ICmpPred::Uge, 8, b, l);
        let below = e.icmp(ICmpPred::Ule, 8, b, h);
        (e.and(above, below), l)
    };
    let offset = |e: &mut Exprs, from: ExprId, plus: u128| {
        let d = e.bin(BinOp::Sub, 8, b, from).expect("sub");
        let p = e.constant(8, plus);
        e.bin(BinOp::Add, 8, d, p).expect("add")
    };
    let (dec, zero) = range(e, b'0', b'9');
    let (lower, a) = range(e, b'a', b'z');
    let (upper, big_a) = range(e, b'A', b'Z');
    let (dv, lv, uv) = (offset(e, zero, 0), offset(e, a, 10), offset(e, big_a, 10));
    let none = e.constant(8, 255);
    let v = e.select(upper, uv, none);
    let v = e.select(lower, lv, v);
    let v = e.select(dec, dv, v);
    let limit = e.constant(8, base as u128);
    let digit = e.icmp(ICmpPred::Ult, 8, v, limit);
    (v, digit)
}

/// C's `isspace` in the "C" locale.
fn is_space(e: &mut Exprs, b: ExprId) -> ExprId {
    let blank = eq8(e, b, b' ');
    let (lo, hi) = (e.constant(8, 9), e.constant(8, 13));
    let above = e.icmp(ICmpPred::Uge, 8, b, lo);
    let below = e.icmp(ICmpPred::Ule, 8, b, hi);
    let control = e.and(above, below);
    e.or(blank, control)
}

fn eq8(e: &mut Exprs, b: ExprId, x: u8) -> ExprId {
    let c = e.constant(8, x as u128);
    e.icmp(ICmpPred::Eq, 8, b, c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use causa_core::cconv::{clamp, parse_digits, span};

    /// The scan of `text` (NUL-padded to `n` bytes) with every byte a read,
    /// evaluated: (value, end), against glibc's conversion.
    fn scanned(text: &[u8], n: usize, base: u32, unsigned: bool) -> (u128, u128) {
        let mut e = Exprs::default();
        let bytes: Vec<ExprId> = (0..n as u32).map(|i| e.read(i, 8)).collect();
        let (value, end) = parse_fold(&mut e, &bytes, base, unsigned);
        let mut padded = text.to_vec();
        padded.resize(n, 0);
        let reads: Vec<Option<u128>> = padded.iter().map(|b| Some(*b as u128)).collect();
        (e.eval(value, &reads).expect("value"), e.eval(end, &reads).expect("end"))
    }

    #[test]
    fn the_scan_converts_as_glibc_does() {
        let texts: [&[u8]; 20] = [
            b"42",
            b"  -17x",
            b"+5",
            b"-",
            b"+-3",
            b"",
            b"abc",
            b"\t\n 0099",
            b"9223372036854775807",
            b"9223372036854775808",
            b"-9223372036854775808",
            b"-9223372036854775809",
            b"18446744073709551615",
            b"18446744073709551616",
            b"-1",
            b"777 12",
            b"0000000000000000000000000042",
            b"-99999999999999999999999",
            b"1111111111111111111111111111111",
            b"zzzzzzzzzzzzzz",
        ];
        for text in texts {
            for (base, unsigned) in [(10, false), (10, true), (8, false), (36, false), (2, true)] {
                // Room for the string and its NUL, and a short buffer
                // (18 bytes: the unclamped 64-bit scan) where it fits.
                for n in [text.len() + 1, 18, 24, 32] {
                    if n <= text.len() {
                        continue;
                    }
                    let parsed = parse_digits(text, base);
                    let (want, _) = clamp(&parsed, 64, unsigned);
                    let got = scanned(text, n, base, unsigned);
                    let shown = String::from_utf8_lossy(text);
                    assert_eq!(
                        got,
                        (want as u128, parsed.end as u128),
                        "{shown:?} base {base} unsigned {unsigned} in {n} bytes"
                    );
                }
            }
        }
    }

    #[test]
    fn long_numbers_are_kept_in_the_bits_they_need() {
        // A signed decimal: 19 significant digits stay below 10^19 < 2^64;
        // 20 are past 2^63 for sure.
        let l = long(10, false);
        assert_eq!((l.width, l.limit, l.cap, l.fits), (64, 20, (1 << 63) + 1, 18));
        // Unsigned: 20 digits stay below 10^20 < 2^67.
        let l = long(10, true);
        assert_eq!((l.width, l.limit, l.cap), (67, 21, 1 << 64));
        let l = long(2, true);
        assert_eq!((l.width, l.limit), (65, 65));
    }

    #[test]
    fn searches_find_what_the_c_library_finds() {
        let text = b"key=val;x=1";
        let n = 16;
        let mut e = Exprs::default();
        let bytes: Vec<ExprId> = (0..n as u32).map(|i| e.read(i, 8)).collect();
        let mut padded = text.to_vec();
        padded.resize(n, 0);
        let reads: Vec<Option<u128>> = padded.iter().map(|b| Some(*b as u128)).collect();
        let s = 0x1000u64;
        let at = |k: Option<usize>| k.map_or(0, |k| s as u128 + k as u128);
        let check = |e: &mut Exprs, x: ExprId, want: u128, what: &str| {
            assert_eq!(e.eval(x, &reads), Some(want), "{what}");
        };
        for c in [b'=', b'#', 0, b'1'] {
            let first = find_byte(&mut e, false, (s, &bytes), c);
            let want = if c == 0 { Some(text.len()) } else { text.iter().position(|b| *b == c) };
            check(&mut e, first, at(want), &format!("strchr {c}"));
            let last = find_byte(&mut e, true, (s, &bytes), c);
            let want = if c == 0 { Some(text.len()) } else { text.iter().rposition(|b| *b == c) };
            check(&mut e, last, at(want), &format!("strrchr {c}"));
        }
        for set in [&b"kye"[..], b"=;", b"#"] {
            let spn = span_of(&mut e, "strspn", (s, &bytes), set);
            check(&mut e, spn, span(text, set, true) as u128, "strspn");
            let cspn = span_of(&mut e, "strcspn", (s, &bytes), set);
            let n = span(text, set, false);
            check(&mut e, cspn, n as u128, "strcspn");
            let brk = span_of(&mut e, "strpbrk", (s, &bytes), set);
            check(&mut e, brk, at((n < text.len()).then_some(n)), "strpbrk");
        }
        for needle in [&b"val"[..], b"x=1", b"x=2", b"1", b"key=val;x=12"] {
            let found = find_text(&mut e, (s, &bytes), needle);
            let want = text.windows(needle.len()).position(|w| w == needle);
            check(&mut e, found, at(want), &format!("strstr {}", String::from_utf8_lossy(needle)));
        }
    }
}
