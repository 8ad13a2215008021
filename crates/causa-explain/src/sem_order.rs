//! An order every schedule of the failing run's paths keeps because the
//! semaphores force it: the failing thread's check reads a location before
//! another thread writes it, and that thread waits on a semaphore first
//! whose count lets the wait pass only after a post the reader makes after
//! its read (a one-slot buffer whose `empty` and `full` were initialised
//! the wrong way round). Told when no alternate schedule was found: that
//! no order helps is then the finding, and the semaphores' starting counts
//! are where to look.

use crate::summary::who;
use crate::{EventRef, Explanation, Run};

/// `` In every order of the failing run's events, `consumer` (thread 0.2)
/// reads `slot` at s.c:26 (and sees 0) before `producer` (thread 0.1)
/// writes it at s.c:15: … ``, for the failing thread's first such read.
pub(crate) fn sentence(e: &Explanation) -> Option<String> {
    let t = e.failing_thread()?;
    let (bt, k) = e.failure_branch?;
    if bt != t {
        return None;
    }
    let checked =
        |r: &EventRef| r.0 == t && e.info_of(*r).op == "read" && e.branches_on.get(r).is_some_and(|ks| ks.contains(&k));
    e.failing.iter().copied().filter(checked).find_map(|r| forced(e, r))
}

/// The sentence for the check's read `r`, when a semaphore keeps another
/// thread's next write of its location after it.
fn forced(e: &Explanation, r: EventRef) -> Option<String> {
    let t = r.0;
    let pr = e.place(r)?;
    let a = e.info_of(r).addr?;
    let w = e.failing[pr + 1..]
        .iter()
        .copied()
        .find(|w| w.0 != t && matches!(e.info_of(*w).op, "write" | "update") && e.info_of(*w).addr == Some(a))?;
    let u = w.0;
    // The writer's last wait before the write.
    let Wait { at: s, sem, waits, initial } = wait_before(e, w)?;
    let on = |x: &EventRef, op: &str| e.info_of(*x).op == op && e.info_of(*x).addr == Some(sem);
    // The posts of the failing run the wait may take without the reader's
    // later ones: other threads' (not the writer's own after the wait) and
    // the reader's before its read.
    let usable = e
        .failing
        .iter()
        .filter(|x| on(x, "sem_post"))
        .filter(|x| if x.0 == t { x.1 < r.1 } else { x.0 != u || x.1 < s.1 })
        .count();
    if usable + initial >= waits {
        return None;
    }
    // The reader's post it waits for.
    let post = e.failing[pr + 1..].iter().copied().find(|x| x.0 == t && on(x, "sem_post"))?;
    let name = |x: EventRef| e.named(x, "its semaphore");
    let line = |x: EventRef| e.line(x).unwrap_or_default();
    let seen = e.value(r, Run::Failing).map(|v| format!(" (and sees {v})")).unwrap_or_default();
    Some(format!(
        "In every order of the failing run's events, {} reads {} at {}{seen} before {} writes it at {}: {} waits on {} at {} first, {} starts at {initial}, and the post that wait needs is {}'s at {}, after that read.{} The counts the semaphores start with (`sem_init`) decide this order.",
        who(e, r),
        e.named(r, "it"),
        line(r),
        who(e, w),
        line(w),
        who(e, s),
        name(s),
        line(s),
        name(s),
        who(e, post),
        line(post),
        passed_without_post(e, r).unwrap_or_default(),
    ))
}

/// `` `consumer`'s wait on `full` at s.c:25 before the read passes
/// without a post: `full` starts at 1. ``: the reader's last wait before
/// its read `r`, when the semaphore's starting count covers it.
fn passed_without_post(e: &Explanation, r: EventRef) -> Option<String> {
    let Wait { at: s, waits, initial, .. } = wait_before(e, r)?;
    let name = e.object(s)?;
    (waits <= initial).then(|| {
        format!(
            " And {}'s wait on `{name}` at {} before the read passes without any post: `{name}` starts at {initial}.",
            who(e, s),
            e.line(s).unwrap_or_default()
        )
    })
}

/// A thread's last `sem_wait` before one of its events.
struct Wait {
    at: EventRef,
    /// The semaphore's address.
    sem: u64,
    /// The thread's waits on it up to this one (program order), it included.
    waits: usize,
    /// The count the semaphore starts with.
    initial: usize,
}

/// The last `sem_wait` of `r`'s thread before `r`.
fn wait_before(e: &Explanation, r: EventRef) -> Option<Wait> {
    let t = r.0;
    let at = (0..r.1).rev().map(|j| (t, j)).find(|x| e.info_of(*x).op == "sem_wait")?;
    let sem = e.info_of(at).addr?;
    let waits =
        (0..=at.1).filter(|j| e.info_of((t, *j)).op == "sem_wait" && e.info_of((t, *j)).addr == Some(sem)).count();
    let initial = usize::try_from(*e.sem_initial.get(&sem)?).ok()?;
    Some(Wait { at, sem, waits, initial })
}
