//! Symbolic integer expressions over the values a thread reads from shared
//! memory: a hash-consed arena, constant-folded with the interpreter's own
//! integer semantics (`causa_ir::ops`), so a fully concrete expression is
//! always a constant.

use causa_core::collections::HashMap;
use causa_ir::value::mask;
use causa_ir::{BinOp, CastOp, ICmpPred, Ty, Value};

/// Index of an expression in its [`Exprs`] arena.
pub type ExprId = u32;

/// One expression node; every node has a width in bits (1 for comparisons).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    Const {
        bits: u32,
        v: u128,
    },
    /// The value of the `id`-th shared read (of any thread; see
    /// [`crate::SymTrace`]), `bits` wide.
    Read {
        id: u32,
        bits: u32,
    },
    Bin {
        op: BinOp,
        bits: u32,
        a: ExprId,
        b: ExprId,
    },
    ICmp {
        pred: ICmpPred,
        bits: u32,
        a: ExprId,
        b: ExprId,
    },
    /// Integer casts only (`Trunc`, `ZExt`, `SExt`, same-size `Bits`).
    Cast {
        op: CastOp,
        from: u32,
        to: u32,
        a: ExprId,
    },
    Select {
        c: ExprId,
        a: ExprId,
        b: ExprId,
    },
}

/// The arena.
#[derive(Clone, Debug, Default)]
pub struct Exprs {
    nodes: Vec<Expr>,
    index: HashMap<Expr, ExprId>,
}

impl Exprs {
    pub fn get(&self, e: ExprId) -> &Expr {
        &self.nodes[e as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn add(&mut self, e: Expr) -> ExprId {
        if let Some(id) = self.index.get(&e) {
            return *id;
        }
        let id = self.nodes.len() as ExprId;
        self.nodes.push(e.clone());
        self.index.insert(e, id);
        id
    }

    pub fn constant(&mut self, bits: u32, v: u128) -> ExprId {
        self.add(Expr::Const { bits, v: v & mask(bits) })
    }

    pub fn read(&mut self, id: u32, bits: u32) -> ExprId {
        self.add(Expr::Read { id, bits })
    }

    /// The constant value of `e`, if it is one.
    pub fn value(&self, e: ExprId) -> Option<u128> {
        match self.get(e) {
            Expr::Const { v, .. } => Some(*v),
            _ => None,
        }
    }

    pub fn bits(&self, e: ExprId) -> u32 {
        match self.get(e) {
            Expr::Const { bits, .. } | Expr::Read { bits, .. } | Expr::Bin { bits, .. } => *bits,
            Expr::ICmp { .. } => 1,
            Expr::Cast { to, .. } => *to,
            Expr::Select { a, .. } => self.bits(*a),
        }
    }

    /// `a op b`; None when both are constant and the operation fails
    /// (division by zero: the caller reports it).
    pub fn bin(&mut self, op: BinOp, bits: u32, a: ExprId, b: ExprId) -> Option<ExprId> {
        if let (Some(x), Some(y)) = (self.value(a), self.value(b)) {
            return causa_ir::ops::int_binop(op, bits, x, y).ok().map(|v| self.constant(bits, v));
        }
        Some(self.add(Expr::Bin { op, bits, a, b }))
    }

    pub fn icmp(&mut self, pred: ICmpPred, bits: u32, a: ExprId, b: ExprId) -> ExprId {
        if let (Some(x), Some(y)) = (self.value(a), self.value(b)) {
            return self.constant(1, causa_ir::ops::icmp(pred, bits, x, y) as u128);
        }
        self.add(Expr::ICmp { pred, bits, a, b })
    }

    pub fn cast(&mut self, op: CastOp, from: u32, to: u32, a: ExprId) -> ExprId {
        if let Some(x) = self.value(a) {
            let v = causa_ir::ops::cast(op, &Ty::Int(from), &Ty::Int(to), &Value::Int(x));
            return self.constant(to, v.as_int());
        }
        if from == to {
            return a;
        }
        self.add(Expr::Cast { op, from, to, a })
    }

    pub fn select(&mut self, c: ExprId, a: ExprId, b: ExprId) -> ExprId {
        match self.value(c) {
            Some(v) => {
                if v & 1 == 1 {
                    a
                } else {
                    b
                }
            }
            None if a == b => a,
            None => self.add(Expr::Select { c, a, b }),
        }
    }

    /// The constant summand of `e` when it is a sum (`base + index·scale`,
    /// how addresses are computed), or `e` itself when constant.
    pub fn constant_term(&self, e: ExprId) -> Option<u128> {
        match self.get(e) {
            Expr::Const { v, .. } => Some(*v),
            Expr::Bin { op: BinOp::Add, a, b, .. } => self.constant_term(*a).or_else(|| self.constant_term(*b)),
            _ => None,
        }
    }

    /// `e` with every read `id` replaced by `reads[id]` (tests, and checking a
    /// schedule's values): None if a read has no value or an operation fails.
    pub fn eval(&self, e: ExprId, reads: &[Option<u128>]) -> Option<u128> {
        let v = match self.get(e) {
            Expr::Const { v, .. } => *v,
            Expr::Read { id, bits } => reads.get(*id as usize).copied().flatten()? & mask(*bits),
            Expr::Bin { op, bits, a, b } => {
                causa_ir::ops::int_binop(*op, *bits, self.eval(*a, reads)?, self.eval(*b, reads)?).ok()?
            }
            Expr::ICmp { pred, bits, a, b } => {
                causa_ir::ops::icmp(*pred, *bits, self.eval(*a, reads)?, self.eval(*b, reads)?) as u128
            }
            Expr::Cast { op, from, to, a } => {
                causa_ir::ops::cast(*op, &Ty::Int(*from), &Ty::Int(*to), &Value::Int(self.eval(*a, reads)?)).as_int()
            }
            Expr::Select { c, a, b } => {
                if self.eval(*c, reads)? & 1 == 1 {
                    self.eval(*a, reads)?
                } else {
                    self.eval(*b, reads)?
                }
            }
        };
        Some(v)
    }

    /// A readable form (`r3 + 1`, `(r0 == 0)`), for diagnostics and tests.
    pub fn show(&self, e: ExprId) -> String {
        match self.get(e) {
            Expr::Const { v, bits } => {
                if *bits > 1 && *v > mask(*bits) / 2 {
                    format!("{}", causa_ir::value::sext(*v, *bits))
                } else {
                    v.to_string()
                }
            }
            Expr::Read { id, .. } => format!("r{id}"),
            Expr::Bin { op, a, b, .. } => format!("({} {op:?} {})", self.show(*a), self.show(*b)),
            Expr::ICmp { pred, a, b, .. } => format!("({} {pred:?} {})", self.show(*a), self.show(*b)),
            Expr::Cast { op, to, a, .. } => format!("{op:?}{to}({})", self.show(*a)),
            Expr::Select { c, a, b } => format!("({} ? {} : {})", self.show(*c), self.show(*a), self.show(*b)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_constants_and_shares_nodes() {
        let mut x = Exprs::default();
        let r = x.read(0, 32);
        let one = x.constant(32, 1);
        let a = x.bin(BinOp::Add, 32, r, one).unwrap();
        let b = x.bin(BinOp::Add, 32, r, one).unwrap();
        assert_eq!(a, b, "hash-consed");
        let two = x.bin(BinOp::Add, 32, one, one).unwrap();
        assert_eq!(x.value(two), Some(2));
        let minus = x.constant(32, u32::MAX as u128);
        assert_eq!(x.show(minus), "-1");
        let c = x.icmp(ICmpPred::Slt, 32, minus, one);
        assert_eq!(x.value(c), Some(1), "signed comparison folds");
        let zero = x.constant(32, 0);
        assert!(x.bin(BinOp::SDiv, 32, one, zero).is_none(), "division by zero is the caller's to report");
        assert_eq!(x.eval(a, &[Some(41)]), Some(42));
        assert_eq!(x.eval(a, &[None]), None);
        assert_eq!(x.show(a), "(r0 Add 1)");
    }
}
