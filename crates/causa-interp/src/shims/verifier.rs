//! SV-COMP conventions: `reach_error`/`__VERIFIER_error` are assertion
//! violations; a false `__VERIFIER_assume`/`assume_abort_if_not` makes the
//! execution infeasible (not a bug); `__VERIFIER_nondet_*` read program inputs;
//! `__VERIFIER_atomic_begin/end` bracket an uninterruptible section.

use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{Call, Registry, Ret};
use causa_core::{BugKind, EventKind};
use causa_ir::{Ty, Value};

pub fn register(r: &mut Registry) {
    r.add("verifier", "reach_error", |_, _| Err(Stop::bug(BugKind::AssertionViolation, "reach_error() is reachable")));
    r.add("verifier", "__VERIFIER_error", |_, _| {
        Err(Stop::bug(BugKind::AssertionViolation, "__VERIFIER_error() is reachable"))
    });
    r.add("verifier", "__VERIFIER_assume", assume);
    r.add("verifier", "assume_abort_if_not", assume);
    r.visible("verifier", "__VERIFIER_atomic_begin", EventKind::AtomicBegin, |m, c| {
        m.enter_atomic(c.t);
        Ok(Ret::Value(Value::ZERO))
    });
    r.visible("verifier", "__VERIFIER_atomic_end", EventKind::AtomicEnd, |m, c| {
        let th = &mut m.threads[c.t as usize];
        if th.atomic_depth == 0 {
            return Err(Stop::pthread("__VERIFIER_atomic_end without a matching __VERIFIER_atomic_begin"));
        }
        th.atomic_depth -= 1;
        Ok(Ret::Value(Value::ZERO))
    });
    for name in NONDET {
        r.add("verifier", name, nondet);
    }
}

const NONDET: [&str; 20] = [
    "__VERIFIER_nondet_int",
    "__VERIFIER_nondet_uint",
    "__VERIFIER_nondet_long",
    "__VERIFIER_nondet_ulong",
    "__VERIFIER_nondet_longlong",
    "__VERIFIER_nondet_ulonglong",
    "__VERIFIER_nondet_short",
    "__VERIFIER_nondet_ushort",
    "__VERIFIER_nondet_char",
    "__VERIFIER_nondet_uchar",
    "__VERIFIER_nondet_bool",
    "__VERIFIER_nondet_pointer",
    "__VERIFIER_nondet_size_t",
    "__VERIFIER_nondet_loff_t",
    "__VERIFIER_nondet_u32",
    "__VERIFIER_nondet_unsigned",
    "__VERIFIER_nondet_float",
    "__VERIFIER_nondet_double",
    "__VERIFIER_nondet_int128",
    "__VERIFIER_nondet_uint128",
];

fn assume(_: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    if c.int(0) == 0 {
        return Err(Stop::Infeasible(format!("{}(0): the assumption does not hold", c.name)));
    }
    Ok(Ret::Value(Value::ZERO))
}

/// Any `__VERIFIER_nondet_*`: the next program input, of the call's return type
/// (unsigned names, `bool`, pointers and sizes give non-negative values).
fn nondet(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let kind = c.name.trim_start_matches("__VERIFIER_nondet_");
    let signed = !kind.starts_with('u')
        && !matches!(kind, "bool" | "pointer" | "size_t" | "pchar" | "pthread_t" | "sector_t" | "const_char_pointer");
    let given = m.followed_input(c.t, c.name)?;
    let v = match c.ret {
        Ty::Int(1) => Value::Int(m.next_input(1, false, given)),
        Ty::Int(bits) => Value::Int(m.next_input(*bits, signed, given)),
        Ty::Ptr => Value::Int(m.next_input(64, false, given)),
        Ty::F32 => Value::F32(m.next_input(16, true, given) as i16 as f32),
        _ => Value::F64(m.next_input(16, true, given) as i16 as f64),
    };
    if let Some(raw) = m.inputs_used.last().copied() {
        m.note_input(c.t, c.name, raw);
    }
    Ok(Ret::Value(v))
}
