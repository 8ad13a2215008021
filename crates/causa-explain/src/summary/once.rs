//! An initialisation run twice: `if (!ready) { init(); ready = 1; }` from
//! two threads, where the second tests the flag before the first sets it.
//! The overwrite the failure reads is the second run's, and its cause is
//! the test and the set of the flag being two steps.

use super::*;

/// When the write `wf` that overwrites `wa` (another thread's) runs in a
/// block its thread entered on a test of a flag that `wa`'s thread also
/// tested at the same line, found the same, ran the same block (a write
/// at `wf`'s line) and then set — after `wf`'s thread had tested it: the
/// sentence that both threads ran the block, and the fix (the test and
/// the set as one step).
pub(super) fn run_twice(e: &Explanation, wf: EventRef, wa: EventRef) -> Option<(String, String)> {
    let (b, a) = (wf.0, wa.0);
    let pos = |r: EventRef| e.place(r);
    let at_line = |r: EventRef, like: EventRef| e.line(r).is_some() && e.line(r) == e.line(like);
    let wf_line = e.line(wf)?;
    // The nearest flag `wf`'s thread tested before it.
    let (rb, flag) = (0..wf.1).rev().map(|k| (b, k)).find_map(|r| {
        let i = e.info_of(r);
        let x = i.addr.filter(|x| i.op == "read" && *x != 0 && Some(*x) != e.info_of(wf).addr)?;
        went_on_by(e, r, wf).then_some((r, x))
    })?;
    let found = e.value(rb, Run::Failing)?;
    // The other thread's set of the flag after that test, and its own test
    // before, at the same line, which found the same.
    let mine = |k: usize| (a, k);
    let set = (0..e.info[a].len()).map(mine).find(|r| {
        let i = e.info_of(*r);
        matches!(i.op, "write" | "update")
            && i.addr == Some(flag)
            && pos(*r).zip(pos(rb)).is_some_and(|(s, t)| s > t)
            && e.value(*r, Run::Failing).is_some_and(|v| v != found)
    })?;
    let ra = (0..set.1).rev().map(mine).find(|r| {
        e.info_of(*r).op == "read" && e.info_of(*r).addr == Some(flag) && at_line(*r, rb) && went_on_by(e, *r, set)
    })?;
    if e.value(ra, Run::Failing) != Some(found) {
        return None;
    }
    // It ran the block too: a write at `wf`'s line between its test and its set.
    (ra.1 + 1..set.1).map(mine).find(|r| e.info_of(*r).op == "write" && at_line(*r, wf))?;
    let obj = e.named(rb, "the flag");
    let block = match &e.info_of(wf).function {
        Some(f) if e.info_of(rb).function.as_ref() != Some(f) => format!("`{f}` ({wf_line})"),
        _ => wf_line,
    };
    let both = match (&e.info_of(ra).function, &e.info_of(rb).function) {
        (Some(f), Some(g)) if f == g => format!("`{f}` threads ({} and {})", e.threads[a.min(b)], e.threads[a.max(b)]),
        _ if a < b => format!("{} and {}", who(e, ra), who(e, rb)),
        _ => format!("{} and {}", who(e, rb), who(e, ra)),
    };
    let said = format!(
        "Both {both} test {obj} at {} and find {found}: thread {} tests it before thread {} sets it at {}, so both run {block}.",
        e.line(rb).unwrap_or_default(),
        e.threads[b],
        e.threads[a],
        e.line(set).unwrap_or_default(),
    );
    // (What the DSP leaves out: the tests' data flows, the same in both.)
    let unshown = [ra, rb].iter().filter(|r| !e.dsp.events.contains(r)).count();
    let note = match unshown {
        0 => "",
        1 => " (Both schedules have one of the tests' data flows: it is not among the events shown below.)",
        _ => " (Both schedules have the tests' data flows: they are not among the events shown below.)",
    };
    let fix = format!(
        "Testing and setting {obj} as one step around the initialisation (`pthread_once`, or one lock held over {}) makes it run once; the alternate schedule still runs it twice, only before thread {}'s write.{note}",
        line_range(e, ra, set),
        e.threads[a],
    );
    Some((said, fix))
}
