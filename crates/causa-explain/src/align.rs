//! Which event of an interpreter run each access of the symbolic trace is,
//! for the values and object names the explanation shows.
//!
//! The two do not share addresses for every object: the symbolic executor
//! runs one thread's path after another and numbers the heap blocks and
//! escaped stack objects it meets in that order, the interpreter in the
//! run's order (a block the failing run numbered 0x13 can be 0x14 in the
//! symbolic trace, and the alternate run may number it otherwise again).
//! So each thread's accesses are paired in order with the run's events of
//! that thread: same kind, same offset, and an object that is either the
//! same one paired before or one not paired yet (on both sides), within a
//! few events of the last pair (the run may have accesses the symbolic
//! trace does not: a read of constant data is not one there).

use causa_core::collections::{HashMap, HashSet};
use causa_core::EventKind;
use causa_interp::Execution;
use causa_ir::{addr_alloc, addr_offset, make_addr};
use causa_symbolic::{EventRef, SymOp, SymTrace};
use std::collections::BTreeMap;

/// Marks the object numbers [`Alignment::to_symbolic`] gives the run's
/// objects it cannot pair and whose own number another object took.
const UNPAIRED: u32 = 1 << 31;

/// Object names by address.
pub type Names = BTreeMap<u64, String>;

/// Names of what bulk accesses span, by address and size.
pub type Spans = BTreeMap<(u64, u32), String>;

/// What the runs' records say of the objects events touch, by the symbolic
/// trace's address.
#[derive(Default)]
pub struct Objects {
    pub names: Names,
    /// The blocks frees free (`heap#1`).
    pub blocks: Names,
    pub spans: Spans,
    /// Plain accesses by address and size: a union's members (`st.word`
    /// for 8 bytes, `st.half.sent` for 4 at the same address).
    pub sized: Spans,
    /// The frames of the objects that are local variables.
    pub locals: BTreeMap<u64, causa_core::LocalOf>,
}

/// How far past the last paired event a thread's next access is looked for.
const LOOKAHEAD: usize = 16;

/// The run's events (indices into `run.events`) of the symbolic trace's
/// accesses, and the symbolic trace's object for each object of the run
/// that was paired.
pub(crate) struct Alignment {
    pub events: HashMap<EventRef, usize>,
    /// Run object → symbolic object.
    pub objects: HashMap<u32, u32>,
}

impl Alignment {
    /// The joins `run` made after each thread's last event paired with the
    /// trace's: past the events the trace has of that thread, so after
    /// every one of them in its program order.
    pub fn later_joins(&self, sym: &SymTrace, run: &Execution) -> Vec<crate::LaterJoin> {
        let mut out = Vec::new();
        for (t, th) in sym.threads.iter().enumerate() {
            let Some(&last) = (0..th.events.len()).filter_map(|k| self.events.get(&(t, k))).max() else { continue };
            for r in run.records.iter().skip(last + 1).filter(|r| r.kind == EventKind::Join && r.thread == th.thread) {
                if let Some(joins) = r.other_thread.as_ref().and_then(|c| sym.thread_index(c)) {
                    out.push(crate::LaterJoin { thread: t, joins, loc: r.location.clone() });
                }
            }
        }
        out
    }
}

/// An access's kind, address, whether the solver resolves the address,
/// and how many bytes from it the run's event may start at: a bulk call's
/// event is at its first shared byte the run wrote (or read), which for
/// `strcat` is the old string's end, anywhere in what the model reads.
fn access(op: &SymOp) -> Option<(EventKind, u64, bool, u64)> {
    match *op {
        SymOp::Read { addr, at, .. } => Some((EventKind::Read, addr, at.is_some() && addr == 0, 1)),
        SymOp::Write { addr, at, .. } => Some((EventKind::Write, addr, at.is_some() && addr == 0, 1)),
        SymOp::Rmw { addr, at, .. } => Some((EventKind::Rmw, addr, at.is_some() && addr == 0, 1)),
        // The interpreter's event of a bulk call writes when its
        // destination is shared.
        SymOp::Bulk { addr, size, ref writes, at, .. } => {
            let kind = if writes.is_empty() { EventKind::Read } else { EventKind::Write };
            Some((kind, addr, at.is_some(), size.max(1) as u64))
        }
        _ => None,
    }
}

///
/// `until`: (thread, k) when the run is an alternate where that thread takes
/// a branch the other way after its first k events of the trace: its later
/// events of the trace are another path's and are not paired (pairing them
/// with the new path's accesses would pair the run's objects wrongly: a
/// flipped thread that uses the block another thread allocated, where the
/// trace has it allocate its own, took that block from the other thread).
pub(crate) fn align(sym: &SymTrace, run: &Execution, until: Option<(usize, usize)>) -> Alignment {
    let mut by_thread: HashMap<&causa_core::ThreadName, Vec<usize>> = HashMap::default();
    for (i, ev) in run.events.iter().enumerate() {
        if matches!(ev.kind, EventKind::Read | EventKind::Write | EventKind::Rmw) {
            by_thread.entry(&run.names[ev.thread as usize]).or_default().push(i);
        }
    }
    // Under TSO/PSO a store's event is its flush, later than the thread's
    // next operations and, under PSO, out of order with its other stores:
    // the symbolic trace is in program order, so the run's events are
    // taken in program order too.
    let relaxed = run.memory_model.buffers_stores();
    if relaxed {
        for list in by_thread.values_mut() {
            list.sort_by_key(|i| run.events[*i].po);
        }
    }
    // Symbolic object → run object, and the run objects taken.
    let mut pairs: HashMap<u32, u32> = HashMap::default();
    let mut taken: HashSet<u32> = HashSet::default();
    let mut events = HashMap::default();
    for (t, th) in sym.threads.iter().enumerate() {
        let Some(list) = by_thread.get(&th.thread) else { continue };
        let mut next = 0;
        for (k, e) in th.events.iter().enumerate() {
            if until.is_some_and(|(ut, uk)| ut == t && k >= uk) {
                break;
            }
            let Some((kind, addr, unknown, span)) = access(&e.op) else { continue };
            let (obj, off) = (addr_alloc(addr), addr_offset(addr));
            let fits = |i: usize| {
                let ev = &run.events[i];
                if ev.kind != kind {
                    return false;
                }
                // Under TSO/PSO a store the run never flushed has no event:
                // the next one of the thread must be the same instruction.
                if relaxed && ev.loc != e.loc {
                    return false;
                }
                // An address the solver resolves: any of the kind will do,
                // from the same instruction (a thread that leaves a loop
                // one turn earlier in the alternate run has no second
                // `strcmp` of a list's names: its next read, of the list's
                // head when it adds to it, is not that `strcmp`).
                if unknown {
                    return ev.loc == e.loc;
                }
                let (o, f) = (addr_alloc(ev.addr), addr_offset(ev.addr));
                (off..off + span).contains(&f)
                    && match pairs.get(&obj) {
                        Some(p) => *p == o,
                        None => !taken.contains(&o),
                    }
            };
            let end = (next + LOOKAHEAD).min(list.len());
            let Some(j) = (next..end).find(|j| fits(list[*j])) else { continue };
            let i = list[j];
            if !unknown {
                let o = addr_alloc(run.events[i].addr);
                if pairs.insert(obj, o).is_none() {
                    taken.insert(o);
                }
            }
            events.insert((t, k), i);
            next = j + 1;
        }
    }
    Alignment { events, objects: pairs.into_iter().map(|(s, r)| (r, s)).collect() }
}

/// The interpreter's event kinds a synchronisation event of the symbolic
/// trace can be (empty for an access).
pub(crate) fn sync_kinds(op: &SymOp) -> &'static [EventKind] {
    match op {
        SymOp::Begin => &[EventKind::Begin],
        SymOp::End => &[EventKind::End],
        SymOp::Fork { .. } => &[EventKind::Fork],
        SymOp::Join { .. } => &[EventKind::Join],
        SymOp::Free { .. } => &[EventKind::Free],
        SymOp::Destroy { .. } => &[EventKind::Destroy],
        SymOp::Lock { shared: true, .. } => &[EventKind::ReadLock],
        SymOp::Lock { .. } | SymOp::Relock { .. } => &[EventKind::Lock, EventKind::WriteLock],
        SymOp::Unlock { .. } | SymOp::Reunlock { .. } => &[EventKind::Unlock, EventKind::RwUnlock],
        SymOp::TrylockFail { .. } => &[EventKind::TrylockFail],
        SymOp::Wait { .. } => &[EventKind::Wait],
        SymOp::WaitReturn { .. } => &[EventKind::WaitReturn],
        SymOp::Signal { .. } => &[EventKind::Signal],
        SymOp::Broadcast { .. } => &[EventKind::Broadcast],
        SymOp::SemWait { .. } | SymOp::SemFail { .. } => &[EventKind::SemWait],
        SymOp::SemPost { .. } => &[EventKind::SemPost],
        SymOp::Arrive { .. } | SymOp::Depart { .. } => &[EventKind::BarrierWait],
        SymOp::AtomicBegin => &[EventKind::AtomicBegin],
        SymOp::AtomicEnd => &[EventKind::AtomicEnd],
        SymOp::Fence => &[EventKind::Fence],
        SymOp::Yield => &[EventKind::Yield, EventKind::Sleep],
        SymOp::OnceCall { .. } | SymOp::OnceResume { .. } | SymOp::OnceDone { .. } => &[EventKind::Once],
        _ => &[],
    }
}

impl Alignment {
    /// Where in `run` each event of the symbolic trace happened, as far as
    /// it can tell: the paired accesses, and each synchronisation event
    /// paired in order with the thread's next run event of its kind after
    /// the last paired one (within [`LOOKAHEAD`] events).
    pub fn positions(&self, sym: &SymTrace, run: &Execution) -> HashMap<EventRef, usize> {
        let mut by_thread: HashMap<&causa_core::ThreadName, Vec<usize>> = HashMap::default();
        for (i, ev) in run.events.iter().enumerate() {
            by_thread.entry(&run.names[ev.thread as usize]).or_default().push(i);
        }
        let mut out = self.events.clone();
        for (t, th) in sym.threads.iter().enumerate() {
            let Some(list) = by_thread.get(&th.thread) else { continue };
            // Index in `list` of the next run event to look at.
            let mut next = 0;
            for (k, e) in th.events.iter().enumerate() {
                if let Some(i) = self.events.get(&(t, k)) {
                    next = list.partition_point(|j| j <= i);
                    continue;
                }
                let kinds = sync_kinds(&e.op);
                if kinds.is_empty() {
                    continue;
                }
                let end = (next + LOOKAHEAD).min(list.len());
                if let Some(j) = (next..end).find(|j| kinds.contains(&run.events[list[*j]].kind)) {
                    out.insert((t, k), list[j]);
                    next = j + 1;
                }
            }
        }
        out
    }

    /// The symbolic trace's address for an address of the run: through the
    /// paired object, else the same (objects nobody renumbered: globals).
    pub fn to_symbolic(&self, addr: u64) -> Option<u64> {
        let o = addr_alloc(addr);
        match self.objects.get(&o) {
            Some(s) => Some(make_addr(*s, addr_offset(addr))),
            // The run's object was not paired: the same number is the same
            // object unless the symbolic trace paired it with another.
            None if !self.objects.values().any(|s| *s == o) => Some(addr),
            // Then it is an object of its own, under a number no object of
            // the symbolic trace has (a block its thread reaches only
            // through a pointer it published: left without an address, two
            // such accesses looked like one location, and one read "read"
            // the other's write).
            None => Some(make_addr(UNPAIRED | o, addr_offset(addr))),
        }
    }

    /// Where `run`'s accesses went whose address the solver resolves (the
    /// symbolic trace has none for them), as symbolic trace addresses.
    /// A `free` of a pointer computed from shared data is found by its
    /// place among the thread's synchronisation events.
    pub fn resolved(&self, sym: &SymTrace, run: &Execution) -> BTreeMap<EventRef, u64> {
        let mut out: BTreeMap<EventRef, u64> = self
            .events
            .iter()
            .filter(|((t, k), _)| access(&sym.threads[*t].events[*k].op).is_some_and(|a| a.2))
            .filter_map(|(r, i)| Some((*r, self.to_symbolic(run.events[*i].addr)?)))
            .collect();
        let computed_free =
            |(t, k): &EventRef| matches!(sym.threads[*t].events[*k].op, SymOp::Free { at: Some(_), .. });
        for (r, i) in self.positions(sym, run) {
            if computed_free(&r) && run.events[i].kind == EventKind::Free {
                if let Some(a) = self.to_symbolic(run.events[i].addr) {
                    out.insert(r, a);
                }
            }
        }
        out
    }

    /// The bytes (from, to) of each paired `strcat` the run wrote: its
    /// event is at the old string's end and spans the string appended,
    /// where the model writes every byte of the object.
    pub fn appended(&self, sym: &SymTrace, run: &Execution) -> BTreeMap<EventRef, (u64, u64)> {
        let strcat =
            |(t, k): &EventRef| matches!(sym.threads[*t].events[*k].op, SymOp::Bulk { what: "strcat" | "strncat", .. });
        let mut out = BTreeMap::new();
        for (r, i) in self.events.iter().filter(|(r, _)| strcat(r)) {
            let ev = &run.events[*i];
            if let (EventKind::Write, Some(a)) = (ev.kind, self.to_symbolic(ev.addr)) {
                out.insert(*r, (a, a + ev.size as u64));
            }
        }
        out
    }

    /// The events of thread `t` in `run` after its first `before` events
    /// of the symbolic trace: where a thread that takes another branch
    /// there goes instead (the trace's events that `run`'s do not pair with
    /// and that come after the last paired access, a lock say, are taken to
    /// be the run's next ones).
    pub fn after(
        &self,
        sym: &SymTrace,
        run: &Execution,
        t: usize,
        before: usize,
    ) -> Vec<causa_core::event::EventRecord> {
        let name = &sym.threads[t].thread;
        let last = self.events.iter().filter(|((u, k), _)| *u == t && *k < before).max_by_key(|(_, i)| **i);
        let (from, unpaired) = match last {
            Some(((_, k), i)) => (i + 1, before - k - 1),
            None => (0, before),
        };
        (from..run.events.len())
            .filter(|i| &run.names[run.events[*i].thread as usize] == name)
            .skip(unpaired)
            .filter_map(|i| run.records.get(i).cloned())
            .collect()
    }

    /// The values `run` read or wrote at the symbolic trace's accesses
    /// (`old→new` for a read-modify-write).
    pub fn values(&self, run: &Execution) -> BTreeMap<EventRef, String> {
        let mut out = BTreeMap::new();
        for (r, i) in &self.events {
            let Some(rec) = run.records.get(*i) else { continue };
            let v = match (&rec.value, &rec.new_value) {
                (Some(v), Some(n)) => format!("{v}→{n}"),
                (Some(v), None) => v.clone(),
                _ => continue,
            };
            out.insert(*r, v);
        }
        out
    }

    /// Names of the objects of `run`'s events (`balance`, `heap#1.len`, a
    /// mutex), by the symbolic trace's address, added to `names` where it
    /// has none yet; the blocks its frees free (`heap#1`, whose first
    /// field has the same address) to `blocks`.
    pub fn name_objects(
        &self,
        sym: &SymTrace,
        run: &Execution,
        Objects { names, blocks, spans, sized, locals }: &mut Objects,
    ) {
        // A bulk event of the symbolic trace is named by its own record,
        // under its own address and size (the model may read more bytes, or
        // other spans, than the run: several records can share an address
        // and size).
        let mut paired: Vec<(&EventRef, &usize)> = self.events.iter().collect();
        paired.sort();
        for ((t, k), i) in paired {
            let Some(name) = run.records.get(*i).and_then(|r| r.span()) else { continue };
            let (addr, size) = match &sym.threads[*t].events[*k].op {
                // (A run's `strcat` starts at the old string's end: its
                // record names that part, not what the model reads.)
                // A string read through a computed pointer: where the run's went.
                SymOp::Bulk { size, at: Some(_), .. } => {
                    let Some(a) = run.events.get(*i).and_then(|e| self.to_symbolic(e.addr)) else { continue };
                    (a, *size)
                }
                SymOp::Bulk { addr, size, .. }
                    if run.events.get(*i).and_then(|e| self.to_symbolic(e.addr)) == Some(*addr) =>
                {
                    (*addr, *size)
                }
                SymOp::Bulk { .. } => continue,
                // A copy through a computed address: where the run's went.
                SymOp::Read { size, at: Some(_), .. }
                | SymOp::Write { size, at: Some(_), .. }
                | SymOp::Rmw { size, at: Some(_), .. } => {
                    let Some(a) = run.events.get(*i).and_then(|e| self.to_symbolic(e.addr)) else { continue };
                    (a, *size)
                }
                _ => continue,
            };
            spans.entry((addr, size)).or_insert_with(|| name.to_string());
        }
        for (ev, rec) in run.events.iter().zip(&run.records) {
            let (Some(o), Some(a)) = (&rec.object, self.to_symbolic(ev.addr)) else { continue };
            // A bulk access's record names what it spans.
            if let Some(name) = rec.span() {
                spans.entry((a, ev.size)).or_insert_with(|| name.to_string());
                continue;
            }
            if ev.kind != EventKind::Free {
                sized.entry((a, ev.size)).or_insert_with(|| o.clone());
            }
            let to = if ev.kind == EventKind::Free { &mut *blocks } else { &mut *names };
            to.entry(a).or_insert_with(|| o.clone());
            if let Some(l) = &rec.local_of {
                locals.entry(a).or_insert_with(|| l.clone());
            }
        }
        // What the blocked operations of a deadlock wait on (a semaphore
        // no event of the run touched).
        for ev in &run.blocked {
            if let (Some(name), Some(a)) = (run.blocked_names.get(&ev.addr), self.to_symbolic(ev.addr)) {
                names.entry(a).or_insert_with(|| name.clone());
            }
        }
    }
}
