//! End to end with no interpreter in the recording: build a buggy program
//! natively with `causa_record::build`, run the executable until a run
//! fails (the programs jitter with `usleep`), read the native path log,
//! reproduce the failure from it and confirm it by replay.
//!
//! Without clang-14 these tests fail and say what to install.

use causa_core::paths::PathLog;
use causa_core::BugKind;
use causa_explore::reproduce::{reproduce, ReproduceOptions};
use causa_interp::{prepare, Config};
use causa_ir::{load_program, CompileOptions};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

mod common;
use common::build;

/// Run `exe` up to `runs` times, each with its own log directory, until a
/// run's log records a failure; that log.
fn failing_log(exe: &Path, dir: &Path, runs: usize) -> (PathLog, PathBuf) {
    for i in 0..runs {
        let log = dir.join(format!("log{i}"));
        let out = Command::new(exe).env("CAUSA_PATHS", &log).output().expect("run the recording build");
        let read = PathLog::read(&log).unwrap_or_else(|e| panic!("run {i} (status {}) left no log: {e}", out.status));
        if read.failure.is_some() {
            return (read, log);
        }
    }
    panic!("no failing run in {runs} runs of {}", exe.display());
}

/// Reproduce `log` for `c` and check the same failure happens in replay.
fn reproduces(c: &str, log: &PathLog, kind: BugKind) {
    let program = load_program(&[c.to_string()], &CompileOptions::default()).expect("compiles");
    let prep = Arc::new(prepare(program).expect("prepares"));
    assert_eq!(prep.program.fingerprint, log.fingerprint, "the native log carries the analysed module's fingerprint");
    let r = reproduce(&prep, &Config::default(), log, &ReproduceOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let f = r.execution.outcome.finding().expect("the replay fails");
    let want = log.failure.as_ref().expect("a failure");
    assert_eq!((f.kind, &f.thread), (kind, &want.thread));
    assert!(causa_explore::guided::same_failure(f, want), "{f:?} is not the recorded {want:?}");
}

const LOST_UPDATE: &str = r#"
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

int balance = 100;

void *deposit(void *arg) {
    int amount = *(int *)arg;
    int b = balance;
    usleep(rand() % 200);
    balance = b + amount;
    return NULL;
}

int main(void) {
    srand(getpid());
    pthread_t t[3];
    int amount[3] = {10, 20, 30};
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, deposit, &amount[i]);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    assert(balance == 160);
    return 0;
}
"#;

#[test]
fn a_natively_recorded_lost_update_is_reproduced() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (c, exe) = build(dir.path(), "lost_update", LOST_UPDATE);
    let (log, _) = failing_log(&exe, dir.path(), 50);
    let f = log.failure.as_ref().expect("failure");
    assert_eq!(f.kind, BugKind::AssertionViolation);
    assert_eq!(f.location.as_ref().map(|l| l.line), Some(25), "the assertion's line");
    assert_eq!(log.threads.len(), 4, "main and three workers, named by the creation tree");
    assert_eq!(log.threads[1].thread.to_string(), "0.1");
    reproduces(&c, &log, BugKind::AssertionViolation);
}

const SWITCH_AND_CALLS: &str = r#"
#include <stdio.h>
#include <pthread.h>

static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }

int acc;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *work(void *arg) {
    int id = *(int *)arg;
    int (*f)(int) = id % 2 ? twice : square;
    for (int i = 0; i < 5; i++) {
        int v;
        switch ((i + id) % 3) {
        case 0: v = f(i); break;
        case 1: v = i; break;
        default: v = -i;
        }
        pthread_mutex_lock(&m);
        acc += v;
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void) {
    pthread_t t[2];
    int ids[2] = {0, 1};
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, work, &ids[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("acc=%d\n", acc);
    return 0;
}
"#;

#[test]
fn native_paths_equal_the_interpreters_and_output_is_unchanged() {
    // A correct program with branches, a switch and indirect calls: the
    // native log of a run holds, per thread, exactly the decisions the
    // interpreter records for the same program (the paths do not depend on
    // the schedule here), and the recording build prints what a plain build
    // prints.
    let dir = tempfile::tempdir().expect("temporary directory");
    let (c, exe) = build(dir.path(), "paths", SWITCH_AND_CALLS);
    let log_dir = dir.path().join("log");
    let out = Command::new(&exe).env("CAUSA_PATHS", &log_dir).output().expect("run");
    let native = PathLog::read(&log_dir).expect("the native log reads");
    assert!(native.failure.is_none());

    let plain = dir.path().join("plain");
    let clang = causa_ir::compile::find_tool("clang").expect("clang");
    let st = Command::new(clang).args(["-O2", "-o"]).arg(&plain).arg(&c).arg("-lpthread").status().expect("clang");
    assert!(st.success());
    let plain_out = Command::new(&plain).output().expect("run the plain build");
    assert_eq!(String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&plain_out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("acc="));

    let program = load_program(std::slice::from_ref(&c), &CompileOptions::default()).expect("compiles");
    let prep = Arc::new(prepare(program).expect("prepares"));
    let cfg = Arc::new(Config { record_paths: true, ..Config::default() });
    let mut first = causa_explore::FirstScheduler::new();
    let ex = causa_explore::run_once(&prep, &cfg, &mut first);
    let interp = causa_explore::reproduce::path_log(&prep, &ex, &c, vec![]);
    assert_eq!(native.fingerprint, interp.fingerprint);
    assert_eq!(native.threads.len(), interp.threads.len());
    for (n, i) in native.threads.iter().zip(&interp.threads) {
        assert_eq!(n.thread, i.thread);
        assert_eq!(n.decisions, i.decisions, "thread {}: native and interpreted decisions differ", n.thread);
        assert_eq!(n.targets, i.targets, "thread {}", n.thread);
    }
    let switches = native.threads.iter().flat_map(|t| &t.decisions);
    assert!(switches.clone().any(|d| matches!(d, causa_core::paths::Decision::Switch(2))));
    assert!(switches.clone().any(|d| matches!(d, causa_core::paths::Decision::Call(_))));
}

const NULL_ORDER: &str = r#"
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct config { int level; };
struct config *cfg;

void *worker(void *arg) {
    usleep(rand() % 300);
    return (void *)(long)cfg->level; /* BUG: cfg may not be published yet */
}

int main(void) {
    srand(getpid());
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    usleep(rand() % 300);
    struct config *c = malloc(sizeof *c);
    c->level = 3;
    cfg = c;
    pthread_join(t, NULL);
    return 0;
}
"#;

#[test]
fn a_natively_recorded_null_dereference_is_reproduced() {
    // The crash is a SIGSEGV: the log has the failing thread and kind, not
    // the location (the signal does not say where).
    let dir = tempfile::tempdir().expect("temporary directory");
    let (c, exe) = build(dir.path(), "null_order", NULL_ORDER);
    let (mut log, _) = failing_log(&exe, dir.path(), 100);
    let f = log.failure.as_ref().expect("failure");
    assert_eq!((f.kind, f.thread.to_string()), (BugKind::MemoryError, "0.1".to_string()));
    // The log holds the faulting instruction (the signal's context), which
    // the executable's debug information turns into the line of `cfg->level`.
    let crash = log.native_crash.clone().expect("the faulting instruction is recorded");
    assert_eq!(crash.executable, std::fs::canonicalize(&exe).expect("exe").display().to_string());
    let program = load_program(std::slice::from_ref(&c), &CompileOptions::default()).expect("compiles");
    assert_eq!(causa_record::symbolize::locate_crash(&mut log, &program), Ok(true));
    let at = log.failure.as_ref().and_then(|f| f.location.clone()).expect("located");
    assert_eq!((at.file.to_string(), at.line), (c.clone(), 11), "{at}");
    reproduces(&c, &log, BugKind::MemoryError);
}

const AVERAGE_BEFORE_COUNT: &str = r#"
#include <pthread.h>
#include <unistd.h>

int total, count, avg;

void *recorder(void *arg) {
    total += 10;
    usleep(2000);
    count++;
    return NULL;
}

void *stats(void *arg) {
    usleep(300);
    if (total > 0)
        avg = total / count; /* BUG: count may still be 0 */
    return NULL;
}

int main(void) {
    pthread_t r, s;
    pthread_create(&r, NULL, recorder, NULL);
    pthread_create(&s, NULL, stats, NULL);
    pthread_join(r, NULL);
    pthread_join(s, NULL);
    return avg == 0;
}
"#;

#[test]
fn a_natively_recorded_division_by_zero_is_reproduced() {
    // The division traps with SIGFPE: the runtime wrote no log for it.
    // Now the log has the kind, the thread and the faulting instruction,
    // which the executable's debug information places on the division.
    let dir = tempfile::tempdir().expect("temporary directory");
    let (c, exe) = build(dir.path(), "average", AVERAGE_BEFORE_COUNT);
    let (mut log, _) = failing_log(&exe, dir.path(), 100);
    let f = log.failure.as_ref().expect("failure");
    assert_eq!((f.kind, f.thread.to_string()), (BugKind::DivisionByZero, "0.2".to_string()));
    assert_eq!(f.message, "division by zero (SIGFPE)");
    let program = load_program(std::slice::from_ref(&c), &CompileOptions::default()).expect("compiles");
    assert_eq!(causa_record::symbolize::locate_crash(&mut log, &program), Ok(true));
    let at = log.failure.as_ref().and_then(|f| f.location.clone()).expect("located");
    assert_eq!((at.file.to_string(), at.line), (c.clone(), 17), "{at}");
    reproduces(&c, &log, BugKind::DivisionByZero);
}

const STALE_LENGTH: &str = r#"
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char line[32] = "boot";
size_t line_len = 4;

void *writer(void *arg) {
    memcpy(line, "disk full", 10);
    usleep(rand() % 300);
    line_len = 9;
    return NULL;
}

int main(void) {
    srand(getpid());
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    usleep(rand() % 300);
    size_t n = line_len;
    char *copy = malloc(n + 1);
    memcpy(copy, line, n);
    copy[n] = '\0';
    assert(strcmp(copy, "boot") == 0 || strcmp(copy, "disk full") == 0);
    pthread_join(t, NULL);
    free(copy);
    return 0;
}
"#;

#[test]
fn sizes_from_shared_data_are_recorded_natively_and_reproduced_by_the_solver() {
    // `malloc(n + 1)` and `memcpy(copy, line, n)` with `n` read from a
    // shared length: the native log holds main's sizes as the interpreter
    // records them (malloc's, then memcpy's), and the solver, which needs
    // them to follow the copy, reproduces the torn line from the log.
    let dir = tempfile::tempdir().expect("temporary directory");
    let (c, exe) = build(dir.path(), "stale_length", STALE_LENGTH);
    let (log, _) = failing_log(&exe, dir.path(), 200);
    let main = log.threads.iter().find(|t| t.thread.to_string() == "0").expect("main's path");
    assert_eq!(main.sizes, [5, 4], "malloc(n + 1) and memcpy(…, n) with the old length 4");
    let writer = log.threads.iter().find(|t| t.thread.to_string() == "0.1").expect("the writer's path");
    assert_eq!(writer.sizes, [10], "the writer's memcpy of 10 bytes");
    reproduces(&c, &log, BugKind::AssertionViolation);
    let program = load_program(std::slice::from_ref(&c), &CompileOptions::default()).expect("compiles");
    let prep = Arc::new(prepare(program).expect("prepares"));
    let opts = ReproduceOptions { method: causa_explore::reproduce::Method::Solver, ..ReproduceOptions::default() };
    let r = reproduce(&prep, &Config::default(), &log, &opts).unwrap_or_else(|e| panic!("the solver: {e}"));
    let f = r.execution.outcome.finding().expect("the solver's schedule fails");
    assert_eq!(f.kind, BugKind::AssertionViolation);
}

const BOUNDED_BUFFER: &str = r#"
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define CAP 2
int buf[CAP];
int count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *producer(void *arg) {
    for (int i = 1; i <= 3; i++) {
        pthread_mutex_lock(&m);
        if (count < CAP) {
            buf[count] = i;
            count = count + 1;
        }
        pthread_mutex_unlock(&m);
        usleep(rand() % 100);
    }
    return NULL;
}

void *consumer(void *arg) {
    for (int k = 0; k < 3; k++) {
        int n = count; /* BUG: checked outside the lock */
        usleep(rand() % 100);
        if (n > 0) {
            pthread_mutex_lock(&m);
            int last = count - 1;
            assert(last >= 0); /* fails when another consumer took it */
            count = last;
            int v = buf[last];
            pthread_mutex_unlock(&m);
            assert(v != 0);
        }
    }
    return NULL;
}

int main(void) {
    srand(getpid());
    pthread_t p, c1, c2;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c1, NULL, consumer, NULL);
    pthread_create(&c2, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c1, NULL);
    pthread_join(c2, NULL);
    return 0;
}
"#;

#[test]
fn a_natively_recorded_bounded_buffer_failure_is_reproduced() {
    // Consumers check the occupancy, then take under the lock: two can take
    // the last item, and the second finds the buffer empty.
    let dir = tempfile::tempdir().expect("temporary directory");
    let (c, exe) = build(dir.path(), "bbuf", BOUNDED_BUFFER);
    let (log, _) = failing_log(&exe, dir.path(), 200);
    let kind = log.failure.as_ref().expect("failure").kind;
    reproduces(&c, &log, kind);
}

#[test]
fn long_paths_spill_to_disk_and_read_back_whole() {
    // 12 M loop iterations, each with a branch on shared data: about 1.5 MB
    // of branch bits in one thread, more than the 1 MB the runtime keeps in
    // memory, so part of it goes to the spill file and the final file is
    // assembled from both. (The loop test is computed from constants only:
    // not recorded.)
    let src = r#"
#include <pthread.h>
#include <stdio.h>
volatile long sum;
int pattern[3] = {1, 0, 0};
void *spin(void *arg) {
    for (long i = 0; i < 12000000; i++)
        if (pattern[i % 3])
            sum += i;
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, spin, 0);
    pthread_join(t, 0);
    printf("%ld\n", sum > 0);
    return 0;
}
"#;
    let dir = tempfile::tempdir().expect("temporary directory");
    let (_, exe) = build(dir.path(), "long", src);
    let log_dir = dir.path().join("log");
    let st = Command::new(&exe).env("CAUSA_PATHS", &log_dir).status().expect("run");
    assert!(st.success());
    let log = PathLog::read(&log_dir).expect("the assembled log reads (checksum and counts agree)");
    let worker = &log.threads[1];
    // One decision per iteration: the `if` on `pattern`.
    assert_eq!(worker.decisions.len(), 12_000_000);
    use causa_core::paths::Decision::Branch;
    assert_eq!(&worker.decisions[..4], &[Branch(true), Branch(false), Branch(false), Branch(true)]);
    let left: Vec<_> = std::fs::read_dir(&log_dir).expect("dir").flatten().map(|e| e.file_name()).collect();
    assert!(left.iter().all(|n| !n.to_string_lossy().ends_with(".spill")), "spill files removed: {left:?}");
}

#[test]
fn a_thread_that_calls_pthread_exit_keeps_its_last_decisions() {
    // The worker's decisions are still in its open run when it leaves with
    // pthread_exit: the runtime closes the run before the thread is gone.
    let src = r#"
#include <pthread.h>
int flags[5] = {1, 0, 1, 1, 0};
int seen;
void *worker(void *arg) {
    for (int i = 0; i < 5; i++)
        if (flags[i])
            seen++;
    pthread_exit(0);
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return seen == 3 ? 0 : 1;
}
"#;
    let dir = tempfile::tempdir().expect("temporary directory");
    let (_, exe) = build(dir.path(), "exit", src);
    let log_dir = dir.path().join("log");
    let st = Command::new(&exe).env("CAUSA_PATHS", &log_dir).status().expect("run");
    assert!(st.success());
    let log = PathLog::read(&log_dir).expect("the log reads");
    use causa_core::paths::Decision::Branch;
    assert_eq!(log.threads[1].decisions, [Branch(true), Branch(false), Branch(true), Branch(true), Branch(false)]);
}

#[test]
fn threads_failing_together_leave_one_whole_log() {
    // Four threads spin on a flag (recording a branch per turn) and fail
    // the same assertion as soon as it is set. The second thread to fail
    // used to abort at once, killing the process before the first had
    // renamed its log into place, and the spinning threads grew their
    // buffers while the writer read them (a crash): 83 runs of 200 left no
    // log. Every run must leave a whole log now.
    let dir = tempfile::tempdir().expect("temp dir");
    let src = "#include <assert.h>\n#include <pthread.h>\nvolatile int go;\n\
        void *w(void *a) { while (!go) ; assert(0); return 0; }\n\
        int main(void) { pthread_t t[4]; for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, w, 0);\n\
        go = 1; for (int i = 0; i < 4; i++) pthread_join(t[i], 0); return 0; }\n";
    let (_, exe) = build(dir.path(), "together", src);
    for i in 0..40 {
        let log = dir.path().join(format!("log{i}"));
        let out = Command::new(&exe).env("CAUSA_PATHS", &log).output().expect("run the recording build");
        let read = PathLog::read(&log).unwrap_or_else(|e| panic!("run {i} (status {}) left no log: {e}", out.status));
        assert!(read.failure.as_ref().is_some_and(|f| f.kind == BugKind::AssertionViolation), "run {i}");
    }
}

const ONCE_CLOCK_TRYLOCK: &str = r#"
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int *hits;
static long started[3];

static void init(void) {
    usleep(rand() % 100);
    hits = calloc(1, sizeof *hits);
}

void *worker(void *arg) {
    int id = *(int *)arg;
    pthread_once(&once, init);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    started[id] = ts.tv_nsec;
    usleep(rand() % 100);
    if (pthread_mutex_trylock(&m) == 0) {
        int h = *hits;
        usleep(rand() % 200);
        *hits = h + 1;
        pthread_mutex_unlock(&m);
    } else {
        int h = *hits; /* BUG: the fallback updates without the lock */
        usleep(rand() % 200);
        *hits = h + 1;
    }
    return NULL;
}

int main(void) {
    srand(getpid());
    pthread_t t[3];
    int ids[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, &ids[i]);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    assert(*hits == 3);
    return 0;
}
"#;

#[test]
fn once_clock_and_trylock_outcomes_are_recorded_natively_and_reproduced() {
    // What each `pthread_once` call found, each clock and `rand()` value
    // and each lock try's outcome are in the native log (format 4);
    // symbolic execution follows them, so the failure (a lost update in the
    // trylock's fallback) is reproduced from the log alone.
    let dir = tempfile::tempdir().expect("temporary directory");
    let (c, exe) = build(dir.path(), "once_try", ONCE_CLOCK_TRYLOCK);
    let (log, _) = failing_log(&exe, dir.path(), 200);
    let workers = &log.threads[1..];
    assert_eq!(workers.len(), 3);
    let mut onces: Vec<u8> = workers.iter().flat_map(|t| t.onces.clone()).collect();
    onces.sort();
    assert_eq!(onces[0], 0, "one worker ran the routine: {onces:?}");
    assert!(onces[1..].iter().all(|o| *o == 1 || *o == 2), "the others waited or found it done: {onces:?}");
    for t in workers {
        // A clock read and two `rand()` calls, and the routine's when the
        // thread ran it.
        let want = 3 + usize::from(t.onces == [0]);
        assert_eq!(t.values.len(), want, "thread {}: {:?}", t.thread, t.values);
        assert!(t.values.iter().filter(|v| **v <= i32::MAX as u64).count() >= want - 1, "rand() values");
        assert_eq!(t.tries.len(), 1, "thread {}: one lock try", t.thread);
    }
    assert!(workers.iter().any(|t| !t.tries[0]), "a failing run has a try that found the lock held");
    reproduces(&c, &log, BugKind::AssertionViolation);
}

/// Main reads two amounts from the file named by `@PATH@` (fgets, fgetc,
/// fread); two workers add them to a total without a lock.
const FILE_AMOUNTS: &str = r#"
#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int total;

void *worker(void *arg) {
    int amount = *(int *)arg;
    int seen = total;
    usleep(rand() % 200);
    total = seen + amount;
    return NULL;
}

int main(void) {
    srand(getpid());
    FILE *f = fopen("@PATH@", "r");
    if (!f)
        return 2;
    char line[16];
    int amounts[2] = {0, 0};
    if (fgets(line, sizeof line, f))
        amounts[0] = atoi(line);
    int sign = fgetc(f);
    char rest[8] = {0};
    size_t n = fread(rest, 1, sizeof rest - 1, f);
    amounts[1] = n > 0 ? atoi(rest) : 0;
    if (sign == '-')
        amounts[1] = -amounts[1];
    fclose(f);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, &amounts[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert(total == amounts[0] + amounts[1]);
    return 0;
}
"#;

/// How FILE_AMOUNTS's main reads its two amounts (fgets, fgetc, fread).
const FILE_AMOUNTS_READ: &str = "    char line[16];\n    int amounts[2] = {0, 0};\n    if (fgets(line, sizeof line, f))\n        amounts[0] = atoi(line);\n    int sign = fgetc(f);\n    char rest[8] = {0};\n    size_t n = fread(rest, 1, sizeof rest - 1, f);\n    amounts[1] = n > 0 ? atoi(rest) : 0;\n    if (sign == '-')\n        amounts[1] = -amounts[1];\n";

/// FILE_AMOUNTS reading "12\n-30\n" (with `read` instead of its own
/// reads, when given), built natively as `name` and run until it fails:
/// main's first library values must be `want` (as the interpreter notes
/// them), and the log must reproduce.
fn file_reads_recorded(name: &str, read: Option<&str>, want: &[u64]) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let data = dir.path().join("amounts.txt");
    std::fs::write(&data, "12\n-30\n").expect("write the data file");
    assert!(FILE_AMOUNTS.contains(FILE_AMOUNTS_READ), "the program reads its file as expected");
    let src = FILE_AMOUNTS.replace(FILE_AMOUNTS_READ, read.unwrap_or(FILE_AMOUNTS_READ));
    let src = src.replace("@PATH@", &data.display().to_string());
    let (c, exe) = build(dir.path(), name, &src);
    let (log, _) = failing_log(&exe, dir.path(), 200);
    let main = &log.threads[0];
    assert_eq!(main.values[..want.len()], want[..], "main's library values: {:?}", main.values);
    reproduces(&c, &log, BugKind::AssertionViolation);
}

#[test]
fn what_reads_from_a_file_delivered_is_recorded_natively_and_reproduced() {
    // Main's log has what fgets, fgetc and fread delivered (format 6), as
    // the interpreter notes them: following the log, the interpreter must
    // read the same bytes, and symbolic execution takes them from there.
    // fgets: 3 bytes ("12\n") in one value; fgetc: '-'; fread: 3 bytes ("30\n").
    let want = [3, u64::from_le_bytes(*b"12\n\0\0\0\0\0"), b'-' as u64, 3, u64::from_le_bytes(*b"30\n\0\0\0\0\0")];
    file_reads_recorded("file_amounts", None, &want);
}

#[test]
fn what_fscanf_consumed_is_recorded_natively_and_reproduced() {
    // Main's log has the bytes fscanf consumed and its result (format 7),
    // as the interpreter notes them: following the log, the interpreter must
    // consume the same bytes, and symbolic execution scans them again.
    let read = "    int amounts[2] = {0, 0};\n    if (fscanf(f, \"%d %d\", &amounts[0], &amounts[1]) != 2)\n        return 3;\n";
    // fscanf: 6 bytes ("12\n-30") in one value, then its result, 2.
    file_reads_recorded("file_scanned", Some(read), &[6, u64::from_le_bytes(*b"12\n-30\0\0"), 2]);
}

#[test]
fn what_open_read_and_close_returned_is_recorded_natively_and_reproduced() {
    // Main's log has open's descriptor, read's bytes and close's result
    // (format 8), as the interpreter notes them (the descriptor after the
    // one the FILE holds: 4 in both).
    let read = "    int amounts[2] = {0, 0};\n    int fd = open(\"@PATH@\", O_RDONLY);\n    char buf[16] = {0};\n    ssize_t n = read(fd, buf, sizeof buf - 1);\n    if (close(fd) != 0 || n != 7)\n        return 3;\n    amounts[0] = atoi(buf);\n    amounts[1] = atoi(buf + 3);\n";
    // open: 4; read: 7 bytes ("12\n-30\n") in one value; close: 0.
    file_reads_recorded("descriptor_read", Some(read), &[4, 7, u64::from_le_bytes(*b"12\n-30\n\0"), 0]);
}

#[test]
fn what_getline_read_and_ftell_found_are_recorded_natively_and_reproduced() {
    // Main's log has each getline's line (its buffer from getline), then
    // ftell's position (format 7), as the interpreter notes them.
    let read = "    char *line = NULL;\n    size_t cap = 0;\n    int amounts[2] = {0, 0};\n    for (int i = 0; i < 2 && getline(&line, &cap, f) != -1; i++)\n        amounts[i] = atoi(line);\n    if (ftell(f) != 7)\n        return 3;\n    free(line);\n";
    // getline: 3 bytes ("12\n"), 4 bytes ("-30\n"); ftell: 7.
    let want = [3, u64::from_le_bytes(*b"12\n\0\0\0\0\0"), 4, u64::from_le_bytes(*b"-30\n\0\0\0\0"), 7];
    file_reads_recorded("file_getline", Some(read), &want);
}
