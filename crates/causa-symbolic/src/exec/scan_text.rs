//! `sscanf` of a string whose bytes the schedule decides (in shared
//! memory, or the thread's own bytes computed from shared data): the
//! format's directives (`causa_core::scan::directives`, the interpreter's)
//! followed over the bytes as solver terms. Which directive a byte meets
//! depends on the bytes before it, so each directive has a bit saying the
//! scan is at it, and every byte is offered to the directives in order:
//! one that does not take it (white space that ends, a number that ends)
//! hands it to the next, as `causa_core::scan` does. Integer conversions
//! are [`IntScan`]s, `%n` takes the byte's index, `%c` the byte, `%s`,
//! `%[…]` and a longer `%c` each byte of the destination (the byte taken
//! when the word is that long, `%s`'s and `%[`'s NUL where it ends); the
//! result counts the conversions assigned, or is -1 when the input ended
//! before the first. A value is stored as a select: the new one where its
//! conversion was assigned, the old one elsewhere. Written by hand for the
//! reason `numbers.rs` gives.

use super::numbers::{eq8, is_space, member, IntScan};
use super::{Reg, Thread};
use crate::expr::{ExprId, Exprs};
use crate::SymError;
use causa_core::scan::{directives, Conv, Directive};
use causa_ir::{BinOp, CastOp, ICmpPred, Operand, Ty};

/// A directive as the fold follows it.
enum Dir {
    Space,
    Literal(u8),
    /// An integer conversion: its scan, field width, and the bytes of the
    /// field taken so far (16 bits).
    Int {
        scan: Box<IntScan>,
        width: Option<usize>,
        used: ExprId,
    },
    /// `%n`.
    Count,
    /// `%c` of one byte.
    Char,
    /// `%s`, `%[…]` or a longer `%c`: the bytes taken so far (16 bits).
    Word {
        kind: Word,
        width: Option<usize>,
        used: ExprId,
    },
}

/// Which bytes a [`Dir::Word`] takes.
enum Word {
    /// `%s`: up to white space, which it skips first; a NUL after.
    Str,
    /// `%[…]`: bytes in the set (`true`: not in it); a NUL after.
    Set(Vec<u8>, bool),
    /// `%c` of `width` bytes: any, fewer where the input ends; no NUL.
    Chars,
}

/// A value a conversion assigns (not suppressed): whether it was assigned
/// (1 bit), and its value.
pub(super) struct Out {
    pub assigned: ExprId,
    pub value: Value,
    /// Counted in the result (all but `%n`).
    counted: bool,
}

/// What a conversion stores.
pub(super) enum Value {
    /// An integer of `bytes` bytes.
    Int { value: ExprId, bytes: u32 },
    /// A word's bytes and NUL (`%s`, `%[…]`): each byte's value and whether
    /// it is written (1 bit); the bytes past the word are left alone.
    Bytes { values: Vec<ExprId>, written: Vec<ExprId> },
}

/// The fold's answer: `sscanf`'s result (32 bits) and the values, in
/// the order of their pointer arguments.
pub(super) struct Folded {
    pub result: ExprId,
    pub outs: Vec<Out>,
}

impl Thread<'_, '_> {
    /// `sscanf(s, format, …)` of `bytes` (the string at `s`, a NUL among
    /// them): the values go into the thread's own memory, each kept as it
    /// was where the scan stops before its conversion.
    pub(super) fn scan_bytes(
        &mut self,
        name: &'static str,
        args: &[Operand],
        bytes: &[ExprId],
    ) -> Result<Reg, SymError> {
        let format_at = self.addr_arg(args, 1, name)?;
        let format = self.c_string(format_at, name)?;
        let long_bytes = self.st.program.space.layout.ptr_bytes as u32;
        let ds: Vec<Directive> =
            directives(&format, long_bytes).collect::<Result<_, _>>().map_err(|e| self.unsupported(e))?;
        // The pointers after the format, one per value assigned (a
        // suppressed conversion has none).
        let assigning = ds.iter().filter(|d| matches!(d, Directive::Conversion { suppress: false, .. })).count();
        let pointers: Vec<u64> = (0..assigning).map(|k| self.addr_arg(args, 2 + k, name)).collect::<Result<_, _>>()?;
        if pointers.iter().any(|p| !self.classify(*p).0) {
            return Err(self.unsupported(format!("`{name}` of a string the schedule decides into shared memory")));
        }
        // A word is stored at most up to its destination's end (past it,
        // the interpreter reports the overflow the replay then shows).
        let rooms: Vec<usize> = pointers.iter().map(|p| self.stack_room(*p) as usize).collect();
        let folded = scan_fold(&mut self.st.trace.exprs, bytes, &ds, &|k| rooms[k]).map_err(|e| {
            self.unsupported(format!(
                "`{name}`'s {e} of a string the schedule decides (`%d %i %u %o %x %n %c %s %[…]` are followed)"
            ))
        })?;
        for (out, p) in folded.outs.iter().zip(pointers) {
            match &out.value {
                Value::Int { value, bytes } => {
                    let Reg::Int(old) = self.load_own(p, &Ty::Int(bytes * 8))? else {
                        return Err(
                            self.unsupported(format!("`{name}` into memory holding a value that is not an integer"))
                        );
                    };
                    // (Constants are kept 128 bits wide.)
                    let old = self.fit(old, bytes * 8);
                    let kept = self.st.trace.exprs.select(out.assigned, *value, old);
                    self.store_own(p, *bytes, Reg::Int(kept))?;
                }
                Value::Bytes { values, .. } if values.is_empty() => {
                    return Err(self.unsupported(format!("`{name}` of a word into memory outside a known object")));
                }
                Value::Bytes { values, written } => {
                    let old = self.private_byte_values(p, values.len() as u64)?;
                    let e = &mut self.st.trace.exprs;
                    let kept = values.iter().zip(written).zip(old).map(|((v, w), o)| e.select(*w, *v, o)).collect();
                    self.store_private(name, p, kept)?;
                }
            }
        }
        Ok(Reg::Int(folded.result))
    }
}

/// The scan of `bytes` (a NUL among them) by the directives `ds`; an error
/// names a conversion the fold does not follow. `room`: how many bytes
/// the destination of the `k`-th value has (a word is kept to that).
pub(super) fn scan_fold(
    e: &mut Exprs,
    bytes: &[ExprId],
    ds: &[Directive],
    room: &dyn Fn(usize) -> usize,
) -> Result<Folded, String> {
    let (zero, one) = (e.constant(1, 0), e.constant(1, 1));
    let mut dirs: Vec<(Dir, Option<usize>)> = Vec::new();
    let mut outs: Vec<Out> = Vec::new();
    // The fewest bytes the directives before each take: it cannot be
    // reached at an earlier byte.
    let (mut reached_at, mut need) = (Vec::new(), 0);
    for d in ds {
        reached_at.push(need);
        let (conv, suppress, width) = match d {
            Directive::Space => {
                dirs.push((Dir::Space, None));
                continue;
            }
            Directive::Literal(c) => {
                dirs.push((Dir::Literal(*c), None));
                need += 1;
                continue;
            }
            // (A `%c`'s width counts the bytes it takes: kept.)
            Directive::Conversion { conv: Conv::Chars, suppress, width } => {
                (&Conv::Chars, *suppress, width.map(|w| w.min(bytes.len())))
            }
            Directive::Conversion { conv, suppress, width } => (conv, *suppress, width.filter(|w| *w < bytes.len())),
        };
        // (The field lies between the bytes the directives before take and
        // the NUL: the fewer bytes it can span, the cheaper its value.)
        let span = bytes.len().saturating_sub(need + 1);
        let field = width.map_or(span, |w| w.min(span));
        let (dir, size) = match conv {
            Conv::Int { base, bytes: size, unsigned } => {
                let scan = Box::new(IntScan::new(e, *base, *unsigned, field));
                need += 1;
                (Dir::Int { scan, width, used: e.constant(16, 0) }, Some(*size))
            }
            Conv::Count { bytes: size } => (Dir::Count, Some(*size)),
            Conv::Chars if width.unwrap_or(1) == 1 => {
                need += 1;
                (Dir::Char, Some(1))
            }
            Conv::Word | Conv::Set { .. } | Conv::Chars => {
                need += 1;
                let kind = match conv {
                    Conv::Set { set, negated } => Word::Set(set.clone(), *negated),
                    Conv::Chars => Word::Chars,
                    _ => Word::Str,
                };
                (Dir::Word { kind, width, used: e.constant(16, 0) }, None)
            }
            Conv::Float { .. } => return Err("floating-point conversion".into()),
        };
        let out = (!suppress).then(|| {
            let value = match size {
                Some(size) => Value::Int { value: e.constant(size * 8, 0), bytes: size },
                None => {
                    // The word and its NUL (`%c`: no NUL), kept to the
                    // destination.
                    let nul = usize::from(!matches!(dir, Dir::Word { kind: Word::Chars, .. }));
                    let n = (field + nul).min(room(outs.len()));
                    Value::Bytes { values: vec![e.constant(8, 0); n], written: vec![zero; n] }
                }
            };
            outs.push(Out { assigned: zero, value, counted: !matches!(dir, Dir::Count) });
            outs.len() - 1
        });
        dirs.push((dir, out));
    }
    let n = dirs.len();
    // at[i]: the scan is at directive i (at[n]: the format is done; none:
    // it stopped).
    let mut at: Vec<ExprId> = (0..=n).map(|i| if i == 0 { one } else { zero }).collect();
    let mut ended = zero;
    for (k, &b) in bytes.iter().enumerate() {
        let nul = eq8(e, b, 0);
        let mut taken = zero;
        for i in (0..n).take_while(|i| reached_at[*i] <= k) {
            let free = e.not(taken);
            let act = e.and(at[i], free);
            // (What the directive took, whether it leaves, and whether it
            // hands on to the next.)
            let out = dirs[i].1;
            let (took, leaves, next) = match &mut dirs[i].0 {
                Dir::Space => {
                    let sp = is_space(e, b);
                    let took = e.and(act, sp);
                    let other = e.not(sp);
                    let on = e.and(act, other);
                    (took, on, on)
                }
                Dir::Literal(c) => {
                    let hit = eq8(e, b, *c);
                    let took = e.and(act, hit);
                    let end = e.and(act, nul);
                    ended = e.or(ended, end);
                    (took, act, took)
                }
                Dir::Int { scan, width, used } => {
                    let full = at_width(e, *width, *used);
                    let room = match width {
                        Some(w) if *w >= 3 => {
                            let limit = e.constant(16, *w as u128 - 2);
                            e.icmp(ICmpPred::Ult, 16, *used, limit)
                        }
                        Some(_) => zero,
                        None => one,
                    };
                    let (digits, lead) = (scan.digits, scan.lead);
                    let not_full = e.not(full);
                    let on = e.and(act, not_full);
                    let ahead = (bytes.get(k + 1).copied(), bytes.get(k + 2).copied());
                    let step = scan.step(e, b, ahead, room, on);
                    let stays = e.not(step.continues);
                    let leaves = e.and(act, stays);
                    let complete = e.and(leaves, digits);
                    // The input ended before the field: an input failure.
                    let none = e.not(digits);
                    let end = e.and(leaves, none);
                    let end = e.and(end, lead);
                    let end = e.and(end, nul);
                    let end = e.and(end, not_full);
                    ended = e.or(ended, end);
                    *used = counted(e, *used, step.counts);
                    (step.continues, leaves, complete)
                }
                Dir::Count => {
                    if let Some(Value::Int { value, bytes }) = out.map(|o| &mut outs[o].value) {
                        let here = e.constant(*bytes * 8, k as u128);
                        *value = e.select(act, here, *value);
                    }
                    (zero, act, act)
                }
                Dir::Char => {
                    let byte = e.not(nul);
                    let took = e.and(act, byte);
                    let end = e.and(act, nul);
                    ended = e.or(ended, end);
                    if let Some(Value::Int { value, .. }) = out.map(|o| &mut outs[o].value) {
                        *value = e.select(took, b, *value);
                    }
                    (took, act, took)
                }
                Dir::Word { kind, width, used } => {
                    let (in_word, skips) = match kind {
                        Word::Str => {
                            let sp = is_space(e, b);
                            (e.not(sp), sp)
                        }
                        Word::Chars => (one, zero),
                        Word::Set(set, negated) => {
                            let is_in = member(e, b, set);
                            (if *negated { e.not(is_in) } else { is_in }, zero)
                        }
                    };
                    let zero16 = e.constant(16, 0);
                    let fresh = e.icmp(ICmpPred::Eq, 16, *used, zero16);
                    let full = at_width(e, *width, *used);
                    // `%s` skips white space before the word.
                    let skip = e.and(act, fresh);
                    let skip = e.and(skip, skips);
                    let (not_nul, not_full) = (e.not(nul), e.not(full));
                    let take = e.and(act, in_word);
                    let take = e.and(take, not_nul);
                    let take = e.and(take, not_full);
                    let took = e.or(skip, take);
                    let stays = e.not(took);
                    let leaves = e.and(act, stays);
                    let started = e.not(fresh);
                    let complete = e.and(leaves, started);
                    let end = e.and(leaves, fresh);
                    let end = e.and(end, nul);
                    ended = e.or(ended, end);
                    // (`%c` writes no NUL.)
                    let closes = if matches!(kind, Word::Chars) { zero } else { complete };
                    if let Some(Value::Bytes { values, written }) = out.map(|o| &mut outs[o].value) {
                        let nul8 = e.constant(8, 0);
                        for (j, (v, w)) in values.iter_mut().zip(written.iter_mut()).enumerate() {
                            let j16 = e.constant(16, j as u128);
                            let here = e.icmp(ICmpPred::Eq, 16, *used, j16);
                            let byte = e.and(take, here);
                            let end = e.and(closes, here);
                            *v = e.select(byte, b, *v);
                            *v = e.select(end, nul8, *v);
                            let wrote = e.or(byte, end);
                            *w = e.or(*w, wrote);
                        }
                    }
                    *used = counted(e, *used, take);
                    (took, leaves, complete)
                }
            };
            if let Some(o) = out {
                // (A conversion is assigned when it hands on.)
                outs[o].assigned = e.or(outs[o].assigned, next);
            }
            taken = e.or(taken, took);
            let stays = e.not(leaves);
            at[i] = e.and(at[i], stays);
            at[i + 1] = e.or(at[i + 1], next);
        }
    }
    for (dir, out) in &dirs {
        if let (Dir::Int { scan, .. }, Some(o)) = (dir, out) {
            let v = scan.value(e);
            if let Value::Int { value, bytes } = &mut outs[*o].value {
                *value = if *bytes < 8 { e.cast(CastOp::Trunc, 64, *bytes * 8, v) } else { v };
            }
        }
    }
    let mut count = e.constant(32, 0);
    for out in outs.iter().filter(|o| o.counted) {
        let one = e.cast(CastOp::ZExt, 1, 32, out.assigned);
        count = e.bin(BinOp::Add, 32, count, one).expect("add");
    }
    let zero32 = e.constant(32, 0);
    let none = e.icmp(ICmpPred::Eq, 32, count, zero32);
    let eof = e.and(ended, none);
    let minus_one = e.constant(32, u32::MAX as u128);
    let result = e.select(eof, minus_one, count);
    Ok(Folded { result, outs })
}

/// Whether a field of at most `width` bytes has taken them all (`used`,
/// 16 bits).
fn at_width(e: &mut Exprs, width: Option<usize>, used: ExprId) -> ExprId {
    match width {
        Some(w) => {
            let w = e.constant(16, w as u128);
            e.icmp(ICmpPred::Eq, 16, used, w)
        }
        None => e.constant(1, 0),
    }
}

/// `used` (16 bits) plus one where `took`.
fn counted(e: &mut Exprs, used: ExprId, took: ExprId) -> ExprId {
    let one = e.constant(16, 1);
    let more = e.bin(BinOp::Add, 16, used, one).expect("add");
    e.select(took, more, used)
}

#[cfg(test)]
mod tests {
    use super::*;
    use causa_core::scan::{scan, Scanned};

    /// `format` over `text` (NUL-padded to `n` bytes, every byte a read),
    /// evaluated, against the interpreter's scan: the result, and each
    /// value assigned (None: not assigned).
    fn check(text: &[u8], format: &[u8], n: usize) {
        let mut e = Exprs::default();
        let bytes: Vec<ExprId> = (0..n as u32).map(|i| e.read(i, 8)).collect();
        let ds: Vec<Directive> = directives(format, 8).collect::<Result<_, _>>().unwrap();
        let folded = scan_fold(&mut e, &bytes, &ds, &|_| usize::MAX).unwrap();
        let mut padded = text.to_vec();
        padded.resize(n, 0);
        let reads: Vec<Option<u128>> = padded.iter().map(|b| Some(*b as u128)).collect();
        let want = scan(text, format, 8).unwrap();
        let shown = (String::from_utf8_lossy(text), String::from_utf8_lossy(format));
        let result = e.eval(folded.result, &reads).unwrap() as u32 as i32;
        assert_eq!(result, want.result, "result of {shown:?} in {n} bytes");
        let eval = |x: ExprId| e.eval(x, &reads).unwrap();
        for (k, out) in folded.outs.iter().enumerate() {
            let assigned = eval(out.assigned) == 1;
            // The bytes a value writes (a word: those written).
            let got: Option<Vec<u128>> = assigned.then(|| match &out.value {
                Value::Int { value, .. } => vec![eval(*value)],
                Value::Bytes { values, written } => {
                    values.iter().zip(written).filter(|(_, w)| eval(**w) == 1).map(|(v, _)| eval(*v)).collect()
                }
            });
            let expected = want.items.get(k).map(|item| match item {
                Scanned::Int { value, .. } => vec![*value as u128],
                Scanned::Bytes(b) if matches!(out.value, Value::Int { .. }) => vec![b[0] as u128],
                Scanned::Bytes(b) => b.iter().map(|x| *x as u128).collect(),
                Scanned::Float { .. } => unreachable!(),
            });
            assert_eq!(got, expected, "value {k} of {shown:?} in {n} bytes");
            // A word's bytes are written from its start, none past its NUL.
            if let (Value::Bytes { written, .. }, Some(v)) = (&out.value, &expected) {
                let w: Vec<bool> = written.iter().map(|w| eval(*w) == 1).collect();
                assert!(w.iter().take(v.len()).all(|x| *x) && !w.iter().skip(v.len()).any(|x| *x), "{shown:?}");
            }
        }
    }

    #[test]
    fn the_fold_scans_as_the_interpreter_does() {
        let formats: [&[u8]; 19] = [
            b"%d",
            b"%d %d",
            b"%d,%d",
            b"level=%d",
            b"%x:%o",
            b"%i %i",
            b"%3d%d",
            b"%*d %hd%n",
            b"%c%u",
            b" %c %%%d",
            b"%lld/%hhu",
            b"%2x%X",
            b"%s %d",
            b"%3s%s",
            b"%[a-z]=%d",
            b"%*[^:]:%4[^;]%n",
            b"%3c%d",
            b"%*2c%c%n",
            b"%40c",
        ];
        let texts: [&[u8]; 18] = [
            b"42",
            b"  -7 13",
            b"4,5",
            b"4;5",
            b"level=9",
            b"level:9",
            b"ff:17",
            b"0x1f 010",
            b"123456",
            b"",
            b"   ",
            b"x",
            b"-",
            b"a 300",
            b" q %12",
            b"-9223372036854775809/300",
            b"set 5",
            b"key:value;rest",
        ];
        for format in formats {
            for text in texts {
                for n in [text.len() + 1, 12, 28] {
                    if n > text.len() {
                        check(text, format, n);
                    }
                }
            }
        }
    }

    #[test]
    fn conversions_the_fold_does_not_follow_are_named() {
        let mut e = Exprs::default();
        let bytes: Vec<ExprId> = (0..4).map(|i| e.read(i, 8)).collect();
        for (format, named) in [(&b"%f"[..], "floating"), (b"%d%lf", "floating")] {
            let ds: Vec<Directive> = directives(format, 8).collect::<Result<_, _>>().unwrap();
            let err = scan_fold(&mut e, &bytes, &ds, &|_| usize::MAX).err().expect("refused");
            assert!(err.contains(named), "{err}");
        }
    }
}
