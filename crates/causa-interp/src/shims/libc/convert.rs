//! Number parsing (`<stdlib.h>`): `atoi`, the `strtol` family and the
//! floating-point conversions, with glibc's end pointers, clamping and `errno`.

use super::misc::{set_errno, EINVAL, ERANGE};
use super::string::read_strings;
use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, ret_u64, Call, Registry, Ret};
use causa_core::cconv::{clamp, parse_digits};
use causa_core::cfloat::parse_float;
use causa_core::EventKind;
use causa_ir::{Ty, Value};

pub fn register(r: &mut Registry) {
    // glibc: atoi, atol and atoll are strtol/strtoll(s, NULL, 10), truncated.
    // Each reads its string: visible when it is in shared memory.
    r.visible_if_shared("stdlib", "atoi", EventKind::Read, &[0], |m, c| {
        let bits = long_bits(m, "strtol");
        ret_i32(to_int(m, c, bits, false, 10)?.0 as i32)
    });
    r.visible_if_shared("stdlib", "atol", EventKind::Read, &[0], |m, c| {
        let bits = long_bits(m, "strtol");
        ret_u64(to_int(m, c, bits, false, 10)?.0)
    });
    r.visible_if_shared("stdlib", "atoll", EventKind::Read, &[0], |m, c| ret_u64(to_int(m, c, 64, false, 10)?.0));
    for name in ["strtol", "strtoll", "strtoul", "strtoull"] {
        r.visible_if_shared("stdlib", name, EventKind::Read, &[0], strtol);
    }
    r.visible_if_shared("stdlib", "atof", EventKind::Read, &[0], |m, c| {
        let s = read_strings(m, c, &[0])?.remove(0);
        let (v, _, range) = parse_float(&s, false);
        if range {
            set_errno(m, c.t, ERANGE)?;
        }
        Ok(Ret::Value(Value::F64(v)))
    });
    r.visible_if_shared("stdlib", "strtod", EventKind::Read, &[0], |m, c| strtod(m, c, false));
    r.visible_if_shared("stdlib", "strtof", EventKind::Read, &[0], |m, c| strtod(m, c, true));
}

/// The number of bits of the `long` that `name` returns (`long long` for the `ll` forms).
fn long_bits(m: &Machine, name: &str) -> u32 {
    if name.ends_with("ll") {
        64
    } else {
        m.program().space.layout.ptr_bytes as u32 * 8
    }
}

/// Parse like strtol in base `base`. Returns (value, bytes used); the value
/// saturates far beyond any C type. (Kept for callers that do their own clamping.)
pub fn parse_int(s: &[u8], base: u32) -> (i128, usize) {
    if base == 1 || base > 36 {
        return (0, 0);
    }
    let p = parse_digits(s, base);
    let v = p.magnitude.min(i128::MAX as u128) as i128;
    (if p.neg { -v } else { v }, p.end)
}

/// `strtol`-style conversion of the string at argument 0 in `base`, setting
/// errno; returns the result bits and the bytes used (`None`: invalid base).
fn to_int(m: &mut Machine, c: &Call<'_>, bits: u32, unsigned: bool, base: i32) -> Result<(u64, Option<usize>), Stop> {
    if base < 0 || base == 1 || base > 36 {
        set_errno(m, c.t, EINVAL)?;
        return Ok((0, None));
    }
    let s = read_strings(m, c, &[0])?.remove(0);
    let p = parse_digits(&s, base as u32);
    let (v, range) = clamp(&p, bits, unsigned);
    if range {
        set_errno(m, c.t, ERANGE)?;
    }
    Ok((v, Some(p.end)))
}

/// `strtol(s, endptr, base)` and its `ul`/`ll`/`ull` forms.
fn strtol(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let unsigned = c.name.starts_with("strtou");
    let bits = long_bits(m, c.name);
    let (v, used) = to_int(m, c, bits, unsigned, c.i32(2))?;
    // glibc leaves *endptr alone for an invalid base.
    if let (Some(used), true) = (used, c.ptr(1) != 0) {
        m.store(c.ptr(1), &m.ptr_ty(), &Value::Int((c.ptr(0) + used as u64) as u128))?;
    }
    ret_u64(v)
}

/// `strtod`/`strtof(s, endptr)`.
fn strtod(m: &mut Machine, c: &Call<'_>, single: bool) -> Result<Ret, Stop> {
    let s = read_strings(m, c, &[0])?.remove(0);
    let (v, used, range) = parse_float(&s, single);
    if range {
        set_errno(m, c.t, ERANGE)?;
    }
    if c.ptr(1) != 0 {
        m.store(c.ptr(1), &m.ptr_ty(), &Value::Int((c.ptr(0) + used as u64) as u128))?;
    }
    Ok(Ret::Value(match c.ret {
        Ty::F32 => Value::F32(v as f32),
        _ => Value::F64(v),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_clamp_like_glibc() {
        let p = |s: &str| parse_digits(s.as_bytes(), 0);
        assert_eq!(clamp(&p("9223372036854775808"), 64, false), (i64::MAX as u64, true));
        assert_eq!(clamp(&p("-9223372036854775808"), 64, false), (i64::MIN as u64, false));
        assert_eq!(clamp(&p("-9223372036854775809"), 64, false), (i64::MIN as u64, true));
        assert_eq!(clamp(&p("-1"), 64, true), (u64::MAX, false));
        assert_eq!(clamp(&p("18446744073709551616"), 64, true), (u64::MAX, true));
        assert_eq!(clamp(&p("2147483648"), 32, false), (i32::MAX as u64, true));
        assert_eq!(clamp(&p("-2147483649"), 32, false), (0x8000_0000, true));
        assert_eq!(p("0x").end, 1);
        assert_eq!(p("0x1g").end, 3);
        assert_eq!(p(" 017").magnitude, 15);
        assert_eq!(p("-").end, 0);
        assert_eq!(parse_int(b"12", 37), (0, 0));
    }
}
