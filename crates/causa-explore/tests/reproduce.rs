//! Reproduction from path logs alone (CLAP): record the paths of a failing
//! run, compute a schedule from the logs, and confirm it by replay.
//!
//! Without clang-14 these tests fail and say what to install.

#[path = "support/recorded.rs"]
mod recorded;

use causa_interp::Config;
use causa_symbolic::ClapOptions;
use recorded::{failing_run, load, log_of};

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
    let r = causa_explore::reproduce::reproduce(&prep, &Config::default(), &log, &ClapOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let f = r.execution.outcome.finding().expect("fails");
    assert_eq!(Some(f.kind), log.failure.as_ref().map(|f| f.kind));
    assert!(r.solution.minimal, "the context-switch search finished");
    assert!(r.solution.stats.shared_accesses >= 8, "{:?}", r.solution.stats);
}

fn reproduces(name: &str, src: &str) -> causa_explore::reproduce::Reproduced {
    let prep = load(name, src);
    let ex = failing_run(&prep);
    let log = log_of(&prep, &ex);
    causa_explore::reproduce::reproduce(&prep, &Config::default(), &log, &ClapOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
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
    assert!(r.solution.minimal);
}
