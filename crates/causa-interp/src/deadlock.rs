//! Explaining a deadlock: what each blocked thread waits for, who holds it, and
//! the wait-for cycle when there is one.

use crate::machine::Machine;
use crate::thread::Pending;
use causa_core::finding::FindingNote;
use causa_core::{Event, EventKind, Tid};

/// One note per blocked thread, plus the wait-for edges (waiter, holder).
pub fn describe(m: &Machine, blocked: &[Tid]) -> (Vec<FindingNote>, Vec<(Tid, Tid)>) {
    let mut notes = Vec::new();
    let mut edges = Vec::new();
    for &t in blocked {
        let th = &m.threads[t as usize];
        let (what, holder) = match &th.pending {
            Pending::Instr if !m.spin_enabled(t) => (causa_core::finding::spin::NOTE.to_string(), None),
            Pending::Instr => crate::shims::pending_wait(m, t),
            Pending::CondWait { cond, signalled: false, timed: true, since, .. }
                if !m.timeout_enabled(t) && !crate::shims::pthread::cond::token_for(m, *cond, *since) =>
            {
                let what = format!(
                    "keeps timing out on condition variable {} in a loop that no other thread can end (it waits for a change that never comes)",
                    m.describe(*cond)
                );
                (what, None)
            }
            Pending::CondWait { cond, signalled: false, since, .. }
                if !crate::shims::pthread::cond::token_for(m, *cond, *since) =>
            {
                (format!("waits on condition variable {}, and no thread is left to signal it", m.describe(*cond)), None)
            }
            Pending::CondWait { mutex, .. } => {
                let owner = m.sync.mutexes.get(mutex).and_then(|x| x.owner);
                (format!("was signalled but waits to re-acquire mutex {}", m.describe(*mutex)), owner)
            }
            Pending::Barrier { barrier, .. } => {
                let b = m.sync.barriers.get(barrier);
                let (arr, cnt) = b.map(|b| (b.arrived, b.count)).unwrap_or((0, 0));
                (format!("waits at barrier {} ({arr} of {cnt} threads arrived)", m.describe(*barrier)), None)
            }
            Pending::Once { once } => (format!("waits for pthread_once {} to finish", m.describe(*once)), None),
            other => (format!("is stuck ({other:?})"), None),
        };
        let message = what;
        if let Some(h) = holder {
            edges.push((t, h));
        }
        notes.push(FindingNote { thread: Some(m.names[t as usize].clone()), message, location: m.loc_of(th.loc) });
    }
    (notes, edges)
}

/// The event the blocked thread `t`'s next operation would record, as far as
/// the constraint model needs it (the object it waits for).
pub fn blocked_event(m: &Machine, t: Tid) -> Option<Event> {
    let th = &m.threads[t as usize];
    let (kind, addr, value, value2) = match &th.pending {
        Pending::Instr => {
            let (kind, args) = crate::shims::pending_op(m, t)?;
            let first = crate::shims::arg(&args, 0);
            match kind {
                EventKind::Join => (kind, crate::shims::pthread::thread::target(m, first)? as u64, 0, 0),
                // A semaphore wait that finds no unit (value 0) and waits.
                EventKind::Lock | EventKind::ReadLock | EventKind::WriteLock | EventKind::SemWait => {
                    (kind, first as u64, 0, 0)
                }
                _ => return None,
            }
        }
        // Blocked in a wait: it can return only once woken.
        Pending::CondWait { cond, mutex, .. } => (EventKind::WaitReturn, *cond, 1, *mutex as u128),
        Pending::Barrier { barrier, gen } => (EventKind::BarrierWait, *barrier, *gen as u128, 0),
        Pending::Once { once } => (EventKind::Once, *once, causa_core::once_step::RESUMED, 0),
        _ => return None,
    };
    Some(Event {
        thread: t,
        kind,
        loc: th.loc,
        addr,
        size: 0,
        value,
        value2,
        print: 0,
        atomic: false,
        section: 0,
        po: th.ops,
    })
}

/// A cycle in the wait-for graph, starting from its smallest thread.
pub fn find_cycle(edges: &[(Tid, Tid)]) -> Vec<Tid> {
    let next = |t: Tid| edges.iter().find(|(w, _)| *w == t).map(|(_, h)| *h);
    let mut starts: Vec<Tid> = edges.iter().map(|(w, _)| *w).collect();
    starts.sort_unstable();
    for s in starts {
        let mut path = vec![s];
        let mut cur = s;
        while let Some(n) = next(cur) {
            if n == s {
                return path;
            }
            if path.contains(&n) {
                break;
            }
            path.push(n);
            cur = n;
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::find_cycle;

    #[test]
    fn cycles() {
        assert_eq!(find_cycle(&[(1, 2), (2, 1)]), vec![1, 2]);
        assert_eq!(find_cycle(&[(1, 1)]), vec![1]);
        assert!(find_cycle(&[(1, 2)]).is_empty());
        assert_eq!(find_cycle(&[(0, 3), (3, 2), (2, 3)]), vec![2, 3]);
    }
}
