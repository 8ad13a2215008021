//! glibc's conversion of text to an integer (`strtol` in any base, and
//! `sscanf`'s integer conversions), as solver terms over bytes the
//! schedule decides: [`IntScan`] is the conversion's state, updated byte by
//! byte with selects, as `causa_core::cconv::parse_digits` reads the bytes
//! (leading white space, a sign, a `0x` prefix in base 16 or 0, digits),
//! and clamped to the type as `causa_core::cconv::clamp` at the end.
//! Written by hand: these are glibc's definitions unrolled over a known
//! number of bytes, which no crate builds as solver terms.

use crate::expr::{ExprId, Exprs};
use causa_ir::{BinOp, CastOp, ICmpPred};

/// One number's conversion in progress.
pub(super) struct IntScan {
    base: u32,
    unsigned: bool,
    /// Without room for a number past `i64::MAX`: 64 bits, no clamping.
    small: bool,
    /// The bits the magnitude is kept in.
    width: u32,
    /// Nothing but white space so far.
    pub lead: ExprId,
    /// A sign was the last byte taken.
    signed: ExprId,
    /// Digits taken, the last byte among them (or a prefix's `x`). A byte
    /// that does not continue the number clears this, `lead` and
    /// `signed`: no later byte continues it.
    pub digits: ExprId,
    neg: ExprId,
    /// Base 0: a `0x` prefix chose base 16; a leading 0, base 8.
    hex: ExprId,
    oct: ExprId,
    /// This byte is the `x` of a prefix taken.
    skip: ExprId,
    acc: ExprId,
    /// Significant digits (up to a limit past the type), when not small.
    count: ExprId,
    nonzero: ExprId,
}

/// What one byte did to an [`IntScan`] (1-bit terms).
pub(super) struct Step {
    /// The byte is part of the number's text (white space before it
    /// included).
    pub continues: ExprId,
    /// It is a digit of the number.
    pub digit: ExprId,
    /// It counts toward a field width (all but leading white space).
    pub counts: ExprId,
}

impl IntScan {
    /// The conversion in `base` (0 or 2..=36) of at most `span` bytes.
    pub(super) fn new(e: &mut Exprs, base: u32, unsigned: bool, span: usize) -> IntScan {
        let widest = if base == 0 { 16 } else { base };
        let small = (widest as u128).checked_pow(span as u32).is_some_and(|m| m <= i64::MAX as u128);
        let width = if small { 64 } else { candidates(base).map(|b| long(b, unsigned).width).max().unwrap_or(64) };
        let (zero, one) = (e.constant(1, 0), e.constant(1, 1));
        IntScan {
            base,
            unsigned,
            small,
            width,
            lead: one,
            signed: zero,
            digits: zero,
            neg: zero,
            hex: e.constant(1, (base == 16) as u128),
            oct: zero,
            skip: zero,
            acc: e.constant(width, 0),
            count: e.constant(8, 0),
            nonzero: zero,
        }
    }

    /// Byte `b`, with the next two (`ahead`, None past the bytes) for a
    /// prefix: `0x` is one only when a hex digit follows (a lone `0x` is
    /// the number 0 ending at the `x`), and `room` (1 bit) says a field
    /// width leaves that digit inside. `on` (1 bit): whether the byte is
    /// offered at all (the state stays as it was where it is not).
    pub(super) fn step(
        &mut self,
        e: &mut Exprs,
        b: ExprId,
        ahead: (Option<ExprId>, Option<ExprId>),
        room: ExprId,
        on: ExprId,
    ) -> Step {
        let space = is_space(e, b);
        let minus = eq8(e, b, b'-');
        let plus = eq8(e, b, b'+');
        let sign = e.or(minus, plus);
        let (v, _) = digit_of(e, b, 36);
        let below = |e: &mut Exprs, n: u32| {
            let c = e.constant(8, n as u128);
            e.icmp(ICmpPred::Ult, 8, v, c)
        };
        // Which bytes are digits: of the base; in base 0 the first one
        // decimal, the later ones of the base the prefix chose.
        let (first_ok, later_ok) = if self.base == 0 {
            let (h, o, d) = (below(e, 16), below(e, 8), below(e, 10));
            let later = e.select(self.oct, o, d);
            (d, e.select(self.hex, h, later))
        } else {
            let ok = below(e, self.base);
            (ok, ok)
        };
        let opens = or(e, self.lead, self.signed);
        let starts = and(e, opens, first_ok);
        let goes_on = and(e, self.digits, later_ok);
        let not_skip = e.not(self.skip);
        let digit = or(e, starts, goes_on);
        let digit = and(e, digit, not_skip);
        let lead_space = and(e, self.lead, space);
        let lead_sign = and(e, self.lead, sign);
        let continues = or(e, lead_space, lead_sign);
        let continues = or(e, continues, self.skip);
        let continues = or(e, continues, digit);
        let taken = and(e, on, continues);
        let digit = and(e, on, digit);
        // A prefix: a first digit 0, then x, then a hex digit (in room).
        let prefix = match (self.base, ahead) {
            (0 | 16, (Some(x), Some(h))) => {
                let zero = eq8(e, b, b'0');
                let (lx, ux) = (eq8(e, x, b'x'), eq8(e, x, b'X'));
                let is_x = or(e, lx, ux);
                let (hv, _) = digit_of(e, h, 36);
                let sixteen = e.constant(8, 16);
                let hex_digit = e.icmp(ICmpPred::Ult, 8, hv, sixteen);
                let p = and(e, starts, zero);
                let p = and(e, p, is_x);
                let p = and(e, p, hex_digit);
                let p = and(e, p, room);
                and(e, on, p)
            }
            _ => e.constant(1, 0),
        };
        let counts = e.not(lead_space);
        let counts = and(e, taken, counts);
        // The state after the byte, where it was offered.
        let upd = |e: &mut Exprs, new: ExprId, old: ExprId| e.select(on, new, old);
        if self.base == 0 {
            self.hex = or(e, self.hex, prefix);
            let zero = eq8(e, b, b'0');
            let first_zero = and(e, starts, zero);
            let first_zero = and(e, on, first_zero);
            let no_prefix = e.not(prefix);
            let octal = and(e, first_zero, no_prefix);
            self.oct = or(e, self.oct, octal);
        }
        let takes_minus = and(e, self.lead, minus);
        let takes_minus = and(e, on, takes_minus);
        let one = e.constant(1, 1);
        self.neg = e.select(takes_minus, one, self.neg);
        let digits = or(e, self.skip, digit);
        self.digits = upd(e, digits, self.digits);
        self.signed = upd(e, lead_sign, self.signed);
        self.lead = upd(e, lead_space, self.lead);
        self.skip = upd(e, prefix, self.skip);
        // The value: times the base, plus the digit.
        let wide = e.cast(CastOp::ZExt, 8, self.width, v);
        let times = match self.base {
            0 => {
                let by = |e: &mut Exprs, n: u128| {
                    let c = e.constant(self.width, n);
                    e.bin(BinOp::Mul, self.width, self.acc, c).expect("mul")
                };
                let (h, o, d) = (by(e, 16), by(e, 8), by(e, 10));
                let later = e.select(self.oct, o, d);
                e.select(self.hex, h, later)
            }
            base => {
                let c = e.constant(self.width, base as u128);
                e.bin(BinOp::Mul, self.width, self.acc, c).expect("mul")
            }
        };
        let next = e.bin(BinOp::Add, self.width, times, wide).expect("add");
        self.acc = e.select(digit, next, self.acc);
        if !self.small {
            let zero8 = e.constant(8, 0);
            let not_zero = e.icmp(ICmpPred::Ne, 8, v, zero8);
            let significant = and(e, digit, not_zero);
            self.nonzero = or(e, self.nonzero, significant);
            let counts = and(e, digit, self.nonzero);
            let full = self.limit(e);
            let at_limit = e.icmp(ICmpPred::Eq, 8, self.count, full);
            let step = e.constant(8, 1);
            let more = e.bin(BinOp::Add, 8, self.count, step).expect("add");
            let more = e.select(at_limit, full, more);
            self.count = e.select(counts, more, self.count);
        }
        Step { continues: taken, digit, counts }
    }

    /// The significant digits past the type for sure (8 bits).
    fn limit(&self, e: &mut Exprs) -> ExprId {
        self.by_base(e, |l| l.limit)
    }

    /// A figure of [`long`] for the base (base 0: the one the prefix chose).
    fn by_base(&self, e: &mut Exprs, f: impl Fn(&Long) -> u32) -> ExprId {
        if self.base != 0 {
            return e.constant(8, f(&long(self.base, self.unsigned)) as u128);
        }
        let [h, o, d] = [16, 8, 10].map(|b| f(&long(b, self.unsigned)) as u128);
        let (h, o, d) = (e.constant(8, h), e.constant(8, o), e.constant(8, d));
        let later = e.select(self.oct, o, d);
        e.select(self.hex, h, later)
    }

    /// The number as a 64-bit long (unsigned: an unsigned long), clamped
    /// as glibc clamps it (0 when no digit was taken).
    pub(super) fn value(&self, e: &mut Exprs) -> ExprId {
        if self.small {
            let zero = e.constant(64, 0);
            let negated = e.bin(BinOp::Sub, 64, zero, self.acc).expect("sub");
            return e.select(self.neg, negated, self.acc);
        }
        let over = self.limit(e);
        let over = e.icmp(ICmpPred::Eq, 8, self.count, over);
        let cap = e.constant(self.width, long(10, self.unsigned).cap);
        let m = e.select(over, cap, self.acc);
        // Only a number of more than `fits` significant digits can be
        // past the type: the comparisons are asked of those alone (asked
        // of every number, they tripled the query's time).
        let fits = self.by_base(e, |l| l.fits);
        let near = e.icmp(ICmpPred::Ugt, 8, self.count, fits);
        clamped(e, (m, self.width), (self.neg, near), self.unsigned)
    }
}

/// `a ∧ b`, folded where one is constant (a scan's flags that cannot be
/// set, such as a prefix's in base 10, and `on` where a scan on its own
/// offers every byte, leave the terms as they were).
fn and(e: &mut Exprs, a: ExprId, b: ExprId) -> ExprId {
    match (e.value(a), e.value(b)) {
        (Some(0), _) | (_, Some(1)) => a,
        (_, Some(0)) | (Some(1), _) => b,
        _ => e.and(a, b),
    }
}

/// `a ∨ b`, folded where one is constant.
fn or(e: &mut Exprs, a: ExprId, b: ExprId) -> ExprId {
    match (e.value(a), e.value(b)) {
        (Some(1), _) | (_, Some(0)) => a,
        (_, Some(1)) | (Some(0), _) => b,
        _ => e.or(a, b),
    }
}

/// The bases a conversion in `base` can end up in.
fn candidates(base: u32) -> impl Iterator<Item = u32> {
    let all: &[u32] = if base == 0 { &[8, 10, 16] } else { &[] };
    all.iter().copied().chain((base != 0).then_some(base))
}

/// The `strtol` scan of `bytes` (a NUL among them) in `base` (0 or 2–36): the value as a
/// 64-bit long (unsigned: an unsigned long), and the index where the
/// conversion ended (0 when nothing was converted).
pub(super) fn parse_fold(e: &mut Exprs, bytes: &[ExprId], base: u32, unsigned: bool) -> (ExprId, ExprId) {
    // (A NUL ends the bytes: the number is shorter than they are.)
    let mut scan = IntScan::new(e, base, unsigned, bytes.len().saturating_sub(1));
    let (one, mut end) = (e.constant(1, 1), e.constant(64, 0));
    for (k, &b) in bytes.iter().enumerate() {
        let ahead = (bytes.get(k + 1).copied(), bytes.get(k + 2).copied());
        let step = scan.step(e, b, ahead, one, one);
        let after = e.constant(64, k as u128 + 1);
        end = e.select(step.digit, after, end);
    }
    (scan.value(e), end)
}

/// How a long number is scanned in `base`: past the type for sure at
/// `limit` significant digits; below that exact in `width` bits, which
/// also hold `cap`, a magnitude past the type.
pub(super) struct Long {
    pub width: u32,
    pub limit: u32,
    pub cap: u128,
    /// Numbers of at most this many significant digits are inside the
    /// type.
    pub fits: u32,
}

pub(super) fn long(base: u32, unsigned: bool) -> Long {
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

/// The value of the byte `b` as a digit (8 bits; 255 when it is none) and
/// whether it is one in `base`.
pub(super) fn digit_of(e: &mut Exprs, b: ExprId, base: u32) -> (ExprId, ExprId) {
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
pub(super) fn is_space(e: &mut Exprs, b: ExprId) -> ExprId {
    let blank = eq8(e, b, b' ');
    let (lo, hi) = (e.constant(8, 9), e.constant(8, 13));
    let above = e.icmp(ICmpPred::Uge, 8, b, lo);
    let below = e.icmp(ICmpPred::Ule, 8, b, hi);
    let control = e.and(above, below);
    e.or(blank, control)
}

pub(super) fn eq8(e: &mut Exprs, b: ExprId, x: u8) -> ExprId {
    let c = e.constant(8, x as u128);
    e.icmp(ICmpPred::Eq, 8, b, c)
}

/// Whether the byte `b` is one of `set` (1 bit).
pub(super) fn member(e: &mut Exprs, b: ExprId, set: &[u8]) -> ExprId {
    let mut is_in = e.constant(1, 0);
    for &x in set {
        let is = eq8(e, b, x);
        is_in = e.or(is_in, is);
    }
    is_in
}

#[cfg(test)]
mod tests {
    use super::*;
    use causa_core::cconv::{clamp, parse_digits};

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
        let texts: [&[u8]; 31] = [
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
            b"0x1f",
            b" -0X7fffffffffffffff",
            b"0x",
            b"0xg",
            b"-0x",
            b"0x0x5",
            b"0755",
            b"089",
            b"0",
            b"0xffffffffffffffffff",
            b"01777777777777777777777",
        ];
        for text in texts {
            for (base, unsigned) in [
                (10, false),
                (10, true),
                (8, false),
                (36, false),
                (2, true),
                (16, false),
                (16, true),
                (0, false),
                (0, true),
            ] {
                // Room for the string and its NUL, and a short buffer
                // (15 and 18 bytes: the unclamped 64-bit scans) where it fits.
                for n in [text.len() + 1, 15, 18, 24, 32] {
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
}
