//! An inconsistent snapshot: the failing thread reads two objects (a
//! count and a total kept under two locks) and another thread writes both
//! between its two reads, so it sees an old value of the first with a new
//! value of the second. No single object's accesses are interleaved (the
//! atomic regions of `dsp.rs` see none): the two reads, and the writer's
//! two writes, must each be one atomic step. And the dual: the two reads
//! fall between the writer's two writes, so they see a new value of the
//! first with an old value of the second (a reporter that reads `sent`
//! and `acked` without the lock the sender holds over both writes).

use crate::summary::{held_apart, held_over, line_range, unique, who};
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
    let Some((ra, wa, rb, wb)) = second.or_else(|| as_first(e, t, check.read)) else {
        return between_writes(e, t, check)
            .or_else(|| after_one_write(e, t, check))
            .or_else(|| one_copy_between(e, t, check))
            .or_else(|| copied_between_writes(e, t, check));
    };
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
    let (obj, val, at) = (|r| quoted(e, r), |r| failing_value(e, r), |r| line_of(e, r));
    let locks = |r: EventRef| held_over(e, t, r.1, r.1);
    let (la, lb) = (locks(ra), locks(rb));
    let reads = line_range(e, ra, rb);
    let written = line_range(e, wa, wb);
    // (The writer's writes may be one critical section already.)
    let fix = if let Some(fix) = one_side_locked(e, (wa, wb), (ra, rb)).filter(|_| la.is_empty() && lb.is_empty()) {
        fix
    } else if la.is_empty() && lb.is_empty() {
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

/// The failing thread `t`'s two reads between another thread's two
/// writes: `check`, its latest read whose data flow differs, sees the
/// writer's write `wa` of one object in the failing schedule (the
/// alternate has it come before), and the thread's next read of another
/// object comes before the writer's next write `wb` of that object. (When
/// the second read is the one whose flow differs, it is an order
/// violation, told with the same fix: `order.rs`.)
fn between_writes(e: &Explanation, t: usize, check: &crate::Flow) -> Option<String> {
    let (ra, wa) = (check.read, check.write?);
    let a = e.info_of(ra).addr?;
    if wa.0 == t || check.bytes.is_some() {
        return None;
    }
    let (pa, pwa) = (e.place(ra)?, e.place(wa)?);
    let rb = e.failing[pa + 1..]
        .iter()
        .copied()
        .filter(|r| r.0 == t && e.info_of(*r).op == "read")
        .find(|r| e.info_of(*r).addr.is_some_and(|b| b != a))?;
    let b = e.info_of(rb).addr;
    if e.value(ra, Run::Failing) == e.value(ra, Run::Alternate) {
        return None;
    }
    let (obj, val, at) = (|r| quoted(e, r), |r| failing_value(e, r), |r| line_of(e, r));
    let lock = |l| lock_name(e, l);
    let seen = format!("so the reads see a new {}{} with an old {}{}", obj(ra), val(ra), obj(rb), val(rb));
    // (The writer's next write of the second object after its first, and
    // no write of the first in between: it writes one, then the other.)
    let Some((pwb, &wb)) = e.failing.iter().enumerate().skip(pwa + 1).find(|(_, w)| w.0 == wa.0 && writes(e, **w, b))
    else {
        // The failure came before the writer's second write: it was still
        // inside the critical section of its first, which the reader
        // does not enter.
        let l = held_apart(e, (wa, wa), (ra, rb))?;
        let unlocked = e.failing[pwa + 1..]
            .iter()
            .position(|u| u.0 == wa.0 && e.info_of(*u).op == "unlock" && e.info_of(*u).addr == e.info_of(l).addr);
        if unlocked.is_some_and(|k| pwa + 1 + k < e.place(rb).unwrap_or(usize::MAX)) {
            return None;
        }
        return Some(format!(
            "{} reads {} at {} and {} at {} while {} holds `{}` (taken at {}) and has written {} at {} but not yet released it, {seen}; {} reads without `{}`: taking it over {} avoids the failure.",
            who(e, ra),
            obj(ra),
            at(ra),
            obj(rb),
            at(rb),
            who(e, wa),
            lock(l),
            at(l),
            obj(wa),
            at(wa),
            who(e, ra),
            lock(l),
            line_range(e, ra, rb),
        ));
    };
    let rewritten = e.failing[pwa + 1..pwb].iter().any(|w| w.0 == wa.0 && writes(e, *w, Some(a)));
    if pwb < e.place(rb)? || rewritten {
        return None;
    }
    let (reads, written) = (line_range(e, ra, rb), line_range(e, wa, wb));
    let fix = one_side_locked(e, (wa, wb), (ra, rb)).unwrap_or_else(|| {
        format!("one lock held over both writes ({written}) and both reads ({reads}) avoids the failure")
    });
    Some(format!(
        "{} reads {} at {} and {} at {} between {}'s writes of them at {} and {}, {seen}; {fix}.",
        who(e, ra),
        obj(ra),
        at(ra),
        obj(rb),
        at(rb),
        who(e, wa),
        at(wa),
        at(wb),
    ))
}

/// The failing thread `t`'s two neighbouring reads of two objects, both
/// after another thread's write of the first, `check`'s source, which the
/// alternate has them come before, while the second read sees an older
/// value the same in both schedules and the writer writes that object no
/// more before the failure: the reads pair a new value of one with an old
/// value of the other (a 64-bit tick kept in two words, read while the
/// ticker is between its two updates; or two counters bumped in two
/// critical sections). What the writer does later is not in the failing
/// run, so the sentence says no more of it than that.
fn after_one_write(e: &Explanation, t: usize, check: &crate::Flow) -> Option<String> {
    let (r, w) = (check.read, check.write?);
    let a = e.info_of(r).addr?;
    if w.0 == t || check.bytes.is_some() || e.value(r, Run::Failing) == e.value(r, Run::Alternate) {
        return None;
    }
    // The alternate's read sees what was there before `w`: the initial
    // value, or the writer's own earlier write.
    let older = match e.counterpart(check)?.write {
        None => true,
        Some(x) => x.0 == w.0 && x.1 < w.1,
    };
    let pw = e.place(w)?;
    if !older {
        return None;
    }
    // The thread's reads next to `r` in the failing schedule (nothing else
    // of the thread between): the one after it, else the one before.
    let mine: Vec<(usize, EventRef)> = e.failing.iter().copied().enumerate().filter(|(_, x)| x.0 == t).collect();
    let i = mine.iter().position(|(_, x)| *x == r)?;
    let other_read = |j: usize| {
        mine.get(j).copied().filter(|(_, x)| e.info_of(*x).op == "read" && e.info_of(*x).addr.is_some_and(|b| b != a))
    };
    let (po, o) = other_read(i + 1).or_else(|| i.checked_sub(1).and_then(other_read))?;
    let b = e.info_of(o).addr;
    let differs = e.dsp.failing_only.iter().chain(&e.dsp.alternate_only).any(|f| f.read == o);
    let by_writer = seen(e, o).is_some_and(|s| s.0 == w.0 && e.place(s).is_some_and(|p| p > pw));
    // (An object the reader's own thread writes is no half of the
    // writer's pair: a consumer's own `tail` next to the ring slot it
    // reads.)
    let own = (0..e.info[t].len()).any(|k| writes(e, (t, k), b));
    let written_later = e.failing[pw + 1..].iter().any(|x| x.0 == w.0 && writes(e, *x, b));
    if po < pw || differs || by_writer || written_later || own {
        return None;
    }
    let (first, second) = if po < e.place(r)? { (o, r) } else { (r, o) };
    let (obj, val, at) = (|x| quoted(e, x), |x| failing_value(e, x), |x| line_of(e, x));
    let reads = line_range(e, first, second);
    let fix = match (held_apart(e, (w, w), (first, second)), released_between(e, w, (first, second))) {
        (_, Some((l, u))) => format!(
            "{} holds {} over both reads, but {} releases `{}` at {} after writing {} at {} and before it updates {}: holding `{}` until {} is updated as well keeps the two reads a consistent pair",
            who(e, r),
            held_names(e, t, first.1, second.1),
            who(e, w),
            lock_name(e, l),
            at(u),
            obj(w),
            at(w),
            obj(o),
            lock_name(e, l),
            obj(o),
        ),
        (Some(l), _) => format!(
            "{} writes {} holding `{}` (taken at {}), but {} reads without it: taking `{}` over {reads}, and updating both objects in one critical section of it, keeps the two reads a consistent pair",
            who(e, w),
            obj(w),
            lock_name(e, l),
            at(l),
            who(e, r),
            lock_name(e, l),
        ),
        (None, None) => format!(
            "one lock held over the two reads ({reads}) and over {}'s updates of both objects keeps them a consistent pair",
            who(e, w)
        ),
    };
    Some(format!(
        "{} reads {}{} at {} and {}{} at {} after {} has written {} at {} but, by the failure, not {}: the reads pair a new {} with an old {}, and in the alternate both come before that write. {}{}.",
        who(e, r),
        obj(first),
        val(first),
        at(first),
        obj(second),
        val(second),
        at(second),
        who(e, w),
        obj(r),
        at(w),
        obj(o),
        obj(r),
        obj(o),
        fix[..1].to_uppercase(),
        &fix[1..],
    ))
}

/// The failing thread `t` reads two parts of a struct, and another thread
/// copies the whole struct (`cfg = next`, one `memcpy`) between the two
/// reads: the reads pair an old field with a new one, though the copy
/// itself is one step. `check`, the thread's read whose data flow differs,
/// is the second (the alternate has it see the old value) or the first
/// (the alternate has the copy come before it too).
fn one_copy_between(e: &Explanation, t: usize, check: &crate::Flow) -> Option<String> {
    let (ra, w, rb) = copy_seen_second(e, t, check).or_else(|| copy_after_first(e, t, check))?;
    if !held_over(e, t, ra.1, rb.1).is_empty() {
        return None;
    }
    let (obj, val, at) = (|x| quoted(e, x), |x| failing_value(e, x), |x| line_of(e, x));
    let reads = line_range(e, ra, rb);
    let fix = match held_apart(e, (w, w), (ra, rb)) {
        Some(l) => format!(
            "{} copies holding `{}`, but {} reads without it: taking `{}` over {reads} as well avoids the failure",
            who(e, w),
            lock_name(e, l),
            who(e, ra),
            lock_name(e, l)
        ),
        // (Not "copy it whole" instead: a struct copy is no atomic step
        // in C, only in how causa schedules it.)
        None => format!("one lock held over the two reads ({reads}) and over the copy avoids the failure"),
    };
    Some(format!(
        "{} reads {} at {} and {} at {}, and {} writes all of {} at {} between the two reads (one copy of the struct), so it sees an old {}{} with a new {}{}; {fix}.",
        who(e, ra),
        obj(ra),
        at(ra),
        obj(rb),
        at(rb),
        who(e, w),
        quoted(e, w),
        at(w),
        obj(ra),
        val(ra),
        obj(rb),
        val(rb),
    ))
}

/// `` `a` and `b` ``: the mutexes thread `t` holds from its event `from`
/// through `to`, by name.
pub(crate) fn held_names(e: &Explanation, t: usize, from: usize, to: usize) -> String {
    let names = held_over(e, t, from, to).into_iter().map(|(_, l)| format!("`{}`", lock_name(e, l)));
    crate::summary::join_and(&unique(names))
}

/// A lock the reader holds over both its reads (`first`, `second`) that
/// the writer held at its write `w` too and released after it before the
/// failure, in a critical section that updated only the first object (a
/// transfer that debits under one account's lock and credits under the
/// other's, read by an auditor holding both): the lock's lock event and
/// the writer's unlock.
pub(crate) fn released_between(
    e: &Explanation,
    w: EventRef,
    (first, second): (EventRef, EventRef),
) -> Option<(EventRef, EventRef)> {
    let theirs = held_over(e, first.0, first.1, second.1);
    let (m, l) = held_over(e, w.0, w.1, w.1).into_iter().find(|(m, _)| theirs.iter().any(|(x, _)| x == m))?;
    let pw = e.place(w)?;
    let u = e.failing[pw + 1..]
        .iter()
        .copied()
        .find(|u| u.0 == w.0 && e.info_of(*u).op == "unlock" && e.info_of(*u).addr == Some(m))?;
    Some((l, u))
}

/// The dual of [`one_copy_between`]: the failing thread `t` copies a
/// whole struct (`s = current`, one bulk read) between another thread's
/// writes of two of its fields, so the copy pairs the new first field with
/// the old second one. `check` is the copy's flow that differs: the bytes
/// of the second field, which the alternate has it read from the writer's
/// second write. (The writer's first write is the same source of the copy
/// in both schedules.)
fn copied_between_writes(e: &Explanation, t: usize, check: &crate::Flow) -> Option<String> {
    let (r, (lo, n)) = (check.read, check.bytes?);
    // The writer's second write: the alternate's source of those bytes.
    let wb = e.dsp.alternate_only.iter().find(|f| f.read == r && f.bytes == Some((lo, n)))?.write?;
    let ri = e.info_of(r);
    let (base, span) = (ri.addr?, u64::from(ri.span?));
    let within = |w: EventRef| e.info_of(w).addr.is_some_and(|a| a >= base && a < base + span);
    let other_field = |w: EventRef| e.info_of(w).addr.is_some_and(|a| a < lo || a >= lo + u64::from(n));
    // Its first: its latest write of another field of the struct before
    // the copy, which the copy sees (no later write of it before the copy).
    let pr = e.place(r)?;
    let wa = e.failing[..pr]
        .iter()
        .rev()
        .copied()
        .find(|w| w.0 == wb.0 && w.1 < wb.1 && e.info_of(*w).op == "write" && within(*w) && other_field(*w))?;
    let pa = e.place(wa)?;
    let addr = e.info_of(wa).addr;
    if wb.0 == t || e.failing[pa + 1..pr].iter().any(|w| writes(e, *w, addr)) {
        return None;
    }
    let (obj, at) = (|x| quoted(e, x), |x| line_of(e, x));
    let old = check.write.map_or_else(|| " (its initial value)".to_string(), |w| failing_value(e, w));
    let written = line_range(e, wa, wb);
    let fix = one_side_locked(e, (wa, wb), (r, r)).unwrap_or_else(|| {
        format!("one lock held over both writes ({written}) and over the copy at {} avoids the failure", at(r))
    });
    Some(format!(
        "{} copies {} at {} between {}'s writes of {} at {} and {} at {}, so the copy pairs a new {}{} with an old {}{old}; {fix}.",
        who(e, r),
        obj(r),
        at(r),
        who(e, wa),
        obj(wa),
        at(wa),
        obj(wb),
        at(wb),
        obj(wa),
        failing_value(e, wa),
        obj(wb),
    ))
}

/// Whether the copy `w` (a `memcpy` of another thread) covers the place
/// `r` accesses.
fn copies(e: &Explanation, w: EventRef, r: EventRef) -> bool {
    let wi = e.info_of(w);
    let (Some(base), Some(span), Some(a)) = (wi.addr, wi.span, e.info_of(r).addr) else { return false };
    wi.op == "memcpy" && w.0 != r.0 && a >= base && a < base + span as u64
}

/// [`one_copy_between`] with `check` the second read, which sees the copy:
/// (first read, copy, second read).
fn copy_seen_second(e: &Explanation, t: usize, check: &crate::Flow) -> Option<(EventRef, EventRef, EventRef)> {
    let (rb, w) = (check.read, check.write?);
    if !copies(e, w, rb) || e.value(rb, Run::Failing) == e.value(rb, Run::Alternate) {
        return None;
    }
    let (pw, prb) = (e.place(w)?, e.place(rb)?);
    // The thread's latest read before the copy of another part of the
    // struct, with no write of it by the copier in between.
    let b = e.info_of(rb).addr;
    let ra = e.failing[..pw]
        .iter()
        .rev()
        .copied()
        .find(|r| r.0 == t && e.info_of(*r).op == "read" && copies(e, w, *r) && e.info_of(*r).addr != b)?;
    (prb > pw).then_some((ra, w, rb))
}

/// [`one_copy_between`] with `check` the first read, which the alternate
/// has see the copy: the next copy of the struct by another thread after
/// it, and the thread's next read of another part of the struct after the
/// copy, which sees it (no other write of that part in between).
fn copy_after_first(e: &Explanation, t: usize, check: &crate::Flow) -> Option<(EventRef, EventRef, EventRef)> {
    let ra = check.read;
    let a = e.info_of(ra).addr?;
    if ra.0 != t || e.info_of(ra).op != "read" || e.value(ra, Run::Failing) == e.value(ra, Run::Alternate) {
        return None;
    }
    let pa = e.place(ra)?;
    let (pw, w) = e.failing.iter().copied().enumerate().skip(pa + 1).find(|(_, w)| copies(e, *w, ra))?;
    let (prb, rb) =
        e.failing.iter().copied().enumerate().skip(pw + 1).find(|(_, r)| {
            r.0 == t && e.info_of(*r).op == "read" && copies(e, w, *r) && e.info_of(*r).addr != Some(a)
        })?;
    let b = e.info_of(rb).addr;
    let rewritten = e.failing[pw + 1..prb].iter().any(|x| writes(e, *x, b) || (*x != w && copies(e, *x, rb)));
    (!rewritten).then_some((ra, w, rb))
}

/// The fix when one side holds a lock over its two accesses and the other
/// side takes it at neither: the other side takes it too.
fn one_side_locked(e: &Explanation, (wa, wb): (EventRef, EventRef), (ra, rb): (EventRef, EventRef)) -> Option<String> {
    let (holder, other, lock, what, not) = match held_apart(e, (wa, wb), (ra, rb)) {
        Some(l) => (wa, ra, l, "writes", "reads"),
        None => (ra, wa, held_apart(e, (ra, rb), (wa, wb))?, "reads", "writes"),
    };
    let m = lock_name(e, lock);
    let theirs = if other == ra { line_range(e, ra, rb) } else { line_range(e, wa, wb) };
    Some(format!(
        "{} holds `{m}` over both {what}, but {} {not} without it: taking `{m}` over {theirs} as well avoids the failure",
        who(e, holder),
        who(e, other)
    ))
}

/// `` `st.sent` `` (quoted), as the sentences name an object read or
/// written.
fn quoted(e: &Explanation, r: EventRef) -> String {
    e.named(r, "an object")
}

/// ` (1)`: what `r` saw or stored in the failing schedule.
fn failing_value(e: &Explanation, r: EventRef) -> String {
    e.value(r, Run::Failing).map(|v| format!(" ({v})")).unwrap_or_default()
}

fn line_of(e: &Explanation, r: EventRef) -> String {
    e.line(r).unwrap_or_default()
}

/// The mutex a lock event takes, by name (unquoted).
fn lock_name(e: &Explanation, l: EventRef) -> String {
    e.object(l).unwrap_or_else(|| "its lock".into())
}

/// Whether `r` writes (or updates) the location at `a`.
fn writes(e: &Explanation, r: EventRef, a: Option<u64>) -> bool {
    matches!(e.info_of(r).op, "write" | "update") && a.is_some() && e.info_of(r).addr == a
}

/// The write the failing schedule's read `r` sees (None: the initial value).
fn seen(e: &Explanation, r: EventRef) -> Option<EventRef> {
    let a = e.info_of(r).addr;
    e.failing[..e.place(r)?].iter().rev().copied().find(|w| writes(e, *w, a))
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
    let pwb = e.place(wb)?;
    // (Both in the failing schedule.)
    e.place(rb)?;
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
        let pa = e.place(ra).filter(|p| *p < pwb)?;
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
    let pa = e.place(ra)?;
    let (pwa, wa) = e.failing.iter().enumerate().skip(pa + 1).find(|(_, w)| w.0 != t && writes(e, **w, Some(a)))?;
    let mut reads = e.failing[pwa + 1..].iter().copied().filter(|r| r.0 == t && e.info_of(*r).op == "read");
    let rb = reads.find(|r| e.info_of(*r).addr.is_some_and(|b| b != a))?;
    let wb = seen(e, rb)?;
    (wb.0 == wa.0 && e.place(wb)? > pwa).then_some((ra, *wa, rb, wb))
}
