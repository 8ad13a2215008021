//! `causa_explain::explain` in every mode: the alternate schedule really
//! does not fail when replayed, and the DSP shows the data flows that
//! differ. Programs: AAAI-19 Fig. 1, a bank lost update checked long after
//! the race, and the reproduce issue's programs (bbuf, pfscan, pbzip2,
//! stringbuffer under `tests/programs/fail/clap/`).
//!
//! Without clang-14 these tests fail and say what to install.

use causa_explain::{explain, ExplainOptions, Explanation};
use causa_explore::first_random_run;
use causa_interp::{Config, Execution, Outcome, Prepared};
use causa_symbolic::Mode;
use std::sync::Arc;

fn load(name: &str, src: &str) -> Arc<Prepared> {
    if causa_ir::compile::find_tool("clang").is_err() {
        panic!("clang-14 is required: install it with `apt-get install clang-14 llvm-14` (or `make setup` as root)");
    }
    causa_interp::prepare::prepare_c_source(name, src).expect("compiles and is supported")
}

fn config() -> Config {
    Config { record_paths: true, ..Config::default() }
}

fn failing_where(prep: &Arc<Prepared>, tries: u64, pred: impl Fn(&Execution) -> bool) -> Execution {
    first_random_run(prep, &Arc::new(config()), tries, |ex: &Execution| {
        matches!(ex.outcome, Outcome::Bug(_)) && pred(ex)
    })
    .unwrap_or_else(|| panic!("a failing run in {tries} random schedules"))
}

/// Whether a run's failure is at source line `line`.
fn fails_at_line(line: u32) -> impl Fn(&Execution) -> bool {
    move |ex| ex.outcome.finding().is_some_and(|f| f.location.as_ref().is_some_and(|l| l.line == line))
}

/// The `n`-th (from 0) of the failing runs in 2,000 random schedules that
/// `pred` accepts.
fn nth_failing(prep: &Arc<Prepared>, n: u32, pred: impl Fn(&Execution) -> bool) -> Execution {
    let seen = std::cell::Cell::new(0);
    failing_where(prep, 2000, |ex| {
        seen.set(seen.get() + u32::from(pred(ex)));
        seen.get() > n
    })
}

/// Every mode's explanation of `ex`, but Symbiosis' when it found no
/// alternate (one inverted pair is not always enough).
fn explained_modes(prep: &Arc<Prepared>, ex: &Execution) -> Vec<Explanation> {
    let found = |e: &Explanation| e.mode != Mode::Symbiosis || e.alternate.is_some();
    Mode::ALL.into_iter().map(|mode| in_mode(prep, ex, mode)).filter(found).collect()
}

/// Every mode's explanation (as [`explained_modes`]) of each of the first
/// three failing runs of the corpus program `path`, each checked with
/// [`assert_explained`]: (run, explanation, summary).
fn summaries_of_three_runs(path: &str) -> Vec<(u32, Explanation, String)> {
    let prep = corpus(path);
    let mut out = Vec::new();
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, path);
            let summary = causa_explain::summary::summary(&e);
            out.push((n, e, summary));
        }
    }
    out
}

/// A run that deadlocks, in `tries` random schedules.
fn deadlocking(prep: &Arc<Prepared>, tries: u64) -> Execution {
    failing_where(prep, tries, |ex| ex.outcome.finding().is_some_and(|f| f.kind == causa_core::BugKind::Deadlock))
}

fn in_mode(prep: &Arc<Prepared>, ex: &Execution, mode: Mode) -> Explanation {
    explain(prep, &config(), ex, &ExplainOptions { mode, ..Default::default() })
        .unwrap_or_else(|e| panic!("{mode}: {e}"))
}

/// The alternate was found, replayed, and ran without failing; the DSP is
/// smaller than the failing schedule and its figures add up.
fn assert_explained(e: &Explanation, what: &str) {
    let d = &e.dsp;
    let mode = e.mode;
    assert!(d.figures.operations < e.failing.len(), "{what} {mode}: {} of {}", d.figures.operations, e.failing.len());
    assert!(e.alternate.is_some(), "{what} {mode}: an alternate schedule");
    assert!(e.alternate_passes(), "{what} {mode}: the alternate replays without failing: {:?}", e.alternate_outcome);
    assert!(!d.events.is_empty(), "{what} {mode}: the DSP has events");
    assert!(d.figures.data_flows + d.figures.context_switches >= 1, "{what} {mode}: some data flow or order differs");
    // The alternate's flows: those of the trace's events, and the late
    // reads' (from writes the failing run never reached).
    let late: std::collections::BTreeSet<_> =
        d.failing_only.iter().map(|f| f.read).filter(|r| e.late_reads.contains(r)).collect();
    assert_eq!(d.figures.data_flows, d.alternate_only.len() + late.len());
    let summary = causa_explain::summary::summary(e);
    assert!(!summary.is_empty() && !summary.contains("found no schedule"), "{what} {mode}: {summary}");
    // A data flow that differs reads differently on its two sides (a
    // loop's turns write the same value at the same line: which turn).
    let text = causa_explain::text::render(e);
    let flows = text.lines().skip_while(|l| !l.starts_with("Data flows that differ")).skip(1);
    for line in flows.take_while(|l| l.starts_with("  ")) {
        let sides = line.split_once("): ").map(|(_, s)| s).and_then(|s| s.split_once(" → "));
        assert!(sides.is_some_and(|(a, b)| a != b), "{what} {mode}: {line}");
    }
}

/// Every access of the failing schedule is shown with its object's name
/// and the value the failing run saw; every access the alternate run made
/// is named too (in that run: an address computed from shared data may
/// reach another object there).
fn assert_named(e: &Explanation, what: &str) {
    use causa_explain::Run;
    let accesses = |r: &&(usize, usize)| matches!(e.info_of(**r).op, "read" | "write" | "update");
    for r in e.failing.iter().filter(accesses) {
        let obj = e.object(*r).unwrap_or_default();
        assert!(!obj.is_empty() && !obj.starts_with("0x"), "{what}: {} is not named: {obj:?}", e.event_text(*r));
        assert!(e.value(*r, Run::Failing).is_some(), "{what}: no failing value for {}", e.event_text(*r));
    }
    // The alternate shows only what its replay ran (past the replayed
    // part a thread may go another way than its recorded path): every
    // access has the run's value.
    for r in e.alternate.iter().flatten().filter(accesses) {
        assert!(e.value(*r, Run::Alternate).is_some(), "{what}: {} did not run in the alternate", e.event_text(*r));
        let obj = e.object_in(*r, Run::Alternate).unwrap_or_default();
        assert!(!obj.starts_with("0x"), "{what}: {} is not named in the alternate: {obj}", e.event_text(*r));
    }
}

/// Each data flow of the DSP joins a read and a write of the same object in
/// its run (an address computed from shared data counts where that run
/// went: pfscan's `queue[q_head % QSIZE]`), and the read saw the value the
/// write stored (bbuf's alternate once named a consumer's write of 0 as the
/// source of a read of 3, which the producer's later items had stored).
fn assert_flows_join_one_object(e: &Explanation, what: &str) {
    use causa_explain::Run;
    for (flows, run) in [(&e.dsp.failing_only, Run::Failing), (&e.dsp.alternate_only, Run::Alternate)] {
        for f in flows {
            let Some(w) = f.write else { continue };
            let (ro, wo) = (e.object_in(f.read, run).unwrap_or_default(), e.object_in(w, run).unwrap_or_default());
            // A bulk access spans a whole (`pair`) where the other one
            // touches a part of it (`pair.hi`).
            let within = |part: &str, whole: &str| {
                part == whole || part.strip_prefix(whole).is_some_and(|r| r.starts_with('.') || r.starts_with('['))
            };
            assert!(
                within(&ro, &wo) || within(&wo, &ro),
                "{what} {run:?}: {} reads from {}",
                e.event_text(f.read),
                e.event_text(w)
            );
            if e.info_of(w).op == "write" && e.info_of(f.read).op == "read" {
                let (rv, wv) = (e.value(f.read, run), e.value(w, run));
                assert_eq!(rv, wv, "{what} {run:?}: {} reads from {}", e.event_text(f.read), e.event_text(w));
            }
        }
    }
}

// The paper's statements are atomic; x's updates are under a lock here, so
// that the only races are those on y and z.
const FIG1: &str = "#include <assert.h>\n#include <pthread.h>\nint x = 0, y = 1, z = -1;\n\
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
    void *t2(void *a) { pthread_mutex_lock(&m); x = x + y; pthread_mutex_unlock(&m); return 0; }\n\
    void *t3(void *a) { pthread_mutex_lock(&m); x = x + z; pthread_mutex_unlock(&m); return 0; }\n\
    void *t4(void *a) { y = y + 1; return 0; }\nvoid *t5(void *a) { z = z + 1; return 0; }\n\
    int main(void) { pthread_t a, b, c, d; pthread_create(&a, 0, t2, 0); pthread_create(&b, 0, t3, 0);\n\
    pthread_create(&c, 0, t4, 0); pthread_create(&d, 0, t5, 0);\n\
    pthread_join(a, 0); pthread_join(b, 0); pthread_join(c, 0); pthread_join(d, 0);\n\
    assert(x == 0); return 0; }\n";

#[test]
fn aaai19_figure_1_needs_two_data_flows_fixed_at_once() {
    // AAAI-19 Fig. 1: it passes only if T2 reads y before T4 increments it
    // and T3 reads z before T5 increments it. In a run where both races go
    // the bad way (x = 2), no single inverted pair avoids the failure.
    let prep = load("fig1.c", FIG1);
    let both_bad = |ex: &Execution| {
        ex.events
            .iter()
            .rev()
            .find(|e| e.thread == 0 && e.kind == causa_core::EventKind::Read)
            .is_some_and(|e| e.value == 2)
    };
    let ex = failing_where(&prep, 20000, both_bad);
    let e = in_mode(&prep, &ex, Mode::Symbiosis);
    assert!(e.failing_from_run, "the explanation works on the run's own order");
    assert!(e.alternate.is_none(), "no single pair: {:?}", e.alternate);
    assert!(e.pairs_tried > 0, "pairs of the root cause were tried");
    assert!(causa_explain::summary::summary(&e).contains("--mode progressive"));
    // Both races are in the root cause: events of T4 (0.3) and T5 (0.4).
    let in_root: Vec<String> = e.root_cause.iter().map(|r| e.threads[r.0].to_string()).collect();
    assert!(in_root.iter().any(|t| t == "0.3") && in_root.iter().any(|t| t == "0.4"), "{in_root:?}");
    // The Max SMT modes change both data flows at once: T2's read of y and
    // T3's read of z see the initial values in the alternate.
    for mode in [Mode::MaxSmt, Mode::Lexico, Mode::Progressive] {
        let e = in_mode(&prep, &ex, mode);
        assert_explained(&e, "fig1");
        let name = |t: usize| e.threads[t].to_string();
        let initial_read_by = |t: &str, obj: &str| {
            e.dsp
                .alternate_only
                .iter()
                .any(|f| name(f.read.0) == t && f.write.is_none() && e.object(f.read).as_deref() == Some(obj))
        };
        assert!(initial_read_by("0.1", "y"), "{mode}: T2 reads the initial y: {:?}", e.dsp);
        assert!(initial_read_by("0.2", "z"), "{mode}: T3 reads the initial z: {:?}", e.dsp);
        assert_eq!(e.dsp.figures.data_flows, e.dsp.alternate_only.len());
    }
}

#[test]
fn a_bank_lost_update_checked_long_after_the_race() {
    // deposit's read and write of balance are not atomic; afterwards each
    // teller does forty more locked operations, main joins them and does
    // forty of its own before the check.
    let src = "#include <assert.h>\n#include <pthread.h>\nint balance = 100, ops = 0;\n\
        pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
        void work(void) { for (int i = 0; i < 40; i++) { pthread_mutex_lock(&m); ops++; pthread_mutex_unlock(&m); } }\n\
        void *deposit(void *a) { int b = balance; balance = b + (int)(long)a; work(); return 0; }\n\
        int main(void) { pthread_t t1, t2; pthread_create(&t1, 0, deposit, (void *)10);\n\
        pthread_create(&t2, 0, deposit, (void *)20); pthread_join(t1, 0); pthread_join(t2, 0);\n\
        work(); assert(balance == 130); return 0; }\n";
    let prep = load("bank.c", src);
    let ex = failing_where(&prep, 5000, |_| true);
    let mut sizes = Vec::new();
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        assert_explained(&e, "bank");
        assert!(e.failing.len() > 300, "a long failing schedule: {}", e.failing.len());
        // One deposit's read of balance sees the other's write in the alternate.
        let worker_to_worker =
            e.dsp.alternate_only.iter().any(|f| f.read.0 != 0 && f.write.is_some_and(|w| w.0 != 0 && w.0 != f.read.0));
        assert!(worker_to_worker, "{mode}: {:?}", e.dsp);
        // The deposit's read and write, interrupted by the other deposit in
        // the failing schedule, should run atomically.
        assert!(!e.dsp.atomic.is_empty(), "{mode}: an atomic region");
        assert!(causa_explain::summary::summary(&e).contains("atomic avoids the failure"));
        if mode == Mode::Progressive {
            // The locked `ops++` after the race matter to nothing: they
            // keep the failing order, and the text says so.
            assert!(e.held > 100, "held: {}", e.held);
            assert!(
                causa_explain::text::render(&e).contains("whose order the failure does not depend on, kept in order")
            );
        }
        sizes.push((mode, e.dsp.figures.operations, e.failing.len()));
    }
    // Every DSP is at least 90% smaller than the failing schedule (the
    // Symbiosis papers' average), and progressive's is no larger than
    // symbiosis' here (over the corpus that is a benchmark target, measured
    // in docs/performance.md: the objectives are data flows, segments and
    // switches, not the DSP's size).
    for (mode, ops, n) in &sizes {
        assert!(*ops * 10 <= *n, "{mode}: {ops} of {n} events: not 90% smaller");
    }
    let ops = |m: Mode| sizes.iter().find(|s| s.0 == m).map(|s| s.1);
    assert!(ops(Mode::Progressive) <= ops(Mode::Symbiosis), "{sizes:?}");
}

#[test]
fn objects_the_runs_number_differently_are_named_with_their_values() {
    // Whichever thread finds cfg unset allocates it: the symbolic trace
    // numbers the heap block in thread order, the run in schedule order.
    let src = "#include <assert.h>\n#include <pthread.h>\n#include <stdlib.h>\n\
        struct config { int ready; int size; };\nstruct config *cfg;\nint users;\n\
        void *use(void *arg) {\n  if (cfg == NULL) { struct config *c = malloc(sizeof *c); c->size = 64; c->ready = 1; cfg = c; }\n\
          users = users + 1;\n  assert(cfg->size == 64);\n  return 0;\n}\n\
        int main(void) { pthread_t a, b, c; pthread_create(&a, 0, use, 0); pthread_create(&b, 0, use, 0);\n\
        pthread_create(&c, 0, use, 0); pthread_join(a, 0); pthread_join(b, 0); pthread_join(c, 0);\n\
        assert(users == 3); return 0; }\n";
    let prep = load("lazy.c", src);
    // A run where thread 0.2 allocates (writes size 64): the symbolic
    // trace meets 0.1's path first.
    let allocator = |ex: &Execution| {
        ex.events.iter().any(|e| {
            ex.names[e.thread as usize].to_string() == "0.2" && e.kind == causa_core::EventKind::Write && e.value == 64
        })
    };
    let ex = failing_where(&prep, 5000, allocator);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        assert_explained(&e, "lazy");
        assert_named(&e, "lazy");
        // The read of cfg->size is shown as the heap block's field, by name
        // (the block is cast to `struct config *`).
        let size_reads: Vec<_> =
            e.failing.iter().filter(|r| e.object(**r).is_some_and(|o| o.ends_with(".size"))).collect();
        assert!(!size_reads.is_empty(), "{mode}: {}", causa_explain::text::render(&e));
    }
}

#[test]
fn a_finely_interleaved_failing_schedule_is_explained_with_the_general_arithmetic() {
    // Three workers update a histogram under a lock, then add to a total
    // without it (a lost update); the random scheduler switches threads
    // often, and progressive mode leaves the dense difference logic (its
    // closure of the failing order grows with the switches).
    let src = "#include <assert.h>\n#include <pthread.h>\nint hist[8], total, ids[3] = {0, 1, 2};\n\
        pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
        void *worker(void *arg) { int id = *(int *)arg;\n\
          for (int i = 0; i < 10; i++) { pthread_mutex_lock(&m); hist[(i * 3 + id) % 8] += 1; pthread_mutex_unlock(&m); }\n\
          int t = total; total = t + 1; return 0; }\n\
        int main(void) { pthread_t th[3]; for (int t = 0; t < 3; t++) pthread_create(&th[t], 0, worker, &ids[t]);\n\
        for (int t = 0; t < 3; t++) pthread_join(th[t], 0); assert(total == 3); return 0; }\n";
    let prep = load("late_race.c", src);
    let limit = causa_symbolic::DENSE_SWITCH_LIMIT;
    let ex = failing_where(&prep, 5000, |ex| ex.steps.windows(2).filter(|w| w[0] != w[1]).count() > limit);
    let mut sizes = Vec::new();
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        assert_explained(&e, "late race");
        let general = mode == Mode::Progressive;
        assert_eq!(e.arithmetic == causa_symbolic::Arithmetic::General, general, "{mode}: {}", e.arithmetic.name());
        // The lost update on total: one worker's read of it sees another's
        // write in the alternate.
        assert!(
            e.dsp.alternate_only.iter().any(|f| f.read.0 != 0 && f.write.is_some_and(|w| w.0 != 0)),
            "{mode}: {:?}",
            e.dsp
        );
        sizes.push((mode, e.dsp.figures.operations, e.failing.len()));
    }
    let ops = |m: Mode| sizes.iter().find(|s| s.0 == m).map(|s| s.1);
    assert!(ops(Mode::Progressive) <= ops(Mode::Symbiosis), "{sizes:?}");
}

// AAAI-19 Fig. 2, made concrete: T1 passes only if it takes `z > 0` and
// not `y == 0`. In the failing run T2 sets z first, T1 increments w and sets
// y, T3 sees w > 0 and clears y, and T1 decrements x. Every passing run takes
// another branch: T1 skips the decrement (T3 clears y before T1 sets it, or T3
// runs before w is set and skips its own branch).
const FIG2: &str = "#include <assert.h>\n#include <pthread.h>\nint x, y, z, w;\n\
    void *t1(void *a) {\n  if (z > 0) { w = w + 1; x = 1; y = 1; }\n\
      if (y == 0)\n    x = x - 1;\n  assert(x > 0);\n  return 0;\n}\n\
    void *t2(void *a) { z = 1; y = y + 1; return 0; }\n\
    void *t3(void *a) { if (w > 0) y = 0; return 0; }\n\
    int main(void) { pthread_t a, b, c; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0);\n\
    pthread_create(&c, 0, t3, 0); pthread_join(a, 0); pthread_join(b, 0); pthread_join(c, 0); return 0; }\n";

#[test]
fn aaai19_figure_2_shows_the_branch_difference() {
    let prep = load("fig2.c", FIG2);
    // A run where T3 (thread 0.3) cleared y: T1 took both branches.
    let t3_wrote = |ex: &Execution| {
        ex.events
            .iter()
            .any(|e| ex.names[e.thread as usize].to_string() == "0.3" && e.kind == causa_core::EventKind::Write)
    };
    let ex = failing_where(&prep, 20000, t3_wrote);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let f = e
            .flipped
            .as_ref()
            .unwrap_or_else(|| panic!("{mode}: a branch flipped: {}", causa_explain::text::render(&e)));
        assert!(e.alternate_passes(), "{mode}: the re-executed alternate runs to the end: {:?}", e.alternate_outcome);
        assert!(e.flips_tried >= 1);
        // T1's `if (y == 0)` (line 6) or T3's `if (w > 0)` (line 12).
        let (thread, line) = (e.threads[f.thread].to_string(), f.loc.as_ref().map(|l| l.line));
        assert!(matches!((thread.as_str(), line), ("0.1", Some(6)) | ("0.3", Some(12))), "{mode}: {thread} {line:?}");
        assert!(f.taken, "the failing run took the branch");
        let text = causa_explain::text::render(&e);
        assert!(text.contains("takes the other branch at fig2.c:"), "{mode}: {text}");
        let summary = causa_explain::summary::summary(&e);
        // (After the region to make atomic when one is told: "The
        // alternate also takes another path: …")
        let path = summary.contains("must take another path") || summary.contains("also takes another path");
        assert!(path && summary.contains("takes the other branch at fig2.c:"), "{mode}: {summary}");
        // What the flipped thread does instead, from the replayed run: it
        // runs to its end, and the text shows it.
        let last = f.new_path.last().unwrap_or_else(|| panic!("{mode}: the new path is shown"));
        assert_eq!(last.kind, causa_core::EventKind::End, "{mode}: {:?}", f.new_path);
        assert_eq!(last.thread, e.threads[f.thread]);
        assert!(text.contains("runs (in the replayed alternate):"), "{mode}: {text}");
    }
}

#[test]
fn a_switch_is_flipped_to_another_case() {
    // With the failing run's path (the default case, mode read as 0) no order
    // passes; the alternate must read t2's mode and take case 2.
    let src = "#include <assert.h>\n#include <pthread.h>\nint mode, x;\n\
        void *t1(void *a) {\n  switch (mode) {\n  case 1: x = 1; break;\n  case 2: x = 2; break;\n\
          default: x = x - 1; break;\n  }\n  assert(x > 0);\n  return 0;\n}\n\
        void *t2(void *a) { mode = 2; return 0; }\n\
        int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0);\n\
        pthread_join(a, 0); pthread_join(b, 0); return 0; }\n";
    let prep = load("switch.c", src);
    let ex = failing_where(&prep, 3000, |_| true);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let text = causa_explain::text::render(&e);
        let f = e.flipped.as_ref().unwrap_or_else(|| panic!("{mode}: a case flipped: {text}"));
        assert!(f.switch && f.loc.as_ref().is_some_and(|l| l.line == 5), "{mode}: {f:?}");
        assert!(e.alternate_passes(), "{mode}: {:?}", e.alternate_outcome);
        assert!(text.contains("takes another case of the switch at switch.c:5"), "{mode}: {text}");
        // Case 2's store is on the new path.
        assert!(f.new_path.iter().any(|r| r.describe() == "write x = 2"), "{mode}: {:?}", f.new_path);
    }
}

#[test]
fn a_lock_order_deadlock_is_explained_by_its_cycle() {
    // Three philosophers, each taking its left fork then its right one.
    let src = "#include <pthread.h>\npthread_mutex_t f[3] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};\n\
        int meals[3];\n\
        void *phil(void *arg) { int i = (int)(long)arg;\n  pthread_mutex_lock(&f[i]);\n  pthread_mutex_lock(&f[(i + 1) % 3]);\n\
          meals[i]++; pthread_mutex_unlock(&f[(i + 1) % 3]); pthread_mutex_unlock(&f[i]); return 0; }\n\
        int main(void) { pthread_t t[3]; for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, phil, (void *)(long)i);\n\
        for (int i = 0; i < 3; i++) pthread_join(t[i], 0); return 0; }\n";
    let prep = load("phil.c", src);
    let ex = deadlocking(&prep, 5000);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        // Every philosopher waits at line 6 for the fork its right neighbour
        // took at line 5.
        assert_eq!(e.deadlock.len(), 3, "{mode}: {:?}", e.deadlock);
        for w in &e.deadlock {
            assert_eq!(e.line(w.waits).as_deref(), Some("phil.c:6"), "{mode}");
            assert_eq!(e.line(w.held_by).as_deref(), Some("phil.c:5"), "{mode}");
            assert_eq!(e.object(w.waits), e.object(w.held_by), "{mode}: the same fork");
        }
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.starts_with("Deadlock: `phil` (thread 0."), "{mode}: {summary}");
        let json = causa_explain::json::render(&e);
        assert_eq!(json["deadlock"].as_array().map(Vec::len), Some(3), "{mode}: {json}");
        if mode == Mode::Symbiosis && e.alternate.is_none() {
            eprintln!("phil: symbiosis mode found no single pair ({} tried)", e.pairs_tried);
            continue;
        }
        assert!(e.alternate_passes(), "{mode}: {:?}", e.alternate_outcome);
        assert!(
            summary.contains("taking the locks in one order in every thread avoids the deadlock"),
            "{mode}: {summary}"
        );
    }
}

#[test]
fn a_lock_held_across_a_join_is_explained_as_such() {
    // main holds the log lock while it joins the writer, which needs it.
    let src = "#include <pthread.h>\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int lines;\n\
        void *writer(void *a) { pthread_mutex_lock(&m); lines++; pthread_mutex_unlock(&m); return 0; }\n\
        int main(void) { pthread_t t; pthread_create(&t, 0, writer, 0);\n\
        pthread_mutex_lock(&m);\n  pthread_join(t, 0);\n  pthread_mutex_unlock(&m); return 0; }\n";
    let prep = load("joinlock.c", src);
    let ex = deadlocking(&prep, 2000);
    for mode in [Mode::Progressive, Mode::MaxSmt] {
        let e = in_mode(&prep, &ex, mode);
        assert_eq!(e.deadlock.len(), 1, "{mode}: {:?}", e.deadlock);
        let j = e.deadlock[0].holder_joins.unwrap_or_else(|| panic!("{mode}: main's join: {:?}", e.deadlock));
        assert_eq!(e.line(j).as_deref(), Some("joinlock.c:6"), "{mode}");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("while it waits at joinlock.c:6 for `writer` (thread 0.1) to finish"),
            "{mode}: {summary}"
        );
        assert!(summary.contains("releasing `m` before joining avoids the deadlock"), "{mode}: {summary}");
        assert!(!summary.contains("locks in one order"), "{mode}: {summary}");
    }
}

#[test]
fn a_lost_signal_deadlock_is_explained_as_one() {
    // The waiter waits without a predicate: a signal sent first is lost.
    let src = "#include <pthread.h>\nint ready;\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
        pthread_cond_t c = PTHREAD_COND_INITIALIZER;\n\
        void *waiter(void *arg) {\n  pthread_mutex_lock(&m);\n  pthread_cond_wait(&c, &m);\n  pthread_mutex_unlock(&m);\n  return 0;\n}\n\
        void *signaller(void *arg) { pthread_mutex_lock(&m); ready = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m); return 0; }\n\
        int main(void) { pthread_t a, b; pthread_create(&a, 0, waiter, 0); pthread_create(&b, 0, signaller, 0);\n\
        pthread_join(a, 0); pthread_join(b, 0); return 0; }\n";
    let prep = load("missed.c", src);
    let ex = deadlocking(&prep, 5000);
    for mode in [Mode::Progressive, Mode::MaxSmt, Mode::Lexico] {
        let e = in_mode(&prep, &ex, mode);
        assert!(e.deadlock.is_empty(), "{mode}: no lock cycle: {:?}", e.deadlock);
        assert_eq!(e.lost_signals.len(), 1, "{mode}: {:?}", e.lost_signals);
        let l = &e.lost_signals[0];
        assert_eq!(e.line(l.wait).as_deref(), Some("missed.c:7"), "{mode}");
        assert!(e.alternate_passes(), "{mode}: {:?}", e.alternate_outcome);
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("waits at missed.c:7 for a signal that `signaller`"), "{mode}: {summary}");
        assert!(summary.contains("In the alternate the signal comes after the wait."), "{mode}: {summary}");
    }
}

/// A program of the corpus (`path` under `tests/programs/`), with its
/// header's clang flags ignored (the programs loaded this way have none).
fn corpus(path: &str) -> Arc<Prepared> {
    let full = format!("{}/../../tests/programs/{path}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    load(path.rsplit('/').next().unwrap_or(path), &src)
}

/// `every_mode_on(name, strict)`: `strict` — the alternate runs to the end
/// without failing; otherwise it avoids the explained failure (another
/// thread may fail later the same way: the bug is path-schedule dependent).
fn every_mode_on(name: &str, strict: bool) {
    let prep = corpus(&format!("fail/clap/{name}"));
    let ex = failing_where(&prep, 3000, |_| true);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        if mode == Mode::Symbiosis && e.alternate.is_none() {
            // Symbiosis may find none (one pair is not always enough); say so.
            eprintln!("{name}: symbiosis mode found no single pair ({} tried)", e.pairs_tried);
            continue;
        }
        assert_named(&e, name);
        assert_flows_join_one_object(&e, name);
        if strict {
            assert_explained(&e, name);
        } else {
            assert!(e.alternate_avoids_failure(), "{name} {mode}: {:?}", e.alternate_outcome);
        }
    }
}

#[test]
fn bbuf_is_explained_in_every_mode() {
    every_mode_on("bbuf.c", true);
}

#[test]
fn pfscan_is_explained_in_every_mode() {
    // pfscan is path-schedule dependent: a passing run has one loop
    // iteration fewer in some worker. With the failing run's paths, the
    // alternate avoids the failure where it happened; a worker may still dequeue
    // past the end later.
    every_mode_on("pfscan.c", false);
    // The first alternate of the failing run's paths fails later (the other
    // worker dequeues past the end); another one, with other data flows,
    // does not: the explanation is the atomicity violation, no flip.
    let prep = corpus("fail/clap/pfscan.c");
    let ex = failing_where(&prep, 3000, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(e.flipped.is_none() && e.alternate_passes(), "{summary}");
    // (The worker's check of `q_count` before it takes the lock, not its
    // run from one dequeue's write round the loop to the next one's read.)
    assert!(summary.contains("taking `q_lock` before it (over pfscan.c lines 34–39) avoids the failure"), "{summary}");
    assert!(e.rejected >= 1, "the first alternate failed later");
    let text = causa_explain::text::render(&e);
    assert!(text.contains("whose replay failed later"), "{text}");
    assert_eq!(causa_explain::json::render(&e)["rejected"], serde_json::json!(e.rejected));
}

#[test]
fn pbzip2_is_explained_in_every_mode() {
    every_mode_on("pbzip2.c", true);
    // The consumer leaves its loop at the queue check (line 35: it sees the
    // queue empty, then `done`). The producer's reads that flip leaves past
    // its schedule's end do not decide any branch of the producer, so the
    // flip is not set aside for a later one (the `if (done)` at line 41,
    // three times as many events).
    // (The second failing run of the random schedules: its flip at line 35
    // leaves the producer's reads behind; it was explained by the flip at
    // line 41, 73 events.)
    let prep = corpus("fail/clap/pbzip2.c");
    let ex = nth_failing(&prep, 1, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let at = e.flipped.as_ref().and_then(|f| f.loc.as_ref()).map(|l| l.line);
    assert_eq!(at, Some(35), "{}", causa_explain::summary::summary(&e));
    assert!(e.dsp.figures.operations <= 30, "{} operations", e.dsp.figures.operations);
}

#[test]
fn stringbuffer_is_explained_in_every_mode() {
    every_mode_on("stringbuffer.c", true);
}

#[test]
fn a_run_that_did_not_fail_has_nothing_to_explain() {
    let prep = load("ok.c", "int main(void) { return 0; }\n");
    let mut s = causa_explore::FirstScheduler::new();
    causa_core::Scheduler::begin_execution(&mut s);
    let ex = causa_explore::run_once(&prep, &Arc::new(config()), &mut s);
    let r = explain(&prep, &config(), &ex, &ExplainOptions::default());
    assert!(matches!(r, Err(causa_explain::ExplainError::NoFailure)));
}

#[test]
fn an_invalid_unlock_is_avoided_by_another_path() {
    // t2 unlocks m, which it never locked, once it sees t1's flag: on that
    // path the unlock is invalid in every order, so the explanation flips
    // t2's branch (it reads the flag before t1 sets it).
    let src = "#include <pthread.h>\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint flag;\n\
        void *t1(void *a) { pthread_mutex_lock(&m); flag = 1; pthread_mutex_unlock(&m); return 0; }\n\
        void *t2(void *a) { if (flag) pthread_mutex_unlock(&m); return 0; }\n\
        int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0);\n\
        pthread_join(a, 0); pthread_join(b, 0); return 0; }\n";
    let prep = load("unlock.c", src);
    let ex = failing_where(&prep, 3000, |_| true);
    assert_eq!(ex.outcome.finding().map(|f| f.kind), Some(causa_core::BugKind::InvalidPthreadUse));
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let text = causa_explain::text::render(&e);
        let f = e.flipped.as_ref().unwrap_or_else(|| panic!("{mode}: a branch flipped: {text}"));
        assert_eq!((e.threads[f.thread].to_string(), f.loc.as_ref().map(|l| l.line)), ("0.2".into(), Some(5)));
        assert!(e.alternate_passes(), "{mode}: {:?}", e.alternate_outcome);
        assert!(e.root_cause.is_empty(), "{mode}: no order is the cause");
        assert!(text.contains("root cause: no order"), "{mode}: {text}");
        assert!(causa_explain::html::render(&e).contains("root cause: no order"), "{mode}: the HTML says it too");
        let summary = causa_explain::summary::summary(&e);
        // The rule the unlock breaks, then the other path.
        assert!(
            summary.starts_with("Invalid unlock: `t2` (thread 0.2) unlocks a mutex at unlock.c:5"),
            "{mode}: {summary}"
        );
        assert!(summary.contains("no order of the threads avoids the failure"), "{mode}: {summary}");
        assert!(
            summary.contains("avoids it. In the alternate, `t2` (thread 0.2) takes the other branch"),
            "{mode}: {summary}"
        );
        // The flag's data flow is told once.
        assert_eq!(summary.matches("The read of `flag`").count(), 1, "{mode}: {summary}");
    }
}

#[test]
fn a_data_race_is_not_explained_as_a_failure() {
    let src = "#include <pthread.h>\nint x;\nvoid *t(void *a) { x = x + 1; return 0; }\n\
        int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);\n\
        pthread_join(a, 0); pthread_join(b, 0); return 0; }\n";
    let prep = load("race.c", src);
    let cfg = Config { detect_races: true, ..config() };
    let ex = first_random_run(&prep, &Arc::new(cfg.clone()), 3000, |ex: &Execution| {
        ex.outcome.finding().is_some_and(|f| f.kind == causa_core::BugKind::DataRace)
    })
    .expect("a race");
    let r = explain(&prep, &cfg, &ex, &ExplainOptions::default());
    assert!(matches!(r, Err(causa_explain::ExplainError::DataRace)), "{:?}", r.err());
}

#[test]
fn incidental_events_are_freed_when_their_order_blocks_every_alternate() {
    // y is written and never read: its writes are incidental. In a run where
    // T1 runs whole before T2, keeping T1's write of y before T2's (σ's
    // order) forbids T2's x = 1 before T1's read of x, the only fix; the
    // progressive search must then free them.
    let src = "#include <assert.h>\n#include <pthread.h>\nint x, y, r;\n\
        void *t1(void *a) { r = x; y = 1; return 0; }\n\
        void *t2(void *a) { y = 2; x = 1; return 0; }\n\
        int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0);\n\
        pthread_join(a, 0); pthread_join(b, 0); assert(r == 1); return 0; }\n";
    let prep = load("held.c", src);
    let serial = |ex: &Execution| {
        let at = |name: &str| {
            let pos: Vec<usize> =
                (0..ex.events.len()).filter(|i| ex.names[ex.events[*i].thread as usize].to_string() == name).collect();
            (pos.first().copied(), pos.last().copied())
        };
        matches!((at("0.1").1, at("0.2").0), (Some(end1), Some(start2)) if end1 < start2)
    };
    let ex = failing_where(&prep, 5000, serial);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "held");
    assert_eq!(e.held, 0, "the incidental writes were freed: {}", causa_explain::text::render(&e));
    assert!(e.alternate_avoids_failure());
}

// A lazily created shared object: both threads can see no instance and
// create one, and the creation counter the check reads ends at 2.
const SINGLETON: &str = "#include <assert.h>\n#include <pthread.h>\n#include <stdlib.h>\n\
    int *instance; int created;\n\
    int *get(void) {\n  if (instance == 0) {\n    int *p = malloc(sizeof *p); *p = 7;\n\
        created = created + 1;\n    instance = p;\n  }\n  return instance;\n}\n\
    void *user(void *a) { assert(*get() == 7); return 0; }\n\
    int main(void) { pthread_t a, b; pthread_create(&a, 0, user, 0); pthread_create(&b, 0, user, 0);\n\
    pthread_join(a, 0); pthread_join(b, 0); assert(created == 1); return 0; }\n";

#[test]
fn an_alternate_that_only_loses_an_update_is_set_aside() {
    // Reordering the run's paths avoids `created == 2` only by losing one
    // of the two increments of `created` (both threads read 0): an answer
    // about the counter, not about the check of `instance`. That alternate
    // is set aside; the one shown has a thread see the other's instance at
    // line 6 and take the other branch, and says to make the check and the
    // creation (lines 6–9) atomic.
    let prep = load("singleton.c", SINGLETON);
    let ex = failing_where(&prep, 2000, fails_at_line(15));
    for mode in [Mode::Progressive, Mode::MaxSmt] {
        let e = in_mode(&prep, &ex, mode);
        let text = causa_explain::text::render(&e);
        assert!(e.lost_updates >= 1, "{mode}: {text}");
        assert!(e.alternate_passes(), "{mode}: {text}");
        let f = e.flipped.as_ref().unwrap_or_else(|| panic!("{mode}: a flipped branch: {text}"));
        assert_eq!(f.loc.as_ref().map(|l| l.line), Some(6), "{mode}: {text}");
        assert!(text.contains("losing another update"), "{mode}: {text}");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("lines 6–9 atomic"), "{mode}: {summary}");
    }
}

#[test]
fn a_semaphore_short_of_posts_is_explained_as_one() {
    // Two jobs, one post. The worker's loop is unrolled by the compiler: its
    // two waits share one source location, and the log's deadlock is at the
    // second (`PathLog::failure_occurrence`); it used to be taken for the
    // first, and the model had no schedule reaching the failure.
    let src = "#include <pthread.h>\n#include <semaphore.h>\nsem_t ready;\n\
        void *worker(void *a) { for (int i = 0; i < 2; i++) sem_wait(&ready); return 0; }\n\
        int main(void) { pthread_t t; sem_init(&ready, 0, 0); pthread_create(&t, 0, worker, 0);\n\
        sem_post(&ready);\n  pthread_join(t, 0); return 0; }\n";
    let prep = load("starved.c", src);
    let ex = deadlocking(&prep, 200);
    for mode in [Mode::Progressive, Mode::Symbiosis] {
        let e = in_mode(&prep, &ex, mode);
        assert_eq!(e.starved.len(), 1, "{mode}: {:?}", e.starved);
        assert_eq!((e.starved[0].posts.len(), e.starved[0].taken.len()), (1, 1), "{mode}");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("on semaphore `ready`, which has no unit left: it was posted once (at starved.c:6)"),
            "{mode}: {summary}"
        );
        assert!(e.alternate.is_none(), "{mode}: no order avoids it");
    }
    // A semaphore that starts with units: the count adds up (it said
    // "posted once and waited on 3 times before").
    let src = "#include <pthread.h>\n#include <semaphore.h>\nsem_t slots;\n\
        void *worker(void *a) { for (int i = 0; i < 4; i++) sem_wait(&slots); return 0; }\n\
        int main(void) { pthread_t t; sem_init(&slots, 0, 2); pthread_create(&t, 0, worker, 0);\n\
        sem_post(&slots);\n  pthread_join(t, 0); return 0; }\n";
    let prep = load("two_slots.c", src);
    let ex = deadlocking(&prep, 200);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(
        summary.contains("which has no unit left: it started with 2 units, was posted once (at two_slots.c:6) and waited on 3 times before"),
        "{summary}"
    );
    // A semaphore nothing but the blocked wait touches (main posts the
    // other one): it was named by its address, `0x300000000`.
    let src = "#include <pthread.h>\n#include <semaphore.h>\nsem_t empty, full;\n\
        void *consumer(void *a) { sem_wait(&full); return 0; }\n\
        int main(void) { pthread_t t; sem_init(&empty, 0, 0); sem_init(&full, 0, 0);\n\
        pthread_create(&t, 0, consumer, 0);\n  sem_post(&empty);\n  pthread_join(t, 0); return 0; }\n";
    let prep = load("swapped.c", src);
    let ex = deadlocking(&prep, 200);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("on semaphore `full`, which has no unit left: it was never posted"), "{summary}");
    // (Main does not wait on the semaphore it posts: nothing more is said.)
    assert!(e.starved[0].own_posts.is_empty() && !summary.contains("Every post"), "{summary}");
    // A producer that posts `empty`, which it waits on, instead of `full`:
    // every post of the run is of its own thread's semaphore, which is said.
    let prep = corpus("fail/sync/sem_producer_posts_empty.c");
    let ex = deadlocking(&prep, 200);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("on semaphore `full`, which has no unit left: it was never posted"), "{summary}");
    assert!(
        summary.contains("Every post of the failing run is of a semaphore its own thread waits on: `producer` (thread 0.1) posts `empty` at sem_producer_posts_empty.c:20 (and waits on it at sem_producer_posts_empty.c:18)"),
        "{summary}"
    );
}

#[test]
fn local_arrays_initialised_by_bulk_copies_are_followed() {
    // clang initialises `jobs` by copying a constant (`llvm.memcpy`) and
    // zeroes `seen` with `memset`; symbolic execution used to stop at the
    // copy ("unsupported: external function `llvm.memcpy…`"). `jobs`
    // escapes to the workers, which read its bytes as their initial value;
    // main reads `seen[1]` (a word stored over the zeroed bytes) and
    // `seen[2]` (put together from them).
    let src = "#include <assert.h>\n#include <pthread.h>\n#include <string.h>\nint total;\n\
        struct job { int id; int amount; };\n\
        void *work(void *a) { struct job *j = a; int t = total; total = t + j->amount; return 0; }\n\
        int main(void) { struct job jobs[2] = {{1, 10}, {2, 20}}; int seen[4];\n\
        memset(seen, 0, sizeof seen); seen[1] = 5; pthread_t t[2];\n\
        for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, work, &jobs[i]);\n\
        for (int i = 0; i < 2; i++) pthread_join(t[i], 0);\n\
        assert(total == 30 + seen[1] - 5 + seen[2]); return 0; }\n";
    let prep = load("jobs.c", src);
    let ex = failing_where(&prep, 500, |_| true);
    // (Not Symbiosis: on some failing runs no single inverted pair of its
    // root cause avoids the lost update, the heuristic's known limit.)
    for mode in [Mode::Progressive, Mode::MaxSmt, Mode::Lexico] {
        let e = in_mode(&prep, &ex, mode);
        assert_explained(&e, "jobs");
        assert_named(&e, "jobs");
        assert_flows_join_one_object(&e, "jobs");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("making jobs.c line 6 atomic"), "{mode}: {summary}");
        // The worker's read of the escaped array is named by its field.
        let text = causa_explain::text::render(&e);
        assert!(text.contains("jobs[0].amount") || text.contains("jobs[1].amount"), "{mode}: {text}");
        // The HTML boxes show the value and line under the operation, so a
        // long object name does not hide the value.
        let html = causa_explain::html::render(&e);
        assert!(html.contains(">read jobs[1].amount</text>"), "{mode}");
        assert!(html.contains(">= 20 · jobs.c:6</text>"), "{mode}");
    }
}

#[test]
fn fields_elements_and_pointers_are_named_as_written() {
    // Struct fields by their names (debug information), elements of a
    // stack array and of a heap block cast to a struct pointer, pointer
    // values as the object they point to, the C library's own fields inside
    // a mutex left out.
    let src = "#include <pthread.h>\n#include <stdlib.h>\n\
        struct item { int key; int val; };\nstruct queue { struct item items[4]; int tail; } q;\n\
        struct node { int val; struct node *next; };\nstruct node *head;\n\
        pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
        void *w(void *a) { int *k = a; pthread_mutex_lock(&m); q.items[1].key = k[1]; q.tail = 2;\n\
        struct node *n = malloc(sizeof *n); n->next = head; head = n; pthread_mutex_unlock(&m); return 0; }\n\
        int main(void) { int k[2] = {5, 6}; pthread_t t; pthread_create(&t, 0, w, k); pthread_join(t, 0);\n\
        return head->next != 0; }\n";
    let prep = load("names.c", src);
    let cfg = Arc::new(Config { keep_records: true, ..config() });
    let ex = first_random_run(&prep, &cfg, 1, |_| true).expect("a run");
    let shown: Vec<String> = ex
        .records
        .iter()
        .map(|r| format!("{} = {}", r.object.clone().unwrap_or_default(), r.value.clone().unwrap_or_default()))
        .collect();
    for want in ["q.items[1].key = 6", "q.tail = 2", "k[1] = 6", "heap@0.1#1.next = 0", "head = &heap@0.1#1", "m = "] {
        assert!(shown.iter().any(|s| s == want || (want.ends_with("= ") && s.starts_with(want))), "{want}: {shown:#?}");
    }
}

#[test]
fn a_use_after_free_is_avoided_by_running_the_access_first() {
    // The reader's access of the block comes after main's free. The model
    // gives two threads' events equal positions where nothing orders them,
    // and the replay then runs the failing thread's point last: alternates
    // put the free at the faulting access's position, took that for "not
    // before", and failed again when replayed.
    let src = "#include <pthread.h>\n#include <stdlib.h>\nstruct buf { int len; int data[4]; };\n\
        struct buf *shared;\n\
        void *reader(void *a) { struct buf *b = shared; return (void *)(long)b->data[b->len - 1]; }\n\
        int main(void) { shared = malloc(sizeof *shared); shared->len = 2; pthread_t r;\n\
        pthread_create(&r, 0, reader, 0);\n  free(shared);\n  pthread_join(r, 0); return 0; }\n";
    let prep = load("uaf.c", src);
    let ex = failing_where(&prep, 500, |ex| {
        ex.outcome.finding().is_some_and(|f| f.kind == causa_core::BugKind::MemoryError)
    });
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        // Symbiosis' root cause is the free and the reader's start; moving
        // the start alone before the free leaves the access after it (no
        // single pair works): it may find none, but never one that fails.
        if mode == Mode::Symbiosis && e.alternate.is_none() {
            continue;
        }
        assert_explained(&e, "uaf");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("`main` (thread 0) frees `heap#1` at uaf.c:8 before `reader` (thread 0.1)'s"),
            "{mode}: {summary}"
        );
    }
}

#[test]
fn a_thread_that_had_not_started_at_the_failure_is_run_first() {
    // `finish` aborts before `start` has run at all: the failing run has no
    // path for `start`, so no order of its events avoids the abort. A
    // neighbouring run (the failing schedule up to a step of `finish`, then
    // the other threads first) gives `start` its path, and the alternate
    // runs it first.
    let prep = corpus("fail/libc/abort_bad_state.c");
    let ex = failing_where(&prep, 500, |ex| {
        let start = ex.names.iter().position(|n| n.to_string() == "0.1");
        start.is_some_and(|t| ex.events.iter().all(|e| e.thread as usize != t))
    });
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let text = causa_explain::text::render(&e);
        assert!(e.alternate_passes(), "{mode}: {text}");
        assert_eq!(e.extended.iter().map(|t| t.to_string()).collect::<Vec<_>>(), ["0.1"], "{mode}");
        // `finish` goes the other way at line 29 in the alternate: its
        // reads for the message at line 30 are not shown as run.
        let finish = e.threads.iter().position(|t| t.to_string() == "0.2").expect("finish");
        let alternate = e.dsp.alternate_events.iter().filter(|r| r.0 == finish);
        assert!(alternate.clone().count() >= 2, "{mode}: finish's begin and read at line 29");
        assert!(
            alternate.clone().all(|r| e.info[r.0][r.1].loc.as_ref().is_none_or(|l| l.line != 30)),
            "{mode}: {text}"
        );
        let note = "thread 0.1 had not got far when the failure stopped the run";
        assert!(text.contains(note), "{mode}: {text}");
        assert!(causa_explain::html::render(&e).contains(note), "{mode}: html");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("`finish` (thread 0.2) reads `conn_state` at abort_bad_state.c:29 before `start` (thread 0.1) writes it at abort_bad_state.c:21"),
            "{mode}: {summary}"
        );
        // Its reads at line 30, which the alternate does not run, in one
        // sentence (not one each, naming the failing run's values).
        assert!(
            summary.ends_with("In the alternate, `finish` (thread 0.2) then takes another path and does not run its reads of `stderr` and `conn_state` at abort_bad_state.c:30."),
            "{mode}: {summary}"
        );
        assert!(!summary.contains("The read of"), "{mode}: {summary}");
    }
}

#[test]
fn a_mutex_taken_twice_by_one_thread_is_explained_as_such() {
    // The model orders locks between threads only, so it let the thread
    // through its second lock, and the "alternate" deadlocked again when
    // replayed, with an empty projection and no summary.
    let src = "#include <pthread.h>\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint n;\n\
        static int size(void) { pthread_mutex_lock(&m); int k = n; pthread_mutex_unlock(&m); return k; }\n\
        void *w(void *a) { pthread_mutex_lock(&m); n++; pthread_mutex_unlock(&m); return 0; }\n\
        int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0);\n\
        pthread_mutex_lock(&m);\n  if (size() < 4) n++;\n  pthread_mutex_unlock(&m); return 0; }\n";
    let prep = load("relock.c", src);
    let ex = deadlocking(&prep, 50);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        assert!(e.alternate.is_none(), "{mode}: no order avoids it");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.starts_with(
                "Deadlock: `size` (thread 0) locks `m` at relock.c:4 while it already holds it (locked at relock.c:7)"
            ),
            "{mode}: {summary}"
        );
    }
}

#[test]
fn a_read_lock_is_shown_as_one() {
    // A reader holds `rw` for reading and waits for `m`; the writer holds
    // `m` and waits to write-lock `rw`. The columns say which acquisition
    // is a read lock (it was shown as `lock`, like the write lock).
    let src = "#include <pthread.h>\npthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;\n\
        pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint cache;\n\
        void *reader(void *a) { pthread_rwlock_rdlock(&rw); pthread_mutex_lock(&m); int x = cache;\n\
        pthread_mutex_unlock(&m); pthread_rwlock_unlock(&rw); return (void *)(long)x; }\n\
        void *writer(void *a) { pthread_mutex_lock(&m); pthread_rwlock_wrlock(&rw); cache++;\n\
        pthread_rwlock_unlock(&rw); pthread_mutex_unlock(&m); return 0; }\n\
        int main(void) { pthread_t a, b; pthread_create(&a, 0, reader, 0); pthread_create(&b, 0, writer, 0);\n\
        pthread_join(a, 0); pthread_join(b, 0); return 0; }\n";
    let prep = load("rwdl.c", src);
    let ex = deadlocking(&prep, 500);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert!(e.alternate_passes(), "{}", causa_explain::text::render(&e));
    let text = causa_explain::text::render(&e);
    assert!(text.contains("rdlock rw :5"), "{text}");
    assert!(text.contains("lock rw :7") && !text.contains("rdlock rw :7"), "{text}");
}

#[test]
fn a_wake_up_another_thread_got_in_before_is_explained_as_such() {
    // `get` waits with `if`, not `while`: main's put signals, the other
    // consumer takes the item before the woken one runs, and the woken one
    // reads an empty ring. Told before as two order violations (its reads
    // "before" the producer's later put), which does not say why.
    let src = "#include <assert.h>\n#include <pthread.h>\n#include <stdlib.h>\n\
        struct ring { pthread_mutex_t lock; pthread_cond_t nonempty; int items[4]; int head, tail, n; };\n\
        struct ring *r;\n\
        void put(int v) { pthread_mutex_lock(&r->lock); r->items[r->tail] = v; r->tail = (r->tail + 1) % 4; r->n++;\n\
          pthread_cond_signal(&r->nonempty); pthread_mutex_unlock(&r->lock); }\n\
        int get(void) { pthread_mutex_lock(&r->lock);\n  if (r->n == 0)\n    pthread_cond_wait(&r->nonempty, &r->lock);\n\
          int v = r->items[r->head]; r->head = (r->head + 1) % 4;\n  r->n--;\n  pthread_mutex_unlock(&r->lock); return v; }\n\
        void *producer(void *a) { put(7); return 0; }\n\
        void *consumer(void *a) { int v = get(); assert(v == 7); return 0; }\n\
        int main(void) { r = calloc(1, sizeof *r); pthread_mutex_init(&r->lock, 0); pthread_cond_init(&r->nonempty, 0);\n\
        pthread_t p, c1, c2; pthread_create(&c1, 0, consumer, 0); pthread_create(&c2, 0, consumer, 0);\n\
        pthread_create(&p, 0, producer, 0); put(7); pthread_join(p, 0); pthread_join(c1, 0); pthread_join(c2, 0);\n\
        return 0; }\n";
    let prep = load("ring.c", src);
    // A consumer failed after a wait returned.
    let stolen = |ex: &Execution| ex.events.iter().any(|e| e.kind == causa_core::EventKind::WaitReturn);
    let ex = failing_where(&prep, 3000, stolen);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("returns from its wait at ring.c:10 after the signal"), "{summary}");
    assert!(summary.contains("writes `heap#1.n` at ring.c:12"), "{summary}");
    assert!(summary.contains("without checking the condition again"), "{summary}");
}

#[test]
fn a_torn_copy_of_a_shared_struct_is_explained_in_every_mode() {
    // main copies the struct (`llvm.memcpy`, one bulk read of 16 bytes)
    // while the writer updates its fields one by one: the copy can be
    // torn. The copy's words are the fields' locations; the alternate
    // puts both writes (or neither) before it.
    let src = "#include <assert.h>\n#include <pthread.h>\nstruct pair { long lo, hi; };\n\
        struct pair shared = {1, 1};\n\
        void *writer(void *a) { shared.lo = 2; shared.hi = 2; return 0; }\n\
        int main(void) { pthread_t t; pthread_create(&t, 0, writer, 0);\n\
        struct pair copy = shared;\n\
        pthread_join(t, 0); assert(copy.lo == copy.hi); return 0; }\n";
    let prep = load("torn.c", src);
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "torn");
        assert_named(&e, "torn");
        assert_flows_join_one_object(&e, "torn");
        let text = causa_explain::text::render(&e);
        // The copy is named by what it spans, not by its first field.
        assert!(text.contains("memcpy from shared :7"), "{mode}: {text}");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("copies `shared`"), "{mode}: {summary}");
    }
}

#[test]
fn a_lost_update_after_a_memset_of_the_shared_struct_is_explained() {
    // main zeroes the statistics with `memset` (one bulk write of 16
    // bytes, as two 8-byte words) before the workers start; each worker
    // updates the 4-byte `hits` without a lock. The model cuts the
    // memset's first word where `hits` and `misses` meet.
    let src = "#include <assert.h>\n#include <pthread.h>\n#include <string.h>\n\
        struct stats { int hits; int misses; long total; };\nstruct stats st;\n\
        void *worker(void *a) { int h = st.hits; st.hits = h + 1; st.total += 0; return 0; }\n\
        int main(void) { memset(&st, 0, sizeof st); pthread_t t[2];\n\
        for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, 0);\n\
        for (int i = 0; i < 2; i++) pthread_join(t[i], 0);\n\
        assert(st.hits == 2 && st.misses == 0); return 0; }\n";
    let prep = load("stats.c", src);
    let ex = failing_where(&prep, 500, |_| true);
    for mode in [Mode::Progressive, Mode::MaxSmt, Mode::Lexico] {
        let e = in_mode(&prep, &ex, mode);
        assert_explained(&e, "stats");
        assert_named(&e, "stats");
        assert_flows_join_one_object(&e, "stats");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("making stats.c line 6 atomic"), "{mode}: {summary}");
    }
}

#[test]
fn a_string_copied_over_before_it_is_compared_is_explained() {
    // `strcpy` into and `strcmp` of a shared buffer are one access each (of
    // the string's bytes); the comparison's result is decided, in the
    // model, by the first byte that differs from the constant.
    let src = "#include <assert.h>\n#include <pthread.h>\n#include <string.h>\nchar name[16];\n\
        void *rename_it(void *a) { strcpy(name, \"beta\"); return 0; }\n\
        int main(void) { strcpy(name, \"alpha\"); pthread_t t; pthread_create(&t, 0, rename_it, 0);\n\
        int same = strcmp(name, \"alpha\") == 0;\n\
        pthread_join(t, 0); assert(same); return 0; }\n";
    let prep = load("names.c", src);
    let ex = failing_where(&prep, 500, |_| true);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        if mode == Mode::Symbiosis && e.alternate.is_none() {
            // Its one inverted pair of the root cause fails again here.
            continue;
        }
        assert_explained(&e, "names");
        assert_named(&e, "names");
        assert_flows_join_one_object(&e, "names");
        let text = causa_explain::text::render(&e);
        assert!(text.contains("strcmp name :7") && text.contains("strcpy name :5"), "{mode}: {text}");
        assert!(
            text.contains(
                "name (thread 0 at names.c:7): read what thread 0.1 wrote at line 5 → read what thread 0 wrote at line 6"
            ),
            "{mode}: {text}"
        );
    }
}

#[test]
fn string_functions_on_shared_memory_are_explained_in_every_mode() {
    // strlen, memcmp, strcmp of two shared strings, strcpy from shared
    // memory, strncpy and strcat onto a shared string are one access each. The model reads `strlen`'s string to the
    // end of its object (the length is the first NUL), and `strcpy` from
    // shared memory copies up to the NUL and keeps what follows.
    let cases: [(&str, &str, &str); 5] = [
        (
            "len.c",
            "#include <assert.h>\n#include <pthread.h>\n#include <string.h>\nchar label[16] = \"init\";\n\
            void *rename_it(void *a) { strcpy(label, \"renamed\"); return 0; }\n\
            int main(void) { pthread_t t; pthread_create(&t, 0, rename_it, 0);\n\
            size_t n = strlen(label);\n\
            pthread_join(t, 0); assert(n == 4); return 0; }\n",
            "strlen label :7",
        ),
        (
            "cmp.c",
            "#include <assert.h>\n#include <pthread.h>\n#include <string.h>\n\
            struct setting { int low, high; };\nstruct setting cur = {1, 2};\n\
            void *widen(void *a) { cur.low = 0; cur.high = 3; return 0; }\n\
            int main(void) { pthread_t t; struct setting before = {1, 2}; pthread_create(&t, 0, widen, 0);\n\
            int changed = memcmp(&cur, &before, sizeof cur) != 0;\n\
            pthread_join(t, 0); assert(!changed); return 0; }\n",
            "memcmp cur :8",
        ),
        (
            "swap.c",
            "#include <assert.h>\n#include <pthread.h>\n#include <string.h>\n\
            char one[8] = \"alpha\";\nchar two[8] = \"beta\";\nchar spare[8];\n\
            void *swap(void *a) { strcpy(spare, one); strcpy(one, two); strcpy(two, spare); return 0; }\n\
            int main(void) { pthread_t t; pthread_create(&t, 0, swap, 0);\n\
            int same = strcmp(one, two) == 0;\n\
            pthread_join(t, 0); assert(!same); return 0; }\n",
            "strcmp one and two :9",
        ),
        (
            "ncpy.c",
            "#include <assert.h>\n#include <pthread.h>\n#include <string.h>\nchar name[8] = \"init\";\n\
            void *w(void *a) { strncpy(name, \"new\", sizeof name); return 0; }\n\
            int main(void) { pthread_t t; pthread_create(&t, 0, w, 0);\n\
            char local[8]; strncpy(local, name, sizeof local);\n\
            pthread_join(t, 0); assert(local[0] == 'i'); return 0; }\n",
            "strncpy from name :7",
        ),
        (
            "cat.c",
            "#include <assert.h>\n#include <pthread.h>\n#include <string.h>\nchar text[16];\n\
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
            void *add(void *a) { pthread_mutex_lock(&m); strcat(text, (const char *)a); pthread_mutex_unlock(&m); return 0; }\n\
            int main(void) { pthread_t x, y; pthread_create(&x, 0, add, \"a\"); pthread_create(&y, 0, add, \"b\");\n\
            pthread_join(x, 0); pthread_join(y, 0); assert(strcmp(text, \"ab\") == 0); return 0; }\n",
            "strcat text :6",
        ),
    ];
    for (name, src, shown) in cases {
        let prep = load(name, src);
        let ex = failing_where(&prep, 500, |_| true);
        for e in explained_modes(&prep, &ex) {
            let mode = e.mode;
            assert_explained(&e, name);
            assert_named(&e, name);
            let text = causa_explain::text::render(&e);
            assert!(text.contains(shown), "{name} {mode}: {text}");
        }
    }
}

/// A failing run of the relaxed corpus program `name` under `model`.
fn relaxed_failing(name: &str, model: causa_core::MemoryModel) -> (Arc<Prepared>, Execution) {
    let prep = corpus(&format!("relaxed/{name}"));
    let cfg = Config { memory_model: model, ..config() };
    let ex = first_random_run(&prep, &Arc::new(cfg), 5000, |ex: &Execution| matches!(ex.outcome, Outcome::Bug(_)))
        .unwrap_or_else(|| panic!("{name}: a failing run under {model}"));
    (prep, ex)
}

#[test]
fn store_buffering_failures_are_explained_with_the_store_still_buffered() {
    use causa_core::MemoryModel::{Pso, Tso};
    // (program, model, what the summary must say: the store passed but
    // not visible, and the fence after it)
    let cases = [
        ("store_buffering.c", Tso, "Store buffering (TSO)"),
        ("dekker.c", Tso, "Store buffering (TSO)"),
        (
            "message_passing.c",
            Pso,
            "writes `data` at message_passing.c:15, then goes on to line 16 (writes `ready` there)",
        ),
        // A copy (memcpy) and a comparison (strcmp) of the message: one
        // access of its bytes, some of them still buffered.
        ("message_copy.c", Pso, "Store buffering (PSO): `writer` (thread 0.1) writes `msg."),
        ("message_string.c", Pso, "Store buffering (PSO): `setter` (thread 0.1) writes `status["),
        // Both fields still buffered when the flag became visible: the fence
        // goes after the second (after the first, it left the second behind
        // the flag; config_two_fields_fenced.c is verified).
        (
            "config_two_fields.c",
            Pso,
            "A fence after line 19 (`atomic_thread_fence(memory_order_seq_cst)`), or making the stores at lines 18–19",
        ),
    ];
    for (name, model, said) in cases {
        let (prep, ex) = relaxed_failing(name, model);
        for mode in Mode::ALL {
            let e = explain(&prep, &config(), &ex, &ExplainOptions { mode, ..Default::default() })
                .unwrap_or_else(|err| panic!("{name} {mode}: {err}"));
            if mode == Mode::Symbiosis && e.alternate.is_none() {
                continue;
            }
            assert_explained(&e, name);
            // Every access is named and has its run's value (a load granted
            // after its thread's flush was recorded at the store's line).
            assert_named(&e, name);
            assert_eq!(e.memory_model, model);
            let summary = causa_explain::summary::summary(&e);
            assert!(summary.contains(said), "{name} {mode}: {summary}");
            assert!(summary.contains("A fence after line"), "{name} {mode}: {summary}");
            // (The read before the buffered store is not also told as an
            // order violation whose fix is to make the read wait: it
            // waits already, the store is not yet visible.)
            if name == "message_passing.c" {
                assert!(!summary.contains("Making the read wait for that write"), "{name} {mode}: {summary}");
            }
            // Buffered stores are shown where they become visible, and the
            // views name the memory model.
            let text = causa_explain::text::render(&e);
            assert!(text.contains("flush "), "{name} {mode}: {text}");
            let model_name = format!("memory model {}", model.to_string().to_uppercase());
            assert!(text.contains(&model_name), "{name} {mode}: {text}");
            assert!(causa_explain::html::render(&e).contains(&model_name), "{name} {mode}: html");
            // The bulk read's bytes whose source differs are a data flow of
            // their own (the latest write it sees can be the same in both).
            if name.starts_with("message_") && name != "message_passing.c" {
                let part = e.dsp.alternate_only.iter().find(|f| f.bytes.is_some());
                let part = part.and_then(|f| e.flow_part(f)).unwrap_or_else(|| panic!("{name} {mode}: {text}"));
                assert!(part.starts_with("msg.") || part.starts_with("status["), "{name} {mode}: {part}");
                assert!(text.contains(&format!("{part} (in ")), "{name} {mode}: {text}");
                // The flush and the read, nothing else: the solver put the
                // other thread's flush and end, which the failing run never
                // reached, between two events of the failing schedule
                // (progressive: 8 operations), and coarsening moves them out.
                assert_eq!(e.dsp.figures.operations, 2, "{name} {mode}: {text}");
            }
        }
    }
}

/// Set in the child processes of the test below: print the explanations
/// instead of comparing them.
const FINGERPRINT_CHILD: &str = "CAUSA_TEST_EXPLAIN_FINGERPRINT";

#[test]
fn explanations_are_the_same_in_every_process() {
    use causa_core::MemoryModel::{Pso, Tso};
    if std::env::var_os(FINGERPRINT_CHILD).is_some() {
        // Relaxed failures have several alternates of equal cost, so the
        // order in which a mode walks its maps shows in its answer.
        for (name, model) in [("dekker.c", Tso), ("message_string.c", Pso), ("message_copy.c", Pso)] {
            let (prep, ex) = relaxed_failing(name, model);
            for mode in Mode::ALL {
                let e = in_mode(&prep, &ex, mode);
                let d = &e.dsp;
                println!("FINGERPRINT {name} {mode} {:?} {:?} {:?}", d.figures, d.events, e.alternate);
            }
        }
        return;
    }
    // Each mode's solver queries were built by walking hash maps seeded at
    // random per process: the same failing run got a different alternate
    // from one test process to the next (20 processes, 20 answers). The
    // same run is explained in three processes here.
    let fingerprint = || {
        let out = std::process::Command::new(std::env::current_exe().expect("the test binary"))
            .args(["--exact", "explanations_are_the_same_in_every_process", "--nocapture", "--test-threads", "1"])
            .env(FINGERPRINT_CHILD, "1")
            .output()
            .expect("the test binary runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        // (The harness prints its "test … " on the first line's left.)
        let lines: Vec<&str> = text.lines().filter_map(|l| l.find("FINGERPRINT ").map(|at| &l[at..])).collect();
        let lines: Vec<String> = lines.into_iter().map(str::to_string).collect();
        assert_eq!(lines.len(), 12, "{text}{}", String::from_utf8_lossy(&out.stderr));
        lines
    };
    let first = fingerprint();
    for _ in 0..2 {
        assert_eq!(fingerprint(), first, "two processes explain the same run differently");
    }
}

/// Every failing program/model pair of the relaxed corpus (its header says
/// `tso=bug` or `pso=bug`), on the first failing random run: progressive's
/// DSP has no more operations than Symbiosis' where Symbiosis finds an
/// alternate (the issue's target), but on one pair, by at most two
/// operations: peterson under PSO, where Symbiosis' alternate flips a branch
/// of the second thread and progressive's keeps the paths (8 against 6).
/// The target is not met there (docs/performance.md); this keeps it from
/// slipping further. (store_forwarding under PSO was the second, 6 against
/// 5, until coarsening moved part of a thread's run in one piece.)
#[test]
fn progressive_is_never_larger_than_symbiosis_on_the_relaxed_corpus() {
    use causa_core::MemoryModel::{Pso, Tso};
    let dir = format!("{}/../../tests/programs/relaxed", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the relaxed corpus")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .collect();
    names.sort();
    let mut compared = 0;
    let mut larger = Vec::new();
    for name in &names {
        let src = std::fs::read_to_string(format!("{dir}/{name}")).expect("readable");
        for (model, header) in [(Tso, "tso=bug"), (Pso, "pso=bug")] {
            if !src.contains(&format!("causa: {header}")) {
                continue;
            }
            let (prep, ex) = relaxed_failing(name, model);
            let symbiosis = in_mode(&prep, &ex, Mode::Symbiosis);
            let progressive = in_mode(&prep, &ex, Mode::Progressive);
            assert!(progressive.alternate_passes(), "{name} {model}: progressive's alternate runs to the end");
            // The failing schedule is often the solver's here (the run's
            // flushes come at other points): its reads show the values its
            // own replay read (some had none before, the run never made
            // them in that order).
            for e in [&symbiosis, &progressive] {
                for r in e.failing.iter().filter(|r| e.info[r.0][r.1].op == "read") {
                    assert!(e.failing_values.contains_key(r), "{name} {model} {}: {r:?} has a value", e.mode);
                }
            }
            if !symbiosis.alternate_passes() {
                continue;
            }
            compared += 1;
            let (s, p) = (symbiosis.dsp.figures.operations, progressive.dsp.figures.operations);
            if p > s {
                larger.push((format!("{name} {model}"), p - s));
            }
        }
    }
    // (20 since peterson_fenced.c's PSO failure, which the check missed
    // before a prefix stopped fixing its events' order, is in the corpus.)
    assert_eq!(compared, 20, "pairs where Symbiosis finds an alternate");
    // Since two alternates of the same figures are told apart by the events
    // their differences touch (eighty-fourth session), peterson.c under TSO
    // is no longer larger (7 against 5 before; peterson.c under PSO and
    // dekker.c under TSO, larger in earlier sessions, were not on the build
    // before this either). Since coarsening scores an order as it is
    // proposed, without the events σ lacks that it leaves after the failing
    // thread's point (eighty-fifth session), peterson_fenced.c under PSO is
    // not either: 7 operations against 6 before (progressive's alternate ran
    // `second` on to its fence at line 44, which the failing run never
    // reached, before `first` resumed, and that context switch was one of
    // the DSP's).
    assert!(larger.is_empty(), "{larger:?}");
}

#[test]
fn a_copy_sized_by_a_shared_length_is_explained_from_its_source() {
    // `memcpy(copy, line, n)` with `n` read from a shared length: symbolic
    // execution takes the run's size (the path log's call sizes); the copy
    // into a heap block is named by it, its data flow by `line`, the
    // source whose bytes the alternate reads before the writer's.
    let prep = corpus("fail/libc/line_copied_by_stale_length.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate_passes(), "{}: {summary}", e.mode);
        assert!(summary.contains("The memcpy into `heap@0.2#1` at line_copied_by_stale_length.c:30"), "{summary}");
        assert!(summary.contains("in `line` in the failing schedule"), "{summary}");
        let text = causa_explain::text::render(&e);
        assert!(text.contains("  line (in memcpy heap@0.2#1, thread 0.2 at line_copied_by_stale_length.c:30): read what thread 0.1 wrote at line 21"), "{text}");
    }
}

#[test]
fn a_snapshot_sized_by_a_shared_count_names_the_sample_it_copies_too_early() {
    // `malloc` and `memcpy` sized by the shared count; the copy into the
    // heap block reads a sample the sampler has published (counted) but
    // not written yet: the order violation names the sample, not the copy.
    let prep = corpus("fail/libc/samples_copied_before_filled.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate_passes(), "{}: {summary}", e.mode);
        assert!(summary.contains("copies `samples["), "{}: {summary}", e.mode);
        assert!(summary.contains("into `heap@0.2#1["), "{}: {summary}", e.mode);
    }
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("before `count` (samples_copied_before_filled.c:22) avoids the failure"), "{summary}");
}

#[test]
fn a_mailbox_copied_by_its_length_is_told_to_write_the_text_first() {
    let prep = corpus("fail/libc/mailbox_length_before_text.c");
    let ex = failing_where(&prep, 500, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(e.alternate_passes(), "{summary}");
    assert!(
        summary.contains("writing `box.text` (mailbox_length_before_text.c:20) before `box.len` (mailbox_length_before_text.c:19) avoids the failure"),
        "{summary}"
    );
}

#[test]
fn reads_the_alternate_path_skips_are_told_in_one_sentence() {
    // Both threads free `buffer` after checking it: the alternate makes the
    // second thread see the first one's NULL and skip the `if`, so its read
    // of `buffer` for the free at line 16 does not run. The summary says so
    // in words, not as a data flow that "sees nothing".
    let prep = corpus("fail/memory/double_free.c");
    let ex = failing_where(&prep, 500, |_| true);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate_passes(), "{mode}: {summary}");
        // Symbiosis' pairs include the accesses behind the core's order
        // (`symbiosis::conflicting`): its alternate may keep the paths, the
        // second free reading the NULL the first thread stored (free(NULL)
        // does nothing), and need no flip.
        if mode == Mode::Symbiosis && e.flipped.is_none() {
            assert!(summary.contains("making double_free.c lines 15–17 atomic"), "{summary}");
            continue;
        }
        let f = e.flipped.as_ref().unwrap_or_else(|| panic!("{mode}: a branch flipped: {summary}"));
        let who = format!("`cleanup` (thread {})", e.threads[f.thread]);
        assert!(
            summary.ends_with(&format!(
                "Taking that branch, {who} does not run its read of `buffer` at double_free.c:16."
            )),
            "{mode}: {summary}"
        );
        assert!(!summary.contains("nothing ("), "{mode}: {summary}");
    }
}

#[test]
fn a_dead_stack_frame_dies_with_its_threads_last_event_before_the_return() {
    // publish() returns right after `published = 1`: its local dies in that
    // step. The alternate runs the reader's use of the pointer before it
    // (or after main cleared the pointer), and replays without the error.
    let prep = corpus("fail/memory/dead_frame_published.c");
    let ex = failing_where(&prep, 500, |_| true);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate_passes(), "{mode}: {summary}");
        assert!(
            summary.contains("The access is to `value`, a local of `publish` (thread 0), after `publish` returned"),
            "{mode}: {summary}"
        );
    }
    // start_worker() returns in the step of its pthread_create: the worker
    // cannot run before that, so no order avoids the error, and the summary
    // says whose local it was.
    let prep = corpus("fail/memory/dead_stack_frame.c");
    let ex = failing_where(&prep, 50, |_| true);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate.is_none(), "{mode}: {summary}");
        assert!(e.root_cause.is_empty(), "{mode}: the paths decide");
        assert!(summary.contains("a local of `start_worker` (thread 0)"), "{mode}: {summary}");
    }
}

#[test]
fn a_null_read_between_check_and_use_is_explained_on_the_runs_order() {
    // The writer checks `current`, the closer clears it, the writer reads
    // it again and dereferences NULL. That dereference is a shared access
    // the failing run never completed as a step: the explanation must still
    // take the run's own order (it took the solver's before, whose second
    // read saw the pointer and failed on the freed block instead, and the
    // DSP showed that read with the run's value 0).
    let prep = corpus("fail/memory/check_then_null.c");
    let ex = failing_where(&prep, 500, |ex| {
        ex.outcome.finding().is_some_and(|f| f.message.contains("null pointer dereference"))
    });
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        assert!(e.failing_from_run, "{mode}: the explanation works on the run's own order");
        assert_explained(&e, "check_then_null");
        let text = causa_explain::text::render(&e);
        assert!(
            text.contains("current (thread 0.1 at check_then_null.c:19): read NULL from thread 0.2 line 28"),
            "{mode}: {text}"
        );
    }
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("making check_then_null.c lines 18–19 atomic"), "{}", causa_explain::text::render(&e));
}

#[test]
fn events_past_the_replayed_part_keep_the_runs_order() {
    // The alternate flips one inserter's check of slot 0; past that point
    // the replay runs by itself and its events are shown in the run's
    // order. A lock, an unlock or an end used to be placed just before its
    // thread's next access there, or last: the other inserter's unlock and
    // end came after main's join of it and main's reads.
    let prep = corpus("fail/sync/rwlock_insert_under_read.c");
    let mut checked = 0;
    for n in 0..6 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let (Some(alt), Some(flip)) = (&e.alternate, &e.flipped) else { continue };
        // Main joins thread 1, then thread 2.
        let other = 3 - flip.thread;
        let at = |t: usize, op: &str, nth: usize| {
            let r = alt.iter().filter(|r| r.0 == t && e.info[r.0][r.1].op == op).nth(nth)?;
            alt.iter().position(|x| x == r)
        };
        let (Some(end), Some(join)) = (at(other, "end", 0), at(0, "join", other - 1)) else { continue };
        let text = causa_explain::text::render(&e);
        assert!(end < join, "run {n}: thread {other} ends before main joins it: {text}");
        if let (Some(unlock), Some(read)) = (at(other, "unlock", 0), at(0, "read", 0)) {
            assert!(unlock < read, "run {n}: {text}");
        }
        checked += 1;
    }
    assert!(checked > 0, "some alternate has both events");
}

#[test]
fn an_alternate_that_fails_again_rules_out_the_updates_it_loses() {
    // Two unlocked pushes: the failing run loses a node and the walk that
    // counts them stops one node early. The most similar alternates make
    // the walk go one node further by losing another node instead, and the
    // replay fails the same assertion a few events later. Each such
    // rejection now rules out the lost updates it showed; before, the next
    // query asked only for other data flows, and after two retries
    // progressive gave an alternate that failed again (its summary said it
    // "avoids this failure", from a comparison that counted the step).
    let prep = corpus("fail/realistic/list_push_lost_node.c");
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        for mode in [Mode::MaxSmt, Mode::Lexico, Mode::Progressive] {
            let e = in_mode(&prep, &ex, mode);
            assert_explained(&e, &format!("list_push_lost_node (run {n})"));
            let summary = causa_explain::summary::summary(&e);
            assert!(summary.contains("list_push_lost_node.c lines 20–21 atomic"), "{mode}: {summary}");
        }
    }
}

#[test]
fn a_lock_released_before_the_entry_read_under_it_is_used_is_named() {
    // A reader reads the current configuration under the read lock and
    // uses it after releasing the lock; the reloader swaps the pointer
    // under the write lock and frees the old entry after. The fix is to
    // release the lock later, which the summary says (before: "making
    // lines 33–36 atomic", the unlock among them).
    let prep = corpus("fail/memory/rwlock_entry_used_after_unlock.c");
    let ex = failing_where(&prep, 2000, fails_at_line(36));
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "rwlock_entry_used_after_unlock");
        let summary = causa_explain::summary::summary(&e);
        let released = "`reader` (thread 0.1) releases `lock` at rwlock_entry_used_after_unlock.c:34, before its access to the freed block at rwlock_entry_used_after_unlock.c:36: releasing `lock` after it (holding it over rwlock_entry_used_after_unlock.c lines 33–36) avoids the failure";
        assert!(summary.contains(released), "{mode}: {summary}");
    }
}

#[test]
fn a_post_before_the_write_it_announces_is_named() {
    // The producer posts the semaphore before it fills the slot; the
    // consumer's wait returns and it reads the empty slot. The summary
    // said only to make the read wait for the write, which the wait was
    // meant to do.
    let prep = corpus("fail/sync/sem_posted_before_write.c");
    let ex = failing_where(&prep, 2000, fails_at_line(28));
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "sem_posted_before_write");
        let summary = causa_explain::summary::summary(&e);
        let posted = "`producer` (thread 0.2) posts `ready` at sem_posted_before_write.c:18 before it writes `slot[";
        assert!(summary.contains(posted), "{mode}: {summary}");
        let through = "and that lets `consumer` (thread 0.1)'s wait at sem_posted_before_write.c:27 through before the write: posting after the write avoids the failure.";
        assert!(summary.contains(through), "{mode}: {summary}");
    }
}

#[test]
fn a_program_that_writes_a_log_file_is_explained() {
    // The workers log each step with `fprintf` to a file main opened for
    // writing (kept in memory by the interpreter); symbolic execution gives
    // `fopen` the block the run's FILE had. Before, `fopen` for writing
    // stopped the run, and symbolic execution did not model it.
    let prep = corpus("fail/libc/log_file_lost_count.c");
    let ex = failing_where(&prep, 2000, fails_at_line(32));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "log_file_lost_count");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("`count`"), "{}: {summary}", e.mode);
    }
}

#[test]
fn fields_split_with_strtok_r_and_strsep_are_followed() {
    // Each worker splits a line of its own (strtok_r with `char *save`;
    // strsep with the usual `char *rest = line;`, whose pointer into the
    // line stays in the thread's memory) and adds to a shared counter with
    // a read and a separate write. Symbolic execution follows the splits
    // (the NUL each writes, the position) as the interpreter does. Before,
    // both were unsupported there, and `rest = line` made the line shared.
    for (path, line, counter) in
        [("fail/libc/strtok_r_fields_summed.c", 39, "`total`"), ("fail/libc/strsep_records_counted.c", 42, "`records`")]
    {
        let prep = corpus(path);
        let ex = failing_where(&prep, 2000, fails_at_line(line));
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, path);
            let summary = causa_explain::summary::summary(&e);
            assert!(summary.contains(counter), "{path} {}: {summary}", e.mode);
        }
    }
}

#[test]
fn amounts_read_from_a_file_with_fgets_are_followed() {
    // Main writes a job file (kept in memory), reads it back with fgets
    // and hands each line's amount to a worker; the workers' additions race.
    // Symbolic execution takes what each fgets delivered from main's
    // recorded path. Before, fgets was unsupported there.
    let prep = corpus("fail/libc/job_file_amounts_lost.c");
    let ex = failing_where(&prep, 2000, fails_at_line(42));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "job_file_amounts_lost");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("`total`"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_main_thread_that_ends_with_exit_is_followed_to_its_exit() {
    // Main joins both threads and calls exit(): symbolic execution of its
    // path reaches the call (the failing run never did: the reader failed
    // first) and stops main there. Before, exit was unsupported.
    let prep = corpus("fail/realistic/config_ready_before_loaded.c");
    let ex = failing_where(&prep, 2000, fails_at_line(30));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "config_ready_before_loaded");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("`timeout_ms`"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_use_after_free_names_the_free_that_came_first() {
    // Both users decrement the count, then each reads it: one frees, and
    // the other's read touches the freed block. The failing run's finding
    // notes the free (thread and line); the explanation shows that free and
    // says it came before the access. Before, the free was not in the DSP
    // (it is not next to the access in either schedule) and the summary
    // said the freeing thread's `end` came before the access.
    let prep = corpus("fail/memory/refcount_check_after_decrement.c");
    // A run where the freeing thread's `end` comes between its free and
    // the access (as in `causa check`'s schedule).
    let ex = failing_where(&prep, 2000, |ex| {
        let free = ex.events.iter().rposition(|e| e.kind == causa_core::EventKind::Free);
        let ended = free.is_some_and(|i| ex.events[i + 1..].iter().any(|e| e.kind == causa_core::EventKind::End));
        ex.outcome.finding().is_some_and(|f| f.message.contains("use after free")) && ended
    });
    let f = ex.outcome.finding().expect("a finding");
    let note = f.notes.iter().find(|n| n.message.contains("freed the block")).expect("a note on the free");
    assert_eq!(note.location.as_ref().map(|l| l.line), Some(18), "{note:?}");
    let freer = note.thread.clone().expect("the freeing thread");
    assert_ne!(freer, f.thread);
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "refcount_check_after_decrement");
        let free = e.dsp.events.iter().find(|r| e.info_of(**r).op == "free");
        assert!(free.is_some_and(|r| e.threads[r.0] == freer), "{mode}: {}", causa_explain::text::render(&e));
        // The free before the access, or (an alternate that changes the
        // data flows of the count) the decrement and read to make atomic.
        let summary = causa_explain::summary::summary(&e);
        let free = format!("(thread {freer}) frees `heap#1` at refcount_check_after_decrement.c:18 before");
        // (Or the fix of the decrement read again: test what it returns.)
        let atomic = "making refcount_check_after_decrement.c lines 16–17 atomic";
        let returned = "testing the value the update returns (`atomic_fetch_sub` returns the value before its subtraction) instead of reading `heap#1.refs` again avoids the failure";
        assert!(summary.contains(&free) || summary.contains(atomic) || summary.contains(returned), "{mode}: {summary}");
    }
}

#[test]
fn a_heap_block_has_the_same_name_in_every_schedule() {
    // Blocks are named by the thread that allocates them and its count
    // (`heap@0.1#2`): the failing and the alternate column name the same
    // node alike. Numbered in the order of the whole run, the same node
    // was `heap#3` in one schedule and `heap#4` in the other.
    let prep = corpus("fail/realistic/list_push_lost_node.c");
    let cfg = Arc::new(Config { keep_records: true, ..config() });
    let mut orders = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let mut sched = causa_explore::RandomScheduler::new(seed);
        causa_core::Scheduler::begin_execution(&mut sched);
        let ex = causa_explore::run_once(&prep, &cfg, &mut sched);
        // Each pusher writes `head` twice: its own first block, then its second.
        for t in ["0.1", "0.2"] {
            let written: Vec<String> = ex
                .records
                .iter()
                .filter(|r| r.thread.to_string() == t && r.object.as_deref() == Some("head"))
                .filter(|r| r.kind == causa_core::EventKind::Write)
                .filter_map(|r| r.value.clone())
                .collect();
            assert_eq!(written, [format!("&heap@{t}#1"), format!("&heap@{t}#2")], "seed {seed}");
        }
        orders.insert(ex.steps.clone());
    }
    assert!(orders.len() > 1, "the runs interleave the pushers differently");
}

#[test]
fn a_flag_published_before_the_data_is_told_as_such() {
    // The producer advances `tail` before it fills the slot, and the
    // consumer, spinning with `sched_yield` until `tail` moves, reads the
    // empty slot. `sched_yield` was unsupported in symbolic execution (no
    // explanation at all); the summary now also says which write the
    // reader went on from and which order of the producer's two writes
    // avoids the failure.
    let prep = corpus("fail/atomics/ring_publish_before_fill.c");
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        for mode in Mode::ALL {
            let e = in_mode(&prep, &ex, mode);
            assert_explained(&e, &format!("ring_publish_before_fill (run {n})"));
            let summary = causa_explain::summary::summary(&e);
            assert!(summary.contains("The reader went on because its read of `tail` at ring_publish_before_fill.c:32 saw the write at ring_publish_before_fill.c:22"), "{mode}: {summary}");
            assert!(
                summary.contains("before `tail` (ring_publish_before_fill.c:22) avoids the failure"),
                "{mode}: {summary}"
            );
        }
    }
}

#[test]
fn a_barrier_keeps_the_runs_own_order() {
    // The last thread to arrive at a barrier goes on without a step of its
    // own, but the model has its departure: the run's steps were paired
    // with the model's events one off from there, and explain fell back to
    // the solver's failing schedule (or showed a mislabelled one).
    let prep = corpus("fail/sync/barrier_read_before_wait.c");
    // Runs where a thread other than the failing one waits at the barrier
    // and ends before the failure (the last to arrive, going on).
    let past_barrier = |ex: &Execution| {
        let failing = ex.outcome.finding().map(|f| f.thread.clone());
        ex.events.iter().any(|e| {
            let t = &ex.names[e.thread as usize];
            e.kind == causa_core::EventKind::End
                && Some(t) != failing.as_ref()
                && ex.events.iter().any(|w| w.thread == e.thread && w.kind == causa_core::EventKind::BarrierWait)
        })
    };
    for n in 0..4 {
        let ex = nth_failing(&prep, n, past_barrier);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert!(e.failing_from_run, "run {n}: the explanation works on the run's own order");
        assert_explained(&e, &format!("barrier_read_before_wait (run {n})"));
        // The thread that went on ends before the failure: its `end` is
        // in the failing schedule (paired one off, it was taken for the
        // thread's departure and the `end` was left out).
        for e2 in ex.events.iter().filter(|x| x.kind == causa_core::EventKind::End) {
            let name = &ex.names[e2.thread as usize];
            let t = e.threads.iter().position(|x| x == name).expect("the thread");
            let ended = e.failing.iter().any(|r| r.0 == t && e.info_of(*r).op == "end");
            assert!(ended, "run {n}: thread {name}'s end is in the failing schedule");
        }
        // Every thread's departure comes after every arrival of its generation.
        let ops: Vec<&str> = e.failing.iter().map(|r| e.info_of(*r).op).collect();
        let last_arrival = ops.iter().rposition(|o| *o == "barrier");
        let first_exit = ops.iter().position(|o| *o == "barrier exit");
        assert!(last_arrival < first_exit || first_exit.is_none(), "run {n}: {ops:?}");
    }
}

#[test]
fn a_pthread_once_is_explained() {
    // `pthread_once` was unsupported in symbolic execution. The first
    // caller runs the routine (its events, then the once marked done); the
    // others come after it, a waiting one resuming after the routine.
    let prep = corpus("fail/sync/once_size_outside.c");
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, &format!("once_size_outside (run {n})"));
            let ops: Vec<&str> = e.failing.iter().map(|r| e.info_of(*r).op).collect();
            let first = ops.iter().position(|o| *o == "once: runs it").expect("a first call");
            let done = ops.iter().position(|o| *o == "once: routine done").expect("the routine done");
            assert!(first < done, "{ops:?}");
            // Every other call comes after the first, and finds it done
            // only after the routine is.
            for (i, o) in ops.iter().enumerate() {
                match *o {
                    "once: waits" => assert!(first < i && i < done, "{ops:?}"),
                    "once: done already" | "once: resumes" => assert!(done < i, "{ops:?}"),
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn accesses_on_one_line_are_said_once() {
    // `counter++` reads and writes on one line: the summary said "reads
    // `counter` at c.c:4 and writes `counter` at c.c:4 between …'s read at
    // c.c:4 and write at c.c:4".
    let src = "#include <pthread.h>\n#include <assert.h>\nint counter;\n\
        void *w(void *a) { counter++; return a; }\n\
        int main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);\n\
        for (int i = 0; i < 2; i++) pthread_join(t[i], 0);\n  assert(counter == 2); return 0; }\n";
    let prep = load("c.c", src);
    let ex = failing_where(&prep, 500, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("reads `counter` and writes it at c.c:4 between"), "{summary}");
    assert!(summary.contains("'s read and write at c.c:4; making c.c line 4 atomic"), "{summary}");
}

#[test]
fn clock_reads_take_the_runs_values() {
    // Each worker stamps its update with `clock_gettime` and `time`:
    // symbolic execution said "unsupported: external function
    // `clock_gettime`". A clock read now takes the value the run read (the
    // virtual clock counts steps, so the alternate's replay may read
    // another one; here nothing branches on it).
    let src = "#include <pthread.h>\n#include <time.h>\n#include <assert.h>\n\
        long total; long stamp;\n\
        void *w(void *a) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); time(0);\n\
        long t = total; stamp = ts.tv_nsec; total = t + 1; return a; }\n\
        int main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);\n\
        for (int i = 0; i < 2; i++) pthread_join(t[i], 0);\n  assert(total == 2); return 0; }\n";
    let prep = load("stamp.c", src);
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "stamp");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("making stamp.c line"), "{mode}: {summary}");
    }
}

#[test]
fn rand_values_are_the_runs() {
    // Workers jitter with `usleep(rand() % 100)` after `srand`, the usual
    // way to make a race show up in a native run: symbolic execution said
    // "unsupported: external function `srand`". Each `rand()` now takes the
    // value the run drew (the generator's state is the process's, so the
    // value depends on the order of the threads' calls); one that picks a
    // slot shows the value matters.
    let src = "#include <pthread.h>\n#include <stdlib.h>\n#include <unistd.h>\n#include <assert.h>\n\
        int total; int slots[4];\n\
        void *w(void *a) { usleep(rand() % 100); slots[rand() % 4] = 1; int t = total; usleep(1);\n\
        total = t + 1; return a; }\n\
        int main(void) { srand(7); pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);\n\
        for (int i = 0; i < 2; i++) pthread_join(t[i], 0);\n  assert(total == 2); return 0; }\n";
    let prep = load("jitter.c", src);
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "jitter");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("making jitter.c line"), "{mode}: {summary}");
    }
}

#[test]
fn a_busy_trylock_is_explained_with_the_lock_held() {
    // `pthread_mutex_trylock` was unsupported in symbolic execution. A
    // trylock follows the run's outcome: one that took the lock is a lock,
    // one that found it busy must come while another thread holds it.
    let prep = corpus("fail/mutex/trylock_fallback_unlocked.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "trylock_fallback_unlocked");
        let alt = e.alternate.as_ref().expect("an alternate");
        let at = |op: &str| alt.iter().position(|r| e.info_of(*r).op == op);
        let (lock, busy, unlock) = (at("lock"), at("trylock (busy)"), at("unlock"));
        let held = matches!((lock, busy, unlock), (Some(l), Some(b), Some(u)) if l < b && b < u);
        assert!(held, "{mode}: {}", causa_explain::text::render(&e));
        // The region is a critical section already: the summary names the
        // accesses that do not take its lock (it said "making line 15
        // atomic", which it is).
        // (Symbiosis' region is the unlocked update, which the locked one
        // comes into.)
        // The unlocked side tried the lock first: the summary says its try
        // failed and it went on (it said "taking `m` at …:18 as well").
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("holds `m` there, but `worker` (thread 0."), "{mode}: {summary}");
        let fix = "goes on without it after its try to take `m` at trylock_fallback_unlocked.c:14 failed (`m` was held): waiting for `m` there (`pthread_mutex_lock`), or not going on when the try fails, avoids the failure";
        assert!(summary.contains(fix), "{mode}: {summary}");
    }
}

#[test]
fn a_timed_out_lock_is_explained_with_the_lock_held() {
    // `pthread_mutex_timedlock` times out at once in the interpreter when
    // the mutex is held; the worker then updates the counter without it.
    let src = "#include <pthread.h>\n#include <time.h>\n#include <assert.h>\n\
        pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int counter;\n\
        void *w(void *a) { struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts); ts.tv_sec += 1;\n\
        if (pthread_mutex_timedlock(&m, &ts) == 0) { counter++; pthread_mutex_unlock(&m); }\n\
        else counter++;\n return a; }\n\
        int main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);\n\
        for (int i = 0; i < 2; i++) pthread_join(t[i], 0);\n  assert(counter == 2); return 0; }\n";
    let prep = load("timed.c", src);
    let ex = failing_where(&prep, 2000, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "timed");
    let alt = e.alternate.as_ref().expect("an alternate");
    let at = |op: &str| alt.iter().position(|r| e.info_of(*r).op == op);
    let held =
        matches!((at("lock"), at("trylock (busy)"), at("unlock")), (Some(l), Some(b), Some(u)) if l < b && b < u);
    assert!(held, "{}", causa_explain::text::render(&e));
    // Told as a try that failed, not as a `pthread_mutex_trylock`.
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("after its try to take `m` at timed.c:6 failed (`m` was held)"), "{summary}");
}

#[test]
fn a_torn_read_names_the_lock_the_reader_skips() {
    // The writer updates both fields under the write lock; the reader
    // takes no lock. The summary said "writing `pos.y` before `pos.x`
    // avoids the failure", which only moves the tear (a reader that
    // compares the two fails either way).
    let prep = corpus("fail/sync/rwlock_torn_read.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "rwlock_torn_read");
        let summary = causa_explain::summary::summary(&e);
        assert!(!summary.contains("before `pos."), "{mode}: {summary}");
        assert!(summary.contains("holding `lock`, but `viewer` (thread 0.2) reads without it"), "{mode}: {summary}");
        assert!(summary.contains("taking `lock` at rwlock_torn_read.c lines 27–28 as well"), "{mode}: {summary}");
    }
}

#[test]
fn a_signal_that_wakes_the_wrong_waiter_is_told_as_such() {
    // Two waiters for different stages; main's one signal wakes the
    // stage-2 waiter, which waits again, and the stage-1 waiter sleeps on.
    // The summary said the signal came "before the wait" and was lost: it
    // came while both waited.
    let prep = corpus("fail/cond/signal_wakes_wrong_waiter.c");
    let ex = deadlocking(&prep, 2000);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(!summary.contains("before the wait"), "{summary}");
    assert!(summary.contains("a signal wakes one waiter only"), "{summary}");
    assert!(summary.contains("which waits again at signal_wakes_wrong_waiter.c:17"), "{summary}");
    assert!(summary.contains("(`pthread_cond_broadcast`) at signal_wakes_wrong_waiter.c:33"), "{summary}");
    let l = e.lost_signals.iter().find(|l| !l.woke.is_empty()).expect("a misdirected signal");
    assert_eq!(l.signals.len(), l.woke.len());
}

#[test]
fn two_locks_for_one_counter_are_named() {
    // Each thread holds a lock, but not the same one: the summary said
    // the other thread "does not take" the first one's lock.
    let prep = corpus("fail/mutex/bucket_lock_mismatch.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "bucket_lock_mismatch");
        let summary = causa_explain::summary::summary(&e);
        let named = [
            "holds `locks[1]` there, but `add` (thread 0.2) holds `locks[2]` instead",
            "holds `locks[2]` there, but `add` (thread 0.1) holds `locks[1]` instead",
        ];
        assert!(named.iter().any(|n| summary.contains(n)), "{mode}: {summary}");
        assert!(
            summary.contains("taking one lock for every access to `count[0]` avoids the failure"),
            "{mode}: {summary}"
        );
    }
}

#[test]
fn a_barrier_too_few_threads_reach_is_told() {
    // Initialised for 3, waited at by 2: every order deadlocks. explain
    // said "no schedule of the recorded paths reaches the failure" (the
    // deadlock query left barriers out: a complete generation cannot
    // deadlock, a short one always does).
    let prep = corpus("fail/sync/barrier_too_few.c");
    let ex = deadlocking(&prep, 100);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert!(e.alternate.is_none());
    let b = e.short_barriers.first().expect("a short barrier");
    assert_eq!((b.count, b.arrivals.len()), (3, 2));
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("the barrier `start` waits for 3 threads, but only 2 arrive"), "{summary}");
}

#[test]
fn a_barrier_more_threads_reach_than_it_waits_for_is_told() {
    // Initialised for 2, waited at by 3: whichever arrives last waits
    // forever. Symbolic execution counts each thread's one arrival as the
    // first generation (three arrivals, not short), and the summary said
    // only that no order avoids the deadlock.
    let prep = corpus("fail/sync/barrier_too_many.c");
    let ex = deadlocking(&prep, 100);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert!(e.alternate.is_none());
    let b = e.short_barriers.first().expect("a barrier too many threads reach");
    assert_eq!((b.count, b.arrivals.len(), b.left_waiting()), (2, 3, 1));
    let summary = causa_explain::summary::summary(&e);
    assert!(
        summary
            .starts_with("Deadlock: the barrier `filled` lets threads through 2 at a time, but 3 threads arrive at it"),
        "{summary}"
    );
    assert!(summary.contains("so the last one waits forever in every order"), "{summary}");
    assert!(summary.contains("or having 1 more wait at it"), "{summary}");
}

#[test]
fn a_free_before_joining_the_worker_says_so() {
    // Shutdown joins one worker of two, then frees the queue the other may
    // still lock: the summary named the free and the access; it now also
    // says the freeing thread created the worker and does not join it.
    let prep = corpus("fail/memory/pool_free_before_join.c");
    let uaf = |ex: &Execution| ex.outcome.finding().is_some_and(|f| f.kind == causa_core::BugKind::MemoryError);
    let ex = failing_where(&prep, 2000, uaf);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "pool_free_before_join");
    let summary = causa_explain::summary::summary(&e);
    assert!(
        summary.contains("`main` (thread 0) created thread 0.")
            && summary.contains("and does not join it before the free"),
        "{summary}"
    );
}

#[test]
fn an_unlock_by_a_thread_that_does_not_hold_the_mutex_names_the_holder() {
    // main locks the queue and a worker unlocks it: no order avoids it.
    // The summary said only that no order of the same events avoids it.
    let prep = corpus("fail/mutex/unlock_non_owner.c");
    let ex = failing_where(&prep, 2000, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert!(e.alternate.is_none());
    let summary = causa_explain::summary::summary(&e);
    assert!(
        summary.starts_with(
            "Invalid unlock: `finish_batch` (thread 0.1) unlocks `queue_lock` at unlock_non_owner.c:18, but `main` (thread 0) holds it (locked at unlock_non_owner.c:24)"
        ),
        "{summary}"
    );
}

/// The failure's message, when the run failed.
fn message_of(ex: &Execution) -> String {
    ex.outcome.finding().map(|f| f.message.clone()).unwrap_or_default()
}

#[test]
fn a_mutex_destroyed_while_another_thread_holds_it_is_explained() {
    // explain said "unsupported in symbolic execution: an invalid use of
    // `pthread_mutex_destroy`". The alternate must not just move the
    // destroy before the holder's lock (that takes a destroyed mutex): the
    // holder's whole critical section comes first.
    let prep = corpus("fail/mutex/destroy_while_locked.c");
    let ex = failing_where(&prep, 2000, |ex| message_of(ex).starts_with("destroying mutex"));
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "destroy_while_locked");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.starts_with("Invalid destroy: `main` (thread 0) destroys `c.lock` at destroy_while_locked.c:39 while `user` (thread 0.2) holds it (locked at destroy_while_locked.c:23)"),
            "{mode}: {summary}"
        );
    }
}

#[test]
fn a_mutex_taken_after_another_thread_destroyed_it_is_explained() {
    let prep = corpus("fail/mutex/destroy_before_worker.c");
    let ex = failing_where(&prep, 2000, |ex| causa_core::finding::misuse::is_use_after_destroy(&message_of(ex)));
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "destroy_before_worker");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.starts_with("Invalid lock: `logger` (thread 0.1) locks `log_lock` at destroy_before_worker.c:15 after `main` (thread 0) destroyed it at destroy_before_worker.c:27"),
            "{mode}: {summary}"
        );
    }
}

#[test]
fn a_predicate_changed_without_a_signal_is_told() {
    // main sets the shutdown flag after its last broadcast and signals no
    // more: the summary said the broadcast was "lost" before the wait, not
    // that the flag's write came without a wake-up.
    let prep = corpus("fail/cond/shutdown_flag_unsignalled.c");
    let ex = deadlocking(&prep, 2000);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    // One waiter or both, as the run has it.
    assert!(summary.contains("`shutting_down` at shutdown_flag_unsignalled.c:21 and wait"), "{summary}");
    assert!(
        summary.contains(
            "`main` (thread 0) writes `shutting_down` at shutdown_flag_unsignalled.c:42 afterwards, but sends no signal on `cv` after it"
        ),
        "{summary}"
    );
    assert!(summary.contains("Writing `shutting_down` while holding `m` and broadcasting `cv` after it"), "{summary}");
}

#[test]
fn a_read_write_lock_destroyed_too_early_is_explained() {
    // The reader holds the read lock at main's destroy, or takes it after.
    let prep = corpus("fail/sync/rwlock_destroyed_early.c");
    for held in [true, false] {
        let ex = failing_where(&prep, 2000, |ex| message_of(ex).starts_with("destroying rwlock") == held);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&e, "rwlock_destroyed_early");
        let summary = causa_explain::summary::summary(&e);
        let want = if held {
            "Invalid destroy: `main` (thread 0) destroys `table_lock` at rwlock_destroyed_early.c:26 while `reader` (thread 0.1) holds it"
        } else {
            "Invalid lock: `reader` (thread 0.1) locks `table_lock` at rwlock_destroyed_early.c:14 after `main` (thread 0) destroyed it"
        };
        assert!(summary.starts_with(want), "{summary}");
    }
}

#[test]
fn a_busy_wait_that_misses_a_pulsed_flag_is_explained() {
    // The waiter reads the flag only after main set and cleared it: it is
    // parked in its loop, and explain said "symbolic execution did not
    // reach a failure". The alternate reads the flag between the two writes
    // (the loop's branch flipped at its first turn) and runs to the end.
    let prep = corpus("fail/atomics/flag_pulse_missed.c");
    let ex = deadlocking(&prep, 2000);
    // And the counterexample `causa test` shows (main's writes first): an
    // order of the recorded paths that moved main's set after the waiter's
    // reads was accepted there once, and its summary said only that three
    // reads read 0 from elsewhere.
    let (shown, _) =
        causa_explore::minimize::fewer_preemptions(&prep, &config(), ex.clone(), causa_explore::minimize::EDIT_BUDGET);
    for (ex, mode) in
        [(&ex, Mode::Progressive), (&ex, Mode::MaxSmt), (&ex, Mode::Symbiosis), (&shown, Mode::Progressive)]
    {
        let e = in_mode(&prep, ex, mode);
        assert_explained(&e, "flag_pulse_missed");
        let f = e.flipped.as_ref().expect("the loop's branch is flipped");
        assert_eq!(e.line((f.thread, f.events_before.saturating_sub(1))).as_deref(), Some("flag_pulse_missed.c:16"));
        assert_eq!(e.dsp.figures.data_flows, 1, "{mode}: the one read that sees the flag set");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.starts_with(
                "Deadlock: `waiter` (thread 0.1) spins at flag_pulse_missed.c:16 until `ready` changes: it reads 0 there, written last by `main` (thread 0) at flag_pulse_missed.c:27, and no thread writes `ready` after that"
            ),
            "{mode}: {summary}"
        );
        assert!(summary.contains("and 1 from thread 0 line 25 in the alternate"), "{mode}: {summary}");
    }
}

#[test]
fn a_spin_lock_never_released_is_told() {
    // No order avoids it: whichever worker takes the lock first returns
    // without releasing it.
    let prep = corpus("fail/atomics/spinlock_not_released.c");
    let ex = deadlocking(&prep, 2000);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert!(e.alternate.is_none(), "no alternate avoids it");
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("spins at spinlock_not_released.c:16 until `lock_word` changes: it reads 1 there, written last by `worker` (thread 0."), "{summary}");
    assert!(summary.contains("which ends without writing it again"), "{summary}");
    assert!(
        summary.contains("causa found no schedule of the failing run's paths that avoids the deadlock"),
        "{summary}"
    );
}

#[test]
fn spin_locks_taken_in_opposite_orders_are_explained() {
    // Both threads are parked, each on the lock the other holds; the
    // alternate takes one of them the other way round and runs to the end.
    let prep = corpus("fail/atomics/spinlock_order.c");
    let ex = failing_where(&prep, 2000, |ex| {
        ex.outcome.finding().is_some_and(|f| f.notes.iter().filter(|n| n.message.starts_with("spins")).count() == 2)
    });
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "spinlock_order");
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.starts_with("Deadlock: `spin_lock` (thread 0."), "{summary}");
    assert!(summary.contains("each waits for a write that only another waiting thread would make"), "{summary}");
    assert!(summary.contains("in one order in every thread avoids the deadlock"), "{summary}");
    assert!(
        summary.contains("until `first._Value` changes") && summary.contains("until `second._Value` changes"),
        "{summary}"
    );
}

#[test]
fn a_done_flag_no_worker_sets_is_explained_by_their_race() {
    // Both workers read the count before either writes it: neither sets
    // `done`, and main spins on it. The alternate flips the second
    // worker's check after the first one's increment.
    let prep = corpus("fail/atomics/done_flag_never_set.c");
    let ex = deadlocking(&prep, 2000);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "done_flag_never_set");
    let summary = causa_explain::summary::summary(&e);
    assert!(
        summary.starts_with(
            "Deadlock: `main` (thread 0) spins at done_flag_never_set.c:25 until `done` changes: it reads 0 there, and no other thread writes `done`"
        ),
        "{summary}"
    );
    assert!(summary.contains("making done_flag_never_set.c line 15 atomic"), "{summary}");
}

#[test]
fn a_trylock_loop_on_a_mutex_never_unlocked_is_told() {
    // A loop of failed trylocks is parked like a spin (it ran into the step
    // bound before); the summary names the holder that never unlocks.
    let prep = corpus("fail/mutex/trylock_loop_unreleased.c");
    let ex = deadlocking(&prep, 2000);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(
        summary.contains(
            "tries to lock `m` at trylock_loop_unreleased.c:15 in a loop until it gets it, but `worker` (thread 0."
        ),
        "{summary}"
    );
    assert!(summary.contains("locked it at trylock_loop_unreleased.c:15 and ends without unlocking it"), "{summary}");
}

#[test]
fn a_condition_variable_destroyed_while_a_thread_waits_is_explained() {
    // explain said "unsupported in symbolic execution"; the alternate has
    // the waiter read the flag after main's write (it then never waits).
    let prep = corpus("fail/cond/destroyed_while_waiting.c");
    let ex = failing_where(&prep, 2000, |ex| message_of(ex).starts_with("destroying condition variable"));
    for mode in [Mode::Progressive, Mode::Symbiosis] {
        let e = in_mode(&prep, &ex, mode);
        assert_explained(&e, "destroyed_while_waiting");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.starts_with(
                "Invalid destroy: `main` (thread 0) destroys `cv` at destroyed_while_waiting.c:30 while `waiter` (thread 0.1) waits on it (since destroyed_while_waiting.c:19)"
            ),
            "{mode}: {summary}"
        );
    }
}

#[test]
fn a_thread_local_handed_to_another_thread_is_explained() {
    // main's instance of the thread-local `hits` is handed to the helper,
    // which updates hits[0] between main's read and write; the helper's own
    // instance (its hits[1]) takes no part. Every mode finds an alternate
    // that replays without failing, and names main's hits[0].
    let prep = corpus("fail/basic/thread_local_handed_over.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "thread_local_handed_over");
        assert_named(&e, "thread_local_handed_over");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("`hits[0]`"), "{}: {summary}", e.mode);
        assert!(!summary.contains("hits[1]"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_call_through_a_null_handler_and_a_shared_loop_counter_are_explained() {
    // The dispatcher calls through a slot the registrar fills only after
    // announcing it: the failing operation is the call itself, valid when
    // its pointer is one of the program's functions. Every mode's alternate
    // has the store before the call, and the summary says the order.
    let prep = corpus("fail/memory/handler_announced_early.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "handler_announced_early");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("`handlers[2]`"), "{}: {summary}", e.mode);
    }
    // main indexes `t[i]` with its loop counter, whose address the workers
    // hold (so `i` is shared): symbolic execution takes main's reads of it
    // as what main wrote last.
    let prep = corpus("fail/basic/loop_counter_address.c");
    let ex = failing_where(&prep, 500, |_| true);
    // The summary says whose local `i` is and that main changes it while
    // the workers read it through their argument.
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "loop_counter_address");
        let summary = causa_explain::summary::summary(&e);
        let said = "`i` is a local variable of `main` (thread 0), which `worker` (thread 0.";
        assert!(summary.contains(said), "{}: {summary}", e.mode);
        assert!(summary.contains("reads through a pointer while `main` goes on changing it"), "{}: {summary}", e.mode);
    }
}

#[test]
fn thread_local_variables_end_with_their_thread() {
    // The producer publishes its thread-local array and ends: the
    // consumer's read through the pointer fails when it comes after that
    // `end`. The Max SMT modes' alternate runs the read first (Symbiosis'
    // inverted pair makes the consumer's wait go round once more instead),
    // and the summary says whose instance it was and that it ended with its
    // thread.
    let prep = corpus("fail/memory/thread_local_after_end.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "thread_local_after_end");
        let summary = causa_explain::summary::summary(&e);
        if e.mode != Mode::Symbiosis {
            let ends = "`producer` (thread 0.1) ends at thread_local_after_end.c:19";
            assert!(summary.contains(ends), "{}: {summary}", e.mode);
        }
        assert!(
            summary.contains("thread 0.1's instance of the thread-local `scratch`, after thread 0.1 ended"),
            "{}: {summary}",
            e.mode
        );
    }
    // main prints (`%s`) the worker's thread-local buffer after joining it:
    // printf's read of the string is the failing access, in every order.
    let prep = corpus("fail/memory/thread_local_returned.c");
    let ex = failing_where(&prep, 50, |_| true);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate.is_none(), "{mode}: {summary}");
        assert!(summary.contains("thread-local `name`, after thread 0.1 ended"), "{mode}: {summary}");
    }
}

#[test]
fn a_line_formatted_into_shared_memory_outside_its_lock_is_explained() {
    // snprintf writes the shared line (one bulk write, its bytes formatted
    // as the interpreter formats them), the lock is taken only to copy it
    // out, and the copy is compared with a private sprintf: another
    // worker's snprintf between the two is the cause.
    let prep = corpus("fail/realistic/report_line_outside_lock.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "report_line_outside_lock");
        assert_named(&e, "report_line_outside_lock");
        let text = causa_explain::text::render(&e);
        assert!(text.contains("snprintf line :20") && text.contains("strcpy from line :22"), "{}: {text}", e.mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("formats a string into `line`"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_use_after_free_names_the_free_of_its_block_among_a_loops_frees() {
    // main frees three tasks at one line; the worker's late touch is of one
    // of them. The run says which `free` call freed that block, and the
    // summary names that block (not the loop's last free).
    let prep = corpus("fail/memory/task_touched_after_done.c");
    let ex = failing_where(&prep, 500, |_| true);
    let message = &ex.outcome.finding().expect("a finding").message;
    let block = message.split(" in ").nth(1).and_then(|s| s.split('.').next()).expect("the block's name").to_string();
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "task_touched_after_done");
        let summary = causa_explain::summary::summary(&e);
        if e.mode != Mode::Symbiosis {
            assert!(summary.contains(&format!("frees `{block}`")), "{} ({message}): {summary}", e.mode);
        }
        let free = e.freeing.expect("the free that came first");
        assert!(e.dsp.events.contains(&free), "{}: the free is in the DSP", e.mode);
    }
}

#[test]
fn a_read_lock_asked_to_become_a_write_lock_is_told_as_waiting_for_itself() {
    // Both readers hold the read lock and ask for the write lock: the
    // deadlock is a cycle, and each thread would wait for itself even
    // alone. The summary says so once for both.
    let prep = corpus("fail/sync/rwlock_read_then_write.c");
    let ex = deadlocking(&prep, 50);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("each hold a read lock of `lock` (taken at rwlock_read_then_write.c:18)"),
            "{mode}: {summary}"
        );
        assert_eq!(summary.matches("cannot be upgraded").count(), 1, "{mode}: {summary}");
    }
}

#[test]
fn a_write_that_overwrites_another_threads_write_is_named() {
    // main's unlocked memset resets the counter after the worker's
    // increment: the check reads main's zero, the alternate the worker's
    // one. The summary says which write came after which and overwrote it.
    let prep = corpus("fail/libc/memset_reset_unlocked.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "memset_reset_unlocked");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("`main` (thread 0)'s memset of `st` at memset_reset_unlocked.c:27 comes after `worker` (thread 0.1)'s write of `st.hits` at memset_reset_unlocked.c:19 and overwrites it"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_lost_update_of_a_double_is_explained_with_its_values() {
    // Two unlocked `total += samples[i]` loops over a shared `double`:
    // symbolic execution follows floating-point arithmetic on shared data
    // (the solver's IEEE semantics are the interpreter's), and values show
    // as numbers. Each thread's index comes from a read the first pass
    // leaves free and the next finds determined; the table loads it
    // addresses then become constants (the reads are numbered anew).
    let prep = corpus("fail/basic/double_total_lost_update.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "double_total_lost_update");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("and 7.0 in the alternate"), "{}: {summary}", e.mode);
    }
}

#[test]
fn reads_numbered_anew_keep_their_determined_values() {
    // Each thread's index is a read of `ids` that the first pass of
    // symbolic execution leaves free (its table loads are then reads at
    // computed addresses) and finds determined; in the next pass the loads
    // are constants and every later read has another number. The
    // determined values follow the reads by their place in their thread, not
    // by number: the second thread's read of `total` was taken for its
    // index read (a constant 1), and no alternate was found.
    let prep = corpus("fail/basic/table_weights_lost_update.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "table_weights_lost_update");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("and 70 in the alternate"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_flipped_thread_reads_what_another_thread_stored() {
    // Both workers find `stats` null and create a block each; the
    // alternate flips one worker's check, which then reads the other's
    // pointer. The new path's accesses used to be paired with the trace's
    // old path (the flipped worker's own block), which took the other
    // worker's block from it: that worker's events vanished from the
    // alternate, and with them the data flow that matters.
    // (The pairing went wrong when the flipped worker is paired first: runs
    // 2 and 3 flip thread 0.1's check, runs 0 and 1 thread 0.2's.)
    let prep = corpus("fail/realistic/lazy_init_unlocked.c");
    let mut first_flipped = 0;
    for n in 0..4 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert!(e.alternate_passes(), "run {n}: {:?}", e.alternate_outcome);
        let flipped = e.flipped.as_ref().map(|f| f.thread);
        assert!(flipped.is_some(), "run {n}: a branch is flipped");
        first_flipped += usize::from(flipped == Some(1));
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("at lazy_init_unlocked.c:17 in `get_stats`")
                && summary.contains("sees NULL (initial value) in the failing schedule and &heap@"),
            "run {n}: {summary}"
        );
    }
    assert!(first_flipped > 0, "some run flips the first worker's check");
}

#[test]
fn reads_around_a_condition_wait_are_not_called_atomic() {
    // A hand-made barrier waits while `count != 0`: the next round's
    // arrival makes it nonzero again before the first waiter re-checks, and
    // both wait for good. The waiter's two reads of `count` are the loop's
    // check before and after its wait; the summary said "making line 20
    // atomic avoids the failure", which no thread can do across a wait.
    let prep = corpus("fail/cond/barrier_without_generation.c");
    let ex = deadlocking(&prep, 500);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert!(e.alternate_passes(), "{:?}", e.alternate_outcome);
    let summary = causa_explain::summary::summary(&e);
    assert!(!summary.contains("atomic"), "{summary}");
    assert!(e.dsp.atomic.is_empty(), "{:?}", e.dsp.atomic);
    assert!(summary.contains("read of `bar.count` at barrier_without_generation.c:20"), "{summary}");
}

#[test]
fn a_sleep_before_a_read_is_said_to_order_nothing() {
    // The reader sleeps, then reads a pointer another thread publishes:
    // the order violation's summary says that the sleep does not make the
    // read wait.
    let prep = corpus("fail/basic/sleep_instead_of_join.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "sleep_instead_of_join");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("Order violation"), "{}: {summary}", e.mode);
        assert!(
            summary.contains(
                "The pause at sleep_instead_of_join.c:24 before the read (a sleep or a yield) does not make it wait"
            ),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_double_passed_to_a_thread_keeps_its_value() {
    // Each thread adds the `double` main passed it: main's locals become
    // shared at the thread's creation with their values. A `double` there
    // was left out of them (the threads added 0.0 in the model, and no
    // alternate passed).
    let prep = corpus("fail/basic/double_argument_lost_update.c");
    let ex = failing_where(&prep, 500, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "double_argument_lost_update");
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains(" and 4.0 from thread 0."), "{summary}");
}

#[test]
fn sqrt_of_a_shared_value_is_explained() {
    // `sqrt` of a value read from shared memory: the interpreter computes
    // it, and symbolic execution gives it to the solver (IEEE square root).
    let prep = corpus("fail/libc/sqrt_of_racy_variance.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "sqrt_of_racy_variance");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("sees 4.0 (initial value)"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_frame_ended_by_pthread_exit_is_explained() {
    // main calls pthread_exit after handing a worker a pointer to its
    // local: symbolic execution ends main's frames there (it said
    // "unsupported … external function `pthread_exit`"), and the summary
    // says the frame ended with the call, not with a return.
    let prep = corpus("fail/memory/pthread_exit_local.c");
    let ex = failing_where(&prep, 50, |_| true);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate.is_none(), "{mode}: {summary}");
        assert!(
            summary.contains(
                "The access is to `config`, a local of `main` (thread 0), after its thread called `pthread_exit`"
            ),
            "{mode}: {summary}"
        );
        assert!(!summary.contains("returned"), "{mode}: {summary}");
    }
}

#[test]
fn a_qsort_that_races_with_a_write_is_explained_in_causas_c_library() {
    // qsort calls back into the program, so causa links its own C version
    // (<causa>/libc.c): the element moves are the program's accesses, the
    // worker's late write lands between them, and the summary names qsort
    // and the file its moves are in.
    let prep = corpus("fail/libc/qsort_before_join.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "qsort_before_join");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("<causa>/libc.c:"), "{}: {summary}", e.mode);
        assert!(summary.contains("`qsort` (thread 0)"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_free_of_a_pointer_read_from_shared_data_shows_its_block() {
    // The lock-free stack's pop frees the node it read from `top`: the
    // pointer comes from shared data, so symbolic execution has no constant
    // block for the free; the projection showed it as `free 0x0`. It is
    // now the block the run freed.
    let prep = corpus("fail/atomics/aba_stack_pop.c");
    let ex = failing_where(&prep, 2000, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let frees: Vec<String> =
        e.dsp.events.iter().filter(|r| e.info_of(**r).op == "free").map(|r| e.op_text(*r)).collect();
    assert!(!frees.is_empty(), "the projection shows the free: {}", causa_explain::text::render(&e));
    for f in &frees {
        assert!(f.contains("heap#") && !f.contains("0x0"), "{f}");
    }
}

#[test]
fn a_use_of_a_block_realloc_moved_is_explained() {
    // The printer takes the buffer's pointer before locking; the grower's
    // realloc frees that block. Symbolic execution said "unsupported …
    // external function `realloc`"; it now models the realloc as the free
    // of the old block and a new one. The alternate runs the read before
    // the realloc, or takes the pointer after it.
    let prep = corpus("fail/memory/realloc_pointer_taken_unlocked.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "realloc_pointer_taken_unlocked");
        let summary = causa_explain::summary::summary(&e);
        let freed = "`grower` (thread 0.1) frees `heap#1` (its `realloc` moves the block) at realloc_pointer_taken_unlocked.c:18";
        let moved = "before `grower` (thread 0.1) writes it at realloc_pointer_taken_unlocked.c:18";
        assert!(summary.contains(freed) || summary.contains(moved), "{}: {summary}", e.mode);
        // The printer takes the lock the grower holds, but only after it
        // read the pointer: the fix is to take it before.
        if summary.contains(freed) {
            let lock = "takes `m` only at realloc_pointer_taken_unlocked.c:26, after its read of `log_buf` at realloc_pointer_taken_unlocked.c:25: taking `m` before it";
            assert!(summary.contains(lock), "{}: {summary}", e.mode);
        }
    }
}

#[test]
fn a_semaphore_try_is_followed_by_symbolic_execution() {
    // sem_trywait takes a unit or fails as the run's did (the path log's
    // tries): symbolic execution said "unsupported … external function
    // `sem_trywait`". The lost count between the two slot holders is
    // explained, and each client's try is an event that took a unit.
    let prep = corpus("fail/sync/sem_trywait_unlocked_count.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "sem_trywait_unlocked_count");
        let tries = e.info.iter().flatten().filter(|i| i.op == "sem_trywait (took one)").count();
        assert_eq!(tries, 2, "{}", e.mode);
    }
}

#[test]
fn a_branch_on_the_serial_thread_is_decided_by_the_arrival_order() {
    // The failing run's second worker arrives last and leads; main expects
    // the first. Symbolic execution took every pthread_barrier_wait to
    // return 0 and stopped at the branch on its result; the result is now
    // whether the arrival is the last of its generation. No order of the
    // run's paths avoids the failure: the alternate flips the first
    // worker's branch, which it takes by arriving last, and the summary
    // says so.
    let prep = corpus("fail/sync/barrier_leader_assumed.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "barrier_leader_assumed");
        assert!(e.alternate_passes(), "{}: {}", e.mode, causa_explain::text::render(&e));
        let f = e.flipped.as_ref().unwrap_or_else(|| panic!("{}: a flipped branch", e.mode));
        assert_eq!(f.loc.as_ref().map(|l| l.line), Some(18), "{}", e.mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains(
                "it arrives last at `bar`, so its `pthread_barrier_wait` returns PTHREAD_BARRIER_SERIAL_THREAD"
            ),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_serial_thread_that_skips_the_wait_for_the_sum_is_explained() {
    // The serial thread sums; the other checks the sum without waiting.
    // explain said a branch on the barrier's result is not modelled.
    let prep = corpus("fail/sync/barrier_serial_sum_unwaited.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "barrier_serial_sum_unwaited");
        assert!(e.alternate_passes(), "{}: {}", e.mode, causa_explain::text::render(&e));
    }
}

#[test]
fn a_thread_that_returns_early_in_the_alternate_shows_no_lock_after_it() {
    // In the alternate, one popper sees the stack empty (line 20) and
    // returns. The projection showed its `lock` at line 22 after that read
    // (the solver's order has it; the replayed run does not): only accesses
    // the run lacked were cut.
    let prep = corpus("fail/mutex/pop_checks_empty_unlocked.c");
    for seed in 0..4 {
        let ex = failing_where(&prep, 500 + seed, |_| true);
        for e in explained_modes(&prep, &ex) {
            let text = causa_explain::text::render(&e);
            assert_explained(&e, "pop_checks_empty_unlocked");
            let alt = e.alternate.as_ref().expect("an alternate");
            let line = |r: &causa_symbolic::EventRef| e.info[r.0][r.1].loc.as_ref().map(|l| l.line);
            for (i, r) in alt.iter().enumerate() {
                let empty = e.info[r.0][r.1].op == "read"
                    && line(r) == Some(20)
                    && e.alternate_values.get(r).map(String::as_str) == Some("0");
                if empty {
                    let later = alt[i + 1..].iter().filter(|x| x.0 == r.0).map(|x| e.info[x.0][x.1].op);
                    let later: Vec<&str> = later.collect();
                    assert!(!later.contains(&"lock"), "{}: {later:?}\n{text}", e.mode);
                }
            }
        }
    }
}

#[test]
fn a_lost_signal_sent_without_the_waiters_mutex_names_the_mutex() {
    // The waiter already checks its predicate in a loop; the summary told
    // it to do so. The fault is the producer's: it sets the predicate and
    // signals without the mutex the waiter holds from check to wait.
    let prep = corpus("fail/cond/predicate_set_without_mutex.c");
    let ex = deadlocking(&prep, 2000);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("The signaller does not hold `m`"), "{summary}");
    assert!(summary.contains("signalling while holding `m`"), "{summary}");
}

#[test]
fn two_turns_of_a_loop_are_not_called_one_atomic_statement() {
    // Two threads chase each other (`i = j + 1`, `j = i + 1`) in loops. The
    // region the failing schedule breaks spans two turns of one loop; the
    // summary said making that one line atomic avoids the failure.
    let prep = corpus("fail/basic/chained_updates_equal_writes.c");
    let ex = failing_where(&prep, 20_000, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(!summary.contains("atomic avoids"), "{summary}");
    assert!(summary.contains("more than once (turns of a loop, or repeated calls)"), "{summary}");
}

#[test]
fn a_reader_that_checks_both_writes_is_not_told_to_reorder_them() {
    // The checker reads `a` and `b` and checks them together: it did not go
    // on because of `a`. The summary said "writing `b` before `a` avoids
    // the failure", which only moves the window, and then "making the read
    // wait for that write avoids the failure", which leaves the read of `a`
    // free to come first.
    let prep = corpus("fail/basic/pair_read_between_writes.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        let summary = causa_explain::summary::summary(&e);
        assert!(!summary.contains("went on because"), "{}: {summary}", e.mode);
        assert!(!summary.contains(") before `"), "{}: {summary}", e.mode);
        // It is told that its two reads fall between the two writes, and
        // that one lock over both pairs is the fix.
        assert!(summary.contains("the two reads fall between the two writes"), "{}: {summary}", e.mode);
        assert!(summary.contains("one lock held over both writes"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_writer_that_skips_the_readers_lock_is_told_to_take_it() {
    // The recorder updates `total` and `count` holding `lock`; the resetter
    // clears both without it, and the recorder's updates fall between its
    // two writes. The reader already holds the lock over both reads, so the
    // summary names the resetter's writes as what must take it (not "make
    // the read wait", nor one new lock over both sides).
    // `causa check`'s failing run falls the recorder's reads between the
    // resetter's writes.
    let prep = corpus("fail/mutex/reset_without_lock.c");
    let opts = causa_explore::mcr::McrOptions::default();
    let r = causa_explore::mcr::check(&prep, &config(), &opts, &mut |_, _| {});
    let causa_explore::mcr::McrVerdict::Bug(ex) = r.verdict else { panic!("check found no bug") };
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "reset_without_lock");
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("the two reads fall between the two writes"), "{summary}");
    assert!(summary.contains("`recorder` (thread 0.1) holds `lock` over both reads"), "{summary}");
    assert!(summary.contains("taking `lock` over reset_without_lock.c lines 28–29 as well"), "{summary}");
    assert!(!summary.contains("wait for that write"), "{summary}");
    // The recorder's read of `total` sees the resetter's write in both
    // schedules, so the DSP does not show it: the summary, which names
    // that write, says so.
    let read_total = |r: &causa_symbolic::EventRef| {
        e.info_of(*r).op == "read" && e.line(*r).as_deref() == Some("reset_without_lock.c:19")
    };
    assert!(!e.dsp.events.iter().any(read_total), "{}", causa_explain::text::render(&e));
    assert!(
        summary.contains("at reset_without_lock.c:28 (a data flow both schedules have, so not shown below)"),
        "{summary}"
    );
    // Random failing runs that put the resetter's write of `count` between
    // the recorder's write in one turn of its loop and its read in the
    // next are not told to make that line atomic (it runs twice).
    let mut told_lock = false;
    for n in 0..8 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let summary = causa_explain::summary::summary(&e);
        assert!(!summary.contains("line 20 atomic avoids"), "{summary}");
        // Where the resetter's write falls inside the recorder's critical
        // section, taking the lock at that write alone would still let an
        // update fall between the two writes: one section over both.
        if summary.contains("does not take it") {
            assert!(summary.contains("taking `lock` over reset_without_lock.c lines 28–29 as well"), "{summary}");
        }
        told_lock |= summary.contains("does not take it");
    }
    assert!(told_lock, "no random failing run put the resetter's write inside the recorder's section");
}

#[test]
fn a_test_and_an_update_that_are_not_one_atomic_step_are_told_so() {
    // Each client checks `active` (an atomic load) and then counts itself in
    // (an atomic increment); another client's increment between the two
    // makes the check stale. The summary says so and names one atomic step
    // as the fix, not "make the read wait for that write".
    let prep = corpus("fail/atomics/check_then_act_limit.c");
    let mut told = 0;
    for n in 0..4 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, "check_then_act_limit");
            let summary = causa_explain::summary::summary(&e);
            assert!(!summary.contains("wait for that write"), "{}: {}", e.mode, causa_explain::text::render(&e));
            if summary.contains("what the test saw no longer holds") {
                assert!(summary.contains("tests `active` at check_then_act_limit.c:24"), "{}: {summary}", e.mode);
                assert!(summary.contains("and then updates it at check_then_act_limit.c:25"), "{}: {summary}", e.mode);
                assert!(summary.contains("Testing and updating `active` in one atomic step"), "{}: {summary}", e.mode);
                told += 1;
            }
        }
    }
    assert!(told > 0, "no explanation told the check-then-act race");
}

#[test]
fn a_lost_update_in_a_key_destructor_is_explained() {
    // Each worker's thread-specific count is added to `total` by the key's
    // destructor at the thread's end, without a lock. Symbolic execution
    // runs the destructor where the interpreter does (after the start
    // routine returns, before the thread's end), so the lost update is in
    // the destructor's lines.
    let prep = corpus("fail/sync/key_destructor_flush_race.c");
    let ex = nth_failing(&prep, 0, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "key_destructor_flush_race");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("`flush_count`"), "{}: {summary}", e.mode);
        assert!(summary.contains("key_destructor_flush_race.c line 16 atomic"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_field_of_a_struct_copied_whole_keeps_its_value() {
    // The consumer's `t.arg` is the upper half of a 64-bit value (a small
    // struct returned whole), stored on its stack and loaded by field: the
    // model must read the field's value there, not 0 (with 0 no schedule
    // avoids the failure), and the struct put together from two field
    // stores must load whole.
    let prep = corpus("fail/basic/struct_copy_published_early.c");
    let ex = nth_failing(&prep, 0, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "struct_copy_published_early");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("reads `slot.arg` at struct_copy_published_early.c:33"), "{}: {summary}", e.mode);
    }
    // A struct read whole from shared memory, stored whole, its upper half
    // read: the failure depends on the order (the half read as 0 said the
    // run's paths alone decided it).
    let prep = corpus("fail/basic/struct_returned_whole_field_read.c");
    let ex = nth_failing(&prep, 0, |_| true);
    for e in explained_modes(&prep, &ex) {
        // (The first failing run is 3 events: the DSP adds the setter's.)
        assert!(e.alternate_passes(), "{}: {:?}", e.mode, e.alternate_outcome);
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("copies `slot` at struct_returned_whole_field_read.c:19"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_struct_copied_whole_at_a_shared_index_is_explained() {
    // `struct msg m = ring[tail - 1]` is one 8-byte copy through an address
    // computed from shared data; the writer fills the slot field by field.
    // The model reads the copy as parts of the fields' locations, and the
    // summary names the element, not its first field.
    let prep = corpus("fail/basic/struct_copy_at_shared_index.c");
    let ex = nth_failing(&prep, 0, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "struct_copy_at_shared_index");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("reads `ring[0]` at struct_copy_at_shared_index.c:34"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_wait_under_if_before_a_whole_struct_copy_is_explained() {
    // The canonical `if` instead of `while` around a condition wait, in a
    // queue of small structs copied out whole at an index read from shared
    // memory (the index the first taker reads is program-order fixed, so
    // the copy is a fixed 8-byte access while the producer writes the
    // fields at a computed index: the model cuts the copy at the fields).
    let prep = corpus("fail/cond/wait_under_if_task_queue.c");
    let ex = nth_failing(&prep, 0, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "wait_under_if_task_queue");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("without checking the condition again"), "{}: {summary}", e.mode);
    }
}

#[test]
fn strlen_of_a_name_published_after_its_flag_is_explained() {
    // strlen on a pointer read from shared memory that is still null: the
    // memory error is at the call, before its address is needed (the
    // pointer was pinned to the value published later, or refused).
    let prep = corpus("fail/memory/strlen_of_name_published_late.c");
    for n in 0..2 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, "strlen_of_name_published_late");
            let summary = causa_explain::summary::summary(&e);
            assert!(summary.contains("reads `name` at strlen_of_name_published_late.c:32"), "{}: {summary}", e.mode);
        }
    }
}

#[test]
fn a_check_repeated_after_the_failure_sends_the_search_to_the_branches_first() {
    // job_claim_race: main checks every job's count after the joins. On the
    // failing run's paths every job is done twice, so an alternate of those
    // paths that passes the failing check fails a later turn of it, which
    // the model does not see. The first such alternate, replayed, fails
    // that way: the branches are flipped before any alternate of the paths
    // is optimised (which, with two more tries, took three quarters of the
    // time, and each failed again).
    let prep = corpus("fail/realistic/job_claim_race.c");
    let ex = failing_where(&prep, 3000, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let text = causa_explain::text::render(&e);
    let f = e.flipped.as_ref().unwrap_or_else(|| panic!("a branch flipped: {text}"));
    assert_eq!(f.loc.as_ref().map(|l| l.line), Some(24), "{text}");
    assert!(e.alternate_passes(), "{text}");
    // No alternate of the paths optimised, replayed and set aside first
    // (three of them, each failing again, took three quarters of the time).
    assert_eq!(e.rejected, 0, "{text}");
}

#[test]
fn blocks_reached_only_through_a_published_pointer_keep_their_names() {
    // Each worker reaches the registry it created only through the pointer
    // it published. The symbolic trace numbers the two blocks in another
    // order than the run, and the run's block whose number the other one
    // took had no address: its accesses were all `0x0`, one location, and
    // main's read of `present[1]` "read" a worker's write of `owner[2]`.
    let prep = corpus("fail/realistic/lazy_registry_replaced.c");
    for n in 0..2 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            let text = causa_explain::text::render(&e);
            assert_flows_join_one_object(&e, "lazy_registry_replaced");
            assert!(!text.contains("0x"), "{}: {text}", e.mode);
        }
    }
}

#[test]
fn a_thread_the_failure_stops_before_its_first_trylock_is_explained() {
    // The two withdrawals lose an update; main checks the balance before it
    // joins the auditor, which may not have started yet. Symbolic execution
    // ran the auditor into its trylock and stopped with "thread 0.3 makes
    // more lock tries than the 0 its recorded path has": a thread the run
    // stopped before a try stops there in the model too.
    let prep = load(
        "audited.c",
        "#include <assert.h>\n#include <pthread.h>\n\
         static int balance = 100, audits;\n\
         static pthread_mutex_t audit = PTHREAD_MUTEX_INITIALIZER;\n\
         static void *withdraw(void *a) { int b = balance; balance = b - 10; return a; }\n\
         static void *auditor(void *a) {\n\
             if (pthread_mutex_trylock(&audit) == 0) { audits++; pthread_mutex_unlock(&audit); }\n\
             return a; }\n\
         int main(void) { pthread_t w1, w2, au;\n\
             pthread_create(&w1, 0, withdraw, 0); pthread_create(&w2, 0, withdraw, 0);\n\
             pthread_create(&au, 0, auditor, 0);\n\
             pthread_join(w1, 0); pthread_join(w2, 0);\n\
             assert(balance == 80);\n\
             pthread_join(au, 0); return 0; }\n",
    );
    let ex = failing_where(&prep, 2000, |ex| {
        let auditor = ex.names.iter().position(|n| n.to_string() == "0.3");
        auditor.is_some_and(|a| !ex.events.iter().any(|e| e.thread as usize == a))
    });
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "audited");
    }
}

#[test]
fn a_thread_the_failure_stops_before_its_clock_read_or_once_call_is_explained() {
    // As above, with an auditor whose first call reads the clock (and a
    // pseudo-random number), or is `pthread_once`: "thread 0.1 makes more
    // clock reads and pseudo-random numbers (`clock_gettime`) than the 0
    // its recorded path has" when the run stopped it before the call.
    let first_calls = [
        "struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);\n\
         if (ts.tv_sec >= 0 && rand() >= 0) seen = balance;",
        "pthread_once(&once, init); seen = balance;",
    ];
    for call in first_calls {
        let source = format!(
            "#include <assert.h>\n#include <pthread.h>\n#include <stdlib.h>\n#include <time.h>\n\
             static int balance = 100, seen, ready;\n\
             static pthread_once_t once = PTHREAD_ONCE_INIT;\n\
             static void init(void) {{ ready = 1; }}\n\
             static void *withdraw(void *a) {{ int b = balance; balance = b - 10; return a; }}\n\
             static void *auditor(void *a) {{ {call}\n return a; }}\n\
             int main(void) {{ pthread_t w1, w2, au;\n\
                 pthread_create(&au, 0, auditor, 0);\n\
                 pthread_create(&w1, 0, withdraw, 0); pthread_create(&w2, 0, withdraw, 0);\n\
                 pthread_join(w1, 0); pthread_join(w2, 0);\n\
                 assert(balance == 80);\n\
                 pthread_join(au, 0); return 0; }}\n"
        );
        let prep = load("first_call.c", &source);
        let ex = failing_where(&prep, 2000, |ex| {
            let auditor = ex.names.iter().position(|n| n.to_string() == "0.1");
            auditor.is_some_and(|a| !ex.events.iter().any(|e| e.thread as usize == a))
        });
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, call);
        }
    }
}

#[test]
fn a_flag_the_reader_waited_for_is_the_fix_not_a_lock_over_the_fields() {
    // The reader waits for `ready`, which a helper raises before the loader
    // stores the limit and its check value. From a run where the reader
    // saw the new limit and the old check value, the advice was one lock
    // over both writes and both reads (the read of the limit was the
    // latest one that saw an earlier write of the loader), which does not
    // help; the flag the reader tested before going on is the fix.
    let prep = corpus("fail/realistic/settings_flag_set_in_helper.c");
    for n in 0..4 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            let summary = causa_explain::summary::summary(&e);
            assert!(!summary.contains("one lock held over both writes"), "{}: {summary}", e.mode);
            if summary.contains("The reader went on because") {
                assert!(summary.contains("its read of `ready`"), "{}: {summary}", e.mode);
            }
        }
    }
    // (The run the old advice came from.)
    let torn = |ex: &Execution| {
        let read = |line: u32| {
            ex.records
                .iter()
                .find(|r| r.kind == causa_core::EventKind::Read && r.location.as_ref().is_some_and(|l| l.line == line))
        };
        read(40).and_then(|r| r.value.clone()).as_deref() == Some("64")
    };
    let ex = failing_where(&prep, 2000, torn);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("its read of `ready` at settings_flag_set_in_helper.c:38"), "{summary}");
}

#[test]
fn a_free_between_a_check_and_a_use_names_the_region_to_make_atomic() {
    // A double free: both cleanups see the buffer live at :15 and free it
    // at :16. The summary told two of the second thread's reads as data
    // flows ("read 0 stored by an operation the failing run never
    // reached"), without the free or a fix. Now the free comes between
    // the check and the second free, and the region runs through the
    // reset to NULL at :17 (the check and free alone would still let the
    // other thread free the block before the reset).
    let prep = corpus("fail/memory/double_free.c");
    let ex =
        failing_where(&prep, 2000, |ex| ex.outcome.finding().is_some_and(|f| f.message.starts_with("double free")));
    for e in explained_modes(&prep, &ex) {
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("frees `heap#1` at double_free.c:16"), "{}: {summary}", e.mode);
        assert!(summary.contains("second free at double_free.c:16"), "{}: {summary}", e.mode);
        assert!(summary.contains("making double_free.c lines 15–17 atomic"), "{}: {summary}", e.mode);
    }
    // A reference count read again after its decrement: the other user's
    // decrement (and free) come between this one's decrement and its read.
    let prep = corpus("fail/memory/refcount_check_after_decrement.c");
    let ex =
        failing_where(&prep, 2000, |ex| ex.outcome.finding().is_some_and(|f| f.message.starts_with("use after free")));
    for e in explained_modes(&prep, &ex) {
        let summary = causa_explain::summary::summary(&e);
        // (Told as the free's region, or as the decrements' when both
        // regions are the same lines.)
        let decrement = "updates `heap#1.refs` at refcount_check_after_decrement.c:16";
        assert!(summary.contains(decrement), "{}: {summary}", e.mode);
        // (Its fix: the value the decrement returns, not a second read.)
        assert!(
            summary.contains(
                "reading `heap#1.refs` again after it is a second step: testing the value the update returns"
            ),
            "{}: {summary}",
            e.mode
        );
    }
    // A block its creator frees without joining the thread that uses it:
    // no region of the user fixes that; the join is the fix.
    let prep = corpus("fail/memory/pool_free_before_join.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("does not join it before the free"), "{}: {summary}", e.mode);
        assert!(!summary.contains("atomic"), "{}: {summary}", e.mode);
    }
}

#[test]
fn two_threads_intruding_on_each_others_same_lines_are_told_once() {
    // Each popper reads `head` between the other's read and write of it:
    // two regions of the same lines, whose sentence the summary said twice.
    let prep = corpus("fail/memory/stack_pop_head_read_unlocked.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        let summary = causa_explain::summary::summary(&e);
        let fix = "stack_pop_head_read_unlocked.c lines 29–33 atomic";
        assert_eq!(summary.matches(fix).count(), 1, "{}: {summary}", e.mode);
    }
}

#[test]
fn two_objects_read_under_two_locks_are_told_as_one_snapshot() {
    // The reporter reads `total` and then `hits`, each under its own lock;
    // the server updates both between the two reads. The summary told the
    // read of `hits` alone; now the pair, and one lock over both reads.
    let prep = corpus("fail/realistic/stats_read_under_two_locks.c");
    let ex = failing_where(&prep, 2000, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(
        summary.contains(
            "reads `st.total` at stats_read_under_two_locks.c:38 and `st.hits` at stats_read_under_two_locks.c:41"
        ),
        "{summary}"
    );
    assert!(summary.contains("so it sees an old `st.total`"), "{summary}");
    assert!(summary.contains("one lock held over both reads (stats_read_under_two_locks.c lines 38–41)"), "{summary}");
    // Symbiosis finds an alternate of the same paths too: inverting one
    // pair moves a critical section whole (an event alone cannot leave a
    // section whose lock the other thread takes), and its summary tells
    // the same snapshot whichever of the two reads' data flows it changes.
    let e = in_mode(&prep, &ex, Mode::Symbiosis);
    let summary = causa_explain::summary::summary(&e);
    assert_explained(&e, "stats_read_under_two_locks");
    assert!(e.flipped.is_none(), "{summary}");
    assert!(summary.contains("so it sees an old `st.total`"), "{summary}");
}

#[test]
fn symbiosis_inverts_the_accesses_behind_the_core_and_a_deadlocks_held_locks() {
    // The core's cross-thread order in barrier_round_reused is the writer's
    // barrier arrival before the reader's first read; the pair that avoids
    // the failure is the write of `partial[1]` and the read of it after
    // that. A lock-order deadlock's core names the blocked request alone;
    // the pair is the two threads' first acquisitions, one moved whole
    // before the other; a lost wake-up's core names no pair either.
    // Symbiosis found no alternate of the failing paths for any before.
    let prep = corpus("fail/sync/barrier_round_reused.c");
    let ex = failing_where(&prep, 2000, fails_at_line(42));
    let e = in_mode(&prep, &ex, Mode::Symbiosis);
    assert_explained(&e, "barrier_round_reused");
    assert!(e.flipped.is_none());
    let (a, b) = e.inverted.expect("an inverted pair");
    assert!(
        [a, b].iter().all(|r| e.object(*r).as_deref() == Some("partial[1]")),
        "{:?} {:?}",
        e.object(a),
        e.object(b)
    );
    let prep = corpus("fail/mutex/abba_deadlock.c");
    let ex = deadlocking(&prep, 500);
    let e = in_mode(&prep, &ex, Mode::Symbiosis);
    assert_explained(&e, "abba_deadlock");
    assert!(e.flipped.is_none());
    let (a, b) = e.inverted.expect("an inverted pair");
    assert!([a, b].iter().all(|r| e.info_of(*r).op == "lock"), "{:?} {:?}", e.info_of(a).op, e.info_of(b).op);
    // A lost wake-up: the waiter's section (its lock through the wait)
    // moved whole before the signaller's.
    let prep = corpus("fail/cond/lost_wakeup_unlocked_check.c");
    let ex = deadlocking(&prep, 500);
    let e = in_mode(&prep, &ex, Mode::Symbiosis);
    assert_explained(&e, "lost_wakeup_unlocked_check");
    assert!(e.flipped.is_none());
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("In the alternate the signal comes after the wait"), "{summary}");
}

#[test]
fn a_write_run_again_before_another_threads_read_is_told_so() {
    // Worker 1 writes its round-2 partial sum before worker 0 has read
    // round 1 (no barrier after the summing). The summary said only which
    // value the read saw.
    let prep = corpus("fail/sync/barrier_round_reused.c");
    let ex = failing_where(&prep, 2000, fails_at_line(42));
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("runs barrier_round_reused.c:21 again"), "{summary}");
    let read = "before `worker` (thread 0.1)'s read of `partial[1]` at barrier_round_reused.c:26";
    assert!(summary.contains(read), "{summary}");
    assert!(summary.contains("nothing makes thread 0.2 wait for that read"), "{summary}");
}

#[test]
fn progressive_takes_one_inverted_pair_when_it_is_more_similar_than_its_windows_optimum() {
    // bank_long: the alternate of the first window that admits one can
    // have the second deposit read the first one's write, and main's check
    // then read the second's (two data flows differ); moving the second
    // deposit's write before the first one's read, a single pair of the
    // root cause before the window, changes fewer. Progressive's figures
    // are then no worse than Symbiosis' (the issue's target).
    let src = format!(
        "#define WORK 10\n{}",
        std::fs::read_to_string(format!("{}/../../bench/programs/bank_long.c", env!("CARGO_MANIFEST_DIR")))
            .expect("bench/programs/bank_long.c")
    );
    let prep = load("bank_long.c", &src);
    // (A failing run where the window's optimum changes two data flows:
    // in some, the first window's alternate is already the pair's.)
    let ex = failing_where(&prep, 5000, |ex| in_mode(&prep, ex, Mode::Progressive).inverted.is_some());
    let symbiosis = in_mode(&prep, &ex, Mode::Symbiosis);
    let progressive = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&progressive, "bank_long");
    let figures = |e: &Explanation| {
        let f = &e.dsp.figures;
        (f.data_flows, f.broken_segments, f.context_switches, f.operations)
    };
    let (s, p) = (figures(&symbiosis), figures(&progressive));
    assert!(p <= s, "progressive {p:?} against Symbiosis {s:?}");
    assert!(progressive.inverted.is_some() && progressive.window.is_some());
    let header = causa_explain::text::render(&progressive);
    assert!(header.contains("pairs of the root cause tried; more similar than the best order with"), "{header}");
}

#[test]
fn a_flipped_branchs_condition_is_told_in_words() {
    // job_claim_race's worker leaves its loop (`if (j >= JOBS) break;`) in
    // the alternate: the summary said "(the failing run's branch was not
    // taken)"; now what its condition did in each schedule.
    let prep = corpus("fail/realistic/job_claim_race.c");
    let ex = failing_where(&prep, 2000, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(e.flipped.is_some(), "{summary}");
    assert!(summary.contains("(its condition did not hold in the failing run and does in the alternate)"), "{summary}");
}

#[test]
fn a_timed_condition_wait_is_followed_woken_or_timed_out() {
    // pthread_cond_timedwait returns woken or timed out as the run's did
    // (the path log's tries); symbolic execution said "unsupported …
    // external function `pthread_cond_timedwait`". The waiter gives up on
    // a timeout and takes whatever `ready` holds; both threads then add to
    // `count` without a lock.
    let prep = load(
        "timed.c",
        "#include <assert.h>\n#include <errno.h>\n#include <pthread.h>\n#include <time.h>\n\
         static int ready, got, count;\n\
         static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         static pthread_cond_t c = PTHREAD_COND_INITIALIZER;\n\
         static void *waiter(void *a) { struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts); ts.tv_sec += 5;\n\
             pthread_mutex_lock(&m);\n\
             while (!ready) if (pthread_cond_timedwait(&c, &m, &ts) == ETIMEDOUT) break;\n\
             got = ready; pthread_mutex_unlock(&m);\n\
             int n = count; count = n + 1; return a; }\n\
         static void *setter(void *a) { pthread_mutex_lock(&m); ready = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m);\n\
             int n = count; count = n + 1; return a; }\n\
         int main(void) { pthread_t w, s; pthread_create(&w, 0, waiter, 0); pthread_create(&s, 0, setter, 0);\n\
             pthread_join(w, 0); pthread_join(s, 0);\n\
             assert(count == 2);\n\
             assert(got == 1); return 0; }\n",
    );
    // The wait's return: woken (1) or timed out (0), as the run recorded it.
    let returned = |ex: &Execution, woken: u128| {
        ex.events.iter().any(|e| e.kind == causa_core::EventKind::WaitReturn && e.value == woken)
    };
    let line = |ex: &Execution| message_of(ex);
    // Woken, and the two increments lose one: a reordering of the run's
    // paths explains it, with the woken return among the events.
    let lost = failing_where(&prep, 3000, |ex| returned(ex, 1) && line(ex).contains("count == 2"));
    for e in explained_modes(&prep, &lost) {
        assert_explained(&e, "timed (woken)");
        assert!(e.flipped.is_none(), "{}: the run's paths", e.mode);
        assert!(e.info.iter().flatten().any(|i| i.op == "wake"), "{}", e.mode);
    }
    // Timed out before the setter ran: only another path avoids it (the
    // waiter sees `ready` set at its first check).
    let late = failing_where(&prep, 3000, |ex| returned(ex, 0) && line(ex).contains("got == 1"));
    for mode in [Mode::Progressive, Mode::MaxSmt] {
        let e = in_mode(&prep, &late, mode);
        assert!(e.info.iter().flatten().any(|i| i.op == "timed out"), "{mode}");
        assert!(e.alternate_passes(), "{mode}: {:?}", e.alternate_outcome);
        let text = causa_explain::text::render(&e);
        let f = e.flipped.as_ref().unwrap_or_else(|| panic!("{mode}: a branch flipped: {text}"));
        assert_eq!(
            (e.threads[f.thread].to_string(), f.loc.as_ref().map(|l| l.line)),
            ("0.1".into(), Some(10)),
            "{text}"
        );
    }
}

#[test]
fn alternates_that_lose_other_updates_of_a_count_are_refined_away() {
    // Three holders of a two-unit semaphore count themselves in and out of
    // `inuse` without a lock. The most similar schedules of the failing
    // run's paths each lose another of the count's updates; ruling out
    // only the update each one lost, nine retries found none, and a
    // flipped branch was told as the only way out ("no schedule of the
    // failing run's paths avoids the failure"). Now every new lost update
    // of `inuse` is ruled out at once, and the run's paths are explained,
    // but where they cannot be: on a run where a thread's increment saw
    // two holders and it then set `maxuse` to 3, every order of those
    // paths loses an update (no clean one is left once the new lost
    // updates of `inuse` and `maxuse` are ruled out), and the thread that
    // saw 3 must see less and skip line 8: a flip, told as such.
    let prep = load(
        "pool.c",
        "#include <assert.h>\n#include <pthread.h>\n#include <semaphore.h>\n\
         static sem_t slots;\nstatic int inuse, maxuse;\n\
         static void *user(void *a) { sem_wait(&slots);\n\
             int n = ++inuse;\n\
             if (n > maxuse) maxuse = n;\n\
             inuse--;\n\
             sem_post(&slots); return a; }\n\
         int main(void) { sem_init(&slots, 0, 2); pthread_t t[3];\n\
             for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, user, 0);\n\
             for (int i = 0; i < 3; i++) pthread_join(t[i], 0);\n\
             assert(inuse == 0); return 0; }\n",
    );
    let (mut set_aside, mut flips) = (0, 0);
    for n in 0..4 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let text = causa_explain::text::render(&e);
        assert!(e.alternate_passes(), "{text}");
        if e.flipped.is_some() {
            assert!(text.contains("of the failing run's paths each lost another update"), "run {n}: {text}");
            assert!(text.contains("takes the other branch at pool.c:8"), "run {n}: {text}");
            flips += 1;
        }
        assert!(!text.contains("no schedule of the failing run's paths"), "{text}");
        set_aside += usize::from(e.lost_updates > 0);
    }
    // (Most runs' paths have a clean alternate.)
    assert!(flips <= 1, "{flips} of 4 runs flipped a branch");
    eprintln!("pool.c: {set_aside} of 4 runs set an alternate aside for losing an update, {flips} flipped a branch");
}

#[test]
fn several_reads_that_should_wait_for_their_writes_share_one_fix() {
    // Thread 0 sums every worker's slot before the barrier that should
    // come first: its reads of the other two slots each see 0. The summary
    // said "Making the read wait for that write avoids the failure." after
    // each order violation; it now says the fix once, for all of them: the
    // barrier every thread reaches after.
    let prep = load(
        "sum.c",
        "#include <assert.h>\n#include <pthread.h>\n\
         static int partial[3], total;\nstatic pthread_barrier_t b;\n\
         static void *w(void *a) { int id = (int)(long)a; partial[id] = id + 1;\n\
             if (id == 0) { int s = 0; for (int i = 0; i < 3; i++) s += partial[i]; total = s; }\n\
             pthread_barrier_wait(&b); return 0; }\n\
         int main(void) { pthread_barrier_init(&b, 0, 3); pthread_t t[3];\n\
             for (long i = 0; i < 3; i++) pthread_create(&t[i], 0, w, (void *)i);\n\
             for (int i = 0; i < 3; i++) pthread_join(t[i], 0);\n\
             assert(total == 6); return 0; }\n",
    );
    // Thread 0.1 (id 0) reaches the barrier before the others begin.
    let first_alone = |ex: &Execution| {
        let t = |name: &str| ex.names.iter().position(|n| n.to_string() == name);
        let (Some(a), Some(b), Some(c)) = (t("0.1"), t("0.2"), t("0.3")) else { return false };
        let at = |th: usize, kind: Option<causa_core::EventKind>| {
            ex.events.iter().position(|e| e.thread as usize == th && kind.is_none_or(|k| e.kind == k))
        };
        let arrived = at(a, Some(causa_core::EventKind::BarrierWait));
        arrived.is_some_and(|x| at(b, None).is_some_and(|y| x < y) && at(c, None).is_some_and(|y| x < y))
    };
    let ex = failing_where(&prep, 3000, first_alone);
    for mode in [Mode::Progressive, Mode::MaxSmt] {
        let e = in_mode(&prep, &ex, mode);
        assert!(e.alternate_passes(), "{mode}: {:?}", e.alternate_outcome);
        let summary = causa_explain::summary::summary(&e);
        assert_eq!(summary.matches("Order violation:").count(), 2, "{mode}: {summary}");
        assert!(!summary.contains("Making the read wait for that write"), "{mode}: {summary}");
        // (Told once, for both reads, the way: the barrier every thread
        // reaches after.)
        assert!(!summary.contains("Making each of these reads wait"), "{mode}: {summary}");
        let fix = "`w` (thread 0.1) waits at the barrier `b` at sum.c:7 only after these reads, and `w` (thread 0.2) and `w` (thread 0.3) arrive there after their writes: no thread leaves a barrier before every one has arrived, so reading after that `pthread_barrier_wait` avoids the failure.";
        assert_eq!(summary.matches(fix).count(), 1, "{mode}: {summary}");
        assert_eq!(summary.matches("pthread_barrier_wait").count(), 1, "{mode}: {summary}");
    }
}

#[test]
fn a_recursive_mutexs_relocks_keep_its_outermost_critical_section() {
    // Symbolic execution said "unsupported … pthread_mutexattr_settype";
    // and a holder's relock made a second critical section in the model,
    // which the first unlock would have ended. The relocks and the inner
    // unlocks are events that change nothing another thread sees; the
    // section is the outermost one. `rec` reads the total under the lock
    // and writes it after the unlock.
    let prep = load(
        "recursive.c",
        "#include <assert.h>\n#include <pthread.h>\n\
         static pthread_mutex_t m;\nstatic int total;\n\
         static void rec(int d) { pthread_mutex_lock(&m); if (d > 0) rec(d - 1);\n\
             int t = total; pthread_mutex_unlock(&m); total = t + 1; }\n\
         static void *w(void *a) { rec(2); return a; }\n\
         int main(void) { pthread_mutexattr_t at; pthread_mutexattr_init(&at);\n\
             pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE); pthread_mutex_init(&m, &at);\n\
             pthread_t x, y; pthread_create(&x, 0, w, 0); pthread_create(&y, 0, w, 0);\n\
             pthread_join(x, 0); pthread_join(y, 0);\n\
             assert(total == 6); return 0; }\n",
    );
    let ex = failing_where(&prep, 3000, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "recursive");
        let ops = |op: &str| e.info.iter().flatten().filter(|i| i.op == op).count();
        // Each worker relocks twice and unlocks twice with the mutex held.
        assert_eq!((ops("relock (recursive)"), ops("unlock (still held)")), (4, 4), "{}", e.mode);
        assert_eq!(ops("lock"), 2, "{}: the outermost locks", e.mode);
    }
}

#[test]
fn read_write_lock_tries_are_followed_as_the_run_went() {
    // pthread_rwlock_tryrdlock/trywrlock take the lock or find it held as
    // the run's did (the path log's tries); symbolic execution said
    // "unsupported … external function `pthread_rwlock_trywrlock`". The
    // writers copy `version` into `cache` outside the lock.
    let prep = load(
        "rwtry.c",
        "#include <assert.h>\n#include <pthread.h>\n\
         static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;\nstatic int version, cache;\n\
         static void *writer(void *a) { if (pthread_rwlock_trywrlock(&rw) == 0) { version++; pthread_rwlock_unlock(&rw); }\n\
             cache = version; return a; }\n\
         static void *reader(void *a) { if (pthread_rwlock_tryrdlock(&rw) == 0) { int v = version; (void)v; pthread_rwlock_unlock(&rw); } return a; }\n\
         int main(void) { pthread_t w1, w2, r; pthread_create(&w1, 0, writer, 0); pthread_create(&w2, 0, writer, 0);\n\
             pthread_create(&r, 0, reader, 0);\n\
             pthread_join(w1, 0); pthread_join(w2, 0); pthread_join(r, 0);\n\
             assert(cache == version); return 0; }\n",
    );
    let ex = failing_where(&prep, 3000, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "rwtry");
        let tries = e.info.iter().flatten().filter(|i| matches!(i.op, "lock" | "rdlock" | "trylock (busy)")).count();
        assert!(tries >= 2, "{}: the writers' tries", e.mode);
    }
}

#[test]
fn library_functions_that_only_compute_are_followed() {
    // Symbolic execution said "unsupported … external function `strchr`"
    // (and would have for atoi, pthread_self, pthread_equal, strncmp, abs…):
    // they compute on the thread's own or constant strings and values, as
    // the interpreter does. The workers' unlocked `total += v` is the bug.
    let prep = load(
        "parse.c",
        "#include <assert.h>\n#include <pthread.h>\n#include <stdlib.h>\n#include <string.h>\n#include <ctype.h>\n\
         static int total;\nstatic pthread_t first;\n\
         static void *w(void *a) { const char *s = a;\n\
             int v = atoi(strchr(s, '=') + 1) + (int)strtol(\"-0\", 0, 10) + abs(-1) - 1;\n\
             if (pthread_equal(pthread_self(), first) && strncmp(s, \"a=\", 2) != 0) abort();\n\
             if (strstr(s, \"=\") != s + strcspn(s, \"=\") || toupper('b') != 'B') abort();\n\
             int t = total; total = t + v; return 0; }\n\
         int main(void) { pthread_t b;\n\
             pthread_create(&first, 0, w, \"a=2\"); pthread_create(&b, 0, w, \"b=3\");\n\
             pthread_join(first, 0); pthread_join(b, 0);\n\
             assert(total == 5); return 0; }\n",
    );
    let ex = failing_where(&prep, 3000, |ex| message_of(ex).contains("total == 5"));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "parse");
    }
}

#[test]
fn attribute_and_init_calls_that_change_nothing_modelled_are_followed() {
    // pthread_condattr_setclock (every clock is one virtual clock),
    // pthread_spin_init, pthread_mutexattr_setpshared,
    // pthread_attr_setstacksize, setvbuf, perror: symbolic execution said
    // "unsupported … external function".
    let prep = load(
        "attrs.c",
        "#include <assert.h>\n#include <pthread.h>\n#include <stdio.h>\n#include <time.h>\n\
         static pthread_mutex_t m;\nstatic pthread_cond_t c;\nstatic pthread_spinlock_t sl;\nstatic int hits;\n\
         static void *w(void *a) { pthread_spin_lock(&sl); pthread_spin_unlock(&sl);\n\
             pthread_mutex_lock(&m); pthread_cond_signal(&c); pthread_mutex_unlock(&m);\n\
             int h = hits; hits = h + 1; return a; }\n\
         int main(void) { pthread_condattr_t ca; pthread_condattr_init(&ca); setvbuf(stdout, 0, _IONBF, 0);\n\
             pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); pthread_cond_init(&c, &ca); pthread_condattr_destroy(&ca);\n\
             pthread_mutexattr_t ma; pthread_mutexattr_init(&ma); pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_PRIVATE);\n\
             pthread_mutex_init(&m, &ma); pthread_spin_init(&sl, 0);\n\
             pthread_attr_t at; pthread_attr_init(&at); pthread_attr_setstacksize(&at, 1 << 20);\n\
             pthread_t x, y; pthread_create(&x, &at, w, 0); pthread_create(&y, &at, w, 0);\n\
             pthread_join(x, 0); pthread_join(y, 0);\n\
             if (hits != 2) perror(\"hits\");\n\
             assert(hits == 2); return 0; }\n",
    );
    let ex = failing_where(&prep, 3000, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "attrs");
    }
}

#[test]
fn a_long_runs_bookkeeping_stays_out_of_its_flip_and_its_projection() {
    // inventory_check_then_act: two shoppers each log 121 requests under
    // a statistics lock around an unlocked check-then-act on `stock`; a
    // failing run has about 1,500 events, 480 of them in those sections.
    // No order of the run's paths avoids the failure without losing an
    // update of `stock`, so one shopper's check must see the other's
    // decrement. Asked of the full model (every statistics section free)
    // the first window query ran for minutes; with the sections held in
    // the failing order the flip is found at once, and the projection
    // leaves out the statistics the flipped shopper no longer updates (240
    // of its events were in it).
    let prep = corpus("fail/realistic/inventory_check_then_act.c");
    for n in 0..2 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let text = causa_explain::text::render(&e);
        assert!(e.failing.len() > 1000, "{}: {text}", e.failing.len());
        let f = e.flipped.as_ref().unwrap_or_else(|| panic!("a branch flipped: {text}"));
        assert_eq!(f.loc.as_ref().map(|l| l.line), Some(31), "{text}");
        assert!(e.alternate_passes(), "{text}");
        let d = &e.dsp;
        assert!(d.figures.operations <= 20, "{} operations: {text}", d.figures.operations);
        // (Events of a statistics section may still be shown where σ
        // switches threads inside one, but no data flow of the statistics.)
        let bookkeeping = |r: &(usize, usize)| matches!(e.object(*r).as_deref(), Some("requests" | "bytes"));
        assert!(!d.failing_only.iter().chain(&d.alternate_only).any(|f| bookkeeping(&f.read)), "{text}");
        let summary = causa_explain::summary::summary(&e);
        let flat = summary.split_whitespace().collect::<Vec<_>>().join(" ");
        let who = format!("thread {}", e.threads[f.thread]);
        assert!(
            flat.contains(&format!("`shopper` ({who}) takes the other branch at inventory_check_then_act.c:31")),
            "{summary}"
        );
        // (What the flipped test read, or that it went stale before the
        // thread's own decrement.)
        let flow = flat.contains("The read of `stock` at inventory_check_then_act.c:31")
            && flat.contains("sees 1 (initial value) in the failing schedule and 0 from thread");
        let stale = flat.contains("tests `stock` at inventory_check_then_act.c:31 (it reads 1) and acts on it up to its write of `stock` at inventory_check_then_act.c:33")
            && flat.contains("what the test saw no longer holds. In the alternate the test comes after that write and reads 0");
        assert!(flow || stale, "{summary}");
        // Found with the statistics held: the text claims no more than
        // that no schedule keeping them avoids the failure (one that moves
        // them does, by losing an update of `stock`).
        assert!(e.held_stage > 1000, "{text}");
        let flat_text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let kept = format!("with the {} events whose order it does not depend on kept in order", e.held_stage);
        assert!(flat_text.contains(&kept), "{text}");
        assert!(!flat.contains("happens in every order,"), "{summary}");
    }
}

#[test]
fn a_line_read_with_fgets_into_shared_memory_is_followed() {
    // Main reads the header with fgets into a shared buffer, starts the
    // checker, and reads the records into the same buffer: the checker's
    // strcpy can copy a record. Each fgets into shared memory is one
    // visible write of the line it delivered (the end of the file one that
    // writes nothing), and the checker's strncmp of its private copy
    // compares bytes computed from shared data. Before, symbolic execution
    // refused both (reads into shared memory; strncmp of such bytes).
    let prep = corpus("fail/libc/header_line_overwritten.c");
    let ex = failing_where(&prep, 2000, fails_at_line(24));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "header_line_overwritten");
        let text = causa_explain::text::render(&e);
        assert!(text.contains("fgets row :36") && text.contains("strcpy from row :22"), "{}: {text}", e.mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("wrote at line 41 in the failing schedule"), "{}: {summary}", e.mode);
        assert!(summary.contains("wrote at line 36"), "{}: {summary}", e.mode);
    }
}

#[test]
fn the_parts_of_one_copy_whose_sources_differ_are_told_in_one_sentence() {
    // The reader's strcpy sees the second line (7 bytes and a NUL) in the
    // failing schedule; in the alternate the first (6 bytes and a NUL) and
    // the initial value past it: two flows of one read, told once, each
    // part named by its bytes.
    let src = "#include <assert.h>\n#include <pthread.h>\n#include <stdio.h>\n#include <string.h>\n\
        char line[32];\n\
        void *reader(void *a) { char copy[32]; strcpy(copy, line); assert(strcmp(copy, \"first\\n\") == 0); return 0; }\n\
        int main(void) { FILE *f = fopen(\"causa_parts.txt\", \"w\"); fputs(\"first\\nsecond\\n\", f); fclose(f);\n\
        f = fopen(\"causa_parts.txt\", \"r\"); fgets(line, sizeof line, f);\n\
        pthread_t t; pthread_create(&t, 0, reader, 0);\n\
        fgets(line, sizeof line, f); fclose(f); pthread_join(t, 0); return 0; }\n";
    let prep = load("parts.c", src);
    let ex = failing_where(&prep, 500, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "parts");
    let summary = causa_explain::summary::summary(&e);
    assert_eq!(summary.matches("The strcpy of `line`").count(), 1, "{summary}");
    assert!(summary.contains("wrote at line 10 in the failing schedule"), "{summary}");
    assert!(
        summary.contains("wrote at line 8 in bytes 0–6 of `line` and the initial value in byte 7 of `line`"),
        "{summary}"
    );
    let text = causa_explain::text::render(&e);
    assert!(text.contains("line bytes 0–6 (in strcpy from line") && text.contains("line byte 7 (in"), "{text}");
}

#[test]
fn a_bounded_comparison_of_a_shared_string_is_followed() {
    // strncmp of a shared buffer is one visible read of the bytes it
    // compares (at most its bound); the comparison's result, in the model,
    // comes from those bytes. Before, strncmp took only strings whose
    // bytes were known.
    let src = "#include <assert.h>\n#include <pthread.h>\n#include <string.h>\nchar mode[16];\n\
        void *set_it(void *a) { strcpy(mode, \"write\"); return 0; }\n\
        int main(void) { strcpy(mode, \"read-only\"); pthread_t t; pthread_create(&t, 0, set_it, 0);\n\
        int ro = strncmp(mode, \"read\", 4) == 0;\n\
        pthread_join(t, 0); assert(ro); return 0; }\n";
    let prep = load("modes.c", src);
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "modes");
        let text = causa_explain::text::render(&e);
        assert!(text.contains("strncmp mode :7") && text.contains("strcpy mode :5"), "{}: {text}", e.mode);
    }
}

#[test]
fn a_table_loaded_with_fscanf_after_the_reader_started_is_explained() {
    // The report thread sums the table before main has loaded it: main's
    // later path (fgets, sscanf of the header, fscanf of each record into
    // the shared table) comes from a run that takes it further, and
    // symbolic execution follows it: sscanf of main's own line, fscanf from
    // the bytes that run consumed, each fscanf one visible access writing
    // a record's name and hours.
    let prep = corpus("fail/libc/hours_table_read_late.c");
    // A run where the report fails before main has loaded anything.
    let ex = failing_where(&prep, 2000, |ex| fails_at_line(32)(ex) && main_writes_nothing(ex));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "hours_table_read_late");
        assert!(!e.extended.is_empty(), "{}: main is taken further", e.mode);
        let summary = causa_explain::summary::summary(&e);
        // The three reads of one loop, each before its record is loaded,
        // are told as one order violation.
        assert!(
            summary.contains("reads `table[0].hours`, `table[1].hours` and `table[2].hours` at hours_table_read_late.c:30 before `main` (thread 0) scans from a file into them at hours_table_read_late.c:52"),
            "{}: {summary}",
            e.mode
        );
        assert!(summary.contains("the reads see 12, 16 and 10"), "{}: {summary}", e.mode);
        assert_eq!(summary.matches("Order violation").count(), 1, "{}: {summary}", e.mode);
    }
}

#[test]
fn threads_taken_further_that_cannot_be_followed_are_said_so() {
    // main's fscanf stores through `&table[entries]`, an address computed
    // from shared data: symbolic execution of main's later path stops
    // there, and the summary says so instead of only "no schedule found".
    let src = "#include <assert.h>\n#include <pthread.h>\n#include <stdio.h>\n\
        static int table[4];\nstatic int entries;\n\
        static void *report(void *a) { (void)a; int t = 0; for (int i = 0; i < 4; i++) t += table[i]; assert(t == 6); return 0; }\n\
        int main(void) { FILE *o = fopen(\"causa_unfollowed.txt\", \"w\"); fputs(\"1 2 3\", o); fclose(o);\n\
        pthread_t r; pthread_create(&r, 0, report, 0);\n\
        FILE *in = fopen(\"causa_unfollowed.txt\", \"r\");\n\
        while (entries < 3 && fscanf(in, \"%d\", &table[entries]) == 1) entries++;\n\
        fclose(in); pthread_join(r, 0); return 0; }\n";
    let prep = load("unfollowed.c", src);
    let ex = failing_where(&prep, 500, main_writes_nothing);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert!(e.alternate.is_none());
    let why = e.not_followed.as_deref().expect("why main's later path was not followed");
    assert!(why.contains("fscanf through an address computed from shared data"), "{why}");
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("could not be followed: unsupported in symbolic execution: fscanf"), "{summary}");
}

#[test]
fn batch_sizes_read_with_getline_are_followed() {
    // main reads the sizes with getline (a buffer getline allocates, main's
    // own until its address escapes) and atol, and ftell checks the bytes
    // read; the workers' additions race. Before, getline and ftell were
    // unsupported even in the interpreter.
    let prep = corpus("fail/libc/getline_batches_summed.c");
    let ex = failing_where(&prep, 2000, fails_at_line(50));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "getline_batches_summed");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("`total`"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_thread_taken_further_by_what_a_library_call_returned_is_followed() {
    // The reader copies the buffer before main's fgets fills it; main makes
    // no decision past the failing run's end, only the fgets, whose line is
    // in main's path only after a run that takes main further. Before, that
    // run was not used (its path had no more decisions), and the
    // explanation found no alternate.
    let prep = corpus("fail/libc/line_read_into_shared_buffer.c");
    let ex = failing_where(&prep, 2000, |ex| fails_at_line(20)(ex) && main_writes_nothing(ex));
    for e in explained_modes(&prep, &ex) {
        // (The failing schedule has four events: the DSP is all of them.)
        assert!(e.alternate.is_some() && e.alternate_passes(), "{}: an alternate that runs to the end", e.mode);
        assert_eq!(e.extended.len(), 1, "{}: main is taken further", e.mode);
        let text = causa_explain::text::render(&e);
        assert!(text.contains("fgets line :33"), "{}: {text}", e.mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("reads from a file into it at line_read_into_shared_buffer.c:33"),
            "{}: {summary}",
            e.mode
        );
        // (A string copy has no one value to show.)
        assert!(summary.contains("the read sees what that write stored"), "{}: {summary}", e.mode);
    }
}

/// The main thread makes no write in the run (it had not got to them).
fn main_writes_nothing(ex: &Execution) -> bool {
    !ex.events.iter().any(|e| e.thread == 0 && e.kind == causa_core::EventKind::Write)
}

#[test]
fn a_number_parsed_from_shared_text_is_explained() {
    // atoi of a string in shared memory: one visible read of its bytes,
    // and symbolic execution follows the conversion byte by byte (it was
    // refused: "`atoi` of a string in shared memory"). The alarm parses
    // the old reading; in the alternate it takes the other branch.
    let prep = corpus("fail/libc/level_parsed_before_update.c");
    let ex = failing_where(&prep, 2000, fails_at_line(37));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "level_parsed_before_update");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("The atoi of `reading` at level_parsed_before_update.c:26"), "{}: {summary}", e.mode);
        assert!(summary.contains("what thread 0.1 wrote at line 20 in the alternate"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_search_of_shared_text_with_strchr_is_explained() {
    // strchr of a shared string: the model's result is the address of the
    // first ';' before the NUL, else NULL; the checker's test of it is the
    // branch the alternate takes the other way.
    let prep = corpus("fail/libc/record_checked_before_terminator.c");
    let ex = failing_where(&prep, 2000, fails_at_line(36));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "record_checked_before_terminator");
        let flip = e.flipped.as_ref().unwrap_or_else(|| panic!("{}: the checker's branch is flipped", e.mode));
        assert_eq!(flip.loc.as_ref().map(|l| l.line), Some(25), "{}", e.mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("The strchr of `record`"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_read_through_strtols_end_pointer_into_shared_text_is_explained() {
    // strtol's end pointer points into the shared field at a place the
    // conversion decides; the read through it is resolved by the solver
    // and shown at the byte each schedule read (`field[2]` or `field[3]`).
    let prep = corpus("fail/libc/number_field_end_checked.c");
    let ex = failing_where(&prep, 2000, fails_at_line(28));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "number_field_end_checked");
        let text = causa_explain::text::render(&e);
        let through_end = ["read field[2]=", "read field[3]="];
        assert!(through_end.iter().any(|r| text.contains(r)), "{}: {text}", e.mode);
        assert!(text.contains("strtol field :27"), "{}: {text}", e.mode);
    }
}

#[test]
fn a_strcat_past_the_failing_run_is_paired_with_the_model_and_credited_its_bytes() {
    // The producer's strcat runs only in the alternate. Its event in the
    // replayed run is at the old string's end (reply+1), the model's at
    // the buffer: they were not paired, the alternate lost the strcat and
    // the DSP was empty. And only the bytes it appended come from it: the
    // model writes the whole buffer, keeping the old bytes.
    let prep = corpus("fail/libc/message_completed_after_flag.c");
    let ex = failing_where(&prep, 2000, fails_at_line(32));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "message_completed_after_flag");
        let text = causa_explain::text::render(&e);
        assert!(text.contains("strcat reply :23"), "{}: {text}", e.mode);
        // Its reads of the buffer it appends to are part of its write, not
        // data flows of their own.
        assert!(!text.contains("(in strcat reply"), "{}: {text}", e.mode);
        assert!(
            text.contains("reply byte 1 (in atoi reply, thread 0.1 at message_completed_after_flag.c:31): read what thread 0.2 wrote at line 21 → read what thread 0.2 wrote at line 23"),
            "{}: {text}",
            e.mode
        );
        // Byte 0, the '4' the strcpy wrote, is not the strcat's.
        assert!(!text.contains("reply bytes 0–1 (in atoi"), "{}: {text}", e.mode);
        // The parts, each from another write in the failing schedule, all
        // come from the strcat in the alternate: one order violation, and
        // the flag raised before the strcat is the fix.
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("Order violation: `consumer` (thread 0.1) parses a number from `reply` at message_completed_after_flag.c:31 before `producer` (thread 0.2) appends to it at message_completed_after_flag.c:23"),
            "{}: {summary}",
            e.mode
        );
        assert!(
            summary.contains("writing `reply` (message_completed_after_flag.c:23) before `ready` (message_completed_after_flag.c:22) avoids the failure"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_buffer_filled_with_read_from_a_descriptor_is_explained() {
    // open, read and close of a descriptor: symbolic execution takes the
    // descriptor, the bytes and the result from the recorded path (format
    // 8; before, each was unsupported there), and read() into the shared
    // buffer is one visible write. main is taken further (it had not
    // opened the file when the worker failed).
    let prep = corpus("fail/libc/settings_read_with_descriptor.c");
    let ex = failing_where(&prep, 2000, |ex| fails_at_line(24)(ex) && main_writes_nothing(ex));
    for e in explained_modes(&prep, &ex) {
        assert!(e.alternate.is_some() && e.alternate_passes(), "{}: an alternate that runs to the end", e.mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("parses a number from `settings` at settings_read_with_descriptor.c:23 before `main` (thread 0) reads from a file into it at settings_read_with_descriptor.c:39"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_reading_parsed_with_sscanf_between_two_writes_is_explained() {
    // sscanf of a string in shared memory: one event reading it to the end
    // of its object, the conversions followed over its bytes (before, it
    // was "unsupported in symbolic execution: `sscanf` of a string in
    // shared memory"). main parses between the sensor's strcpy and strcat.
    let prep = corpus("fail/libc/reading_parsed_before_unit.c");
    let ex = failing_where(&prep, 2000, fails_at_line(32));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "reading_parsed_before_unit");
        let text = causa_explain::text::render(&e);
        assert!(
            text.contains("reading bytes 3–4 (in sscanf from reading, thread 0 at reading_parsed_before_unit.c:28): read the initial value → read what thread 0.1 wrote at line 19"),
            "{}: {text}",
            e.mode
        );
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("`main` (thread 0) parses `reading` at reading_parsed_before_unit.c:28 before `sensor` (thread 0.1) appends to it at reading_parsed_before_unit.c:19"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_header_parsed_in_hex_before_its_length_is_written_is_explained() {
    // sscanf's literals, a hex and a decimal conversion over shared text:
    // the consumer parses the new id with the placeholder length.
    let prep = corpus("fail/libc/header_parsed_before_length.c");
    let ex = failing_where(&prep, 2000, fails_at_line(35));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "header_parsed_before_length");
        let text = causa_explain::text::render(&e);
        assert!(
            text.contains("header bytes 10–11 (in sscanf from header, thread 0.2 at header_parsed_before_length.c:27): read what thread 0.1 wrote at line 18 → read what thread 0.1 wrote at line 19"),
            "{}: {text}",
            e.mode
        );
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("`consumer` (thread 0.2) parses `header` at header_parsed_before_length.c:27 before `producer` (thread 0.1) copies a string into it at header_parsed_before_length.c:19"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_command_word_parsed_before_its_argument_is_explained() {
    // sscanf's `%s` of shared text into main's own buffer: the word's
    // bytes, and the first of them tested, depend on what the parse read.
    let prep = corpus("fail/libc/command_parsed_before_argument.c");
    let ex = failing_where(&prep, 2000, fails_at_line(32));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "command_parsed_before_argument");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("`main` (thread 0) parses `command` at command_parsed_before_argument.c:27 before `controller` (thread 0.1) appends to it at command_parsed_before_argument.c:18"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_name_measured_through_a_pointer_swapped_between_reads_is_explained() {
    // strlen through a pointer another thread swaps between two buffers:
    // the string's address is computed from shared data (it was reported
    // as unsupported); the explanation names the stale pointer's read.
    let prep = corpus("fail/libc/profile_name_swapped_between_reads.c");
    let ex = failing_where(&prep, 2000, fails_at_line(31));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "profile_name_swapped_between_reads");
        // The failing run reads the new index and the old name; the
        // alternate either reads both new (the pointer's flow differs,
        // named as the profile it points to) or both old (the index's).
        let text = causa_explain::text::render(&e);
        let pointer = "active_name (thread 0.2 at profile_name_swapped_between_reads.c:27): read &profiles[0] (initial value) → read &profiles[1] from thread 0.1 line 20";
        let index = "active (thread 0.2 at profile_name_swapped_between_reads.c:26): read 1 from thread 0.1 line 19 → read 0 (initial value)";
        assert!(text.contains(pointer) || text.contains(index), "{}: {text}", e.mode);
        assert!(text.contains("read active_name=&profiles[0] :27"), "{}: {text}", e.mode);
    }
}

#[test]
fn a_mode_compared_through_a_pointer_swapped_later_is_explained() {
    // atoi and strcmp through pointers a thread followed later in
    // symbolic execution swaps: its writes are candidates only in the
    // second pass (without them the failing run's mode was ruled out).
    let prep = corpus("fail/libc/mode_checked_through_stale_pointer.c");
    let ex = failing_where(&prep, 2000, fails_at_line(32));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "mode_checked_through_stale_pointer");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("`worker` (thread 0.1) reads `limit` at mode_checked_through_stale_pointer.c:27 before `supervisor` (thread 0.2) writes it at mode_checked_through_stale_pointer.c:21, and sees &limits[0] (initial value)"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_buffer_published_before_it_is_filled_is_explained() {
    // strcpy through a pointer swapped to a buffer filled after the swap:
    // the copy's bytes come from the fill only in the alternate, and the
    // summary says to fill the buffer before publishing it.
    let prep = corpus("fail/libc/buffer_published_before_filled.c");
    let ex = failing_where(&prep, 2000, fails_at_line(29));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "buffer_published_before_filled");
        let text = causa_explain::text::render(&e);
        assert!(
            text.contains("lines[1] (thread 0.2 at buffer_published_before_filled.c:27): read the initial value → read what thread 0.1 wrote at line 19"),
            "{}: {text}",
            e.mode
        );
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("writing `lines[1]` (buffer_published_before_filled.c:19) before `current` (buffer_published_before_filled.c:18) avoids the failure"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_pointer_written_by_a_thread_followed_later_is_not_pinned_to_its_old_value() {
    // The worker is followed first in symbolic execution; the pointer it
    // reads was pinned to its initial value, the only one written so far,
    // which ruled out the failing run (it read the new one): "no schedule
    // of the recorded paths reaches the failure". The second pass knows the
    // reloader's write.
    let prep = corpus("fail/realistic/config_swapped_before_version.c");
    let ex = failing_where(&prep, 2000, fails_at_line(22));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "config_swapped_before_version");
        let text = causa_explain::text::render(&e);
        assert!(text.contains("read current=&configs[1] :19"), "{}: {text}", e.mode);
    }
}

#[test]
fn a_name_measured_through_a_field_of_a_swapped_pointer_is_explained() {
    // strlen(c->name), where `c` is read from a pointer another thread
    // swaps: the string's address is read through a computed address, its
    // possible values those of the `name` fields the pointer can reach
    // (one of them written with strcpy, in words: cut into bytes there).
    let prep = corpus("fail/libc/config_name_through_stale_pointer.c");
    let ex = failing_where(&prep, 2000, fails_at_line(32));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "config_name_through_stale_pointer");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("`current` at config_name_through_stale_pointer.c:29"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_count_bumped_outside_a_list_walked_with_strcmp_is_explained() {
    // The indexers skip a word already in the list (strcmp of each node's
    // text, the nodes linked by copies of the head pointer): the model
    // follows the strings along the links (it was "unsupported: strcmp
    // through a pointer computed from shared data"), and the explanation
    // is the lost update of `distinct`.
    let prep = corpus("fail/realistic/word_index_racy_total.c");
    let ex = failing_where(&prep, 2000, fails_at_line(58));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "word_index_racy_total");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("`distinct`") && summary.contains("word_index_racy_total.c:36"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_count_bumped_outside_a_list_whose_texts_are_read_by_letter_is_explained() {
    // `t->text[0]`: a load through a pointer read through a list's link
    // (the links are copies of the head pointer). Its possible addresses
    // are the texts the links reach (it was "an access through a symbolic
    // address whose possible targets are unknown").
    let prep = corpus("fail/realistic/tag_list_racy_count.c");
    let ex = failing_where(&prep, 2000, fails_at_line(51));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "tag_list_racy_count");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("`tag_count`") && summary.contains("tag_list_racy_count.c:36"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_log_cleared_after_a_line_is_appended_is_explained() {
    // strcat of the shared log onto the shared output (both lengths the
    // schedule decides; it was "unsupported: `strcat` from shared
    // memory"): the flusher's clear comes after the logger's append in
    // the failing schedule, before it in the alternate.
    let prep = corpus("fail/libc/log_appended_while_flushed.c");
    let ex = failing_where(&prep, 2000, fails_at_line(40));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "log_appended_while_flushed");
        let text = causa_explain::text::render(&e);
        assert!(text.contains("strcat log_text :20"), "{}: {text}", e.mode);
        assert!(text.contains("write log_text[0]=0 :28"), "{}: {text}", e.mode);
    }
}

#[test]
fn a_shared_word_appended_to_a_private_line_before_it_is_set_is_explained() {
    // strcat of a shared string onto the thread's own buffer: copied at
    // the buffer's known end, its bytes the shared ones.
    let prep = corpus("fail/libc/status_appended_before_set.c");
    let ex = failing_where(&prep, 2000, fails_at_line(27));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "status_appended_before_set");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("`state`") && summary.contains("status_appended_before_set.c:17"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_hash_table_whose_buckets_are_walked_with_strcmp_is_explained() {
    // Three inserters, lists per bucket walked with strcmp; main walks
    // nothing before the failing assertion, the inserters' walks read
    // nodes other inserters link in (followed in a second pass). The
    // default mode (the others take seconds on its 190 events).
    let prep = corpus("fail/realistic/hash_table_racy_count.c");
    let ex = failing_where(&prep, 2000, fails_at_line(123));
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "hash_table_racy_count");
    let summary = causa_explain::summary::summary(&e);
    assert!(
        summary.contains("`count` (hash_table_racy_count.c:68)")
            || summary.contains("`count` at hash_table_racy_count.c:68"),
        "{summary}"
    );
    // `extra[id]` holds pointers to string literals: shown as the literals,
    // not as clang's names for them (`&.str.7`).
    let values: Vec<&String> = e.failing_values.values().chain(e.alternate_values.values()).collect();
    assert!(values.iter().any(|v| *v == "\"grape\"" || *v == "\"honeydew\""), "{values:?}");
    assert!(values.iter().all(|v| !v.contains(".str")), "{values:?}");
}

#[test]
fn a_lock_pointer_another_thread_moves_later_keeps_its_first_pass_pin() {
    // The second symbolic execution, knowing the mover's write, does not
    // pin the worker's lock pointer, and a lock needs a known address: the
    // first pass's trace (the pointer pinned to the lock the run took) is
    // kept, as before the second pass existed.
    let prep = corpus("fail/mutex/lock_pointer_moved_later.c");
    let ex = failing_where(&prep, 2000, fails_at_line(41));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "lock_pointer_moved_later");
    }
}

#[test]
fn a_check_then_act_on_a_list_is_explained_by_the_check_of_the_same_name() {
    // Two threads sign up "alice", one "bob"; the check and the add are
    // separate critical sections. No order of the failing run's paths
    // avoids two "alice" nodes: a branch must flip. Bob's walk of the list
    // flipped passed only by leaving an "alice" thread's check past the
    // schedule's end, to run after the other's add (its most similar
    // schedules failed); the flip is the check of an "alice" thread.
    let prep = corpus("fail/realistic/signup_name_checked_then_added.c");
    let ex = failing_where(&prep, 2000, fails_at_line(66));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "signup_name_checked_then_added");
        let text = causa_explain::text::render(&e);
        let f = e.flipped.as_ref().unwrap_or_else(|| panic!("{}: a branch flipped: {text}", e.mode));
        let (thread, line) = (e.threads[f.thread].to_string(), f.loc.as_ref().map(|l| l.line));
        assert!(
            matches!((thread.as_str(), line), ("0.1" | "0.3", Some(27 | 28))),
            "{}: {thread} {line:?}: {text}",
            e.mode
        );
        // The accesses between the check and the add are in `taken` and
        // `add`: the thread is named by its start routine.
        let summary = causa_explain::summary::summary(&e);
        assert!(
            !summary.contains("`taken` (thread 0.1)'s read") && !summary.contains("`taken` (thread 0.3)'s read"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_ring_slot_filled_after_it_is_published_is_explained() {
    // `strcpy(items[slot], msg)` after the lock is released: a string
    // written at an index read from shared memory (it was "unsupported:
    // strcpy through an address computed from shared data"), and
    // `head = (head + 1) % CAP`, an index computed from its own value,
    // valued by a least fixpoint for the consumer's copy out of the slot.
    let prep = corpus("fail/realistic/message_ring_filled_after_publish.c");
    let ex = failing_where(&prep, 2000, fails_at_line(48));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "message_ring_filled_after_publish");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("`items[") && summary.contains("message_ring_filled_after_publish.c:26"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_count_bumped_outside_a_ring_of_names_is_explained() {
    // Names copied into a ring's slots at its wrapping tail index under
    // the lock; the count of names added is bumped outside it.
    let prep = corpus("fail/realistic/name_ring_racy_count.c");
    let ex = failing_where(&prep, 2000, fails_at_line(42));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "name_ring_racy_count");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("`added`") && summary.contains("name_ring_racy_count.c:24"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_message_copied_into_a_queue_slot_with_strcpy_is_explained() {
    // `strcpy(q[in].text, text)`: a string written into a struct's field at
    // an index read from shared memory; the consumer waits under `if` and
    // copies out a slot the other consumer emptied.
    let prep = corpus("fail/cond/message_queue_wait_under_if.c");
    let ex = failing_where(&prep, 2000, fails_at_line(42));
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "message_queue_wait_under_if");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("without checking the condition again"), "{}: {summary}", e.mode);
    }
}

#[test]
fn consumers_expecting_more_messages_than_are_sent_are_told_so() {
    // Three messages, two consumers expecting two each, all waiting in a
    // loop on the count. The summary said the signals came "before the
    // wait" and were lost (advising a predicate loop, which the consumers
    // have), or, with the consumers started first, that a signal woke the
    // wrong waiter (advising a broadcast): the other consumer took each
    // message. Both creation orders.
    let path = "fail/cond/consumers_expect_more_than_sent.c";
    let full = format!("{}/../../tests/programs/{path}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&full).expect("the corpus program");
    let producer = "    pthread_create(&p, NULL, producer, NULL);\n";
    let consumers_first = src.replacen(producer, "", 1).replacen(
        "    pthread_join(p, NULL);",
        &format!("{producer}    pthread_join(p, NULL);"),
        1,
    );
    assert_ne!(src, consumers_first);
    for (name, src) in [("sent.c", &src), ("consumers_first.c", &consumers_first)] {
        let prep = load(name, src);
        let ex = deadlocking(&prep, 200);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.lost_signals.is_empty(), "{name}: {summary}");
        assert_eq!(e.exhausted.len(), 1, "{name}: {summary}");
        assert!(summary.contains("No signal was lost or woke the wrong thread"), "{name}: {summary}");
        assert!(summary.contains("signals `nonempty` 3 times"), "{name}: {summary}");
        assert!(summary.contains("`consumer` (threads"), "{name}: {summary}");
        assert!(!summary.contains("broadcast") && !summary.contains("is lost"), "{name}: {summary}");
    }
}

#[test]
fn a_shutdown_signal_that_wakes_one_of_two_waiting_workers_is_told_as_such() {
    // Main sets a shutdown flag and signals once, without the lock. Either
    // both workers wait: the woken one sees the flag and leaves, the other
    // waits forever (the summary said the waiters took back what the
    // signals announced and that "waking more waiters … does not avoid
    // this deadlock", which is the fix); or the flag and the signal fall
    // between a worker's check under the lock and its wait (the
    // explanation failed: the model required the blocked worker to step
    // last, and the other worker's return was last). `causa check`'s
    // deadlock is the first kind; the two deadlocking runs of 2,000 random
    // schedules are the second.
    let prep = corpus("fail/cond/shutdown_signals_one_of_two_workers.c");
    let r = causa_explore::mcr::check(&prep, &config(), &causa_explore::mcr::McrOptions::default(), &mut |_, _| {});
    let causa_explore::mcr::McrVerdict::Bug(checked) = r.verdict else { panic!("check found no bug") };
    let deadlocks = |ex: &Execution| ex.outcome.finding().is_some_and(|f| f.kind == causa_core::BugKind::Deadlock);
    let runs = [*checked, nth_failing(&prep, 0, deadlocks), nth_failing(&prep, 1, deadlocks)];
    let (mut woke_one, mut lost) = (0, 0);
    for (n, ex) in runs.iter().enumerate() {
        let e = in_mode(&prep, ex, Mode::Progressive);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.exhausted.is_empty(), "run {n}: {summary}");
        assert!(!summary.contains("does not avoid this deadlock"), "run {n}: {summary}");
        let at = "shutdown_signals_one_of_two_workers.c:60";
        let broadcast = summary.contains("a signal wakes one waiter only")
            && summary.contains(&format!("Waking every waiter (`pthread_cond_broadcast`) at {at}"));
        let unlocked = summary.contains(&format!("sent at {at}, before the wait"))
            && summary.contains("The signaller does not hold `qm`");
        assert!(broadcast || unlocked, "run {n}: {summary}");
        // With two workers that may wait, holding the lock alone does not
        // avoid the deadlock "in every order": a broadcast must be named.
        assert!(
            !summary.contains("in every order") || summary.contains("`pthread_cond_broadcast`"),
            "run {n}: {summary}"
        );
        woke_one += usize::from(broadcast);
        lost += usize::from(unlocked);
    }
    assert!(woke_one > 0 && lost > 0, "both kinds of run: {woke_one} and {lost}");
}

#[test]
fn a_flip_whose_first_schedule_fails_is_asked_for_its_most_similar_one() {
    // Three threads retain and release a buffer with unlocked `refs++` and
    // `refs--`; the failing run frees it while a worker still uses it. The
    // Max SMT modes find an order of the run's paths that avoids it; in
    // Symbiosis mode no inverted pair does, and the first schedule the
    // solver gives for each branch flip fails on replay, so no flip was
    // accepted and there was no alternate. The most similar schedule of
    // the flip of the release's check (line 43) passes.
    let prep = corpus("fail/realistic/refcount_nonatomic_release.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        assert_explained(&e, "refcount_nonatomic_release");
        if mode == Mode::Symbiosis {
            let at = e.flipped.as_ref().and_then(|f| f.loc.as_ref()).map(|l| l.line);
            assert_eq!(at, Some(43), "{}", causa_explain::summary::summary(&e));
        }
    }
}

/// The explanations of the corpus program `path`'s first failing run in
/// every mode, each explained ([`assert_explained`]); Symbiosis mode's
/// left out when it found no alternate.
fn explained_in_every_mode(path: &str) -> Vec<Explanation> {
    let prep = corpus(path);
    let ex = failing_where(&prep, 2000, |_| true);
    let all = Mode::ALL.into_iter().map(|mode| in_mode(&prep, &ex, mode));
    let found: Vec<Explanation> = all.filter(|e| e.mode != Mode::Symbiosis || e.alternate.is_some()).collect();
    for e in &found {
        assert_explained(e, path);
    }
    found
}

#[test]
fn results_passed_back_through_pthread_join_are_followed() {
    // Each program's failure depends on what its threads returned, taken by
    // pthread_join into main's own variables, a global table, or from
    // pthread_exit. Without the joins' results tied to the threads'
    // returns, symbolic execution saw the old contents of the variables:
    // the explanation said no schedule avoids the failure (ticket, table,
    // exit) or the path log did not fit the program (the swap loop).
    for path in [
        "fail/basic/ticket_returned_through_join.c",
        "fail/basic/results_joined_into_global.c",
        "fail/basic/exit_value_before_data.c",
    ] {
        // (Symbiosis mode's one inverted pair cannot undo two lost updates
        // of the table's counter: it flips main's comparison.)
        for e in explained_in_every_mode(path).iter().filter(|e| e.mode != Mode::Symbiosis) {
            assert!(e.flipped.is_none(), "{path} {}: {}", e.mode, causa_explain::text::render(e));
        }
    }
    // The swap loop's retry stores the target computed before the other
    // thread spent: only a thread whose first swap succeeds avoids it (a
    // branch flipped at the loop's test), reading the balance after the
    // other's swap.
    let path = "fail/atomics/cas_target_not_recomputed.c";
    let explained = explained_in_every_mode(path);
    assert!(explained.len() >= Mode::ALL.len() - 1, "{path}: {} modes explained", explained.len());
    for e in &explained {
        let at = e.flipped.as_ref().and_then(|f| f.loc.as_ref()).map(|l| l.line);
        assert_eq!(at, Some(19), "{}: {}", e.mode, causa_explain::text::render(e));
    }
}

#[test]
fn a_bulk_reads_other_fields_count_as_data_flows_to_keep() {
    // `memcmp` of a two-field setting is one access in the model, at the
    // struct's first field. The Max SMT modes kept its data flow from the
    // first field only: an alternate that moved the writer's store to the
    // second field before the `memcmp` as well (a second data flow that
    // differs, which the DSP counts) was as good to the solver as one that
    // moves it only before the later read, and was chosen when Z3's first
    // model changed. Every field the `memcmp` reads now counts.
    let prep = corpus("fail/libc/memcmp_torn_snapshot.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for mode in [Mode::MaxSmt, Mode::Lexico, Mode::Progressive] {
        let e = in_mode(&prep, &ex, mode);
        assert_explained(&e, "memcmp_torn_snapshot");
        let text = causa_explain::text::render(&e);
        assert_eq!(e.dsp.figures.data_flows, 1, "{mode}: only the read at line 28 differs: {text}");
        assert!(text.contains("current.high (thread 0 at memcmp_torn_snapshot.c:28)"), "{mode}: {text}");
    }
}

#[test]
fn a_copy_at_a_reserved_offset_is_explained_by_the_reservation() {
    // `memcpy(logbuf + at, s, len)` of a string literal at an offset read
    // from a shared end position: symbolic execution reported the copy as
    // unsupported, and the end position's values (`pos = at + len` in both
    // threads, each fed the other's) grew without bound, so the copies had
    // no candidate places. A value now never comes from a write its reader's
    // thread makes after the read: the offsets are 0, 5, 6 and 11.
    let prep = corpus("fail/realistic/log_reserved_outside_lock.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "log_reserved_outside_lock");
        assert_named(&e, "log_reserved_outside_lock");
        let summary = causa_explain::summary::summary(&e);
        let fix = held_over_fix("log_reserved_outside_lock.c", (22, 24), "21–25");
        assert!(summary.contains(&fix), "{mode}: {summary}");
    }
}

/// `causa check`'s failing run of the corpus program at `path`, replayed
/// with its values recorded (as `causa check` does before it explains),
/// explained in progressive mode, and its summary.
fn check_run_explained(path: &str) -> (Explanation, String) {
    let prep = corpus(path);
    let opts = causa_explore::mcr::McrOptions::default();
    let r = causa_explore::mcr::check(&prep, &config(), &opts, &mut |_, _| {});
    let causa_explore::mcr::McrVerdict::Bug(ex) = r.verdict else { panic!("{path}: check found no bug") };
    let ex = causa_explore::replay(&prep, &config(), &causa_explore::schedule_of(&prep, &ex));
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    (e, summary)
}

#[test]
fn an_aba_pop_is_told_by_the_stale_link_it_read() {
    // The popper's CAS succeeds on a node another thread popped and pushed
    // back, installing the `next` it read before: main's count walks a
    // list one node too long. The alternate flips the popper's CAS (it
    // fails, the node not yet back). The summary told the region (the
    // recycler's accesses to `top` between the popper's read and its CAS)
    // and the data flows; it now tells the value that came back, the
    // stale link installed, and the fixes that keep the CAS.
    // (Before the flips were asked first with every computed address at
    // σ's location, the flip taken was main's loop, a shorter list, and
    // the summary told only the popper's read of `nodes[0].next`, no
    // region.) (`causa check`'s failing run.)
    let (e, summary) = check_run_explained("fail/atomics/aba_stack_reused_node.c");
    assert_explained(&e, "aba_stack_reused_node");
    assert!(e.alternate_passes(), "{summary}");
    assert!(e.flipped.is_some(), "{summary}");
    let f = "aba_stack_reused_node.c";
    for said in [
        format!("`pop` (thread 0.1) reads `top` (&nodes[0]) at {f}:28 and `nodes[0].next` (&nodes[1]) at {f}:31, then updates `top` from &nodes[0] to &nodes[1] at {f}:32 in one atomic step"),
        format!("`recycler` (thread 0.2) changed `top` from &nodes[0] (at {f}:32) and back to &nodes[0] (at {f}:22), and `nodes[0].next` became &nodes[2] (at {f}:21)"),
        "installs the stale &nodes[1] (the ABA problem)".to_string(),
        "In the alternate the update fails".to_string(),
        "Pairing `top` with a counter".to_string(),
        format!("making {f} lines 28–32 atomic"),
    ] {
        assert!(summary.contains(&said), "{said}: {summary}");
    }
    // Every mode, on the first three random failing runs too.
    for (n, e, summary) in summaries_of_three_runs("fail/atomics/aba_stack_reused_node.c") {
        assert!(e.alternate_avoids_failure(), "run {n}, {}: {summary}", e.mode);
        assert!(summary.contains("(the ABA problem)"), "run {n}, {}: {summary}", e.mode);
    }
}

#[test]
fn a_sequence_lock_reader_that_tests_seq_only_before_its_reads_is_told_so() {
    // The reader reads `seq`, then `x` and `y`, and retries only while the
    // first `seq` is odd; the writer makes `seq` odd after the reader's
    // read and writes `x` before the reader reads it. The summary told one
    // lock over both writes and both reads (the data flows alone); it now
    // names the counter, the writer's update after the reader's read, and
    // the missing second check.
    let path = "fail/basic/seqlock_checked_before_reads_only.c";
    let f = "seqlock_checked_before_reads_only.c";
    let runs = summaries_of_three_runs(path);
    assert!(!runs.is_empty());
    for (n, e, summary) in runs {
        for said in [
            format!("`reader` (thread 0.2) reads `seq` (0) at {f}:29 and tests it, then reads `x` and `y` (at {f}:30 and {f}:31)"),
            format!("`writer` (thread 0.1) updates `seq` (0→1) at {f}:19 before writing them, after the reader's read of `seq`, and the reader does not read `seq` again"),
            "Reading `seq` again after the reads and retrying unless it still holds the value read first (a sequence lock's second check) avoids the failure".to_string(),
        ] {
            assert!(summary.contains(&said), "run {n}, {}: {said}: {summary}", e.mode);
        }
    }
    // A reader that reads `seq` again after the pair (the corpus'
    // seqlock_bumped_after_write.c) is not told so, nor a deque's owner
    // that reads `top` and then takes a task the thief's update of `top`
    // claims (it was: the thief's write of its own count, read by main
    // long after, stood for the data).
    for other in ["fail/basic/seqlock_bumped_after_write.c", "fail/atomics/deque_last_task_taken_twice.c"] {
        for (n, e, summary) in summaries_of_three_runs(other) {
            assert!(!summary.contains("second check"), "{other} run {n}, {}: {summary}", e.mode);
        }
        let (_, summary) = check_run_explained(other);
        assert!(!summary.contains("second check"), "{other}, causa check's run: {summary}");
    }
}

#[test]
fn a_task_the_thief_claims_and_the_owner_takes_unclaimed_is_told_so() {
    // A work-stealing deque: the thief reads `tasks[0]` and claims it with
    // a compare-and-exchange of `top`; the owner read `top` before that
    // claim and takes the same task without it. The summary told only the
    // data flows (the owner's read of `top` and main's count of 2).
    let path = "fail/atomics/deque_last_task_taken_twice.c";
    let f = "deque_last_task_taken_twice.c";
    let want = [
        "`pop` (thread 0) and `steal` (thread 0.1) both take `tasks[0]` (0)".to_string(),
        format!("`steal` (thread 0.1) reads it at {f}:43 and claims it by updating `top` (0→1) at {f}:44 in one atomic step"),
        format!("`pop` (thread 0) read `top` (0) at {f}:30, before that claim, and takes `tasks[0]` at {f}:35 without claiming it"),
        "a compare-and-swap of `top` from the value read".to_string(),
    ];
    let (e, summary) = check_run_explained(path);
    assert!(e.alternate_avoids_failure(), "{summary}");
    for said in &want {
        assert!(summary.contains(said.as_str()), "causa check's run: {said}: {summary}");
    }
    for (n, e, summary) in summaries_of_three_runs(path) {
        assert!(summary.contains(want[0].as_str()), "run {n}, {}: {summary}", e.mode);
    }
}

#[test]
fn an_snprintf_appended_at_a_shared_offset_is_explained() {
    // `snprintf(report + at, sizeof report - at, …)` with `at` read from
    // shared data: the bound was "a value computed from shared data" and
    // the destination a symbolic address, both reported unsupported. The
    // bound is now taken on the path where it leaves room for the output,
    // and the bytes are one write through the computed address, shown as
    // the text they are.
    let prep = corpus("fail/libc/report_appended_at_shared_offset.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "report_appended_at_shared_offset");
        assert_named(&e, "report_appended_at_shared_offset");
        let summary = causa_explain::summary::summary(&e);
        let fix = held_over_fix("report_appended_at_shared_offset.c", (22, 24), "21–25");
        assert!(summary.contains(&fix), "{mode}: {summary}");
        let text = causa_explain::text::render(&e);
        assert!(text.contains("write report=\"w") || text.contains("write report+3=\"w"), "{mode}: {text}");
    }
}

#[test]
fn an_snprintf_cut_short_at_a_shared_offset_is_reported_not_explained() {
    // The same append with a buffer too small for both names: the second
    // output is cut short in the run, which the model (one write of the
    // whole output, on the path where it fits) does not follow.
    let src = std::fs::read_to_string(format!(
        "{}/../../tests/programs/fail/libc/report_appended_at_shared_offset.c",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the corpus program")
    .replace("static char report[128];", "static char report[8];")
    .replace("\"w%d \"", "\"w%d----\"")
    .replace("== 6", "== 12");
    let prep = load("report_cut_short.c", &src);
    // (A run where the second appends after the first: its output is cut.)
    let ex = failing_where(&prep, 2000, |ex| ex.records.iter().any(|r| r.width == Some(2) && r.span().is_some()));
    let err = explain(&prep, &config(), &ex, &ExplainOptions::default()).expect_err("cut short: not explained");
    let text = err.to_string();
    assert!(text.contains("was cut short to 2 in the failing run"), "{text}");
    assert!(text.contains("(at report_cut_short.c:23)"), "{text}");
}

#[test]
fn reads_of_data_published_after_its_flag_are_told_in_one_sentence() {
    // A table filled after `ready` is announced, summed by a consumer that
    // waited for `ready`: three order violations of one reader line and one
    // writer line, each told in a sentence of its own with the same fix.
    // Now one sentence names the three reads and the one fix.
    let prep = corpus("fail/cond/ready_announced_before_data.c");
    let opts = causa_explore::mcr::McrOptions::default();
    let r = causa_explore::mcr::check(&prep, &config(), &opts, &mut |_, _| {});
    let causa_explore::mcr::McrVerdict::Bug(ex) = r.verdict else { panic!("check found no bug") };
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "ready_announced_before_data");
    let summary = causa_explain::summary::summary(&e);
    assert_eq!(summary.matches("Order violation").count(), 1, "{summary}");
    assert!(
        summary.contains("reads `data[0]`, `data[1]` and `data[2]` at ready_announced_before_data.c:32"),
        "{summary}"
    );
    assert!(summary.contains("writing `data[0]`, `data[1]` and `data[2]` (ready_announced_before_data.c:22) before `ready` (ready_announced_before_data.c:19) avoids the failure"), "{summary}");
}

#[test]
fn a_free_between_the_read_and_write_of_one_increment_is_told_from_the_pointer_read() {
    // `s->active++` on a session taken from `sess` under the lock and used
    // after the unlock; the free comes between the increment's read and
    // its write. The region to keep together was that statement alone
    // ("making line 32 atomic"), which a free before the read would still
    // break; it now starts at the pointer read, and the fix is the lock's
    // release after the use.
    let prep = corpus("fail/memory/session_used_after_unlock.c");
    // (A run whose free comes after the increment's read.)
    let ex = failing_where(&prep, 2000, |ex| {
        let at = |p: &dyn Fn(&causa_core::event::EventRecord) -> bool| ex.records.iter().position(p);
        let read = at(&|r| r.kind == causa_core::EventKind::Read && r.object.as_deref() == Some("heap#1.active"));
        let free = at(&|r| r.kind == causa_core::EventKind::Free);
        matches!((read, free), (Some(a), Some(b)) if a < b)
    });
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "session_used_after_unlock");
    let summary = causa_explain::summary::summary(&e);
    assert!(
        summary.contains("`touch` (thread 0.1) releases `m` at session_used_after_unlock.c:30, before its access to the freed block at session_used_after_unlock.c:32"),
        "{summary}"
    );
    assert!(summary.contains("holding it over session_used_after_unlock.c lines 29–32"), "{summary}");
}

#[test]
fn a_write_under_a_read_lock_is_told_as_such() {
    // Counters bumped while holding a read-write lock for reading: both
    // threads are inside it together. The fix said "making line 19 atomic";
    // it now says the lock is held only for reading, and to take it for
    // writing.
    let prep = corpus("fail/sync/rwlock_write_under_read.c");
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&e, "rwlock_write_under_read");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("both sides hold `stats_lock`, but only for reading (`pthread_rwlock_rdlock` at rwlock_write_under_read.c:18)"),
            "run {n}: {summary}"
        );
        assert!(summary.contains("taking `stats_lock` for writing (`pthread_rwlock_wrlock`)"), "run {n}: {summary}");
    }
}

#[test]
fn an_overwrite_is_told_only_of_the_place_the_read_reads() {
    // Two consumers share a ring's read index: a read of `buf[out]` reaches
    // `buf[1]` in the failing schedule and `buf[0]` in the alternate. The
    // summary said the producer "runs line 19 again and writes `buf[1]` (4)
    // before" the read, "which was to see the earlier write (3)": that
    // write was to `buf[0]`. An overwrite is told only when both writes
    // are to the same place. (Thirteen failing runs: most alternates keep
    // `out`'s writes in order and tell the update's lines to be made
    // atomic instead.)
    let prep = corpus("fail/sync/semaphore_ring_shared_index.c");
    let (mut told, mut fixed) = (0, 0);
    for ex in [causa_explore::mcr::check(&prep, &config(), &Default::default(), &mut |_, _| {}).verdict]
        .into_iter()
        .filter_map(|v| match v {
            causa_explore::mcr::McrVerdict::Bug(ex) => Some(*ex),
            _ => None,
        })
        .chain((0..12).map(|n| nth_failing(&prep, n, |_| true)))
    {
        // (As `causa check` shows it: with the fewest preemptions.)
        let (ex, _) =
            causa_explore::minimize::fewer_preemptions(&prep, &config(), ex, causa_explore::minimize::EDIT_BUDGET);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let summary = causa_explain::summary::summary(&e);
        for sentence in summary.split(". ") {
            let Some((_, rest)) = sentence.split_once("again and writes `") else { continue };
            let object = rest.split('`').next().unwrap_or_default();
            assert!(sentence.contains(&format!("read of `{object}`")), "{summary}");
            told += 1;
        }
        assert!(!summary.contains("writes `buf[1]` (4) before"), "{summary}");
        // The consumers' read and update of `out` are one update: the
        // fix is a lock over both lines, not a barrier.
        if summary.contains("again and writes `out`") {
            let fix = "Both threads read `out` at semaphore_ring_shared_index.c:31 and write it at semaphore_ring_shared_index.c:32 with no lock held over the two: holding one lock over semaphore_ring_shared_index.c lines 31–32 avoids the failure";
            assert!(summary.contains(fix), "{summary}");
            fixed += 1;
        }
    }
    assert!(told > 0, "some overwrite of `out` is told");
    assert!(fixed > 0, "some fix of the update of `out` is told");
}

#[test]
fn a_message_wider_than_a_register_stored_at_a_shared_index_is_explained() {
    // `ring[t] = out` of a 24-byte struct at a slot index read under the
    // lock, claimed after the copy: symbolic execution stopped at "memcpy
    // through an address computed from shared data" (one expression holds
    // at most 16 bytes). The copy is now one bulk write through the
    // computed address, in pieces, which the model places among the slots
    // the index can take: every mode explains it by the claim's region,
    // and the alternate's second message lands in `ring[1]`.
    let prep = corpus("fail/realistic/message_stored_before_slot_claimed.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "message_stored_before_slot_claimed");
        assert_flows_join_one_object(&e, "message_stored_before_slot_claimed");
        let summary = causa_explain::summary::summary(&e);
        let fix = held_over_fix("message_stored_before_slot_claimed.c", (30, 32), "29–33");
        assert!(summary.contains(&fix), "{mode}: {summary}");
        let text = causa_explain::text::render(&e);
        assert!(text.contains("memcpy ring[1] :31"), "{mode}: {text}");
    }
}

#[test]
fn a_wide_message_copied_out_before_it_is_stored_is_an_order_violation() {
    // The producer advances `tail` before `ring[t % 4] = m`; the consumer
    // copies `ring[head % 4]` out whole (24 bytes, a bulk read through the
    // computed address whose targets the model finds from `head`'s
    // writes) and sees the empty slot. The alternate puts the producer's
    // copy (a bulk write through its computed address) first.
    let prep = corpus("fail/realistic/message_published_before_copy.c");
    let ex = failing_where(&prep, 2000, fails_at_line(43));
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "message_published_before_copy");
        let summary = causa_explain::summary::summary(&e);
        // (Which slot depends on the run: the first message's or the second's.)
        let slot = ["ring[0]", "ring[1]"].into_iter().find(|s| summary.contains(&format!("copies `{s}`")));
        let Some(slot) = slot else { panic!("{mode}: {summary}") };
        assert!(summary.contains("Order violation: `consumer` (thread 0.1) copies"), "{mode}: {summary}");
        let fix = format!("writing `{slot}` (message_published_before_copy.c:30) before `tail`");
        assert!(summary.contains(&fix), "{mode}: {summary}");
    }
}

#[test]
fn lines_longer_than_sixteen_bytes_appended_at_a_shared_offset_are_explained() {
    // `memcpy(logbuf + at, text, len)` of 30 and 24 bytes of string
    // literals at an offset read under the lock: the copies were reported
    // as more than 16 bytes to an address computed from shared data.
    let prep = corpus("fail/libc/long_lines_appended_at_shared_offset.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "long_lines_appended_at_shared_offset");
        let summary = causa_explain::summary::summary(&e);
        let fix = held_over_fix("long_lines_appended_at_shared_offset.c", (19, 21), "18–22");
        assert!(summary.contains(&fix), "{mode}: {summary}");
    }
}

#[test]
fn a_slot_cleared_at_a_shared_index_is_explained() {
    // `memset(&table[i], 0, sizeof table[i])` of a 32-byte slot at an
    // index read under the lock: reported as "memset through an address
    // computed from shared data" before. The bytes are now one write
    // through the computed address, in pieces.
    let prep = corpus("fail/realistic/slot_cleared_outside_lock.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        let mode = e.mode;
        assert_explained(&e, "slot_cleared_outside_lock");
        let summary = causa_explain::summary::summary(&e);
        let fix = held_over_fix("slot_cleared_outside_lock.c", (25, 27), "24–28");
        assert!(summary.contains(&fix), "{mode}: {summary}");
        let text = causa_explain::text::render(&e);
        assert!(text.contains("memset table[0] :26"), "{mode}: {text}");
    }
}

/// The fix told when the region's thread lets `m` go between its two
/// accesses under it (`unlock` and `lock` lines) and the other side holds
/// it: keep holding it over `lines`.
fn held_over_fix(file: &str, (unlock, lock): (u32, u32), lines: &str) -> String {
    format!(
        "releases `m` at {file}:{unlock} and takes it again at {file}:{lock}, between the two: holding `m` over {file} lines {lines} avoids the failure"
    )
}

#[test]
fn strtok_called_from_two_threads_is_told_from_the_run() {
    // Symbolic execution does not model `strtok`, so there is no
    // alternate schedule: the failing run itself shows another thread's
    // call between two calls of one thread, which moved the one position
    // `strtok` keeps for the whole process.
    let prep = corpus("fail/realistic/strtok_in_two_threads.c");
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        let r = explain(&prep, &config(), &ex, &ExplainOptions::default());
        let Err(causa_explain::ExplainError::LibraryState(s)) = r else {
            panic!("run {n}: not told from the run: {:?}", r.map(|e| causa_explain::summary::summary(&e)))
        };
        assert!(s.contains("'s call of `strtok` (strtok_in_two_threads.c:18, step "), "{s}");
        assert!(s.contains("came between two calls of `count_words` (thread 0."), "{s}");
        assert!(s.contains("`strtok_r`, with a position of each caller's own, avoids the failure"), "{s}");
    }
}

#[test]
fn waits_and_joins_no_order_avoids_are_told_by_their_rule() {
    // A condition wait without its mutex, a join of a detached thread, a
    // second join: the failing thread's own path decides them, and the
    // summary said only that no schedule avoids the failure. It now says
    // which rule the call breaks and what avoids it.
    let cases = [
        (
            "fail/cond/timedwait_without_lock.c",
            "Invalid wait: `main` (thread 0) waits at timedwait_without_lock.c:18 with `m`, which it does not hold: `pthread_cond_timedwait` releases its mutex",
        ),
        (
            "fail/sync/join_detached_attr.c",
            "Invalid join: `main` (thread 0) joins thread 0.1 at join_detached_attr.c:19, but thread 0.1 is detached",
        ),
        ("fail/sync/join_twice.c", "Invalid join: `finish` (thread 0) joins thread 0.1 at join_twice.c:21, which was joined already"),
    ];
    for (path, said) in cases {
        let prep = corpus(path);
        let ex = failing_where(&prep, 2000, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate.is_none(), "{path}: {summary}");
        assert!(summary.starts_with(said), "{path}: {summary}");
        assert!(summary.contains("avoids it."), "{path}: {summary}");
    }
}

#[test]
fn a_wait_without_its_mutex_is_told_before_the_path_that_avoids_it() {
    // The listener waits without the mutex when `ready` is still 0; the
    // alternate reads 1 and does not wait. The rule comes first, then the
    // other path (not "happens in every order, so the program must take
    // another path", which the rule already says).
    let prep = corpus("fail/cond/wait_without_lock.c");
    let ex = failing_where(&prep, 2000, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "wait_without_lock");
    let summary = causa_explain::summary::summary(&e);
    assert!(e.flipped.is_some(), "{summary}");
    // (In some runs the setter holds `m` then: said so.)
    let holder = ["which it does not hold", "which `setter` (thread 0.1) holds (locked at wait_without_lock.c:15)"];
    let lead = "Invalid wait: `listener` (thread 0.2) waits at wait_without_lock.c:25 with `m`, ";
    assert!(holder.iter().any(|h| summary.starts_with(&format!("{lead}{h}: "))), "{summary}");
    assert!(summary.contains("Locking `m` before the wait (and testing the condition under it) avoids it. In the alternate, `listener` (thread 0.2) takes the other branch at wait_without_lock.c:24"), "{summary}");
    assert!(!summary.contains("happens in every order"), "{summary}");
}

#[test]
fn a_use_after_free_no_order_avoids_says_where_the_free_was() {
    // A key's destructor frees the buffer its thread also published; main
    // reads it after the join. No order avoids it, and the summary said
    // only that: it now says who freed the block, and that the freeing
    // thread ended before main's join and read.
    let prep = corpus("fail/memory/key_destructor_frees_published.c");
    let ex = failing_where(&prep, 2000, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(e.alternate.is_none(), "{summary}");
    let said = "The block `heap@0.1#1` was freed by `release` (thread 0.1) at key_destructor_frees_published.c:15, before thread 0.1 ended, and `main` (thread 0) reads it at key_destructor_frees_published.c:31 after its join at key_destructor_frees_published.c:30";
    assert!(summary.contains(said), "{summary}");
}

#[test]
fn double_checked_locking_is_also_told_the_write_order_that_keeps_its_fast_path() {
    // The writer publishes `instance` before filling it, both under the
    // lock; the reader tests `instance` without the lock and reads a
    // field. Taking the lock in the reader avoids the failure, and so does
    // writing the field before the pointer, which keeps the fast path:
    // both are told.
    let prep = corpus("fail/realistic/dcl_singleton_publish_early.c");
    let opts = causa_explore::mcr::McrOptions::default();
    let r = causa_explore::mcr::check(&prep, &config(), &opts, &mut |_, _| {});
    let causa_explore::mcr::McrVerdict::Bug(ex) = r.verdict else { panic!("check found no bug") };
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "dcl_singleton_publish_early");
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("makes both writes holding `init_lock`"), "{summary}");
    let order = "Keeping the reader's fast path without the lock, writing `heap@0.1#1.magic` (dcl_singleton_publish_early.c:44) before `instance` (dcl_singleton_publish_early.c:38) avoids it too.";
    assert!(summary.contains(order), "{summary}");
}

#[test]
fn a_read_before_the_barrier_is_told_to_move_after_it() {
    // Each worker fills its element and meets the other at a barrier, but
    // reads the other's element before the wait: the fix was "making the
    // read wait for that write"; the barrier both reach after is the way.
    // (The last: main writes and waits in another function, at another line.)
    let main_at =
        ", and `main` (thread 0) arrives there after its write (at barrier_config_read_early.c:26): no thread";
    let worker_at = ", and `worker` (thread 0.2) arrives there after its write: no thread";
    for (path, object, line, writer) in [
        ("fail/sync/barrier_read_before_wait.c", "barrier", 21, worker_at),
        ("fail/sync/barrier_summed_too_early.c", "b", 20, worker_at),
        ("fail/sync/barrier_config_read_early.c", "phase", 16, main_at),
    ] {
        let prep = corpus(path);
        let file = path.rsplit('/').next().unwrap_or_default();
        let ex = failing_where(&prep, 2000, |_| true);
        for e in explained_modes(&prep, &ex) {
            let mode = e.mode;
            assert_explained(&e, file);
            let summary = causa_explain::summary::summary(&e);
            let said = format!("waits at the barrier `{object}` at {file}:{line} only after the read{writer}");
            assert!(summary.contains(&said), "{mode}: {summary}");
            assert!(
                summary.contains("so reading after that `pthread_barrier_wait` avoids the failure"),
                "{mode}: {summary}"
            );
        }
    }
}

#[test]
fn a_queue_appended_through_its_tail_pointer_is_explained() {
    // `q.tail->next = n` writes through a pointer read from the queue, and
    // main's walk reads `p->next` through the links those writes make: the
    // walk's addresses were "unknown" (the locations' values counted only
    // the writes at fixed addresses). The count's lost update is told as
    // the read and write of `q.count++` to make atomic, not as the other
    // thread's run from one call's write to the next call's read.
    let prep = corpus("fail/realistic/linked_queue_count_outside_lock.c");
    let file = "linked_queue_count_outside_lock.c";
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            let mode = e.mode;
            assert_explained(&e, file);
            if mode == Mode::Progressive {
                let summary = causa_explain::summary::summary(&e);
                let fix = format!("making {file} line 25 atomic avoids the failure");
                assert!(summary.contains(&fix), "{mode}: {summary}");
                assert!(!summary.contains("more than once"), "{mode}: {summary}");
            }
        }
    }
}

#[test]
fn a_region_from_one_loop_turn_into_the_next_is_not_told_as_lines_to_make_atomic() {
    // The worker's write of `cur` at the end of one turn (line 20) and its
    // read at the start of the next (line 18) must not be split by the
    // reset; lines 18–20 made atomic would not do it.
    let prep = corpus("fail/basic/value_kept_across_loop_turns.c");
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, "value_kept_across_loop_turns");
            let summary = causa_explain::summary::summary(&e);
            assert!(!summary.contains("atomic avoids the failure"), "{summary}");
            if e.dsp.atomic.iter().any(|a| a.events.len() == 2) {
                assert!(
                    summary.contains("these go from value_kept_across_loop_turns.c:20 back to value_kept_across_loop_turns.c:18 (the next turn of a loop, or another call)"),
                    "{summary}"
                );
            }
        }
    }
}

#[test]
fn the_read_the_failing_check_tests_is_the_one_told() {
    // A bbuf consumer's assertion tests the item it read at line 48, not
    // the count it read at line 51 after it: the summary's last sentence is
    // about the item. The lock fix (lines 43–51) comes first.
    let prep = corpus("fail/clap/bbuf.c");
    for n in 0..4 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.starts_with("In the failing schedule"), "{summary}");
        assert!(summary.contains("holding `m` over bbuf.c lines 43–51 avoids the failure"), "{summary}");
        assert!(summary.contains("The read of `buf["), "{summary}");
        assert!(!summary.contains("The read of `count`"), "{summary}");
    }
}

#[test]
fn a_lost_insert_is_told_before_the_walk_that_goes_one_entry_further() {
    // Two unlocked inserts into one bucket lose an entry; main's count
    // after the joins fails on every order of the failing run's paths, so
    // the alternate flips main's walk too. The insert's lines come first,
    // then the flip, said as what the alternate also does.
    let prep = corpus("fail/realistic/hash_bucket_insert_lost.c");
    let mut flips = 0;
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&e, "hash_bucket_insert_lost");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.starts_with("In the failing schedule `insert`"), "{summary}");
        assert!(summary.contains("hash_bucket_insert_lost.c lines 21–22 atomic avoids the failure."), "{summary}");
        if e.flipped.is_some() {
            flips += 1;
            let at = summary.find("The alternate also takes another path: `main` (thread 0) takes the other branch at hash_bucket_insert_lost.c:40");
            assert!(at.is_some_and(|i| i > summary.find("atomic avoids").unwrap_or(usize::MAX)), "{summary}");
            assert!(summary.contains("; on the failing run's paths the assertion-violation"), "{summary}");
        }
    }
    assert!(flips > 0, "main's walk is flipped in one of the runs at least");
}

#[test]
fn a_free_list_popped_after_its_check_is_explained_through_its_links() {
    // The head's values come through the links (`free_list = b->next`,
    // `b` read from the head itself) and the users' `b->used` are written
    // through the popped pointer: Phi_rw needed the head's possible values
    // to place those writes ("targets unknown" before).
    let prep = corpus("fail/realistic/free_list_pop_after_check.c");
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, &format!("free_list_pop_after_check (run {n})"));
            let summary = causa_explain::summary::summary(&e);
            assert!(
                summary.contains("releases `m` at free_list_pop_after_check.c:25 and takes it again at free_list_pop_after_check.c:28"),
                "{}: {summary}",
                e.mode
            );
            assert!(
                summary.contains("holding `m` over free_list_pop_after_check.c lines 24–29 avoids the failure"),
                "{summary}"
            );
        }
    }
}

#[test]
fn an_early_post_read_across_waits_is_not_told_as_a_snapshot() {
    // The consumer reads slot 0, waits again, reads slot 1: the two reads
    // are apart by design. Its read of slot 0 before the producer's write
    // is the order violation, and the post before the write the fix.
    let prep = corpus("fail/sync/sem_posted_before_fill_summed.c");
    let mut posted = 0;
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&e, "sem_posted_before_fill_summed");
        let summary = causa_explain::summary::summary(&e);
        assert!(!summary.contains("with a new"), "{summary}");
        assert!(!summary.contains("one atomic step"), "{summary}");
        let early = "before it writes `slots[";
        if summary.contains(early) {
            posted += 1;
            assert!(summary.contains("posting after the write avoids the failure"), "{summary}");
        }
    }
    assert!(posted > 0, "the early post is told for one run at least");
}

#[test]
fn a_flipped_branchs_read_is_told_once() {
    // Unlocked `stack[top++] = v` in two threads loses a push; main's pop
    // loop (`while (top > 0)`) runs once more in the alternate. The read
    // of `top` the branch tests was told twice: as the branch's, then as
    // "the failing thread's read … then sees".
    let prep = corpus("fail/realistic/array_stack_push_unlocked.c");
    let mut flips = 0;
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&e, "array_stack_push_unlocked");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("making array_stack_push_unlocked.c line 15 atomic avoids the failure"), "{summary}");
        assert_eq!(
            summary.matches("`top` at array_stack_push_unlocked.c:32").count(),
            usize::from(e.flipped.is_some()),
            "{summary}"
        );
        flips += usize::from(e.flipped.is_some());
    }
    assert!(flips > 0, "main's pop loop is flipped in one run at least");
}

#[test]
fn an_atomic_load_then_store_is_told_as_two_steps() {
    // `h = atomic_load(&hits); atomic_store(&hits, h + 1);`: each access is
    // atomic, so "making lines 19–20 atomic" read as if they were not.
    let prep = corpus("fail/atomics/split_load_store.c");
    let ex = failing_where(&prep, 2000, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "split_load_store");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("each access to `hits` is atomic, but the read at split_load_store.c:19 and the write at split_load_store.c:20 are two steps: one atomic read-modify-write over split_load_store.c lines 19–20"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_lock_its_holder_never_releases_is_told_as_such() {
    // The holder returned out of its critical section without unlocking:
    // either its thread ended holding the lock (the other client waits),
    // or its own next call locks it again (it waits for itself). No lock
    // order to fix, nor a nested lock: the early return's missing unlock.
    let prep = corpus("fail/mutex/lock_leaked_on_early_return.c");
    let mut kinds = std::collections::BTreeSet::new();
    for n in 0..4 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let summary = causa_explain::summary::summary(&e);
        assert!(!e.deadlock.is_empty(), "{summary}");
        let ended =
            "takes `m` at lock_leaked_on_early_return.c:15 and its thread ends at lock_leaked_on_early_return.c:";
        let again =
            "locks `m` at lock_leaked_on_early_return.c:15 while it still holds it from its previous run of that line";
        assert!(summary.contains(ended) || summary.contains(again), "{summary}");
        kinds.insert(summary.contains(ended));
        let last = "(its last event in `spend`: the read of `budget` at lock_leaked_on_early_return.c:16)";
        assert!(summary.contains(last), "{summary}");
        let fix = "Releasing `m` on every path out (before each return) avoids the deadlock.";
        assert!(summary.contains(fix), "{summary}");
        assert!(!summary.contains("in one order") && !summary.contains("recursive mutex"), "{summary}");
    }
    eprintln!("lock_leaked_on_early_return: thread ended holding it: {kinds:?}");
}

#[test]
fn two_reads_that_say_the_same_are_told_once() {
    // The walk's check reads `x->v` twice (`x->v != 1 && x->v != 2`): the
    // same location, the same values in both schedules.
    let prep = corpus("fail/realistic/dlist_unlink_neighbours.c");
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, &format!("dlist_unlink_neighbours (run {n})"));
            let summary = causa_explain::summary::summary(&e);
            let sentences: Vec<&str> = summary.split(". ").collect();
            for (i, s) in sentences.iter().enumerate() {
                assert!(!sentences[..i].contains(s), "{}: told twice: {s}: {summary}", e.mode);
            }
            let text = causa_explain::text::render(&e);
            // (The schedules' tables show both reads: they are two events.)
            let flows = text.split("Data flows that differ").nth(1).unwrap_or_default();
            let lines: Vec<&str> = flows.lines().collect();
            for w in lines.windows(2) {
                assert!(w[0] != w[1] || w[0].trim().is_empty(), "{}: a line twice: {}\n{text}", e.mode, w[0]);
            }
        }
    }
}

#[test]
fn an_update_of_a_value_the_failing_run_never_stored_says_which_part() {
    // Two clients both take the last slot; in the alternate one may take
    // a slot another's release freed (a release the failing run never
    // reached): its update `1→2` read the 1 that release stored.
    let prep = corpus("fail/atomics/slot_wait_then_take.c");
    let mut late = 0;
    for n in 0..10 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&e, &format!("slot_wait_then_take (run {n})"));
        let text = causa_explain::text::render(&e) + &causa_explain::summary::summary(&e);
        let update_late = regex_free_find(&text, "→", " stored by an operation");
        assert!(!update_late, "an update's two values read as one stored value:\n{text}");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("slot_wait_then_take.c lines 18–20") || summary.contains("lines 20–23 atomic"),
            "{summary}"
        );
        late += usize::from(text.contains(", its 1 stored by an operation the failing run never reached"));
    }
    eprintln!("slot_wait_then_take: {late} of 10 runs read a late value in an update");
    assert!(late > 0, "the wording is checked on one run at least");
}

/// Whether `text` has `a`, then a number, then `b` right after it (`2→3
/// stored by`).
fn regex_free_find(text: &str, a: &str, b: &str) -> bool {
    text.match_indices(a).any(|(i, _)| {
        let rest = &text[i + a.len()..];
        let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
        digits > 0 && rest[digits..].starts_with(b)
    })
}

#[test]
fn a_name_copied_into_a_slot_the_count_picks_is_followed() {
    // `strncpy(reg.names[i], …)` with `i` read from `reg.n`: a known
    // string written at an address computed from shared data.
    let prep = corpus("fail/realistic/handler_count_bumped_before_slot.c");
    for n in 0..2 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, &format!("handler_count_bumped_before_slot (run {n})"));
            let summary = causa_explain::summary::summary(&e);
            assert!(
                summary.contains("writing `reg.fns[1]` (handler_count_bumped_before_slot.c:22) before `reg.n` (handler_count_bumped_before_slot.c:20) avoids the failure"),
                "{}: {summary}",
                e.mode
            );
        }
    }
}

#[test]
fn two_reads_inside_the_writers_critical_section_are_told_with_its_lock() {
    // The reporter reads `sent` and `acked` without the spin lock the
    // sender holds over both updates: whichever read's flow the alternate
    // changes, the summary names the lock the reads should take.
    let prep = corpus("fail/realistic/stats_pair_read_outside_spinlock.c");
    let mut kinds = std::collections::BTreeSet::new();
    for n in 0..6 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, &format!("stats_pair_read_outside_spinlock (run {n})"));
            let summary = causa_explain::summary::summary(&e);
            let inside = "while `sender` (thread 0.1) holds `sl` (taken at stats_pair_read_outside_spinlock.c:15) and has written `st.sent` at stats_pair_read_outside_spinlock.c:16 but not yet released it, so the reads see a new `st.sent` (1) with an old `st.acked` (0)";
            let between = "between `sender` (thread 0.1)'s writes of them at";
            let order = "makes both writes holding `sl`, but `reporter` (thread 0.2) reads without it";
            let fell = "the two reads fall between the two writes. `sender` (thread 0.1) holds `sl` ";
            let around = "between the two reads, so it sees an old `st.sent` (0) with a new `st.acked` (1); `sender` (thread 0.1) holds `sl` over both writes, but `reporter` (thread 0.2) reads without it: taking `sl` over";
            let kind = [inside, between, order, fell, around].iter().position(|k| summary.contains(k));
            assert!(kind.is_some(), "{} (run {n}): {summary}", e.mode);
            assert!(summary.contains("stats_pair_read_outside_spinlock.c lines 24–25"), "{summary}");
            kinds.insert(kind);
        }
    }
    eprintln!("stats_pair_read_outside_spinlock: kinds {kinds:?}");
    assert!(kinds.contains(&Some(0)), "the reads inside the writer's section are told on one run at least");
}

#[test]
fn a_cache_miss_computed_outside_the_lock_is_told_in_the_callers_name() {
    // `get` looks up under `m`, computes outside it (in `compute`), and
    // inserts under `m` again: the region runs from the lookup to the
    // insert, both in `get`, with the call between going deeper.
    let prep = corpus("fail/realistic/cache_miss_computed_twice.c");
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&e, &format!("cache_miss_computed_twice (run {n})"));
        let summary = causa_explain::summary::summary(&e);
        // (A region from the lookup to the next, or the flipped lookup's
        // test acted on after another thread's insert.)
        let region = "holding `m` over cache_miss_computed_twice.c lines 19–24";
        let stale = "but in the failing schedule `get` (thread 0.1) writes `used` at cache_miss_computed_twice.c:26 in between: what the test saw no longer holds";
        let fix = "holding `m` from the test to the write (cache_miss_computed_twice.c lines 19–26) avoids the failure";
        assert!(summary.contains(region) || (summary.contains(stale) && summary.contains(fix)), "{summary}");
        assert!(!summary.contains("`client`"), "{summary}");
    }
}

#[test]
fn a_memo_entry_marked_valid_before_its_value_is_an_early_publish() {
    // Recursive `fib` with a shared memo table: `valid` is set before
    // `value`, so the other thread returns a valid entry's 0.
    let prep = corpus("fail/realistic/memo_valid_before_value.c");
    let mut told = 0;
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, &format!("memo_valid_before_value (run {n})"));
            let summary = causa_explain::summary::summary(&e);
            let fix = "before `memo[";
            if summary.contains("The reader went on because its read of `memo[") && summary.contains(fix) {
                told += 1;
                assert!(summary.contains("(memo_valid_before_value.c:16) before `memo["), "{summary}");
            }
        }
    }
    assert!(told > 0, "the early publish is told on one run at least");
}

#[test]
fn a_region_across_two_functions_names_each_functions_line() {
    // `do_open` sets `last_error`, its caller reads it back: the region
    // runs from a line of one function to a line of another, and the
    // lines between them are not a block to make atomic.
    let prep = corpus("fail/basic/last_error_overwritten.c");
    let mut across = 0;
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&e, &format!("last_error_overwritten (run {n})"));
        let summary = causa_explain::summary::summary(&e);
        assert!(!summary.contains("last_error_overwritten.c lines 9–"), "{summary}");
        across += usize::from(summary.contains("last_error_overwritten.c line 9 (`do_open`) through line 1"));
    }
    assert!(across > 0, "a region from `do_open` into its caller is told on one run at least");
}

#[test]
fn a_word_read_before_its_last_bytes_are_written_is_an_early_publish() {
    // A union's 32-bit word compared once `ready` is set, while its last
    // two bytes are stored one at a time after `ready`: the read's bytes
    // come from several writes, the alternate writes them before the read,
    // and the fix names both bytes.
    let prep = corpus("fail/realistic/header_word_checked_before_last_bytes.c");
    let ex = failing_where(&prep, 3000, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "header_word_checked_before_last_bytes");
        let summary = causa_explain::summary::summary(&e);
        let text = causa_explain::text::render(&e);
        assert!(
            summary.contains("reads `pkt.h.word` at header_word_checked_before_last_bytes.c:30"),
            "{}: {summary}",
            e.mode
        );
        if e.mode == Mode::Symbiosis {
            continue;
        }
        assert!(
            summary.contains("writing `pkt.h.b[2]` and `pkt.h.b[3]` (header_word_checked_before_last_bytes.c lines 22–23) before `ready` (header_word_checked_before_last_bytes.c:21) avoids the failure"),
            "{}: {summary}",
            e.mode
        );
        assert!(summary.contains("in which `pkt.h.b[2]` and `pkt.h.b[3]` are still 0 (initial value)"), "{summary}");
        assert!(summary.contains("the read sees 0xbebafeca"), "{summary}");
        // One data flow per byte written, with that byte's value.
        assert!(text.contains("pkt.h.b[2] (in read pkt.h.word, thread 0.2 at header_word_checked_before_last_bytes.c:30): read 0 (initial value) → read -70 from thread 0.1 line 22"), "{text}");
        assert!(text.contains("pkt.h.b[3] (in read pkt.h.word"), "{text}");
        assert_eq!(e.dsp.figures.data_flows, 2, "{text}");
    }
}

#[test]
fn a_unions_halves_are_named_as_declared() {
    // `union { uint64_t word; struct { uint32_t sent, acked; } half; }`:
    // LLVM's type holds the word only; the debug information names the
    // halves, each access by its offset and size.
    let prep = corpus("fail/realistic/union_counters_read_outside_lock.c");
    let ex = failing_where(&prep, 3000, |_| true);
    let listing: Vec<&str> = ex.records.iter().filter_map(|r| r.object.as_deref()).collect();
    assert!(listing.contains(&"st.word") && listing.contains(&"st.half.sent"), "{listing:?}");
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "union_counters_read_outside_lock");
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("`st.half.sent`"), "{summary}");
    assert!(!summary.contains("st.word+4") && !summary.contains("`st.word`"), "{summary}");
    // The reset's 8-byte write is the word, the halves' reads read it.
    let text = causa_explain::text::render(&e);
    assert!(text.contains("write st.word=0 :19") && text.contains("st.half.sent=1 :22"), "{text}");
}

#[test]
fn members_of_anonymous_structs_and_unions_are_named() {
    // `union { int i; float f; };` without a member name (C11) and
    // `struct { int lo, hi; } range;`: LLVM's types are `union.anon` and
    // `struct.anon`, named here by where they are in `struct value`.
    let prep = corpus("fail/basic/tagged_value_payload_late.c");
    let mut seen = std::collections::BTreeSet::new();
    for n in 0..4 {
        let ex = nth_failing(&prep, n, |_| true);
        for r in ex.records.iter().filter_map(|r| r.object.as_deref()) {
            assert!(!r.contains('+') && !r.contains("anon"), "{r}");
            seen.insert(r.to_string());
        }
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&e, &format!("tagged_value_payload_late (run {n})"));
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("`v.i`") || summary.contains("`v.range.hi`"), "{summary}");
    }
    assert!(seen.contains("v.i") && seen.contains("v.kind"), "{seen:?}");
}

#[test]
fn bit_fields_of_one_storage_unit_are_told_as_one_location() {
    // `st.ready = 1` and `st.dirty = 1` from two threads: one byte read
    // and rewritten by each, so one bit is lost. The byte is named after
    // the bit-fields it holds, and the summary says they are one location.
    let prep = corpus("fail/basic/bitfield_flags_lost.c");
    let ex = failing_where(&prep, 3000, |_| true);
    let mut both_sides = 0;
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "bitfield_flags_lost");
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("`st.{ready,dirty,count}`"), "{}: {summary}", e.mode);
        // Its values are the bit-fields' own: the failure sees one of the
        // two bits set ({1,0,0} or {0,1,0}), the alternate both.
        assert!(summary.contains(" sees {1,0,0} ") || summary.contains(" sees {0,1,0} "), "{}: {summary}", e.mode);
        assert!(summary.contains(" and {1,1,0} "), "{}: {summary}", e.mode);
        assert!(
            summary.contains(
                "The bit-fields `ready`, `dirty` and `count` share one memory location (`st.{ready,dirty,count}`)"
            ),
            "{}: {summary}",
            e.mode
        );
        // Both sides read and rewrite the byte: the other side's update is
        // named as needing the same.
        if summary.contains(" atomic avoids the failure") {
            assert!(
                summary.contains("reads and writes `st.{ready,dirty,count}` too (bitfield_flags_lost.c line ")
                    && summary.contains("which must be atomic as well for every order"),
                "{}: {summary}",
                e.mode
            );
            both_sides += 1;
        }
    }
    assert!(both_sides >= 1, "the other side's update is told in one mode at least");
}

#[test]
fn reads_after_one_of_two_updates_pair_a_new_value_with_an_old_one() {
    // The ticker clears `lo` and then bumps `hi`; the reader reads `hi`
    // and `lo` between the two (the bump not reached by the failure).
    let prep = corpus("fail/realistic/tick_counter_split_in_two_words.c");
    let mut told = 0;
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&e, &format!("tick_counter_split_in_two_words (run {n})"));
        let summary = causa_explain::summary::summary(&e);
        let pair = "after `ticker` (thread 0.1) has written `lo` at tick_counter_split_in_two_words.c:17 but, by the failure, not `hi`: the reads pair a new `lo` with an old `hi`";
        if summary.contains(pair) {
            assert!(
                summary.contains("One lock held over the two reads (tick_counter_split_in_two_words.c lines 24–25)"),
                "{summary}"
            );
            told += 1;
        }
    }
    assert!(told >= 1, "the pair is told on one run at least");
    // Two counters bumped in two critical sections, read without the lock
    // after the first bump: the lock the writer holds is named.
    let prep = corpus("fail/realistic/union_counters_read_outside_lock.c");
    let mut locked = 0;
    for n in 0..6 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let summary = causa_explain::summary::summary(&e);
        if summary.contains("but, by the failure, not `st.half.acked`") {
            assert!(summary.contains("writes `st.half.sent` holding `m` (taken at union_counters_read_outside_lock.c:21), but `reporter` (thread 0.2) reads without it: taking `m` over union_counters_read_outside_lock.c lines 32–33"), "{summary}");
            locked += 1;
        }
    }
    eprintln!("union_counters_read_outside_lock: {locked} of 6 runs told after one write");
    assert!(locked >= 1, "told on one run at least");
}

#[test]
fn a_torn_copy_is_told_whichever_read_the_alternate_changes() {
    // The alternate may move the copy after both reads (the second read,
    // of `lo`, sees the old value) or before both (the first, of `hi`,
    // sees the new one): the diagnosis is the same torn pair either way.
    let prep = corpus("fail/realistic/config_range_copied_between_reads.c");
    let mut first = 0;
    for n in 0..6 {
        let ex = nth_failing(&prep, n, |_| true);
        for mode in [Mode::Progressive, Mode::MaxSmt, Mode::Lexico] {
            let e = in_mode(&prep, &ex, mode);
            assert_explained(&e, "config_range_copied_between_reads");
            let summary = causa_explain::summary::summary(&e);
            assert!(summary.contains("between the two reads (one copy of the struct), so it sees an old `cfg.hi` (10) with a new `cfg.lo` (100)"), "{mode}: {summary}");
            let t = e.failing_thread().expect("a failing thread");
            let changed = e.dsp.failing_only.iter().filter(|f| f.read.0 == t).max_by_key(|f| f.read.1);
            first += usize::from(changed.and_then(|f| e.line(f.read)).is_some_and(|l| l.ends_with(":22")));
        }
    }
    eprintln!("config_range_copied_between_reads: {first} of 18 alternates change the first read");
    // (Which one the solver returns is its choice: on these runs, one.)
    assert!(first >= 1, "some alternate changes the first read");
}

#[test]
fn a_struct_copied_whole_between_two_reads_of_its_fields_is_a_torn_snapshot() {
    // `cfg = next` is one copy, but `hi` and `lo` are read in two steps.
    let prep = corpus("fail/realistic/config_range_copied_between_reads.c");
    let ex = failing_where(&prep, 3000, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "config_range_copied_between_reads");
        if e.mode == Mode::Symbiosis {
            continue;
        }
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("and `updater` (thread 0.1) writes all of `cfg` at config_range_copied_between_reads.c:16 between the two reads (one copy of the struct), so it sees an old `cfg.hi` (10) with a new `cfg.lo` (100); one lock held over the two reads (config_range_copied_between_reads.c lines 22–23) and over the copy avoids the failure"),
            "{}: {summary}",
            e.mode
        );
    }
}

#[test]
fn a_large_number_in_an_integer_is_shown_as_a_number() {
    // 0x100000001 has the shape of a tagged address (object 1, offset 1):
    // in a `uint64_t` it is a number.
    let prep = corpus("fail/basic/seqno_low_word_read_before_flag.c");
    let ex = failing_where(&prep, 3000, |_| true);
    let values: Vec<&str> = ex.records.iter().filter_map(|r| r.value.as_deref()).collect();
    assert!(values.contains(&"4294967297"), "{values:?}");
    assert!(!values.iter().any(|v| v.starts_with('&')), "{values:?}");
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "seqno_low_word_read_before_flag");
    let text = causa_explain::text::render(&e);
    assert!(!text.contains("&seqno"), "{text}");
}

#[test]
fn an_initialisation_run_twice_through_an_unlocked_flag() {
    // `if (!ready) { init(); ready = 1; }` from two users: the second
    // tests `ready` before the first sets it, and its `init` clears the
    // slot the first has filled. Told as the initialisation run twice,
    // with the test and the set as one step for the fix.
    let prep = corpus("fail/realistic/lazy_table_initialised_twice.c");
    let mut told = 0;
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, &format!("lazy_table_initialised_twice (run {n})"));
            let summary = causa_explain::summary::summary(&e);
            let twice = "Both `user` threads (0.1 and 0.2) test `ready` at lazy_table_initialised_twice.c:22 and find 0: thread ";
            if summary.contains(twice) {
                assert!(summary.contains("sets it at lazy_table_initialised_twice.c:24, so both run `init` (lazy_table_initialised_twice.c:17)."), "{}: {summary}", e.mode);
                assert!(
                    summary.contains("Testing and setting `ready` as one step around the initialisation (`pthread_once`, or one lock held over lazy_table_initialised_twice.c lines 22–24) makes it run once"),
                    "{}: {summary}",
                    e.mode
                );
                told += 1;
            }
        }
    }
    assert!(told >= 1, "the double initialisation is told");
}

#[test]
fn an_inline_initialisation_run_twice_resets_a_counter() {
    // The same with the initialisation inline: the second run's `count = 0`
    // comes after the first thread's atomic increment.
    let prep = corpus("fail/realistic/name_count_reset_by_second_init.c");
    let ex = failing_where(&prep, 3000, |_| true);
    let mut told = 0;
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "name_count_reset_by_second_init");
        let summary = causa_explain::summary::summary(&e);
        if summary.contains("Both `add_name` threads (0.1 and 0.2) test `initialized` at name_count_reset_by_second_init.c:19 and find 0") {
            assert!(summary.contains("so both run name_count_reset_by_second_init.c:21."), "{}: {summary}", e.mode);
            assert!(summary.contains("write of `count` at name_count_reset_by_second_init.c:21 comes after"), "{}: {summary}", e.mode);
            told += 1;
        }
    }
    assert!(told >= 1, "the double initialisation is told");
}

#[test]
fn an_atomic_update_read_again_is_told_to_test_what_the_update_returns() {
    // `atomic_fetch_sub(&o->refs, 1); if (atomic_load(&o->refs) == 0) free(o);`
    // from two users: a use after free or a double free, each from the
    // second read of the count. The fix told is to test the value
    // atomic_fetch_sub returns; no other region follows it.
    let prep = corpus("fail/memory/refcount_check_after_decrement.c");
    let (mut told, mut kinds) = (0, std::collections::BTreeSet::new());
    for n in 0..4 {
        let ex = nth_failing(&prep, n, |_| true);
        kinds.extend(ex.outcome.finding().map(|f| f.message.split(' ').next().unwrap_or_default().to_string()));
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, &format!("refcount_check_after_decrement (run {n})"));
            let summary = causa_explain::summary::summary(&e);
            let fix = "the update is atomic, but reading `heap#1.refs` again after it is a second step: testing the value the update returns (`atomic_fetch_sub` returns the value before its subtraction) instead of reading `heap#1.refs` again avoids the failure.";
            if summary.contains(fix) {
                assert_eq!(summary.matches("In the failing schedule").count(), 1, "{}: {summary}", e.mode);
                told += 1;
            }
        }
    }
    assert!(told >= 4, "told in {told} explanations");
    assert_eq!(kinds.len(), 2, "both failures seen: {kinds:?}");
}

#[test]
fn the_last_worker_that_reads_the_count_again_reports_twice() {
    let prep = corpus("fail/atomics/last_worker_reads_count_again.c");
    let ex = failing_where(&prep, 3000, |_| true);
    let mut told = 0;
    let all = explained_modes(&prep, &ex);
    for e in &all {
        assert_explained(e, "last_worker_reads_count_again");
        let summary = causa_explain::summary::summary(e);
        if summary.contains("testing the value the update returns (`atomic_fetch_add` returns the value before its add) instead of reading `finished` again avoids the failure") {
            told += 1;
        }
    }
    assert_eq!(told, all.len(), "the re-read is told in every mode");
}

#[test]
fn a_semaphore_lock_that_admits_two_is_told_by_its_count() {
    // sem_init(&guard, 0, 2) as an account's lock: both withdrawals hold
    // it while they read and write the balance.
    let prep = corpus("fail/sync/semaphore_lock_admits_two.c");
    let ex = failing_where(&prep, 3000, |_| true);
    let all = explained_modes(&prep, &ex);
    let mut told = 0;
    for e in &all {
        assert_explained(e, "semaphore_lock_admits_two");
        let summary = causa_explain::summary::summary(e);
        if summary.contains("both sides hold the semaphore `guard` (`sem_wait` at semaphore_lock_admits_two.c:16), which starts at 2 (`sem_init`) and so lets 2 threads in at once: starting it at 1 (or a mutex) makes it a lock over semaphore_lock_admits_two.c lines 17–18") {
            told += 1;
        }
    }
    assert_eq!(told, all.len(), "told in every mode");
}

#[test]
fn locked_counter_updates_whose_order_does_not_matter_are_held() {
    // Three workers count responses per status class under a lock
    // (`by_class[c] += 1`, 36 critical sections), then add their bytes to
    // a total without it; main checks both. The class counts are not
    // incidental (main sums them), but their updates commute: progressive
    // mode holds their 36 critical sections in the failing order, and the
    // explanation is the lost update of the total.
    let prep = corpus("fail/realistic/status_counts_bytes_unlocked.c");
    let ex = failing_where(&prep, 3000, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "status_counts_bytes_unlocked");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("making status_counts_bytes_unlocked.c lines 30–31 atomic avoids the failure"),
            "{}: {summary}",
            e.mode
        );
        let class = |r: &(usize, usize)| e.object(*r).is_some_and(|o| o.starts_with("by_class"));
        assert!(!e.dsp.events.iter().any(class), "{}: no class count in the DSP", e.mode);
        if e.mode == Mode::Progressive {
            // Lock, read, write and unlock of each of the 36 updates.
            assert!(e.root_held >= 4 * 36, "held: {}", e.root_held);
        }
    }
}

#[test]
fn a_list_walked_through_the_pointers_it_reads_is_explained() {
    // main walks a list of twelve sessions after the joins: each step reads
    // `s->next` at an address read from shared memory whose candidates are
    // all twelve sessions (more than rw.rs's AT_MOST_ONE_FROM: the address
    // is also told to be at most one of them), and each read of the list
    // has one write that must come before it. The explanation is the lost
    // update of the gauge, with no session in it.
    let prep = corpus("fail/realistic/session_list_count_unlocked.c");
    let ex = nth_failing(&prep, 0, |_| true);
    for e in explained_modes(&prep, &ex) {
        assert_explained(&e, "session_list_count_unlocked");
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.contains("making session_list_count_unlocked.c lines 39–40 atomic avoids the failure"),
            "{}: {summary}",
            e.mode
        );
        let objects: Vec<String> = e.dsp.events.iter().filter_map(|r| e.object(*r)).collect();
        assert!(objects.iter().any(|o| o == "open_sessions"), "{}: {objects:?}", e.mode);
        let list = |o: &String| o == "sessions" || o.ends_with(".next");
        assert!(!objects.iter().any(list), "{}: no list access in the DSP: {objects:?}", e.mode);
        let walked = e.failing.iter().filter_map(|r| e.object(*r)).filter(list).count();
        assert!(walked >= 12, "{}: the failing schedule's list accesses: {walked}", e.mode);
    }
}

#[test]
fn a_long_list_walk_is_explained_from_the_pair_that_bounds_the_windows() {
    // bench/programs/list_walk.c: three workers push ten nodes each under a
    // lock, then add to a count without it; main walks the 30 nodes (236
    // events). The window that frees the workers' pushes was a query of
    // seconds; from maxsmt::KNOWN_FROM events on, the root cause's first
    // inverted pair that passes bounds the windows and the window's search
    // starts from it. The explanation is the lost update of the count,
    // with no node of the list in it.
    let full = format!("{}/../../bench/programs/list_walk.c", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    let prep = load("list_walk.c", &src);
    let ex = nth_failing(&prep, 0, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "list_walk");
    assert!(e.failing.len() >= 200, "the failing schedule: {} events", e.failing.len());
    assert!(e.window.is_some_and(|w| w < e.segments), "window {:?} of {}", e.window, e.segments);
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("making list_walk.c lines 36–37 atomic avoids the failure"), "{summary}");
    let objects: Vec<String> = e.dsp.events.iter().filter_map(|r| e.object(*r)).collect();
    let list = |o: &String| o == "head" || o.ends_with(".next") || o.ends_with(".owner");
    assert!(objects.iter().any(|o| o == "pushed"), "{objects:?}");
    assert!(!objects.iter().any(list), "no list access in the DSP: {objects:?}");
    assert!(e.dsp.figures.operations <= 10, "{:?}", e.dsp.figures);
}

#[test]
fn a_lock_taken_right_after_the_update_is_told_to_be_taken_before_it() {
    // Each writer reserves space by advancing `log_len`, then takes the
    // buffer's lock to copy its message in: the fix is the lock taken
    // before the reservation, not another lock around it.
    let prep = corpus("fail/realistic/log_space_reserved_before_lock.c");
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        for e in explained_modes(&prep, &ex) {
            assert_explained(&e, "log_space_reserved_before_lock");
            if e.mode == Mode::Symbiosis {
                continue;
            }
            let summary = causa_explain::summary::summary(&e);
            assert!(
                summary.contains("takes `log_lock` only at log_space_reserved_before_lock.c:20, after these accesses: taking `log_lock` before them (over log_space_reserved_before_lock.c lines 18–19 as well) avoids the failure"),
                "{}: {summary}",
                e.mode
            );
        }
    }
}

#[test]
fn a_lock_made_of_a_test_and_a_set_is_told_to_be_taken_in_one_step() {
    // `while (lock != 0) ; lock = 1;` with an atomic flag, and with a plain
    // one: both threads find it free before either sets it, and what they
    // do inside races. The summary said "making test_then_set_lock.c line
    // 21 atomic avoids the failure" (the counter), as if the lock held.
    let cases = [
        ("fail/atomics/test_then_set_lock.c", "lock", ("test_then_set_lock.c:18", "test_then_set_lock.c:20"), false),
        (
            "fail/realistic/append_behind_busy_flag.c",
            "busy",
            ("append_behind_busy_flag.c:17", "append_behind_busy_flag.c:19"),
            true,
        ),
    ];
    for (path, flag, (test, set), plain) in cases {
        for (n, e, summary) in summaries_of_three_runs(path) {
            let told = format!(
                "both hold the lock they make of `{flag}`: each tests it for 0 ({test}) and then sets it to 1 ({set}), in two steps, so both found 0 before either set 1"
            );
            assert!(summary.contains(&told), "{path} run {n} {}: {summary}", e.mode);
            assert!(summary.contains(&format!("`atomic_exchange(&{flag}, 1)` until it returns 0")), "{summary}");
            assert_eq!(summary.contains(&format!("`{flag}` made an `atomic_int`")), plain, "{summary}");
        }
    }
}

#[test]
fn the_threads_of_a_hand_made_lock_are_named_once_each_by_the_function_that_tests_it() {
    // A pool's `checkout` tests and sets a slot's `in_use` flag; `client`
    // then writes and checks the slot's owner, which is where the race
    // shows. The summary named one client twice (by `checkout`, where it
    // tests the flag, and by `client`, where it writes the owner) and the
    // other by `client`: "`client` (thread 0.1), `checkout` (thread 0.3)
    // and `client` (thread 0.3) all hold the lock".
    // (In the default mode, and where the lock is told: the other modes'
    // alternates can leave the flag's accesses out of the regions the DSP
    // marks; and a flag the failing run sets and never clears is taken for
    // a `once` flag, not a lock, which a failure in the first round often
    // is: neither racing client got to its `checkin` yet.)
    let path = "fail/realistic/pool_slot_claimed_after_count.c";
    let mut told = 0;
    for (n, e, summary) in summaries_of_three_runs(path) {
        let Some(clause) = summary
            .split("; ")
            .find_map(|part| part.split(" both hold the lock they make of `in_use[").nth(1).map(|_| part))
            .filter(|_| e.mode == Mode::Progressive)
        else {
            continue;
        };
        told += 1;
        let clause = clause.split(" both hold the lock").next().unwrap_or_default();
        let names: Vec<&str> = clause.split(" and ").collect();
        assert_eq!(names.len(), 2, "run {n} {}: {summary}", e.mode);
        let threads: Vec<&str> = names
            .iter()
            .map(|w| {
                let w = w.trim().trim_start_matches("`checkout` (thread ");
                assert!(w.starts_with("0."), "run {n} {}: {summary}", e.mode);
                &w[..3]
            })
            .collect();
        assert_ne!(threads[0], threads[1], "run {n} {}: {summary}", e.mode);
        // (The exchange claims a slot once; it is not spun on.)
        assert!(
            summary.contains("1)`, which claims it when it returns 0 (else the scan goes on)"),
            "run {n}: {summary}"
        );
    }
    assert!(
        told >= 1,
        "the lock is told in progressive mode on some of the three runs: {:?}",
        summaries_of_three_runs(path)
            .into_iter()
            .filter(|(_, e, _)| e.mode == Mode::Progressive)
            .map(|(_, _, s)| s)
            .collect::<Vec<_>>()
    );
}

#[test]
fn a_reference_taken_from_a_count_at_zero_is_told_as_such() {
    // A reader reads `current` and then increments the block's count; the
    // reloader replaces `current` and drops the last reference in between.
    // Where the reader's increment takes the count from 0 back to 1 before
    // the reloader's free, the summary told the reloader's decrement and
    // free made atomic (config_reference_taken_from_zero.c lines 28–29),
    // which leaves the reader's stale pointer.
    let prep = corpus("fail/realistic/config_reference_taken_from_zero.c");
    let revived = |ex: &Execution| {
        let Outcome::Bug(f) = &ex.outcome else { return false };
        f.kind == causa_core::BugKind::MemoryError
            && ex.events.iter().any(|v| v.kind == causa_core::EventKind::Rmw && v.value == 0 && v.value2 == 1)
    };
    let ex = failing_where(&prep, 2000, revived);
    for e in explained_modes(&prep, &ex) {
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate_passes(), "{}: {summary}", e.mode);
        assert!(
            summary.contains("`reader` (thread 0.1) takes its reference to `heap#1` at config_reference_taken_from_zero.c:34 (its update of `heap#1.refs`, 0→1) after `put` (thread 0.2) dropped the last one at config_reference_taken_from_zero.c:28 (1→0)"),
            "{}: {summary}",
            e.mode
        );
        assert!(summary.contains("through `current`, read at config_reference_taken_from_zero.c:33 before `reloader` (thread 0.2) replaced it at config_reference_taken_from_zero.c:45"), "{}: {summary}", e.mode);
        assert!(!summary.contains("lines 28–29 atomic"), "{}: {summary}", e.mode);
    }
}

#[test]
fn a_flag_tested_then_set_is_told_to_be_claimed_with_a_compare_and_swap() {
    // `if (!atomic_load(&initialised)) { handlers++; atomic_store(&initialised, 1); }`:
    // the store writes a constant, not the value read plus one, so the
    // fix is a compare-and-swap from 0 to 1 (the summary suggested
    // `atomic_fetch_add`, as for a counter's load and store).
    for (n, e, summary) in summaries_of_three_runs("fail/atomics/init_flag_tested_then_set.c") {
        assert!(
            summary.contains("a compare-and-swap of `initialised` from 0 to 1 (`atomic_compare_exchange_strong`) in place of the read at init_flag_tested_then_set.c:18 lets only one thread through"),
            "run {n} {}: {summary}",
            e.mode
        );
        assert!(!summary.contains("atomic_fetch_add"), "{summary}");
    }
}

#[test]
fn a_result_read_before_its_join_is_told_to_join_first() {
    // main reads the second worker's partial sum, and joins that worker
    // two lines later: the summary said "Making the read wait for that
    // write avoids the failure", which the join already in the program
    // does once it comes first.
    for (n, e, summary) in summaries_of_three_runs("fail/realistic/totals_read_before_join.c") {
        assert!(
            summary.contains("`main` (thread 0) joins `sum_half` (thread 0.2) only at totals_read_before_join.c:39, after the read: joining it before the read (or reading after the join) avoids the failure."),
            "run {n} {}: {summary}",
            e.mode
        );
        assert!(!summary.contains("Making the read wait"), "{summary}");
    }
}

#[test]
fn a_result_checked_before_a_join_the_failing_run_never_reaches_is_told_to_join_first() {
    // main checks the port the loader parsed and joins the loader only on
    // the next line: the failing run stops at the check, so its trace has
    // no join, and the summary said "Making the read wait for that write";
    // the join is the alternate run's. The loader's reads of the constant
    // text, which only the alternate runs, were fifteen data-flow
    // variations of the projection.
    for (n, e, summary) in summaries_of_three_runs("fail/realistic/config_checked_before_join.c") {
        assert!(
            summary.contains("`main` (thread 0) joins `load_config` (thread 0.1) only at config_checked_before_join.c:39, after the read, which the failing run never reaches: joining it before the read (or reading after the join) avoids the failure."),
            "run {n} {}: {summary}",
            e.mode
        );
        assert!(!summary.contains("Making the read wait"), "{summary}");
        assert_eq!(e.dsp.figures.data_flows, 1, "run {n} {}: {:?}", e.mode, e.dsp.alternate_only);
        assert!(
            e.dsp.alternate_only.iter().all(|f| e.object(f.read).as_deref() == Some("cfg.port")),
            "{:?}",
            e.dsp.alternate_only
        );
    }
}

#[test]
fn a_flag_checked_before_the_lock_and_set_under_it_is_told_to_be_checked_under_it() {
    // submit checks `shutting_down` before taking `m`; shutdown sets it and
    // drains the queue under `m` in between; the task enqueued after is
    // accepted and never runs. Only another path avoids it (the drain loop
    // sees the task), and the summary said only that, with the two reads'
    // values: now it names the stale check and the lock taken before it.
    for (n, e, summary) in summaries_of_three_runs("fail/realistic/pool_task_submitted_after_drain.c") {
        let told = [
            "`submit` (thread 0.1) tests `shutting_down` at pool_task_submitted_after_drain.c:21 before it takes `m` at pool_task_submitted_after_drain.c:23 and sees 0",
            "`shutdown_pool` (thread 0) sets `shutting_down` at pool_task_submitted_after_drain.c:31",
            "Taking `m` before the test (over pool_task_submitted_after_drain.c lines 21–24) avoids the failure.",
        ];
        for t in told {
            assert!(summary.contains(t), "run {n} {}: {t}: {summary}", e.mode);
        }
    }
}

#[test]
fn a_ring_slot_overwritten_through_a_semaphore_one_too_high_is_told() {
    // The free-slot semaphore starts at 3 for a ring of 2: the producer
    // comes round to slot 0 before the consumer read it. The summary said
    // "nothing makes thread 0.1 wait for that read" (it waits on `empty`).
    for (n, e, summary) in summaries_of_three_runs("fail/sync/sem_ring_one_slot_too_many.c") {
        let told = "its `sem_wait` on `empty` at sem_ring_one_slot_too_many.c:23 lets it through before `consumer` (thread 0.2) posts `empty` at sem_ring_one_slot_too_many.c:37 after the read, because `empty` starts at 3 (`sem_init`) and the writes come back to `ring[";
        assert!(summary.contains(told), "run {n} {}: {summary}", e.mode);
        assert!(summary.contains("after 2: starting `empty` at 2 avoids the failure."), "{summary}");
        assert!(!summary.contains("nothing makes thread"), "{summary}");
        // (Not a torn pair of the slot and `tail`, which the consumer
        // writes itself.)
        assert!(!summary.contains("by the failure, not"), "{summary}");
    }
}

#[test]
fn a_static_buffer_a_helper_returns_is_told_to_be_one_per_caller() {
    // `static char buf[16]; snprintf(buf, …); return buf;` called by two
    // workers: the summary said "making job_label_static_buffer.c line 17
    // (`job_label`) through line 25 (`worker`) atomic avoids the failure".
    for (n, e, summary) in summaries_of_three_runs("fail/realistic/job_label_static_buffer.c") {
        let told = "`job_label.buf` is a static variable of `job_label`, one for every caller: thread 0.";
        assert!(summary.contains(told), "run {n} {}: {summary}", e.mode);
        assert!(
            summary.contains("Giving each caller its own (a buffer the caller passes in, or a `_Thread_local` one) avoids the failure"),
            "{summary}"
        );
        assert!(!summary.contains("atomic avoids"), "{summary}");
    }
}

#[test]
fn a_wait_decided_by_a_test_before_the_lock_is_told_to_test_under_it() {
    // The waiter tests `ready` (or copies it) before taking the mutex; the
    // setter sets it and signals in between, and the wait that follows
    // waits for a signal already sent. The summary said only to wait in a
    // loop on a predicate, which the waiter did test, too early.
    let cases = [
        ("fail/cond/lost_wakeup_unlocked_check.c", "lost_wakeup_unlocked_check.c", (17, 18), (32, 33), 19),
        ("fail/cond/ready_copied_before_lock.c", "ready_copied_before_lock.c", (17, 18), (28, 29), 20),
    ];
    for (path, file, (test, lock), (set, signal), wait) in cases {
        for (n, e, summary) in summaries_of_three_runs(path) {
            let told = [
                format!("tests `ready` at {file}:{test} before it takes `m` at {file}:{lock} and sees 0"),
                format!("sets `ready` at {file}:{set} and signals at {file}:{signal} in between, so the wait at {file}:{wait} follows a test that no longer holds"),
                "Testing `ready` after taking `m`, in a loop around the wait".to_string(),
            ];
            for t in &told {
                assert!(summary.contains(t.as_str()), "run {n} {}: {t}: {summary}", e.mode);
            }
        }
    }
}

#[test]
fn a_write_made_after_creating_the_reader_is_told_to_come_before_it() {
    // `main` creates the worker and only then sets up what the worker
    // reads (a configuration pointer, a table loaded from a file). The
    // summary said "Making the read wait for that write"; the creation is
    // the order the program already has.
    // (Each mode's alternate may change one of hours_table's three reads
    // or all three: "the write" or "the writes".)
    let cases = [
        (
            "fail/memory/null_deref_order.c",
            "`main` (thread 0) creates `worker` (thread 0.1) at null_deref_order.c:28 and makes the write only at null_deref_order.c:34, after: writing `config` before creating the thread avoids the failure.",
        ),
        (
            "fail/libc/hours_table_read_late.c",
            "`main` (thread 0) creates `report` (thread 0.1) at hours_table_read_late.c:43 and makes the write",
        ),
    ];
    for (path, told) in cases {
        // (Not `summaries_of_three_runs`: null_deref_order's failing
        // schedule has 5 events, and a DSP may not be smaller.)
        let prep = corpus(path);
        for n in 0..3 {
            let ex = nth_failing(&prep, n, |_| true);
            for e in explained_modes(&prep, &ex) {
                assert!(e.alternate_passes(), "run {n} {}: {:?}", e.mode, e.alternate_outcome);
                let summary = causa_explain::summary::summary(&e);
                assert!(summary.contains(told), "run {n} {}: {summary}", e.mode);
                assert!(summary.contains("before creating the thread avoids the failure."), "{summary}");
                assert!(!summary.contains("wait for"), "run {n} {}: {summary}", e.mode);
            }
        }
    }
}

#[test]
fn a_pointer_not_set_yet_is_shown_as_null() {
    // `config` holds `&heap#1` once `main` sets it: the worker's read of it
    // before then sees NULL, not "0", in the summary and in the columns;
    // a count's 0 stays 0.
    let prep = corpus("fail/memory/null_deref_order.c");
    let ex = failing_where(&prep, 500, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(summary.contains("and sees NULL (initial value)"), "{summary}");
    let text = causa_explain::text::render(&e);
    assert!(text.contains("read config=NULL :21") && text.contains("read config=&heap#1 :21"), "{text}");
    assert!(text.contains("write heap#1.verbose=0 :32"), "{text}");
}

#[test]
fn a_block_reached_through_a_pointer_read_after_its_free_is_told_so() {
    // `owner` drops the last reference and frees the session; `user` reads
    // `s` after that and checks the freed block's count. The summary says
    // the free leaves `s` pointing to the block and gives the lock as the
    // fix, in every mode whose alternate runs the access first.
    // (A run that fails at the check, line 20: the free came first.)
    let prep = corpus("fail/memory/session_freed_while_checked.c");
    let ex = failing_where(&prep, 2000, fails_at_line(20));
    let mut told = 0;
    for e in explained_modes(&prep, &ex) {
        assert!(e.alternate_passes(), "{}: {:?}", e.mode, e.alternate_outcome);
        let summary = causa_explain::summary::summary(&e);
        if summary.contains("the alternate runs that access first") {
            assert!(
                summary.contains("reaches `heap#1` through `s`, which it reads at session_freed_while_checked.c:20, after the free: the free leaves `s` pointing to the block."),
                "{}: {summary}",
                e.mode
            );
            told += 1;
        }
    }
    assert!(
        told > 0,
        "some mode's alternate runs the access first: {:?}",
        explained_modes(&prep, &ex).iter().map(causa_explain::summary::summary).collect::<Vec<_>>()
    );
}

#[test]
fn counters_printed_into_a_status_line_are_explained_as_a_torn_pair() {
    // `snprintf(status, …, "%d/%d", d, t)` of two values read from shared
    // counters: the printed values are the run's (recorded in the path
    // log), not tied to the reads, so the alternate may read both before
    // the worker's updates, and the torn pair is told. The reporter's read
    // of `total` inside the worker's `total++` is no region to make atomic
    // (a read between a read and a write: serializable).
    let prep = corpus("fail/libc/status_formatted_from_unlocked_counters.c");
    let ex = failing_where(&prep, 500, |_| true);
    for e in explained_modes(&prep, &ex) {
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate_passes(), "{}: {summary}", e.mode);
        // (Either telling: both reads before the writes, or `total`'s read
        // after its write; one lock over both reads and both writes.)
        let pair = summary.contains("the reads pair a new `done` with an old `total`")
            || summary.contains("the two reads fall between the two writes");
        assert!(pair, "{}: {summary}", e.mode);
        assert!(!summary.contains("atomic avoids"), "{}: {summary}", e.mode);
    }
}

#[test]
fn progressive_mode_is_no_larger_than_symbiosis_on_a_work_queue() {
    // bench/programs/work_queue.c with 8 tasks: four workers take tasks
    // under a lock and count them without it. The window's optimum
    // broke two segments of σ where an inverted pair breaks one, and that
    // pair came after the 24 pairs progressive mode compared (a DSP of 14
    // events against Symbiosis' 10). Its pairs that fail on replay now
    // cost a replay, not a query, and it looks further.
    let full = format!("{}/../../bench/programs/work_queue.c", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    let prep = load("work_queue.c", &format!("#define TASKS 8\n{src}"));
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        let progressive = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&progressive, "work_queue");
        let symbiosis = in_mode(&prep, &ex, Mode::Symbiosis);
        if symbiosis.alternate.is_none() {
            continue;
        }
        let (p, s) = (progressive.dsp.figures.operations, symbiosis.dsp.figures.operations);
        assert!(p <= s, "run {n}: progressive's DSP has {p} events, Symbiosis' {s}");
    }
}

#[test]
fn a_free_that_could_come_before_the_region_is_told_to_be_locked_with_the_test() {
    // `owner` frees the session between `user`'s read of `s` and its access
    // through it at line 22 (or its read and write of the count at 21).
    // Making that line atomic was the fix the summary gave, but the free
    // could come before it just as well: the test of `s->refs` at line 20
    // and the uses after it must be atomic with `owner`'s decrement and
    // free. Every mode that tells the free between a region's ends says so.
    let prep = corpus("fail/memory/session_freed_while_checked.c");
    let ex = failing_where(&prep, 2000, |ex| fails_at_line(22)(ex) || fails_at_line(21)(ex));
    let mut told = 0;
    for e in explained_modes(&prep, &ex) {
        let summary = causa_explain::summary::summary(&e);
        let Some(at) = summary.find("frees `heap#1` at session_freed_while_checked.c:31 between") else { continue };
        let sentence = &summary[at..];
        let sentence = &sentence[..sentence.find(". In the failing").unwrap_or(sentence.len())];
        assert!(!sentence.contains("atomic avoids the failure"), "{}: {summary}", e.mode);
        assert!(
            sentence.contains("atomic would not avoid it: the free could come before")
                && sentence.contains("reads `heap#1.refs` at session_freed_while_checked.c:20 before it uses `heap#1`")
                && sentence
                    .contains("writes `heap#1.refs` at session_freed_while_checked.c:30 before it frees `heap#1`"),
            "{}: {summary}",
            e.mode
        );
        told += 1;
    }
    assert!(told > 0, "some mode tells the free between a region's ends");
}

#[test]
fn a_block_swapped_and_freed_between_a_read_and_its_use_is_told_to_lock_the_pointer_read_too() {
    // `reader` reads `current` (line 18), then the block through it (line
    // 19); `reloader` swaps in a new block and frees the old one. In a run
    // that fails at the second field read, the free comes between the two
    // reads of line 19: making line 19 atomic would not avoid it (the free
    // could come right after line 18). The lock must cover the read of
    // `current` and the reloader's swap and free.
    let prep = corpus("fail/memory/config_swapped_while_read.c");
    let ex = failing_where(&prep, 2000, fails_at_line(19));
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(e.alternate_passes(), "{summary}");
    assert!(
        summary.contains("`reader` (thread 0.1) reads `current` at config_swapped_while_read.c:18 before it uses `heap#1`, and `reloader` (thread 0.2) writes `current` at config_swapped_while_read.c:30 before it frees `heap#1`: one lock held by `reader` (thread 0.1) from that read to its last use of the block"),
        "{summary}"
    );
    assert!(!summary.contains("atomic avoids the failure"), "{summary}");
}

#[test]
fn locks_at_addresses_computed_from_shared_data_are_explained() {
    // The bucket's lock is `&table[key % 4].m`, the key read from shared
    // memory; symbolic execution takes each lock's object from the run
    // (recorded in the path log) with a path condition that the address
    // is that one. Before, every mode said "pthread_mutex_lock through an
    // address computed from shared data" was unsupported.
    let prep = corpus("fail/mutex/bucket_lock_from_shared_key.c");
    let ex = failing_where(&prep, 2000, |ex| ex.outcome.finding().is_some_and(|f| f.message.contains("total == 4")));
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate_passes(), "{mode}: {summary}");
        assert!(
            summary.contains("bucket_lock_from_shared_key.c line 31 atomic avoids the failure"),
            "{mode}: {summary}"
        );
    }
    // Tellers lock `&acc[o.from].m`, then `&acc[o.to].m`, the order read
    // from a shared queue: the cycle is named with the accounts' locks.
    let prep = corpus("fail/mutex/transfer_order_from_queue.c");
    let ex = deadlocking(&prep, 2000);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert_eq!(e.deadlock.len(), 2, "{summary}");
    assert!(e.alternate_passes(), "{summary}");
    assert!(summary.contains("waits for `acc[1].m` at transfer_order_from_queue.c:23"), "{summary}");
    assert!(summary.contains("waits for `acc[0].m` at transfer_order_from_queue.c:23"), "{summary}");
    assert!(summary.contains("taking the locks in one order in every thread avoids the deadlock"), "{summary}");
}

#[test]
fn a_mutex_chosen_from_shared_data_is_flipped_to_the_other_one() {
    // `logger` holds `log_m` and locks `verbose ? &log_m : &file_m` (a
    // select, no branch to flip): the address held to the run's is
    // flipped like a branch, and the alternate locks `file_m`. Before,
    // every order kept `log_m` and the summary said no order avoids it.
    let prep = corpus("fail/mutex/relock_of_mutex_chosen_by_flag.c");
    let ex = deadlocking(&prep, 2000);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate_passes(), "{mode}: {summary}");
        assert!(e.flipped.as_ref().is_some_and(|f| f.object), "{mode}: {summary}");
        assert!(
            summary.contains("uses `file_m` instead of `log_m` at relock_of_mutex_chosen_by_flag.c:19"),
            "{mode}: {summary}"
        );
        assert!(summary.contains("The read of `verbose` at relock_of_mutex_chosen_by_flag.c:18"), "{mode}: {summary}");
        let text = causa_explain::text::render(&e);
        assert!(
            text.contains("takes a mutex other than `log_m` at relock_of_mutex_chosen_by_flag.c:19"),
            "{mode}: {text}"
        );
    }
}

#[test]
fn an_atomic_update_at_an_address_computed_from_shared_data_is_modelled() {
    // `atomic_fetch_add(&hist[samples[i]], 1)`: the solver places the
    // update's read and write among the histogram's slots, like a read
    // and a write through a computed address. Before, every mode said "an
    // atomic read-modify-write through an address computed from shared
    // data" was unsupported.
    let prep = corpus("fail/atomics/histogram_bucket_from_shared_sample.c");
    let ex = failing_where(&prep, 2000, |ex| ex.outcome.finding().is_some_and(|f| f.message.contains("seen == 6")));
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate_passes(), "{mode}: {summary}");
        assert!(
            summary.contains("histogram_bucket_from_shared_sample.c line 24 atomic avoids the failure"),
            "{mode}: {summary}"
        );
    }
}

#[test]
fn a_semaphore_chosen_from_shared_data_is_named_as_one() {
    // Two producers read the cursor before either bumps it and post the
    // same slot's semaphore; the other slot's consumer waits forever. The
    // alternate posts the other semaphore (the flipped object), and the
    // summary tells the deadlock first, then which semaphore is used.
    let prep = corpus("fail/sync/slot_semaphore_from_unlocked_cursor.c");
    let ex = deadlocking(&prep, 2000);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(e.alternate_passes(), "{summary}");
    assert!(e.flipped.as_ref().is_some_and(|f| f.object), "{summary}");
    assert!(summary.starts_with("Deadlock: `consumer`"), "{summary}");
    assert!(summary.contains("In the alternate, `producer` (thread 0."), "{summary}");
    let text = causa_explain::text::render(&e);
    assert!(text.contains("takes a semaphore other than `ready["), "{text}");
}

#[test]
fn two_threads_each_relocking_a_mutex_chosen_from_shared_data_are_explained() {
    // Each clerk's ticket names its own account, so `first` and `second`
    // are one mutex, locked twice, in both clerks at once. The clerk that is
    // not the failing one was followed past its second lock as if the mutex
    // were recursive, and every mode said the constraints were
    // unsatisfiable. Now its lock stays a lock the deadlock query finds
    // stuck, and the alternate takes another account's mutex.
    let prep = corpus("fail/mutex/self_transfer_relocks_account.c");
    let ex = deadlocking(&prep, 2000);
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.failing_from_run, "{mode}: {summary}");
        assert!(e.alternate_passes(), "{mode}: {summary}");
        assert!(e.flipped.as_ref().is_some_and(|f| f.object), "{mode}: {summary}");
        assert_eq!(
            summary.matches("which it already holds (locked at self_transfer_relocks_account.c:20)").count(),
            2,
            "{mode}: {summary}"
        );
    }
}

#[test]
fn of_two_threads_waiting_for_themselves_the_failing_one_is_told() {
    // `t1` and `t2` each lock their own mutex twice; the run's deadlock is
    // reported in `t2`, and the summary names `t2`'s relock. (Once the
    // thread that is not the failing one stayed blocked at its relock, the
    // run's own order fails in the model, both relocks are in the deadlock,
    // and the summary named `t1`'s, the first in the list.)
    let prep = load(
        "two_self_locks.c",
        r#"
#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int n;
void *t1(void *x) {
    pthread_mutex_lock(&a);
    n++;
    pthread_mutex_lock(&a);
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&a);
    return 0;
}
void *t2(void *x) {
    pthread_mutex_lock(&b);
    n++;
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&b);
    return 0;
}
int main(void) {
    pthread_t x, y;
    pthread_create(&x, 0, t1, 0);
    pthread_create(&y, 0, t2, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
"#,
    );
    let ex = deadlocking(&prep, 2000);
    let failing = ex.outcome.finding().map(|f| f.thread.to_string()).unwrap_or_default();
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    let (name, line) = if failing == "0.2" { ("`t2`", "two_self_locks.c:16") } else { ("`t1`", "two_self_locks.c:8") };
    assert!(summary.starts_with(&format!("Deadlock: {name} (thread {failing}) locks")), "{summary}");
    assert!(summary.contains(&format!("at {line} while it already holds it")), "{summary}");
}

#[test]
fn a_flip_keeps_the_items_a_thread_touched_through_computed_addresses_first() {
    // Two clerks both sell the last unit of item 0 (`if (stock[item] > 0)`
    // then `atomic_fetch_sub(&stock[item], 1)`, `item` read from the
    // orders). The flip nearest the failure, a clerk's test of another
    // item, passed only by handing the orders out anew so that it tested
    // item 0 (the summary: "… where it reads `stock[0]`"). Flips are now asked
    // first with every computed address at σ's location: the flip of the
    // second clerk's test of item 0 is the explanation.
    let prep = corpus("fail/atomics/stock_sold_below_zero.c");
    let ex = failing_where(&prep, 2000, |ex| ex.outcome.finding().is_some());
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.alternate_passes(), "{mode}: {summary}");
        assert!(e.flipped.is_some(), "{mode}: {summary}");
        assert!(
            summary.contains("making stock_sold_below_zero.c lines 24–25 atomic avoids the failure"),
            "{mode}: {summary}"
        );
        assert!(
            summary.contains("The read of `stock[0]` at stock_sold_below_zero.c:24 in `clerk`"),
            "{mode}: {summary}"
        );
        assert!(!summary.contains("where it reads"), "{mode}: {summary}");
    }
}

#[test]
fn a_string_chosen_by_a_shared_flag_is_copied_as_the_chosen_one() {
    // `strcpy(status, ready ? "ready" : "waiting")` into a shared line: the
    // flag was pinned to the 1 written over its start (the run read 0) and
    // every mode said the constraints were unsatisfiable; the copy into
    // shared memory was unsupported. Now the bytes are the chosen
    // constant's (the byte after "ready" keeps the line's padding), and the
    // read of the flag is the explanation.
    let prep = corpus("fail/libc/status_string_chosen_by_flag.c");
    let ex = failing_where(&prep, 2000, |ex| ex.outcome.finding().is_some());
    for mode in Mode::ALL {
        let e = in_mode(&prep, &ex, mode);
        let summary = causa_explain::summary::summary(&e);
        assert!(e.failing_from_run, "{mode}: {summary}");
        assert!(e.alternate_passes(), "{mode}: {summary}");
        assert!(
            summary.contains("`reporter` (thread 0.2) reads `ready` at status_string_chosen_by_flag.c:27 before `setter` (thread 0.1) writes it"),
            "{mode}: {summary}"
        );
    }
}

#[test]
fn a_string_chosen_by_a_shared_flag_into_a_local_buffer_is_followed() {
    // The same choice copied into the thread's own buffer, then a lost
    // update: the copy reads no shared memory, and the lost update is the
    // explanation (it was "the constraints are unsatisfiable").
    let prep = load(
        "choice_local.c",
        r#"
#include <pthread.h>
#include <string.h>
#include <assert.h>
int ready, count;
void *setter(void *a) { count++; ready = 1; return 0; }
void *reporter(void *a) {
    char status[16];
    const char *s = ready ? "ready" : "waiting";
    strcpy(status, s);
    count++;
    return (void *)(long)status[0];
}
int main(void) {
    pthread_t x, y;
    pthread_create(&x, 0, setter, 0);
    pthread_create(&y, 0, reporter, 0);
    pthread_join(x, 0); pthread_join(y, 0);
    assert(count == 2);
    return 0;
}
"#,
    );
    let ex = failing_where(&prep, 2000, |ex| ex.outcome.finding().is_some());
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(e.failing_from_run, "{summary}");
    assert!(e.alternate_passes(), "{summary}");
    assert!(summary.contains("`count` at choice_local.c:"), "{summary}");
    assert!(summary.contains("atomic avoids the failure"), "{summary}");
}

#[test]
fn a_failed_semaphore_try_is_flipped_into_one_that_takes_a_unit() {
    // A poller's sem_trywait finds no unit and counts a miss: on the run's
    // paths the miss happens in every order. The flip has the try take the
    // unit the producer posts, and the summary says who posts it.
    let prep = load(
        "poll_try.c",
        r#"
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>
sem_t ready;
int item, got, missed;
void *producer(void *x) { item = 42; sem_post(&ready); return 0; }
void *poller(void *x) {
    if (sem_trywait(&ready) == 0) got = item; else missed = 1;
    return 0;
}
int main(void) {
    pthread_t p, c;
    sem_init(&ready, 0, 0);
    pthread_create(&p, 0, producer, 0); pthread_create(&c, 0, poller, 0);
    pthread_join(p, 0); pthread_join(c, 0);
    assert(!missed);
    return 0;
}
"#,
    );
    let ex = failing_where(&prep, 2000, |ex| ex.outcome.finding().is_some());
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "poll_try");
    assert!(e.flipped.as_ref().is_some_and(|f| f.failed_try), "the flip is the try's");
    let summary = causa_explain::summary::summary(&e);
    let want = "`poller` (thread 0.2)'s try to take a unit of `ready` at poll_try.c:9 succeeds (in the failing run `producer` (thread 0.1) posts it only after the try, at poll_try.c:7)";
    assert!(summary.contains(want), "{summary}");
    // The post is among the events shown, before the alternate's end.
    let text = causa_explain::text::render(&e);
    assert!(text.contains("sem_post ready :7"), "{text}");
}

#[test]
fn a_failed_lock_try_is_flipped_into_one_that_succeeds() {
    // Each thread holds its lock and tries the other's: in the failing run
    // one try finds the other thread holding the mutex. The run's paths
    // keep each try as it went, so no order of them avoids the failure
    // (the summary said only that, and named the try). The try is now
    // flipped as a branch is: the alternate has it find the mutex free,
    // and the thread goes on as a try that succeeds does.
    let prep = load(
        "trylock_backoff.c",
        r#"
#include <pthread.h>
#include <assert.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int moved;
void *t1(void *x) {
    pthread_mutex_lock(&a);
    if (pthread_mutex_trylock(&b) == 0) { moved++; pthread_mutex_unlock(&b); }
    pthread_mutex_unlock(&a);
    return 0;
}
void *t2(void *x) {
    pthread_mutex_lock(&b);
    if (pthread_mutex_trylock(&a) == 0) { moved++; pthread_mutex_unlock(&a); }
    pthread_mutex_unlock(&b);
    return 0;
}
int main(void) {
    pthread_t x, y;
    pthread_create(&x, 0, t1, 0); pthread_create(&y, 0, t2, 0);
    pthread_join(x, 0); pthread_join(y, 0);
    assert(moved == 2);
    return 0;
}
"#,
    );
    let ex = failing_where(&prep, 2000, |ex| ex.outcome.finding().is_some());
    let e = in_mode(&prep, &ex, Mode::Progressive);
    assert_explained(&e, "trylock_backoff");
    let f = e.flipped.as_ref().expect("a flip");
    assert!(f.failed_try, "the flip is the lock try's");
    let summary = causa_explain::summary::summary(&e);
    let one = "`t1` (thread 0.1)'s try to lock `b` at trylock_backoff.c:8 succeeds (in the failing run `t2` (thread 0.2) held it then, locked at trylock_backoff.c:13)";
    let other = "`t2` (thread 0.2)'s try to lock `a` at trylock_backoff.c:14 succeeds (in the failing run `t1` (thread 0.1) held it then, locked at trylock_backoff.c:7)";
    assert!(summary.contains(one) || summary.contains(other), "{summary}");
    // The try and the holder's section are shown; the thread's new path
    // starts with the lock the try now takes.
    let text = causa_explain::text::render(&e);
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("trylock (busy)"), "{text}");
    assert!(
        words.contains("succeeds, thread 0.") && words.contains("runs (in the replayed alternate): lock "),
        "{text}"
    );
}

#[test]
fn a_sequence_lock_reader_inside_the_update_is_told_to_reject_it() {
    // The reader retries when `seq` changed between its two reads, but not
    // when it is odd: both reads saw the writer's first bump, and the data
    // read between them is half updated. The summary said to write the
    // data before `seq`, which only moves the window; it now says the
    // reads ran inside the update, which the check must reject.
    let path = "fail/basic/seqlock_odd_count_not_rejected.c";
    let prep = corpus(path);
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&e, path);
        let summary = causa_explain::summary::summary(&e);
        assert!(summary.contains("the reads ran inside that update"), "run {n}: {summary}");
        assert!(
            summary.contains("Retrying while `seq` holds a value written at seqlock_odd_count_not_rejected.c:15"),
            "run {n}: {summary}"
        );
        assert!(!summary.contains("before `seq`"), "run {n}: {summary}");
    }
}

#[test]
fn a_failure_every_order_moves_to_another_thread_is_told_as_such() {
    // The semaphore admits three producers to two slots: the third to
    // store writes past the end, whichever it is. The alternate moves the
    // failure to another thread; the summary says so first, not that the
    // alternate avoids it and the program then fails another way.
    let prep = corpus("fail/sync/sem_admits_one_too_many.c");
    for n in 0..2 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let moved = matches!(&e.alternate_outcome, Some(causa_interp::Outcome::Bug(f))
            if f.kind == e.failure.kind && f.thread != e.failure.thread);
        assert!(moved, "{:?}", e.alternate_outcome);
        let summary = causa_explain::summary::summary(&e);
        assert!(
            summary.starts_with("The alternate schedule shown does not avoid this failure but moves it: replayed, `producer` (thread 0."),
            "{summary}"
        );
        assert!(summary.contains("fails the same way at sem_admits_one_too_many.c:21 instead"), "{summary}");
        assert!(!summary.contains("fails another way"), "{summary}");
        assert!(!summary.contains("treat this explanation with care"), "{summary}");
    }
}

#[test]
fn a_dead_local_copied_into_a_static_buffer_is_explained() {
    // strcpy(copy, name) after name's function returned: the call's
    // destination is static, its source dead. The model took the first
    // pointer the call touches for the fault and found no failing order.
    let prep = corpus("fail/memory/dead_frame_copied_by_strcpy.c");
    let ex = nth_failing(&prep, 0, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    assert!(
        summary.contains("The access is to `name[0]`, a local of `start` (thread 0), after `start` returned"),
        "{summary}"
    );
}

#[test]
fn a_write_lock_is_listed_as_the_run_lists_it() {
    // The model treats an exclusive rwlock like a mutex; the DSP listed
    // `pthread_rwlock_wrlock` as "lock cache_lock" and its release as
    // "unlock cache_lock" while the failing run's table says `wrlock` and
    // `rwunlock`.
    let prep = corpus("fail/sync/rwlock_fill_without_second_check.c");
    let ex = nth_failing(&prep, 0, |_| true);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let text = causa_explain::text::render(&e);
    assert!(text.contains("wrlock cache_lock :20"), "{text}");
    assert!(text.contains("rwunlock cache_lock"), "{text}");
    assert!(text.contains("rdlock cache_lock :16"), "{text}");
    let words: Vec<&str> = text.split_whitespace().collect();
    let plain = words.windows(2).filter(|w| matches!(w[0], "lock" | "unlock") && w[1] == "cache_lock").count();
    assert_eq!(plain, 0, "{text}");
}

#[test]
fn a_threads_events_left_out_between_two_shown_are_marked() {
    // The auditor locks each account in turn; the projection shows its
    // read of one account and its unlock two iterations later. Listed
    // one under the other they read as a mismatched pair: the unlock is
    // marked `⋮` (once per gap, in each schedule's table), and a note
    // says what the mark means.
    let prep = corpus("fail/mutex/audit_sums_one_lock_at_a_time.c");
    let mut marked = 0;
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let text = causa_explain::text::render(&e);
        let legend = "(⋮ marks an event that follows events of its thread the projection leaves out)";
        let gaps: usize = (0..e.threads.len())
            .map(|t| {
                let of = |evs: &[causa_symbolic::EventRef]| {
                    evs.iter().filter(|r| r.0 == t).map(|r| r.1).collect::<Vec<usize>>()
                };
                let (failing, alternate) = (of(&e.dsp.events), of(&e.dsp.alternate_events));
                failing.windows(2).chain(alternate.windows(2)).filter(|w| w[1] > w[0] + 1).count()
            })
            .sum();
        let marks: usize = text.lines().filter(|l| !l.contains(legend)).map(|l| l.matches('⋮').count()).sum();
        assert_eq!(marks, gaps, "{text}");
        assert_eq!(text.contains(legend), gaps > 0, "{text}");
        // The HTML report's boxes carry the same marks.
        let html = causa_explain::html::render(&e);
        assert_eq!(html.matches("<title>⋮ ").count(), gaps, "{html}");
        marked += gaps;
    }
    assert!(marked > 0, "the auditor's events are left out between two shown in one run at least");
}

#[test]
fn a_log_appended_in_nine_locked_sections_is_reordered_soundly() {
    // Nine critical sections of `m` write the log's length `n`: the
    // explanation reads `n` by the sections' order (causa-symbolic's
    // locked.rs), one predecessor per section. Every mode's alternate of
    // three runs is replayed (assert_explained) and puts the starter's
    // START entry first.
    // The same with main resetting the log before the threads start: its
    // write is the value the first section finds.
    for (name, line, write) in [("log_start_entry_not_first", 56, 27), ("log_reset_then_start_entry_not_first", 59, 28)]
    {
        for (n, e, summary) in summaries_of_three_runs(&format!("fail/sync/{name}.c")) {
            let read = format!("The read of `log_[0].what` at {name}.c:{line} in `main` (thread 0) sees 3");
            assert!(
                summary.contains(&read)
                    && summary.contains(&format!("and 1 from thread 0.2 line {write} in the alternate")),
                "{name} run {n} {}: {summary}",
                e.mode
            );
        }
    }
}

#[test]
fn a_branch_that_tests_the_same_reads_as_the_failing_check_is_no_cause_of_its_own() {
    // The auditor prints the total when it is off, then asserts it: on the
    // failing run's paths the assertion fails in every order, and the
    // summary said only that the program "must take another path" at the
    // print's branch. The cause is the auditor's unlocked reads between a
    // transfer's two writes, told as without the print.
    for (n, e, summary) in summaries_of_three_runs("fail/mutex/audit_prints_then_asserts_total.c") {
        // (Which transfer the reads straddle, and so the sentence that
        // tells it, depends on the run.)
        let told = [
            "`auditor` (thread 0.3) reads without",
            "audit_prints_then_asserts_total.c lines 31–32",
            "avoids the failure.",
            "`auditor` (thread 0.3) also takes the other branch at audit_prints_then_asserts_total.c:33 in the alternate: it tests the same reads as the failing check.",
        ];
        for t in told {
            assert!(summary.contains(t), "run {n} {}: {t}: {summary}", e.mode);
        }
        assert!(!summary.contains("must take another path"), "run {n} {}: {summary}", e.mode);
    }
}

#[test]
fn a_branch_flipped_inside_qsort_is_told_in_qsort_not_at_a_line_of_causas_file() {
    // main sorts the rows with qsort, causa's own C version: with the one
    // row the failing run has, qsort returns at its first test, and the
    // alternate's two rows take the other branch there. It was told as
    // "the other branch at <causa>/libc.c:30", a line of a file the user
    // does not have.
    let (e, summary) = check_run_explained("fail/libc/leaderboard_count_lost_before_qsort.c");
    assert!(e.alternate_passes(), "{summary}");
    assert!(summary.contains("`main` (thread 0) takes the other branch in causa's `qsort`"), "{summary}");
    assert!(!summary.contains("libc.c:30"), "{summary}");
    let text = causa_explain::text::render(&e);
    assert!(text.contains("thread 0 takes the other branch in causa's `qsort`"), "{text}");
}

#[test]
fn moves_inside_qsort_are_shown_in_qsort_not_at_a_line_of_the_program() {
    // qsort runs as causa's own C version (`<causa>/libc.c`): the
    // projection's tables showed its element moves as `memcpy scores[0]
    // :40`, a line of that file, which the reader takes for line 40 of the
    // program. They now say `in qsort`.
    let prep = corpus("fail/libc/qsort_before_join.c");
    let mut shown = 0;
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        let e = in_mode(&prep, &ex, Mode::Progressive);
        let text = causa_explain::text::render(&e);
        let tables = text.lines().skip_while(|l| !l.starts_with("Differential schedule projection"));
        for line in tables.take_while(|l| !l.starts_with("Data flows that differ")) {
            for cell in line.split(['│', '⋮']).filter(|c| c.contains("memcpy scores")) {
                assert!(cell.trim_end().ends_with(" in qsort"), "run {n}: {line}\n{text}");
                shown += 1;
            }
        }
    }
    assert!(shown > 0, "some move inside qsort is in a projection");
}

#[test]
fn a_floating_point_sum_updated_outside_the_lock_is_explained_by_its_lost_addition() {
    // `sum = s + v` with `s` read outside the lock: the explanation's
    // solver had no values for the double sum and bit-blasted the mean's
    // division (26 s of solving); the sum's reads now have the values the
    // samples' additions can make, and the division is a table over them.
    for (n, e, summary) in summaries_of_three_runs("fail/realistic/running_mean_sum_unlocked.c") {
        assert!(
            summary.contains("making running_mean_sum_unlocked.c lines 24–25 atomic avoids the failure."),
            "run {n} {}: {summary}",
            e.mode
        );
        assert!((1..=2).contains(&e.dsp.figures.data_flows), "run {n} {}: {:?}", e.mode, e.dsp.alternate_only);
        assert!(
            e.dsp.alternate_only.iter().all(|f| e.object(f.read).as_deref() == Some("sum")),
            "run {n} {}: {:?}",
            e.mode,
            e.dsp.alternate_only
        );
    }
}

#[test]
fn a_flag_set_after_data_that_was_read_stale_is_told_with_the_flip() {
    // The consumer finds the queue empty under the lock, the producer
    // pushes its last items and sets `produced_done` without it, and the
    // consumer sees the flag and stops. The summary said only that the
    // producer's write came between two reads of the flag in two turns of
    // the loop, "so making line 44 atomic would not keep them together".
    let path = "fail/realistic/consumer_stops_on_flag_set_after_push.c";
    let file = "consumer_stops_on_flag_set_after_push.c";
    for (n, e, summary) in summaries_of_three_runs(path) {
        for told in [
            format!("`consumer` (thread 0.2) reads `queue` at {file}:40 and finds NULL, then reads `produced_done` at {file}:44 and sees 1;"),
            format!("`producer` (thread 0.1) writes `queue` at {file}:28 and then `produced_done` at {file}:31,"),
            "setting `produced_done` while holding `qm` and reading it in the critical section that reads `queue`".into(),
        ] {
            assert!(summary.contains(&told), "run {n} {}: {told}\n{summary}", e.mode);
        }
        assert!(!summary.contains("would not keep them together"), "run {n} {}: {summary}", e.mode);
    }
}

#[test]
fn a_worker_indexing_its_own_array_by_the_id_main_gave_it_is_explained() {
    // `local[data[id][i]]++` with `id = *(int *)arg` and `&ids[i]` stored
    // by main before the worker is created: symbolic execution reported the
    // index into the worker's own stack "computed from shared data" and
    // nothing was explained. The id's only write comes before the worker
    // exists: it is pinned, and the index is known.
    let file = "histogram_last_bucket_unlocked.c";
    for (n, e, summary) in summaries_of_three_runs(&format!("fail/realistic/{file}")) {
        assert!(
            summary.contains(&format!("making {file} line 32 atomic avoids the failure.")),
            "run {n} {}: {summary}",
            e.mode
        );
        assert!(
            e.dsp.alternate_only.iter().all(|f| e.object(f.read).as_deref() == Some("global_hist[3]")),
            "run {n} {}: {:?}",
            e.mode,
            e.dsp.alternate_only
        );
    }
}

#[test]
fn a_ratio_written_last_from_a_stale_copy_is_told_to_be_computed_under_the_lock() {
    // The summary said the other thread's writes of the ratio came
    // between two writes of it in two calls, "so making line 30 atomic
    // would not keep them together": the write computed from a copy of
    // the counters taken before the other's update, stored last, is the
    // cause, and computing it under the counters' lock the fix.
    let file = "hit_ratio_from_stale_copy.c";
    let mut told = 0;
    for (n, e, summary) in summaries_of_three_runs(&format!("fail/realistic/{file}")) {
        assert!(!summary.contains("would not keep them together"), "run {n} {}: {summary}", e.mode);
        // (Other alternates move a copy after the update instead: an order
        // violation of the copy, told as such.)
        if summary.starts_with("Order violation:") {
            continue;
        }
        for said in [
            format!("computes the value it writes to `global_stats.ratio` at {file}:30 from its read of `global_stats` at {file}:29;"),
            format!("Holding `sm` from {file}:23 through the write at {file}:30"),
        ] {
            assert!(summary.contains(&said), "run {n} {}: {said}\n{summary}", e.mode);
        }
        told += 1;
    }
    assert!(told >= 3, "the stale write is told in {told} of the explanations");
}

#[test]
fn an_own_array_indexed_by_what_a_sibling_writes_is_reported_not_explained() {
    // The index into the worker's own stack comes from `which`, which a
    // sibling thread writes: no schedule-free value exists. The first
    // pass, before the sibling's write is known, pins it to the value it
    // started with; the pass that knows every write does not, and the
    // access is reported (the first pass's trace, a model of some other
    // run, was explained instead).
    let src = r#"
#include <pthread.h>
#include <assert.h>
static int which;
static int total;
static void *setter(void *arg) { (void)arg; which = 2; return 0; }
static void *worker(void *arg) {
    (void)arg;
    int local[3] = {5, 6, 7};
    int v = local[which];
    int t = total;
    total = t + v;
    return 0;
}
int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_create(&c, 0, setter, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    assert(total == 10 || total == 14 || total == 12);
    return 0;
}
"#;
    let prep = load("local_index_from_sibling.c", src);
    let ex = failing_where(&prep, 2000, |_| true);
    let err = explain(&prep, &config(), &ex, &ExplainOptions::default()).expect_err("a computed index: not explained");
    let text = err.to_string();
    assert!(text.contains("own stack memory at an index computed from shared data"), "{text}");
    assert!(text.contains("local_index_from_sibling.c:10:13)"), "{text}");
}

#[test]
fn a_pointer_taken_under_the_lock_and_used_after_it_is_told_to_be_used_under_it() {
    // The reader reads `items` under `m` and walks the block after
    // releasing it; main moves the block with `realloc` under `m` and joins
    // the reader only later. The summary said main "does not join it
    // before the free": the fix is the reader's, holding `m` through its
    // use of the block.
    let file = "realloc_grown_while_pointer_used.c";
    for (n, e, summary) in summaries_of_three_runs(&format!("fail/memory/{file}")) {
        assert!(!summary.contains("does not join it before the free"), "run {n} {}: {summary}", e.mode);
        for said in [
            format!("reads `items` at {file}:20 while holding `m`, releases `m` at {file}:22 and then uses the block at {file}:25, which `main` (thread 0) moved (its `realloc`) at {file}:36 while holding `m` in between."),
            "Holding `m` from the read of `items` through that use".to_string(),
        ] {
            assert!(summary.contains(&said), "run {n} {}: {summary}", e.mode);
        }
    }
}

#[test]
fn a_struct_copied_between_two_field_writes_is_told_as_a_torn_copy() {
    // The reader copies `current` ({ptr, len}) between the writer's
    // locked writes of `current.len` and `current.ptr`: the summary said
    // "Order violation … making the read wait for that write". The copy
    // pairs the new length with the old pointer; the writer's lock, taken
    // over the copy too, is the fix.
    let file = "slice_copied_between_field_writes.c";
    for (n, e, summary) in summaries_of_three_runs(&format!("fail/memory/{file}")) {
        for said in [
            format!("`reader` (thread 0.2) copies `current` at {file}:36 between `writer` (thread 0.1)'s writes of `current.len` at {file}:28 and `current.ptr` at {file}:29, so the copy pairs a new `current.len` (32) with an old `current.ptr` (&small);"),
            format!("taking `m` over {file} line 36 as well avoids the failure."),
        ] {
            assert!(summary.contains(&said), "run {n} {}: {summary}", e.mode);
        }
    }
}

#[test]
fn a_transfer_that_releases_the_debited_account_before_the_credit_is_told_so() {
    // The auditor holds both accounts' locks over its two reads; the
    // transfer debits under one, releases it, then credits under the
    // other. The summary said "one lock held over the two reads … keeps
    // them a consistent pair", which the auditor has: the transfer's early
    // release is the fault.
    let file = "transfer_credited_after_debit_lock_released.c";
    for (n, e, summary) in summaries_of_three_runs(&format!("fail/realistic/{file}")) {
        assert!(!summary.contains("one lock held over"), "run {n} {}: {summary}", e.mode);
        // (The alternate moves both reads before the debit, or after the
        // credit: the sentence ends "before it updates `balance[1]`" or
        // "before its write of `balance[1]` at …:22".)
        for said in [
            format!("`audit` (thread 0.2) holds `account[0]` and `account[1]` over both reads, but `transfer` (thread 0.1) releases `account[0]` at {file}:20 after writing `balance[0]` at {file}:19 and before"),
            "`balance[1]`".to_string(),
            ": holding `account[0]` until".to_string(),
        ] {
            assert!(summary.contains(&said), "run {n} {}: {summary}", e.mode);
        }
    }
}

#[test]
fn a_word_copied_to_the_end_strlen_measured_is_explained() {
    // `strcpy(line + strlen(line), word)` in two threads: the copy's
    // address may be any byte of `line`, none in line with a 4-byte slot
    // of it, and symbolic execution found no target ("possible targets are
    // unknown", with the whole 64-condition length in the message).
    let file = "log_line_appended_at_strlen.c";
    for (n, e, summary) in summaries_of_three_runs(&format!("fail/realistic/{file}")) {
        assert!(
            summary.contains(&format!("making {file} lines 19–20 atomic avoids the failure.")),
            "run {n} {}: {summary}",
            e.mode
        );
    }
}

#[test]
fn an_order_the_semaphores_starting_counts_force_is_told_when_none_avoids_the_failure() {
    // `empty` starts at 0 and `full` at 1: the consumer reads the slot
    // before the producer fills it in every order. The summary said only
    // that no order avoids the failure.
    let file = "sem_one_slot_counts_swapped.c";
    let prep = corpus(&format!("fail/sync/{file}"));
    for n in 0..3 {
        let ex = nth_failing(&prep, n, |_| true);
        for mode in [Mode::Progressive, Mode::Symbiosis, Mode::MaxSmt] {
            let e = in_mode(&prep, &ex, mode);
            assert!(e.alternate.is_none(), "run {n} {mode}: every order fails");
            let summary = causa_explain::summary::summary(&e);
            for said in [
                format!("In every order of the failing run's events, `consumer` (thread 0.2) reads `slot` at {file}:32 (and sees 0) before `producer` (thread 0.1) writes it at {file}:21: `producer` (thread 0.1) waits on `empty` at {file}:20 first, `empty` starts at 0, and the post that wait needs is `consumer` (thread 0.2)'s at {file}:33, after that read."),
                format!("`consumer` (thread 0.2)'s wait on `full` at {file}:31 before the read passes without any post: `full` starts at 1."),
            ] {
                assert!(summary.contains(&said), "run {n} {mode}: {summary}");
            }
        }
    }
}

#[test]
fn the_flag_a_reader_spun_on_is_the_one_it_went_on_by() {
    // `while (!done);` then `assert(res.code == 200 && res.len == 512)`,
    // with `done` set between the writes of `res.code` and `res.len`: the
    // summary named the check of `res.code` as what the reader went on by.
    let file = "result_flag_set_before_last_field.c";
    for (n, e, summary) in summaries_of_three_runs(&format!("fail/realistic/{file}")) {
        assert!(!summary.contains("its read of `res.code`"), "run {n} {}: {summary}", e.mode);
        let said = format!("The reader went on because its read of `done` at {file}:31 saw the write at {file}:23, which `worker` (thread 0.1) makes before that one: writing `res.len` ({file}:24) before `done` ({file}:23) avoids the failure.");
        assert!(summary.contains(&said), "run {n} {}: {summary}", e.mode);
    }
}

#[test]
fn a_block_both_threads_free_on_the_failing_paths_is_told_so() {
    // The worker frees the buffer after setting `failed`; main frees it
    // when it sees `failed`. The alternate has main read the flag first
    // and skip its free: the summary told that branch only.
    let file = "error_flag_both_free.c";
    let mut told = 0;
    for (n, e, summary) in summaries_of_three_runs(&format!("fail/memory/{file}")) {
        if e.flipped.is_none() {
            continue;
        }
        told += 1;
        let frees = [
            format!("`worker` (thread 0.1) frees `heap#1` at {file}:20"),
            format!("`main` (thread 0) frees `heap#1` at {file}:32"),
        ];
        assert!(frees.iter().any(|f| summary.contains(f.as_str())), "run {n} {}: {summary}", e.mode);
        assert!(summary.contains("both threads free it on these paths"), "run {n} {}: {summary}", e.mode);
    }
    assert!(told > 0, "some explanation flips main's branch");
}

#[test]
fn a_count_waited_for_before_the_data_it_counts_is_named() {
    // Each participant counts itself in `voted` under a lock before it
    // writes its vote; the coordinator waits until `voted` reaches 3. The
    // update the coordinator saw last was another participant's, so the
    // summary named no wait and told only "joining it before the read".
    let file = "vote_counted_before_cast.c";
    // (Where the coordinator's last read of `voted` saw the missing
    // voter's own update, the write it saw is named.)
    let mut counted = 0;
    let prep = corpus(&format!("fail/realistic/{file}"));
    // (`causa check`'s run, where it did, and random ones.)
    let r = causa_explore::mcr::check(&prep, &config(), &causa_explore::mcr::McrOptions::default(), &mut |_, _| {});
    let causa_explore::mcr::McrVerdict::Bug(checked) = r.verdict else { panic!("check found no bug") };
    let runs = std::iter::once(*checked).chain((0..3).map(|n| nth_failing(&prep, n, |_| true)));
    for (n, ex) in runs.enumerate() {
        let e = in_mode(&prep, &ex, Mode::Progressive);
        assert_explained(&e, file);
        let summary = causa_explain::summary::summary(&e);
        let went_on = format!("The reader went on because its read of `voted` at {file}:34 saw ");
        let saw = [
            format!("{went_on}a count that includes the update at {file}:21"),
            format!("{went_on}the write at {file}:21"),
        ];
        assert!(saw.iter().any(|s| summary.contains(s.as_str())), "run {n} {}: {summary}", e.mode);
        assert!(
            summary.contains(&format!("before `voted` ({file}:21) avoids the failure")),
            "run {n} {}: {summary}",
            e.mode
        );
        counted += usize::from(summary.contains(saw[0].as_str()));
    }
    assert!(counted > 0, "some run's coordinator saw another participant's update last");
}

#[test]
fn a_signal_on_the_wrong_condition_is_named_and_a_held_mutex_not_asked_for() {
    // The producer fills the slot under `m` and signals `not_full`; the
    // consumer waits on `not_empty`. The summary asked for "writing
    // `count` while holding `m`" (the producer holds it) and did not name
    // the signal sent instead.
    let file = "producer_signals_not_full.c";
    let prep = corpus(&format!("fail/cond/{file}"));
    let ex = deadlocking(&prep, 2000);
    let e = in_mode(&prep, &ex, Mode::Progressive);
    let summary = causa_explain::summary::summary(&e);
    let said = format!("sends no signal on `not_empty` after it (it signals `not_full` at {file}:23 instead)");
    assert!(summary.contains(&said), "{summary}");
    assert!(summary.contains("Broadcasting `not_empty` after writing `count` avoids the deadlock."), "{summary}");
    assert!(!summary.contains("while holding `m`"), "{summary}");
}

#[test]
fn a_reference_taken_after_the_last_put_is_told_to_be_taken_earlier() {
    // main creates the worker and drops its own reference; the worker
    // takes its reference only when it runs. The summary told only that
    // main's read of `refs` saw 1 in both schedules.
    // (Progressive mode: Symbiosis' one inverted pair, the free after the
    // worker's increment, replays into the program's other failure, a
    // double free when the increment falls between main's decrement and
    // its free.)
    let file = "reference_taken_after_last_put.c";
    let prep = corpus(&format!("fail/memory/{file}"));
    for n in 0..3 {
        let e = in_mode(&prep, &nth_failing(&prep, n, |_| true), Mode::Progressive);
        assert_explained(&e, file);
        let summary = causa_explain::summary::summary(&e);
        let late = format!("`user` (thread 0.1) takes its reference to `heap#1` at {file}:32 (its access of `heap#1.refs`) after `put` (thread 0) read `heap#1.refs` at {file}:23, saw 1 (its own reference the last) and freed the block at {file}:26");
        assert!(summary.contains(&late), "run {n} {}: {summary}", e.mode);
        let fix = format!("Taking the reference for `user` (thread 0.1) before thread 0 can drop the last one (in `main`, before it creates the thread at {file}:44) avoids the failure.");
        assert!(summary.contains(&fix), "run {n} {}: {summary}", e.mode);
    }
}
