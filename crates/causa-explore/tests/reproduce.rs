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
fn both_methods_reproduce_a_lock_order_deadlock() {
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
    // The solver: the core's deadlock query (every thread finished or stuck,
    // the failing one at its blocked lock, having stepped last).
    let solver = reproduce(&prep, &Config::default(), &log, &with(Method::Solver)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(solver.found_by, Method::Solver);
    assert_eq!(solver.execution.outcome.finding().map(|f| f.kind), Some(causa_core::BugKind::Deadlock));
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

/// The memory error the solver reproduced: its message.
fn memory_error(r: &Reproduced) -> String {
    let f = r.execution.outcome.finding().expect("a failure");
    assert_eq!(f.kind, causa_core::BugKind::MemoryError, "{}", f.message);
    assert_eq!(r.found_by, Method::Solver);
    f.message.clone()
}

#[test]
fn the_solver_reproduces_a_null_dereference_as_a_value_predicate() {
    // The worker reads `cfg` before main publishes it: Φ_bug says the
    // pointer it dereferences is null (it is a read of shared memory).
    let src = format!(
        "{PRELUDE}#include <stdlib.h>\nstruct conf {{ int level; }}; struct conf *cfg;\n\
         void *worker(void *p) {{ struct conf *c = cfg; return (void *)(long)c->level; }}\n\
         int main(void) {{ pthread_t w; pthread_create(&w, 0, worker, 0); struct conf *c = malloc(sizeof *c);\n\
         c->level = 3; cfg = c; pthread_join(w, 0); return 0; }}\n"
    );
    let msg = memory_error(&reproduces("null.c", &src));
    assert!(msg.contains("null pointer"), "{msg}");
}

#[test]
fn the_solver_reproduces_a_crash_known_by_its_line_only() {
    // A native crash's location comes from the executable's debug
    // information, line-precise (column 0): symbolic execution must find
    // the failure on that line. Before, it required the column too and
    // said it reached no failure, so such a log the search could not
    // follow (main cut short before a call it then makes) was lost.
    let src = format!(
        "{PRELUDE}#include <stdlib.h>\nstruct conf {{ int level; }}; struct conf *cfg;\n\
         void *worker(void *p) {{ struct conf *c = cfg; return (void *)(long)c->level; }}\n\
         int main(void) {{ pthread_t w; pthread_create(&w, 0, worker, 0); struct conf *c = malloc(sizeof *c);\n\
         c->level = 3; cfg = c; pthread_join(w, 0); return 0; }}\n"
    );
    let prep = load("null_line.c", &src);
    let ex = failing_run(&prep);
    let mut log = log_of(&prep, &ex);
    let at = log.failure.as_mut().and_then(|f| f.location.as_mut()).expect("the failure's location");
    assert_ne!(at.column, 0);
    at.column = 0;
    let r = reproduce(&prep, &Config::default(), &log, &with(Method::Solver)).unwrap_or_else(|e| panic!("{e}"));
    let msg = memory_error(&r);
    assert!(msg.contains("null pointer"), "{msg}");
}

#[test]
fn the_solver_reproduces_a_use_after_free_as_an_order_predicate() {
    // main frees the job while the worker may still read it: Φ_bug orders
    // the free before the worker's read (the block's address is concrete).
    let src = format!(
        "{PRELUDE}#include <stdlib.h>\n\
         void *worker(void *p) {{ int *job = p; int a = job[0]; int b = job[1]; return (void *)(long)(a + b); }}\n\
         int main(void) {{ int *job = malloc(2 * sizeof(int)); job[0] = 1; job[1] = 2; pthread_t w;\n\
         pthread_create(&w, 0, worker, job); free(job); pthread_join(w, 0); return 0; }}\n"
    );
    let r = reproduces("uaf.c", &src);
    let msg = memory_error(&r);
    assert!(msg.contains("use after free"), "{msg}");
    assert!(r.minimal);
}

#[test]
fn the_solver_reproduces_an_index_past_the_end_and_pins_published_pointers() {
    // Two producers check `count` and store at `items[count]` separately;
    // the store through the queue pointer (read from shared memory, one
    // value ever written) goes one past the end.
    let src = format!(
        "{PRELUDE}#include <stdlib.h>\n#define CAP 2\nstruct q {{ int count; int items[CAP]; }}; struct q *queue;\n\
         void *producer(void *p) {{ struct q *q = queue; if (q->count < CAP) {{ int c = q->count; q->items[c] = 7; q->count = c + 1; }} return 0; }}\n\
         int main(void) {{ queue = calloc(1, sizeof(struct q)); queue->count = 1; pthread_t a, b;\n\
         pthread_create(&a, 0, producer, 0); pthread_create(&b, 0, producer, 0); pthread_join(a, 0); pthread_join(b, 0); return 0; }}\n"
    );
    let msg = memory_error(&reproduces("oob.c", &src));
    assert!(msg.contains("out-of-bounds"), "{msg}");
}

#[test]
fn the_solver_keeps_accesses_before_the_free_of_a_pointer_read_from_shared_memory() {
    // The reader increments the count of the block it read from `current`,
    // then reads its `timeout`; the reloader frees the block it read from
    // `current` (a free at a computed address). On a run failing at the
    // read of `timeout`, the solver's order put the free before the
    // increment too, and its replay failed there, earlier than recorded.
    let src = "#include <pthread.h>\n#include <stdatomic.h>\n#include <stdlib.h>\n\
        struct conf { atomic_int refs; int timeout; }; static struct conf *current;\n\
        static void put(struct conf *c) { if (atomic_fetch_sub(&c->refs, 1) == 1) free(c); }\n\
        static void *reader(void *a) { struct conf *c = current;\n\
        atomic_fetch_add(&c->refs, 1);\n\
        int t = c->timeout; put(c); return (void *)(long)t; }\n\
        static void *reloader(void *a) { struct conf *n = malloc(sizeof *n); atomic_init(&n->refs, 1); n->timeout = 20;\n\
        struct conf *old = current; current = n; put(old); return 0; }\n\
        int main(void) { current = malloc(sizeof *current); atomic_init(&current->refs, 1); current->timeout = 10;\n\
        pthread_t r, w; pthread_create(&r, 0, reader, 0); pthread_create(&w, 0, reloader, 0);\n\
        pthread_join(r, 0); pthread_join(w, 0); put(current); return 0; }\n";
    let prep = load("refs.c", src);
    let cfg = std::sync::Arc::new(Config { record_paths: true, ..Config::default() });
    // Line 8: the read of `timeout` (line 7 is the increment).
    let at_timeout = |ex: &causa_interp::Execution| {
        ex.outcome.finding().and_then(|f| f.location.as_ref()).is_some_and(|l| l.line == 8)
    };
    let ex =
        causa_explore::first_random_run(&prep, &cfg, 5000, at_timeout).expect("a run failing at the read of `timeout`");
    let log = log_of(&prep, &ex);
    let r = reproduce(&prep, &Config::default(), &log, &with(Method::Solver)).unwrap_or_else(|e| panic!("{e}"));
    let msg = memory_error(&r);
    assert!(msg.contains("use after free") && msg.contains("timeout"), "{msg}; recorded: {:?}", ex.outcome.finding());
}

#[test]
fn the_solver_models_atomic_read_modify_writes() {
    // The ticket t2 draws with fetch_add decides its branch; a
    // compare-and-exchange that succeeds decides the other. Each read and
    // write of the RMW happen at one instant (one access point).
    let src = format!(
        "{PRELUDE}#include <stdatomic.h>\natomic_int tickets; atomic_int owner; int flag, data;\n\
         void *t1(void *p) {{ atomic_fetch_add(&tickets, 1); flag = 1; int free_ = 0;\n\
         if (atomic_compare_exchange_strong(&owner, &free_, 1)) data = 1; return 0; }}\n\
         void *t2(void *p) {{ int old = atomic_fetch_add(&tickets, 1); if (old == 1) {{ int mine = 0;\n\
         if (!atomic_compare_exchange_strong(&owner, &mine, 2)) assert(flag == 1 && data == 0); }} return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); return 0; }}\n"
    );
    let r = reproduces("rmw.c", &src);
    assert_eq!(r.execution.outcome.finding().map(|f| f.kind), Some(causa_core::BugKind::AssertionViolation));
    assert_eq!(r.found_by, Method::Solver);
}

#[test]
fn the_solver_models_barriers() {
    // Both threads pass the barrier; the one that arrived first leaves in a
    // step of its own, the last one goes on at once. The failure needs t1's
    // write after the barrier before t2's read.
    let src = format!(
        "{PRELUDE}pthread_barrier_t bar; int flag;\n\
         void *t1(void *p) {{ pthread_barrier_wait(&bar); flag = 1; return 0; }}\n\
         void *t2(void *p) {{ pthread_barrier_wait(&bar); int f = flag; assert(f == 0); return 0; }}\n\
         int main(void) {{ pthread_barrier_init(&bar, 0, 2); pthread_t a, b; pthread_create(&a, 0, t1, 0);\n\
         pthread_create(&b, 0, t2, 0); pthread_join(a, 0); pthread_join(b, 0); return 0; }}\n"
    );
    let r = reproduces("barrier.c", &src);
    assert_eq!(r.found_by, Method::Solver);
    assert_eq!(r.execution.outcome.finding().map(|f| f.thread.to_string()), Some("0.2".to_string()));
}

#[test]
fn under_tso_the_solver_flushes_stores_through_computed_addresses() {
    // The increment goes to `counter[k]`, k read from shared memory (written
    // twice, so the solver resolves it over the array): under
    // TSO the store sits in the store buffer and its flush is a step of the
    // schedule, named by the thread (its oldest store) since the address is
    // the solver's.
    let src = format!(
        "{PRELUDE}int counter[2]; int k;\n\
         void *inc(void *p) {{ int i = k; int v = counter[i]; counter[i] = v + 1; return 0; }}\n\
         int main(void) {{ k = 1; k = 0; pthread_t a, b; pthread_create(&a, 0, inc, 0); pthread_create(&b, 0, inc, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(counter[0] == 2); return 0; }}\n"
    );
    let prep = load("tso_index.c", &src);
    let tso = Config { memory_model: causa_core::MemoryModel::Tso, ..Config::default() };
    let cfg = std::sync::Arc::new(Config { record_paths: true, ..tso.clone() });
    let failing = |ex: &causa_interp::Execution| matches!(ex.outcome, causa_interp::Outcome::Bug(_));
    let ex = causa_explore::first_random_run(&prep, &cfg, 5000, failing).expect("a failing run under TSO");
    let log = log_of(&prep, &ex);
    let r = reproduce(&prep, &tso, &log, &with(Method::Solver)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.found_by, Method::Solver);
    assert!(r.schedule.flushes.len() >= 2, "the stores' flushes are steps: {:?}", r.schedule.flushes);
}

#[test]
fn once_clock_and_trylock_outcomes_go_through_the_log_file() {
    // Format 4 keeps what each `pthread_once` call found, the clock's
    // values and whether each trylock took the lock; before, a log read
    // from a file had none of them and the solver said "unsupported". Both
    // methods reproduce from the file's log (the search's runs must find
    // what the recorded calls found, and read the recorded clock values).
    let src = format!(
        "{PRELUDE}#include <time.h>\n\
         pthread_once_t once = PTHREAD_ONCE_INIT; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         int ready, hits; long stamp;\n\
         void init(void) {{ ready = 1; }}\n\
         void *w(void *p) {{ pthread_once(&once, init); struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);\n\
         stamp = ts.tv_nsec;\n\
         if (pthread_mutex_trylock(&m) == 0) {{ hits++; pthread_mutex_unlock(&m); }} else {{ int h = hits; hits = h + 1; }}\n\
         return 0; }}\n\
         int main(void) {{ pthread_t p, q; pthread_create(&p, 0, w, 0); pthread_create(&q, 0, w, 0);\n\
         pthread_join(p, 0); pthread_join(q, 0); assert(hits == 2); return 0; }}\n"
    );
    let prep = load("once_try.c", &src);
    let ex = failing_run(&prep);
    let log = log_of(&prep, &ex);
    let workers = &log.threads[1..];
    assert!(workers.iter().all(|t| t.onces.len() == 1 && t.values.len() == 1 && t.tries.len() == 1), "{workers:?}");
    let dir = tempfile::tempdir().expect("temporary directory");
    log.write(dir.path()).expect("written");
    let read = causa_core::paths::PathLog::read(dir.path()).expect("read back");
    assert_eq!(read, log);
    for method in [Method::Solver, Method::Search] {
        let r =
            reproduce(&prep, &Config::default(), &read, &with(method)).unwrap_or_else(|e| panic!("{method:?}: {e}"));
        let f = r.execution.outcome.finding().expect("fails");
        assert_eq!(Some(f.kind), read.failure.as_ref().map(|f| f.kind), "{method:?}");
    }
}
