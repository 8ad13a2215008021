//! Memory instructions: alloca, load, store, atomics. Accesses to memory other
//! threads can reach are visible operations and are recorded as events.

use super::arith::{int, rmw, val};
use super::Flow;
use crate::machine::Machine;
use crate::memory::Access;
use crate::outcome::Stop;
use causa_core::{EventKind, Tid};
use causa_ir::value::{decode, encode};
use causa_ir::{Instr, Op, Ty, Value};

impl Machine {
    /// The address of thread `t`'s instance of thread-local global `g`,
    /// made (from the global's initial value) at the thread's first use
    /// (it dies when the thread ends: `release_thread_resources`).
    fn thread_local(&mut self, t: Tid, g: u32) -> Result<u64, Stop> {
        if let Some((_, a)) = self.threads[t as usize].thread_locals.iter().find(|(x, _)| *x == g) {
            return Ok(*a);
        }
        let init = &self.prep.program.globals[g as usize].init;
        let a = self
            .mem
            .alloc_thread_local(t, g, init)
            .ok_or_else(|| Stop::Bound("the program's address space is exhausted".into()))?;
        self.threads[t as usize].thread_locals.push((g, a));
        Ok(a)
    }

    pub(super) fn exec_memory(&mut self, t: Tid, ins: &Instr, granted: bool) -> Result<Flow, Stop> {
        let fr = self.threads[t as usize].frames.last().expect("frame");
        let v = match &ins.op {
            Op::Alloca { size, count, name, ty, .. } => {
                let n = int(&fr.regs, count) as u64;
                let func = self.prep.program.functions[fr.func as usize].name.clone();
                let total = size.saturating_mul(n);
                if total > u32::MAX as u64 {
                    return Err(Stop::memory(format!("stack allocation of {total} bytes is too large")));
                }
                let addr = self
                    .mem
                    .alloc_stack(total, t, (name.clone(), ty.clone()), func)
                    .ok_or_else(|| Stop::Bound("the program's address space is exhausted".into()))?;
                self.threads[t as usize].frames.last_mut().expect("frame").allocas.push(addr);
                Value::Int(addr as u128)
            }
            Op::Load { addr, ty, atomic } => {
                let a = int(&fr.regs, addr) as u64;
                if !granted && self.mem.is_shared(a) {
                    return Ok(Flow::Park);
                }
                let size = ty.store_size();
                if granted {
                    self.check_race(t, a, size, false, *atomic)?;
                }
                let bytes = self.mem.read(a, size, self)?;
                let mut v = decode(ty, bytes);
                if let Some(b) = self.forwarding(t, a, size) {
                    // The thread's own buffered store (store-to-load forwarding).
                    let mut own = vec![0u8; size as usize];
                    causa_ir::value::encode(&b.ty, &b.value, &mut own);
                    v = decode(ty, &own);
                }
                if granted {
                    self.record(t, EventKind::Read, a, size as u32, v.as_int(), 0, *atomic);
                    self.note_read(t, a, v.as_int());
                }
                v
            }
            Op::Store { addr, val: x, ty, atomic } => {
                let a = int(&fr.regs, addr) as u64;
                let v = val(&fr.regs, x);
                let buffered = !granted && !*atomic && self.mem.is_shared(a) && self.buffers_stores(t);
                if !granted && self.mem.is_shared(a) && !buffered {
                    return Ok(Flow::Park);
                }
                // A visible write remembers the value it overwrote: the value of
                // the location before its first write is its initial value.
                let old = if granted {
                    self.check_race(t, a, ty.store_size(), true, *atomic)?;
                    self.mem.check(a, ty.store_size(), Access::Write, self)?;
                    self.load(a, ty)?.as_int()
                } else {
                    0
                };
                if buffered {
                    self.buffer_store(t, a, ty, v.clone())?;
                } else {
                    self.store(a, ty, &v)?;
                }
                // A pointer to a stack object stored into shared memory (also
                // as an integer, or inside a struct) makes that object
                // reachable by other threads; one stored into private memory
                // does when that memory escapes (`Memory::escape`).
                match ty {
                    _ if !self.mem.is_shared(a) => {}
                    Ty::Ptr | Ty::Int(32 | 64) => self.mem.escape(v.as_addr()),
                    Ty::Struct(_) | Ty::Array(..) | Ty::Vector(..) => {
                        let mut buf = vec![0u8; ty.store_size() as usize];
                        causa_ir::value::encode(ty, &v, &mut buf);
                        self.mem.escape_words(&buf);
                    }
                    _ => {}
                }
                if granted {
                    self.record(t, EventKind::Write, a, ty.store_size() as u32, v.as_int(), old, *atomic);
                }
                self.threads[t as usize].frames.last_mut().expect("frame").ip += 1;
                return Ok(Flow::Next);
            }
            Op::Rmw { op, addr, val: x, ty } => {
                let a = int(&fr.regs, addr) as u64;
                if !granted && self.mem.is_shared(a) {
                    return Ok(Flow::Park);
                }
                let operand = val(&fr.regs, x);
                let size = ty.store_size();
                if granted {
                    self.check_race(t, a, size, true, true)?;
                }
                let old = decode(ty, self.mem.read(a, size, self)?);
                let new = rmw(*op, ty, &old, &operand);
                self.store(a, ty, &new)?;
                if granted {
                    self.record(t, EventKind::Rmw, a, size as u32, old.as_int(), new.as_int(), true);
                    self.note_unchanged_rmw(t, a);
                }
                old
            }
            Op::CmpXchg { addr, expected, new, ty } => {
                let a = int(&fr.regs, addr) as u64;
                if !granted && self.mem.is_shared(a) {
                    return Ok(Flow::Park);
                }
                let (exp, newv) = (val(&fr.regs, expected), val(&fr.regs, new));
                let size = ty.store_size();
                if granted {
                    self.check_race(t, a, size, true, true)?;
                }
                let old = decode(ty, self.mem.read(a, size, self)?);
                let ok = old.as_int() == exp.as_int();
                if ok {
                    self.store(a, ty, &newv)?;
                }
                if granted {
                    let written = if ok { newv.as_int() } else { old.as_int() };
                    self.record(t, EventKind::Rmw, a, size as u32, old.as_int(), written, true);
                    self.note_unchanged_rmw(t, a);
                }
                Value::Agg(vec![old, Value::Int(ok as u128)].into())
            }
            // Under TSO/PSO a fence is visible: it waits for the thread's
            // buffer to drain (the thread is not enabled until then).
            Op::Fence if self.buffers_stores(t) => {
                if !granted {
                    return Ok(Flow::Park);
                }
                self.record(t, EventKind::Fence, 0, 0, 0, 0, false);
                Value::ZERO
            }
            Op::Fence => Value::ZERO,
            Op::ThreadLocal { global, offset } => Value::Int((self.thread_local(t, *global)? + offset) as u128),
            other => return Err(Stop::unsupported(format!("instruction {other:?}"))),
        };
        let fr = self.threads[t as usize].frames.last_mut().expect("frame");
        if ins.dest != causa_ir::NONE {
            fr.regs[ins.dest as usize] = v;
        }
        fr.ip += 1;
        Ok(Flow::Next)
    }

    /// Store `v` as `ty` at `a`, with all memory checks.
    pub fn store(&mut self, a: u64, ty: &Ty, v: &Value) -> Result<(), Stop> {
        let size = ty.store_size() as usize;
        let (id, off) = self.mem.check(a, size as u64, Access::Write, self)?;
        encode(ty, v, self.mem.bytes_mut(id, off, size));
        Ok(())
    }

    /// Load a value of type `ty` from `a`, with all memory checks.
    pub fn load(&self, a: u64, ty: &Ty) -> Result<Value, Stop> {
        Ok(decode(ty, self.mem.read(a, ty.store_size(), self)?))
    }
}

impl Machine {
    /// Write raw bytes at `a`, with all memory checks.
    pub fn write_bytes(&mut self, a: u64, data: &[u8]) -> Result<(), Stop> {
        let (id, off) = self.mem.check(a, data.len() as u64, Access::Write, self)?;
        self.mem.bytes_mut(id, off, data.len()).copy_from_slice(data);
        Ok(())
    }

    /// [`Machine::write_bytes`], returning the bytes it overwrote.
    pub fn replace_bytes(&mut self, a: u64, data: &[u8]) -> Result<Vec<u8>, Stop> {
        let (id, off) = self.mem.check(a, data.len() as u64, Access::Write, self)?;
        let bytes = self.mem.bytes_mut(id, off, data.len());
        let old = bytes.to_vec();
        bytes.copy_from_slice(data);
        Ok(old)
    }

    /// Read `len` raw bytes at `a`, with all memory checks.
    pub fn read_bytes(&self, a: u64, len: u64) -> Result<Vec<u8>, Stop> {
        Ok(self.mem.read(a, len, self)?.to_vec())
    }
}

impl Machine {
    /// Free the heap block at `addr` for thread `t` (its `nth` call of
    /// `free`, from 0).
    pub fn free(&mut self, addr: u64, t: Tid, nth: u32) -> Result<(), Stop> {
        let loc = self.threads[t as usize].loc;
        let by = crate::memory::FreedBy { thread: t, loc, nth };
        // A pointer into the middle of a block is named as it is; the
        // block's start as the whole block (`heap#1`, not its first field).
        let (at, base) = (self.describe(addr), self.describe_object(addr));
        let start = self.mem.base_of(addr) == addr;
        self.mem.free(addr, by, &|x| {
            if x == addr && !start {
                at.clone()
            } else {
                base.clone()
            }
        })?;
        Ok(())
    }
}
