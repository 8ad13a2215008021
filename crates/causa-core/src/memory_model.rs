//! The memory model an execution runs under, and the scheduling choices it adds.
//!
//! Under SC every write is visible to all threads at once. Under TSO each thread
//! has one FIFO store buffer: a plain store goes into it, and becomes visible when
//! it is *flushed*; a load reads the thread's own newest buffered store to the same
//! bytes first. Under PSO a thread has one FIFO per address, so stores to different
//! addresses can become visible out of order. A flush is a scheduling choice of its
//! own ([`Choice::Flush`]), named in schedules, so TSO/PSO executions replay exactly.

use std::fmt;
use std::str::FromStr;

use crate::Tid;

/// Which memory model an execution follows (`sc`, `tso`, `pso` in files).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MemoryModel {
    /// Sequential consistency: stores are visible at once.
    #[default]
    Sc,
    /// Total store order (x86): one FIFO store buffer per thread.
    Tso,
    /// Partial store order (SPARC PSO): one FIFO store buffer per thread and address.
    Pso,
}

impl MemoryModel {
    /// Lower-case name as used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            MemoryModel::Sc => "sc",
            MemoryModel::Tso => "tso",
            MemoryModel::Pso => "pso",
        }
    }

    /// Whether stores are buffered (TSO or PSO).
    pub fn buffers_stores(self) -> bool {
        self != MemoryModel::Sc
    }
}

impl fmt::Display for MemoryModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown memory-model name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown memory model `{0}` (expected sc, tso or pso)")]
pub struct UnknownMemoryModel(pub String);

impl FromStr for MemoryModel {
    type Err = UnknownMemoryModel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "" | "sc" => Ok(MemoryModel::Sc),
            "tso" => Ok(MemoryModel::Tso),
            "pso" => Ok(MemoryModel::Pso),
            _ => Err(UnknownMemoryModel(s.to_string())),
        }
    }
}

/// One scheduling decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// The thread performs its next visible operation.
    Run(Tid),
    /// The oldest store buffered by `thread` to address `addr` becomes visible
    /// (under TSO it is always the oldest store of the thread).
    Flush { thread: Tid, addr: u64 },
}

impl Choice {
    /// The thread the choice belongs to.
    pub fn thread(self) -> Tid {
        match self {
            Choice::Run(t) | Choice::Flush { thread: t, .. } => t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_is_an_error() {
        for m in [MemoryModel::Sc, MemoryModel::Tso, MemoryModel::Pso] {
            assert_eq!(m.name().parse::<MemoryModel>(), Ok(m));
            assert_eq!(m.to_string().to_uppercase().parse::<MemoryModel>(), Ok(m));
        }
        assert_eq!("arm".parse::<MemoryModel>(), Err(UnknownMemoryModel("arm".into())));
        assert!(!MemoryModel::Sc.buffers_stores() && MemoryModel::Pso.buffers_stores());
    }
}
