//! The exhaustive DFS oracle shared by the tests that compare MCR with it
//! (`mcr_oracle.rs`, `mcr_fuzz.rs`): compile a C source and collect every
//! outcome DFS reaches.

#![allow(dead_code)]

use causa_core::collections::HashSet;
use causa_core::Scheduler;
use causa_explore::mcr::outcome_key;
use causa_explore::DfsScheduler;
use causa_interp::{Config, Machine, Outcome, OutputMode, Prepared};
use std::sync::Arc;

pub fn load(name: &str, src: &str) -> Arc<Prepared> {
    // `CAUSA_LOG=causa_explore=trace` shows what MCR ran and asked.
    if let Ok(filter) = std::env::var("CAUSA_LOG") {
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
            .with_writer(std::io::stderr)
            .try_init();
    }
    if causa_ir::compile::find_tool("clang").is_err() {
        panic!("clang-14 is required: install it with `apt-get install clang-14 llvm-14` (or `make setup` as root)");
    }
    causa_interp::prepare::prepare_c_source(name, src).expect("compiles and is supported")
}

pub fn config() -> Config {
    Config { output: OutputMode::Capture, final_state: true, keep_records: false, ..Config::default() }
}

/// [`config`] under another memory model.
pub fn config_under(memory_model: causa_core::MemoryModel) -> Config {
    Config { memory_model, ..config() }
}

/// What DFS saw: every outcome (as MCR's outcome set, see
/// `McrResult::outcomes`: runs that exit while another thread could still
/// move are left out), how many executions it needed, and whether any
/// execution ended in a bug.
pub struct DfsOutcomes {
    pub outcomes: HashSet<(String, Option<u64>)>,
    pub executions: usize,
    pub bug: bool,
}

/// Every outcome DFS reaches under `cfg`, or None when it needs more than
/// `limit` executions.
pub fn dfs_outcomes(prep: &Arc<Prepared>, limit: usize, cfg: Config) -> Option<DfsOutcomes> {
    let cfg = Arc::new(cfg);
    let mut dfs = DfsScheduler::new();
    let mut seen = DfsOutcomes { outcomes: HashSet::default(), executions: 0, bug: false };
    while dfs.begin_execution() {
        if seen.executions == limit {
            return None;
        }
        let ex = Machine::new(prep.clone(), cfg.clone()).run(&mut dfs);
        seen.executions += 1;
        seen.bug |= matches!(ex.outcome, Outcome::Bug(_));
        if !ex.exited_early() {
            seen.outcomes.insert((outcome_key(&ex.outcome), ex.final_state));
        }
    }
    assert!(dfs.divergence().is_none(), "DFS diverged: {:?}", dfs.divergence());
    Some(seen)
}
