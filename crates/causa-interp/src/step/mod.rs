//! Executing one thread: invisible instructions run freely; at a visible
//! operation the thread parks (unless the scheduler just granted it that operation).

mod arith;
mod memory;

pub use arith::{int, val};

use crate::machine::Machine;
use crate::outcome::Stop;
use crate::prepare::Prepared;
use crate::shims::{registry, Ret};
use crate::thread::{OnReturn, Pending};
use causa_core::paths::Decision;
use causa_core::{EventKind, Tid};
use causa_ir::{Callee, Instr, Op, Term, Value, NONE};

/// What an instruction did to control flow.
pub(crate) enum Flow {
    /// Continue with the next instruction (ip already advanced).
    Next,
    /// The thread parked (visible operation not granted, or a blocking call).
    Park,
}

impl Machine {
    /// Run thread `t` until it parks before a visible operation, ends, or stops.
    pub(crate) fn advance(&mut self, t: Tid) -> Result<(), Stop> {
        let prep = self.prep.clone();
        let budget = self.cfg.max_local_instructions;
        let mut executed = 0u64;
        loop {
            let th = &self.threads[t as usize];
            if th.pending != Pending::Instr {
                return Ok(());
            }
            let Some(fr) = th.frames.last() else {
                return Ok(());
            };
            let body = prep.program.functions[fr.func as usize].body.as_ref().expect("frames run defined functions");
            let block = &body.blocks[fr.block as usize];
            executed += 1;
            self.instructions += 1;
            if executed > budget {
                return Err(Stop::Bound(format!(
                    "thread {} ran {budget} instructions without a visible operation (an endless local loop?); raise it with --max-local-instructions",
                    self.names[t as usize]
                )));
            }
            if (fr.ip as usize) < block.instrs.len() {
                let ins = &block.instrs[fr.ip as usize];
                if ins.loc != NONE {
                    self.threads[t as usize].loc = ins.loc;
                }
                match self.exec(t, ins, false)? {
                    Flow::Next => {}
                    Flow::Park => return Ok(()),
                }
            } else {
                if block.term_loc != NONE {
                    self.threads[t as usize].loc = block.term_loc;
                }
                self.terminator(t, &block.term, &prep)?;
            }
        }
    }

    /// Execute the visible instruction `t` is parked at (the scheduler chose it).
    pub(crate) fn exec_granted(&mut self, t: Tid) -> Result<(), Stop> {
        let prep = self.prep.clone();
        let fr = self.threads[t as usize].frames.last().expect("parked thread has a frame");
        let body = prep.program.functions[fr.func as usize].body.as_ref().expect("defined");
        let ins = &body.blocks[fr.block as usize].instrs[fr.ip as usize];
        match self.exec(t, ins, true)? {
            Flow::Next | Flow::Park => Ok(()),
        }
    }

    fn set_dest(&mut self, t: Tid, dest: u32, v: Value) {
        if dest != NONE {
            let fr = self.threads[t as usize].frames.last_mut().expect("frame");
            fr.regs[dest as usize] = v;
        }
    }

    fn exec(&mut self, t: Tid, ins: &Instr, granted: bool) -> Result<Flow, Stop> {
        let tagged = self.prep.program.space.tagged();
        let fr = self.threads[t as usize].frames.last_mut().expect("frame");
        if let Some(r) = arith::eval_pure(&ins.op, &fr.regs, tagged) {
            let v = r?;
            if ins.dest != NONE {
                fr.regs[ins.dest as usize] = v;
            }
            fr.ip += 1;
            return Ok(Flow::Next);
        }
        match &ins.op {
            Op::Call { callee, args, ret } => self.call(t, ins.dest, callee, args, ret, granted),
            Op::Unsupported { what } => Err(Stop::unsupported(format!("instruction {what}"))),
            Op::VaArg { .. } => Err(Stop::unsupported("instruction `va_arg`")),
            _ => self.exec_memory(t, ins, granted),
        }
    }

    fn terminator(&mut self, t: Tid, term: &Term, prep: &Prepared) -> Result<(), Stop> {
        let th = &mut self.threads[t as usize];
        let fr = th.frames.last_mut().expect("frame");
        let (func, block) = (fr.func, fr.block);
        let (target, decision) = match term {
            Term::Br(b) => (*b, None),
            Term::CondBr { c, t: tb, f } => {
                let taken = int(&fr.regs, c) & 1 == 1;
                (if taken { *tb } else { *f }, Some(Decision::Branch(taken)))
            }
            Term::Switch { v, cases, default } => {
                let x = int(&fr.regs, v);
                match cases.iter().position(|(c, _)| *c == x) {
                    Some(i) => (cases[i].1, Some(Decision::Switch(i as u32 + 1))),
                    None => (*default, Some(Decision::Switch(0))),
                }
            }
            Term::Ret(v) => {
                let rv = v.as_ref().map(|o| val(&fr.regs, o)).unwrap_or(Value::ZERO);
                return self.ret(t, rv);
            }
            Term::Unreachable => return Err(Stop::bug(causa_core::BugKind::Abort, "reached `unreachable` code")),
            Term::Unsupported { what } => return Err(Stop::unsupported(what.to_string())),
        };
        if let Some(d) = decision.filter(|_| self.paths.is_some() || self.follow.is_some()) {
            // A branch no shared read influences is not in path logs.
            let body = prep.program.functions[func as usize].body.as_ref();
            if body.and_then(|b| b.recorded.get(block as usize).copied()).unwrap_or(true) {
                self.note_decision(t, d)?;
            }
        }
        self.jump(t, target, prep);
        Ok(())
    }

    /// Move to block `to`, resolving its phi nodes for the edge taken.
    fn jump(&mut self, t: Tid, to: u32, prep: &Prepared) {
        let fr = self.threads[t as usize].frames.last_mut().expect("frame");
        let from = fr.block;
        let body = prep.program.functions[fr.func as usize].body.as_ref().expect("defined");
        let block = &body.blocks[to as usize];
        if !block.phis.is_empty() {
            let vals: Vec<(u32, Value)> = block
                .phis
                .iter()
                .map(|p| {
                    let v = p
                        .incoming
                        .iter()
                        .find(|(b, _)| *b == from)
                        .map(|(_, o)| val(&fr.regs, o))
                        .unwrap_or(Value::ZERO);
                    (p.dest, v)
                })
                .collect();
            for (d, v) in vals {
                fr.regs[d as usize] = v;
            }
        }
        fr.block = to;
        fr.ip = 0;
    }

    /// Return from the top frame of `t` with `rv`.
    pub(crate) fn ret(&mut self, t: Tid, rv: Value) -> Result<(), Stop> {
        let th = &mut self.threads[t as usize];
        let fr = th.frames.pop().expect("frame");
        if fr.atomic {
            th.atomic_depth = th.atomic_depth.saturating_sub(1);
        }
        self.kill_frame(t, &fr.allocas);
        match fr.on_return {
            OnReturn::Caller => {
                self.set_dest(t, fr.ret_dest, rv);
            }
            // A key destructor (the thread's last frame): the next, or its end.
            OnReturn::Discard if self.threads[t as usize].frames.is_empty() => {
                let retval = self.threads[t as usize].retval;
                self.thread_returned(t, retval)?;
            }
            OnReturn::Discard => {}
            OnReturn::ThreadEnd => self.thread_returned(t, rv.as_addr())?,
            OnReturn::ProgramExit => {
                let th = &mut self.threads[t as usize];
                th.frames.clear();
                th.pending = Pending::Exit { code: rv.as_int() as u32 as i32 };
            }
            OnReturn::OnceDone(once) => {
                self.set_dest(t, fr.ret_dest, Value::ZERO);
                self.threads[t as usize].pending = Pending::OnceDone { once };
            }
        }
        Ok(())
    }

    /// Finish a call that had parked: give it its return value, advance past it
    /// and resume normal stepping.
    pub(crate) fn complete_parked_call(&mut self, t: Tid, v: Value) -> Result<(), Stop> {
        let prep = self.prep.clone();
        let th = &mut self.threads[t as usize];
        th.pending = Pending::Instr;
        let fr = th.frames.last_mut().expect("parked call has a frame");
        let body = prep.program.functions[fr.func as usize].body.as_ref().expect("defined");
        let ins = &body.blocks[fr.block as usize].instrs[fr.ip as usize];
        if let (Op::Call { ret, .. }, true) = (&ins.op, ins.dest != NONE) {
            fr.regs[ins.dest as usize] = fit_return(v, ret);
        }
        fr.ip += 1;
        Ok(())
    }

    fn call(
        &mut self,
        t: Tid,
        dest: u32,
        callee: &Callee,
        args: &[causa_ir::Operand],
        ret: &causa_ir::Ty,
        granted: bool,
    ) -> Result<Flow, Stop> {
        let prep = self.prep.clone();
        let fr = self.threads[t as usize].frames.last().expect("frame");
        let fid = match callee {
            Callee::Direct(f) => *f,
            Callee::Indirect(op) => {
                let addr = int(&fr.regs, op) as u64;
                match prep.program.function_at(addr) {
                    Some(f) => f,
                    None => {
                        return Err(Stop::memory(format!(
                            "call through an invalid function pointer ({})",
                            self.describe(addr)
                        )))
                    }
                }
            }
            Callee::Asm => return Err(Stop::unsupported("inline assembly")),
        };
        let argv: Vec<Value> = args.iter().map(|a| val(&fr.regs, a)).collect();
        let f = &prep.program.functions[fid as usize];
        // (Recorded once: a visible call runs again when its step is granted.)
        let indirect = matches!(callee, Callee::Indirect(_));
        if let Some(shim) = prep.shims[fid as usize] {
            let desc = &registry().shims[shim];
            // Under TSO/PSO a library function that gets a pointer into shared
            // memory sees memory only after the thread's buffer drained; one
            // that only reports a failure fails at once, with the buffer as
            // it is.
            let drains = !causa_ir::FAILURE_CALLS.contains(&&*f.name)
                && argv.iter().any(|a| matches!(a, Value::Int(x) if self.mem.is_shared(*x as u64)));
            if !granted && drains && self.must_drain(t) {
                return Ok(Flow::Park);
            }
            let visible = desc.event.is_some()
                && (desc.shared_args.is_empty()
                    || desc.shared_args.iter().any(|i| argv.get(*i).is_some_and(|p| self.mem.is_shared(p.as_addr()))));
            // One with no event of its own is then a fence, a step of its own
            // whether or not the buffer held anything (as `Op::Fence`): the
            // constraint model orders the thread's later operations after its
            // earlier stores' flushes only through an event. (Without it, MCR
            // put a read after `sem_getvalue` before the flush of an earlier
            // store, a schedule that could not run.)
            let fence = drains && !visible && self.buffers_stores(t);
            if (visible || fence) && !granted {
                self.threads[t as usize].pending = Pending::Instr;
                return Ok(Flow::Park);
            }
            if fence {
                self.record(t, EventKind::Fence, 0, 0, 0, 0, false);
            }
            if indirect {
                self.note_indirect_call(t, &f.name)?;
            }
            self.note_sizes(t, &f.name, &argv)?;
            // A lock, condition variable, semaphore or barrier is memory
            // the call reads and writes: one in a freed block (or a dead
            // frame) is a use after free, at every use (the machine's own
            // record of the object outlives the memory).
            let addr = argv.first().map(|v| v.as_addr()).unwrap_or(0);
            if desc.event.is_some_and(EventKind::on_sync_object) {
                self.mem.check(addr, 4, crate::memory::Access::Call(desc.name), self)?;
            }
            if let Some(kind) = desc.event.filter(|_| visible) {
                self.record(t, kind, addr, 0, 0, 0, false);
            }
            let call = crate::shims::Call { t, args: &argv, name: &f.name, ret, dest, visible };
            return match (desc.handler)(self, &call)? {
                Ret::Value(v) => {
                    let v = fit_return(v, ret);
                    self.advance_ip(t);
                    self.set_dest(t, dest, v);
                    Ok(Flow::Next)
                }
                Ret::Park(p) => {
                    self.threads[t as usize].pending = p;
                    Ok(Flow::Park)
                }
                Ret::Pushed => Ok(Flow::Next),
                Ret::Ended => Ok(Flow::Park),
            };
        }
        if f.body.is_none() {
            return Err(Stop::unsupported(format!("external function `{}`", f.name)));
        }
        if indirect {
            self.note_indirect_call(t, &f.name)?;
        }
        self.advance_ip(t);
        self.push_call(t, fid, argv, dest, OnReturn::Caller);
        Ok(Flow::Next)
    }

    fn advance_ip(&mut self, t: Tid) {
        if let Some(fr) = self.threads[t as usize].frames.last_mut() {
            fr.ip += 1;
        }
    }

    /// Push a frame calling `fid` on thread `t` (the caller's ip must already be past the call).
    pub(crate) fn push_call(&mut self, t: Tid, fid: u32, args: Vec<Value>, dest: u32, on_return: OnReturn) {
        let frame = self.new_frame(fid, args, dest, on_return);
        if frame.atomic {
            self.enter_atomic(t);
        }
        let th = &mut self.threads[t as usize];
        th.frames.push(frame);
    }
}

/// A shim's integer result cut to the width of the call's return type.
fn fit_return(v: Value, ret: &causa_ir::Ty) -> Value {
    let bits = ret.int_bits();
    match v {
        Value::Int(x) if bits > 0 && bits < 128 => Value::Int(x & causa_ir::value::mask(bits)),
        other => other,
    }
}
