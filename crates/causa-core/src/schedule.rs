//! The schedule file: which thread took each visible step, plus the program inputs.
//!
//! Format (version 2), plain text so that two schedules can be compared with `diff`:
//!
//! ```text
//! causa-schedule 2
//! program: bank.c
//! fingerprint: 8c1f2a4e9b0d7c33
//! memory-model: sc
//! inputs: 3,-1
//! steps: 4
//! 0        # fork 0.1  bank.c:30
//! 0.1      # read balance → 10  bank.c:12
//! 0.1
//! 0
//! ```
//!
//! Under TSO/PSO (`memory-model: tso`) a step can also be the flush of a buffered
//! store, written `0.1 flush 0x10000008`: the oldest store thread `0.1` buffered to
//! that address becomes visible.
//!
//! Everything after `#` on a step line is a comment for people; the parser ignores
//! it. Header keys other than `steps` may come in any order; unknown keys are an
//! error so that a typo is never silently ignored. The step count guards against
//! truncated files.

use crate::memory_model::UnknownMemoryModel;
use crate::{MemoryModel, ThreadName};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Current schedule format version. Version 1 had the same lines, but its
/// fingerprints covered the path the program was compiled from
/// (`causa_ir::identity`): such a schedule is refused with that reason.
pub const SCHEDULE_VERSION: u32 = 2;
const MAGIC: &str = "causa-schedule";

/// A replayable schedule.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Schedule {
    /// Program the schedule was made for, as given on the command line.
    pub program: String,
    /// Fingerprint of the loaded program; replay refuses a different program.
    pub fingerprint: String,
    /// The memory model the schedule was made under (its flush steps need it).
    pub memory_model: MemoryModel,
    /// Program inputs (`__VERIFIER_nondet_*`, in the order they were read).
    pub inputs: Vec<i128>,
    /// Thread that took each visible step.
    pub steps: Vec<ThreadName>,
    /// The steps that flush a buffered store of their thread (TSO/PSO), with the
    /// store's address; the other steps run their thread's next operation.
    pub flushes: BTreeMap<usize, u64>,
    /// Optional per-step comments (same length as `steps` or empty).
    pub comments: Vec<String>,
}

/// Errors reading or following a schedule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    #[error("not a causa schedule (line 1 should be `{MAGIC} {SCHEDULE_VERSION}`)")]
    NotASchedule,
    #[error("unsupported schedule version {0} (this causa reads version {SCHEDULE_VERSION})")]
    Version(String),
    #[error("schedule version 1 was saved by an older causa, whose fingerprints of the program also covered the path it was compiled from: find the failure again (`causa test` or `causa check`) to save a version {SCHEDULE_VERSION} schedule")]
    Old,
    #[error("schedule line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("schedule is truncated: header says {expected} steps, file has {found}")]
    Truncated { expected: usize, found: usize },
    #[error("schedule diverged at step {step}: {reason}")]
    Diverged { step: usize, reason: String },
    /// An exploration stopped this execution on purpose at step `step`
    /// (its continuations are covered elsewhere).
    #[error("execution cut at step {step}: {reason}")]
    Pruned { step: usize, reason: String },
}

impl Schedule {
    /// Encode as text (see the module docs for the format).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{MAGIC} {SCHEDULE_VERSION}");
        let _ = writeln!(s, "program: {}", self.program);
        let _ = writeln!(s, "fingerprint: {}", self.fingerprint);
        let _ = writeln!(s, "memory-model: {}", self.memory_model);
        let inputs: Vec<String> = self.inputs.iter().map(|v| v.to_string()).collect();
        let _ = writeln!(s, "inputs: {}", inputs.join(","));
        let _ = writeln!(s, "steps: {}", self.steps.len());
        for (i, t) in self.steps.iter().enumerate() {
            let name = match self.flushes.get(&i) {
                Some(addr) => format!("{t} flush {addr:#x}"),
                None => t.to_string(),
            };
            match self.comments.get(i).filter(|c| !c.is_empty()) {
                Some(c) => {
                    let _ = writeln!(s, "{name:<8} # {}", c.replace('\n', " "));
                }
                None => {
                    let _ = writeln!(s, "{name}");
                }
            }
        }
        s
    }

    /// Decode a schedule from text.
    pub fn from_text(text: &str) -> Result<Schedule, ScheduleError> {
        let mut lines = text.lines().enumerate();
        let first = lines.next().map(|(_, l)| l.trim()).unwrap_or("");
        let version = first.strip_prefix(MAGIC).ok_or(ScheduleError::NotASchedule)?.trim();
        if version == "1" {
            return Err(ScheduleError::Old);
        }
        if version != SCHEDULE_VERSION.to_string() {
            return Err(ScheduleError::Version(version.to_string()));
        }
        let mut sched = Schedule::default();
        let mut expected = None;
        for (i, raw) in lines.by_ref() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let syntax = |m: &str| ScheduleError::Syntax { line: i + 1, message: m.to_string() };
            let (key, value) = line.split_once(':').ok_or_else(|| syntax("expected `key: value`"))?;
            let value = value.trim();
            match key.trim() {
                "program" => sched.program = value.to_string(),
                "fingerprint" => sched.fingerprint = value.to_string(),
                "memory-model" => {
                    sched.memory_model = value.parse().map_err(|e: UnknownMemoryModel| syntax(&e.to_string()))?
                }
                "inputs" => {
                    sched.inputs = value
                        .split(',')
                        .map(str::trim)
                        .filter(|v| !v.is_empty())
                        .map(|v| v.parse::<i128>().map_err(|_| syntax(&format!("bad input value `{v}`"))))
                        .collect::<Result<_, _>>()?;
                }
                "steps" => {
                    expected = Some(value.parse::<usize>().map_err(|_| syntax("bad step count"))?);
                    break;
                }
                other => return Err(syntax(&format!("unknown header key `{other}`"))),
            }
        }
        let expected =
            expected.ok_or_else(|| ScheduleError::Syntax { line: 0, message: "missing `steps:` header".into() })?;
        for (i, raw) in lines {
            let (body, comment) = match raw.split_once('#') {
                Some((b, c)) => (b.trim(), c.trim()),
                None => (raw.trim(), ""),
            };
            if body.is_empty() {
                continue;
            }
            let syntax = |m: String| ScheduleError::Syntax { line: i + 1, message: m };
            let mut words = body.split_whitespace();
            let t = words.next().unwrap_or("").parse::<ThreadName>().map_err(|e| syntax(e.to_string()))?;
            match (words.next(), words.next(), words.next()) {
                (None, _, _) => {}
                (Some("flush"), Some(addr), None) => {
                    let hex = addr.strip_prefix("0x").unwrap_or(addr);
                    let addr = u64::from_str_radix(hex, 16)
                        .map_err(|_| syntax(format!("bad flush address `{addr}` (expected hexadecimal)")))?;
                    sched.flushes.insert(sched.steps.len(), addr);
                }
                _ => return Err(syntax(format!("expected `THREAD` or `THREAD flush ADDRESS`, found `{body}`"))),
            }
            sched.steps.push(t);
            sched.comments.push(comment.to_string());
        }
        if sched.steps.len() != expected {
            return Err(ScheduleError::Truncated { expected, found: sched.steps.len() });
        }
        if sched.comments.iter().all(|c| c.is_empty()) {
            sched.comments.clear();
        }
        Ok(sched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn name_strategy() -> impl Strategy<Value = ThreadName> {
        proptest::collection::vec(1u32..5, 0..3).prop_map(|v| v.into_iter().fold(ThreadName::main(), |n, o| n.child(o)))
    }

    proptest! {
        #[test]
        fn round_trip(steps in proptest::collection::vec(name_strategy(), 0..50),
                      inputs in proptest::collection::vec(any::<i64>(), 0..5),
                      with_comments in any::<bool>(),
                      flushed in proptest::collection::btree_map(0usize..50, any::<u64>(), 0..5)) {
            let comments = if with_comments {
                steps.iter().enumerate().map(|(i, _)| format!("event {i} # x")).collect()
            } else { vec![] };
            let flushes = flushed.into_iter().filter(|(i, _)| *i < steps.len()).collect();
            let s = Schedule {
                program: "p.c".into(),
                fingerprint: "abc".into(),
                memory_model: MemoryModel::Tso,
                inputs: inputs.into_iter().map(i128::from).collect(),
                steps,
                flushes,
                comments: vec![],
            };
            let mut s2 = s.clone();
            s2.comments = comments;
            let back = Schedule::from_text(&s2.to_text()).unwrap();
            prop_assert_eq!(&back.steps, &s.steps);
            prop_assert_eq!(&back.inputs, &s.inputs);
            prop_assert_eq!(&back.fingerprint, &s.fingerprint);
            prop_assert_eq!(&back.flushes, &s.flushes);
            prop_assert_eq!(&back.memory_model, &s.memory_model);
        }
    }

    #[test]
    fn truncated_and_garbage_are_errors() {
        let s = Schedule { steps: vec![ThreadName::main(); 3], ..Default::default() };
        let text = s.to_text();
        let cut: String = text.lines().take(7).map(|l| format!("{l}\n")).collect();
        assert!(matches!(Schedule::from_text(&cut), Err(ScheduleError::Truncated { expected: 3, found: 1 })));
        assert_eq!(Schedule::from_text("hello"), Err(ScheduleError::NotASchedule));
        assert!(matches!(Schedule::from_text("causa-schedule 9\n"), Err(ScheduleError::Version(_))));
        assert!(matches!(Schedule::from_text("causa-schedule 1\nprogram: x\n"), Err(ScheduleError::Old)));
        let bad = text.replace("steps: 3\n0\n", "steps: 3\nzz\n");
        assert!(matches!(Schedule::from_text(&bad), Err(ScheduleError::Syntax { .. })));
        for bad_step in ["0 flush zz", "0 flush", "0 spill 0x10", "0 flush 0x10 0x20"] {
            let bad = text.replace("steps: 3\n0\n", &format!("steps: 3\n{bad_step}\n"));
            assert!(matches!(Schedule::from_text(&bad), Err(ScheduleError::Syntax { line: 7, .. })), "{bad_step}");
        }
        let bad = text.replace("memory-model: sc", "memory-model: arm");
        assert!(matches!(Schedule::from_text(&bad), Err(ScheduleError::Syntax { line: 4, .. })));
    }
}
