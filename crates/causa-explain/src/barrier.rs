//! Order violations whose threads meet at a barrier after: the read comes
//! before the reader's `pthread_barrier_wait` and the write before the
//! writer's wait at the same barrier, so moving the read after the wait
//! is the fix ("making the read wait for that write" says what, this says
//! how). A barrier lets no thread through before every one has arrived.

use crate::summary::{listed, who};
use crate::{Explanation, Flow};
use causa_symbolic::EventRef;

/// The first barrier wait of `r`'s thread after `r`.
fn next_wait(e: &Explanation, r: EventRef) -> Option<EventRef> {
    (r.1 + 1..e.info[r.0].len()).map(|k| (r.0, k)).find(|x| e.info_of(*x).op == "barrier")
}

/// `` `worker` (thread 0.1) waits at the barrier `b` only after the read
/// (at sum.c:14), and … arrives there after its write (at sum.c:12): …
/// reading after that `pthread_barrier_wait` avoids the failure.``: when
/// every read of `reads` (order violations whose fix is to wait for their
/// write, of one thread) is followed by one barrier wait, and each read's
/// write in the alternate schedule by its thread's wait at that barrier.
/// None otherwise (a read whose writer never reaches the barrier in the
/// failing run, or two readers).
pub(crate) fn wait_fix(e: &Explanation, reads: &[&Flow]) -> Option<String> {
    let first = reads.first()?;
    let rb = next_wait(e, first.read)?;
    let barrier = e.info_of(rb).addr?;
    let mut writers: Vec<EventRef> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for f in reads {
        let w = e.counterpart(f)?.write?;
        let wb = next_wait(e, w)?;
        if next_wait(e, f.read)? != rb || e.info_of(wb).addr != Some(barrier) || w.0 == rb.0 {
            return None;
        }
        if !writers.iter().any(|x| x.0 == w.0) {
            writers.push(w);
        }
        let line = e.line(wb).unwrap_or_default();
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    let (reads_said, arrive, writes) = match (reads.len(), writers.len()) {
        (1, _) => ("the read", "arrives", "its write"),
        (_, 1) => ("these reads", "arrives", "its writes"),
        _ => ("these reads", "arrive", "their writes"),
    };
    let writers: Vec<String> = writers.iter().map(|w| who(e, *w)).collect();
    let at = e.line(rb).unwrap_or_default();
    // (The writers' waits are told where they are elsewhere: the same
    // function's wait needs no second place.)
    let theirs = match lines == [at.clone()] {
        true => String::new(),
        false => format!(" (at {})", listed(&lines)),
    };
    Some(format!(
        " {} waits at the barrier `{}` at {at} only after {reads_said}, and {} {arrive} there after {writes}{theirs}: no thread leaves a barrier before every one has arrived, so reading after that `pthread_barrier_wait` avoids the failure.",
        who(e, rb),
        e.object(rb).unwrap_or_else(|| "it".into()),
        listed(&writers),
    ))
}
