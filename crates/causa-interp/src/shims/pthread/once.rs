//! pthread_once: the first caller runs the routine; others wait until it is done.
//! Each step is an `Once` event whose `value` says what it was
//! ([`causa_core::once_step`]).

use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, Call, Registry, Ret};
use crate::sync::OnceState;
use crate::thread::{OnReturn, Pending};
use causa_core::once_step::{CALLED_FIRST, FOUND_DONE, FOUND_RUNNING, MARKED_DONE, RESUMED};
use causa_core::{EventKind, Tid};
use causa_ir::Value;

pub fn register(r: &mut Registry) {
    r.visible("pthread", "pthread_once", EventKind::Once, once);
}

fn once(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let addr = c.ptr(0);
    let found = match m.sync.onces.get(&addr) {
        None => CALLED_FIRST,
        Some(OnceState::Running(_)) => FOUND_RUNNING,
        Some(OnceState::Done) => FOUND_DONE,
    };
    if let Some(e) = m.events.last_mut() {
        e.value = found;
    }
    m.note_once(c.t, found as u8)?;
    match found {
        FOUND_DONE => ret_i32(0),
        FOUND_RUNNING => Ok(Ret::Park(Pending::Once { once: addr })),
        _ => {
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
    m.record(t, EventKind::Once, addr, 0, RESUMED, 0, false);
    m.complete_parked_call(t, Value::ZERO)
}

/// The routine returned: mark the once done (the caller then goes on).
pub fn finish(m: &mut Machine, t: Tid, addr: u64) {
    m.record(t, EventKind::Once, addr, 0, MARKED_DONE, 0, false);
    m.sync.onces.insert(addr, OnceState::Done);
}
