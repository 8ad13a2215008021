//! The constraint core: order-variable encodings of traces, solved with Z3.
//!
//! One model serves every technique that asks "can these events be reordered
//! so that …?": MCR's new-state queries (`causa check`), and later CLAP's
//! reproduction and the explanation searches. Every event of a [`Trace`] gets an
//! integer order variable; constraints are comparisons between them (integer
//! difference logic), built as a small [`Formula`] language:
//! - [`encode::Encoder::mhb`]: must-happen-before (program order, fork→begin,
//!   end→join),
//! - [`encode::Encoder::locks`]: lock mutual exclusion,
//! - [`encode::Encoder::validity`] / [`encode::Encoder::value`]: MCR's data validity
//!   Φ_validity(e) (memoised per event) and Φ_value(r, v), including reads of
//!   initial values,
//! - condition-variable wake-ups (a signalled wait-return has a signal or
//!   broadcast between its wait and its return, one waiter per signal).
//!
//! The formula is handed to an [`OrderSolver`]; [`Z3Solver`] translates it to Z3
//! in process, reusing one context. [`Formula::eval`] evaluates a formula under a
//! given order, which lets tests check the encoding by brute force.
//!
//! Boundaries: no interpreter, no LLVM. The input is `causa_core::Event`s.

pub mod cells;
pub mod encode;
mod fixed;
pub mod formula;
pub mod optimize;
pub mod solver;
pub mod trace;

pub use encode::{Encoder, Query};
pub use formula::{Defs, Formula};
pub use optimize::{Engine, OptResult, Priority};
pub use solver::{in_own_context, Arithmetic, CoreResult, OrderSolver, SolveResult, Z3Solver};
pub use trace::{cond_loc, lock_loc, ordered_mutexes, Counter, Op, Trace, TraceEvent};
