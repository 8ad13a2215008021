//! A function's static variable handed back to its callers (`static char
//! buf[16]; …; return buf;`): one for every caller, so two threads' calls
//! write it in turn, and a caller uses what another thread's call wrote.
//! Making lines atomic from the callee's write to the caller's use is no
//! fix a reader would write; each caller's own buffer is.

use super::*;

/// The fix when the region begins with a write of a static variable of
/// the function it is in (named `function.variable`, as the compiler
/// names such variables) and ends in another function (the caller's use
/// of what it returned), and every `told` intruder writes it too.
pub(super) fn static_buffer(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<String> {
    let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
    let (fi, li) = (e.info_of(first), e.info_of(last));
    let callee = fi.function.as_deref()?;
    let name = e.object(first)?;
    let var = name.strip_prefix(callee)?.strip_prefix('.')?;
    if var.is_empty() || li.function.as_deref() == Some(callee) || li.function.is_none() {
        return None;
    }
    let writes = |r: &EventRef| e.info_of(*r).addr == fi.addr && e.info_of(*r).stores;
    if !writes(&first) || told.is_empty() || !told.iter().any(writes) {
        return None;
    }
    // (Each writing thread once.)
    let mut threads: Vec<usize> = Vec::new();
    for r in told.iter().filter(|r| writes(r)) {
        if !threads.contains(&r.0) {
            threads.push(r.0);
        }
    }
    let others: Vec<String> = threads.iter().map(|t| format!("thread {}", e.threads[*t])).collect();
    Some(format!(
        "`{name}` is a static variable of `{callee}`, one for every caller: {}'s call writes it again before {} has used what its own call wrote there. Giving each caller its own (a buffer the caller passes in, or a `_Thread_local` one) avoids the failure",
        join_and(&others),
        who(e, last),
    ))
}
