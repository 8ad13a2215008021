//! Busy-wait detection ("await").
//!
//! A thread that spins (`while (!flag) {}`) would run forever under a schedule
//! that never lets the others move. At every visible read, the machine fingerprints
//! the reading thread's whole local state (call stack positions, every frame's
//! registers but those nothing the thread does depends on, the address and the
//! value read). If the thread reaches the same
//! fingerprint again while no other thread changed anything the loop observed
//! since (the locations it read, the objects its failed trylocks looked at)
//! and it changed nothing itself, its next iteration can only repeat this one:
//! it is parked until another thread changes something the loop observed. A
//! thread whose spin nobody can end is reported with the deadlock, as waiting
//! for a write.
//!
//! A polling loop that takes a lock each time round (`lock; f = flag; unlock;
//! if (f) break;`) changes the mutex itself, so its reads never repeat with
//! nothing changed. It is parked at its unlock instead, where it holds no
//! mutex: an unlock that repeats an earlier unlock's fingerprint, with nothing
//! changed in between by the thread but its own locks and unlocks, and
//! nothing it observed (the data it read, the mutexes it took) changed by
//! another thread, parks the thread until another thread changes something
//! it observed (taking one of those mutexes counts).
//!
//! A loop around `pthread_cond_timedwait` spins the same way when the wait keeps
//! timing out: each timed wait is fingerprinted too (the wait's event keeps the
//! fingerprint), and a timed wait that repeats an earlier one's fingerprint, with
//! nothing changed in between but the waits' own releases and re-acquisitions
//! of their mutexes, may time out again only after another thread changed something the
//! loop observed; until then only a wake-up lets it return. (Approximation: two
//! threads looping on timed waits of one mutex wake each other's loops through
//! that mutex, so such loops are not cut short.)

use crate::machine::Machine;
use causa_core::{overlaps, Event, EventKind, Tid};
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
    /// (fingerprint, index of the wait's event) of recent timed waits.
    recent_waits: Vec<(u64, usize)>,
    /// (fingerprint, index of the unlock's event) of recent unlocks after
    /// which the thread held no mutex.
    recent_unlocks: Vec<(u64, usize)>,
    /// The current timed wait may not time out before a change to what its
    /// loop observed.
    pub timeout_await: Option<Await>,
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

/// Why `now` repeats `since` in a loop that changed nothing: the events of `t`
/// from `since` to `now` (both fingerprinted alike) change nothing but what
/// `exempt` allows, and no other thread changed what they observed. Returns the
/// loop's await (what it observed).
fn repeats(events: &[Event], t: Tid, since: usize, now: usize, exempt: impl Fn(&Event) -> bool) -> Option<Await> {
    let between = &events[since..=now];
    let mine = between.iter().filter(|e| e.thread == t);
    let changed_itself = mine.clone().any(|e| e.changes_shared_state() && !exempt(e));
    let observed: Vec<(u64, u64)> = mine.flat_map(|e| e.footprint()).collect();
    let repeated = !changed_itself && !between.iter().any(|e| changes(e, t, &observed));
    repeated.then(|| Await { observed, checked: Cell::new(now + 1), woken: Cell::new(false) })
}

/// The fingerprint of thread `t`'s local state (positions in its call stack,
/// the top frame's registers) and `extra`.
fn fingerprint(m: &Machine, t: Tid, extra: impl Hash) -> u64 {
    let th = &m.threads[t as usize];
    let mut h = std::collections::hash_map::DefaultHasher::new();
    // Every frame's registers, the callers' too: a loop whose turns call
    // the function that reads (`for (i = 0; i < 4; i++) pop();`) differs
    // from turn to turn only in the caller's counter (it was taken for a
    // spin after two turns that read the same empty stack, and reported
    // as a deadlock). Registers nothing the thread does depends on are
    // left out (a counter of turns nobody reads): `causa_ir::fingerprint`.
    for f in &th.frames {
        (f.func, f.block, f.ip).hash(&mut h);
        let body = m.prep.program.functions[f.func as usize].body.as_ref();
        let covered = body.map(|b| b.fingerprinted.as_slice()).unwrap_or_default();
        for (i, v) in f.regs.iter().enumerate() {
            if covered.get(i).copied().unwrap_or(true) {
                hash_value(v, &mut h);
            }
        }
    }
    extra.hash(&mut h);
    h.finish()
}

/// Remember `(print, now)` among the last [`WINDOW`].
fn remember(recent: &mut Vec<(u64, usize)>, print: u64, now: usize) {
    if recent.len() == WINDOW {
        recent.remove(0);
    }
    recent.push((print, now));
}

/// Whether the await has seen a change by another thread than `t`.
fn woken(m: &Machine, t: Tid, a: &Await) -> bool {
    if !a.woken.get() {
        let from = a.checked.get().min(m.events.len());
        a.woken.set(m.events[from..].iter().any(|e| changes(e, t, &a.observed)));
        a.checked.set(m.events.len());
    }
    a.woken.get()
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
    e.thread != t && e.changes_shared_state() && overlaps(observed, e.footprint())
}

impl Machine {
    /// Called after thread `t` read `value` at `addr` in a visible step, by a
    /// read or by an rmw that wrote the value back (its event is the last one
    /// recorded, and keeps the fingerprint in its `print` for the constraint
    /// model's mirror).
    pub(crate) fn note_read(&mut self, t: Tid, addr: u64, value: u128) {
        let print = fingerprint(self, t, (addr, value));
        if let Some(a) = self.repeated(t, print, |s| &mut s.recent, |_| false) {
            self.threads[t as usize].spin.awaiting = Some(a);
        }
        self.keep_print(print);
    }

    /// Called after thread `t`'s rmw at `addr` (the last event recorded):
    /// one that wrote back the value it read (a failed test-and-set or
    /// compare-and-swap) changed nothing and is a read for busy-wait
    /// detection, so a spin lock's waiting loop is parked like a read loop.
    pub(crate) fn note_unchanged_rmw(&mut self, t: Tid, addr: u64) {
        let Some(e) = self.events.last() else { return };
        if !e.changes_shared_state() {
            let value = e.value;
            self.note_read(t, addr, value);
        }
    }

    /// The last event keeps `print`.
    fn keep_print(&mut self, print: u64) {
        if let Some(e) = self.events.last_mut() {
            e.print = print;
        }
    }

    /// The loop the last event of thread `t` closes, if it repeats (with
    /// fingerprint `print`) an earlier event among those `window` keeps,
    /// with nothing changed in between but what `exempt` allows; the event
    /// is then remembered in `window`.
    fn repeated(
        &mut self,
        t: Tid,
        print: u64,
        window: fn(&mut SpinState) -> &mut Vec<(u64, usize)>,
        exempt: impl Fn(&Event) -> bool,
    ) -> Option<Await> {
        let now = self.events.len() - 1;
        let recent = window(&mut self.threads[t as usize].spin);
        let earlier = recent.iter().rev().find(|(p, _)| *p == print).map(|(_, i)| *i);
        let a = earlier.and_then(|since| repeats(&self.events, t, since, now, exempt));
        remember(window(&mut self.threads[t as usize].spin), print, now);
        a
    }

    /// Called after thread `t` released `mutex` (its unlock event is the last
    /// one recorded, and keeps the fingerprint, never 0, in its `print`; 0
    /// when the thread still holds a mutex or a read-write lock: a loop is
    /// not parked while it holds one).
    pub(crate) fn note_unlock(&mut self, t: Tid, mutex: u64) {
        let holds = self.sync.mutexes.values().any(|x| x.owner == Some(t))
            || self.sync.rwlocks.values().any(|l| l.writer == Some(t) || l.readers.contains(&t));
        if holds {
            return self.keep_print(0);
        }
        let print = fingerprint(self, t, (mutex, u64::MAX)) | 1;
        // Its own locks and unlocks (of mutexes and read-write locks, which
        // the constraint model's mirror does not tell apart): it holds none
        // here, so they are as they were.
        let own = |e: &Event| {
            use EventKind::*;
            matches!(e.kind, Lock | WriteLock | ReadLock | Unlock | RwUnlock)
        };
        if let Some(a) = self.repeated(t, print, |s| &mut s.recent_unlocks, own) {
            self.threads[t as usize].spin.awaiting = Some(a);
        }
        self.keep_print(print);
    }

    /// Called when thread `t` starts a timed wait on `cond` releasing `mutex`
    /// (its `wait` event is the last one recorded, and keeps the fingerprint,
    /// never 0).
    pub(crate) fn note_timed_wait(&mut self, t: Tid, cond: u64, mutex: u64) {
        let print = fingerprint(self, t, (cond, mutex)) | 1;
        // Its waits release the mutex and their returns re-acquire it.
        let waits = |e: &Event| matches!(e.kind, EventKind::Wait | EventKind::WaitReturn);
        self.threads[t as usize].spin.timeout_await = self.repeated(t, print, |s| &mut s.recent_waits, waits);
        self.keep_print(print);
    }

    /// Whether thread `t`'s current timed wait may time out now.
    pub(crate) fn timeout_enabled(&self, t: Tid) -> bool {
        self.threads[t as usize].spin.timeout_await.as_ref().is_none_or(|a| woken(self, t, a))
    }

    /// A spinning thread may move again once another thread changed something
    /// its loop observed.
    pub(crate) fn spin_enabled(&self, t: Tid) -> bool {
        self.threads[t as usize].spin.awaiting.as_ref().is_none_or(|a| woken(self, t, a))
    }
}
