//! Exploration of the schedules of a multithreaded program.
//!
//! The interpreter (`causa-interp`) runs the program and, before every visible
//! operation, asks a [`causa_core::Scheduler`] which enabled thread moves next. This
//! crate provides those strategies: [`FirstScheduler`] (deterministic, never
//! preempts), [`RandomScheduler`] (uniform random walk), [`PctScheduler`]
//! (probabilistic concurrency testing with a bug-depth guarantee) and
//! [`ReplayScheduler`] (follows a recorded [`causa_core::Schedule`]) and
//! [`DfsScheduler`] (every interleaving, exhaustively; a test oracle). Sampling
//! strategies are seeded and derive a fresh random stream per execution, so any
//! execution can be reproduced from its seed alone.

pub mod driver;
pub mod guided;
pub mod mcr;
pub mod minimize;
pub mod probe;
pub mod reproduce;
pub mod snapshots;
pub mod strategies;

pub use driver::{first_random_run, replay, run_once, schedule_of, test, TestResult, TestStats};
pub use strategies::{DfsScheduler, FirstScheduler, PctScheduler, RandomScheduler, ReplayScheduler};
