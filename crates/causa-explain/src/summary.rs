//! The explanation in one paragraph of plain language: which events of
//! which threads interleave badly, which lines to make atomic, and what the
//! failing check reads in each schedule.

use crate::{Explanation, Flow, Run};
use causa_symbolic::{EventRef, Mode};

/// One paragraph (no line breaks).
pub fn summary(e: &Explanation) -> String {
    let Some(_) = &e.alternate else {
        let misuse = || crate::misuse::sentence(e).or_else(|| crate::misuse::destroy_sentence(e));
        if let Some(s) = relock_sentence(e).or_else(misuse) {
            return s;
        }
        let why = if e.mode == Mode::Symbiosis {
            "inverting no single pair of the root cause's events avoids it (the failure may need two orders changed at once: try --mode progressive)"
        } else {
            "no order of the same events that avoids it was found"
        };
        let mut said = crate::unsignalled::sentences(e);
        said.extend(crate::spin::sentences(e));
        said.extend(deadlock_sentences(e));
        said.extend(lost_signal_sentences(e));
        said.extend(crate::exhausted::sentences(e));
        said.extend(starved_sentences(e));
        said.extend(short_barrier_sentences(e));
        let cycle = if said.is_empty() { String::new() } else { format!("{} ", said.join(" ")) };
        let flips = match e.flips_tried {
            0 => "No branch of the failing run was tried the other way.".to_string(),
            1 => "Taking one branch the other way did not avoid it either.".to_string(),
            n => format!("Taking {n} branches the other way did not avoid it either."),
        };
        let mut frame =
            dead_frame_sentence(e).or_else(|| freed_first_sentence(e)).map(|s| format!(" {s}")).unwrap_or_default();
        if let Some(why) = &e.not_followed {
            frame.push_str(&format!(
                " The threads the failure cut short were run further, but their later paths could not be followed: {why}."
            ));
        }
        if e.timed_out {
            return format!(
                "{cycle}The explanation's time limit (--explain-timeout) ran out before causa found a schedule that avoids the {} ({} of the failing run's branches tried the other way).",
                e.failure.kind, e.flips_tried
            );
        }
        return format!(
            "{cycle}causa found no schedule of the failing run's paths that avoids the {}: {why}. {flips}{frame}",
            e.failure.kind
        );
    };
    let mut out = crate::unsignalled::sentences(e);
    if !out.is_empty() {
        out.extend(replay_note(e));
        return out.join(" ");
    }
    let blocked = !e.deadlock.is_empty() || !e.lost_signals.is_empty() || !e.exhausted.is_empty();
    if blocked || !e.starved.is_empty() || !e.short_barriers.is_empty() {
        out.extend(deadlock_sentences(e));
        out.extend(lost_signal_sentences(e));
        out.extend(crate::exhausted::sentences(e));
        out.extend(starved_sentences(e));
        out.extend(short_barrier_sentences(e));
        out.extend(replay_note(e));
        return out.join(" ");
    }
    if let Some(s) = crate::misuse::destroy_sentence(e) {
        out.push(s);
        out.extend(replay_note(e));
        return out.join(" ");
    }
    if let Some(s) = stolen_wakeup(e) {
        out.push(s);
        out.extend(replay_note(e));
        return out.join(" ");
    }
    let mut told = Vec::new();
    if let (Some(f), Some(b)) = (&e.flipped, e.flip_text()) {
        // A misuse the failing thread's path decides (a wait without its
        // mutex), which another path avoids: the rule first.
        let rule = if e.root_cause.is_empty() { crate::misuse::sentence(e) } else { None };
        let rule_told = rule.is_some();
        out.extend(rule);
        // An empty root cause: on the run's paths no order matters.
        let why = if e.root_cause.is_empty() {
            // (Held: the bookkeeping the failure does not depend on, a
            // statistics counter under its lock, kept in the failing order.)
            let keeping = match e.root_held {
                0 => String::new(),
                n => format!(" that keeps the {n} events it does not depend on in the failing order"),
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
                "Reordering the failing run's events, with the {} it does not depend on kept in order, does not avoid the failure for good",
                e.held_stage
            )
        } else {
            "Reordering the failing run's events does not avoid the failure for good".to_string()
        };
        // (After the rule, which says no order avoids it.)
        let lead = match rule_told {
            true => "In the alternate".to_string(),
            false => format!("{why}, so the program must take another path: in the alternate"),
        };
        out.push(format!(
            "{lead}, {} takes {b}{}, and the program then runs to its end.",
            who(e, (f.thread, f.events_before.saturating_sub(1))),
            match (f.switch, f.taken, e.serial_text()) {
                (_, _, Some(why)) => format!(": {why}"),
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
        let tested = (0..f.events_before)
            .rev()
            .map(|k| (f.thread, k))
            .find(|r| e.branches_on.get(r).is_some_and(|ks| ks.contains(&f.events_before)));
        let flow_of = |r: EventRef| e.dsp.failing_only.iter().find(|g| g.read == r);
        let values = tested.and_then(|r| Some((r, e.value(r, Run::Failing)?, e.value(r, Run::Alternate)?)));
        let before = e.dsp.failing_only.iter().filter(|g| g.read.0 == f.thread && g.read.1 < f.events_before);
        match (tested.and_then(flow_of), values) {
            (Some(g), _) => {
                out.push(flow_sentence(e, g, e.counterpart(g)));
                told.push(g.read);
            }
            (None, Some((r, was, now))) if was != now => {
                let unshown = if e.dsp.events.contains(&r) {
                    ""
                } else {
                    " (It reads the same write in both, which stores another value in the alternate, so it is not among the events shown below.)"
                };
                out.push(format!(
                    "The branch tests the {} in {}, which sees {was} in the failing schedule and {now} in the alternate.{unshown}",
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
    }
    let flip_said = out.len();
    // Under TSO/PSO a store passed but not yet visible is the cause, and a
    // fence the fix: atomic regions would mix program and flush order.
    let buffering = store_buffering(e);
    // An inconsistent snapshot across two locks is the diagnosis when the
    // only regions would span two runs of a statement (the writer's two
    // calls around the reader's first read).
    // (Otherwise it is told when nothing else is: computed once here.)
    let snapshot = crate::snapshot::sentence(e);
    let snapshot_first =
        snapshot.is_some() && !e.dsp.atomic.is_empty() && e.dsp.atomic.iter().all(|a| runs_a_statement_twice(e, a));
    let regions = if buffering.is_some() || snapshot_first { 0 } else { 2 };
    if snapshot_first {
        out.extend(snapshot.clone());
    }
    // (Regions already told: two threads that each intrude on the other's
    // run of the same lines need them said once.)
    let mut regions_told: Vec<(String, Option<std::sync::Arc<str>>)> = Vec::new();
    // (A region that runs a statement once comes first: of two regions
    // on one line, such as a lost update's `count++` and the other
    // thread's run from its first call's write to its second call's read,
    // the first is the one to tell.)
    // (So does one that stays within one pass of its lines: a consumer's
    // check and take of an item, not its run from one item's take back
    // round the loop to the next one's.)
    let mut ordered: Vec<&crate::dsp::Atomic> = e.dsp.atomic.iter().collect();
    ordered.sort_by_key(|a| runs_a_statement_twice(e, a) || turns_back(e, a));
    for a in ordered.into_iter().take(regions) {
        // A region that goes back round is no fix to tell after one that
        // does not: the lines it spans are not a block to make atomic.
        if turns_back(e, a) && !runs_a_statement_twice(e, a) && !regions_told.is_empty() {
            continue;
        }
        let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
        // (Through another thread's run of the statement the failing one
        // did not reach: a double free's reset of the pointer.)
        let same_function = |r: EventRef| e.info_of(r).function == e.info_of(first).function;
        let lines = line_range(e, first, a.through.filter(|r| same_function(*r)).unwrap_or(last));
        let region = (lines.clone(), e.info_of(first).function.clone());
        if regions_told.contains(&region) {
            continue;
        }
        regions_told.push(region);
        let (l1, l2) = (e.line(first).unwrap_or_default(), e.line(last).unwrap_or_default());
        let (o1, o2) = (fault_noun(e, first), fault_noun(e, last));
        // Two accesses on one line (`q[tail] = v; tail++;`): said once.
        let span = match (l1 == l2, o1 == o2) {
            (true, true) => format!("two {o1}s at {l1}"),
            (true, false) => format!("{o1} and {o2} at {l1}"),
            _ => format!("{o1} at {l1} and {o2} at {l2}"),
        };
        let told = told_intruders(e, a);
        let fix = match (read_locked(e, a, &told), unguarded(e, a, &told)) {
            // Both sides hold one read-write lock for reading: shared.
            (Some(lock), _) => {
                let m = e.object(lock).unwrap_or_else(|| "the lock".into());
                format!(
                    "both sides hold `{m}`, but only for reading (`pthread_rwlock_rdlock` at {}), which lets them in together: taking `{m}` for writing (`pthread_rwlock_wrlock`) where they write avoids the failure",
                    e.line(lock).unwrap_or_default()
                )
            }
            (None, unguarded) => match unguarded {
            // The region is already a critical section: the intruders are
            // what does not take its lock.
            Some(lock) => {
                let mut others: Vec<String> = Vec::new();
                for r in &told {
                    let w = who(e, *r);
                    if !others.contains(&w) {
                        others.push(w);
                    }
                }
                let place = lines_of(e, &guarded_too(e, lock, &told));
                let at = place.map_or_else(
                    || "for those accesses".into(),
                    |l| if l.contains(" lines ") { format!("over {l}") } else { format!("at {l}") },
                );
                lock_fix(e, (who(e, first), lock), (&join_and(&others), others.len(), &told), (first, &at))
            }
            None => match (
                unguarded_region(e, a, &told),
                late_lock(e, a, &told),
                early_unlock(e, a, &told),
                released_between(e, a, &told),
            ) {
                // The intruders hold a lock the region does not take.
                (Some(lock), _, _, _) => {
                    let span = format!("over {lines}");
                    lock_fix(e, (who(e, lock), lock), (&who(e, first), 1, &a.events), (first, &span))
                }
                // The region takes the intruders' lock, but only after its
                // first access (a pointer read before the lock).
                (None, Some(lock), _, _) => {
                    let m = e.object(lock).unwrap_or_else(|| "the lock".into());
                    format!(
                        "{} takes `{m}` only at {}, after its {}: taking `{m}` before it (over {lines}) avoids the failure",
                        who(e, first),
                        e.line(lock).unwrap_or_default(),
                        event_phrase(e, first)
                    )
                }
                // The region's thread releases the intruders' lock inside
                // it (a pointer read under the lock, used after the unlock).
                (None, None, Some(unlock), _) => {
                    let m = e.object(unlock).unwrap_or_else(|| "the lock".into());
                    format!(
                        "{} releases `{m}` at {}, before its {o2} at {l2}: releasing `{m}` after it (holding it over {lines}) avoids the failure",
                        who(e, first),
                        e.line(unlock).unwrap_or_default(),
                    )
                }
                // It holds the intruders' lock at both ends of the region
                // but lets it go in between (an index read under the lock,
                // the slot filled outside it, the index advanced under it).
                (None, None, None, Some((unlock, relock))) => {
                    let m = e.object(unlock).unwrap_or_else(|| "the lock".into());
                    format!(
                        "{} releases `{m}` at {} and takes it again at {}, between the two: holding `{m}` over {lines} avoids the failure",
                        who_over(e, &a.events),
                        e.line(unlock).unwrap_or_default(),
                        e.line(relock).unwrap_or_default(),
                    )
                }
                (None, None, _, _) if runs_a_statement_twice(e, a) => format!(
                    "these run {lines} more than once (turns of a loop, or repeated calls), so making {lines} atomic would not keep them together; the alternate avoids the failure by running them with nothing between"
                ),
                (None, None, _, _) if turns_back(e, a) => format!(
                    "these go from {l1} back to {l2} (the next turn of a loop, or another call), so no block of lines made atomic keeps them together; the alternate avoids the failure by running them with nothing between"
                ),
                (None, None, _, _) => format!("making {lines} atomic avoids the failure"),
            },
            },
        };
        // (A region no block of lines keeps together, on a location whose
        // update the failing schedule loses: the lost update is the fix.)
        let lost = || e.info_of(first).addr.and_then(|addr| crate::lost::sentence(e, addr));
        if let Some(s) = runs_a_statement_twice(e, a).then(lost).flatten() {
            out.push(s);
            continue;
        }
        out.push(format!(
            "In the failing schedule {} between {}'s {span}; {fix}.",
            intruders_told(e, &told),
            who_over(e, &a.events)
        ));
    }
    if out.len() == flip_said {
        out.extend(upstream_flow(e, &told));
    }
    if out.is_empty() {
        out.extend(snapshot);
    }
    let flows_told = out.is_empty() && !e.dsp.failing_only.is_empty();
    let mut waiting: Vec<&Flow> = Vec::new();
    if out.is_empty() {
        // Reads the alternate does not run because their thread went
        // another way are told together, after the flows that explain.
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
        waiting = reads
            .iter()
            .filter_map(|g| match g.as_slice() {
                [f] => order_violation(e, f, e.counterpart(f)).filter(|s| s.ends_with(WAIT_FOR_THE_WRITE)).map(|_| *f),
                _ => None,
            })
            .collect();
        let (joined, reads) = joined_order_violations(e, reads);
        out.extend(joined);
        for parts in reads.into_iter().take(3) {
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
        }
        one_fix_for_the_order_violations(&mut out);
        out.extend(not_run_sentences(e, &not_run));
    }
    let spins = crate::spin::sentences(e);
    if out.is_empty() {
        out.extend(order_sentence(e));
    } else if flows_told || !spins.is_empty() {
        // (A busy wait's later turns are what the flipped branch leaves.)
        // The data flows told already include what the check reads.
    } else if let Some(check) = checked(e) {
        // (Unless the flipped branch's read is the check's.)
        // (Not when it reads the same value on the flipped thread's new
        // path: the check then fails no more for another reason, told
        // already.)
        let same = matches!(e.unshown(check.read), Some(crate::Unshown::OnTheNewPath(v))
            if e.value(check.read, Run::Failing) == Some(v.as_str()));
        if !told.contains(&check.read) && !same {
            if skipped(e, check) {
                out.extend(not_run_sentences(e, &[check]));
            } else {
                out.push(flow_sentence(e, check, e.counterpart(check)));
            }
        }
    } else if let Some(s) = last_read_values(e) {
        out.push(s);
    }
    if let Some(s) = check_then_act(e) {
        // (It says what to make atomic: not "make the read wait".)
        for said in out.iter_mut() {
            if let Some(rest) =
                said.strip_suffix(WAIT_FOR_THE_WRITE).or_else(|| said.strip_suffix(EACH_WAITS_FOR_ITS_WRITE))
            {
                *said = rest.to_string();
            }
        }
        out.insert(0, s);
    }
    if let Some(s) = crate::barrier::wait_fix(e, &waiting) {
        // (The last order violation's fix, which stands for them all.)
        let last =
            out.iter_mut().rev().find(|s| s.ends_with(WAIT_FOR_THE_WRITE) || s.ends_with(EACH_WAITS_FOR_ITS_WRITE));
        if let Some(said) = last {
            let cut = if said.ends_with(WAIT_FOR_THE_WRITE) { WAIT_FOR_THE_WRITE } else { EACH_WAITS_FOR_ITS_WRITE };
            said.truncate(said.len() - cut.len());
            said.push_str(&s);
        }
    }
    if let Some(s) = buffering {
        out.insert(0, s);
    }
    out.splice(0..0, spins);
    out.extend(dead_frame_sentence(e));
    out.extend(replay_note(e));
    out.join(" ")
}

/// A flipped branch told with nothing to make atomic: another thread's
/// data flow that differs before the branch, the earliest in the failing
/// schedule (a lock-free pop's stale read of `top->next`, which changes the
/// list the flipped loop then walks), when the alternate's write is one of
/// the trace's. Said as what comes before, not as a cause: the model does
/// not follow values from one thread to another. (Not for a deadlock: its
/// cycle is the explanation.)
fn upstream_flow(e: &Explanation, told: &[EventRef]) -> Option<String> {
    let f = e.flipped.as_ref()?;
    if e.failure.kind == causa_core::BugKind::Deadlock {
        return None;
    }
    let at = |r: EventRef| e.failing.iter().position(|x| *x == r);
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

/// An access to a dead stack frame: whose local it was, and when it died
/// (the interpreter's message names the object: `… in value (local of
/// publish in thread 0) after its function returned`).
fn dead_frame_sentence(e: &Explanation) -> Option<String> {
    let m = &e.failure.message;
    if let Some((name, owner)) = ended_thread_variable(e) {
        return Some(format!(
            "The access is to thread {owner}'s instance of the thread-local `{name}`, after thread {owner} ended: a thread's thread-local variables end with it. Data another thread uses after this one ends belongs in a static or heap object."
        ));
    }
    if !m.contains("dead stack frame") {
        return None;
    }
    const EXITED: &str = " after its thread called pthread_exit";
    let exited = m.ends_with(EXITED);
    // (`read of 4 bytes in value …`, or a call's `pthread_mutex_lock in m …`)
    let object = m
        .split_once(" bytes in ")
        .or_else(|| m.split_once(" byte in "))
        .or_else(|| m.split_once("dead stack frame: ").and_then(|(_, r)| r.split_once(" in ")))
        .map(|(_, rest)| rest.trim_end_matches(" after its function returned").trim_end_matches(EXITED));
    // `value (local of publish in thread 0)`
    let parsed = object.and_then(|o| {
        let (name, rest) = o.split_once(" (local of ")?;
        let (function, thread) = rest.strip_suffix(')')?.split_once(" in thread ")?;
        Some((name, function, thread))
    });
    if exited {
        let what = match parsed {
            Some((name, function, thread)) => format!("`{name}`, a local of `{function}` (thread {thread})"),
            None => object.unwrap_or("a local of a function").to_string(),
        };
        return Some(format!(
            "The access is to {what}, after its thread called `pthread_exit`: every frame of the thread ends there, `main`'s too (the program goes on until the other threads end), in the step of the thread's last event before the call. Keeping the object alive while another thread can use it (a static or heap object, or joining that thread before exiting) avoids the failure in every order."
        ));
    }
    let what = match parsed {
        Some((name, function, thread)) => {
            format!("`{name}`, a local of `{function}` (thread {thread}), after `{function}` returned")
        }
        None => format!("{}, after its function returned", object.unwrap_or("a local of a function")),
    };
    Some(format!(
        "The access is to {what}: a return is not a scheduling point, so the frame dies in the step of its thread's last event before the return. Keeping the object alive while another thread can use it (a static or heap object, or waiting for that thread before returning) avoids the failure in every order."
    ))
}

/// A use after free that comes after the free in every order: the block
/// freed by a thread that ended before the failing one's join and access
/// (a key's destructor freeing a buffer the thread also published), or
/// by the failing thread itself.
fn freed_first_sentence(e: &Explanation) -> Option<String> {
    let m = &e.failure.message;
    let rest = m.strip_prefix("use after free: ")?;
    let (verb, rest) = rest.split_once(" of ")?;
    let block = rest.split_once(" in ")?.1.split([' ', ',']).next()?;
    let (at, marker) = (e.failing.len().checked_sub(1)?, *e.failing.last()?);
    let ft = e.failing_thread()?;
    let free = e.freeing.filter(|r| e.failing[..at].contains(r)).or_else(|| {
        e.failing[..at]
            .iter()
            .rev()
            .find(|r| e.info_of(**r).op == "free" && e.object(**r).as_deref() == Some(block))
            .copied()
    })?;
    let line = e.failure.location.as_ref().map(|l| format!("{}:{}", causa_interp::memory::short_file(&l.file), l.line));
    let line = line.or_else(|| e.line(marker)).unwrap_or_default();
    let freed = format!("The block `{block}` was freed by {} at {}", who(e, free), e.line(free).unwrap_or_default());
    let fix = "Freeing the block only after its last use (or not leaving a pointer to it where another thread uses it) avoids the failure.";
    if free.0 == ft {
        return Some(format!(
            "{freed}, and the same thread {verb}s it at {line} afterwards: its own order puts the free first. {fix}"
        ));
    }
    // The freeing thread ended, and the failing thread joined, before the
    // access (which thread the join waited for, the run's events do not
    // say here).
    let pos = |r: EventRef| e.failing.iter().position(|x| *x == r);
    let end = e.failing.iter().position(|r| r.0 == free.0 && e.info_of(*r).op == "end")?;
    let join = e.failing[end..at].iter().find(|r| r.0 == ft && e.info_of(**r).op == "join").copied()?;
    (pos(free)? < end).then(|| {
        format!(
            "{freed}, before thread {} ended, and {} {verb}s it at {line} after its join at {}: on the failing run's paths the free comes first in every order. {fix}",
            e.threads[free.0],
            who(e, marker),
            e.line(join).unwrap_or_default()
        )
    })
}

/// A wake-up another thread got in before: the failing thread returns
/// from a condition wait, but between the signal that woke it and its
/// return another thread wrote what it then reads (took the item the
/// signal announced), and it goes on without checking again — `if`
/// instead of `while` around the wait.
fn stolen_wakeup(e: &Explanation) -> Option<String> {
    let ft = e.failing_thread()?;
    let sigma = &e.failing;
    let at = |r: EventRef| sigma.iter().position(|x| *x == r);
    let wi = sigma.iter().rposition(|r| r.0 == ft && e.info_of(*r).op == "wake")?;
    let wake = sigma[wi];
    let cond = e.object(wake);
    let si = sigma[..wi]
        .iter()
        .rposition(|r| matches!(e.info_of(*r).op, "signal" | "broadcast") && r.0 != ft && e.object(*r) == cond)?;
    let signal = sigma[si];
    let flow = e.dsp.failing_only.iter().find(|f| {
        f.read.0 == ft
            && f.read.1 > wake.1
            && f.write.is_some_and(|w| w.0 != ft && w.0 != signal.0 && at(w).is_some_and(|i| si < i && i < wi))
    })?;
    let w = flow.write?;
    let obj = e.object(w).map(|o| format!(" `{o}`")).unwrap_or_default();
    let value = e.value(flow.read, Run::Failing).map(|v| format!(" {v}")).unwrap_or_default();
    Some(format!(
        "{} returns from its wait at {} after the signal {} sent at {}, but between that signal and its return {} {}, and {} then reads{value} there at {} without checking the condition again. Waiting in a loop that re-checks it (`while (…) pthread_cond_wait(…)`) avoids this failure.",
        who(e, wake),
        e.line(wake).unwrap_or_default(),
        who(e, signal),
        e.line(signal).unwrap_or_default(),
        who(e, w),
        verb_on(e, w, &obj),
        who(e, wake),
        e.line(flow.read).unwrap_or_default()
    ))
}

/// How the replayed alternate ended, when not cleanly.
fn replay_note(e: &Explanation) -> Option<String> {
    if !e.alternate_avoids_failure() {
        Some("(Replayed, the alternate schedule did not avoid the failure: treat this explanation with care.)".into())
    } else if !e.alternate_passes() {
        Some("(Replayed, the alternate schedule avoids this failure; the program then fails another way.)".into())
    } else {
        None
    }
}

/// A deadlock of a thread at a lock it holds itself: no order avoids it.
fn relock_sentence(e: &Explanation) -> Option<String> {
    let w = e.deadlock.iter().find(|w| w.held_by.0 == w.thread)?;
    let obj = e.object(w.waits).map(|o| format!("`{o}`")).unwrap_or_else(|| "a mutex".into());
    Some(format!(
        "Deadlock: {} locks {obj} at {} while it already holds it (locked at {}), and a default mutex cannot be taken twice: the thread waits for itself, in every order of the threads. Not locking it again while holding it (or a recursive mutex) avoids the deadlock.",
        who(e, w.waits),
        e.line(w.waits).unwrap_or_default(),
        e.line(w.held_by).unwrap_or_default()
    ))
}

/// A deadlock: who holds what and waits for what, and the order of the
/// acquisitions in the alternate.
fn deadlock_sentences(e: &Explanation) -> Vec<String> {
    if e.deadlock.is_empty() {
        return Vec::new();
    }
    let obj = |r: EventRef| e.object(r).map(|o| format!("`{o}`")).unwrap_or_else(|| "a lock".into());
    let at = |r: EventRef| e.line(r).unwrap_or_default();
    let parts: Vec<String> = e
        .deadlock
        .iter()
        .map(|w| {
            let joining = w
                .holder_joins
                .map(|j| format!(" while it waits at {} for {} to finish", at(j), who(e, w.waits)))
                .unwrap_or_default();
            format!(
                "{} waits for {} at {}, which {} holds (locked at {}){joining}",
                who(e, w.waits),
                obj(w.waits),
                at(w.waits),
                who(e, w.held_by),
                at(w.held_by)
            )
        })
        .collect();
    let mut out = vec![format!("Deadlock: {}.", parts.join("; "))];
    out.extend(upgrade_sentences(e));
    let alternate = e.alternate.as_deref().unwrap_or_default();
    let pos = |r: EventRef| alternate.iter().position(|x| *x == r);
    if let Some(w) = e.deadlock.iter().find(|w| w.holder_joins.is_some()) {
        // A lock held across a join of the thread that needs it: one lock,
        // so no lock order to fix.
        let first = pos(w.waits).is_some_and(|p| pos(w.held_by).is_none_or(|q| p < q));
        let alt = if first {
            format!(
                "In the alternate, {} takes {} at {} first and finishes before the join; r",
                who(e, w.waits),
                obj(w.waits),
                at(w.waits)
            )
        } else {
            "R".into()
        };
        out.push(format!("{alt}eleasing {} before joining avoids the deadlock in every order.", obj(w.waits)));
        return out;
    }
    if let Some(w) = e.deadlock.iter().find(|w| pos(w.waits).is_some_and(|p| pos(w.held_by).is_none_or(|q| p < q))) {
        out.push(format!(
            "In the alternate, {} takes {} at {} before {} takes it at {}: taking the locks in one order in every thread avoids the deadlock.",
            who(e, w.waits),
            obj(w.waits),
            at(w.waits),
            who(e, w.held_by),
            at(w.held_by)
        ));
    }
    out
}

/// A deadlocked thread that asks for the write lock of a read-write lock
/// it holds a read lock of: it waits for itself (once per thread).
fn upgrade_sentences(e: &Explanation) -> Vec<String> {
    // (the lock, where it was read-locked, where the write lock is asked
    // for) → the threads that do it.
    let mut upgrades: Vec<((String, String, String), Vec<String>)> = Vec::new();
    let mut told: Vec<usize> = Vec::new();
    for w in &e.deadlock {
        let (t, k) = w.waits;
        if e.info_of(w.waits).op != "lock" || told.contains(&t) {
            continue;
        }
        let object = e.object(w.waits);
        let mut held = None;
        for r in (0..k).map(|j| (t, j)).filter(|r| e.object(*r) == object) {
            match e.info_of(r).op {
                "rdlock" => held = Some(r),
                "unlock" => held = None,
                _ => {}
            }
        }
        let Some(r) = held else { continue };
        told.push(t);
        let obj = object.map(|o| format!("`{o}`")).unwrap_or_else(|| "the lock".into());
        let key = (obj, e.line(r).unwrap_or_default(), e.line(w.waits).unwrap_or_default());
        match upgrades.iter_mut().find(|(k, _)| *k == key) {
            Some((_, threads)) => threads.push(who(e, w.waits)),
            None => upgrades.push((key, vec![who(e, w.waits)])),
        }
    }
    upgrades
        .into_iter()
        .map(|((obj, taken, asked), threads)| {
            let (subject, hold, ask) = match &threads[..] {
                [one] => (one.clone(), "holds", "asks"),
                _ => (format!("{} each", join_and(&threads)), "hold", "ask"),
            };
            format!(
                "{subject} {hold} a read lock of {obj} (taken at {taken}) and {ask} for its write lock at {asked}: a read-write lock cannot be upgraded, so a thread that does this waits for itself and would deadlock even alone. Releasing the read lock first (and checking again under the write lock) avoids it."
            )
        })
        .collect()
}

/// A wait whose signals all came before it, and whether the alternate
/// puts one after it.
fn lost_signal_sentences(e: &Explanation) -> Vec<String> {
    let alternate = e.alternate.as_deref().unwrap_or_default();
    let pos = |r: EventRef| alternate.iter().position(|x| *x == r);
    let mut out = Vec::new();
    for l in &e.lost_signals {
        if !l.woke.is_empty() {
            out.push(misdirected_sentence(e, l));
            continue;
        }
        // Told as a predicate changed without a signal after it.
        if crate::unsignalled::change(e, l.wait).is_some() {
            continue;
        }
        // (One thread's signals at one line told once, with how many.)
        let sent: Vec<String> =
            l.signals.iter().map(|s| format!("{} sent at {}", who(e, *s), e.line(*s).unwrap_or_default())).collect();
        let by: Vec<String> = unique(sent.iter())
            .into_iter()
            .map(|x| match sent.iter().filter(|y| *y == x).count() {
                1 => x.clone(),
                n => format!("{x} ({n} times)"),
            })
            .collect();
        let (a_signal, it_is) = if l.signals.len() == 1 { ("a signal", "it is") } else { ("signals", "they are") };
        out.push(format!(
            "Deadlock: {} waits at {} for {a_signal} that {}, before the wait: a condition variable keeps no signal for a later waiter, so {it_is} lost.",
            who(e, l.wait),
            e.line(l.wait).unwrap_or_default(),
            by.join(" and ")
        ));
        let after = l.signals.iter().any(|s| pos(*s).zip(pos(l.wait)).is_some_and(|(p, q)| p > q));
        if after {
            out.push(match unlocked_signal(e, l) {
                // Checking in a loop does not help when the predicate and
                // the signal can fall between the waiter's check and its
                // wait: the signaller must hold the waiter's mutex.
                Some(m) => format!(
                    "In the alternate the signal comes after the wait. The signaller does not hold {m}, which the waiter holds from its check of the predicate to its wait, so the change and the signal can fall in between: setting the predicate and signalling while holding {m} (the waiter checking it in a loop, `while (!predicate) pthread_cond_wait(…)`) avoids the deadlock in every order."
                ),
                None => "In the alternate the signal comes after the wait. Waiting in a loop on a predicate the signaller sets (`while (!predicate) pthread_cond_wait(…)`) avoids the deadlock in every order.".into(),
            });
        }
    }
    out
}

/// The mutex the waiter of `l` holds at its wait, named (`` `m` ``), when
/// none of the lost signals was sent holding it.
fn unlocked_signal(e: &Explanation, l: &crate::deadlock::LostSignal) -> Option<String> {
    let (m, lock) = held_over(e, l.wait.0, l.wait.1, l.wait.1).into_iter().next()?;
    let holds = |s: &EventRef| held_over(e, s.0, s.1, s.1).iter().any(|(x, _)| *x == m);
    if l.signals.is_empty() || l.signals.iter().any(holds) {
        return None;
    }
    Some(e.object(lock).map(|o| format!("`{o}`")).unwrap_or_else(|| "its mutex".into()))
}

/// A check-then-act race: the failing thread tests an object (a branch
/// tests its read) and then uses or updates it again, and in the failing
/// schedule another thread writes it in between, so what was tested no
/// longer holds (`if (atomic_load(&n) < MAX) atomic_fetch_add(&n, 1)`).
/// Only when the alternate changes that later access's data flow or value,
/// keeps the failing run's paths, and no atomic region the summary tells
/// spans the two (it says what to make atomic already); not for two turns
/// of one loop's test (a busy wait re-reads on purpose).
fn check_then_act(e: &Explanation) -> Option<String> {
    if e.flipped.is_some() {
        return None;
    }
    let t = e.failing_thread()?;
    let pos = |r: EventRef| e.failing.iter().position(|x| *x == r);
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
    let tested = e.branches_on.get(&r).is_some_and(|ks| ks.iter().any(|k| *k > r.1 && *k <= a.1));
    let spanned = e.dsp.atomic.iter().take(2).any(|g| g.events.contains(&r) && g.events.contains(&a));
    if e.info_of(r).op != "read" || !tested || spanned || e.line(r) == e.line(a) {
        return None;
    }
    let (from, to) = (pos(r)?, pos(a)?);
    let writes = |o: &&EventRef| o.0 != t && matches!(e.info_of(**o).op, "write" | "update");
    let &w = e.failing[from + 1..to].iter().filter(writes).find(|o| e.info_of(**o).addr == Some(x))?;
    let obj = e.object(r).map(|o| format!("`{o}`")).unwrap_or_else(|| "the object".into());
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
const WAIT_FOR_THE_WRITE: &str = " Making the read wait for that write avoids the failure.";

/// [`WAIT_FOR_THE_WRITE`] after several order violations.
const EACH_WAITS_FOR_ITS_WRITE: &str = " Making each of these reads wait for its write avoids the failure.";

/// Several order violations whose fix is to make the read wait: told
/// once, after the last of them (a thread that sums three slots before a
/// barrier said "Making the read wait for that write avoids the failure."
/// after each).
fn one_fix_for_the_order_violations(out: &mut [String]) {
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
fn joined_order_violations<'a>(e: &Explanation, reads: Vec<Vec<&'a Flow>>) -> (Vec<String>, Vec<Vec<&'a Flow>>) {
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
        let objects: Vec<String> =
            flows.iter().map(|f| e.object(f.read).map_or("it".into(), |o| format!("`{o}`"))).collect();
        let seen: Vec<String> = flows
            .iter()
            .map(|f| e.value(f.read, Run::Alternate).unwrap_or("what its write stored").to_string())
            .collect();
        let (f, w) = (flows[0], e.counterpart(flows[0]).and_then(|g| g.write).expect("a write"));
        let late = if k.4 { "come after them" } else { "do not come before the failure" };
        let at = e.line(f.read).map(|l| format!(" at {l}")).unwrap_or_default();
        let fix = match k.6 {
            None => " Making the reads wait for their writes avoids the failure.".to_string(),
            Some(flag) => went_on_by_flag(e, flag, w, (&listed(&objects), "those")),
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

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `The reader went on because its read of `tail` at ring.c:26 saw the
/// write at ring.c:16, which … makes before that one: writing … avoids the
/// failure.`: the writer published `p` before `w`.
fn published_early_fix(e: &Explanation, (g, p): (EventRef, EventRef), read: EventRef, w: EventRef) -> String {
    // The reader went on because of `g` only when a branch between the two
    // reads tests its value (a reader that reads both and then checks them
    // did not wait for either, and reordering the writes only moves the
    // window).
    let tested = went_on_by(e, g, read);
    let name = |r: EventRef| e.object(r).map(|o| format!("`{o}`")).unwrap_or_else(|| "it".into());
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
    went_on_by_flag(e, (g, p), w, (&name(w), "that one"))
}

/// Whether a branch of the reader between its read `g` and its `read`
/// tests `g`'s value: the reader went on because of what `g` saw.
fn went_on_by(e: &Explanation, g: EventRef, read: EventRef) -> bool {
    e.branches_on.get(&g).is_some_and(|ks| ks.iter().any(|k| *k > g.1 && *k <= read.1))
}

/// ` The reader went on because its read of `ready` at …:29 saw the write
/// at …:19, which `producer` makes before that one: writing `data[0]`
/// (…:22) before `ready` (…:19) avoids the failure.` (`written`: what `w`
/// writes, named; `which`: "that one", or "those" for several.)
fn went_on_by_flag(
    e: &Explanation,
    (g, p): (EventRef, EventRef),
    w: EventRef,
    (written, which): (&str, &str),
) -> String {
    format!(
        " The reader went on because its {} saw the write at {}, which {} makes before {which}: writing {written} ({}) before {} ({}) avoids the failure.",
        event_phrase(e, g),
        e.line(p).unwrap_or_default(),
        who(e, p),
        e.line(w).unwrap_or_default(),
        e.object(p).map_or("it".into(), |o| format!("`{o}`")),
        e.line(p).unwrap_or_default(),
    )
}

/// A mutex one thread holds from its event `p` through `w` (one critical
/// section) that another holds at neither of its events `g` and `r`: the
/// first thread's lock event of it (a writer that locks and a reader that
/// does not, or the other way round).
fn held_apart(e: &Explanation, (p, w): (EventRef, EventRef), (g, r): (EventRef, EventRef)) -> Option<EventRef> {
    let other: Vec<u64> =
        held_over(e, g.0, g.1, g.1).into_iter().chain(held_over(e, r.0, r.1, r.1)).map(|(m, _)| m).collect();
    held_over(e, p.0, p.1.min(w.1), p.1.max(w.1)).into_iter().find(|(m, _)| !other.contains(m)).map(|(_, l)| l)
}

/// `Deadlock: … waits at s.c:11 from before the signal … sends at s.c:27,
/// but it wakes … instead, which waits again at s.c:11: a signal wakes one
/// waiter only …`.
fn misdirected_sentence(e: &Explanation, l: &crate::deadlock::LostSignal) -> String {
    let at = |r: EventRef| e.line(r).unwrap_or_default();
    let pos = |r: EventRef| e.failing.iter().position(|x| *x == r);
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
fn order_violation(e: &Explanation, f: &Flow, alt: Option<&Flow>) -> Option<String> {
    order_violation_seeing(e, f, alt, e.source_of_part(f, Run::Failing))
}

/// An order violation of the parts of one bulk read that all take their
/// bytes from one write in the alternate (a reply completed by a `strcat`
/// the failing schedule runs too late): [`order_violation`] with what each
/// part saw in the failing schedule.
fn parts_order_violation(e: &Explanation, parts: &[&Flow]) -> Option<String> {
    let alt: Vec<Option<&Flow>> = parts.iter().map(|f| e.counterpart(f)).collect();
    let w = alt[0]?.write?;
    if alt.iter().any(|g| g.and_then(|g| g.write) != Some(w)) {
        return None;
    }
    order_violation_seeing(e, parts[0], alt[0], failing_sources(e, parts))
}

/// [`order_violation`]; `before`: what the read sees in the failing
/// schedule.
fn order_violation_seeing(e: &Explanation, f: &Flow, alt: Option<&Flow>, before: String) -> Option<String> {
    let w = alt?.write?;
    if w.0 == f.read.0 {
        return None;
    }
    let pos = |r: EventRef| e.failing.iter().position(|x| *x == r);
    let late = match (pos(f.read), pos(w)) {
        (Some(r), Some(wp)) if wp > r => "comes after it",
        (Some(_), None) => "does not come before the failure",
        _ => return None,
    };
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
                        e.object(w).map_or("it".into(), |o| format!("`{o}`")),
                        e.line(w).unwrap_or_default(),
                        e.object(p).map_or("it".into(), |o| format!("`{o}`")),
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
        None => match (signalled_early(e, f.read, w), pause_before(e, f.read)) {
            (Some((g, p)), _) => {
                let (does, doing) = match e.info_of(p).op {
                    "sem_post" => ("posts", "posting"),
                    "broadcast" => ("broadcasts", "broadcasting"),
                    _ => ("signals", "signalling"),
                };
                let what = e.object(p).map_or_else(|| "it".into(), |o| format!("`{o}`"));
                format!(
                    " {} {does} {what} at {} before it {}, and that lets {}'s wait at {} through before the write: {doing} after the write avoids the failure.",
                    who(e, p),
                    e.line(p).unwrap_or_default(),
                    verb_phrase(e, w),
                    who(e, f.read),
                    e.line(g).unwrap_or_default(),
                )
            }
            (None, Some(p)) => format!(
                " The pause at {} before the read (a sleep or a yield) does not make it wait: only synchronisation (a lock, a condition variable, a join) orders two threads. Making the read wait for that write avoids the failure.",
                e.line(p).unwrap_or_default()
            ),
            (None, None) => WAIT_FOR_THE_WRITE.into(),
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
        verb_phrase(e, f.read),
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
fn signalled_early(e: &Explanation, read: EventRef, w: EventRef) -> Option<(EventRef, EventRef)> {
    let at = e.failing.iter().position(|x| *x == read)?;
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
fn pause_before(e: &Explanation, read: EventRef) -> Option<EventRef> {
    let at = e.failing.iter().position(|x| *x == read)?;
    let mine = e.failing[..at].iter().rev().filter(|x| x.0 == read.0);
    mine.take_while(|x| matches!(e.info_of(**x).op, "yield" | "read")).find(|x| e.info_of(**x).op == "yield").copied()
}

/// A flag published too early: the reader's last read before `read` (of
/// another location) saw a write `p` that the writer makes before `w` in
/// its own order (`tail` advanced before the slot is filled), so the
/// reader went on before `w`. Under sequential consistency only.
fn published_early(e: &Explanation, read: EventRef, w: EventRef) -> Option<(EventRef, EventRef)> {
    if e.memory_model.buffers_stores() {
        return None;
    }
    let at = e.failing.iter().position(|x| *x == read)?;
    let addr = |r: EventRef| e.info_of(r).addr;
    let writes = |r: EventRef| matches!(e.info_of(r).op, "write" | "update");
    let found: Vec<(EventRef, EventRef)> = e.failing[..at]
        .iter()
        .rev()
        .filter(|g| g.0 == read.0 && matches!(e.info_of(**g).op, "read" | "update"))
        .filter_map(|&g| {
            let a = addr(g).filter(|a| Some(*a) != addr(read))?;
            let gi = e.failing.iter().position(|x| *x == g)?;
            let p = *e.failing[..gi].iter().rev().find(|x| writes(**x) && addr(**x) == Some(a))?;
            (p.0 == w.0 && p.1 < w.1).then_some((g, p))
        })
        .collect();
    // The latest one the reader tested before going on (a flag it waited
    // for: `while (!published)`, set before the fields the reads then
    // find half written), else the latest.
    let tested = |g: EventRef| e.branches_on.get(&g).is_some_and(|ks| ks.iter().any(|k| *k > g.1 && *k <= read.1));
    found.iter().find(|(g, _)| tested(*g)).or(found.first()).copied()
}

/// Under TSO/PSO: a read of the failing schedule that missed another
/// thread's store although that thread had already gone past it (a later
/// event of the thread comes before the read), because the store was still
/// in its store buffer (it becomes visible after the read, or never). Such
/// a read among the DSP's or the root cause's events is told first: it is
/// what sequential consistency would not allow. A fence after the store
/// makes it visible before its thread goes on.
fn store_buffering(e: &Explanation) -> Option<String> {
    if !e.memory_model.buffers_stores() {
        return None;
    }
    let matters = |r: &EventRef| e.dsp.events.contains(r) || e.root_cause.contains(r);
    let pos = |r: EventRef| e.failing.iter().position(|x| *x == r);
    // Every such read: (read, store, the store thread's event past it).
    let mut found = Vec::new();
    for (at, &read) in e.failing.iter().enumerate() {
        let i = e.info_of(read);
        // What it reads: a load's address, or a bulk read's span (under
        // TSO/PSO a bulk access of shared memory only reads it: one that
        // writes is refused).
        let reads = |a: u64| match (i.op, i.addr, i.span) {
            ("read", Some(r), _) => a == r,
            (_, Some(r), Some(n)) => (r..r + n as u64).contains(&a),
            _ => false,
        };
        if i.op != "read" && i.span.is_none() {
            continue;
        }
        let missed = e.info.iter().enumerate().filter(|(t, _)| *t != read.0).find_map(|(t, evs)| {
            evs.iter().enumerate().find_map(|(k, w)| {
                let store = (t, k);
                let hidden = w.buffered && w.addr.is_some_and(reads) && pos(store).is_none_or(|p| p > at);
                // (A later store counts when it became visible before the
                // read: PSO lets it overtake this one.)
                let on = e.failing[..at].iter().find(|r| r.0 == t && r.1 > k);
                hidden.then_some(()).and(on).map(|on| (store, *on))
            })
        });
        if let Some((store, on)) = missed {
            found.push((read, store, on));
        }
    }
    // One the explanation's events show, else the first.
    let told = found.iter().position(|(r, w, _)| matters(r) || matters(w));
    let &(read, store, on) = found.get(told.unwrap_or(0))?;
    let line = |r: EventRef| e.info_of(r).loc.as_ref().map(|l| l.line.to_string()).unwrap_or_default();
    let visible = if pos(store).is_some() {
        "became visible only after the read"
    } else {
        "never became visible before the failure"
    };
    let fix = if told.is_some() { "avoids the failure" } else { "makes it visible before the thread goes on" };
    // The fence goes before the flag: the first later store of the thread
    // to what the reader read before (`ready`), after the thread's last
    // store before it (a second field written after the first: a fence
    // between the two would leave it behind the flag in another
    // schedule). Without a flag, after the thread's last store before `on`
    // still buffered at the read.
    let at = pos(read).unwrap_or(0);
    let read_before = |a: Option<u64>| {
        e.failing[..at].iter().any(|r| r.0 == read.0 && e.info_of(*r).op == "read" && e.info_of(*r).addr == a)
    };
    let writes = |r: &EventRef| e.info_of(*r).buffered && e.info_of(*r).op == "write";
    let flag = (store.1 + 1..e.info[store.0].len())
        .map(|k| (store.0, k))
        .find(|r| writes(r) && pos(*r).is_some_and(|p| p < at) && read_before(e.info_of(*r).addr));
    let last = match flag {
        Some(f) => (store.1..f.1).map(|k| (store.0, k)).rfind(writes),
        None => {
            (store.1..on.1).map(|k| (store.0, k)).rfind(|r| e.info_of(*r).buffered && pos(*r).is_none_or(|p| p > at))
        }
    }
    .unwrap_or(store);
    let stores = if last == store {
        "the store a sequentially consistent atomic".to_string()
    } else {
        format!("the stores at lines {}–{} sequentially consistent atomics", line(store), line(last))
    };
    Some(format!(
        "Store buffering ({}): {} {}, then goes on to line {} ({} there) before {} {}; the store was still in its store buffer and {visible}, so the read sees {}, which sequential consistency does not allow. A fence after line {} (`atomic_thread_fence(memory_order_seq_cst)`), or making {stores}, {fix}.",
        e.memory_model.to_string().to_uppercase(),
        who(e, store),
        verb_phrase(e, store),
        line(on),
        verb_phrase(e, on).split(" at ").next().unwrap_or_default(),
        who(e, read),
        verb_phrase(e, read),
        e.value(read, Run::Failing).map(|v| format!("{v}, an older value")).unwrap_or_else(|| "an older value".into()),
        line(last),
    ))
}

/// `Deadlock: the barrier `start` waits for 3 threads, but only 2 arrive …`.
fn short_barrier_sentences(e: &Explanation) -> Vec<String> {
    e.short_barriers
        .iter()
        .map(|b| {
            let name = b.arrivals.first().and_then(|r| e.object(*r)).map_or("a barrier".into(), |o| format!("the barrier `{o}`"));
            let who: Vec<String> = b.arrivals.iter().map(|r| format!("{} at {}", who(e, *r), e.line(*r).unwrap_or_default())).collect();
            let n = b.arrivals.len();
            format!(
                "Deadlock: {name} waits for {} threads, but only {n} arrive{} ({}), so {} wait{} forever in every order. Initialising it for the number of threads that wait ({n}), or having {} more wait at it, avoids the deadlock.",
                b.count,
                if n == 1 { "s" } else { "" },
                join_and(&who),
                if n == 1 { "it" } else { "they" },
                if n == 1 { "s" } else { "" },
                b.count as usize - n
            )
        })
        .collect()
}

/// A wait at a semaphore whose units were all taken: how many were posted
/// and taken, where.
fn starved_sentences(e: &Explanation) -> Vec<String> {
    let lines = |v: &[EventRef]| {
        let mut l: Vec<String> = v.iter().filter_map(|r| e.line(*r)).collect();
        l.dedup();
        l.join(", ")
    };
    e.starved
        .iter()
        .map(|s| {
            let named = std::iter::once(s.wait).chain(s.posts.iter().copied()).chain(s.taken.iter().copied());
            let sem = named
                .filter_map(|r| e.object(r))
                .next()
                .map(|o| format!("semaphore `{o}`"))
                .unwrap_or_else(|| "a semaphore".into());
            let posted = match s.posts.len() {
                0 => "was never posted".to_string(),
                n => format!("was posted {} (at {})", times(n), lines(&s.posts)),
            };
            let taken = match s.taken.len() {
                0 => String::new(),
                n => format!(" and waited on {} before (at {})", times(n), lines(&s.taken)),
            };
            // None left: what it started with is what the waits took beyond
            // the posts.
            let posted = match s.taken.len().saturating_sub(s.posts.len()) {
                0 => posted,
                1 => format!("started with 1 unit, {posted}"),
                n => format!("started with {n} units, {posted}"),
            };
            format!(
                "Deadlock: {} waits at {} on {sem}, which has no unit left: it {posted}{taken}. Each wait takes a unit, so this one needs a post the run never makes.",
                who(e, s.wait),
                e.line(s.wait).unwrap_or_default()
            )
        })
        .collect()
}

/// `read of `balance` at bank.c:4`.
fn event_phrase(e: &Explanation, r: EventRef) -> String {
    let obj = e.object(r).map(|o| format!(" of `{o}`")).unwrap_or_default();
    let at = e.line(r).map(|l| format!(" at {l}")).unwrap_or_default();
    format!("{}{obj}{at}", noun(e.info_of(r).op))
}

/// An event's operation as a noun; a memory error's faulting access as
/// what it is: `second free`, `access to the freed block`.
fn fault_noun(e: &Explanation, r: EventRef) -> &str {
    match e.info_of(r).op {
        "faulting access" if e.failure.message.starts_with("double free") => "second free",
        "faulting access" if e.failure.message.starts_with("use after free") => "access to the freed block",
        op => noun(op),
    }
}

/// An operation as a noun: `strcpy` for a copy that reads the object
/// (`strcpy from`) too.
fn noun(op: &str) -> &str {
    op.strip_suffix(" from").unwrap_or(op)
}

/// `` `deposit` (thread 0.1) ``: the function an event is in, and its thread.
pub(crate) fn who(e: &Explanation, r: EventRef) -> String {
    match &e.info_of(r).function {
        Some(f) => format!("`{f}` (thread {})", e.threads[r.0]),
        None => format!("thread {}", e.threads[r.0]),
    }
}

/// [`who`] of one thread's events `evs`: named by their function when
/// they are all in one, else by the function the thread starts in (a
/// check in `taken` and an add in `add`, both called by `sign_up`).
fn who_over(e: &Explanation, evs: &[EventRef]) -> String {
    let Some(&first) = evs.first() else { return String::new() };
    let f = &e.info_of(first).function;
    if evs.iter().all(|r| &e.info_of(*r).function == f) {
        return who(e, first);
    }
    match e.starts.get(first.0).cloned().flatten() {
        Some(start) => format!("`{start}` (thread {})", e.threads[first.0]),
        None => format!("thread {}", e.threads[first.0]),
    }
}

/// `reads `balance` at bank.c:13`.
fn verb_phrase(e: &Explanation, r: EventRef) -> String {
    let obj = e.object(r).map(|o| format!(" `{o}`")).unwrap_or_default();
    let how = if e.info_of(r).realloc { " (its `realloc` moves the block)" } else { "" };
    verb_on(e, r, &format!("{obj}{how}"))
}

/// `` `writes{obj} at bank.c:14` ``: the event's verb, `obj` and its line.
fn verb_on(e: &Explanation, r: EventRef, obj: &str) -> String {
    let at = e.line(r).map(|l| format!(" at {l}")).unwrap_or_default();
    format!("{}{obj}{at}", verb(e.info_of(r).op))
}

/// An operation as a verb (`reads`, `locks`).
fn verb(op: &str) -> &str {
    match op {
        "read" => "reads",
        "write" => "writes",
        "update" => "updates",
        "memcpy" | "memmove" => "copies",
        "memset" => "fills",
        "strcpy" | "strncpy" => "copies a string into",
        "strcpy from" | "strncpy from" | "strcat from" => "copies the string in",
        "memcpy from" | "memmove from" => "copies",
        "strcat" => "appends to",
        "sprintf" | "snprintf" => "formats a string into",
        "fgets" | "fread" | "read(fd)" => "reads from a file into",
        "fscanf" => "scans from a file into",
        "sscanf" => "scans a string into",
        "sscanf from" => "parses",
        "strcmp" | "strncmp" | "memcmp" => "compares",
        "strlen" | "strnlen" => "measures the string in",
        "atoi" | "atol" | "atoll" | "strtol" | "strtoll" | "strtoul" | "strtoull" => "parses a number from",
        "strchr" | "strrchr" | "strstr" | "strpbrk" | "memchr" => "searches",
        "strspn" | "strcspn" => "scans",
        "lock" => "locks",
        "rdlock" => "read-locks",
        "unlock" => "unlocks",
        "free" => "frees",
        "destroy" => "destroys",
        other => other,
    }
}

/// A thread's accesses to one object on one line, said once: `reads
/// `tail` twice and writes it at semq.c:7` (None when they are not).
fn on_one_line(e: &Explanation, v: &[EventRef]) -> Option<String> {
    let (line, obj) = (e.line(v[0])?, e.object(v[0])?);
    if v.len() < 2 || v.iter().any(|r| e.line(*r).as_ref() != Some(&line) || e.object(*r).as_ref() != Some(&obj)) {
        return None;
    }
    let mut verbs: Vec<(&str, usize)> = Vec::new();
    for r in v {
        let op = e.info_of(*r).op;
        match verbs.iter_mut().find(|(o, _)| *o == op) {
            Some((_, n)) => *n += 1,
            None => verbs.push((op, 1)),
        }
    }
    let parts: Vec<String> = verbs
        .iter()
        .enumerate()
        .map(|(i, (op, n))| {
            let what = if i == 0 { format!("`{obj}`") } else { "it".into() };
            let times = match n {
                1 => String::new(),
                2 => " twice".into(),
                n => format!(" {n} times"),
            };
            format!("{} {what}{times}", verb(op))
        })
        .collect();
    Some(format!("{} at {line}", join_and(&parts)))
}

/// The intruders of an atomic region the summary names: their accesses to
/// the region's objects (else any of their memory accesses, else all).
fn told_intruders(e: &Explanation, a: &crate::Atomic) -> Vec<EventRef> {
    let objects: Vec<Option<u64>> = a.events.iter().map(|r| e.info_of(*r).addr).filter(|x| x.is_some()).collect();
    let memory = |r: &&EventRef| e.info_of(**r).touches_memory();
    // (A free that comes between is told whatever object the region touches.)
    let told = |r: &&EventRef| objects.contains(&e.info_of(**r).addr) || e.info_of(**r).op == "free";
    let same: Vec<EventRef> = a.intruders.iter().filter(memory).filter(told).copied().collect();
    let any: Vec<EventRef> = a.intruders.iter().filter(memory).copied().collect();
    if !same.is_empty() {
        same
    } else if !any.is_empty() {
        any
    } else {
        a.intruders.clone()
    }
}

/// `` … holds `m` there, but … does not take it: taking `m` at … as well
/// avoids the failure ``: `holder` holds `lock` where the `n` threads
/// `others` make their `events` without it, at `place`; or, when they hold
/// another lock there, that the object is guarded by two locks.
fn lock_fix(
    e: &Explanation,
    (holder, lock): (String, EventRef),
    (others, n, events): (&str, usize, &[EventRef]),
    (access, place): (EventRef, &str),
) -> String {
    let m = e.object(lock).unwrap_or_else(|| "the lock".into());
    // A lock every one of those events is made under (another one).
    let mut theirs = events.iter().map(|r| held_over(e, r.0, r.1, r.1));
    let first = theirs.next().unwrap_or_default();
    let rest: Vec<Vec<(u64, EventRef)>> = theirs.collect();
    let other = first.into_iter().find(|(x, _)| rest.iter().all(|h| h.iter().any(|(y, _)| y == x)));
    let (hold, does) = if n == 1 { ("holds", "does") } else { ("hold", "do") };
    match (other, e.object(access)) {
        (Some((_, l2)), Some(obj)) => format!(
            "{holder} holds `{m}` there, but {others} {hold} `{}` instead: taking one lock for every access to `{obj}` avoids the failure",
            e.object(l2).unwrap_or_else(|| "another lock".into())
        ),
        _ => format!("{holder} holds `{m}` there, but {others} {does} not take it: taking `{m}` {place} as well avoids the failure"),
    }
}

/// The `told` intruders (of one thread) with that thread's accesses next
/// to them, without the mutex `lock` locks, to objects its holder accesses
/// in that critical section: one section of the lock must cover them all
/// (a reset that clears `total` and `count` without the lock the recorder
/// updates both under: taking it at the write of `count` alone still lets
/// an update fall between the two writes).
fn guarded_too(e: &Explanation, lock: EventRef, told: &[EventRef]) -> Vec<EventRef> {
    let (Some(&first), Some(m)) = (told.first(), e.info_of(lock).addr) else { return told.to_vec() };
    if told.iter().any(|r| r.0 != first.0) {
        return told.to_vec();
    }
    let section = e.info[lock.0].iter().skip(lock.1 + 1).take_while(|i| !(i.op == "unlock" && i.addr == Some(m)));
    let objects: Vec<u64> = section.filter(|i| i.touches_memory()).filter_map(|i| i.addr).collect();
    let t = first.0;
    let joins = |k: usize| {
        let i = &e.info[t][k];
        i.touches_memory()
            && i.addr.is_some_and(|a| objects.contains(&a))
            && held_over(e, t, k, k).iter().all(|(x, _)| *x != m)
    };
    let (lo, hi) = told.iter().fold((first.1, first.1), |(lo, hi), r| (lo.min(r.1), hi.max(r.1)));
    let mut from = lo;
    while from > 0 && joins(from - 1) {
        from -= 1;
    }
    let mut to = hi;
    while to + 1 < e.info[t].len() && joins(to + 1) {
        to += 1;
    }
    let mut out = told.to_vec();
    out.extend((from..=to).filter(|k| *k < lo || *k > hi).map(|k| (t, k)));
    out
}

/// The mutexes thread `t` holds from its event `from` through `to`: locked
/// before `from` and neither unlocked nor given up by a condition wait
/// before `to`; each with the event that locked it.
pub(crate) fn held_over(e: &Explanation, t: usize, from: usize, to: usize) -> Vec<(u64, EventRef)> {
    let mut held: Vec<(u64, EventRef)> = Vec::new();
    for (k, i) in e.info[t].iter().enumerate().take(to) {
        match (i.op, i.addr) {
            ("lock" | "rdlock", Some(m)) if k < from => held.push((m, (t, k))),
            ("unlock", Some(m)) => held.retain(|(x, _)| *x != m),
            ("wait", _) => held.clear(),
            _ => {}
        }
    }
    held
}

/// A read-write lock the region's thread holds for reading over the whole
/// region, and every `told` intruder for reading at its access, when one
/// side writes (a counter bumped under `pthread_rwlock_rdlock`): the
/// region's lock event.
fn read_locked(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<EventRef> {
    let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
    let writes = |r: &EventRef| matches!(e.info_of(*r).op, "write" | "update");
    if told.is_empty() || !(a.events.iter().any(writes) || told.iter().any(writes)) {
        return None;
    }
    let read_held = |t: usize, from: usize, to: usize| -> Vec<(u64, EventRef)> {
        held_over(e, t, from, to).into_iter().filter(|(_, l)| e.info_of(*l).op == "rdlock").collect()
    };
    read_held(first.0, first.1, last.1)
        .into_iter()
        .find(|(m, _)| told.iter().all(|r| read_held(r.0, r.1, r.1).iter().any(|(x, _)| x == m)))
        .map(|(_, lock)| lock)
}

/// A mutex the region's thread holds over the whole region that none of
/// the `told` intruders holds at its access: its lock event.
fn unguarded(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<EventRef> {
    let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
    if told.is_empty() || !told.iter().all(|r| e.info_of(*r).touches_memory()) {
        return None;
    }
    held_over(e, first.0, first.1, last.1)
        .into_iter()
        .find(|(m, _)| told.iter().all(|r| held_over(e, r.0, r.1, r.1).iter().all(|(x, _)| x != m)))
        .map(|(_, lock)| lock)
}

/// A mutex every `told` intruder (all of one thread) holds at its access
/// that the region's thread does not hold at any of the region's events:
/// the intruders' lock event of it.
fn unguarded_region(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<EventRef> {
    let (&r0, rest) = told.split_first()?;
    if rest.iter().any(|r| r.0 != r0.0) || !told.iter().all(|r| e.info_of(*r).touches_memory()) {
        return None;
    }
    held_over(e, r0.0, r0.1, r0.1)
        .into_iter()
        .filter(|(m, _)| rest.iter().all(|r| held_over(e, r.0, r.1, r.1).iter().any(|(x, _)| x == m)))
        .find(|(m, _)| a.events.iter().all(|r| held_over(e, r.0, r.1, r.1).iter().all(|(x, _)| x != m)))
        .map(|(_, lock)| lock)
}

/// The `told` intruders that change memory (another thread's check made
/// outside the lock too changes nothing); None: there are none.
fn changing(e: &Explanation, told: &[EventRef]) -> Option<Vec<EventRef>> {
    let out: Vec<EventRef> =
        told.iter().copied().filter(|r| matches!(e.info_of(*r).op, "write" | "update" | "free")).collect();
    (!out.is_empty()).then_some(out)
}

/// The lock event of a mutex the region's thread takes inside the region
/// (held at its last event, not at its first) that every `told` intruder
/// that writes or frees holds at its access: the region's first access is
/// made before the lock it needs (`p = log_buf;` then `lock(&m)`).
fn late_lock(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<EventRef> {
    let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
    let changing = changing(e, told)?;
    let at_first = held_over(e, first.0, first.1, first.1);
    held_over(e, last.0, last.1, last.1)
        .into_iter()
        .filter(|(m, _)| at_first.iter().all(|(x, _)| x != m))
        .find(|(m, _)| changing.iter().all(|r| held_over(e, r.0, r.1, r.1).iter().any(|(x, _)| x == m)))
        .map(|(_, lock)| lock)
}

/// The unlock event of a mutex the region's thread holds at its first
/// event and releases inside the region, which the `told` intruders that
/// change memory hold at their access, or follow in their thread an
/// intruder that holds it (a configuration reader that reads `current`
/// under the read lock and uses the entry after releasing it; the
/// reloader swaps `current` under the write lock and frees the old entry
/// after): held over the region, the lock keeps them all out of it. Not
/// when both hold it shared.
fn early_unlock(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<EventRef> {
    let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
    let changing = changing(e, told)?;
    let at_last = held_over(e, last.0, last.1, last.1);
    let (m, mine) =
        held_over(e, first.0, first.1, first.1).into_iter().find(|(m, _)| at_last.iter().all(|(x, _)| x != m))?;
    // An intruder holding `m` in a way the region's hold excludes.
    let excluded = |r: EventRef| {
        let shared = |lock: EventRef| e.info_of(lock).op == "rdlock";
        held_over(e, r.0, r.1, r.1).into_iter().any(|(x, lock)| x == m && !(shared(mine) && shared(lock)))
    };
    let all_out = changing.iter().all(|r| excluded(*r) || told.iter().any(|q| q.0 == r.0 && q.1 < r.1 && excluded(*q)));
    if !all_out {
        return None;
    }
    (first.1..last.1).map(|k| (first.0, k)).find(|r| e.info_of(*r).op == "unlock" && e.info_of(*r).addr == Some(m))
}

/// The unlock and the next lock of a mutex the region's thread holds (not
/// shared) at its first and at its last event but releases in between,
/// which the `told` intruders that change memory (or, when none does,
/// every one) hold at their access: held over the whole region, it keeps
/// them out of it.
fn released_between(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<(EventRef, EventRef)> {
    let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
    // (An intruder that only reads, the region's thread writing: it too.)
    let changing = changing(e, told).unwrap_or_else(|| told.to_vec());
    if changing.is_empty() {
        return None;
    }
    let holds =
        |r: EventRef, m: u64| held_over(e, r.0, r.1, r.1).iter().any(|(x, l)| *x == m && e.info_of(*l).op == "lock");
    let (m, _) = held_over(e, first.0, first.1, first.1)
        .into_iter()
        .find(|(m, _)| holds(first, *m) && holds(last, *m) && changing.iter().all(|r| holds(*r, *m)))?;
    let is = |k: usize, op: &str| e.info_of((first.0, k)).op == op && e.info_of((first.0, k)).addr == Some(m);
    let unlock = (first.1..last.1).find(|k| is(*k, "unlock"))?;
    let relock = (unlock..last.1).find(|k| is(*k, "lock"))?;
    // In the order of the source (not a loop's write and its next turn's
    // read, the lock let go at the end of one turn and taken at the start
    // of the next).
    let line = |k: usize| e.info_of((first.0, k)).loc.as_ref().map(|l| (l.file.clone(), l.line));
    let lines: Option<Vec<_>> = [first.1, unlock, relock, last.1].into_iter().map(line).collect();
    let lines = lines?;
    let in_order = lines.windows(2).all(|w| w[0].0 == w[1].0 && w[0].1 < w[1].1);
    in_order.then_some(((first.0, unlock), (first.0, relock)))
}

/// `once.c:31` / `once.c lines 31–33`: where events are (None: in no file
/// or several).
fn lines_of(e: &Explanation, v: &[EventRef]) -> Option<String> {
    let lines: Vec<(String, u32)> =
        v.iter().filter_map(|r| e.info_of(*r).loc.as_ref().map(|l| (l.file.to_string(), l.line))).collect();
    match (lines.iter().map(|l| l.1).min(), lines.iter().map(|l| l.1).max(), lines.first()) {
        (Some(lo), Some(hi), Some((file, _))) if lines.iter().all(|l| l.0 == *file) => {
            let file = causa_interp::memory::short_file(file);
            Some(if lo == hi { format!("{file}:{lo}") } else { format!("{file} lines {lo}–{hi}") })
        }
        _ => None,
    }
}

/// What the other threads do inside the region (its told intruders),
/// thread by thread: `` `deposit` (thread 0.1) reads `balance` at bank.c:13
/// and writes `balance` at bank.c:14 ``.
fn intruders_told(e: &Explanation, evs: &[EventRef]) -> String {
    let mut by_thread: Vec<(usize, Vec<EventRef>)> = Vec::new();
    for &r in evs {
        match by_thread.iter_mut().find(|(t, _)| *t == r.0) {
            Some((_, v)) => v.push(r),
            None => by_thread.push((r.0, vec![r])),
        }
    }
    by_thread
        .iter()
        .map(|(_, v)| {
            if v.len() > 3 {
                return format!("{} {}", who_over(e, v), many(e, v));
            }
            if let Some(said) = on_one_line(e, v) {
                return format!("{} {said}", who(e, v[0]));
            }
            let parts: Vec<String> = v.iter().map(|r| verb_phrase(e, *r)).collect();
            format!("{} {}", who_over(e, v), join_and(&parts))
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// `makes 13 accesses to `q_count` (pfscan.c lines 34–39)`: a long run of
/// one thread's events in few words.
fn many(e: &Explanation, v: &[EventRef]) -> String {
    let objects: Vec<String> = unique(v.iter().filter_map(|r| e.object(*r))).iter().map(|o| format!("`{o}`")).collect();
    let range = lines_of(e, v).map(|l| format!(" ({l})")).unwrap_or_default();
    format!("makes {} accesses to {}{range}", v.len(), join_and(&objects))
}

/// `once` / `3 times`.
pub(crate) fn times(n: usize) -> String {
    if n == 1 {
        "once".to_string()
    } else {
        format!("{n} times")
    }
}

/// `items` without repeats, in their first order.
pub(crate) fn unique<T: PartialEq>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// `bank.c lines 12–13` / `bank.c line 12`: the lines from `a` to `b`.
pub(crate) fn line_range(e: &Explanation, a: EventRef, b: EventRef) -> String {
    match (e.info_of(a).loc.as_ref(), e.info_of(b).loc.as_ref()) {
        (Some(x), Some(y)) if x.file == y.file => {
            let file = causa_interp::memory::short_file(&x.file);
            let (lo, hi) = (x.line.min(y.line), x.line.max(y.line));
            if lo == hi {
                format!("{file} line {lo}")
            } else {
                format!("{file} lines {lo}–{hi}")
            }
        }
        _ => "these events".into(),
    }
}

/// The region runs one access of one statement more than once (a loop's
/// turns, or a function called twice): no atomic statement spans it. So
/// does a read after a write of the same object at the same place (`n++`
/// reads before it writes: the read is the statement's next run).
fn runs_a_statement_twice(e: &Explanation, a: &crate::dsp::Atomic) -> bool {
    let mut seen = std::collections::HashSet::new();
    a.events.iter().any(|r| {
        let i = e.info_of(*r);
        let at = i.loc.as_ref().map(|l| (l.file.clone(), l.line, l.column));
        let again = i.op == "read" && seen.contains(&("write", i.addr, at.clone()));
        at.is_some() && i.addr.is_some() && (again || !seen.insert((i.op, i.addr, at)))
    })
}

/// The region goes back to an earlier line of the function it is in (a
/// loop's next turn, or the function's next call): its first and last
/// lines do not bound the code it runs.
fn turns_back(e: &Explanation, a: &crate::dsp::Atomic) -> bool {
    a.events.windows(2).any(|w| {
        let (x, y) = (e.info_of(w[0]), e.info_of(w[1]));
        match (x.loc.as_ref(), y.loc.as_ref()) {
            (Some(p), Some(q)) => x.function == y.function && p.file == q.file && q.line < p.line,
            _ => false,
        }
    })
}

/// The failing thread's differing read nearest the failure: what the check
/// sees. Of those the failing branch's condition depends on, when there
/// are any (an assertion on an item, not the count read after it).
fn checked(e: &Explanation) -> Option<&Flow> {
    let t = e.failing_thread()?;
    let mine = || e.dsp.failing_only.iter().filter(|f| f.read.0 == t);
    let tested = |f: &&Flow| match e.failure_branch {
        Some((bt, k)) => bt == t && e.branches_on.get(&f.read).is_some_and(|ks| ks.contains(&k)),
        None => false,
    };
    mine().filter(tested).max_by_key(|f| f.read.1).or_else(|| mine().max_by_key(|f| f.read.1))
}

/// `` The read of `balance` at bank.c:48 in `main` (thread 0) sees 70 from
/// thread 0.2 line 20 in the failing schedule and 120 from … in the alternate. ``
/// When no data flow differs (a use after free): the two events of
/// different threads nearest the failure whose order the alternate swaps.
fn order_sentence(e: &Explanation) -> Option<String> {
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
            let block = e.object(a).map(|o| format!("`{o}`")).unwrap_or_else(|| "the block".into());
            // The freeing thread created the accessing one and frees the
            // block without joining it first (a join would order them).
            let (pa, pb) = (e.threads[a.0].parts(), e.threads[b.0].parts());
            let unjoined = if pb.len() == pa.len() + 1 && pb.starts_with(pa) {
                format!(" {} created thread {} and does not join it before the free.", who(e, a), e.threads[b.0])
            } else {
                String::new()
            };
            let how = if e.info_of(a).realloc { " (its `realloc` moves the block)" } else { "" };
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
fn ended_thread_variable(e: &Explanation) -> Option<(String, String)> {
    let m = &e.failure.message;
    let rest = m.strip_suffix(" after its thread ended")?;
    let (object, owner) = rest.rsplit_once(" (thread-local, thread ")?;
    let owner = owner.strip_suffix("'s)")?;
    let object = object.rsplit_once(" in ")?.1;
    let name = object.split(['@', '[', '.']).next().unwrap_or(object);
    Some((name.to_string(), owner.to_string()))
}

/// The failing thread's last read before the failure, when it sees another
/// value in the alternate (from the same write).
fn last_read_values(e: &Explanation) -> Option<String> {
    let t = e.failing_thread()?;
    let r = *e.failing.iter().rev().find(|r| r.0 == t && matches!(e.info_of(**r).op, "read" | "update"))?;
    let (f, a) = (e.value(r, Run::Failing)?, e.value(r, Run::Alternate)?);
    (f != a).then(|| {
        format!(
            "The failing thread's {} then sees {f} in the failing schedule and {a} in the alternate.",
            event_phrase(e, r)
        )
    })
}

fn flow_sentence(e: &Explanation, f: &Flow, alt: Option<&Flow>) -> String {
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
fn parts_sentence(e: &Explanation, parts: &[&Flow]) -> String {
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
fn told(whole: Vec<String>, by_part: Vec<String>) -> String {
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
fn failing_sources(e: &Explanation, parts: &[&Flow]) -> String {
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
fn alternate_source(e: &Explanation, f: &Flow, alt: Option<&Flow>) -> String {
    alt.map(|g| e.source_of_part(g, Run::Alternate)).unwrap_or_else(|| match e.unshown(f.read) {
        Some(crate::Unshown::OtherWay) => "nothing (its thread goes the other way before it)".into(),
        Some(crate::Unshown::LateValue(v) | crate::Unshown::SeenLate(v)) => {
            format!("{v} (stored by an operation the failing run never reached)")
        }
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
fn another_threads_local(e: &Explanation, f: &Flow, told: &mut Vec<u64>) -> Option<String> {
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
fn overwritten(e: &Explanation, f: &Flow, alt: Option<&Flow>) -> Option<String> {
    let (wf, wa) = (f.write?, alt?.write?);
    // (Not when the read reaches another place in the alternate: a read
    // through a computed index, whose two writes are to two slots.)
    if e.elsewhere_in_alternate(f.read).is_some() {
        return None;
    }
    let at = |r: EventRef| e.failing.iter().position(|x| *x == r);
    let (pa, pf, pr) = (at(wa)?, at(wf)?, at(f.read)?);
    // The same statement of the same thread run again (the next round of
    // a loop) before the read: nothing holds the writer back until the
    // reader has read the earlier value.
    if wa.0 == wf.0 && wa.1 < wf.1 && pf < pr && e.line(wa).is_some() && e.line(wa) == e.line(wf) && wf.0 != f.read.0 {
        let obj = e.object(wf).map(|o| format!("`{o}`")).unwrap_or_else(|| "it".into());
        let val = |r: EventRef, run: Run| e.value(r, run).map(|v| format!(" ({v})")).unwrap_or_default();
        // Both threads read it and then write it at the writer's line (two
        // consumers advancing one shared index): the two lines are one
        // update, which a lock keeps whole.
        if let Some(w) = updates_it_too(e, f.read, wf) {
            return Some(format!(
                "In the failing schedule {} runs {} again and writes {obj}{} before {}'s {}, which was to see the earlier write{}. Both threads read {obj} at {} and write it at {} with no lock held over the two: holding one lock over {} avoids the failure.",
                who(e, wf),
                e.line(wf).unwrap_or_default(),
                val(wf, Run::Failing),
                who(e, f.read),
                event_phrase(e, f.read),
                val(wa, Run::Alternate),
                e.line(f.read).unwrap_or_default(),
                e.line(w).unwrap_or_default(),
                line_range(e, f.read, w),
            ));
        }
        return Some(format!(
            "In the failing schedule {} runs {} again and writes {obj}{} before {}'s {}, which was to see the earlier write{}: nothing makes thread {} wait for that read before it writes {obj} again (a barrier or a lock between the read and the next write would).",
            who(e, wf),
            e.line(wf).unwrap_or_default(),
            val(wf, Run::Failing),
            who(e, f.read),
            event_phrase(e, f.read),
            val(wa, Run::Alternate),
            e.threads[wf.0],
        ));
    }
    (wa.0 != wf.0 && pa < pf && pf < pr).then(|| {
        format!(
            "In the failing schedule {}'s {} comes after {}'s {} and overwrites it.",
            who(e, wf),
            event_phrase(e, wf),
            who(e, wa),
            event_phrase(e, wa)
        )
    })
}

/// The reader's own later write of what it read, at the line of the
/// writer's write `w`, when the writer also read it at the reader's line
/// and no lock is held by both at the read and at `w`: both threads run
/// one read-then-write of it (`x = buf[out]; out = (out + 1) % 2;`).
fn updates_it_too(e: &Explanation, read: EventRef, w: EventRef) -> Option<EventRef> {
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
fn skipped(e: &Explanation, f: &Flow) -> bool {
    e.counterpart(f).is_none() && matches!(e.unshown(f.read), Some(crate::Unshown::OtherWay))
}

/// `In the alternate, `finish` (thread 0.2) then takes another path and
/// does not run its reads of `stderr` and `conn_state` at
/// abort_bad_state.c:30.`, per thread (`Taking that branch, …` for the
/// thread whose branch the alternate flips).
fn not_run_sentences(e: &Explanation, flows: &[&Flow]) -> Vec<String> {
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

pub(crate) fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [a] => a.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
