//! MCR against the exhaustive DFS oracle: on small programs both must reach
//! exactly the same set of outcomes (how each execution ended, and the final
//! values of all globals), and MCR must not need more executions. Runs that
//! exit while another thread could still move are left out on both sides
//! (`Execution::exited_early`): they differ from longer runs only in writes
//! no read saw.
//!
//! Without clang-14 these tests fail and say what to install.

#[path = "support/oracle.rs"]
mod oracle;

use causa_core::collections::HashSet;
use causa_core::Scheduler;
use causa_explore::mcr::{check, McrOptions, McrResult, McrVerdict};
use causa_explore::DfsScheduler;
use causa_interp::{Config, Machine, Prepared};
use oracle::{config, load};
use std::sync::Arc;

fn compare(name: &str, src: &str) -> (usize, usize) {
    compare_under(name, src, config())
}

/// [`compare`] with `cfg` (another memory model).
fn compare_under(name: &str, src: &str, cfg: Config) -> (usize, usize) {
    let prep = load(name, src);
    let dfs = oracle::dfs_outcomes(&prep, usize::MAX, cfg.clone()).expect("no limit");
    let (want, dfs_runs) = (dfs.outcomes, dfs.executions);
    let r = check(&prep, &cfg, &McrOptions { all_outcomes: true, ..McrOptions::default() }, &mut |_, _| {});
    if let McrVerdict::Error(e) = &r.verdict {
        panic!("{name}: MCR failed: {e}");
    }
    assert_eq!(r.stats.divergences, 0, "{name}: MCR computed schedules that did not replay");
    assert_eq!(r.outcomes, want, "{name}: MCR and DFS reach different outcomes");
    assert!(r.stats.executions <= dfs_runs, "{name}: MCR needed {} executions, DFS {dfs_runs}", r.stats.executions);
    println!("{name}: MCR {} executions, DFS {dfs_runs}", r.stats.executions);
    (r.stats.executions, dfs_runs)
}

const PRELUDE: &str = "#include <assert.h>\n#include <pthread.h>\n#include <stdatomic.h>\n";

#[test]
fn a_read_outside_the_new_states_causal_past_keeps_its_value() {
    // The logger takes the active buffer under the lock and writes into it
    // after releasing it; the flusher swaps the buffers under the lock,
    // checks the old one and clears it. Failing state: the logger took
    // buffer a before the swap, the flusher checked a before the logger's
    // write and cleared it after. MCR asked for the flusher's check to see
    // a's old byte with the logger's read outside that read's causal past:
    // the model put the logger after the swap, so it read buffer b in every
    // later execution, and `causa check` said verified.
    let src = format!(
        "{PRELUDE}char buf_a[8], buf_b[8]; char *active = buf_a; int flushed;\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         void *logger(void *p) {{ pthread_mutex_lock(&m); char *b = active; pthread_mutex_unlock(&m); b[0] = 'h'; return 0; }}\n\
         void *flusher(void *p) {{ pthread_mutex_lock(&m); char *full = active; active = active == buf_a ? buf_b : buf_a;\n\
         pthread_mutex_unlock(&m); flushed = full[0] != 0; full[0] = 0; return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, logger, 0); pthread_create(&b, 0, flusher, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(flushed || buf_a[0] == 'h' || buf_b[0] == 'h'); return 0; }}\n"
    );
    // The same with the buffer taken by an atomic update (`fetch_add` of
    // 0) and swapped by an exchange, and with the record copied in and
    // cleared by `memcpy` and `memset`.
    let rmw = format!(
        "{PRELUDE}char buf[2][8]; int active, flushed;\n\
         void *logger(void *p) {{ int b = __atomic_fetch_add(&active, 0, __ATOMIC_SEQ_CST); buf[b][0] = 'h'; return 0; }}\n\
         void *flusher(void *p) {{ int full = __atomic_exchange_n(&active, 1, __ATOMIC_SEQ_CST);\n\
         flushed = buf[full][0] != 0; buf[full][0] = 0; return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, logger, 0); pthread_create(&b, 0, flusher, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(flushed || buf[0][0] == 'h' || buf[1][0] == 'h'); return 0; }}\n"
    );
    let bulk = format!(
        "{PRELUDE}#include <string.h>\nstruct rec {{ int a, b; }}; struct rec slots[2]; int cur, seen;\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         void *writer(void *p) {{ pthread_mutex_lock(&m); int c = cur; pthread_mutex_unlock(&m);\n\
         struct rec r = {{1, 1}}; memcpy(&slots[c], &r, sizeof r); return 0; }}\n\
         void *rotator(void *p) {{ pthread_mutex_lock(&m); int old = cur; cur = 1 - cur; pthread_mutex_unlock(&m);\n\
         seen = slots[old].a; memset(&slots[old], 0, sizeof slots[old]); return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, writer, 0); pthread_create(&b, 0, rotator, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(seen || slots[0].a || slots[1].a); return 0; }}\n"
    );
    for (name, src) in [("buffer_swap.c", &src), ("buffer_exchange.c", &rmw), ("record_rotation.c", &bulk)] {
        compare(name, src);
        let prep = load(name, src);
        let r = check(&prep, &config(), &McrOptions::default(), &mut |_, _| {});
        assert!(matches!(r.verdict, McrVerdict::Bug(_)), "{name}: the lost write is found: {:?}", r.stats);
    }
}

#[test]
fn lost_update() {
    let src = format!(
        "{PRELUDE}int x;\nvoid *inc(void *a) {{ int t = x; x = t + 1; return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, inc, 0); pthread_create(&b, 0, inc, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(x == 2); return 0; }}\n"
    );
    compare("lost_update.c", &src);
}

#[test]
fn store_buffering_under_sc() {
    // Dissertation Fig. 3.5(a): under SC the outcome a = b = 0 is impossible.
    let src = format!(
        "{PRELUDE}int x, y, a, b;\n\
         void *t1(void *p) {{ x = 1; a = y; return 0; }}\n\
         void *t2(void *p) {{ y = 1; b = x; return 0; }}\n\
         int main(void) {{ pthread_t p, q; pthread_create(&p, 0, t1, 0); pthread_create(&q, 0, t2, 0);\n\
         pthread_join(p, 0); pthread_join(q, 0); assert(a == 1 || b == 1); return 0; }}\n"
    );
    compare("sb.c", &src);
}

#[test]
fn locked_counter() {
    let src = format!(
        "{PRELUDE}int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         void *inc(void *a) {{ pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, inc, 0); pthread_create(&b, 0, inc, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(x == 2); return 0; }}\n"
    );
    compare("locked.c", &src);
}

#[test]
fn lock_order_deadlock() {
    let src = format!(
        "{PRELUDE}pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;\n\
         void *ab(void *p) {{ pthread_mutex_lock(&a); pthread_mutex_lock(&b); pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return 0; }}\n\
         void *ba(void *p) {{ pthread_mutex_lock(&b); pthread_mutex_lock(&a); pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); return 0; }}\n\
         int main(void) {{ pthread_t p, q; pthread_create(&p, 0, ab, 0); pthread_create(&q, 0, ba, 0);\n\
         pthread_join(p, 0); pthread_join(q, 0); return 0; }}\n"
    );
    compare("abba.c", &src);
}

#[test]
fn atomic_cas_and_message_passing() {
    let src = format!(
        "{PRELUDE}atomic_int n; int data, flag;\n\
         void *w(void *p) {{ int old = atomic_load(&n); while (!atomic_compare_exchange_weak(&n, &old, old + 1)) {{}}\n\
         data = 42; flag = 1; return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); atomic_fetch_add(&n, 1);\n\
         if (flag) assert(data == 42); pthread_join(t, 0); assert(atomic_load(&n) == 2); return 0; }}\n"
    );
    compare("cas_mp.c", &src);
}

/// With race detection on, MCR finds a data race exactly when some interleaving
/// (explored by DFS) has two conflicting accesses next at the same time.
#[test]
fn races_agree_with_dfs() {
    let racy = format!(
        "{PRELUDE}int x;\nvoid *inc(void *a) {{ x = x + 1; return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, inc, 0); pthread_create(&b, 0, inc, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); return 0; }}\n"
    );
    let ordered = format!(
        "{PRELUDE}int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; atomic_int n;\n\
         void *inc(void *a) {{ pthread_mutex_lock(&m); x = x + 1; pthread_mutex_unlock(&m); atomic_fetch_add(&n, 1); return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, inc, 0); pthread_create(&b, 0, inc, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); return x + atomic_load(&n) == 4 ? 0 : 1; }}\n"
    );
    for (name, src, expect_race) in [("racy.c", racy, true), ("ordered.c", ordered, false)] {
        let prep = load(name, &src);
        let cfg = Config { detect_races: true, ..config() };
        let dfs_race = {
            let cfg = Arc::new(cfg.clone());
            let mut dfs = DfsScheduler::new();
            let mut found = false;
            while dfs.begin_execution() {
                let ex = Machine::new(prep.clone(), cfg.clone()).run(&mut dfs);
                found |= ex.outcome.finding().is_some_and(|f| f.kind == causa_core::BugKind::DataRace);
            }
            found
        };
        let r = check(&prep, &cfg, &McrOptions { races: true, ..McrOptions::default() }, &mut |_, _| {});
        let mcr_race = matches!(&r.verdict, McrVerdict::Bug(ex) if ex.outcome.finding().is_some_and(|f| f.kind == causa_core::BugKind::DataRace));
        assert_eq!(dfs_race, expect_race, "{name}: DFS");
        assert_eq!(mcr_race, expect_race, "{name}: MCR");
        if !expect_race {
            assert!(matches!(r.verdict, McrVerdict::Verified), "{name}: MCR should verify");
        }
    }
}

#[test]
fn semaphores() {
    // A binary semaphore as a lock, plus a handoff semaphore starting at 0.
    let src = format!(
        "{PRELUDE}#include <semaphore.h>\nsem_t lock, ready; int x, data;\n\
         void *w(void *a) {{ sem_wait(&lock); x = x + 1; sem_post(&lock); data = 7; sem_post(&ready); return 0; }}\n\
         int main(void) {{ sem_init(&lock, 0, 1); sem_init(&ready, 0, 0); pthread_t a, b;\n\
         pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0); sem_wait(&ready); int d = data;\n\
         sem_wait(&ready); pthread_join(a, 0); pthread_join(b, 0); assert(x == 2 && d == 7); return 0; }}\n"
    );
    compare("sems.c", &src);
}

/// Run MCR to the end (all outcomes); every computed schedule must replay.
fn mcr_all(name: &str, src: &str) -> McrResult {
    let prep = load(name, src);
    let r = check(&prep, &config(), &McrOptions { all_outcomes: true, ..McrOptions::default() }, &mut |_, _| {});
    assert_eq!(r.stats.divergences, 0, "{name}: MCR computed schedules that did not replay");
    r
}

/// The dissertation's counts (§1, Fig. 3.5(a) and Fig. 3.2; Fig. 3.1 for validity).
#[test]
fn dissertation_examples_explore_the_stated_number_of_executions() {
    let sb = format!(
        "{PRELUDE}int x, y, a, b;\n\
         void *t1(void *p) {{ x = 1; a = y; return 0; }}\n\
         void *t2(void *p) {{ y = 1; b = x; return 0; }}\n\
         int main(void) {{ pthread_t p, q; pthread_create(&p, 0, t1, 0); pthread_create(&q, 0, t2, 0);\n\
         pthread_join(p, 0); pthread_join(q, 0); return 0; }}\n"
    );
    assert_eq!(mcr_all("sb_count.c", &sb).stats.executions, 3, "x=1; a=y || y=1; b=x explores 3 executions under SC");
    let pqrs = format!(
        "{PRELUDE}int x, y, r1, r2;\n\
         void *p(void *a) {{ x = 1; return 0; }}\n\
         void *q(void *a) {{ r1 = x; return 0; }}\n\
         void *r(void *a) {{ y = 1; return 0; }}\n\
         void *s(void *a) {{ r2 = y; return 0; }}\n\
         int main(void) {{ pthread_t t[4]; pthread_create(&t[0], 0, p, 0); pthread_create(&t[1], 0, q, 0);\n\
         pthread_create(&t[2], 0, r, 0); pthread_create(&t[3], 0, s, 0);\n\
         for (int i = 0; i < 4; i++) pthread_join(t[i], 0); return 0; }}\n"
    );
    // (The dissertation's plain MCR explores 5 here, two of them the same
    // state, S1.1 ≡ S2.1, §5. causa also asks each new state with the
    // other threads' earlier reads kept (`Encoder::kept_reads`), and
    // explores that prefix too when it differs: one more.)
    let r = mcr_all("pqrs.c", &pqrs);
    assert_eq!(r.stats.executions, 6, "p: x=1, q: r1=x, r: y=1, s: r2=y: plain MCR's 5 and one kept-reads prefix");
    assert_eq!(r.outcomes.len(), 4, "the four (r1, r2): {:?}", r.outcomes);
    // Fig. 3.1: making `r = x` read 1 needs the branch read to keep reading 0,
    // so the schedule must be p1, q, p2; without validity the solver could
    // answer q, p1, p2, which takes the other branch (a divergence).
    let validity = format!(
        "{PRELUDE}int x, r = -1;\n\
         void *p(void *a) {{ if (x == 0) r = x; return 0; }}\n\
         void *q(void *a) {{ x = 1; return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, p, 0); pthread_create(&b, 0, q, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); return r; }}\n"
    );
    let r = mcr_all("validity.c", &validity);
    assert_eq!(r.stats.executions, 3, "r=0 (p,p,q), r=1 (p,q,p), branch not taken (q,p)");
    let exits: HashSet<String> = r.outcomes.iter().map(|(o, _)| o.clone()).collect();
    let want: HashSet<String> = ["exit 0", "exit 1", "exit -1"].iter().map(|s| s.to_string()).collect();
    assert_eq!(exits, want, "all three values of r are reached: {exits:?}");
}

#[test]
fn barriers() {
    // Each thread writes its slot, waits, then reads the other's; the thread
    // that completes the generation (serial) records itself.
    let src = format!(
        "{PRELUDE}pthread_barrier_t b; int slot[2], seen[2], serial = -1;\n\
         void *w(void *a) {{ long i = (long)a; slot[i] = (int)i + 1; int r = pthread_barrier_wait(&b);\n\
         if (r == PTHREAD_BARRIER_SERIAL_THREAD) serial = (int)i; seen[i] = slot[1 - i]; return 0; }}\n\
         int main(void) {{ pthread_barrier_init(&b, 0, 2); pthread_t a, c;\n\
         pthread_create(&a, 0, w, (void *)0); pthread_create(&c, 0, w, (void *)1);\n\
         pthread_join(a, 0); pthread_join(c, 0); assert(seen[0] == 2 && seen[1] == 1); return 0; }}\n"
    );
    let (mcr, _) = compare("barrier.c", &src);
    assert!(mcr >= 2, "both threads can be the serial thread");
}

#[test]
fn pthread_once_runs_the_routine_once() {
    let src = format!(
        "{PRELUDE}pthread_once_t once = PTHREAD_ONCE_INIT; int inits, ready, who;\n\
         void init(void) {{ inits = inits + 1; ready = 1; }}\n\
         void *w(void *a) {{ pthread_once(&once, init); assert(ready == 1); who = (int)(long)a; return 0; }}\n\
         int main(void) {{ pthread_t a, c; pthread_create(&a, 0, w, (void *)1); pthread_create(&c, 0, w, (void *)2);\n\
         pthread_once(&once, init); pthread_join(a, 0); pthread_join(c, 0); assert(inits == 1); return 0; }}\n"
    );
    compare("once.c", &src);
}

#[test]
fn use_after_free_needs_a_reordering() {
    // The first schedule reads the block before the worker frees it; only
    // another order reads it after the free.
    let src = format!(
        "{PRELUDE}#include <stdlib.h>\nint *p;\n\
         void *w(void *a) {{ free(p); return 0; }}\n\
         int main(void) {{ p = malloc(sizeof *p); *p = 1; pthread_t t; pthread_create(&t, 0, w, 0);\n\
         int v = *p; pthread_join(t, 0); return v; }}\n"
    );
    compare("uaf.c", &src);
    let prep = load("uaf.c", &src);
    let r = check(&prep, &config(), &McrOptions::default(), &mut |_, _| {});
    match r.verdict {
        McrVerdict::Bug(ex) => {
            let f = ex.outcome.finding().expect("finding");
            assert_eq!(f.kind, causa_core::BugKind::MemoryError);
            assert!(r.stats.executions >= 2, "the first execution does not show it");
        }
        _ => panic!("the use after free is found"),
    }
}

#[test]
fn errno_is_private_to_its_thread() {
    // libc shims set errno without a visible write; as errno is thread-private
    // its reads are not shared reads either, so MCR has nothing to reorder.
    let src = format!(
        "{PRELUDE}#include <errno.h>\n#include <stdlib.h>\nint out[2];\n\
         void *w(void *a) {{ long i = (long)a; errno = 0; strtol(\"99999999999999999999\", 0, 10); out[i] = errno; return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, w, (void *)0); pthread_create(&b, 0, w, (void *)1);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(out[0] == ERANGE && out[1] == ERANGE); return 0; }}\n"
    );
    let (mcr, _) = compare("errno.c", &src);
    assert_eq!(mcr, 1, "one state: errno accesses are not shared");
}

#[test]
fn independent_critical_sections_are_not_reordered() {
    // Two critical sections on one mutex that touch different data: their
    // order changes no state, so one execution covers both (DFS needs more).
    let src = format!(
        "{PRELUDE}int x, y; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         void *a(void *p) {{ pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }}\n\
         void *b(void *p) {{ pthread_mutex_lock(&m); y = 1; pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{ pthread_t p, q; pthread_create(&p, 0, a, 0); pthread_create(&q, 0, b, 0);\n\
         pthread_join(p, 0); pthread_join(q, 0); assert(x + y == 2); return 0; }}\n"
    );
    let (mcr, dfs) = compare("disjoint_sections.c", &src);
    assert_eq!(mcr, 1, "independent critical sections need one execution");
    assert!(dfs > 1);
}

#[test]
fn trylock_outcomes() {
    // Whether the trylock succeeds depends on where the other thread is.
    let src = format!(
        "{PRELUDE}int got; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         void *a(void *p) {{ pthread_mutex_lock(&m); pthread_mutex_unlock(&m); return 0; }}\n\
         void *b(void *p) {{ if (pthread_mutex_trylock(&m) == 0) {{ got = 1; pthread_mutex_unlock(&m); }} return 0; }}\n\
         int main(void) {{ pthread_t p, q; pthread_create(&p, 0, a, 0); pthread_create(&q, 0, b, 0);\n\
         pthread_join(p, 0); pthread_join(q, 0); return 0; }}\n"
    );
    compare("trylock.c", &src);
}

#[test]
fn lost_wakeup_without_a_predicate() {
    // The signal can come before the wait: the waiter then sleeps forever.
    let src = format!(
        "{PRELUDE}pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t c = PTHREAD_COND_INITIALIZER;\n\
         void *w(void *p) {{ pthread_mutex_lock(&m); pthread_cond_wait(&c, &m); pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0);\n\
         pthread_mutex_lock(&m); pthread_cond_signal(&c); pthread_mutex_unlock(&m); pthread_join(t, 0); return 0; }}\n"
    );
    let prep = load("lost_wakeup.c", &src);
    let r = check(&prep, &config(), &McrOptions::default(), &mut |_, _| {});
    assert!(matches!(r.verdict, McrVerdict::Bug(_)), "the lost wake-up is found");
    compare("lost_wakeup.c", &src);
}

#[test]
fn condition_variable_handoffs() {
    // A correct handoff with a predicate, and two waiters sharing one signal and
    // a later broadcast: which waiter takes the signal decides the final state.
    let handoff = format!(
        "{PRELUDE}int ready, data; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t c = PTHREAD_COND_INITIALIZER;\n\
         void *w(void *p) {{ pthread_mutex_lock(&m); while (!ready) pthread_cond_wait(&c, &m); assert(data == 5);\n\
         pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); data = 5;\n\
         pthread_mutex_lock(&m); ready = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m); pthread_join(t, 0); return 0; }}\n"
    );
    compare("handoff.c", &handoff);
    let two = format!(
        "{PRELUDE}int go, first; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t c = PTHREAD_COND_INITIALIZER;\n\
         void *w(void *p) {{ pthread_mutex_lock(&m); while (!go) pthread_cond_wait(&c, &m);\n\
         if (!first) first = (int)(long)p; pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, w, (void *)1); pthread_create(&b, 0, w, (void *)2);\n\
         pthread_mutex_lock(&m); go = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m);\n\
         pthread_mutex_lock(&m); pthread_cond_broadcast(&c); pthread_mutex_unlock(&m);\n\
         pthread_join(a, 0); pthread_join(b, 0); return 0; }}\n"
    );
    compare("two_waiters.c", &two);
    let one_signal = format!(
        "{PRELUDE}int go; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t c = PTHREAD_COND_INITIALIZER;\n\
         void *w(void *p) {{ pthread_mutex_lock(&m); pthread_cond_wait(&c, &m); pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);\n\
         pthread_mutex_lock(&m); pthread_cond_signal(&c); pthread_mutex_unlock(&m);\n\
         pthread_join(a, 0); pthread_join(b, 0); return 0; }}\n"
    );
    compare("one_signal.c", &one_signal);
}

#[test]
fn outcomes_do_not_depend_on_the_solver_model() {
    // Two consumers re-check with `if`; one broadcast for the first item
    // wakes both and the second takes from an empty queue. Which order the
    // solver returns for events a new state does not constrain must not
    // matter: with some of Z3's random seeds the prefix that lets one
    // consumer take the first item left the other consumer's wait out; it
    // then always waited after the broadcast, and the check said
    // "verified" (seed 64 did, before waits kept their wake-up counts).
    let src = format!(
        "{PRELUDE}pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t c = PTHREAD_COND_INITIALIZER; int items;\n\
         void *consumer(void *p) {{ pthread_mutex_lock(&m); if (items == 0) pthread_cond_wait(&c, &m);\n\
         items--; assert(items >= 0); pthread_mutex_unlock(&m); return 0; }}\n\
         void *producer(void *p) {{ for (int i = 0; i < 2; i++) {{ pthread_mutex_lock(&m); items++;\n\
         pthread_cond_broadcast(&c); pthread_mutex_unlock(&m); }} return 0; }}\n\
         int main(void) {{ pthread_t a, b, q; pthread_create(&a, 0, consumer, 0); pthread_create(&b, 0, consumer, 0);\n\
         pthread_create(&q, 0, producer, 0); pthread_join(a, 0); pthread_join(b, 0); pthread_join(q, 0); return 0; }}\n"
    );
    let prep = load("if_instead_of_while.c", &src);
    // (DFS needs a minute in a debug build here; every seed must reach the
    // same outcomes, among them the failure.)
    let mut first: Option<HashSet<(String, Option<u64>)>> = None;
    for seed in 0..100 {
        let opts = McrOptions { solver_seed: seed, ..McrOptions::default() };
        let r = check(&prep, &config(), &opts, &mut |_, _| {});
        assert!(matches!(r.verdict, McrVerdict::Bug(_)), "solver seed {seed}: the check did not find the failure");
        let all = check(&prep, &config(), &McrOptions { all_outcomes: true, ..opts }, &mut |_, _| {}).outcomes;
        assert!(all.iter().any(|(o, _)| o.starts_with("assertion-violation")), "solver seed {seed}: {all:?}");
        match &first {
            Some(want) => assert_eq!(&all, want, "solver seed {seed}: other outcomes than with seed 0"),
            None => first = Some(all),
        }
    }
}

#[test]
fn bulk_copies_conflict_with_the_elements_they_cover() {
    // memcpy, memset and a struct assignment write many locations at once; a
    // read of one element inside them must be explored before and after.
    let src = format!(
        "{PRELUDE}#include <string.h>\nstruct pair {{ int a, b; }};\n\
         int buf[4], zero[4] = {{5, 5, 5, 5}}; int from[4] = {{1, 2, 3, 4}}; struct pair shared_pair, local = {{7, 8}};\n\
         int got, cleared, pb;\n\
         void *w(void *p) {{ memcpy(buf, from, sizeof buf); memset(zero, 0, sizeof zero); shared_pair = local; return 0; }}\n\
         void *r(void *p) {{ got = buf[2]; cleared = zero[1]; pb = shared_pair.b; return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, r, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(got == 3 || cleared == 5); return 0; }}\n"
    );
    let prep = load("bulk.c", &src);
    let r = check(&prep, &config(), &McrOptions::default(), &mut |_, _| {});
    assert!(matches!(r.verdict, McrVerdict::Bug(_)), "the read before the copy is explored");
    compare("bulk.c", &src);
}

#[test]
fn counterexamples_get_the_fewest_preemptions_the_solver_finds() {
    // The check-then-act bug needs one preemption (between the check and the
    // act); four busy threads make random schedules switch far more often.
    let src = format!(
        "{PRELUDE}int balance = 10, noise[4];\n\
         void *busy(void *p) {{ long i = (long)p; for (int k = 0; k < 6; k++) noise[i] += k; return 0; }}\n\
         void *withdraw(void *p) {{ if (balance >= 10) {{ int b = balance; balance = b - 10; }} return 0; }}\n\
         int main(void) {{ pthread_t t[6]; for (long i = 0; i < 4; i++) pthread_create(&t[i], 0, busy, (void *)i);\n\
         pthread_create(&t[4], 0, withdraw, 0); pthread_create(&t[5], 0, withdraw, 0);\n\
         for (int i = 0; i < 6; i++) pthread_join(t[i], 0); assert(balance >= 0); return 0; }}\n"
    );
    let prep = load("withdraw.c", &src);
    let bug = causa_explore::first_random_run(&prep, &Arc::new(config()), 200, |ex| ex.outcome.finding().is_some());
    let ex = bug.expect("random testing finds the bug");
    let switches = ex.steps.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(switches > 3, "the random counterexample switches {switches} times");
    // Budget 0: no greedy tries, only the solver-bounded reduction.
    let (small, n) = causa_explore::minimize::fewer_preemptions(&prep, &config(), ex, 0);
    assert!(small.outcome.finding().is_some(), "the reduced schedule still fails");
    assert_eq!(n, 1, "one preemption is the fewest that shows the bug");
}

#[test]
fn counterexamples_too_long_for_the_solver_lose_their_preemptions_by_moves() {
    // Each worker takes a lock 120 times, then makes an unlocked increment
    // of `x`: over 600 events, so the solver-bounded reduction does not
    // run, and the random counterexample switches at many of the locked
    // steps. One preemption is the fewest (between a worker's read and
    // write of `x`), which stopping at a preemption and running on without
    // any cannot reach there: moving the preempted thread's next steps
    // forward does.
    let src = format!(
        "{PRELUDE}int x, n; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         void *w(void *p) {{ for (int i = 0; i < 120; i++) {{ pthread_mutex_lock(&m); n++; pthread_mutex_unlock(&m); }}\n\
         int t = x; x = t + 1; return 0; }}\n\
         int main(void) {{ pthread_t a, b, c; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);\n\
         pthread_create(&c, 0, w, 0); pthread_join(a, 0); pthread_join(b, 0); pthread_join(c, 0);\n\
         assert(x == 3); return 0; }}\n"
    );
    let prep = load("long_lost_update.c", &src);
    let bug = causa_explore::first_random_run(&prep, &Arc::new(config()), 200, |ex| ex.outcome.finding().is_some());
    let ex = bug.expect("random testing finds the bug");
    assert!(ex.steps.len() > causa_explore::minimize::SOLVER_MAX_EVENTS, "{} steps", ex.steps.len());
    let switches = ex.steps.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(switches > 20, "the random counterexample switches {switches} times");
    let (small, n) =
        causa_explore::minimize::fewer_preemptions(&prep, &config(), ex, causa_explore::minimize::EDIT_BUDGET);
    assert!(small.outcome.finding().is_some(), "the reduced schedule still fails");
    assert_eq!(n, 1, "one preemption is the fewest that shows the bug");
}

#[test]
fn deadlock_counterexamples_are_shown_with_few_preemptions() {
    // Three threads take two of three mutexes in a cycle; busy threads make a
    // random schedule switch often. The deadlock's own trace lacks the three
    // blocked locks: the reduction asks the deadlock query on the trace plus
    // them. One preemption is the fewest: after one thread's first lock,
    // switch to the thread that takes the lock it needs second; every later
    // switch happens at a blocked lock.
    let src = format!(
        "{PRELUDE}pthread_mutex_t m[3]; int noise[3];
         void *busy(void *p) {{ long i = (long)p; for (int k = 0; k < 6; k++) noise[i] += k; return 0; }}
         void *eat(void *p) {{ long i = (long)p; pthread_mutex_lock(&m[i]); pthread_mutex_lock(&m[(i + 1) % 3]);
         pthread_mutex_unlock(&m[(i + 1) % 3]); pthread_mutex_unlock(&m[i]); return 0; }}
         int main(void) {{ pthread_t t[6]; for (int i = 0; i < 3; i++) pthread_mutex_init(&m[i], 0);
         for (long i = 0; i < 3; i++) {{ pthread_create(&t[i], 0, busy, (void *)i); pthread_create(&t[i + 3], 0, eat, (void *)i); }}
         for (int i = 0; i < 6; i++) pthread_join(t[i], 0); return 0; }}
"
    );
    let prep = load("cycle.c", &src);
    let deadlock =
        |ex: &causa_interp::Execution| ex.outcome.finding().is_some_and(|f| f.kind == causa_core::BugKind::Deadlock);
    let ex = causa_explore::first_random_run(&prep, &Arc::new(config()), 2000, deadlock)
        .expect("random testing finds the deadlock");
    assert_eq!(ex.blocked.len(), 4, "main's join and the three locks are the blocked operations");
    let switches = ex.steps.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(switches > 4, "the random counterexample switches {switches} times");
    let (small, n) = causa_explore::minimize::fewer_preemptions(&prep, &config(), ex, 0);
    assert!(small.outcome.finding().is_some_and(|f| f.kind == causa_core::BugKind::Deadlock));
    assert_eq!(n, 1, "one preemption is the fewest that reaches the deadlock");
}

#[test]
fn semaphore_wait_orders_that_deadlock() {
    // Whichever thread takes `s` first decides: t2 holding it waits for `t`,
    // which only t1 posts after taking `s` — a deadlock in one order only (not
    // the one a run without preemptions takes). Wait orders are not explored
    // as such; the deadlock query must find it.
    let src = format!(
        "{PRELUDE}#include <semaphore.h>\nsem_t s, t; int x;\n\
         void *t1(void *a) {{ sem_wait(&s); sem_post(&t); sem_post(&s); return 0; }}\n\
         void *t2(void *a) {{ sem_wait(&s); sem_wait(&t); x = 1; sem_post(&s); return 0; }}\n\
         int main(void) {{ sem_init(&s, 0, 1); sem_init(&t, 0, 0); pthread_t a, b;\n\
         pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); return 0; }}\n"
    );
    let (mcr, _) = compare("sem_deadlock.c", &src);
    assert!(mcr >= 2, "the deadlock and the good ending need two executions");
}

#[test]
fn counting_semaphore_handoffs() {
    // A producer hands two items to two consumers through a counting
    // semaphore: which consumer gets which item is explored through the data,
    // not through the order of the waits.
    let src = format!(
        "{PRELUDE}#include <semaphore.h>\nsem_t full; int slot[2], got[2]; atomic_int next;\n\
         void *cons(void *a) {{ int me = (int)(long)a; sem_wait(&full); got[me] = slot[atomic_fetch_add(&next, 1)]; return 0; }}\n\
         int main(void) {{ sem_init(&full, 0, 0); pthread_t c[2];\n\
         pthread_create(&c[0], 0, cons, (void *)0); pthread_create(&c[1], 0, cons, (void *)1);\n\
         slot[0] = 1; sem_post(&full); slot[1] = 2; sem_post(&full); pthread_join(c[0], 0); pthread_join(c[1], 0);\n\
         assert(got[0] + got[1] == 3); return 0; }}\n"
    );
    compare("sem_handoffs.c", &src);
}

#[test]
fn semaphore_tries_get_both_results() {
    // sem_trywait fails or succeeds depending on whether the post came first;
    // a failed try changes the path (x = 2), and so does a successful one.
    let src = format!(
        "{PRELUDE}#include <semaphore.h>\n#include <time.h>\nsem_t s; int x, y;\n\
         void *poster(void *a) {{ sem_post(&s); return 0; }}\n\
         void *taker(void *a) {{ if (sem_trywait(&s) == 0) x = 1; else x = 2; return 0; }}\n\
         void *timed(void *a) {{ struct timespec d = {{0, 0}}; if (sem_timedwait(&s, &d) == 0) y = 1; else y = 2; return 0; }}\n\
         int main(void) {{ sem_init(&s, 0, 0); pthread_t a, b, c;\n\
         pthread_create(&a, 0, poster, 0); pthread_create(&b, 0, taker, 0); pthread_create(&c, 0, timed, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); pthread_join(c, 0); return 0; }}\n"
    );
    let (mcr, _) = compare("sem_tries.c", &src);
    assert!(mcr >= 3, "x = 1, y = 1 and both failing are three outcomes");
}

#[test]
fn timed_waits_time_out_or_are_woken() {
    // One timed wait, no predicate loop: it returns 0 when the signal reaches
    // it and ETIMEDOUT otherwise; the signaller may also come first.
    let src = format!(
        "{PRELUDE}#include <time.h>\nint r = -1, flag;\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t c = PTHREAD_COND_INITIALIZER;\n\
         void *sig(void *a) {{ pthread_mutex_lock(&m); flag = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, sig, 0); struct timespec d = {{0, 0}};\n\
         pthread_mutex_lock(&m); if (!flag) r = pthread_cond_timedwait(&c, &m, &d); pthread_mutex_unlock(&m);\n\
         pthread_join(t, 0); return 0; }}\n"
    );
    let (mcr, _) = compare("timed_wait.c", &src);
    assert!(mcr >= 3, "woken, timed out, and not waiting at all are three outcomes");
}

#[test]
fn timed_wait_loops_end() {
    // A loop around a timed wait that may keep timing out: the interpreter
    // parks its timeouts until another thread changes what the loop observed,
    // and MCR must mirror that (else its schedules diverge or never end).
    let src = format!(
        "{PRELUDE}#include <errno.h>\n#include <time.h>\nint ready, woke;\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t c = PTHREAD_COND_INITIALIZER;\n\
         void *sig(void *a) {{ pthread_mutex_lock(&m); ready = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, sig, 0); struct timespec d = {{0, 0}};\n\
         pthread_mutex_lock(&m); while (!ready) {{ int r = pthread_cond_timedwait(&c, &m, &d); if (r == 0) woke = 1; }}\n\
         pthread_mutex_unlock(&m); pthread_join(t, 0); return 0; }}\n"
    );
    let (mcr, _) = compare("timed_wait_loop.c", &src);
    assert!(mcr >= 2, "the waiter is woken or not");
}

#[test]
fn timed_wait_loop_woken_by_a_plain_write() {
    // Nobody signals: only the write to `ready` lets the parked loop time out
    // again and see it.
    let src = format!(
        "{PRELUDE}#include <time.h>\nint ready, seen;\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t c = PTHREAD_COND_INITIALIZER;\n\
         void *set(void *a) {{ ready = 1; return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, set, 0); struct timespec d = {{0, 0}};\n\
         pthread_mutex_lock(&m); while (!ready) pthread_cond_timedwait(&c, &m, &d); seen = ready;\n\
         pthread_mutex_unlock(&m); pthread_join(t, 0); assert(seen == 1); return 0; }}\n"
    );
    compare("timed_wait_plain_write.c", &src);
}

#[test]
fn orders_after_a_first_run_deadlock() {
    // The run without preemptions deadlocks (main holds `m` while joining the
    // thread that needs it); had the thread taken `m` first, both finish. The
    // deadlocked trace lacks the two blocked operations, so MCR adds them to
    // find the other order.
    let src = format!(
        "{PRELUDE}pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int x, y;\n\
         void *t(void *a) {{ pthread_mutex_lock(&m); y = 1; pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{ pthread_t a; pthread_create(&a, 0, t, 0); pthread_mutex_lock(&m); x = 1;\n\
         pthread_join(a, 0); pthread_mutex_unlock(&m); return 0; }}\n"
    );
    let (mcr, _) = compare("first_run_deadlock.c", &src);
    assert!(mcr >= 2, "a deadlock and a normal end");
}

/// Threads the end of `main` cuts short: their writes are in no trace of the
/// first execution (main runs to its end before they start), so MCR asks for
/// each one's next operation before the end. Every outcome DFS reaches.
#[test]
fn threads_cut_off_by_the_end_of_main_are_explored() {
    // A worker never joined: main's read can see its write.
    let unjoined = format!(
        "{PRELUDE}int a;\nvoid *w(void *p) {{ a = 1; return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); assert(a == 0); return 0; }}\n"
    );
    compare("unjoined.c", &unjoined);
    let prep = load("unjoined.c", &unjoined);
    let r = check(&prep, &config(), &McrOptions::default(), &mut |_, _| {});
    assert!(matches!(r.verdict, McrVerdict::Bug(_)), "the write before main's read is found");
    // Two workers and exit(): the second worker's writes matter only when
    // it runs before main exits, after the first one's.
    let exits = format!(
        "{PRELUDE}#include <stdlib.h>\nint x, y;\n\
         void *w1(void *p) {{ x = 1; return 0; }}\nvoid *w2(void *p) {{ if (x) y = 1; return 0; }}\n\
         int main(void) {{ pthread_t s, t; pthread_create(&s, 0, w1, 0); pthread_create(&t, 0, w2, 0);\n\
         int seen = y; assert(seen == 0); exit(0); }}\n"
    );
    compare("exits.c", &exits);
    // Three workers, one joined: the failing state needs all three to run
    // before main's read. Asking for one cut-off worker at a time lost the
    // other's events; runs now go on with the exit last.
    let partial = format!(
        "{PRELUDE}int x;
void *w(void *a) {{ int v = x; x = v + 1; return 0; }}
         int main(void) {{ pthread_t t[3]; for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, w, 0);
         pthread_join(t[0], 0); int r = x; assert(r != 3); return 0; }}
"
    );
    let prep = load("partial_join.c", &partial);
    let r = check(&prep, &config(), &McrOptions::default(), &mut |_, _| {});
    assert!(matches!(r.verdict, McrVerdict::Bug(_)), "all three increments before main's read are found");
    // A thread the failure cuts off at a barrier it may leave: its next
    // step is the barrier's departure (which needs every arrival), not an
    // unknown operation, so the schedules asked for replay.
    let barrier = format!(
        "{PRELUDE}pthread_barrier_t b; int x, y;
         void *w(void *a) {{ x = 1; pthread_barrier_wait(&b); int r = y; assert(r == 1); return 0; }}
         int main(void) {{ pthread_barrier_init(&b, 0, 2); pthread_t t; pthread_create(&t, 0, w, 0);
         pthread_barrier_wait(&b); y = 1; pthread_join(t, 0); return 0; }}
"
    );
    compare("barrier_cut_off.c", &barrier);
}

/// A thread blocked when the program ends (here on a lock main still
/// holds) has its blocked operation in the model: MCR asks for it before
/// main's acquisition, where it succeeds, and finds the failure that needs
/// it; when nothing could let it through earlier, the verdict stays
/// `verified`.
#[test]
fn a_thread_blocked_at_the_end_is_asked_to_go_first() {
    let src = format!(
        "{PRELUDE}pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int a;\n\
         void *w(void *p) {{ pthread_mutex_lock(&m); a = 1; pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); pthread_mutex_lock(&m); int r = a;\n\
         assert(r == 0); return 0; }}\n"
    );
    let prep = load("blocked_at_end.c", &src);
    let r = check(&prep, &config(), &McrOptions::default(), &mut |_, _| {});
    assert!(matches!(r.verdict, McrVerdict::Bug(_)), "the worker's critical section before main's is found");
    compare("blocked_at_end.c", &src);
    let never = format!(
        "{PRELUDE}pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int a;\n\
         void *w(void *p) {{ pthread_mutex_lock(&m); a = 1; pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{ pthread_mutex_lock(&m); pthread_t t; pthread_create(&t, 0, w, 0); assert(a == 0); return 0; }}\n"
    );
    let prep = load("blocked_for_good.c", &never);
    let r = check(&prep, &config(), &McrOptions::default(), &mut |_, _| {});
    assert!(matches!(r.verdict, McrVerdict::Verified), "main holds the lock from before the worker exists");
}

/// What a check did, step by step: how many executions and queries, how
/// many satisfiable, and what it found.
fn fingerprint(prep: &Arc<Prepared>) -> String {
    let r = check(prep, &config(), &McrOptions::default(), &mut |_, _| {});
    let found = match &r.verdict {
        McrVerdict::Bug(ex) => format!("bug after {:?}", ex.events.iter().map(|e| e.thread).collect::<Vec<_>>()),
        McrVerdict::Verified => "verified".into(),
        McrVerdict::Unknown(why) => format!("unknown: {why}"),
        McrVerdict::Error(e) => format!("error: {e}"),
    };
    let mut outcomes: Vec<_> = r.outcomes.into_iter().collect();
    outcomes.sort();
    let s = &r.stats;
    format!("{} executions, {} queries, {} sat; {found}; {outcomes:?}", s.executions, s.queries, s.sat)
}

#[test]
fn a_check_does_not_depend_on_what_its_thread_solved_before() {
    // Z3's answers depend on the terms its context has seen, and MCR
    // explores the states its models give: each check runs in a Z3 context
    // of its own, so a check after others in the same thread (a library
    // caller, a test) explores exactly what it explores alone.
    let programs: Vec<Arc<Prepared>> = [
        ("dispatch_table_once.c", include_str!("../../../tests/programs/pass/realistic/dispatch_table_once.c")),
        // (Its counterexample changed after dispatch_table_once's check in
        // the same thread, before checks had contexts of their own.)
        (
            "refcount_nonatomic_release.c",
            include_str!("../../../tests/programs/fail/realistic/refcount_nonatomic_release.c"),
        ),
    ]
    .into_iter()
    .map(|(name, src)| load(name, src))
    .collect();
    let alone: Vec<String> = programs
        .iter()
        .map(|p| {
            let p = p.clone();
            std::thread::spawn(move || fingerprint(&p))
        })
        .map(|h| h.join().expect("a check panicked"))
        .collect();
    // All in one thread.
    for (i, p) in programs.iter().enumerate() {
        assert_eq!(fingerprint(p), alone[i], "program {i} checked after others in the same thread");
    }
}

#[test]
fn a_local_used_after_its_function_returned() {
    // publish()'s local dies in the step of its last event before the
    // return; the reader's use of the pointer after it is a dead-frame
    // access, before it a valid read. Both are explored, as DFS finds them.
    let src = include_str!("../../../tests/programs/fail/memory/dead_frame_published.c");
    let prep = load("dead_frame_published.c", src);
    let r = check(&prep, &config(), &McrOptions::default(), &mut |_, _| {});
    assert!(matches!(r.verdict, McrVerdict::Bug(_)), "the use after the return is explored");
    compare("dead_frame_published.c", src);
}

#[test]
fn a_lock_word_read_at_its_initial_value_or_after_a_release() {
    // A test-then-set lock: both threads can see the lock free (its
    // initial 0) before either takes it, and the increments then race.
    // Reading that 0 is a different state from reading the 0 of the other
    // thread's release, although the value is the same: MCR once said
    // "verified" here.
    let src = format!(
        "{PRELUDE}atomic_int lock; int counter;\n\
         void *w(void *a) {{ while (atomic_load(&lock) != 0) ; atomic_store(&lock, 1);\n\
         counter++; atomic_store(&lock, 0); return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(counter == 2); return 0; }}\n"
    );
    let prep = load("test_then_set.c", &src);
    let r = check(&prep, &config(), &McrOptions::default(), &mut |_, _| {});
    assert!(matches!(r.verdict, McrVerdict::Bug(_)), "the lost increment is found: {:?}", r.stats);
    compare("test_then_set.c", &src);
}

#[test]
fn spin_locks_on_test_and_set_and_compare_and_swap_are_verified() {
    // Each waiting turn of a spin lock is an rmw that writes back the value
    // it read: the loop changes nothing and is parked like a read loop, so
    // the check ends (it ran into the step bound before).
    let tas = format!(
        "{PRELUDE}atomic_flag f = ATOMIC_FLAG_INIT; int counter;\n\
         void *w(void *a) {{ while (atomic_flag_test_and_set(&f)) ; counter++; atomic_flag_clear(&f); return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(counter == 2); return 0; }}\n"
    );
    let cas = format!(
        "{PRELUDE}atomic_int lock; int counter;\n\
         void *w(void *a) {{ int e = 0; while (!atomic_compare_exchange_weak(&lock, &e, 1)) e = 0;\n\
         counter++; atomic_store(&lock, 0); return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(counter == 2); return 0; }}\n"
    );
    for (name, src) in [("tas_lock.c", &tas), ("cas_lock.c", &cas)] {
        let prep = load(name, src);
        let r = check(&prep, &config(), &McrOptions::default(), &mut |_, _| {});
        let unknown = if let McrVerdict::Unknown(why) = &r.verdict { why.as_str() } else { "" };
        assert!(matches!(r.verdict, McrVerdict::Verified), "{name}: not verified {unknown}");
        compare(name, src);
    }
}

#[test]
fn a_destroy_of_a_held_mutex_is_shown_with_one_preemption() {
    // The reduction asked only to reach the destroy, and its schedule (the
    // user's lock not before it) did not fail there: the counterexample kept
    // its 3 or 4 preemptions. It now asks for the destroy inside the user's
    // critical section: one preemption (after the user's lock).
    let src = include_str!("../../../tests/programs/fail/mutex/destroy_while_locked.c");
    let prep = load("destroy_while_locked.c", src);
    let held =
        |ex: &causa_interp::Execution| ex.outcome.finding().is_some_and(|f| f.message.starts_with("destroying mutex"));
    let ex =
        causa_explore::first_random_run(&prep, &Arc::new(config()), 2000, held).expect("a destroy of a held mutex");
    let (small, n) = causa_explore::minimize::fewer_preemptions(&prep, &config(), ex, 0);
    assert!(held(&small), "the reduced schedule fails the same way: {:?}", small.outcome);
    assert_eq!(n, 1, "one preemption is the fewest that shows it");
}

#[test]
fn a_condition_variable_destroyed_while_a_thread_waits_on_it() {
    // The destroy is a visible event now, and MCR asks whether it can come
    // while another thread waits (no signal or broadcast in between); the
    // outcomes are DFS's.
    let src = include_str!("../../../tests/programs/fail/cond/destroyed_while_waiting.c");
    let prep = load("destroyed_while_waiting.c", src);
    let r = check(&prep, &config(), &McrOptions::default(), &mut |_, _| {});
    let McrVerdict::Bug(ex) = &r.verdict else { panic!("the destroy during the wait is found: {:?}", r.stats) };
    let f = ex.outcome.finding().expect("a finding");
    assert!(f.message.starts_with("destroying condition variable"), "{}", f.message);
    compare("destroyed_while_waiting.c", src);
}

/// A worker counts in a loop until main sets a stop flag; main then frees
/// the counters without joining the worker first.
const STOP_FLAG: &str = "#include <pthread.h>\n#include <stdlib.h>\n\
     int stop; int *counters;\n\
     void *worker(void *a) { while (!stop) counters[0]++; return 0; }\n\
     int main(void) { counters = calloc(4, sizeof(int)); pthread_t w; pthread_create(&w, 0, worker, 0);\n\
     stop = 1; free(counters); pthread_join(w, 0); return 0; }\n";

#[test]
fn a_worker_looping_until_a_stop_flag_does_not_starve_main() {
    // MCR's second execution has the worker read the flag before main
    // sets it. Run on without preemptions, the worker then loops until
    // the step limit, and the trace has none of main's later operations
    // to reorder: MCR found nothing. With turns, main runs after the
    // worker's turn (`mcr::TURN` steps), and the use after free is found.
    let prep = load("stop_flag.c", STOP_FLAG);
    let opts = McrOptions { probes: 0, ..McrOptions::default() };
    let r = check(&prep, &config(), &opts, &mut |_, _| {});
    match &r.verdict {
        McrVerdict::Bug(ex) => {
            let f = ex.outcome.finding().expect("a finding");
            assert_eq!(f.kind, causa_core::BugKind::MemoryError, "{f:?}");
        }
        McrVerdict::Unknown(why) => panic!("expected the use after free, got unknown: {why}"),
        McrVerdict::Verified => panic!("expected the use after free, got verified"),
        McrVerdict::Error(e) => panic!("expected the use after free, got an error: {e}"),
    }
    assert!(r.stats.bug_from_probe.is_none());
    let turn = causa_explore::mcr::TURN;
    assert!(r.stats.largest_trace < 2 * turn, "largest trace {} events", r.stats.largest_trace);
}

#[test]
fn a_long_stretch_before_a_preemption_is_shortened() {
    // The worker runs 300 turns of its loop, reads the flag once more,
    // and is preempted: main sets the flag and frees the counters, and
    // the worker's next access fails (1,209 steps). The same bug needs
    // only the worker's first read of the flag before main's steps.
    let prep = load("stop_flag.c", STOP_FLAG);
    let (main, worker) = (causa_core::ThreadName::main(), causa_core::ThreadName::main().child(1));
    let mut steps = vec![main.clone(); 3];
    steps.extend(std::iter::repeat_n(worker, 2 + 4 * 300));
    steps.extend(std::iter::repeat_n(main, 3));
    let prefix = causa_explore::mcr::Prefix { steps, flushes: Default::default() };
    let mut s = prefix.scheduler();
    s.begin_execution();
    let ex = Machine::new(prep.clone(), Arc::new(config())).run(&mut s);
    let kind = |ex: &causa_interp::Execution| ex.outcome.finding().map(|f| f.kind);
    assert_eq!(kind(&ex), Some(causa_core::BugKind::MemoryError), "{:?}", ex.outcome);
    assert!(ex.steps.len() > 1200, "{} steps", ex.steps.len());
    let (small, n) =
        causa_explore::minimize::fewer_preemptions(&prep, &config(), ex, causa_explore::minimize::EDIT_BUDGET);
    assert_eq!(kind(&small), Some(causa_core::BugKind::MemoryError), "{:?}", small.outcome);
    assert!(small.steps.len() < 20, "{} steps", small.steps.len());
    assert_eq!(n, 2, "the preemptions stay as few");
}

#[test]
fn a_prefix_fixes_what_its_reads_return_not_its_order() {
    // Found by mcr_fuzz.rs: with a prefix's events held in their order,
    // a state that needed a write the prefix held to move before another
    // (main's final reads after the joins) or a later write to move before
    // one of the prefix's writes was never reached, and the check said
    // verified on both. (Outcome sets are not compared here: main reads
    // some globals only when others hold the failing values, and MCR
    // does not tell final values no read sees apart.)
    for (name, src) in [
        ("last_writer_after_joins.c", include_str!("../../../tests/programs/fail/basic/last_writer_after_joins.c")),
        (
            "value_written_after_prefix_write.c",
            include_str!("../../../tests/programs/fail/basic/value_written_after_prefix_write.c"),
        ),
    ] {
        let r = check(&load(name, src), &config(), &McrOptions::default(), &mut |_, _| {});
        assert!(matches!(r.verdict, McrVerdict::Bug(_)), "{name}: the failing state is reached: {:?}", r.stats);
    }
}

#[test]
fn a_prefix_that_ends_in_a_failing_step_holds_only_the_events_run() {
    // Found by mcr_fuzz.rs (the heap): the run that followed a prefix
    // stopped at its last step, a use after free, which records no event.
    // The prefix's length then counted one event more than the run had,
    // main's join of the failing thread (what the stop cut off), and the
    // next query's schedule ran that join before the thread had ended: it
    // did not replay, and the states after it were not reached.
    let src = "#include <pthread.h>\n#include <stdlib.h>\nint *hp;\nint g;\n\
        void *user(void *p) { int *q = hp; if (q) q[0] = 1; return 0; }\n\
        void *releaser(void *p) { int *q = hp; hp = 0; if (q) free(q); return 0; }\n\
        int main(void) {\n  pthread_t a, b;\n  hp = calloc(2, sizeof(int));\n\
        pthread_create(&a, 0, user, 0);\n  pthread_create(&b, 0, releaser, 0);\n\
        pthread_join(a, 0);\n  pthread_join(b, 0);\n\
        int *q = hp;\n  if (q) { g = q[0]; free(q); }\n  return 0;\n}\n";
    compare("failing_step_in_prefix.c", src);
}

#[test]
fn a_wait_that_nothing_wakes_does_not_take_its_mutex_back() {
    // Found by mcr_fuzz.rs: the waiter is never woken (a deadlock in every
    // order). Asked whether the other thread's trylock could fail, the
    // model let the wait's return hold the mutex, unwoken; that schedule
    // did not replay, and the state where the trylock fails (the waiter
    // holding the mutex before its wait) was not reached.
    let src = format!(
        "{PRELUDE}int x, flag;\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         pthread_cond_t cv = PTHREAD_COND_INITIALIZER;\n\
         void *trier(void *p) {{ if (pthread_mutex_trylock(&m) == 0) {{ x = 2; pthread_mutex_unlock(&m); }} return 0; }}\n\
         void *waiter(void *p) {{ pthread_mutex_lock(&m); if (flag == 0) pthread_cond_wait(&cv, &m); x = flag; pthread_mutex_unlock(&m); return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, trier, 0); pthread_create(&b, 0, waiter, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); return 0; }}\n"
    );
    compare("unwoken_wait_holds_no_mutex.c", &src);
}

#[test]
fn after_a_deadlock_the_operation_a_thread_is_stuck_at_can_happen_in_another_order() {
    // Found by mcr_fuzz.rs: one unit, two waiters; whichever waits second
    // is stuck for good. The first run's deadlock left the second waiter
    // stuck, and no query asked for its wait to take the unit instead, so
    // the other deadlock (the first waiter stuck, main at the other join)
    // was never reached.
    let src = "#include <pthread.h>\n#include <semaphore.h>\nsem_t s;\nint a_done, b_done;\n\
        void *ta(void *p) { sem_wait(&s); a_done = 1; return 0; }\n\
        void *tb(void *p) { sem_wait(&s); b_done = 1; return 0; }\n\
        int main(void) { pthread_t a, b; sem_init(&s, 0, 1);\n\
        pthread_create(&a, 0, ta, 0); pthread_create(&b, 0, tb, 0);\n\
        pthread_join(a, 0); pthread_join(b, 0); return 0; }\n";
    compare("second_waiter_stuck.c", src);
}

#[test]
fn a_flipped_trylock_keeps_the_reads_before_it() {
    // The worker announces itself, then tries the lock; the auditor reads
    // the announcement under the lock. Failing state: the auditor read 0
    // and the worker's trylock failed in the auditor's section. The flip
    // of the trylock kept only its causal past (the worker's store), so
    // the auditor's read came after the store in the new schedule and saw
    // 1: `causa check` said verified (SC, TSO and PSO).
    let name = "worker_skips_while_auditor_reads.c";
    let src = include_str!("../../../tests/programs/fail/basic/worker_skips_while_auditor_reads.c");
    for model in [causa_core::MemoryModel::Sc, causa_core::MemoryModel::Tso, causa_core::MemoryModel::Pso] {
        let cfg = Config { memory_model: model, ..config() };
        let r = check(&load(name, src), &cfg, &McrOptions::default(), &mut |_, _| {});
        assert!(matches!(r.verdict, McrVerdict::Bug(_)), "{model}: the failing state is reached: {:?}", r.stats);
    }
    compare(name, src);
}

#[test]
fn a_library_call_on_shared_memory_is_a_fence_under_tso() {
    // Found by generated programs with every feature under TSO: main reads
    // back its state after the join with a `sem_getvalue(&s, …)` among the
    // reads. The interpreter runs such a call only once main's buffer has
    // drained, but recorded no event for it, so MCR asked for a schedule
    // with a later read before the flush of an earlier store, which could
    // not run (and the states after it were not reached).
    let src = "#include <assert.h>\n#include <pthread.h>\n#include <semaphore.h>\n#include <stdlib.h>\n\
        sem_t s;\nint *hp;\nint g0, g1, seen;\n\
        void *t0(void *p) { int r2 = __atomic_exchange_n(&g1, 1, __ATOMIC_SEQ_CST); g1 = 0; return 0; }\n\
        int main(void) {\n  pthread_t a;\n  sem_init(&s, 0, 0);\n  hp = calloc(2, sizeof(int));\n\
        pthread_create(&a, 0, t0, 0);\n  pthread_join(a, 0);\n  seen = g0 + 4 * g1;\n\
        int left = 0;\n  sem_getvalue(&s, &left);\n  int *q = hp;\n\
        if (q) { seen += 4096 * (q[0] + 3 * q[1]); free(q); }\n\
        seen += 1 << (20 + (left & 3));\n  assert(g0 != 0);\n  return 0;\n}\n";
    compare_under("getvalue_after_join.c", src, oracle::config_under(causa_core::MemoryModel::Tso));
}
