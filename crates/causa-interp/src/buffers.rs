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
//! A load of bytes the thread itself has buffered waits until those stores are
//! flushed: there is no store-to-load forwarding. This is the semantics MCR for
//! TSO/PSO encodes (Huang's dissertation §2.2, Φ_addr orders a thread's write
//! before its later read of the same address), so what `causa check` explores
//! and what the interpreter runs agree. It forbids the few TSO outcomes that need
//! forwarding (a thread reading its own store before any other thread can see
//! it, while also reading another location stale).
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
use causa_ir::{LocId, Op};

/// One buffered store.
#[derive(Clone, Debug)]
pub struct Buffered {
    pub addr: u64,
    pub bytes: Vec<u8>,
    /// The stored value as an integer (for the event).
    pub value: u128,
    /// Source location of the store.
    pub loc: LocId,
    /// Its place in the thread's program order ([`Event::po`]).
    pub po: u32,
}

impl Buffered {
    fn overlaps(&self, addr: u64, len: u64) -> bool {
        addr < self.addr + self.bytes.len() as u64 && self.addr < addr.saturating_add(len)
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
    pub(crate) fn buffer_store(&mut self, t: Tid, addr: u64, bytes: Vec<u8>, value: u128) -> Result<(), Stop> {
        self.mem.check(addr, bytes.len() as u64, Access::Write, &|x| self.describe(x))?;
        let th = &mut self.threads[t as usize];
        let (loc, po) = (th.loc, th.ops);
        th.ops += 1;
        if self.buffers.len() <= t as usize {
            self.buffers.resize_with(t as usize + 1, Vec::new);
        }
        self.buffers[t as usize].push(Buffered { addr, bytes, value, loc, po });
        Ok(())
    }

    /// Whether a load of `len` bytes at `addr` by `t` touches a store `t` buffered.
    fn reads_own_buffer(&self, t: Tid, addr: u64, len: u64) -> bool {
        self.buffer(t).iter().any(|b| b.overlaps(addr, len))
    }

    /// Whether `t`'s buffer holds stores that must be flushed before `t`'s next
    /// step can happen (see the module docs).
    pub(crate) fn must_drain(&self, t: Tid) -> bool {
        let th = &self.threads[t as usize];
        if self.buffer(t).is_empty() {
            return false;
        }
        if th.atomic_depth > 0 || th.pending != Pending::Instr {
            return true;
        }
        let Some(fr) = th.frames.last() else { return true };
        let body = self.prep.program.functions[fr.func as usize].body.as_ref().expect("defined");
        match body.blocks[fr.block as usize].instrs.get(fr.ip as usize).map(|i| &i.op) {
            Some(Op::Load { addr, ty, .. }) => {
                let a = crate::step::int(&fr.regs, addr) as u64;
                self.reads_own_buffer(t, a, ty.store_size())
            }
            _ => true,
        }
    }

    /// The stores that can be flushed now, as `(thread, address)`.
    pub(crate) fn flushable(&self, out: &mut Vec<(Tid, u64)>) {
        out.clear();
        let only = self.threads.iter().position(|t| t.atomic_depth > 0 && !t.is_finished());
        for (t, buf) in self.buffers.iter().enumerate() {
            if only.is_some_and(|o| o != t) {
                continue;
            }
            match self.cfg.memory_model {
                MemoryModel::Sc => {}
                MemoryModel::Tso => out.extend(buf.first().map(|b| (t as Tid, b.addr))),
                MemoryModel::Pso => {
                    for (i, b) in buf.iter().enumerate() {
                        let len = b.bytes.len() as u64;
                        if !buf[..i].iter().any(|o| o.overlaps(b.addr, len)) {
                            out.push((t as Tid, b.addr));
                        }
                    }
                }
            }
        }
    }

    /// Flush `t`'s oldest buffered store to `addr`: write it to memory and record
    /// its `write` event. Then, if the buffer is empty and `t` waits at a fence or
    /// a library call, run `t` on to its next visible operation.
    pub(crate) fn flush(&mut self, t: Tid, addr: u64) -> Result<(), Stop> {
        let i = self.buffer(t).iter().position(|b| b.addr == addr).expect("the scheduler flushes a buffered store");
        let b = self.buffers[t as usize].remove(i);
        self.threads[t as usize].loc = b.loc;
        let old = self.replace_bytes(b.addr, &b.bytes)?;
        let old = old.iter().rev().fold(0u128, |acc, x| (acc << 8) | *x as u128);
        self.shared_version += 1;
        let size = b.bytes.len() as u32;
        let ev = Event {
            thread: t,
            kind: EventKind::Write,
            loc: b.loc,
            addr: b.addr,
            size,
            value: b.value,
            value2: old,
            atomic: false,
            section: 0,
            po: b.po,
        };
        self.events.push(ev);
        if self.buffer(t).is_empty() && self.threads[t as usize].pending == Pending::Instr {
            self.advance(t)?;
        }
        Ok(())
    }
}
