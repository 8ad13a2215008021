//! The `dfs` strategy on real C programs: it must find the lost update, and on a
//! correct program it must explore exactly every interleaving and stop.
//!
//! Without clang-14 these tests fail and say what to install.

use causa_core::{BugKind, Scheduler};
use causa_explore::{run_once, test, DfsScheduler};
use causa_interp::{prepare, Config, Outcome, OutputMode, Prepared};
use causa_ir::{load_program, CompileOptions};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Two threads increment `x` without a lock; main prints and checks the result.
const LOST_UPDATE: &str = r#"
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

int x = 0;

void *inc(void *arg) {
    (void)arg;
    x = x + 1;
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, inc, NULL);
    pthread_create(&b, NULL, inc, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("x=%d\n", x);
    assert(x == 2);
    return 0;
}
"#;

/// The same with the increment under a mutex: correct.
const LOCKED: &str = r#"
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

int x = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *inc(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    x = x + 1;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, inc, NULL);
    pthread_create(&b, NULL, inc, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("x=%d\n", x);
    assert(x == 2);
    return 0;
}
"#;

fn require_clang() {
    if causa_ir::compile::find_tool("clang").is_err() {
        panic!(
            "clang-14 is required to compile the test programs: install it with \
             `apt-get install clang-14 llvm-14` (or `make setup` as root)"
        );
    }
}

/// Compile `src` (written to a temporary directory) and prepare it.
fn load(name: &str, src: &str) -> Arc<Prepared> {
    require_clang();
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join(name);
    std::fs::write(&path, src).expect("write the C program");
    let program = load_program(&[path.display().to_string()], &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{name} does not compile: {e}"));
    Arc::new(prepare(program).unwrap_or_else(|e| panic!("{name} does not prepare: {e}")))
}

fn config() -> Arc<Config> {
    Arc::new(Config { output: OutputMode::Capture, max_steps: 1_000, ..Config::default() })
}

/// Run every execution of `dfs` by hand; returns how many ended with each
/// (outcome, stdout) pair.
fn outcomes(prep: &Arc<Prepared>, dfs: &mut DfsScheduler) -> BTreeMap<String, usize> {
    let cfg = config();
    let mut seen = BTreeMap::new();
    while dfs.begin_execution() {
        let ex = run_once(prep, &cfg, dfs);
        let what = match &ex.outcome {
            Outcome::Exit(c) => format!("exit {c}"),
            Outcome::Bug(f) => format!("bug {}", f.kind),
            other => panic!("unexpected outcome {other:?}"),
        };
        let out = String::from_utf8_lossy(&ex.stdout).trim().to_string();
        *seen.entry(format!("{what}: {out}")).or_default() += 1;
        assert!(dfs.executions_started() < 100_000, "exploration does not end");
    }
    assert_eq!(dfs.divergence(), None);
    seen
}

#[test]
fn dfs_finds_the_lost_update() {
    let prep = load("lost_update.c", LOST_UPDATE);
    let mut dfs = DfsScheduler::new();
    let r = test(&prep, &config(), &mut dfs, usize::MAX, &mut |_| {});
    let Some((i, ex)) = r.stopped_by else {
        panic!("dfs found no bug in {} executions (complete: {})", r.stats.executions, dfs.is_complete());
    };
    let Outcome::Bug(f) = &ex.outcome else {
        panic!("execution {i} ended with {:?}", ex.outcome);
    };
    assert_eq!(f.kind, BugKind::AssertionViolation, "{}", f.message);
    assert!(r.replay_confirmed, "the replay did not reproduce the bug");
    assert!(String::from_utf8_lossy(&ex.stdout).contains("x=1"));
    // The first execution is the non-preemptive one, which is correct.
    assert!(i > 0);
    assert!(!dfs.is_complete());
}

#[test]
fn dfs_reaches_both_outcomes_of_the_lost_update() {
    // Visible steps: main has begin, fork 0.1, fork 0.2, join 0.1, join 0.2, then
    // forced steps; each worker has begin, read x, write x, end. As in the count for
    // the locked program below, the choices are the lattice paths interleaving
    // X = (0.1's 4 steps, join 0.1) and Y = (fork 0.2, 0.2's 4 steps) with fork 0.2
    // before join 0.1: C(10, 5) - 1 = 251.
    let prep = load("lost_update.c", LOST_UPDATE);
    let mut dfs = DfsScheduler::new();
    let seen = outcomes(&prep, &mut dfs);
    assert!(dfs.is_complete());
    assert_eq!(dfs.executions_started(), 251);
    let kinds: Vec<&String> = seen.keys().collect();
    assert_eq!(kinds, vec!["bug assertion-violation: x=1", "exit 0: x=2"], "{seen:?}");
}

#[test]
fn dfs_explores_every_interleaving_of_the_locked_counter() {
    // The visible steps (as the interpreter records them):
    //   main (0):      begin, fork 0.1, fork 0.2, join 0.1, join 0.2, read x (printf),
    //                  read x (assert), exit
    //   0.1 and 0.2:   begin, lock m, read x, write x, unlock m, end
    // A thread exists from its fork on; `join t` is enabled once t ended; `lock m`
    // is not enabled while the other worker holds m.
    //
    // main's first two steps are the only enabled ones; from `join 0.2` on (it needs
    // both workers ended and `join 0.1` done) only main is left. Between them the
    // steps form two chains:
    //   X = 0.1's 6 steps, then join 0.1                  (7 steps)
    //   Y = fork 0.2, then 0.2's 6 steps                  (7 steps)
    // with fork 0.2 (Y1) before join 0.1 (X7), so an execution is a lattice path from
    // (0,0) to (7,7) (x = X steps taken, y = Y steps taken) obeying the mutex:
    //   - 0.1 locks first: 0.2's lock (Y3) comes after 0.1's unlock (X5), i.e. the
    //     third Y step is taken at x = 5, 6 or 7:
    //       sum over x of paths (0,0)->(x,2) times paths (x,3)->(7,7)
    //       = C(7,2)·C(6,4) + C(8,2)·C(5,4) + C(9,2)·C(4,4) = 315 + 140 + 36 = 491,
    //     minus the one path taking all of X before fork 0.2 (join 0.1 needs it): 490;
    //   - 0.2 locks first: 0.1's lock (X2) comes after 0.2's unlock (Y6), i.e. the
    //     second X step is taken at y = 6 or 7:
    //       paths (0,0)->(1,y) times paths (2,y)->(7,7)
    //       = C(7,1)·C(6,5) + C(8,1)·C(5,5) = 42 + 8 = 50
    //     (fork 0.2 before join 0.1 holds on all of them).
    // Total: 490 + 50 = 540 executions, all ending with x=2.
    const EXPECTED: usize = 540;
    let prep = load("locked_counter.c", LOCKED);
    let mut dfs = DfsScheduler::new();
    let r = test(&prep, &config(), &mut dfs, usize::MAX, &mut |_| {});
    if let Some((i, ex)) = &r.stopped_by {
        panic!("execution {i} ended with {:?}", ex.outcome);
    }
    assert!(dfs.is_complete());
    assert_eq!(dfs.divergence(), None);
    assert_eq!(r.stats.executions, EXPECTED);
    assert_eq!(dfs.executions_started(), EXPECTED);
    assert_eq!((r.stats.infeasible, r.stats.bounded), (0, 0));

    // The same exploration run by hand: every execution prints x=2.
    let seen = outcomes(&prep, &mut DfsScheduler::new());
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen.get("exit 0: x=2"), Some(&EXPECTED), "{seen:?}");
}

/// Workers that do locked updates in a loop, then one unlocked update.
const LOOPED: &str = r#"
#include <assert.h>
#include <pthread.h>

int hist[4];
int total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    int id = *(int *)arg;
    for (int i = 0; i < 8; i++) {
        pthread_mutex_lock(&m);
        hist[(i + id) % 4] += 1;
        pthread_mutex_unlock(&m);
    }
    int t = total;
    total = t + 1;
    return 0;
}

int main(void) {
    pthread_t th[2];
    int ids[2] = {0, 1};
    for (int t = 0; t < 2; t++)
        pthread_create(&th[t], 0, worker, &ids[t]);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], 0);
    assert(total == 2);
    return 0;
}
"#;

#[test]
fn resuming_from_saved_machines_runs_the_same_executions() {
    // Every execution of a bounded DFS, once run from the start and once
    // resumed from the machines `Snapshots` saved: the same schedules, events,
    // outcomes and output, with most steps not run again.
    use causa_explore::snapshots::Snapshots;
    let prep = load("looped.c", LOOPED);
    let cfg = config();
    let summary = |ex: &causa_interp::Execution| {
        (ex.steps.clone(), ex.events.len(), ex.instructions, format!("{:?}", ex.outcome), ex.stdout.clone())
    };
    let mut plain = Vec::new();
    let mut dfs = DfsScheduler::with_preemption_bound(2);
    while dfs.begin_execution() {
        plain.push(summary(&run_once(&prep, &cfg, &mut dfs)));
    }
    let mut resumed = Vec::new();
    let mut snapshots = Snapshots::new();
    let mut dfs = DfsScheduler::with_preemption_bound(2);
    while dfs.begin_execution() {
        resumed.push(summary(&snapshots.run(&prep, &cfg, &mut dfs)));
    }
    assert_eq!(dfs.divergence(), None);
    assert!(plain.len() > 100, "only {} executions", plain.len());
    assert_eq!(plain.len(), resumed.len());
    for (i, (a, b)) in plain.iter().zip(&resumed).enumerate() {
        assert_eq!(a, b, "execution {i} differs when resumed");
    }
    assert!(plain.iter().any(|s| s.3.contains("AssertionViolation")), "the lost update is among them");
    let total: usize = plain.iter().map(|s| s.0.len()).sum();
    assert!(
        snapshots.skipped_steps as usize > total / 3,
        "only {} of {total} steps were skipped",
        snapshots.skipped_steps
    );
}
