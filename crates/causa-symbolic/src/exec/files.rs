//! Reads from a `FILE` the program opened (`fgets`, `fread`, `fgetc`,
//! `getc`): what each delivered comes from the thread's recorded path (the
//! interpreter, and the native recorder, note it among the library values:
//! `causa_core::paths::ThreadPath::values`), so the file is not read again
//! here. The bytes go into the thread's own memory; a read into shared
//! memory (one visible write in the interpreter) is reported as
//! unsupported. `FILE` objects are the blocks `fopen` allocated (`shims.rs`).

use super::{Reg, Thread};
use crate::SymError;
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
        if n <= 0 {
            return Ok(Some(Some(self.int_reg(64, 0))));
        }
        let s = self.addr_arg(args, 0, NAME)?;
        let Some(bytes) = self.delivered(NAME)? else { return Ok(self.stopped_before()) };
        let Some(mut line) = bytes else { return Ok(Some(Some(self.int_reg(64, 0)))) };
        line.push(0);
        self.store_own_bytes(NAME, s, &line)?;
        Ok(Some(Some(self.int_reg(64, s as u128))))
    }

    /// `fread(p, size, count, f)`: the bytes the run read into `p`; the
    /// whole items among them.
    pub(crate) fn file_block(&mut self, args: &[Operand]) -> Result<Outcome, SymError> {
        const NAME: &str = "fread";
        let size = self.concrete_arg(args, 1, 64, NAME)? as u64;
        if size == 0 {
            return Ok(Some(Some(self.int_reg(64, 0))));
        }
        let p = self.addr_arg(args, 0, NAME)?;
        let Some(bytes) = self.delivered(NAME)? else { return Ok(self.stopped_before()) };
        let data = bytes.unwrap_or_default();
        if !data.is_empty() {
            self.store_own_bytes(NAME, p, &data)?;
        }
        Ok(Some(Some(self.int_reg(64, (data.len() as u64 / size) as u128))))
    }

    /// `fgetc(f)`/`getc(f)`: the byte the run read, or -1 at the end.
    pub(crate) fn file_byte(&mut self, name: &str) -> Result<Outcome, SymError> {
        let Some(v) = self.library_value(name)? else { return Ok(self.stopped_before()) };
        Ok(Some(Some(self.int_reg(32, v as u32 as u128))))
    }

    /// The bytes a read delivered, from the recorded path: None when the
    /// path ends before the call; Some(None) for `fgets`' end of file.
    fn delivered(&mut self, name: &str) -> Result<Option<Option<Vec<u8>>>, SymError> {
        let Some(n) = self.library_value(name)? else { return Ok(None) };
        if n == u64::MAX {
            return Ok(Some(None));
        }
        let mut bytes = Vec::with_capacity(n.min(1 << 20) as usize);
        while (bytes.len() as u64) < n {
            let Some(word) = self.library_value(name)? else {
                return Err(SymError::Mismatch(format!("`{name}`: the recorded path ends inside what it read")));
            };
            let take = (n - bytes.len() as u64).min(8) as usize;
            bytes.extend_from_slice(&word.to_le_bytes()[..take]);
        }
        Ok(Some(Some(bytes)))
    }
}
