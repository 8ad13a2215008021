//! The C library's integer conversions (`strtol` and its family, `atoi`)
//! and string scans and comparisons, as glibc does them: shared by the
//! interpreter and by symbolic execution, which computes them on constant
//! or private strings.

/// The size of the block `getline` allocates for a null `*line` (larger
/// than glibc's first 120, so that a buffer rarely needs to grow): the
/// interpreter and symbolic execution must allocate the same.
pub const GETLINE_FIRST: u64 = 4096;

/// The length of the prefix of `s` made of bytes in `set` (`accept`) or of
/// bytes not in it (`!accept`): `strspn`, `strcspn`.
pub fn span(s: &[u8], set: &[u8], accept: bool) -> usize {
    s.iter().position(|b| set.contains(b) != accept).unwrap_or(s.len())
}

/// One step of `strtok_r` over `text` (a string without its NUL) with the
/// delimiters `set`, as glibc takes it: where the token starts (None: no
/// token left), where a NUL ends it in place (None: it runs to the string's
/// end), and where the position goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub start: Option<usize>,
    pub cut: Option<usize>,
    pub next: usize,
}

pub fn next_token(text: &[u8], set: &[u8]) -> Token {
    let start = span(text, set, true);
    let end = start + span(&text[start..], set, false);
    if start == text.len() {
        Token { start: None, cut: None, next: start }
    } else if end == text.len() {
        Token { start: Some(start), cut: None, next: end }
    } else {
        Token { start: Some(start), cut: Some(end), next: end + 1 }
    }
}

/// `strcmp` of two strings (without their NULs): -1, 0 or 1.
pub fn compare(a: &[u8], b: &[u8]) -> i32 {
    match a.iter().zip(b).find(|(x, y)| x != y) {
        Some((x, y)) => *x as i32 - *y as i32,
        None => a.len() as i32 - b.len() as i32,
    }
    .signum()
}

/// An integer as `strtol` reads it: sign, magnitude (saturated) and end.
pub struct ParsedInt {
    pub neg: bool,
    pub magnitude: u128,
    /// Bytes used; 0 when nothing was converted.
    pub end: usize,
}

pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Skip leading white space and one sign, as strtol and strtod do: the index
/// after them, and whether the sign was `-`.
pub fn space_and_sign(s: &[u8]) -> (usize, bool) {
    let mut i = 0;
    while i < s.len() && is_space(s[i]) {
        i += 1;
    }
    let neg = s.get(i) == Some(&b'-');
    if matches!(s.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    (i, neg)
}

/// Parse like glibc's strtol with a valid `base` (0 or 2..=36): leading space,
/// sign, base prefix, digits. A lone "0x" converts the "0" only.
pub fn parse_digits(s: &[u8], base: u32) -> ParsedInt {
    let (mut i, neg) = space_and_sign(s);
    let mut base = base;
    let has_x = s.get(i) == Some(&b'0') && matches!(s.get(i + 1), Some(b'x' | b'X'));
    let zero_at = i;
    if (base == 0 || base == 16) && has_x {
        base = 16;
        i += 2;
    } else if base == 0 {
        base = if s.get(i) == Some(&b'0') { 8 } else { 10 };
    }
    let start = i;
    let mut magnitude: u128 = 0;
    while let Some(d) = s.get(i).and_then(|&b| (b as char).to_digit(base)) {
        magnitude = magnitude.saturating_mul(base as u128).saturating_add(d as u128);
        i += 1;
    }
    if i == start {
        // "0x" without hex digits: the "0" is the number, the end is at the 'x'.
        let end = if has_x && base == 16 { zero_at + 1 } else { 0 };
        return ParsedInt { neg: false, magnitude: 0, end };
    }
    ParsedInt { neg, magnitude, end: i }
}

/// glibc's conversion of `p` to a `bits`-bit (un)signed long: the clamped value and
/// whether it was out of range (ERANGE).
pub fn clamp(p: &ParsedInt, bits: u32, unsigned: bool) -> (u64, bool) {
    let umax = if bits >= 64 { u64::MAX as u128 } else { (1u128 << bits) - 1 };
    if unsigned {
        // A negative value is negated in the unsigned type; only the magnitude can overflow.
        if p.magnitude > umax {
            return (umax as u64, true);
        }
        let v = if p.neg { (p.magnitude as u64).wrapping_neg() } else { p.magnitude as u64 };
        return (v & umax as u64, false);
    }
    let max = umax >> 1;
    if p.neg {
        if p.magnitude > max + 1 {
            return ((max + 1) as u64 & umax as u64, true); // the bits of LONG_MIN
        }
        ((p.magnitude as u64).wrapping_neg() & umax as u64, false)
    } else if p.magnitude > max {
        (max as u64, true)
    } else {
        (p.magnitude as u64, false)
    }
}
