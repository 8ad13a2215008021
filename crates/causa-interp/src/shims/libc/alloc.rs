//! malloc and friends. Heap blocks are fresh allocations with provenance; `free`
//! is a visible operation (it conflicts with every access to the block).

use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, ret_u64, Call, Registry, Ret};
use causa_core::EventKind;
use causa_ir::Value;

/// Largest single allocation causa models (bytes).
const MAX_ALLOC: u64 = 1 << 30;

pub fn register(r: &mut Registry) {
    r.add("libc", "malloc", |m, c| alloc_at(m, c, c.int(0) as u64, "malloc"));
    r.add("libc", "calloc", |m, c| alloc_at(m, c, (c.int(0) as u64).saturating_mul(c.int(1) as u64), "calloc"));
    r.add("libc", "aligned_alloc", |m, c| alloc_at(m, c, c.int(1) as u64, "aligned_alloc"));
    // Visible when it frees a block other threads can see.
    r.visible_if_shared("libc", "realloc", EventKind::Free, &[0], realloc);
    r.add("libc", "posix_memalign", |m, c| {
        let Ret::Value(p) = alloc_at(m, c, c.int(2) as u64, "posix_memalign")? else {
            return ret_i32(12);
        };
        m.store(c.ptr(0), &m.ptr_ty(), &p)?;
        ret_i32(0)
    });
    r.visible("libc", "free", EventKind::Free, free);
}

fn free(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    note_freed(m, c, c.ptr(0));
    let th = &mut m.threads[c.t as usize];
    let nth = th.frees;
    th.frees += 1;
    m.free(c.ptr(0), c.t, nth)?;
    Ok(Ret::Value(Value::ZERO))
}

fn realloc(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let (old, size) = (c.ptr(0), c.int(1) as u64);
    let Ret::Value(new) = alloc_at(m, c, size, "realloc")? else {
        return ret_u64(0);
    };
    if old != 0 {
        note_freed(m, c, old);
        let n = (m.mem.size_of(old) as u64).min(size);
        let bytes = m.read_bytes(old, n)?;
        m.write_bytes(new.as_addr(), &bytes)?;
        // (Not a `free` call: no `nth`.)
        m.free(old, c.t, u32::MAX)?;
    }
    Ok(Ret::Value(new))
}

/// A visible free keeps the size of the block it frees (the constraint model
/// orders the block's accesses before the free).
fn note_freed(m: &mut Machine, c: &Call<'_>, p: u64) {
    if c.visible {
        let size = if p == 0 { 0 } else { m.mem.size_of(p) as u128 };
        if let Some(e) = m.events.last_mut() {
            e.value = size;
        }
    }
}

/// Allocate for the calling thread, remembering the call site.
pub fn alloc_at(m: &mut Machine, c: &Call<'_>, size: u64, by: &str) -> Result<Ret, Stop> {
    if size > MAX_ALLOC {
        return ret_u64(0);
    }
    let loc = m.threads[c.t as usize].loc;
    Ok(Ret::Value(Value::Int(m.mem.alloc_heap(size, loc, by, c.t) as u128)))
}
