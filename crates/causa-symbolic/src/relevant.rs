//! Which shared reads matter to the constraint model: those whose values
//! flow, directly or through shared writes and later reads, into a path
//! condition, the memory error's predicate or a computed `free` address. A
//! read nothing depends on needs no Φ_rw constraint: whichever write it sees,
//! every thread follows the same path and the failure is the same (a dynamic
//! slice of the trace, in the spirit of CLAP's §8 optimisations). Counters
//! updated under a lock and never tested (statistics, `ops++`) are the
//! common case: their Φ_rw is quadratic in their accesses and decides
//! nothing.

//!
//! An access through a symbolic address (an array indexed by a shared
//! value; its trace records no address) is taken to stay inside the object
//! of its address expression's constant base: pointer arithmetic that
//! leaves its object is undefined, and an access outside every object is a
//! memory error. Without such a base it may touch anything. Its address
//! expression always matters; a symbolic read whose value matters makes its
//! whole object matter (every write into it); a symbolic write is followed
//! when anything in its object matters.

use crate::expr::{Expr, ExprId};
use crate::trace::{SymOp, SymTrace};
use causa_core::collections::HashMap;
use causa_ir::addr_alloc;
use std::collections::BTreeSet;

/// What matters: the reads (by id), the locations whose writes they may
/// read, the objects read through symbolic addresses, and whether one read
/// may read anything (a symbolic read without a base).
pub(crate) struct Slice {
    pub reads: Vec<bool>,
    locations: BTreeSet<u64>,
    objects: BTreeSet<u32>,
    everything: bool,
}

impl Slice {
    /// Whether a write into `object` (at `addr` when it is known) may be read
    /// by a read that matters (None: an unknown object).
    pub fn written_matters(&self, object: Option<u32>, addr: Option<u64>) -> bool {
        let Some(o) = object else {
            return self.everything || !self.locations.is_empty() || !self.objects.is_empty();
        };
        self.everything
            || self.objects.contains(&o)
            || match addr {
                Some(a) => self.locations.contains(&a),
                None => self.locations.iter().any(|a| addr_alloc(*a) == o),
            }
    }
}

/// The object a symbolic address expression stays in (None: unknown).
pub(crate) fn object_of(sym: &SymTrace, at: ExprId) -> Option<u32> {
    sym.exprs.constant_term(at).map(|c| addr_alloc(c as u64)).filter(|o| *o != 0)
}

/// For each read id: whether its value matters.
#[cfg(test)]
pub(crate) fn relevant_reads(sym: &SymTrace) -> Vec<bool> {
    slice(sym).reads
}

pub(crate) fn slice(sym: &SymTrace) -> Slice {
    slice_cutting(sym, &BTreeSet::new())
}

/// [`slice`], without following the writes of the locations of `cut` from
/// their reads (`commuting.rs`: what else their updates' reads reach).
pub(crate) fn slice_cutting(sym: &SymTrace, cut: &BTreeSet<u64>) -> Slice {
    let mut roots: Vec<ExprId> = Vec::new();
    // Written values per location; per object (every write into it); of
    // symbolic writes, per object and without one.
    let mut writes: HashMap<u64, Vec<ExprId>> = HashMap::default();
    let mut object_writes: HashMap<u32, Vec<ExprId>> = HashMap::default();
    let mut symbolic_writes: HashMap<u32, Vec<ExprId>> = HashMap::default();
    let mut anywhere: Vec<ExprId> = Vec::new();
    for th in &sym.threads {
        roots.extend(th.path.iter().map(|(c, _)| *c));
        for e in &th.events {
            let written = match &e.op {
                SymOp::Read { at: Some(p), .. } => {
                    roots.push(*p);
                    None
                }
                SymOp::Write { value, at: Some(p), .. } | SymOp::Rmw { new: value, at: Some(p), .. } => {
                    roots.push(*p);
                    match object_of(sym, *p) {
                        Some(o) => {
                            symbolic_writes.entry(o).or_default().push(*value);
                            object_writes.entry(o).or_default().push(*value);
                        }
                        None => anywhere.push(*value),
                    }
                    None
                }
                SymOp::Write { addr, value, .. } => Some((*addr, *value)),
                SymOp::Rmw { addr, new, .. } => Some((*addr, *new)),
                // Its words may be cut differently from the accesses that
                // read them: followed per object, like a symbolic write.
                // (Through a computed pointer, its pieces' `addr` are
                // offsets: the object is the pointer's.)
                SymOp::Bulk { writes, at, .. } => {
                    roots.extend(at);
                    for p in writes {
                        let object = match at {
                            Some(q) => object_of(sym, *q),
                            None => Some(addr_alloc(p.addr)),
                        };
                        match object {
                            Some(o) => {
                                symbolic_writes.entry(o).or_default().push(p.value);
                                object_writes.entry(o).or_default().push(p.value);
                            }
                            None => anywhere.push(p.value),
                        }
                    }
                    None
                }
                SymOp::Fork { handle: Some((addr, value)), .. } | SymOp::Join { result: Some((addr, value)), .. } => {
                    Some((*addr, *value))
                }
                SymOp::Free { at: Some(a), .. } => {
                    roots.push(*a);
                    None
                }
                _ => None,
            };
            if let Some((addr, value)) = written {
                writes.entry(addr).or_default().push(value);
                object_writes.entry(addr_alloc(addr)).or_default().push(value);
            }
        }
    }
    if let Some(f) = &sym.fault {
        roots.push(f.addr);
        let p = &sym.fault_predicates;
        roots.extend(p.invalid);
        roots.extend(p.hits.iter().map(|h| h.1));
        roots.extend(p.frees.iter().map(|f| f.3));
    }
    let mut s = Slice {
        reads: vec![false; sym.reads.len()],
        locations: BTreeSet::new(),
        objects: BTreeSet::new(),
        everything: false,
    };
    let mut seen: BTreeSet<ExprId> = BTreeSet::new();
    let mut anywhere_followed = false;
    while let Some(e) = roots.pop() {
        if !seen.insert(e) {
            continue;
        }
        match sym.exprs.get(e) {
            Expr::Const { .. } => {}
            Expr::Read { id, .. } => {
                let id = *id as usize;
                if id >= s.reads.len() || s.reads[id] {
                    continue;
                }
                s.reads[id] = true;
                // A join's result: what the joined thread returned.
                roots.extend(sym.joined_result(id as u32));
                // Once anything matters, so do the writes that may go anywhere.
                if !anywhere_followed {
                    anywhere_followed = true;
                    roots.extend(anywhere.iter().copied());
                }
                let (t, k) = sym.reads[id];
                // Reads any write into their object may be what they read:
                // through a symbolic address, or a bulk read (its words may
                // be written with other widths).
                let op = &sym.threads[t].events[k].op;
                let in_object = match op {
                    SymOp::Read { at: Some(p), .. } | SymOp::Rmw { at: Some(p), .. } => Some(object_of(sym, *p)),
                    SymOp::Bulk { at: Some(p), .. } => Some(object_of(sym, *p)),
                    SymOp::Bulk { reads, .. } => Some(reads.first().map(|p| addr_alloc(p.addr))),
                    _ => None,
                };
                match (in_object, op) {
                    (Some(Some(o)), _) if s.objects.insert(o) => {
                        roots.extend(object_writes.get(&o).into_iter().flatten().copied());
                        roots.extend(sym.escaped.iter().filter(|(a, _, _)| addr_alloc(*a) == o).map(|(_, _, v)| *v));
                    }
                    (Some(None), _) if !s.everything => {
                        s.everything = true;
                        roots.extend(object_writes.values().flatten().copied());
                        roots.extend(sym.escaped.iter().map(|(_, _, v)| *v));
                    }
                    (Some(_), _) => {}
                    (None, &SymOp::Read { addr, .. } | &SymOp::Rmw { addr, .. })
                        if !cut.contains(&addr) && s.locations.insert(addr) =>
                    {
                        roots.extend(writes.get(&addr).into_iter().flatten().copied());
                        roots.extend(symbolic_writes.get(&addr_alloc(addr)).into_iter().flatten().copied());
                        roots.extend(sym.escaped.iter().filter(|(a, _, _)| *a == addr).map(|(_, _, v)| *v));
                    }
                    _ => {}
                }
            }
            Expr::Bin { a, b, .. } | Expr::ICmp { a, b, .. } | Expr::Fp { a, b, .. } => roots.extend([*a, *b]),
            Expr::Cast { a, .. } => roots.push(*a),
            Expr::Select { c, a, b } => roots.extend([*c, *a, *b]),
        }
    }
    s
}

/// For each event of each thread: whether it is incidental to the failure,
/// so that an alternate schedule may keep its order from the failing one
/// (`maxsmt::progressive` tries that first). Incidental are reads and writes
/// of locations no relevant read reads ([`slice`]), symbolic
/// reads whose values nothing uses, and the acquisitions and releases of
/// critical sections with nothing else inside (the `ops++` of a statistics
/// counter under its lock). Everything else (relevant accesses, forks,
/// joins, waits, frees…) is not. None when the failure is a memory error
/// (its predicate ranges over accesses the slice does not follow).
pub(crate) fn incidental_events(sym: &SymTrace) -> Option<Vec<Vec<bool>>> {
    incidental_and(sym, None)
}

/// The events an alternate schedule may keep in the failing order: the
/// incidental ones ([`incidental_events`]) and the updates of counters
/// whose updates commute (`commuting.rs`), with the critical sections
/// that hold nothing else.
pub(crate) fn holdable_events(sym: &SymTrace) -> Option<Vec<Vec<bool>>> {
    incidental_and(sym, Some(&crate::commuting::updates(sym)))
}

/// [`incidental_events`], counting the events `also` marks as incidental.
fn incidental_and(sym: &SymTrace, also: Option<&[Vec<bool>]>) -> Option<Vec<Vec<bool>>> {
    if sym.fault.is_some() {
        return None;
    }
    let slice = slice(sym);
    let matters = |v: ExprId| match sym.exprs.get(v) {
        Expr::Read { id, .. } => slice.reads.get(*id as usize).copied().unwrap_or(true),
        _ => true,
    };
    let out = sym
        .threads
        .iter()
        .enumerate()
        .map(|(t, th)| {
            let mut out = vec![false; th.events.len()];
            // Open critical sections: (mutex, lock event, anything relevant inside).
            let mut open: Vec<(u64, usize, bool)> = Vec::new();
            for (k, e) in th.events.iter().enumerate() {
                let incidental = match &e.op {
                    _ if also.is_some_and(|a| a[t][k]) => true,
                    // A symbolic read whose value nothing uses: whichever
                    // write it sees changes nothing.
                    SymOp::Read { value, at: Some(_), .. } => !matters(*value),
                    // A determined read constrains nothing (no schedule
                    // changes its value): free, it costs an order variable;
                    // held in σ's order it would hold back its thread
                    // (racey's workers read their ids first).
                    SymOp::Read { value, .. } if sym.exprs.value(*value).is_some() => false,
                    // (Through a computed address: its address matters.)
                    SymOp::Rmw { at: Some(_), .. } => false,
                    SymOp::Read { addr, .. } | SymOp::Rmw { addr, .. } => {
                        !slice.written_matters(Some(addr_alloc(*addr)), Some(*addr))
                    }
                    SymOp::Write { at: Some(p), .. } => !slice.written_matters(object_of(sym, *p), None),
                    SymOp::Write { addr, .. } => !slice.written_matters(Some(addr_alloc(*addr)), Some(*addr)),
                    SymOp::Lock { mutex, .. } => {
                        open.push((*mutex, k, false));
                        continue;
                    }
                    SymOp::Unlock { mutex } => {
                        if let Some(i) = open.iter().rposition(|(m, _, _)| m == mutex) {
                            let (_, lock, inside) = open.remove(i);
                            out[lock] = !inside;
                            out[k] = !inside;
                            if inside {
                                open.iter_mut().for_each(|s| s.2 = true);
                            }
                        }
                        continue;
                    }
                    _ => false,
                };
                out[k] = incidental;
                if !incidental {
                    open.iter_mut().for_each(|s| s.2 = true);
                }
            }
            out
        })
        .collect();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::SymThread;
    use causa_core::ThreadName;
    use causa_ir::ICmpPred;

    /// A thread of `ops` whose path conditions are `path`.
    fn thread(name: ThreadName, ops: Vec<SymOp>, path: Vec<(ExprId, usize)>) -> SymThread {
        SymThread { path, ..SymThread::of_ops(name, ops) }
    }

    #[test]
    fn bookkeeping_under_a_lock_is_incidental_and_the_tested_data_is_not() {
        // T0: b = balance; lock; ops = ops + 1; unlock; lock; balance = 1; unlock;
        // then tests b == 100. T1: balance = 2. Nothing tests ops.
        const BALANCE: u64 = 0x10;
        const OPS: u64 = 0x20;
        const M: u64 = 0x30;
        let mut sym = SymTrace::default();
        let b = sym.exprs.read(0, 32);
        let ops = sym.exprs.read(1, 32);
        let one = sym.exprs.constant(32, 1);
        let hundred = sym.exprs.constant(32, 100);
        let test = sym.exprs.icmp(ICmpPred::Eq, 32, b, hundred);
        let read = |addr, value| SymOp::Read { addr, size: 4, value, atomic: false, at: None };
        let write = |addr, value| SymOp::Write { addr, size: 4, value, atomic: false, at: None };
        let t0 = vec![
            read(BALANCE, b),
            SymOp::Lock { mutex: M, shared: false },
            read(OPS, ops),
            write(OPS, one),
            SymOp::Unlock { mutex: M },
            SymOp::Lock { mutex: M, shared: false },
            write(BALANCE, one),
            SymOp::Unlock { mutex: M },
        ];
        let t1 = vec![write(BALANCE, one)];
        sym.threads =
            vec![thread(ThreadName::main(), t0, vec![(test, 1)]), thread(ThreadName::main().child(1), t1, vec![])];
        sym.reads = vec![(0, 0), (0, 2)];
        let inc = incidental_events(&sym).expect("no symbolic address");
        assert_eq!(inc[0], [false, true, true, true, true, false, false, false]);
        assert_eq!(inc[1], [false]);
        // The slice under it: b's read matters, ops' does not.
        assert_eq!(relevant_reads(&sym), [true, false]);
    }

    #[test]
    fn a_symbolic_write_matters_only_when_its_object_does() {
        // T0: i = id; hist[i] = 1 (a symbolic address into hist); b = x;
        // then tests b == 100. With x in another object hist's write is
        // incidental; with x in hist's object (x = hist[0]) it is not, and
        // the value it writes matters.
        use causa_ir::{make_addr, BinOp};
        let run = |x: u64| {
            let (id, hist) = (make_addr(1, 0), make_addr(2, 0));
            let mut sym = SymTrace::default();
            let i = sym.exprs.read(0, 64);
            let b = sym.exprs.read(1, 32);
            let w = sym.exprs.read(2, 32);
            let four = sym.exprs.constant(64, 4);
            let base = sym.exprs.constant(64, hist as u128);
            let off = sym.exprs.bin(BinOp::Mul, 64, i, four).expect("mul");
            let at = sym.exprs.bin(BinOp::Add, 64, base, off).expect("add");
            let hundred = sym.exprs.constant(32, 100);
            let test = sym.exprs.icmp(ICmpPred::Eq, 32, b, hundred);
            let t0 = vec![
                SymOp::Read { addr: id, size: 8, value: i, atomic: false, at: None },
                SymOp::Read { addr: make_addr(3, 0), size: 4, value: w, atomic: false, at: None },
                // The trace records no address for a symbolic access.
                SymOp::Write { addr: 0, size: 4, value: w, atomic: false, at: Some(at) },
                SymOp::Read { addr: x, size: 4, value: b, atomic: false, at: None },
            ];
            sym.threads = vec![thread(ThreadName::main(), t0, vec![(test, 4)])];
            sym.reads = vec![(0, 0), (0, 3), (0, 1)];
            (relevant_reads(&sym), incidental_events(&sym).expect("not a memory error"))
        };
        // x elsewhere: the address (id) and b matter; w and its write do not.
        let (reads, inc) = run(make_addr(4, 0));
        assert_eq!(reads, [true, true, false]);
        assert_eq!(inc[0], [false, true, true, false]);
        // x in hist: the write may be what b reads, so w matters too.
        let (reads, inc) = run(make_addr(2, 0));
        assert_eq!(reads, [true, true, true]);
        assert_eq!(inc[0], [false, false, false, false]);
    }
}
