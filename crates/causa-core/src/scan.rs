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

/// One directive of a `scanf` format.
#[derive(Clone, Debug, PartialEq)]
pub enum Directive {
    /// White space: any amount of white space in the input, none included.
    Space,
    /// An ordinary byte (or the `%` of `%%`, which comes after a
    /// [`Directive::Space`]) the input must have next.
    Literal(u8),
    /// A conversion: what it reads, whether its assignment is suppressed
    /// (`*`), and its field width.
    Conversion { conv: Conv, suppress: bool, width: Option<usize> },
}

/// What a conversion reads.
#[derive(Clone, Debug, PartialEq)]
pub enum Conv {
    /// An integer in `base` (0: by its prefix) into `bytes` bytes; `unsigned`
    /// for `%u %o %x %X %p`.
    Int {
        base: u32,
        bytes: u32,
        unsigned: bool,
    },
    Float {
        double: bool,
    },
    /// `%s`: a word up to white space.
    Word,
    /// `%c`: `width` bytes (1 without one), whatever they are.
    Chars,
    /// `%[…]`: the longest run of bytes in (`negated`: not in) `set`.
    Set {
        set: Vec<u8>,
        negated: bool,
    },
    /// `%n`: how many bytes were consumed so far, into `bytes` bytes.
    Count {
        bytes: u32,
    },
}

/// The directives of `format`, one by one: an error, when a directive is
/// reached, names a conversion causa does not support. `long_bytes`: the
/// size of a `long`.
pub fn directives(format: &[u8], long_bytes: u32) -> Directives<'_> {
    Directives { format, f: 0, long_bytes, percent: false }
}

/// The iterator [`directives`] returns.
pub struct Directives<'a> {
    format: &'a [u8],
    f: usize,
    long_bytes: u32,
    /// The `%` of a `%%` comes next (after its white space).
    percent: bool,
}

impl Iterator for Directives<'_> {
    type Item = Result<Directive, String>;

    fn next(&mut self) -> Option<Self::Item> {
        let format = self.format;
        if std::mem::take(&mut self.percent) {
            return Some(Ok(Directive::Literal(b'%')));
        }
        let b = *format.get(self.f)?;
        if is_space(b) {
            self.f += 1;
            return Some(Ok(Directive::Space));
        }
        if b != b'%' {
            self.f += 1;
            return Some(Ok(Directive::Literal(b)));
        }
        if format.get(self.f + 1) == Some(&b'%') {
            // `%%` skips white space first.
            self.f += 2;
            self.percent = true;
            return Some(Ok(Directive::Space));
        }
        self.f += 1;
        let d = self.conversion();
        if d.is_err() {
            // (Nothing after an unsupported conversion is followed.)
            self.f = format.len();
        }
        Some(d)
    }
}

impl Directives<'_> {
    /// The conversion after a `%`.
    fn conversion(&mut self) -> Result<Directive, String> {
        let format = self.format;
        let suppress = format.get(self.f) == Some(&b'*');
        if suppress {
            self.f += 1;
        }
        let mut width = 0usize;
        while let Some(d) = format.get(self.f).filter(|d| d.is_ascii_digit()) {
            width = width.saturating_mul(10).saturating_add((d - b'0') as usize);
            self.f += 1;
        }
        let (length, wide) = length_modifier(format, &mut self.f, self.long_bytes)?;
        let Some(&c) = format.get(self.f) else {
            return Err("a `scanf` format that ends inside a conversion".into());
        };
        self.f += 1;
        if wide && matches!(c, b's' | b'c' | b'[') {
            return Err(format!("`scanf`'s wide-character conversion `%l{}`", c as char));
        }
        let conv = match c {
            b'n' => Conv::Count { bytes: length.int_bytes },
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'p' => Conv::Int {
                base: match c {
                    b'd' | b'u' => 10,
                    b'i' => 0,
                    b'o' => 8,
                    _ => 16,
                },
                bytes: if c == b'p' { 8 } else { length.int_bytes },
                unsigned: c != b'd' && c != b'i',
            },
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => Conv::Float { double: length.double },
            b's' => Conv::Word,
            b'c' => Conv::Chars,
            b'[' => {
                let (set, negated, next) = scanset(format, self.f)?;
                self.f = next;
                Conv::Set { set, negated }
            }
            other => return Err(format!("`scanf`'s conversion `%{}`", other as char)),
        };
        Ok(Directive::Conversion { conv, suppress, width: (width > 0).then_some(width) })
    }
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
        for d in directives(format, long_bytes) {
            let (conv, suppress, width) = match d? {
                Directive::Space => {
                    self.skip_space();
                    continue;
                }
                Directive::Literal(b) => {
                    if self.at_end() {
                        return Ok(true);
                    }
                    if self.input[self.pos] != b {
                        return Ok(false);
                    }
                    self.pos += 1;
                    continue;
                }
                Directive::Conversion { conv, suppress, width } => (conv, suppress, width),
            };
            let field = match conv {
                Conv::Count { bytes } => {
                    if !suppress {
                        self.items.push(Scanned::Int { value: self.pos as u64, bytes });
                    }
                    continue;
                }
                Conv::Int { base, bytes, unsigned } => self.integer(base, width, bytes, unsigned),
                Conv::Float { double } => self.float(width, double),
                Conv::Word => self.word(width, |b| !is_space(b), true),
                Conv::Chars => {
                    if self.at_end() {
                        return Ok(true);
                    }
                    let start = self.pos;
                    self.pos = (start + width.unwrap_or(1)).min(self.input.len());
                    Field::Value(Scanned::Bytes(self.input[start..self.pos].to_vec()))
                }
                Conv::Set { set, negated } => self.word(width, |b| set.contains(&b) != negated, false),
            };
            let value = match field {
                Field::Value(v) => v,
                Field::Ended => return Ok(true),
                Field::Mismatch => return Ok(false),
            };
            if !suppress {
                self.items.push(value);
                self.assigned += 1;
            }
        }
        Ok(false)
    }

    /// `%s` (`word`: white space skipped first; `takes`: not white space)
    /// or `%[…]` (`takes`: in the set; none is a matching failure): the
    /// bytes taken, at most `width`, with a NUL.
    fn word(&mut self, width: Option<usize>, takes: impl Fn(u8) -> bool, word: bool) -> Field {
        if word {
            self.skip_space();
        }
        if self.at_end() {
            return Field::Ended;
        }
        let start = self.pos;
        let limit = width.map_or(self.input.len(), |w| (start + w).min(self.input.len()));
        while self.pos < limit && takes(self.input[self.pos]) {
            self.pos += 1;
        }
        if self.pos == start {
            return Field::Mismatch;
        }
        let mut taken = self.input[start..self.pos].to_vec();
        taken.push(0);
        Field::Value(Scanned::Bytes(taken))
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
    fn a_format_is_read_as_its_directives() {
        let all = |f: &[u8]| directives(f, 8).collect::<Result<Vec<_>, _>>();
        let conv = |conv, suppress, width| Directive::Conversion { conv, suppress, width };
        let int = |base, bytes, unsigned| Conv::Int { base, bytes, unsigned };
        assert_eq!(
            all(b"id=%d, %*3hx%%%n%c").unwrap(),
            vec![
                Directive::Literal(b'i'),
                Directive::Literal(b'd'),
                Directive::Literal(b'='),
                conv(int(10, 4, false), false, None),
                Directive::Literal(b','),
                Directive::Space,
                conv(int(16, 2, true), true, Some(3)),
                Directive::Space,
                Directive::Literal(b'%'),
                conv(Conv::Count { bytes: 4 }, false, None),
                conv(Conv::Chars, false, None),
            ]
        );
        assert_eq!(
            all(b"%lli%lu").unwrap(),
            vec![conv(int(0, 8, false), false, None), conv(int(10, 8, true), false, None)]
        );
        // An unsupported conversion is an error where it is reached.
        let mut ds = directives(b"%d%Lf%d", 8);
        assert!(ds.next().unwrap().is_ok());
        assert!(ds.next().unwrap().unwrap_err().contains("long double"));
        assert!(ds.next().is_none());
    }

    #[test]
    fn unsupported_conversions_are_named() {
        assert!(scan(b"1", b"%Lf", 8).unwrap_err().contains("long double"));
        assert!(scan(b"a", b"%ls", 8).unwrap_err().contains("%ls"));
        assert!(scan(b"a", b"%[abc", 8).unwrap_err().contains("]"));
        assert!(scan(b"a", b"%k", 8).unwrap_err().contains("%k"));
    }
}
