//! Barriers: the last thread to arrive completes the generation and returns
//! `PTHREAD_BARRIER_SERIAL_THREAD`; the others leave in a step of their own.

use super::EINVAL;
use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, Call, Registry, Ret};
use crate::sync::Barrier;
use crate::thread::Pending;
use causa_core::EventKind;

pub const SERIAL_THREAD: i32 = -1;

pub fn register(r: &mut Registry) {
    r.add("pthread", "pthread_barrier_init", |m, c| {
        let count = c.int(2) as u32;
        if count == 0 {
            return ret_i32(EINVAL);
        }
        m.sync.barriers.insert(c.ptr(0), Barrier { count, arrived: 0, gen: 0 });
        ret_i32(0)
    });
    r.add("pthread", "pthread_barrier_destroy", |m, c| {
        m.sync.barriers.remove(&c.ptr(0));
        ret_i32(0)
    });
    r.visible("pthread", "pthread_barrier_wait", EventKind::BarrierWait, wait);
}

fn wait(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let Some(b) = m.sync.barriers.get_mut(&c.ptr(0)) else {
        return Err(Stop::pthread(format!(
            "pthread_barrier_wait on barrier {}, which was never initialised",
            m.describe(c.ptr(0))
        )));
    };
    b.arrived += 1;
    let (gen, count, last) = (b.gen, b.count, b.arrived >= b.count);
    if last {
        b.arrived = 0;
        b.gen += 1;
    }
    // The arrival keeps its generation, the barrier's count and whether it was
    // the last to arrive (`value2 = count << 1 | last`; a departure has 0).
    if let Some(e) = m.events.last_mut() {
        e.value = gen as u128;
        e.value2 = ((count as u128) << 1) | last as u128;
    }
    if last {
        return ret_i32(SERIAL_THREAD);
    }
    Ok(Ret::Park(Pending::Barrier { barrier: c.ptr(0), gen }))
}
