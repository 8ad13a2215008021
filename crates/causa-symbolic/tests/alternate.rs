//! The root cause and alternate schedules of every mode on CLAP's model of a
//! failing run's symbolic trace (`causa_symbolic::alternate`).
//!
//! Without clang-14 these tests fail and say what to install.

#[path = "../../causa-explore/tests/support/recorded.rs"]
mod recorded;

use causa_symbolic::symbiosis::data_flows;
use causa_symbolic::{alternate, execute, AlternateOptions, Mode, SymOp, Verdict};
use recorded::{failing_run, load, log_of};

const PRELUDE: &str = "#include <assert.h>\n#include <pthread.h>\n";

#[test]
fn a_lost_update_is_explained_by_one_inverted_pair() {
    // Both workers read x before either writes it: x ends at 1, not 2.
    let src = format!(
        "{PRELUDE}int x;\n\
         void *inc(void *p) {{ int t = x; x = t + 1; return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, inc, 0); pthread_create(&b, 0, inc, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(x == 2); return 0; }}\n"
    );
    let prep = load("lost.c", &src);
    let ex = failing_run(&prep);
    let sym = execute(&prep.program, &log_of(&prep, &ex)).expect("symbolic execution");
    let opts = AlternateOptions { mode: Mode::Symbiosis, ..Default::default() };
    let s = alternate(&sym, &opts, &mut |_| Verdict::Accepted).expect("explained");
    // The root cause: one worker's read and write of x with the other worker
    // running in between (Z3's core names its begin and end: program order
    // brings its read and write along).
    let ops: Vec<String> = s.failing.iter().map(|e| format!("{e:?}={:?}", sym.threads[e.0].events[e.1].op)).collect();
    let kinds = |t: usize| -> Vec<&SymOp> {
        s.root_cause.iter().filter(|e| e.0 == t).map(|e| &sym.threads[e.0].events[e.1].op).collect()
    };
    let (w1, w2) = (kinds(1), kinds(2));
    let read_write = |k: &[&SymOp]| {
        k.iter().any(|o| matches!(o, SymOp::Read { .. })) && k.iter().any(|o| matches!(o, SymOp::Write { .. }))
    };
    assert!(
        (read_write(&w1) && !w2.is_empty()) || (read_write(&w2) && !w1.is_empty()),
        "root cause {:?} of {ops:#?}",
        s.root_cause
    );
    assert!(s.root_cause.len() < s.failing.len(), "the core is smaller than the schedule");
    let alt = s.alternate.clone().expect("an alternate schedule");
    let (a, b) = s.inverted.expect("the inverted pair");
    assert_ne!(a.0, b.0, "the inverted pair spans two threads");
    assert_eq!(alt.len(), s.failing.len(), "same events");
    // In the failing schedule both workers' reads see the initial value; in
    // the alternate one of them reads the other's write.
    let from_worker = |order: &[(usize, usize)]| {
        data_flows(&sym, order).iter().filter(|(r, w)| r.0 != 0 && w.is_some_and(|w| w.0 != 0 && w.0 != r.0)).count()
    };
    assert_eq!(from_worker(&s.failing), 0, "{:?}", data_flows(&sym, &s.failing));
    assert_eq!(from_worker(&alt), 1, "{:?}", data_flows(&sym, &alt));
    assert!(s.pairs_tried >= 1);
    // The Max SMT modes find an alternate as similar: one data flow changes.
    for mode in [Mode::MaxSmt, Mode::Lexico, Mode::Progressive] {
        let m = alternate(&sym, &AlternateOptions { mode, ..Default::default() }, &mut |_| Verdict::Accepted)
            .expect("explained");
        let alt = m.alternate.expect("an alternate schedule");
        let mut sorted = alt.clone();
        sorted.sort();
        let mut events = m.failing.clone();
        events.sort();
        assert_eq!(sorted, events, "{mode}: the same events");
        assert_eq!(from_worker(&alt), 1, "{mode}: {:?}", data_flows(&sym, &alt));
        assert!(m.optimal, "{mode}: no budget ran out");
        assert_eq!(m.window.is_some(), mode == Mode::Progressive);
    }
}

#[test]
fn a_null_dereference_is_explained_by_the_write_that_comes_first() {
    // The thread reads p before main stores the allocation: a null
    // dereference. The alternate reads p after main's write.
    let src = format!(
        "{PRELUDE}#include <stdlib.h>\nint *p;\n\
         void *use(void *a) {{ return (void *)(long)*p; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, use, 0); p = malloc(4); *p = 1;\n\
         pthread_join(t, 0); return 0; }}\n"
    );
    let prep = load("null.c", &src);
    let ex = failing_run(&prep);
    let sym = execute(&prep.program, &log_of(&prep, &ex)).expect("symbolic execution");
    for mode in Mode::ALL {
        let s = alternate(&sym, &AlternateOptions { mode, ..Default::default() }, &mut |_| Verdict::Accepted)
            .expect("explained");
        let alt = s.alternate.clone().unwrap_or_else(|| panic!("{mode}: an alternate schedule: {s:?}"));
        let read_p = |order: &[(usize, usize)]| {
            data_flows(&sym, order).into_iter().find(|(r, _)| r.0 == 1).expect("the thread reads p")
        };
        assert_eq!(read_p(&s.failing).1, None, "{mode}: the failing read sees the initial null");
        assert!(read_p(&alt).1.is_some_and(|w| w.0 == 0), "{mode}: the alternate read sees main's write");
    }
}

#[test]
fn a_deadlock_is_explained_by_an_order_where_the_blocked_acquisition_happens() {
    let src = format!(
        "{PRELUDE}pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;\n\
         void *t1(void *x) {{ pthread_mutex_lock(&a); pthread_mutex_lock(&b); pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, t1, 0);\n\
         pthread_mutex_lock(&b); pthread_mutex_lock(&a); pthread_mutex_unlock(&a); pthread_mutex_unlock(&b);\n\
         pthread_join(t, 0); return 0; }}\n"
    );
    let prep = load("deadlock.c", &src);
    let ex = failing_run(&prep);
    let sym = execute(&prep.program, &log_of(&prep, &ex)).expect("symbolic execution");
    // The failing thread's blocked acquisition: its event before the
    // failure's marker.
    let (t, th) = sym
        .threads
        .iter()
        .enumerate()
        .find(|(_, th)| matches!(th.events.last().map(|e| &e.op), Some(SymOp::Fail { .. })))
        .expect("a failing thread");
    let blocked = (t, th.events.len() - 2);
    assert!(matches!(sym.threads[t].events[blocked.1].op, SymOp::Lock { .. }), "{:?}", th.events);
    for mode in [Mode::Progressive, Mode::MaxSmt, Mode::Lexico] {
        let opts = AlternateOptions { mode, ..Default::default() };
        let s = alternate(&sym, &opts, &mut |_| Verdict::Accepted).unwrap_or_else(|e| panic!("{mode}: {e:?}"));
        assert!(!s.failing.contains(&blocked), "{mode}: the failing schedule stops before it");
        let alt = s.alternate.unwrap_or_else(|| panic!("{mode}: an alternate"));
        assert!(alt[..s.alternate_prefix].contains(&blocked), "{mode}: {alt:?}");
    }
}
