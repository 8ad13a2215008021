//! Library calls that are more than one event or a value: `pthread_once`
//! (the routine runs in the first caller, as the run's call found it) and
//! the C library's clocks, pseudo-random numbers and constant answers.

use super::{Reg, Thread};
use crate::trace::SymOp;
use crate::SymError;
use causa_ir::{Operand, NONE};

impl Thread<'_, '_> {
    /// `pthread_once(once, routine)`, as the recorded run's call found it:
    /// the first caller runs the routine (marked done when it returns), a
    /// caller that found it running waits, one that found it done goes on.
    pub(super) fn once(&mut self, args: &[Operand], dest: u32) -> Result<bool, SymError> {
        let once = self.addr_arg(args, 0, "pthread_once")?;
        let Some(&found) = self.path.onces.get(self.next_once) else {
            self.stopped_here("`pthread_once` calls", self.path.onces.len())?;
            return Ok(self.stop_unfinished());
        };
        self.next_once += 1;
        let ret = self.zero(32);
        self.set(dest, ret);
        self.sync(SymOp::OnceCall { once, found });
        match found as u128 {
            causa_core::once_step::CALLED_FIRST => {
                let routine = args.get(1).map(|a| self.int(a, 64)).transpose()?;
                let f = routine
                    .and_then(|r| self.st.trace.exprs.value(r))
                    .and_then(|a| self.st.program.function_at(a as u64))
                    .ok_or_else(|| self.unsupported("`pthread_once` with a routine computed from shared data"))?;
                let nparams = self.st.program.functions[f as usize].params.len();
                let params = (0..nparams).map(|_| self.zero(64)).collect();
                self.push(f, params, NONE)?;
                if let Some(fr) = self.frames.last_mut() {
                    fr.once_done = Some(once);
                }
            }
            causa_core::once_step::FOUND_RUNNING => self.sync(SymOp::OnceResume { once }),
            _ => {}
        }
        Ok(true)
    }
}

/// The C library's clocks and pseudo-random numbers: the interpreter's
/// virtual clock counts steps and `rand`'s state is the process's, so a
/// value depends on the schedule. Each read takes the value the run read
/// ([`causa_core::paths::ThreadPath::values`]); an alternate whose replay
/// reads another value and goes another way for it fails its replay, and
/// is not shown as explaining anything.
impl Thread<'_, '_> {
    /// `clock_gettime`, `gettimeofday`, `clock`, `time`, `rand`, `random`,
    /// `srand`, `srandom` (and the constant `getpid`, `getenv`), as the
    /// interpreter answers them. None: the thread stops before the call
    /// (`library_value`).
    pub(crate) fn libc_values(&mut self, name: &str, args: &[Operand]) -> Result<Option<Option<Reg>>, SymError> {
        let word = self.st.program.space.layout.ptr_bytes as u32;
        macro_rules! value {
            () => {
                match self.library_value(name)? {
                    Some(v) => v,
                    None => return Ok(self.stopped_before()),
                }
            };
        }
        Ok(Some(Some(match name {
            "time" => {
                let p = self.pointer_arg(args, 0, name)?;
                if p != 0 {
                    self.store_constant(name, p, word, 0)?;
                }
                self.int_reg(64, 0)
            }
            "getpid" => self.int_reg(32, 4242),
            // (Seeding changes the values to come, which the run recorded.)
            "srand" | "srandom" => return Ok(Some(None)),
            "rand" => {
                let v = value!();
                self.int_reg(32, v as u32 as u128)
            }
            "random" => {
                let v = value!();
                self.int_reg(64, v as u128)
            }
            "getenv" => self.int_reg(64, 0),
            "clock" => {
                let ns = value!();
                self.int_reg(64, (ns / 1000) as u128)
            }
            "clock_gettime" => {
                // (An unknown clock fails there without reading the clock.)
                let clk = match args.first() {
                    Some(a) => self.int(a, 32)?,
                    None => return Err(SymError::Mismatch("clock_gettime: missing argument".into())),
                };
                if !self.constant(clk).is_some_and(|c| (0..=11).contains(&(c as u32 as i32))) {
                    return Err(self.unsupported("`clock_gettime` of an unknown clock"));
                }
                let ns = value!();
                let ts = self.pointer_arg(args, 1, name)?;
                self.store_constant(name, ts, word, (ns / 1_000_000_000) as u128)?;
                self.store_constant(name, ts + word as u64, word, (ns % 1_000_000_000) as u128)?;
                self.int_reg(32, 0)
            }
            "gettimeofday" => {
                let us = value!() / 1000;
                let (tv, tz) = (self.pointer_arg(args, 0, name)?, self.pointer_arg(args, 1, name)?);
                if tv != 0 {
                    self.store_constant(name, tv, word, (us / 1_000_000) as u128)?;
                    self.store_constant(name, tv + word as u64, word, (us % 1_000_000) as u128)?;
                }
                if tz != 0 {
                    self.store_constant(name, tz, 4, 0)?;
                    self.store_constant(name, tz + 4, 4, 0)?;
                }
                self.int_reg(32, 0)
            }
            // A file's position (`ftell`) and a seek's result (`fseek`),
            // noted by the run.
            "ftell" => {
                let v = value!();
                self.int_reg(64, v as u128)
            }
            // A descriptor `open` returned and `close`'s result, noted
            // likewise.
            "fseek" | "open" | "close" => {
                let v = value!();
                self.int_reg(32, v as u32 as u128)
            }
            _ => return Ok(Some(None)),
        })))
    }

    /// The run's value of a clock read, pseudo-random number or file read. None: the
    /// run stopped the thread before this call (its recorded path has no
    /// decision left either), where it stops here too (`stopped_here`).
    pub(super) fn library_value(&mut self, name: &str) -> Result<Option<u64>, SymError> {
        let Some(&v) = self.path.values.get(self.next_value) else {
            let what = format!("library values (clock reads, pseudo-random numbers, file reads: `{name}`)");
            self.stopped_here(&what, self.path.values.len())?;
            return Ok(None);
        };
        self.next_value += 1;
        Ok(Some(v))
    }

    /// Whether the thread's next lock or semaphore try took it, as the
    /// log's [`causa_core::paths::ThreadPath::tries`] say (`what`: the
    /// tries, for the error when the log has no more).
    /// None: the run stopped the thread before this try (its recorded
    /// path has no decision left either: a thread created but never run,
    /// or cut short by the failure), where it stops here too.
    fn next_try(&mut self, what: &str) -> Result<Option<bool>, SymError> {
        let Some(&took) = self.path.tries.get(self.next_try) else {
            self.stopped_here(what, self.path.tries.len())?;
            return Ok(None);
        };
        self.next_try += 1;
        Ok(Some(took))
    }

    /// The log has no more of the thread's `what` (`recorded` in all):
    /// Ok when the run stopped the thread here (its recorded path has no
    /// decision left either: a thread created but never run, or cut short
    /// by the failure), which then stops here too; else the path does not
    /// fit ([`Thread::missing`]).
    fn stopped_here(&self, what: &str, recorded: usize) -> Result<(), SymError> {
        if self.next_decision >= self.path.decisions.len() {
            Ok(())
        } else {
            Err(self.missing(what, recorded))
        }
    }

    /// The thread makes more `what` than its recorded path has outcomes for.
    fn missing(&self, what: &str, recorded: usize) -> SymError {
        SymError::Mismatch(format!(
            "thread {} makes more {what} than the {recorded} its recorded path has",
            self.path.thread
        ))
    }

    /// A pointer argument's one value (0: null).
    fn pointer_arg(&mut self, args: &[Operand], i: usize, what: &str) -> Result<u64, SymError> {
        let p = match args.get(i) {
            Some(a) => self.pointer(a)?,
            None => return Err(SymError::Mismatch(format!("{what}: missing argument"))),
        };
        self.constant(p)
            .ok_or_else(|| self.unsupported(format!("`{what}` through a pointer computed from shared data")))
    }

    /// A constant stored by a library function into the thread's own memory.
    pub(super) fn store_constant(&mut self, what: &str, addr: u64, size: u32, v: u128) -> Result<(), SymError> {
        if !self.classify(addr).0 {
            return Err(self.unsupported(format!("`{what}` writing shared memory")));
        }
        self.overwrite(addr, size)?;
        let r = self.int_reg(size * 8, v);
        self.local.insert(addr, (size, r));
        Ok(())
    }

    /// `pthread_mutex_trylock`, `pthread_spin_trylock`,
    /// `pthread_mutex_timedlock`, as the run's call went: it took the lock
    /// (a lock), or found it held (EBUSY; a timed lock times out at once in
    /// the interpreter: ETIMEDOUT, or EINVAL for an invalid time, or
    /// EDEADLK for an error-checking mutex the caller holds, which a
    /// branch on the answer tells apart: such a path is reported as not
    /// fitting).
    /// None: the thread stops before it (`next_try`).
    pub(crate) fn trylock(&mut self, name: &str, args: &[Operand]) -> Result<Option<Option<Reg>>, SymError> {
        let mutex = self.addr_arg(args, 0, name)?;
        let busy = if name == "pthread_mutex_timedlock" { ETIMEDOUT } else { EBUSY };
        // A recursive mutex its holder takes again (a default one is busy).
        let again = name != "pthread_spin_trylock" && self.holds(mutex);
        let took = (if again { SymOp::Relock { mutex } } else { SymOp::Lock { mutex, shared: false } }, 0);
        self.try_as_recorded(&format!("lock tries (`{name}`)"), took, (SymOp::TrylockFail { mutex }, busy))
    }

    /// `lock` is a reader-writer lock ([`crate::SymTrace::rwlocks`]).
    pub(crate) fn note_rwlock(&mut self, lock: u64) {
        self.st.trace.rwlocks.insert(lock);
    }

    /// `pthread_rwlock_tryrdlock(l)`/`pthread_rwlock_trywrlock(l)`: it took
    /// the lock (0) or found it held (EBUSY) as the run's did. (A failed
    /// read try is modelled as finding the lock held by any other thread;
    /// it needs a writer there: an alternate that puts it inside another
    /// reader's section only fails on replay.) None: the thread stops
    /// before it.
    pub(crate) fn rwlock_try(&mut self, name: &str, args: &[Operand]) -> Result<Option<Option<Reg>>, SymError> {
        let lock = self.addr_arg(args, 0, name)?;
        self.note_rwlock(lock);
        let took = (SymOp::Lock { mutex: lock, shared: name == "pthread_rwlock_tryrdlock" }, 0);
        self.try_as_recorded(&format!("lock tries (`{name}`)"), took, (SymOp::TrylockFail { mutex: lock }, EBUSY))
    }

    /// `sem_trywait(sem)`/`sem_timedwait(sem, t)`: it took a unit (0) or
    /// found none (-1, errno not modelled) as the run's did.
    /// None: the thread stops before it (`next_try`).
    pub(crate) fn sem_try(&mut self, name: &str, args: &[Operand]) -> Result<Option<Option<Reg>>, SymError> {
        let sem = self.addr_arg(args, 0, name)?;
        let took = (SymOp::SemWait { sem, tried: true }, 0);
        self.try_as_recorded(&format!("semaphore tries (`{name}`)"), took, (SymOp::SemFail { sem }, u32::MAX as u128))
    }

    /// `pthread_cond_timedwait(cond, mutex, t)`: the wait, then its return
    /// woken (0) or timed out (ETIMEDOUT) as the run's was. When the run
    /// ended while the thread waited, the thread stops in the wait (at the
    /// log's deadlock, blocked in its return: re-acquiring the mutex).
    pub(crate) fn timed_wait(&mut self, args: &[Operand]) -> Result<Option<Option<Reg>>, SymError> {
        let name = "pthread_cond_timedwait";
        let (cond, mutex) = (self.addr_arg(args, 0, name)?, self.addr_arg(args, 1, name)?);
        self.sync(SymOp::Wait { cond, mutex });
        let Some(woken) = self.next_try("timed condition waits")? else {
            if self.at_failure(causa_core::BugKind::Deadlock) {
                self.sync(SymOp::WaitReturn { cond, mutex, timed: true, woken: false });
                return Ok(Some(Some(self.int_reg(32, ETIMEDOUT))));
            }
            return Ok(self.stopped_before());
        };
        self.sync(SymOp::WaitReturn { cond, mutex, timed: true, woken });
        Ok(Some(Some(self.int_reg(32, if woken { 0 } else { ETIMEDOUT }))))
    }

    /// A try (`what`, for the error) as the run's went: its event and
    /// 32-bit answer when it took the object, or when it did not; None when
    /// the thread stops before it (`next_try`).
    fn try_as_recorded(
        &mut self,
        what: &str,
        took: (SymOp, u128),
        failed: (SymOp, u128),
    ) -> Result<Option<Option<Reg>>, SymError> {
        let Some(t) = self.next_try(what)? else {
            return Ok(self.stopped_before());
        };
        let (op, answer) = if t { took } else { failed };
        self.sync(op);
        Ok(Some(Some(self.int_reg(32, answer))))
    }
}

/// `pthread_mutex_trylock`'s and `pthread_mutex_timedlock`'s answers for
/// a held mutex.
const EBUSY: u128 = 16;
const ETIMEDOUT: u128 = 110;
