//! A flipped branch: which thread takes which branch the other way in the
//! alternate, and the read that branch tests.

use super::*;

/// The flipped branch's sentences (after a rule the failing path breaks,
/// when that is what the flip avoids); the reads told go to `told`.
/// Returns how many of the sentences are the rule's (0 or 1). After a
/// region's fix (`after_regions`), the flip is what the alternate does too.
pub(super) fn flip_sentences(
    e: &Explanation,
    out: &mut Vec<String>,
    told: &mut Vec<EventRef>,
    after_regions: bool,
) -> usize {
    let mut rule_said = 0;
    if let (Some(f), Some(b)) = (&e.flipped, e.flip_text()) {
        // A misuse the failing thread's path decides (a wait without its
        // mutex), which another path avoids: the rule first.
        let rule = if e.root_cause.is_empty() { crate::misuse::sentence(e) } else { None };
        let rule_told = rule.is_some();
        rule_said = usize::from(rule_told);
        out.extend(rule);
        // An empty root cause: on the run's paths no order matters.
        let why = if e.root_cause.is_empty() {
            // (Held: the bookkeeping the failure does not depend on, a
            // statistics counter under its lock, and the updates of counters
            // whose order it does not depend on, kept in the failing order.)
            let keeping = match e.root_held {
                0 => String::new(),
                n => format!(" that keeps the {n} events whose order it does not depend on in the failing order"),
            };
            format!(
                "On the failing run's paths the {} ({}) happens in every order{keeping}",
                e.failure.kind,
                e.failure.message.trim_end_matches('.')
            )
        } else if let Some(rejected) = crate::text::paths_rejected(e) {
            let mut s = rejected;
            s[..1].make_ascii_uppercase();
            s
        } else if e.held_stage > 0 {
            format!(
                "Reordering the failing run's events, with the {} whose order it does not depend on kept in order, does not avoid the failure for good",
                e.held_stage
            )
        } else {
            "Reordering the failing run's events does not avoid the failure for good".to_string()
        };
        // (After the rule, which says no order avoids it.)
        // (After a region's fix, the alternate that runs the region whole
        // takes another path too, and why it must comes last.)
        let (lead, end) = match (rule_told, after_regions) {
            (true, _) => ("In the alternate,".to_string(), String::new()),
            (false, true) => {
                let mut why = why;
                why[..1].make_ascii_lowercase();
                ("The alternate also takes another path:".to_string(), format!("; {why}"))
            }
            (false, false) => {
                (format!("{why}, so the program must take another path: in the alternate,"), String::new())
            }
        };
        if let Some(t) = e.try_text() {
            out.push(format!(
                "{lead} {}'s {t} succeeds{}, and the program then runs to its end{end}.",
                who(e, (f.thread, f.events_before)),
                try_holder(e, (f.thread, f.events_before)),
            ));
            return rule_said;
        }
        out.push(format!(
            "{lead} {} takes {b}{}, and the program then runs to its end{end}.",
            who(e, (f.thread, f.events_before.saturating_sub(1))),
            match (f.switch, f.taken, e.serial_text()) {
                (_, _, Some(why)) => format!(": {why}"),
                _ if f.object => " (it computes that address from shared data)".into(),
                (true, _, _) => String::new(),
                (false, true, _) => " (its condition held in the failing run and does not in the alternate)".into(),
                (false, false, _) =>
                    " (its condition did not hold in the failing run and does in the alternate)".into(),
            },
        ));
        // What made the branch go the other way: the read it tests (its
        // data flow, else its values when only they differ: the same write
        // stored another value), else the thread's last read before it
        // whose data flow differs (a loop's `if (j >= JOBS) break;` tests
        // the `j` read at its top, not the counter the previous turn
        // updated last).
        let tested = tested_read(e, f);
        let flow_of = |r: EventRef| e.dsp.failing_only.iter().find(|g| g.read == r);
        let values = tested.and_then(|r| Some((r, e.value(r, Run::Failing)?, e.value(r, Run::Alternate)?)));
        let before = e.dsp.failing_only.iter().filter(|g| g.read.0 == f.thread && g.read.1 < f.events_before);
        match (tested.and_then(flow_of), values) {
            (Some(g), _) => {
                // (A region's fix told already covers a stale test.)
                let stale = if after_regions { None } else { stale_test(e, g).or_else(|| stale_pair(e, g)) };
                let early = stale.is_none() && !after_regions;
                out.push(stale.unwrap_or_else(|| flow_sentence(e, g, e.counterpart(g))));
                out.extend(early.then(|| checked_before_lock(e, g)).flatten());
                told.push(g.read);
            }
            (None, Some((r, was, now))) if was != now => {
                let unshown = if e.dsp.events.contains(&r) {
                    ""
                } else {
                    " (It reads the same write in both, which stores another value in the alternate, so it is not among the events shown below.)"
                };
                let lead = if f.object { "That address is computed from" } else { "The branch tests" };
                out.push(format!(
                    "{lead} the {} in {}, which sees {was} in the failing schedule and {now} in the alternate.{unshown}",
                    event_phrase(e, r),
                    who(e, r),
                ));
                told.push(r);
            }
            _ => {
                if let Some(g) = before.max_by_key(|g| g.read.1) {
                    out.push(flow_sentence(e, g, e.counterpart(g)));
                    told.push(g.read);
                }
            }
        }
        out.extend(freed_by_both(e));
    }
    rule_said
}

/// A double free that another path avoids: `` `worker` (thread 0.1) frees
/// `heap#1` at a.c:16 and `main` (thread 0) frees it again at a.c:28: … ``
/// (the flip only skips one of the two frees in that order; both threads
/// free the block on the failing run's paths).
fn freed_by_both(e: &Explanation) -> Option<String> {
    if !e.failure.message.starts_with("double free") {
        return None;
    }
    let first = e.freeing?;
    let t = e.failing_thread()?;
    let second = e.failing.iter().rev().copied().find(|r| r.0 == t)?;
    if first.0 == t {
        return None;
    }
    let block = e.named(first, "the block");
    Some(format!(
        "{} frees {block} at {} and {} frees it again at {}: both threads free it on these paths, and the program is right only in the orders where one of them skips its free. Leaving the free to one thread (the last to use the block) avoids the failure in every order.",
        who(e, first),
        e.line(first).unwrap_or_default(),
        who(e, second),
        e.line(second).or_else(|| e.failure_line()).unwrap_or_default(),
    ))
}

/// The read the flipped branch `f` tests: its thread's latest read before
/// the branch that the branch depends on.
fn tested_read(e: &Explanation, f: &crate::Flip) -> Option<EventRef> {
    (0..f.events_before)
        .rev()
        .map(|k| (f.thread, k))
        .find(|r| e.branches_on.get(r).is_some_and(|ks| ks.contains(&f.events_before)))
}

/// [`stale_pair`] of the flipped branch's tested read, when there is one.
pub(super) fn flip_stale_pair(e: &Explanation) -> Option<String> {
    let r = tested_read(e, e.flipped.as_ref()?)?;
    stale_pair(e, e.dsp.failing_only.iter().find(|g| g.read == r)?)
}

/// The flipped branch's test `g` of a flag saw the flag another thread
/// set, while the thread's read of another location just before it, which
/// it acted on together with the flag, saw that location before the same
/// thread's earlier write of it: the writer wrote the data and then the
/// flag between the two reads (a consumer finds the queue empty, the
/// producer pushes its last items and sets `done`, and the consumer sees
/// `done` and stops). The failing read of the data and the flag's are
/// both from the one run; the fix is to read them together.
fn stale_pair(e: &Explanation, g: &Flow) -> Option<String> {
    let (r, w) = (g.read, g.write?);
    let (t, u) = (r.0, w.0);
    let flag = e.info_of(r).addr?;
    let (pr, pw) = (e.place(r)?, e.place(w)?);
    if u == t || pw > pr || g.bytes.is_some() || e.info_of(r).op != "read" {
        return None;
    }
    let reads =
        |k: usize, x: Option<u64>| e.info_of((t, k)).op == "read" && (x.is_none() || e.info_of((t, k)).addr == x);
    // The thread's reads since its previous read of the flag.
    let from = (0..r.1).rev().find(|k| reads(*k, Some(flag))).map_or(0, |k| k + 1);
    let (q, wx) = (from..r.1).rev().filter(|k| reads(*k, None)).find_map(|k| {
        let q = (t, k);
        let x = e.info_of(q).addr.filter(|x| *x != flag)?;
        let pq = e.place(q)?;
        // (A read after the flag's write has no write of the data after it
        // and before the flag's.)
        let wx = e.failing.get(pq + 1..pw)?.iter().copied().find(|z| {
            z.0 == u && z.1 < w.1 && matches!(e.info_of(*z).op, "write" | "update") && e.info_of(*z).addr == Some(x)
        })?;
        Some((q, wx))
    })?;
    let name = |x: EventRef| e.named(x, "the object");
    let (data, flag_name) = (name(q), name(r));
    let (was, seen) = (e.value(q, Run::Failing)?, e.value(r, Run::Failing)?);
    let now = e.value(r, Run::Alternate).map(|v| format!(" and sees {v}")).unwrap_or_default();
    // A mutex the reader holds at its read of the data and the writer at
    // its write of it.
    let common =
        held_over(e, t, q.1, q.1).into_iter().find(|(m, _)| held_over(e, u, wx.1, wx.1).iter().any(|(x, _)| x == m));
    let fix = match common {
        Some((_, lock)) => {
            let m = e.object(lock).unwrap_or_else(|| "the lock".into());
            format!(
                "setting {flag_name} while holding `{m}` and reading it in the critical section that reads {data} (taken at {}) avoids the failure: the flag can then no longer change between the two reads",
                e.line(lock).unwrap_or_default()
            )
        }
        None => format!(
            "reading {data} again after seeing {flag_name}, or both under one lock that the writes take too, avoids the failure"
        ),
    };
    Some(format!(
        "{} reads {data} at {} and finds {was}, then reads {flag_name} at {} and sees {seen}; in between, {} writes {data} at {} and then {flag_name} at {}, so the two reads see {data} before that write and {flag_name} after it. In the alternate the read of {flag_name} comes before the write at {}{now}; {fix}.",
        who(e, q),
        e.line(q).unwrap_or_default(),
        e.line(r).unwrap_or_default(),
        who(e, wx),
        e.line(wx).unwrap_or_default(),
        e.line(w).unwrap_or_default(),
        e.line(w).unwrap_or_default(),
    ))
}

/// Whether the flipped branch only mirrors the failing check: in the
/// failing thread, with no order mattering on the run's paths (an empty
/// root cause), it tests exactly the reads the check tests, as a
/// `printf` of a bad total before the `assert` on it does. The branch
/// going the other way is then no cause of its own: the summary tells the
/// reads' data flows as for a failure without a flip, and
/// [`mirror_sentence`] the branch.
pub(super) fn mirrors_failure(e: &Explanation) -> bool {
    let (Some(f), Some((t, k))) = (&e.flipped, e.failure_branch) else { return false };
    if !e.root_cause.is_empty() || f.thread != t || f.object || f.switch || e.try_text().is_some() {
        return false;
    }
    if crate::misuse::sentence(e).is_some() {
        return false;
    }
    let tested = |place: usize| -> Vec<EventRef> {
        e.branches_on.iter().filter(|(_, ks)| ks.contains(&place)).map(|(r, _)| *r).collect()
    };
    let reads = tested(f.events_before);
    !reads.is_empty() && reads == tested(k)
}

/// `` `auditor` (thread 0.3) also takes the other branch at audit.c:24 in
/// the alternate: it tests the same reads as the failing check.`` (See
/// [`mirrors_failure`].)
pub(super) fn mirror_sentence(e: &Explanation) -> Option<String> {
    let f = e.flipped.as_ref()?;
    Some(format!(
        "{} also takes {} in the alternate: it tests the same reads as the failing check.",
        who(e, (f.thread, f.events_before.saturating_sub(1))),
        e.flip_text()?
    ))
}

/// ` (in the failing run `t2` (thread 0.2) held it then, locked at
/// deposit.c:12)`: who held the mutex a failed lock try `r` found held; a
/// semaphore try's: who posts it after the try.
fn try_holder(e: &Explanation, r: EventRef) -> String {
    let Some(at) = e.failing.iter().position(|x| *x == r) else { return String::new() };
    let Some(name) = e.object(r) else { return String::new() };
    if e.info_of(r).op == "sem_trywait (none left)" {
        let post =
            e.failing[at..].iter().find(|x| e.info_of(**x).op == "sem_post" && e.object(**x).as_ref() == Some(&name));
        return post.map_or_else(String::new, |p| {
            let line = e.line(*p).unwrap_or_else(|| "an unknown line".into());
            format!(" (in the failing run {} posts it only after the try, at {line})", who(e, *p))
        });
    }
    match crate::misuse::holder(e, &e.failing[..at], |o| o == name) {
        Some((h, _)) if h.0 != r.0 => format!(
            " (in the failing run {} held it then, locked at {})",
            who(e, h),
            e.line(h).unwrap_or_else(|| "an unknown line".into())
        ),
        _ => String::new(),
    }
}

/// The flipped branch's read `g`, made under a mutex, sees in the
/// alternate a write that another thread makes under the same mutex; in
/// the failing schedule that thread tested a flag before taking the
/// mutex, and the flipped thread set the flag and made its read in one
/// critical section between that test and the other's lock (a pool's
/// `submit` checks `shutting_down` outside the lock, `shutdown` sets it
/// and drains the queue, then `submit` enqueues a task nobody runs). The
/// test is stale when the writer acts: the mutex taken before the test
/// is the fix.
fn checked_before_lock(e: &Explanation, g: &Flow) -> Option<String> {
    let w = e.counterpart(g)?.write?;
    let (r, u) = (g.read, w.0);
    if u == r.0 {
        return None;
    }
    let pos = |q: EventRef| e.place(q);
    let mine = held_over(e, r.0, r.1, r.1);
    // The mutex both the flipped read and the write hold, and the writer's
    // lock of it.
    let (m, lock) = held_over(e, u, w.1, w.1).into_iter().find(|(m, _)| mine.iter().any(|(x, _)| x == m))?;
    let (_, section) = *mine.iter().find(|(x, _)| *x == m)?;
    // The writer's test before its lock, on which it went on to the write.
    for test in tests_before(e, (u, lock.1), w) {
        let (test, flag, seen) = test?;
        // The flipped thread's write of the flag in the same critical
        // section, before its read, after the test.
        let set = (section.1 + 1..r.1).map(|k| (r.0, k)).find(|x| changes_flag(e, *x, (flag, seen)));
        let Some(set) = set else { continue };
        let ordered =
            pos(test).zip(pos(set)).is_some_and(|(a, b)| a < b) && pos(r).zip(pos(lock)).is_some_and(|(a, b)| a < b);
        if !ordered {
            continue;
        }
        let mx = e.object(lock).unwrap_or_else(|| "the lock".into());
        let obj = e.named(test, "the flag");
        return Some(format!(
            "{} tests {obj} at {} before it takes `{mx}` at {} and sees {seen}; {} sets {obj} at {} and reads {} at {} holding `{mx}`, both in between: by the time {} writes at {}, its test no longer holds. Taking `{mx}` before the test (over {}) avoids the failure.",
            who(e, test),
            e.line(test).unwrap_or_default(),
            e.line(lock).unwrap_or_default(),
            who(e, set),
            e.line(set).unwrap_or_default(),
            e.named(r, "it"),
            e.line(r).unwrap_or_default(),
            who(e, test),
            e.line(w).unwrap_or_default(),
            line_range(e, test, w),
        ));
    }
    None
}

/// The flipped branch's test `g` acted on after it went stale: in the
/// failing schedule another thread's write, the one the alternate's test
/// sees, comes between the test and the flipped thread's own later write
/// of the same object (a cache looked up under a lock, computed outside
/// it, inserted under it again: two threads that miss both insert). The
/// fix: one critical section from the test to the write.
fn stale_test(e: &Explanation, g: &Flow) -> Option<String> {
    let (r, w) = (g.read, e.counterpart(g)?.write?);
    let t = r.0;
    let x = e.info_of(r).addr?;
    let pos = |q: EventRef| e.place(q);
    let (pr, pw) = (pos(r)?, pos(w)?);
    let writes = |q: &EventRef| matches!(e.info_of(*q).op, "write" | "update") && e.info_of(*q).addr == Some(x);
    if w.0 == t || pw < pr || !writes(&w) || g.bytes.is_some() {
        return None;
    }
    // The thread's own write of the object after that one.
    let &act = e.failing[pw + 1..].iter().find(|q| q.0 == t && writes(q))?;
    let obj = e.named(r, "the object");
    let (was, now) = (e.value(r, Run::Failing)?, e.value(r, Run::Alternate)?);
    // A lock held at the test, released and taken again before the write.
    let held = held_over(e, t, r.1, r.1);
    let gap = held.iter().find_map(|(m, _)| let_go(e, t, *m, r.1..act.1)).map(|(u, l)| ((t, u), (t, l)));
    let lines = line_range(e, r, act);
    let fix = match gap {
        Some((u, l)) => {
            let m = e.object(u).unwrap_or_else(|| "the lock".into());
            format!(
                "{} releases `{m}` at {} and takes it again at {} between the two: holding `{m}` from the test to the write ({lines}) avoids the failure",
                who(e, u),
                e.line(u).unwrap_or_default(),
                e.line(l).unwrap_or_default()
            )
        }
        // An atomic flag tested, then set to a constant: claimed at once.
        None => match claimed(e, r, act) {
            Some(values) => claim_fix(&obj, values, &format!("read at {}", e.line(r).unwrap_or_default())),
            None => format!("testing and writing {obj} in one atomic step (one lock held over {lines} and wherever {obj} changes) avoids the failure"),
        },
    };
    Some(format!(
        "{} tests {obj} at {} (it reads {was}) and acts on it up to its write of {obj} at {}, but in the failing schedule {} writes {obj} at {} in between: what the test saw no longer holds. In the alternate the test comes after that write and reads {now}; {fix}.",
        who(e, r),
        e.line(r).unwrap_or_default(),
        e.line(act).unwrap_or_default(),
        who(e, w),
        e.line(w).unwrap_or_default(),
    ))
}

/// A blocking failure the alternate avoids by using another synchronisation
/// object where the failing run used one whose address it computed from
/// shared data: what the thread uses instead, and the read that decided
/// the address (its data flow).
pub(super) fn object_flip_sentences(e: &Explanation) -> Vec<String> {
    let Some(f) = e.flipped.as_ref().filter(|f| f.object) else { return Vec::new() };
    let mut out = Vec::new();
    let r = (f.thread, f.events_before);
    let instead = f.new_path.first().and_then(|n| n.object.as_ref());
    if let (Some(was), Some(now)) = (e.object(r), instead) {
        out.push(format!(
            "In the alternate, {} uses `{now}` instead of `{was}` at {}: it computes that address from shared data.",
            who(e, r),
            e.line(r).unwrap_or_default()
        ));
    }
    // The read the address was computed from: the latest before it whose
    // data flow differs.
    let before = e.dsp.failing_only.iter().filter(|g| g.read.0 == f.thread && g.read.1 < f.events_before);
    if let Some(g) = before.max_by_key(|g| g.read.1) {
        out.push(flow_sentence(e, g, e.counterpart(g)));
    }
    out
}
