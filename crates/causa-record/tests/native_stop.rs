//! A natively built program stopped from outside (Ctrl-C, `kill`,
//! `timeout`) still leaves its path log: a run that hung is reproduced as
//! the deadlock its threads' paths end in, and a run stopped while it was
//! still working is told apart from one that hung.
//!
//! Without clang-14 these tests fail and say what to install.

use causa_core::paths::{PathLog, TRAILING_RUN_KEPT};
use causa_core::BugKind;
use causa_explore::reproduce::{reproduce, ReproduceError, ReproduceOptions, Reproduced};
use causa_interp::{prepare, Config};
use causa_ir::{load_program, CompileOptions};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

mod common;
use common::build;

/// Run `exe`, send it `signal` (its name for `kill -s` and its number)
/// after `after`, and read the log it wrote; also what the run printed on
/// stderr.
fn stopped_log(exe: &Path, dir: &Path, (signal, number): (&str, i32), after: Duration) -> (PathLog, String) {
    let log = dir.join("log");
    let child = Command::new(exe)
        .env("CAUSA_PATHS", &log)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("run the recording build");
    std::thread::sleep(after);
    let sent = Command::new("kill").args(["-s", signal]).arg(child.id().to_string()).status().expect("run kill");
    assert!(sent.success(), "kill -s {signal} failed");
    let out = child.wait_with_output().expect("wait for the run");
    assert_eq!(out.status.signal(), Some(number), "the signal still stops the run as it would have: {:?}", out.status);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let read = PathLog::read(&log).unwrap_or_else(|e| panic!("the stopped run left no log: {e}; stderr: {stderr}"));
    (read, stderr)
}

const SIGINT: (&str, i32) = ("INT", 2);
const SIGTERM: (&str, i32) = ("TERM", 15);

fn reproduce_log(c: &str, log: &PathLog) -> Result<Reproduced, ReproduceError> {
    let program = load_program(&[c.to_string()], &CompileOptions::default()).expect("compiles");
    let prep = Arc::new(prepare(program).expect("prepares"));
    reproduce(&prep, &Config::default(), log, &ReproduceOptions::default())
}

const LOCK_ORDER: &str = r#"
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

pthread_mutex_t accounts = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t audit_log = PTHREAD_MUTEX_INITIALIZER;
int balance = 100, entries = 0;

void *transfer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&accounts);
    balance -= 10;
    usleep(50000);
    pthread_mutex_lock(&audit_log);
    entries++;
    pthread_mutex_unlock(&audit_log);
    pthread_mutex_unlock(&accounts);
    return NULL;
}

void *audit(void *arg) {
    (void)arg;
    pthread_mutex_lock(&audit_log);
    entries++;
    usleep(50000);
    pthread_mutex_lock(&accounts);
    printf("balance %d\n", balance);
    pthread_mutex_unlock(&accounts);
    pthread_mutex_unlock(&audit_log);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, transfer, NULL);
    pthread_create(&b, NULL, audit, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("entries %d\n", entries);
    return 0;
}
"#;

#[test]
fn a_native_run_that_hung_and_was_stopped_by_ctrl_c_is_reproduced_as_its_deadlock() {
    // Both workers sleep holding one lock and then take the other: every
    // native run deadlocks. Before, the run, stopped, wrote no log.
    let dir = tempfile::tempdir().expect("temporary directory");
    let (c, exe) = build(dir.path(), "lock_order", LOCK_ORDER);
    let (log, stderr) = stopped_log(&exe, dir.path(), SIGINT, Duration::from_millis(500));
    assert_eq!(log.failure, None);
    assert_eq!(log.interrupted.as_deref(), Some("SIGINT"));
    assert!(stderr.contains("causa recorder: stopped by SIGINT; the path log is in"), "{stderr}");
    assert_eq!(log.threads.len(), 3, "main and both workers");
    let r = reproduce_log(&c, &log).unwrap_or_else(|e| panic!("{e}"));
    let f = r.execution.outcome.finding().expect("the replay deadlocks");
    assert_eq!(f.kind, BugKind::Deadlock);
    assert_eq!(f.cycle.len(), 2, "the two workers wait for each other: {f:?}");
    let waits: Vec<u32> = f.notes.iter().filter_map(|n| n.location.as_ref().map(|l| l.line)).collect();
    assert!(waits.contains(&15) && waits.contains(&27), "each worker blocks on its second lock: {waits:?}");
}

const SPIN_FOREVER: &str = r#"
#include <pthread.h>
#include <stdio.h>

volatile int ready = 0;
int data = 0;

void *producer(void *arg) {
    (void)arg;
    data = 42;
    if (data > 100)
        ready = 1;
    return NULL;
}

void *consumer(void *arg) {
    (void)arg;
    while (!ready)
        ;
    printf("data %d\n", data);
    return NULL;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, NULL, consumer, NULL);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    return 0;
}
"#;

#[test]
fn a_busy_wait_that_spun_until_the_run_was_stopped_keeps_a_bounded_path() {
    // The consumer's flag is never set: it spins, recording a decision per
    // turn (hundreds of millions a second), until SIGTERM. Kept whole, a
    // second of it took 8 GB to read; the path keeps the first
    // TRAILING_RUN_KEPT turns and counts the rest, and the interpreter
    // parks the loop long before those run out.
    let dir = tempfile::tempdir().expect("temporary directory");
    let (c, exe) = build(dir.path(), "spin_forever", SPIN_FOREVER);
    let (log, _) = stopped_log(&exe, dir.path(), SIGTERM, Duration::from_millis(400));
    assert_eq!(log.interrupted.as_deref(), Some("SIGTERM"));
    let consumer = log.threads.iter().find(|t| t.thread.to_string() == "0.1").expect("the consumer's path");
    assert_eq!(consumer.decisions.len(), TRAILING_RUN_KEPT);
    assert!(consumer.trimmed > 0, "a stopped spin has more turns than are kept");
    let r = reproduce_log(&c, &log).unwrap_or_else(|e| panic!("{e}"));
    let f = r.execution.outcome.finding().expect("the replay deadlocks");
    assert_eq!(f.kind, BugKind::Deadlock);
    assert!(
        f.notes
            .iter()
            .any(|n| n.thread.as_ref().is_some_and(|t| t.to_string() == "0.1") && n.message.contains("spins")),
        "the consumer is parked in its loop: {f:?}"
    );
}

const STILL_WORKING: &str = r#"
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

int done = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 100; i++) {
        pthread_mutex_lock(&m);
        done++;
        pthread_mutex_unlock(&m);
        usleep(50000);
    }
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    printf("done %d\n", done);
    return 0;
}
"#;

#[test]
fn a_run_stopped_while_it_was_still_working_is_not_taken_for_a_hang() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (c, exe) = build(dir.path(), "still_working", STILL_WORKING);
    let (log, _) = stopped_log(&exe, dir.path(), SIGINT, Duration::from_millis(300));
    assert_eq!(log.interrupted.as_deref(), Some("SIGINT"));
    let e = match reproduce_log(&c, &log) {
        Ok(r) => panic!("nothing hung, yet reproduced {:?}", r.execution.outcome),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("it was stopped by SIGINT"), "{e}");
    assert!(e.contains("probably stopped while it was still working"), "{e}");
}
