//! The machine: one execution of a program under a scheduler.
//!
//! The run loop: every live thread is parked before its next visible operation;
//! the machine computes the enabled set, asks the [`Scheduler`] which thread moves,
//! performs that thread's operation (recording exactly one [`Event`]), then lets the
//! thread run its invisible instructions until it parks again.

use crate::memory::{short_file, AllocKind, Memory};
use crate::outcome::{Config, CutOff, Execution, InterpError, Outcome, OutputMode, Stop};
use crate::prepare::Prepared;
use crate::sync::SyncState;
use crate::thread::{Frame, OnReturn, Pending, Thread};
use causa_core::event::EventRecord;
use causa_core::finding::FindingNote;
use causa_core::{BugKind, Choice, Event, EventKind, Finding, PickContext, Scheduler, ThreadName, Tid};
use causa_ir::{FnId, LocId, Program, Ty, Value, NONE};
use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::io::Write;
use std::sync::Arc;

#[derive(Clone)]
pub struct Machine {
    pub prep: Arc<Prepared>,
    pub cfg: Arc<Config>,
    pub mem: Memory,
    pub threads: Vec<Thread>,
    pub names: Vec<ThreadName>,
    pub sync: SyncState,
    pub events: Vec<Event>,
    pub inputs_used: Vec<i128>,
    /// Bytes of the visible bulk operations (see [`causa_core::BulkAccess`]).
    pub bulk: Vec<causa_core::BulkAccess>,
    input_rng: Pcg64Mcg,
    /// State of the program's `rand()`.
    pub rand_state: u64,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub files: crate::shims::libc::file::Files,
    pub instructions: u64,
    /// Thread chosen at each visible step (the schedule).
    pub steps: Vec<Tid>,
    /// Counts the events that changed shared state (busy-wait detection).
    pub shared_version: u64,
    /// Uninterruptible sections started so far (their ids).
    pub sections: u32,
    /// Thread that took the previous step.
    current: Option<Tid>,
    enabled_buf: Vec<Tid>,
    /// At a deadlock: the events the blocked threads' next operations would record.
    blocked: Vec<Event>,
    blocked_names: std::collections::BTreeMap<u64, String>,
    /// Each thread's control-flow path, when recording (`paths.rs`).
    pub(crate) paths: Option<Vec<causa_core::paths::ThreadPath>>,
    /// By `Tid`: a running hash of the thread's name and visible events, when
    /// keeping a state digest (`digest.rs`).
    pub(crate) observed: Vec<u64>,
    /// Where each thread is on the path it follows (`paths.rs`).
    pub(crate) follow: Option<crate::paths::Follow>,
    /// Store buffers indexed by `Tid` (TSO/PSO; see `buffers.rs`).
    pub buffers: Vec<Vec<crate::buffers::Buffered>>,
    flush_buf: Vec<(Tid, u64)>,
    /// The steps that flushed a store, with its address.
    pub flush_steps: std::collections::BTreeMap<usize, u64>,
    /// Shared stack objects whose function returned (see
    /// [`Execution::deaths`]).
    pub deaths: Vec<(usize, u64, u64)>,
    /// The C library's process-wide state objects made so far (by name).
    hidden: Vec<(&'static str, u64)>,
    /// A use after free or double free: the `free` that came first, as its
    /// thread and which of the thread's `free` calls it was
    /// ([`Execution::freed_by`]).
    freed_by: Option<(Tid, u32)>,
}

impl Machine {
    pub fn new(prep: Arc<Prepared>, cfg: Arc<Config>) -> Machine {
        let mem = Memory::new(&prep.program);
        let seed = cfg.input_seed;
        let record_paths = cfg.record_paths;
        let follow = cfg.follow.clone().map(crate::paths::Follow::new);
        let mut m = Machine {
            prep: prep.clone(),
            cfg,
            mem,
            threads: Vec::new(),
            names: Vec::new(),
            sync: SyncState::default(),
            events: Vec::with_capacity(256),
            inputs_used: Vec::new(),
            bulk: Vec::new(),
            input_rng: Pcg64Mcg::seed_from_u64(seed),
            rand_state: 1,
            stdout: Vec::new(),
            stderr: Vec::new(),
            files: Default::default(),
            instructions: 0,
            steps: Vec::with_capacity(256),
            shared_version: 0,
            sections: 0,
            current: None,
            enabled_buf: Vec::new(),
            blocked: Vec::new(),
            blocked_names: Default::default(),
            paths: record_paths.then(Vec::new),
            follow,
            observed: Vec::new(),
            buffers: Vec::new(),
            flush_buf: Vec::new(),
            flush_steps: Default::default(),
            deaths: Vec::new(),
            freed_by: None,
            hidden: Vec::new(),
        };
        let main = prep.main;
        let mut args = Vec::new();
        let nparams = prep.program.functions[main as usize].params.len();
        if nparams >= 2 {
            let argv = m.build_argv();
            args.push(Value::Int(m.cfg.argv.len() as u128));
            args.push(Value::Int(argv as u128));
        }
        args.resize(nparams, Value::ZERO);
        let frame = m.new_frame(main, args, NONE, OnReturn::ProgramExit);
        m.names.push(ThreadName::main());
        m.threads.push(Thread::new(ThreadName::main(), frame));
        crate::shims::libc::file::init_std_streams(&mut m);
        if m.cfg.state_digest {
            m.mem.track_digest();
        }
        m
    }

    fn build_argv(&mut self) -> u64 {
        let argv: Vec<String> = self.cfg.argv.clone();
        let word = self.prep.program.space.layout.ptr_bytes;
        let table = self.mem.alloc_heap(word * (argv.len() as u64 + 1), NONE, "argv", 0);
        for (i, a) in argv.iter().enumerate() {
            let mut bytes = a.as_bytes().to_vec();
            bytes.push(0);
            let s = self.mem.alloc_heap(bytes.len() as u64, NONE, "argv", 0);
            let _ = self.mem.write(s, &bytes, &crate::memory::Unnamed);
            let ptr = &s.to_le_bytes()[..word as usize];
            let _ = self.mem.write(table + word * i as u64, ptr, &crate::memory::Unnamed);
        }
        table
    }

    /// A fresh frame for calling `func` with `args`.
    pub fn new_frame(&self, func: FnId, mut args: Vec<Value>, ret_dest: u32, on_return: OnReturn) -> Frame {
        let f = &self.prep.program.functions[func as usize];
        let body = f.body.as_ref().expect("new_frame on a defined function");
        let nparams = f.params.len();
        let varargs = if args.len() > nparams { args.split_off(nparams) } else { Vec::new() };
        args.resize(body.num_locals as usize, Value::ZERO);
        Frame {
            func,
            block: 0,
            ip: 0,
            regs: args,
            allocas: Vec::new(),
            ret_dest,
            on_return,
            varargs,
            atomic: self.prep.atomic_fns[func as usize],
        }
    }

    /// The type of a pointer-sized value (`Ptr`, or `i32` in a 32-bit program).
    pub fn ptr_ty(&self) -> Ty {
        match self.prep.program.space.layout.ptr_bytes {
            4 => Ty::Int(32),
            _ => Ty::Ptr,
        }
    }

    pub fn program(&self) -> &Program {
        &self.prep.program
    }

    /// Create a thread running `func(arg)`; returns its Tid.
    pub fn spawn(&mut self, parent: Tid, func: FnId, arg: Value) -> Tid {
        let p = &mut self.threads[parent as usize];
        p.children += 1;
        let name = p.name.child(p.children);
        let nparams = self.prep.program.functions[func as usize].params.len();
        let mut args = vec![arg];
        args.resize(nparams.max(1), Value::ZERO);
        let frame = self.new_frame(func, args, NONE, OnReturn::ThreadEnd);
        let tid = self.threads.len() as Tid;
        self.names.push(name.clone());
        self.threads.push(Thread::new(name, frame));
        tid
    }

    /// Record the event of the current step.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        thread: Tid,
        kind: EventKind,
        addr: u64,
        size: u32,
        value: u128,
        value2: u128,
        atomic: bool,
    ) {
        let loc = self.threads[thread as usize].loc;
        let th = &mut self.threads[thread as usize];
        let po = th.ops;
        th.ops += 1;
        let atomic = atomic || th.atomic_depth > 0;
        let section = if th.atomic_depth > 0 { th.section } else { 0 };
        if kind.changes_shared_state() {
            self.shared_version += 1;
        }
        if self.cfg.state_digest {
            self.observe(thread, kind, [addr as u128, size as u128, value, value2]);
        }
        self.events.push(Event { thread, kind, loc, addr, size, value, value2, print: 0, atomic, section, po });
    }

    /// Use `seed` for the program inputs that were not given explicitly.
    pub fn reseed_inputs(&mut self, seed: u64) {
        self.input_rng = Pcg64Mcg::seed_from_u64(seed);
    }

    /// Next program input: `given` (the input a followed path recorded), a
    /// given `--input` value, else from the seeded generator.
    pub fn next_input(&mut self, bits: u32, signed: bool, given: Option<i128>) -> u128 {
        let i = self.inputs_used.len();
        let raw: i128 = match given.as_ref().or(self.cfg.inputs.get(i)) {
            Some(v) => *v,
            None => {
                let r = self.input_rng.next_u64() as u128;
                // Small values are far more likely to matter; keep most inputs small.
                let v = if r.is_multiple_of(4) { r >> 2 } else { (r >> 2) % 16 };
                if signed {
                    causa_ir::value::sext(v & causa_ir::value::mask(bits), bits)
                } else {
                    (v & causa_ir::value::mask(bits)) as i128
                }
            }
        };
        self.inputs_used.push(raw);
        (raw as u128) & causa_ir::value::mask(bits)
    }

    /// Write program output (to stdout, stderr, or a file it opened for
    /// writing, kept in memory); false when `fd` is none of those (EBADF).
    pub fn output(&mut self, fd: i32, bytes: &[u8]) -> bool {
        if fd > 2 {
            return self.files.write(fd, bytes);
        }
        if fd != 1 && fd != 2 {
            return false;
        }
        match self.cfg.output {
            OutputMode::PassThrough => {
                if fd == 2 {
                    let _ = std::io::stderr().write_all(bytes);
                } else {
                    let mut out = std::io::stdout();
                    let _ = out.write_all(bytes);
                    let _ = out.flush();
                }
            }
            OutputMode::Capture => {
                let max = self.cfg.max_output;
                let buf = if fd == 2 { &mut self.stderr } else { &mut self.stdout };
                let room = max.saturating_sub(buf.len());
                buf.extend_from_slice(&bytes[..bytes.len().min(room)]);
            }
        }
        true
    }

    /// Whether thread `t` can take a step now.
    pub fn is_enabled(&self, t: Tid) -> bool {
        !self.must_drain(t) && self.ready(t)
    }

    /// The threads the execution stopped (a failure or `exit`) before they
    /// ended: all but the one whose step stopped it, those whose next step
    /// would have ended the program too, and busy-waiting threads parked for
    /// a change that did not come (the constraint model explores the writes
    /// they wait for).
    fn cut_off(&self) -> Vec<CutOff> {
        let alive = (0..self.threads.len() as Tid)
            .filter(|t| Some(*t) != self.current && !self.threads[*t as usize].is_finished());
        alive
            .filter(|t| !self.ends_program(*t))
            .filter(|t| self.threads[*t as usize].pending != Pending::Instr || self.spin_enabled(*t))
            .map(|thread| {
                let th = &self.threads[thread as usize];
                // A synchronisation operation it waits at (a barrier's
                // departure, a wait's return, a lock…) is known as at a
                // deadlock. Otherwise what it does stays unknown until it
                // runs: a thread's first step begins it; any other stands
                // for an operation that waits for the thread's buffered
                // stores (as all but plain loads do under TSO/PSO).
                let kind = if th.pending == Pending::Begin { EventKind::Begin } else { EventKind::Fence };
                let unknown = Event {
                    thread,
                    kind,
                    loc: th.loc,
                    addr: 0,
                    size: 0,
                    value: 0,
                    value2: 0,
                    print: 0,
                    atomic: false,
                    section: 0,
                    po: th.ops,
                };
                let ready = self.ready(thread);
                let next = crate::deadlock::blocked_event(self, thread).or(ready.then_some(unknown));
                CutOff { thread, ready, next }
            })
            .collect()
    }

    /// Whether `t`'s next step ends the program: `main` returning or a call
    /// of `exit`.
    fn ends_program(&self, t: Tid) -> bool {
        match self.threads[t as usize].pending {
            Pending::Exit { .. } => true,
            Pending::Instr => crate::shims::parked_at_kind(self, t, EventKind::Exit),
            _ => false,
        }
    }

    /// Whether `t` is held back only by busy-wait parking: it would be
    /// enabled were it not parked ([`PickContext::parked`]).
    fn parked_only(&self, t: Tid) -> bool {
        self.threads[t as usize].pending == Pending::Instr
            && !self.spin_enabled(t)
            && !self.must_drain(t)
            && self.section_owner().is_none_or(|o| o == t)
            && crate::shims::pending_enabled(self, t)
    }

    /// Whether thread `t`'s next operation can happen now, its buffered
    /// stores aside (under TSO/PSO it may have to wait for them to drain).
    fn ready(&self, t: Tid) -> bool {
        let th = &self.threads[t as usize];
        match &th.pending {
            Pending::Begin | Pending::End | Pending::Exit { .. } | Pending::OnceDone { .. } => true,
            Pending::Finished => false,
            Pending::Instr => self.spin_enabled(t) && crate::shims::pending_enabled(self, t),
            Pending::CondWait { cond, mutex, timed, signalled, since } => {
                (*signalled
                    || (*timed && self.timeout_enabled(t))
                    || crate::shims::pthread::cond::token_for(self, *cond, *since))
                    && self.sync.mutexes.get(mutex).is_none_or(|m| m.can_lock(t))
            }
            Pending::Barrier { barrier, gen } => self.sync.barriers.get(barrier).is_none_or(|b| b.gen > *gen),
            Pending::Once { once } => !matches!(self.sync.onces.get(once), Some(crate::sync::OnceState::Running(_))),
        }
    }

    fn compute_enabled(&mut self) {
        let mut buf = std::mem::take(&mut self.enabled_buf);
        buf.clear();
        // Inside an uninterruptible section only its thread may move (if it can).
        if let Some(t) = self.section_owner() {
            if self.must_drain(t) {
                // Only its own flushes (see `flushable`).
                self.enabled_buf = buf;
                return;
            }
            if self.is_enabled(t) {
                buf.push(t);
                self.enabled_buf = buf;
                return;
            }
        }
        for t in 0..self.threads.len() as Tid {
            if self.is_enabled(t) {
                buf.push(t);
            }
        }
        self.enabled_buf = buf;
    }

    /// Run one execution to its end under `sched`.
    pub fn run(mut self, sched: &mut dyn Scheduler) -> Execution {
        loop {
            // Without a pause point the loop only ends with an outcome.
            if let Some(outcome) = self.run_until(sched, usize::MAX) {
                return self.conclude(sched, outcome);
            }
        }
    }

    /// Run under `sched` until the execution ends (its outcome) or has taken
    /// `pause_at` visible steps (`None`: the machine can be cloned, as a
    /// snapshot to resume from, and run on with the same scheduler). A run
    /// that ended is completed by [`Machine::conclude`].
    pub fn run_until(&mut self, sched: &mut dyn Scheduler, pause_at: usize) -> Option<Outcome> {
        loop {
            if self.steps.len() >= pause_at {
                return None;
            }
            self.compute_enabled();
            let mut flushes = std::mem::take(&mut self.flush_buf);
            self.flushable(&mut flushes);
            self.flush_buf = flushes;
            if self.enabled_buf.is_empty() && self.flush_buf.is_empty() {
                if self.threads.iter().all(|t| t.is_finished()) {
                    // main called pthread_exit and every other thread ended.
                    return Some(Outcome::Exit(0));
                }
                return Some(self.deadlock());
            }
            let step = self.steps.len();
            if step >= self.cfg.max_steps {
                let reason = format!("the execution reached --max-steps {}{}", self.cfg.max_steps, self.busiest());
                return Some(Outcome::BoundReached(reason));
            }
            let yielded = match self.events.last() {
                Some(e)
                    if Some(e.thread) == self.current
                        && matches!(e.kind, EventKind::Yield | EventKind::Sleep | EventKind::Wait) =>
                {
                    self.current
                }
                _ => None,
            };
            let current = self.current.filter(|c| yielded.is_none() && self.enabled_buf.contains(c));
            let state = self.cfg.state_digest.then(|| self.state_digest());
            let ends_program = |t: Tid| self.ends_program(t);
            let parked = |t: Tid| self.parked_only(t);
            let ctx = PickContext {
                ends_program: &ends_program,
                parked: &parked,
                state,
                step,
                enabled: &self.enabled_buf,
                current,
                yielded,
                names: &self.names,
                flushes: &self.flush_buf,
            };
            let choice = match sched.pick(&ctx) {
                Ok(Choice::Run(t)) if self.enabled_buf.contains(&t) => Choice::Run(t),
                // A computed order runs a parked busy wait's next turn: it
                // repeats the last one (see `PickContext::parked`).
                Ok(Choice::Run(t)) if self.parked_only(t) => {
                    self.threads[t as usize].spin.awaiting = None;
                    Choice::Run(t)
                }
                Ok(Choice::Flush { thread, addr }) if self.flush_buf.contains(&(thread, addr)) => {
                    Choice::Flush { thread, addr }
                }
                Ok(c) => {
                    let what = match c {
                        Choice::Run(t) => format!("thread {} which is not enabled", self.names[t as usize]),
                        Choice::Flush { thread, addr } => format!(
                            "to flush a store of thread {} to {addr:#x} which is not flushable",
                            self.names[thread as usize]
                        ),
                    };
                    let reason = format!("strategy chose {what}");
                    let err = causa_core::ScheduleError::Diverged { step, reason };
                    return Some(Outcome::Error(InterpError::Schedule(err)));
                }
                Err(e) => return Some(Outcome::Error(InterpError::Schedule(e))),
            };
            let t = choice.thread();
            self.current = Some(t);
            self.steps.push(t);
            let done = match choice {
                Choice::Run(t) => self.step_thread(t),
                Choice::Flush { thread, addr } => {
                    self.flush_steps.insert(step, addr);
                    self.flush(thread, addr)
                }
            };
            if let Err(stop) = done {
                return Some(self.stop_outcome(stop, t));
            }
        }
    }

    /// Complete a run that ended with `outcome`: tell the scheduler and build
    /// the execution.
    pub fn conclude(self, sched: &mut dyn Scheduler, outcome: Outcome) -> Execution {
        sched.end_execution(self.steps.len());
        self.finish(outcome)
    }

    /// Perform `t`'s pending operation, then run it to its next visible operation.
    fn step_thread(&mut self, t: Tid) -> Result<(), Stop> {
        let before = self.events.len();
        let pending = std::mem::replace(&mut self.threads[t as usize].pending, Pending::Instr);
        match pending {
            Pending::Begin => self.record(t, EventKind::Begin, 0, 0, 0, 0, false),
            Pending::Instr => {
                self.exec_granted(t)?;
            }
            Pending::End => {
                let th = &mut self.threads[t as usize];
                th.pending = Pending::Finished;
                let rv = th.retval;
                self.record(t, EventKind::End, 0, 0, rv as u128, 0, false);
                self.release_thread_resources(t);
                return Ok(());
            }
            Pending::Exit { code } => {
                self.record(t, EventKind::Exit, 0, 4, code as u32 as u128, 0, false);
                return Err(Stop::Exit(code));
            }
            Pending::CondWait { cond, mutex, signalled, since, timed } => {
                crate::shims::pthread::cond::finish_wait(self, t, (cond, mutex), since, (signalled, timed))?;
            }
            Pending::Barrier { barrier, gen } => {
                self.record(t, EventKind::BarrierWait, barrier, 0, gen as u128, 0, false);
                self.complete_parked_call(t, Value::ZERO)?;
            }
            Pending::Once { once } => {
                crate::shims::pthread::once::retry(self, t, once)?;
            }
            Pending::OnceDone { once } => crate::shims::pthread::once::finish(self, t, once),
            Pending::Finished => unreachable!("finished threads are never enabled"),
        }
        debug_assert_eq!(self.events.len(), before + 1, "a step must record exactly one event");
        if self.threads[t as usize].pending == Pending::Instr {
            self.advance(t)?;
        }
        Ok(())
    }

    /// The C library's process-wide state object `name` (`size` bytes,
    /// zero at first), made at its first use.
    pub fn hidden_object(&mut self, name: &'static str, size: u64) -> Result<u64, Stop> {
        if let Some(a) = self.hidden_made(name) {
            return Ok(a);
        }
        let a = self.mem.alloc_hidden(name, size).ok_or_else(|| Stop::unsupported("an address space this large"))?;
        self.hidden.push((name, a));
        Ok(a)
    }

    /// The process-wide state object `name`, if it was made.
    pub fn hidden_made(&self, name: &str) -> Option<u64> {
        self.hidden.iter().find(|(n, _)| *n == name).map(|(_, a)| *a)
    }

    /// A finished thread's thread-local variables end with it; nothing else
    /// is released (a mutex held at exit stays locked, as in C).
    fn release_thread_resources(&mut self, t: Tid) {
        // As a returning frame's objects, with the thread's last event: its
        // `end`, just recorded.
        let instances = std::mem::take(&mut self.threads[t as usize].thread_locals);
        self.kill_frame(t, &instances.into_iter().map(|(_, a)| a).collect::<Vec<_>>());
    }

    fn stop_outcome(&mut self, stop: Stop, t: Tid) -> Outcome {
        match stop {
            Stop::Exit(code) => Outcome::Exit(code),
            Stop::Infeasible(r) => Outcome::Infeasible(r),
            Stop::Bound(r) => Outcome::BoundReached(r),
            Stop::Error(InterpError::Unsupported { what, loc: None }) => {
                let loc = self.loc_of(self.threads[t as usize].loc);
                Outcome::Error(InterpError::Unsupported { what, loc })
            }
            Stop::Error(e) => Outcome::Error(e),
            Stop::Freed { message, by } => {
                let note = FindingNote {
                    thread: self.names.get(by.thread as usize).cloned(),
                    message: "freed the block first".into(),
                    location: self.loc_of(by.loc),
                };
                self.freed_by = Some((by.thread, by.nth));
                self.stop_outcome(Stop::Bug { kind: BugKind::MemoryError, message, notes: vec![note] }, t)
            }
            Stop::Bug { kind, message, notes } => {
                let step = self.steps.len();
                Outcome::Bug(Finding {
                    kind,
                    message,
                    thread: self.names[t as usize].clone(),
                    location: self.loc_of(self.threads[t as usize].loc),
                    step,
                    notes,
                    cycle: Vec::new(),
                })
            }
        }
    }

    /// The instruction thread `t` is parked at (or about to run), with its frame.
    pub(crate) fn parked_instr(&self, t: Tid) -> Option<(&Frame, &causa_ir::Instr)> {
        let fr = self.threads[t as usize].frames.last()?;
        let body = self.prep.program.functions[fr.func as usize].body.as_ref()?;
        Some((fr, body.blocks[fr.block as usize].instrs.get(fr.ip as usize)?))
    }

    pub fn loc_of(&self, loc: LocId) -> Option<causa_core::SourceLoc> {
        self.prep.program.loc(loc).cloned()
    }

    /// Where the execution spent its last steps, for a run the step bound
    /// stops: " (thread 0.1 took 1000 of the last 1000 steps; it is at
    /// f.c:16, in a loop that may never end)". A loop whose every turn
    /// changes the thread's local state (a counter) is not parked as a busy
    /// wait ([`crate::spin`]): this is where such a loop shows.
    fn busiest(&self) -> String {
        const LAST: usize = 1000;
        let recent = &self.steps[self.steps.len().saturating_sub(LAST)..];
        let mut counts: std::collections::BTreeMap<Tid, usize> = Default::default();
        for t in recent {
            *counts.entry(*t).or_default() += 1;
        }
        let Some((t, n)) = counts.into_iter().max_by_key(|(t, n)| (*n, std::cmp::Reverse(*t))) else {
            return String::new();
        };
        let th = &self.threads[t as usize];
        let at = self.loc_of(th.loc).map(|l| format!("; it is at {l}")).unwrap_or_default();
        let looping = if n * 10 >= recent.len() * 9 { ", in a loop that may never end" } else { "" };
        format!(" (thread {} took {n} of the last {} steps{at}{looping})", self.names[t as usize], recent.len())
    }

    fn deadlock(&mut self) -> Outcome {
        let blocked: Vec<Tid> =
            (0..self.threads.len() as Tid).filter(|t| !self.threads[*t as usize].is_finished()).collect();
        let (notes, waits) = crate::deadlock::describe(self, &blocked);
        self.blocked = blocked.iter().filter_map(|t| crate::deadlock::blocked_event(self, *t)).collect();
        self.blocked_names =
            self.blocked.iter().filter(|e| e.addr != 0).map(|e| (e.addr, self.describe_brief(e.addr))).collect();
        let cycle = crate::deadlock::find_cycle(&waits).into_iter().map(|t| self.names[t as usize].clone()).collect();
        let last = self.current.filter(|t| blocked.contains(t)).or(blocked.last().copied()).unwrap_or(0);
        let message = if blocked.len() == 1 {
            format!("deadlock: thread {} is blocked forever", self.names[last as usize])
        } else {
            let names: Vec<String> = blocked.iter().map(|t| self.names[*t as usize].to_string()).collect();
            format!("threads {} are all blocked", names.join(", "))
        };
        Outcome::Bug(Finding {
            kind: BugKind::Deadlock,
            message,
            thread: self.names[last as usize].clone(),
            location: self.loc_of(self.threads[last as usize].loc),
            step: self.steps.len(),
            notes,
            cycle,
        })
    }

    /// A heap block's name: `heap#1` for `main`'s first, `heap@0.1#2` for
    /// thread 0.1's second.
    fn heap_name(&self, thread: Tid, seq: u32) -> String {
        match thread {
            0 => format!("heap#{seq}"),
            t => format!("heap@{}#{seq}", self.names[t as usize]),
        }
    }

    /// The run's heap blocks, in allocation order.
    fn heap_blocks(&self) -> Vec<causa_core::event::HeapBlock> {
        let prog = &self.prep.program;
        let blocks = self.mem.allocs.iter().filter_map(|a| match &a.kind {
            AllocKind::Heap { thread, seq, site, by } => Some(causa_core::event::HeapBlock {
                name: self.heap_name(*thread, *seq),
                by: by.to_string(),
                site: prog.loc(*site).cloned(),
            }),
            _ => None,
        });
        blocks.collect()
    }

    /// Build the execution record: outcome, events, readable event records.
    pub fn finish(mut self, outcome: Outcome) -> Execution {
        let paths = self.take_paths();
        let records = if self.cfg.keep_records {
            self.events.iter().enumerate().map(|(i, e)| self.event_record(i, e)).collect()
        } else {
            Vec::new()
        };
        let heap_blocks = if self.cfg.keep_records { self.heap_blocks() } else { Vec::new() };
        let final_state = self.cfg.final_state.then(|| self.globals_digest());
        let unflushed = self.unflushed_events();
        let cut_off = match &outcome {
            Outcome::Exit(_) => self.cut_off(),
            Outcome::Bug(f) if f.kind != BugKind::Deadlock => self.cut_off(),
            _ => Vec::new(),
        };
        Execution {
            outcome,
            final_state,
            events: self.events,
            blocked: self.blocked,
            blocked_names: self.blocked_names,
            unflushed,
            cut_off,
            paths,
            bulk: self.bulk,
            steps: self.steps,
            flushes: self.flush_steps,
            memory_model: self.cfg.memory_model,
            names: self.names,
            inputs: self.inputs_used,
            instructions: self.instructions,
            stdout: self.stdout,
            stderr: self.stderr,
            records,
            heap_blocks,
            deaths: self.deaths,
            freed_by: self.freed_by,
        }
    }

    /// Kill the stack objects of a frame of `t` that returned (or the
    /// thread-local instances of `t`, ended); a shared one's death is noted
    /// with `t`'s last event (a return is not a scheduling point: it
    /// happens in the step of that event).
    pub(crate) fn kill_frame(&mut self, t: Tid, allocas: &[u64]) {
        self.end_frame(t, allocas, crate::memory::Life::Dead);
    }

    /// [`Machine::kill_frame`] with the objects' new `life` (a thread's
    /// frames at its `pthread_exit`: [`crate::memory::Life::Exited`]).
    pub(crate) fn end_frame(&mut self, t: Tid, allocas: &[u64], life: crate::memory::Life) {
        // (Looked up once per frame, and only for a shared object.)
        let mut last: Option<Option<usize>> = None;
        for a in allocas {
            if self.mem.is_shared(*a) {
                let size = self.mem.size_of(*a) as u64;
                let i = *last.get_or_insert_with(|| self.events.iter().rposition(|e| e.thread == t));
                if let Some(i) = i {
                    self.deaths.push((i, *a, size));
                }
            }
            self.mem.end_life(*a, life.clone());
        }
    }

    fn event_record(&self, seq: usize, e: &Event) -> EventRecord {
        use EventKind::*;
        let mem = e.kind.is_memory_access();
        let sync_obj = e.kind.on_sync_object() || matches!(e.kind, WaitReturn | Free | Once);
        let other = matches!(e.kind, Fork | Join).then(|| self.names.get(e.addr as usize).cloned()).flatten();
        // Bulk accesses (memcpy of a struct) show their size instead of a value.
        let bulk = mem && (e.size > 8 || self.bulk.iter().any(|b| b.event == seq));
        let value = if (mem && !bulk) || matches!(e.kind, Exit) {
            Some(self.format_access(e.value, e))
        } else if e.kind == WaitReturn && e.value == 0 {
            // A timed wait that returned without a signal.
            Some("timed out".to_string())
        } else {
            None
        };
        EventRecord {
            seq,
            thread: self.names[e.thread as usize].clone(),
            kind: e.kind,
            object: (mem || sync_obj).then(|| {
                // A free is of the block, not of its first field.
                let name = match e.kind {
                    Free => self.object_name(e.addr),
                    _ if mem => self.describe_access(e.addr, e.size as u64),
                    _ => self.describe_brief(e.addr),
                };
                if bulk {
                    EventRecord::bulk_object(&self.describe_bulk(seq, e), e.size)
                } else {
                    name
                }
            }),
            width: mem.then_some(e.size),
            value,
            new_value: (e.kind == Rmw).then(|| self.format_access(e.value2, e)),
            other_thread: other,
            location: self.loc_of(e.loc),
            atomic: e.atomic,
            flushed: e.buffered(self.cfg.memory_model),
            local_of: (mem || sync_obj).then(|| self.local_of(e.addr)).flatten(),
        }
    }

    /// FNV-1a digest of the bytes of every global variable.
    fn globals_digest(&self) -> u64 {
        let globals = self.mem.allocs.iter().filter(|a| matches!(a.kind, AllocKind::Global { .. }));
        causa_core::paths::fnv1a(globals.flat_map(|a| &a.bytes))
    }

    /// The object at `addr` as a person would name it.
    pub fn describe(&self, addr: u64) -> String {
        self.describe_as(addr, self.describe_brief(addr))
    }

    /// The frame the object at `addr` is a local variable of, if it is one.
    fn local_of(&self, addr: u64) -> Option<causa_core::LocalOf> {
        match &self.mem.allocs.get(self.mem.locate(addr).0)?.kind {
            AllocKind::Stack { thread, function, .. } => Some(causa_core::LocalOf {
                function: function.to_string(),
                thread: self.names.get(*thread as usize)?.clone(),
            }),
            _ => None,
        }
    }

    /// The object `addr` points into, as a whole (`heap#1 (malloc at
    /// a.c:9)`, not its first field): what a `free` names.
    pub fn describe_object(&self, addr: u64) -> String {
        let id = self.mem.locate(addr).0;
        let name = self.object_root(id).map_or_else(|| format!("{addr:#x}"), |(n, _)| n);
        self.describe_as(addr, name)
    }

    fn describe_as(&self, addr: u64, brief: String) -> String {
        let id = self.mem.locate(addr).0;
        let prog = &self.prep.program;
        match self.mem.allocs.get(id).map(|a| &a.kind) {
            Some(AllocKind::Stack { thread, function, .. }) => {
                format!("{brief} (local of {function} in thread {})", self.names[*thread as usize])
            }
            Some(AllocKind::ThreadLocal { thread, .. }) => {
                format!("{brief} (thread-local, thread {}'s)", self.names[*thread as usize])
            }
            Some(AllocKind::Heap { site, by, .. }) => match prog.loc(*site) {
                Some(l) => format!("{brief} ({by} at {}:{})", short_file(&l.file), l.line),
                None => format!("{brief} ({by})"),
            },
            _ => brief,
        }
    }

    /// A value `e` read or wrote, as its event shows it: a `double` or
    /// `float` object's as a number ([`crate::naming::format_typed`]), any
    /// other as [`Machine::format_value`] shows it.
    fn format_access(&self, v: u128, e: &Event) -> String {
        let (id, off) = self.mem.locate(e.addr);
        let root = e.kind.is_memory_access().then(|| self.object_root(id)).flatten();
        let scalar = root.as_ref().and_then(|(_, ty)| crate::naming::scalar_and_bits_at(ty, off));
        // The integer bit-fields are kept in, accessed whole: their values.
        if let Some((Ty::Int(n), bits)) = scalar {
            if !bits.is_empty() && *n as u64 == e.size as u64 * 8 {
                return crate::naming::format_bits(v, bits);
            }
        }
        match scalar.map(|(ty, _)| ty) {
            Some(ty @ (Ty::F64 | Ty::F32)) => crate::naming::format_typed(v, e.size, Some(ty)),
            // An object declared as an integer holds a number, even one
            // that looks like an address (`0x100000001` in a `uint64_t`
            // is not `&seqno+1`).
            Some(Ty::Int(64)) if e.size == 8 => (v as u64 as i64).to_string(),
            Some(Ty::Int(bits)) if *bits as u64 == e.size as u64 * 8 => crate::naming::format_value(v, e.size),
            _ => self.format_value(v, e.size),
        }
    }

    /// A value of `size` bytes as events show it: a pointer into an object
    /// as `&` and the object's name (`&heap#2`, `&buf[3]`), a function
    /// pointer as the function's name, anything else as a number
    /// ([`crate::naming::format_value`]).
    pub fn format_value(&self, v: u128, size: u32) -> String {
        let x = v as u64;
        if size as u64 != self.prep.program.space.layout.ptr_bytes || !self.tagged_pointer(x) {
            return crate::naming::format_value(v, size);
        }
        match self.mem.allocs.get(self.mem.locate(x).0).map(|a| &a.kind) {
            None | Some(AllocKind::Null) => crate::naming::format_value(v, size),
            Some(AllocKind::Function { id }) => self.prep.program.functions[*id as usize].name.to_string(),
            // A pointer to a string literal's start is the literal, as C
            // writes it (`"plum"`, not `&"plum"`).
            _ => match self.pointed_name(x) {
                name if name.starts_with('"') && name.ends_with('"') => name,
                name => format!("&{name}"),
            },
        }
    }

    /// The object at `addr` as a whole at its start (`heap#1`, not its first
    /// field `heap#1.len`), else as [`Machine::describe_brief`] names it.
    fn object_name(&self, addr: u64) -> String {
        match self.mem.locate(addr) {
            (id, 0) => self.object_root(id).map_or_else(|| format!("{addr:#x}"), |(name, _)| name),
            _ => self.describe_brief(addr),
        }
    }

    /// What a pointer to `addr` points to: the object at its start, else
    /// the outermost element or field starting at `addr`
    /// ([`crate::naming::pointed`]: `&names[1]`, not `&names[1][0]`).
    fn pointed_name(&self, addr: u64) -> String {
        match self.mem.locate(addr) {
            // The first row of a table (`&names[0]`, like `&names[1]`).
            (id, 0) => match self.object_root(id) {
                Some((name, Ty::Array(elem, _))) if matches!(*elem, Ty::Array(..) | Ty::Struct(_)) => {
                    format!("{name}[0]")
                }
                _ => self.object_name(addr),
            },
            (id, off) => match self.object_root(id) {
                Some((name, ty)) => crate::naming::pointed(&name, &ty, off),
                None => format!("{addr:#x}"),
            },
        }
    }

    /// Whether `x` has the shape of an address into an object (tagged
    /// address spaces only: in a flat one any number could be).
    fn tagged_pointer(&self, x: u64) -> bool {
        self.prep.program.space.tagged() && x >> causa_ir::ADDR_SHIFT != 0 && (x >> 48) == 0
    }

    /// The object at `addr` in a few characters, for event listings: `counter`,
    /// `buf[3]`, `heap#2+8`, a local's name.
    pub fn describe_brief(&self, addr: u64) -> String {
        self.named_at(addr, crate::naming::with_offset)
    }

    /// `name(object, its type, offset)` for the object `addr` is in; the
    /// address in hex when it is in none.
    fn named_at(&self, addr: u64, name: impl FnOnce(&str, &Ty, u64) -> String) -> String {
        let (id, off) = self.mem.locate(addr);
        match self.object_root(id) {
            Some((n, ty)) => name(&n, &ty, off),
            None => format!("{addr:#x}"),
        }
    }

    /// The object an access of `size` bytes at `addr` reads or writes
    /// ([`crate::naming::accessed`]: a union's member of that size).
    fn describe_access(&self, addr: u64, size: u64) -> String {
        self.named_at(addr, |name, ty, off| crate::naming::accessed(name, ty, off, size))
    }

    /// What bulk event `seq` touches: its span, or every span it read
    /// (`strcmp` of two shared strings: "primary and backup").
    fn describe_bulk(&self, seq: usize, e: &Event) -> String {
        let reads = self.bulk.iter().find(|b| b.event == seq && b.writes.is_empty()).map(|b| &b.reads[..]);
        match reads {
            Some(spans) if spans.len() > 1 => {
                let names: Vec<String> = spans.iter().map(|(a, d)| self.describe_span(*a, d.len() as u64)).collect();
                names.join(" and ")
            }
            _ => self.describe_span(e.addr, e.size as u64),
        }
    }

    /// What `len` bytes from `addr` span, named ([`crate::naming::with_span`]).
    pub fn describe_span(&self, addr: u64, len: u64) -> String {
        self.named_at(addr, |name, ty, off| crate::naming::with_span(name, ty, off, Some(len)))
    }

    /// Allocation `id`'s name and what it holds (None: no object).
    fn object_root(&self, id: usize) -> Option<(String, Ty)> {
        let prog = &self.prep.program;
        let a = self.mem.allocs.get(id)?;
        Some(match &a.kind {
            AllocKind::Null => return None,
            AllocKind::Global { index } => {
                let g = &prog.globals[*index as usize];
                let literal = crate::naming::literal(&g.name, &g.ty, g.is_const, &g.init);
                (literal.unwrap_or_else(|| g.name.to_string()), g.ty.clone())
            }
            AllocKind::Function { id } => (format!("function {}", prog.functions[*id as usize].name), Ty::Void),
            AllocKind::Hidden { name } => (name.to_string(), Ty::Ptr),
            AllocKind::Stack { name, ty, .. } => (name.as_deref().unwrap_or("stack object").to_string(), ty.clone()),
            // Named as a heap block is: by thread, but for `main`'s.
            AllocKind::ThreadLocal { thread, index } => {
                let g = &prog.globals[*index as usize];
                let name = match thread {
                    0 => g.name.to_string(),
                    t => format!("{}@{}", g.name, self.names[*t as usize]),
                };
                (name, g.ty.clone())
            }
            AllocKind::Heap { thread, seq, site, .. } => {
                // A block of several of them is an array.
                let ty = match prog.heap_types.get(site) {
                    Some(t) if t.alloc_size() > 0 && (a.bytes.len() as u64) > t.alloc_size() => {
                        Ty::Array(std::sync::Arc::new(t.clone()), a.bytes.len() as u64 / t.alloc_size())
                    }
                    Some(t) => t.clone(),
                    None => Ty::Void,
                };
                (self.heap_name(*thread, *seq), ty)
            }
        })
    }

    /// The thread inside an uninterruptible section, if any: only it may move.
    pub(crate) fn section_owner(&self) -> Option<Tid> {
        self.threads.iter().position(|t| t.atomic_depth > 0 && !t.is_finished()).map(|t| t as Tid)
    }

    /// Thread `t` enters an uninterruptible section (nested ones join the outer).
    pub fn enter_atomic(&mut self, t: Tid) {
        if self.threads[t as usize].atomic_depth == 0 {
            self.sections += 1;
            self.threads[t as usize].section = self.sections;
        }
        self.threads[t as usize].atomic_depth += 1;
    }

    /// Mark that `t` finished its start routine with `retval`.
    pub fn thread_returned(&mut self, t: Tid, retval: u64) -> Result<(), Stop> {
        let th = &mut self.threads[t as usize];
        th.retval = retval;
        th.frames.clear();
        if th.destructor_calls == 0 {
            th.returned_at = th.loc;
        }
        if !self.call_key_destructor(t)? {
            let th = &mut self.threads[t as usize];
            th.pending = Pending::End;
            // (Its `end` is where it returned, not in a destructor.)
            th.loc = th.returned_at;
        }
        Ok(())
    }

    /// At the end of thread `t` (its start routine returned, or
    /// `pthread_exit`), as POSIX says: a key with a destructor whose value in
    /// `t` is not null gets the value null, and the destructor is called
    /// with the old value, in the thread, before its `end` (again while
    /// values remain, up to `PTHREAD_DESTRUCTOR_ITERATIONS`, 4, rounds over
    /// the keys). True when a destructor's frame was pushed; a destructor
    /// that is not a function is a memory error, as the call would be.
    fn call_key_destructor(&mut self, t: Tid) -> Result<bool, Stop> {
        const PTHREAD_DESTRUCTOR_ITERATIONS: usize = 4;
        let keys = &self.sync.keys;
        let th = &mut self.threads[t as usize];
        if th.destructor_calls as usize >= PTHREAD_DESTRUCTOR_ITERATIONS * keys.len() {
            return Ok(false);
        }
        let Some(slot) =
            th.specific.iter_mut().find(|(k, v)| *v != 0 && keys.get(*k as usize).is_some_and(|d| *d != 0))
        else {
            return Ok(false);
        };
        let (destructor, value, slot_key) = (keys[slot.0 as usize], slot.1, slot.0);
        slot.1 = 0;
        th.destructor_calls += 1;
        let Some(f) = self.program().function_at(destructor) else {
            return Err(Stop::memory(format!(
                "call through an invalid function pointer ({}): the destructor of thread-specific-data key {}",
                self.describe(destructor),
                slot_key
            )));
        };
        let nparams = self.program().functions[f as usize].params.len();
        let mut args = vec![Value::ZERO; nparams];
        if let Some(a) = args.first_mut() {
            *a = Value::Int(value as u128);
        }
        self.threads[t as usize].pending = Pending::Instr;
        self.push_call(t, f, args, causa_ir::NONE, crate::thread::OnReturn::Discard);
        Ok(true)
    }
}

impl crate::memory::Names for Machine {
    fn at(&self, addr: u64) -> String {
        self.describe(addr)
    }
    fn object(&self, addr: u64) -> String {
        self.describe_object(addr)
    }
}
