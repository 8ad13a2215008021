//! Thread-specific data, as the interpreter runs it
//! (`causa_interp::shims::pthread::key`): creating a key writes its number
//! into the program's `pthread_key_t` (a shared write when that is shared);
//! each thread's values are its own; at a thread's end (its start routine
//! returned, or `pthread_exit`; not `main`'s return, which ends the program)
//! each key with a destructor whose value is not null gets null, and the
//! destructor is called with the old value, again while values remain, up
//! to 4 rounds over the keys.
//!
//! Keys are numbered in the order they are created. Symbolic execution
//! runs one thread after another, so it numbers them as the run did only
//! when one thread creates them all: keys created by two threads are
//! reported as unsupported.

use super::{Reg, Thread};
use crate::SymError;
use causa_ir::{Operand, Ty, NONE};

/// glibc's `PTHREAD_DESTRUCTOR_ITERATIONS`.
const DESTRUCTOR_ROUNDS: usize = 4;
/// `EINVAL`.
const EINVAL: u128 = 22;

/// The keys created so far, and the thread creating them.
#[derive(Default)]
pub(super) struct Keys {
    /// Each key's destructor (a function address; 0: none).
    destructors: Vec<u64>,
    creator: Option<usize>,
}

/// One thread's side: its values, and its end's destructor calls.
#[derive(Default)]
pub(super) struct Specific {
    /// (key, value), in the order first set.
    values: Vec<(u32, Reg)>,
    calls: usize,
    /// Where the thread returned, before its destructors ran (its `end`'s
    /// location).
    returned_at: Option<causa_ir::LocId>,
    /// It called `pthread_exit` (for `main`: destructors run then).
    pub(super) exited: bool,
}

impl Thread<'_, '_> {
    /// `pthread_key_create`, `pthread_key_delete`, `pthread_setspecific`,
    /// `pthread_getspecific`.
    pub(crate) fn key_call(&mut self, name: &str, args: &[Operand]) -> Result<Option<Reg>, SymError> {
        Ok(Some(match name {
            "pthread_key_create" => self.key_create(args)?,
            "pthread_key_delete" => {
                let key = self.concrete_arg(args, 0, 32, name)?;
                self.errno_if(key as usize >= self.st.keys.destructors.len())
            }
            "pthread_setspecific" => {
                let key = self.concrete_arg(args, 0, 32, name)? as u32;
                if key as usize >= self.st.keys.destructors.len() {
                    return Ok(Some(self.errno_if(true)));
                }
                let v = self.pointer(args.get(1).ok_or_else(|| self.missing_arg(name))?)?;
                // (The interpreter lets the value's object escape.)
                self.escape_expr(v);
                match self.specific.values.iter_mut().find(|(k, _)| *k == key) {
                    Some(slot) => slot.1 = Reg::Int(v),
                    None => self.specific.values.push((key, Reg::Int(v))),
                }
                self.errno_if(false)
            }
            "pthread_getspecific" => {
                let key = self.concrete_arg(args, 0, 32, name)? as u32;
                match self.specific.values.iter().find(|(k, _)| *k == key) {
                    Some((_, v)) => v.clone(),
                    None => self.zero(64),
                }
            }
            _ => return Ok(None),
        }))
    }

    fn key_create(&mut self, args: &[Operand]) -> Result<Reg, SymError> {
        const NAME: &str = "pthread_key_create";
        if self.st.keys.creator.is_some_and(|c| c != self.index) {
            return Err(self.unsupported("thread-specific data keys created by more than one thread"));
        }
        self.st.keys.creator = Some(self.index);
        let at = self.addr_arg(args, 0, NAME)?;
        let destructor = self.concrete_arg(args, 1, 64, NAME)? as u64;
        let id = self.st.keys.destructors.len() as u128;
        self.st.keys.destructors.push(destructor);
        let v = self.int_reg(32, id);
        if self.is_shared(at) {
            self.shared_write(at, None, v, &Ty::Int(32), false)?;
        } else {
            self.store_own(at, 4, v)?;
        }
        Ok(self.errno_if(false))
    }

    /// 0, or `EINVAL` when `invalid`.
    fn errno_if(&mut self, invalid: bool) -> Reg {
        self.int_reg(32, if invalid { EINVAL } else { 0 })
    }

    fn missing_arg(&self, name: &str) -> SymError {
        SymError::Mismatch(format!("{name}: missing argument"))
    }

    /// At the thread's end: push the next key destructor's frame, as the
    /// interpreter calls them; false when none is left to call.
    pub(super) fn next_key_destructor(&mut self) -> Result<bool, SymError> {
        if self.index == 0 && !self.specific.exited {
            return Ok(false);
        }
        let keys = &self.st.keys.destructors;
        if self.specific.calls >= DESTRUCTOR_ROUNDS * keys.len() {
            return Ok(false);
        }
        let mut found = None;
        for (i, (k, v)) in self.specific.values.iter().enumerate() {
            let destructor = keys.get(*k as usize).copied().unwrap_or(0);
            let Reg::Int(e) = v else { continue };
            if destructor == 0 {
                continue;
            }
            let Some(value) = self.st.trace.exprs.value(*e) else {
                return Err(self.unsupported("a thread-specific value computed from shared data, at the thread's end"));
            };
            if value != 0 {
                found = Some((i, *k, destructor, v.clone()));
                break;
            }
        }
        let Some((slot, key, destructor, value)) = found else { return Ok(false) };
        self.specific.values[slot].1 = self.zero(64);
        self.specific.calls += 1;
        if self.specific.returned_at.is_none() {
            self.specific.returned_at = Some(self.loc);
        }
        let f = self.st.program.function_at(destructor).ok_or_else(|| {
            self.unsupported(format!("the destructor of thread-specific-data key {key}, which is not a function"))
        })?;
        let nparams = self.st.program.functions[f as usize].params.len();
        let mut params: Vec<Reg> = (0..nparams).map(|_| self.zero(64)).collect();
        if let Some(p) = params.first_mut() {
            *p = value;
        }
        self.push(f, params, NONE)?;
        Ok(true)
    }

    /// The location of the thread's `end`: where it returned, when key
    /// destructors ran after.
    pub(super) fn end_location(&mut self) {
        if let Some(loc) = self.specific.returned_at {
            self.loc = loc;
        }
    }
}
