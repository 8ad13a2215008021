//! Control-flow paths of threads.
//!
//! Recording (`--record-paths`): the decisions `causa reproduce` needs to
//! follow each thread's path (see `causa_core::paths`), made by the
//! interpreter as it runs. Off unless [`crate::Config::record_paths`] is set.
//!
//! Following ([`crate::Config::follow`]): each thread must take the recorded
//! decisions of the thread of the same name, reads its program inputs,
//! clock values and pseudo-random numbers from that thread's record, and
//! its `pthread_once` calls and lock tries must find what the recorded ones
//! found. A thread that decides otherwise, goes past its recorded path, or
//! was not created in the recorded run ends the execution
//! as infeasible (the schedule does not follow the log): the path-guided
//! search of `causa reproduce` prunes such schedules at the first deviation.

use crate::machine::Machine;
use crate::outcome::Stop;
use causa_core::paths::{Decision, ThreadPath};
use causa_core::Tid;
use std::sync::Arc;

/// Where each thread is on its recorded path.
#[derive(Clone)]
pub(crate) struct Follow {
    paths: Arc<Vec<ThreadPath>>,
    /// By `Tid`.
    at: Vec<Option<Cursor>>,
}

/// A thread's place on its recorded path.
#[derive(Clone, Copy)]
struct Cursor {
    /// Index into [`Follow::paths`].
    path: usize,
    /// The next decision, input, `pthread_once` call, library value
    /// (clock read, pseudo-random number) and lock try.
    decision: usize,
    input: usize,
    once: usize,
    value: usize,
    try_: usize,
    size: usize,
}

impl Follow {
    pub(crate) fn new(paths: Arc<Vec<ThreadPath>>) -> Follow {
        Follow { paths, at: Vec::new() }
    }
}

impl Machine {
    fn path_of(&mut self, t: Tid) -> Option<&mut ThreadPath> {
        let paths = self.paths.as_mut()?;
        while paths.len() <= t as usize {
            paths.push(ThreadPath::new(self.names[paths.len()].clone()));
        }
        Some(&mut paths[t as usize])
    }

    /// Thread `t`'s cursor on its recorded path, when following.
    fn cursor(&mut self, t: Tid) -> Result<Option<(&ThreadPath, &mut Cursor)>, Stop> {
        let Some(f) = self.follow.as_mut() else { return Ok(None) };
        let i = t as usize;
        if f.at.len() <= i {
            f.at.resize(i + 1, None);
        }
        if f.at[i].is_none() {
            let name = &self.names[i];
            let Some(p) = f.paths.iter().position(|p| &p.thread == name) else {
                return Err(Stop::Infeasible(format!("thread {name} was not created in the recorded run")));
            };
            f.at[i] = Some(Cursor { path: p, decision: 0, input: 0, once: 0, value: 0, try_: 0, size: 0 });
        }
        let cur = f.at[i].as_mut().expect("set above");
        Ok(Some((&f.paths[cur.path], cur)))
    }

    /// Thread `t` took the decision `got`: recorded, or checked against the
    /// recorded path (`same`: whether the recorded decision is the same one).
    fn follow_decision(&mut self, t: Tid, same: impl Fn(&ThreadPath, Decision) -> bool) -> Result<(), Stop> {
        let name = self.names[t as usize].clone();
        let Some((path, cur)) = self.cursor(t)? else { return Ok(()) };
        let k = cur.decision;
        match path.decisions.get(k) {
            Some(d) if same(path, *d) => {
                cur.decision += 1;
                Ok(())
            }
            Some(_) => Err(Stop::Infeasible(format!(
                "thread {name} left its recorded path (decision {} of {})",
                k + 1,
                path.decisions.len()
            ))),
            None => Err(Stop::Infeasible(format!(
                "thread {name} went past the end of its recorded path ({} decisions)",
                path.decisions.len()
            ))),
        }
    }

    /// Thread `t` took a conditional branch (`taken`: its true successor) or a
    /// switch case (index, 0 for the default).
    pub(crate) fn note_decision(&mut self, t: Tid, d: Decision) -> Result<(), Stop> {
        if let Some(p) = self.path_of(t) {
            p.decisions.push(d);
        }
        self.follow_decision(t, |_, r| r == d)
    }

    /// Thread `t` called `function` through a pointer.
    pub(crate) fn note_indirect_call(&mut self, t: Tid, function: &str) -> Result<(), Stop> {
        if let Some(p) = self.path_of(t) {
            p.call(function);
        }
        self.follow_decision(
            t,
            |p, r| matches!(r, Decision::Call(i) if p.targets.get(i as usize).is_some_and(|f| f == function)),
        )
    }

    /// When following: the next program input thread `t` read in the recorded
    /// run (`function` must be the same input function).
    pub(crate) fn followed_input(&mut self, t: Tid, function: &str) -> Result<Option<i128>, Stop> {
        let name = self.names[t as usize].clone();
        let Some((path, cur)) = self.cursor(t)? else { return Ok(None) };
        match path.inputs.get(cur.input) {
            Some((f, v)) if f == function => {
                cur.input += 1;
                Ok(Some(*v))
            }
            _ => Err(Stop::Infeasible(format!(
                "thread {name} reads an input with `{function}` that its recorded path does not have"
            ))),
        }
    }

    /// Thread `t` read the program input `value` through `function`.
    pub(crate) fn note_input(&mut self, t: Tid, function: &str, value: i128) {
        if let Some(p) = self.path_of(t) {
            p.inputs.push((function.to_string(), value));
        }
    }

    /// Thread `t`'s `pthread_once` call found `found` ([`ThreadPath::onces`]);
    /// when following, the recorded call must have found the same.
    pub(crate) fn note_once(&mut self, t: Tid, found: u8) -> Result<(), Stop> {
        if let Some(p) = self.path_of(t) {
            p.onces.push(found);
        }
        let what = |o: u8| causa_core::once_step::describe(o.into());
        self.follow_outcome(t, "a `pthread_once` call", |p, c| (p.onces.get(c.once).copied(), &mut c.once), found, what)
    }

    /// Thread `t` reads the clock or draws a pseudo-random number, `v`: noted
    /// in its path, or, when following, the recorded run's value instead
    /// ([`ThreadPath::values`]).
    pub(crate) fn note_value(&mut self, t: Tid, v: u64) -> Result<u64, Stop> {
        let name = self.names[t as usize].clone();
        let v = match self.cursor(t)? {
            None => v,
            Some((path, cur)) => {
                let Some(&recorded) = path.values.get(cur.value) else {
                    return Err(Stop::Infeasible(format!(
                        "thread {name} reads the clock, draws a pseudo-random number or reads from a file more often than in the recorded run ({} library values)",
                        path.values.len()
                    )));
                };
                cur.value += 1;
                recorded
            }
        };
        if let Some(p) = self.path_of(t) {
            p.values.push(v);
        }
        Ok(v)
    }

    /// Thread `t` calls `function` with `args`: its arguments that
    /// [`causa_core::paths::SIZED_CALLS`] lists are noted in its path, or,
    /// when following, must be the recorded ones (past the last recorded
    /// one, nothing is checked: a log made without them). Those
    /// [`causa_core::paths::OBJECT_CALLS`] lists are noted, never checked.
    pub(crate) fn note_sizes(&mut self, t: Tid, function: &str, args: &[causa_ir::Value]) -> Result<(), Stop> {
        // (Every library call comes here: the testing loop neither records
        // nor follows a path.)
        if self.paths.is_none() && self.follow.is_none() {
            return Ok(());
        }
        for &i in causa_core::paths::sized_args(function) {
            let v = crate::shims::arg(args, i) as u64;
            if let Some(p) = self.path_of(t) {
                p.sizes.push(v);
            }
            let name = self.names[t as usize].clone();
            if let Some((path, cur)) = self.cursor(t)? {
                if let Some(&recorded) = path.sizes.get(cur.size) {
                    if recorded != v {
                        return Err(Stop::Infeasible(format!(
                            "thread {name} calls `{function}` with {v} as argument {}, but in the recorded run with {recorded}",
                            i + 1
                        )));
                    }
                    cur.size += 1;
                }
            }
        }
        self.note_objects(t, function, args);
        // A formatting call's integer and pointer arguments: recorded, not
        // compared (a native recording's pointers are its own addresses).
        if let Some(from) = causa_core::paths::format_args_from(function) {
            let ints: Vec<u64> = args
                .iter()
                .skip(from)
                .filter_map(|a| match a {
                    causa_ir::Value::Int(v) => Some(*v as u64),
                    _ => None,
                })
                .collect();
            if let Some(p) = self.path_of(t) {
                p.sizes.extend(&ints);
            }
            if let Some((_, cur)) = self.cursor(t)? {
                cur.size += ints.len();
            }
        }
        Ok(())
    }

    /// Thread `t`'s lock or semaphore try took the lock (a unit) or not, or
    /// its timed condition wait was woken or not ([`ThreadPath::tries`]);
    /// when following, the recorded try must have done the same.
    pub(crate) fn note_try(&mut self, t: Tid, took: bool) -> Result<(), Stop> {
        if let Some(p) = self.path_of(t) {
            p.tries.push(took);
        }
        let what = |b: bool| if b { "took it (or was woken)" } else { "found it unavailable (or timed out)" };
        self.follow_outcome(
            t,
            "a lock or semaphore try (or timed condition wait)",
            |p, c| (p.tries.get(c.try_).copied(), &mut c.try_),
            took,
            what,
        )
    }

    /// When following: the outcome `got` of thread `t`'s next `what` must be
    /// the recorded one (`next`: the recorded outcome at the cursor and the
    /// cursor's index to advance).
    fn follow_outcome<T: PartialEq + Copy>(
        &mut self,
        t: Tid,
        what: &str,
        next: impl for<'a> Fn(&ThreadPath, &'a mut Cursor) -> (Option<T>, &'a mut usize),
        got: T,
        say: impl Fn(T) -> &'static str,
    ) -> Result<(), Stop> {
        let name = self.names[t as usize].clone();
        let Some((path, cur)) = self.cursor(t)? else { return Ok(()) };
        match next(path, cur) {
            (Some(r), at) if r == got => {
                *at += 1;
                Ok(())
            }
            (Some(r), _) => Err(Stop::Infeasible(format!(
                "thread {name}'s {what} {}, but in the recorded run it {}",
                say(got),
                say(r)
            ))),
            (None, _) => {
                Err(Stop::Infeasible(format!("thread {name} makes {what} that its recorded path does not have")))
            }
        }
    }

    /// Every thread's path (empty when not recording).
    pub(crate) fn take_paths(&mut self) -> Vec<ThreadPath> {
        let n = self.threads.len() as Tid;
        if self.paths.is_none() {
            return Vec::new();
        }
        if n > 0 {
            let _ = self.path_of(n - 1);
        }
        // A thread the run leaves parked at a synchronisation call it never
        // made (blocked at a lock in a deadlock) has that call's objects
        // noted too: symbolic execution follows it up to that call.
        for t in 0..n {
            if let Some((function, args)) = self.parked_call(t) {
                self.note_objects(t, &function, &args);
            }
        }
        self.paths.take().unwrap_or_default()
    }

    /// A synchronisation call's objects ([`causa_core::paths::OBJECT_CALLS`]),
    /// noted in thread `t`'s path: recorded, not compared (an address
    /// depends on the order of allocations; a native recording has none).
    fn note_objects(&mut self, t: Tid, function: &str, args: &[causa_ir::Value]) {
        for &i in causa_core::paths::object_args(function) {
            let v = crate::shims::arg(args, i) as u64;
            if let Some(p) = self.path_of(t) {
                p.objects.push(v);
            }
        }
    }

    /// The library function thread `t` is parked at (not yet called), and
    /// its arguments.
    fn parked_call(&self, t: Tid) -> Option<(String, Vec<causa_ir::Value>)> {
        let th = &self.threads[t as usize];
        if th.pending != crate::thread::Pending::Instr {
            return None;
        }
        let fr = th.frames.last()?;
        let body = self.prep.program.functions[fr.func as usize].body.as_ref()?;
        let ins = body.blocks.get(fr.block as usize)?.instrs.get(fr.ip as usize)?;
        let causa_ir::Op::Call { callee: causa_ir::Callee::Direct(f), args, .. } = &ins.op else {
            return None;
        };
        let name = self.prep.program.functions[*f as usize].name.to_string();
        Some((name, args.iter().map(|a| crate::step::val(&fr.regs, a)).collect()))
    }
}
