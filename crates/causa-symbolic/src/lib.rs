//! Guided symbolic execution of path logs (CLAP, PLDI'13 §4 and §8): each
//! thread runs alone along its recorded control-flow path; its shared reads
//! become fresh symbolic values, its shared writes expressions over them, and
//! its branches path conditions. The result ([`SymTrace`]) is what the
//! constraint model needs to compute a schedule that reproduces the failure.
//!
//! Written by hand: symbolic executors that exist (KLEE, haybale) explore
//! paths of their own LLVM front ends; causa follows one recorded path per
//! thread over its own lowered IR (`causa_ir`), which the interpreter and the
//! path recorder share, so that decisions line up one to one.
//!
//! [`clap::solve`] then builds CLAP's constraint model over the symbolic trace
//! on the constraint core (`causa_constraints`), with the program values as
//! Z3 bit vectors ([`values`]), and computes a schedule that reaches the
//! failure with the fewest context switches it can find. [`alternate()`]
//! explains a failure on the same model: its root cause and the most similar
//! schedule that does not fail (Symbiosis, Max SMT, progressive), with branch
//! flips when the failure needs another path.

pub mod alternate;
pub mod clap;
mod coarsen;
mod commuting;
mod determined;
mod domains;
mod exec;
pub mod expr;
pub mod fault;
pub mod figures;
mod flip;
mod float;
mod locked;
mod maxsmt;
pub mod model;
pub mod refine;
mod relevant;
mod rw;
mod shims;
mod solvers;
pub mod symbiosis;
pub mod trace;
pub mod values;

pub use alternate::{alternate, Alternate, AlternateOptions, EventRef, FlippedBranch, Mode, Proposal, Verdict};
pub use causa_constraints::{Arithmetic, Engine};
pub use clap::{solve, ClapError, ClapOptions, ClapStats, Solution};
pub use exec::{execute, SymError};
pub use expr::{Expr, ExprId, Exprs};
pub use solvers::DENSE_SWITCH_LIMIT;
pub use trace::{Branch, Piece, SymEvent, SymOp, SymThread, SymTrace};
