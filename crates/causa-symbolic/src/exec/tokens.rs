//! `strtok_r` and `strsep` of a string private to the thread (a line it
//! copied into a local buffer), followed as the interpreter computes them
//! (`causa_core::cconv::next_token`): the NUL that ends a token is written
//! into the thread's own memory, and so is the position (`char *save`,
//! `char *rest`). A string or position in shared memory is reported as
//! unsupported, by name, as the interpreter makes such a call a visible
//! step that this module does not model. (`strtok`, whose position is one
//! for the whole process, is always such a step.)

use super::{Reg, Thread};
use crate::SymError;
use causa_core::cconv::{next_token, span};
use causa_ir::{Operand, Ty};

impl Thread<'_, '_> {
    /// `strtok_r(s, delim, saveptr)`: the next token of `s` (of `*saveptr`
    /// when `s` is null), ended in place; 0 when none is left.
    pub(crate) fn tokenize(&mut self, args: &[Operand]) -> Result<Reg, SymError> {
        const NAME: &str = "strtok_r";
        let (s, saveptr) = (self.addr_arg(args, 0, NAME)?, self.addr_arg(args, 2, NAME)?);
        let s = if s == 0 { self.own_constant(NAME, "its position", saveptr, &Ty::Ptr)? as u64 } else { s };
        if s == 0 {
            return Err(self.unsupported("`strtok_r(NULL, …)` without a string to continue (a memory error)"));
        }
        let delim = self.addr_arg(args, 1, NAME)?;
        let (text, set) = (self.c_string(s, NAME)?, self.c_string(delim, NAME)?);
        let token = next_token(&text, &set);
        if let Some(end) = token.cut {
            self.store_own_bytes(NAME, s + end as u64, &[0])?;
        }
        self.store_constant(NAME, saveptr, 8, s as u128 + token.next as u128)?;
        Ok(self.int_reg(64, token.start.map_or(0, |start| s as u128 + start as u128)))
    }

    /// `strsep(&s, delim)`: the token at `s`, ended in place; `s` moves past
    /// it (null after the last).
    pub(crate) fn separate(&mut self, args: &[Operand]) -> Result<Reg, SymError> {
        const NAME: &str = "strsep";
        let at = self.addr_arg(args, 0, NAME)?;
        let begin = self.own_constant(NAME, "its position", at, &Ty::Ptr)? as u64;
        if begin == 0 {
            return Ok(self.int_reg(64, 0));
        }
        let delim = self.addr_arg(args, 1, NAME)?;
        let (text, set) = (self.c_string(begin, NAME)?, self.c_string(delim, NAME)?);
        let n = span(&text, &set, false);
        let next = if n < text.len() {
            self.store_own_bytes(NAME, begin + n as u64, &[0])?;
            begin + n as u64 + 1
        } else {
            0
        };
        self.store_constant(NAME, at, 8, next as u128)?;
        Ok(self.int_reg(64, begin as u128))
    }
}
