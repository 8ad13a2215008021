//! Order violations: a read that sees a write too early or too late, and
//! how to make it wait (a flag published early, a signal sent before the
//! write, a check and an act apart).

use super::*;

/// A check-then-act race: the failing thread tests an object (a branch
/// tests its read) and then uses or updates it again, and in the failing
/// schedule another thread writes it in between, so what was tested no
/// longer holds (`if (atomic_load(&n) < MAX) atomic_fetch_add(&n, 1)`).
/// Only when the alternate changes that later access's data flow or value,
/// keeps the failing run's paths, and no atomic region the summary tells
/// spans the two (it says what to make atomic already); not for two turns
/// of one loop's test (a busy wait re-reads on purpose).
pub(super) fn check_then_act(e: &Explanation) -> Option<String> {
    if e.flipped.is_some() {
        return None;
    }
    let t = e.failing_thread()?;
    let pos = |r: EventRef| e.place(r);
    let changed = |r: EventRef| {
        e.dsp.failing_only.iter().any(|f| f.read == r) || e.value(r, Run::Failing) != e.value(r, Run::Alternate)
    };
    let mine: Vec<EventRef> = e.failing.iter().copied().filter(|r| r.0 == t).collect();
    // The thread's last read or update whose flow or value the alternate
    // changes.
    let (j, a, x) = mine.iter().enumerate().rev().find_map(|(j, &a)| {
        let ia = e.info_of(a);
        let x = ia.addr.filter(|_| matches!(ia.op, "read" | "update") && changed(a))?;
        Some((j, a, x))
    })?;
    let ia = e.info_of(a);
    // The thread's previous access to the object: a read a branch before
    // `a` tests.
    let &r = mine[..j].iter().rev().find(|r| e.info_of(**r).addr == Some(x))?;
    let tested = went_on_by(e, r, a);
    let spanned = e.dsp.atomic.iter().take(2).any(|g| g.events.contains(&r) && g.events.contains(&a));
    if e.info_of(r).op != "read" || !tested || spanned || e.line(r) == e.line(a) {
        return None;
    }
    let (from, to) = (pos(r)?, pos(a)?);
    let writes = |o: &&EventRef| o.0 != t && matches!(e.info_of(**o).op, "write" | "update");
    let &w = e.failing[from + 1..to].iter().filter(writes).find(|o| e.info_of(**o).addr == Some(x))?;
    let obj = e.named(r, "the object");
    let saw = e.value(r, Run::Failing).map(|v| format!(" (it reads {v})")).unwrap_or_default();
    // What the DSP leaves out: data flows both schedules have.
    let unshown: Vec<&str> = [(r, "test"), (a, noun(ia.op))]
        .into_iter()
        .filter(|(x, _)| !e.dsp.events.contains(x))
        .map(|(_, what)| what)
        .collect();
    let note = match unshown.as_slice() {
        [] => String::new(),
        [one] => format!(" (Both schedules have the {one}'s data flow: it is not among the events shown below.)"),
        _ => format!(
            " (Both schedules have the data flows of the test and the {}: they are not among the events shown below.)",
            noun(ia.op)
        ),
    };
    let (act, fix) = if ia.op == "update" {
        ("updates", format!("Testing and updating {obj} in one atomic step (a compare-and-swap loop, or one lock held over {} and wherever {obj} changes) avoids the failure", line_range(e, r, a)))
    } else {
        ("reads", format!("Using the value it tested instead of reading {obj} again (or one lock held over {} and wherever {obj} changes) avoids the failure", line_range(e, r, a)))
    };
    Some(format!(
        "{} tests {obj} at {}{saw} and then {act} it at {}, but in the failing schedule {} {} it at {} in between: what the test saw no longer holds. {fix}.{note}",
        who(e, r),
        e.line(r).unwrap_or_default(),
        e.line(a).unwrap_or_default(),
        who(e, w),
        if e.info_of(w).op == "update" { "updates" } else { "writes" },
        e.line(w).unwrap_or_default(),
    ))
}

/// An order violation's fix when nothing more specific is known.
pub(super) const WAIT_FOR_THE_WRITE: &str = " Making the read wait for that write avoids the failure.";

/// [`WAIT_FOR_THE_WRITE`] after several reads of one line told at once.
pub(super) const READS_WAIT_FOR_THEIR_WRITES: &str = " Making the reads wait for their writes avoids the failure.";

/// [`WAIT_FOR_THE_WRITE`] after several order violations.
pub(super) const EACH_WAITS_FOR_ITS_WRITE: &str = " Making each of these reads wait for its write avoids the failure.";

/// Several order violations whose fix is to make the read wait: told
/// once, after the last of them (a thread that sums three slots before a
/// barrier said "Making the read wait for that write avoids the failure."
/// after each).
pub(super) fn one_fix_for_the_order_violations(out: &mut [String]) {
    let waits: Vec<usize> = (0..out.len()).filter(|i| out[*i].ends_with(WAIT_FOR_THE_WRITE)).collect();
    let [earlier @ .., last] = waits.as_slice() else { return };
    if earlier.is_empty() {
        return;
    }
    for i in earlier {
        out[*i].truncate(out[*i].len() - WAIT_FOR_THE_WRITE.len());
    }
    out[*last].truncate(out[*last].len() - WAIT_FOR_THE_WRITE.len());
    out[*last].push_str(EACH_WAITS_FOR_ITS_WRITE);
}

/// Plain order violations (the fix: the read waits for its write) of one
/// reader's line and one writer's line, such as a loop summing a table
/// another thread has not filled yet, told in one sentence; and the other
/// reads' flows (each read's parts).
pub(super) fn joined_order_violations<'a>(
    e: &Explanation,
    reads: Vec<Vec<&'a Flow>>,
) -> (Vec<String>, Vec<Vec<&'a Flow>>) {
    // (The last: the flag read and write the reader went on by, for reads
    // of data published after the flag: `ready = true; … data[i] = …`.)
    type Key = (usize, Option<String>, usize, Option<String>, bool, String, Option<(EventRef, EventRef)>);
    let key = |parts: &[&Flow]| -> Option<Key> {
        let [f] = parts else { return None };
        let alt = e.counterpart(f);
        let w = alt?.write?;
        let said = order_violation(e, f, alt)?;
        let flag = match said.ends_with(WAIT_FOR_THE_WRITE) {
            true => None,
            false if said.contains(" The reader went on because its ") => Some(published_early(e, f.read, w)?),
            false => return None,
        };
        let reached = e.failing.contains(&w);
        Some((f.read.0, e.line(f.read), w.0, e.line(w), reached, e.source_of_part(f, Run::Failing), flag))
    };
    let keys: Vec<Option<Key>> = reads.iter().map(|g| key(g)).collect();
    let mut out = Vec::new();
    let mut told = vec![false; reads.len()];
    for i in 0..reads.len() {
        let Some(k) = &keys[i] else { continue };
        let same: Vec<usize> = (i..reads.len()).filter(|j| !told[*j] && keys[*j].as_ref() == Some(k)).collect();
        if same.len() < 2 {
            continue;
        }
        let flows: Vec<&Flow> = same.iter().map(|j| reads[*j][0]).collect();
        let objects: Vec<String> = flows.iter().map(|f| e.named(f.read, "it")).collect();
        let seen: Vec<String> = flows
            .iter()
            .map(|f| e.value(f.read, Run::Alternate).unwrap_or("what its write stored").to_string())
            .collect();
        let (f, w) = (flows[0], e.counterpart(flows[0]).and_then(|g| g.write).expect("a write"));
        let late = if k.4 { "come after them" } else { "do not come before the failure" };
        let at = e.line(f.read).map(|l| format!(" at {l}")).unwrap_or_default();
        let fix = match k.6 {
            None => READS_WAIT_FOR_THEIR_WRITES.to_string(),
            Some(flag) => went_on_by_flag(e, flag, e.line(w).unwrap_or_default(), (&listed(&objects), "those")),
        };
        out.push(format!(
            "Order violation: {} {} {}{at} before {} {}, and sees {} in each; in the failing schedule those writes {late}, in the alternate they come first and the reads see {}.{fix}",
            who(e, f.read),
            verb(e.info_of(f.read).op),
            listed(&objects),
            who(e, w),
            verb_on(e, w, " them"),
            k.5,
            listed(&seen),
        ));
        for j in same {
            told[j] = true;
        }
    }
    let rest = reads.into_iter().zip(told).filter(|(_, t)| !t).map(|(g, _)| g).collect();
    (out, rest)
}

/// `The reader went on because its read of `tail` at ring.c:26 saw the
/// write at ring.c:16, which … makes before that one: writing … avoids the
/// failure.`: the writer published `p` before `w`.
pub(super) fn published_early_fix(
    e: &Explanation,
    (g, p): (EventRef, EventRef),
    read: EventRef,
    w: EventRef,
) -> String {
    // The reader went on because of `g` only when a branch between the two
    // reads tests its value (a reader that reads both and then checks them
    // did not wait for either, and reordering the writes only moves the
    // window).
    let tested = went_on_by(e, g, read);
    let name = |r: EventRef| e.named(r, "it");
    if let Some(s) = inside_update(e, (g, p), read, w) {
        return s;
    }
    if !tested {
        // The reads fell between the writes: waiting for the later write
        // alone leaves the earlier read free to come before the first.
        // A data flow both schedules have is not among the DSP's events.
        let common =
            if e.dsp.events.contains(&g) { "" } else { " (a data flow both schedules have, so not shown below)" };
        let fell = format!(
            " Its earlier {} already saw the write at {}{common}, which {} makes before the one of {}: the two reads fall between the two writes.",
            event_phrase(e, g),
            e.line(p).unwrap_or_default(),
            who(e, p),
            name(w),
        );
        // The reader already holds a lock over both reads, the writer at
        // neither write.
        if let Some(lock) = held_apart(e, (g, read), (p, w)) {
            let m = e.object(lock).unwrap_or_else(|| "its lock".into());
            return format!(
                "{fell} {} holds `{m}` over both reads, but {} makes both writes without it: taking `{m}` over {} as well keeps the reads from falling between them.",
                who(e, g),
                who(e, p),
                line_range(e, p, w),
            );
        }
        // The writer holds a lock over both writes (or at the first, when
        // the second the alternate reads is a later section's), the reader
        // at neither read.
        let over_both = held_apart(e, (p, w), (g, read));
        if let Some(lock) = over_both.or_else(|| held_apart(e, (p, p), (g, read))) {
            let m = e.object(lock).unwrap_or_else(|| "its lock".into());
            let holds = match over_both {
                Some(_) => format!("{} holds `{m}` over both writes", who(e, p)),
                None => {
                    format!("{} holds `{m}` at its write of {} ({})", who(e, p), name(g), e.line(p).unwrap_or_default())
                }
            };
            return format!(
                "{fell} {holds}, but {} reads without it: taking `{m}` over {} as well keeps the reads from falling between the writes.",
                who(e, g),
                line_range(e, g, read),
            );
        }
        // The reader holds a lock over both reads that the writer holds at
        // its first write and releases before its second.
        if let Some((lock, unlock)) = crate::snapshot::released_between(e, p, (g, read)) {
            let m = e.object(lock).unwrap_or_else(|| "its lock".into());
            return format!(
                "{fell} {} holds {} over both reads, but {} releases `{m}` at {} after writing {} at {} and before its write of {} at {}: holding `{m}` until that write keeps the reads from falling between them.",
                who(e, g),
                crate::snapshot::held_names(e, g.0, g.1, read.1),
                who(e, p),
                e.line(unlock).unwrap_or_default(),
                name(g),
                e.line(p).unwrap_or_default(),
                name(w),
                e.line(w).unwrap_or_default(),
            );
        }
        return format!(
            "{fell} Waiting for the write of {} alone would leave the read of {} free to come before {} (the old {} with the new {}); one lock held over both writes ({}) and both reads ({}) keeps the reads from falling between them.",
            name(w),
            name(g),
            e.line(p).unwrap_or_default(),
            name(g),
            name(w),
            line_range(e, p, w),
            line_range(e, g, read),
        );
    }
    went_on_by_flag(e, (g, p), e.line(w).unwrap_or_default(), (&name(w), "that one"))
}

/// A sequence lock's reader that ran inside the writer's update: the
/// reader's reads of a flag before its reads `g` and `read` and after them
/// saw the same value, which the writer stores in the flag before its
/// writes `p` and `w` (the reader missed `w`) and overwrites only after
/// them. Reordering the writes, or a lock over them, would only move the
/// window or bypass the protocol; the reader's check must tell an update
/// in progress apart (a count left odd while it runs).
fn inside_update(e: &Explanation, (g, p): (EventRef, EventRef), read: EventRef, w: EventRef) -> Option<String> {
    let (t, writer) = (read.0, w.0);
    if p.0 != writer || g.0 != t || p.1 > w.1 {
        return None;
    }
    let at = |r: EventRef| e.info_of(r).addr;
    let reads_at = |r: &EventRef, a: u64| e.info_of(*r).op == "read" && at(*r) == Some(a);
    let writes_at = |r: &EventRef, a: u64| matches!(e.info_of(*r).op, "write" | "update") && at(*r) == Some(a);
    let seen = |r: EventRef| e.failing.contains(&r).then(|| e.value(r, Run::Failing)).flatten();
    // The first read after `read` whose location the reader also read
    // before it (the check's second read and its first), with the same
    // value.
    let (before, after) = (read.1 + 1..e.info.get(t)?.len()).map(|k| (t, k)).find_map(|after| {
        let flag = at(after).filter(|_| e.info_of(after).op == "read")?;
        // (Both reads between the two of the flag: `g` too, unless it is
        // a read of the flag itself, an earlier turn's check.)
        let upto = if at(g) == Some(flag) { read.1 } else { g.1.min(read.1) };
        let before = (0..upto).rev().map(|k| (t, k)).find(|r| reads_at(r, flag))?;
        (seen(before).is_some() && seen(before) == seen(after)).then_some((before, after))
    })?;
    let flag = at(before)?;
    let value = seen(before)?;
    // The writer's store of that value at or before `p`, and its next store
    // after `w`.
    let first = p.1.min(w.1);
    let stored = (0..=first).rev().map(|k| (writer, k)).find(|r| writes_at(r, flag))?;
    if e.value(stored, Run::Failing) != Some(value) {
        return None;
    }
    let again = (w.1.max(p.1) + 1..e.info[writer].len()).map(|k| (writer, k)).find(|r| writes_at(r, flag))?;
    let name = e.named(before, "the flag");
    Some(format!(
        " The reader's check compares its reads of {name} before and after (at {} and at {}), and both saw {value}, which {} writes at {} before {} and overwrites only at {}: the reads ran inside that update, and the check does not tell {value} apart from a value written after a whole update. Retrying while {name} holds a value written at {} (an odd count, in a sequence lock) avoids the failure.",
        e.line(before).unwrap_or_default(),
        e.line(after).unwrap_or_default(),
        who(e, stored),
        e.line(stored).unwrap_or_default(),
        e.object(w).map_or("its write".into(), |o| format!("its write of `{o}`")),
        e.line(again).unwrap_or_default(),
        e.line(stored).unwrap_or_default(),
    ))
}

/// The reads of thread `t` before its event `before`, latest first, on
/// whose value it went on to `to` (tests of a flag it acted on), each with
/// the flag's address and the value the test saw (None for a test without
/// them).
pub(super) fn tests_before<'e>(
    e: &'e Explanation,
    (t, before): EventRef,
    to: EventRef,
) -> impl Iterator<Item = Option<(EventRef, u64, &'e str)>> + 'e {
    (0..before).rev().map(move |k| (t, k)).filter(move |q| e.info_of(*q).op == "read" && went_on_by(e, *q, to)).map(
        move |test| {
            let flag = e.info_of(test).addr?;
            Some((test, flag, e.value(test, Run::Failing)?))
        },
    )
}

/// Whether event `x` changes the flag at `flag` from the value `seen` (it
/// writes another one there).
pub(super) fn changes_flag(e: &Explanation, x: EventRef, (flag, seen): (u64, &str)) -> bool {
    let i = e.info_of(x);
    matches!(i.op, "write" | "update") && i.addr == Some(flag) && e.value(x, Run::Failing) != Some(seen)
}

/// Whether a branch of the reader between its read `g` and its `read`
/// tests `g`'s value: the reader went on because of what `g` saw.
pub(super) fn went_on_by(e: &Explanation, g: EventRef, read: EventRef) -> bool {
    e.branches_on.get(&g).is_some_and(|ks| ks.iter().any(|k| *k > g.1 && *k <= read.1))
}

/// ` The reader went on because its read of `ready` at …:29 saw the write
/// at …:19, which `producer` makes before that one: writing `data[0]`
/// (…:22) before `ready` (…:19) avoids the failure.` (`written`: what the
/// writes write, named, and `at` where they are; `which`: "that one", or
/// "those" for several.)
pub(super) fn went_on_by_flag(
    e: &Explanation,
    (g, p): (EventRef, EventRef),
    at: String,
    (written, which): (&str, &str),
) -> String {
    // (When `g` read a later update of the count `p` wrote.)
    let direct = e.info_of(p).addr.zip(e.place(g)).is_some_and(|(a, gi)| write_before(e, a, gi) == Some(p));
    let saw = if direct { "saw the write" } else { "saw a count that includes the update" };
    format!(
        " The reader went on because its {} {saw} at {}, which {} makes before {which}: writing {written} ({}) before {} ({}) avoids the failure.",
        event_phrase(e, g),
        e.line(p).unwrap_or_default(),
        who(e, p),
        at,
        e.named(p, "it"),
        e.line(p).unwrap_or_default(),
    )
}

/// A mutex one thread holds from its event `p` through `w` (one critical
/// section) that another holds at neither of its events `g` and `r`: the
/// first thread's lock event of it (a writer that locks and a reader that
/// does not, or the other way round).
pub(crate) fn held_apart(
    e: &Explanation,
    (p, w): (EventRef, EventRef),
    (g, r): (EventRef, EventRef),
) -> Option<EventRef> {
    let other: Vec<u64> =
        held_over(e, g.0, g.1, g.1).into_iter().chain(held_over(e, r.0, r.1, r.1)).map(|(m, _)| m).collect();
    held_over(e, p.0, p.1.min(w.1), p.1.max(w.1)).into_iter().find(|(m, _)| !other.contains(m)).map(|(_, l)| l)
}

/// `Deadlock: … waits at s.c:11 from before the signal … sends at s.c:27,
/// but it wakes … instead, which waits again at s.c:11: a signal wakes one
/// waiter only …`.
pub(super) fn misdirected_sentence(e: &Explanation, l: &crate::deadlock::LostSignal) -> String {
    let at = |r: EventRef| e.line(r).unwrap_or_default();
    let pos = |r: EventRef| e.place(r);
    // The woken thread's next wait, when it waits again.
    let again = |w: EventRef| {
        let from = pos(w)?;
        e.failing[from + 1..].iter().find(|r| r.0 == w.0 && e.info_of(**r).op == "wait").copied()
    };
    // (One thread woken by two signals is named once; two signals on one
    // line, that line once.)
    let mut threads = Vec::new();
    let woken: Vec<String> = l
        .woke
        .iter()
        .filter(|w| {
            let first = !threads.contains(&w.0);
            threads.push(w.0);
            first
        })
        .map(|w| match again(*w) {
            Some(a) => format!("{} instead, which waits again at {}", who(e, *w), at(a)),
            None => format!("{} instead", who(e, *w)),
        })
        .collect();
    let sent: Vec<String> = l.signals.iter().map(|s| format!("{} sends at {}", who(e, *s), at(*s))).collect();
    let (the, it) = if l.signals.len() == 1 { ("the signal", "it wakes") } else { ("the signals", "they wake") };
    let lines = unique(l.signals.iter().map(|s| at(*s)));
    format!(
        "Deadlock: {} waits at {} from before {the} {}, but {it} {}: a signal wakes one waiter only, and none comes later for thread {}. Waking every waiter (`pthread_cond_broadcast`) at {} avoids this deadlock.",
        who(e, l.wait),
        at(l.wait),
        join_and(&sent),
        join_and(&woken),
        e.threads[l.thread],
        join_and(&lines)
    )
}

/// An order violation: the read sees another value because another
/// thread's write, which the alternate puts before it, comes after it in
/// the failing schedule (or not before the failure at all).
pub(super) fn order_violation(e: &Explanation, f: &Flow, alt: Option<&Flow>) -> Option<String> {
    order_violation_seeing(e, f, alt, e.source_of_part(f, Run::Failing))
}

/// An order violation of the parts of one bulk read that all take their
/// bytes from one write in the alternate (a reply completed by a `strcat`
/// the failing schedule runs too late): [`order_violation`] with what each
/// part saw in the failing schedule.
pub(super) fn parts_order_violation(e: &Explanation, parts: &[&Flow]) -> Option<String> {
    let alt: Vec<Option<&Flow>> = parts.iter().map(|f| e.counterpart(f)).collect();
    let w = alt[0]?.write?;
    if alt.iter().any(|g| g.and_then(|g| g.write) != Some(w)) {
        return several_writes_order_violation(e, parts, &alt);
    }
    order_violation_seeing(e, parts[0], alt[0], failing_sources(e, parts))
}

/// An order violation of the parts of one read that take their bytes from
/// several writes of one thread in the alternate, none of which comes
/// before the read in the failing schedule (a header's word read before
/// its last bytes are written one by one): the writes named together, and
/// the flag the reader went on by, written before them, as the fix.
fn several_writes_order_violation(e: &Explanation, parts: &[&Flow], alt: &[Option<&Flow>]) -> Option<String> {
    let mut writes: Vec<EventRef> = alt.iter().map(|g| g.and_then(|g| g.write)).collect::<Option<_>>()?;
    writes.sort();
    writes.dedup();
    let (read, w) = (parts[0].read, *writes.last()?);
    if writes.iter().any(|x| x.0 != w.0 || e.info_of(*x).op != "write") || w.0 == read.0 {
        return None;
    }
    let pos = |r: EventRef| e.place(r);
    let r = pos(read)?;
    let late = match writes.iter().map(|x| pos(*x)).collect::<Vec<_>>() {
        p if p.iter().all(|x| x.is_none()) => "do not come before the failure",
        p if p.iter().all(|x| x.is_some_and(|x| x > r)) => "come after it",
        _ => return None,
    };
    let objects: Vec<String> = writes.iter().map(|x| e.named(*x, "it")).collect();
    let lines = lines_of(e, &writes).unwrap_or_default();
    let fix = match published_early(e, read, w) {
        Some((g, p)) if went_on_by(e, g, read) => {
            went_on_by_flag(e, (g, p), lines.clone(), (&listed(&objects), "those"))
        }
        Some(_) => return None,
        None => " Making the read wait for those writes avoids the failure.".to_string(),
    };
    let seen = e.value(read, Run::Alternate).unwrap_or("what those writes stored");
    // (`0xfeca, in which `b[2]` and `b[3]` are still 0 (initial value)`.)
    let before = match e.value(read, Run::Failing) {
        Some(v) if parts.iter().all(|f| f.write.is_none()) => {
            let which = if objects.len() == 1 { "is" } else { "are" };
            format!("{v}, in which {} {which} still {}", listed(&objects), failing_sources(e, parts))
        }
        _ => failing_sources(e, parts),
    };
    Some(format!(
        "Order violation: {} {} before {} writes {} at {lines}, and sees {before}; in the failing schedule those writes {late}, in the alternate they come first and the read sees {seen}.{fix}",
        who(e, read),
        verb_phrase(e, read),
        who(e, w),
        listed(&objects),
    ))
}

/// The writer's creation of the reader's thread, before the write: the
/// reader may run before the write (a configuration set up after the
/// worker was started). Creating the thread after the write orders it.
fn created_before(e: &Explanation, read: EventRef, w: EventRef) -> Option<EventRef> {
    (0..w.1).map(|k| (w.0, k)).find(|c| e.info_of(*c).forks == Some(read.0))
}

/// The fix of order violations whose reads' threads their writer created
/// before the writes (` `main` (thread 0) creates `worker` (thread 0.1) at
/// …:16 and makes the write only at …:19, after: writing `cfg` before
/// creating the thread avoids the failure.`), when every read's is.
pub(super) fn created_fix(e: &Explanation, reads: &[&Flow]) -> Option<String> {
    let mut forks: Vec<EventRef> = Vec::new();
    let mut writes: Vec<EventRef> = Vec::new();
    for f in reads {
        let w = e.counterpart(f)?.write?;
        if writes.first().is_some_and(|x| x.0 != w.0) {
            return None;
        }
        forks.push(created_before(e, f.read, w)?);
        writes.push(w);
    }
    let w = *writes.first()?;
    let forks = unique(forks);
    let objects = unique(reads.iter().map(|f| e.named(f.read, "it")));
    let threads = unique(reads.iter().map(|f| who(e, f.read)));
    let fork_lines: Vec<String> = forks.iter().map(|c| e.line(*c).unwrap_or_default()).collect();
    let write_lines = unique(writes.iter().map(|x| e.line(*x).unwrap_or_default()));
    let the_write = if writes.len() == 1 { "the write" } else { "the writes" };
    Some(format!(
        " {} creates {} at {} and makes {the_write} only at {}, after: writing {} before creating {} avoids the failure.",
        who(e, w),
        join_and(&threads),
        join_and(&fork_lines),
        join_and(&write_lines),
        listed(&objects),
        if forks.len() == 1 { "the thread" } else { "the threads" },
    ))
}

/// The join by `read`'s thread of `w`'s thread that comes after the read
/// in the failing schedule (a result read before the thread that
/// computes it is joined): the join orders the write before what follows
/// it, not before the read.
fn joined_after(e: &Explanation, read: EventRef, w: EventRef) -> Option<EventRef> {
    let t = read.0;
    (read.1 + 1..e.info[t].len()).map(|k| (t, k)).find(|r| e.info_of(*r).joins == Some(w.0))
}

/// [`order_violation`]; `before`: what the read sees in the failing
/// schedule.
pub(super) fn order_violation_seeing(e: &Explanation, f: &Flow, alt: Option<&Flow>, before: String) -> Option<String> {
    let w = alt?.write?;
    if w.0 == f.read.0 {
        return None;
    }
    let pos = |r: EventRef| e.place(r);
    let late = match (pos(f.read), pos(w)) {
        (Some(r), Some(wp)) if wp > r => "comes after it",
        (Some(_), None) => "does not come before the failure",
        _ => return None,
    };
    // (A join the failing run never reached: the alternate run's.)
    let later = e.later_join(f.read.0, w.0);
    let fix = match published_early(e, f.read, w) {
        // Both writes in one critical section the reader does not enter:
        // the reader's lock is the fix (the writes' order is not: a
        // reader that checks them for equality fails either way).
        Some((g, p)) if p.0 == w.0 && g.0 == f.read.0 => match held_apart(e, (p, w), (g, f.read)) {
            Some(lock) => {
                let m = e.object(lock).unwrap_or_else(|| "the lock".into());
                // (A reader that tests the published pointer first, double-
                // checked locking's fast path: the writes' order works too.)
                let keeping = match went_on_by(e, g, f.read) {
                    true => format!(
                        " Keeping the reader's fast path without the lock, writing {} ({}) before {} ({}) avoids it too.",
                        e.named(w, "it"),
                        e.line(w).unwrap_or_default(),
                        e.named(p, "it"),
                        e.line(p).unwrap_or_default(),
                    ),
                    false => String::new(),
                };
                format!(
                    " {} makes both writes holding `{m}`, but {} reads without it: taking `{m}` at {} as well avoids the failure.{keeping}",
                    who(e, w),
                    who(e, f.read),
                    lines_of(e, &[g, f.read]).unwrap_or_else(|| "its reads".into())
                )
            }
            None => published_early_fix(e, (g, p), f.read, w),
        },
        Some((g, p)) => published_early_fix(e, (g, p), f.read, w),
        None => match (joined_after(e, f.read, w), signalled_early(e, f.read, w), pause_before(e, f.read)) {
            // The reader joins the writer, but only after the read.
            (Some(join), _, _) => {
                format!(
                    " {} joins {} only at {}, after the read: joining it before the read (or reading after the join) avoids the failure.",
                    who(e, f.read),
                    who(e, w),
                    e.line(join).unwrap_or_default()
                )
            }
            // The failure comes first: the join is the alternate run's.
            (None, _, _) if later.is_some() => format!(
                " {} joins {} only at {}, after the read, which the failing run never reaches: joining it before the read (or reading after the join) avoids the failure.",
                started_as(e, f.read.0),
                started_as(e, w.0),
                later.unwrap_or_default()
            ),
            (None, Some((g, p)), _) => {
                let (does, doing) = match e.info_of(p).op {
                    "sem_post" => ("posts", "posting"),
                    "broadcast" => ("broadcasts", "broadcasting"),
                    _ => ("signals", "signalling"),
                };
                let what = e.named(p, "it");
                format!(
                    " {} {does} {what} at {} before it {}, and that lets {}'s wait at {} through before the write: {doing} after the write avoids the failure.",
                    who(e, p),
                    e.line(p).unwrap_or_default(),
                    verb_phrase(e, w),
                    who(e, f.read),
                    e.line(g).unwrap_or_default(),
                )
            }
            (None, None, Some(p)) => format!(
                " The pause at {} before the read (a sleep or a yield) does not make it wait: only synchronisation (a lock, a condition variable, a join) orders two threads. Making the read wait for that write avoids the failure.",
                e.line(p).unwrap_or_default()
            ),
            (None, None, None) => WAIT_FOR_THE_WRITE.into(),
        },
    };
    let seen = match (e.value(f.read, Run::Failing), e.value(f.read, Run::Alternate)) {
        // The same value from another write: what differs is the order.
        (Some(a), Some(b)) if a == b => format!("the {b} it writes (the same value)"),
        // (A bulk read, such as a string copy, has no one value to show.)
        (_, b) => b.unwrap_or("what that write stored").to_string(),
    };
    Some(format!(
        "Order violation: {} {} before {} {}, and sees {}; in the failing schedule that write {late}, in the alternate it comes first and the read sees {seen}.{fix}",
        who(e, f.read),
        flow_verb_phrase(e, f),
        who(e, w),
        verb_on(e, w, " it"),
        before,
    ))
}

/// A wake-up announced too early: the reading thread's last wait before
/// `read` (a `sem_wait`, or a condition wait's wake-up) and the writer's
/// post or signal of the same object that came before that wait returned
/// in the failing schedule and that the writer makes before `w` in its
/// own order (`sem_post(&ready); slot[i] = v;`): the wait let the read
/// through before the write.
pub(super) fn signalled_early(e: &Explanation, read: EventRef, w: EventRef) -> Option<(EventRef, EventRef)> {
    let at = e.place(read)?;
    let gi = e.failing[..at].iter().rposition(|x| x.0 == read.0 && matches!(e.info_of(*x).op, "sem_wait" | "wake"))?;
    let g = e.failing[gi];
    let (kind, object) = (e.info_of(g).op, e.info_of(g).addr?);
    let posts = |op: &str| if kind == "sem_wait" { op == "sem_post" } else { matches!(op, "signal" | "broadcast") };
    e.failing[..gi]
        .iter()
        .rev()
        .find(|p| p.0 == w.0 && p.1 < w.1 && posts(e.info_of(**p).op) && e.info_of(**p).addr == Some(object))
        .map(|p| (g, *p))
}

/// The reading thread's last sleep or yield before `read` in the failing
/// schedule, with no other event of its between them but reads (a thread
/// that sleeps "until the other is surely done" and then reads).
pub(super) fn pause_before(e: &Explanation, read: EventRef) -> Option<EventRef> {
    let at = e.place(read)?;
    let mine = e.failing[..at].iter().rev().filter(|x| x.0 == read.0);
    mine.take_while(|x| matches!(e.info_of(**x).op, "yield" | "read")).find(|x| e.info_of(**x).op == "yield").copied()
}

/// A flag published too early: the reader's last read before `read` (of
/// another location) saw a write `p` that the writer makes before `w` in
/// its own order (`tail` advanced before the slot is filled), so the
/// reader went on before `w`. Under sequential consistency only.
/// The failing schedule's last write (or update) of location `a` before
/// its position `at`: the one a read there sees.
fn write_before(e: &Explanation, a: u64, at: usize) -> Option<EventRef> {
    let writes = |x: &&EventRef| e.info_of(**x).addr == Some(a) && matches!(e.info_of(**x).op, "write" | "update");
    e.failing[..at].iter().rev().find(writes).copied()
}

/// `w`'s thread's latest write of location `a` before `w` whose value
/// the failing schedule's value of `a` at its position `gi` still counts:
/// every later write of `a` before `gi` is an update, or its thread's
/// read of `a` just before it, with no write of `a` in between, comes
/// after that write (a count each thread increments under a lock).
fn counted(e: &Explanation, a: u64, gi: usize, w: EventRef) -> Option<EventRef> {
    let on_a = |r: EventRef| e.info_of(r).addr == Some(a);
    let writes = |r: EventRef| on_a(r) && matches!(e.info_of(r).op, "write" | "update");
    let q = (0..w.1).rev().map(|k| (w.0, k)).find(|r| writes(*r))?;
    let qi = e.place(q).filter(|qi| *qi < gi)?;
    for (xi, x) in e.failing.iter().enumerate().take(gi).skip(qi + 1) {
        if !writes(*x) || e.info_of(*x).op == "update" {
            continue;
        }
        let r = (0..x.1).rev().map(|k| (x.0, k)).find(|r| on_a(*r))?;
        let ri = e.place(r).filter(|ri| *ri > qi && e.info_of(r).op == "read")?;
        if e.failing[ri + 1..xi].iter().any(|y| writes(*y)) {
            return None;
        }
    }
    Some(q)
}

pub(super) fn published_early(e: &Explanation, read: EventRef, w: EventRef) -> Option<(EventRef, EventRef)> {
    if e.memory_model.buffers_stores() {
        return None;
    }
    let at = e.place(read)?;
    let addr = |r: EventRef| e.info_of(r).addr;
    let found: Vec<(EventRef, EventRef)> = e.failing[..at]
        .iter()
        .rev()
        .filter(|g| g.0 == read.0 && matches!(e.info_of(**g).op, "read" | "update"))
        .filter_map(|&g| {
            let a = addr(g).filter(|a| Some(*a) != addr(read))?;
            let gi = e.place(g)?;
            let p = write_before(e, a, gi)?;
            if p.0 == w.0 && p.1 < w.1 {
                return Some((g, p));
            }
            // (A count the reader waited for, which includes the writer's
            // update made before `w`: `voted++` under a lock before the
            // vote is written, and the reader's loop until `voted == 3`.)
            counted(e, a, gi, w).filter(|_| went_on_by(e, g, read)).map(|q| (g, q))
        })
        .collect();
    // The one the reader tested before going on (a flag it waited for:
    // `while (!published)`, set before the fields the reads then find half
    // written), else the latest. Of several tested, the one whose write
    // the writer makes last (the latest read of it): the reads it let
    // through may have tested fields written before it (`while (!done);`
    // then `assert(res.code == 200 && res.len == 512)` with `done` set
    // between the two fields: `done`, not `res.code`), and in a loop the
    // last turn's flag is written after the earlier turns' data.
    found
        .iter()
        .filter(|(g, _)| went_on_by(e, *g, read))
        .min_by_key(|(_, p)| std::cmp::Reverse(p.1))
        .or(found.first())
        .copied()
}
