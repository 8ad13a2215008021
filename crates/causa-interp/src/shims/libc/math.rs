//! `<math.h>`: the common functions of one or two `double`s (and their
//! `float` forms, `sqrtf`), computed with Rust's `f64` operations; a `float`
//! form rounds the result to `float`. `errno` is not set (glibc sets `EDOM`
//! and `ERANGE` for some arguments: a program that reads `errno` after a
//! math function sees what it held before).

use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{Call, Registry, Ret};
use causa_ir::ops::{math, math_double_name, MATH_FUNCTIONS};
use causa_ir::{Ty, Value};

pub fn register(r: &mut Registry) {
    for (double, float) in MATH_FUNCTIONS {
        r.add("libm", double, call);
        r.add("libm", float, call);
    }
}

fn call(_: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let name = math_double_name(c.name).ok_or_else(|| Stop::unsupported(format!("math function {}", c.name)))?;
    let x = |i: usize| c.args.get(i).map(|v| v.as_f64()).unwrap_or(0.0);
    let v = math(name, x(0), x(1)).ok_or_else(|| Stop::unsupported(format!("math function {}", c.name)))?;
    Ok(Ret::Value(match c.ret {
        Ty::F32 => Value::F32(v as f32),
        _ => Value::F64(v),
    }))
}
