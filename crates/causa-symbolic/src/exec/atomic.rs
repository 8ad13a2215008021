//! Atomic read-modify-writes (`atomicrmw`, `cmpxchg`): one shared access
//! point that reads a fresh value and writes an expression over it at the
//! same instant ([`SymOp::Rmw`]), as the interpreter performs them in one
//! step.

use super::{int_bits, Addr, Reg, Thread};
use crate::expr::{ExprId, Exprs};
use crate::trace::SymOp;
use crate::SymError;
use causa_ir::{BinOp, ICmpPred, Operand, RmwOp, Ty};

impl Thread<'_, '_> {
    /// Read the value at `addr`, write `update(old)` there; returns the old
    /// value.
    pub(super) fn rmw(
        &mut self,
        addr: &Operand,
        ty: &Ty,
        update: impl FnOnce(&mut Exprs, ExprId) -> Option<ExprId>,
    ) -> Result<Reg, SymError> {
        if !matches!(ty, Ty::Int(_) | Ty::Ptr) {
            return Err(self.unsupported(format!("an atomic read-modify-write of type {ty:?}")));
        }
        let (bits, size) = (int_bits(ty), ty.store_size() as u32);
        let floating = || format!("a floating-point atomic read-modify-write of {ty:?}");
        // (At an address computed from shared data, the solver places the
        // read and the write alike: `rw.rs`.)
        let (a, at) = match self.address(addr, "an atomic read-modify-write")? {
            Addr::Concrete(a) => (a, None),
            Addr::Symbolic(p) => (0, Some(p)),
        };
        if at.is_none() && self.classify(a).0 {
            let old = match self.local.get(&a) {
                Some((s, Reg::Int(e))) if *s == size => *e,
                Some(_) => return Err(self.unsupported("an atomic read-modify-write of part of a stack value")),
                None => self.st.trace.exprs.constant(bits, 0),
            };
            let new = update(&mut self.st.trace.exprs, old).ok_or_else(|| self.unsupported(floating()))?;
            self.local.insert(a, (size, Reg::Int(new)));
            return Ok(Reg::Int(old));
        }
        let (id, _) = self.new_read();
        let old = self.st.trace.exprs.read(id, bits);
        let new = update(&mut self.st.trace.exprs, old).ok_or_else(|| self.unsupported(floating()))?;
        let new = self.fit(new, bits);
        self.escape_value(new, ty);
        match at {
            None => self.note_write(a, new),
            Some(p) => self.note_symbolic_write(p, size),
        }
        self.event(SymOp::Rmw { addr: a, size, old, new, at });
        Ok(Reg::Int(old))
    }
}

/// The value an `atomicrmw op` writes over `old` with operand `v` (None:
/// floating-point operations, not modelled).
pub(super) fn rmw_value(x: &mut Exprs, op: RmwOp, bits: u32, old: ExprId, v: ExprId) -> Option<ExprId> {
    let pick = |x: &mut Exprs, pred: ICmpPred| {
        let keep = x.icmp(pred, bits, old, v);
        Some(x.select(keep, old, v))
    };
    match op {
        RmwOp::Xchg => Some(v),
        RmwOp::Add => x.bin(BinOp::Add, bits, old, v),
        RmwOp::Sub => x.bin(BinOp::Sub, bits, old, v),
        RmwOp::And => x.bin(BinOp::And, bits, old, v),
        RmwOp::Or => x.bin(BinOp::Or, bits, old, v),
        RmwOp::Xor => x.bin(BinOp::Xor, bits, old, v),
        RmwOp::Nand => {
            let both = x.bin(BinOp::And, bits, old, v)?;
            let ones = x.constant(bits, if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 });
            x.bin(BinOp::Xor, bits, both, ones)
        }
        RmwOp::Max => pick(x, ICmpPred::Sgt),
        RmwOp::Min => pick(x, ICmpPred::Slt),
        RmwOp::UMax => pick(x, ICmpPred::Ugt),
        RmwOp::UMin => pick(x, ICmpPred::Ult),
        RmwOp::FAdd | RmwOp::FSub => None,
    }
}
