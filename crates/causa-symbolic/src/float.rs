//! Floating-point expressions in Z3 ([`crate::expr::Expr::Fp`]): operands and
//! results are IEEE bit patterns (bit vectors, as everything else in
//! [`crate::values`]), converted to Z3's floating-point sorts around each
//! operation, with the interpreter's semantics: round to nearest, ties to
//! even; a comparison is ordered or unordered as LLVM's predicate says; a
//! conversion to an integer truncates towards zero and gives 0 for NaN (and
//! for a negative number made unsigned), as the interpreter's does (the two
//! differ only beyond ±2^127).
//!
//! The `z3` crate has no safe constructor for the conversions from a bit
//! vector (`to_fp` of a pattern, of a signed or of an unsigned integer): they
//! are made with `z3-sys`, the C API the crate itself wraps, and wrapped the
//! way the crate wraps its own terms.

use crate::expr::{FpOp, MathFn};
use causa_ir::{CastOp, FBinOp, FCmpPred};
use z3::ast::{Ast, Bool, Float, RoundingMode, BV};
use z3::Sort;

/// The sort of a `bits`-wide float (`float` or `double`).
fn sort(bits: u32) -> Sort {
    if bits == 32 {
        Sort::float32()
    } else {
        Sort::double()
    }
}

/// Which conversion from a bit vector ([`from_bv`]).
#[derive(Clone, Copy)]
enum FromBv {
    /// The IEEE pattern.
    Pattern,
    Signed,
    Unsigned,
}

/// A float of `bits` bits from the bit vector `x`.
fn from_bv(x: &BV, bits: u32, how: FromBv) -> Float {
    let ctx = x.get_ctx();
    let (c, s) = (ctx.get_z3_context(), sort(bits));
    let rm = RoundingMode::round_nearest_ties_to_even();
    // SAFETY: every argument is a live term or sort of `ctx` (the context
    // `x` belongs to; `sort` and `rm` are made in the thread's context,
    // which is `x`'s: causa makes every term in it); Z3 returns a new
    // term, or None on an error, which is turned into a panic before any
    // use. `Float::wrap` takes a reference to the term, as the crate does
    // for every term it makes.
    unsafe {
        let ast = match how {
            FromBv::Pattern => z3_sys::Z3_mk_fpa_to_fp_bv(c, x.get_z3_ast(), s.get_z3_sort()),
            FromBv::Signed => z3_sys::Z3_mk_fpa_to_fp_signed(c, rm.get_z3_ast(), x.get_z3_ast(), s.get_z3_sort()),
            FromBv::Unsigned => z3_sys::Z3_mk_fpa_to_fp_unsigned(c, rm.get_z3_ast(), x.get_z3_ast(), s.get_z3_sort()),
        };
        Float::wrap(ctx, ast.expect("Z3 makes a floating-point conversion of a bit vector"))
    }
}

fn bit(b: &Bool) -> BV {
    b.ite(&BV::from_u64(1, 1), &BV::from_u64(0, 1))
}

/// `op` on the `from`-bit patterns (or integers) `a` and `b`: a `to`-bit
/// pattern, comparison bit or integer.
pub(crate) fn lower(op: FpOp, from: u32, to: u32, a: &BV, b: &BV) -> BV {
    let rne = RoundingMode::round_nearest_ties_to_even();
    if !op.float_operand() {
        let how = if op == FpOp::Cast(CastOp::SiToFp) { FromBv::Signed } else { FromBv::Unsigned };
        return from_bv(a, to, how).to_ieee_bv();
    }
    let x = from_bv(a, from, FromBv::Pattern);
    match op {
        FpOp::Bin(o) => {
            let y = from_bv(b, from, FromBv::Pattern);
            let r = match o {
                FBinOp::Add => x.add_with_rounding_mode(&y, &rne),
                FBinOp::Sub => x.sub_with_rounding_mode(&y, &rne),
                FBinOp::Mul => x.mul_with_rounding_mode(&y, &rne),
                // Rem is not made into an expression (expr.rs).
                FBinOp::Div | FBinOp::Rem => x.div_with_rounding_mode(&y, &rne),
            };
            r.to_ieee_bv()
        }
        FpOp::Neg => x.unary_neg().to_ieee_bv(),
        FpOp::Math(m) => {
            let y = || from_bv(b, from, FromBv::Pattern);
            let integral = |rm: RoundingMode| x.round_to_integral_with_rounding_mode(&rm);
            let r = match m {
                MathFn::Sqrt => x.sqrt_with_rounding_mode(&rne),
                MathFn::Fabs => x.unary_abs(),
                MathFn::Floor => integral(RoundingMode::round_towards_negative()),
                MathFn::Ceil => integral(RoundingMode::round_towards_positive()),
                MathFn::Trunc => integral(RoundingMode::round_towards_zero()),
                MathFn::Round => integral(RoundingMode::round_nearest_ties_to_away()),
                MathFn::Fmin => x.min(y()),
                MathFn::Fmax => x.max(y()),
            };
            r.to_ieee_bv()
        }
        FpOp::Cmp(p) => bit(&compare(p, &x, &from_bv(b, from, FromBv::Pattern))),
        FpOp::Cast(CastOp::FpExt | CastOp::FpTrunc) => x.to_fp_with_rounding_mode(&rne, &sort(to)).to_ieee_bv(),
        FpOp::Cast(c) => {
            // Through 128 bits, then cut, as the interpreter converts.
            let rtz = RoundingMode::round_towards_zero();
            let zero = BV::from_u64(0, to);
            let wide = if c == CastOp::FpToUi {
                x.to_ubv_with_rounding_mode(&rtz, 128)
            } else {
                x.to_sbv_with_rounding_mode(&rtz, 128)
            };
            let cut = wide.extract(to - 1, 0);
            let none =
                if c == CastOp::FpToUi { Bool::or(&[x.is_nan(), x.lt(Float::from_f64(0.0))]) } else { x.is_nan() };
            none.ite(&zero, &cut)
        }
    }
}

/// LLVM's `fcmp pred x y`.
fn compare(p: FCmpPred, x: &Float, y: &Float) -> Bool {
    let uno = Bool::or(&[x.is_nan(), y.is_nan()]);
    let (ord, unord) = (|b: Bool| Bool::and(&[uno.not(), b]), |b: Bool| Bool::or(&[uno.clone(), b]));
    match p {
        FCmpPred::False => Bool::from_bool(false),
        FCmpPred::True => Bool::from_bool(true),
        FCmpPred::Ord => uno.not(),
        FCmpPred::Uno => uno.clone(),
        FCmpPred::Oeq => ord(x.eq_fpa(y)),
        FCmpPred::Ogt => ord(x.gt(y)),
        FCmpPred::Oge => ord(x.ge(y)),
        FCmpPred::Olt => ord(x.lt(y)),
        FCmpPred::Ole => ord(x.le(y)),
        FCmpPred::One => ord(x.eq_fpa(y).not()),
        FCmpPred::Ueq => unord(x.eq_fpa(y)),
        FCmpPred::Ugt => unord(x.gt(y)),
        FCmpPred::Uge => unord(x.ge(y)),
        FCmpPred::Ult => unord(x.lt(y)),
        FCmpPred::Ule => unord(x.le(y)),
        FCmpPred::Une => unord(x.eq_fpa(y).not()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::fp_fold;

    /// The solver's value of `lower` on constants.
    fn solved(op: FpOp, from: u32, to: u32, a: u128, b: u128) -> u128 {
        let x = BV::from_u64(a as u64, from);
        let y = BV::from_u64(b as u64, from);
        let r = BV::new_const("r", to);
        let s = z3::Solver::new();
        s.assert(r.eq(lower(op, from, to, &x, &y)));
        assert_eq!(s.check(), z3::SatResult::Sat);
        s.get_model().unwrap().eval(&r, true).unwrap().as_u64().unwrap() as u128
    }

    #[test]
    fn the_solver_computes_as_the_interpreter() {
        let d = |f: f64| f.to_bits() as u128;
        let s = |f: f32| f.to_bits() as u128;
        let cases: Vec<(FpOp, u32, u32, u128, u128)> = vec![
            (FpOp::Bin(FBinOp::Add), 64, 64, d(1.5), d(2.25)),
            (FpOp::Bin(FBinOp::Add), 64, 64, d(0.1), d(0.2)),
            (FpOp::Bin(FBinOp::Sub), 64, 64, d(3.0), d(0.25)),
            (FpOp::Bin(FBinOp::Mul), 32, 32, s(1.1), s(3.3)),
            (FpOp::Bin(FBinOp::Div), 64, 64, d(1.0), d(3.0)),
            (FpOp::Neg, 64, 64, d(2.5), d(2.5)),
            (FpOp::Cmp(FCmpPred::Oeq), 64, 1, d(7.0), d(7.0)),
            (FpOp::Cmp(FCmpPred::Oeq), 64, 1, d(7.0), d(6.75)),
            (FpOp::Cmp(FCmpPred::Olt), 64, 1, d(-1.0), d(0.5)),
            (FpOp::Cmp(FCmpPred::Une), 64, 1, d(f64::NAN), d(0.5)),
            (FpOp::Cmp(FCmpPred::Oeq), 64, 1, d(0.0), d(-0.0)),
            (FpOp::Cast(CastOp::FpExt), 32, 64, s(0.1), s(0.1)),
            (FpOp::Cast(CastOp::FpTrunc), 64, 32, d(0.1), d(0.1)),
            (FpOp::Cast(CastOp::FpToSi), 64, 32, d(-7.9), d(-7.9)),
            (FpOp::Cast(CastOp::FpToUi), 64, 32, d(-7.9), d(-7.9)),
            (FpOp::Cast(CastOp::FpToSi), 64, 32, d(f64::NAN), d(f64::NAN)),
            (FpOp::Cast(CastOp::SiToFp), 32, 64, (-5i32) as u32 as u128, 0),
            (FpOp::Cast(CastOp::UiToFp), 32, 64, (-5i32) as u32 as u128, 0),
            (FpOp::Cast(CastOp::SiToFp), 64, 32, 123_456_789_123, 0),
            (FpOp::Math(MathFn::Sqrt), 64, 64, d(2.0), d(2.0)),
            (FpOp::Math(MathFn::Sqrt), 32, 32, s(2.0), s(2.0)),
            (FpOp::Math(MathFn::Fabs), 64, 64, d(-2.5), d(-2.5)),
            (FpOp::Math(MathFn::Floor), 64, 64, d(-2.5), d(-2.5)),
            (FpOp::Math(MathFn::Ceil), 64, 64, d(-2.5), d(-2.5)),
            (FpOp::Math(MathFn::Trunc), 64, 64, d(-2.5), d(-2.5)),
            (FpOp::Math(MathFn::Round), 64, 64, d(-2.5), d(-2.5)),
            (FpOp::Math(MathFn::Round), 64, 64, d(0.5), d(0.5)),
            (FpOp::Math(MathFn::Fmin), 64, 64, d(1.0), d(-3.0)),
            (FpOp::Math(MathFn::Fmax), 64, 64, d(1.0), d(-3.0)),
        ];
        for (op, from, to, a, b) in cases {
            let b = if matches!(op, FpOp::Bin(_) | FpOp::Cmp(_) | FpOp::Math(_)) { b } else { a };
            assert_eq!(solved(op, from, to, a, b), fp_fold(op, from, to, a, b), "{op:?} {from}→{to} of {a:#x}, {b:#x}");
        }
    }
}
