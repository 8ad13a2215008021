//! Platform-neutral synchronisation semantics: owners, counters and wait queues.
//! The pthread ABI layer (`shims::pthread`) maps C objects to these by address;
//! nothing here knows about C layouts.

use causa_core::collections::HashMap;
use causa_core::Tid;
use causa_ir::LocId;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MutexKind {
    Normal,
    Recursive,
    ErrorCheck,
}

#[derive(Clone, Debug)]
pub struct Mutex {
    pub kind: MutexKind,
    pub owner: Option<Tid>,
    pub count: u32,
    /// Where the current owner locked it.
    pub locked_at: LocId,
}

impl Mutex {
    pub fn new(kind: MutexKind) -> Mutex {
        Mutex { kind, owner: None, count: 0, locked_at: causa_ir::NONE }
    }

    /// Whether `t` can lock it now.
    pub fn can_lock(&self, t: Tid) -> bool {
        match self.owner {
            None => true,
            Some(o) => o == t && self.kind != MutexKind::Normal,
        }
    }
}

/// A condition variable: the threads waiting on it and the wake-up tokens its
/// `signal`s left. A token made at step `s` may be taken by any thread that
/// started waiting before `s` (POSIX: a signal wakes at least one of the threads
/// blocked at that time); which one is a scheduling choice.
#[derive(Clone, Debug, Default)]
pub struct Cond {
    pub waiters: Vec<Tid>,
    /// The step index of each signal not yet consumed.
    pub tokens: Vec<u64>,
}

impl Cond {
    /// A token a thread waiting since step `since` may take (made after it began waiting).
    pub fn token(&self, since: u64) -> Option<usize> {
        self.tokens.iter().position(|s| *s >= since)
    }
}

#[derive(Clone, Debug, Default)]
pub struct RwLock {
    pub readers: Vec<Tid>,
    pub writer: Option<Tid>,
}

#[derive(Clone, Debug)]
pub struct Barrier {
    pub count: u32,
    pub arrived: u32,
    pub gen: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnceState {
    Running(Tid),
    Done,
}

/// All synchronisation objects of one execution, keyed by the address of the C object.
#[derive(Clone, Default)]
pub struct SyncState {
    pub mutexes: HashMap<u64, Mutex>,
    /// Waiters of each condition variable, in arrival order.
    pub conds: HashMap<u64, Cond>,
    pub rwlocks: HashMap<u64, RwLock>,
    pub barriers: HashMap<u64, Barrier>,
    pub sems: HashMap<u64, u32>,
    pub onces: HashMap<u64, OnceState>,
    /// Locks destroyed and not initialised again: who destroyed each, where.
    pub destroyed: HashMap<u64, (Tid, causa_ir::LocId)>,
    /// Thread-specific-data keys created so far (destructor function addresses).
    pub keys: Vec<u64>,
}
