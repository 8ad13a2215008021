//! Which shared reads matter to the constraint model: those whose values
//! flow, directly or through shared writes and later reads, into a path
//! condition, the memory error's predicate or a computed `free` address. A
//! read nothing depends on needs no Φ_rw constraint: whichever write it sees,
//! every thread follows the same path and the failure is the same (a dynamic
//! slice of the trace, in the spirit of CLAP's §8 optimisations). Counters
//! updated under a lock and never tested (statistics, `ops++`) are the
//! common case: their Φ_rw is quadratic in their accesses and decides
//! nothing.

use crate::expr::{Expr, ExprId};
use crate::trace::{SymOp, SymTrace};
use std::collections::{BTreeSet, HashMap};

/// For each read id: whether its value matters. None when the trace has
/// accesses through symbolic addresses (whose targets are only known when
/// solving): every read matters then.
pub(crate) fn relevant_reads(sym: &SymTrace) -> Option<Vec<bool>> {
    let mut roots: Vec<ExprId> = Vec::new();
    let mut writes: HashMap<u64, Vec<ExprId>> = HashMap::new();
    for th in &sym.threads {
        roots.extend(th.path.iter().map(|(c, _)| *c));
        for e in &th.events {
            match &e.op {
                SymOp::Read { at: Some(_), .. } | SymOp::Write { at: Some(_), .. } => return None,
                SymOp::Write { addr, value, .. } => writes.entry(*addr).or_default().push(*value),
                SymOp::Rmw { addr, new, .. } => writes.entry(*addr).or_default().push(*new),
                SymOp::Fork { handle: Some((addr, value)), .. } => writes.entry(*addr).or_default().push(*value),
                SymOp::Free { at: Some(a), .. } => roots.push(*a),
                _ => {}
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
    let mut relevant = vec![false; sym.reads.len()];
    let mut seen: BTreeSet<ExprId> = BTreeSet::new();
    let mut locations: BTreeSet<u64> = BTreeSet::new();
    while let Some(e) = roots.pop() {
        if !seen.insert(e) {
            continue;
        }
        match sym.exprs.get(e) {
            Expr::Const { .. } => {}
            Expr::Read { id, .. } => {
                let id = *id as usize;
                if id >= relevant.len() || relevant[id] {
                    continue;
                }
                relevant[id] = true;
                let (t, k) = sym.reads[id];
                let addr = match sym.threads[t].events[k].op {
                    SymOp::Read { addr, .. } | SymOp::Rmw { addr, .. } => addr,
                    _ => continue,
                };
                if locations.insert(addr) {
                    roots.extend(writes.get(&addr).into_iter().flatten().copied());
                    roots.extend(sym.escaped.iter().filter(|(a, _, _)| *a == addr).map(|(_, _, v)| *v));
                }
            }
            Expr::Bin { a, b, .. } | Expr::ICmp { a, b, .. } => roots.extend([*a, *b]),
            Expr::Cast { a, .. } => roots.push(*a),
            Expr::Select { c, a, b } => roots.extend([*c, *a, *b]),
        }
    }
    Some(relevant)
}

/// For each event of each thread: whether it is incidental to the failure,
/// so that an alternate schedule may keep its order from the failing one
/// (`maxsmt::progressive` tries that first). Incidental are reads and writes
/// of locations no relevant read reads ([`relevant_reads`]) and the
/// acquisitions and releases of critical sections with nothing else inside
/// (the `ops++` of a statistics counter under its lock). Everything else
/// (relevant accesses, forks, joins, waits, frees…) is not. None when every
/// read matters (symbolic addresses) or the failure is a memory error (its
/// predicate ranges over accesses the slice does not follow).
pub(crate) fn incidental_events(sym: &SymTrace) -> Option<Vec<Vec<bool>>> {
    if sym.fault.is_some() {
        return None;
    }
    let relevant = relevant_reads(sym)?;
    let matters = |v: ExprId| match sym.exprs.get(v) {
        Expr::Read { id, .. } => relevant.get(*id as usize).copied().unwrap_or(true),
        _ => true,
    };
    let mut read: BTreeSet<u64> = BTreeSet::new();
    for th in &sym.threads {
        for e in &th.events {
            match &e.op {
                SymOp::Read { addr, value, .. } if matters(*value) => {
                    read.insert(*addr);
                }
                SymOp::Rmw { addr, old, .. } if matters(*old) => {
                    read.insert(*addr);
                }
                _ => {}
            }
        }
    }
    let out = sym
        .threads
        .iter()
        .map(|th| {
            let mut out = vec![false; th.events.len()];
            // Open critical sections: (mutex, lock event, anything relevant inside).
            let mut open: Vec<(u64, usize, bool)> = Vec::new();
            for (k, e) in th.events.iter().enumerate() {
                let access = match &e.op {
                    SymOp::Read { addr, .. } | SymOp::Write { addr, .. } | SymOp::Rmw { addr, .. } => Some(*addr),
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
                    _ => None,
                };
                match access {
                    Some(a) if !read.contains(&a) => out[k] = true,
                    _ => open.iter_mut().for_each(|s| s.2 = true),
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
    use crate::trace::{SymEvent, SymThread};
    use causa_core::ThreadName;
    use causa_ir::ICmpPred;

    fn ev(op: SymOp) -> SymEvent {
        SymEvent { op, loc: 0, section: 0 }
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
            ev(read(BALANCE, b)),
            ev(SymOp::Lock { mutex: M, shared: false }),
            ev(read(OPS, ops)),
            ev(write(OPS, one)),
            ev(SymOp::Unlock { mutex: M }),
            ev(SymOp::Lock { mutex: M, shared: false }),
            ev(write(BALANCE, one)),
            ev(SymOp::Unlock { mutex: M }),
        ];
        let thread = |name: ThreadName, events: Vec<SymEvent>, path| SymThread {
            thread: name,
            events,
            path,
            branches: Vec::new(),
            unfinished: false,
            inputs_at: Vec::new(),
        };
        let t1 = vec![ev(write(BALANCE, one))];
        sym.threads =
            vec![thread(ThreadName::main(), t0, vec![(test, 1)]), thread(ThreadName::main().child(1), t1, vec![])];
        sym.reads = vec![(0, 0), (0, 2)];
        let inc = incidental_events(&sym).expect("no symbolic address");
        assert_eq!(inc[0], [false, true, true, true, true, false, false, false]);
        assert_eq!(inc[1], [false]);
        // The slice under it: b's read matters, ops' does not.
        assert!(relevant_reads(&sym).is_some_and(|r| r == [true, false]));
    }
}
