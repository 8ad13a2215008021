//! Bulk memory functions (`memcpy`, `memmove`, `memset` and their
//! `llvm.*` intrinsics) on the thread's private memory: clang initialises a
//! local array or struct (`int v[2] = {1, 2}`) by copying a constant, and
//! zeroes one (`int a[8] = {0}`) with `memset`. The interpreter performs
//! these without an event while the memory is private, so they are
//! followed here exactly, byte by byte where no whole stored value is
//! copied. A bulk operation on shared memory is one access of many bytes
//! in the interpreter; that is not modelled, and reported by name.
//!
//! Private memory is kept per address as (size, value); a bulk operation
//! leaves one-byte entries, and a later load of several bytes of such an
//! object ([`Thread::bulk`]) is put together from them. When the object
//! escapes, its constant bytes become its initial image for the other
//! threads ([`crate::SymTrace::initial`]).

use super::{Reg, Thread};
use crate::SymError;
use causa_ir::{Operand, Ty};

/// The widest value a private store keeps as one entry that a byte of a
/// bulk operation may fall inside; a wider one (an aggregate stored whole)
/// in an object a bulk operation writes is reported, not looked through.
const WIDEST: u64 = 16;

/// Where a bulk operation reads its bytes.
enum Source {
    /// One byte value repeated (`memset`).
    Fill(u8),
    /// A copy from this address.
    Copy(u64),
}

impl Thread<'_, '_> {
    /// `memcpy`/`memmove(dest, src, n)` and `memset(dest, byte, n)` (`kind`:
    /// the function's name without its `llvm.` prefix and type suffix).
    pub(crate) fn bulk_call(&mut self, name: &str, args: &[Operand]) -> Result<(), SymError> {
        let n = self.concrete_arg(args, 2, 64, name)? as u64;
        let dest = self.addr_arg(args, 0, name)?;
        if n == 0 {
            return Ok(());
        }
        let source = if name == "memset" {
            Source::Fill(self.concrete_arg(args, 1, 8, name)? as u8)
        } else {
            Source::Copy(self.addr_arg(args, 1, name)?)
        };
        if !self.classify(dest).0 {
            return Err(self.unsupported(format!("`{name}` into shared memory (a bulk shared access)")));
        }
        let id = causa_ir::addr_alloc(dest);
        let wide = self.local.iter().any(|(a, (size, _))| causa_ir::addr_alloc(*a) == id && *size as u64 > WIDEST);
        if wide {
            return Err(self.unsupported(format!("`{name}` into a stack object holding a value stored whole")));
        }
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

    /// The bytes of the C string at `s` (without its NUL), in a constant
    /// or this thread's own memory; `what` names the function. Shared memory
    /// the interpreter reads here without an event, which the model cannot
    /// follow: reported.
    fn c_string(&mut self, s: u64, what: &str) -> Result<Vec<u8>, SymError> {
        if let Some(bytes) = self.constant_from(s) {
            let n = bytes.iter().position(|b| *b == 0);
            return n
                .map(|n| bytes[..n].to_vec())
                .ok_or_else(|| self.unsupported(format!("`{what}` past the end of a constant")));
        }
        if !self.classify(s).0 {
            return Err(self.unsupported(format!("`{what}` of shared memory (read without a scheduling point)")));
        }
        let size = self.stack_sizes.get(&causa_ir::addr_alloc(s)).copied().unwrap_or(0);
        let mut out = Vec::new();
        for k in 0..size.saturating_sub(causa_ir::addr_offset(s)) {
            match self.byte(s + k)? {
                0 => return Ok(out),
                b => out.push(b),
            }
        }
        Err(self.unsupported(format!("`{what}` past the end of a stack object")))
    }

    /// `strlen(s)` ([`Thread::c_string`]).
    pub(crate) fn string_length(&mut self, args: &[Operand]) -> Result<Reg, SymError> {
        let s = self.addr_arg(args, 0, "strlen")?;
        let n = self.c_string(s, "strlen")?.len();
        Ok(self.int_reg(64, n as u128))
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
        let bytes: Vec<u8> = (0..ty.store_size()).map(|k| self.byte(addr + k)).collect::<Result<_, _>>()?;
        Ok(self.konst(&causa_ir::value::decode(ty, &bytes)))
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
