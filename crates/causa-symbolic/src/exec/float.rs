//! Floating-point instructions over values computed from shared data. A
//! `float` or `double` register holds its concrete value
//! ([`Reg::Float`]) or, once it depends on a shared read, an expression of
//! its IEEE bit pattern ([`Reg::Int`], [`crate::expr::Expr::Fp`]); a result
//! that folds to a constant is a concrete value again. `long double`
//! (`Ty::F80`) and `frem` (C's `fmod`) of shared data, and vector
//! arithmetic, are reported as unsupported.

use super::{Reg, Thread};
use crate::expr::{ExprId, FpOp, MathFn};
use crate::SymError;
use causa_ir::{CastOp, FBinOp, FCmpPred, Operand, Ty, Value};

/// The width of a scalar float or integer type the solver handles (None:
/// `long double`, vectors, aggregates).
fn width(ty: &Ty) -> Option<u32> {
    match ty {
        Ty::F32 => Some(32),
        Ty::F64 => Some(64),
        Ty::Int(b) => Some(*b),
        _ => None,
    }
}

/// The width of a `float` or `double` (None: any other type).
fn float_width(ty: &Ty) -> Option<u32> {
    width(ty).filter(|_| matches!(ty, Ty::F32 | Ty::F64))
}

/// A concrete float's width and IEEE pattern.
fn pattern(v: &Value) -> Option<(u32, u128)> {
    match v {
        Value::F32(f) => Some((32, f.to_bits() as u128)),
        Value::F64(f) => Some((64, f.to_bits() as u128)),
        _ => None,
    }
}

impl Thread<'_, '_> {
    /// A float operand as an expression of its `bits`-wide pattern.
    fn pattern_of(&mut self, r: Reg, bits: u32) -> Result<ExprId, SymError> {
        match r {
            Reg::Float(v) => match pattern(&v) {
                Some((_, p)) => Ok(self.st.trace.exprs.constant(bits, p)),
                None => Err(self.unsupported("a floating-point value of this type computed from shared data")),
            },
            Reg::Int(e) => Ok(self.fit(e, bits)),
            Reg::Agg(_) => Err(self.unsupported("vector floating-point arithmetic on shared data")),
        }
    }

    /// The register of a result (`float`: a `float` or `double`, else an
    /// integer): a float that is a constant is a concrete value.
    pub(super) fn fp_result(&mut self, e: ExprId, float: bool, bits: u32) -> Reg {
        match (self.st.trace.exprs.value(e), float) {
            (Some(v), true) => Reg::Float(crate::expr::scalar_value(true, bits, v)),
            _ => Reg::Int(e),
        }
    }

    /// `a op b` of type `ty`.
    pub(super) fn fbin(&mut self, op: FBinOp, ty: &Ty, a: &Operand, b: &Operand) -> Result<Reg, SymError> {
        match (self.operand(a), self.operand(b)) {
            (Reg::Float(x), Reg::Float(y)) if !matches!(ty, Ty::Vector(..)) => {
                Ok(Reg::Float(causa_ir::ops::fbinop(op, ty, &x, &y)))
            }
            (x, y) => {
                let bits = match float_width(ty) {
                    Some(_) if op == FBinOp::Rem => {
                        return Err(self.unsupported("`fmod` (frem) of a value computed from shared data"))
                    }
                    Some(bits) => bits,
                    None => {
                        return Err(
                            self.unsupported(format!("floating-point arithmetic on {} from shared data", ty_name(ty)))
                        )
                    }
                };
                let (x, y) = (self.pattern_of(x, bits)?, self.pattern_of(y, bits)?);
                let e = self.st.trace.exprs.fp(FpOp::Bin(op), bits, bits, x, y);
                Ok(self.fp_result(e, true, bits))
            }
        }
    }

    /// `-a` of type `ty`.
    pub(super) fn fneg(&mut self, ty: &Ty, a: &Operand) -> Result<Reg, SymError> {
        match self.operand(a) {
            Reg::Float(x) => Ok(Reg::Float(causa_ir::ops::fneg(ty, &x))),
            x => {
                let Some(bits) = float_width(ty) else {
                    return Err(self.unsupported(format!("fneg of {} from shared data", ty_name(ty))));
                };
                let x = self.pattern_of(x, bits)?;
                let e = self.st.trace.exprs.fp(FpOp::Neg, bits, bits, x, x);
                Ok(self.fp_result(e, true, bits))
            }
        }
    }

    /// `fcmp pred a b`.
    pub(super) fn fcmp(&mut self, pred: FCmpPred, a: &Operand, b: &Operand) -> Result<Reg, SymError> {
        let (x, y) = (self.operand(a), self.operand(b));
        if let (Reg::Float(p), Reg::Float(q)) = (&x, &y) {
            let holds = causa_ir::ops::fcmp(pred, p.as_f64(), q.as_f64());
            return Ok(Reg::Int(self.st.trace.exprs.constant(1, holds as u128)));
        }
        // The width: the symbolic operand's.
        let bits = [&x, &y]
            .iter()
            .find_map(|r| match r {
                Reg::Int(e) => Some(self.st.trace.exprs.bits(*e)),
                _ => None,
            })
            .filter(|b| *b == 32 || *b == 64)
            .ok_or_else(|| self.unsupported("fcmp of vectors or `long double` from shared data"))?;
        let (x, y) = (self.pattern_of(x, bits)?, self.pattern_of(y, bits)?);
        Ok(Reg::Int(self.st.trace.exprs.fp(FpOp::Cmp(pred), bits, 1, x, y)))
    }

    /// A conversion to or from floating point of the expression `e`
    /// (computed from shared data).
    pub(super) fn fcast(&mut self, op: CastOp, from: &Ty, to: &Ty, e: ExprId) -> Result<Reg, SymError> {
        let (Some(fb), Some(tb)) = (width(from), width(to)) else {
            return Err(self.unsupported(format!(
                "a conversion from {} to {} of a value computed from shared data",
                ty_name(from),
                ty_name(to)
            )));
        };
        let float_to = float_width(to).is_some();
        if op == CastOp::Bits {
            // A float's pattern as an integer or back: the same bits.
            let e = self.fit(e, fb);
            return Ok(self.fp_result(e, float_to, tb));
        }
        let x = self.fit(e, fb);
        let r = self.st.trace.exprs.fp(FpOp::Cast(op), fb, tb, x, x);
        Ok(self.fp_result(r, float_to, tb))
    }

    /// A call of the `<math.h>` function `name` (`sqrt`, `sqrtf`), returning
    /// `ret`: computed as the interpreter does when its arguments are
    /// constants; of a value computed from shared data, the functions the
    /// solver models exactly ([`MathFn`]).
    pub(crate) fn math(&mut self, name: &str, args: &[Operand], ret: &Ty) -> Result<Reg, SymError> {
        let double = causa_ir::ops::math_double_name(name).unwrap_or(name);
        let regs: Vec<Reg> = args.iter().map(|a| self.operand(a)).collect();
        let bits = float_width(ret);
        let constant: Option<Vec<f64>> = regs
            .iter()
            .map(|r| match r {
                Reg::Float(v) => Some(v.as_f64()),
                _ => None,
            })
            .collect();
        if let Some(xs) = constant {
            let arg = |i: usize| xs.get(i).copied().unwrap_or(0.0);
            let v = causa_ir::ops::math(double, arg(0), arg(1)).ok_or_else(|| self.unsupported_call(name))?;
            return Ok(Reg::Float(if bits == Some(32) { Value::F32(v as f32) } else { Value::F64(v) }));
        }
        let (Some(m), Some(bits)) = (MathFn::by_name(double), bits) else {
            return Err(self.unsupported(format!("`{name}` of a value computed from shared data")));
        };
        let mut pats = Vec::new();
        for r in regs {
            pats.push(self.pattern_of(r, bits)?);
        }
        let Some(&x) = pats.first() else { return Err(self.unsupported_call(name)) };
        let y = *pats.get(1).unwrap_or(&x);
        let e = self.st.trace.exprs.fp(FpOp::Math(m), bits, bits, x, y);
        Ok(self.fp_result(e, true, bits))
    }

    /// A select between `x` and `y` on a condition computed from shared
    /// data, when one is a float: both as patterns.
    pub(super) fn select_float(&mut self, c: ExprId, x: Reg, y: Reg) -> Result<Reg, SymError> {
        let bits = [&x, &y]
            .iter()
            .find_map(|r| match r {
                Reg::Float(v) => pattern(v).map(|(b, _)| b),
                Reg::Int(e) => Some(self.st.trace.exprs.bits(*e)),
                Reg::Agg(_) => None,
            })
            .ok_or_else(|| self.unsupported("a select between non-integers on shared data"))?;
        let (p, q) = (self.pattern_of(x, bits)?, self.pattern_of(y, bits)?);
        let e = self.st.trace.exprs.select(c, p, q);
        Ok(self.fp_result(e, true, bits))
    }
}

/// A type as C names it, for messages.
pub(super) fn ty_name(ty: &Ty) -> String {
    match ty {
        Ty::F32 => "`float`".into(),
        Ty::F64 => "`double`".into(),
        Ty::F80(_) => "`long double`".into(),
        Ty::Int(b) => format!("a {b}-bit integer"),
        Ty::Ptr => "a pointer".into(),
        Ty::Vector(..) => "a vector".into(),
        Ty::Array(..) | Ty::Struct(_) => "an aggregate".into(),
        Ty::Void | Ty::Other => "this type".into(),
    }
}
