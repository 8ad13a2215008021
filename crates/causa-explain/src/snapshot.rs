//! An inconsistent snapshot: the failing thread reads two objects (a
//! count and a total kept under two locks) and another thread writes both
//! between its two reads, so it sees an old value of the first with a new
//! value of the second. No single object's accesses are interleaved (the
//! atomic regions of `dsp.rs` see none): the two reads, and the writer's
//! two writes, must each be one atomic step.

use crate::summary::{held_over, line_range, unique, who};
use crate::{EventRef, Explanation, Run};

/// `` `reporter` (thread 0.2) reads `st.total` at s.c:33 and `st.hits` at
/// s.c:36, and `record_hit` (thread 0.1) writes both between the two reads
/// … `` with the fix, when the failing thread's check read is such a
/// second read.
pub(crate) fn sentence(e: &Explanation) -> Option<String> {
    let t = e.failing_thread()?;
    let check = e.dsp.failing_only.iter().filter(|f| f.read.0 == t).max_by_key(|f| f.read.1)?;
    // The read whose data flow differs is the second (it sees the new
    // value; the alternate has it see the old one) or the first (the
    // alternate has it see the new one too).
    let second = check.write.and_then(|wb| as_second(e, t, check.read, wb));
    let (ra, wa, rb, wb) = second.or_else(|| as_first(e, t, check.read))?;
    // One lock held over both reads already: not a snapshot across locks.
    if !held_over(e, t, ra.1, rb.1).is_empty() {
        return None;
    }
    // Nor when the thread waits for the other between the two (a
    // `sem_wait` or a condition's wake-up: one item per post, read at
    // another time by design); the first read's own order is the fault.
    if (ra.1 + 1..rb.1).any(|k| matches!(e.info_of((t, k)).op, "sem_wait" | "wake")) {
        return None;
    }
    let obj = |r: EventRef| e.object(r).map(|o| format!("`{o}`")).unwrap_or_else(|| "an object".into());
    let val = |r: EventRef| e.value(r, Run::Failing).map(|v| format!(" ({v})")).unwrap_or_default();
    let at = |r: EventRef| e.line(r).unwrap_or_default();
    let locks = |r: EventRef| held_over(e, t, r.1, r.1);
    let (la, lb) = (locks(ra), locks(rb));
    let reads = line_range(e, ra, rb);
    let written = line_range(e, wa, wb);
    let fix = if la.is_empty() && lb.is_empty() {
        format!("making {reads} one atomic step, and the writes at {written} another, avoids the failure")
    } else {
        // (Two sections of the same lock name it once.)
        let names = unique(la.iter().chain(&lb).filter_map(|(_, l)| e.object(*l)).map(|o| format!("`{o}`")));
        format!(
            "the reads are in separate critical sections ({}): one lock held over both reads ({reads}), and by the writer over both writes ({written}), avoids the failure",
            crate::summary::join_and(&names)
        )
    };
    Some(format!(
        "{} reads {} at {} and {} at {}, and {} writes {} at {} and {} at {} between the two reads, so it sees an old {}{} with a new {}{}; {fix}.",
        who(e, ra),
        obj(ra),
        at(ra),
        obj(rb),
        at(rb),
        who(e, wa),
        obj(wa),
        at(wa),
        obj(wb),
        at(wb),
        obj(ra),
        val(ra),
        obj(rb),
        val(rb),
    ))
}

fn pos(e: &Explanation, r: EventRef) -> Option<usize> {
    e.failing.iter().position(|x| *x == r)
}

/// Whether `r` writes (or updates) the location at `a`.
fn writes(e: &Explanation, r: EventRef, a: Option<u64>) -> bool {
    matches!(e.info_of(r).op, "write" | "update") && a.is_some() && e.info_of(r).addr == a
}

/// The write the failing schedule's read `r` sees (None: the initial value).
fn seen(e: &Explanation, r: EventRef) -> Option<EventRef> {
    let a = e.info_of(r).addr;
    e.failing[..pos(e, r)?].iter().rev().copied().find(|w| writes(e, *w, a))
}

/// `rb`, the failing thread `t`'s read that sees the writer's second
/// write `wb`, and the earlier read `ra` of another object the writer writes
/// between the two: (ra, wa, rb, wb).
fn as_second(
    e: &Explanation,
    t: usize,
    rb: EventRef,
    wb: EventRef,
) -> Option<(EventRef, EventRef, EventRef, EventRef)> {
    let b = e.info_of(rb).addr?;
    let pwb = pos(e, wb)?;
    // (Both in the failing schedule.)
    pos(e, rb)?;
    if wb.0 == t || !writes(e, wb, Some(b)) {
        return None;
    }
    // (The thread's latest read of each object before the second: one it
    // read again later, a loop's test, is not what it saw last.)
    let mut seen_objects = Vec::new();
    (0..rb.1).rev().map(|k| (t, k)).find_map(|ra| {
        let i = e.info_of(ra);
        if i.op != "read" || i.addr.is_none() || i.addr == Some(b) || seen_objects.contains(&i.addr) {
            return None;
        }
        seen_objects.push(i.addr);
        let pa = pos(e, ra).filter(|p| *p < pwb)?;
        // The writer's write of that object after the read, before the
        // write the second read sees.
        let wa = e.failing[pa + 1..pwb].iter().copied().find(|w| w.0 == wb.0 && writes(e, *w, i.addr))?;
        Some((ra, wa, rb, wb))
    })
}

/// `ra`, the failing thread `t`'s read of an object another thread writes
/// right after it, and the thread's later read `rb` of another object that
/// sees that thread's next write of it: (ra, wa, rb, wb).
fn as_first(e: &Explanation, t: usize, ra: EventRef) -> Option<(EventRef, EventRef, EventRef, EventRef)> {
    let a = e.info_of(ra).addr?;
    let pa = pos(e, ra)?;
    let (pwa, wa) = e.failing.iter().enumerate().skip(pa + 1).find(|(_, w)| w.0 != t && writes(e, **w, Some(a)))?;
    let mut reads = e.failing[pwa + 1..].iter().copied().filter(|r| r.0 == t && e.info_of(*r).op == "read");
    let rb = reads.find(|r| e.info_of(*r).addr.is_some_and(|b| b != a))?;
    let wb = seen(e, rb)?;
    (wb.0 == wa.0 && pos(e, wb)? > pwa).then_some((ra, *wa, rb, wb))
}
