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

use super::numbers::{eq8, member, parse_fold};
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
const NAMES: [&str; 16] = [
    "atoi", "atol", "atoll", "strtol", "strtoll", "strtoul", "strtoull", "strchr", "strrchr", "strstr", "strspn",
    "strcspn", "strpbrk", "strnlen", "sscanf", "strlen",
];

pub(super) fn static_name(name: &str) -> &'static str {
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
        self.event(SymOp::Bulk { what, addr: s, size: n as u32, reads, writes: Vec::new(), at: None });
        self.ends_inside(&bytes, what, bound)?;
        Ok(bytes)
    }

    /// Require a NUL among `bytes` unless `bound` stops the function
    /// before their end.
    pub(super) fn ends_inside(&mut self, bytes: &[ExprId], what: &str, bound: Option<u64>) -> Result<(), SymError> {
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
    /// `bytes` at `s`: glibc's conversion (leading space, a sign, a `0x`
    /// prefix in base 16 or 0, digits; clamped to the type as
    /// [`causa_core::cconv::clamp`]: `numbers.rs`); the end pointer, when
    /// asked for, stored into the thread's own memory at `end_at`.
    pub(super) fn parse_int_of(
        &mut self,
        name: &str,
        (start, bytes): (ExprId, &[ExprId]),
        end_at: u64,
        base: u32,
    ) -> Result<Reg, SymError> {
        if end_at != 0 && !self.classify(end_at).0 {
            return Err(self.unsupported(format!("`{name}` storing its end pointer into shared memory")));
        }
        let e = &mut self.st.trace.exprs;
        let (result, end) = parse_fold(e, bytes, base, name.starts_with("strtou"));
        if end_at != 0 {
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
            self.event(SymOp::Bulk { what: "memchr", addr, size, reads, writes: Vec::new(), at: None });
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
/// The pointer `s + k`.
fn at_offset(e: &mut Exprs, s: ExprId, k: usize) -> ExprId {
    let k = e.constant(64, k as u128);
    e.bin(BinOp::Add, 64, s, k).expect("an addition of 64-bit values")
}

pub(super) fn find_byte(e: &mut Exprs, last: bool, (s, bytes): (ExprId, &[ExprId]), c: u8) -> ExprId {
    let (null, zero8, byte) = (e.constant(64, 0), e.constant(8, 0), e.constant(8, c as u128));
    let mut ptr = null;
    if last {
        let mut ended = e.constant(1, 0);
        for (k, &b) in bytes.iter().enumerate() {
            let hit = e.icmp(ICmpPred::Eq, 8, b, byte);
            let live = e.not(ended);
            let hit = e.and(live, hit);
            let here = at_offset(e, s, k);
            ptr = e.select(hit, here, ptr);
            let nul = e.icmp(ICmpPred::Eq, 8, b, zero8);
            ended = e.or(ended, nul);
        }
    } else {
        for (k, &b) in bytes.iter().enumerate().rev() {
            let hit = e.icmp(ICmpPred::Eq, 8, b, byte);
            let nul = e.icmp(ICmpPred::Eq, 8, b, zero8);
            let here = at_offset(e, s, k);
            let past = e.select(nul, null, ptr);
            ptr = e.select(hit, here, past);
        }
    }
    ptr
}

/// `strspn`, `strcspn` (a length) and `strpbrk` (a pointer or null) of
/// `bytes` with the known `set`.
pub(super) fn span_of(e: &mut Exprs, name: &str, (s, bytes): (ExprId, &[ExprId]), set: &[u8]) -> ExprId {
    let zero8 = e.constant(8, 0);
    let mut r = match name {
        "strpbrk" => e.constant(64, 0),
        _ => e.constant(64, bytes.len() as u128),
    };
    for (k, &b) in bytes.iter().enumerate().rev() {
        let member = member(e, b, set);
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
                let here = at_offset(e, s, k);
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
pub(super) fn find_text(e: &mut Exprs, (s, bytes): (ExprId, &[ExprId]), needle: &[u8]) -> ExprId {
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
        let at = at_offset(e, s, k);
        let past = e.select(nul, null, ptr);
        ptr = e.select(here, at, past);
    }
    ptr
}

#[cfg(test)]
mod tests {
    use super::*;
    use causa_core::cconv::span;

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
        let base = e.constant(64, s as u128);
        // Through a pointer known only as an expression: the same answers.
        let pointer = e.read(99, 64);
        let mut reads = reads;
        reads.resize(100, None);
        reads[99] = Some(s as u128);
        let check = |e: &mut Exprs, x: ExprId, want: u128, what: &str| {
            assert_eq!(e.eval(x, &reads), Some(want), "{what}");
        };
        for start in [base, pointer] {
            for c in [b'=', b'#', 0, b'1'] {
                let first = find_byte(&mut e, false, (start, &bytes), c);
                let want = if c == 0 { Some(text.len()) } else { text.iter().position(|b| *b == c) };
                check(&mut e, first, at(want), &format!("strchr {c}"));
                let last = find_byte(&mut e, true, (start, &bytes), c);
                let want = if c == 0 { Some(text.len()) } else { text.iter().rposition(|b| *b == c) };
                check(&mut e, last, at(want), &format!("strrchr {c}"));
            }
            for set in [&b"kye"[..], b"=;", b"#"] {
                let spn = span_of(&mut e, "strspn", (start, &bytes), set);
                check(&mut e, spn, span(text, set, true) as u128, "strspn");
                let cspn = span_of(&mut e, "strcspn", (start, &bytes), set);
                let n = span(text, set, false);
                check(&mut e, cspn, n as u128, "strcspn");
                let brk = span_of(&mut e, "strpbrk", (start, &bytes), set);
                check(&mut e, brk, at((n < text.len()).then_some(n)), "strpbrk");
            }
            for needle in [&b"val"[..], b"x=1", b"x=2", b"1", b"key=val;x=12"] {
                let found = find_text(&mut e, (start, &bytes), needle);
                let want = text.windows(needle.len()).position(|w| w == needle);
                check(&mut e, found, at(want), &format!("strstr {}", String::from_utf8_lossy(needle)));
            }
        }
    }
}
