//! `sscanf` and `fscanf` (also under glibc's `__isoc99_` names), with the
//! interpreter's conversions (`causa_core::scan`). `sscanf` scans a
//! constant or thread-private string whose bytes are known; one in shared
//! memory, or bytes computed from shared data, `scan_text.rs` follows;
//! `fscanf` scans again the bytes the run consumed, from the recorded path,
//! and returns what the run returned. Values go into the thread's own
//! memory, or, when a pointer is shared, into shared memory as one visible
//! access writing them all (the interpreter's event).

use super::strings::Text;
use super::{Addr, Reg, Thread};
use crate::SymError;
use causa_core::scan::{scan, Scan, Scanned};
use causa_ir::Operand;

/// A `fscanf` of a stream the native recorder could not read back.
const NOT_RECORDED: u64 = u64::MAX - 1;

impl Thread<'_, '_> {
    /// `sscanf(s, format, …)`.
    pub(crate) fn scan_string(&mut self, name: &'static str, args: &[Operand]) -> Result<Reg, SymError> {
        let s = match self.string_arg(args, 0, name)? {
            Addr::Concrete(s) => s,
            Addr::Symbolic(p) => {
                let bytes = self.text_through(p, name, None)?;
                return self.scan_bytes(name, args, &bytes);
            }
        };
        let input = match self.text(s, name, None)? {
            Text::Known(input) => input,
            Text::Bytes(bytes) => return self.scan_bytes(name, args, &bytes),
        };
        let scanned = self.scanned(name, args, &input)?;
        self.store_scanned(name, args, &scanned.items)?;
        Ok(self.int_reg(32, scanned.result as u32 as u128))
    }

    /// `fscanf(f, format, …)`: None when the recorded path ends before it.
    pub(crate) fn scan_file(&mut self, name: &'static str, args: &[Operand]) -> Result<Option<Option<Reg>>, SymError> {
        let Some(n) = self.library_value(name)? else { return Ok(self.stopped_before()) };
        if n == NOT_RECORDED {
            return Err(self.unsupported(format!("`{name}` of a stream the recording could not read back")));
        }
        let consumed = self.noted_bytes(name, n)?;
        let Some(result) = self.library_value(name)? else {
            return Err(crate::SymError::Mismatch(format!("`{name}`: the recorded path ends inside its values")));
        };
        let scanned = self.scanned(name, args, &consumed)?;
        self.store_scanned(name, args, &scanned.items)?;
        Ok(Some(Some(self.int_reg(32, result as u32 as u128))))
    }

    fn scanned(&mut self, name: &str, args: &[Operand], input: &[u8]) -> Result<Scan, SymError> {
        let format_at = self.addr_arg(args, 1, name)?;
        let format = self.c_string(format_at, name)?;
        let long_bytes = self.st.program.space.layout.ptr_bytes as u32;
        scan(input, &format, long_bytes).map_err(|e| self.unsupported(e))
    }

    /// Each value through the pointer arguments from 2 on: into the thread's
    /// own memory, or, when any pointer argument is shared (the interpreter
    /// then makes the call visible), those into shared memory as one event.
    fn store_scanned(&mut self, name: &'static str, args: &[Operand], items: &[Scanned]) -> Result<(), SymError> {
        let pointers: Vec<u64> = (2..args.len()).map(|k| self.addr_arg(args, k, name)).collect::<Result<_, _>>()?;
        if items.len() > pointers.len() {
            return Err(crate::SymError::Mismatch(format!("`{name}` with fewer pointers than conversions")));
        }
        let visible = pointers.iter().copied().find(|p| self.is_shared(*p));
        let mut shared = Vec::new();
        for (item, p) in items.iter().zip(&pointers) {
            let bytes = item.le_bytes();
            match self.is_shared(*p) {
                true => shared.push((*p, bytes)),
                false => self.store_own_bytes(name, *p, &bytes)?,
            }
        }
        if let Some(at) = visible {
            self.shared_deliveries(name, at, &shared)?;
        }
        Ok(())
    }
}
