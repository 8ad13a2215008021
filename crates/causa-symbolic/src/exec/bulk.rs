//! Bulk memory functions (`memcpy`, `memmove`, `memset` and their
//! `llvm.*` intrinsics).
//!
//! On the thread's private memory: clang initialises a local array or
//! struct (`int v[2] = {1, 2}`) by copying a constant, and zeroes one (`int
//! a[8] = {0}`) with `memset`. The interpreter performs these without an
//! event while the memory is private, so they are followed here exactly,
//! byte by byte where no whole stored value is copied. Private memory is
//! kept per address as (size, value); a bulk operation leaves one-byte
//! entries, and a later load of several bytes of such an object
//! ([`Thread::bulk`]) is put together from them. When the object escapes,
//! its constant bytes become its initial image for the other threads
//! ([`crate::SymTrace::initial`]).
//!
//! On shared memory (a destination, or a source other than a constant) the
//! interpreter makes the call one access of many bytes, one scheduling
//! point. It becomes one [`SymOp::Bulk`] event: its range cut into
//! naturally aligned words of up to 8 bytes ([`words`]), each read a fresh
//! read expression and each written a piece of the value; the model splits
//! the locations other accesses use where their widths differ
//! ([`crate::rw`]).

use super::{Access, Addr, Reg, Thread};
use crate::expr::ExprId;
use crate::trace::{le_value, Object, Piece, SymOp};
use crate::SymError;
use causa_ir::{Operand, Ty};

/// The widest value a private store keeps as one entry that a byte of a
/// bulk operation may fall inside; a wider one (an aggregate stored whole)
/// in an object a bulk operation writes is reported, not looked through.
const WIDEST: u64 = 16;

/// The most bytes of shared memory one string or comparison function is
/// modelled as reading (one read per byte: a whole object for `strlen`).
const MAX_SCANNED: u64 = 256;

/// Where a bulk operation reads its bytes.
#[derive(Clone, Copy)]
enum Source {
    /// One byte value repeated (`memset`).
    Fill(u8),
    /// A copy from this address.
    Copy(u64),
}

/// `[addr, addr + n)` cut into naturally aligned words of at most 8 bytes.
pub(crate) fn words(addr: u64, n: u64) -> Vec<(u64, u32)> {
    let (mut a, end) = (addr, addr + n);
    let mut out = Vec::new();
    while a < end {
        let mut s = 8;
        while s > 1 && (a % s != 0 || a + s > end) {
            s /= 2;
        }
        out.push((a, s as u32));
        a += s;
    }
    out
}

impl Thread<'_, '_> {
    /// `memcpy`/`memmove(dest, src, n)` and `memset(dest, byte, n)` (`kind`:
    /// the function's name without its `llvm.` prefix and type suffix).
    /// False when the call is the log's memory error (the thread stops).
    pub(crate) fn bulk_call(&mut self, name: &'static str, args: &[Operand]) -> Result<bool, SymError> {
        let n = self.concrete_arg(args, 2, 64, name)? as u64;
        if n > 0 && self.memory_fault(&args[0], Access::Bytes(n, Some(true)))? {
            return Ok(false);
        }
        if n > 0 && name != "memset" && self.memory_fault(&args[1], Access::Bytes(n, Some(false)))? {
            return Ok(false);
        }
        if n == 0 {
            self.addr_arg(args, 0, name)?;
            return Ok(true);
        }
        if name != "memset" && self.copy_at_computed_address(args, n)? {
            return Ok(true);
        }
        // A slot cleared at an index read from shared data.
        if name == "memset" {
            if let Some(Addr::Symbolic(at)) = args.first().map(|d| self.address(d, name)).transpose()? {
                let b = self.concrete_arg(args, 1, 8, name)? as u8;
                self.known_bytes_at_computed_address(name, at, &vec![b; n as usize])?;
                return Ok(true);
            }
        }
        if name != "memset" {
            if let Addr::Symbolic(p) = self.string_arg(args, 1, name)? {
                let dest = self.addr_arg(args, 0, name)?;
                self.copy_through(name, dest, p, n)?;
                return Ok(true);
            }
        }
        let dest = self.addr_arg(args, 0, name)?;
        let source = if name == "memset" {
            Source::Fill(self.concrete_arg(args, 1, 8, name)? as u8)
        } else {
            Source::Copy(self.addr_arg(args, 1, name)?)
        };
        let shared_source = matches!(source, Source::Copy(src) if self.is_shared(src));
        if self.is_shared(dest) || shared_source {
            self.shared_bulk(name, dest, source, n)?;
            return Ok(true);
        }
        self.private_bulk(name, dest, source, n)?;
        Ok(true)
    }

    /// A copy (a struct assigned whole) between this thread's memory and
    /// shared memory at an address computed from shared data (`t =
    /// queue[head]`, `queue[tail] = t`): one read or write of the whole
    /// value through the symbolic address, which the model splits over the
    /// locations other accesses use ([`crate::rw`]); a write of more than
    /// [`WIDEST`] bytes in pieces ([`Self::write_through`]). False when
    /// neither side is such an address, or for a read of more than
    /// [`WIDEST`] bytes (a bulk read through the pointer,
    /// [`Self::copy_through`]).
    fn copy_at_computed_address(&mut self, args: &[Operand], n: u64) -> Result<bool, SymError> {
        let (Some(d), Some(s)) = (args.first(), args.get(1)) else { return Ok(false) };
        let (dest, src) = (self.address(d, "a copy")?, self.address(s, "a copy")?);
        let ty = Ty::Int(n as u32 * 8);
        match (dest, src) {
            (Addr::Concrete(_), Addr::Symbolic(_)) if n > WIDEST => Ok(false),
            (Addr::Concrete(dest), Addr::Symbolic(at)) if self.classify(dest).0 => {
                let Reg::Int(v) = self.shared_read(0, Some(at), &ty, false)? else {
                    return Err(self.unsupported("a copy from an address computed from shared data"));
                };
                self.clear(dest, n)?;
                self.local.insert(dest, (n as u32, Reg::Int(v)));
                self.bulk.insert(causa_ir::addr_alloc(dest));
                Ok(true)
            }
            // (Or a constant's bytes: a string literal appended at a shared
            // offset, `memcpy(log + at, "alpha;", 6)`.)
            (Addr::Symbolic(at), Addr::Concrete(src)) if self.classify(src).0 || self.constant_from(src).is_some() => {
                self.bytes_at_computed_address("memcpy", src, at, n)?;
                Ok(true)
            }
            (Addr::Symbolic(_), _) | (_, Addr::Symbolic(_)) => Err(self.unsupported(
                "a copy between shared memory at an address computed from shared data and memory that is not this thread's own",
            )),
            _ => Ok(false),
        }
    }

    /// Shared memory the interpreter makes a bulk call visible for: not
    /// this thread's own, not a constant.
    pub(crate) fn is_shared(&self, a: u64) -> bool {
        !self.classify(a).0 && self.constant_from(a).is_none()
    }

    /// A bulk operation on private memory, followed byte by byte.
    fn private_bulk(&mut self, name: &str, dest: u64, source: Source, n: u64) -> Result<(), SymError> {
        self.private_bulk_check(name, dest)?;
        let entries = match source {
            Source::Fill(b) => (0..n).map(|k| (dest + k, 1, self.int_reg(8, b as u128))).collect(),
            Source::Copy(src) => self.copied(src, dest, n, name)?,
        };
        self.clear(dest, n)?;
        for (a, size, r) in entries {
            self.local.insert(a, (size, r));
        }
        self.bulk.insert(causa_ir::addr_alloc(dest));
        Ok(())
    }

    /// A bulk operation into private object `dest` must not cut through a
    /// value stored whole.
    pub(super) fn private_bulk_check(&self, name: &str, dest: u64) -> Result<(), SymError> {
        let id = causa_ir::addr_alloc(dest);
        let wide = self.local.iter().any(|(a, (size, _))| causa_ir::addr_alloc(*a) == id && *size as u64 > WIDEST);
        if wide {
            return Err(self.unsupported(format!("`{name}` into a stack object holding a value stored whole")));
        }
        Ok(())
    }

    /// A bulk operation that reads or writes shared memory: one
    /// [`SymOp::Bulk`] event. A private destination receives the values
    /// read, as whole entries.
    fn shared_bulk(&mut self, name: &'static str, dest: u64, source: Source, n: u64) -> Result<(), SymError> {
        if self.st.trace.memory_model.buffers_stores() && self.is_shared(dest) {
            return Err(self.unsupported(format!("`{name}` of shared memory under a relaxed memory model")));
        }
        if n > u32::MAX as u64 {
            return Err(self.unsupported(format!("`{name}` of more than 4 GiB")));
        }
        let mut reads = Vec::new();
        // What lands at dest: (offset, size, value).
        let values: Vec<(u64, u32, ExprId)> = match source {
            Source::Fill(b) => self.constant_words(dest, &vec![b; n as usize]),
            Source::Copy(src) if self.is_shared(src) => {
                reads = words(src, n).into_iter().map(|(a, s)| self.bulk_read(a, s)).collect();
                reads.iter().map(|p| (p.addr - src, p.size, p.value)).collect()
            }
            Source::Copy(src) if self.constant_from(src).is_some() => {
                let bytes = self.constant_from(src).unwrap_or_default().get(..n as usize).map(<[u8]>::to_vec);
                let bytes =
                    bytes.ok_or_else(|| self.unsupported(format!("`{name}` reading past the end of a constant")))?;
                self.constant_words(dest, &bytes)
            }
            Source::Copy(src) => self.private_words(src, dest, n, name)?,
        };
        // The interpreter's event is at the source when only it is shared.
        let addr = match source {
            Source::Copy(src) if !self.is_shared(dest) => src,
            _ => dest,
        };
        self.bulk_event(name, (dest, addr), n, reads, values)
    }

    /// Bytes a library call delivers into shared memory at `dest` (what
    /// `fgets` or `fread` read from a file): one [`SymOp::Bulk`] event that
    /// writes them, as the interpreter's one visible write; an event that
    /// writes nothing when none were delivered (the interpreter's call is
    /// visible all the same).
    pub(super) fn shared_delivery(&mut self, name: &'static str, dest: u64, bytes: &[u8]) -> Result<(), SymError> {
        self.shared_deliveries(name, dest, &[(dest, bytes.to_vec())])
    }

    /// [`Thread::shared_delivery`] of several spans (`sscanf`'s values
    /// stored into shared memory): one event writing them all, at the
    /// first (at `at`, writing nothing, when there are none). (Delivered
    /// bytes escape nothing, as in the interpreter.)
    pub(super) fn shared_deliveries(
        &mut self,
        name: &'static str,
        at: u64,
        spans: &[(u64, Vec<u8>)],
    ) -> Result<(), SymError> {
        if self.st.trace.memory_model.buffers_stores() {
            return Err(self.unsupported(format!("`{name}` into shared memory under a relaxed memory model")));
        }
        let mut writes = Vec::new();
        for (dest, bytes) in spans {
            for (off, size, value) in self.constant_words(*dest, bytes) {
                self.note_bulk_write(dest + off, size, value);
                writes.push(Piece { addr: dest + off, size, value });
            }
        }
        let (addr, size) = spans.first().map_or((at, 0), |(a, b)| (*a, b.len() as u32));
        self.event(SymOp::Bulk { what: name, addr, size, reads: Vec::new(), writes, at: None });
        Ok(())
    }

    /// `bytes` to be stored at `dest`, as constant naturally aligned words
    /// ([`words`]): (offset, size, value).
    fn constant_words(&mut self, dest: u64, bytes: &[u8]) -> Vec<(u64, u32, ExprId)> {
        words(dest, bytes.len() as u64)
            .into_iter()
            .map(|(a, s)| {
                let off = (a - dest) as usize;
                let v = le_value(&bytes[off..off + s as usize]);
                (a - dest, s, self.st.trace.exprs.constant(s * 8, v))
            })
            .collect()
    }

    /// The [`SymOp::Bulk`] event (at `addr`) of an operation of `n` bytes
    /// that lands `values` (offset, size, value) at `dest`: writes when
    /// `dest` is shared, else entries of this thread's own memory.
    fn bulk_event(
        &mut self,
        name: &'static str,
        (dest, addr): (u64, u64),
        n: u64,
        reads: Vec<Piece>,
        values: Vec<(u64, u32, ExprId)>,
    ) -> Result<(), SymError> {
        let dest_shared = self.is_shared(dest);
        let mut writes = Vec::new();
        if dest_shared {
            for (off, size, value) in values {
                let a = dest + off;
                if size == 8 {
                    self.escape_value(value, &Ty::Ptr);
                }
                self.note_bulk_write(a, size, value);
                writes.push(Piece { addr: a, size, value });
            }
        } else {
            self.private_bulk_check(name, dest)?;
            self.clear(dest, n)?;
            for (off, size, value) in values {
                self.local.insert(dest + off, (size, Reg::Int(value)));
            }
            self.bulk.insert(causa_ir::addr_alloc(dest));
        }
        self.event(SymOp::Bulk { what: name, addr, size: n as u32, reads, writes, at: None });
        Ok(())
    }

    /// `strcpy(dest, p)` into shared memory of a string `p` chooses among
    /// constants (`ready ? "ready" : "waiting"`): one event, as the
    /// interpreter's, over the longest string's bytes; a byte past the end
    /// of the string `p` points to keeps what it held (a read of it, at the
    /// same instant), and `p` is one of the `targets`.
    pub(super) fn constant_choice_into_shared(
        &mut self,
        dest: u64,
        p: ExprId,
        targets: &std::collections::BTreeSet<u64>,
    ) -> Result<(), SymError> {
        if self.st.trace.memory_model.buffers_stores() {
            return Err(self.unsupported("`strcpy` of shared memory under a relaxed memory model"));
        }
        let mut strings: Vec<(u64, Vec<u8>)> = Vec::new();
        for t in targets {
            let tail = self.constant_from(*t).unwrap_or_default();
            let Some(end) = tail.iter().position(|b| *b == 0) else {
                return Err(self.unsupported("`strcpy` of a constant that does not end"));
            };
            strings.push((*t, tail[..=end].to_vec()));
        }
        let n = strings.iter().map(|(_, s)| s.len() as u64).max().unwrap_or(0);
        let (any, at) = self.one_of(p, strings.iter().map(|(t, _)| *t));
        self.condition(any)?;
        let strings: Vec<&[u8]> = strings.iter().map(|(_, s)| s.as_slice()).collect();
        let mut reads = Vec::new();
        let mut values = Vec::new();
        for k in 0..n {
            // (A byte every string has needs no read of what it held.)
            let past = match strings.iter().all(|s| (k as usize) < s.len()) {
                true => self.st.trace.exprs.constant(8, 0),
                false => {
                    let r = self.bulk_read(dest + k, 1);
                    reads.push(r);
                    r.value
                }
            };
            values.push((k, 1, self.chosen_byte(&strings, &at, k as usize, past)));
        }
        self.bulk_event("strcpy", (dest, dest), n, reads, values)
    }

    /// A word of shared memory a bulk operation reads: a fresh read
    /// expression. (Never a determined constant: `crate::determined` fixes
    /// plain reads only.)
    fn bulk_read(&mut self, addr: u64, size: u32) -> Piece {
        let (id, _) = self.new_read();
        let value = self.st.trace.exprs.read(id, size * 8);
        Piece { addr, size, value }
    }

    /// Bytes `[lo, lo + take)` of `e`, a value of `size` bytes.
    fn bytes_of(&mut self, e: ExprId, size: u32, lo: u64, take: u64) -> ExprId {
        let e = self.fit(e, size * 8);
        let shift = self.st.trace.exprs.constant(size * 8, lo as u128 * 8);
        let e = self.st.trace.exprs.bin(causa_ir::BinOp::LShr, size * 8, e, shift).expect("lshr");
        self.fit(e, take as u32 * 8)
    }

    /// The bytes of the C string at `s` (without its NUL), in a constant
    /// or this thread's own memory; `what` names the function. A string in
    /// shared memory, whose length would depend on the schedule, is
    /// reported (the callers that model one read it with
    /// [`Thread::bulk_reads`]).
    pub(super) fn c_string(&mut self, s: u64, what: &str) -> Result<Vec<u8>, SymError> {
        if let Some(bytes) = self.constant_from(s) {
            let n = bytes.iter().position(|b| *b == 0);
            return n
                .map(|n| bytes[..n].to_vec())
                .ok_or_else(|| self.unsupported(format!("`{what}` past the end of a constant")));
        }
        if !self.classify(s).0 {
            return Err(self.unsupported(format!("`{what}` of a string in shared memory")));
        }
        let mut out = Vec::new();
        for k in 0..self.stack_room(s) {
            match self.byte(s + k)? {
                0 => return Ok(out),
                b => out.push(b),
            }
        }
        Err(self.unsupported(format!("`{what}` past the end of a stack object")))
    }

    /// `strcpy(dest, src)` of a constant or private string: a bulk copy of
    /// its bytes and NUL (one event when `dest` is shared). False when the
    /// call is the log's memory error.
    pub(crate) fn string_copy(&mut self, args: &[Operand]) -> Result<bool, SymError> {
        let src = match self.string_arg(args, 1, "strcpy")? {
            Addr::Concrete(src) => src,
            Addr::Symbolic(p) => {
                if self.at_failure(causa_core::BugKind::MemoryError) {
                    return Err(
                        self.unsupported("a memory error in `strcpy` through a pointer computed from shared data")
                    );
                }
                let dest = self.addr_arg(args, 0, "strcpy")?;
                self.string_copy_through(dest, p)?;
                return Ok(true);
            }
        };
        if self.is_shared(src) {
            if self.at_failure(causa_core::BugKind::MemoryError) {
                return Err(self.unsupported("a memory error in `strcpy` from shared memory"));
            }
            let dest = self.addr_arg(args, 0, "strcpy")?;
            self.shared_string_copy(dest, src)?;
            return Ok(true);
        }
        let n = self.c_string(src, "strcpy")?.len() as u64 + 1;
        if self.memory_fault(&args[0], Access::Bytes(n, Some(true)))? {
            return Ok(false);
        }
        if let Some(Addr::Symbolic(at)) = args.first().map(|d| self.address(d, "strcpy")).transpose()? {
            self.bytes_at_computed_address("strcpy", src, at, n)?;
            return Ok(true);
        }
        let dest = self.addr_arg(args, 0, "strcpy")?;
        if self.is_shared(dest) {
            self.shared_bulk("strcpy", dest, Source::Copy(src), n)?;
        } else {
            self.private_bulk("strcpy", dest, Source::Copy(src), n)?;
        }
        Ok(true)
    }

    /// `n` bytes of this thread's memory or of a constant (`strcpy`'s string
    /// with its NUL, a `memcpy`'s bytes) into shared memory at an address
    /// computed from shared data (a ring of names: `strcpy(items[tail],
    /// s)`): one write of the bytes through the symbolic address, as a small
    /// struct assigned whole there ([`Self::copy_at_computed_address`]),
    /// which the model places among the slots the address can take; more
    /// than [`WIDEST`] bytes in pieces ([`Self::write_through`]).
    fn bytes_at_computed_address(&mut self, what: &'static str, src: u64, at: ExprId, n: u64) -> Result<(), SymError> {
        if n > WIDEST && self.constant_from(src).is_none() {
            let values = self.private_words(src, 0, n, what)?;
            return self.write_through(what, at, values);
        }
        let ty = Ty::Int(n as u32 * 8);
        // (A constant's bytes are not the thread's memory: `load_bytes`
        // reads only that.)
        if self.constant_from(src).is_some() {
            let bytes = self.known_bytes(src, n, what)?;
            return self.known_bytes_at_computed_address(what, at, &bytes);
        }
        let v = self.load_bytes(src, &ty)?;
        self.shared_write(0, Some(at), v, &ty, false)
    }

    /// Bytes known here (a constant's, what `snprintf` formatted) written
    /// at an address computed from shared data: one write of them all, as
    /// [`Self::bytes_at_computed_address`].
    pub(super) fn known_bytes_at_computed_address(
        &mut self,
        what: &'static str,
        at: ExprId,
        bytes: &[u8],
    ) -> Result<(), SymError> {
        let n = bytes.len() as u64;
        if n > WIDEST {
            let values = self.constant_words(0, bytes);
            return self.write_through(what, at, values);
        }
        let ty = Ty::Int(n as u32 * 8);
        let v = self.konst(&causa_ir::value::decode(&ty, bytes));
        self.shared_write(0, Some(at), v, &ty, false)
    }

    /// More than [`WIDEST`] bytes (wider than one expression) written at
    /// the address `at` computed from shared data (a 24-byte message
    /// stored into a ring's slot, `ring[t] = m`): one [`SymOp::Bulk`]
    /// event, as the interpreter's, writing `values` (offset, size,
    /// value) in naturally aligned pieces, each piece's `addr` its offset
    /// from the address (as a bulk read's through a computed pointer);
    /// the model places them among the slots the address can take
    /// ([`crate::rw`]).
    fn write_through(
        &mut self,
        what: &'static str,
        at: ExprId,
        values: Vec<(u64, u32, ExprId)>,
    ) -> Result<(), SymError> {
        if self.st.trace.memory_model.buffers_stores() {
            return Err(self.unsupported(format!("`{what}` of shared memory under a relaxed memory model")));
        }
        let n = values.iter().map(|(off, size, _)| off + *size as u64).max().unwrap_or(0);
        let mut writes = Vec::new();
        for (off, size, value) in values {
            if size == 8 {
                self.escape_value(value, &Ty::Ptr);
            }
            writes.push(Piece { addr: off, size, value });
        }
        self.event(SymOp::Bulk { what, addr: 0, size: n as u32, reads: Vec::new(), writes, at: Some(at) });
        Ok(())
    }

    /// `strncpy(dest, src, n)`: `n` bytes into `dest`, `src`'s up to its
    /// NUL and zeros after it. From shared memory the event reads `src`'s
    /// first `n` bytes (at most to the end of its object, the string then
    /// required to end there); one event when either side is shared. False
    /// when the call is the log's memory error.
    pub(crate) fn bounded_copy(&mut self, args: &[Operand]) -> Result<bool, SymError> {
        let n = self.concrete_arg(args, 2, 64, "strncpy")? as u64;
        if n > 0 && self.memory_fault(&args[0], Access::Bytes(n, Some(true)))? {
            return Ok(false);
        }
        // A known string (a constant, or this thread's) into a slot at an
        // index read from shared data (`strncpy(reg.names[reg.n], …)`):
        // its bytes and the zeros after, one write through the address.
        if n > 0 {
            if let Some(Addr::Symbolic(at)) = args.first().map(|d| self.address(d, "strncpy")).transpose()? {
                let src = self.addr_arg(args, 1, "strncpy")?;
                if self.is_shared(src) {
                    return Err(
                        self.unsupported("`strncpy` from shared memory to an address computed from shared data")
                    );
                }
                let mut bytes = self.c_string(src, "strncpy")?;
                bytes.resize(n as usize, 0);
                self.known_bytes_at_computed_address("strncpy", at, &bytes)?;
                return Ok(true);
            }
        }
        let (dest, src) = (self.addr_arg(args, 0, "strncpy")?, self.addr_arg(args, 1, "strncpy")?);
        if n == 0 {
            return Ok(true);
        }
        let (dest_shared, src_shared) = (self.is_shared(dest), self.is_shared(src));
        let mut reads = Vec::new();
        let bytes: Vec<ExprId> = if src_shared {
            let m = self.extent(src, "strncpy")?.min(n);
            reads = self.bulk_reads(src, m, "strncpy")?;
            let from: Vec<ExprId> = reads.iter().map(|p| p.value).collect();
            let zero = self.st.trace.exprs.constant(8, 0);
            let (mut out, ended) = self.up_to_nul(&from, &vec![zero; m as usize]);
            out.resize(n as usize, zero);
            if m < n {
                self.condition(ended)?;
            }
            out
        } else {
            let mut c = self.c_string(src, "strncpy")?;
            c.resize(n as usize, 0);
            c.into_iter().map(|b| self.st.trace.exprs.constant(8, b as u128)).collect()
        };
        if !dest_shared && !src_shared {
            self.store_private("strncpy", dest, bytes)?;
            return Ok(true);
        }
        self.copied_bytes("strncpy", (dest, src), bytes, reads)?;
        Ok(true)
    }

    /// `strcat(dest, src)` of a known string (a constant or private) onto a
    /// shared one: one event that reads `dest` to the end of its object and
    /// writes each of those bytes: unchanged before `dest`'s first NUL,
    /// `src` and its NUL from there, unchanged after. The result is
    /// required to fit in the object. Onto a private string: followed as
    /// it is. False when the call is the log's memory error.
    pub(crate) fn string_append(&mut self, args: &[Operand]) -> Result<bool, SymError> {
        let (dest, src) = (self.addr_arg(args, 0, "strcat")?, self.addr_arg(args, 1, "strcat")?);
        if self.is_shared(src) {
            if self.at_failure(causa_core::BugKind::MemoryError) {
                return Err(self.unsupported("a memory error in `strcat` from shared memory"));
            }
            return self.shared_append(dest, src).map(|()| true);
        }
        let mut tail = self.c_string(src, "strcat")?;
        tail.push(0);
        if !self.is_shared(dest) {
            let at = dest + self.c_string(dest, "strcat")?.len() as u64;
            if self.memory_fault(&args[0], Access::Bytes(at - dest + tail.len() as u64, Some(true)))? {
                return Ok(false);
            }
            let bytes = tail.into_iter().map(|b| self.st.trace.exprs.constant(8, b as u128)).collect();
            self.store_private("strcat", at, bytes)?;
            return Ok(true);
        }
        if self.at_failure(causa_core::BugKind::MemoryError) {
            return Err(self.unsupported("a memory error in `strcat` onto shared memory"));
        }
        let n = self.extent(dest, "strcat")?;
        let mut reads = Vec::new();
        let old = self.byte_values(dest, n, "strcat", &mut reads)?;
        // The length of dest: its first NUL.
        let (len, _) = self.first_nul(&old);
        let e = &mut self.st.trace.exprs;
        // It fits: the length leaves room for the string and its NUL.
        let room = e.constant(64, (n as u128).saturating_sub(tail.len() as u128));
        let fits = e.icmp(causa_ir::ICmpPred::Ule, 64, len, room);
        let mut bytes = Vec::with_capacity(n as usize);
        for (k, o) in old.iter().enumerate() {
            // Byte k is tail[k - len] when len ≤ k < len + tail.len().
            let mut v = *o;
            for (j, b) in tail.iter().enumerate().filter(|(j, _)| *j <= k) {
                let at = e.constant(64, (k - j) as u128);
                let here = e.icmp(causa_ir::ICmpPred::Eq, 64, len, at);
                let b = e.constant(8, *b as u128);
                v = e.select(here, b, v);
            }
            bytes.push(v);
        }
        self.condition(fits)?;
        self.copied_bytes("strcat", (dest, src), bytes, reads)?;
        Ok(true)
    }

    /// A string copy's event: `bytes` land at `dest` (one write each when
    /// it is shared, else private entries), after the `reads` of `src`. The
    /// event is at `dest` when it is shared, else at `src`.
    pub(super) fn copied_bytes(
        &mut self,
        what: &'static str,
        (dest, src): (u64, u64),
        bytes: Vec<ExprId>,
        reads: Vec<Piece>,
    ) -> Result<(), SymError> {
        let size = bytes.len() as u32;
        let mut writes = Vec::new();
        let dest_shared = self.is_shared(dest);
        if dest_shared && self.st.trace.memory_model.buffers_stores() {
            return Err(self.unsupported(format!("`{what}` of shared memory under a relaxed memory model")));
        }
        if dest_shared {
            for (k, value) in bytes.into_iter().enumerate() {
                let a = dest + k as u64;
                self.note_bulk_write(a, 1, value);
                writes.push(Piece { addr: a, size: 1, value });
            }
        } else {
            self.store_private(what, dest, bytes)?;
        }
        let addr = if dest_shared { dest } else { src };
        self.event(SymOp::Bulk { what, addr, size, reads, writes, at: None });
        Ok(())
    }

    /// What a string copy leaves: byte k is `from[k]` up to and with
    /// `from`'s first NUL, `after[k]` past it; and whether a NUL came (a
    /// 1-bit expression).
    pub(super) fn up_to_nul(&mut self, from: &[ExprId], after: &[ExprId]) -> (Vec<ExprId>, ExprId) {
        let e = &mut self.st.trace.exprs;
        let zero = e.constant(8, 0);
        let mut ended = e.constant(1, 0);
        let mut bytes = Vec::with_capacity(from.len());
        for (x, o) in from.iter().zip(after) {
            bytes.push(e.select(ended, *o, *x));
            let nul = e.icmp(causa_ir::ICmpPred::Eq, 8, *x, zero);
            ended = e.or(ended, nul);
        }
        (bytes, ended)
    }

    /// Byte values into private memory at `dest`, one entry each.
    pub(super) fn store_private(&mut self, what: &str, dest: u64, bytes: Vec<ExprId>) -> Result<(), SymError> {
        self.private_bulk_check(what, dest)?;
        self.clear(dest, bytes.len() as u64)?;
        for (k, value) in bytes.into_iter().enumerate() {
            self.local.insert(dest + k as u64, (1, Reg::Int(value)));
        }
        self.bulk.insert(causa_ir::addr_alloc(dest));
        Ok(())
    }

    /// `strcpy(dest, src)` from shared memory, whose length depends on the
    /// schedule: one event that reads `src` up to the end of its object
    /// (or of `dest`'s, if that ends first) and the bytes of `dest` the copy
    /// may leave alone, and puts at each byte of `dest` up to there `src`'s
    /// byte until its NUL, the old byte after it. The string is required to
    /// fit (its NUL inside both objects).
    fn shared_string_copy(&mut self, dest: u64, src: u64) -> Result<(), SymError> {
        self.copy_shared_string("strcpy", dest, src)
    }

    /// [`Thread::shared_string_copy`] for `what` (`strcpy`, or `strcat`
    /// onto a known string: at its end).
    fn copy_shared_string(&mut self, what: &'static str, dest: u64, src: u64) -> Result<(), SymError> {
        let dest_shared = self.is_shared(dest);
        let room = if dest_shared {
            self.extent(dest, what)?
        } else {
            self.private_bulk_check(what, dest)?;
            self.stack_room(dest)
        };
        let n = self.extent(src, what)?.min(room);
        let mut reads = self.bulk_reads(src, n, what)?;
        let from: Vec<ExprId> = reads.iter().map(|p| p.value).collect();
        let old = self.byte_values(dest, n, what, &mut reads)?;
        let (bytes, ended) = self.up_to_nul(&from, &old);
        self.condition(ended)?;
        self.copied_bytes(what, (dest, src), bytes, reads)
    }

    /// `strcat(dest, src)` of a shared string, whose length the schedule
    /// decides. Onto a known string (a private one): copied at its end as
    /// `strcpy` from shared memory. Onto a shared one: one event that
    /// reads `dest` to the end of its object and `src` up to there, and
    /// writes each byte of `dest`: unchanged before `dest`'s first NUL,
    /// `src`'s bytes and its NUL from there, unchanged after; `src` is
    /// required to end inside its object and the result inside `dest`'s.
    fn shared_append(&mut self, dest: u64, src: u64) -> Result<(), SymError> {
        if !self.is_shared(dest) {
            let at = dest + self.c_string(dest, "strcat")?.len() as u64;
            return self.copy_shared_string("strcat", at, src);
        }
        if causa_ir::addr_alloc(dest) == causa_ir::addr_alloc(src) {
            return Err(self.unsupported("`strcat` of a string onto the same object"));
        }
        let n = self.extent(dest, "strcat")?;
        let m = self.extent(src, "strcat")?.min(n);
        let mut reads = Vec::new();
        let old = self.byte_values(dest, n, "strcat", &mut reads)?;
        let tail = self.bulk_reads(src, m, "strcat")?;
        let from: Vec<ExprId> = tail.iter().map(|p| p.value).collect();
        reads.extend(tail);
        let (len, _) = self.first_nul(&old);
        let (slen, ended) = self.first_nul(&from);
        let e = &mut self.st.trace.exprs;
        // Before src's byte j: a NUL of src already (the copy ended).
        let zero = e.constant(8, 0);
        let mut before = Vec::with_capacity(from.len());
        let mut done = e.constant(1, 0);
        for x in &from {
            before.push(done);
            let nul = e.icmp(causa_ir::ICmpPred::Eq, 8, *x, zero);
            done = e.or(done, nul);
        }
        // Byte k is src[k - len] while the copy runs.
        let mut bytes = Vec::with_capacity(n as usize);
        for (k, o) in old.iter().enumerate() {
            let mut v = *o;
            for j in 0..from.len().min(k + 1) {
                let at = e.constant(64, (k - j) as u128);
                let here = e.icmp(causa_ir::ICmpPred::Eq, 64, len, at);
                let copied = e.select(before[j], *o, from[j]);
                v = e.select(here, copied, v);
            }
            bytes.push(v);
        }
        // It fits: dest's length, src's and the NUL inside dest's object.
        let Some(total) = e.bin(causa_ir::BinOp::Add, 64, len, slen) else {
            return Err(SymError::Mismatch("strcat: the lengths do not add".into()));
        };
        let room = e.constant(64, n as u128);
        let fits = e.icmp(causa_ir::ICmpPred::Ult, 64, total, room);
        self.condition(ended)?;
        self.condition(fits)?;
        self.copied_bytes("strcat", (dest, src), bytes, reads)
    }

    /// `strcmp(a, b)` and `strncmp(a, b, n)` (`name`). Of two constant or private strings: its value. Of a
    /// shared string and a known one of length L: one event reading the
    /// shared string's first L + 1 bytes (the most the comparison can
    /// read). Of two strings neither known to end (shared, or private
    /// bytes computed from shared data, such as a string copied out of
    /// shared memory): up to the end of the shorter object, the comparison
    /// required to end there. `strncmp` reads at most its bound. Shared bytes are read by one event. The result
    /// (-1, 0 or 1, as the interpreter's) is decided by the first byte that
    /// differs or the NUL both have.
    pub(crate) fn string_compare(&mut self, name: &'static str, args: &[Operand]) -> Result<Reg, SymError> {
        let (x, y) = (self.string_arg(args, 0, name)?, self.string_arg(args, 1, name)?);
        // `strncmp`'s bound: it compares at most that many bytes.
        let bound = match name {
            "strncmp" => self.concrete_arg(args, 2, 64, name)?.min(u64::MAX as u128) as u64,
            _ => u64::MAX,
        };
        if bound == 0 {
            return Ok(self.int_reg(32, 0));
        }
        let (a, b) = match (x, y) {
            (Addr::Concrete(a), Addr::Concrete(b)) => (a, b),
            sides => return self.compare_through(name, sides, bound),
        };
        let (sa, sb) = (self.is_shared(a), self.is_shared(b));
        // A private or constant side's string, when its bytes are known.
        let (ka, kb) = ((!sa).then(|| self.c_string(a, name)), (!sb).then(|| self.c_string(b, name)));
        if let (Some(Ok(x)), Some(Ok(y))) = (&ka, &kb) {
            let cut = |s: &[u8]| s[..s.len().min(bound.min(usize::MAX as u64) as usize)].to_vec();
            let r = causa_core::cconv::compare(&cut(x), &cut(y));
            return Ok(self.int_reg(32, r as u32 as u128));
        }
        // How many bytes of each side the model reads: a known string's
        // characters and NUL, else to the end of the object; at most the
        // bound.
        let mut n = bound;
        let mut ends_known = false;
        for (p, k) in [(a, &ka), (b, &kb)] {
            n = n.min(match k {
                Some(Ok(s)) => {
                    ends_known = true;
                    s.len() as u64 + 1
                }
                None => self.extent(p, name)?,
                Some(Err(_)) => self.private_extent(p, name)?,
            });
        }
        let bounded = n == bound;
        let mut reads = Vec::new();
        let mut sides = Vec::new();
        for (p, k) in [(a, &ka), (b, &kb)] {
            sides.push(match k {
                Some(Err(_)) => self.private_byte_values(p, n)?,
                _ => self.byte_values(p, n, name, &mut reads)?,
            });
        }
        if let Some(first) = reads.first() {
            let (addr, size) = (first.addr, reads.len() as u32);
            self.event(SymOp::Bulk { what: name, addr, size, reads, writes: Vec::new(), at: None });
        }
        if !ends_known && !bounded {
            // The comparison ends inside both objects: a pair differs or
            // both end.
            let e = &mut self.st.trace.exprs;
            let zero8 = e.constant(8, 0);
            let mut ends = e.constant(1, 0);
            for (x, y) in sides[0].iter().zip(&sides[1]) {
                let differ = e.icmp(causa_ir::ICmpPred::Ne, 8, *x, *y);
                let nul = e.icmp(causa_ir::ICmpPred::Eq, 8, *x, zero8);
                let here = e.or(differ, nul);
                ends = e.or(ends, here);
            }
            self.condition(ends)?;
        }
        Ok(Reg::Int(self.first_difference(&sides[0], &sides[1], true)))
    }

    /// The bytes from private `s` to the end of its stack object (0 when
    /// it is in none this thread knows).
    pub(super) fn stack_room(&self, s: u64) -> u64 {
        let size = self.stack_sizes.get(&causa_ir::addr_alloc(s)).copied().unwrap_or(0);
        size.saturating_sub(causa_ir::addr_offset(s))
    }

    /// [`Thread::stack_room`], an error when there is none or more than
    /// the model scans.
    pub(super) fn private_extent(&self, s: u64, what: &str) -> Result<u64, SymError> {
        let n = self.stack_room(s);
        if n == 0 {
            return Err(self.unsupported(format!("`{what}` of private memory outside a known object")));
        }
        if n > MAX_SCANNED {
            return Err(self.unsupported(format!(
                "`{what}` of a string in this thread's memory whose object has {n} bytes from that address (the model reads at most {MAX_SCANNED})"
            )));
        }
        Ok(n)
    }

    /// The `n` bytes of private memory at `p` as expressions (0 where
    /// nothing was stored), values computed from shared data included.
    pub(super) fn private_byte_values(&mut self, p: u64, n: u64) -> Result<Vec<ExprId>, SymError> {
        (p..p + n)
            .map(|addr| match self.covering(addr) {
                Some((a, size, Reg::Int(e))) => Ok(self.bytes_of(e, size, addr - a, 1)),
                Some(_) => Err(self.unsupported("a byte of a floating-point or aggregate value on the stack")),
                None => Ok(self.st.trace.exprs.constant(8, 0)),
            })
            .collect()
    }

    /// `strlen(s)`. Of a constant or private string: its length
    /// ([`Thread::c_string`]), or the first NUL among its bytes when some
    /// came from shared data. Of a shared one: one event reading every byte
    /// from `s` to the end of its object ([`Thread::shared_text`]); the
    /// length is the index of the first NUL among them, and the string is
    /// required to end inside its object (else `strlen` would read past
    /// it: a memory error, which another schedule would have to explain).
    pub(crate) fn string_length(&mut self, args: &[Operand]) -> Result<Reg, SymError> {
        let s = match self.string_arg(args, 0, "strlen")? {
            Addr::Concrete(s) => s,
            Addr::Symbolic(p) => {
                let bytes = self.text_through(p, "strlen", None)?;
                return Ok(Reg::Int(self.first_nul(&bytes).0));
            }
        };
        // (A private string's bytes may have come from shared memory: a
        // message copied out of a ring.)
        if !self.is_shared(s) {
            return Ok(match self.text(s, "strlen", None)? {
                super::strings::Text::Known(k) => self.int_reg(64, k.len() as u128),
                super::strings::Text::Bytes(b) => Reg::Int(self.first_nul(&b).0),
            });
        }
        let bytes = self.shared_text(s, "strlen", None)?;
        Ok(Reg::Int(self.first_nul(&bytes).0))
    }

    /// The index (64 bits) of the first NUL among `bytes` (their number
    /// when there is none), and whether there is one.
    pub(super) fn first_nul(&mut self, bytes: &[ExprId]) -> (ExprId, ExprId) {
        let e = &mut self.st.trace.exprs;
        let zero = e.constant(8, 0);
        let (mut index, mut any) = (e.constant(64, bytes.len() as u128), e.constant(1, 0));
        for (k, x) in bytes.iter().enumerate().rev() {
            let nul = e.icmp(causa_ir::ICmpPred::Eq, 8, *x, zero);
            let here = e.constant(64, k as u128);
            index = e.select(nul, here, index);
            any = e.or(any, nul);
        }
        (index, any)
    }

    /// `memcmp(a, b, n)` with `a` or `b` (or both) shared: one event
    /// reading the `n` bytes of each shared block; the result (-1, 0 or 1,
    /// as the interpreter's) decided by the first byte that differs. The
    /// other block's bytes are known (a constant or private memory).
    pub(crate) fn memory_compare(&mut self, args: &[Operand]) -> Result<Reg, SymError> {
        let n = self.concrete_arg(args, 2, 64, "memcmp")? as u64;
        let (a, b) = (self.addr_arg(args, 0, "memcmp")?, self.addr_arg(args, 1, "memcmp")?);
        let mut reads = Vec::new();
        let sides = [self.byte_values(a, n, "memcmp", &mut reads)?, self.byte_values(b, n, "memcmp", &mut reads)?];
        if reads.is_empty() {
            // Both known: not an access of shared memory.
            let e = &self.st.trace.exprs;
            let value = |x: &ExprId| e.value(*x).unwrap_or_default();
            let r = sides[0].iter().zip(&sides[1]).map(|(x, y)| (value(x) as i32 - value(y) as i32).signum());
            let r = r.into_iter().find(|d| *d != 0).unwrap_or(0);
            return Ok(self.int_reg(32, r as u32 as u128));
        }
        let first = reads[0].addr;
        let size = reads.len() as u32;
        self.event(SymOp::Bulk { what: "memcmp", addr: first, size, reads, writes: Vec::new(), at: None });
        Ok(Reg::Int(self.first_difference(&sides[0], &sides[1], false)))
    }

    /// The result of comparing the bytes `a` and `b` (-1, 0 or 1): decided
    /// by the first pair that differs; for `strings`, also ended by a NUL
    /// in both.
    pub(super) fn first_difference(&mut self, a: &[ExprId], b: &[ExprId], strings: bool) -> ExprId {
        let e = &mut self.st.trace.exprs;
        let (minus, zero, plus) = (e.constant(32, u32::MAX as u128), e.constant(32, 0), e.constant(32, 1));
        let zero8 = e.constant(8, 0);
        let mut result = zero;
        for (x, y) in a.iter().zip(b).rev() {
            let same = e.icmp(causa_ir::ICmpPred::Eq, 8, *x, *y);
            let less = e.icmp(causa_ir::ICmpPred::Ult, 8, *x, *y);
            let differ = e.select(less, minus, plus);
            let next = if strings {
                let ended = e.icmp(causa_ir::ICmpPred::Eq, 8, *x, zero8);
                e.select(ended, zero, result)
            } else {
                result
            };
            result = e.select(same, next, differ);
        }
        result
    }

    /// The bytes from `s` to the end of its object.
    pub(super) fn extent(&self, s: u64, what: &str) -> Result<u64, SymError> {
        let id = causa_ir::addr_alloc(s);
        // (An object a thread followed later allocates, a string's
        // target found by the pass before: as that pass saw it.)
        let known = |objects: &[Object]| objects.iter().find(|o| causa_ir::addr_alloc(o.base) == id).map(|o| o.size);
        known(&self.st.trace.objects)
            .or_else(|| known(&self.st.prior_objects))
            .and_then(|size| size.checked_sub(causa_ir::addr_offset(s)))
            .ok_or_else(|| self.unsupported(format!("`{what}` of shared memory outside a known object")))
    }

    /// A fresh read of each of the `n` bytes at shared `s` (no event).
    pub(super) fn bulk_reads(&mut self, s: u64, n: u64, what: &str) -> Result<Vec<Piece>, SymError> {
        if n > MAX_SCANNED {
            return Err(self.unsupported(format!(
                "`{what}` of a string in shared memory whose object has {n} bytes from that address (the model reads at most {MAX_SCANNED})"
            )));
        }
        Ok((0..n).map(|k| self.bulk_read(s + k, 1)).collect())
    }

    /// The `n` bytes at `p` as values: fresh reads (added to `reads`) when
    /// `p` is shared, else its known bytes.
    pub(super) fn byte_values(
        &mut self,
        p: u64,
        n: u64,
        what: &str,
        reads: &mut Vec<Piece>,
    ) -> Result<Vec<ExprId>, SymError> {
        if self.is_shared(p) {
            let r = self.bulk_reads(p, n, what)?;
            let v = r.iter().map(|x| x.value).collect();
            reads.extend(r);
            return Ok(v);
        }
        // (The thread's own bytes may have come from shared memory: a
        // message copied out of a ring into a buffer used again.)
        if self.constant_from(p).is_none() {
            return self.private_byte_values(p, n);
        }
        let known = self.known_bytes(p, n, what)?;
        Ok(known.into_iter().map(|x| self.st.trace.exprs.constant(8, x as u128)).collect())
    }

    /// The `n` bytes at `p`, a constant or this thread's private memory.
    fn known_bytes(&mut self, p: u64, n: u64, what: &str) -> Result<Vec<u8>, SymError> {
        if let Some(bytes) = self.constant_from(p) {
            return bytes
                .get(..n as usize)
                .map(<[u8]>::to_vec)
                .ok_or_else(|| self.unsupported(format!("`{what}` past the end of a constant")));
        }
        (0..n).map(|k| self.byte(p + k)).collect()
    }

    /// `strdup(s)`: a fresh heap block holding the string. The interpreter
    /// copies it without an event; nobody else can have written the block
    /// before, so the string is its initial contents.
    pub(crate) fn string_dup(&mut self, args: &[Operand]) -> Result<Reg, SymError> {
        let s = self.addr_arg(args, 0, "strdup")?;
        let mut bytes = self.c_string(s, "strdup")?;
        bytes.push(0);
        let r = self.allocate(bytes.len() as u64);
        let base = self.st.trace.objects.last().map(|o| o.base).unwrap_or_default();
        self.st.trace.initial.push((base, bytes));
        Ok(r)
    }

    /// What a copy of `n` bytes from private `src` writes at `dest`, as
    /// (offset, size, value) pieces: each naturally aligned word whole when
    /// its bytes are constants or one stored value, else byte by byte.
    fn private_words(&mut self, src: u64, dest: u64, n: u64, name: &str) -> Result<Vec<(u64, u32, ExprId)>, SymError> {
        let mut out = Vec::new();
        for (a, s) in words(dest, n) {
            let from = src + (a - dest);
            let constant: Option<Vec<u8>> = (0..s as u64).map(|k| self.byte(from + k).ok()).collect();
            if let Some(bytes) = constant {
                out.push((a - dest, s, self.st.trace.exprs.constant(s * 8, le_value(&bytes))));
                continue;
            }
            // One stored value exactly the word.
            if let Some((_, size, Reg::Int(e))) = self.covering(from).filter(|(at, size, _)| (*at, *size) == (from, s))
            {
                let e = self.fit(e, size * 8);
                out.push((a - dest, s, e));
                continue;
            }
            for k in 0..s as u64 {
                let e = match self.covering(from + k) {
                    None => self.st.trace.exprs.constant(8, 0),
                    Some((at, size, Reg::Int(e))) => self.bytes_of(e, size, from + k - at, 1),
                    Some(_) => {
                        return Err(self.unsupported(format!("`{name}` of a floating-point value into shared memory")))
                    }
                };
                out.push((a - dest + k, 1, e));
            }
        }
        Ok(out)
    }

    /// What a copy of `n` bytes from `src` writes at `dest`: (address,
    /// size, value) entries, whole stored values where they lie inside the
    /// source, single bytes elsewhere.
    fn copied(&mut self, src: u64, dest: u64, n: u64, name: &str) -> Result<Vec<(u64, u32, Reg)>, SymError> {
        if let Some(tail) = self.constant_from(src) {
            let bytes = tail
                .get(..n as usize)
                .ok_or_else(|| self.unsupported(format!("`{name}` reading past the end of a constant")))?;
            return Ok(bytes
                .iter()
                .enumerate()
                .map(|(k, b)| (dest + k as u64, 1, self.int_reg(8, *b as u128)))
                .collect());
        }
        if !self.classify(src).0 {
            return Err(self.unsupported(format!("`{name}` from shared memory (a bulk shared access)")));
        }
        let mut out = Vec::new();
        let mut k = 0;
        while k < n {
            match self.covering(src + k) {
                Some((a, size, r)) if a == src + k && k + size as u64 <= n => {
                    out.push((dest + k, size, r));
                    k += size as u64;
                }
                _ => {
                    let b = self.byte(src + k)?;
                    out.push((dest + k, 1, self.int_reg(8, b as u128)));
                    k += 1;
                }
            }
        }
        Ok(out)
    }

    /// The private entry whose bytes include `addr`: (its address, size,
    /// value).
    fn covering(&self, addr: u64) -> Option<(u64, u32, Reg)> {
        (0..WIDEST.min(addr + 1)).find_map(|k| match self.local.get(&(addr - k)) {
            Some((size, r)) if *size as u64 > k => Some((addr - k, *size, r.clone())),
            _ => None,
        })
    }

    /// Whether private values other than one of exactly `size` bytes at
    /// `addr` overlap `[addr, addr + size)`.
    pub(super) fn mixed(&self, addr: u64, size: u32) -> bool {
        (0..size as u64).any(|k| self.covering(addr + k).is_some_and(|(a, s, _)| (a, s) != (addr, size)))
    }

    /// The byte of private memory at `addr` (0 where nothing was stored);
    /// an error when it is part of a value computed from shared data.
    fn byte(&mut self, addr: u64) -> Result<u8, SymError> {
        let Some((a, size, r)) = self.covering(addr) else { return Ok(0) };
        let Reg::Int(e) = r else {
            return Err(self.unsupported("a byte of a floating-point or aggregate value on the stack"));
        };
        match self.st.trace.exprs.value(e) {
            Some(v) if size <= 16 => Ok((v >> (8 * (addr - a))) as u8),
            _ => Err(self.unsupported("a byte of a value computed from shared data, on the stack")),
        }
    }

    /// Remove the private entries inside `[addr, addr + n)`; an entry that
    /// sticks out keeps its outside bytes as one-byte entries.
    fn clear(&mut self, addr: u64, n: u64) -> Result<(), SymError> {
        let mut k = 0;
        while k < n {
            let Some((a, size, _)) = self.covering(addr + k) else {
                k += 1;
                continue;
            };
            let end = a + size as u64;
            let outside: Vec<u64> = (a..end).filter(|b| *b < addr || *b >= addr + n).collect();
            let bytes: Vec<u8> = outside.iter().map(|b| self.byte(*b)).collect::<Result<_, _>>()?;
            self.local.remove(&a);
            for (b, v) in outside.into_iter().zip(bytes) {
                let r = self.int_reg(8, v as u128);
                self.local.insert(b, (1, r));
            }
            k = end.max(addr + k + 1) - addr;
        }
        Ok(())
    }

    /// A load of `ty` at private `addr` of an object a bulk operation
    /// wrote, with no entry of that size there: its bytes put together.
    pub(super) fn load_bytes(&mut self, addr: u64, ty: &Ty) -> Result<Reg, SymError> {
        let n = ty.store_size();
        let constant: Option<Vec<u8>> = (0..n).map(|k| self.byte(addr + k).ok()).collect();
        if let Some(bytes) = constant {
            return Ok(self.konst(&causa_ir::value::decode(ty, &bytes)));
        }
        if !matches!(ty, Ty::Int(_) | Ty::Ptr) || n > WIDEST {
            return Err(self.unsupported("a load of a value put together from shared data, not an integer"));
        }
        // Put together from the entries it covers (values a copy from shared
        // memory left): each entry's bytes shifted into place.
        let bits = n as u32 * 8;
        let mut acc = self.st.trace.exprs.constant(bits, 0);
        let mut k = 0;
        while k < n {
            let Some((a, size, r)) = self.covering(addr + k) else {
                k += 1;
                continue;
            };
            let Reg::Int(e) = r else {
                return Err(self.unsupported("a byte of a floating-point or aggregate value on the stack"));
            };
            let (lo, take) = (addr + k - a, (size as u64 - (addr + k - a)).min(n - k));
            let part = self.bytes_of(e, size, lo, take);
            let part = self.fit(part, bits);
            let to = self.st.trace.exprs.constant(bits, k as u128 * 8);
            let part = self.st.trace.exprs.bin(causa_ir::BinOp::Shl, bits, part, to).expect("shl");
            acc = self.st.trace.exprs.bin(causa_ir::BinOp::Or, bits, acc, part).expect("or");
            k += take;
        }
        Ok(Reg::Int(acc))
    }

    /// Before a store of `size` bytes at private `addr` of such an object:
    /// the entries it overwrites go.
    pub(super) fn overwrite(&mut self, addr: u64, size: u32) -> Result<(), SymError> {
        if self.bulk.contains(&causa_ir::addr_alloc(addr)) {
            if size as u64 > WIDEST {
                return Err(self.unsupported("a value stored whole into a stack object a bulk operation wrote"));
            }
            self.clear(addr, size as u64)?;
        }
        Ok(())
    }

    /// When private object `id`, written by a bulk operation, escapes: its
    /// constant contents as its initial image (zero elsewhere) and the
    /// entries computed from shared data, which stay words.
    pub(super) fn escape_image(&mut self, id: u32, words: &mut Vec<(u64, u32, crate::expr::ExprId)>) {
        if !self.bulk.contains(&id) {
            return;
        }
        let size = self.stack_sizes.get(&id).copied().unwrap_or(0);
        let base = causa_ir::make_addr(id, 0);
        let mut image = vec![0u8; size as usize];
        words.retain(|(a, s, e)| match self.st.trace.exprs.value(*e) {
            Some(v) if *s <= 16 => {
                for k in 0..*s as u64 {
                    if let Some(b) = image.get_mut((a + k - base) as usize) {
                        *b = (v >> (8 * k)) as u8;
                    }
                }
                false
            }
            _ => true,
        });
        self.st.trace.initial.push((base, image));
    }
}
