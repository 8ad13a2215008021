//! Thread-specific data. A key's destructor runs at the end of each thread
//! whose value for it is not null (`Machine::thread_returned`). Creating a
//! key writes its number into the program's `pthread_key_t`: a visible write
//! when that is shared memory (other threads read the key from there).

use super::EINVAL;
use crate::shims::{ret_i32, ret_u64, Registry};
use causa_core::EventKind;
use causa_ir::{Ty, Value};

pub fn register(r: &mut Registry) {
    r.visible_if_shared("pthread", "pthread_key_create", EventKind::Write, &[0], |m, c| {
        let id = m.sync.keys.len() as u32;
        m.sync.keys.push(c.ptr(1));
        m.store(c.ptr(0), &Ty::Int(32), &Value::Int(id as u128))?;
        if c.visible {
            if let Some(e) = m.events.last_mut() {
                (e.size, e.value) = (4, id as u128);
            }
        }
        ret_i32(0)
    });
    r.add("pthread", "pthread_key_delete", |m, c| {
        if c.int(0) as usize >= m.sync.keys.len() {
            return ret_i32(EINVAL);
        }
        ret_i32(0)
    });
    r.add("pthread", "pthread_setspecific", |m, c| {
        let key = c.int(0) as u32;
        if key as usize >= m.sync.keys.len() {
            return ret_i32(EINVAL);
        }
        let spec = &mut m.threads[c.t as usize].specific;
        match spec.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = c.ptr(1),
            None => spec.push((key, c.ptr(1))),
        }
        m.mem.escape(c.ptr(1));
        ret_i32(0)
    });
    r.add("pthread", "pthread_getspecific", |m, c| {
        let key = c.int(0) as u32;
        let v = m.threads[c.t as usize].specific.iter().find(|(k, _)| *k == key).map(|(_, v)| *v).unwrap_or(0);
        ret_u64(v)
    });
}
