//! The symbolic trace as a trace of the constraint core: one event per shared
//! access point, in some interleaving that keeps program order, fork → begin
//! and end → join (the encodings only use those orders, never the
//! interleaving's), with symbolic read values ([`Trace::symbolic`]).

use crate::trace::{SymEvent, SymOp, SymTrace};
use causa_constraints::formula::Ev;
use causa_constraints::trace::Relaxed;
use causa_constraints::{Op, Trace, TraceEvent};
use causa_core::collections::HashMap;
use causa_core::BugKind;

/// The trace and how its events map back to the symbolic trace.
pub struct Model {
    pub trace: Trace,
    /// For each trace event: (thread index, event index in that thread).
    pub origin: Vec<(usize, usize)>,
    /// For each thread, the trace event of each of its events (None: the
    /// failure itself, which is not an access point when it happens in the
    /// thread's own computation).
    pub event_of: Vec<Vec<Option<Ev>>>,
    /// The failing thread's last access point before (or at) the failure: the
    /// schedule ends with it.
    pub last: Ev,
    /// The failure, as symbolic execution met it: thread index and kind.
    pub failure: (usize, BugKind),
    /// For a bulk operation at a known address (`memcpy`, `memcmp`,
    /// `strlen`...), which the trace gives as one access at its address:
    /// the other locations of plain accesses it reads and writes
    /// ([`bulk_cells`]).
    pub cells: HashMap<Ev, (Vec<u64>, Vec<u64>)>,
}

impl Model {
    /// The first access point of thread `t` at or after its event `k`.
    pub fn point_from(&self, t: usize, k: usize) -> Option<Ev> {
        self.event_of[t].get(k..)?.iter().find_map(|e| *e)
    }

    /// The last access point of thread `t` among its first `k` events (the
    /// one after which the thread runs its code at event position `k`).
    pub fn point_before(&self, t: usize, k: usize) -> Option<Ev> {
        self.event_of[t][..k.min(self.event_of[t].len())].iter().rev().find_map(|e| *e)
    }
}

/// Failures that happen in a thread's own computation (not at a shared access
/// point): the interpreter reports them during the step of the thread's
/// previous access point.
pub fn fails_locally(kind: BugKind) -> bool {
    matches!(kind, BugKind::AssertionViolation | BugKind::Abort | BugKind::DivisionByZero)
}

/// Whether thread `t`'s failure marker at `k` is an invalid pthread use
/// whose order decides it, at the event before it, which is the failing
/// step itself: a destroy of a lock another thread holds, or an
/// acquisition of a lock another thread destroyed.
pub fn fails_at_step(sym: &SymTrace, t: usize, k: usize) -> bool {
    let events = &sym.threads[t].events;
    let SymOp::Fail { kind: BugKind::InvalidPthreadUse, message } = &events[k].op else { return false };
    k > 0
        && match events[k - 1].op {
            SymOp::Destroy { .. } => true,
            SymOp::Lock { .. } => causa_core::finding::misuse::is_use_after_destroy(message),
            _ => false,
        }
}

/// The failures the solver reproduces: those of the thread's own
/// computation, memory errors ([`crate::fault`]), deadlocks and invalid
/// pthread use (releasing or waiting without holding the mutex).
pub fn solver_models(kind: BugKind) -> bool {
    fails_locally(kind) || matches!(kind, BugKind::MemoryError | BugKind::Deadlock | BugKind::InvalidPthreadUse)
}

/// Build the model's trace. None when no thread fails (the log's failure was
/// not met by symbolic execution).
pub fn build(sym: &SymTrace) -> Option<Model> {
    let order = interleave(sym);
    let failure = sym.threads.iter().enumerate().find_map(|(t, th)| match th.events.last().map(|e| &e.op) {
        Some(SymOp::Fail { kind, .. }) => Some((t, *kind)),
        _ => None,
    })?;
    let tid_of: HashMap<&causa_core::ThreadName, u32> =
        sym.threads.iter().enumerate().map(|(i, t)| (&t.thread, i as u32)).collect();
    let mut events = Vec::with_capacity(order.len());
    let mut origin = Vec::with_capacity(order.len());
    let mut event_of: Vec<Vec<Option<Ev>>> = sym.threads.iter().map(|t| vec![None; t.events.len()]).collect();
    let mut signals: HashMap<u64, u128> = HashMap::default();
    let mut atomic = Vec::with_capacity(order.len());
    // Uninterruptible sections, numbered across threads.
    let mut sections = Vec::with_capacity(order.len());
    let mut section_ids: HashMap<(usize, u32), u32> = HashMap::default();
    for (t, k) in order {
        let e = &sym.threads[t].events[k];
        let child = |c: &causa_core::ThreadName| tid_of.get(c).copied().unwrap_or(u32::MAX);
        let mut next_signal = |cond: u64| {
            let n = signals.entry(cond).or_insert(0);
            *n += 1;
            *n - 1
        };
        let op = match &e.op {
            SymOp::Begin => Op::Begin,
            SymOp::End => Op::End,
            SymOp::Read { addr, .. } => Op::Read { loc: *addr, value: 0 },
            SymOp::Write { addr, .. } => Op::Write { loc: *addr, value: 0 },
            SymOp::Lock { mutex, shared } => Op::Lock { mutex: *mutex, shared: *shared, order: None, tried: false },
            SymOp::Unlock { mutex } => Op::Unlock { mutex: *mutex },
            SymOp::TrylockFail { mutex } => Op::TrylockFail { mutex: *mutex },
            SymOp::Wait { cond, mutex } => Op::Wait { cond: *cond, mutex: *mutex, wakes: 0 },
            SymOp::WaitReturn { cond, mutex, timed, woken } => {
                Op::WaitReturn { cond: *cond, mutex: *mutex, signalled: *woken, order: None, timed: *timed }
            }
            SymOp::Signal { cond } => Op::Signal { cond: *cond, index: next_signal(*cond) },
            SymOp::Broadcast { cond } => Op::Broadcast { cond: *cond, index: next_signal(*cond) },
            SymOp::SemWait { sem, tried } => Op::SemWait { sem: *sem, tried: *tried },
            SymOp::SemFail { sem } => Op::SemFail { sem: *sem },
            SymOp::SemPost { sem } => Op::SemPost { sem: *sem },
            SymOp::Fork { child: c, .. } => Op::Fork { child: child(c) },
            SymOp::Join { child: c, .. } => Op::Join { child: child(c) },
            SymOp::Fail { kind, .. } if fails_locally(*kind) || fails_at_step(sym, t, k) => continue,
            SymOp::Free { object, .. } => Op::Free { object: *object },
            SymOp::Destroy { mutex } => Op::Destroy { mutex: *mutex },
            SymOp::Rmw { addr, .. } => Op::Rmw { loc: *addr, old: 0, new: 0 },
            // One instant: a copy between shared objects reads and writes.
            SymOp::Bulk { addr, reads, writes, .. } => match (reads.is_empty(), writes.is_empty()) {
                (false, false) => Op::Rmw { loc: *addr, old: 0, new: 0 },
                (_, false) => Op::Write { loc: *addr, value: 0 },
                _ => Op::Read { loc: *addr, value: 0 },
            },
            SymOp::Arrive { barrier, gen, .. } => {
                let count = sym.barrier_count_of(*barrier).unwrap_or(0);
                Op::Arrive { barrier: *barrier, gen: *gen, count, last: false }
            }
            SymOp::Depart { barrier, gen } => Op::Depart { barrier: *barrier, gen: *gen },
            SymOp::OnceCall { once, found } => Op::OnceCall { once: *once, found: *found },
            SymOp::OnceResume { once } => Op::OnceResume { once: *once },
            SymOp::OnceDone { once } => Op::OnceDone { once: *once },
            SymOp::Spin { addr, .. } => Op::Spin { loc: *addr, since: spin_since(sym, &event_of, t, k, *addr) },
            SymOp::Fail { .. }
            | SymOp::AtomicBegin
            | SymOp::AtomicEnd
            | SymOp::Fence
            | SymOp::Yield
            | SymOp::Relock { .. }
            | SymOp::Reunlock { .. } => Op::Local,
        };
        let is_atomic =
            matches!(e.op, SymOp::Read { atomic: true, .. } | SymOp::Write { atomic: true, .. } | SymOp::Rmw { .. });
        event_of[t][k] = Some(events.len());
        origin.push((t, k));
        atomic.push(is_atomic);
        sections.push(if e.section == 0 {
            0
        } else {
            let next = section_ids.len() as u32 + 1;
            *section_ids.entry((t, e.section)).or_insert(next)
        });
        events.push(TraceEvent { thread: t as u32, op });
    }
    let mut trace = Trace::new(events, HashMap::default());
    trace.symbolic = true;
    trace.atomic = atomic;
    trace.sections = sections;
    trace.yields = origin.iter().map(|(t, k)| sym.threads[*t].events[*k].op == SymOp::Yield).collect();
    trace.sem_initial = sym.sem_initial.iter().copied().collect();
    trace.guards = guards(&trace);
    spin_footprints(&mut trace);
    if sym.memory_model.buffers_stores() {
        let po = origin.iter().map(|(_, k)| *k as u32).collect();
        let buffered = origin.iter().map(|(t, k)| buffered(&sym.threads[*t].events[*k])).collect();
        trace.relaxed = Some(Relaxed { model: sym.memory_model, po, buffered });
    }
    // The failing thread's last access point at or before its failure (under
    // TSO/PSO its trailing buffered stores may still be in its buffer then).
    let last = event_of[failure.0]
        .iter()
        .zip(&sym.threads[failure.0].events)
        .rev()
        .find_map(|(e, s)| e.filter(|_| !(sym.memory_model.buffers_stores() && buffered(s))))?;
    let cells = bulk_cells(sym, &origin);
    Some(Model { trace, origin, event_of, last, failure, cells })
}

/// The locations (addresses of plain reads and writes) each bulk operation
/// at a known address reads and writes besides its own address: those of
/// the plain accesses whose bytes its pieces overlap. The Max SMT data
/// flows (`maxsmt.rs`) count a flow of each, as the DSP counts a data flow
/// per byte range a bulk read sees from another write (`memcmp` of a
/// two-field struct: its read of the second field).
fn bulk_cells(sym: &SymTrace, origin: &[(usize, usize)]) -> HashMap<Ev, (Vec<u64>, Vec<u64>)> {
    let plain: std::collections::BTreeSet<(u64, u32)> = sym
        .threads
        .iter()
        .flat_map(|t| &t.events)
        .filter_map(|e| match e.op {
            SymOp::Read { addr, size, .. } | SymOp::Write { addr, size, .. } | SymOp::Rmw { addr, size, .. }
                if addr != 0 =>
            {
                Some((addr, size))
            }
            _ => None,
        })
        .collect();
    let within = |own: u64, pieces: &[crate::trace::Piece]| -> Vec<u64> {
        let overlaps = |(a, n): (u64, u32)| pieces.iter().any(|p| a < p.addr + p.size as u64 && p.addr < a + n as u64);
        let mut v: Vec<u64> = plain.iter().copied().filter(|l| l.0 != own && overlaps(*l)).map(|l| l.0).collect();
        v.dedup();
        v
    };
    let mut cells = HashMap::default();
    for (e, &(t, k)) in origin.iter().enumerate() {
        if let SymOp::Bulk { addr, reads, writes, at: None, .. } = &sym.threads[t].events[k].op {
            let (r, w) = (within(*addr, reads), within(*addr, writes));
            if !r.is_empty() || !w.is_empty() {
                cells.insert(e, (r, w));
            }
        }
    }
    cells
}

/// The event a parked busy wait's loop starts at (its thread's `k`-th
/// event is the [`SymOp::Spin`] before a read of `addr`): the thread's last
/// earlier look at `addr` ([`SymOp::looked_at`]), else its first event.
fn spin_since(sym: &SymTrace, event_of: &[Vec<Option<Ev>>], t: usize, k: usize, addr: u64) -> Ev {
    let events = &sym.threads[t].events[..k];
    let last = events.iter().rposition(|e| e.op.looked_at().is_some_and(|(a, _)| a == addr));
    last.and_then(|j| event_of[t][j]).or_else(|| event_of[t].iter().find_map(|e| *e)).unwrap_or(0)
}

/// What each parked busy wait observes: the locations its thread read
/// (and the locks its failed trylocks found held) from the loop's start to
/// the parked step (see [`Op::Spin`]).
fn spin_footprints(trace: &mut Trace) {
    for p in 0..trace.len() {
        let Op::Spin { since, .. } = trace.events[p].op else { continue };
        let t = trace.events[p].thread;
        let mut observed: Vec<(u64, u64)> = (since..p)
            .filter(|e| trace.events[*e].thread == t)
            .filter(|e| trace.events[*e].op.reads().is_some() || matches!(trace.events[*e].op, Op::TrylockFail { .. }))
            .flat_map(|e| trace.footprints[e].clone())
            .collect();
        observed.extend(trace.footprints[p].iter().copied());
        trace.footprints[p] = observed;
    }
}

/// The heap block each event touches, for the blocks the trace frees (at a
/// known address): the core orders such events before the frees of other
/// threads ([`Trace::guards`]), as the interpreter fails at a use after free.
fn guards(trace: &Trace) -> Vec<u64> {
    let blocks: causa_core::collections::HashSet<u32> = trace
        .events
        .iter()
        .filter_map(|e| match e.op {
            Op::Free { object } if object != 0 => Some(causa_ir::addr_alloc(object)),
            _ => None,
        })
        .collect();
    let touched = |op: &Op| match *op {
        Op::Read { loc, .. } | Op::Write { loc, .. } | Op::Rmw { loc, .. } => Some(loc),
        Op::Free { object } => Some(object),
        Op::Lock { mutex, .. } | Op::Unlock { mutex } | Op::Wait { mutex, .. } | Op::WaitReturn { mutex, .. } => {
            Some(mutex)
        }
        Op::Signal { cond, .. } | Op::Broadcast { cond, .. } => Some(cond),
        Op::SemWait { sem, .. } | Op::SemPost { sem } => Some(sem),
        _ => None,
    };
    trace
        .events
        .iter()
        .map(|e| match touched(&e.op).filter(|a| *a != 0 && blocks.contains(&causa_ir::addr_alloc(*a))) {
            Some(a) => causa_ir::make_addr(causa_ir::addr_alloc(a), 0),
            None => 0,
        })
        .collect()
}

/// Whether the interpreter sends this store through the thread's store buffer
/// (under TSO/PSO): a plain store outside an uninterruptible section.
pub fn buffered(e: &SymEvent) -> bool {
    matches!(e.op, SymOp::Write { atomic: false, .. }) && e.section == 0
}

/// An interleaving of the threads' events that keeps program order, fork →
/// begin and end → join: round-robin, each thread as far as it can go. A join
/// of a thread that never ends (it was stopped by the failure) goes last.
fn interleave(sym: &SymTrace) -> Vec<(usize, usize)> {
    let n = sym.threads.len();
    let index: HashMap<&causa_core::ThreadName, usize> =
        sym.threads.iter().enumerate().map(|(i, t)| (&t.thread, i)).collect();
    let mut next = vec![0usize; n];
    let mut forked = vec![false; n];
    let mut ended = vec![false; n];
    if n > 0 {
        forked[0] = true;
    }
    let total: usize = sym.threads.iter().map(|t| t.events.len()).sum();
    let mut out = Vec::with_capacity(total);
    let mut force_join = false;
    while out.len() < total {
        let mut progress = false;
        for t in 0..n {
            while let Some(e) = sym.threads[t].events.get(next[t]) {
                let ready = match &e.op {
                    SymOp::Begin => forked[t],
                    SymOp::Join { child, .. } => force_join || index.get(child).is_none_or(|c| ended[*c]),
                    _ => true,
                };
                if !ready {
                    break;
                }
                match &e.op {
                    SymOp::Fork { child, .. } => {
                        if let Some(c) = index.get(child) {
                            forked[*c] = true;
                        }
                    }
                    SymOp::End => ended[t] = true,
                    _ => {}
                }
                force_join = false;
                out.push((t, next[t]));
                next[t] += 1;
                progress = true;
            }
        }
        if !progress {
            if force_join {
                // A thread begins without a fork in the log: keep what we have.
                break;
            }
            force_join = true;
        }
    }
    out
}
