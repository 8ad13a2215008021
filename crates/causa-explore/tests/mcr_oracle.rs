//! MCR against the exhaustive DFS oracle: on small programs both must reach
//! exactly the same set of outcomes (how each execution ended, and the final
//! values of all globals), and MCR must not need more executions.
//!
//! Without clang-14 these tests fail and say what to install.

use causa_core::Scheduler;
use causa_explore::mcr::{check, outcome_key, McrOptions, McrVerdict};
use causa_explore::{run_once, DfsScheduler};
use causa_interp::{prepare, Config, Machine, OutputMode, Prepared};
use causa_ir::{load_program, CompileOptions};
use std::collections::HashSet;
use std::sync::Arc;

fn load(name: &str, src: &str) -> Arc<Prepared> {
    if causa_ir::compile::find_tool("clang").is_err() {
        panic!("clang-14 is required: install it with `apt-get install clang-14 llvm-14` (or `make setup` as root)");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(name);
    std::fs::write(&path, src).expect("write program");
    let program = load_program(&[path.display().to_string()], &CompileOptions::default()).expect("compiles");
    Arc::new(prepare(program).expect("supported"))
}

fn config() -> Config {
    Config { output: OutputMode::Capture, final_state: true, keep_records: false, ..Config::default() }
}

/// Every outcome DFS reaches, and how many executions it needed.
fn dfs_outcomes(prep: &Arc<Prepared>) -> (HashSet<(String, Option<u64>)>, usize) {
    let cfg = Arc::new(config());
    let mut dfs = DfsScheduler::new();
    let mut seen = HashSet::new();
    let mut n = 0;
    while dfs.begin_execution() {
        let ex = Machine::new(prep.clone(), cfg.clone()).run(&mut dfs);
        n += 1;
        seen.insert((outcome_key(&ex.outcome), ex.final_state));
    }
    assert!(dfs.divergence().is_none(), "DFS diverged: {:?}", dfs.divergence());
    let _ = run_once;
    (seen, n)
}

fn compare(name: &str, src: &str) -> (usize, usize) {
    let prep = load(name, src);
    let (want, dfs_runs) = dfs_outcomes(&prep);
    let r = check(&prep, &config(), &McrOptions { all_outcomes: true, ..McrOptions::default() }, &mut |_, _| {});
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
