//! The C library subset causa models, one file per area.

pub mod alloc;
pub mod convert;
pub mod file;
pub use causa_core::format;
pub mod math;
pub mod misc;
pub mod scan;
pub mod stdio;
pub mod string;

use super::Registry;

pub fn register(r: &mut Registry) {
    alloc::register(r);
    string::register(r);
    stdio::register(r);
    misc::register(r);
    file::register(r);
    math::register(r);
    scan::register(r);
}
