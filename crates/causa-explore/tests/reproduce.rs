//! Reproduction from path logs alone (CLAP): record the paths of a failing
//! run, compute a schedule from the logs, and confirm it by replay.
//!
//! Without clang-14 these tests fail and say what to install.

#[path = "support/recorded.rs"]
mod recorded;

use causa_explore::reproduce::{reproduce, Method, ReproduceOptions, Reproduced};
use causa_interp::Config;
use recorded::{failing_run, load, log_of};

fn with(method: Method) -> ReproduceOptions {
    ReproduceOptions { method, ..ReproduceOptions::default() }
}

const PRELUDE: &str = "#include <assert.h>\n#include <pthread.h>\n";

fn clap_figure_2() -> String {
    format!(
        "{PRELUDE}int x, y;\n\
         void *t1(void *p) {{ int a = x; x = 1; if (y > 0) {{ y = a + 1; x = a + 1; }} else {{ y = 0; x = 0; }} assert(x == y); return 0; }}\n\
         void *t2(void *p) {{ int b = y; y = 2; if (x > 0) {{ x = b + 2; y = b + 2; }} else {{ x = 1; y = 1; }} return 0; }}\n\
         int main(void) {{ pthread_t p, q; pthread_create(&p, 0, t1, 0); pthread_create(&q, 0, t2, 0);\n\
         pthread_join(p, 0); pthread_join(q, 0); return 0; }}\n"
    )
}

#[test]
fn clap_figure_2_first_assertion_is_reproduced_from_paths_alone() {
    let prep = load("clap_fig2.c", &clap_figure_2());
    let ex = failing_run(&prep);
    let log = log_of(&prep, &ex);
    for method in [Method::Solver, Method::Search] {
        let r = reproduce(&prep, &Config::default(), &log, &with(method)).unwrap_or_else(|e| panic!("{e}"));
        let f = r.execution.outcome.finding().expect("fails");
        assert_eq!(Some(f.kind), log.failure.as_ref().map(|f| f.kind));
        assert_eq!(r.found_by, method);
        assert!(r.minimal, "{method:?}: the context-switch search finished");
        match method {
            Method::Solver => {
                let s = &r.solution.as_ref().expect("the solver's answer").stats;
                assert!(s.shared_accesses >= 8, "{s:?}");
                assert!(r.search.is_none(), "the solver alone was asked");
            }
            _ => {
                let s = r.search.as_ref().expect("the search's account");
                assert!(s.executions >= 1 && r.solution.is_none(), "{s:?}");
            }
        }
    }
    // Both methods agree on the fewest preemptions (the solver counts
    // preempted segments, the search switches away from a runnable thread).
    let by = |m| reproduce(&prep, &Config::default(), &log, &with(m)).map(|r| r.preemptions).ok();
    assert_eq!(by(Method::Search), by(Method::Auto), "auto searches first");
}

fn reproduces_with(name: &str, src: &str, method: Method) -> Reproduced {
    let prep = load(name, src);
    let ex = failing_run(&prep);
    let log = log_of(&prep, &ex);
    reproduce(&prep, &Config::default(), &log, &with(method)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn reproduces(name: &str, src: &str) -> Reproduced {
    reproduces_with(name, src, Method::Solver)
}

#[test]
fn the_search_reproduces_a_deadlock_the_solver_does_not_model() {
    let src = format!(
        "{PRELUDE}pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;\n\
         void *t1(void *p) {{ pthread_mutex_lock(&a); pthread_mutex_lock(&b); pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return 0; }}\n\
         void *t2(void *p) {{ pthread_mutex_lock(&b); pthread_mutex_lock(&a); pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); return 0; }}\n\
         int main(void) {{ pthread_t p, q; pthread_create(&p, 0, t1, 0); pthread_create(&q, 0, t2, 0);\n\
         pthread_join(p, 0); pthread_join(q, 0); return 0; }}\n"
    );
    let prep = load("abba.c", &src);
    let ex = failing_run(&prep);
    let log = log_of(&prep, &ex);
    let solver = reproduce(&prep, &Config::default(), &log, &with(Method::Solver));
    let err = solver.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("deadlock"), "the solver names what it does not model: {err}");
    let r = reproduce(&prep, &Config::default(), &log, &with(Method::Auto)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.found_by, Method::Search);
    assert_eq!(r.execution.outcome.finding().map(|f| f.kind), Some(causa_core::BugKind::Deadlock));
    // One preemption: t1 takes `a`, t2 runs and takes `b`.
    assert_eq!((r.preemptions, r.minimal), (1, true));
}

#[test]
fn the_search_prunes_schedules_that_leave_the_recorded_paths() {
    // The failure needs t2 to see x == 1 only after t1's second write: every
    // schedule in which t2 reads 0 or 2 leaves its recorded branch.
    let src = format!(
        "{PRELUDE}int x;\n\
         void *t1(void *p) {{ x = 1; x = 2; x = 1; return 0; }}\n\
         void *t2(void *p) {{ int seen = 0; for (int i = 0; i < 3; i++) if (x == 2) seen = 1; if (seen) assert(x != 1); return 0; }}\n\
         int main(void) {{ pthread_t p, q; pthread_create(&p, 0, t1, 0); pthread_create(&q, 0, t2, 0);\n\
         pthread_join(p, 0); pthread_join(q, 0); return 0; }}\n"
    );
    let r = reproduces_with("prune.c", &src, Method::Search);
    let s = r.search.expect("searched");
    assert!(s.pruned > 0 && s.pruned < s.executions, "{s:?}");
    assert!(r.minimal);
}

#[test]
fn a_pointer_published_through_shared_memory_is_resolved_by_the_solver() {
    // The consumer dereferences a pointer it read from `shared`: a symbolic
    // address whose candidates are the values written there (and null).
    let src = format!(
        "{PRELUDE}#include <stdlib.h>\nint *shared;\n\
         void *producer(void *p) {{ int *q = malloc(sizeof(int)); *q = 41; shared = q; *q = 42; return 0; }}\n\
         void *consumer(void *p) {{ int *q = shared; if (q) {{ int v = *q; assert(v == 42); }} return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, producer, 0); pthread_create(&b, 0, consumer, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); return 0; }}\n"
    );
    let r = reproduces("publish.c", &src);
    assert_eq!(r.execution.outcome.finding().map(|f| f.thread.to_string()), Some("0.2".to_string()));
}

#[test]
fn an_index_read_from_shared_memory_is_resolved_over_the_array() {
    // `buf[h % 4]` with `h` read from shared memory: the candidates are the
    // array's elements. The producer publishes the slot before filling it.
    let src = format!(
        "{PRELUDE}int buf[4]; int head, tail;\n\
         void *producer(void *p) {{ for (int i = 0; i < 3; i++) {{ int t = tail; tail = t + 1; buf[t % 4] = i + 1; }} return 0; }}\n\
         void *consumer(void *p) {{ for (int k = 0; k < 2; k++) {{ int h = head; if (h != tail) {{ int v = buf[h % 4]; head = h + 1; assert(v != 0); }} }} return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, producer, 0); pthread_create(&b, 0, consumer, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); return 0; }}\n"
    );
    let r = reproduces("ring.c", &src);
    assert!(r.minimal);
    assert!(reproduces_with("ring.c", &src, Method::Search).minimal);
}
