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
        out.push(format!(
            "{lead} {} takes {b}{}, and the program then runs to its end{end}.",
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
    rule_said
}
