//! Pure instructions: arithmetic, comparisons, casts, aggregates and vectors.

use crate::outcome::Stop;
use causa_core::BugKind;
use causa_ir::ops::{self, IntOpError};
use causa_ir::{FBinOp, Op, Operand, RmwOp, Ty, Value};

#[inline]
pub fn val(regs: &[Value], op: &Operand) -> Value {
    match op {
        Operand::Local(l) => regs[*l as usize].clone(),
        Operand::Const(v) => v.clone(),
    }
}

#[inline]
pub fn int(regs: &[Value], op: &Operand) -> u128 {
    match op {
        Operand::Local(l) => regs[*l as usize].as_int(),
        Operand::Const(v) => v.as_int(),
    }
}

fn float_of(ty: &Ty, f: f64) -> Value {
    match ty {
        Ty::F32 => Value::F32(f as f32),
        _ => Value::F64(f),
    }
}

fn fbin(op: FBinOp, ty: &Ty, a: &Value, b: &Value) -> Value {
    if let Ty::Vector(e, _) = ty {
        let v: Vec<Value> = a.elements().iter().zip(b.elements()).map(|(x, y)| fbin(op, e, x, y)).collect();
        return Value::Agg(v.into());
    }
    ops::fbinop(op, ty, a, b)
}

/// Apply a binary integer op, element-wise on vectors.
fn bin(op: causa_ir::BinOp, bits: u32, a: &Value, b: &Value) -> Result<Value, Stop> {
    if let (Value::Agg(x), Value::Agg(y)) = (a, b) {
        let v: Result<Vec<Value>, Stop> = x.iter().zip(y.iter()).map(|(p, q)| bin(op, bits, p, q)).collect();
        return Ok(Value::Agg(v?.into()));
    }
    match ops::int_binop(op, bits, a.as_int(), b.as_int()) {
        Ok(v) => Ok(Value::Int(v)),
        Err(IntOpError::DivisionByZero) => Err(Stop::bug(BugKind::DivisionByZero, "division by zero")),
        Err(IntOpError::Overflow) => Err(Stop::bug(BugKind::DivisionByZero, "signed division overflow (INT_MIN / -1)")),
    }
}

/// Evaluate a pure instruction. Returns `None` for instructions that are not pure.
/// `tagged`: the program uses tagged (64-bit) addresses, see `causa_ir::space`.
pub fn eval_pure(op: &Op, regs: &[Value], tagged: bool) -> Option<Result<Value, Stop>> {
    Some(Ok(match op {
        Op::Bin { op, bits, a, b } => {
            let (x, y) = (val(regs, a), val(regs, b));
            if let (Value::Int(p), Value::Int(q)) = (&x, &y) {
                return Some(match ops::int_binop(*op, *bits, *p, *q) {
                    Ok(v) => Ok(Value::Int(v)),
                    Err(_) => bin(*op, *bits, &x, &y),
                });
            }
            return Some(bin(*op, *bits, &x, &y));
        }
        Op::FBin { op, ty, a, b } => fbin(*op, ty, &val(regs, a), &val(regs, b)),
        Op::FNeg { ty, a } => match val(regs, a) {
            Value::Agg(v) => Value::Agg(v.iter().map(|x| float_of(ty, -x.as_f64())).collect::<Vec<_>>().into()),
            other => ops::fneg(ty, &other),
        },
        Op::ICmp { pred, bits, a, b } => {
            let (x, y) = (val(regs, a), val(regs, b));
            if let (Value::Agg(p), Value::Agg(q)) = (&x, &y) {
                let v: Vec<Value> = p
                    .iter()
                    .zip(q.iter())
                    .map(|(m, n)| Value::Int(ops::icmp(*pred, *bits, m.as_int(), n.as_int()) as u128))
                    .collect();
                Value::Agg(v.into())
            } else {
                Value::Int(ops::icmp(*pred, *bits, x.as_int(), y.as_int()) as u128)
            }
        }
        Op::FCmp { pred, a, b } => match (val(regs, a), val(regs, b)) {
            (Value::Agg(p), Value::Agg(q)) => {
                let lanes: Vec<Value> = p
                    .iter()
                    .zip(q.iter())
                    .map(|(x, y)| Value::Int(ops::fcmp(*pred, x.as_f64(), y.as_f64()) as u128))
                    .collect();
                Value::Agg(lanes.into())
            }
            (x, y) => Value::Int(ops::fcmp(*pred, x.as_f64(), y.as_f64()) as u128),
        },
        Op::Cast { op, from, to, a } => {
            let v = val(regs, a);
            match (from, to, &v) {
                (Ty::Vector(fe, _), Ty::Vector(te, _), Value::Agg(items)) => {
                    Value::Agg(items.iter().map(|x| ops::cast(*op, fe, te, x)).collect::<Vec<_>>().into())
                }
                _ if from.is_aggregate() || to.is_aggregate() => {
                    // Bitcast between a vector and a scalar of the same size.
                    let mut buf = vec![0u8; from.alloc_size().max(to.alloc_size()) as usize];
                    causa_ir::value::encode(from, &v, &mut buf);
                    causa_ir::value::decode(to, &buf)
                }
                _ => ops::cast(*op, from, to, &v),
            }
        }
        Op::Select { c, a, b } => match val(regs, c) {
            Value::Agg(lanes) => {
                let (x, y) = (val(regs, a), val(regs, b));
                let v: Vec<Value> = lanes
                    .iter()
                    .enumerate()
                    .map(|(i, l)| {
                        if l.as_int() & 1 == 1 { &x } else { &y }.elements().get(i).cloned().unwrap_or(Value::ZERO)
                    })
                    .collect();
                Value::Agg(v.into())
            }
            cond if cond.as_int() & 1 == 1 => val(regs, a),
            _ => val(regs, b),
        },
        Op::Copy { a } => val(regs, a),
        Op::Gep { base, offset, indices } => {
            let b = int(regs, base) as u64;
            let mut delta = *offset as u64;
            for (idx, scale, bits) in indices {
                let i = causa_ir::value::sext(int(regs, idx), *bits) as i64;
                delta = delta.wrapping_add(i.wrapping_mul(*scale) as u64);
            }
            if tagged {
                // Offsets wrap inside the 32-bit offset field, so an address computed
                // below or far above an object keeps pointing into that object (and
                // an access through it is reported against the right object).
                let off = causa_ir::addr_offset(b).wrapping_add(delta);
                Value::Int(causa_ir::make_addr(causa_ir::addr_alloc(b), off) as u128)
            } else {
                Value::Int(b.wrapping_add(delta) as u32 as u128)
            }
        }
        Op::ExtractValue { agg, indices } => {
            let mut v = val(regs, agg);
            for i in indices {
                v = v.elements().get(*i as usize).cloned().unwrap_or(Value::ZERO);
            }
            v
        }
        Op::InsertValue { agg, val: x, indices } => insert(&val(regs, agg), indices, val(regs, x)),
        Op::ExtractElement { vec, idx } => {
            val(regs, vec).elements().get(int(regs, idx) as usize).cloned().unwrap_or(Value::ZERO)
        }
        Op::InsertElement { vec, val: x, idx } => insert(&val(regs, vec), &[int(regs, idx) as u32], val(regs, x)),
        Op::ShuffleVector { a, b, mask } => {
            let (x, y) = (val(regs, a), val(regs, b));
            let n = x.elements().len() as i64;
            let v: Vec<Value> = mask
                .iter()
                .map(|&m| {
                    if m < 0 {
                        Value::ZERO
                    } else if m < n {
                        x.elements()[m as usize].clone()
                    } else {
                        y.elements().get((m - n) as usize).cloned().unwrap_or(Value::ZERO)
                    }
                })
                .collect();
            Value::Agg(v.into())
        }
        _ => return None,
    }))
}

fn insert(agg: &Value, indices: &[u32], x: Value) -> Value {
    let Some((&first, rest)) = indices.split_first() else {
        return x;
    };
    let mut elems: Vec<Value> = agg.elements().to_vec();
    if let Some(slot) = elems.get_mut(first as usize) {
        *slot = insert(slot, rest, x);
    }
    Value::Agg(elems.into())
}

/// New value of an atomic read-modify-write.
pub fn rmw(op: RmwOp, ty: &Ty, old: &Value, v: &Value) -> Value {
    let bits = ty.int_bits();
    let (a, b) = (old.as_int(), v.as_int());
    let m = causa_ir::value::mask(bits);
    let s = |x| causa_ir::value::sext(x, bits);
    Value::Int(match op {
        RmwOp::Xchg => return v.clone(),
        RmwOp::Add => a.wrapping_add(b) & m,
        RmwOp::Sub => a.wrapping_sub(b) & m,
        RmwOp::And => a & b,
        RmwOp::Nand => !(a & b) & m,
        RmwOp::Or => a | b,
        RmwOp::Xor => a ^ b,
        RmwOp::Max => {
            if s(a) >= s(b) {
                a
            } else {
                b
            }
        }
        RmwOp::Min => {
            if s(a) <= s(b) {
                a
            } else {
                b
            }
        }
        RmwOp::UMax => a.max(b),
        RmwOp::UMin => a.min(b),
        RmwOp::FAdd => return float_of(ty, old.as_f64() + v.as_f64()),
        RmwOp::FSub => return float_of(ty, old.as_f64() - v.as_f64()),
    })
}
