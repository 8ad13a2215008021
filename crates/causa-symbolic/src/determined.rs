//! Reads whose value no schedule can change: program order, thread creation
//! and join (and barriers) alone fix the write they return. A read of
//! location `l` is *determined* when the writes to `l` that must happen
//! before it have one latest (or there is none, and `l`'s initial value is
//! known), and every other write that may land on `l` must happen before
//! that one or after the read. When that write's value is a constant, so is
//! the read's, in every schedule the model allows.
//!
//! Symbolic execution runs again with those reads as constants
//! ([`crate::execute`]), so that what is computed from them folds: a worker's
//! id read from its argument (racey's `sig[(i*5 + tid) % 16]`), a counter
//! main fills before it starts the threads (pfscan's `q_count`). Addresses
//! computed from them become concrete and their arithmetic leaves the
//! solver. Without this, the solver had to find out, by bit-blasting the
//! remainders and products, what program order had already decided.
//!
//! Sequential consistency only: under TSO and PSO a thread's buffered store
//! reaches memory at a flush the schedule places.

use crate::trace::{Initial, SymOp, SymTrace};
use causa_core::collections::HashMap;
use causa_core::MemoryModel;
use std::collections::BTreeMap;

/// A write that may land on a location: (thread, event, value when known).
#[derive(Clone, Copy)]
struct Write {
    at: (usize, usize),
    value: Option<u128>,
}

/// Happens-before from program order, fork, join and barriers: for each
/// event, how many events of each thread happen before it or are it.
pub(crate) struct Clocks {
    clocks: Vec<Vec<Vec<u32>>>,
}

impl Clocks {
    pub(crate) fn new(sym: &SymTrace) -> Clocks {
        let n = sym.threads.len();
        let mut clocks: Vec<Vec<Vec<u32>>> = sym.threads.iter().map(|t| vec![vec![0u32; n]; t.events.len()]).collect();
        let index = |name| sym.thread_index(name);
        // Where each thread is created (parent, event).
        let mut forked: HashMap<usize, (usize, usize)> = HashMap::default();
        let mut arrivals: BTreeMap<(u64, u32), Vec<(usize, usize)>> = BTreeMap::new();
        for (t, th) in sym.threads.iter().enumerate() {
            for (k, e) in th.events.iter().enumerate() {
                match &e.op {
                    SymOp::Fork { child, .. } => {
                        if let Some(c) = index(child) {
                            forked.insert(c, (t, k));
                        }
                    }
                    SymOp::Arrive { barrier, gen, .. } => arrivals.entry((*barrier, *gen)).or_default().push((t, k)),
                    _ => {}
                }
            }
        }
        // A fixpoint over the threads (a few passes: creation and join
        // edges go both ways between a parent and its children).
        for _ in 0..=n + 1 {
            let mut changed = false;
            for (t, th) in sym.threads.iter().enumerate() {
                let mut cur = match forked.get(&t) {
                    Some(&(p, k)) => clocks[p][k].clone(),
                    None => vec![0; n],
                };
                for (k, e) in th.events.iter().enumerate() {
                    cur[t] = k as u32 + 1;
                    let other: Vec<(usize, usize)> = match &e.op {
                        SymOp::Join { child, .. } => index(child)
                            .and_then(|c| sym.threads[c].events.len().checked_sub(1).map(|l| (c, l)))
                            .into_iter()
                            .collect(),
                        SymOp::Depart { barrier, gen } => arrivals.get(&(*barrier, *gen)).cloned().unwrap_or_default(),
                        _ => Vec::new(),
                    };
                    for (u, l) in other {
                        for (x, y) in cur.iter_mut().zip(&clocks[u][l]) {
                            *x = (*x).max(*y);
                        }
                    }
                    if clocks[t][k] != cur {
                        clocks[t][k].clone_from(&cur);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Clocks { clocks }
    }

    /// Whether `a` happens before `b` in every schedule.
    pub(crate) fn before(&self, a: (usize, usize), b: (usize, usize)) -> bool {
        if a.0 == b.0 {
            return a.1 < b.1;
        }
        self.clocks[b.0][b.1][a.0] > a.1 as u32
    }
}

/// The determined reads with a constant value: read id → value.
pub(crate) fn reads(sym: &SymTrace) -> HashMap<u32, u128> {
    let mut out = HashMap::default();
    if sym.memory_model != MemoryModel::Sc {
        return out;
    }
    let clocks = Clocks::new(sym);
    // Writes per (address, size); writes through computed addresses, with
    // the object they stay in when known; every address and size written.
    let mut writes: HashMap<(u64, u32), Vec<Write>> = HashMap::default();
    let mut ranges: BTreeMap<u64, u32> = BTreeMap::new();
    let mut anywhere: Vec<(Option<u32>, (usize, usize))> = Vec::new();
    for (t, th) in sym.threads.iter().enumerate() {
        for (k, e) in th.events.iter().enumerate() {
            let written: Vec<(u64, u32, crate::ExprId)> = match &e.op {
                SymOp::Write { at: Some(p), .. } | SymOp::Bulk { at: Some(p), .. } | SymOp::Rmw { at: Some(p), .. } => {
                    anywhere.push((crate::relevant::object_of(sym, *p), (t, k)));
                    continue;
                }
                SymOp::Write { addr, size, value, at: None, .. } => vec![(*addr, *size, *value)],
                SymOp::Rmw { addr, size, new, .. } => vec![(*addr, *size, *new)],
                SymOp::Fork { handle: Some((addr, value)), .. } | SymOp::Join { result: Some((addr, value)), .. } => {
                    vec![(*addr, 8, *value)]
                }
                SymOp::Bulk { writes, .. } => writes.iter().map(|p| (p.addr, p.size, p.value)).collect(),
                _ => continue,
            };
            for (addr, size, value) in written {
                let r = ranges.entry(addr).or_insert(size);
                *r = (*r).max(size);
                writes.entry((addr, size)).or_default().push(Write { at: (t, k), value: sym.exprs.value(value) });
            }
        }
    }
    for (id, &(t, k)) in sym.reads.iter().enumerate() {
        let SymOp::Read { addr, size, at: None, .. } = sym.threads[t].events[k].op else { continue };
        // Another write overlapping the location but not at it exactly.
        let lo = addr.saturating_sub(16);
        let overlaps = ranges
            .range(lo..addr + size as u64)
            .any(|(a, s)| a + *s as u64 > addr && (*a, *s) != (addr, size) && writes.contains_key(&(*a, *s)));
        if overlaps {
            continue;
        }
        let read = (t, k);
        let here = writes.get(&(addr, size)).map(Vec::as_slice).unwrap_or_default();
        if here.iter().any(|w| !clocks.before(w.at, read) && !clocks.before(read, w.at)) {
            continue;
        }
        let mut before = here.iter().filter(|w| clocks.before(w.at, read));
        let last = match before.next() {
            None => None,
            Some(first) => {
                let last = before.fold(*first, |m, w| if clocks.before(m.at, w.at) { *w } else { m });
                // One latest: every other write before the read is before it.
                if here.iter().any(|w| w.at != last.at && clocks.before(w.at, read) && !clocks.before(w.at, last.at)) {
                    continue;
                }
                Some(last)
            }
        };
        // Writes through computed addresses that may land here, between.
        let object = causa_ir::addr_alloc(addr);
        let between = anywhere.iter().any(|(o, w)| {
            o.is_none_or(|o| o == object) && !clocks.before(read, *w) && last.is_none_or(|l| !clocks.before(*w, l.at))
        });
        if between {
            continue;
        }
        let value = match last {
            Some(w) => w.value,
            None => match sym.initial_value(addr, size) {
                Initial::Known(v) => Some(v),
                Initial::Expr(e) => sym.exprs.value(e),
                Initial::Unknown => None,
            },
        };
        if let Some(v) = value {
            out.insert(id as u32, v);
        }
    }
    // A join's result, where the joined thread returned a constant.
    for (read, _) in &sym.join_results {
        if let Some(v) = sym.joined_result(*read).and_then(|x| sym.exprs.value(x)) {
            out.insert(*read, v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{SymEvent, SymThread};
    use causa_core::ThreadName;

    fn ev(op: SymOp) -> SymEvent {
        SymEvent { op, loc: causa_ir::NONE, section: 0 }
    }

    /// main writes x = 5, starts a child that reads x, writes x = 6 and
    /// reads x; the child's read is determined only before main's second
    /// write can happen.
    #[test]
    fn program_order_and_creation_fix_a_read() {
        let mut sym = SymTrace::default();
        let (main, child) = (ThreadName::main(), ThreadName::main().child(1));
        let five = sym.exprs.constant(32, 5);
        let six = sym.exprs.constant(32, 6);
        let r0 = sym.exprs.read(0, 32);
        let r1 = sym.exprs.read(1, 32);
        let r2 = sym.exprs.read(2, 32);
        let x = 0x1000;
        let read = |value| SymOp::Read { addr: x, size: 4, value, atomic: false, at: None };
        let write = |value| SymOp::Write { addr: x, size: 4, value, atomic: false, at: None };
        sym.threads.push(SymThread::of_ops(
            main.clone(),
            vec![
                SymOp::Begin,
                write(five),
                SymOp::Fork { child: child.clone(), handle: None },
                read(r1),
                write(six),
                SymOp::Join { child: child.clone(), result: None },
                read(r2),
            ],
        ));
        sym.threads.push(SymThread::of_ops(child, vec![SymOp::Begin, read(r0), SymOp::End]));
        sym.reads = vec![(1, 1), (0, 3), (0, 6)];
        let known = reads(&sym);
        // The child's read races with main's second write; main's first read
        // also does (the child does not write, but main's own later write
        // comes after it: determined, 5); main's read after the join sees 6.
        assert_eq!(known.get(&0), None);
        assert_eq!(known.get(&1), Some(&5));
        assert_eq!(known.get(&2), Some(&6));
        // Without the second write, the child's read is determined too.
        sym.threads[0].events[4] = ev(SymOp::Begin);
        assert_eq!(reads(&sym).get(&0), Some(&5));
    }

    /// A write through a computed address into the same object, unordered
    /// with the read, leaves it undetermined; under TSO nothing is.
    #[test]
    fn computed_writes_and_store_buffers_leave_reads_free() {
        let mut sym = SymTrace::default();
        let main = ThreadName::main();
        let child = main.child(1);
        let r0 = sym.exprs.read(0, 32);
        let r9 = sym.exprs.read(9, 64);
        let base = sym.exprs.constant(64, 0x1000);
        let at = sym.exprs.bin(causa_ir::BinOp::Add, 64, base, r9).expect("add");
        let one = sym.exprs.constant(32, 1);
        sym.initial.push((0x1000, vec![7, 0, 0, 0, 0, 0, 0, 0]));
        sym.threads.push(SymThread::of_ops(
            main.clone(),
            vec![
                SymOp::Begin,
                SymOp::Fork { child: child.clone(), handle: None },
                SymOp::Read { addr: 0x1000, size: 4, value: r0, atomic: false, at: None },
            ],
        ));
        sym.threads.push(SymThread::of_ops(
            child,
            vec![SymOp::Begin, SymOp::Write { addr: 0, size: 4, value: one, atomic: false, at: Some(at) }],
        ));
        sym.reads = vec![(0, 2)];
        assert_eq!(reads(&sym).get(&0), None);
        // The write elsewhere: the read sees the initial value.
        sym.threads[1].events[1] = ev(SymOp::End);
        assert_eq!(reads(&sym).get(&0), Some(&7));
        sym.memory_model = MemoryModel::Tso;
        assert!(reads(&sym).is_empty());
    }
}
