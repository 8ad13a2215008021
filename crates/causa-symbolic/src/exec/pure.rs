//! C library functions that only compute (`atoi`, `strchr`, `abs`,
//! `pthread_self`, …), followed as the interpreter computes them. Their
//! strings must be constant or private to the thread: the interpreter makes
//! a call that reads shared memory a visible step, which symbolic execution
//! does not model for these functions (reported by name, as an unsupported
//! call is). Integer arguments may be symbolic where the result is
//! arithmetic on them (`abs`, `pthread_equal`); elsewhere they must be
//! concrete.

use super::strings::{self, Text};
use super::{Addr, Reg, Thread};
use crate::expr::ExprId;
use crate::SymError;
use causa_core::cconv::{clamp, parse_digits, span};
use causa_ir::{BinOp, CastOp, ICmpPred, Operand};

/// The `pthread_self` value of the main thread (the others get the handles
/// `pthread_create` hands out, from 0x1001 on).
const MAIN_HANDLE: u128 = 0x1000;

/// Whether [`Thread::pure_call`] follows `name`.
pub(crate) fn is_pure(name: &str) -> bool {
    matches!(
        name,
        "pthread_self"
            | "pthread_equal"
            | "abs"
            | "labs"
            | "llabs"
            | "toupper"
            | "tolower"
            | "sysconf"
            | "atoi"
            | "atol"
            | "atoll"
            | "strtol"
            | "strtoll"
            | "strtoul"
            | "strtoull"
            | "strchr"
            | "strrchr"
            | "strstr"
            | "strspn"
            | "strcspn"
            | "strpbrk"
            | "strnlen"
    )
}

impl Thread<'_, '_> {
    /// The value `name` (one of [`is_pure`]) returns.
    pub(crate) fn pure_call(&mut self, name: &str, args: &[Operand]) -> Result<Reg, SymError> {
        Ok(match name {
            "pthread_self" => {
                let me = &self.path.thread;
                let handle = self.st.handles.iter().find(|(_, t)| *t == me).map(|(h, _)| *h);
                self.int_reg(64, handle.unwrap_or(MAIN_HANDLE))
            }
            "pthread_equal" => {
                let (a, b) = (self.int(arg(args, 0, name)?, 64)?, self.int(arg(args, 1, name)?, 64)?);
                let x = &mut self.st.trace.exprs;
                let eq = x.icmp(ICmpPred::Eq, 64, a, b);
                Reg::Int(x.cast(CastOp::ZExt, 1, 32, eq))
            }
            "abs" | "labs" | "llabs" => {
                let bits = if name == "abs" { 32 } else { 64 };
                let v = self.int(arg(args, 0, name)?, bits)?;
                let x = &mut self.st.trace.exprs;
                let zero = x.constant(bits, 0);
                let neg = x.bin(BinOp::Sub, bits, zero, v).unwrap_or(zero);
                let below = x.icmp(ICmpPred::Slt, bits, v, zero);
                Reg::Int(x.select(below, neg, v))
            }
            "toupper" | "tolower" => {
                let c = self.concrete_arg(args, 0, 32, name)? as u8 as char;
                let c = if name == "toupper" { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() };
                self.int_reg(32, c as u128)
            }
            "sysconf" => {
                // As the interpreter: 2 processors, 4 KiB pages, else -1.
                let v = match self.concrete_arg(args, 0, 32, name)? {
                    83 | 84 => 2,
                    30 => 4096,
                    _ => u64::MAX as u128,
                };
                self.int_reg(64, v)
            }
            "atoi" | "atol" | "atoll" | "strtol" | "strtoll" | "strtoul" | "strtoull" => self.parse_int(name, args)?,
            _ => self.string_search(name, args)?,
        })
    }

    /// `atoi`, `atol`, `atoll` and the `strtol` family: glibc's
    /// conversion, clamped (`errno` is not followed); an end pointer, when
    /// given, is stored into the thread's own memory (a local `char *end`;
    /// one in shared memory is reported as unsupported).
    fn parse_int(&mut self, name: &str, args: &[Operand]) -> Result<Reg, SymError> {
        let s = self.string_arg(args, 0, name)?;
        let (end_at, base) = if name.starts_with("strto") {
            (self.concrete_arg(args, 1, 64, name)? as u64, self.concrete_arg(args, 2, 32, name)? as u32 as i32)
        } else {
            (0, 10)
        };
        let s = match s {
            Addr::Concrete(s) => s,
            Addr::Symbolic(p) => {
                let bytes = self.text_through(p, strings::static_name(name), None)?;
                if base < 0 || base == 1 || base > 36 {
                    return Ok(self.int_reg(64, 0));
                }
                return self.parse_int_of(name, (p, &bytes), end_at, base as u32);
            }
        };
        let text = self.text(s, name, None)?;
        if base < 0 || base == 1 || base > 36 {
            // (EINVAL: glibc, and the interpreter, leave the end alone.)
            return Ok(self.int_reg(64, 0));
        }
        let text = match text {
            Text::Known(text) => text,
            Text::Bytes(bytes) => {
                let start = self.st.trace.exprs.constant(64, s as u128);
                return self.parse_int_of(name, (start, &bytes), end_at, base as u32);
            }
        };
        let parsed = parse_digits(&text, base as u32);
        if end_at != 0 {
            self.store_constant(name, end_at, 8, s as u128 + parsed.end as u128)?;
        }
        let (v, _) = clamp(&parsed, 64, name.starts_with("strtou"));
        // atoi is strtol truncated to an int.
        Ok(if name == "atoi" { self.int_reg(32, v as u32 as u128) } else { self.int_reg(64, v as u128) })
    }

    /// [`Thread::string_search`] of a string whose `bytes` the schedule
    /// decides (the second string, a set or needle, must be known).
    fn search_bytes(
        &mut self,
        name: &str,
        args: &[Operand],
        text: (ExprId, &[ExprId]),
        bound: Option<u64>,
    ) -> Result<Reg, SymError> {
        Ok(Reg::Int(match name {
            "strchr" | "strrchr" => {
                let c = self.concrete_arg(args, 1, 32, name)? as u8;
                strings::find_byte(&mut self.st.trace.exprs, name == "strrchr", text, c)
            }
            "strnlen" => self.bounded_length(text.1, bound.unwrap_or(u64::MAX)),
            _ => {
                let t = self.addr_arg(args, 1, name)?;
                let b = self.c_string(t, name)?;
                match name {
                    "strstr" if b.is_empty() => text.0,
                    "strstr" => strings::find_text(&mut self.st.trace.exprs, text, &b),
                    _ => strings::span_of(&mut self.st.trace.exprs, name, text, &b),
                }
            }
        }))
    }

    /// The string searches and comparisons: a pointer into the first
    /// string (0: not found), a length, or a comparison's sign.
    fn string_search(&mut self, name: &str, args: &[Operand]) -> Result<Reg, SymError> {
        let s = self.string_arg(args, 0, name)?;
        let bound = match name {
            "strnlen" => Some(self.concrete_arg(args, 1, 64, name)?.min(u64::MAX as u128) as u64),
            _ => None,
        };
        let s = match s {
            Addr::Concrete(s) => s,
            Addr::Symbolic(p) => {
                let bytes = self.text_through(p, strings::static_name(name), bound)?;
                return self.search_bytes(name, args, (p, &bytes), bound);
            }
        };
        let a = match self.text(s, name, bound)? {
            Text::Known(a) => a,
            Text::Bytes(bytes) => {
                let start = self.st.trace.exprs.constant(64, s as u128);
                return self.search_bytes(name, args, (start, &bytes), bound);
            }
        };
        let at = |i: Option<usize>| i.map_or(0, |i| s as u128 + i as u128);
        Ok(match name {
            "strchr" | "strrchr" => {
                let c = self.concrete_arg(args, 1, 32, name)? as u8;
                let found = match (c, name) {
                    (0, _) => Some(a.len()),
                    (_, "strchr") => a.iter().position(|b| *b == c),
                    _ => a.iter().rposition(|b| *b == c),
                };
                self.int_reg(64, at(found))
            }
            "strnlen" => {
                let n = self.concrete_arg(args, 1, 64, name)?;
                self.int_reg(64, (a.len() as u128).min(n))
            }
            _ => {
                let t = self.addr_arg(args, 1, name)?;
                let b = self.c_string(t, name)?;
                match name {
                    "strstr" => {
                        let found =
                            if b.is_empty() { Some(0) } else { a.windows(b.len()).position(|w| w == b.as_slice()) };
                        self.int_reg(64, at(found))
                    }
                    "strspn" => self.int_reg(64, span(&a, &b, true) as u128),
                    "strcspn" => self.int_reg(64, span(&a, &b, false) as u128),
                    _ => {
                        let n = span(&a, &b, false);
                        self.int_reg(64, at((n < a.len()).then_some(n)))
                    }
                }
            }
        })
    }
}

fn arg<'a>(args: &'a [Operand], i: usize, what: &str) -> Result<&'a Operand, SymError> {
    args.get(i).ok_or_else(|| SymError::Mismatch(format!("{what}: missing argument")))
}
