//! Regions that should run atomically: who comes between, and the fix
//! (a lock taken too late, released too early or not at all, or taken
//! only for reading).

use super::*;

/// The regions' sentences, at most `regions` of them: who comes between
/// the region's ends and what fixes it.
pub(super) fn region_sentences(e: &Explanation, regions: usize, out: &mut Vec<String>) {
    // (Regions already told: two threads that each intrude on the other's
    // run of the same lines need them said once.)
    let mut regions_told: Vec<(String, Option<std::sync::Arc<str>>)> = Vec::new();
    let mut hands_told: Vec<String> = Vec::new();
    // (A region that runs a statement once comes first: of two regions
    // on one line, such as a lost update's `count++` and the other
    // thread's run from its first call's write to its second call's read,
    // the first is the one to tell.)
    // (So does one that stays within one pass of its lines: a consumer's
    // check and take of an item, not its run from one item's take back
    // round the loop to the next one's.)
    let mut ordered: Vec<&crate::dsp::Atomic> = e.dsp.atomic.iter().collect();
    ordered.sort_by_key(|a| runs_a_statement_twice(e, a) || turns_back(e, a));
    // An atomic update read again after it: testing what the update
    // returns is the fix, and the other regions follow from the second
    // read (two users that both see a count of 0 both free).
    if ordered.iter().any(|a| reread_after_update(e, a)) {
        ordered.retain(|a| reread_after_update(e, a));
    }
    for a in ordered.into_iter().take(regions) {
        // A region that goes back round is no fix to tell after one that
        // does not: the lines it spans are not a block to make atomic.
        if turns_back(e, a) && !runs_a_statement_twice(e, a) && !regions_told.is_empty() {
            continue;
        }
        let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
        // (The very update a lost-update sentence before told.)
        if crate::lost::told(e, (first, last), out) {
            continue;
        }
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
        // (One hand-made lock two regions show is told once.)
        let hand = hand_lock(e, a, &told);
        if let Some(h) = &hand {
            if hands_told.contains(h) {
                continue;
            }
            hands_told.push(h.clone());
        }
        let statik = static_buffer(e, a, &told);
        let checked_free = freed_after_check(e, a, &told, &lines);
        let fix = match (statik, read_locked(e, a, &told), sem_shared(e, a, &told), unguarded(e, a, &told)) {
            // A function's static variable, which every caller shares.
            (Some(fix), _, _, _) => fix,
            // Both sides hold one read-write lock for reading: shared.
            (None, Some(lock), _, _) => {
                let m = e.object(lock).unwrap_or_else(|| "the lock".into());
                format!(
                    "both sides hold `{m}`, but only for reading (`pthread_rwlock_rdlock` at {}), which lets them in together: taking `{m}` for writing (`pthread_rwlock_wrlock`) where they write avoids the failure",
                    e.line(lock).unwrap_or_default()
                )
            }
            // Both sides hold one semaphore that lets more than one in.
            (None, None, Some((wait, sem)), _) => {
                let m = e.object(wait).unwrap_or_else(|| "the semaphore".into());
                let n = e.sem_initial.get(&sem).copied().unwrap_or(2);
                format!(
                    "both sides hold the semaphore `{m}` (`sem_wait` at {}), which starts at {n} (`sem_init`) and so lets {n} threads in at once: starting it at 1 (or a mutex) makes it a lock over {lines}, which avoids the failure",
                    e.line(wait).unwrap_or_default()
                )
            }
            (None, None, None, unguarded) => match unguarded {
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
                lock_after(e, a, &told),
                hand,
            ) {
                // The intruders hold a lock the region does not take.
                (Some(lock), _, _, _, _, _) => {
                    let span = format!("over {lines}");
                    lock_fix(e, (who(e, lock), lock), (&who(e, first), 1, &a.events), (first, &span))
                }
                // The region takes the intruders' lock, but only after its
                // first access (a pointer read before the lock).
                (None, Some(lock), _, _, _, _) => {
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
                (None, None, Some(unlock), _, _, _) => {
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
                (None, None, None, Some((unlock, relock)), _, _) => {
                    let m = e.object(unlock).unwrap_or_else(|| "the lock".into());
                    format!(
                        "{} releases `{m}` at {} and takes it again at {}, between the two: holding `{m}` over {lines} avoids the failure",
                        who_over(e, &a.events),
                        e.line(unlock).unwrap_or_default(),
                        e.line(relock).unwrap_or_default(),
                    )
                }
                // Both sides take a lock right after their accesses, at
                // one line: taken before them, it keeps them apart.
                (None, None, None, None, Some(lock), _) => {
                    let m = e.object(lock).unwrap_or_else(|| "the lock".into());
                    format!(
                        "{} takes `{m}` only at {}, after these accesses: taking `{m}` before them (over {lines} as well) avoids the failure",
                        who(e, lock),
                        e.line(lock).unwrap_or_default(),
                    )
                }
                // Both sides are inside a lock made by hand of a test and
                // a set: the lock is what lets them in together.
                (None, None, None, None, None, Some(fix)) => fix,
                (None, None, _, _, _, _) if runs_a_statement_twice(e, a) => format!(
                    "these run {lines} more than once (turns of a loop, or repeated calls), so making {lines} atomic would not keep them together{NOTHING_BETWEEN}"
                ),
                (None, None, _, _, _, _) if turns_back(e, a) => format!(
                    "these go from {l1} back to {l2} (the next turn of a loop, or another call), so no block of lines made atomic keeps them together{NOTHING_BETWEEN}"
                ),
                // An atomic update, then a read of what it updated (to
                // test the result): the update's own return value is it.
                (None, None, _, _, _, _) if reread_after_update(e, a) => format!(
                    "the update is atomic, but reading {obj} again after it is a second step: testing the value the update returns ({}) instead of reading {obj} again avoids the failure",
                    returns(e, first),
                    obj = e.named(first, "it"),
                ),
                // Each access already atomic (C11 loads and stores): the
                // load and the store are two steps all the same.
                (None, None, _, _, _, _) if atomic_steps(e, a) => {
                    let obj = e.named(first, "it");
                    let step = match claimed(e, first, last) {
                        // A flag tested and then set to a constant: a
                        // claim, which a compare-and-swap makes at once.
                        Some(values) => claim_fix(&obj, values, &format!("{o1} at {l1}")),
                        None => format!("one atomic read-modify-write over {lines} (such as `atomic_fetch_add`, or a compare-and-swap loop) avoids the failure"),
                    };
                    format!("each access to {obj} is atomic, but the {o1} at {l1} and the {o2} at {l2} are two steps: {step}")
                }
                // A free between the region's ends that could come before
                // it just as well: the test before it is what must be
                // atomic with the free.
                (None, None, _, _, _, _) if checked_free.is_some() => checked_free.clone().unwrap_or_default(),
                (None, None, _, _, _, _) => {
                    format!("making {lines} atomic avoids the failure{}", intruder_update(e, a, first, last).unwrap_or_default())
                }
            },
            },
        };
        // (A region no block of lines keeps together, or one from a line of
        // one function to a line of another, on a location whose update the
        // failing schedule loses: the lost update is the fix.)
        let lost = || e.info_of(first).addr.and_then(|addr| crate::lost::sentence(e, addr));
        let two_functions = super::words::two_functions(e, first, last).is_some();
        if let Some(s) = (runs_a_statement_twice(e, a) || two_functions).then(lost).flatten() {
            // (Once, when two regions lead to the same lost update.)
            if !out.contains(&s) {
                out.push(s);
            }
            continue;
        }
        out.push(format!(
            "In the failing schedule {} between {}'s {span}; {fix}.",
            intruders_told(e, &told),
            who_over(e, &a.events)
        ));
    }
}

/// A region that ends in a use after free, with the free between its ends,
/// whose thread read a location before it that the freeing thread writes
/// before its free (a reference count, the pointer to the block): making the region
/// atomic would not keep the free out, which could come before the region
/// just as well (the pointer the region reads still points to the block:
/// session_freed_while_checked's `s->data++` after `s->refs > 0`). The test
/// and the uses after it must be atomic with the write and the free.
fn freed_after_check(e: &Explanation, a: &crate::Atomic, told: &[EventRef], lines: &str) -> Option<String> {
    let free = told.iter().copied().find(|r| e.info_of(*r).op == "free")?;
    let (first, last) = (a.events[0], *a.events.last()?);
    if !e.failure.message.starts_with("use after free") || last.0 != first.0 || e.threads[first.0] != e.failure.thread {
        return None;
    }
    let writes = |r: &EventRef| r.0 == free.0 && r.1 < free.1 && matches!(e.info_of(*r).op, "write" | "update");
    let written: Vec<(EventRef, u64)> =
        e.failing.iter().filter(|r| writes(r)).filter_map(|r| Some((*r, e.info_of(*r).addr?))).collect();
    let test = e.failing.iter().copied().find(|r| {
        r.0 == first.0
            && r.1 < first.1
            && e.info_of(*r).op == "read"
            && written.iter().any(|(_, x)| Some(*x) == e.info_of(*r).addr)
    })?;
    let write = written.iter().rev().find(|(_, x)| Some(*x) == e.info_of(test).addr)?.0;
    let block = e.named(free, "the block");
    let tested = e.named(test, "it");
    let those = if lines.contains(" lines ") { "those lines" } else { "that line" };
    Some(format!(
        "making {lines} atomic would not avoid it: the free could come before {those} just as well. {} reads {tested} at {} before it uses {block}, and {} writes {tested} at {} before it frees {block}: one lock held by {} from that read to its last use of the block, and by {} from its write to the free, avoids the failure",
        who(e, first),
        e.line(test).unwrap_or_default(),
        who(e, free),
        e.line(write).unwrap_or_default(),
        who(e, first),
        who(e, free),
    ))
}

/// The intruders of an atomic region the summary names: their accesses to
/// the region's objects (else any of their memory accesses, else all).
pub(super) fn told_intruders(e: &Explanation, a: &crate::Atomic) -> Vec<EventRef> {
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
pub(super) fn lock_fix(
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
        _ => match failed_tries(e, lock, events) {
            // Each of them tried the lock and went on when the try failed.
            Some(tries) => {
                let (go, its) = if n == 1 { ("goes", "its") } else { ("go", "their") };
                format!(
                    "{holder} holds `{m}` there, but {others} {go} on without it after {its} try to take `{m}` at {} failed (`{m}` was held): waiting for `{m}` there (`pthread_mutex_lock`), or not going on when the try fails, avoids the failure",
                    listed(&tries)
                )
            }
            None => format!("{holder} holds `{m}` there, but {others} {does} not take it: taking `{m}` {place} as well avoids the failure"),
        },
    }
}

/// When each of `events` comes after its thread's failed try of the mutex
/// `lock` locks (`pthread_mutex_trylock`, or a `pthread_mutex_timedlock`
/// that timed out), with no other operation on that mutex between (`if
/// (pthread_mutex_trylock(&m) == 0) locked = 1;` and the update made
/// either way): the tries' lines.
fn failed_tries(e: &Explanation, lock: EventRef, events: &[EventRef]) -> Option<Vec<String>> {
    let m = e.info_of(lock).addr?;
    let mut lines: Vec<String> = Vec::new();
    for r in events {
        let last = (0..r.1).rev().map(|k| (r.0, k)).find(|x| {
            let i = e.info_of(*x);
            i.addr == Some(m) && !i.touches_memory()
        })?;
        if e.info_of(last).op != "trylock (busy)" {
            return None;
        }
        let line = e.line(last)?;
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    (!lines.is_empty()).then_some(lines)
}

/// The `told` intruders (of one thread) with that thread's accesses next
/// to them, without the mutex `lock` locks, to objects its holder accesses
/// in that critical section: one section of the lock must cover them all
/// (a reset that clears `total` and `count` without the lock the recorder
/// updates both under: taking it at the write of `count` alone still lets
/// an update fall between the two writes).
pub(super) fn guarded_too(e: &Explanation, lock: EventRef, told: &[EventRef]) -> Vec<EventRef> {
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
pub(super) fn read_locked(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<EventRef> {
    if told.is_empty() || !either_writes(e, a, told) {
        return None;
    }
    let read_held = |t: usize, from: usize, to: usize| -> Vec<(u64, EventRef)> {
        held_over(e, t, from, to).into_iter().filter(|(_, l)| e.info_of(*l).op == "rdlock").collect()
    };
    held_by_all(a, told, &read_held, |_| true).map(|(_, lock)| lock)
}

/// What (a lock, a semaphore) the region's thread holds over the whole
/// region, by `held` (thread, from, to), that every `told` intruder holds
/// at its access too, among those `keep` keeps; with the region's event
/// that took it.
fn held_by_all(
    a: &crate::Atomic,
    told: &[EventRef],
    held: &dyn Fn(usize, usize, usize) -> Vec<(u64, EventRef)>,
    keep: impl Fn(u64) -> bool,
) -> Option<(u64, EventRef)> {
    let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
    held(first.0, first.1, last.1)
        .into_iter()
        .filter(|(x, _)| keep(*x))
        .find(|(x, _)| told.iter().all(|r| held(r.0, r.1, r.1).iter().any(|(y, _)| y == x)))
}

/// Whether the region or the intruders write (sharing a lock for reading,
/// or a semaphore that lets both in, matters only then).
fn either_writes(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> bool {
    let writes = |r: &EventRef| matches!(e.info_of(*r).op, "write" | "update");
    a.events.iter().any(writes) || told.iter().any(writes)
}

/// The semaphores thread `t` holds from its event `from` through `to`
/// as a lock: waited on before `from` and not posted by it again before
/// `to`; each with its wait event.
fn sems_held(e: &Explanation, t: usize, from: usize, to: usize) -> Vec<(u64, EventRef)> {
    let mut held: Vec<(u64, EventRef)> = Vec::new();
    for (k, i) in e.info[t].iter().enumerate().take(to) {
        match (i.op, i.addr) {
            ("sem_wait" | "sem_trywait (took one)", Some(s)) if k < from => held.push((s, (t, k))),
            ("sem_post", Some(s)) => {
                if let Some(at) = held.iter().rposition(|(x, _)| *x == s) {
                    held.remove(at);
                }
            }
            _ => {}
        }
    }
    held
}

/// A semaphore used as a lock that lets more than one thread in: it
/// starts at 2 or more, the region's thread holds it over the whole region
/// (waited on before it, posted back after it) and every `told` intruder
/// holds it at its access, when one side writes. (Not a semaphore that
/// counts items: a consumer does not post back what it waited for.) The
/// region's wait event and the semaphore.
fn sem_shared(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<(EventRef, u64)> {
    if told.is_empty() || !either_writes(e, a, told) {
        return None;
    }
    let (t, last) = (a.thread, a.events[a.events.len() - 1]);
    let posts_back = |s: u64| e.info[t][last.1..].iter().any(|i| i.op == "sem_post" && i.addr == Some(s));
    let lets_two_in = |s: u64| e.sem_initial.get(&s).is_some_and(|n| *n >= 2) && posts_back(s);
    held_by_all(a, told, &|t, from, to| sems_held(e, t, from, to), lets_two_in).map(|(s, wait)| (wait, s))
}

/// A mutex the region's thread holds over the whole region that none of
/// the `told` intruders holds at its access: its lock event.
pub(super) fn unguarded(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<EventRef> {
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
pub(super) fn unguarded_region(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<EventRef> {
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
pub(super) fn changing(e: &Explanation, told: &[EventRef]) -> Option<Vec<EventRef>> {
    let out: Vec<EventRef> =
        told.iter().copied().filter(|r| matches!(e.info_of(*r).op, "write" | "update" | "free")).collect();
    (!out.is_empty()).then_some(out)
}

/// The lock event of a mutex the region's thread takes inside the region
/// (held at its last event, not at its first) that every `told` intruder
/// that writes or frees holds at its access: the region's first access is
/// made before the lock it needs (`p = log_buf;` then `lock(&m)`).
pub(super) fn late_lock(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<EventRef> {
    let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
    let changing = changing(e, told)?;
    let at_first = held_over(e, first.0, first.1, first.1);
    held_over(e, last.0, last.1, last.1)
        .into_iter()
        .filter(|(m, _)| at_first.iter().all(|(x, _)| x != m))
        .find(|(m, _)| changing.iter().all(|r| held_over(e, r.0, r.1, r.1).iter().any(|(x, _)| x == m)))
        .map(|(_, lock)| lock)
}

/// The lock event of a mutex the region's thread takes right after the
/// region (its next lock operation; it holds none over the region) when
/// every `told` intruder that changes memory, holding none at its access,
/// takes the same mutex right after it too, at the same line, further down
/// the region's function: the lock is
/// taken too late on both sides (`at = len; len = at + n;` and only then
/// `lock(&m)` to copy into the buffer), and taken before the accesses it
/// keeps them apart.
pub(super) fn lock_after(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<EventRef> {
    let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
    let changing = changing(e, told)?;
    let free = |r: EventRef| held_over(e, r.0, r.1, r.1).is_empty();
    // The next lock operation of the thread after `r`, when it takes a mutex.
    let next_lock = |r: EventRef| {
        let (k, i) = e.info[r.0]
            .iter()
            .enumerate()
            .skip(r.1 + 1)
            .find(|(_, i)| matches!(i.op, "lock" | "rdlock" | "unlock" | "wait"))?;
        (i.op == "lock").then_some(((r.0, k), i.addr?))
    };
    if !free(first) || !free(last) {
        return None;
    }
    let (lock, m) = next_lock(last)?;
    // (Further down the same function: not the lock of a loop's next turn,
    // nor one a caller takes.)
    let (li, ri) = (e.info_of(lock), e.info_of(last));
    let below = match (&li.loc, &ri.loc) {
        (Some(l), Some(r)) => li.function == ri.function && l.file == r.file && l.line > r.line,
        _ => false,
    };
    if !below {
        return None;
    }
    let same = |r: EventRef| {
        free(r) && next_lock(r).is_some_and(|(l, x)| x == m && e.line(l).is_some() && e.line(l) == e.line(lock))
    };
    changing.iter().all(|r| same(*r)).then_some(lock)
}

/// The unlock event of a mutex the region's thread holds at its first
/// event and releases inside the region, which the `told` intruders that
/// change memory hold at their access, or follow in their thread an
/// intruder that holds it (a configuration reader that reads `current`
/// under the read lock and uses the entry after releasing it; the
/// reloader swaps `current` under the write lock and frees the old entry
/// after): held over the region, the lock keeps them all out of it. Not
/// when both hold it shared.
pub(super) fn early_unlock(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<EventRef> {
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
pub(super) fn released_between(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<(EventRef, EventRef)> {
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
    let (unlock, relock) = let_go(e, first.0, m, first.1..last.1)?;
    // In the order of the source (not a loop's write and its next turn's
    // read, the lock let go at the end of one turn and taken at the start
    // of the next).
    let line = |k: usize| e.info_of((first.0, k)).loc.as_ref().map(|l| (l.file.clone(), l.line));
    let lines: Option<Vec<_>> = [first.1, unlock, relock, last.1].into_iter().map(line).collect();
    let lines = lines?;
    let in_order = lines.windows(2).all(|w| w[0].0 == w[1].0 && w[0].1 < w[1].1);
    in_order.then_some(((first.0, unlock), (first.0, relock)))
}

/// Thread `t`'s first unlock of mutex `m` among its events `within`, and
/// its next lock of `m` there: the mutex let go and taken again.
pub(super) fn let_go(e: &Explanation, t: usize, m: u64, within: std::ops::Range<usize>) -> Option<(usize, usize)> {
    let is = |k: usize, op: &str| e.info_of((t, k)).op == op && e.info_of((t, k)).addr == Some(m);
    let unlock = within.clone().find(|k| is(*k, "unlock"))?;
    let relock = (unlock..within.end).find(|k| is(*k, "lock"))?;
    Some((unlock, relock))
}

/// What the other threads do inside the region (its told intruders),
/// thread by thread: `` `deposit` (thread 0.1) reads `balance` at bank.c:13
/// and writes `balance` at bank.c:14 ``.
pub(super) fn intruders_told(e: &Explanation, evs: &[EventRef]) -> String {
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

/// The end of a region's sentence that gives no block of lines to make
/// atomic: the alternate just runs them with nothing between.
pub(super) const NOTHING_BETWEEN: &str = "; the alternate avoids the failure by running them with nothing between";

/// The region runs one access of one statement more than once (a loop's
/// turns, or a function called twice): no atomic statement spans it. So
/// does a read after a write of the same object at the same place (`n++`
/// reads before it writes: the read is the statement's next run).
pub(super) fn runs_a_statement_twice(e: &Explanation, a: &crate::dsp::Atomic) -> bool {
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
pub(super) fn turns_back(e: &Explanation, a: &crate::dsp::Atomic) -> bool {
    a.events.windows(2).any(|w| {
        let (x, y) = (e.info_of(w[0]), e.info_of(w[1]));
        match (x.loc.as_ref(), y.loc.as_ref()) {
            (Some(p), Some(q)) => x.function == y.function && p.file == q.file && q.line < p.line,
            _ => false,
        }
    })
}

/// The region's accesses to its location are all C11 atomic loads and
/// stores, at least one of each.
fn atomic_steps(e: &Explanation, a: &crate::dsp::Atomic) -> bool {
    let at = e.info_of(a.events[0]).addr;
    let mut on = a.events.iter().map(|r| e.info_of(*r)).filter(|i| i.addr.is_some() && i.addr == at);
    let all = on.clone().all(|i| i.atomic && matches!(i.op, "read" | "write"));
    all && on.clone().any(|i| i.op == "read") && on.any(|i| i.op == "write")
}

/// When the atomic read `test` reads a value that its thread's atomic
/// write `set` of the same flag overwrites with a constant of the program
/// (a flag tested, then set: `if (!atomic_load(&f)) { …; atomic_store(&f,
/// 1); }`): the value read and the one written.
pub(super) fn claimed(e: &Explanation, test: EventRef, set: EventRef) -> Option<(&str, &str)> {
    let (t, s) = (e.info_of(test), e.info_of(set));
    let (free, taken) = (e.value(test, Run::Failing)?, e.value(set, Run::Failing)?);
    let claim = t.op == "read" && s.op == "write" && t.atomic && s.atomic && s.constant && t.addr == s.addr;
    (claim && free != taken).then_some((free, taken))
}

/// The fix for an atomic flag tested for `free` and then set to `taken`
/// (`at`: the test): the flag claimed with one compare-and-swap.
pub(super) fn claim_fix(obj: &str, (free, taken): (&str, &str), at: &str) -> String {
    format!(
        "a compare-and-swap of {obj} from {free} to {taken} (`atomic_compare_exchange_strong`) in place of the {at} lets only one thread through, which avoids the failure (for a one-time initialisation, `pthread_once` does it all)"
    )
}

/// The region is an atomic update of a location and, after it, its
/// thread's read of the location (a reference count decremented and then
/// read again to see whether it reached 0), with no write of its own in
/// between. (The read may be the failure: a read of the location after
/// another thread freed it, which the failure's message names.)
fn reread_after_update(e: &Explanation, a: &crate::dsp::Atomic) -> bool {
    let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
    let (f, l) = (e.info_of(first), e.info_of(last));
    let on = |r: &EventRef| e.info_of(*r).addr.is_some() && e.info_of(*r).addr == f.addr;
    let read_freed = || {
        let obj = e.object(first);
        l.op == "faulting access"
            && obj.is_some_and(|o| {
                e.failure.message.starts_with("use after free: read of ")
                    && e.failure.message.contains(&format!(" in {o} ("))
            })
    };
    f.op == "update"
        && ((l.op == "read" && on(&last)) || read_freed())
        && a.events[1..a.events.len() - 1].iter().filter(|r| on(r)).all(|r| e.info_of(*r).op == "read")
}

/// What an update returns, by the way its values went (`0→1`: an add).
fn returns(e: &Explanation, update: EventRef) -> &'static str {
    let v = e.value(update, Run::Failing).and_then(|v| v.split_once('→'));
    match v.and_then(|(a, b)| Some((crate::describe::number(a)?, crate::describe::number(b)?))) {
        Some((a, b)) if b > a => "`atomic_fetch_add` returns the value before its add",
        Some((a, b)) if b < a => "`atomic_fetch_sub` returns the value before its subtraction",
        _ => "an atomic read-modify-write returns the value before it",
    }
}

/// `; \`deposit\` (thread 0.1) reads and writes \`acct.balance\` too
/// (bank.c lines 19–20), which must be atomic as well for every order`:
/// when an intruder's own read and later write of the region's location
/// (its own read-modify-write, a lost update's other side) lie on other
/// lines than the region's, in another function. Making the region atomic avoids the failure in
/// the alternate's order; the other side's update can still straddle it.
fn intruder_update(e: &Explanation, a: &crate::dsp::Atomic, first: EventRef, last: EventRef) -> Option<String> {
    let addr = e.info_of(first).addr?;
    let reads = |r: &EventRef| e.info_of(*r).op == "read" && e.info_of(*r).addr == Some(addr);
    let r = a.intruders.iter().copied().find(reads)?;
    let w = a
        .intruders
        .iter()
        .copied()
        .find(|w| w.0 == r.0 && w.1 > r.1 && e.info_of(*w).op == "write" && e.info_of(*w).addr == Some(addr))?;
    let line = |x: EventRef| e.info_of(x).loc.as_ref().map(|l| (l.file.clone(), l.line));
    let (lo, hi) = (line(first)?, line(last)?);
    let inside = |x: EventRef| line(x).is_some_and(|(f, l)| f == lo.0 && l >= lo.1.min(hi.1) && l <= lo.1.max(hi.1));
    // (Nor when it is the region's own code run by another thread: the
    // region's lines are then the fix for both.)
    let function = |x: EventRef| e.info_of(x).function.clone();
    if (inside(r) && inside(w)) || (function(r) == function(first) && function(w) == function(first)) {
        return None;
    }
    Some(format!(
        "; {} reads and writes {} too ({}), which must be atomic as well for every order",
        who(e, r),
        e.named(r, "it"),
        line_range(e, r, w),
    ))
}
