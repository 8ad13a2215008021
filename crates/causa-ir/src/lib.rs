//! Loading C programs into causa's compact program form.
//!
//! This crate owns everything between a source path and a [`Program`]:
//! - [`compile`]: C and SV-COMP `.i` files → LLVM bitcode with clang-14 (`-O0 -g
//!   -Xclang -disable-O0-optnone`, then `mem2reg`), several files linked with
//!   `llvm-link-14`; `.ll` and `.bc` files are taken as they are.
//! - [`lower`]: the `llvm-ir` module → [`Program`], an index-based form with no
//!   string lookups on the hot path: functions, blocks and locals are numbered,
//!   constants (including addresses of globals and functions) are pre-evaluated, and
//!   every instruction carries an interned source location.
//! - [`SourceCache`]: source line text for reports.
//!
//! Addresses: see [`space`]. 64-bit programs use a provenance-carrying tagged
//! encoding (allocation id in the high 32 bits); 32-bit (`-m32`) programs use a flat
//! space. Globals and functions get fixed addresses at load time
//! ([`AddrSpace::global_addr`]), so constant pointers are plain integers.
//!
//! Boundaries: no execution, no threads, no shims. Which externals are supported is
//! decided by `causa-interp`, which checks [`Program::externals`] at load time.

pub mod compile;
pub mod error;
pub mod fields;
pub mod fingerprint;
pub mod identity;
pub mod local;
pub mod lower;
pub mod ops;
pub mod program;
pub mod source;
pub mod space;
pub mod types;
pub mod value;

pub use compile::{compile_bitcode, load_program, program_fingerprint, CompileOptions};
pub use error::IrError;
pub use program::*;
pub use source::SourceCache;
pub use types::Ty;
pub use value::Value;

pub use space::{AddrSpace, Layout, ADDR_SHIFT, OFFSET_MASK};

/// Tagged address of `offset` inside allocation `alloc` (64-bit programs).
#[inline]
pub fn make_addr(alloc: u32, offset: u64) -> u64 {
    ((alloc as u64) << ADDR_SHIFT) | (offset & OFFSET_MASK)
}

/// SV-COMP functions whose verification meaning wins over a definition in
/// the program (`reach_error`, `assume_abort_if_not`, `__VERIFIER_*`): the
/// interpreter and the symbolic executor both model them.
pub fn svcomp_intercepted(name: &str) -> bool {
    matches!(name, "reach_error" | "assume_abort_if_not" | "__VERIFIER_error" | "__VERIFIER_assume")
        || name.starts_with("__VERIFIER_nondet_")
}

/// A defined function named `__VERIFIER_atomic_*` runs without interruption.
pub fn is_atomic_function(name: &str) -> bool {
    name.starts_with("__VERIFIER_atomic_")
}

/// Allocation id of a tagged address.
#[inline]
pub fn addr_alloc(addr: u64) -> u32 {
    (addr >> ADDR_SHIFT) as u32
}

/// Offset part of a tagged address.
#[inline]
pub fn addr_offset(addr: u64) -> u64 {
    addr & OFFSET_MASK
}
