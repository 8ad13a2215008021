//! Program values in Z3: the expressions of a symbolic trace as bit vectors
//! (one bit-vector constant per shared read), and the value atoms CLAP's
//! constraints need ("read r returns what write w wrote", "this path condition
//! holds"). The atoms are handed to the constraint core's solver
//! ([`causa_constraints::Z3Solver::set_atoms`]) and referred to by index from
//! order formulas ([`causa_constraints::Formula::Atom`]).

use crate::expr::{Expr, ExprId, Exprs};
use causa_core::collections::HashMap;
use causa_ir::{BinOp, CastOp, ICmpPred};
use std::collections::{BTreeMap, BTreeSet};
use z3::ast::{Bool, BV};

/// Lowers expressions to Z3, memoised, and collects atoms.
pub struct Values<'x> {
    exprs: &'x Exprs,
    memo: HashMap<ExprId, BV>,
    atoms: Vec<Bool>,
    negated: HashMap<usize, usize>,
    /// Each read's finite domain, when known (`crate::domains`).
    domains: Vec<Option<BTreeSet<u128>>>,
    /// Each access through a computed address ([`crate::rw`]): its event
    /// and the atoms "the address is this candidate", one per candidate.
    addressed: Vec<(usize, Vec<usize>)>,
}

impl<'x> Values<'x> {
    pub fn new(exprs: &'x Exprs) -> Values<'x> {
        Values {
            exprs,
            memo: HashMap::default(),
            atoms: Vec::new(),
            negated: HashMap::default(),
            domains: Vec::new(),
            addressed: Vec::new(),
        }
    }

    /// How many value atoms there are so far (the debug log's measure of
    /// how much Z3 has to bit-blast).
    pub(crate) fn atoms_len(&self) -> usize {
        self.atoms.len()
    }

    /// Conditions over one read with a small domain become "the read is one
    /// of these values" ([`Values::holds`]).
    pub(crate) fn with_domains(mut self, domains: Vec<Option<BTreeSet<u128>>>) -> Values<'x> {
        self.domains = domains;
        self
    }

    /// Read `id`'s domain, when known ([`Values::with_domains`]).
    fn domain(&self, id: u32) -> Option<&BTreeSet<u128>> {
        self.domains.get(id as usize)?.as_ref()
    }

    /// The Z3 constant holding the value of shared read `id`.
    pub fn read_var(id: u32, bits: u32) -> BV {
        BV::new_const(format!("r{id}"), bits)
    }

    /// Read `id`'s value as a bit vector of `bits`: [`Values::read_var`],
    /// or, for a pointer whose domain is known and whose values differ in
    /// at most [`NARROW_BITS`] bits, a narrower constant holding those bits
    /// with the others fixed to the bits all its values share. Z3
    /// bit-blasts an equality of two 64-bit reads into 64 bit equalities;
    /// a list's node pointers differ only in a few bits of their
    /// allocations' numbers (bench/programs/list_walk.c: every step of the
    /// walk compares the pointer it read with each node's).
    ///
    /// The narrower constant can only hold what the domain's values can be
    /// (and more), so, as with conditions over a domain, a schedule the
    /// solver finds is one the program can take.
    pub(crate) fn read(&self, id: u32, bits: u32) -> BV {
        match self.domain(id).filter(|_| bits == 64).and_then(|d| narrowed(id, d)) {
            Some(b) => b,
            None => Values::read_var(id, bits),
        }
    }

    /// `e` as a bit vector of its own width.
    pub fn bv(&mut self, e: ExprId) -> BV {
        if let Some(b) = self.memo.get(&e) {
            return b.clone();
        }
        let b = match self.exprs.get(e).clone() {
            Expr::Const { bits, v } => constant(bits, v),
            Expr::Read { id, bits } => self.read(id, bits),
            Expr::Bin { op, a, b, .. } => {
                let (x, y) = (self.bv(a), self.bv(b));
                match op {
                    BinOp::Add => x.bvadd(&y),
                    BinOp::Sub => x.bvsub(&y),
                    BinOp::Mul => x.bvmul(&y),
                    BinOp::UDiv => x.bvudiv(&y),
                    BinOp::SDiv => x.bvsdiv(&y),
                    BinOp::URem => x.bvurem(&y),
                    BinOp::SRem => x.bvsrem(&y),
                    BinOp::And => x.bvand(&y),
                    BinOp::Or => x.bvor(&y),
                    BinOp::Xor => x.bvxor(&y),
                    // SMT-LIB shifts by at least the width give 0 (arithmetic:
                    // the sign), as causa's interpreter does.
                    BinOp::Shl => x.bvshl(&y),
                    BinOp::LShr => x.bvlshr(&y),
                    BinOp::AShr => x.bvashr(&y),
                }
            }
            Expr::ICmp { pred: pred @ (ICmpPred::Eq | ICmpPred::Ne), bits, a, b }
                if self.exprs.value(a).or(self.exprs.value(b)).is_some() =>
            {
                let (x, v) = match self.exprs.value(b) {
                    Some(v) => (a, v),
                    None => (b, self.exprs.value(a).unwrap_or(0)),
                };
                let c = self.eq_const(x, bits, v);
                let c = if pred == ICmpPred::Eq { c } else { c.not() };
                c.ite(&constant(1, 1), &constant(1, 0))
            }
            Expr::ICmp { pred, a, b, .. } => {
                let (x, y) = (self.bv(a), self.bv(b));
                let c = match pred {
                    ICmpPred::Eq => x.eq(&y),
                    ICmpPred::Ne => x.eq(&y).not(),
                    ICmpPred::Ugt => x.bvugt(&y),
                    ICmpPred::Uge => x.bvuge(&y),
                    ICmpPred::Ult => x.bvult(&y),
                    ICmpPred::Ule => x.bvule(&y),
                    ICmpPred::Sgt => x.bvsgt(&y),
                    ICmpPred::Sge => x.bvsge(&y),
                    ICmpPred::Slt => x.bvslt(&y),
                    ICmpPred::Sle => x.bvsle(&y),
                };
                c.ite(&constant(1, 1), &constant(1, 0))
            }
            Expr::Cast { op, from, to, a } => {
                let x = self.bv(a);
                match op {
                    CastOp::SExt if to > from => x.sign_ext(to - from),
                    _ => fit(&x, from, to),
                }
            }
            Expr::Select { c, a, b } => {
                let (c, x, y) = (self.bv(c), self.bv(a), self.bv(b));
                c.eq(constant(1, 1)).ite(&x, &y)
            }
            Expr::Fp { op, from, to, a, b } => match self.tabulated(e) {
                Some(t) => t,
                None => {
                    let (x, y) = (self.bv(a), self.bv(b));
                    crate::float::lower(op, from, to, &x, &y)
                }
            },
        };
        self.memo.insert(e, b.clone());
        b
    }

    /// `e` as a table of its values: when every read it depends on has a
    /// known domain and their combinations are at most [`TABLE_LIMIT`],
    /// `ite(reads in the combinations giving value 1, value 1, ite(…))`,
    /// each value computed here, the commonest one the default. Z3 lowers a floating-point operation
    /// to a circuit, and a division's is one its search has to go through:
    /// a hit ratio of two counters read under a lock (`(double)hits /
    /// (hits + misses)`, six of them in a 52-event run) made σ's check
    /// take 92 s; a table of constants is propagated. As with conditions
    /// over a domain ([`Values::holds`]), the reads take only their
    /// domains' values in the model's schedules, so the default stands for
    /// its own combinations and for none other.
    fn tabulated(&mut self, e: ExprId) -> Option<BV> {
        let reads: Vec<(u32, u32, Vec<u128>)> = self
            .exprs
            .reads_of(e)
            .into_iter()
            .map(|(id, bits)| {
                let d = self.domain(id)?;
                let values: BTreeSet<u128> = d.iter().map(|v| v & causa_ir::value::mask(bits)).collect();
                Some((id, bits, values.into_iter().collect()))
            })
            .collect::<Option<_>>()?;
        let combinations =
            reads.iter().try_fold(1usize, |n, (_, _, d)| n.checked_mul(d.len()).filter(|n| *n <= TABLE_LIMIT))?;
        let bits = self.exprs.bits(e);
        // Each value with the combinations that give it.
        let mut by_value: BTreeMap<u128, Vec<Vec<u128>>> = BTreeMap::new();
        for i in 0..combinations {
            // (Mixed radix: the first read's value varies slowest.)
            let mut rest = i;
            let mut at = vec![0u128; reads.len()];
            for (k, (_, _, d)) in reads.iter().enumerate().rev() {
                at[k] = d[rest % d.len()];
                rest /= d.len();
            }
            let value = |r: u32| reads.iter().position(|(id, _, _)| *id == r).map(|k| at[k]);
            let v = crate::domains::eval_by(self.exprs, e, &value, &mut HashMap::default())?;
            by_value.entry(v).or_default().push(at);
        }
        // One condition per value, the commonest the default.
        let default = by_value.iter().max_by_key(|(v, c)| (c.len(), std::cmp::Reverse(**v))).map(|(v, _)| *v)?;
        let vars: Vec<BV> = reads.iter().map(|(id, bits, _)| self.read(*id, *bits)).collect();
        let mut table = constant(bits, default);
        for (v, combos) in by_value.into_iter().filter(|(v, _)| *v != default) {
            let rows: Vec<Bool> = combos
                .iter()
                .map(|at| {
                    let is: Vec<Bool> =
                        vars.iter().zip(&reads).zip(at).map(|((x, (_, b, _)), a)| x.eq(constant(*b, *a))).collect();
                    Bool::and(&is.iter().collect::<Vec<_>>())
                })
                .collect();
            table = Bool::or(&rows.iter().collect::<Vec<_>>()).ite(&constant(bits, v), &table);
        }
        Some(table)
    }

    /// `e` cut or zero-extended to `bits`.
    pub fn bv_bits(&mut self, e: ExprId, bits: u32) -> BV {
        let have = self.exprs.bits(e);
        let b = self.bv(e);
        fit(&b, have, bits)
    }

    /// `e`, cut or zero-extended to `bits`, equals the constant `v`, said so
    /// that Z3 compares a read with a constant where it can instead of
    /// building an adder or a multiplier for the comparison. The program's
    /// own `==` and `!=` with a constant are lowered so: a reference count
    /// tested after its decrement (`--refs == 0`) is a read compared with
    /// 1 (refcount_nonatomic_release: explanation 2.0 → 0.9 s;
    /// docs/performance.md). See [`Values::low_eq`]. The guards of accesses
    /// through computed addresses are too (`rw.rs`): `queue[head]`'s guard
    /// is then `head` compared with the slot's index, not a 64-bit
    /// multiplier and adder (bench/programs/work_queue.c at 40 tasks:
    /// 1.6 → 1.2 s; an earlier try changed Z3's first models for the worse
    /// on two corpus programs; in the seventy-eighth session's fail/ sweep
    /// one DSP grew by an event and one root cause shrank by two).
    pub(crate) fn eq_const(&mut self, e: ExprId, bits: u32, v: u128) -> Bool {
        let have = self.exprs.bits(e);
        let v = v & causa_ir::value::mask(bits);
        if bits > have {
            // (Zero-extended: the constant's high bits must be 0.)
            if v >> have != 0 {
                return Bool::from_bool(false);
            }
            return self.low_eq(e, have, v);
        }
        self.low_eq(e, bits, v)
    }

    /// The low `n` bits of `e` (`n` at most its width) equal `v` (below
    /// 2^n). What is done to `e` by constants moves to `v`'s side: a
    /// constant added, subtracted or xored (the low bits of a sum are the
    /// sum of the low bits), a multiplication by 2^s or a shift left by s
    /// (the low s bits are 0, the next n - s are the operand's low ones), an
    /// extension (the high bits of `v` must be what it extends with) and a
    /// truncation (the operand's low bits).
    fn low_eq(&mut self, mut e: ExprId, mut n: u32, mut v: u128) -> Bool {
        use causa_ir::value::mask;
        let never = || Bool::from_bool(false);
        loop {
            let m = mask(n);
            let konst = |x: ExprId| self.exprs.value(x);
            match *self.exprs.get(e) {
                Expr::Bin { op: op @ (BinOp::Add | BinOp::Sub | BinOp::Xor), a, b, .. } => {
                    let (x, k) = match (konst(a), konst(b)) {
                        (_, Some(k)) => (a, k),
                        (Some(k), None) if op != BinOp::Sub => (b, k),
                        _ => break,
                    };
                    v = match op {
                        BinOp::Add => v.wrapping_sub(k),
                        BinOp::Sub => v.wrapping_add(k),
                        _ => v ^ k,
                    } & m;
                    e = x;
                }
                Expr::Bin { op: op @ (BinOp::Mul | BinOp::Shl), bits, a, b } => {
                    let (x, s) = match (op, konst(a), konst(b)) {
                        (BinOp::Shl, _, Some(k)) => (a, k),
                        (BinOp::Mul, _, Some(k)) if k.is_power_of_two() => (a, k.trailing_zeros() as u128),
                        (BinOp::Mul, Some(k), None) if k.is_power_of_two() => (b, k.trailing_zeros() as u128),
                        _ => break,
                    };
                    // (A shift by the width or more gives 0, as `bv` says.)
                    if s >= n as u128 || s >= bits as u128 {
                        return Bool::from_bool(v == 0);
                    }
                    let s = s as u32;
                    if v & mask(s) != 0 {
                        return never();
                    }
                    v >>= s;
                    n -= s;
                    e = x;
                }
                Expr::Cast { op: op @ (CastOp::SExt | CastOp::ZExt), from, to, a } if to > from => {
                    if n > from {
                        let high = v >> from;
                        let fill = match op {
                            CastOp::SExt if v >> (from - 1) & 1 == 1 => mask(n - from),
                            _ => 0,
                        };
                        if high != fill {
                            return never();
                        }
                        v &= mask(from);
                        n = from;
                    }
                    e = a;
                }
                Expr::Cast { from, to, a, .. } if to <= from => e = a,
                _ => break,
            }
        }
        let have = self.exprs.bits(e);
        // A read whose domain has no value with these low bits never
        // equals it (what the narrowed constant assumes too, `read`).
        if let Expr::Read { id, .. } = *self.exprs.get(e) {
            if self.domain(id).is_some_and(|d| !d.iter().any(|x| x & mask(n) == v)) {
                return never();
            }
        }
        let b = self.bv(e);
        let low = if n == have { b } else { b.extract(n - 1, 0) };
        low.eq(constant(n, v))
    }

    /// The atom "at most one of `bs` holds" (one pseudo-Boolean bound).
    pub(crate) fn at_most_one(&mut self, bs: &[Bool]) -> usize {
        let weighted: Vec<(&Bool, i32)> = bs.iter().map(|b| (b, 1)).collect();
        self.atom(Bool::pb_le(&weighted, 1))
    }

    /// Add an atom; returns its index.
    pub fn atom(&mut self, b: Bool) -> usize {
        self.atoms.push(b);
        self.atoms.len() - 1
    }

    /// The negation of atom `a` (made once).
    pub fn atom_not(&mut self, a: usize) -> usize {
        if let Some(n) = self.negated.get(&a) {
            return *n;
        }
        let b = self.atoms[a].not();
        let n = self.atom(b);
        self.negated.insert(a, n);
        n
    }

    /// The 1-bit expression `c` is 1. Over one read with a small domain:
    /// the read is one of the values for which `c` is 1, and the atom's
    /// negation ([`Values::atom_not`]) one of those for which it is 0.
    pub fn holds(&mut self, c: ExprId) -> usize {
        if let Some((yes, no)) = self.by_domain(c) {
            let a = self.atom(yes);
            let n = self.atom(no);
            self.negated.insert(a, n);
            return a;
        }
        let b = self.bv_bits(c, 1);
        self.atom(b.eq(constant(1, 1)))
    }

    /// `c` and its negation as disjunctions of equalities over the one
    /// read it depends on, when that read has a small domain.
    fn by_domain(&self, c: ExprId) -> Option<(Bool, Bool)> {
        let (id, bits) = crate::domains::single_read(self.exprs, c)?;
        let domain = self.domain(id)?;
        if domain.len() > crate::domains::MAX_DOMAIN {
            return None;
        }
        let x = self.read(id, bits);
        let (mut yes, mut no) = (Vec::new(), Vec::new());
        for v in domain {
            let mut memo = HashMap::default();
            let is = x.eq(constant(bits, *v));
            match crate::domains::eval_with(self.exprs, c, id, *v, &mut memo)? & 1 {
                1 => yes.push(is),
                _ => no.push(is),
            }
        }
        let any = |v: Vec<Bool>| Bool::or(&v.iter().collect::<Vec<_>>());
        Some((any(yes), any(no)))
    }

    /// Note an access through a computed address: event `ev`, whose
    /// address is one of the candidates the atoms `guards` name.
    pub(crate) fn note_addressed(&mut self, ev: usize, guards: Vec<usize>) {
        self.addressed.push((ev, guards));
    }

    /// The accesses through computed addresses noted so far, with their
    /// candidates' atoms.
    pub(crate) fn addressed(&self) -> &[(usize, Vec<usize>)] {
        &self.addressed
    }

    /// The atoms made so far.
    pub fn take_atoms(&mut self) -> Vec<Bool> {
        std::mem::take(&mut self.atoms)
    }
}

/// At most this many bits of a 64-bit read may vary over its domain for
/// [`Values::read`] to narrow it.
const NARROW_BITS: u32 = 16;

/// The most combinations of its reads' values a floating-point operation
/// is tabulated over ([`Values::tabulated`]).
const TABLE_LIMIT: usize = 256;

/// A 64-bit read whose domain's values differ in at most [`NARROW_BITS`]
/// bits: the shared bits as constants, the others from a constant of that
/// many bits (`n{id}`), most significant first.
fn narrowed(id: u32, domain: &BTreeSet<u128>) -> Option<BV> {
    let first = *domain.first()?;
    let varying = domain.iter().fold(0u128, |acc, v| acc | (v ^ first)) as u64;
    let width = varying.count_ones();
    if width == 0 || width > NARROW_BITS {
        return None;
    }
    let x = BV::new_const(format!("n{id}"), width);
    // Runs of varying or fixed bits, from bit 63 down.
    let mut pieces: Vec<BV> = Vec::new();
    let (mut bit, mut used) = (64u32, width);
    while bit > 0 {
        let vary = varying >> (bit - 1) & 1 == 1;
        let mut len = 1;
        while len < bit && (varying >> (bit - 1 - len) & 1 == 1) == vary {
            len += 1;
        }
        let lo = bit - len;
        pieces.push(match vary {
            true => {
                used -= len;
                x.extract(used + len - 1, used)
            }
            false => constant(len, (first >> lo) & ((1u128 << len) - 1)),
        });
        bit = lo;
    }
    pieces.into_iter().reduce(|a, b| a.concat(&b))
}

/// A `bits`-wide constant.
pub fn constant(bits: u32, v: u128) -> BV {
    if bits <= 64 {
        BV::from_u64(v as u64, bits)
    } else {
        BV::from_str(bits, &v.to_string()).unwrap_or_else(|| BV::from_u64(v as u64, bits))
    }
}

/// `x` (`from` bits wide) cut or zero-extended to `to` bits.
fn fit(x: &BV, from: u32, to: u32) -> BV {
    if to == from {
        x.clone()
    } else if to < from {
        x.extract(to - 1, 0)
    } else {
        x.zero_ext(to - from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::{SatResult, Solver};

    #[test]
    fn lowered_expressions_agree_with_evaluation() {
        let mut x = Exprs::default();
        let r = x.read(0, 32);
        let three = x.constant(32, 3);
        let sum = x.bin(BinOp::Add, 32, r, three).unwrap();
        let big = x.constant(32, 100);
        let lt = x.icmp(ICmpPred::Slt, 32, sum, big);
        let wide = x.cast(CastOp::SExt, 32, 64, r);
        let mut v = Values::new(&x);
        let s = Solver::new();
        // r0 = -5: sum = -2 < 100 (signed); sext to 64 bits keeps -5.
        s.assert(Values::read_var(0, 32).eq(constant(32, (-5i32) as u32 as u128)));
        let a = v.holds(lt);
        let atoms = v.take_atoms();
        s.assert(&atoms[a]);
        let w = v.bv(wide);
        s.assert(w.eq(constant(64, (-5i64) as u64 as u128)));
        assert_eq!(s.check(), SatResult::Sat);
        assert_eq!(x.eval(lt, &[Some((-5i32) as u32 as u128)]), Some(1));
    }

    /// A ratio of two reads with domains is a table of constants, not a
    /// floating-point division, and the table gives the division's value
    /// for each pair of the reads' values.
    #[test]
    fn a_floating_point_ratio_over_small_domains_is_a_table() {
        use crate::expr::FpOp;
        use causa_ir::FBinOp;
        let mut x = Exprs::default();
        let (hits, misses) = (x.read(0, 32), x.read(1, 32));
        let total = x.bin(BinOp::Add, 32, hits, misses).unwrap();
        let h = x.fp(FpOp::Cast(CastOp::UiToFp), 32, 64, hits, hits);
        let t = x.fp(FpOp::Cast(CastOp::UiToFp), 32, 64, total, total);
        let ratio = x.fp(FpOp::Bin(FBinOp::Div), 64, 64, h, t);
        let domain: BTreeSet<u128> = (0..4).collect();
        let mut v = Values::new(&x).with_domains(vec![Some(domain.clone()), Some(domain)]);
        let table = v.bv(ratio);
        let text = table.to_string();
        assert!(!text.contains("fp.div") && !text.contains("fp"), "{text}");
        for (a, b) in [(1u128, 2u128), (3, 0), (0, 0), (2, 2)] {
            let s = Solver::new();
            s.assert(Values::read_var(0, 32).eq(constant(32, a)));
            s.assert(Values::read_var(1, 32).eq(constant(32, b)));
            let want = x.eval(ratio, &[Some(a), Some(b)]).unwrap();
            s.assert(table.eq(constant(64, want)).not());
            assert_eq!(s.check(), SatResult::Unsat, "{a} / ({a} + {b})");
        }
        // Without domains it is the division.
        let mut plain = Values::new(&x);
        assert!(plain.bv(ratio).to_string().contains("fp"));
    }

    /// `eq_const` says what comparing the lowered expression with the
    /// constant says, for expressions of every form it rewrites (sums,
    /// differences, xors, multiplications by powers of two, shifts,
    /// extensions, truncations), at every width it is asked, with constants
    /// the expression takes and constants it cannot take (odd where it is a
    /// multiple of 4, beyond what an extension gives).
    #[test]
    fn comparing_with_a_constant_is_comparing_the_lowered_expression() {
        let mut x = Exprs::default();
        let r = x.read(0, 8);
        let k = |x: &mut Exprs, bits: u32, v: u128| x.constant(bits, v);
        let mut es = Vec::new();
        // A pointer into an array: base + 4 * sext(i).
        let wide = x.cast(CastOp::SExt, 8, 64, r);
        let four = k(&mut x, 64, 4);
        let scaled = x.bin(BinOp::Mul, 64, four, wide).unwrap();
        let base = k(&mut x, 64, 0x7000_0000_1000);
        es.push(x.bin(BinOp::Add, 64, scaled, base).unwrap());
        // (zext(i) << 3) - 5, then xor 0x55, then cut to 16 bits.
        let z = x.cast(CastOp::ZExt, 8, 32, r);
        let three = k(&mut x, 32, 3);
        let shifted = x.bin(BinOp::Shl, 32, z, three).unwrap();
        let five = k(&mut x, 32, 5);
        let less = x.bin(BinOp::Sub, 32, shifted, five).unwrap();
        let mask = k(&mut x, 32, 0x55);
        let xored = x.bin(BinOp::Xor, 32, mask, less).unwrap();
        es.push(xored);
        es.push(x.cast(CastOp::Trunc, 32, 16, xored));
        // 9 - i (not rewritten: the read is subtracted) and i * 6 (not a
        // power of two), a shift by the width.
        let nine = k(&mut x, 8, 9);
        es.push(x.bin(BinOp::Sub, 8, nine, r).unwrap());
        let six = k(&mut x, 8, 6);
        es.push(x.bin(BinOp::Mul, 8, r, six).unwrap());
        let eight = k(&mut x, 8, 8);
        es.push(x.bin(BinOp::Shl, 8, r, eight).unwrap());
        for e in es {
            let have = x.bits(e);
            for bits in [have, 8, have * 2] {
                let mut vs: Vec<u128> = [0u128, 1, 3, 127, 128, 200, 255]
                    .iter()
                    .filter_map(|i| x.eval(e, &[Some(*i)]))
                    .flat_map(|v| [v, v + 1, v.wrapping_sub(4), v | 1 << (bits - 1)])
                    .collect();
                vs.push(u128::MAX);
                for v in vs {
                    let v = v & causa_ir::value::mask(bits);
                    let mut vals = Values::new(&x);
                    let fast = vals.eq_const(e, bits, v);
                    let plain = vals.bv_bits(e, bits).eq(constant(bits, v));
                    let s = Solver::new();
                    s.assert(fast.eq(&plain).not());
                    assert_eq!(s.check(), SatResult::Unsat, "{} at {bits} bits = {v:#x}", x.show(e));
                }
            }
        }
    }

    /// A condition over one read with a domain: the atom holds exactly for
    /// the domain's values where the condition is 1, its negation for those
    /// where it is 0, and neither outside the domain.
    #[test]
    fn a_condition_over_a_small_domain_is_membership() {
        let mut x = Exprs::default();
        let r = x.read(0, 32);
        let (seven, three, zero) = (x.constant(32, 7), x.constant(32, 3), x.constant(32, 0));
        let m = x.bin(BinOp::Mul, 32, r, seven).unwrap();
        let rem = x.bin(BinOp::SRem, 32, m, three).unwrap();
        let c = x.icmp(ICmpPred::Eq, 32, rem, zero);
        let mut v = Values::new(&x).with_domains(vec![Some(BTreeSet::from([1, 2, 3, 6]))]);
        let a = v.holds(c);
        let n = v.atom_not(a);
        let atoms = v.take_atoms();
        for (value, yes, no) in
            [(1, false, true), (2, false, true), (3, true, false), (6, true, false), (9, false, false)]
        {
            let s = Solver::new();
            s.assert(Values::read_var(0, 32).eq(constant(32, value)));
            for (atom, want) in [(a, yes), (n, no)] {
                s.push();
                s.assert(&atoms[atom]);
                assert_eq!(s.check() == SatResult::Sat, want, "r0 = {value}, atom {atom}");
                s.pop(1);
            }
        }
    }

    /// A 64-bit read whose domain's values differ in a few bits is those
    /// bits with the rest fixed: it can be each value of the domain, and not
    /// a value that differs from them in another bit.
    #[test]
    fn a_pointer_read_with_a_domain_is_narrowed_to_the_bits_that_vary() {
        let mut x = Exprs::default();
        let r = x.read(0, 64);
        let domain = BTreeSet::from([0, 0x31_0000_0000, 0x32_0000_0000, 0x5f_0000_0000]);
        let mut v = Values::new(&x).with_domains(vec![Some(domain)]);
        let b = v.bv(r);
        assert_eq!(b.get_size(), 64);
        assert!(b.to_string().contains("n0"), "{b}");
        for (value, can) in [
            (0u128, true),
            (0x31_0000_0000, true),
            (0x5f_0000_0000, true),
            (0x31_0000_0008, false),
            (0x80_0000_0000, false),
            (1 << 63, false),
        ] {
            let s = Solver::new();
            s.assert(b.eq(constant(64, value)));
            assert_eq!(s.check() == SatResult::Sat, can, "{value:#x}");
        }
        // Without a domain, or over 16 varying bits: the read's own constant.
        let wide = BTreeSet::from([0, 0xffff_ffff_0000]);
        let mut v = Values::new(&x).with_domains(vec![Some(wide)]);
        assert_eq!(v.bv(r).to_string(), "r0");
    }
}
