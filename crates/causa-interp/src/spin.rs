//! Busy-wait detection ("await").
//!
//! A thread that spins (`while (!flag) {}`) would run forever under a schedule
//! that never lets the others move. At every visible read, the machine fingerprints
//! the reading thread's whole local state (call stack positions, the top frame's
//! registers, the address and the value read). If the thread reaches the same
//! fingerprint again while no other thread changed anything the loop observed
//! since (the locations it read, the objects its failed trylocks looked at)
//! and it changed nothing itself, its next iteration can only repeat this one:
//! it is parked until another thread changes something the loop observed. A
//! thread whose spin nobody can end is reported with the deadlock, as waiting
//! for a write.

use crate::machine::Machine;
use causa_core::{overlaps, Event, Tid};
use causa_ir::Value;
use std::cell::Cell;
use std::hash::{Hash, Hasher};

/// How many recent read fingerprints a thread remembers (loops whose iteration
/// reads more shared locations than this are not detected). The constraint model
/// mirrors this window (`causa_constraints::Trace::SPIN_WINDOW`).
pub const WINDOW: usize = 8;

/// Per-thread memory of recent visible reads.
#[derive(Clone, Debug, Default)]
pub struct SpinState {
    /// (fingerprint, index of the read's event).
    recent: Vec<(u64, usize)>,
    /// Parked: waiting for a change to what the loop observed.
    pub awaiting: Option<Await>,
}

/// What a parked spinner waits for.
#[derive(Clone, Debug)]
pub struct Await {
    /// What its loop observed.
    observed: Vec<(u64, u64)>,
    /// Events before this index were looked at and changed none of it.
    checked: Cell<usize>,
    /// A change was found.
    woken: Cell<bool>,
}

fn hash_value(v: &Value, h: &mut impl Hasher) {
    match v {
        Value::Int(x) => x.hash(h),
        Value::F32(f) => f.to_bits().hash(h),
        Value::F64(f) => f.to_bits().hash(h),
        Value::Agg(items) => items.iter().for_each(|x| hash_value(x, h)),
    }
}

/// A change by another thread than `t` to something in `observed`.
fn changes(e: &Event, t: Tid, observed: &[(u64, u64)]) -> bool {
    e.thread != t && e.kind.changes_shared_state() && overlaps(observed, e.footprint())
}

impl Machine {
    /// Called after thread `t` read `value` at `addr` in a visible step (its
    /// event is the last one recorded). Returns the fingerprint, which the read
    /// event keeps.
    pub(crate) fn note_read(&mut self, t: Tid, addr: u64, value: u128) -> u64 {
        let th = &self.threads[t as usize];
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for f in &th.frames {
            (f.func, f.block, f.ip).hash(&mut h);
        }
        if let Some(top) = th.frames.last() {
            top.regs.iter().for_each(|v| hash_value(v, &mut h));
        }
        (addr, value).hash(&mut h);
        let print = h.finish();
        let now = self.events.len() - 1;
        let earlier = th.spin.recent.iter().rev().find(|(p, _)| *p == print).map(|(_, i)| *i);
        if let Some(since) = earlier {
            let between = &self.events[since..=now];
            // What this thread's loop observed, and whether it changed anything.
            let mine = between.iter().filter(|e| e.thread == t);
            let changed_itself = mine.clone().any(|e| e.kind.changes_shared_state());
            let observed: Vec<(u64, u64)> = mine.flat_map(|e| e.footprint()).collect();
            if !changed_itself && !between.iter().any(|e| changes(e, t, &observed)) {
                let awaiting = Await { observed, checked: Cell::new(now + 1), woken: Cell::new(false) };
                self.threads[t as usize].spin.awaiting = Some(awaiting);
            }
        }
        let spin = &mut self.threads[t as usize].spin;
        if spin.recent.len() == WINDOW {
            spin.recent.remove(0);
        }
        spin.recent.push((print, now));
        print
    }

    /// A spinning thread may move again once another thread changed something
    /// its loop observed.
    pub(crate) fn spin_enabled(&self, t: Tid) -> bool {
        let Some(a) = &self.threads[t as usize].spin.awaiting else {
            return true;
        };
        if !a.woken.get() {
            let from = a.checked.get().min(self.events.len());
            a.woken.set(self.events[from..].iter().any(|e| changes(e, t, &a.observed)));
            a.checked.set(self.events.len());
        }
        a.woken.get()
    }
}
