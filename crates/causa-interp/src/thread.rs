//! Threads and frames. A thread is always parked *before* its next visible
//! operation ([`Pending`]); the machine decides whether that operation is enabled,
//! the scheduler decides which enabled thread performs its operation next.

use causa_core::ThreadName;
use causa_ir::{BlockId, FnId, LocId, Local, Value};

/// What a thread will do when it is next scheduled.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// Not started yet: the next step is its `begin` event.
    Begin,
    /// Parked at the visible instruction at the top frame's `ip`.
    Instr,
    /// Inside a condition wait: enabled once signalled (or at once if timed) and
    /// the mutex is free; the step re-acquires the mutex and returns.
    CondWait {
        cond: u64,
        mutex: u64,
        timed: bool,
        signalled: bool,
        since: u64,
    },
    /// Waiting at a barrier for generation `gen` to complete.
    Barrier {
        barrier: u64,
        gen: u64,
    },
    /// Waiting for another thread to finish a `pthread_once` routine.
    Once {
        once: u64,
    },
    /// Returned from its `pthread_once` routine: the next step marks it done
    /// (a step of its own, so waiters are ordered after it).
    OnceDone {
        once: u64,
    },
    /// The start routine returned (or `pthread_exit`): the next step is `end`.
    End,
    /// `main` returned or `exit` was called: the next step ends the program.
    Exit {
        code: i32,
    },
    Finished,
}

/// What to do when a frame returns, beyond handing back the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnReturn {
    /// Return the value to the caller's register `dest` (or drop it: `NONE`).
    Caller,
    /// Bottom frame of a thread: the thread ends with the returned value.
    ThreadEnd,
    /// Bottom frame of `main`: the program exits with the returned value.
    ProgramExit,
    /// A `pthread_once` routine finished: mark the control object done.
    OnceDone(u64),
    /// A thread-specific-data destructor finished.
    Discard,
}

#[derive(Clone, Debug)]
pub struct Frame {
    pub func: FnId,
    pub block: BlockId,
    /// Index into the block's instructions; equal to their count at the terminator.
    pub ip: u32,
    pub regs: Vec<Value>,
    /// Stack objects created in this frame, killed on return.
    pub allocas: Vec<u64>,
    /// Caller register receiving the return value (`NONE` for none).
    pub ret_dest: Local,
    pub on_return: OnReturn,
    /// Variadic arguments, for `va_start`.
    pub varargs: Vec<Value>,
    /// This frame belongs to a `__VERIFIER_atomic_*` function.
    pub atomic: bool,
}

#[derive(Clone)]
pub struct Thread {
    pub name: ThreadName,
    pub pending: Pending,
    pub frames: Vec<Frame>,
    /// Nesting depth of uninterruptible sections.
    pub atomic_depth: u32,
    /// Id of the current uninterruptible section (meaningful while `atomic_depth > 0`).
    pub section: u32,
    /// Number of threads this thread created (for child names).
    pub children: u32,
    pub retval: u64,
    pub detached: bool,
    pub joined: bool,
    /// Location of the instruction being executed (for findings).
    pub loc: LocId,
    /// Thread-specific data: (key, value).
    pub specific: Vec<(u32, u64)>,
    /// Busy-wait detection (see `spin.rs`).
    pub spin: crate::spin::SpinState,
    /// Operations issued so far (the next event's [`causa_core::Event::po`]).
    pub ops: u32,
    /// The thread's instances of thread-local globals: (global, address),
    /// made at its first use of each.
    pub thread_locals: Vec<(u32, u64)>,
    /// Its calls of `free` so far (each is a `free` event).
    pub frees: u32,
    /// Thread-specific-data destructors called at its end so far.
    pub destructor_calls: u32,
    /// Where it returned (or called `pthread_exit`) before its key
    /// destructors ran: its `end` event's location.
    pub returned_at: LocId,
}

impl Thread {
    pub fn new(name: ThreadName, start: Frame) -> Thread {
        Thread {
            name,
            pending: Pending::Begin,
            frames: vec![start],
            atomic_depth: 0,
            section: 0,
            children: 0,
            retval: 0,
            detached: false,
            joined: false,
            loc: causa_ir::NONE,
            specific: Vec::new(),
            spin: Default::default(),
            ops: 0,
            thread_locals: Vec::new(),
            frees: 0,
            destructor_calls: 0,
            returned_at: causa_ir::NONE,
        }
    }

    pub fn is_finished(&self) -> bool {
        self.pending == Pending::Finished
    }
}
