//! Integer and floating-point semantics shared by constant folding (at load time)
//! and the interpreter, so both agree bit for bit.

use crate::program::{BinOp, CastOp, FBinOp, FCmpPred, ICmpPred};
use crate::types::Ty;
use crate::value::{mask, sext, Value};

/// Why an integer operation has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOpError {
    DivisionByZero,
    /// `INT_MIN / -1`.
    Overflow,
}

/// `a op b` on `bits`-wide integers (inputs already masked). Shifts by at least the
/// width give 0 (LLVM says poison; causa picks a deterministic value).
#[inline]
pub fn int_binop(op: BinOp, bits: u32, a: u128, b: u128) -> Result<u128, IntOpError> {
    let m = mask(bits);
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => {
            if b >= bits as u128 {
                0
            } else {
                a << b
            }
        }
        BinOp::LShr => {
            if b >= bits as u128 {
                0
            } else {
                a >> b
            }
        }
        BinOp::AShr => {
            let sa = sext(a, bits);
            if b >= bits as u128 {
                if sa < 0 {
                    u128::MAX
                } else {
                    0
                }
            } else {
                (sa >> b) as u128
            }
        }
        BinOp::UDiv | BinOp::URem => {
            if b == 0 {
                return Err(IntOpError::DivisionByZero);
            }
            if op == BinOp::UDiv {
                a / b
            } else {
                a % b
            }
        }
        BinOp::SDiv | BinOp::SRem => {
            if b == 0 {
                return Err(IntOpError::DivisionByZero);
            }
            let (sa, sb) = (sext(a, bits), sext(b, bits));
            let min = if bits >= 128 { i128::MIN } else { -(1i128 << (bits - 1)) };
            if sa == min && sb == -1 {
                return Err(IntOpError::Overflow);
            }
            if op == BinOp::SDiv {
                (sa / sb) as u128
            } else {
                (sa % sb) as u128
            }
        }
    };
    Ok(r & m)
}

#[inline]
pub fn icmp(pred: ICmpPred, bits: u32, a: u128, b: u128) -> bool {
    match pred {
        ICmpPred::Eq => a == b,
        ICmpPred::Ne => a != b,
        ICmpPred::Ugt => a > b,
        ICmpPred::Uge => a >= b,
        ICmpPred::Ult => a < b,
        ICmpPred::Ule => a <= b,
        ICmpPred::Sgt => sext(a, bits) > sext(b, bits),
        ICmpPred::Sge => sext(a, bits) >= sext(b, bits),
        ICmpPred::Slt => sext(a, bits) < sext(b, bits),
        ICmpPred::Sle => sext(a, bits) <= sext(b, bits),
    }
}

/// `a op b` on scalar floats of type `ty` (`float` in single precision;
/// `double` and `long double` in double precision, see [`Ty::F80`]).
pub fn fbinop(op: FBinOp, ty: &Ty, a: &Value, b: &Value) -> Value {
    if *ty == Ty::F32 {
        let (x, y) = (a.as_f32(), b.as_f32());
        return Value::F32(match op {
            FBinOp::Add => x + y,
            FBinOp::Sub => x - y,
            FBinOp::Mul => x * y,
            FBinOp::Div => x / y,
            FBinOp::Rem => x % y,
        });
    }
    let (x, y) = (a.as_f64(), b.as_f64());
    float_value(
        ty,
        match op {
            FBinOp::Add => x + y,
            FBinOp::Sub => x - y,
            FBinOp::Mul => x * y,
            FBinOp::Div => x / y,
            FBinOp::Rem => x % y,
        },
    )
}

/// `-a` on a scalar float of type `ty`.
pub fn fneg(ty: &Ty, a: &Value) -> Value {
    match a {
        Value::F32(f) => Value::F32(-f),
        other => float_value(ty, -other.as_f64()),
    }
}

pub fn fcmp(pred: FCmpPred, a: f64, b: f64) -> bool {
    let uno = a.is_nan() || b.is_nan();
    match pred {
        FCmpPred::False => false,
        FCmpPred::True => true,
        FCmpPred::Ord => !uno,
        FCmpPred::Uno => uno,
        FCmpPred::Oeq => !uno && a == b,
        FCmpPred::Ogt => !uno && a > b,
        FCmpPred::Oge => !uno && a >= b,
        FCmpPred::Olt => !uno && a < b,
        FCmpPred::Ole => !uno && a <= b,
        FCmpPred::One => !uno && a != b,
        FCmpPred::Ueq => uno || a == b,
        FCmpPred::Ugt => uno || a > b,
        FCmpPred::Uge => uno || a >= b,
        FCmpPred::Ult => uno || a < b,
        FCmpPred::Ule => uno || a <= b,
        FCmpPred::Une => uno || a != b,
    }
}

fn float_value(ty: &Ty, f: f64) -> Value {
    match ty {
        Ty::F32 => Value::F32(f as f32),
        _ => Value::F64(f),
    }
}

/// Saturating float → integer conversion (LLVM says poison when out of range).
fn fp_to_int(f: f64, bits: u32, signed: bool) -> u128 {
    if f.is_nan() {
        return 0;
    }
    let v = if signed { (f as i128) as u128 } else { f as u128 };
    v & mask(bits)
}

/// Apply a conversion.
pub fn cast(op: CastOp, from: &Ty, to: &Ty, v: &Value) -> Value {
    let to_bits = to.int_bits();
    match op {
        CastOp::Trunc | CastOp::ZExt => Value::Int(v.as_int() & mask(to_bits)),
        CastOp::SExt => Value::Int((sext(v.as_int(), from.int_bits()) as u128) & mask(to_bits)),
        CastOp::FpTrunc | CastOp::FpExt => float_value(to, v.as_f64()),
        CastOp::FpToUi => Value::Int(fp_to_int(v.as_f64(), to_bits, false)),
        CastOp::FpToSi => Value::Int(fp_to_int(v.as_f64(), to_bits, true)),
        // Convert straight to the target width so the value is rounded once.
        CastOp::UiToFp => match to {
            Ty::F32 => Value::F32(v.as_int() as f32),
            _ => Value::F64(v.as_int() as f64),
        },
        CastOp::SiToFp => match to {
            Ty::F32 => Value::F32(sext(v.as_int(), from.int_bits()) as f32),
            _ => Value::F64(sext(v.as_int(), from.int_bits()) as f64),
        },
        CastOp::Bits => match (from, to) {
            (Ty::F32, Ty::Int(_)) => Value::Int(v.as_f32().to_bits() as u128),
            (Ty::F64, Ty::Int(_)) => Value::Int(v.as_f64().to_bits() as u128),
            (Ty::Int(_), Ty::F32) => Value::F32(f32::from_bits(v.as_int() as u32)),
            (Ty::Int(_), Ty::F64) => Value::F64(f64::from_bits(v.as_int() as u64)),
            (_, Ty::Int(_) | Ty::Ptr) => Value::Int(v.as_int() & mask(to_bits.max(1))),
            _ => v.clone(),
        },
    }
}

/// The `<math.h>` functions causa computes: their `double` and `float` names.
pub const MATH_FUNCTIONS: [(&str, &str); 28] = [
    ("sqrt", "sqrtf"),
    ("cbrt", "cbrtf"),
    ("fabs", "fabsf"),
    ("floor", "floorf"),
    ("ceil", "ceilf"),
    ("trunc", "truncf"),
    ("round", "roundf"),
    ("exp", "expf"),
    ("exp2", "exp2f"),
    ("log", "logf"),
    ("log2", "log2f"),
    ("log10", "log10f"),
    ("sin", "sinf"),
    ("cos", "cosf"),
    ("tan", "tanf"),
    ("asin", "asinf"),
    ("acos", "acosf"),
    ("atan", "atanf"),
    ("sinh", "sinhf"),
    ("cosh", "coshf"),
    ("tanh", "tanhf"),
    ("pow", "powf"),
    ("atan2", "atan2f"),
    ("fmod", "fmodf"),
    ("fmin", "fminf"),
    ("fmax", "fmaxf"),
    ("hypot", "hypotf"),
    ("copysign", "copysignf"),
];

/// `<math.h>`'s function `name` (its `double` name) of `x` (and `y`), as the
/// interpreter computes it (Rust's `f64` operations).
pub fn math(name: &str, x: f64, y: f64) -> Option<f64> {
    Some(match name {
        "sqrt" => x.sqrt(),
        "cbrt" => x.cbrt(),
        "fabs" => x.abs(),
        "floor" => x.floor(),
        "ceil" => x.ceil(),
        "trunc" => x.trunc(),
        "round" => x.round(),
        "exp" => x.exp(),
        "exp2" => x.exp2(),
        "log" => x.ln(),
        "log2" => x.log2(),
        "log10" => x.log10(),
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tan" => x.tan(),
        "asin" => x.asin(),
        "acos" => x.acos(),
        "atan" => x.atan(),
        "sinh" => x.sinh(),
        "cosh" => x.cosh(),
        "tanh" => x.tanh(),
        "pow" => x.powf(y),
        "atan2" => x.atan2(y),
        "fmod" => x % y,
        "fmin" => x.min(y),
        "fmax" => x.max(y),
        "hypot" => x.hypot(y),
        "copysign" => x.copysign(y),
        _ => return None,
    })
}

/// The `double` name of a math function's name (`sqrtf` → `sqrt`), when
/// it is one of [`MATH_FUNCTIONS`].
pub fn math_double_name(name: &str) -> Option<&'static str> {
    MATH_FUNCTIONS.iter().find(|(d, f)| *d == name || *f == name).map(|(d, _)| *d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_functions_by_name() {
        assert_eq!(math_double_name("sqrtf"), Some("sqrt"));
        assert_eq!(math_double_name("fabs"), Some("fabs"));
        assert_eq!(math_double_name("fmodf"), Some("fmod"));
        assert_eq!(math_double_name("frexp"), None);
        assert_eq!(math("sqrt", 16.0, 0.0), Some(4.0));
        assert_eq!(math("fmod", 7.5, 2.0), Some(1.5));
        assert_eq!(math("fmin", 1.0, f64::NAN), Some(1.0));
        assert_eq!(math("nope", 1.0, 1.0), None);
    }

    #[test]
    fn signed_division_and_shifts() {
        assert_eq!(int_binop(BinOp::SDiv, 32, (-7i32) as u32 as u128, 2), Ok((-3i32) as u32 as u128));
        assert_eq!(int_binop(BinOp::SRem, 32, (-7i32) as u32 as u128, 2), Ok((-1i32) as u32 as u128));
        assert_eq!(int_binop(BinOp::UDiv, 8, 7, 0), Err(IntOpError::DivisionByZero));
        assert_eq!(int_binop(BinOp::SDiv, 8, 0x80, 0xff), Err(IntOpError::Overflow));
        assert_eq!(int_binop(BinOp::AShr, 8, 0x80, 7), Ok(0xff));
        assert_eq!(int_binop(BinOp::Add, 8, 0xff, 1), Ok(0));
        assert_eq!(int_binop(BinOp::Mul, 128, u128::MAX, 2), Ok(u128::MAX - 1));
    }

    #[test]
    fn compares_and_casts() {
        assert!(icmp(ICmpPred::Slt, 32, 0xffff_ffff, 0));
        assert!(!icmp(ICmpPred::Ult, 32, 0xffff_ffff, 0));
        assert!(fcmp(FCmpPred::Une, f64::NAN, 1.0));
        assert!(!fcmp(FCmpPred::Oeq, f64::NAN, f64::NAN));
        let v = cast(CastOp::SExt, &Ty::Int(8), &Ty::Int(32), &Value::Int(0x80));
        assert_eq!(v, Value::Int(0xffff_ff80));
        let f = cast(CastOp::SiToFp, &Ty::Int(32), &Ty::F64, &Value::Int(0xffff_fffe));
        assert_eq!(f, Value::F64(-2.0));
    }
}
