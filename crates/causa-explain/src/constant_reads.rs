//! Reads that see the same bytes in every schedule: a read only the
//! alternate runs (its thread got further than the failing run reached),
//! of memory no event of the trace writes. Its data
//! flow is the initial value's whichever order runs, so it is no variation
//! of the projection: a thread that parses a constant string (`"8080:4"`)
//! after the failing run stopped showed one "data-flow variation" per byte
//! it read.

use crate::dsp::{Flow, Resolved};
use causa_symbolic::{EventRef, SymOp, SymTrace};
use std::collections::{BTreeMap, BTreeSet};

/// Whether `f`, a flow of the schedule whose run `at` resolved, is of a
/// read the other schedule (`other`: its events) does not run, from the
/// initial value of bytes nothing writes.
pub(crate) fn is_constant(
    sym: &SymTrace,
    resolved: &Resolved,
    (f, at): (&Flow, &BTreeMap<EventRef, u64>),
    other: &BTreeSet<EventRef>,
) -> bool {
    if f.write.is_some() || other.contains(&f.read) {
        return false;
    }
    let bytes = match (&sym.threads[f.read.0].events[f.read.1].op, f.bytes) {
        (_, Some((lo, n))) => Some((lo, n as u64)),
        (SymOp::Read { addr, size, at: None, .. }, None) => Some((*addr, *size as u64)),
        (SymOp::Read { size, .. }, None) => at.get(&f.read).map(|a| (*a, *size as u64)),
        _ => None,
    };
    bytes.is_some_and(|(lo, n)| never_written(sym, resolved, (lo, n)))
}

/// Whether no event of `sym` may write any of the `n` bytes at `lo`. A
/// write through a computed address is at the addresses the runs resolved
/// it to; one that neither resolved, or a bulk write through one, may write
/// anywhere.
fn never_written(sym: &SymTrace, resolved: &Resolved, (lo, n): (u64, u64)) -> bool {
    let hits = |a: u64, m: u64| a < lo.saturating_add(n) && lo < a.saturating_add(m);
    for (t, th) in sym.threads.iter().enumerate() {
        for (k, e) in th.events.iter().enumerate() {
            let r = (t, k);
            let appended = [&resolved.failing_appended, &resolved.alternate_appended];
            if appended.iter().any(|m| m.get(&r).is_some_and(|&(from, to)| hits(from, to.saturating_sub(from)))) {
                return false;
            }
            let writes = match &e.op {
                SymOp::Write { addr, size, at: None, .. } | SymOp::Rmw { addr, size, at: None, .. } => {
                    vec![(*addr, *size as u64)]
                }
                SymOp::Write { size, .. } | SymOp::Rmw { size, .. } => {
                    let seen: Vec<(u64, u64)> = [&resolved.failing, &resolved.alternate]
                        .iter()
                        .filter_map(|m| m.get(&r))
                        .map(|a| (*a, *size as u64))
                        .collect();
                    if seen.is_empty() {
                        return false;
                    }
                    seen
                }
                SymOp::Bulk { writes, at: None, .. } => writes.iter().map(|p| (p.addr, p.size as u64)).collect(),
                SymOp::Bulk { writes, .. } if !writes.is_empty() => return false,
                _ => continue,
            };
            if writes.iter().any(|&(a, m)| hits(a, m)) {
                return false;
            }
        }
    }
    true
}
