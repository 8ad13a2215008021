//! Pointers (and indices) read from shared memory used where symbolic
//! execution needs a concrete address (synchronisation objects, and the
//! loads that lead to them): when the location was never written, or only
//! ever written one value over its initial value or over a zero start (a
//! pointer or index published for the thread: the null it started with is
//! never written back), the read is required to return that value (a path
//! condition) and the address is computed with it. An array element's
//! address at an index read from shared memory is not pinned to a value
//! written over a zero start: index 0 is an element, and a load or store
//! through the symbolic address lets the solver choose ([`crate::rw`]).
//!
//! Failing that, where a concrete value is needed (an argument the executor
//! must know), a thread's read of a location it wrote itself before is
//! required to return what it wrote last (a loop counter whose address the
//! thread handed to others, used to index an array of thread ids): this
//! rules out the schedules where another thread's write comes between.
//!
//! This never makes the model unsound (the solver still decides which write
//! each read sees, and the condition rules out every schedule in which the
//! read returns anything else), only less complete. The values written are
//! those of the threads followed so far; after a pin symbolic execution
//! runs again knowing what every thread wrote (`super::execute`), so that a
//! value a thread followed later writes rules the pin out (the pin would
//! otherwise rule out a run that read that value, and the failing run with
//! it). When no single value qualifies, the address stays computed (a load
//! or store through it, [`crate::rw`]; a string function's,
//! `pointed.rs`), or the caller reports it as unsupported.

use super::Thread;
use crate::expr::{Expr, ExprId};
use crate::trace::{Initial, SymOp};

/// Where writes through computed addresses whose targets were not known
/// may have landed ([`Thread::note_symbolic_write`]).
#[derive(Default)]
pub(crate) struct Spoiled {
    /// Every location of these sizes (a pointer's targets not known),
    pub(crate) sizes: std::collections::BTreeSet<u32>,
    /// and every location of one of these sizes in one of these objects
    /// (an element of an array at an index not known; not the pointer
    /// next to the array in its struct).
    pub(crate) objects: std::collections::BTreeSet<(u32, u32)>,
}

/// The values written to a shared location so far: `None` once a value that
/// is not a constant was written.
pub(crate) type Written = causa_core::collections::HashMap<u64, Option<Vec<u128>>>;

/// The writes to each shared location so far: (thread index, how many of
/// the thread's events came before the write or are it).
pub(crate) type Writers = causa_core::collections::HashMap<u64, Vec<(usize, usize)>>;

impl Thread<'_, '_> {
    /// Note a write of `value` to the shared location `addr`.
    pub(super) fn note_write(&mut self, addr: u64, value: ExprId) {
        self.st.writers.entry(addr).or_default().push((self.index, self.out.events.len()));
        let v = self.st.trace.exprs.value(value);
        let bits = self.st.trace.exprs.bits(value);
        self.st.stored.entry(addr).or_default().note(v, value, bits);
        let entry = self.st.written.entry(addr).or_insert_with(|| Some(Vec::new()));
        match (entry.as_mut(), v) {
            (Some(vals), Some(v)) if !vals.contains(&v) => vals.push(v),
            (Some(_), Some(_)) | (None, _) => {}
            (Some(_), None) => *entry = None,
        }
    }

    /// Note a write of `size` bytes through the computed address `p`
    /// (`q.tail->next = n`): every location it may land in may hold
    /// anything from now on, so that no read there is pinned to what the
    /// writes at fixed addresses left (a walk `p = p->next` pinned to the
    /// null a node started with). Where it may land: `p` over the values
    /// written so far (and by the pass before) where its reads read; when
    /// that is not known, anywhere: every location of its size.
    pub(super) fn note_symbolic_write(&mut self, p: ExprId, size: u32) {
        let held = |id: u32| -> Option<std::collections::BTreeSet<u128>> {
            let (t, k) = *self.st.trace.reads.get(id as usize)?;
            let events = if t == self.index { &self.out.events } else { &self.st.trace.threads.get(t)?.events };
            let SymOp::Read { addr, at: None, size, .. } = events.get(k)?.op else { return None };
            let mut set: std::collections::BTreeSet<u128> = self.ever_written(addr)?.into_iter().collect();
            set.insert(self.start_value(addr, size)?);
            (set.len() <= crate::rw::MAX_VALUES).then_some(set)
        };
        match crate::rw::eval_set(&self.st.trace.exprs, p, &held) {
            Some(targets) => {
                for t in targets {
                    self.st.written.insert(t as u64, None);
                    self.st.stored.entry(t as u64).or_default().spoil();
                }
            }
            // (An element at an index not known: that object's locations
            // of the size;
            // a pointer's target not known: every location of the size.)
            None => match self.st.trace.exprs.constant_term(p).map(|c| causa_ir::addr_alloc(c as u64)) {
                Some(id) if id != 0 => {
                    self.st.spoiled.objects.insert((id, size));
                }
                _ => {
                    self.st.spoiled.sizes.insert(size);
                }
            },
        }
    }

    /// Note a bulk write of `size` bytes at `addr`: its own word gets the
    /// value; every other word that overlaps it may now hold anything.
    pub(super) fn note_bulk_write(&mut self, addr: u64, size: u32, value: ExprId) {
        self.note_write(addr, value);
        for b in addr..addr + size as u64 {
            for s in [1u64, 2, 4, 8] {
                let w = b - b % s;
                if (w, s) != (addr, size as u64) {
                    self.st.written.insert(w, None);
                    self.st.stored.entry(w).or_default().spoil();
                }
            }
        }
    }

    /// The address `e` with the shared reads it is computed from pinned
    /// where they can be: a read whose location only ever held one
    /// value is required to return that value, and `e` is rewritten with it
    /// (a constant when every read was pinned, else `base + index·scale` or
    /// the like). None when no read was pinned.
    pub(super) fn resolve(&mut self, e: ExprId) -> Option<ExprId> {
        self.rewrite(e, 0)
    }

    /// `e` where a concrete value is needed: [`Thread::resolve`], and
    /// failing that also with this thread's reads of what it wrote itself
    /// pinned to its last write (see the module docs). `e` itself when
    /// neither gives a constant.
    pub(super) fn resolve_concrete(&mut self, e: ExprId) -> ExprId {
        if self.st.trace.exprs.value(e).is_some() {
            return e;
        }
        let r = self.resolve(e).unwrap_or(e);
        if self.st.trace.exprs.value(r).is_some() {
            return r;
        }
        self.own_pins = true;
        let r = self.resolve(r);
        self.own_pins = false;
        self.pinned_own |= r.is_some();
        r.unwrap_or(e)
    }

    fn rewrite(&mut self, e: ExprId, depth: u32) -> Option<ExprId> {
        if depth > 32 {
            return None;
        }
        let both = |s: &mut Self, a: ExprId, b: ExprId| {
            let (ra, rb) = (s.rewrite(a, depth + 1), s.rewrite(b, depth + 1));
            (ra.is_some() || rb.is_some()).then(|| (ra.unwrap_or(a), rb.unwrap_or(b)))
        };
        match self.st.trace.exprs.get(e).clone() {
            Expr::Read { id, bits } => {
                let v = self.pin(id)?;
                Some(self.st.trace.exprs.constant(bits, v))
            }
            Expr::Bin { op, bits, a, b } => {
                let (a, b) = both(self, a, b)?;
                self.st.trace.exprs.bin(op, bits, a, b)
            }
            Expr::ICmp { pred, bits, a, b } => {
                let (a, b) = both(self, a, b)?;
                Some(self.st.trace.exprs.icmp(pred, bits, a, b))
            }
            Expr::Cast { op, from, to, a } => {
                let a = self.rewrite(a, depth + 1)?;
                Some(self.st.trace.exprs.cast(op, from, to, a))
            }
            Expr::Fp { op, from, to, a, b } => {
                let (a, b) = both(self, a, b)?;
                Some(self.st.trace.exprs.fp(op, from, to, a, b))
            }
            Expr::Select { c, a, b } => {
                // A choice between two constants (`flag ? "on" : "off"`,
                // `verbose ? &log_m : &file_m`): the flag is not pinned to
                // what was written over its start (the run may have read
                // the start); the address stays computed, one of the two.
                let x = &self.st.trace.exprs;
                if x.value(a).is_some() && x.value(b).is_some() {
                    return None;
                }
                let rc = self.rewrite(c, depth + 1);
                let (ra, rb) = (self.rewrite(a, depth + 1), self.rewrite(b, depth + 1));
                if rc.is_none() && ra.is_none() && rb.is_none() {
                    return None;
                }
                Some(self.st.trace.exprs.select(rc.unwrap_or(c), ra.unwrap_or(a), rb.unwrap_or(b)))
            }
            Expr::Const { .. } => None,
        }
    }

    /// The single value (see the module docs) read `read` can return, required of it.
    fn pin(&mut self, read: u32) -> Option<u128> {
        if let Some(v) = self.pinned.get(&read) {
            return Some(*v);
        }
        let (t, k) = *self.st.trace.reads.get(read as usize)?;
        let events = if t == self.index { &self.out.events } else { &self.st.trace.threads.get(t)?.events };
        let (addr, at, size, value) = match events.get(k)?.op {
            SymOp::Read { addr, at, size, value, .. } => (addr, at, size, value),
            SymOp::Rmw { addr, at, size, old, .. } => (addr, at, size, old),
            _ => return None,
        };
        let loc = match at {
            None => addr,
            Some(at) => {
                let at = self.resolve(at)?;
                self.st.trace.exprs.value(at)? as u64
            }
        };
        let v = match self.single_value(loc, size) {
            Some(v) => v,
            None if t == self.index && self.own_pins => self.own_last_write(read)?,
            None => return None,
        };
        let bits = self.st.trace.exprs.bits(value);
        let v = v & causa_ir::value::mask(bits);
        let want = self.st.trace.exprs.constant(bits, v);
        let eq = self.st.trace.exprs.icmp(causa_ir::ICmpPred::Eq, bits, value, want);
        self.condition(eq).ok()?;
        self.pinned.insert(read, v);
        Some(v)
    }

    /// `e`, required (by the caller's path condition) to equal `v`: when
    /// it is a read, widened or not, that read is pinned to the value that
    /// gives `v`, so that [`Thread::resolve`] makes every later use of it
    /// concrete.
    pub(super) fn pin_recorded(&mut self, e: ExprId, v: u128) {
        use causa_ir::value::{mask, sext};
        let (mut e, mut v) = (e, v);
        loop {
            match *self.st.trace.exprs.get(e) {
                Expr::Read { id, bits } if v <= mask(bits) => {
                    self.pinned.entry(id).or_insert(v);
                    return;
                }
                Expr::Cast { op: causa_ir::CastOp::ZExt, from, a, .. } if v <= mask(from) => e = a,
                Expr::Cast { op: causa_ir::CastOp::SExt, from, to, a }
                    if (sext(v & mask(from), from) as u128) & mask(to) == v =>
                {
                    (e, v) = (a, v & mask(from));
                }
                _ => return,
            }
        }
    }

    /// The one value shared location `loc` ever held so far (see the
    /// module docs).
    fn single_value(&mut self, loc: u64, size: u32) -> Option<u128> {
        // (A write through a computed address of unknown targets may have
        // landed here.)
        if self.st.spoiled.sizes.contains(&size) || self.st.spoiled.objects.contains(&(causa_ir::addr_alloc(loc), size))
        {
            return None;
        }
        // (Without a pass before, the pin is kept and symbolic execution
        // runs again.)
        let written = self.ever_written(loc)?;
        self.st.partial = true;
        let init = self.start_value(loc, size)?;
        match written[..] {
            // Never written (so far): its initial value, unless that is null
            // (a thread run later in symbolic execution must write it), or
            // where the index into this thread's own memory must be known
            // (a pass that knows every thread's writes checks it again).
            [] if init != 0 || self.private_index => Some(init),
            // Written once, or with its initial value: that value.
            [v] if v == init => Some(v),
            // One value written over a zero start (never written back): the
            // value published for the thread to use; not for an array index
            // (0 is an element: the access stays symbolic), unless every
            // write was made before this thread was created (a worker's id
            // that main stored in `ids[i]` before passing `&ids[i]`).
            [v] if init == 0 && (!self.indexing || self.written_before_start(loc)) => Some(v),
            _ => None,
        }
    }

    /// Whether `loc` was written (in this pass and the pass before) only
    /// by this thread's ancestors, each before it created the thread's
    /// line: no schedule lets this thread see what it held before.
    fn written_before_start(&self, loc: u64) -> bool {
        let mine = self.path.thread.parts();
        let this = self.st.writers.get(&loc).into_iter().flatten();
        let before = self.st.prior_writers.get(&loc).into_iter().flatten();
        let mut any = false;
        for &(t, k) in this.chain(before) {
            any = true;
            let Some(th) = self.st.trace.threads.get(t).filter(|_| t != self.index) else { return false };
            let theirs = th.thread.parts();
            if theirs.len() >= mine.len() || mine[..theirs.len()] != *theirs {
                return false;
            }
            let line = th.thread.child(mine[theirs.len()]);
            let fork = th.events.iter().position(|e| matches!(&e.op, SymOp::Fork { child, .. } if *child == line));
            if fork.is_none_or(|f| k > f) {
                return false;
            }
        }
        any
    }

    /// The constants written to `loc` so far, and by the pass before by
    /// its end (a value a thread followed later writes rules a pin out,
    /// else the path condition would rule out a run that read it), in
    /// order, without repeats; None once a value that is not a constant
    /// was written there.
    fn ever_written(&self, loc: u64) -> Option<Vec<u128>> {
        let mut written = self.st.written.get(&loc).cloned().unwrap_or(Some(Vec::new()))?;
        for v in self.st.prior_written.get(&loc).cloned().unwrap_or(Some(Vec::new()))? {
            if !written.contains(&v) {
                written.push(v);
            }
        }
        Some(written)
    }

    /// The value `size` bytes at `loc` start with, as a constant (memory
    /// not known yet starts zeroed, as the interpreter's).
    fn start_value(&self, loc: u64, size: u32) -> Option<u128> {
        match self.st.trace.initial_value(loc, size) {
            Initial::Known(v) => Some(v),
            Initial::Expr(e) => self.st.trace.exprs.value(e),
            Initial::Unknown => Some(0),
        }
    }

    /// What this thread last wrote where its read `read` reads, as a
    /// constant (its own earlier reads pinned as needed; a loop counter's
    /// chain of increments is followed back at most 256 writes).
    fn own_last_write(&mut self, read: u32) -> Option<u128> {
        let w = *self.own_before_read.get(&read)?;
        if let Some(v) = self.st.trace.exprs.value(w) {
            return Some(v);
        }
        if self.pin_depth >= 256 {
            return None;
        }
        self.pin_depth += 1;
        let r = self.resolve(w);
        self.pin_depth -= 1;
        self.st.trace.exprs.value(r?)
    }
}
