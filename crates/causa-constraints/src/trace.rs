//! The trace the encodings talk about: one execution's visible events, with the
//! meaning each has for ordering.

use crate::cells::Layout;
use causa_core::collections::HashMap;
use causa_core::{once_step, BulkAccess, Event, EventKind, MemoryModel, Tid};
use std::collections::BTreeSet;

/// Why a trace is modelled only approximately (see [`Trace::approximations`]).
pub mod approx {
    pub const BARRIER: &str = "a barrier used by more threads than its count";
    pub const MIXED: &str = "overlapping memory accesses of different sizes (unions, byte-wise access to wider data)";
}

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
    /// An acquisition of `mutex`. `shared`: a read-lock of a read-write lock
    /// (readers do not exclude each other). `order`: for a mutex whose
    /// acquisition order can matter beyond the data its critical sections
    /// access (see [`ordered_mutexes`]), the acquisition reads the mutex's
    /// acquisition count and increments it, so MCR explores the orders in which
    /// threads acquire it (that is how lock-order deadlocks are found).
    Lock {
        mutex: u64,
        shared: bool,
        order: Option<Counter>,
        /// A successful trylock/timedlock (it found the mutex free; MCR asks
        /// whether it could find it held).
        tried: bool,
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
    /// `pthread_cond_wait`: releases `mutex`. It reads how many signals and
    /// broadcasts on `cond` came before it (`wakes`, at [`cond_loc`]), so MCR
    /// explores waiting after a signal (a lost wake-up) and before it.
    Wait {
        cond: u64,
        mutex: u64,
        wakes: u128,
    },
    /// Return from a condition wait: re-acquires `mutex`. `order`: the mutex's
    /// acquisition count when its order is explored; otherwise, for a signalled
    /// return, the count of earlier signalled returns on `cond` (at
    /// [`take_loc`]), so MCR explores which waiter takes a signal.
    /// `timed`: the return of a `pthread_cond_timedwait`, which times out
    /// (`signalled == false`) when no wake-up is there for it; MCR asks for the
    /// other outcome as for a trylock.
    WaitReturn {
        cond: u64,
        mutex: u64,
        signalled: bool,
        order: Option<Counter>,
        timed: bool,
    },
    /// The `index`-th signal or broadcast on `cond`: writes `index + 1` at
    /// [`cond_loc`].
    Signal {
        cond: u64,
        index: u128,
    },
    Broadcast {
        cond: u64,
        index: u128,
    },
    /// A successful wait on a semaphore: it takes one unit, from the initial
    /// value or from a post. The order of waits is not explored as such (a wait
    /// returns nothing the thread could branch on); the reads after them explore
    /// what the order changes, and the deadlock query
    /// ([`crate::Encoder::deadlock`]) the states where waits are stuck. `tried`: a
    /// successful `sem_trywait`/`sem_timedwait`, whose result MCR asks to flip.
    SemWait {
        sem: u64,
        tried: bool,
    },
    /// A `sem_trywait`/`sem_timedwait` that found no unit and failed: every
    /// unit made before it was taken before it.
    SemFail {
        sem: u64,
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
    /// `pthread_mutex_destroy` (or of a spin or read-write lock) of `mutex`:
    /// invalid while another thread holds it (MCR asks whether it can come
    /// inside another thread's critical section,
    /// [`crate::Encoder::destroy_candidates`]).
    Destroy {
        mutex: u64,
    },
    /// A busy-waiting thread's parked step (symbolic traces: the log's
    /// deadlock found the thread spinning), its next read of `loc`: its
    /// loop re-reads what it read since its event `since` ([`Trace::footprints`]
    /// of this event), and it goes on only after another thread writes some
    /// of that after `since` (see [`crate::Encoder::spin_woken`]).
    Spin {
        loc: u64,
        since: usize,
    },
    /// An operation the model keeps in its original order relative to the other
    /// operations on the same object (failed try/timed semaphore waits,
    /// barriers whose generations could form differently): sound but not
    /// complete (see [`Trace::approximate`]).
    Ordered {
        object: u64,
    },
    /// A bulk memory operation (`memcpy`, `memset`): reads and writes the
    /// locations in [`Trace::bulk`]`[id]` at one instant.
    Bulk {
        id: u32,
    },
    /// No ordering meaning (yield, sleep, exit, atomic-section markers).
    Local,
}

/// The locations a bulk operation reads and writes, with their values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cells {
    pub reads: Vec<(u64, u128)>,
    pub writes: Vec<(u64, u128)>,
}

/// A counter at a pseudo-location that an operation reads (`index`, the number
/// of operations that incremented it before) and increments: how the model
/// makes the order of some synchronisation operations observable to MCR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter {
    pub loc: u64,
    pub index: u128,
}

impl Op {
    /// The location and value this event reads (ordered acquisitions read a
    /// counter, waits read the number of earlier wake-ups).
    pub fn reads(&self) -> Option<(u64, u128)> {
        match *self {
            Op::Read { loc, value } => Some((loc, value)),
            Op::Rmw { loc, old, .. } => Some((loc, old)),
            Op::Lock { order: Some(c), .. } | Op::WaitReturn { order: Some(c), .. } => Some((c.loc, c.index)),
            Op::Wait { cond, wakes, .. } => Some((cond_loc(cond), wakes)),
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
            Op::Lock { order: Some(c), .. } | Op::WaitReturn { order: Some(c), .. } => Some((c.loc, c.index + 1)),
            Op::Signal { cond, index } | Op::Broadcast { cond, index } => Some((cond_loc(cond), index + 1)),
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

/// The pseudo-location holding a `pthread_once`'s state.
pub fn once_loc(once: u64) -> u64 {
    once | (1 << 61)
}

/// The pseudo-location counting a condition variable's signals and broadcasts.
pub fn cond_loc(cond: u64) -> u64 {
    cond | (1 << 60)
}

/// The pseudo-location counting the signalled returns from waits on a
/// condition variable.
pub fn take_loc(cond: u64) -> u64 {
    cond | (1 << 59)
}

/// Whether `loc` is one of the model's counters rather than program memory.
fn pseudo(loc: u64) -> bool {
    loc >= 1 << 59
}

/// One execution as seen by the constraint model.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub events: Vec<TraceEvent>,
    /// The first `prefix_len` events are the schedule prefix this execution
    /// was forced to follow: they happen in every schedule a query builds,
    /// their reads returning the same values (not necessarily in the same
    /// order: see `Encoder::prefix_happens`).
    pub prefix_len: usize,
    /// Value of each written location before its first write in the trace.
    pub initial: HashMap<u64, u128>,
    /// Why some events are modelled only by keeping their original order (or
    /// not precisely): empty when the model is exact.
    pub approximations: BTreeSet<&'static str>,
    /// The locations of each bulk operation ([`Op::Bulk`]).
    pub bulk: Vec<Cells>,
    /// For reads: the fingerprint of the reading thread's local state (0 if
    /// unknown). Two reads of a thread with the same fingerprint and no change of
    /// shared state between them make the interpreter park the thread (busy-wait
    /// detection); see [`crate::Encoder::spin_constraints`]. For timed condition
    /// waits likewise (their timeouts are parked); 0 for every other event.
    pub prints: Vec<u64>,
    /// Whether each event changes shared state (ends a busy wait).
    pub changes: Vec<bool>,
    /// What each event reads or changes ([`Event::footprint`]): a busy wait
    /// ends only on a change to what its loop observed.
    pub footprints: Vec<Vec<(u64, u64)>>,
    /// Whether each event is a `sched_yield`/sleep (a switch after it is no
    /// preemption).
    pub yields: Vec<bool>,
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
    /// Stack objects whose function returned, each as a free of it by the
    /// event in whose step it died (its thread's last event before the
    /// return): (that event, the object's address). Their accesses are in
    /// `guards`. Under SC only (under TSO/PSO that event may be a store
    /// whose order is its flush's).
    pub deaths: Vec<(usize, u64)>,
    /// The read values are not known (CLAP: each thread's trace comes from
    /// symbolic execution): the encodings leave reads unconstrained and the
    /// client states what each read returns with value atoms
    /// ([`crate::Formula::Atom`]). Observations keep their synchronisation
    /// part (wake-ups, semaphore units).
    pub symbolic: bool,
    /// Under TSO/PSO: what relaxes the order of each thread's events (`None`
    /// under SC, where every thread's events keep their trace order).
    pub relaxed: Option<Relaxed>,
}

/// The facts the TSO/PSO must-happen-before needs (dissertation §2.2): the
/// memory model, each event's place in its thread's program order
/// ([`Event::po`]) and which events are stores that went through a store buffer
/// (their order variable is when they became visible).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relaxed {
    pub model: MemoryModel,
    pub po: Vec<u32>,
    pub buffered: Vec<bool>,
}

impl Trace {
    /// The same trace, run under `model`: under TSO/PSO, the plain writes of
    /// `events` (the events the trace was built from) were buffered.
    pub fn under(mut self, model: MemoryModel, events: &[Event]) -> Trace {
        if model.buffers_stores() {
            let po = events.iter().map(|e| e.po).collect();
            let buffered = events.iter().map(|e| e.buffered(model)).collect();
            self.relaxed = Some(Relaxed { model, po, buffered });
        }
        self
    }
}

impl Trace {
    /// The same trace with the run's stack frame deaths ([`Trace::deaths`]):
    /// `deaths` are (index in `events` of the event in whose step the object
    /// died, its address, its size), as `Execution::deaths`.
    pub fn with_deaths(mut self, events: &[Event], deaths: &[(usize, u64, u64)]) -> Trace {
        if self.relaxed.is_some() {
            return self;
        }
        for &(i, base, size) in deaths.iter().filter(|d| d.0 < events.len()) {
            self.deaths.push((i, base));
            for (e, ev) in events.iter().enumerate() {
                let access = matches!(ev.kind, EventKind::Read | EventKind::Write | EventKind::Rmw);
                if access && self.guards[e] == 0 && (base..base + size.max(1)).contains(&ev.addr) {
                    self.guards[e] = base;
                }
            }
        }
        self
    }
}

impl Trace {
    /// The number of earlier reads of the same thread a read is compared with
    /// (the interpreter's busy-wait window).
    pub const SPIN_WINDOW: usize = 8;
}

impl Trace {
    /// Build from the interpreter's events (`causa_core::Event`).
    pub fn from_events(events: &[Event], prefix_len: usize) -> Trace {
        Trace::from_run(events, &[], prefix_len)
    }

    /// Build from the interpreter's events and the bytes of its bulk operations.
    pub fn from_run(events: &[Event], bulk: &[BulkAccess], prefix_len: usize) -> Trace {
        let mut t = Trace { prefix_len: prefix_len.min(events.len()), ..Trace::default() };
        let layout = Layout::new(events, bulk);
        if layout.mixed {
            t.approximations.insert(approx::MIXED);
        }
        let bulk_of: HashMap<usize, &BulkAccess> = bulk.iter().map(|b| (b.event, b)).collect();
        let ordered = ordered_mutexes(events);
        // Every counter starts at 0 (it counts operations of this trace).
        let mut counters: HashMap<u64, u128> = HashMap::default();
        let take = |counters: &mut HashMap<u64, u128>, loc: u64| {
            let n = counters.entry(loc).or_insert(0);
            *n += 1;
            Counter { loc, index: *n - 1 }
        };
        let acquire =
            |counters: &mut HashMap<u64, u128>, m: u64| ordered.contains(&m).then(|| take(counters, lock_loc(m)));
        // Whether each thread's current condition wait is timed.
        let mut timed_wait: HashMap<Tid, bool> = HashMap::default();
        for (i, e) in events.iter().enumerate() {
            let op = match e.kind {
                _ if bulk_of.contains_key(&i) => {
                    let b = bulk_of[&i];
                    let reads = b.reads.iter().flat_map(|(a, d)| layout.split(*a, d)).collect();
                    let mut writes = Vec::new();
                    for (a, old, new) in &b.writes {
                        for ((loc, before), (_, after)) in layout.split(*a, old).into_iter().zip(layout.split(*a, new))
                        {
                            t.initial.entry(loc).or_insert(before);
                            writes.push((loc, after));
                        }
                    }
                    t.bulk.push(Cells { reads, writes });
                    Op::Bulk { id: t.bulk.len() as u32 - 1 }
                }
                // A bulk operation of no bytes.
                EventKind::Read | EventKind::Write if e.size == 0 => Op::Local,
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
                EventKind::Lock | EventKind::WriteLock | EventKind::ReadLock => Op::Lock {
                    mutex: e.addr,
                    shared: e.kind == EventKind::ReadLock,
                    order: acquire(&mut counters, e.addr),
                    tried: e.value == causa_core::LOCK_TRY,
                },
                EventKind::RwUnlock => Op::Unlock { mutex: e.addr },
                EventKind::Unlock => Op::Unlock { mutex: e.addr },
                EventKind::TrylockFail => Op::TrylockFail { mutex: e.addr },
                EventKind::Fork => Op::Fork { child: e.addr as Tid },
                EventKind::Join => Op::Join { child: e.addr as Tid },
                EventKind::Wait => {
                    timed_wait.insert(e.thread, e.value != 0);
                    // Peek at the wake-up count (a wait does not change it).
                    let wakes = *counters.entry(cond_loc(e.addr)).or_insert(0);
                    Op::Wait { cond: e.addr, mutex: e.value2 as u64, wakes }
                }
                EventKind::WaitReturn => {
                    let (cond, mutex, signalled) = (e.addr, e.value2 as u64, e.value != 0);
                    let order = match acquire(&mut counters, mutex) {
                        None if signalled => Some(take(&mut counters, take_loc(cond))),
                        o => o,
                    };
                    let timed = timed_wait.get(&e.thread).copied().unwrap_or(false);
                    Op::WaitReturn { cond, mutex, signalled, order, timed }
                }
                EventKind::Signal => Op::Signal { cond: e.addr, index: take(&mut counters, cond_loc(e.addr)).index },
                EventKind::Broadcast => {
                    Op::Broadcast { cond: e.addr, index: take(&mut counters, cond_loc(e.addr)).index }
                }
                EventKind::SemWait | EventKind::SemPost => {
                    t.sem_initial.entry(e.addr).or_insert(e.value);
                    match (e.kind, e.value2) {
                        (EventKind::SemPost, _) => Op::SemPost { sem: e.addr },
                        (_, causa_core::SEM_FAILED) => Op::SemFail { sem: e.addr },
                        (_, tried) => Op::SemWait { sem: e.addr, tried: tried == causa_core::SEM_TRIED },
                    }
                }
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
                EventKind::Destroy => Op::Destroy { mutex: e.addr },
                EventKind::Yield
                | EventKind::Sleep
                | EventKind::Fence
                | EventKind::AtomicBegin
                | EventKind::AtomicEnd
                | EventKind::Exit
                | EventKind::Fails => Op::Local,
            };
            t.events.push(TraceEvent { thread: e.thread, op });
            t.prints.push(e.print);
            t.changes.push(e.changes_shared_state());
            t.footprints.push(e.footprint().collect());
            t.yields.push(matches!(e.kind, EventKind::Yield | EventKind::Sleep));
            t.sections.push(e.section);
            t.atomic.push(e.atomic);
            t.srcs.push(e.loc);
        }
        for loc in counters.keys() {
            t.initial.insert(*loc, 0);
        }
        t.guards = guards(events);
        check_barriers(&mut t);
        t
    }

    /// A trace from explicit events (tests).
    pub fn new(events: Vec<TraceEvent>, mut initial: HashMap<u64, u128>) -> Trace {
        let n = events.len();
        for e in &events {
            for (loc, _) in e.op.reads().into_iter().chain(e.op.writes()).filter(|(l, _)| pseudo(*l)) {
                initial.entry(loc).or_insert(0);
            }
        }
        let changes = events
            .iter()
            .map(|e| !matches!(e.op, Op::Spin { .. }) && (e.op.reads().is_none() || e.op.writes().is_some()))
            .collect();
        let prints = vec![0; events.len()];
        let footprints = events
            .iter()
            .map(|e| {
                let obj = match e.op {
                    Op::Read { loc, .. } | Op::Write { loc, .. } | Op::Rmw { loc, .. } | Op::Spin { loc, .. } => {
                        Some(loc)
                    }
                    Op::Lock { mutex, .. } | Op::Unlock { mutex } | Op::TrylockFail { mutex } => Some(mutex),
                    _ => None,
                };
                obj.map(|a| vec![(a, a + 1)]).unwrap_or_default()
            })
            .collect();
        let sections = vec![0; events.len()];
        let atomic = vec![false; events.len()];
        let srcs = (0..events.len() as u32).collect();
        Trace {
            events,
            prefix_len: 0,
            initial,
            approximations: BTreeSet::new(),
            bulk: Vec::new(),
            prints,
            changes,
            footprints,
            yields: vec![false; n],
            sections,
            atomic,
            srcs,
            sem_initial: HashMap::default(),
            guards: vec![0; n],
            deaths: Vec::new(),
            symbolic: false,
            relaxed: None,
        }
    }

    /// Every location `e` reads, with the value it read.
    pub fn reads_of(&self, e: usize) -> impl Iterator<Item = (u64, u128)> + '_ {
        let op = self.events[e].op;
        let cells = self.cells(e).map(|c| c.reads.as_slice()).unwrap_or(&[]);
        op.reads().into_iter().chain(cells.iter().copied())
    }

    /// Every location `e` writes, with the value it wrote.
    pub fn writes_of(&self, e: usize) -> impl Iterator<Item = (u64, u128)> + '_ {
        let op = self.events[e].op;
        let cells = self.cells(e).map(|c| c.writes.as_slice()).unwrap_or(&[]);
        op.writes().into_iter().chain(cells.iter().copied())
    }

    /// The locations of `e` if it is a bulk operation.
    fn cells(&self, e: usize) -> Option<&Cells> {
        match self.events[e].op {
            Op::Bulk { id } => self.bulk.get(id as usize),
            _ => None,
        }
    }

    /// The value `e` writes at `loc`, if it writes there.
    pub fn written_at(&self, e: usize, loc: u64) -> Option<u128> {
        self.writes_of(e).find(|(l, _)| *l == loc).map(|(_, v)| v)
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

/// The mutexes whose acquisition order MCR must explore as such. For the others
/// it need not: if no thread ever holds the mutex while it may block (on
/// another lock, a condition variable of another mutex, a semaphore, a join, a
/// barrier, a `pthread_once` in progress) or at its end, a thread waiting for
/// it waits only until the holder's critical section ends, so the order of
/// two critical sections changes nothing unless they access the same data,
/// which the reads inside them already explore (the idea of lock-aware partial
/// order reduction, Kokologiannakis et al. 2019). Trylocks see the lock's
/// state, so a mutex ever try-locked is ordered too.
pub fn ordered_mutexes(events: &[Event]) -> causa_core::collections::HashSet<u64> {
    let mut ordered = causa_core::collections::HashSet::default();
    let mut held: HashMap<Tid, Vec<u64>> = HashMap::default();
    for e in events {
        let h = held.entry(e.thread).or_default();
        let blocks = match e.kind {
            EventKind::Lock | EventKind::WriteLock | EventKind::ReadLock => {
                if e.value == causa_core::LOCK_TRY {
                    ordered.insert(e.addr);
                }
                // A recursive re-acquisition does not wait.
                let waits = !h.contains(&e.addr);
                if waits {
                    ordered.extend(h.iter().copied());
                }
                h.push(e.addr);
                false
            }
            EventKind::Unlock | EventKind::RwUnlock => {
                if let Some(i) = h.iter().rposition(|m| *m == e.addr) {
                    h.remove(i);
                }
                false
            }
            EventKind::TrylockFail => {
                ordered.insert(e.addr);
                false
            }
            EventKind::Wait => {
                if let Some(i) = h.iter().rposition(|m| *m == e.value2 as u64) {
                    h.remove(i);
                }
                true
            }
            EventKind::WaitReturn => {
                h.push(e.value2 as u64);
                false
            }
            EventKind::Join | EventKind::BarrierWait => true,
            // A try/timed semaphore wait does not wait.
            EventKind::SemWait => e.value2 == 0,
            EventKind::Once => matches!(e.value, once_step::FOUND_RUNNING | once_step::RESUMED),
            _ => false,
        };
        if blocks {
            ordered.extend(h.iter().copied());
        }
    }
    // Held at the end of the trace (by a thread that ended, blocked or was cut).
    for h in held.values() {
        ordered.extend(h.iter().copied());
    }
    ordered
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
    let mut threads: HashMap<u64, Vec<Tid>> = HashMap::default();
    let mut arrivals: HashMap<(u64, Tid), u32> = HashMap::default();
    let mut bad: Vec<u64> = Vec::new();
    let mut base: HashMap<u64, u32> = HashMap::default();
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
                t.approximations.insert(approx::BARRIER);
            }
        }
    }
}
