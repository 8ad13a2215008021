//! `causa_explain::explain` in Symbiosis mode: the alternate schedule really
//! does not fail when replayed, and the DSP shows the data flows that differ.
//!
//! Without clang-14 these tests fail and say what to install.

use causa_explore::first_random_run;
use causa_interp::{Config, Execution, Outcome, Prepared};
use std::sync::Arc;

fn load(name: &str, src: &str) -> Arc<Prepared> {
    if causa_ir::compile::find_tool("clang").is_err() {
        panic!("clang-14 is required: install it with `apt-get install clang-14 llvm-14` (or `make setup` as root)");
    }
    causa_interp::prepare::prepare_c_source(name, src).expect("compiles and is supported")
}

fn failing(prep: &Arc<Prepared>) -> (Config, Execution) {
    let cfg = Config { record_paths: true, ..Config::default() };
    let ex =
        first_random_run(prep, &Arc::new(cfg.clone()), 5000, |ex: &Execution| matches!(ex.outcome, Outcome::Bug(_)))
            .expect("a failing run in 5000 random schedules");
    (cfg, ex)
}

#[test]
fn a_bank_lost_update_checked_long_after_the_race() {
    // deposit's read and write of balance are not atomic; the check comes
    // after both threads are joined.
    let src = "#include <assert.h>\n#include <pthread.h>\nint balance = 100;\n\
        void *deposit(void *a) { int b = balance; balance = b + (int)(long)a; return 0; }\n\
        int main(void) { pthread_t t1, t2; pthread_create(&t1, 0, deposit, (void *)10);\n\
        pthread_create(&t2, 0, deposit, (void *)20); pthread_join(t1, 0); pthread_join(t2, 0);\n\
        assert(balance == 130); return 0; }\n";
    let prep = load("bank.c", src);
    let (cfg, ex) = failing(&prep);
    let e = causa_explain::explain(&prep, &cfg, &ex).expect("explained");
    let (a, b, alt) = e.alternate.clone().expect("an alternate schedule");
    assert_ne!(a.0, b.0);
    // Replayed, the alternate schedule runs to the end without failing.
    assert!(matches!(e.alternate_outcome, Some(Outcome::Exit(0))), "{:?}", e.alternate_outcome);
    // The DSP: one deposit's read sees the initial balance in the failing
    // schedule and the other deposit's write in the alternate (and main's
    // final read sees another write); it is smaller than the failing schedule.
    let worker_to_worker =
        |f: &&causa_explain::Flow| f.read.0 != 0 && f.write.is_some_and(|w| w.0 != 0 && w.0 != f.read.0);
    assert_eq!(e.dsp.alternate_only.iter().filter(worker_to_worker).count(), 1, "{:?}", e.dsp);
    assert!(e.dsp.alternate_only.iter().any(|f| f.read.0 == 0), "main's check reads another write: {:?}", e.dsp);
    assert!(e.dsp.failing_only.iter().any(|f| f.read.0 != 0 && f.write.is_none()), "{:?}", e.dsp);
    assert!(
        !e.dsp.events.is_empty() && e.dsp.events.len() < e.failing.len(),
        "{} of {}",
        e.dsp.events.len(),
        e.failing.len()
    );
    assert_eq!(alt.len(), e.failing.len());
}

#[test]
fn a_run_that_did_not_fail_has_nothing_to_explain() {
    let prep = load("ok.c", "int main(void) { return 0; }\n");
    let cfg = Config { record_paths: true, ..Config::default() };
    let mut s = causa_explore::FirstScheduler::new();
    causa_core::Scheduler::begin_execution(&mut s);
    let ex = causa_explore::run_once(&prep, &Arc::new(cfg.clone()), &mut s);
    assert!(matches!(causa_explain::explain(&prep, &cfg, &ex), Err(causa_explain::ExplainError::NoFailure)));
}

#[test]
fn aaai19_figure_1_needs_two_data_flows_fixed_at_once() {
    // AAAI-19 Fig. 1: it passes only if T2 reads y before T4 increments it
    // and T3 reads z before T5 increments it. In a run where both races go
    // the bad way (x = 2), no single inverted pair avoids the failure:
    // Symbiosis mode finds no alternate schedule.
    let src = "#include <assert.h>\n#include <pthread.h>\nint x = 0, y = 1, z = -1;\n\
        void *t2(void *a) { x = x + y; return 0; }\nvoid *t3(void *a) { x = x + z; return 0; }\n\
        void *t4(void *a) { y = y + 1; return 0; }\nvoid *t5(void *a) { z = z + 1; return 0; }\n\
        int main(void) { pthread_t a, b, c, d; pthread_create(&a, 0, t2, 0); pthread_create(&b, 0, t3, 0);\n\
        pthread_create(&c, 0, t4, 0); pthread_create(&d, 0, t5, 0);\n\
        pthread_join(a, 0); pthread_join(b, 0); pthread_join(c, 0); pthread_join(d, 0);\n\
        assert(x == 0); return 0; }\n";
    let prep = load("fig1.c", src);
    let cfg = Config { record_paths: true, ..Config::default() };
    // A run whose final read of x returns 2: both races went the bad way.
    let both_bad = |ex: &Execution| {
        matches!(ex.outcome, Outcome::Bug(_))
            && ex
                .events
                .iter()
                .rev()
                .find(|e| e.thread == 0 && e.kind == causa_core::EventKind::Read)
                .is_some_and(|e| e.value == 2)
    };
    let ex = first_random_run(&prep, &Arc::new(cfg.clone()), 20000, both_bad).expect("a run with x = 2");
    let e = causa_explain::explain(&prep, &cfg, &ex).expect("explained");
    assert!(e.failing_from_run, "the explanation works on the run's own order");
    assert!(e.alternate.is_none(), "no single pair: {:?}", e.alternate);
    assert!(e.pairs_tried > 0, "pairs of the root cause were tried");
    // Both races are in the root cause: events of T4 (0.3) and T5 (0.4).
    let in_root: Vec<String> = e.root_cause.iter().map(|r| e.threads[r.0].to_string()).collect();
    assert!(in_root.iter().any(|t| t == "0.3") && in_root.iter().any(|t| t == "0.4"), "{in_root:?}");
}
