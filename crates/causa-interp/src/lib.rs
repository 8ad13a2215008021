//! The causa interpreter: executes a lowered program one visible operation at a
//! time under a scheduler it does not control.
//!
//! What this crate owns:
//! - [`memory`]: allocations with provenance, checked accesses (null, bounds,
//!   use-after-free, double free, dead stack frames), escape tracking that decides
//!   which accesses other threads can observe;
//! - [`step`]: instruction semantics (arithmetic, memory, calls, control flow);
//! - [`thread`]: threads parked at their next visible operation ([`thread::Pending`]);
//! - [`sync`]: neutral lock/condvar/barrier/semaphore state;
//! - [`shims`]: the registry of modelled external functions (libc, pthread,
//!   SV-COMP verifier functions, LLVM intrinsics);
//! - [`machine::Machine`]: the run loop that reports enabled threads to a
//!   [`causa_core::Scheduler`], records [`causa_core::Event`]s and detects deadlocks.
//!
//! Boundaries: the interpreter never chooses a thread and never loops over
//! executions; that is `causa-explore`'s job. It depends on `causa-ir` for the
//! program and on `causa-core` for the shared vocabulary.
//!
//! The printf formatter (`causa_core::format`, re-exported as
//! `shims::libc::format`; symbolic execution formats `snprintf` with it too)
//! is written by hand because no crate reproduces glibc's exact output for C
//! format strings with C argument promotion rules.

pub mod buffers;
pub mod deadlock;
mod digest;
pub mod machine;
pub mod memory;
pub mod naming;
pub mod outcome;
mod paths;
pub mod prepare;
pub mod race;
pub mod shims;
pub mod spin;
pub mod step;
pub mod sync;
pub mod thread;

pub use machine::Machine;
pub use outcome::{Config, CutOff, Execution, InterpError, Outcome, OutputMode, Stop};
pub use prepare::{prepare, Prepared};
