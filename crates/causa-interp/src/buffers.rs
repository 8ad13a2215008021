//! Store buffers for TSO and PSO (see [`causa_core::MemoryModel`]).
//!
//! A plain store to shared memory made outside an uninterruptible section does
//! not touch memory: it is appended to its thread's buffer (an invisible
//! operation: the memory checks happen here, at the store). It becomes visible
//! in a step of its own, a *flush*, which the scheduler chooses like any other
//! step and which records the store's `write` event. The oldest store of a thread
//! is flushable under TSO; under PSO every store with no older overlapping store
//! of the same thread is.
//!
//! A load reads the thread's own buffer first (store-to-load forwarding): when
//! the youngest buffered store that overlaps the loaded bytes covers exactly
//! them, the load returns its value at once, before any other thread can see
//! it (x86-TSO's `x=1; r1=x; r2=y ∥ y=1; r3=y; r4=x` with r1 = r3 = 1 and
//! r2 = r4 = 0). A load that overlaps buffered stores only in part waits until
//! they are flushed. The constraint models encode the same rule (a read of
//! the thread's own unflushed store returns that store's value; see
//! `causa_constraints::encode::relaxed`).
//!
//! Every other visible operation (fences, which are visible under TSO/PSO,
//! atomic operations, synchronisation, thread end, `exit`), a call into a
//! modelled library function that gets a pointer into shared memory, and
//! anything inside an uninterruptible section wait until the thread's buffer is
//! empty: such a thread is not enabled, only its flushes are. When a flush
//! empties the buffer of a thread held at a library call, that thread runs on
//! to its next visible operation in the same step.

use crate::machine::Machine;
use crate::memory::Access;
use crate::outcome::Stop;
use crate::thread::Pending;
use causa_core::{Event, EventKind, MemoryModel, Tid};
use causa_ir::{LocId, Ty, Value};

/// One buffered store.
#[derive(Clone, Debug)]
pub struct Buffered {
    pub addr: u64,
    pub ty: Ty,
    pub value: Value,
    /// Source location of the store.
    pub loc: LocId,
    /// Its place in the thread's program order ([`Event::po`]).
    pub po: u32,
}

impl Buffered {
    /// The `write` event of this store's flush by `thread`, over `old`.
    fn write_event(&self, thread: Tid, old: u128) -> Event {
        Event {
            thread,
            kind: EventKind::Write,
            loc: self.loc,
            addr: self.addr,
            size: self.ty.store_size() as u32,
            value: self.value.as_int(),
            value2: old,
            print: 0,
            atomic: false,
            section: 0,
            po: self.po,
        }
    }

    fn overlaps(&self, addr: u64, len: u64) -> bool {
        addr < self.addr + self.ty.store_size() && self.addr < addr.saturating_add(len)
    }
}

impl Machine {
    /// Whether stores of `t` at this point go to its store buffer.
    pub(crate) fn buffers_stores(&self, t: Tid) -> bool {
        self.cfg.memory_model.buffers_stores() && self.threads[t as usize].atomic_depth == 0
    }

    fn buffer(&self, t: Tid) -> &[Buffered] {
        self.buffers.get(t as usize).map_or(&[], |b| b.as_slice())
    }

    /// Append a store of `t` to its buffer, after the memory checks a store makes.
    pub(crate) fn buffer_store(&mut self, t: Tid, addr: u64, ty: &Ty, value: Value) -> Result<(), Stop> {
        self.mem.check(addr, ty.store_size(), Access::Write, self)?;
        let th = &mut self.threads[t as usize];
        let (loc, po) = (th.loc, th.ops);
        th.ops += 1;
        if self.buffers.len() <= t as usize {
            self.buffers.resize_with(t as usize + 1, Vec::new);
        }
        self.buffers[t as usize].push(Buffered { addr, ty: ty.clone(), value, loc, po });
        Ok(())
    }

    /// Whether a load of `len` bytes at `addr` by `t` touches a store `t` buffered.
    fn reads_own_buffer(&self, t: Tid, addr: u64, len: u64) -> bool {
        self.buffer(t).iter().any(|b| b.overlaps(addr, len))
    }

    /// The buffered store of `t` that a load of `len` bytes at `addr` reads
    /// (store-to-load forwarding): the youngest one overlapping those bytes,
    /// when it covers exactly them.
    pub(crate) fn forwarding(&self, t: Tid, addr: u64, len: u64) -> Option<&Buffered> {
        let b = self.buffer(t).iter().rev().find(|b| b.overlaps(addr, len))?;
        (b.addr == addr && b.ty.store_size() == len).then_some(b)
    }

    /// Whether `t`'s buffer holds stores that must be flushed before `t`'s next
    /// step can happen (see the module docs).
    pub(crate) fn must_drain(&self, t: Tid) -> bool {
        if self.buffer(t).is_empty() {
            return false;
        }
        if self.threads[t as usize].atomic_depth > 0 {
            return true;
        }
        // A plain load may overtake the buffered stores it does not read.
        match crate::race::parked_access(self, t) {
            Some((a, len, false, _)) => self.reads_own_buffer(t, a, len) && self.forwarding(t, a, len).is_none(),
            _ => true,
        }
    }

    /// The stores that can be flushed now, as `(thread, address)`.
    pub(crate) fn flushable(&self, out: &mut Vec<(Tid, u64)>) {
        out.clear();
        let only = self.section_owner();
        for (t, buf) in self.buffers.iter().enumerate() {
            if only.is_some_and(|o| o as usize != t) {
                continue;
            }
            match self.cfg.memory_model {
                MemoryModel::Sc => {}
                MemoryModel::Tso => out.extend(buf.first().map(|b| (t as Tid, b.addr))),
                MemoryModel::Pso => {
                    for (i, b) in buf.iter().enumerate() {
                        if !buf[..i].iter().any(|o| o.overlaps(b.addr, b.ty.store_size())) {
                            out.push((t as Tid, b.addr));
                        }
                    }
                }
            }
        }
    }

    /// The stores still in the buffers when the execution stopped (a failure,
    /// `exit` or the step bound cut it short), oldest first per thread, as
    /// the `write` events their flushes would record next. They never became
    /// visible in this run, but in another order they could have: the
    /// constraint model needs them to ask for reads of their values.
    pub(crate) fn unflushed_events(&self) -> Vec<Event> {
        let mut out = Vec::new();
        for (t, buf) in self.buffers.iter().enumerate() {
            for b in buf {
                // What the flush would overwrite now (a block freed since:
                // nothing readable, 0).
                let old = self.load(b.addr, &b.ty).map(|v| v.as_int()).unwrap_or(0);
                out.push(b.write_event(t as Tid, old));
            }
        }
        out
    }

    /// Flush `t`'s oldest buffered store to `addr`: write it to memory and record
    /// its `write` event. Then, if the buffer is empty and `t` waits at a fence or
    /// a library call, run `t` on to its next visible operation.
    pub(crate) fn flush(&mut self, t: Tid, addr: u64) -> Result<(), Stop> {
        let i = self.buffer(t).iter().position(|b| b.addr == addr).expect("the scheduler flushes a buffered store");
        let b = self.buffers[t as usize].remove(i);
        // A memory error of the flush is reported at the store's line; the
        // thread then goes on where it was (its parked operation keeps its
        // own line: a load recorded after this flush was shown at the
        // store's line before).
        let at = std::mem::replace(&mut self.threads[t as usize].loc, b.loc);
        // As a store under SC: the event keeps the value it overwrote.
        let old = self.load(b.addr, &b.ty)?.as_int();
        self.store(b.addr, &b.ty, &b.value)?;
        self.threads[t as usize].loc = at;
        self.shared_version += 1;
        self.events.push(b.write_event(t, old));
        if self.buffer(t).is_empty() && self.threads[t as usize].pending == Pending::Instr {
            self.advance(t)?;
        }
        Ok(())
    }
}
