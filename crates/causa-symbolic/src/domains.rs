//! Finite domains of shared reads: the values a read can return in any
//! schedule, when there are few (the initial value and every value written
//! where it reads, through concrete or computed addresses, a least fixpoint
//! like [`crate::rw`]'s value sets). A condition over one read with a
//! domain is then encoded as "the read is one of the values for which it
//! holds" (and its negation as "one of those for which it does not"),
//! instead of bit-blasting its arithmetic: pfscan's `(file * 7 + line) % 3
//! == 0` over a queue slot costs a 32-bit divider per line scanned, and its
//! σ check took 0.33 s of the explanation's 0.9 s for it.
//!
//! Both encodings imply the condition's own value, so a schedule the solver
//! finds is one the program can take. A domain that missed a value could only
//! rule schedules out (neither encoding holds for it); the domain includes
//! what writes through computed addresses may leave in a location, so that
//! does not happen unless a candidate set is incomplete (the same limit as
//! [`crate::rw`]'s accesses through computed addresses).

use crate::expr::{Expr, ExprId, Exprs};
use crate::rw::eval_set_within;
use crate::trace::{Initial, SymOp, SymTrace};
use causa_core::collections::HashMap;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// A read with more possible values than this has no domain (pointers to
/// the nodes of a list of 90: [`crate::values::Values::read`]).
const MAX_VALUES: usize = 256;

/// Domains larger than this are not used for conditions (the encoding is a
/// disjunction of equalities over them).
pub(crate) const MAX_DOMAIN: usize = 16;

/// A condition's expression with more nodes than this is lowered as it is.
const MAX_NODES: usize = 512;

/// How many rounds the fixpoint may take before giving up (every domain
/// unknown then).
const MAX_ROUNDS: usize = 64;

/// A location whose set grew in this many rounds is taken as unknown (a
/// counter grows by one value a round: widening).
const MAX_GROWTH: u32 = 8;

/// The domain of each read, by id (None: unknown or larger than
/// [`MAX_VALUES`]).
pub(crate) fn of_reads(sym: &SymTrace) -> Vec<Option<BTreeSet<u128>>> {
    // Concrete locations: size and written values; writes through computed
    // addresses: the object they stay in (None: anywhere) and value.
    let mut locs: BTreeMap<u64, (u32, Vec<ExprId>)> = BTreeMap::new();
    let mut anywhere: Vec<(Option<u32>, ExprId, u32)> = Vec::new();
    // Objects a bulk operation writes (its words may be cut differently
    // from the reads': their locations' domains are unknown).
    let mut bulk: BTreeSet<u32> = BTreeSet::new();
    let mut mixed: BTreeSet<u64> = BTreeSet::new();
    // Reads at concrete addresses, placed after the writes: one that
    // spans several written locations (a struct copied whole, its fields
    // updated one by one) takes its values from theirs (`Domains::tiled`).
    let mut plain_reads: Vec<(u64, u32)> = Vec::new();
    for th in &sym.threads {
        for e in &th.events {
            let (addr, size, value) = match &e.op {
                // (Through a computed pointer, in its object, or anywhere.)
                SymOp::Bulk { writes, at: Some(p), .. } if !writes.is_empty() => {
                    match crate::relevant::object_of(sym, *p) {
                        Some(o) => _ = bulk.insert(o),
                        None => anywhere.extend(writes.iter().map(|w| (None, w.value, w.size))),
                    }
                    continue;
                }
                SymOp::Bulk { writes, reads, at, .. } => {
                    bulk.extend(writes.iter().map(|p| causa_ir::addr_alloc(p.addr)));
                    // (Through a computed pointer a piece's address is its
                    // offset from it: no location of its own.)
                    if at.is_none() {
                        plain_reads.extend(reads.iter().map(|p| (p.addr, p.size)));
                    }
                    continue;
                }
                SymOp::Write { at: Some(p), value, size, .. } | SymOp::Rmw { at: Some(p), new: value, size, .. } => {
                    let object = crate::relevant::object_of(sym, *p);
                    words(sym, object, *size, &mut locs, &mut mixed);
                    anywhere.push((object, *value, *size));
                    continue;
                }
                SymOp::Read { at: Some(p), size, .. } => {
                    words(sym, crate::relevant::object_of(sym, *p), *size, &mut locs, &mut mixed);
                    continue;
                }
                SymOp::Write { addr, size, value, at: None, .. } => (*addr, *size, Some(*value)),
                SymOp::Rmw { addr, size, new, .. } => (*addr, *size, Some(*new)),
                SymOp::Fork { handle: Some((addr, value)), .. } | SymOp::Join { result: Some((addr, value)), .. } => {
                    (*addr, 8, Some(*value))
                }
                SymOp::Read { addr, size, at: None, .. } => {
                    plain_reads.push((*addr, *size));
                    continue;
                }
                _ => continue,
            };
            let l = locs.entry(addr).or_insert((size, Vec::new()));
            if l.0 != size {
                mixed.insert(addr);
            }
            l.0 = l.0.max(size);
            l.1.extend(value);
        }
    }
    // A read that overlaps no written location is one of its own (its
    // initial value); one that overlaps some is left to them.
    for (addr, size) in plain_reads {
        let end = addr + size as u64;
        let overlaps = locs.range(..end).next_back().is_some_and(|(a, (s, _))| a + *s as u64 > addr);
        match locs.get(&addr) {
            Some((s, _)) if *s == size => {}
            _ if overlaps => {}
            _ => _ = locs.insert(addr, (size, Vec::new())),
        }
    }
    // Locations accessed with several sizes, or overlapping others (a small
    // struct read whole through a computed address, its fields written
    // one by one): their values are not one location's.
    let mut prev: Option<(u64, u32)> = None;
    for (a, (size, _)) in &locs {
        if let Some((pa, _)) = prev.filter(|(pa, ps)| pa + *ps as u64 > *a) {
            mixed.extend([pa, *a]);
        }
        prev = Some((*a, *size));
    }
    let mut sets: HashMap<u64, Option<BTreeSet<u128>>> = locs
        .iter()
        .map(|(a, (size, _))| {
            if bulk.contains(&causa_ir::addr_alloc(*a)) || mixed.contains(a) {
                return (*a, None);
            }
            let init = match sym.initial_value(*a, *size) {
                Initial::Known(v) => Some(BTreeSet::from([v])),
                Initial::Expr(e) => sym.exprs.value(e).map(|v| BTreeSet::from([v])),
                Initial::Unknown => None,
            };
            (*a, init)
        })
        .collect();
    let sizes: BTreeMap<u64, u32> = locs.iter().map(|(a, (s, _))| (*a, *s)).collect();
    let counters = counters(sym, &locs, &anywhere, &mut sets);
    let mut converged = false;
    let mut grew: HashMap<u64, u32> = HashMap::default();
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        for (addr, (size, writes)) in locs.iter().filter(|(a, _)| !counters.contains(*a)) {
            let Some(mut acc) = sets[addr].clone() else { continue };
            let object = causa_ir::addr_alloc(*addr);
            let domains = Domains::new(sym, &sets, &sizes);
            let lookup = |id: u32| domains.read(id, 0);
            let here = writes.iter().copied();
            let there = anywhere.iter().filter(|(o, _, _)| o.is_none_or(|o| o == object));
            // A write through a computed address of another width may cover
            // part of this location: its values are not the location's.
            let mut unknown = there.clone().any(|(_, _, s)| s != size);
            for w in here.chain(there.map(|(_, v, _)| *v)) {
                match eval_set_within(&sym.exprs, w, &lookup, MAX_VALUES) {
                    Some(s) => acc.extend(s.into_iter().map(|v| v & causa_ir::value::mask(size * 8))),
                    None => unknown = true,
                }
            }
            let growth = grew.entry(*addr).or_default();
            let new = (!unknown && acc.len() <= MAX_VALUES && *growth < MAX_GROWTH).then_some(acc);
            if sets[addr] != new {
                *growth += 1;
                sets.insert(*addr, new);
                changed = true;
            }
        }
        if !changed {
            converged = true;
            break;
        }
    }
    if !converged {
        return vec![None; sym.reads.len()];
    }
    let domains = Domains::new(sym, &sets, &sizes);
    (0..sym.reads.len() as u32).map(|id| domains.read(id, 0)).collect()
}

/// A write of a counter: a constant, a constant added to what the
/// location held, or a floating-point operation of what it held with a
/// constant (`sum = sum + 1.5`).
enum Step {
    Set(u128),
    Add(u128),
    Fp(FpStep),
}

/// A floating-point [`Step`]: the operation, its width, the constant and
/// whether the constant is the left operand.
#[derive(Clone, Copy, PartialEq, Eq)]
struct FpStep {
    op: crate::expr::FpOp,
    bits: u32,
    c: u128,
    left: bool,
}

impl FpStep {
    fn apply(self, v: u128) -> u128 {
        let (a, b) = if self.left { (self.c, v) } else { (v, self.c) };
        crate::expr::fp_fold(self.op, self.bits, self.bits, a, b)
    }
}

/// `w`, a value written at the `size` bytes at `addr`, as a counter's
/// [`Step`]: a constant, or a constant added to (or subtracted from) a read
/// of those same bytes.
fn step(sym: &SymTrace, w: ExprId, addr: u64, size: u32) -> Option<Step> {
    let x = &sym.exprs;
    if let Some(v) = x.value(w) {
        return Some(Step::Set(v));
    }
    let (r, step) = match *x.get(w) {
        Expr::Bin { op, bits, a, b } => {
            let (r, c) = match (op, x.value(a), x.value(b)) {
                (causa_ir::BinOp::Add, Some(c), None) => (b, c),
                (causa_ir::BinOp::Add, None, Some(c)) => (a, c),
                (causa_ir::BinOp::Sub, None, Some(c)) => (a, c.wrapping_neg()),
                _ => return None,
            };
            (r, Step::Add(c & causa_ir::value::mask(bits)))
        }
        Expr::Fp { op: op @ crate::expr::FpOp::Bin(_), from, to, a, b } if from == to && from == size * 8 => {
            let (r, c, left) = match (x.value(a), x.value(b)) {
                (Some(c), None) => (b, c, true),
                (None, Some(c)) => (a, c, false),
                _ => return None,
            };
            (r, Step::Fp(FpStep { op, bits: from, c, left }))
        }
        _ => return None,
    };
    let Expr::Read { id, .. } = *x.get(r) else { return None };
    let &(t, k) = sym.reads.get(id as usize)?;
    let here = match sym.threads[t].events[k].op {
        SymOp::Read { addr: a, size: s, at: None, .. } | SymOp::Rmw { addr: a, size: s, at: None, .. } => (a, s),
        _ => return None,
    };
    (here == (addr, size)).then_some(step)
}

/// The counters among `locs` (`n++`, `total += 2`, `n = 0`): every write is
/// a [`Step`], and no write through a computed address may land there.
/// Their sets are final: each write happens once, and one that adds reads
/// what other writes left (or the initial value), so the location holds a
/// constant written or its initial value plus the constants of some of the
/// adding writes. The fixpoint would grow such a set by a value a round
/// and give up on it ([`MAX_GROWTH`]); a hit ratio computed from two
/// counters then had no domain to be tabulated over. A floating-point
/// counter (`sum = sum + v`) holds what up to as many of its steps as it
/// has such writes make, in any order (rounding makes the order matter):
/// a running mean's division over it is then a table too.
fn counters(
    sym: &SymTrace,
    locs: &BTreeMap<u64, (u32, Vec<ExprId>)>,
    anywhere: &[(Option<u32>, ExprId, u32)],
    sets: &mut HashMap<u64, Option<BTreeSet<u128>>>,
) -> BTreeSet<u64> {
    let mut out = BTreeSet::new();
    for (addr, (size, writes)) in locs {
        let Some(Some(init)) = sets.get(addr) else { continue };
        if writes.is_empty() || anywhere.iter().any(|(o, _, _)| o.is_none_or(|o| o == causa_ir::addr_alloc(*addr))) {
            continue;
        }
        let Some(steps) = writes.iter().map(|w| step(sym, *w, *addr, *size)).collect::<Option<Vec<Step>>>() else {
            continue;
        };
        let mask = causa_ir::value::mask(size * 8);
        let mut set: BTreeSet<u128> = init.iter().map(|v| v & mask).collect();
        set.extend(steps.iter().filter_map(|s| match s {
            Step::Set(v) => Some(v & mask),
            _ => None,
        }));
        for s in &steps {
            if let Step::Add(c) = s {
                let more: Vec<u128> = set.iter().map(|v| v.wrapping_add(*c) & mask).collect();
                set.extend(more);
            }
            if set.len() > MAX_VALUES {
                break;
            }
        }
        // Floating-point steps do not commute exactly (rounding): a value
        // is what any of them did to a value before, as many times as
        // there are such writes, in any order.
        let mut fp: Vec<FpStep> = Vec::new();
        for s in &steps {
            if let Step::Fp(f) = s {
                if !fp.contains(f) {
                    fp.push(*f);
                }
            }
        }
        let times = steps.iter().filter(|s| matches!(s, Step::Fp(_))).count();
        let mut last: BTreeSet<u128> = set.clone();
        for _ in 0..times {
            if set.len() > MAX_VALUES || last.is_empty() {
                break;
            }
            let more: BTreeSet<u128> = last
                .iter()
                .flat_map(|v| fp.iter().map(move |f| f.apply(*v) & mask))
                .filter(|v| !set.contains(v))
                .collect();
            set.extend(more.iter().copied());
            last = more;
        }
        if set.len() <= MAX_VALUES {
            sets.insert(*addr, Some(set));
            out.insert(*addr);
        }
    }
    out
}

/// How many reads through computed addresses [`Domains::read`] follows
/// back from one (a list walked through its links: each step's address is
/// the step before's read).
const MAX_DEPTH: u32 = 256;

/// Read domains given the locations' value sets, each computed once.
struct Domains<'a> {
    sym: &'a SymTrace,
    sets: &'a HashMap<u64, Option<BTreeSet<u128>>>,
    /// Each location's size, by address.
    sizes: &'a BTreeMap<u64, u32>,
    memo: RefCell<HashMap<u32, Option<BTreeSet<u128>>>>,
}

impl<'a> Domains<'a> {
    fn new(
        sym: &'a SymTrace,
        sets: &'a HashMap<u64, Option<BTreeSet<u128>>>,
        sizes: &'a BTreeMap<u64, u32>,
    ) -> Domains<'a> {
        Domains { sym, sets, sizes, memo: RefCell::new(HashMap::default()) }
    }

    /// The values of the `size` bytes at `addr`: its location's, or, when
    /// they are several locations end to end, every combination of theirs
    /// (little-endian; None when a byte is in none of them or there are
    /// more than [`MAX_VALUES`]).
    fn tiled(&self, addr: u64, size: u32) -> Option<BTreeSet<u128>> {
        let end = addr + size as u64;
        let mut out = BTreeSet::from([0u128]);
        let mut a = addr;
        while a < end {
            let s = *self.sizes.get(&a)?;
            if a + s as u64 > end {
                return None;
            }
            let values = self.sets.get(&a)?.as_ref()?;
            let shift = 8 * (a - addr) as u32;
            let mut next = BTreeSet::new();
            for x in &out {
                for v in values {
                    next.insert(x | ((v & causa_ir::value::mask(s * 8)) << shift));
                    if next.len() > MAX_VALUES {
                        return None;
                    }
                }
            }
            out = next;
            a += s as u64;
        }
        Some(out)
    }

    /// The values read `id` can return: its location's, or (through a
    /// computed address) the union over the addresses it can take, the
    /// address's own reads' domains followed back [`MAX_DEPTH`] reads at
    /// most. Null and other invalid addresses are left out: the read then
    /// faults, and Φ_rw requires a read that happens to touch one of its
    /// candidate locations, which leave them out too
    /// (`rw::candidates`). A domain cut short by the depth bound is
    /// unknown, and stays so for later lookups (unknown is always sound).
    fn read(&self, id: u32, depth: u32) -> Option<BTreeSet<u128>> {
        if let Some(d) = self.memo.borrow().get(&id) {
            return d.clone();
        }
        // (Unknown ones too: two reads in an address, each followed back,
        // would otherwise be computed again and again.)
        let d = self.compute(id, depth);
        self.memo.borrow_mut().insert(id, d.clone());
        d
    }

    fn compute(&self, id: u32, depth: u32) -> Option<BTreeSet<u128>> {
        let (sym, sets) = (self.sym, self.sets);
        let &(t, k) = sym.reads.get(id as usize)?;
        let (addr, at, size) = match &sym.threads[t].events[k].op {
            SymOp::Read { addr, at, size, .. } => (*addr, *at, *size),
            SymOp::Rmw { addr, size, at, .. } => (*addr, *at, *size),
            // A bulk read's piece (`memcpy` from a struct).
            SymOp::Bulk { reads, at: None, .. } => {
                let is =
                    |p: &&crate::trace::Piece| matches!(sym.exprs.get(p.value), Expr::Read { id: r, .. } if *r == id);
                let p = reads.iter().find(is)?;
                (p.addr, None, p.size)
            }
            _ => return None,
        };
        let mask = causa_ir::value::mask(size * 8);
        let Some(at) = at else {
            return self.tiled(addr, size);
        };
        let reads = |r: u32| (depth < MAX_DEPTH).then(|| self.read(r, depth + 1)).flatten();
        let addrs: Vec<u64> = match eval_set_within(&sym.exprs, at, &reads, MAX_VALUES) {
            Some(s) => s.into_iter().map(|a| a as u64).filter(|a| causa_ir::addr_alloc(*a) != 0).collect(),
            // Any word of its object (each is a location: `words`).
            None => {
                let object = crate::relevant::object_of(sym, at)?;
                sets.keys().copied().filter(|a| causa_ir::addr_alloc(*a) == object).collect()
            }
        };
        let mut out = BTreeSet::new();
        for a in addrs {
            out.extend(sets.get(&a).cloned().flatten()?.into_iter().map(|v| v & mask));
            if out.len() > MAX_VALUES {
                return None;
            }
        }
        Some(out)
    }
}

/// Objects larger than this (in words) are not split into locations.
const MAX_WORDS: u64 = 1024;

/// Every `size`-byte word of `object` as a location (an access through a
/// computed address into it may touch any).
fn words(
    sym: &SymTrace,
    object: Option<u32>,
    size: u32,
    locs: &mut BTreeMap<u64, (u32, Vec<ExprId>)>,
    mixed: &mut BTreeSet<u64>,
) {
    let Some(o) = object.and_then(|id| sym.objects.iter().find(|o| causa_ir::addr_alloc(o.base) == id)) else {
        return;
    };
    if size == 0 || o.size / size as u64 > MAX_WORDS {
        return;
    }
    for a in (o.base..o.base + o.size).step_by(size as usize) {
        if locs.entry(a).or_insert((size, Vec::new())).0 != size {
            mixed.insert(a);
        }
    }
}

/// The single read a condition depends on, as (id, bits), when it depends
/// on exactly one and is small enough to evaluate.
pub(crate) fn single_read(exprs: &Exprs, c: ExprId) -> Option<(u32, u32)> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![c];
    let mut read = None;
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        if seen.len() > MAX_NODES {
            return None;
        }
        match exprs.get(e) {
            Expr::Const { .. } => {}
            Expr::Read { id, bits } => match read {
                None => read = Some((*id, *bits)),
                Some((r, _)) if r == *id => {}
                Some(_) => return None,
            },
            Expr::Bin { a, b, .. } | Expr::ICmp { a, b, .. } | Expr::Fp { a, b, .. } => stack.extend([*a, *b]),
            Expr::Cast { a, .. } => stack.push(*a),
            Expr::Select { c, a, b } => stack.extend([*c, *a, *b]),
        }
    }
    read
}

/// `e`'s value with its one read returning `v` (memoised over the DAG; None
/// when an operation fails, such as a division by zero).
pub(crate) fn eval_with(
    exprs: &Exprs,
    e: ExprId,
    id: u32,
    v: u128,
    memo: &mut HashMap<ExprId, Option<u128>>,
) -> Option<u128> {
    eval_by(exprs, e, &|r| (r == id).then_some(v), memo)
}

/// `e`'s value with each read `r` returning `value(r)` (memoised over the
/// DAG; None when a read has no value or an operation fails).
pub(crate) fn eval_by(
    exprs: &Exprs,
    e: ExprId,
    value: &dyn Fn(u32) -> Option<u128>,
    memo: &mut HashMap<ExprId, Option<u128>>,
) -> Option<u128> {
    if let Some(r) = memo.get(&e) {
        return *r;
    }
    let ty = |b: u32| causa_ir::Ty::Int(b);
    let mut at = |x: ExprId| eval_by(exprs, x, value, memo);
    let r = match *exprs.get(e) {
        Expr::Const { v, .. } => Some(v),
        Expr::Read { id, bits } => value(id).map(|v| v & causa_ir::value::mask(bits)),
        Expr::Bin { op, bits, a, b } => {
            let (x, y) = (at(a), at(b));
            x.zip(y).and_then(|(x, y)| causa_ir::ops::int_binop(op, bits, x, y).ok())
        }
        Expr::ICmp { pred, bits, a, b } => {
            let (x, y) = (at(a), at(b));
            x.zip(y).map(|(x, y)| causa_ir::ops::icmp(pred, bits, x, y) as u128)
        }
        Expr::Cast { op, from, to, a } => {
            at(a).map(|x| causa_ir::ops::cast(op, &ty(from), &ty(to), &causa_ir::Value::Int(x)).as_int())
        }
        Expr::Select { c, a, b } => match at(c) {
            Some(c) if c & 1 == 1 => at(a),
            Some(_) => at(b),
            None => None,
        },
        Expr::Fp { op, from, to, a, b } => {
            let (x, y) = (at(a), at(b));
            x.zip(y).map(|(x, y)| crate::expr::fp_fold(op, from, to, x, y))
        }
    };
    memo.insert(e, r);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Object, SymThread};
    use causa_core::ThreadName;
    use causa_ir::BinOp;

    /// An array of four words: main writes 1 and 2 into slot 0, a worker
    /// writes 5 at a computed slot; a counter is incremented once.
    #[test]
    fn domains_gather_every_write_and_a_counters_steps() {
        let mut sym = SymTrace::default();
        let (base, counter) = (causa_ir::make_addr(3, 0), causa_ir::make_addr(4, 0));
        sym.objects.push(Object { base, size: 16, heap: false, read_only: false });
        sym.initial.push((base, vec![0; 16]));
        sym.initial.push((counter, vec![0; 4]));
        let x = &mut sym.exprs;
        let (one, two, five) = (x.constant(32, 1), x.constant(32, 2), x.constant(32, 5));
        let slot = x.read(0, 64);
        let four = x.constant(64, 4);
        let off = x.bin(BinOp::Mul, 64, slot, four).expect("mul");
        let b = x.constant(64, base as u128);
        let at = x.bin(BinOp::Add, 64, b, off).expect("add");
        let (r1, r2, r3) = (x.read(1, 32), x.read(2, 32), x.read(3, 32));
        let next = x.bin(BinOp::Add, 32, r2, one).expect("add");
        let w = |addr, value| SymOp::Write { addr, size: 4, value, atomic: false, at: None };
        let r = |addr, value, at| SymOp::Read { addr, size: 4, value, atomic: false, at };
        sym.threads.push(SymThread::of_ops(
            ThreadName::main(),
            vec![
                SymOp::Begin,
                SymOp::Read { addr: 0x9000, size: 8, value: slot, atomic: false, at: None },
                w(base, one),
                w(base, two),
                r(base, r1, None),
                r(counter, r2, None),
                w(counter, next),
                r(0, r3, Some(at)),
            ],
        ));
        sym.threads.push(SymThread::of_ops(
            ThreadName::main().child(1),
            vec![SymOp::Begin, SymOp::Write { addr: 0, size: 4, value: five, atomic: false, at: Some(at) }],
        ));
        sym.reads = vec![(0, 1), (0, 4), (0, 5), (0, 7)];
        let d = of_reads(&sym);
        // The slot index's location is unknown memory.
        assert_eq!(d[0], None);
        assert_eq!(d[1], Some(BTreeSet::from([0, 1, 2, 5])));
        // (The fixpoint alone grew it by a value a round, and gave up.)
        assert_eq!(d[2], Some(BTreeSet::from([0, 1])), "a counter: its initial value, or one more");
        // Through the computed address: any slot of the array.
        assert_eq!(d[3], Some(BTreeSet::from([0, 1, 2, 5])));
    }

    /// A worker pushes 70 nodes onto `head` (each node's `next` is the head
    /// it read); main walks three links. Each step's address is the step
    /// before's read, and its domain is still null and the nodes: the
    /// domains of the reads in an address are followed back, sets of more
    /// than `rw::MAX_VALUES` values are kept, and null's `next` (a fault,
    /// not a location) is left out.
    #[test]
    fn a_walk_through_the_links_it_read_has_the_nodes_as_its_domain() {
        let mut sym = SymTrace::default();
        let head = causa_ir::make_addr(3, 0);
        sym.initial.push((head, vec![0; 8]));
        let nodes: Vec<u64> = (0..70).map(|i| causa_ir::make_addr(10 + i, 0)).collect();
        for n in &nodes {
            sym.objects.push(Object { base: *n, size: 16, heap: true, read_only: false });
            sym.zeroed_objects.push((causa_ir::addr_alloc(*n), 16));
        }
        let x = &mut sym.exprs;
        let eight = x.constant(64, 8);
        let read = |value, at: Option<ExprId>| SymOp::Read {
            addr: if at.is_some() { 0 } else { head },
            size: 8,
            value,
            atomic: false,
            at,
        };
        let write = |addr, value| SymOp::Write { addr, size: 8, value, atomic: false, at: None };
        let (mut worker, mut main) = (vec![SymOp::Begin], vec![SymOp::Begin]);
        for (i, n) in nodes.iter().enumerate() {
            let old = x.read(i as u32, 64);
            let new = x.constant(64, *n as u128);
            worker.extend([read(old, None), write(n + 8, old), write(head, new)]);
            sym.reads.push((1, worker.len() - 3));
        }
        let walked = nodes.len() as u32;
        let mut at = None;
        for k in 0..4 {
            let r = x.read(walked + k, 64);
            main.push(read(r, at));
            sym.reads.push((0, main.len() - 1));
            at = Some(x.bin(BinOp::Add, 64, r, eight).expect("add"));
        }
        sym.threads.push(SymThread::of_ops(ThreadName::main(), main));
        sym.threads.push(SymThread::of_ops(ThreadName::main().child(1), worker));
        let d = of_reads(&sym);
        let expected: BTreeSet<u128> = std::iter::once(0).chain(nodes.iter().map(|n| *n as u128)).collect();
        for k in 0..4 {
            assert_eq!(d[(walked + k) as usize].as_ref(), Some(&expected), "step {k}");
        }
    }

    /// Two counters side by side, each incremented under a lock (`hits++`,
    /// `misses += 2`), and a copy of both as one 8-byte word: the counters'
    /// reads have their initial value plus some of the increments as their
    /// domains (the fixpoint alone would widen them to unknown), and the
    /// copy's read every combination of the two.
    #[test]
    fn counters_and_a_copy_of_both_have_domains() {
        let mut sym = SymTrace::default();
        let base = causa_ir::make_addr(3, 0);
        let (hits, misses) = (base, base + 4);
        sym.initial.push((base, vec![0; 8]));
        let x = &mut sym.exprs;
        let (one, two) = (x.constant(32, 1), x.constant(32, 2));
        let read = |addr, size, value| SymOp::Read { addr, size, value, atomic: false, at: None };
        let write = |addr, value| SymOp::Write { addr, size: 4, value, atomic: false, at: None };
        let mut worker = vec![SymOp::Begin];
        let mut id = 0;
        for (addr, step, times) in [(hits, one, 3), (misses, two, 2)] {
            for _ in 0..times {
                let old = x.read(id, 32);
                let new = x.bin(BinOp::Add, 32, old, step).expect("add");
                worker.extend([read(addr, 4, old), write(addr, new)]);
                sym.reads.push((1, worker.len() - 2));
                id += 1;
            }
        }
        let copy = x.read(id, 64);
        let main = vec![SymOp::Begin, read(base, 8, copy)];
        sym.reads.push((0, 1));
        sym.threads.push(SymThread::of_ops(ThreadName::main(), main));
        sym.threads.push(SymThread::of_ops(ThreadName::main().child(1), worker));
        let d = of_reads(&sym);
        let set = |v: &[u128]| Some(v.iter().copied().collect::<BTreeSet<u128>>());
        assert_eq!(d[0], set(&[0, 1, 2, 3]), "hits");
        assert_eq!(d[3], set(&[0, 2, 4]), "misses");
        let both: Vec<u128> = [0u128, 2, 4].iter().flat_map(|m| (0..4).map(move |h| h | (m << 32))).collect();
        assert_eq!(d[id as usize], set(&both), "the copy");
    }

    /// A running sum of doubles updated outside a lock (`sum = sum + 1.5`
    /// twice, `sum = sum + 2.5` twice): each read's domain is every value
    /// four additions of those steps can leave, in any order (a superset
    /// of what the schedules make; the fixpoint alone widened it to
    /// unknown, and the mean's division stayed a circuit in the solver).
    #[test]
    fn a_floating_point_sum_has_the_values_its_steps_can_make() {
        let mut sym = SymTrace::default();
        let sum = causa_ir::make_addr(3, 0);
        sym.initial.push((sum, vec![0; 8]));
        let x = &mut sym.exprs;
        let read = |value| SymOp::Read { addr: sum, size: 8, value, atomic: false, at: None };
        let write = |value| SymOp::Write { addr: sum, size: 8, value, atomic: false, at: None };
        let mut id = 0;
        for (t, v) in [1.5f64, 2.5].into_iter().enumerate() {
            let step = x.constant(64, v.to_bits() as u128);
            let mut ops = vec![SymOp::Begin];
            for _ in 0..2 {
                let old = x.read(id, 64);
                let new = x.fp(crate::expr::FpOp::Bin(causa_ir::FBinOp::Add), 64, 64, old, step);
                ops.extend([read(old), write(new)]);
                sym.reads.push((t, ops.len() - 2));
                id += 1;
            }
            let name = if t == 0 { ThreadName::main() } else { ThreadName::main().child(1) };
            sym.threads.push(SymThread::of_ops(name, ops));
        }
        let d = of_reads(&sym);
        let expected: BTreeSet<u128> = (0..=4)
            .flat_map(|i| (0..=4 - i).map(move |j| (1.5 * i as f64 + 2.5 * j as f64).to_bits() as u128))
            .collect();
        assert!(expected.contains(&8f64.to_bits().into()) && expected.len() == 15);
        assert_eq!(d.len(), 4);
        for (r, domain) in d.iter().enumerate() {
            assert_eq!(domain.as_ref(), Some(&expected), "read {r}");
        }
    }

    /// A location some write sets from another location's read is no
    /// counter: its domain comes from the fixpoint as before.
    #[test]
    fn a_write_of_another_locations_value_is_no_counter_step() {
        let mut sym = SymTrace::default();
        let (a, b) = (causa_ir::make_addr(3, 0), causa_ir::make_addr(4, 0));
        sym.initial.push((a, vec![5, 0, 0, 0]));
        sym.initial.push((b, vec![0; 4]));
        let x = &mut sym.exprs;
        let one = x.constant(32, 1);
        let ra = x.read(0, 32);
        let next = x.bin(BinOp::Add, 32, ra, one).expect("add");
        let ops = vec![
            SymOp::Begin,
            SymOp::Read { addr: a, size: 4, value: ra, atomic: false, at: None },
            SymOp::Write { addr: b, size: 4, value: next, atomic: false, at: None },
        ];
        sym.reads.push((0, 1));
        let rb = x.read(1, 32);
        let reader = vec![SymOp::Begin, SymOp::Read { addr: b, size: 4, value: rb, atomic: false, at: None }];
        sym.reads.push((1, 1));
        sym.threads.push(SymThread::of_ops(ThreadName::main(), ops));
        sym.threads.push(SymThread::of_ops(ThreadName::main().child(1), reader));
        let d = of_reads(&sym);
        assert_eq!(d[1], Some(BTreeSet::from([0, 6])));
    }

    #[test]
    fn conditions_over_one_read_are_found_and_evaluated() {
        let mut x = Exprs::default();
        let r = x.read(7, 32);
        let seven = x.constant(32, 7);
        let three = x.constant(32, 3);
        let zero = x.constant(32, 0);
        let m = x.bin(BinOp::Mul, 32, r, seven).expect("mul");
        let rem = x.bin(BinOp::SRem, 32, m, three).expect("srem");
        let c = x.icmp(causa_ir::ICmpPred::Eq, 32, rem, zero);
        assert_eq!(single_read(&x, c), Some((7, 32)));
        let values: Vec<Option<u128>> = (0..6).map(|v| eval_with(&x, c, 7, v, &mut HashMap::default())).collect();
        assert_eq!(values, vec![Some(1), Some(0), Some(0), Some(1), Some(0), Some(0)]);
        let other = x.read(8, 32);
        let two = x.icmp(causa_ir::ICmpPred::Eq, 32, r, other);
        assert_eq!(single_read(&x, two), None);
        // A division by a read that may be zero: no value.
        let div = x.bin(BinOp::SDiv, 32, seven, r).expect("sdiv");
        assert_eq!(eval_with(&x, div, 7, 0, &mut HashMap::default()), None);
    }
}
