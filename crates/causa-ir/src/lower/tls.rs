//! Thread-local globals (`__thread`, `_Thread_local`). LLVM 14 names such a
//! variable by a constant (`@x`, or a constant `getelementptr` into it), the
//! same constant in every thread; each thread's instance is at another
//! address. A constant operand that points into a thread-local global is
//! lowered to a register, set at the function's entry by
//! [`Op::ThreadLocal`] to the running thread's instance (plus the offset).

use super::Lowerer;
use crate::error::IrError;
use crate::program::{Instr, LocId, Op, Operand};
use llvm_ir::types::Type;
use llvm_ir::{Constant, ConstantRef};

impl Lowerer<'_> {
    /// The thread-local global `c` refers to, if any.
    pub(super) fn thread_local_in(&self, c: &ConstantRef) -> Option<usize> {
        if self.thread_locals.is_empty() {
            return None;
        }
        match c.as_ref() {
            Constant::GlobalReference { name, .. } => {
                self.globals.get(&super::name_str(name)).copied().filter(|g| self.thread_locals.contains(g))
            }
            Constant::GetElementPtr(g) => self.thread_local_in(&g.address),
            Constant::BitCast(x) => self.thread_local_in(&x.operand),
            Constant::AddrSpaceCast(x) => self.thread_local_in(&x.operand),
            Constant::PtrToInt(x) => self.thread_local_in(&x.operand),
            Constant::IntToPtr(x) => self.thread_local_in(&x.operand),
            Constant::Add(x) => self.thread_local_in(&x.operand0).or_else(|| self.thread_local_in(&x.operand1)),
            Constant::Sub(x) => self.thread_local_in(&x.operand0).or_else(|| self.thread_local_in(&x.operand1)),
            Constant::Struct { values, .. } => values.iter().find_map(|v| self.thread_local_in(v)),
            Constant::Array { elements, .. } | Constant::Vector(elements) => {
                elements.iter().find_map(|v| self.thread_local_in(v))
            }
            _ => None,
        }
    }

    /// The offset into thread-local global `g` that the pointer constant `c`
    /// has; an error when `c` is not a pointer into it (an integer computed
    /// from its address, an aggregate holding it).
    pub(super) fn thread_local_offset(&mut self, c: &ConstantRef, g: usize, loc: LocId) -> Result<u64, IrError> {
        let name = super::name_str(&self.module.global_vars[g].name);
        let what = format!("the address of thread-local `{name}` in a constant expression");
        let unsupported = |lw: &Self| lw.unsupported(what.clone(), loc);
        if !matches!(self.module.types.type_of(&**c).as_ref(), Type::PointerType { .. }) {
            return Err(unsupported(self));
        }
        let addr = self.constant(c, loc)?.as_int() as u64;
        let base = self.space.global_addr(g);
        let size = self.global_sizes[g];
        match addr.checked_sub(base) {
            Some(off) if off <= size => Ok(off),
            _ => Err(unsupported(self)),
        }
    }
}

/// The registers a function's thread-local addresses are in, in order of
/// first use.
#[derive(Default)]
pub(super) struct ThreadLocals {
    regs: Vec<((u32, u64), u32)>,
}

impl ThreadLocals {
    /// The register holding the address `offset` into `global`'s instance;
    /// `fresh` makes a register when there is none yet.
    pub(super) fn register(&mut self, global: u32, offset: u64, fresh: impl FnOnce() -> u32) -> Operand {
        if let Some((_, r)) = self.regs.iter().find(|(k, _)| *k == (global, offset)) {
            return Operand::Local(*r);
        }
        let r = fresh();
        self.regs.push(((global, offset), r));
        Operand::Local(r)
    }

    /// The instructions that set the registers, for the entry block's start.
    pub(super) fn entry(&self, loc: LocId) -> Vec<Instr> {
        self.regs
            .iter()
            .map(|&((global, offset), dest)| Instr { op: Op::ThreadLocal { global, offset }, dest, loc })
            .collect()
    }
}
