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
//! Addresses: causa uses a provenance-carrying address space in which pointer
//! `p` points into allocation `p >> ADDR_SHIFT` at offset `p & OFFSET_MASK`.
//! Allocation 0 is the null page; globals and functions get fixed allocation ids at
//! load time (see [`Program::global_addr`]), so constant pointers are plain integers.
//!
//! Boundaries: no execution, no threads, no shims. Which externals are supported is
//! decided by `causa-interp`, which checks [`Program::externals`] at load time.

pub mod compile;
pub mod error;
pub mod lower;
pub mod ops;
pub mod program;
pub mod source;
pub mod types;
pub mod value;

pub use compile::{load_program, CompileOptions};
pub use error::IrError;
pub use program::*;
pub use source::SourceCache;
pub use types::Ty;
pub use value::Value;

/// Bits of an address that hold the offset inside an allocation.
pub const ADDR_SHIFT: u32 = 32;
/// Mask of the offset part of an address.
pub const OFFSET_MASK: u64 = (1u64 << ADDR_SHIFT) - 1;

/// Address of `offset` inside allocation `alloc`.
#[inline]
pub fn make_addr(alloc: u32, offset: u64) -> u64 {
    ((alloc as u64) << ADDR_SHIFT) | (offset & OFFSET_MASK)
}

/// Allocation id of an address.
#[inline]
pub fn addr_alloc(addr: u64) -> u32 {
    (addr >> ADDR_SHIFT) as u32
}

/// Offset part of an address.
#[inline]
pub fn addr_offset(addr: u64) -> u64 {
    addr & OFFSET_MASK
}
