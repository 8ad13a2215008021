//! Reads from a `FILE` the program opened (`fgets`, `fread`, `fgetc`,
//! `getc`) or a descriptor (`read`): what each delivered comes from the thread's recorded path (the
//! interpreter, and the native recorder, note it among the library values:
//! `causa_core::paths::ThreadPath::values`), so the file is not read again
//! here. The bytes go into the thread's own memory, or, into shared memory,
//! are one visible write as in the interpreter. `FILE` objects are the
//! blocks `fopen` allocated (`shims.rs`).

use super::{Reg, Thread};
use crate::SymError;
use causa_core::cconv::GETLINE_FIRST;
use causa_ir::Operand;

/// What a read call returns: `Some(Some(v))` a value, `None` the thread
/// stops before the call (its recorded path ends there).
type Outcome = Option<Option<Reg>>;

impl Thread<'_, '_> {
    /// `fgets(s, n, f)`: the line the run read into `s`, NUL-terminated
    /// (returns `s`), or null at the end of the file.
    pub(crate) fn file_line(&mut self, args: &[Operand]) -> Result<Outcome, SymError> {
        const NAME: &str = "fgets";
        let n = self.concrete_arg(args, 1, 32, NAME)? as u32 as i32;
        let s = self.addr_arg(args, 0, NAME)?;
        if n <= 0 {
            self.deliver(NAME, s, Vec::new())?;
            return Ok(Some(Some(self.int_reg(64, 0))));
        }
        let Some(bytes) = self.delivered(NAME)? else { return Ok(self.stopped_before()) };
        let Some(mut line) = bytes else {
            self.deliver(NAME, s, Vec::new())?;
            return Ok(Some(Some(self.int_reg(64, 0))));
        };
        line.push(0);
        self.deliver(NAME, s, line)?;
        Ok(Some(Some(self.int_reg(64, s as u128))))
    }

    /// `fread(p, size, count, f)`: the bytes the run read into `p`; the
    /// whole items among them.
    pub(crate) fn file_block(&mut self, args: &[Operand]) -> Result<Outcome, SymError> {
        const NAME: &str = "fread";
        let size = self.concrete_arg(args, 1, 64, NAME)? as u64;
        let p = self.addr_arg(args, 0, NAME)?;
        if size == 0 {
            self.deliver(NAME, p, Vec::new())?;
            return Ok(Some(Some(self.int_reg(64, 0))));
        }
        let Some(bytes) = self.delivered(NAME)? else { return Ok(self.stopped_before()) };
        let data = bytes.unwrap_or_default();
        let items = data.len() as u64 / size;
        self.deliver(NAME, p, data)?;
        Ok(Some(Some(self.int_reg(64, items as u128))))
    }

    /// `read(fd, p, n)`: the bytes the run read into `p`, their count, or
    /// -1 (a descriptor that was not open).
    pub(crate) fn descriptor_read(&mut self, args: &[Operand]) -> Result<Outcome, SymError> {
        // (Named apart from a plain read in the explanation's columns.)
        const NAME: &str = "read(fd)";
        let Some(bytes) = self.delivered(NAME)? else { return Ok(self.stopped_before()) };
        let Some(data) = bytes else {
            return Ok(Some(Some(self.int_reg(64, u64::MAX as u128))));
        };
        let p = self.addr_arg(args, 1, NAME)?;
        let n = data.len();
        self.deliver(NAME, p, data)?;
        Ok(Some(Some(self.int_reg(64, n as u128))))
    }

    /// `getline(&line, &cap, f)`/`getdelim(…)`: the line the run read, as
    /// the interpreter stores it: into `*line`, or, when that is null, into
    /// a new block, the thread's own until its address escapes, whose
    /// address and size go into `*line` and `*cap`; its length, or -1 at the
    /// end of the file.
    pub(crate) fn file_getline(&mut self, name: &'static str, args: &[Operand]) -> Result<Outcome, SymError> {
        let (lp, np) = (self.addr_arg(args, 0, name)?, self.addr_arg(args, 1, name)?);
        let Some(bytes) = self.delivered(name)? else { return Ok(self.stopped_before()) };
        let Some(mut line) = bytes else { return Ok(Some(Some(self.int_reg(64, u64::MAX as u128)))) };
        let len = line.len() as u64;
        let word = self.st.program.space.layout.ptr_bytes as u32;
        let ty = causa_ir::Ty::Int(word * 8);
        let mut buf = self.own_constant(name, "`line`", lp, &ty)? as u64;
        let cap = self.own_constant(name, "`cap`", np, &ty)? as u64;
        if buf != 0 && cap < len + 1 {
            return Err(self.unsupported(format!("`{name}` growing the buffer of an earlier line")));
        }
        if buf == 0 {
            let size = (len + 1).max(GETLINE_FIRST);
            buf = self.allocate_own(size);
            self.store_constant(name, lp, word, buf as u128)?;
            self.store_constant(name, np, word, size as u128)?;
        }
        line.push(0);
        self.store_own_bytes(name, buf, &line)?;
        Ok(Some(Some(self.int_reg(64, len as u128))))
    }

    /// `fgetc(f)`/`getc(f)`: the byte the run read, or -1 at the end.
    pub(crate) fn file_byte(&mut self, name: &str) -> Result<Outcome, SymError> {
        let Some(v) = self.library_value(name)? else { return Ok(self.stopped_before()) };
        Ok(Some(Some(self.int_reg(32, v as u32 as u128))))
    }

    /// `bytes` a read puts at `at`: into this thread's own memory, or into
    /// shared memory as one visible write (an event even when there are
    /// none, as the interpreter's call is visible).
    fn deliver(&mut self, name: &'static str, at: u64, bytes: Vec<u8>) -> Result<(), SymError> {
        match self.is_shared(at) {
            true => self.shared_delivery(name, at, &bytes),
            false if bytes.is_empty() => Ok(()),
            false => self.store_own_bytes(name, at, &bytes),
        }
    }

    /// The bytes a read delivered, from the recorded path: None when the
    /// path ends before the call; Some(None) for `fgets`' end of file.
    fn delivered(&mut self, name: &str) -> Result<Option<Option<Vec<u8>>>, SymError> {
        let Some(n) = self.library_value(name)? else { return Ok(None) };
        if n == u64::MAX {
            return Ok(Some(None));
        }
        Ok(Some(Some(self.noted_bytes(name, n)?)))
    }

    /// The `n` bytes noted after their count, eight to a value.
    pub(super) fn noted_bytes(&mut self, name: &str, n: u64) -> Result<Vec<u8>, SymError> {
        let mut bytes = Vec::with_capacity(n.min(1 << 20) as usize);
        while (bytes.len() as u64) < n {
            let Some(word) = self.library_value(name)? else {
                return Err(SymError::Mismatch(format!("`{name}`: the recorded path ends inside what it read")));
            };
            let take = (n - bytes.len() as u64).min(8) as usize;
            bytes.extend_from_slice(&word.to_le_bytes()[..take]);
        }
        Ok(bytes)
    }
}
