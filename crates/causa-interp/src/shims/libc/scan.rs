//! `sscanf` and `fscanf` (also under glibc's `__isoc99_` names): the
//! conversions are `causa_core::scan`'s, shared with symbolic execution. A
//! call is visible when its string or one of its pointer arguments is in
//! shared memory: one access that reads the string and writes each value
//! stored into shared memory. (`scanf` reads standard input: unsupported.)

use super::stdio::cstr;
use super::string::{seen_writes, terminated, Written};
use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, Call, Registry, Ret};
use causa_core::scan::{scan, Scan, Scanned};
use causa_core::EventKind;

/// `sscanf`'s arguments that may be shared: the string, and the pointers
/// after the format (as many as a call of up to 20 conversions passes).
const SSCANF_SHARED: &[usize] = &[0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21];

/// `fscanf`'s pointers after the format.
pub(super) const FSCANF_SHARED: &[usize] = &[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21];

pub fn register(r: &mut Registry) {
    for name in ["sscanf", "__isoc99_sscanf"] {
        r.visible_if_shared("stdio", name, EventKind::Read, SSCANF_SHARED, sscanf);
    }
    for name in ["scanf", "__isoc99_scanf"] {
        r.add("stdio", name, |_, _| Err(Stop::unsupported("reading standard input")));
    }
}

fn sscanf(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let input = cstr(m, c.ptr(0))?;
    let scanned = scanned(m, c, &input)?;
    let writes = store(m, c, &scanned.items)?;
    seen_writes(m, c, vec![(c.ptr(0), terminated(input, None))], writes)?;
    ret_i32(scanned.result)
}

/// `input` scanned by the format at argument 1.
pub(super) fn scanned(m: &Machine, c: &Call<'_>, input: &[u8]) -> Result<Scan, Stop> {
    let format = cstr(m, c.ptr(1))?;
    let long_bytes = m.program().space.layout.ptr_bytes as u32;
    scan(input, &format, long_bytes).map_err(Stop::unsupported)
}

/// Store each value through the pointer arguments from 2 on: what each
/// write replaced and wrote (address, before, after).
pub(super) fn store(m: &mut Machine, c: &Call<'_>, items: &[Scanned]) -> Result<Vec<Written>, Stop> {
    let mut writes = Vec::new();
    for (k, item) in items.iter().enumerate() {
        let p = c.ptr(2 + k);
        let bytes = item.le_bytes();
        let old = m.replace_bytes(p, &bytes)?;
        writes.push((p, old, bytes));
    }
    Ok(writes)
}
