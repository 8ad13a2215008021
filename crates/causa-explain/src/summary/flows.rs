//! Data flows that differ: what a read sees in each schedule, and the
//! reads the alternate does not run.

use super::*;

/// The differing data flows' sentences, when nothing else was told:
/// order violations (joined when they share a fix), flows, the reads the
/// alternate does not run. Returns the reads whose fix is to wait for
/// their write (a barrier both threads reach after may be the way).
pub(super) fn differing_flow_sentences<'a>(e: &'a Explanation, out: &mut Vec<String>) -> Vec<&'a Flow> {
    // Reads the alternate does not run because their thread went
    // another way are told together, after the flows that explain.
    if let Some(twice) = initialised_twice(e) {
        out.extend(twice);
        return Vec::new();
    }
    let (not_run, differ): (Vec<&Flow>, Vec<&Flow>) = e.dsp.failing_only.iter().partition(|f| skipped(e, f));
    let mut locals_told = Vec::new();
    // (The parts of one bulk read whose sources differ are told in
    // one sentence.)
    let mut reads: Vec<Vec<&Flow>> = Vec::new();
    for f in differ {
        match reads.iter_mut().find(|g| g[0].read == f.read) {
            Some(g) => g.push(f),
            None => reads.push(vec![f]),
        }
    }
    // (The reads whose fix is to wait for their write: a barrier both
    // threads reach after may be the way.)
    let waiting: Vec<&Flow> = reads
        .iter()
        .filter_map(|g| match g.as_slice() {
            [f] => order_violation(e, f, e.counterpart(f)).filter(|s| s.ends_with(WAIT_FOR_THE_WRITE)).map(|_| *f),
            _ => None,
        })
        .collect();
    let (joined, reads) = joined_order_violations(e, reads);
    out.extend(joined);
    let mut said = 0;
    for parts in reads {
        if said == 3 {
            break;
        }
        let before = out.len();
        let f = parts[0];
        let alt = e.counterpart(f);
        match order_violation(e, f, alt) {
            Some(s) if parts.len() == 1 => out.push(s),
            _ if parts.len() > 1 => {
                out.push(parts_order_violation(e, &parts).unwrap_or_else(|| parts_sentence(e, &parts)))
            }
            _ => {
                out.push(flow_sentence(e, f, alt));
                out.extend(overwritten(e, f, alt));
            }
        }
        out.extend(another_threads_local(e, f, &mut locals_told));
        // (Two reads of one location by one statement that see the same
        // in both schedules, `x->v != 1 && x->v != 2`, are told once.)
        if out[before..].iter().all(|s| out[..before].contains(s)) {
            out.truncate(before);
            continue;
        }
        said += 1;
    }
    one_fix_for_the_order_violations(out);
    out.extend(not_run_sentences(e, &not_run));
    waiting
}

/// A flipped branch told with nothing to make atomic: another thread's
/// data flow that differs before the branch, the earliest in the failing
/// schedule (a lock-free pop's stale read of `top->next`, which changes the
/// list the flipped loop then walks), when the alternate's write is one of
/// the trace's. Said as what comes before, not as a cause: the model does
/// not follow values from one thread to another. (Not for a deadlock: its
/// cycle is the explanation.)
pub(super) fn upstream_flow(e: &Explanation, told: &[EventRef]) -> Option<String> {
    let f = e.flipped.as_ref()?;
    if e.failure.kind == causa_core::BugKind::Deadlock {
        return None;
    }
    let at = |r: EventRef| e.place(r);
    let branch = f.events_before.checked_sub(1).and_then(|k| at((f.thread, k)));
    let g = e
        .dsp
        .failing_only
        .iter()
        .filter(|g| g.read.0 != f.thread && !told.contains(&g.read) && e.counterpart(g).is_some())
        .filter_map(|g| Some((at(g.read)?, g)))
        .filter(|(i, _)| branch.is_none_or(|b| *i < b))
        .min_by_key(|(i, _)| *i)?
        .1;
    let mut s = flow_sentence(e, g, e.counterpart(g));
    s[..1].make_ascii_lowercase();
    Some(format!("Before that, {s}"))
}

/// The failing thread's differing read nearest the failure: what the check
/// sees. Of those the failing branch's condition depends on, when there
/// are any (an assertion on an item, not the count read after it).
pub(super) fn checked(e: &Explanation) -> Option<&Flow> {
    let t = e.failing_thread()?;
    let mine = || e.dsp.failing_only.iter().filter(|f| f.read.0 == t);
    let tested = |f: &&Flow| match e.failure_branch {
        Some((bt, k)) => bt == t && e.branches_on.get(&f.read).is_some_and(|ks| ks.contains(&k)),
        None => false,
    };
    mine().filter(tested).max_by_key(|f| f.read.1).or_else(|| mine().max_by_key(|f| f.read.1))
}

/// A freed block the accessing thread reaches through a shared pointer it
/// reads only after the free (the free left the pointer pointing to the
/// block): `` `user` (thread 0.1) reaches `heap#1` through `s`, which it
/// reads at a.c:16, after the free. … `` with the fix: the pointer cleared
/// and the block freed under a lock the reader holds over its read and its
/// use. None when the thread read the pointer before the free (then
/// clearing it would not have helped) or through no pointer the runs name.
fn reached_after_free(e: &Explanation, free: EventRef, access: EventRef) -> Option<String> {
    let block = e.object(free)?;
    let pointer = pointer_read(e, &e.failing[e.place(free)? + 1..], access, &block)?;
    let name = e.object(pointer)?;
    Some(format!(
        " {} reaches `{block}` through `{name}`, which it reads at {}, after the free: the free leaves `{name}` pointing to the block. Clearing `{name}` and freeing the block under a lock that {} holds from its read of `{name}` to its last use of the block avoids the failure.",
        who(e, access),
        e.line(pointer).unwrap_or_default(),
        who(e, access)
    ))
}

/// A reference taken after the last one was dropped: a use after free
/// whose access is to the field the freeing thread read before its free,
/// in the function that frees (a count it found at its last): `` `user`
/// (thread 0.1) takes its reference to `heap#1` at r.c:16 (its access of
/// `heap#1.refs`) after `main` (thread 0) read `heap#1.refs` at r.c:9,
/// saw 1 … and freed the block at r.c:11 … ``, with the fix: the
/// reference taken for the thread before the last one can be dropped, by
/// the thread that frees, which created it.
pub(super) fn late_reference(e: &Explanation) -> Option<String> {
    let free = e.freeing.filter(|r| e.info_of(*r).op == "free" && !e.info_of(*r).realloc)?;
    // (`use after free: read of 4 bytes in heap#1.refs (malloc at …), …`.)
    let rest = e.failure.message.strip_prefix("use after free: ")?;
    let field = rest.split_once(" in ")?.1.split_once(" (")?.0;
    let t = free.0;
    let read = (0..free.1)
        .rev()
        .map(|k| (t, k))
        .find(|r| e.info_of(*r).op == "read" && e.object(*r).as_deref() == Some(field))?;
    // (In the function that frees: the release of a reference, a count
    // it found at 1, its own, or at 0 once dropped.)
    if e.info_of(read).function.is_none() || e.info_of(read).function != e.info_of(free).function {
        return None;
    }
    let seen = match e.value(read, Run::Failing) {
        Some("1") => "1 (its own reference the last)",
        Some("0") => "0 (its own reference dropped)",
        _ => return None,
    };
    let access = e.dsp.events.iter().copied().rev().find(|r| e.threads[r.0] == e.failure.thread)?;
    if access.0 == t {
        return None;
    }
    let line = |r: EventRef| e.line(r).unwrap_or_default();
    let block = e.named(free, "the block");
    let before_access = &e.failing[..e.place(access)?];
    let reached = e
        .object(free)
        .and_then(|b| pointer_read(e, before_access, access, &b))
        .and_then(|p| {
            Some(format!(
                "; {} still reaches the block through `{}`, which it reads at {}",
                who(e, access),
                e.object(p)?,
                line(p)
            ))
        })
        .unwrap_or_default();
    // (Only for a thread the freeing one created: it handed the block
    // over and then dropped its own reference. A thread that checks the
    // count of a block it reached on its own is told through the pointer
    // it read, `order_sentence`.)
    let c = (0..e.info[t].len()).map(|k| (t, k)).find(|r| e.info_of(*r).forks == Some(access.0))?;
    let f = e.info_of(c).function.clone()?;
    let before = format!(" (in `{f}`, before it creates the thread at {})", line(c));
    Some(format!(
        "{} takes its reference to {block} at {} (its access of `{field}`) after {} read `{field}` at {}, saw {seen} and freed the block at {}{reached}. Taking the reference for {} before thread {} can drop the last one{before} avoids the failure.",
        who(e, access),
        line(access),
        who(e, free),
        line(read),
        line(free),
        who(e, access),
        e.threads[t],
    ))
}

/// A reference taken from a count already at 0: a thread reached a
/// block through a pointer it read before another thread replaced it,
/// and its increment of the block's count (`0→1`) came after that
/// thread's decrement dropped the last reference (`1→0`); both then free
/// the block (or one uses it after the other's free). `` `reader` (thread
/// 0.1) takes its reference to `heap#1` at r.c:20 (its update of
/// `heap#1.refs`, 0→1) after `put` (thread 0.2) dropped the last one at
/// r.c:14 (1→0) … ``, with the fix: a reference taken only from a count
/// above 0, or the pointer's read and the increment made one step with
/// its replacement.
pub(super) fn revived_reference(e: &Explanation) -> Option<String> {
    let free = e.freeing.filter(|r| e.info_of(*r).op == "free" && !e.info_of(*r).realloc)?;
    let block = e.object(free)?;
    let field_of_block = |r: EventRef| e.object(r).is_some_and(|o| o.starts_with(&format!("{block}.")));
    let update = |r: &EventRef, v: &str| {
        e.info_of(*r).op == "update" && field_of_block(*r) && e.value(*r, Run::Failing) == Some(v)
    };
    let upto = e.place(free)?;
    let revive = e.failing[..upto].iter().copied().find(|r| update(r, "0→1"))?;
    let at = e.info_of(revive).addr;
    let drop = e.failing[..e.place(revive)?]
        .iter()
        .copied()
        .rfind(|r| r.0 != revive.0 && update(r, "1→0") && e.info_of(*r).addr == at)?;
    let field = e.object(revive)?;
    let line = |r: EventRef| e.line(r).unwrap_or_default();
    let pointer = pointer_read(e, &e.failing[..e.place(revive)?], revive, &block)?;
    let ptr = e.object(pointer)?;
    let failed = e.failure_line().unwrap_or_default();
    let (what, wheres) = match (e.failure.message.starts_with("double free"), line(free) == failed) {
        (true, true) => ("both free the block", format!("both at {failed}")),
        (true, false) => ("both free the block", format!("at {} and {failed}", line(free))),
        (false, _) => {
            ("the block is freed while it is still in use", format!("freed at {}, used at {failed}", line(free)))
        }
    };
    // (Who replaced the pointer, after the read.)
    let replaced = e.failing[e.place(pointer)?..]
        .iter()
        .copied()
        .find(|r| r.0 != revive.0 && e.info_of(*r).op == "write" && e.info_of(*r).addr == e.info_of(pointer).addr)
        .map(|r| format!(" before {} replaced it at {}", who(e, r), line(r)))
        .unwrap_or_default();
    Some(format!(
        "{} takes its reference to {} at {} (its update of `{field}`, 0→1) after {} dropped the last one at {} (1→0): the count had reached 0, so {what} ({wheres}). {} reached the block through `{ptr}`, read at {}{replaced}. A reference taken only from a count above 0 (a compare-and-swap that refuses 0, reading `{ptr}` again when it does), or the read of `{ptr}` and the increment made one step with its replacement (one lock over both), avoids the failure.",
        who(e, revive),
        e.named(free, "the block"),
        line(revive),
        who(e, drop),
        line(drop),
        who(e, revive),
        line(pointer),
    ))
}

/// The accessing thread's latest read among `events` (of the failing
/// schedule) before its `access` that saw a pointer to `block`.
fn pointer_read(e: &Explanation, events: &[EventRef], access: EventRef, block: &str) -> Option<EventRef> {
    let target = format!("&{block}");
    events
        .iter()
        .copied()
        .filter(|r| r.0 == access.0 && r.1 < access.1 && e.info_of(*r).op == "read")
        .rfind(|r| e.value(*r, Run::Failing) == Some(target.as_str()))
}

/// A freed block (or one `realloc` moved) the accessing thread reaches
/// through a pointer it read before the free while holding a lock that it
/// releases before the access and that the freeing thread holds at the
/// free: `` `reader` (thread 0.1) reads `items` at a.c:15 while holding
/// `m`, releases `m` at a.c:17 and then uses the block at a.c:18, which
/// `main` (thread 0) moved (its `realloc`) while holding `m` in between.
/// Holding `m` … `` None otherwise (then joining, or clearing the pointer,
/// is the fix told).
fn used_after_unlock(e: &Explanation, free: EventRef, access: EventRef) -> Option<String> {
    let t = access.0;
    let pointer = pointer_read(e, &e.failing[..e.place(free)?], access, &e.object(free)?)?;
    let at_free = held_over(e, free.0, free.1, free.1);
    let (lock, _) =
        held_over(e, t, pointer.1, pointer.1).into_iter().find(|(m, _)| at_free.iter().any(|(x, _)| x == m))?;
    let unlock = (pointer.1 + 1..access.1)
        .map(|k| (t, k))
        .find(|r| e.info_of(*r).op == "unlock" && e.info_of(*r).addr == Some(lock))?;
    let (name, m) = (e.object(pointer)?, e.object(unlock)?);
    let line = |r: EventRef| e.line(r).unwrap_or_default();
    let done = if e.info_of(free).realloc { "moved (its `realloc`)" } else { "freed" };
    Some(format!(
        " {} reads `{name}` at {} while holding `{m}`, releases `{m}` at {} and then uses the block at {}, which {} {done} at {} while holding `{m}` in between. Holding `{m}` from the read of `{name}` through that use (or copying what it needs from the block while holding it) avoids the failure.",
        who(e, access),
        line(pointer),
        line(unlock),
        line(access),
        who(e, free),
        line(free)
    ))
}

/// `` The read of `balance` at bank.c:48 in `main` (thread 0) sees 70 from
/// thread 0.2 line 20 in the failing schedule and 120 from … in the alternate. ``
/// When no data flow differs (a use after free): the two events of
/// different threads nearest the failure whose order the alternate swaps.
pub(super) fn order_sentence(e: &Explanation) -> Option<String> {
    let alt = e
        .dsp
        .alternate_events
        .iter()
        .enumerate()
        .map(|(i, r)| (*r, i))
        .collect::<causa_core::collections::HashMap<_, _>>();
    let f = &e.dsp.events;
    let swapped = |a: EventRef, b: EventRef| a.0 != b.0 && alt.get(&a).zip(alt.get(&b)).is_some_and(|(x, y)| y < x);
    // What ended the life of the object the failing access reaches, when
    // the alternate runs the access first: a use after free's `free`, or
    // the `end` of the thread whose thread-local variable it is.
    let free =
        e.freeing.filter(|r| f.contains(r)).or_else(|| f.iter().copied().rev().find(|r| e.info_of(*r).op == "free"));
    let end = ended_thread_variable(e).and_then(|(_, owner)| {
        f.iter().copied().find(|r| e.threads[r.0].to_string() == owner && e.info_of(*r).op == "end")
    });
    let access = f.iter().copied().rev().find(|r| e.threads[r.0] == e.failure.thread);
    let ended = [free, end].into_iter().flatten().find(|a| access.is_some_and(|b| swapped(*a, b)));
    if let (Some(a), Some(b)) = (ended, access) {
        let at = e.line(a).unwrap_or_default();
        let (what, unjoined) = if e.info_of(a).op == "free" {
            let block = e.named(a, "the block");
            // The freeing thread created the accessing one and frees the
            // block without joining it first (a join would order them).
            let (pa, pb) = (e.threads[a.0].parts(), e.threads[b.0].parts());
            let unjoined = if let Some(told) = used_after_unlock(e, a, b) {
                told
            } else if pb.len() == pa.len() + 1 && pb.starts_with(pa) {
                format!(" {} created thread {} and does not join it before the free.", who(e, a), e.threads[b.0])
            } else {
                String::new()
            };
            let how = if e.info_of(a).realloc { " (its `realloc` moves the block)" } else { "" };
            let unjoined = if unjoined.is_empty() { reached_after_free(e, a, b).unwrap_or_default() } else { unjoined };
            (format!("frees {block}{how} at {at}"), unjoined)
        } else {
            (format!("ends at {at}"), String::new())
        };
        return Some(format!(
            "In the failing schedule {} {what} before {}'s {}; the alternate runs that access first, and the failure does not happen.{unjoined}",
            who(e, a),
            who(e, b),
            event_phrase(e, b)
        ));
    }
    for j in (0..f.len()).rev() {
        for i in (0..j).rev() {
            let (a, b) = (f[i], f[j]);
            if swapped(a, b) {
                return Some(format!(
                    "In the failing schedule {}'s {} comes before {}'s {}; the alternate runs the second first, and the failure does not happen.",
                    who(e, a),
                    event_phrase(e, a),
                    who(e, b),
                    event_phrase(e, b)
                ));
            }
        }
    }
    None
}

/// An access to an ended thread's thread-local variable: the variable's
/// name and the thread whose instance it was (the interpreter's message:
/// `… in scratch@0.1[3] (thread-local, thread 0.1's) after its thread ended`).
pub(super) fn ended_thread_variable(e: &Explanation) -> Option<(String, String)> {
    let m = &e.failure.message;
    let rest = m.strip_suffix(" after its thread ended")?;
    let (object, owner) = rest.rsplit_once(" (thread-local, thread ")?;
    let owner = owner.strip_suffix("'s)")?;
    let object = object.rsplit_once(" in ")?.1;
    let name = object.split(['@', '[', '.']).next().unwrap_or(object);
    Some((name.to_string(), owner.to_string()))
}

/// The failing thread's last read before the failure, when it sees another
/// value in the alternate (from the same write); not one already `told`
/// (the flipped branch's).
pub(super) fn last_read_values(e: &Explanation, told: &[EventRef]) -> Option<String> {
    let t = e.failing_thread()?;
    let r = *e.failing.iter().rev().find(|r| r.0 == t && matches!(e.info_of(**r).op, "read" | "update"))?;
    let (f, a) = (e.value(r, Run::Failing)?, e.value(r, Run::Alternate)?);
    (f != a && !told.contains(&r)).then(|| {
        format!(
            "The failing thread's {} then sees {f} in the failing schedule and {a} in the alternate.",
            event_phrase(e, r)
        )
    })
}

pub(super) fn flow_sentence(e: &Explanation, f: &Flow, alt: Option<&Flow>) -> String {
    // An address computed from shared data may reach another object.
    let there = match e.elsewhere_in_alternate(f.read) {
        Some(o) if alt.is_some() => format!(", where it reads `{o}`"),
        _ => String::new(),
    };
    format!(
        "The {} in {} sees {} in the failing schedule and {} in the alternate{there}.",
        event_phrase(e, f.read),
        who(e, f.read),
        e.source_of_part(f, Run::Failing),
        alternate_source(e, f, alt)
    )
}

/// [`flow_sentence`] for the parts of one bulk read whose sources differ:
/// each schedule's sources once, by part only where they differ (`` sees
/// what thread 0 wrote at line 26 in the failing schedule and what thread
/// 0 wrote at line 23 in bytes 0–6 of `line` and the initial value in byte
/// 7 of `line` in the alternate ``).
pub(super) fn parts_sentence(e: &Explanation, parts: &[&Flow]) -> String {
    let failing = failing_sources(e, parts);
    let alternate = told(
        parts
            .iter()
            .map(|f| alternate_source(e, f, e.counterpart(f).map(|g| Flow { bytes: None, ..*g }).as_ref()))
            .collect(),
        parts.iter().map(|f| alternate_source(e, f, e.counterpart(f))).collect(),
    );
    let r = parts[0].read;
    format!(
        "The {} in {} sees {failing} in the failing schedule and {alternate} in the alternate.",
        event_phrase(e, r),
        who(e, r)
    )
}

/// Sources said once when they are the same for every part, else part by
/// part.
pub(super) fn told(whole: Vec<String>, by_part: Vec<String>) -> String {
    let mut once = whole;
    once.dedup();
    match once.len() {
        1 => once.remove(0),
        _ => {
            let mut by_part = by_part;
            by_part.dedup();
            by_part.join(" and ")
        }
    }
}

/// What the parts of one bulk read see in the failing schedule.
pub(super) fn failing_sources(e: &Explanation, parts: &[&Flow]) -> String {
    // (In the order of their bytes.)
    let mut parts = parts.to_vec();
    parts.sort_by_key(|f| f.bytes);
    told(
        parts.iter().map(|f| e.source_text(f, Run::Failing)).collect(),
        parts.iter().map(|f| e.source_of_part(f, Run::Failing)).collect(),
    )
}

/// Where the alternate's read of `f`'s bytes takes them from (`alt`, the
/// alternate's flow), or why it has none.
pub(super) fn alternate_source(e: &Explanation, f: &Flow, alt: Option<&Flow>) -> String {
    alt.map(|g| e.source_of_part(g, Run::Alternate)).unwrap_or_else(|| match e.unshown(f.read) {
        Some(crate::Unshown::OtherWay) => "nothing (its thread goes the other way before it)".into(),
        Some(crate::Unshown::LateValue(v) | crate::Unshown::SeenLate(v)) => format!("{v} ({})", crate::late_store(&v)),
        Some(crate::Unshown::AfterLateValue) => {
            "nothing that the failing run explains (its thread read a value the failing run never stored)".into()
        }
        Some(crate::Unshown::OnTheNewPath(v)) => format!("{v} on the path its thread takes instead"),
        None => "nothing (it does not happen)".into(),
    })
}

/// A read of another thread's local variable, reached through a pointer
/// (the loop counter's address passed to `pthread_create`), whose value the
/// owner changed before the read: `` `i` is a local variable of `main`
/// (thread 0), which `worker` (thread 0.2) reads through a pointer while
/// `main` goes on changing it (at c.c:23); … ``. Once per variable
/// (`told`: the addresses said).
pub(super) fn another_threads_local(e: &Explanation, f: &Flow, told: &mut Vec<u64>) -> Option<String> {
    let addr = e.info_of(f.read).addr?;
    let local = e.locals.get(&addr)?;
    let w = f.write?;
    let (owner, reader) = (&e.threads[w.0], &e.threads[f.read.0]);
    if *owner != local.thread || *reader == local.thread || told.contains(&addr) {
        return None;
    }
    told.push(addr);
    let name = e.names.get(&addr)?;
    let at = e.line(w).map(|l| format!(" (at {l})")).unwrap_or_default();
    Some(format!(
        "`{name}` is a local variable of `{}` (thread {}), which {} reads through a pointer while `{}` goes on changing it{at}: giving each thread its own copy, which nothing changes once the thread has it (a variable or array element per thread, or the value itself), avoids the failure.",
        local.function,
        local.thread,
        who(e, f.read),
        local.function
    ))
}

/// The write a read sees in the alternate came earlier in the failing
/// schedule too, to the same place, and the write the read sees there
/// overwrote it: `` In the
/// failing schedule `main` (thread 0)'s memset of `st` at m.c:20 comes
/// after `worker` (thread 0.1)'s write of `st.hits` at m.c:12 and
/// overwrites it. ``
pub(super) fn overwritten(e: &Explanation, f: &Flow, alt: Option<&Flow>) -> Option<String> {
    let (wf, wa) = (f.write?, alt?.write?);
    // (Not when the read reaches another place in the alternate: a read
    // through a computed index, whose two writes are to two slots.)
    if e.elsewhere_in_alternate(f.read).is_some() {
        return None;
    }
    // (Each of the three is in the failing schedule.)
    let (_, pf, pr) = (e.place(wa)?, e.place(wf)?, e.place(f.read)?);
    // The same statement of the same thread run again (the next round of
    // a loop) before the read: nothing holds the writer back until the
    // reader has read the earlier value.
    if wa.0 == wf.0 && wa.1 < wf.1 && pf < pr && e.line(wa).is_some() && e.line(wa) == e.line(wf) && wf.0 != f.read.0 {
        let obj = e.named(wf, "it");
        let val = |r: EventRef, run: Run| e.value(r, run).map(|v| format!(" ({v})")).unwrap_or_default();
        let again = format!(
            "In the failing schedule {} runs {} again and writes {obj}{} before {}'s {}, which was to see the earlier write{}",
            who(e, wf),
            e.line(wf).unwrap_or_default(),
            val(wf, Run::Failing),
            who(e, f.read),
            event_phrase(e, f.read),
            val(wa, Run::Alternate),
        );
        // Both threads read it and then write it at the writer's line (two
        // consumers advancing one shared index): the two lines are one
        // update, which a lock keeps whole.
        if let Some(w) = updates_it_too(e, f.read, wf) {
            return Some(format!(
                "{again}. Both threads read {obj} at {} and write it at {} with no lock held over the two: holding one lock over {} avoids the failure.",
                e.line(f.read).unwrap_or_default(),
                e.line(w).unwrap_or_default(),
                line_range(e, f.read, w),
            ));
        }
        if let Some(s) = counted_too_high(e, (wa, wf), f.read) {
            return Some(format!("{again}: {s}"));
        }
        return Some(format!(
            "{again}: nothing makes thread {} wait for that read before it writes {obj} again (a barrier or a lock between the read and the next write would).",
            e.threads[wf.0],
        ));
    }
    let (wf, wa) = overwrote(e, f, alt)?;
    Some(overwrite_sentence(e, wf, wa))
}

/// A ring's slot written again (`wf`, after `wa` at the same line by the
/// same thread) before the reader's `read` of the first value, though the
/// writer waits on a semaphore between the two writes that the reader
/// posts after its read: the semaphore starts with more than the writes
/// that go round the ring before they come back to the slot (`sem_init`
/// with one slot too many). The clause that says so, and its fix.
fn counted_too_high(e: &Explanation, (wa, wf): (EventRef, EventRef), read: EventRef) -> Option<String> {
    let t = wf.0;
    let wait = (wa.1 + 1..wf.1).map(|k| (t, k)).find(|r| e.info_of(*r).op == "sem_wait")?;
    let sem = e.info_of(wait).addr?;
    let post = (read.1 + 1..e.info[read.0].len())
        .map(|k| (read.0, k))
        .find(|r| e.info_of(*r).op == "sem_post" && e.info_of(*r).addr == Some(sem))?;
    // The writes at the slot's line from the first write to the second:
    // how many places the writer goes round.
    let round = (wa.1..wf.1).filter(|k| e.info[t][*k].op == "write" && e.line((t, *k)) == e.line(wf)).count();
    let n = *e.sem_initial.get(&sem)?;
    if n as usize <= round {
        return None;
    }
    let name = e.object(wait).unwrap_or_else(|| "the semaphore".into());
    Some(format!(
        "its `sem_wait` on `{name}` at {} lets it through before {} posts `{name}` at {} after the read, because `{name}` starts at {n} (`sem_init`) and the writes come back to {} after {round}: starting `{name}` at {round} avoids the failure.",
        e.line(wait).unwrap_or_default(),
        who(e, read),
        e.line(post).unwrap_or_default(),
        e.named(wf, "the same place"),
    ))
}

/// The failing write `wf` and the alternate's `wa` of a read `f`, when
/// `wf` is another thread's and comes after `wa` and before the read in
/// the failing schedule (it overwrote what the alternate's read sees), and
/// the read reaches the same place in both.
fn overwrote(e: &Explanation, f: &Flow, alt: Option<&Flow>) -> Option<(EventRef, EventRef)> {
    let (wf, wa) = (f.write?, alt?.write?);
    let (pa, pf, pr) = (e.place(wa)?, e.place(wf)?, e.place(f.read)?);
    let after = wa.0 != wf.0 && pa < pf && pf < pr;
    (after && e.elsewhere_in_alternate(f.read).is_none()).then_some((wf, wa))
}

/// `` In the failing schedule `init` (thread 0.2)'s write of `table[1]`
/// at t.c:9 comes after `user` (thread 0.1)'s write of `table[1]` at
/// t.c:18 and overwrites it. ``, after why both threads ran `init` and
/// before the fix when that is the cause ([`super::once::run_twice`]).
fn overwrite_sentence(e: &Explanation, wf: EventRef, wa: EventRef) -> String {
    let over = format!(
        "In the failing schedule {}'s {} comes after {}'s {} and overwrites it.",
        who(e, wf),
        event_phrase(e, wf),
        who(e, wa),
        event_phrase(e, wa)
    );
    match super::once::run_twice(e, wf, wa) {
        Some((twice, fix)) => format!("{twice} {over} {fix}"),
        None => over,
    }
}

/// A differing flow whose failing write is a second run of an
/// initialisation overwriting another thread's write
/// ([`super::once::run_twice`]): its flow and that sentence, which are the
/// explanation (the other flows follow from the second run).
pub(super) fn initialised_twice(e: &Explanation) -> Option<[String; 2]> {
    e.dsp.failing_only.iter().filter(|f| !skipped(e, f)).find_map(|f| {
        let alt = e.counterpart(f);
        let (wf, wa) = overwrote(e, f, alt)?;
        super::once::run_twice(e, wf, wa)?;
        Some([flow_sentence(e, f, alt), overwrite_sentence(e, wf, wa)])
    })
}

/// The reader's own later write of what it read, at the line of the
/// writer's write `w`, when the writer also read it at the reader's line
/// and no lock is held by both at the read and at `w`: both threads run
/// one read-then-write of it (`x = buf[out]; out = (out + 1) % 2;`).
pub(super) fn updates_it_too(e: &Explanation, read: EventRef, w: EventRef) -> Option<EventRef> {
    let addr = e.info_of(read).addr.filter(|a| *a != 0)?;
    let here = |r: EventRef, op: &str, like: EventRef| {
        e.info_of(r).op == op && e.info_of(r).addr == Some(addr) && e.line(r).is_some() && e.line(r) == e.line(like)
    };
    let own = (read.1 + 1..e.info[read.0].len()).map(|k| (read.0, k)).find(|r| here(*r, "write", w))?;
    (0..w.1).map(|k| (w.0, k)).find(|r| here(*r, "read", read))?;
    let at_read: Vec<u64> = held_over(e, read.0, read.1, read.1).into_iter().map(|(m, _)| m).collect();
    let common = held_over(e, w.0, w.1, w.1).into_iter().any(|(m, _)| at_read.contains(&m));
    (!common).then_some(own)
}

/// A read of the failing schedule the alternate does not run: its thread
/// goes another way before it.
pub(super) fn skipped(e: &Explanation, f: &Flow) -> bool {
    e.counterpart(f).is_none() && matches!(e.unshown(f.read), Some(crate::Unshown::OtherWay))
}

/// `In the alternate, `finish` (thread 0.2) then takes another path and
/// does not run its reads of `stderr` and `conn_state` at
/// abort_bad_state.c:30.`, per thread (`Taking that branch, …` for the
/// thread whose branch the alternate flips).
pub(super) fn not_run_sentences(e: &Explanation, flows: &[&Flow]) -> Vec<String> {
    let mut threads: Vec<usize> = Vec::new();
    for f in flows {
        if !threads.contains(&f.read.0) {
            threads.push(f.read.0);
        }
    }
    threads
        .into_iter()
        .map(|t| {
            let reads: Vec<EventRef> = flows.iter().filter(|f| f.read.0 == t).map(|f| f.read).collect();
            let mut objects: Vec<String> = Vec::new();
            let mut lines: Vec<String> = Vec::new();
            for r in &reads {
                if let Some(o) = e.object(*r).map(|o| format!("`{o}`")).filter(|o| !objects.contains(o)) {
                    objects.push(o);
                }
                if let Some(l) = e.line(*r).filter(|l| !lines.contains(l)) {
                    lines.push(l);
                }
            }
            let what = if reads.len() == 1 { "read" } else { "reads" };
            let of = if objects.is_empty() { String::new() } else { format!(" of {}", join_and(&objects)) };
            let at = if lines.is_empty() { String::new() } else { format!(" at {}", join_and(&lines)) };
            if e.flipped.as_ref().is_some_and(|f| f.thread == t) {
                format!("Taking that branch, {} does not run its {what}{of}{at}.", who(e, reads[0]))
            } else {
                format!(
                    "In the alternate, {} then takes another path and does not run its {what}{of}{at}.",
                    who(e, reads[0])
                )
            }
        })
        .collect()
}
