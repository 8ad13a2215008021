//! Busy-wait detection ("await").
//!
//! A thread that spins (`while (!flag) {}`) would run forever under a schedule
//! that never lets the others move. At every visible read, the machine fingerprints
//! the reading thread's whole local state (call stack positions, the top frame's
//! registers, the address and the value read). If the thread reaches the same
//! fingerprint again while no thread has changed any shared state in between, its
//! next iteration can only repeat this one: it is parked until another thread
//! changes shared state. A thread whose spin nobody can end is reported with the
//! deadlock, as waiting for a write.

use crate::machine::Machine;
use causa_core::Tid;
use causa_ir::Value;
use std::hash::{Hash, Hasher};

/// How many recent read fingerprints a thread remembers (loops whose iteration
/// reads more shared locations than this are not detected). The constraint model
/// mirrors this window (`causa_constraints::Trace::SPIN_WINDOW`).
pub const WINDOW: usize = 8;

/// Per-thread memory of recent visible reads.
#[derive(Clone, Debug, Default)]
pub struct SpinState {
    /// (fingerprint, shared-state version when it was seen).
    recent: Vec<(u64, u64)>,
    /// Parked until the shared-state version moves past this.
    pub awaiting: Option<u64>,
}

fn hash_value(v: &Value, h: &mut impl Hasher) {
    match v {
        Value::Int(x) => x.hash(h),
        Value::F32(f) => f.to_bits().hash(h),
        Value::F64(f) => f.to_bits().hash(h),
        Value::Agg(items) => items.iter().for_each(|x| hash_value(x, h)),
    }
}

impl Machine {
    /// Called after thread `t` read `value` at `addr` in a visible step.
    /// Returns the fingerprint, which the read event keeps.
    pub(crate) fn note_read(&mut self, t: Tid, addr: u64, value: u128) -> u64 {
        let version = self.shared_version;
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
        let spin = &mut self.threads[t as usize].spin;
        if spin.recent.iter().any(|&(p, v)| p == print && v == version) {
            spin.awaiting = Some(version);
        }
        if spin.recent.len() == WINDOW {
            spin.recent.remove(0);
        }
        spin.recent.push((print, version));
        print
    }

    /// A spinning thread may move again once shared state changed.
    pub(crate) fn spin_enabled(&self, t: Tid) -> bool {
        self.threads[t as usize].spin.awaiting.is_none_or(|v| self.shared_version > v)
    }
}
