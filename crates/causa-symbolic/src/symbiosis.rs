//! Symbiosis' alternate schedule (TOSEM'16 §3.5; notes `symbiosis.md`
//! §5): for each pair of events of the root cause from different threads,
//! nearest first, the failing schedule σ with that pair inverted (the later
//! event, with the events of its thread between the two, moved just before
//! the earlier one) is tried under Φ_common ∧ ¬Φ_bug; the first satisfiable
//! one gives the alternate schedule (the solution's order: σ inverted, and
//! events σ left out that it runs before the failing thread's point), which has the same paths and does not
//! fail. One inverted pair cannot fix a failure that needs two data flows
//! changed at once (AAAI-19 Fig. 1): then there is none.
//!
//! Beyond the paper's operator, as its implementation does or its 1-recall
//! argument needs (each found missing on a small program):
//! - each pair is also tried with the two events' critical sections moved
//!   whole (the later one's before the earlier one's): an event alone
//!   cannot move into a section whose lock the other thread holds (a
//!   reader's second critical section before a writer's);
//! - the core orders consecutive events of σ, so its cross-thread pair may
//!   be a barrier arrival and the next read; the two threads' accesses to
//!   one location around that pair are tried as well;
//! - a deadlock's core may name only the blocked request: the locks its
//!   threads still hold, and a never-woken wait's section and the signals
//!   on its condition, join the root cause's events;
//! - a pair whose alternate the replay rejects (it fails later, past the
//!   model's part) gives way to the next pair whose alternate passes; the
//!   first satisfiable one is the answer when none does.

use crate::alternate::{chain, EventRef, Found, Problem, Root};
use crate::clap::ClapError;
use crate::trace::{SymOp, SymTrace};
use causa_constraints::formula::Ev;
use causa_constraints::{Encoder, Formula, OrderSolver, SolveResult, Z3Solver};

/// Try the root cause's pairs, nearest first: pairs of σ's events (σ with
/// the pair inverted), then pairs of a σ event and an event σ leaves out
/// (σ's order kept, the left-out event before the σ event); at most
/// `max_pairs`, each query within `conflicts` (None: no budget, and a
/// query the solver gives up on is an error), and only those whose order
/// of σ's events (with a late pair's left-out event just before its σ
/// event) is `worth` asking about.
pub(crate) fn invert_pairs(
    solver: &mut Z3Solver,
    p: &Problem<'_>,
    enc: &Encoder<'_>,
    root: &Root,
    (max_pairs, conflicts): (usize, Option<u32>),
    passes: &mut dyn FnMut(&[Ev]) -> bool,
    worth: &mut dyn FnMut(&[Ev]) -> bool,
) -> Result<Found, ClapError> {
    let sigma = &p.sigma;
    let thread = |e: Ev| p.model.trace.events[e].thread;
    let units = sections(p);
    // A deadlock's core may name only the blocked request and the releases
    // that never came (left-out events): the events its alternate moves
    // join it ([`deadlock_events`]).
    let mut events = root.sigma.clone();
    if p.model.failure.1 == causa_core::BugKind::Deadlock {
        events.extend(deadlock_events(p, &units));
        events.sort_unstable();
        events.dedup();
    }
    // (j, k): positions in σ; k ≥ |σ| names root.late[k - |σ|].
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (x, &j) in events.iter().enumerate() {
        for &k in &events[x + 1..] {
            if thread(sigma[j]) != thread(sigma[k]) {
                pairs.push((j, k));
            }
        }
    }
    // An order between two threads' events that the core names may stand
    // for the order of two accesses around them: thread(j)'s access at or
    // before j and thread(k)'s at or after k, to one location, one a
    // write (the core's link from a barrier arrival to the next read
    // orders the write before the arrival and that read's successor).
    let behind: Vec<(usize, usize)> = pairs.iter().filter_map(|&(j, k)| conflicting(p, j, k)).collect();
    pairs.extend(behind);
    pairs.sort_unstable();
    pairs.dedup();
    // A left-out event of the core goes before some event of σ (the core
    // names no event of σ when only the left-out event's absence matters).
    for (i, &e) in root.late.iter().enumerate() {
        for (j, &s) in sigma.iter().enumerate() {
            if thread(s) != thread(e) {
                pairs.push((j, sigma.len() + i));
            }
        }
    }
    pairs.sort_by_key(|&(j, k)| (k - j, std::cmp::Reverse(k)));
    let mut found = Found::none();
    // The first satisfiable pair whose replay failed anyway (later, past the
    // model's part): the answer when no later pair's replay passes.
    let mut first: Option<Inverted> = None;
    'pairs: for &(j, k) in pairs.iter().take(max_pairs) {
        found.pairs_tried += 1;
        // Each order to try (the constraints, and the events in that
        // order), with the pair it inverts.
        let asked = |o: Vec<Ev>| (chain(&o), o);
        let orders = if k < sigma.len() {
            let mut orders = vec![(asked(invert(sigma, j, k, thread)), (sigma[j], sigma[k]))];
            // The pair's critical sections moved whole, as Symbiosis'
            // implementation does (notes `symbiosis.md` §5.2): the event
            // alone cannot move into or out of a section another thread
            // holds the lock of.
            let whole = (units[j].0, units[k].1);
            if whole != (j, k) {
                let order = invert_whole(sigma, whole, thread(sigma[k]), thread);
                orders.push((asked(order), (sigma[whole.0], sigma[k])));
            }
            orders
        } else {
            let e = root.late[k - sigma.len()];
            let mut c = chain(sigma);
            c.push(Formula::Before(e, sigma[j]));
            let mut o = sigma.clone();
            o.insert(j, e);
            vec![((c, o), (sigma[j], e))]
        };
        for ((order, events), pair) in orders {
            if !worth(&events) {
                continue;
            }
            let q = Formula::and(vec![p.goal.clone(), Formula::and(order)]);
            solver.set_conflict_budget(conflicts);
            let answer = solver.solve(&q, &enc.defs);
            solver.set_conflict_budget(None);
            match answer {
                SolveResult::Sat(pos) => {
                    let order = p.order(&pos);
                    if passes(&order) {
                        first = Some((order, pair, pos));
                        break 'pairs;
                    }
                    first.get_or_insert((order, pair, pos));
                }
                SolveResult::Unsat => {}
                // (A pair whose budget ran out is not one.)
                SolveResult::Unknown if solver.past_deadline() => break 'pairs,
                SolveResult::Unknown if conflicts.is_some() => {}
                SolveResult::Unknown => return Err(ClapError::SolverUnknown),
            }
        }
    }
    if let Some((order, pair, pos)) = first {
        found.order = Some(order);
        found.inverted = Some(pair);
        found.positions = Some(pos);
    }
    Ok(found)
}

/// An inverted pair's alternate: its order, the pair, and the solution's
/// positions.
type Inverted = (Vec<Ev>, (Ev, Ev), Vec<i64>);

/// Progressive mode's window optimum `found` (Algorithm 1 keeps the order
/// outside its window), or the alternate of one of the root cause's
/// inverted pairs when that one changes fewer data flows, broken segments
/// and switches (`key`, in that order) and `passes` on replay: a single
/// inversion before the window can change one data flow where the
/// window's best changes two (bank_long). Asked of the weak solver, at most
/// [`PAIRS`] pairs of [`PAIR_CONFLICTS`] conflicts each; progressive mode
/// compares only when its window's optimum was proven (when it was not, the
/// pairs' queries are as costly and found nothing: racey, 24 pairs, 0.9 s).
/// `asked_before`: the same search ([`progressive_pairs`]) made before the
/// windows (`maxsmt::Known`), kept when its alternate passed on replay or
/// it found none.
pub(crate) fn more_similar_pair(
    weak: &mut Z3Solver,
    (p, enc, root): (&Problem<'_>, &Encoder<'_>, &Root),
    opts: &crate::alternate::AlternateOptions,
    passes: &mut dyn FnMut(&[Ev]) -> bool,
    (key, new_flows): (&Similarity<'_>, Option<&NewFlows<'_>>),
    (found, asked_before): (Found, Option<Found>),
) -> Result<Found, ClapError> {
    let Some(order) = found.order.as_ref() else { return Ok(found) };
    let started = std::time::Instant::now();
    let target = key(order);
    let asked = std::cell::Cell::new(0usize);
    // (One asked before is kept only when it passed or none was found.)
    let (pairs, passed) = match asked_before {
        Some(f) => {
            let passed = f.order.is_some();
            (f, passed)
        }
        None => progressive_pairs(weak, (p, enc, root), opts, passes, new_flows, &asked)?,
    };
    let better = passed && pairs.order.as_ref().is_some_and(|a| key(a) < target);
    tracing::debug!(
        tried = pairs.pairs_tried,
        asked = asked.get(),
        better,
        ms = started.elapsed().as_secs_f64() * 1e3,
        "progressive: one inverted pair of the root cause"
    );
    Ok(match better {
        // (The window and its proof stay: the header says what the pair
        // was compared with.)
        true => Found { order: pairs.order, inverted: pairs.inverted, pairs_tried: pairs.pairs_tried, ..found },
        false => found,
    })
}

/// The root cause's pairs as progressive mode asks them (before its
/// windows, `maxsmt::Known`, and to compare with its window's optimum):
/// at most [`PAIRS`] pairs asked about, of [`PAIR_CONFLICTS`] conflicts
/// each, the first whose alternate `passes`; of [`PAIRS_REPLAYED_FIRST`]
/// tried when each is replayed first (bench/programs/work_queue.c at 40
/// tasks: the pair that matched Symbiosis' DSP of 10 events was the 91st,
/// and the window's optimum had 14). Where the same data flows give the
/// same failure (`new_flows`, which counts an order's new ones), an
/// inversion that changes no data flow of σ's events by itself is not
/// asked about: racey's 7 nearest pairs were each a query of about 55 ms,
/// the first 6 of them unsatisfiable inversions of two events that share
/// no data flow. `asked` counts the orders asked about. Also whether the
/// alternate found passed on replay (the search stops at the first that
/// passes, so the last replay says: it is not replayed again).
pub(crate) fn progressive_pairs(
    solver: &mut Z3Solver,
    root: (&Problem<'_>, &Encoder<'_>, &Root),
    opts: &crate::alternate::AlternateOptions,
    passes: &mut dyn FnMut(&[Ev]) -> bool,
    new_flows: Option<&NewFlows<'_>>,
    asked: &std::cell::Cell<usize>,
) -> Result<(Found, bool), ClapError> {
    let (p, enc, root) = root;
    // When σ has every event of the model, the solution of an inverted
    // order is that order (the chain orders every event), so an order whose
    // replay does not pass is not asked about: its solution would not pass
    // either. Otherwise the solution may run events σ left out (a wait σ
    // never reached, if_instead_of_while.c), and the order is asked as it
    // is. (list_walk at 90 nodes: 10 of its 11 pairs' queries, 0.34 s
    // each, spared by a replay of about 1 ms.)
    let replay_first = p.has_every_event();
    let passes = std::cell::RefCell::new(passes);
    let mut worth = |o: &[Ev]| {
        let worth = asked.get() < PAIRS
            && new_flows.is_none_or(|flows| flows(o) > 0)
            && (!replay_first || (*passes.borrow_mut())(o));
        asked.set(asked.get() + usize::from(worth));
        worth
    };
    let mut last = false;
    let mut recorded = |o: &[Ev]| {
        last = (*passes.borrow_mut())(o);
        last
    };
    let pairs = if replay_first { PAIRS_REPLAYED_FIRST } else { PAIRS };
    let budget = (opts.max_pairs.min(pairs), Some(PAIR_CONFLICTS));
    let found = invert_pairs(solver, p, enc, root, budget, &mut recorded, &mut worth)?;
    let passed = found.order.is_some() && last;
    Ok((found, passed))
}

/// An alternate's departure from σ: (data flows, broken segments,
/// context-switch variations, events the differences touch), smaller is
/// more similar.
pub(crate) type Similarity<'a> = dyn Fn(&[Ev]) -> (usize, usize, usize, usize) + 'a;

/// The data flows an order has that σ does not.
pub(crate) type NewFlows<'a> = dyn Fn(&[Ev]) -> usize + 'a;

/// How many of the root cause's pairs progressive mode inverts to compare
/// with its window's alternate.
const PAIRS: usize = 24;
/// How many when each pair's order is replayed before it is asked about
/// (σ has every event of the model): those that fail on replay cost a
/// replay, not a query, and at most [`PAIRS`] are asked about.
const PAIRS_REPLAYED_FIRST: usize = 128;
/// Each such pair's conflict budget.
const PAIR_CONFLICTS: u32 = 50;

/// For each position of σ, the outermost critical section of its thread
/// it lies in: the positions of the acquisition that opens it and of the
/// release that closes it (σ's last position when σ ends inside it); the
/// position itself twice outside any. A condition wait releases the lock
/// and its return takes it again: two sections.
fn sections(p: &Problem<'_>) -> Vec<(usize, usize)> {
    use causa_constraints::Op;
    let n = p.sigma.len();
    let mut start_of: Vec<Option<usize>> = vec![None; n];
    let mut end_of: causa_core::collections::HashMap<usize, usize> = Default::default();
    // Per thread: how many locks it holds, and where its section opened.
    let mut open: causa_core::collections::HashMap<_, (u32, usize)> = Default::default();
    for (i, &e) in p.sigma.iter().enumerate() {
        let ev = &p.model.trace.events[e];
        let (depth, start) = open.entry(ev.thread).or_insert((0, i));
        let closes = matches!(ev.op, Op::Unlock { .. } | Op::Wait { .. }) && *depth > 0;
        if matches!(ev.op, Op::Lock { .. } | Op::WaitReturn { .. }) {
            if *depth == 0 {
                *start = i;
            }
            *depth += 1;
        }
        if *depth > 0 {
            start_of[i] = Some(*start);
        }
        if closes {
            *depth -= 1;
            if *depth == 0 {
                end_of.insert(*start, i);
            }
        }
    }
    (0..n).map(|i| start_of[i].map_or((i, i), |s| (s, end_of.get(&s).copied().unwrap_or(n - 1)))).collect()
}

/// The nearest accesses to one location, one of them a write, of σ[j]'s
/// thread at or before j and σ[k]'s at or after k (None: none, or j and k
/// are those).
fn conflicting(p: &Problem<'_>, j: usize, k: usize) -> Option<(usize, usize)> {
    let sigma = &p.sigma;
    let ev = |i: usize| &p.model.trace.events[sigma[i]];
    let access = |i: usize| crate::refine::access(p.model, sigma[i]);
    let (tj, tk) = (ev(j).thread, ev(k).thread);
    let mut best: Option<(usize, usize)> = None;
    for x in (0..=j).rev().filter(|&x| ev(x).thread == tj) {
        let Some((lx, wx)) = access(x) else { continue };
        let y = (k..sigma.len())
            .filter(|&y| ev(y).thread == tk)
            .find(|&y| access(y).is_some_and(|(ly, wy)| ly == lx && (wx || wy)));
        if let Some(y) = y {
            if best.is_none_or(|(bx, by)| y - x < by - bx) {
                best = Some((x, y));
            }
        }
    }
    best.filter(|&b| b != (j, k))
}

/// The σ positions a deadlock's alternate may have to reorder beyond its
/// core: the acquisitions of the sections still held at σ's end (a lock
/// order), and for a wait never woken, the acquisition of its section
/// and the signals and broadcasts on its condition σ has (a lost wake-up:
/// the waiter's section moved before the signaller's).
fn deadlock_events(p: &Problem<'_>, units: &[(usize, usize)]) -> Vec<usize> {
    use causa_constraints::Op;
    let sigma = &p.sigma;
    let op = |i: usize| &p.model.trace.events[sigma[i]].op;
    let thread = |i: usize| p.model.trace.events[sigma[i]].thread;
    let last = sigma.len().saturating_sub(1);
    let mut out: Vec<usize> =
        (0..sigma.len()).filter(|&i| units[i] == (i, last) && matches!(op(i), Op::Lock { .. })).collect();
    for (i, unit) in units.iter().enumerate() {
        let Op::Wait { cond, .. } = *op(i) else { continue };
        let woken = (i + 1..sigma.len()).any(|x| thread(x) == thread(i) && matches!(op(x), Op::WaitReturn { .. }));
        if woken {
            continue;
        }
        out.push(unit.0);
        out.extend(
            (0..sigma.len())
                .filter(|&x| matches!(*op(x), Op::Signal { cond: c, .. } | Op::Broadcast { cond: c, .. } if c == cond)),
        );
    }
    out
}

/// σ with the events of thread `t` in the positions `lo..=hi` moved, in
/// their order, before the other threads' events there: the later event's
/// critical section moved whole before the earlier event's.
pub fn invert_whole<T: Copy>(sigma: &[T], (lo, hi): (usize, usize), t: u32, thread: impl Fn(T) -> u32) -> Vec<T> {
    let span = &sigma[lo..=hi];
    let mut out = sigma[..lo].to_vec();
    out.extend(span.iter().copied().filter(|e| thread(*e) == t));
    out.extend(span.iter().copied().filter(|e| thread(*e) != t));
    out.extend_from_slice(&sigma[hi + 1..]);
    out
}

/// σ = α e_j β e_k γ → α β_t e_k e_j (β ∖ β_t) γ, where β_t are the events of
/// e_k's thread in β (they move with it, keeping program order).
pub fn invert<T: Copy>(sigma: &[T], j: usize, k: usize, thread: impl Fn(T) -> u32) -> Vec<T> {
    let t = thread(sigma[k]);
    let beta = &sigma[j + 1..k];
    let mut out = sigma[..j].to_vec();
    out.extend(beta.iter().copied().filter(|e| thread(*e) == t));
    out.push(sigma[k]);
    out.push(sigma[j]);
    out.extend(beta.iter().copied().filter(|e| thread(*e) != t));
    out.extend_from_slice(&sigma[k + 1..]);
    out
}

/// The data flows of a schedule of `sym`'s events: for each read (and
/// read-modify-write, and bulk access that reads) in `order`, the write it
/// reads from: the last earlier write in `order` of any of its bytes (None:
/// the initial value). A bulk read that sees several writes is attributed
/// to the latest, so that its flow changes when any part of what it reads
/// comes from a newer write.
pub fn data_flows(sym: &SymTrace, order: &[EventRef]) -> Vec<(EventRef, Option<EventRef>)> {
    data_flows_at(sym, order, |_, addr| addr)
}

/// [`data_flows`] with each access at `at(event, its address in the trace)`:
/// a run's own address for an access whose address the trace leaves to the
/// solver (0 there).
pub fn data_flows_at(
    sym: &SymTrace,
    order: &[EventRef],
    at: impl Fn(EventRef, u64) -> u64,
) -> Vec<(EventRef, Option<EventRef>)> {
    data_flows_written(sym, order, at, |_| None)
}

/// [`data_flows_at`] where a bulk write wrote only the bytes `wrote`
/// gives (from, to) when it gives some: what a run's `strcat` appended,
/// where the model writes every byte of the object (most of them with
/// the value they had).
pub fn data_flows_written(
    sym: &SymTrace,
    order: &[EventRef],
    at: impl Fn(EventRef, u64) -> u64,
    wrote: impl Fn(EventRef) -> Option<(u64, u64)>,
) -> Vec<(EventRef, Option<EventRef>)> {
    let latest = |bytes: Vec<(u64, Option<(usize, EventRef)>)>| bytes.into_iter().filter_map(|(_, w)| w).max();
    sources(sym, order, at, wrote).into_iter().map(|(r, bytes)| (r, latest(bytes).map(|(_, w)| w))).collect()
}

/// The source of each byte that each bulk access in `order` reads, in the
/// order of its pieces: the last earlier write in `order` of that byte
/// (None: the initial value). Two schedules differ there when any byte
/// comes from another write, even when the latest is the same (under PSO
/// a copy of two fields flushed in either order).
/// `wrote`: as [`data_flows_written`]'s.
pub fn bulk_sources_at(
    sym: &SymTrace,
    order: &[EventRef],
    at: impl Fn(EventRef, u64) -> u64,
    wrote: impl Fn(EventRef) -> Option<(u64, u64)>,
) -> std::collections::BTreeMap<EventRef, Vec<(u64, Option<EventRef>)>> {
    let is_bulk = |r: &EventRef| matches!(sym.threads[r.0].events[r.1].op, SymOp::Bulk { .. });
    sources(sym, order, at, wrote)
        .into_iter()
        .filter(|(r, _)| is_bulk(r))
        .map(|(r, bytes)| (r, bytes.into_iter().map(|(b, w)| (b, w.map(|(_, w)| w))).collect()))
        .collect()
}

/// The source of each byte that each plain read at a fixed address in
/// `order` whose bytes come from more than one write (or from one and the
/// initial value) reads: a word of a union read over its bytes written one
/// by one. Otherwise as [`bulk_sources_at`].
pub fn mixed_sources_at(
    sym: &SymTrace,
    order: &[EventRef],
    at: impl Fn(EventRef, u64) -> u64,
    wrote: impl Fn(EventRef) -> Option<(u64, u64)>,
) -> std::collections::BTreeMap<EventRef, Vec<(u64, Option<EventRef>)>> {
    // (At a fixed address: a struct copied through a computed one may read
    // another slot in each schedule, compared as one flow.)
    let plain = |r: &EventRef| {
        matches!(sym.threads[r.0].events[r.1].op, SymOp::Read { at: None, .. } | SymOp::Rmw { at: None, .. })
    };
    sources(sym, order, at, wrote)
        .into_iter()
        .filter(|(r, bytes)| plain(r) && bytes.iter().any(|(_, w)| w.map(|x| x.1) != bytes[0].1.map(|x| x.1)))
        .map(|(r, bytes)| (r, bytes.into_iter().map(|(b, w)| (b, w.map(|(_, w)| w))).collect()))
        .collect()
}

/// Each read of `order` (and read-modify-write, and bulk access that
/// reads) with the source of each byte it reads: the latest earlier write
/// of it (with that write's place in `order`), None for the initial value.
#[allow(clippy::type_complexity)]
fn sources(
    sym: &SymTrace,
    order: &[EventRef],
    at: impl Fn(EventRef, u64) -> u64,
    wrote: impl Fn(EventRef) -> Option<(u64, u64)>,
) -> Vec<(EventRef, Vec<(u64, Option<(usize, EventRef)>)>)> {
    // The latest write of each byte, with its place in `order`.
    let mut last: causa_core::collections::HashMap<u64, (usize, EventRef)> =
        causa_core::collections::HashMap::default();
    let mut flows = Vec::new();
    // Each event's place in `order`, for store-to-load forwarding (TSO/PSO
    // only: under SC no store is buffered).
    let place: causa_core::collections::HashMap<EventRef, usize> = match sym.memory_model.buffers_stores() {
        true => order.iter().enumerate().map(|(i, r)| (*r, i)).collect(),
        false => Default::default(),
    };
    for (i, &r) in order.iter().enumerate() {
        // Under TSO/PSO a plain read returns its thread's own newest store
        // to the location that is not visible yet (store-to-load
        // forwarding): a buffered store is placed where it becomes visible.
        let whole = |addr: u64, size: u32| vec![(at(r, addr), size)];
        let (reads, writes) = match &sym.threads[r.0].events[r.1].op {
            SymOp::Read { addr, size, .. } => (whole(*addr, *size), Vec::new()),
            SymOp::Rmw { addr, size, .. } => (whole(*addr, *size), whole(*addr, *size)),
            SymOp::Write { addr, size, .. } => (Vec::new(), whole(*addr, *size)),
            // A thread's id stored where the program keeps it, a joined
            // thread's result where the program asked for it.
            SymOp::Fork { handle: Some((addr, _)), .. } | SymOp::Join { result: Some((addr, _)), .. } => {
                (Vec::new(), whole(*addr, 8))
            }
            // Through a computed pointer: each piece at its offset from
            // where the pointer pointed.
            SymOp::Bulk { reads, writes, at: Some(_), .. } => {
                let base = at(r, 0);
                let pieces = |v: &[crate::trace::Piece]| v.iter().map(|p| (base + p.addr, p.size)).collect::<Vec<_>>();
                (pieces(reads), pieces(writes))
            }
            SymOp::Bulk { reads, writes, .. } => {
                let pieces = |v: &[crate::trace::Piece]| v.iter().map(|p| (p.addr, p.size)).collect::<Vec<_>>();
                (pieces(reads), pieces(writes))
            }
            _ => continue,
        };
        let bytes = || reads.iter().flat_map(|(a, s)| *a..a + *s as u64);
        // (A forwarded store, not visible yet, has no place before the
        // read: it is given the read's.)
        if let Some(w) = forwarded(sym, r, i, &place, &at) {
            flows.push((r, bytes().map(|b| (b, Some((i, w)))).collect()));
            continue;
        }
        if !reads.is_empty() {
            flows.push((r, bytes().map(|b| (b, last.get(&b).copied())).collect()));
        }
        let within = wrote(r);
        for (a, s) in writes {
            for b in (a..a + s as u64).filter(|b| within.is_none_or(|(lo, hi)| (lo..hi).contains(b))) {
                last.insert(b, (i, r));
            }
        }
    }
    flows
}

/// The store read `r` (at place `i` of the order) forwards from: its
/// thread's newest buffered store to the same bytes before it in program
/// order, when that store is not visible yet (placed after `r`, or not at
/// all).
fn forwarded(
    sym: &SymTrace,
    r: EventRef,
    i: usize,
    place: &causa_core::collections::HashMap<EventRef, usize>,
    at: &impl Fn(EventRef, u64) -> u64,
) -> Option<EventRef> {
    if !sym.memory_model.buffers_stores() {
        return None;
    }
    let events = &sym.threads[r.0].events;
    let SymOp::Read { addr, size, .. } = events[r.1].op else { return None };
    let (a, n) = (at(r, addr), size as u64);
    (0..r.1).rev().find_map(|k| match events[k].op {
        SymOp::Write { addr: wa, size: ws, .. } if crate::model::buffered(&events[k]) => {
            let b = at((r.0, k), wa);
            let same = b < a + n && a < b + ws as u64;
            let hidden = place.get(&(r.0, k)).is_none_or(|p| *p > i);
            (same && hidden).then_some((r.0, k))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::{invert, invert_whole};

    #[test]
    fn a_section_moved_whole_takes_its_threads_events_in_the_span_before_the_others() {
        // σ = a:lock a:x b:lock b:y b:unlock a:unlock; the sections of a
        // (0..=5) and b (2..=4) spanned: b's section whole before a's.
        let sigma = [(0, 'L'), (0, 'x'), (1, 'L'), (1, 'y'), (1, 'U'), (0, 'U')];
        let out = invert_whole(&sigma, (0, 4), 1, |e: (u32, char)| e.0);
        assert_eq!(out, vec![(1, 'L'), (1, 'y'), (1, 'U'), (0, 'L'), (0, 'x'), (0, 'U')]);
        // With the span of the pair alone it is `invert`.
        assert_eq!(invert_whole(&sigma, (1, 3), 1, |e: (u32, char)| e.0), invert(&sigma, 1, 3, |e: (u32, char)| e.0));
    }

    #[test]
    fn inverting_a_pair_moves_the_later_event_and_its_threads_events_between() {
        // (thread, label): σ = a0 b0 a1 c0 b1 → invert(a0, b1): b0 b1 a0 a1 c0.
        let sigma = [(0, 'a'), (1, 'b'), (0, 'c'), (2, 'd'), (1, 'e')];
        let out = invert(&sigma, 0, 4, |e: (u32, char)| e.0);
        assert_eq!(out, vec![(1, 'b'), (1, 'e'), (0, 'a'), (0, 'c'), (2, 'd')]);
        // Adjacent events simply swap.
        assert_eq!(invert(&sigma, 1, 2, |e: (u32, char)| e.0), vec![(0, 'a'), (0, 'c'), (1, 'b'), (2, 'd'), (1, 'e')]);
    }
}
