//! Shared by the tests that work from a recorded failing run (reproduction
//! here, guided symbolic execution in `causa-symbolic`): compile a C source,
//! find a failing run with its paths recorded, and make its path log.

#![allow(dead_code)]

use causa_core::paths::PathLog;
use causa_interp::{Config, Execution, Outcome, Prepared};
use std::sync::Arc;

pub fn load(name: &str, src: &str) -> Arc<Prepared> {
    if causa_ir::compile::find_tool("clang").is_err() {
        panic!("clang-14 is required: install it with `apt-get install clang-14 llvm-14` (or `make setup` as root)");
    }
    causa_interp::prepare::prepare_c_source(name, src).expect("compiles and is supported")
}

/// The first random run (seeds 0, 1, …) that fails, with its paths recorded.
pub fn failing_run(prep: &Arc<Prepared>) -> Execution {
    let cfg = Arc::new(Config { record_paths: true, ..Config::default() });
    let failing = |ex: &Execution| matches!(ex.outcome, Outcome::Bug(_));
    causa_explore::first_random_run(prep, &cfg, 5000, failing).expect("a failing run in 5000 random schedules")
}

pub fn log_of(prep: &Prepared, ex: &Execution) -> PathLog {
    causa_explore::reproduce::path_log(prep, ex, "test", vec![])
}
