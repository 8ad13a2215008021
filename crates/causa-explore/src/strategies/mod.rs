//! Scheduling strategies: implementations of [`causa_core::Scheduler`].
//!
//! | strategy | name | executions | what it is for |
//! | --- | --- | --- | --- |
//! | [`FirstScheduler`] | `first` | unlimited, all identical | a quick, deterministic baseline run |
//! | [`RandomScheduler`] | `random` | unlimited, seeded | cheap random sampling of interleavings |
//! | [`PctScheduler`] | `pct` | unlimited, seeded | sampling with a probabilistic guarantee for bugs of small depth |
//! | [`ReplayScheduler`] | `replay` | one | following a recorded schedule, step by step |
//! | [`DfsScheduler`] | `dfs` | every interleaving, then stops | exhaustive oracle for small programs |
//!
//! Threads are told apart across executions only by their [`causa_core::ThreadName`]:
//! `Tid`s are indices of one execution and may differ between executions.
//!
//! The seeded strategies derive a fresh random stream for each execution from
//! `(seed, execution index)`: execution `k` of a run with seed `S` is the same whatever
//! happened in executions `0..k`. The seed of execution `k` is `S + k·γ` (wrapping,
//! γ = `0x9E37_79B9_7F4A_7C15`) and execution 0 uses `S` itself, so a run started with
//! the seed reported for execution `k` replays executions `k, k+1, …` of the original
//! run, starting with `k`.

mod dfs;
mod first;
mod pct;
mod random;
mod replay;
#[cfg(test)]
mod testutil;

pub use dfs::DfsScheduler;
pub use first::FirstScheduler;
pub use pct::PctScheduler;
pub use random::RandomScheduler;
pub use replay::{ReplayScheduler, OLDEST_STORE};

use causa_core::{PickContext, ScheduleError};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Step between the seeds of consecutive executions (odd, so all `2^64` are distinct).
const SEED_STRIDE: u64 = 0x9E37_79B9_7F4A_7C15;

/// Counts the executions of a seeded strategy and derives the seed of each.
#[derive(Clone, Debug)]
pub(crate) struct ExecutionSeeds {
    base: u64,
    index: u64,
    started: bool,
}

impl ExecutionSeeds {
    pub(crate) fn new(base: u64) -> Self {
        ExecutionSeeds { base, index: 0, started: false }
    }

    /// Move to the next execution (the first call stays on execution 0).
    pub(crate) fn advance(&mut self) {
        if self.started {
            self.index += 1;
        }
        self.started = true;
    }

    /// Index of the current execution (0 before the first `advance`).
    pub(crate) fn index(&self) -> u64 {
        self.index
    }

    /// Seed of the current execution.
    pub(crate) fn current(&self) -> u64 {
        self.base.wrapping_add(self.index.wrapping_mul(SEED_STRIDE))
    }

    /// A fresh generator for the current execution.
    pub(crate) fn rng(&self) -> Pcg64Mcg {
        Pcg64Mcg::seed_from_u64(self.current())
    }
}

/// Error for a context that breaks the "never empty" contract of `enabled`.
pub(crate) fn nothing_enabled(ctx: &PickContext<'_>) -> ScheduleError {
    ScheduleError::Diverged { step: ctx.step, reason: "no thread is enabled".to_string() }
}
