//! pthread_once: the first caller runs the routine; others wait until it is done.

use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, Call, Registry, Ret};
use crate::sync::OnceState;
use crate::thread::{OnReturn, Pending};
use causa_core::{EventKind, Tid};
use causa_ir::Value;

pub fn register(r: &mut Registry) {
    r.visible("pthread", "pthread_once", EventKind::Once, once);
}

fn once(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let addr = c.ptr(0);
    match m.sync.onces.get(&addr) {
        Some(OnceState::Done) => ret_i32(0),
        Some(OnceState::Running(_)) => Ok(Ret::Park(Pending::Once { once: addr })),
        None => {
            let Some(f) = m.program().function_at(c.ptr(1)) else {
                return Err(Stop::pthread(format!("pthread_once with an invalid routine ({})", m.describe(c.ptr(1)))));
            };
            m.sync.onces.insert(addr, OnceState::Running(c.t));
            if let Some(fr) = m.threads[c.t as usize].frames.last_mut() {
                fr.ip += 1;
            }
            let nparams = m.program().functions[f as usize].params.len();
            m.push_call(c.t, f, vec![Value::ZERO; nparams], c.dest, OnReturn::OnceDone(addr));
            Ok(Ret::Pushed)
        }
    }
}

/// A thread that waited for another's once routine runs again.
pub fn retry(m: &mut Machine, t: Tid, addr: u64) -> Result<(), Stop> {
    m.record(t, EventKind::Once, addr, 0, 0, 0, false);
    m.complete_parked_call(t, Value::ZERO)
}
