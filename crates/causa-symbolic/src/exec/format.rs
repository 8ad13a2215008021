//! `sprintf` and `snprintf`: the bytes are formatted as the interpreter
//! formats them (`causa_core::format`), from the call's arguments, and
//! stored like a string copy: into this thread's own memory as private
//! bytes, into shared memory as one bulk write (the interpreter's event).
//!
//! Into shared memory at an address computed from shared data (appending
//! at `buf + used`, with the bound `sizeof buf - used`): one write of the
//! bytes through the symbolic address, on the path where the bound leaves
//! room for them all (in pieces when there are more than 16).
//!
//! Reported by name instead: an argument computed from shared data (its
//! bytes, and how many there are, would depend on the schedule), a `%s` of a
//! string in shared memory, and `%p` (the symbolic trace numbers objects
//! otherwise than the interpreter, so the digits would differ).

use super::{Access, Addr, Reg, SymError, Thread};
use causa_core::collections::HashMap;
use causa_core::format::{format_c, ArgClass, FmtArg, FormatError};
use causa_ir::{Operand, Value};

impl Thread<'_, '_> {
    /// `sprintf(dest, fmt, …)`, or with `bounded` `snprintf(dest, n, fmt,
    /// …)`: the length of the whole output; None when the call is the log's
    /// memory error (the bytes do not fit `dest`).
    pub(crate) fn format_into(
        &mut self,
        name: &'static str,
        args: &[Operand],
        bounded: bool,
    ) -> Result<Option<Reg>, SymError> {
        let at = usize::from(bounded) + 1;
        // A bound computed from shared data (`sizeof buf - used` when
        // appending at `buf + used`): taken on the path where it leaves
        // room for the whole output (a condition; were the run's output cut
        // short, its schedule would not satisfy the path, and the
        // explanation says it cannot explain it).
        let (limit, room) = match bounded {
            false => (None, None),
            true => match self.arg_value(args, 1, 64, name)? {
                Ok(v) => (Some(v as u64), None),
                Err(e) => (None, Some(e)),
            },
        };
        let (fmt, classes) = self.format_classes(name, args, at)?;
        if self.string_fault(args, at, &classes)? {
            return Ok(None);
        }
        // The arguments' values, and the strings `%s` prints.
        let mut values = Vec::new();
        let mut strings: HashMap<u64, Vec<u8>> = HashMap::default();
        for (k, class) in classes.into_iter().enumerate() {
            let i = at + 1 + k;
            let Some(op) = args.get(i) else {
                return Err(self.unsupported(format!("`{name}` with fewer arguments than its format reads")));
            };
            values.push(match class {
                ArgClass::Ptr => return Err(self.unsupported(format!("`{name}` of a pointer (`%p`)"))),
                ArgClass::Str => {
                    let p = self.addr_arg(args, i, name)?;
                    if p != 0 && !strings.contains_key(&p) {
                        let s = self.c_string(p, name)?;
                        strings.insert(p, s);
                    }
                    FmtArg::Ptr(p)
                }
                _ => match self.operand(op) {
                    Reg::Float(Value::F64(f)) => FmtArg::Float(f),
                    Reg::Float(Value::F32(f)) => FmtArg::Float(f as f64),
                    _ if class == ArgClass::Float => {
                        return Err(self.unsupported(format!("`{name}` of an integer as a floating-point value")))
                    }
                    _ => FmtArg::Int(self.concrete_arg(args, i, 64, name)?),
                },
            });
        }
        let mut next = values.into_iter();
        let mut arg = |_: ArgClass| next.next().ok_or(FormatError::MissingArgument { index: 0 });
        let mut string = |p: u64, max: Option<usize>| {
            let s = strings.get(&p).cloned().unwrap_or_default();
            Ok(match max {
                Some(m) if m < s.len() => s[..m].to_vec(),
                _ => s,
            })
        };
        let mut out =
            format_c(&fmt, &mut arg, &mut string).map_err(|e| self.unsupported(format!("`{name}` format: {e}")))?;
        let full = out.len();
        if let Some(e) = room {
            let len = self.st.trace.exprs.constant(64, full as u128);
            let fits = self.st.trace.exprs.icmp(causa_ir::ICmpPred::Ugt, 64, e, len);
            self.condition(fits)?;
        }
        if limit == Some(0) {
            return Ok(Some(self.int_reg(32, full as u32 as u128)));
        }
        if let Some(n) = limit {
            out.truncate(n as usize - 1);
        }
        out.push(0);
        if self.memory_fault(&args[0], Access::Bytes(out.len() as u64, Some(true)))? {
            return Ok(None);
        }
        // Appending at an offset read from shared data (`buf + used`).
        if let Addr::Symbolic(p) = self.address(&args[0], name)? {
            self.known_bytes_at_computed_address(name, p, &out)?;
            return Ok(Some(self.int_reg(32, full as u32 as u128)));
        }
        let dest = self.addr_arg(args, 0, name)?;
        let bytes = out.iter().map(|b| self.st.trace.exprs.constant(8, *b as u128)).collect();
        if self.is_shared(dest) {
            self.copied_bytes(name, (dest, dest), bytes, Vec::new())?;
        } else {
            self.store_private(name, dest, bytes)?;
        }
        Ok(Some(self.int_reg(32, full as u32 as u128)))
    }

    /// A `printf`-family call (format at argument `at`; `puts` and `fputs`:
    /// None, the string is argument 0) at the log's memory error: whether
    /// it is a string it prints (the interpreter reads them without a
    /// scheduling point, in the step of the thread's last event).
    pub(crate) fn print_fault(&mut self, name: &str, args: &[Operand], at: Option<usize>) -> Result<bool, SymError> {
        if !self.at_failure(causa_core::BugKind::MemoryError) {
            return Ok(false);
        }
        match at {
            None => match args.first() {
                Some(s) => self.memory_fault(s, Access::Bytes(1, Some(false))),
                None => Ok(false),
            },
            Some(at) => {
                let (_, classes) = self.format_classes(name, args, at)?;
                self.string_fault(args, at, &classes)
            }
        }
    }

    /// The format string at argument `at`, and what it reads, in order (a
    /// pass with stand-in values).
    fn format_classes(
        &mut self,
        name: &str,
        args: &[Operand],
        at: usize,
    ) -> Result<(Vec<u8>, Vec<ArgClass>), SymError> {
        let fmt_addr = self.addr_arg(args, at, name)?;
        let fmt = self.c_string(fmt_addr, name)?;
        let mut classes = Vec::new();
        let mut stand_in = |c: ArgClass| -> Result<FmtArg, FormatError> {
            classes.push(c);
            Ok(match c {
                ArgClass::Float => FmtArg::Float(0.0),
                ArgClass::Ptr | ArgClass::Str => FmtArg::Ptr(0),
                ArgClass::Int { .. } | ArgClass::Char => FmtArg::Int(0),
            })
        };
        let mut no_string = |_: u64, _: Option<usize>| -> Result<Vec<u8>, String> { Ok(Vec::new()) };
        format_c(&fmt, &mut stand_in, &mut no_string).map_err(|e| self.unsupported(format!("`{name}` format: {e}")))?;
        Ok((fmt, classes))
    }

    /// Whether the log's memory error is a read of one of the strings `%s`
    /// prints (the first that can be invalid).
    fn string_fault(&mut self, args: &[Operand], at: usize, classes: &[ArgClass]) -> Result<bool, SymError> {
        for (k, class) in classes.iter().enumerate() {
            if let (ArgClass::Str, Some(op)) = (class, args.get(at + 1 + k)) {
                if self.memory_fault(op, Access::Bytes(1, Some(false)))? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}
