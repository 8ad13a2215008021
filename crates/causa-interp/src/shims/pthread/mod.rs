//! The pthread ABI layer: turns `pthread_*_t*` arguments into the neutral
//! objects of `crate::sync` (lazily, by address) and checks misuse. One file per
//! object family.

pub mod barrier;
pub mod cond;
pub mod key;
pub mod mutex;
pub mod once;
pub mod rwlock;
pub mod sem;
pub mod thread;

use super::Registry;

pub fn register(r: &mut Registry) {
    thread::register(r);
    mutex::register(r);
    cond::register(r);
    rwlock::register(r);
    barrier::register(r);
    once::register(r);
    key::register(r);
    sem::register(r);
}

/// errno values returned by pthread functions (Linux).
pub const EBUSY: i32 = 16;
pub const EAGAIN: i32 = 11;
pub const EINVAL: i32 = 22;
pub const EDEADLK: i32 = 35;
pub const EPERM: i32 = 1;
pub const ESRCH: i32 = 3;
pub const ETIMEDOUT: i32 = 110;
