//! Counters whose updates commute: a location every thread only increments
//! (or decrements) by a constant, each time reading it and writing it back
//! inside one critical section of a mutex all those updates hold, whose
//! read value nothing else uses, and which every other read reads only
//! before or after all the updates (main summing a histogram after joining
//! its workers). The updates' order changes no value the program uses
//! outside them: whatever order the critical sections take, every read
//! outside them sees the same value.
//!
//! Such updates are not incidental to the failure (`relevant.rs`: the final
//! value may be what fails), but their order is: an alternate schedule may
//! keep it from the failing one. `maxsmt::progressive` holds them in σ's
//! order first, like the incidental events, so that the lock constraints
//! between their critical sections (quadratic in their number) leave the
//! queries. bench/programs/late_race.c with `-DCHECK_HIST` (three workers'
//! histogram updates, checked at the end) is the case: held, its
//! explanation's queries no longer carry 120 sections' pairwise Φ_lock
//! (docs/performance.md).

use crate::expr::Expr;
use crate::relevant::{object_of, slice_cutting};
use crate::trace::{SymOp, SymTrace};
use causa_core::collections::HashMap;
use causa_core::MemoryModel;
use causa_ir::{addr_alloc, BinOp};
use std::collections::{BTreeMap, BTreeSet};

/// One update: its read (thread, event, read id) and its write (event).
#[derive(Clone, Copy)]
struct Update {
    thread: usize,
    read: usize,
    id: u32,
    write: usize,
}

/// What one location's accesses are.
#[derive(Default)]
struct Location {
    updates: Vec<Update>,
    /// The mutexes held over every update so far (None: no update yet).
    held: Option<BTreeSet<u64>>,
    /// Reads that are not an update's: (thread, event).
    plain: Vec<(usize, usize)>,
    /// An access that is neither (a write of another value, an atomic or
    /// bulk access, one of another size): not a counter.
    other: bool,
}

/// For each event of each thread: whether it is the read or the write of an
/// update of a commuting counter.
pub(crate) fn updates(sym: &SymTrace) -> Vec<Vec<bool>> {
    let mut out: Vec<Vec<bool>> = sym.threads.iter().map(|t| vec![false; t.events.len()]).collect();
    if sym.memory_model != MemoryModel::Sc {
        return out;
    }
    let mut locations = accesses(sym);
    let clocks = crate::determined::Clocks::new(sym);
    locations.retain(|_, l| {
        let updates = &l.updates;
        !l.other
            && updates.len() > 1
            && l.held.as_ref().is_some_and(|h| !h.is_empty())
            && l.plain.iter().all(|&r| {
                updates.iter().all(|u| clocks.before(r, (u.thread, u.read)) || clocks.before((u.thread, u.write), r))
            })
    });
    // The updates' reads used by nothing but their writes: followed from
    // everything that matters, without following the counters' own
    // writes, none of them is reached (a counter dropped makes its writes
    // followed again, so ask until none is dropped).
    loop {
        let cut: BTreeSet<u64> = locations.keys().copied().collect();
        let reached = slice_cutting(sym, &cut).reads;
        let before = locations.len();
        locations.retain(|_, l| l.updates.iter().all(|u| !reached.get(u.id as usize).copied().unwrap_or(true)));
        if locations.len() == before {
            break;
        }
    }
    tracing::debug!(
        counters = locations.len(),
        updates = locations.values().map(|l| l.updates.len()).sum::<usize>(),
        "counters whose locked updates commute"
    );
    for l in locations.values() {
        for u in &l.updates {
            out[u.thread][u.read] = true;
            out[u.thread][u.write] = true;
        }
    }
    out
}

/// A thread's last read of a location not yet written back: its event, read
/// id and value, and the critical sections (mutex, serial) held then.
type Pending = (usize, u32, crate::ExprId, Vec<(u64, usize)>);

/// Every location's accesses, sorted into updates, plain reads and others.
fn accesses(sym: &SymTrace) -> BTreeMap<u64, Location> {
    let mut locations: BTreeMap<u64, Location> = BTreeMap::new();
    // Objects accessed through a computed address or in bulk: none of their
    // locations is a counter.
    let mut unknown: BTreeSet<u32> = BTreeSet::new();
    let mut anywhere = false;
    let mut sizes: BTreeMap<u64, BTreeSet<u32>> = BTreeMap::new();
    for (t, th) in sym.threads.iter().enumerate() {
        // Held mutexes, each with the serial of its critical section.
        let mut held: Vec<(u64, usize)> = Vec::new();
        let mut serial = 0;
        let mut pending: HashMap<u64, Pending> = HashMap::default();
        for (k, e) in th.events.iter().enumerate() {
            match &e.op {
                SymOp::Lock { mutex, shared: false } | SymOp::WaitReturn { mutex, .. } => {
                    serial += 1;
                    held.push((*mutex, serial));
                }
                SymOp::Unlock { mutex } | SymOp::Wait { mutex, .. } => {
                    if let Some(i) = held.iter().rposition(|(m, _)| m == mutex) {
                        held.remove(i);
                    }
                }
                SymOp::Read { at: Some(p), .. }
                | SymOp::Write { at: Some(p), .. }
                | SymOp::Rmw { at: Some(p), .. }
                | SymOp::Bulk { at: Some(p), .. } => match object_of(sym, *p) {
                    Some(o) => {
                        unknown.insert(o);
                    }
                    None => anywhere = true,
                },
                SymOp::Bulk { addr, .. } => {
                    unknown.insert(addr_alloc(*addr));
                }
                SymOp::Read { addr, size, value, atomic, .. } => {
                    sizes.entry(*addr).or_default().insert(*size);
                    let l = locations.entry(*addr).or_default();
                    l.other |= *atomic;
                    // An earlier read not written back is a plain one.
                    if let Some((r, ..)) = pending.remove(addr) {
                        l.plain.push((t, r));
                    }
                    match sym.exprs.get(*value) {
                        Expr::Read { id, .. } => {
                            pending.insert(*addr, (k, *id, *value, held.clone()));
                        }
                        _ => l.plain.push((t, k)),
                    }
                }
                SymOp::Write { addr, size, value, atomic, .. } => {
                    sizes.entry(*addr).or_default().insert(*size);
                    let l = locations.entry(*addr).or_default();
                    match pending.remove(addr) {
                        Some((r, id, v, then)) if !*atomic && adds_constant(sym, *value, v) => {
                            // The mutexes held over both, in one critical section.
                            let over: BTreeSet<u64> =
                                then.iter().filter(|s| held.contains(s)).map(|(m, _)| *m).collect();
                            let common = match l.held.take() {
                                Some(h) => h.intersection(&over).copied().collect(),
                                None => over,
                            };
                            l.held = Some(common);
                            l.updates.push(Update { thread: t, read: r, id, write: k });
                        }
                        read => {
                            l.other = true;
                            if let Some((r, ..)) = read {
                                l.plain.push((t, r));
                            }
                        }
                    }
                }
                SymOp::Rmw { addr, .. }
                | SymOp::Fork { handle: Some((addr, _)), .. }
                | SymOp::Join { result: Some((addr, _)), .. } => {
                    locations.entry(*addr).or_default().other = true;
                }
                _ => {}
            }
        }
        for (addr, (r, ..)) in pending {
            locations.entry(addr).or_default().plain.push((t, r));
        }
    }
    if anywhere {
        return BTreeMap::new();
    }
    // Accesses of other sizes, or at other addresses overlapping it.
    let widest = sizes.values().filter_map(|s| s.last()).max().copied().unwrap_or(1) as u64;
    for (addr, l) in locations.iter_mut() {
        let Some(&size) = sizes.get(addr).filter(|s| s.len() == 1).and_then(|s| s.first()) else {
            l.other = true;
            continue;
        };
        let end = addr + size as u64;
        let overlapping = sizes
            .range(addr.saturating_sub(widest)..end)
            .filter(|(a, s)| s.iter().any(|s| **a + *s as u64 > *addr))
            .count();
        l.other |= overlapping > 1 || unknown.contains(&addr_alloc(*addr));
    }
    locations
}

/// Whether `value` is `read` plus or minus a constant (either side of an
/// addition).
fn adds_constant(sym: &SymTrace, value: crate::ExprId, read: crate::ExprId) -> bool {
    let constant = |e| matches!(sym.exprs.get(e), Expr::Const { .. });
    match *sym.exprs.get(value) {
        Expr::Bin { op: BinOp::Add, a, b, .. } => (a == read && constant(b)) || (b == read && constant(a)),
        Expr::Bin { op: BinOp::Sub, a, b, .. } => a == read && constant(b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::SymThread;
    use causa_core::ThreadName;
    use causa_ir::{make_addr, ICmpPred};

    const M: u64 = 0x30;
    const M2: u64 = 0x40;

    /// What may vary: how a worker updates the counter, and where main reads it.
    #[derive(Clone, Copy, PartialEq)]
    enum Variant {
        /// Each worker: lock m; h = h + 1; unlock m. Main reads h after both joins.
        Counter,
        /// The first worker also tests the value it read.
        ReadTested,
        /// No lock around the updates.
        Unlocked,
        /// The workers lock different mutexes.
        TwoMutexes,
        /// The second worker doubles h instead.
        Doubled,
        /// Main reads h between the joins (while the second worker may update it).
        ReadEarly,
    }

    /// main: fork w1, fork w2, [read h,] join w1, join w2, read h; tests h == 2.
    fn trace(v: Variant) -> (SymTrace, Vec<Vec<bool>>) {
        let h = make_addr(1, 0);
        let mut sym = SymTrace::default();
        let one = sym.exprs.constant(32, 1);
        let two = sym.exprs.constant(32, 2);
        let (w1, w2) = (ThreadName::main().child(1), ThreadName::main().child(2));
        // Worker t's read is read id t - 1.
        let worker = |sym: &mut SymTrace, t: u32, mutex: u64, doubled: bool| {
            let r = sym.exprs.read(t - 1, 32);
            let op = if doubled { causa_ir::BinOp::Mul } else { causa_ir::BinOp::Add };
            let w = sym.exprs.bin(op, 32, r, if doubled { two } else { one }).expect("bin");
            let mut ops = vec![SymOp::Begin];
            let locked = v != Variant::Unlocked;
            ops.push(if locked { SymOp::Lock { mutex, shared: false } } else { SymOp::Yield });
            ops.push(SymOp::Read { addr: h, size: 4, value: r, atomic: false, at: None });
            ops.push(SymOp::Write { addr: h, size: 4, value: w, atomic: false, at: None });
            if locked {
                ops.push(SymOp::Unlock { mutex });
            }
            ops.push(SymOp::End);
            (ops, r)
        };
        let (e1, r1) = worker(&mut sym, 1, M, false);
        let second = if v == Variant::TwoMutexes { M2 } else { M };
        let (e2, _) = worker(&mut sym, 2, second, v == Variant::Doubled);
        let fin = sym.exprs.read(2, 32);
        let tested = sym.exprs.icmp(ICmpPred::Eq, 32, fin, two);
        let mut main = vec![
            SymOp::Begin,
            SymOp::Fork { child: w1.clone(), handle: None },
            SymOp::Fork { child: w2.clone(), handle: None },
            SymOp::Join { child: w1.clone(), result: None },
        ];
        let early = v == Variant::ReadEarly;
        let read_fin = SymOp::Read { addr: h, size: 4, value: fin, atomic: false, at: None };
        let join_w2 = SymOp::Join { child: w2.clone(), result: None };
        main.extend(if early { [read_fin, join_w2] } else { [join_w2, read_fin] });
        main.push(SymOp::End);
        let mut path1 = Vec::new();
        if v == Variant::ReadTested {
            let zero = sym.exprs.constant(32, 0);
            path1.push((sym.exprs.icmp(ICmpPred::Eq, 32, r1, zero), 3));
        }
        let with_path = |name, ops, path| SymThread { path, ..SymThread::of_ops(name, ops) };
        sym.threads = vec![
            with_path(ThreadName::main(), main, vec![(tested, 6)]),
            with_path(w1, e1, path1),
            SymThread::of_ops(w2, e2),
        ];
        sym.reads = vec![(1, 2), (2, 2), (0, if early { 4 } else { 5 })];
        let u = updates(&sym);
        (sym, u)
    }

    #[test]
    fn locked_increments_read_only_after_the_joins_commute() {
        let (sym, u) = trace(Variant::Counter);
        assert_eq!(u[0], [false; 7]);
        assert_eq!(u[1], [false, false, true, true, false, false]);
        assert_eq!(u[2], [false, false, true, true, false, false]);
        // Their sections hold nothing else: held too; main's read is not.
        let held = crate::relevant::holdable_events(&sym).expect("no memory error");
        assert_eq!(held[1], [false, true, true, true, true, false]);
        assert!(!held[0][5], "main's read after the joins");
        // They are not incidental: main tests what they add up to.
        let inc = crate::relevant::incidental_events(&sym).expect("no memory error");
        assert_eq!(inc[1], [false; 6]);
    }

    #[test]
    fn updates_whose_order_shows_do_not_commute() {
        for v in [Variant::ReadTested, Variant::Unlocked, Variant::TwoMutexes, Variant::Doubled, Variant::ReadEarly] {
            let (_, u) = trace(v);
            assert!(u.iter().flatten().all(|x| !x), "variant {}", v as u8);
        }
    }
}
