//! Thread-local globals: each thread's instance is an object of its own,
//! private to the thread (like its stack) until its address escapes, and
//! holding the global's initial value ([`causa_ir::Op::ThreadLocal`]).

use super::{Reg, Thread};
use crate::trace::Object;

impl Thread<'_, '_> {
    /// The address of this thread's instance of thread-local global `g`,
    /// plus `offset`.
    pub(super) fn thread_local(&mut self, g: u32, offset: u64) -> Reg {
        let id = match self.thread_locals.iter().find(|(x, _)| *x == g) {
            Some((_, id)) => *id,
            None => self.new_thread_local(g),
        };
        let addr = causa_ir::make_addr(id, offset);
        Reg::Int(self.st.trace.exprs.constant(64, addr as u128))
    }

    fn new_thread_local(&mut self, g: u32) -> u32 {
        let program = self.st.program;
        let init = &program.globals[g as usize].init;
        let id = self.new_object();
        self.private.insert(id);
        self.stack_sizes.insert(id, init.len() as u64);
        self.st.trace.objects.push(Object {
            base: causa_ir::make_addr(id, 0),
            size: init.len() as u64,
            heap: false,
            read_only: false,
        });
        // The initial value, byte by byte (the object reads as bulk-written
        // memory); zero bytes need no entry.
        for (k, b) in init.iter().enumerate().filter(|(_, b)| **b != 0) {
            let e = self.st.trace.exprs.constant(8, *b as u128);
            self.local.insert(causa_ir::make_addr(id, k as u64), (1, Reg::Int(e)));
        }
        if init.iter().any(|b| *b != 0) {
            self.bulk.insert(id);
        }
        self.thread_locals.push((g, id));
        id
    }
}
