//! Shared vocabulary of causa: the types every other crate speaks.
//!
//! This crate owns no behaviour of its own beyond small codecs. It defines:
//! - [`ThreadName`]: stable thread ids from the spawn tree (`0`, `0.1`, `0.1.2`),
//! - [`SourceLoc`]: a source location from debug info,
//! - [`Event`] / [`EventKind`]: the visible operations the interpreter reports,
//! - [`Finding`] / [`BugKind`]: bugs found in the analysed program (data, not errors),
//! - [`Schedule`]: the replayable, versioned, diffable schedule file,
//! - [`paths::PathLog`]: per-thread control-flow paths (`causa reproduce`'s input),
//! - [`Scheduler`]: the one seam between the interpreter (which reports) and the
//!   exploration strategies (which decide),
//! - [`format::format_c`]: C `printf` formatting, shared by the interpreter and
//!   symbolic execution (`snprintf` into memory must give the same bytes in both).
//!
//! Boundaries: no LLVM, no interpreter state, no solver. Anything here must be cheap
//! to construct on the interpreter's hot path or only built when a report is made.

pub mod cconv;
pub mod cfloat;
pub mod collections;
pub mod event;
pub mod finding;
pub mod format;
pub mod ids;
pub mod loc;
pub mod memory_model;
pub mod paths;
pub mod scan;
pub mod schedule;
pub mod scheduler;

pub use event::{once_step, overlaps, BulkAccess, Event, EventKind, LocalOf, LOCK_TRY, SEM_FAILED, SEM_TRIED};
pub use finding::{BugKind, Finding};
pub use ids::{ThreadName, Tid};
pub use loc::SourceLoc;
pub use memory_model::{Choice, MemoryModel};
pub use schedule::{Schedule, ScheduleError};
pub use scheduler::{PickContext, Scheduler};
