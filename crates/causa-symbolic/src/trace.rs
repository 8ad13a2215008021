//! What guided symbolic execution produces: per thread, its shared accesses and
//! synchronisation operations in program order (CLAP's SAPs), with symbolic
//! values, and the conditions its recorded path imposes on them.

use crate::expr::{ExprId, Exprs};
use causa_core::{BugKind, ThreadName};
use causa_ir::LocId;

/// One shared access point of a thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymOp {
    Begin,
    End,
    /// A read of `size` bytes at `addr`; its value is the read expression
    /// `value` (a fresh [`crate::Expr::Read`], or a constant when program
    /// order fixes it: [`SymTrace::determined`]). `at`: the address is
    /// symbolic (computed from shared data), this expression; `addr` is 0 then
    /// (the solver resolves it, CLAP §8.4).
    Read {
        addr: u64,
        size: u32,
        value: ExprId,
        atomic: bool,
        at: Option<ExprId>,
    },
    /// A write of `value` (an expression over earlier reads).
    Write {
        addr: u64,
        size: u32,
        value: ExprId,
        atomic: bool,
        at: Option<ExprId>,
    },
    /// An atomic read-modify-write (`atomicrmw`, `cmpxchg`) of `size` bytes
    /// at `addr`: reads `old` (a fresh read expression) and writes `new` (an
    /// expression over it) at one instant. `at`: the address is symbolic,
    /// this expression, and `addr` is 0 (as [`SymOp::Read`]'s).
    Rmw {
        addr: u64,
        size: u32,
        old: ExprId,
        new: ExprId,
        at: Option<ExprId>,
    },
    /// A bulk memory function on shared memory (`memcpy`, `memset`…,
    /// named by `what`) of `size` bytes at `addr` (its destination when it
    /// writes shared memory, else its source): its `reads` (each a fresh
    /// read expression) and its `writes`, all at one instant (the reads
    /// see memory before the event, like [`SymOp::Rmw`]'s).
    Bulk {
        what: &'static str,
        addr: u64,
        size: u32,
        reads: Vec<Piece>,
        writes: Vec<Piece>,
        /// The bytes are read, or written, through a pointer computed from
        /// shared data, this expression (`addr` is 0 then, and each piece's
        /// `addr` is its offset from the pointer; such an event reads or
        /// writes, not both): the solver resolves it among its candidates
        /// ([`crate::rw`]), as a [`SymOp::Read`]'s `at`.
        at: Option<ExprId>,
    },
    /// `free` of the heap block at `object`, or of the pointer `at` computed
    /// from shared data (`object` is 0 then).
    Free {
        object: u64,
        at: Option<ExprId>,
        /// The free is a `realloc`'s (which moved the block).
        realloc: bool,
    },
    /// `pthread_mutex_destroy` (or of a spin or read-write lock) of a lock
    /// other threads can reach.
    Destroy {
        mutex: u64,
    },
    /// A mutex (or a read-write lock for writing); `shared`: a read-write
    /// lock taken for reading (other readers may hold it too).
    Lock {
        mutex: u64,
        shared: bool,
    },
    Unlock {
        mutex: u64,
    },
    /// A trylock that found `mutex` held (by another thread: the model
    /// requires it).
    TrylockFail {
        mutex: u64,
    },
    /// `pthread_cond_wait`: releases `mutex`, waits, then [`SymOp::WaitReturn`].
    Wait {
        cond: u64,
        mutex: u64,
    },
    /// Return from a condition wait, re-acquiring `mutex`; `timed`: of a
    /// `pthread_cond_timedwait`, which was `woken` or timed out (as the
    /// run's did: its path log says).
    WaitReturn {
        cond: u64,
        mutex: u64,
        timed: bool,
        woken: bool,
    },
    Signal {
        cond: u64,
    },
    Broadcast {
        cond: u64,
    },
    /// `sem_wait`, or (`tried`) a `sem_trywait`/`sem_timedwait` that took a
    /// unit.
    SemWait {
        sem: u64,
        tried: bool,
    },
    /// A `sem_trywait`/`sem_timedwait` that found no unit and failed.
    SemFail {
        sem: u64,
    },
    SemPost {
        sem: u64,
    },
    /// `pthread_barrier_wait`: the thread's arrival for generation `gen` (its
    /// `gen`-th wait at this barrier, counted from 0)…; `serial` is the
    /// shared read (1 bit) of whether it arrives last, which makes the call
    /// return `PTHREAD_BARRIER_SERIAL_THREAD` (tied to the order by
    /// [`crate::clap`]).
    Arrive {
        barrier: u64,
        gen: u32,
        serial: u32,
    },
    /// … and its departure once every thread of the generation arrived (the
    /// last to arrive goes on without a step of its own: the schedule drops
    /// its departure, [`crate::clap`]).
    Depart {
        barrier: u64,
        gen: u32,
    },
    /// Thread creation. `handle`: where the new thread's id was stored, when
    /// that is shared memory (address and value): the fork writes it.
    Fork {
        child: ThreadName,
        handle: Option<(u64, ExprId)>,
    },
    /// `result`: where the joined thread's result was stored, when that is
    /// shared memory (address and value, the join's read of the result,
    /// [`SymTrace::join_results`]): the join writes it.
    Join {
        child: ThreadName,
        result: Option<(u64, ExprId)>,
    },
    /// `__VERIFIER_atomic_begin()` / `__VERIFIER_atomic_end()` (scheduling
    /// points of their own in the interpreter).
    AtomicBegin,
    AtomicEnd,
    /// A fence (recorded under TSO/PSO only, where it is a visible operation).
    Fence,
    /// A `pthread_once` call on `once` that found the routine not run
    /// (`found` 0: this thread runs it, then [`SymOp::OnceDone`]), running
    /// in another thread (1: it waits, then [`SymOp::OnceResume`]) or done
    /// (2) ([`causa_core::event::once_step`]).
    OnceCall {
        once: u64,
        found: u8,
    },
    OnceResume {
        once: u64,
    },
    /// The routine returned: the once is done.
    OnceDone {
        once: u64,
    },
    /// A recursive mutex's lock by the thread that holds it already (the
    /// run's did not block there): a scheduling point that changes nothing
    /// another thread sees.
    Relock {
        mutex: u64,
    },
    /// A recursive mutex's unlock that leaves it held (its thread locked it
    /// more than once).
    Reunlock {
        mutex: u64,
    },
    /// `sched_yield`, `pthread_yield`, `sleep`, `usleep`, `nanosleep`: a
    /// scheduling point of its own in the interpreter that touches nothing
    /// shared (a switch after it is no preemption).
    Yield,
    /// The thread is parked in a busy wait (the log's deadlock found it
    /// spinning in a loop no other thread can end): this is its next read,
    /// of `size` bytes at `addr`, which it never gets past. It stops here.
    Spin {
        addr: u64,
        size: u32,
    },
    /// The failure: the thread stops here.
    Fail {
        kind: BugKind,
        message: String,
    },
}

/// One word of a bulk access: `size` bytes at `addr`, with their value (a
/// read expression for a read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub addr: u64,
    pub size: u32,
    pub value: ExprId,
}

/// A shared access point with its source location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymEvent {
    pub op: SymOp,
    pub loc: LocId,
    /// The uninterruptible section (`__VERIFIER_atomic_*`) the event is in:
    /// numbered from 1 per thread, 0 for none.
    pub section: u32,
}

/// One thread's symbolic trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymThread {
    pub thread: ThreadName,
    pub events: Vec<SymEvent>,
    /// Path conditions (1-bit expressions that must be 1), each with the number
    /// of this thread's events before it (it depends on those reads only).
    pub path: Vec<(ExprId, usize)>,
    /// The two-way branches among the path conditions (those an alternate
    /// schedule may flip).
    pub branches: Vec<Branch>,
    /// The recorded decisions ran out before the thread ended (it was still
    /// running when the failure happened): its trailing events may not have
    /// happened.
    pub unfinished: bool,
    /// For each program input the thread read (in order): the number of its
    /// events before the read.
    pub inputs_at: Vec<usize>,
    /// The failure happens in this thread's computation (an assertion, an
    /// abort, a division by zero): the path condition of the branch that led
    /// to it, an index into `path`. None when that branch's condition is a
    /// constant (program order decides it: no schedule of these paths
    /// avoids the failure).
    pub failure_condition: Option<usize>,
    /// The function the thread starts in (`main`, or its start routine).
    pub start: Option<String>,
}

impl SymThread {
    /// A thread of these operations (no source locations, sections, path
    /// conditions or inputs): for tests that build traces by hand.
    pub fn of_ops(thread: ThreadName, ops: Vec<SymOp>) -> SymThread {
        SymThread {
            thread,
            events: ops.into_iter().map(|op| SymEvent { op, loc: causa_ir::NONE, section: 0 }).collect(),
            path: Vec::new(),
            branches: Vec::new(),
            unfinished: false,
            inputs_at: Vec::new(),
            failure_condition: None,
            start: None,
        }
    }
}

/// A conditional branch or a switch whose condition depends on shared
/// reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Branch {
    /// Its condition: an index into [`SymThread::path`] (a switch's: the
    /// value is the recorded run's case, or none of the cases for the
    /// default; flipped, the switch goes to another).
    pub condition: usize,
    /// Where the branch is.
    pub loc: LocId,
    /// The way the recorded run went (a switch: true).
    pub taken: bool,
    /// A switch rather than a two-way branch.
    pub switch: bool,
    /// The other way surely reports a failure at once (an assertion's
    /// failing side, `causa_ir::Program::fails_at_once`): flipping the
    /// branch cannot avoid a failure.
    pub doomed: bool,
    /// Not a branch: the address of a synchronisation object computed from
    /// shared data, held to the run's (`ThreadPath::objects`); flipped, the
    /// thread uses another object there.
    pub object: bool,
    /// Not a branch: a try (`pthread_mutex_trylock`, `sem_trywait`) that
    /// failed in the recorded run; flipped, it finds the mutex free (a
    /// unit of the semaphore left), and the thread goes on as a try that
    /// succeeds does (`clap::Condition::failed_try`).
    pub failed_try: bool,
}

/// A read's place in its thread's execution: (thread index, instructions
/// the thread executed before it, reads of that instruction before it).
pub type ReadKey = (usize, u64, u32);

/// Every thread's symbolic trace, over one expression arena.
#[derive(Clone, Debug, Default)]
pub struct SymTrace {
    /// The memory model the log was recorded under.
    pub memory_model: causa_core::MemoryModel,
    pub exprs: Exprs,
    pub threads: Vec<SymThread>,
    /// For each read id: (thread index, event index).
    pub reads: Vec<(usize, usize)>,
    /// For each read id: where it is in its thread's execution
    /// ([`ReadKey`]), the same in every pass of symbolic execution (ids
    /// and event indices are not: a load at an address computed from a read
    /// found determined becomes a constant in the next pass).
    pub read_keys: Vec<ReadKey>,
    /// The reads whose value program order, thread creation, join and
    /// barriers fix, a constant in the trace (`crate::determined`), by id.
    pub determined: Vec<u32>,
    /// What each thread that ended returned (its start routine's return
    /// value, or `pthread_exit`'s argument), by name.
    pub returned: Vec<(ThreadName, ExprId)>,
    /// Each `pthread_join` that stores the joined thread's result: the read
    /// that is its value (64 bits; [`SymTrace::reads`] places it at the
    /// join) and the thread joined. The constraint model ties it to what
    /// that thread returned ([`SymTrace::returned`]): a join follows the
    /// thread's end in every schedule.
    pub join_results: Vec<(u32, ThreadName)>,
    /// Initial contents of the shared static objects: (address, bytes).
    pub initial: Vec<(u64, Vec<u8>)>,
    /// Stack objects shared once their address escaped: their contents at
    /// that point, word by word (address, size, value). Other threads can
    /// only reach them afterwards, so these are their initial values.
    pub escaped: Vec<(u64, u32, ExprId)>,
    /// Objects whose bytes nobody wrote are 0 (escaped stack objects, heap
    /// blocks: the interpreter zeroes them), with their sizes.
    pub zeroed_objects: Vec<(u32, u64)>,
    /// Semaphores given a value with `sem_init` (the last value given).
    pub sem_initial: Vec<(u64, u128)>,
    /// Barriers given a count with `pthread_barrier_init` (the last count
    /// given).
    pub barrier_count: Vec<(u64, u32)>,
    /// Every object of the program: static data, stack objects and heap
    /// blocks (a memory error's predicate ranges over them).
    pub objects: Vec<Object>,
    /// Shared stack objects whose function returned, and shared
    /// thread-local instances whose thread ended: (the object's base,
    /// thread, how many of its events came before the return, or up to its
    /// `end`). The object dies in the step of the last of those (a return
    /// is not a scheduling point).
    pub deaths: Vec<(u64, usize, usize)>,
    /// Objects used through `pthread_rwlock_*` calls (an exclusive lock of
    /// one is modelled as a mutex's: explanations name it `wrlock`).
    pub rwlocks: std::collections::BTreeSet<u64>,
    /// The bytes `realloc` copied from a shared block into a new one, whose
    /// values are not modelled (`Thread::reallocate`): (address, length,
    /// the call's location).
    pub realloc_copies: Vec<(u64, u64, Option<String>)>,
    /// The failure is a memory error: what the failing operation accessed.
    pub fault: Option<Fault>,
    /// The value parts of the memory error's predicate.
    pub fault_predicates: crate::fault::FaultPredicates,
}

/// What a location holds before the trace's first write to it.
#[derive(Clone, Copy, Debug)]
pub enum Initial {
    Known(u128),
    /// The contents of an escaped stack object (an expression over its
    /// owner's reads).
    Expr(ExprId),
    /// A word written with another size before the object was shared, or
    /// memory causa does not know.
    Unknown,
}

/// An object of the program's memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    /// Its address (offset 0 of its allocation).
    pub base: u64,
    pub size: u64,
    /// A heap block (`malloc`): it can be freed.
    pub heap: bool,
    /// Constant static data: reads only.
    pub read_only: bool,
}

/// The operation at which a memory error happens (the failing thread's
/// [`SymOp::Fail`]): an access of `len` bytes at `addr` (a 64-bit
/// expression), or with `len` 0 a `free(addr)`, or (`functions` not
/// empty) a call through the function pointer `addr`, valid when it is
/// one of those function addresses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub thread: usize,
    pub addr: ExprId,
    pub len: u64,
    pub write: bool,
    pub functions: Vec<u64>,
}

/// Bytes in memory order as the number they hold (little-endian).
pub(crate) fn le_value(bytes: &[u8]) -> u128 {
    bytes.iter().rev().fold(0u128, |v, b| (v << 8) | *b as u128)
}

impl SymOp {
    /// A read, write, read-modify-write or bulk access of shared memory.
    pub fn is_access(&self) -> bool {
        matches!(self, SymOp::Read { .. } | SymOp::Write { .. } | SymOp::Rmw { .. } | SymOp::Bulk { .. })
    }

    /// What a busy wait looks at in this event ([`SymOp::Spin`]): the bytes
    /// a read or read-modify-write at a known address reads, or the lock a
    /// failed trylock found held (one byte).
    pub fn looked_at(&self) -> Option<(u64, u32)> {
        match *self {
            SymOp::Read { addr, size, .. } | SymOp::Rmw { addr, size, .. } if addr != 0 => Some((addr, size)),
            SymOp::TrylockFail { mutex } => Some((mutex, 1)),
            _ => None,
        }
    }
}

impl SymTrace {
    /// Whether two schedules of this trace with the same data flows
    /// (`symbiosis::data_flows`) give every read the same value: every
    /// access is at an address known here (a computed one counts as 0
    /// there), no thread reads input (which thread gets which input
    /// depends on their order, not on a data flow), and the only other
    /// operations are locks, thread starts and ends, atomic blocks and
    /// fences (a condition wait's wake-up, a semaphore's count, a barrier's
    /// serial thread, a trylock's result or a freed object depend on the
    /// order of operations that are not data flows).
    pub fn flows_decide_values(&self) -> bool {
        let plain = |op: &SymOp| match op {
            SymOp::Read { at, .. } | SymOp::Write { at, .. } | SymOp::Bulk { at, .. } => at.is_none(),
            SymOp::Rmw { .. } | SymOp::Begin | SymOp::End | SymOp::Lock { .. } | SymOp::Unlock { .. } => true,
            SymOp::Fork { .. } | SymOp::Join { .. } | SymOp::AtomicBegin | SymOp::AtomicEnd => true,
            SymOp::Fence | SymOp::Yield | SymOp::Fail { .. } => true,
            _ => false,
        };
        self.threads.iter().all(|t| t.inputs_at.is_empty() && t.events.iter().all(|e| plain(&e.op)))
    }

    /// The number of shared accesses (reads and writes) of all threads.
    pub fn shared_accesses(&self) -> usize {
        let is_access = |e: &SymEvent| e.op.is_access();
        self.threads.iter().map(|t| t.events.iter().filter(|e| is_access(e)).count()).sum()
    }

    /// The barrier arrival (thread, event) whose result
    /// (`PTHREAD_BARRIER_SERIAL_THREAD` or 0) condition `c` depends on alone.
    pub fn serial_arrival(&self, c: ExprId) -> Option<(usize, usize)> {
        let (id, _) = crate::domains::single_read(&self.exprs, c)?;
        let (t, k) = *self.reads.get(id as usize)?;
        matches!(self.threads[t].events[k].op, SymOp::Arrive { serial, .. } if serial == id).then_some((t, k))
    }

    /// The concrete address shared read `id` reads (None: a symbolic one).
    pub fn read_addr(&self, id: u32) -> Option<u64> {
        let (t, k) = self.reads.get(id as usize)?;
        match &self.threads[*t].events[*k].op {
            SymOp::Read { addr, at: None, .. } | SymOp::Rmw { addr, at: None, .. } => Some(*addr),
            _ => None,
        }
    }

    /// What `size` bytes at `addr` hold before the trace's first write to
    /// them.
    pub fn initial_value(&self, addr: u64, size: u32) -> Initial {
        if let Some((_, s, e)) = self.escaped.iter().find(|(a, _, _)| *a == addr) {
            return if *s == size { Initial::Expr(*e) } else { Initial::Unknown };
        }
        // Part of a word computed from shared data.
        if self.escaped.iter().any(|(a, s, _)| *a < addr + size as u64 && addr < a + *s as u64) {
            return Initial::Unknown;
        }
        // Static data, or an escaped stack object a bulk operation wrote.
        let image = self.initial.iter().find_map(|(base, bytes)| {
            let off = addr.checked_sub(*base)? as usize;
            let b = bytes.get(off..off + size as usize)?;
            Some(le_value(b))
        });
        if let Some(v) = image {
            return Initial::Known(v);
        }
        let id = causa_ir::addr_alloc(addr);
        if self.zeroed_objects.iter().any(|(o, _)| *o == id) {
            // Memory nobody wrote (the interpreter zeroes stack and heap).
            return Initial::Known(0);
        }
        Initial::Unknown
    }

    /// The count `barrier` was last initialised with, if any.
    pub fn barrier_count_of(&self, barrier: u64) -> Option<u32> {
        self.barrier_count.iter().find(|(b, _)| *b == barrier).map(|(_, n)| *n)
    }

    /// The arrivals at each barrier generation, (barrier, generation), in
    /// thread order. (Symbolic execution numbers a thread's arrivals at a
    /// barrier by its own earlier ones: three threads arriving once each
    /// are one generation of three, whatever the barrier's count.)
    pub fn barrier_generations(&self) -> std::collections::BTreeMap<(u64, u32), Vec<(usize, usize)>> {
        let mut gens: std::collections::BTreeMap<(u64, u32), Vec<(usize, usize)>> = Default::default();
        for (t, th) in self.threads.iter().enumerate() {
            for (k, e) in th.events.iter().enumerate() {
                if let SymOp::Arrive { barrier, gen, .. } = e.op {
                    gens.entry((barrier, gen)).or_default().push((t, k));
                }
            }
        }
        gens
    }

    /// The index of the thread called `name`.
    pub fn thread_index(&self, name: &ThreadName) -> Option<usize> {
        self.threads.iter().position(|t| &t.thread == name)
    }

    /// What the thread whose result a join's read `read` takes returned
    /// (None: the read is not a join's, or the thread never ended).
    pub fn joined_result(&self, read: u32) -> Option<ExprId> {
        let (_, child) = self.join_results.iter().find(|(r, _)| *r == read)?;
        self.returned.iter().find(|(n, _)| n == child).map(|(_, x)| *x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A worker that writes `a` under a lock and main, which reads it, with
    /// `extra` added to the worker's events.
    fn with(extra: Vec<SymOp>) -> SymTrace {
        let mut sym = SymTrace::default();
        let a = causa_ir::make_addr(3, 0);
        let (main, t1) = (ThreadName::main(), ThreadName::main().child(1));
        let one = sym.exprs.constant(32, 1);
        let r = sym.exprs.read(0, 32);
        let read = SymOp::Read { addr: a, size: 4, value: r, atomic: false, at: None };
        sym.threads.push(SymThread::of_ops(
            main,
            vec![
                SymOp::Begin,
                SymOp::Fork { child: t1.clone(), handle: None },
                read,
                SymOp::Join { child: t1.clone(), result: None },
            ],
        ));
        let mut ops = vec![SymOp::Begin, SymOp::Lock { mutex: 8, shared: false }];
        ops.push(SymOp::Write { addr: a, size: 4, value: one, atomic: false, at: None });
        ops.push(SymOp::Unlock { mutex: 8 });
        ops.extend(extra);
        ops.push(SymOp::End);
        sym.threads.push(SymThread::of_ops(t1, ops));
        sym.reads = vec![(0, 2)];
        sym
    }

    #[test]
    fn data_flows_decide_values_only_without_other_orders_that_matter() {
        assert!(with(vec![]).flows_decide_values());
        assert!(with(vec![SymOp::Fence, SymOp::Yield]).flows_decide_values());
        let mut computed = with(vec![]);
        let p = computed.exprs.read(1, 64);
        let one = computed.exprs.constant(32, 1);
        computed.threads[1].events.insert(
            2,
            SymEvent {
                op: SymOp::Write { addr: 0, size: 4, value: one, atomic: false, at: Some(p) },
                loc: causa_ir::NONE,
                section: 0,
            },
        );
        assert!(!computed.flows_decide_values(), "a write through a computed address");
        for op in [
            SymOp::Signal { cond: 9 },
            SymOp::SemPost { sem: 9 },
            SymOp::TrylockFail { mutex: 8 },
            SymOp::Free { object: 4, at: None, realloc: false },
        ] {
            assert!(!with(vec![op.clone()]).flows_decide_values(), "{op:?}");
        }
        let mut input = with(vec![]);
        input.threads[0].inputs_at.push(1);
        assert!(!input.flows_decide_values(), "a thread that reads input");
    }
}
