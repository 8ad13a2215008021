//! Reproduction from path logs alone (CLAP): record the paths of a failing
//! run, compute a schedule from the logs, and confirm it by replay.
//!
//! Without clang-14 these tests fail and say what to install.

use causa_core::paths::PathLog;
use causa_interp::{Config, Execution, Outcome, Prepared};
use causa_symbolic::ClapOptions;
use std::sync::Arc;

fn load(name: &str, src: &str) -> Arc<Prepared> {
    if causa_ir::compile::find_tool("clang").is_err() {
        panic!("clang-14 is required: install it with `apt-get install clang-14 llvm-14` (or `make setup` as root)");
    }
    causa_interp::prepare::prepare_c_source(name, src).expect("compiles and is supported")
}

/// The first random run (seeds 0, 1, …) that fails, with its paths recorded.
fn failing_run(prep: &Arc<Prepared>) -> Execution {
    let cfg = Arc::new(Config { record_paths: true, ..Config::default() });
    let failing = |ex: &Execution| matches!(ex.outcome, Outcome::Bug(_));
    causa_explore::first_random_run(prep, &cfg, 5000, failing).expect("a failing run in 5000 random schedules")
}

fn log_of(prep: &Prepared, ex: &Execution) -> PathLog {
    PathLog {
        program: "test".into(),
        fingerprint: prep.program.fingerprint.clone(),
        memory_model: "sc".into(),
        argv: vec![],
        failure: ex.outcome.finding().cloned(),
        threads: ex.paths.clone(),
    }
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
    let r = causa_explore::reproduce::reproduce(&prep, &Config::default(), &log, &ClapOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let f = r.execution.outcome.finding().expect("fails");
    assert_eq!(Some(f.kind), log.failure.as_ref().map(|f| f.kind));
    assert!(r.solution.minimal, "the context-switch search finished");
    assert!(r.solution.stats.shared_accesses >= 8, "{:?}", r.solution.stats);
}
