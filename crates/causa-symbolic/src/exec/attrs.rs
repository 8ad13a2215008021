//! Thread and mutex attribute objects, as the interpreter keeps them
//! (causa-interp's `shims/pthread/thread.rs` and `mutex.rs`): the detach
//! state at offset 0 of a `pthread_attr_t`, the stack size one word in
//! (0: the default), the type at offset 0 of a `pthread_mutexattr_t`.
//! Their setters store into the object and their getters read it back,
//! followed when the object is the thread's own (a local `attr`, as usual);
//! a getter on one in shared memory is reported as unsupported, as the
//! interpreter's stores into it are no visible operations.

use super::{Reg, Thread};
use crate::SymError;
use causa_ir::{Operand, Ty};

const EINVAL: u128 = 22;
/// glibc's default stack size, which `pthread_attr_getstacksize` reports
/// for an attribute whose size was never set (as the interpreter does).
const DEFAULT_STACK: u128 = 8 << 20;
const STACK_MIN: u128 = 16384;

impl Thread<'_, '_> {
    /// Whether [`Thread::attribute_call`] follows `name`.
    pub(crate) fn is_attribute_call(name: &str) -> bool {
        matches!(
            name,
            "pthread_attr_init"
                | "pthread_attr_setdetachstate"
                | "pthread_attr_getdetachstate"
                | "pthread_attr_setstacksize"
                | "pthread_attr_getstacksize"
                | "pthread_mutexattr_init"
                | "pthread_mutexattr_settype"
                | "pthread_mutexattr_gettype"
        )
    }

    /// The value `name` (one of [`Thread::is_attribute_call`]) returns,
    /// its stores made.
    pub(crate) fn attribute_call(&mut self, name: &str, args: &[Operand]) -> Result<Reg, SymError> {
        let word = self.st.program.space.layout.ptr_bytes;
        let attr = self.addr_arg(args, 0, name)?;
        let ret = match name {
            "pthread_attr_init" => {
                let size = if word == 4 { 36 } else { 56 };
                if self.classify(attr).0 {
                    let zeros = (0..size).map(|_| self.st.trace.exprs.constant(8, 0)).collect();
                    self.store_private(name, attr, zeros)?;
                }
                0
            }
            "pthread_attr_setdetachstate" => {
                let state = self.concrete_arg(args, 1, 32, name)?;
                if state > 1 {
                    EINVAL
                } else {
                    self.set_attribute(attr, 4, state)?;
                    0
                }
            }
            "pthread_attr_setstacksize" => {
                let n = self.concrete_arg(args, 1, 64, name)?;
                if n < STACK_MIN {
                    EINVAL
                } else {
                    self.set_attribute(attr + word, word as u32, n)?;
                    0
                }
            }
            "pthread_mutexattr_init" => {
                self.set_attribute(attr, 4, 0)?;
                0
            }
            "pthread_mutexattr_settype" => {
                let kind = self.concrete_arg(args, 1, 32, name)?;
                self.set_attribute(attr, 4, kind)?;
                0
            }
            "pthread_attr_getdetachstate" | "pthread_mutexattr_gettype" => {
                let v = self.own_constant(name, "its attribute object", attr, &Ty::Int(32))?;
                self.put_attribute(name, args, 4, v)?;
                0
            }
            _ => {
                // pthread_attr_getstacksize
                let ty = if word == 4 { Ty::Int(32) } else { Ty::Int(64) };
                let v = self.own_constant(name, "its attribute object", attr + word, &ty)?;
                let v = if v == 0 { DEFAULT_STACK } else { v };
                self.put_attribute(name, args, word as u32, v)?;
                0
            }
        };
        Ok(self.int_reg(32, ret))
    }

    /// A setter's store (into the thread's own object; one in shared memory
    /// is left as it is, which only a getter reads).
    fn set_attribute(&mut self, at: u64, size: u32, v: u128) -> Result<(), SymError> {
        if self.classify(at).0 {
            let r = self.int_reg(size * 8, v);
            self.store_own(at, size, r)?;
        }
        Ok(())
    }

    /// A getter's answer, stored where its second argument points.
    fn put_attribute(&mut self, name: &str, args: &[Operand], size: u32, v: u128) -> Result<(), SymError> {
        let out = self.addr_arg(args, 1, name)?;
        self.store_constant(name, out, size, v)
    }
}
