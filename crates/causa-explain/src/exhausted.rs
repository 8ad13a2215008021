//! A deadlock at a condition variable that no signal order avoids: the
//! waiters took back what the signals announced ([`crate::deadlock::Exhausted`]:
//! consumers expecting more messages than are sent). Told as such, not as
//! a lost signal or a signal that woke the wrong waiter, whose remedies
//! (a predicate loop, a broadcast) would not help.

use crate::summary::{join_and, times, unique, who};
use crate::{EventRef, Explanation};

/// `` `consumer` (threads 0.2 and 0.3) ``: the threads of `evs`, by the
/// function their events are in when it is one.
fn threads_of(e: &Explanation, evs: &[EventRef]) -> String {
    let threads = unique(evs.iter().map(|r| r.0));
    let functions = unique(evs.iter().map(|r| e.info_of(*r).function.clone()));
    match (&functions[..], &threads[..]) {
        (_, [_]) => who(e, evs[0]),
        ([Some(f)], _) => {
            let names: Vec<String> = threads.iter().map(|t| e.threads[*t].to_string()).collect();
            format!("`{f}` (threads {})", join_and(&names))
        }
        _ => join_and(
            &threads.iter().filter_map(|t| evs.iter().find(|r| r.0 == *t)).map(|r| who(e, *r)).collect::<Vec<_>>(),
        ),
    }
}

/// `at short_supply.c:18` / `at short_supply.c:18 and :31`: the lines of `evs`.
fn lines_of(e: &Explanation, evs: &[EventRef]) -> String {
    join_and(&unique(evs.iter().filter_map(|r| e.line(*r))))
}

/// "Deadlock: `consumer` (thread 0.3) waits at s.c:29 after reading
/// `count` at s.c:28; `producer` (thread 0.1) signals `nonempty` 3 times
/// (at s.c:18), but …" for each thread blocked that way.
pub(crate) fn sentences(e: &Explanation) -> Vec<String> {
    let name = |r: EventRef| e.named(r, "it");
    e.exhausted
        .iter()
        .map(|x| {
            let signallers = threads_of(e, &x.signals);
            let (verb, pronoun) =
                if unique(x.signals.iter().map(|r| r.0)).len() == 1 { ("signals", "it") } else { ("signal", "they") };
            format!(
                "Deadlock: {} waits at {} after reading {} at {}. {signallers} {verb} {} {} (at {}), and the changes of {} {pronoun} announced were taken back by the side that waits, {}, whose writes of it (at {}) come after and last. No signal was lost or woke the wrong thread: the waiting side takes more than the other threads provide, so waking more waiters, or in another order, does not avoid this deadlock.",
                who(e, x.wait),
                e.line(x.wait).unwrap_or_default(),
                name(x.read),
                e.line(x.read).unwrap_or_default(),
                name(x.wait),
                times(x.signals.len()),
                lines_of(e, &x.signals),
                name(x.read),
                threads_of(e, &x.taken),
                lines_of(e, &x.taken),
            )
        })
        .collect()
}
