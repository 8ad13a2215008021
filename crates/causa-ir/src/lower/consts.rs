//! Constant evaluation at load time, including constant expressions over the
//! (fixed) addresses of globals and functions.

use super::Lowerer;
use crate::error::IrError;
use crate::ops;
use crate::program::{BinOp, CastOp, LocId};
use crate::types::Ty;
use crate::value::{mask, sext, Value};
use llvm_ir::constant::Float;
use llvm_ir::types::Type;
use llvm_ir::{Constant, ConstantRef, Name};

impl Lowerer<'_> {
    pub(super) fn unsupported(&self, what: String, loc: LocId) -> IrError {
        IrError::Unsupported { what, loc: self.loc_value(loc) }
    }

    /// Evaluate a constant to a runtime value.
    pub fn constant(&mut self, c: &ConstantRef, loc: LocId) -> Result<Value, IrError> {
        Ok(match c.as_ref() {
            // llvm-ir keeps 64 bits of wider constants; clang's wide constants are
            // overwhelmingly small negative numbers, so sign-extend (a documented
            // limitation: i128 constants outside the i64 range are not exact).
            Constant::Int { bits, value } if *bits > 64 => Value::Int((*value as i64 as i128 as u128) & mask(*bits)),
            Constant::Int { bits, value } => Value::Int((*value as u128) & mask(*bits)),
            Constant::Float(f) => match f {
                Float::Single(x) => Value::F32(*x),
                Float::Double(x) => Value::F64(*x),
                other => return Err(self.unsupported(format!("floating-point constant {other:?}"), loc)),
            },
            Constant::Null(_) | Constant::TokenNone => Value::ZERO,
            Constant::AggregateZero(t) | Constant::Undef(t) | Constant::Poison(t) => {
                let ty = self.ty(t);
                zero_of(&ty)
            }
            Constant::Struct { values, .. } => {
                let v: Result<Vec<_>, _> = values.iter().map(|e| self.constant(e, loc)).collect();
                Value::Agg(v?.into())
            }
            Constant::Array { elements, .. } => {
                let v: Result<Vec<_>, _> = elements.iter().map(|e| self.constant(e, loc)).collect();
                Value::Agg(v?.into())
            }
            Constant::Vector(elements) => {
                let v: Result<Vec<_>, _> = elements.iter().map(|e| self.constant(e, loc)).collect();
                Value::Agg(v?.into())
            }
            Constant::GlobalReference { name, .. } => Value::Int(self.global_ref(name, loc)? as u128),
            Constant::BlockAddress => return Err(self.unsupported("blockaddress constant".into(), loc)),
            Constant::GetElementPtr(g) => {
                let base = self.constant(&g.address, loc)?.as_int() as u64;
                let pty = self.module.types.type_of(&*g.address);
                let Type::PointerType { pointee_type, .. } = pty.as_ref() else {
                    return Err(self.unsupported("constant GEP on a non-pointer".into(), loc));
                };
                let mut ty = self.ty(pointee_type);
                let mut off: i64 = 0;
                for (i, idx) in g.indices.iter().enumerate() {
                    let iv = self.constant(idx, loc)?;
                    let bits = self.module.types.type_of(&**idx).as_ref().clone();
                    let bits = match bits {
                        Type::IntegerType { bits } => bits,
                        _ => 64,
                    };
                    let n = sext(iv.as_int(), bits) as i64;
                    if i == 0 {
                        off += n * ty.alloc_size() as i64;
                    } else {
                        off += ty.element_offset(n as u64) as i64;
                        ty = ty.element(n as usize).cloned().unwrap_or(Ty::Int(8));
                    }
                }
                Value::Int(base.wrapping_add(off as u64) as u128)
            }
            Constant::BitCast(b) => self.constant(&b.operand, loc)?,
            Constant::AddrSpaceCast(b) => self.constant(&b.operand, loc)?,
            Constant::PtrToInt(p) => {
                let to = self.ty(&p.to_type);
                Value::Int(self.constant(&p.operand, loc)?.as_int() & mask(to.int_bits()))
            }
            Constant::IntToPtr(p) => Value::Int(self.constant(&p.operand, loc)?.as_int() & mask(64)),
            Constant::Trunc(t) => self.const_cast(CastOp::Trunc, &t.operand, &t.to_type, loc)?,
            Constant::ZExt(t) => self.const_cast(CastOp::ZExt, &t.operand, &t.to_type, loc)?,
            Constant::SExt(t) => self.const_cast(CastOp::SExt, &t.operand, &t.to_type, loc)?,
            Constant::Add(b) => self.const_bin(BinOp::Add, &b.operand0, &b.operand1, loc)?,
            Constant::Sub(b) => self.const_bin(BinOp::Sub, &b.operand0, &b.operand1, loc)?,
            Constant::Mul(b) => self.const_bin(BinOp::Mul, &b.operand0, &b.operand1, loc)?,
            Constant::And(b) => self.const_bin(BinOp::And, &b.operand0, &b.operand1, loc)?,
            Constant::Or(b) => self.const_bin(BinOp::Or, &b.operand0, &b.operand1, loc)?,
            Constant::Xor(b) => self.const_bin(BinOp::Xor, &b.operand0, &b.operand1, loc)?,
            Constant::Shl(b) => self.const_bin(BinOp::Shl, &b.operand0, &b.operand1, loc)?,
            Constant::LShr(b) => self.const_bin(BinOp::LShr, &b.operand0, &b.operand1, loc)?,
            Constant::AShr(b) => self.const_bin(BinOp::AShr, &b.operand0, &b.operand1, loc)?,
            Constant::UDiv(b) => self.const_bin(BinOp::UDiv, &b.operand0, &b.operand1, loc)?,
            Constant::SDiv(b) => self.const_bin(BinOp::SDiv, &b.operand0, &b.operand1, loc)?,
            Constant::URem(b) => self.const_bin(BinOp::URem, &b.operand0, &b.operand1, loc)?,
            Constant::SRem(b) => self.const_bin(BinOp::SRem, &b.operand0, &b.operand1, loc)?,
            Constant::ICmp(c) => {
                let bits = self.const_bits(&c.operand0);
                let a = self.constant(&c.operand0, loc)?.as_int();
                let b = self.constant(&c.operand1, loc)?.as_int();
                Value::Int(ops::icmp(super::func::icmp_pred(c.predicate), bits, a, b) as u128)
            }
            Constant::Select(s) => {
                if self.constant(&s.condition, loc)?.as_int() & 1 == 1 {
                    self.constant(&s.true_value, loc)?
                } else {
                    self.constant(&s.false_value, loc)?
                }
            }
            Constant::ExtractValue(e) => {
                let mut v = self.constant(&e.aggregate, loc)?;
                for i in &e.indices {
                    v = v.elements().get(*i as usize).cloned().unwrap_or(Value::ZERO);
                }
                v
            }
            other => return Err(self.unsupported(format!("constant expression `{other}`"), loc)),
        })
    }

    fn const_bits(&self, c: &ConstantRef) -> u32 {
        match self.module.types.type_of(&**c).as_ref() {
            Type::IntegerType { bits } => *bits,
            _ => 64,
        }
    }

    fn const_bin(&mut self, op: BinOp, a: &ConstantRef, b: &ConstantRef, loc: LocId) -> Result<Value, IrError> {
        let bits = self.const_bits(a);
        let (x, y) = (self.constant(a, loc)?.as_int(), self.constant(b, loc)?.as_int());
        ops::int_binop(op, bits, x, y)
            .map(Value::Int)
            .map_err(|_| self.unsupported("constant expression dividing by zero".into(), loc))
    }

    fn const_cast(&mut self, op: CastOp, a: &ConstantRef, to: &llvm_ir::TypeRef, loc: LocId) -> Result<Value, IrError> {
        let from_t = self.module.types.type_of(&**a);
        let from = self.ty(&from_t);
        let to = self.ty(to);
        let v = self.constant(a, loc)?;
        Ok(ops::cast(op, &from, &to, &v))
    }

    /// Address of a global variable, function or alias.
    pub fn global_ref(&mut self, name: &Name, loc: LocId) -> Result<u64, IrError> {
        let s = match name {
            Name::Name(s) => s.to_string(),
            Name::Number(i) => i.to_string(),
        };
        if let Some(g) = self.globals.get(&s) {
            return Ok(self.space.global_addr(*g));
        }
        if let Some(f) = self.functions.get(&s).copied() {
            return Ok(self.space.function_addr(f));
        }
        if let Some(a) = self.aliases.get(&s).copied() {
            let a = a.clone();
            return Ok(self.constant(&a, loc)?.as_int() as u64);
        }
        Err(self.unsupported(format!("reference to unknown global `{s}`"), loc))
    }
}

/// The all-zero value of a type.
pub fn zero_of(ty: &Ty) -> Value {
    match ty {
        Ty::F32 => Value::F32(0.0),
        Ty::F64 | Ty::F80(_) => Value::F64(0.0),
        Ty::Array(..) | Ty::Vector(..) | Ty::Struct(_) => {
            let v: Vec<Value> = (0..ty.len()).map(|i| zero_of(ty.element(i as usize).unwrap_or(&Ty::Void))).collect();
            Value::Agg(v.into())
        }
        _ => Value::ZERO,
    }
}
