//! Hash maps and sets whose iteration order is the same in every process.
//!
//! `std::collections::HashMap` seeds its hasher at random per process, so
//! code that iterates one (building a solver query, choosing among equal
//! candidates) can answer differently from one run to the next. causa
//! promises the same result for the same program, flags and seed, so every
//! crate uses these instead: the same keys inserted in the same order
//! iterate in the same order. The hasher is `rustc-hash`'s Fx hash, which
//! is also faster on the integer keys causa uses; hash flooding is not a
//! concern for an analysis of the user's own program.

/// A `HashMap` with a fixed hasher (see the module docs).
pub type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;
/// A `HashSet` with a fixed hasher (see the module docs).
pub type HashSet<K> = rustc_hash::FxHashSet<K>;
