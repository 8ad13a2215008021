//! A thread parked in a busy wait at the log's deadlock: the interpreter
//! noted it spinning in a loop no other thread can end (its next visible
//! step waits for a change to what the loop observed). Its recorded path
//! ends there; the executor stops it at a [`SymOp::Spin`] on what the loop
//! waits for, and it fails there when it is the deadlock's failing thread.

use super::{Addr, Thread};
use crate::trace::SymOp;
use crate::SymError;
use causa_core::BugKind;
use causa_ir::{Operand, Ty};

/// Calls that look at a lock and fail while another thread holds it: a
/// loop of them waits for that lock.
const TRIES: [&str; 5] = [
    "pthread_mutex_trylock",
    "pthread_mutex_timedlock",
    "pthread_spin_trylock",
    "pthread_rwlock_trywrlock",
    "pthread_rwlock_tryrdlock",
];

impl Thread<'_, '_> {
    /// The log's deadlock has this thread parked at the current operation
    /// (a spin note for it at this location, every recorded decision
    /// followed): the deadlock's message and whether the thread is the one
    /// it fails in.
    fn parked_here(&self) -> Option<(String, bool)> {
        let f = self.st.failure.as_ref().filter(|f| f.kind == BugKind::Deadlock)?;
        let here = self.st.program.loc(self.loc);
        let noted = f.notes.iter().any(|n| {
            n.thread.as_ref() == Some(&self.path.thread)
                && causa_core::finding::spin::is_spin(&n.message)
                && n.location.as_ref() == here
        });
        let at_end = !self.blocked && self.next_decision >= self.path.decisions.len();
        (noted && at_end).then(|| (f.message.clone(), f.thread == self.path.thread))
    }

    /// Stop, blocked, at a busy wait on `size` bytes at `addr`.
    fn park(&mut self, addr: u64, size: u32, (message, failing): (String, bool)) {
        self.blocked = true;
        self.event(SymOp::Spin { addr, size });
        if failing {
            self.fail(BugKind::Deadlock, message);
        }
    }

    /// Whether the thread is parked at this read (or read-modify-write) of
    /// shared memory; if so it stops there.
    pub(super) fn parked_at_read(&mut self, addr: &Operand, ty: &Ty) -> Result<bool, SymError> {
        let Some(why) = self.parked_here() else { return Ok(false) };
        let a = match self.address(addr, "a busy wait's read")? {
            Addr::Concrete(a) if !self.classify(a).0 => a,
            _ => return Ok(false),
        };
        self.park(a, ty.store_size() as u32, why);
        Ok(true)
    }

    /// Whether the thread is parked at this call (a trylock that would fail
    /// again, or a `sched_yield` between its loop's reads); if so it stops
    /// there, waiting on the lock it tries, else on the last location its
    /// loop read.
    pub(super) fn parked_at_call(&mut self, name: &str, args: &[Operand]) -> Result<bool, SymError> {
        let Some(why) = self.parked_here() else { return Ok(false) };
        let (addr, size) = if TRIES.contains(&name) {
            (self.addr_arg(args, 0, name)?, 1)
        } else {
            let observed = self.out.events.iter().rev().find_map(|e| e.op.looked_at());
            let Some(o) = observed else { return Ok(false) };
            o
        };
        self.park(addr, size, why);
        Ok(true)
    }
}
