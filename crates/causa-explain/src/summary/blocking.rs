//! Failures of blocking and of memory: deadlocks, lost signals, stolen
//! wake-ups, short barriers, starved threads, frames and blocks that ended
//! before their use, and stores still buffered under TSO/PSO.

use super::*;

/// An access to a dead stack frame: whose local it was, and when it died
/// (the interpreter's message names the object: `… in value (local of
/// publish in thread 0) after its function returned`).
pub(super) fn dead_frame_sentence(e: &Explanation) -> Option<String> {
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
pub(super) fn freed_first_sentence(e: &Explanation) -> Option<String> {
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
    let line = e.failure_line().or_else(|| e.line(marker)).unwrap_or_default();
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
    let pos = |r: EventRef| e.place(r);
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
pub(super) fn stolen_wakeup(e: &Explanation) -> Option<String> {
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

/// How the replayed alternate ended, when not cleanly (a failure moved to
/// another thread is told first instead: [`moved_failure`]).
pub(super) fn replay_note(e: &Explanation) -> Option<String> {
    if moved_to(e).is_some() {
        None
    } else if let Some(d) = deadlocks_too(e) {
        Some(d)
    } else if !e.alternate_avoids_failure() {
        Some("(Replayed, the alternate schedule did not avoid the failure: treat this explanation with care.)".into())
    } else if !e.alternate_passes() {
        Some("(Replayed, the alternate schedule avoids this failure; the program then fails another way.)".into())
    } else {
        None
    }
}

/// "(Replayed, the alternate schedule deadlocks too …)" when a deadlock's
/// replayed alternate deadlocks in another thread: at the same line, the
/// order only chose which thread is left waiting (a lock leaked on one
/// path: whichever thread comes second blocks).
fn deadlocks_too(e: &Explanation) -> Option<String> {
    let Some(causa_interp::Outcome::Bug(f)) = &e.alternate_outcome else { return None };
    let deadlock = causa_core::BugKind::Deadlock;
    if f.kind != deadlock || e.failure.kind != deadlock || f.thread == e.failure.thread {
        return None;
    }
    let at = crate::describe::finding_line(f).map(|l| format!(" at {l}"));
    let same = crate::source_line(f) == crate::source_line(&e.failure);
    Some(format!(
        "(Replayed, the alternate schedule deadlocks too, with thread {} blocked{}{}.)",
        f.thread,
        at.unwrap_or_default(),
        if same { ": the order of the threads only chooses which one is left waiting" } else { "" }
    ))
}

/// The thread whose failure the replayed alternate ends in, when it is the
/// failure itself (its kind, at its source line) in another thread. (Not
/// a deadlock: the waits that no order avoids are told as such,
/// `exhausted.rs`.)
fn moved_to(e: &Explanation) -> Option<usize> {
    let Some(causa_interp::Outcome::Bug(f)) = &e.alternate_outcome else { return None };
    if f.kind == causa_core::BugKind::Deadlock {
        return None;
    }
    let line = crate::source_line;
    let moved = f.kind == e.failure.kind && line(f) == line(&e.failure) && f.thread != e.failure.thread;
    moved.then(|| e.threads.iter().position(|t| *t == f.thread)).flatten()
}

/// "The alternate schedule shown does not avoid this failure but moves it:
/// …" when its replay fails the same way at the same line in another
/// thread (a semaphore that lets one thread too many at a two-slot array:
/// whichever comes last writes past it). What differs is then no
/// explanation of the failure: said first.
pub(super) fn moved_failure(e: &Explanation) -> Option<String> {
    let t = moved_to(e)?;
    let thread = started_as(e, t);
    let at = e.failure_line().map(|l| format!(" at {l}")).unwrap_or_default();
    let orders = match e.rejected {
        0 => "No other order of the failing run's events was found that avoids it".to_string(),
        r => format!("None of the {} orders of the failing run's events tried avoids it", r + 1),
    };
    let tried = match e.flips_tried {
        0 => orders,
        1 => format!("{orders}, nor does taking the other way at the one branch tried"),
        b => format!("{orders}, nor does taking the other way at any of the {b} branches tried"),
    };
    Some(format!(
        "The alternate schedule shown does not avoid this failure but moves it: replayed, {thread} fails the same way{at} instead. {tried}: the failure may happen in every order of the threads, and the fix is then in what the threads do rather than in their order. What differs between the two schedules:"
    ))
}

/// A deadlock of a thread at a lock it holds itself: no order avoids it.
pub(super) fn relock_sentence(e: &Explanation) -> Option<String> {
    // (The failing thread's, when it is one of several waiting for
    // themselves: the one the report's header names.)
    let own = |w: &&crate::deadlock::Waiting| w.held_by.0 == w.thread;
    let failing = |w: &&crate::deadlock::Waiting| e.threads.get(w.thread) == Some(&e.failure.thread);
    let w = e.deadlock.iter().filter(own).find(failing).or_else(|| e.deadlock.iter().find(own))?;
    let obj = e.named(w.waits, "a mutex");
    // The same lock statement run again (the next call, or the next turn):
    // not a nested lock, a path out of the critical section that skipped
    // the unlock.
    if e.info_of(w.held_by).loc.is_some() && e.info_of(w.held_by).loc == e.info_of(w.waits).loc {
        return Some(format!(
            "Deadlock: {} locks {obj} at {} while it still holds it from its previous run of that line{}: a path out of the critical section skipped the unlock, and the thread waits for itself, in every order of the threads. Releasing {obj} on every path out (before each return) avoids the deadlock.",
            who(e, w.waits),
            e.line(w.waits).unwrap_or_default(),
            last_inside(e, w.held_by, w.waits.1).unwrap_or_default(),
        ));
    }
    Some(format!(
        "Deadlock: {} locks {obj} at {} while it already holds it (locked at {}), and a default mutex cannot be taken twice: the thread waits for itself, in every order of the threads. Not locking it again while holding it (or a recursive mutex) avoids the deadlock.",
        who(e, w.waits),
        e.line(w.waits).unwrap_or_default(),
        e.line(w.held_by).unwrap_or_default()
    ))
}

/// A deadlock: who holds what and waits for what, and the order of the
/// acquisitions in the alternate.
pub(super) fn deadlock_sentences(e: &Explanation) -> Vec<String> {
    if e.deadlock.is_empty() {
        return Vec::new();
    }
    let obj = |r: EventRef| e.named(r, "a lock");
    let at = |r: EventRef| e.line(r).unwrap_or_default();
    let parts: Vec<String> = e
        .deadlock
        .iter()
        .map(|w| {
            let joining = w
                .holder_joins
                .map(|j| format!(" while it waits at {} for {} to finish", at(j), who(e, w.waits)))
                .unwrap_or_default();
            // (A thread waiting for itself: a default mutex taken twice.)
            let holder = if w.held_by.0 == w.thread { "it already".into() } else { who(e, w.held_by) };
            format!(
                "{} waits for {} at {}, which {holder} holds (locked at {}){joining}",
                who(e, w.waits),
                obj(w.waits),
                at(w.waits),
                at(w.held_by)
            )
        })
        .collect();
    let mut out = vec![format!("Deadlock: {}.", parts.join("; "))];
    out.extend(upgrade_sentences(e));
    // A lock its holder never releases: its thread ended holding it (a
    // return out of the critical section that skips the unlock): releasing
    // it on every path out is the fix, not an order of the locks.
    if let Some((w, end)) =
        e.deadlock.iter().filter(|w| !e.unlocked_later(w.held_by)).find_map(|w| Some((w, e.end_of(w.held_by.0)?)))
    {
        let inside = last_inside(e, w.held_by, end.1).unwrap_or_default();
        out.push(format!(
            "{} takes {} at {} and its thread ends at {} without releasing it{inside}: a path out of the critical section skips the unlock. Releasing {} on every path out (before each return) avoids the deadlock.",
            who(e, w.held_by),
            obj(w.held_by),
            at(w.held_by),
            at(end),
            obj(w.held_by),
        ));
        return out;
    }
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

/// `` (its last event in `spend`: the read of `budget` at l.c:16)``: the
/// last event of the thread that took `lock` before its event `before`, in
/// the function that took it.
fn last_inside(e: &Explanation, lock: EventRef, before: usize) -> Option<String> {
    let function = e.info_of(lock).function.as_ref()?;
    let last =
        (lock.1 + 1..before).rev().map(|k| (lock.0, k)).find(|r| e.info_of(*r).function.as_ref() == Some(function))?;
    Some(format!(" (its last event in `{function}`: the {})", event_phrase(e, last)))
}

/// A deadlocked thread that asks for the write lock of a read-write lock
/// it holds a read lock of: it waits for itself (once per thread).
pub(super) fn upgrade_sentences(e: &Explanation) -> Vec<String> {
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
pub(super) fn lost_signal_sentences(e: &Explanation) -> Vec<String> {
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
        if let Some(stale) = checked_before_lock(e, l) {
            if after {
                out.push("In the alternate the signal comes after the wait.".into());
            }
            out.push(stale);
        } else if let (true, Some(m), Some(also)) = (after, unlocked_signal(e, l), other_waiters(e, l)) {
            // (With other waiters, the lock alone leaves one of them
            // waiting: one signal wakes one.)
            out.push(format!(
                "In the alternate the signal comes after the wait. {} keeps the signal from being lost there; and since {also}, a signal wakes only one of them: waking every waiter (`pthread_cond_broadcast`) at {} as well avoids the deadlock in every order.",
                hold_to_signal(&m),
                join_and(&unique(l.signals.iter().filter_map(|s| e.line(*s))))
            ));
        } else if after {
            out.push(match unlocked_signal(e, l) {
                // Checking in a loop does not help when the predicate and
                // the signal can fall between the waiter's check and its
                // wait: the signaller must hold the waiter's mutex.
                Some(m) => format!(
                    "In the alternate the signal comes after the wait. {} (the waiter checking it in a loop, `while (!predicate) pthread_cond_wait(…)`) avoids the deadlock in every order.",
                    hold_to_signal(&m)
                ),
                None => "In the alternate the signal comes after the wait. Waiting in a loop on a predicate the signaller sets (`while (!predicate) pthread_cond_wait(…)`) avoids the deadlock in every order.".into(),
            });
        } else if let Some(m) = unlocked_signal(e, l) {
            // (The alternate reads the predicate after the change instead.)
            out.push(format!("{} keeps the signal from being lost there.", hold_to_signal(&m)));
        }
    }
    out
}

/// "The signaller does not hold `m`, … while holding `m`": the start of
/// every sentence that advises signalling under the waiter's mutex `m`.
fn hold_to_signal(m: &str) -> String {
    format!(
        "The signaller does not hold {m}, which the waiter holds from its check of the predicate to its wait, so the change and the signal can fall in between: setting the predicate and signalling while holding {m}"
    )
}

/// The waiter of `l` tested the predicate before taking the mutex it
/// waits with, and a signaller set the predicate (and signalled) between
/// that test and the wait: the waiter went on to a wait its own test no
/// longer called for. The fix is the test under the mutex, in a loop
/// around the wait.
fn checked_before_lock(e: &Explanation, l: &crate::deadlock::LostSignal) -> Option<String> {
    let (t, k) = l.wait;
    let (_, lock) = held_over(e, t, k, k).into_iter().next()?;
    let place = |q: EventRef| e.place(q);
    // The waiter's tests before its lock on which it went on to the wait.
    for test in tests_before(e, (t, lock.1), l.wait) {
        let (test, flag, seen) = test?;
        // A signaller's change of the flag before its signal, after the test.
        let set = l.signals.iter().find_map(|s| {
            (0..s.1)
                .rev()
                .map(|j| (s.0, j))
                .find(|x| changes_flag(e, *x, (flag, seen)) && place(test).zip(place(*x)).is_some_and(|(a, b)| a < b))
        });
        let Some(set) = set else { continue };
        let signal = l.signals.iter().find(|s| s.0 == set.0 && s.1 > set.1)?;
        // (A signal after the lock came while the waiter held it, between
        // its check under the lock and its wait: that test was not stale.)
        if place(*signal).zip(place(lock)).is_some_and(|(s, l)| s > l) {
            return None;
        }
        let mx = e.named(lock, "the mutex");
        let obj = e.named(test, "the predicate");
        return Some(format!(
            "{} tests {obj} at {} before it takes {mx} at {} and sees {seen}; {} sets {obj} at {} and signals at {} in between, so the wait at {} follows a test that no longer holds. Testing {obj} after taking {mx}, in a loop around the wait (`while (…) pthread_cond_wait(…)`), avoids the deadlock in every order.",
            who(e, test),
            e.line(test).unwrap_or_default(),
            e.line(lock).unwrap_or_default(),
            who(e, set),
            e.line(set).unwrap_or_default(),
            e.line(*signal).unwrap_or_default(),
            e.line(l.wait).unwrap_or_default(),
        ));
    }
    None
}

/// "`worker` (thread 0.2) may wait on `qc` too": the other threads that
/// wait on the condition variable of `l`'s wait in the failing schedule,
/// or run the waiter's start function (in another order they may wait
/// there too), when its lost signals are signals, not broadcasts (None:
/// no other).
fn other_waiters(e: &Explanation, l: &crate::deadlock::LostSignal) -> Option<String> {
    let cond = e.info_of(l.wait).addr?;
    if l.signals.iter().any(|s| e.info_of(*s).op == "broadcast") {
        return None;
    }
    let t = l.wait.0;
    let waits =
        |u: usize| e.failing.iter().any(|r| r.0 == u && e.info_of(*r).op == "wait" && e.info_of(*r).addr == Some(cond));
    let start = e.starts.get(t).cloned().flatten();
    let others: Vec<usize> = (0..e.threads.len())
        .filter(|u| *u != t && (waits(*u) || (start.is_some() && e.starts.get(*u).cloned().flatten() == start)))
        .collect();
    let cv = e.named(l.wait, "the condition variable");
    match others[..] {
        [] => None,
        [u] => Some(format!("{} may wait on {cv} too", crate::summary::words::started_as(e, u))),
        _ => Some(format!("{} other threads may wait on {cv} too", others.len())),
    }
}

/// The mutex the waiter of `l` holds at its wait, named (`` `m` ``), when
/// none of the lost signals was sent holding it.
pub(super) fn unlocked_signal(e: &Explanation, l: &crate::deadlock::LostSignal) -> Option<String> {
    let (m, lock) = held_over(e, l.wait.0, l.wait.1, l.wait.1).into_iter().next()?;
    let holds = |s: &EventRef| held_over(e, s.0, s.1, s.1).iter().any(|(x, _)| *x == m);
    if l.signals.is_empty() || l.signals.iter().any(holds) {
        return None;
    }
    Some(e.named(lock, "its mutex"))
}

/// Under TSO/PSO: a read of the failing schedule that missed another
/// thread's store although that thread had already gone past it (a later
/// event of the thread comes before the read), because the store was still
/// in its store buffer (it becomes visible after the read, or never). Such
/// a read among the DSP's or the root cause's events is told first: it is
/// what sequential consistency would not allow. A fence after the store
/// makes it visible before its thread goes on. Returns the sentence with
/// the read and the buffered store it tells.
pub(super) fn store_buffered(e: &Explanation) -> Option<(String, EventRef, EventRef)> {
    if !e.memory_model.buffers_stores() {
        return None;
    }
    let matters = |r: &EventRef| e.dsp.events.contains(r) || e.root_cause.contains(r);
    let pos = |r: EventRef| e.place(r);
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
    let told = format!(
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
    );
    Some((told, read, store))
}

/// `Deadlock: the barrier `start` waits for 3 threads, but only 2 arrive …`.
pub(super) fn short_barrier_sentences(e: &Explanation) -> Vec<String> {
    e.short_barriers
        .iter()
        .map(|b| {
            let name = b.arrivals.first().and_then(|r| e.object(*r)).map_or("a barrier".into(), |o| format!("the barrier `{o}`"));
            let who: Vec<String> = b.arrivals.iter().map(|r| format!("{} at {}", who(e, *r), e.line(*r).unwrap_or_default())).collect();
            let n = b.arrivals.len();
            if n > b.count as usize {
                let left = b.left_waiting();
                return format!(
                    "Deadlock: {name} lets threads through {} at a time, but {n} threads arrive at it ({}), so the last {} wait{} forever in every order. Initialising it for the number of threads that wait ({n}), or having {} more wait at it, avoids the deadlock.",
                    b.count,
                    join_and(&who),
                    if left == 1 { "one".to_string() } else { left.to_string() },
                    if left == 1 { "s" } else { "" },
                    b.count as usize - left
                );
            }
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

/// " Every post of the failing run is of a semaphore its own thread waits
/// on: `producer` (thread 0.1) posts `empty` at …:14 (and waits on it at
/// …:12)." (Empty when there are none: [`crate::deadlock::Starved::own_posts`].)
fn own_posts_sentence(e: &Explanation, own: &[(EventRef, EventRef)]) -> String {
    if own.is_empty() {
        return String::new();
    }
    // (One thread's posts of one semaphore at one line, told once.)
    let told: Vec<String> = own
        .iter()
        .map(|(p, w)| {
            let sem = e.named(*p, "a semaphore");
            format!(
                "{} posts {sem} at {} (and waits on it at {})",
                who(e, *p),
                e.line(*p).unwrap_or_default(),
                e.line(*w).unwrap_or_default()
            )
        })
        .collect();
    format!(
        " Every post of the failing run is of a semaphore its own thread waits on: {}.",
        join_and(&unique(told.iter().cloned()))
    )
}

/// A wait at a semaphore whose units were all taken: how many were posted
/// and taken, where.
pub(super) fn starved_sentences(e: &Explanation) -> Vec<String> {
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
            let own = own_posts_sentence(e, &s.own_posts);
            format!(
                "Deadlock: {} waits at {} on {sem}, which has no unit left: it {posted}{taken}. Each wait takes a unit, so this one needs a post the run never makes.{own}",
                who(e, s.wait),
                e.line(s.wait).unwrap_or_default()
            )
        })
        .collect()
}
