//! Pointers read from shared memory used where symbolic execution needs a
//! concrete address (synchronisation objects, and the loads that lead to
//! them): when every write to the pointer's location seen so far, and its
//! initial value, give it a single non-null value, the pointer is that value
//! and the read is required to return it (a path condition).
//!
//! This never makes the model unsound (the solver still decides which write
//! each read sees, and the condition rules out every schedule in which the
//! read returns anything else), only less complete: a value that some thread
//! run later in symbolic execution writes is not a candidate. When no single
//! value qualifies, the caller reports the symbolic address as unsupported.

use super::Thread;
use crate::expr::{Expr, ExprId};
use crate::trace::SymOp;
use causa_ir::BinOp;

/// The values written to a shared location so far: `None` once a value that
/// is not a constant was written.
pub(crate) type Written = std::collections::HashMap<u64, Option<Vec<u128>>>;

impl Thread<'_, '_> {
    /// Note a write of `value` to the shared location `addr`.
    pub(super) fn note_write(&mut self, addr: u64, value: ExprId) {
        let v = self.st.trace.exprs.value(value);
        let entry = self.st.written.entry(addr).or_insert_with(|| Some(Vec::new()));
        match (entry.as_mut(), v) {
            (Some(vals), Some(v)) if !vals.contains(&v) => vals.push(v),
            (Some(_), Some(_)) | (None, _) => {}
            (Some(_), None) => *entry = None,
        }
    }

    /// The address `e` with its base pointer pinned: when `e` is a pointer
    /// read from shared memory, or a sum with one, whose location only ever
    /// held one non-null value, the read is required to return that value
    /// and `e` is rewritten with it (a constant, or `base + index·scale`).
    pub(super) fn resolve(&mut self, e: ExprId) -> Option<ExprId> {
        match *self.st.trace.exprs.get(e) {
            Expr::Read { id, bits } => {
                let v = self.pin(id)?;
                Some(self.st.trace.exprs.constant(bits, v))
            }
            Expr::Bin { op: BinOp::Add, bits, a, b } => {
                let (a, b) = match self.resolve(a) {
                    Some(a) => (a, b),
                    None => (a, self.resolve(b)?),
                };
                self.st.trace.exprs.bin(BinOp::Add, bits, a, b)
            }
            _ => None,
        }
    }

    /// The single non-null value read `read` can return, required of it.
    fn pin(&mut self, read: u32) -> Option<u128> {
        let (t, k) = *self.st.trace.reads.get(read as usize)?;
        let events = if t == self.index { &self.out.events } else { &self.st.trace.threads.get(t)?.events };
        let SymOp::Read { addr, at, size, value, .. } = events.get(k)?.op else { return None };
        let loc = match at {
            None => addr,
            Some(at) => {
                let at = self.resolve(at)?;
                self.st.trace.exprs.value(at)? as u64
            }
        };
        let mut candidates = self.st.written.get(&loc).cloned().unwrap_or(Some(Vec::new()))?;
        if let Some(init) = self.initial_value(loc, size) {
            candidates.push(init);
        }
        candidates.retain(|v| *v != 0);
        candidates.dedup();
        let [v] = candidates[..] else { return None };
        let bits = self.st.trace.exprs.bits(value);
        let want = self.st.trace.exprs.constant(bits, v);
        let eq = self.st.trace.exprs.icmp(causa_ir::ICmpPred::Eq, bits, value, want);
        self.condition(eq).ok()?;
        Some(v)
    }

    /// The initial contents of `size` bytes at shared location `loc` (static
    /// data; heap blocks and other objects start zeroed, which is null).
    fn initial_value(&self, loc: u64, size: u32) -> Option<u128> {
        let (base, bytes) =
            self.st.trace.initial.iter().find(|(b, _)| causa_ir::addr_alloc(*b) == causa_ir::addr_alloc(loc))?;
        let off = (loc - base) as usize;
        let b = bytes.get(off..off + size as usize)?;
        Some(b.iter().rev().fold(0u128, |acc, x| (acc << 8) | *x as u128))
    }
}
