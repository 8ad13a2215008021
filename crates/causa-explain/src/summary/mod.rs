//! The explanation in one paragraph of plain language: which events of
//! which threads interleave badly, which lines to make atomic, and what the
//! failing check reads in each schedule.

use crate::{Explanation, Flow, Run};
use causa_symbolic::{EventRef, Mode};

mod aba;
mod blocking;
mod claim;
mod computed;
mod flip;
mod flows;
mod hand_lock;
mod once;
mod order;
mod regions;
mod seqlock;
mod statics;
mod words;
use aba::*;
use blocking::*;
use claim::*;
use computed::*;
use flip::*;
use flows::*;
use hand_lock::*;
pub(crate) use order::held_apart;
use order::*;
pub(crate) use regions::held_over;
use regions::*;
use seqlock::*;
use statics::*;
use words::*;
pub(crate) use words::{join_and, line_range, listed, times, unique, who};

/// One paragraph (no line breaks).
pub fn summary(e: &Explanation) -> String {
    if e.alternate.is_none() {
        return without_alternate(e);
    }
    if let Some(moved) = moved_failure(e) {
        return format!("{moved} {}", explained(e));
    }
    explained(e)
}

/// [`summary`] of an explanation with an alternate schedule.
fn explained(e: &Explanation) -> String {
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
        out.extend(object_flip_sentences(e));
        out.extend(replay_note(e));
        return out.join(" ");
    }
    if let Some(s) = crate::misuse::destroy_sentence(e) {
        out.push(s);
        out.extend(replay_note(e));
        return out.join(" ");
    }
    // (The value that came back is the diagnosis, not the reader's lines
    // alone.)
    if let Some(s) = aba(e) {
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
    // Under TSO/PSO a store passed but not yet visible is the cause, and a
    // fence the fix: atomic regions would mix program and flush order.
    let buffered = store_buffered(e);
    // An inconsistent snapshot across two locks is the diagnosis when the
    // only regions would span two runs of a statement (the writer's two
    // calls around the reader's first read).
    // (Otherwise it is told when nothing else is: computed once here.)
    let snapshot = crate::snapshot::sentence(e);
    let snapshot_first =
        snapshot.is_some() && !e.dsp.atomic.is_empty() && e.dsp.atomic.iter().all(|a| runs_a_statement_twice(e, a));
    let regions = if buffered.is_some() || snapshot_first { 0 } else { 2 };
    // A region's fix comes before a flipped branch, which is how the
    // alternate gets round what the region lets happen (a list's walk
    // after an insert was lost goes one node further).
    let mut region_said = Vec::new();
    region_sentences(e, regions, &mut region_said);
    // Regions that give no block of lines to make atomic, where the value
    // the check reads was written last from data that changed before the
    // write: that stale write is the diagnosis.
    if !region_said.is_empty() && region_said.iter().all(|s| s.contains(NOTHING_BETWEEN)) {
        if let Some(s) = stale_write(e) {
            region_said = vec![s];
        }
    }
    // Regions that give no block of lines to make atomic (they run a
    // statement twice, or go back round) leave the fix unsaid: an order
    // violation among the differing flows that has one is told instead (a
    // memo entry marked valid before its value is stored, read by another
    // call of the same function: the fix is the order of the writes).
    // (Those sentences, when told, are the ones told later: asked once.)
    let mut flows_first = None;
    if e.flipped.is_none() && !region_said.is_empty() && region_said.iter().all(|s| s.contains(NOTHING_BETWEEN)) {
        let mut flows = Vec::new();
        let waiting = differing_flow_sentences(e, &mut flows);
        if flows.iter().any(|s| s.starts_with("Order violation:") && s.contains(" avoids the failure.")) {
            region_said.clear();
            flows_first = Some((flows, waiting));
        }
    }
    // Regions of that kind before a flipped branch whose test saw a flag
    // set after data the thread had read stale: the stale pair is the
    // diagnosis (told with the flip).
    if e.flipped.is_some()
        && !region_said.is_empty()
        && region_said.iter().all(|s| s.contains(NOTHING_BETWEEN))
        && flip_stale_pair(e).is_some()
    {
        region_said.clear();
    }
    // (A branch that mirrors the failing check is told last.)
    let mirror = mirrors_failure(e);
    let rule_said = if mirror { 0 } else { flip_sentences(e, &mut out, &mut told, !region_said.is_empty()) };
    let flip_said = out.len();
    if snapshot_first {
        out.extend(snapshot.clone());
    }
    if !region_said.is_empty() {
        out.splice(rule_said..rule_said, region_said);
    } else if out.len() == flip_said {
        out.extend(upstream_flow(e, &told));
    }
    if out.is_empty() {
        out.extend(snapshot);
    }
    let flows_told = out.is_empty() && !e.dsp.failing_only.is_empty();
    let waiting = match flows_first {
        _ if !out.is_empty() => Vec::new(),
        Some((flows, waiting)) => {
            out.extend(flows);
            waiting
        }
        None => differing_flow_sentences(e, &mut out),
    };
    // Told instead of the regions and flows, the first that applies: an
    // element one thread claims and another takes unclaimed (the skipped
    // claim is the diagnosis); a reader that tests a sequence counter
    // before its reads only (the missing second check, not the one lock
    // the flows would give); a reference taken from a count at 0 (the
    // regions would leave the stale pointer).
    if let Some(s) = unclaimed_take(e).or_else(|| unchecked_sequence(e)).or_else(|| revived_reference(e)) {
        out = vec![s];
    }
    // (A use after free by a reference taken too late: told instead of
    // data flows that give no fix.)
    if !out.iter().any(|s| s.contains(" avoids the failure")) {
        if let Some(s) = late_reference(e) {
            out = vec![s];
        }
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
    } else if let Some(s) = last_read_values(e, &told) {
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
    // A barrier both threads reach after, or the creation of the reader's
    // thread before the write: the last order violation's fix, which
    // stands for them all.
    if let Some(s) = crate::barrier::wait_fix(e, &waiting).or_else(|| created_fix(e, &waiting)) {
        let waits = [WAIT_FOR_THE_WRITE, EACH_WAITS_FOR_ITS_WRITE, READS_WAIT_FOR_THEIR_WRITES];
        let last = out.iter_mut().rev().find(|s| waits.iter().any(|w| s.ends_with(w)));
        if let Some(said) = last {
            let cut = waits.iter().find(|w| said.ends_with(*w)).map_or(0, |w| w.len());
            said.truncate(said.len() - cut);
            said.push_str(&s);
        }
    }
    // (The read before the buffered store, told as an order violation,
    // is that store not yet visible: its "make the read wait" fix is the
    // wrong one, the read waits already.)
    if let Some((s, read, store)) = buffered {
        let (r, w) = (e.line(read).unwrap_or_default(), e.line(store).unwrap_or_default());
        out.retain(|s| {
            !(s.starts_with("Order violation:") && s.contains(&r) && s.contains(&format!("writes it at {w}")))
        });
        out.insert(0, s);
    }
    out.splice(0..0, spins);
    if mirror {
        out.extend(mirror_sentence(e));
    }
    out.extend(dead_frame_sentence(e));
    out.extend(bitfield_note(e, &out));
    out.extend(replay_note(e));
    out.join(" ")
}

/// When what the summary names is the integer LLVM keeps several
/// bit-fields in (`f.{ready,dirty}`, [`causa_ir::fields::Composite`]): that
/// they are one memory location, which an assignment to any of them
/// reads and rewrites whole.
fn bitfield_note(e: &Explanation, said: &[String]) -> Option<String> {
    let units: Vec<String> = unique(e.dsp.events.iter().filter_map(|r| e.object(*r)))
        .into_iter()
        .filter(|o| o.ends_with('}') && o.contains(".{") && said.iter().any(|s| s.contains(&format!("`{o}`"))))
        .collect();
    let unit = units.first()?;
    let fields: Vec<String> =
        unit.rsplit_once(".{")?.1.trim_end_matches('}').split(',').map(|f| format!("`{f}`")).collect();
    Some(format!(
        "The bit-fields {} share one memory location (`{unit}`): assigning any of them reads and rewrites them all, so threads that assign different ones still race.",
        join_and(&fields)
    ))
}

/// The summary when no alternate schedule was found: what blocks (a
/// deadlock, a lost signal) or what rule the program breaks, else why
/// none was found and which flips were tried.
fn without_alternate(e: &Explanation) -> String {
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
    said.extend(crate::sem_order::sentence(e));
    let cycle = if said.is_empty() { String::new() } else { format!("{} ", said.join(" ")) };
    // (A try that failed is flipped as a branch is: it succeeds.)
    let (one, many) = (e.flips_noun(1), e.flips_noun(2));
    let flips = match e.flips_tried {
        0 => format!("No {one} of the failing run was tried the other way."),
        1 => format!("Taking one {one} the other way did not avoid it either."),
        n => format!("Taking {n} {many} the other way did not avoid it either."),
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
            "{cycle}The explanation's time limit (--explain-timeout) ran out before causa found a schedule that avoids the {} ({} of the failing run's {} tried the other way).",
            e.failure.kind, e.flips_tried, e.flips_noun(2)
        );
    }
    // (Not where a blocking sentence already tells the cause: a try loop
    // on a mutex its holder never releases.)
    let tried = failed_try_sentence(e).filter(|_| said.is_empty()).map(|s| format!(" {s}")).unwrap_or_default();
    format!(
        "{cycle}causa found no schedule of the failing run's paths that avoids the {}: {why}. {flips}{frame}{tried}",
        e.failure.kind
    )
}

/// `` `t1` (thread 0.1)'s try of `b` at l.c:7 failed, while `t2` (thread
/// 0.2) held it (locked at l.c:12) … ``: the first lock try of the failing
/// schedule that found its mutex held, and who held it (the flips tried
/// include the tries: none in which it succeeds avoided the failure).
fn failed_try_sentence(e: &Explanation) -> Option<String> {
    let at = e.failing.iter().position(|r| e.info_of(*r).op == "trylock (busy)")?;
    let t = e.failing[at];
    let name = e.object(t);
    // The holder: its lock of the mutex still held at the try.
    let holder = name.as_deref().and_then(|n| crate::misuse::holder(e, &e.failing[..at], |o| o == n));
    let obj = name.as_ref().map(|o| format!("`{o}`")).unwrap_or_else(|| "its mutex".into());
    let held = holder
        .map(|(h, _)| format!(", while {} held it (locked at {})", who(e, h), e.line(h).unwrap_or_default()))
        .unwrap_or_default();
    Some(format!(
        "In the failing run {}'s try to lock {obj} at {} failed{held}.",
        who(e, t),
        e.line(t).unwrap_or_default()
    ))
}
