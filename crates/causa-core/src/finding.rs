//! Findings: bugs in the analysed program. They are data, never tool errors.

use crate::{SourceLoc, ThreadName};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The kind of bug. [`BugKind::code`] is stable: tests, JSON and file names use it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BugKind {
    AssertionViolation,
    Deadlock,
    MemoryError,
    Abort,
    DivisionByZero,
    InvalidPthreadUse,
    DataRace,
}

impl BugKind {
    pub const ALL: [BugKind; 7] = [
        BugKind::AssertionViolation,
        BugKind::Deadlock,
        BugKind::MemoryError,
        BugKind::Abort,
        BugKind::DivisionByZero,
        BugKind::InvalidPthreadUse,
        BugKind::DataRace,
    ];

    pub fn code(self) -> &'static str {
        match self {
            BugKind::AssertionViolation => "assertion-violation",
            BugKind::Deadlock => "deadlock",
            BugKind::MemoryError => "memory-error",
            BugKind::Abort => "abort",
            BugKind::DivisionByZero => "division-by-zero",
            BugKind::InvalidPthreadUse => "invalid-pthread-use",
            BugKind::DataRace => "data-race",
        }
    }

    pub fn from_code(code: &str) -> Option<BugKind> {
        BugKind::ALL.into_iter().find(|k| k.code() == code)
    }
}

impl fmt::Display for BugKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The words of an invalid pthread use whose order the symbolic model
/// decides, shared by the interpreter that reports it and the explanation
/// that models it.
pub mod misuse {
    /// A lock used after a thread destroyed it (`what`: "mutex", "spin lock").
    pub fn use_after_destroy(what: &str, object: &str, destroyer: &str, at: &str) -> String {
        format!("use of {what} {object} after thread {destroyer} destroyed it{at}")
    }

    /// Whether a finding's message is [`use_after_destroy`]'s.
    pub fn is_use_after_destroy(message: &str) -> bool {
        message.starts_with("use of ") && message.contains(" destroyed it")
    }
}

/// The words of a deadlock's note for a thread parked in a busy wait,
/// shared by the interpreter that writes it and the symbolic executor that
/// finds the parked thread from it.
pub mod spin {
    /// The note of a thread that spins in a loop no other thread can end.
    pub const NOTE: &str =
        "spins in a loop that no other thread can end (nothing it reads or tries to lock changes again)";

    /// What every version of [`NOTE`] starts with (path logs keep the words
    /// of the version that wrote them).
    const STEM: &str = "spins in a loop that no other thread can end";

    /// Whether a deadlock note's message is [`NOTE`] (of any version).
    pub fn is_spin(message: &str) -> bool {
        message.starts_with(STEM)
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn notes_of_every_version_are_spins() {
            assert!(super::is_spin(super::NOTE));
            let first = "spins in a loop that no other thread can end (it waits for a write that never comes)";
            assert!(super::is_spin(first));
            assert!(!super::is_spin("waits in pthread_join for thread 0.1 to finish"));
        }
    }
}

/// An additional fact attached to a finding (for a deadlock: one per blocked thread).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct FindingNote {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<ThreadName>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceLoc>,
}

/// A bug found in one execution.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Finding {
    pub kind: BugKind,
    pub message: String,
    /// The thread that failed (for a deadlock: the thread that took the last
    /// step if it is blocked, else the blocked thread created last).
    pub thread: ThreadName,
    pub location: Option<SourceLoc>,
    /// Number of visible steps taken before the failure.
    pub step: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<FindingNote>,
    /// For deadlocks: the wait-for cycle, when there is one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cycle: Vec<ThreadName>,
}

impl Finding {
    /// Two findings are "the same bug" when kind, thread, location and step agree.
    /// This is what replay round-trips compare.
    pub fn same_as(&self, other: &Finding) -> bool {
        self.kind == other.kind
            && self.thread == other.thread
            && self.location == other.location
            && self.step == other.step
    }
}
