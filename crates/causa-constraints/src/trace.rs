//! The trace the encodings talk about: one execution's visible events, with the
//! meaning each has for ordering.

use causa_core::{once_step, Event, EventKind, Tid};
use std::collections::HashMap;

/// What an event does, for the constraint model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Begin,
    End,
    Read {
        loc: u64,
        value: u128,
    },
    Write {
        loc: u64,
        value: u128,
    },
    /// Atomic read-modify-write: reads `old` and writes `new` at one instant.
    Rmw {
        loc: u64,
        old: u128,
        new: u128,
    },
    /// An acquisition of `mutex`; `index` counts the acquisitions of the mutex
    /// before it in the trace. The model treats the acquisition as reading the
    /// mutex's acquisition count and writing `index + 1`, so MCR explores the
    /// orders in which threads acquire a lock (that is how lock-order deadlocks
    /// are found). `shared`: a read-lock of a read-write lock (readers do not
    /// exclude each other).
    Lock {
        mutex: u64,
        index: u128,
        shared: bool,
    },
    Unlock {
        mutex: u64,
    },
    /// A trylock that found the mutex held by another thread.
    TrylockFail {
        mutex: u64,
    },
    Fork {
        child: Tid,
    },
    Join {
        child: Tid,
    },
    /// `pthread_cond_wait`: releases `mutex`.
    Wait {
        cond: u64,
        mutex: u64,
    },
    /// Return from a condition wait: re-acquires `mutex` (acquisition `index`).
    WaitReturn {
        cond: u64,
        mutex: u64,
        signalled: bool,
        index: u128,
    },
    Signal {
        cond: u64,
    },
    Broadcast {
        cond: u64,
    },
    /// A successful wait on a semaphore, the `index`-th on it in the trace: it
    /// reads the semaphore's wait count (so wait orders are explored) and takes
    /// one unit, from the initial value or from a post.
    SemWait {
        sem: u64,
        index: u128,
    },
    SemPost {
        sem: u64,
    },
    /// Arrival at a barrier for generation `gen` of a barrier of `count`
    /// threads; `last`: it completed the generation (and returned
    /// `PTHREAD_BARRIER_SERIAL_THREAD`). Which arrival is last is explored like
    /// a read value.
    Arrive {
        barrier: u64,
        gen: u32,
        count: u32,
        last: bool,
    },
    /// Leaving a barrier after waiting: after every arrival of the generation.
    Depart {
        barrier: u64,
        gen: u32,
    },
    /// A `pthread_once` call: reads the once's state at [`once_loc`] (0: not
    /// run, 1: running, 2: done); the first caller (`found == 0`) writes 1 and
    /// runs the routine.
    OnceCall {
        once: u64,
        found: u8,
    },
    /// A caller that found the routine running resumes: reads 2 (it waits for
    /// that, so it is never asked to read anything else).
    OnceResume {
        once: u64,
    },
    /// The routine returned: writes 2.
    OnceDone {
        once: u64,
    },
    /// `free` (or `realloc`) of the heap block at `object`: every access to the
    /// block ([`Trace::guards`]) happens before it, or is a use after free.
    Free {
        object: u64,
    },
    /// An operation the model keeps in its original order relative to the other
    /// operations on the same object (failed try/timed semaphore waits,
    /// barriers whose generations could form differently): sound but not
    /// complete (see [`Trace::approximate`]).
    Ordered {
        object: u64,
    },
    /// No ordering meaning (yield, sleep, exit, atomic-section markers).
    Local,
}

impl Op {
    /// The location and value this event reads (acquisitions read their
    /// mutex's acquisition count, at [`lock_loc`]).
    pub fn reads(&self) -> Option<(u64, u128)> {
        match *self {
            Op::Read { loc, value } => Some((loc, value)),
            Op::Rmw { loc, old, .. } => Some((loc, old)),
            Op::Lock { mutex, index, .. } | Op::WaitReturn { mutex, index, .. } => Some((lock_loc(mutex), index)),
            Op::SemWait { sem, index } => Some((sem_loc(sem), index)),
            Op::OnceCall { once, found } => Some((once_loc(once), found as u128)),
            Op::OnceResume { once } => Some((once_loc(once), 2)),
            _ => None,
        }
    }

    /// The location and value this event writes.
    pub fn writes(&self) -> Option<(u64, u128)> {
        match *self {
            Op::Write { loc, value } => Some((loc, value)),
            Op::Rmw { loc, new, .. } => Some((loc, new)),
            Op::Lock { mutex, index, .. } | Op::WaitReturn { mutex, index, .. } => Some((lock_loc(mutex), index + 1)),
            Op::SemWait { sem, index } => Some((sem_loc(sem), index + 1)),
            Op::OnceCall { once, found: 0 } => Some((once_loc(once), 1)),
            Op::OnceDone { once } => Some((once_loc(once), 2)),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    pub thread: Tid,
    pub op: Op,
}

/// The pseudo-location holding a mutex's acquisition count (distinct from every
/// program address: causa's addresses never have the top bit set).
pub fn lock_loc(mutex: u64) -> u64 {
    mutex | (1 << 63)
}

/// The pseudo-location counting a semaphore's successful waits.
pub fn sem_loc(sem: u64) -> u64 {
    sem | (1 << 62)
}

/// The pseudo-location holding a `pthread_once`'s state.
pub fn once_loc(once: u64) -> u64 {
    once | (1 << 61)
}

/// One execution as seen by the constraint model.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub events: Vec<TraceEvent>,
    /// The first `prefix_len` events keep their order and come first (they are
    /// the schedule prefix this execution was forced to follow).
    pub prefix_len: usize,
    /// Value of each written location before its first write in the trace.
    pub initial: HashMap<u64, u128>,
    /// Some events are modelled only by keeping their original order.
    pub approximate: bool,
    /// For reads: the fingerprint of the reading thread's local state (0 if
    /// unknown). Two reads of a thread with the same fingerprint and no change of
    /// shared state between them make the interpreter park the thread (busy-wait
    /// detection); see [`crate::Encoder::spin_constraints`].
    pub prints: Vec<u64>,
    /// Whether each event changes shared state (ends a busy wait).
    pub changes: Vec<bool>,
    /// Uninterruptible section of each event (0: none).
    pub sections: Vec<u32>,
    /// Whether each access is atomic (races need a non-atomic access).
    pub atomic: Vec<bool>,
    /// Source location id of each event (to report each racing pair once).
    pub srcs: Vec<u32>,
    /// Value of each semaphore before its first operation in the trace.
    pub sem_initial: HashMap<u64, u128>,
    /// For each event that accesses a heap block freed in the trace (and for
    /// the free itself): the block's address; 0 otherwise.
    pub guards: Vec<u64>,
}

impl Trace {
    /// The number of earlier reads of the same thread a read is compared with
    /// (the interpreter's busy-wait window).
    pub const SPIN_WINDOW: usize = 8;
}

impl Trace {
    /// Build from the interpreter's events (`causa_core::Event`).
    pub fn from_events(events: &[Event], prefix_len: usize) -> Trace {
        let mut t = Trace { prefix_len: prefix_len.min(events.len()), ..Trace::default() };
        let mut acquisitions: HashMap<u64, u128> = HashMap::new();
        let mut sem_waits: HashMap<u64, u128> = HashMap::new();
        let mut acquire = |m: u64| {
            let n = acquisitions.entry(m).or_insert(0);
            *n += 1;
            *n - 1
        };
        for e in events {
            let op = match e.kind {
                EventKind::Begin => Op::Begin,
                EventKind::End => Op::End,
                EventKind::Read => Op::Read { loc: e.addr, value: e.value },
                EventKind::Write => {
                    t.initial.entry(e.addr).or_insert(e.value2);
                    Op::Write { loc: e.addr, value: e.value }
                }
                EventKind::Rmw => {
                    t.initial.entry(e.addr).or_insert(e.value);
                    Op::Rmw { loc: e.addr, old: e.value, new: e.value2 }
                }
                EventKind::Lock => Op::Lock { mutex: e.addr, index: acquire(e.addr), shared: false },
                EventKind::WriteLock => Op::Lock { mutex: e.addr, index: acquire(e.addr), shared: false },
                EventKind::ReadLock => Op::Lock { mutex: e.addr, index: acquire(e.addr), shared: true },
                EventKind::RwUnlock => Op::Unlock { mutex: e.addr },
                EventKind::Unlock => Op::Unlock { mutex: e.addr },
                EventKind::TrylockFail => Op::TrylockFail { mutex: e.addr },
                EventKind::Fork => Op::Fork { child: e.addr as Tid },
                EventKind::Join => Op::Join { child: e.addr as Tid },
                EventKind::Wait => {
                    // Whether a timed wait times out is not a choice the model explores.
                    t.approximate |= e.value != 0;
                    Op::Wait { cond: e.addr, mutex: e.value2 as u64 }
                }
                EventKind::WaitReturn => Op::WaitReturn {
                    cond: e.addr,
                    mutex: e.value2 as u64,
                    signalled: e.value != 0,
                    index: acquire(e.value2 as u64),
                },
                EventKind::Signal => Op::Signal { cond: e.addr },
                EventKind::SemWait | EventKind::SemPost => {
                    t.sem_initial.entry(e.addr).or_insert(e.value);
                    if e.value2 != 0 {
                        // A failed try/timed wait: not modelled beyond its order.
                        t.approximate = true;
                        Op::Ordered { object: e.addr }
                    } else if e.kind == EventKind::SemPost {
                        Op::SemPost { sem: e.addr }
                    } else {
                        let n = sem_waits.entry(e.addr).or_insert(0);
                        *n += 1;
                        Op::SemWait { sem: e.addr, index: *n - 1 }
                    }
                }
                EventKind::Broadcast => Op::Broadcast { cond: e.addr },
                EventKind::BarrierWait if e.value2 == 0 => Op::Depart { barrier: e.addr, gen: e.value as u32 },
                EventKind::BarrierWait => Op::Arrive {
                    barrier: e.addr,
                    gen: e.value as u32,
                    count: (e.value2 >> 1) as u32,
                    last: e.value2 & 1 != 0,
                },
                EventKind::Once => {
                    t.initial.insert(once_loc(e.addr), 0);
                    match e.value {
                        once_step::RESUMED => Op::OnceResume { once: e.addr },
                        once_step::MARKED_DONE => Op::OnceDone { once: e.addr },
                        found => Op::OnceCall { once: e.addr, found: found as u8 },
                    }
                }
                EventKind::Free => Op::Free { object: e.addr },
                EventKind::Yield
                | EventKind::Sleep
                | EventKind::AtomicBegin
                | EventKind::AtomicEnd
                | EventKind::Exit
                | EventKind::Fails => Op::Local,
            };
            t.events.push(TraceEvent { thread: e.thread, op });
            t.prints.push(if e.kind == EventKind::Read { e.value2 as u64 } else { 0 });
            t.changes.push(e.kind.changes_shared_state());
            t.sections.push(e.section);
            t.atomic.push(e.atomic);
            t.srcs.push(e.loc);
        }
        for m in acquisitions.keys() {
            t.initial.insert(lock_loc(*m), 0);
        }
        for s in sem_waits.keys() {
            t.initial.insert(sem_loc(*s), 0);
        }
        t.guards = guards(events);
        check_barriers(&mut t);
        t
    }

    /// A trace from explicit events (tests).
    pub fn new(events: Vec<TraceEvent>, mut initial: HashMap<u64, u128>) -> Trace {
        let n = events.len();
        for e in &events {
            if let Op::Lock { mutex, .. } | Op::WaitReturn { mutex, .. } = e.op {
                initial.insert(lock_loc(mutex), 0);
            }
        }
        let changes = events.iter().map(|e| e.op.reads().is_none() || e.op.writes().is_some()).collect();
        let prints = vec![0; events.len()];
        let sections = vec![0; events.len()];
        let atomic = vec![false; events.len()];
        let srcs = (0..events.len() as u32).collect();
        Trace {
            events,
            prefix_len: 0,
            initial,
            approximate: false,
            prints,
            changes,
            sections,
            atomic,
            srcs,
            sem_initial: HashMap::new(),
            guards: vec![0; n],
        }
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

/// The heap block each access belongs to, for the blocks the trace frees (a
/// free event keeps the block's size in `value`).
fn guards(events: &[Event]) -> Vec<u64> {
    let mut blocks: Vec<(u64, u64)> = events
        .iter()
        .filter(|e| e.kind == EventKind::Free && e.addr != 0)
        .map(|e| (e.addr, e.addr + (e.value as u64).max(1)))
        .collect();
    blocks.sort_unstable();
    events
        .iter()
        .map(|e| {
            let accesses = matches!(e.kind, EventKind::Read | EventKind::Write | EventKind::Rmw | EventKind::Free);
            if !accesses || blocks.is_empty() {
                return 0;
            }
            let i = blocks.partition_point(|(start, _)| *start <= e.addr);
            match i.checked_sub(1).map(|i| blocks[i]) {
                Some((start, end)) if e.addr < end => start,
                _ => 0,
            }
        })
        .collect()
}

/// Barrier generations are modelled exactly when they cannot form
/// differently: every generation of a barrier is one arrival of each of the
/// same `count` threads, the k-th arrival of a thread being generation k.
/// Otherwise the barrier's events keep their original order.
fn check_barriers(t: &mut Trace) {
    let mut threads: HashMap<u64, Vec<Tid>> = HashMap::new();
    let mut arrivals: HashMap<(u64, Tid), u32> = HashMap::new();
    let mut bad: Vec<u64> = Vec::new();
    let mut base: HashMap<u64, u32> = HashMap::new();
    for e in &t.events {
        if let Op::Arrive { barrier, gen, count, .. } = e.op {
            let first = *base.entry(barrier).or_insert(gen);
            let k = arrivals.entry((barrier, e.thread)).or_insert(0);
            let ts = threads.entry(barrier).or_default();
            if !ts.contains(&e.thread) {
                ts.push(e.thread);
            }
            if gen != first + *k || ts.len() > count as usize {
                bad.push(barrier);
            }
            *k += 1;
        }
    }
    for e in t.events.iter_mut() {
        if let Op::Arrive { barrier, .. } | Op::Depart { barrier, .. } = e.op {
            if bad.contains(&barrier) {
                e.op = Op::Ordered { object: barrier };
                t.approximate = true;
            }
        }
    }
}
