//! The differential schedule projection of a failing schedule F against an
//! alternate schedule A over the same events (AAAI-19 §2.3, Symbiosis §3.6):
//! - data-flow edges w → r (r reads the value w wrote; none: the initial
//!   value) that are in one schedule and not the other; a read whose bytes
//!   come from several writes (a bulk copy, or a word read over bytes
//!   written one by one) has one edge per run of bytes from one write;
//! - schedule edges that differ: consecutive events of two threads (a
//!   context switch) in one schedule and not the other — consecutive events
//!   of one thread are program order, the same in both, and carry no
//!   decision of the scheduler;
//! - the events those edges touch (and Symbiosis' inverted pair): the common
//!   prefix, where nothing differs, drops out;
//! - segments that should run atomically: two accesses of one thread to a
//!   location that F interleaves with another thread's conflicting access
//!   and A does not ([`Atomic`]);
//! - the four quality figures of AAAI-19 Table 2.

use causa_symbolic::symbiosis::{bulk_sources_at, data_flows_written, mixed_sources_at};
use causa_symbolic::{EventRef, SymOp, SymTrace};
use std::collections::{BTreeMap, BTreeSet};

/// Where each schedule's run accessed the events whose address the trace
/// leaves to the solver (`align.rs`); the trace's address elsewhere.
#[derive(Clone, Debug, Default)]
pub struct Resolved {
    pub failing: BTreeMap<EventRef, u64>,
    pub alternate: BTreeMap<EventRef, u64>,
    /// The bytes (from, to) each schedule's run of a `strcat` wrote
    /// ([`crate::align::Alignment::appended`]).
    pub failing_appended: BTreeMap<EventRef, (u64, u64)>,
    pub alternate_appended: BTreeMap<EventRef, (u64, u64)>,
}

fn resolve(m: &BTreeMap<EventRef, u64>) -> impl Fn(EventRef, u64) -> u64 + '_ {
    move |r, addr| m.get(&r).copied().unwrap_or(addr)
}

fn appended(m: &BTreeMap<EventRef, (u64, u64)>) -> impl Fn(EventRef) -> Option<(u64, u64)> + '_ {
    move |r| m.get(&r).copied()
}

/// A read's source of data in a schedule: the write it reads (None: the
/// initial value).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Flow {
    pub read: EventRef,
    pub write: Option<EventRef>,
    /// For a bulk read (`memcpy`, `strcmp`): the bytes (address, count)
    /// whose source differs between the schedules, all from `write` here.
    pub bytes: Option<(u64, u32)>,
}

/// AAAI-19's measures of a DSP (Table 2), each smaller is better.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// Events in the projection (of either schedule: the alternate may run
    /// events the failing run never reached).
    pub operations: usize,
    /// Data flows of the alternate schedule that the failing one does not have.
    pub data_flows: usize,
    /// Thread segments of the failing schedule that the alternate interrupts.
    pub broken_segments: usize,
    /// Context switches of the failing schedule that the alternate does not
    /// keep (another event comes between the two, or they swap).
    pub context_switches: usize,
}

/// Events of one thread that should run atomically: the failing schedule
/// puts another thread's access between two of its accesses to the same
/// location, and the alternate does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atomic {
    pub thread: usize,
    /// The thread's events from the first access to the last, in program order.
    pub events: Vec<EventRef>,
    /// The other threads' accesses to the location that the failing
    /// schedule puts between the first and the last of them.
    pub intruders: Vec<EventRef>,
    /// An intruder's run of the statement the region must reach too, which
    /// the thread's own run did not get to: a double free's reset of the
    /// pointer after the free (`buffer = NULL`), else another thread frees
    /// the block again between the region and the reset.
    pub through: Option<EventRef>,
}

/// The differential schedule projection of a failing and an alternate schedule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dsp {
    /// Data flows of the failing schedule the alternate does not have.
    pub failing_only: Vec<Flow>,
    /// Data flows of the alternate schedule the failing one does not have.
    pub alternate_only: Vec<Flow>,
    /// Context switches (consecutive events of two threads) of the failing
    /// schedule that the alternate does not have, and the reverse.
    pub failing_switches: Vec<(EventRef, EventRef)>,
    pub alternate_switches: Vec<(EventRef, EventRef)>,
    /// The projection's events in failing order and in alternate order.
    pub events: Vec<EventRef>,
    pub alternate_events: Vec<EventRef>,
    pub atomic: Vec<Atomic>,
    pub figures: Figures,
}

/// The DSP of `failing` against `alternate` (`pair`: events that must be
/// shown, such as Symbiosis' inverted pair; `freeing`: a use after free's
/// or double free's first `free`). `quiet`: events the failure does not
/// depend on (a statistics counter's updates under its lock) that come
/// after a thread of the alternate leaves the failing run's path: neither
/// the data flows of their reads nor the context switches to and from
/// them are differences the projection shows one by one (they follow from
/// the thread's other path, which is the difference; a flip early in a
/// 1,477-event run left 240 of them in it).
pub fn projection(
    sym: &SymTrace,
    (failing, alternate): (&[EventRef], &[EventRef]),
    resolved: &Resolved,
    (pair, freeing): (&[EventRef], Option<EventRef>),
    quiet: &BTreeSet<EventRef>,
) -> Dsp {
    let (mut failing_only, mut alternate_only) = flows_that_differ(sym, (failing, alternate), resolved);
    failing_only.retain(|f| !quiet.contains(&f.read));
    alternate_only.retain(|f| !quiet.contains(&f.read));
    // (Only the alternate's: a read of the failing run that the alternate
    // leaves out was not followed there, and its thread may go elsewhere.)
    let ran_f: BTreeSet<EventRef> = failing.iter().copied().collect();
    alternate_only.retain(|f| !crate::constant_reads::is_constant(sym, resolved, (f, &resolved.alternate), &ran_f));
    let (fs, as_) = (switches(failing), switches(alternate));
    let loud = |(x, y): &&(EventRef, EventRef)| !quiet.contains(x) && !quiet.contains(y);
    let failing_switches: Vec<_> = fs.difference(&as_).filter(loud).copied().collect();
    let alternate_switches: Vec<_> = as_.difference(&fs).copied().collect();
    let mut shown: BTreeSet<EventRef> = pair.iter().copied().collect();
    for fl in failing_only.iter().chain(&alternate_only) {
        shown.insert(fl.read);
        shown.extend(fl.write);
    }
    for (x, y) in failing_switches.iter().chain(&alternate_switches) {
        shown.insert(*x);
        shown.insert(*y);
    }
    let base: Vec<EventRef> = failing.iter().copied().filter(|e| shown.contains(e)).collect();
    let mut atomic = atomic(sym, (failing, alternate), &resolved.failing, &base);
    atomic.extend(freed_region(sym, (failing, alternate), &resolved.failing, freeing));
    // The atomic regions' ends belong to the explanation.
    for a in &atomic {
        shown.extend(a.events.first());
        shown.extend(a.events.last());
    }
    let events: Vec<EventRef> = failing.iter().copied().filter(|e| shown.contains(e)).collect();
    let alternate_events: Vec<EventRef> = alternate.iter().copied().filter(|e| shown.contains(e)).collect();
    // (The schedules' segments and switches without the quiet events.)
    let without_quiet = |o: &[EventRef]| o.iter().copied().filter(|r| !quiet.contains(r)).collect::<Vec<_>>();
    let (loud_f, loud_a) = (without_quiet(failing), without_quiet(alternate));
    let figures = Figures {
        operations: events.iter().chain(&alternate_events).collect::<BTreeSet<_>>().len(),
        data_flows: alternate_only.len(),
        broken_segments: broken_segments(&loud_f, &loud_a),
        context_switches: varied_switches(&loud_f, &loud_a),
    };
    Dsp {
        failing_only,
        alternate_only,
        failing_switches,
        alternate_switches,
        events,
        alternate_events,
        atomic,
        figures,
    }
}

/// A byte's source in the failing and in the alternate schedule (the
/// outer None: that schedule does not run the read; the inner: the
/// initial value).
type Sources = (Option<Option<EventRef>>, Option<Option<EventRef>>);

/// The data flows of one schedule that the other does not have. A bulk
/// read in both is compared byte by byte: each run of bytes whose sources
/// differ is one variation (`memcpy` of a struct whose two fields come from
/// other writes in the alternate: two).
fn flows_that_differ(
    sym: &SymTrace,
    (failing, alternate): (&[EventRef], &[EventRef]),
    resolved: &Resolved,
) -> (Vec<Flow>, Vec<Flow>) {
    // Plain reads whose bytes come from several writes in either schedule
    // (a union's word over its bytes written one by one) are compared byte
    // by byte, as bulk reads are.
    let mixed_f = mixed_sources_at(sym, failing, resolve(&resolved.failing), appended(&resolved.failing_appended));
    let mixed_a =
        mixed_sources_at(sym, alternate, resolve(&resolved.alternate), appended(&resolved.alternate_appended));
    let mixed = |r: &EventRef| mixed_f.contains_key(r) || mixed_a.contains_key(r);
    let bulk = |r: &EventRef| matches!(sym.threads[r.0].events[r.1].op, SymOp::Bulk { .. }) || mixed(r);
    let plain = |order: &[EventRef], at: &BTreeMap<EventRef, u64>, wrote| -> BTreeSet<Flow> {
        let flows = data_flows_written(sym, order, resolve(at), appended(wrote)).into_iter().filter(|(r, _)| !bulk(r));
        flows.map(|(read, write)| Flow { read, write, bytes: None }).collect()
    };
    let f = plain(failing, &resolved.failing, &resolved.failing_appended);
    let a = plain(alternate, &resolved.alternate, &resolved.alternate_appended);
    let mut failing_only: Vec<Flow> = f.difference(&a).cloned().collect();
    let mut alternate_only: Vec<Flow> = a.difference(&f).cloned().collect();
    let by_byte = |order: &[EventRef], at: &BTreeMap<EventRef, u64>, wrote, mine: &BTreeMap<EventRef, Vec<_>>| {
        let mut m = bulk_sources_at(sym, order, resolve(at), appended(wrote));
        m.extend(mine.iter().map(|(r, b)| (*r, b.clone())));
        // (A read mixed in the other schedule only: its one source here.)
        if mixed_f.is_empty() && mixed_a.is_empty() {
            return m;
        }
        for (r, w) in data_flows_written(sym, order, resolve(at), appended(wrote)) {
            let (SymOp::Read { addr, size, .. } | SymOp::Rmw { addr, size, .. }) = sym.threads[r.0].events[r.1].op
            else {
                continue;
            };
            if mixed(&r) && !mine.contains_key(&r) {
                let a = resolve(at)(r, addr);
                m.insert(r, (0..size as u64).map(|i| (a + i, w)).collect());
            }
        }
        m
    };
    let fb = by_byte(failing, &resolved.failing, &resolved.failing_appended, &mixed_f);
    let ab = by_byte(alternate, &resolved.alternate, &resolved.alternate_appended, &mixed_a);
    let no_bytes = Vec::new();
    // A bulk call's read of bytes it then writes itself (`strcat` finding
    // the end of its string) in a call only the alternate runs: part of
    // that write, not a data flow of its own.
    let rewritten = |r: &EventRef, b: u64| match &sym.threads[r.0].events[r.1].op {
        SymOp::Bulk { writes, .. } => writes.iter().any(|p| (p.addr..p.addr + p.size as u64).contains(&b)),
        _ => false,
    };
    for r in fb.keys().chain(ab.keys()).collect::<BTreeSet<_>>() {
        let (x, y) = (fb.get(r), ab.get(r));
        let y = match (x, y) {
            (None, Some(y)) => {
                let own: Vec<_> = y.iter().filter(|(b, _)| !rewritten(r, *b)).copied().collect();
                if own.is_empty() {
                    continue;
                }
                Some(own)
            }
            _ => y.cloned(),
        };
        let y = y.as_ref();
        // A string read through a computed pointer that points elsewhere in
        // the alternate: its bytes compared offset by offset (the pointer's
        // own read is the data flow that differs).
        let shift = match (&sym.threads[r.0].events[r.1].op, x, y) {
            (SymOp::Bulk { at: Some(_), .. }, Some(_), Some(_)) => {
                let base = |m: &BTreeMap<EventRef, u64>| m.get(r).copied().unwrap_or(0);
                base(&resolved.alternate).wrapping_sub(base(&resolved.failing))
            }
            _ => 0,
        };
        // Bytes of a read one schedule does not run count against nothing.
        let pairs = x.unwrap_or(&no_bytes).iter().map(|(b, w)| (*b, Some(*w)));
        let mut bytes: BTreeMap<u64, Sources> = pairs.map(|(b, w)| (b, (w, None))).collect();
        for (b, w) in y.unwrap_or(&no_bytes) {
            bytes.entry(b.wrapping_sub(shift)).or_default().1 = Some(*w);
        }
        // Runs of consecutive bytes with the same pair of differing sources.
        let mut runs: Vec<(u64, u32, Sources)> = Vec::new();
        for (b, srcs) in bytes.into_iter().filter(|(_, (p, q))| p != q) {
            match runs.last_mut() {
                Some((start, n, s)) if *s == srcs && *start + *n as u64 == b => *n += 1,
                _ => runs.push((b, 1, srcs)),
            }
        }
        for (start, n, (p, q)) in runs {
            let flow = |start, write| Flow { read: *r, write, bytes: Some((start, n)) };
            failing_only.extend(p.map(|w| flow(start, w)));
            alternate_only.extend(q.map(|w| flow(start.wrapping_add(shift), w)));
        }
    }
    failing_only.sort();
    alternate_only.sort();
    (failing_only, alternate_only)
}

/// A try that failed (`tried`, in `failing`) and what made it fail: a lock
/// try's, the other thread's lock of the mutex it found held and that
/// thread's unlock of it after the try; a semaphore try's, the first post
/// of the semaphore after it.
pub fn try_and_holder(sym: &SymTrace, failing: &[EventRef], tried: EventRef) -> Vec<EventRef> {
    let op = |r: &EventRef| &sym.threads[r.0].events[r.1].op;
    let Some(at) = failing.iter().position(|r| *r == tried) else { return vec![tried] };
    let mutex = match op(&tried) {
        SymOp::TrylockFail { mutex } => mutex,
        SymOp::SemFail { sem } => {
            let post = failing[at..].iter().find(|r| matches!(op(r), SymOp::SemPost { sem: s } if s == sem));
            return std::iter::once(tried).chain(post.copied()).collect();
        }
        _ => return Vec::new(),
    };
    let mut held: Option<EventRef> = None;
    for r in &failing[..at] {
        match op(r) {
            SymOp::Lock { mutex: m, .. } if m == mutex && r.0 != tried.0 => held = Some(*r),
            SymOp::Unlock { mutex: m } if m == mutex && held.is_some_and(|h| h.0 == r.0) => held = None,
            _ => {}
        }
    }
    let mut out = vec![tried];
    if let Some(h) = held {
        out.push(h);
        let unlock =
            failing[at..].iter().find(|r| r.0 == h.0 && matches!(op(r), SymOp::Unlock { mutex: m } if m == mutex));
        out.extend(unlock);
    }
    out
}

/// Consecutive events of two threads.
fn switches(order: &[EventRef]) -> BTreeSet<(EventRef, EventRef)> {
    causa_symbolic::figures::switch_pairs(order, |r| r.0)
}

/// Segments of `failing` (two events or more) that `alternate` interrupts
/// with another thread's event.
fn broken_segments(failing: &[EventRef], alternate: &[EventRef]) -> usize {
    causa_symbolic::figures::broken_segments(failing, alternate, |r| r.0)
}

/// Context switches of `failing` whose two events are not consecutive in
/// `alternate`.
fn varied_switches(failing: &[EventRef], alternate: &[EventRef]) -> usize {
    causa_symbolic::figures::varied_switches(failing, alternate, |r| r.0)
}

/// The shared location an event reads or writes (in the failing run), and
/// whether it writes.
fn access(sym: &SymTrace, at: &BTreeMap<EventRef, u64>, r: EventRef) -> Option<(u64, bool)> {
    let (addr, writes) = match sym.threads[r.0].events[r.1].op {
        SymOp::Read { addr, .. } => (addr, false),
        SymOp::Write { addr, .. } | SymOp::Rmw { addr, .. } => (addr, true),
        SymOp::Bulk { addr, ref writes, .. } => (addr, !writes.is_empty()),
        _ => return None,
    };
    Some((resolve(at)(r, addr), writes))
}

/// Atomicity violations the alternate repairs: a projected access x of one
/// thread that the failing schedule puts between two accesses a1, a2 of
/// another thread T to the same location (at least one of the three a
/// write), and that the alternate puts outside them. T's events from a1 to
/// a2 should run atomically; the intruders are the other threads' accesses
/// to that location between a1 and a2 in the failing schedule.
fn atomic(
    sym: &SymTrace,
    (failing, alternate): (&[EventRef], &[EventRef]),
    at: &BTreeMap<EventRef, u64>,
    shown: &[EventRef],
) -> Vec<Atomic> {
    let positions = causa_symbolic::figures::positions;
    let (fat, aat) = (positions(failing), positions(alternate));
    let mut out: Vec<Atomic> = Vec::new();
    for &x in shown {
        let (Some((loc, xw)), Some(&px)) = (access(sym, at, x), fat.get(&x)) else { continue };
        let mut threads: Vec<usize> = failing.iter().map(|r| r.0).filter(|t| *t != x.0).collect();
        threads.sort();
        threads.dedup();
        for t in threads {
            let on_loc = |r: &&EventRef| r.0 == t && access(sym, at, **r).is_some_and(|(l, _)| l == loc);
            let (Some(&a1), Some(&a2)) =
                (failing[..px].iter().rev().find(on_loc), failing[px + 1..].iter().find(on_loc))
            else {
                continue;
            };
            let writes = |r: EventRef| access(sym, at, r).is_some_and(|(_, w)| w);
            // A thread that only reads the location, between a read and a
            // write of it or a write and a read (a reporter's read of
            // `total` inside a worker's `total++`), sees what it would see
            // before or after the two: that interleaving is serializable
            // (Lu et al.'s AVIO), and running the two atomically changes
            // nothing. Not so when it writes the location later (its own
            // update spans the region's write), or runs the region's own
            // read (two pops of one head, the second cut short by the
            // failure before its write), or reads between two writes (a
            // value half made).
            if !(xw || writes(a1) || writes(a2)) {
                continue;
            }
            let on_x_loc = |r: &&EventRef| r.0 == x.0 && access(sym, at, **r).is_some_and(|(l, _)| l == loc);
            let loc_of = |r: EventRef| sym.threads[r.0].events[r.1].loc;
            let reader_only =
                loc_of(x) != loc_of(a1) && !failing[fat[&a1] + 1..].iter().filter(on_x_loc).any(|r| writes(*r));
            if reader_only && !(writes(a1) && writes(a2)) {
                continue;
            }
            // (An intruder the alternate does not run is not between them.)
            let inside = match (aat.get(&a1), aat.get(&x), aat.get(&a2)) {
                (Some(p1), Some(p), Some(p2)) => p1 < p && p < p2,
                (Some(_), None, Some(_)) => false,
                _ => true,
            };
            if inside || out.iter().any(|a| a.thread == t && a.events.contains(&a1) && a.events.contains(&a2)) {
                continue;
            }
            let (p1, p2) = (fat[&a1], fat[&a2]);
            let events: Vec<EventRef> = failing[p1..=p2].iter().copied().filter(|r| r.0 == t).collect();
            // A thread that waits for another between the two (a condition
            // wait re-checked in its loop) cannot run them atomically.
            if events.iter().any(|r| waits_for_another(&sym.threads[r.0].events[r.1].op)) {
                continue;
            }
            let intruders: Vec<EventRef> = failing[p1..=p2]
                .iter()
                .copied()
                .filter(|r| r.0 != t && access(sym, at, *r).is_some_and(|(l, _)| l == loc))
                .collect();
            out.push(Atomic { thread: t, events, intruders, through: None });
        }
    }
    out
}

/// A use after free or double free that another thread's `free` of the
/// block (`freeing`) caused by coming between two steps of the failing
/// thread, where the alternate does not put it: the thread's last access to
/// the block before the free (a reference count's decrement; not one of
/// the faulting statement), else its read of the pointer (`p = shared`, or
/// the check `if (shared != NULL)`,
/// from the first of such reads in a row), to its faulting access should
/// run atomically. The intruders are the free and its thread's accesses to
/// the block and writes of the pointer in between; such a write after the
/// free (the reset to NULL), in the failing schedule or after the failure,
/// is where the region must end ([`Atomic::through`]).
fn freed_region(
    sym: &SymTrace,
    (failing, alternate): (&[EventRef], &[EventRef]),
    at: &BTreeMap<EventRef, u64>,
    freeing: Option<EventRef>,
) -> Option<Atomic> {
    let x = freeing?;
    let op = |r: EventRef| &sym.threads[r.0].events[r.1].op;
    let SymOp::Free { object, .. } = *op(x) else { return None };
    let block = causa_ir::addr_alloc(resolve(at)(x, object));
    let fault = failing.iter().rev().copied().find(|r| matches!(op(*r), SymOp::Fail { .. }))?;
    let t = fault.0;
    let positions = causa_symbolic::figures::positions;
    let (fat, aat) = (positions(failing), positions(alternate));
    let (px, pf) = (*fat.get(&x)?, *fat.get(&fault)?);
    // A thread that frees what a thread it created still uses (without
    // joining it) ends the block's life too early: no region of the user
    // repairs that (the summary says so: `order_sentence`).
    let (creator, user) = (sym.threads[x.0].thread.parts(), sym.threads[t].thread.parts());
    if x.0 == t || px > pf || user.starts_with(creator) {
        return None;
    }
    let on_block = |r: EventRef| access(sym, at, r).is_some_and(|(l, _)| causa_ir::addr_alloc(l) == block);
    let read_of = |r: EventRef| matches!(op(r), SymOp::Read { .. }).then(|| access(sym, at, r)).flatten();
    let before = || failing[..px].iter().rev().copied().filter(|r| r.0 == t);
    // (An access of the faulting statement itself, the read of
    // `s->active++` before the free came between it and its write, is no
    // such step: the pointer read is.)
    let of_fault = |r: EventRef| sym.threads[r.0].events[r.1].loc == sym.threads[t].events[fault.1].loc;
    let (first, pointer) = match before().find(|r| on_block(*r)).filter(|r| !of_fault(*r)) {
        Some(r) => (r, None),
        None => {
            let last = before().find(|r| !of_fault(*r) && read_of(*r).is_some())?;
            let loc = read_of(last)?.0;
            let mut first = last;
            while first.1 > 0 && read_of((t, first.1 - 1)).is_some_and(|(l, _)| l == loc) {
                first = (t, first.1 - 1);
            }
            (first, Some(loc))
        }
    };
    let p1 = *fat.get(&first)?;
    // The alternate puts the free between them too: not what it repairs.
    if let (Some(a1), Some(ax), Some(af)) = (aat.get(&first), aat.get(&x), aat.get(&fault)) {
        if a1 < ax && ax < af {
            return None;
        }
    }
    let events: Vec<EventRef> = failing[p1..=pf].iter().copied().filter(|r| r.0 == t).collect();
    if events.iter().any(|r| waits_for_another(op(*r))) {
        return None;
    }
    let resets = |r: EventRef| pointer.is_some_and(|p| access(sym, at, r) == Some((p, true)));
    let intruders: Vec<EventRef> =
        failing[p1..=pf].iter().copied().filter(|r| *r == x || (r.0 == x.0 && (on_block(*r) || resets(*r)))).collect();
    // (The freeing thread's reset, in the failing schedule or after it.)
    let through = (x.1 + 1..sym.threads[x.0].events.len()).map(|k| (x.0, k)).find(|r| resets(*r));
    Some(Atomic { thread: t, events, intruders, through })
}

/// An operation at which a thread waits for another thread to act.
fn waits_for_another(op: &SymOp) -> bool {
    matches!(
        op,
        SymOp::Wait { .. }
            | SymOp::WaitReturn { .. }
            | SymOp::Join { .. }
            | SymOp::SemWait { .. }
            | SymOp::Arrive { .. }
            | SymOp::Depart { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    // The bank lost update: t1 = thread 1, t2 = thread 2; r/w = read/write.
    const T1R: EventRef = (1, 1);
    const T1W: EventRef = (1, 2);
    const T2R: EventRef = (2, 1);
    const T2W: EventRef = (2, 2);

    #[test]
    fn figures_of_a_lost_update() {
        let failing = [T1R, T2R, T2W, T1W];
        let alternate = [T1R, T1W, T2R, T2W];
        // F's segments: [T1R] [T2R T2W] [T1W]: none of two events broken.
        assert_eq!(broken_segments(&failing, &alternate), 0);
        // F's switches T1R→T2R, T2W→T1W: neither consecutive in A.
        assert_eq!(varied_switches(&failing, &alternate), 2);
        // The reverse: F's segment T2R T2W is broken when t1's write comes between.
        assert_eq!(broken_segments(&[T1R, T2R, T2W, T1W], &[T2R, T1R, T1W, T2W]), 1);
    }
}
