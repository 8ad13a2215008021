//! The C library's floating-point conversion (`strtod`, `strtof`, `atof`,
//! and `scanf`'s `%f`), as glibc does it: the longest prefix that is a
//! number, hexadecimal floats, `inf`/`nan`, and when `errno` is ERANGE.
//! Shared by the interpreter and symbolic execution (`sscanf` of a known
//! string).

use crate::cconv::space_and_sign;

/// Whether `s` at `i` starts with `word` (ASCII, any case).
fn starts_with_ci(s: &[u8], i: usize, word: &str) -> bool {
    s.len() >= i + word.len() && s[i..i + word.len()].eq_ignore_ascii_case(word.as_bytes())
}

/// Parse the longest prefix of `s` that is a C floating-point number, as
/// strtod (or strtof when `single`: the value is then exactly an `f32`).
/// Returns (value, bytes used — 0 when nothing was converted, out of range).
pub fn parse_float(s: &[u8], single: bool) -> (f64, usize, bool) {
    let (i, neg) = space_and_sign(s);
    let sign = |v: f64| if neg { -v } else { v };
    if starts_with_ci(s, i, "inf") {
        let n = if starts_with_ci(s, i, "infinity") { 8 } else { 3 };
        return (sign(f64::INFINITY), i + n, false);
    }
    if starts_with_ci(s, i, "nan") {
        let mut end = i + 3;
        // An optional "(n-char-sequence)".
        if s.get(end) == Some(&b'(') {
            let close = s[end + 1..].iter().position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'));
            if let Some(k) = close.filter(|k| s[end + 1 + k] == b')') {
                end += k + 2;
            }
        }
        return (sign(f64::NAN), end, false);
    }
    let hex_digit_at = |j: usize| s.get(j).is_some_and(|b| b.is_ascii_hexdigit());
    let (v, end, nonzero, exact) = if s.get(i) == Some(&b'0')
        && matches!(s.get(i + 1), Some(b'x' | b'X'))
        && (hex_digit_at(i + 2) || (s.get(i + 2) == Some(&b'.') && hex_digit_at(i + 3)))
    {
        parse_hex(s, i + 2, single)
    } else {
        match parse_decimal(s, i, single) {
            // A decimal fraction is (in practice) never exactly a subnormal.
            Some((v, end, nonzero)) => (v, end, nonzero, false),
            None => return (0.0, 0, false),
        }
    };
    // glibc: ERANGE on overflow, on underflow to 0 and for inexact subnormals.
    let range = v.is_infinite() || (nonzero && (v == 0.0 || (is_subnormal(v, single) && !exact)));
    (sign(v), end, range)
}

fn is_subnormal(v: f64, single: bool) -> bool {
    if single {
        (v as f32).is_subnormal()
    } else {
        v.is_subnormal()
    }
}

/// Decimal digits with an optional fraction and exponent, from `i` (after the
/// sign). Returns (magnitude, end, whether a digit was nonzero), `None` without digits.
fn parse_decimal(s: &[u8], start: usize, single: bool) -> Option<(f64, usize, bool)> {
    let digits = |mut j: usize| {
        while s.get(j).is_some_and(|b| b.is_ascii_digit()) {
            j += 1;
        }
        j
    };
    let int_end = digits(start);
    let mut end = int_end;
    let mut frac_end = int_end;
    if s.get(int_end) == Some(&b'.') {
        frac_end = digits(int_end + 1);
        end = frac_end;
    }
    let mantissa_digits = (int_end - start) + frac_end.saturating_sub(int_end + 1);
    if mantissa_digits == 0 {
        return None;
    }
    if matches!(s.get(end), Some(b'e' | b'E')) {
        let mut j = end + 1;
        if matches!(s.get(j), Some(b'-' | b'+')) {
            j += 1;
        }
        let exp_end = digits(j);
        if exp_end > j {
            end = exp_end;
        }
    }
    let nonzero = s[start..frac_end].iter().any(|b| (b'1'..=b'9').contains(b));
    // The prefix is valid Rust float syntax, except that Rust wants a digit
    // around the point ("1." and ".5" are fine) — it accepts both forms.
    let text = std::str::from_utf8(&s[start..end]).ok()?;
    let v = if single { text.parse::<f32>().ok()? as f64 } else { text.parse::<f64>().ok()? };
    Some((v, end, nonzero))
}

/// Hexadecimal significand (after "0x") with an optional binary exponent.
/// Returns (magnitude, end, whether a digit was nonzero, whether a subnormal
/// result is exact).
fn parse_hex(s: &[u8], start: usize, single: bool) -> (f64, usize, bool, bool) {
    let mut mant: u64 = 0;
    let mut exp: i64 = 0;
    let mut sticky = false;
    let mut significant = 0;
    let mut i = start;
    let mut seen_point = false;
    loop {
        match s.get(i) {
            Some(b'.') if !seen_point => seen_point = true,
            Some(b) if b.is_ascii_hexdigit() => {
                let d = (*b as char).to_digit(16).unwrap_or(0) as u64;
                if significant < 15 {
                    if mant != 0 || d != 0 {
                        mant = mant << 4 | d;
                        significant += (mant != 0) as i32;
                    }
                    if seen_point {
                        exp -= 4;
                    }
                } else {
                    sticky |= d != 0;
                    if !seen_point {
                        exp += 4;
                    }
                }
            }
            _ => break,
        }
        i += 1;
    }
    let nonzero = mant != 0;
    let mut end = i;
    if matches!(s.get(i), Some(b'p' | b'P')) {
        let mut j = i + 1;
        let neg = s.get(j) == Some(&b'-');
        if matches!(s.get(j), Some(b'-' | b'+')) {
            j += 1;
        }
        let mut e: i64 = 0;
        let digits_at = j;
        while let Some(d) = s.get(j).filter(|b| b.is_ascii_digit()) {
            e = (e * 10 + (d - b'0') as i64).min(1 << 20);
            j += 1;
        }
        if j > digits_at {
            exp += if neg { -e } else { e };
            end = j;
        }
    }
    // The sticky bit below the kept digits rounds ties correctly.
    let bits = mant << 1 | sticky as u64;
    let v = ldexp(bits as f64, exp - 1);
    let v = if single { v as f32 as f64 } else { v };
    // A subnormal is k × 2^-1074 (2^-149 for float); exact when that is bits × 2^(exp-1).
    let (k, min_exp) = if single {
        (((v as f32).to_bits() & 0x7f_ffff) as u128, 149)
    } else {
        ((v.to_bits() & ((1 << 52) - 1)) as u128, 1074)
    };
    let shift = exp - 1 + min_exp;
    let exact = !sticky
        && if shift >= 0 {
            shift < 64 && k == (bits as u128) << shift
        } else {
            -shift < 64 && bits.trailing_zeros() as i64 >= -shift && k == (bits >> -shift) as u128
        };
    (v, end, nonzero, exact)
}

/// `v × 2^e` without overflowing the intermediate powers of two.
fn ldexp(mut v: f64, mut e: i64) -> f64 {
    while e > 1000 && v.is_finite() {
        v *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 && v != 0.0 {
        v *= 2f64.powi(-1000);
        e += 1000;
    }
    v * 2f64.powi(e.clamp(-1100, 1100) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_take_the_longest_valid_prefix() {
        assert_eq!(parse_float(b"  3.25xyz", false), (3.25, 6, false));
        assert_eq!(parse_float(b"-1e3", false), (-1000.0, 4, false));
        assert_eq!(parse_float(b"1e+", false), (1.0, 1, false));
        assert_eq!(parse_float(b".5", false), (0.5, 2, false));
        assert_eq!(parse_float(b"5.", false), (5.0, 2, false));
        assert_eq!(parse_float(b".", false).1, 0);
        assert_eq!(parse_float(b"abc", false).1, 0);
        assert_eq!(parse_float(b"0x1.8p1", false), (3.0, 7, false));
        assert_eq!(parse_float(b"0x", false), (0.0, 1, false));
        assert_eq!(parse_float(b"0x10", false), (16.0, 4, false));
        assert_eq!(parse_float(b"0x.8", false), (0.5, 4, false));
        assert_eq!(parse_float(b"-INFINITY", false), (f64::NEG_INFINITY, 9, false));
        assert_eq!(parse_float(b"infinit", false), (f64::INFINITY, 3, false));
        let (v, n, _) = parse_float(b"nan(123)x", false);
        assert!(v.is_nan() && n == 8);
        assert_eq!(parse_float(b"1e400", false), (f64::INFINITY, 5, true));
        assert_eq!(parse_float(b"1e-400", false), (0.0, 6, true));
        assert_eq!(parse_float(b"0e-400", false), (0.0, 6, false));
        assert_eq!(parse_float(b"1e39", true), (f64::INFINITY, 4, true));
        assert_eq!(parse_float(b"0.1", true).0, 0.1f32 as f64);
        assert_eq!(parse_float(b"0x1.fffffffffffff8p0", false).0, 2.0);
        // Subnormals: ERANGE only when inexact.
        assert!(parse_float(b"1e-310", false).2);
        assert!(!parse_float(b"0x1p-1074", false).2);
        assert!(parse_float(b"0x1.8p-1074", false).2);
        assert!(!parse_float(b"0x3p-1074", false).2);
        assert!(parse_float(b"1e-40", true).2);
        assert!(!parse_float(b"0x1p-149", true).2);
    }
}
