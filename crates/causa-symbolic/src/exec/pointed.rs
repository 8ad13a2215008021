//! Strings read through a pointer computed from shared data (`char *c =
//! current; strlen(c)`, where another thread swaps `current` between
//! buffers): the pointer has more than one possible value, so the string's
//! address is not known while the thread runs.
//!
//! The pointer's possible values are those its reads can return (each
//! read location's initial value and what was written to it, a copy of
//! another shared pointer valued as that one, `super::stored`: by the
//! threads followed so far, and, when symbolic execution runs again
//! because of such a read, by every thread of the pass before;
//! [`crate::rw::eval_set`]); the path condition requires one of them (a
//! value none of those writes is not a candidate: the model stays sound,
//! less complete, as [`super::resolve`]'s pins). The call is one event, as the
//! interpreter's: a [`SymOp::Bulk`] read through the pointer, one byte
//! read per offset, as many bytes as the longest candidate has to the
//! end of its object (a string at a shorter one is required to end inside
//! it); the solver resolves where it reads among the candidates
//! ([`crate::rw`]), as for a load through a computed address.
//!
//! In the first pass a pointer none of whose targets is known yet (a list
//! that a thread followed later fills) reads stand-in bytes: that pass is
//! then only a look at what the threads write, and a second pass, knowing
//! every thread's writes, must model the call (`super::execute`).

use super::{Addr, Reg, Thread};
use crate::expr::ExprId;
use crate::trace::{Piece, SymOp};
use crate::SymError;
use causa_ir::{ICmpPred, Operand};
use std::collections::BTreeSet;

/// At most this many strings a pointer may point to.
const MAX_TARGETS: usize = 8;

/// How many bytes [`Thread::read_through`] reads.
#[derive(Clone, Copy)]
enum Span {
    /// As many as the longest target has to its object's end, at most
    /// the bound.
    AtMost(Option<u64>),
    /// Exactly so many.
    Exactly(u64),
}

impl Thread<'_, '_> {
    /// The bytes of the string at the computed pointer `p` for `what`
    /// (at most `bound` bytes), read by one event; a NUL is required among
    /// them unless the bound stops the function first.
    pub(super) fn text_through(
        &mut self,
        p: ExprId,
        what: &'static str,
        bound: Option<u64>,
    ) -> Result<Vec<ExprId>, SymError> {
        let bytes = self.read_through(p, what, Span::AtMost(bound))?;
        self.ends_inside(&bytes, what, bound)?;
        Ok(bytes)
    }

    /// One event reading bytes through the computed pointer `p` (`span`:
    /// as many as the longest target has, at most a bound, a string at a
    /// shorter one required to end inside it; or exactly so many, the
    /// targets with fewer left out: the call would have read past them);
    /// the path condition requires `p` to be one of the targets.
    fn read_through(&mut self, p: ExprId, what: &'static str, span: Span) -> Result<Vec<ExprId>, SymError> {
        let mut targets = Vec::new();
        let mut longest = 0;
        // A copy of a known size needs no targets here: where it reads is
        // left to the model, which finds the pointer's values from every
        // write (`rw::value_sets`: a slot index another thread advances,
        // `m = ring[head]`) and requires one of them.
        let found = match (self.pointer_targets(p, what), span) {
            (Err(_), Span::Exactly(_)) => BTreeSet::new(),
            (found, _) => found?,
        };
        // (None: stand-ins, see `pointer_targets`, or left to the model.)
        let stand_in = found.is_empty();
        // A choice between constants (`flag ? "on" : "off"`): their bytes,
        // chosen by the pointer, with no access to shared memory.
        if self.all_constants(&found) {
            return self.constant_choice(p, &found, span);
        }
        for t in found {
            if !self.is_shared(t) {
                return Err(self.unsupported(format!(
                    "`{what}` through a pointer computed from shared data that may point into memory that is not shared"
                )));
            }
            let extent = self.extent(t, what)?;
            if matches!(span, Span::Exactly(n) if extent < n) {
                continue;
            }
            longest = longest.max(extent);
            targets.push((t, extent));
        }
        let n = match span {
            Span::AtMost(bound) if stand_in => bound.unwrap_or(1),
            Span::Exactly(n) if stand_in => n,
            Span::AtMost(bound) => bound.map_or(longest, |b| b.min(longest)),
            Span::Exactly(n) if !targets.is_empty() => n,
            Span::Exactly(n) => {
                return Err(self.unsupported(format!(
                    "`{what}` of {n} bytes through a pointer computed from shared data none of whose targets holds them"
                )))
            }
        };
        // The pointer is one of its targets (stand-ins: anything).
        let (any, _) = self.one_of(p, targets.iter().map(|(t, _)| *t));
        let any = if stand_in { self.st.trace.exprs.constant(1, 1) } else { any };
        self.condition(any)?;
        let reads: Vec<Piece> = self.bulk_reads(0, n, what)?;
        let bytes: Vec<ExprId> = reads.iter().map(|r| r.value).collect();
        // A string at a target shorter than that ends inside its object
        // (the bytes past its end are read at no location, and the
        // function stops before them), unless the bound stops it first.
        if let Span::AtMost(bound) = span {
            for (t, extent) in targets.iter().filter(|(_, x)| *x < n && bound.is_none_or(|b| b > *x)) {
                let (_, ends) = self.first_nul(&bytes[..*extent as usize]);
                let e = &mut self.st.trace.exprs;
                let c = e.constant(64, *t as u128);
                let elsewhere = e.icmp(ICmpPred::Ne, 64, p, c);
                let ok = e.or(elsewhere, ends);
                self.condition(ok)?;
            }
        }
        self.event(SymOp::Bulk { what, addr: 0, size: n as u32, reads, writes: Vec::new(), at: Some(p) });
        Ok(bytes)
    }

    /// [`Thread::read_through`] of a pointer `p` whose targets are all in
    /// read-only static objects (string constants): each byte is the one
    /// at the target `p` is, a path condition that it is one of them, and
    /// (within a bound) that the string ends before its object does.
    fn constant_choice(&mut self, p: ExprId, targets: &BTreeSet<u64>, span: Span) -> Result<Vec<ExprId>, SymError> {
        let tails: Vec<(u64, Vec<u8>)> =
            targets.iter().filter_map(|t| Some((*t, self.constant_from(*t)?.to_vec()))).collect();
        let longest = tails.iter().map(|(_, b)| b.len() as u64).max().unwrap_or(0);
        let n = match span {
            Span::AtMost(bound) => bound.map_or(longest, |b| b.min(longest)),
            Span::Exactly(n) if tails.iter().all(|(_, b)| b.len() as u64 >= n) => n,
            Span::Exactly(n) => {
                return Err(self.unsupported(format!(
                    "a copy of {n} bytes through a pointer computed from shared data to a constant shorter than that"
                )))
            }
        };
        let (any, at) = self.one_of(p, tails.iter().map(|(t, _)| *t));
        let strings: Vec<&[u8]> = tails.iter().map(|(_, b)| b.as_slice()).collect();
        let zero = self.st.trace.exprs.constant(8, 0);
        let bytes: Vec<ExprId> = (0..n as usize).map(|k| self.chosen_byte(&strings, &at, k, zero)).collect();
        self.condition(any)?;
        // (A string read up to its NUL: a constant's always ends inside it.)
        if let Span::AtMost(Some(bound)) = span {
            for ((_, tail), eq) in tails.iter().zip(&at) {
                if !tail.iter().take(bound as usize).any(|b| *b == 0) {
                    let e = &mut self.st.trace.exprs;
                    let ne = e.not(*eq);
                    self.condition(ne)?;
                }
            }
        }
        Ok(bytes)
    }

    /// Whether `targets` are some, all in read-only static objects
    /// (string constants).
    pub(super) fn all_constants(&self, targets: &BTreeSet<u64>) -> bool {
        !targets.is_empty() && targets.iter().all(|t| self.constant_from(*t).is_some())
    }

    /// `p == t` for each of `targets`, and their disjunction (false for
    /// none): the pointer is one of them.
    pub(super) fn one_of(&mut self, p: ExprId, targets: impl Iterator<Item = u64>) -> (ExprId, Vec<ExprId>) {
        let e = &mut self.st.trace.exprs;
        let mut any = e.constant(1, 0);
        let mut at = Vec::new();
        for t in targets {
            let c = e.constant(64, t as u128);
            let eq = e.icmp(ICmpPred::Eq, 64, p, c);
            any = e.or(any, eq);
            at.push(eq);
        }
        (any, at)
    }

    /// Byte `k` of the string whose guard (`at`, one per string, from
    /// [`Thread::one_of`]) holds; `past` for a string with no byte `k`.
    pub(super) fn chosen_byte(&mut self, strings: &[&[u8]], at: &[ExprId], k: usize, past: ExprId) -> ExprId {
        let e = &mut self.st.trace.exprs;
        let mut v = past;
        for (s, eq) in strings.iter().zip(at).rev() {
            let b = s.get(k).map_or(past, |b| e.constant(8, *b as u128));
            v = e.select(*eq, b, v);
        }
        v
    }

    /// `memcpy`/`memmove` of `n` bytes through the computed pointer `p`
    /// into the thread's own memory at `dest`.
    pub(super) fn copy_through(&mut self, name: &'static str, dest: u64, p: ExprId, n: u64) -> Result<(), SymError> {
        if self.is_shared(dest) {
            return Err(
                self.unsupported(format!("`{name}` from a pointer computed from shared data into shared memory"))
            );
        }
        self.private_bulk_check(name, dest)?;
        let bytes = self.read_through(p, name, Span::Exactly(n))?;
        self.store_private(name, dest, bytes)
    }

    /// `strcpy` through the computed pointer `p` into the thread's own
    /// memory at `dest`: the string's bytes up to its NUL, the old bytes
    /// after it, the string required to fit.
    pub(super) fn string_copy_through(&mut self, dest: u64, p: ExprId) -> Result<(), SymError> {
        if self.is_shared(dest) {
            let targets = self.pointer_targets(p, "strcpy").ok();
            let constants = targets.filter(|t| self.all_constants(t));
            let Some(targets) = constants else {
                return Err(self.unsupported("`strcpy` from a pointer computed from shared data into shared memory"));
            };
            return self.constant_choice_into_shared(dest, p, &targets);
        }
        self.private_bulk_check("strcpy", dest)?;
        let room = self.stack_room(dest);
        if room == 0 {
            return Err(self.unsupported("`strcpy` into private memory outside a known object"));
        }
        let from = self.read_through(p, "strcpy", Span::AtMost(Some(room)))?;
        let old = self.private_byte_values(dest, from.len() as u64)?;
        let (bytes, ended) = self.up_to_nul(&from, &old);
        self.condition(ended)?;
        self.store_private("strcpy", dest, bytes)
    }

    /// `strcmp`/`strncmp` (at most `bound` bytes) of a string through a
    /// computed pointer and a known one (a constant, or the thread's own
    /// bytes): the string read up to the known one's NUL, the sign decided
    /// by the first byte that differs.
    pub(super) fn compare_through(
        &mut self,
        name: &'static str,
        sides: (Addr, Addr),
        bound: u64,
    ) -> Result<Reg, SymError> {
        let (p, known, first) = match sides {
            (Addr::Symbolic(p), Addr::Concrete(k)) => (p, k, true),
            (Addr::Concrete(k), Addr::Symbolic(p)) => (p, k, false),
            _ => {
                return Err(
                    self.unsupported(format!("`{name}` of two strings through pointers computed from shared data"))
                )
            }
        };
        let text = match self.is_shared(known) {
            false => self.c_string(known, name).ok(),
            true => None,
        };
        let Some(mut text) = text else {
            return Err(self.unsupported(format!(
                "`{name}` of a string through a pointer computed from shared data and a string whose bytes are not known"
            )));
        };
        text.push(0);
        let bytes = self.text_through(p, name, Some(bound.min(text.len() as u64)))?;
        let e = &mut self.st.trace.exprs;
        let other: Vec<ExprId> = text.iter().take(bytes.len()).map(|b| e.constant(8, *b as u128)).collect();
        let r = match first {
            true => self.first_difference(&bytes, &other, true),
            false => self.first_difference(&other, &bytes, true),
        };
        Ok(Reg::Int(r))
    }

    /// Argument `i`, a string's address: concrete, or computed from
    /// shared data.
    pub(super) fn string_arg(&mut self, args: &[Operand], i: usize, what: &str) -> Result<Addr, SymError> {
        let Some(a) = args.get(i) else { return Err(SymError::Mismatch(format!("{what}: missing argument"))) };
        // A string's address computed from shared data: pinned now to
        // the one value written so far, maybe another once every thread's
        // writes are known (the next pass, `super::execute`).
        let e = self.int(a, 64)?;
        if self.st.trace.exprs.value(e).is_none() {
            self.st.partial = true;
        }
        self.address(a, what)
    }

    /// The values the pointer `p` can take (see the module docs).
    fn pointer_targets(&mut self, p: ExprId, what: &str) -> Result<BTreeSet<u64>, SymError> {
        let exprs = &self.st.trace.exprs;
        let set = crate::rw::eval_set(exprs, p, &|id| self.read_values(id));
        // (Null is left out: the call through it would have failed, and the
        // path condition rules it out.)
        let set = set.map(|s| s.into_iter().filter(|v| *v != 0).collect::<BTreeSet<u128>>());
        match set {
            Some(s) if !s.is_empty() && s.len() <= MAX_TARGETS => Ok(s.into_iter().map(|v| v as u64).collect()),
            // The first pass, before every thread's writes are known (a
            // list another thread followed later filled): none, and the
            // pass is a first look only (`super::execute`).
            _ if self.st.first_pass => {
                self.st.stand_ins = true;
                self.st.partial = true;
                Ok(BTreeSet::new())
            }
            _ => Err(self.unsupported(format!(
                "`{what}` through a pointer computed from shared data whose possible values are not known (a value computed from shared data other than a copied pointer, or more than {MAX_TARGETS} addresses, was written where it is read)"
            ))),
        }
    }
}
