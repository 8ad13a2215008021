//! `scanf`'s conversions (`sscanf`, `fscanf`), as glibc does them: shared by
//! the interpreter and symbolic execution, which must store the same values
//! (symbolic execution scans a known string, or the bytes a recorded
//! `fscanf` consumed). Written by hand: no crate parses C's `scanf` formats
//! with glibc's end-of-input and matching-failure rules.
//!
//! Supported: `%d %i %u %o %x %X %p %n %s %c %[…] %f %e %g %a` (any case of
//! the float letters), `%%`, `*` (assignment suppressed), a field width, and
//! the length modifiers `hh h l ll q j z t`. `%Lf` (long double) and the wide
//! forms (`%ls`, `%lc`) are refused by name.

use crate::cconv::{clamp, is_space, parse_digits};
use crate::cfloat::parse_float;

/// One value a conversion assigns, to be stored through the next pointer
/// argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Scanned {
    /// An integer of `bytes` bytes (two's complement, truncated).
    Int { value: u64, bytes: u32 },
    /// A floating-point number: a `double` (`%lf`) or a `float` (`%f`).
    Float { value: f64, double: bool },
    /// Characters: `%s` and `%[…]` with their NUL, `%c` without.
    Bytes(Vec<u8>),
}

impl Scanned {
    /// The value's bytes in memory (little-endian), as the interpreter and
    /// symbolic execution store it.
    pub fn le_bytes(&self) -> Vec<u8> {
        match self {
            Scanned::Int { value, bytes } => value.to_le_bytes()[..(*bytes as usize).min(8)].to_vec(),
            Scanned::Float { value, double: true } => value.to_le_bytes().to_vec(),
            Scanned::Float { value, double: false } => (*value as f32).to_le_bytes().to_vec(),
            Scanned::Bytes(b) => b.clone(),
        }
    }
}

/// What a call scanned.
#[derive(Clone, Debug, PartialEq)]
pub struct Scan {
    /// The values assigned, in the order of their pointer arguments.
    pub items: Vec<Scanned>,
    /// The input bytes consumed (a byte that failed to match is not).
    pub consumed: usize,
    /// What the call returns: the conversions assigned (`%n` not counted),
    /// or -1 when the input ended before the first conversion.
    pub result: i32,
}

/// The sizes a length modifier gives: an integer's bytes, and whether a
/// float is a `double`.
#[derive(Clone, Copy)]
struct Length {
    int_bytes: u32,
    double: bool,
}

/// Scan `input` (the string, without its NUL; or a file's remaining bytes)
/// by `format`. `long_bytes`: the size of a `long` (8 on the usual 64-bit
/// targets, 4 on 32-bit ones). An error names a conversion causa does not
/// support.
pub fn scan(input: &[u8], format: &[u8], long_bytes: u32) -> Result<Scan, String> {
    let mut s = Scanner { input, pos: 0, items: Vec::new(), assigned: 0 };
    let ended = s.run(format, long_bytes)?;
    // (glibc: an input failure with nothing assigned yet is EOF, even after
    // a suppressed conversion.)
    let result = if ended && s.assigned == 0 { -1 } else { s.assigned };
    Ok(Scan { items: s.items, consumed: s.pos, result })
}

struct Scanner<'a> {
    input: &'a [u8],
    pos: usize,
    items: Vec<Scanned>,
    assigned: i32,
}

impl Scanner<'_> {
    fn skip_space(&mut self) {
        while self.pos < self.input.len() && is_space(self.input[self.pos]) {
            self.pos += 1;
        }
    }

    fn at_end(&self) -> bool {
        self.pos >= self.input.len()
    }

    /// Follow the format; true when it stopped because the input ended (an
    /// input failure), false when it ran out or a byte failed to match.
    fn run(&mut self, format: &[u8], long_bytes: u32) -> Result<bool, String> {
        let mut f = 0;
        while f < format.len() {
            let b = format[f];
            if is_space(b) {
                self.skip_space();
                f += 1;
                continue;
            }
            if b != b'%' || format.get(f + 1) == Some(&b'%') {
                // An ordinary byte (or `%%`) must come next (after space, for `%%`).
                if b == b'%' {
                    self.skip_space();
                    f += 1;
                }
                if self.at_end() {
                    return Ok(true);
                }
                if self.input[self.pos] != b {
                    return Ok(false);
                }
                self.pos += 1;
                f += 1;
                continue;
            }
            f += 1;
            let suppress = format.get(f) == Some(&b'*');
            if suppress {
                f += 1;
            }
            let mut width = 0usize;
            while let Some(d) = format.get(f).filter(|d| d.is_ascii_digit()) {
                width = width.saturating_mul(10).saturating_add((d - b'0') as usize);
                f += 1;
            }
            let (length, wide) = length_modifier(format, &mut f, long_bytes)?;
            let Some(&conv) = format.get(f) else {
                return Err("a `scanf` format that ends inside a conversion".into());
            };
            f += 1;
            if wide && matches!(conv, b's' | b'c' | b'[') {
                return Err(format!("`scanf`'s wide-character conversion `%l{}`", conv as char));
            }
            let width = (width > 0).then_some(width);
            let value = match conv {
                b'n' => {
                    if !suppress {
                        self.items.push(Scanned::Int { value: self.pos as u64, bytes: length.int_bytes });
                    }
                    continue;
                }
                b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'p' => {
                    let base = match conv {
                        b'd' | b'u' => 10,
                        b'i' => 0,
                        b'o' => 8,
                        _ => 16,
                    };
                    let bytes = if conv == b'p' { 8 } else { length.int_bytes };
                    match self.integer(base, width, bytes, conv != b'd' && conv != b'i') {
                        Field::Value(v) => v,
                        Field::Ended => return Ok(true),
                        Field::Mismatch => return Ok(false),
                    }
                }
                b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => match self.float(width, length.double) {
                    Field::Value(v) => v,
                    Field::Ended => return Ok(true),
                    Field::Mismatch => return Ok(false),
                },
                b's' => {
                    self.skip_space();
                    if self.at_end() {
                        return Ok(true);
                    }
                    let start = self.pos;
                    let limit = width.map_or(self.input.len(), |w| (start + w).min(self.input.len()));
                    while self.pos < limit && !is_space(self.input[self.pos]) {
                        self.pos += 1;
                    }
                    let mut word = self.input[start..self.pos].to_vec();
                    word.push(0);
                    Scanned::Bytes(word)
                }
                b'c' => {
                    if self.at_end() {
                        return Ok(true);
                    }
                    let start = self.pos;
                    self.pos = (start + width.unwrap_or(1)).min(self.input.len());
                    Scanned::Bytes(self.input[start..self.pos].to_vec())
                }
                b'[' => {
                    let (set, negated, next) = scanset(format, f)?;
                    f = next;
                    if self.at_end() {
                        return Ok(true);
                    }
                    let start = self.pos;
                    let limit = width.map_or(self.input.len(), |w| (start + w).min(self.input.len()));
                    while self.pos < limit && set.contains(&self.input[self.pos]) != negated {
                        self.pos += 1;
                    }
                    if self.pos == start {
                        return Ok(false);
                    }
                    let mut word = self.input[start..self.pos].to_vec();
                    word.push(0);
                    Scanned::Bytes(word)
                }
                other => return Err(format!("`scanf`'s conversion `%{}`", other as char)),
            };
            if !suppress {
                self.items.push(value);
                self.assigned += 1;
            }
        }
        Ok(false)
    }

    /// An integer field in `base` (0: by its prefix), at most `width` bytes.
    fn integer(&mut self, base: u32, width: Option<usize>, bytes: u32, unsigned: bool) -> Field {
        self.skip_space();
        if self.at_end() {
            return Field::Ended;
        }
        let end = width.map_or(self.input.len(), |w| (self.pos + w).min(self.input.len()));
        let p = parse_digits(&self.input[self.pos..end], base);
        if p.end == 0 {
            return Field::Mismatch;
        }
        self.pos += p.end;
        let (v, _) = clamp(&p, 64, unsigned);
        let v = if bytes >= 8 { v } else { v & ((1u64 << (bytes * 8)) - 1) };
        Field::Value(Scanned::Int { value: v, bytes })
    }

    /// A floating-point field, at most `width` bytes.
    fn float(&mut self, width: Option<usize>, double: bool) -> Field {
        self.skip_space();
        if self.at_end() {
            return Field::Ended;
        }
        let end = width.map_or(self.input.len(), |w| (self.pos + w).min(self.input.len()));
        let (v, used, _) = parse_float(&self.input[self.pos..end], !double);
        if used == 0 {
            return Field::Mismatch;
        }
        self.pos += used;
        Field::Value(Scanned::Float { value: v, double })
    }
}

enum Field {
    Value(Scanned),
    /// The input ended before the field.
    Ended,
    /// The field's first byte does not fit the conversion.
    Mismatch,
}

/// The length modifier at `format[*f..]` (moved past): the sizes, and
/// whether it was `l` (a wide `%ls`/`%lc`).
fn length_modifier(format: &[u8], f: &mut usize, long_bytes: u32) -> Result<(Length, bool), String> {
    let next = |k: usize| format.get(*f + k).copied();
    let (length, n, wide) = match (next(0), next(1)) {
        (Some(b'h'), Some(b'h')) => (Length { int_bytes: 1, double: false }, 2, false),
        (Some(b'h'), _) => (Length { int_bytes: 2, double: false }, 1, false),
        (Some(b'l'), Some(b'l')) => (Length { int_bytes: 8, double: true }, 2, false),
        (Some(b'l'), _) => (Length { int_bytes: long_bytes, double: true }, 1, true),
        (Some(b'q' | b'j'), _) => (Length { int_bytes: 8, double: false }, 1, false),
        (Some(b'z' | b't'), _) => (Length { int_bytes: long_bytes, double: false }, 1, false),
        (Some(b'L'), _) => return Err("`scanf` into a `long double` (`%L…`)".into()),
        _ => (Length { int_bytes: 4, double: false }, 0, false),
    };
    *f += n;
    Ok((length, wide))
}

/// The scanset of a `%[` conversion whose set starts at `format[f]`: its
/// bytes, whether it is negated (`^`), and the index after its `]`.
fn scanset(format: &[u8], mut f: usize) -> Result<(Vec<u8>, bool, usize), String> {
    let negated = format.get(f) == Some(&b'^');
    if negated {
        f += 1;
    }
    let mut set = Vec::new();
    // A `]` first is part of the set.
    if format.get(f) == Some(&b']') {
        set.push(b']');
        f += 1;
    }
    loop {
        match format.get(f) {
            None => return Err("a `scanf` format whose `%[` has no closing `]`".into()),
            Some(b']') => return Ok((set, negated, f + 1)),
            Some(&a) if format.get(f + 1) == Some(&b'-') && format.get(f + 2).is_some_and(|b| *b != b']') => {
                let b = format[f + 2];
                set.extend(a.min(b)..=a.max(b));
                f += 3;
            }
            Some(&a) => {
                set.push(a);
                f += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(value: u64, bytes: u32) -> Scanned {
        Scanned::Int { value, bytes }
    }

    fn bytes(s: &str) -> Scanned {
        Scanned::Bytes(s.as_bytes().to_vec())
    }

    #[test]
    fn numbers_words_and_literals_are_scanned() {
        // (%s stops at white space only: "apples," whole.)
        assert_eq!(scan(b"apples, 1", b"%s", 8).unwrap().items, vec![bytes("apples,\0")]);
        let s = scan(b"  42 apples, -7 0x1f", b"%d %15[^,], %hd %i", 8).unwrap();
        assert_eq!(s.items, vec![int(42, 4), bytes("apples\0"), int(0xfff9, 2), int(0x1f, 4)]);
        assert_eq!((s.result, s.consumed), (4, 20));
        let s = scan(b"3.5 2.25e1 x", b"%f %lf %c", 8).unwrap();
        assert_eq!(
            s.items,
            vec![
                Scanned::Float { value: 3.5, double: false },
                Scanned::Float { value: 22.5, double: true },
                bytes("x")
            ]
        );
        let s = scan(b"ab12:rest", b"%[a-z]%2d%*c%n%s", 8).unwrap();
        assert_eq!(s.items, vec![bytes("ab\0"), int(12, 4), int(5, 4), bytes("rest\0")]);
        assert_eq!(s.result, 3);
        let s = scan(b"key = value", b"%[^ =] = %s", 8).unwrap();
        assert_eq!(s.items, vec![bytes("key\0"), bytes("value\0")]);
        let s = scan(b"100%", b"%d%%", 8).unwrap();
        assert_eq!((s.result, s.consumed), (1, 4));
        assert_eq!(scan(b"-1", b"%u", 8).unwrap().items, vec![int(u32::MAX as u64, 4)]);
        assert_eq!(scan(b"5", b"%ld", 4).unwrap().items, vec![int(5, 4)]);
    }

    #[test]
    fn the_result_tells_a_matching_failure_from_the_end_of_the_input() {
        // A byte that does not fit: 0 (or the count so far), not consumed.
        let s = scan(b"abc", b"%d", 8).unwrap();
        assert_eq!((s.result, s.consumed), (0, 0));
        let s = scan(b"7 x", b"%d %d", 8).unwrap();
        assert_eq!((s.result, s.consumed, s.items.len()), (1, 2, 1));
        let s = scan(b"7,8", b"%d;%d", 8).unwrap();
        assert_eq!((s.result, s.consumed), (1, 1));
        // The input ends first: EOF (-1) before any conversion.
        assert_eq!(scan(b"", b"%d", 8).unwrap().result, -1);
        assert_eq!(scan(b"   ", b"%s", 8).unwrap().result, -1);
        assert_eq!(scan(b"", b"x%d", 8).unwrap().result, -1);
        assert_eq!(scan(b"9", b"%d %d", 8).unwrap().result, 1);
        // Width limits a field.
        let s = scan(b"123456", b"%3d%d", 8).unwrap();
        assert_eq!(s.items, vec![int(123, 4), int(456, 4)]);
    }

    #[test]
    fn unsupported_conversions_are_named() {
        assert!(scan(b"1", b"%Lf", 8).unwrap_err().contains("long double"));
        assert!(scan(b"a", b"%ls", 8).unwrap_err().contains("%ls"));
        assert!(scan(b"a", b"%[abc", 8).unwrap_err().contains("]"));
        assert!(scan(b"a", b"%k", 8).unwrap_err().contains("%k"));
    }
}
