//! LLVM intrinsics clang emits for C at -O0. Looked up without type suffixes;
//! widths come from the call's return type.

use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::libc::string::{copy_bytes, set_bytes};
use crate::shims::{ret_u64, Call, Registry, Ret};
use causa_core::BugKind;
use causa_core::EventKind;
use causa_ir::value::{mask, sext};
use causa_ir::{Ty, Value};

pub fn register(r: &mut Registry) {
    r.visible_if_shared("llvm", "llvm.memcpy", EventKind::Write, &[0, 1], |m, c| {
        copy_bytes(m, c)?;
        void()
    });
    r.visible_if_shared("llvm", "llvm.memmove", EventKind::Write, &[0, 1], |m, c| {
        copy_bytes(m, c)?;
        void()
    });
    r.visible_if_shared("llvm", "llvm.memset", EventKind::Write, &[0], |m, c| {
        set_bytes(m, c)?;
        void()
    });
    r.add("llvm", "llvm.stacksave", |_, _| ret_u64(0));
    r.add("llvm", "llvm.stackrestore", |_, _| void());
    r.add("llvm", "llvm.expect", |_, c| Ok(Ret::Value(c.args[0].clone())));
    r.add("llvm", "llvm.trap", |_, _| Err(Stop::bug(BugKind::Abort, "llvm.trap (__builtin_trap) was reached")));
    r.add("llvm", "llvm.debugtrap", |_, _| void());
    r.add("llvm", "llvm.prefetch", |_, _| void());
    r.add("llvm", "llvm.va_start", va_start);
    r.add("llvm", "llvm.va_end", |_, _| void());
    r.add("llvm", "llvm.va_copy", |m, c| {
        let size = if m.program().space.layout.ptr_bytes == 4 { 4 } else { 24 };
        let data = m.read_bytes(c.ptr(1), size)?;
        m.write_bytes(c.ptr(0), &data)?;
        void()
    });
    r.add("llvm", "llvm.objectsize", |_, c| ret_u64(if c.int(1) & 1 == 1 { 0 } else { u64::MAX }));
    for name in [
        "llvm.sadd.with.overflow",
        "llvm.uadd.with.overflow",
        "llvm.ssub.with.overflow",
        "llvm.usub.with.overflow",
        "llvm.smul.with.overflow",
        "llvm.umul.with.overflow",
    ] {
        r.add("llvm", name, overflow);
    }
    for name in [
        "llvm.smax",
        "llvm.smin",
        "llvm.umax",
        "llvm.umin",
        "llvm.abs",
        "llvm.ctpop",
        "llvm.ctlz",
        "llvm.cttz",
        "llvm.bswap",
        "llvm.fshl",
        "llvm.fshr",
        "llvm.bitreverse",
    ] {
        r.add("llvm", name, bits);
    }
    for name in [
        "llvm.fabs",
        "llvm.sqrt",
        "llvm.floor",
        "llvm.ceil",
        "llvm.trunc",
        "llvm.round",
        "llvm.fma",
        "llvm.fmuladd",
        "llvm.minnum",
        "llvm.maxnum",
        "llvm.copysign",
        "llvm.pow",
    ] {
        r.add("llvm", name, float);
    }
}

fn void() -> Result<Ret, Stop> {
    Ok(Ret::Value(Value::ZERO))
}

/// `va_start`. The variadic arguments are laid out in an "overflow area" object.
/// x86-64: the `va_list` struct gets gp_offset = 48 and fp_offset = 304 (register
/// save area used up), so clang's inline `va_arg` code reads every argument from
/// the overflow area, 8 bytes each. i386: the `va_list` is a plain pointer to the
/// area, arguments in 4-byte slots (8 for 64-bit values).
fn va_start(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let th = &m.threads[c.t as usize];
    let fr = th.frames.last().expect("va_start inside a function");
    let varargs = fr.varargs.clone();
    let func = m.program().functions[fr.func as usize].name.clone();
    let word = m.program().space.layout.ptr_bytes as usize;
    let mut area = Vec::with_capacity(varargs.len() * 8);
    for v in &varargs {
        let (bits, len): (u64, usize) = match v {
            Value::F32(f) => ((*f as f64).to_bits(), 8),
            Value::F64(f) => (f.to_bits(), 8),
            other => (other.as_int() as u64, if word == 4 && other.as_int() > u32::MAX as u128 { 8 } else { word }),
        };
        area.extend_from_slice(&bits.to_le_bytes()[..len]);
    }
    let overflow = m
        .mem
        .alloc_stack(area.len().max(8) as u64, c.t, (Some("va_args".into()), Ty::Void), func)
        .ok_or_else(|| Stop::Bound("the program's address space is exhausted".into()))?;
    m.threads[c.t as usize].frames.last_mut().expect("frame").allocas.push(overflow);
    m.write_bytes(overflow, &area)?;
    let list: Vec<u8> = if word == 4 {
        (overflow as u32).to_le_bytes().to_vec()
    } else {
        let mut l = Vec::with_capacity(24);
        l.extend_from_slice(&48u32.to_le_bytes());
        l.extend_from_slice(&304u32.to_le_bytes());
        l.extend_from_slice(&overflow.to_le_bytes());
        l.extend_from_slice(&0u64.to_le_bytes());
        l
    };
    m.write_bytes(c.ptr(0), &list)?;
    void()
}

fn overflow(_: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let bits = c.ret.element(0).map(|t| t.int_bits()).unwrap_or(32);
    let (a, b) = (c.int(0), c.int(1));
    let m = mask(bits);
    let op = &c.name["llvm.".len()..];
    let (res, ovf) = if op.starts_with("sadd") || op.starts_with("ssub") || op.starts_with("smul") {
        let (x, y) = (sext(a, bits), sext(b, bits));
        let full = if op.starts_with("sadd") {
            x.checked_add(y)
        } else if op.starts_with("ssub") {
            x.checked_sub(y)
        } else {
            x.checked_mul(y)
        };
        match full {
            Some(v) => ((v as u128) & m, sext((v as u128) & m, bits) != v),
            // Only at 128 bits can i128 itself overflow: the wrapped result.
            None if op.starts_with("sadd") => (a.wrapping_add(b) & m, true),
            None if op.starts_with("ssub") => (a.wrapping_sub(b) & m, true),
            None => (a.wrapping_mul(b) & m, true),
        }
    } else {
        let full = if op.starts_with("uadd") {
            a.checked_add(b)
        } else if op.starts_with("usub") {
            a.checked_sub(b)
        } else {
            a.checked_mul(b)
        };
        match full {
            Some(v) => (v & m, v > m),
            None if op.starts_with("uadd") => (a.wrapping_add(b) & m, true),
            None if op.starts_with("usub") => (a.wrapping_sub(b) & m, true),
            None => (a.wrapping_mul(b) & m, true),
        }
    };
    Ok(Ret::Value(Value::Agg(vec![Value::Int(res), Value::Int(ovf as u128)].into())))
}

fn bits(_: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let w = c.ret.int_bits();
    let m = mask(w);
    let (a, b) = (c.int(0), c.int(1));
    let s = |x| sext(x, w);
    let name = &c.name["llvm.".len()..];
    let op = name.split('.').next().unwrap_or("");
    let v = match op {
        "smax" => {
            if s(a) >= s(b) {
                a
            } else {
                b
            }
        }
        "smin" => {
            if s(a) <= s(b) {
                a
            } else {
                b
            }
        }
        "umax" => a.max(b),
        "umin" => a.min(b),
        "abs" => (s(a).unsigned_abs()) & m,
        "ctpop" => a.count_ones() as u128,
        "ctlz" => (a.leading_zeros() - (128 - w)) as u128,
        "cttz" => {
            if a == 0 {
                w as u128
            } else {
                a.trailing_zeros() as u128
            }
        }
        "bswap" => a.swap_bytes() >> (128 - w),
        "bitreverse" => a.reverse_bits() >> (128 - w),
        "fshl" | "fshr" => {
            // Rotate the concatenation a:b by the shift modulo the width, without
            // shifting a u128 by 128.
            let sh = (c.int(2) % w as u128) as u32;
            match (op, sh) {
                ("fshl", 0) => a,
                ("fshr", 0) => b,
                ("fshl", _) => ((a << sh) | (b >> (w - sh))) & m,
                _ => ((b >> sh) | (a << (w - sh))) & m,
            }
        }
        _ => return Err(Stop::unsupported(format!("intrinsic {}", c.name))),
    };
    Ok(Ret::Value(Value::Int(v & m)))
}

fn float(_: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let x = |i: usize| c.args.get(i).map(|v| v.as_f64()).unwrap_or(0.0);
    let name = &c.name["llvm.".len()..];
    let op = name.split('.').next().unwrap_or("");
    let v = match op {
        "fabs" => x(0).abs(),
        "sqrt" => x(0).sqrt(),
        "floor" => x(0).floor(),
        "ceil" => x(0).ceil(),
        "trunc" => x(0).trunc(),
        "round" => x(0).round(),
        "fma" | "fmuladd" => x(0).mul_add(x(1), x(2)),
        "minnum" => x(0).min(x(1)),
        "maxnum" => x(0).max(x(1)),
        "copysign" => x(0).copysign(x(1)),
        "pow" => x(0).powf(x(1)),
        _ => return Err(Stop::unsupported(format!("intrinsic {}", c.name))),
    };
    Ok(Ret::Value(match c.ret {
        Ty::F32 => Value::F32(v as f32),
        _ => Value::F64(v),
    }))
}
