//! Symbolic integer expressions over the values a thread reads from shared
//! memory: a hash-consed arena, constant-folded with the interpreter's own
//! integer semantics (`causa_ir::ops`), so a fully concrete expression is
//! always a constant. A `float` or `double` is its IEEE bit pattern (32 or
//! 64 bits wide): [`Expr::Fp`] operates on patterns and gives one (or a
//! comparison's bit, or a conversion's integer), so a bitcast is nothing
//! and a shared `double` is read and written like a 64-bit integer.

use causa_core::collections::HashMap;
use causa_ir::value::mask;
use causa_ir::{BinOp, CastOp, FBinOp, FCmpPred, ICmpPred, Ty, Value};

/// How many characters of an expression [`Exprs::brief`] shows.
const BRIEF: usize = 120;

/// A floating-point operation of [`Expr::Fp`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpOp {
    /// `a op b` (not `Rem`: C's `fmod` is not IEEE's remainder, which is what
    /// the solver has).
    Bin(FBinOp),
    Neg,
    Cmp(FCmpPred),
    /// `FpExt`, `FpTrunc`, `FpToSi`, `FpToUi`, `SiToFp`, `UiToFp`.
    Cast(CastOp),
    /// A `<math.h>` function the solver computes exactly.
    Math(MathFn),
}

/// The `<math.h>` functions of values computed from shared data that the
/// solver models (IEEE operations, the results exact or correctly rounded,
/// as the interpreter's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    Sqrt,
    Fabs,
    Floor,
    Ceil,
    Trunc,
    Round,
    Fmin,
    Fmax,
}

impl MathFn {
    /// By its `double` name.
    pub fn by_name(name: &str) -> Option<MathFn> {
        Some(match name {
            "sqrt" => MathFn::Sqrt,
            "fabs" => MathFn::Fabs,
            "floor" => MathFn::Floor,
            "ceil" => MathFn::Ceil,
            "trunc" => MathFn::Trunc,
            "round" => MathFn::Round,
            "fmin" => MathFn::Fmin,
            "fmax" => MathFn::Fmax,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            MathFn::Sqrt => "sqrt",
            MathFn::Fabs => "fabs",
            MathFn::Floor => "floor",
            MathFn::Ceil => "ceil",
            MathFn::Trunc => "trunc",
            MathFn::Round => "round",
            MathFn::Fmin => "fmin",
            MathFn::Fmax => "fmax",
        }
    }
}

impl FpOp {
    /// Whether the operand is a float (else an integer: `SiToFp`, `UiToFp`).
    pub fn float_operand(self) -> bool {
        !matches!(self, FpOp::Cast(CastOp::SiToFp | CastOp::UiToFp))
    }

    /// Whether the result is a float (else a bit or an integer).
    pub fn float_result(self) -> bool {
        !matches!(self, FpOp::Cmp(_) | FpOp::Cast(CastOp::FpToSi | CastOp::FpToUi))
    }
}

/// The type of a `bits`-wide float or integer, as the interpreter's
/// operations take it.
pub fn scalar_ty(float: bool, bits: u32) -> Ty {
    match (float, bits) {
        (true, 32) => Ty::F32,
        (true, _) => Ty::F64,
        (false, b) => Ty::Int(b),
    }
}

/// A `bits`-wide pattern as the interpreter's value of that type.
pub(crate) fn scalar_value(float: bool, bits: u32, v: u128) -> Value {
    match (float, bits) {
        (true, 32) => Value::F32(f32::from_bits(v as u32)),
        (true, _) => Value::F64(f64::from_bits(v as u64)),
        (false, _) => Value::Int(v),
    }
}

/// `op` on constant patterns, with the interpreter's semantics.
pub(crate) fn fp_fold(op: FpOp, from: u32, to: u32, a: u128, b: u128) -> u128 {
    let ty = scalar_ty(op.float_operand(), from);
    let (x, y) = (scalar_value(op.float_operand(), from, a), scalar_value(true, from, b));
    let v = match op {
        FpOp::Bin(o) => causa_ir::ops::fbinop(o, &ty, &x, &y),
        FpOp::Neg => causa_ir::ops::fneg(&ty, &x),
        FpOp::Cmp(p) => Value::Int(causa_ir::ops::fcmp(p, x.as_f64(), y.as_f64()) as u128),
        FpOp::Cast(c) => causa_ir::ops::cast(c, &ty, &scalar_ty(op.float_result(), to), &x),
        // As the interpreter's call: in double precision, then rounded.
        FpOp::Math(m) => {
            let v = causa_ir::ops::math(m.name(), x.as_f64(), y.as_f64()).unwrap_or(f64::NAN);
            if to == 32 {
                Value::F32(v as f32)
            } else {
                Value::F64(v)
            }
        }
    };
    v.as_int() & mask(to)
}

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
    /// A floating-point operation on `from`-bit operands (`b` is `a` for a
    /// unary one) with a `to`-bit result.
    Fp {
        op: FpOp,
        from: u32,
        to: u32,
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

    /// Every read `id` becomes read `new_id[id]` (a permutation of the ids:
    /// the nodes stay distinct and keep their places).
    pub(crate) fn renumber_reads(&mut self, new_id: &[u32]) {
        for n in &mut self.nodes {
            if let Expr::Read { id, .. } = n {
                *id = new_id[*id as usize];
            }
        }
        self.index = self.nodes.iter().enumerate().map(|(i, n)| (n.clone(), i as ExprId)).collect();
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
            Expr::Cast { to, .. } | Expr::Fp { to, .. } => *to,
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

    /// `a ∧ b` of two 1-bit values.
    pub fn and(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::And, 1, a, b).expect("and")
    }

    /// `a ∨ b` of two 1-bit values.
    pub fn or(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::Or, 1, a, b).expect("or")
    }

    /// `¬a` of a 1-bit value.
    pub fn not(&mut self, a: ExprId) -> ExprId {
        let one = self.constant(1, 1);
        self.bin(BinOp::Xor, 1, a, one).expect("xor")
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

    /// A floating-point operation ([`Expr::Fp`]), folded when its operands
    /// are constant.
    pub fn fp(&mut self, op: FpOp, from: u32, to: u32, a: ExprId, b: ExprId) -> ExprId {
        if let (Some(x), Some(y)) = (self.value(a), self.value(b)) {
            return self.constant(to, fp_fold(op, from, to, x, y));
        }
        self.add(Expr::Fp { op, from, to, a, b })
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
            None => {
                debug_assert_eq!(self.bits(a), self.bits(b), "a select of two widths");
                self.add(Expr::Select { c, a, b })
            }
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

    /// The shared reads `e` depends on (their ids).
    pub fn read_ids(&self, e: ExprId) -> std::collections::BTreeSet<u32> {
        self.reads_of(e).into_keys().collect()
    }

    /// The shared reads `e` depends on: their ids, with their widths.
    pub fn reads_of(&self, e: ExprId) -> std::collections::BTreeMap<u32, u32> {
        let mut ids = std::collections::BTreeMap::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            match self.get(x) {
                Expr::Const { .. } => {}
                Expr::Read { id, bits } => {
                    ids.insert(*id, *bits);
                }
                Expr::Bin { a, b, .. } | Expr::ICmp { a, b, .. } | Expr::Fp { a, b, .. } => stack.extend([*a, *b]),
                Expr::Cast { a, .. } => stack.push(*a),
                Expr::Select { c, a, b } => stack.extend([*c, *a, *b]),
            }
        }
        ids
    }

    /// `e` with every read `id` replaced by `reads[id]` (tests, and checking a
    /// schedule's values): None if a read has no value or an operation fails.
    /// Each node once, in the order they were made (operands first): a
    /// scan unrolled over a string shares its state between bytes, which
    /// evaluated as a tree takes exponential time.
    pub fn eval(&self, e: ExprId, reads: &[Option<u128>]) -> Option<u128> {
        let mut vals: Vec<Option<u128>> = Vec::with_capacity(e as usize + 1);
        for node in &self.nodes[..=e as usize] {
            let at = |x: &ExprId| vals[*x as usize];
            let v = match node {
                Expr::Const { v, .. } => Some(*v),
                Expr::Read { id, bits } => reads.get(*id as usize).copied().flatten().map(|v| v & mask(*bits)),
                Expr::Bin { op, bits, a, b } => {
                    at(a).zip(at(b)).and_then(|(x, y)| causa_ir::ops::int_binop(*op, *bits, x, y).ok())
                }
                Expr::ICmp { pred, bits, a, b } => {
                    at(a).zip(at(b)).map(|(x, y)| causa_ir::ops::icmp(*pred, *bits, x, y) as u128)
                }
                Expr::Cast { op, from, to, a } => {
                    at(a).map(|x| causa_ir::ops::cast(*op, &Ty::Int(*from), &Ty::Int(*to), &Value::Int(x)).as_int())
                }
                Expr::Select { c, a, b } => at(c).and_then(|c| if c & 1 == 1 { at(a) } else { at(b) }),
                Expr::Fp { op, from, to, a, b } => at(a).zip(at(b)).map(|(x, y)| fp_fold(*op, *from, *to, x, y)),
            };
            vals.push(v);
        }
        vals[e as usize]
    }

    /// [`Exprs::show`] cut to about [`BRIEF`] characters, for messages (a
    /// length computed by `strlen` over a 64-byte buffer is a chain of 64
    /// conditions).
    pub fn brief(&self, e: ExprId) -> String {
        let s = self.show(e);
        match s.char_indices().nth(BRIEF) {
            Some((i, _)) => format!("{} …", &s[..i]),
            None => s,
        }
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
            Expr::Fp { op: op @ (FpOp::Neg | FpOp::Cast(_)), a, .. } => format!("{op:?}({})", self.show(*a)),
            Expr::Fp { op: FpOp::Math(m), a, b, .. } => format!("{}({}, {})", m.name(), self.show(*a), self.show(*b)),
            Expr::Fp { op, a, b, .. } => format!("({} {op:?} {})", self.show(*a), self.show(*b)),
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

    #[test]
    fn a_long_expression_is_shown_briefly() {
        let mut x = Exprs::default();
        let mut sum = x.read(0, 32);
        for id in 1..64 {
            let r = x.read(id, 32);
            sum = x.bin(BinOp::Add, 32, sum, r).unwrap();
        }
        let brief = x.brief(sum);
        assert!(x.show(sum).chars().count() > BRIEF + 2);
        assert_eq!(brief.chars().count(), BRIEF + 2, "{brief}");
        assert!(x.show(sum).starts_with(brief.trim_end_matches(" …")) && brief.ends_with(" …"), "{brief}");
        let r = x.read(0, 32);
        assert_eq!(x.brief(r), "r0", "a short one whole");
    }
}
