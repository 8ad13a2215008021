//! A lock made by hand of a test and a set (`while (lock != 0) ; lock = 1;`):
//! two threads can both find it free before either sets it, and both are
//! then inside at once. The race between what they do inside is what the
//! failure shows; the lock taken in one step (an exchange or a
//! compare-and-swap) is the fix, not the one statement the race is on.

use super::*;

/// A thread's turn in a hand-made lock: its test (a read of the flag
/// that found it free, on which the thread branched), its set (the
/// thread's next access of the flag: a write of a constant, another
/// value) and its release (its next write of the flag with the free
/// value, if the run got there).
#[derive(Clone, Copy)]
struct Turn {
    test: EventRef,
    set: EventRef,
    release: Option<EventRef>,
    flag: u64,
}

impl Turn {
    /// Whether the thread is in the lock (from its test to its release)
    /// somewhere between its events `from` and `to`.
    fn spans(&self, from: usize, to: usize) -> bool {
        self.test.1 <= to && self.release.is_none_or(|r| r.1 >= from)
    }
}

/// Thread `t`'s turns in hand-made locks.
fn turns(e: &Explanation, t: usize) -> Vec<Turn> {
    let n = e.info[t].len();
    let at = |k: usize| (t, k);
    let mut out = Vec::new();
    for k in 0..n {
        let i = &e.info[t][k];
        let Some(flag) = i.addr.filter(|_| i.op == "write" && i.constant) else { continue };
        let on_flag = |j: &usize| e.info[t][*j].addr == Some(flag);
        let Some(test) = (0..k).rev().find(on_flag).map(at) else { continue };
        let found = e.value(test, Run::Failing);
        if e.info_of(test).op != "read" || found.is_none() || found == e.value(at(k), Run::Failing) {
            continue;
        }
        if !went_on_by(e, test, at(k)) {
            continue;
        }
        let release = (k + 1..n)
            .filter(on_flag)
            .find(|j| e.info[t][*j].op == "write" || e.info[t][*j].op == "update")
            .map(at)
            .filter(|r| e.info_of(*r).op == "write" && e.value(*r, Run::Failing) == found);
        out.push(Turn { test, set: at(k), release, flag });
    }
    out
}

/// The fix when the region's thread and every `told` intruder's thread
/// are in one hand-made lock at once (over the region, and at the
/// intruder's access), each having found the flag free before the
/// other's set: the lock's test and set made one step avoids it.
pub(super) fn hand_lock(e: &Explanation, a: &crate::Atomic, told: &[EventRef]) -> Option<String> {
    let (first, last) = (a.events[0], a.events[a.events.len() - 1]);
    // (An intruder that only reads is in all the same.)
    if told.is_empty() || told.iter().any(|c| c.0 == first.0) {
        return None;
    }
    let value = |r: EventRef| e.value(r, Run::Failing);
    let before = |x: EventRef, y: EventRef| e.place(x).zip(e.place(y)).is_some_and(|(p, q)| p < q);
    let crossing = |m: &Turn, o: &Turn| {
        o.flag == m.flag
            && value(o.set) == value(m.set)
            && value(o.test) == value(m.test)
            && before(o.test, m.set)
            && before(m.test, o.set)
    };
    // (Each intruder's thread's turns, found once.)
    let theirs: Vec<(EventRef, Vec<Turn>)> = told.iter().map(|c| (*c, turns(e, c.0))).collect();
    let (mine, others) = turns(e, first.0).into_iter().filter(|m| m.spans(first.1, last.1)).find_map(|m| {
        let others: Vec<Turn> = theirs
            .iter()
            .filter_map(|(c, ts)| ts.iter().find(|o| o.spans(c.1, c.1) && crossing(&m, o)).copied())
            .collect();
        // (A flag set once for good is no lock: a `once` flag. One the
        // failing run sets and then clears, in these turns or in earlier
        // ones, is: a pool's slot checked in by a client's first round.)
        let cleared = m.release.is_some() || others.iter().any(|o| o.release.is_some()) || cleared_after_set(e, &m);
        let lock = others.len() == told.len() && cleared;
        lock.then_some((m, others))
    })?;
    let flag = e.named(mine.set, "the flag");
    let (free, taken) = (value(mine.test)?, value(mine.set)?);
    // Each thread once, named by the function of its test: the region and
    // an intruder's access may be in the caller (`checkout` tests and sets
    // the flag, `client` then uses what it claimed).
    let mut threads: Vec<String> = vec![who(e, mine.test)];
    let mut seen = vec![mine.test.0];
    for o in &others {
        if !seen.contains(&o.test.0) {
            seen.push(o.test.0);
            threads.push(who(e, o.test));
        }
    }
    // A test at a line that tests other flags too is a scan (a pool's
    // slots), which moves on when a flag is taken instead of waiting.
    let scans = e.failing.iter().any(|r| {
        let i = e.info_of(*r);
        i.op == "read" && i.addr.is_some_and(|a| a != mine.flag) && e.line(*r) == e.line(mine.test)
    });
    let until = match scans {
        true => format!(", which claims it when it returns {free} (else the scan goes on)"),
        false => format!(" until it returns {free}"),
    };
    let mut exchange = match e.object(mine.set) {
        Some(o) => format!("`atomic_exchange(&{o}, {taken})`{until}"),
        None => format!("an atomic exchange of {taken}{until}"),
    };
    // (A plain flag: the exchange needs an atomic one.)
    if !e.info_of(mine.set).atomic {
        exchange = format!("{flag} made an `atomic_int` and {exchange}");
    }
    let (all, each_found) = match threads.len() {
        2 => ("both", format!("both found {free} before either set {taken}")),
        _ => ("all", format!("each found {free} before the others set {taken}")),
    };
    Some(format!(
        "{} {all} hold the lock they make of {flag}: each tests it for {free} ({}) and then sets it to {taken} ({}), in two steps, so {each_found}; testing and setting {flag} in one step ({exchange}, or a compare-and-swap from {free} to {taken}) avoids the failure",
        join_and(&threads),
        e.line(mine.test).unwrap_or_default(),
        e.line(mine.set).unwrap_or_default(),
    ))
}

/// Whether the failing schedule writes `m`'s free value to its flag after
/// some write of the taken value to it (by any thread).
fn cleared_after_set(e: &Explanation, m: &Turn) -> bool {
    let (free, taken) = (e.value(m.test, Run::Failing), e.value(m.set, Run::Failing));
    let writes = |r: &EventRef, v: &Option<&str>| {
        let i = e.info_of(*r);
        i.op == "write" && i.addr == Some(m.flag) && e.value(*r, Run::Failing) == *v
    };
    let Some(first_set) = e.failing.iter().position(|r| writes(r, &taken)) else { return false };
    e.failing[first_set..].iter().any(|r| writes(r, &free))
}
