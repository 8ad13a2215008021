//! The versioned JSON document every command prints with `--json`.
//!
//! Keys appear in the declared field order; absent optional fields are left out.
//! Bump [`SCHEMA_VERSION`] on any incompatible change.

use causa_core::event::EventRecord;
use causa_core::finding::FindingNote;
use causa_core::{BugKind, Finding, SourceLoc, ThreadName};
use serde::{Deserialize, Serialize};

/// Current value of [`Report::schema`].
pub const SCHEMA_VERSION: u32 = 1;

/// Outcome of a command.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// A bug was found (`bug` is set).
    Bug,
    /// The exploration finished without finding a bug.
    NoBug,
    /// Every schedule was covered and none fails (`causa check`).
    Verified,
    /// The tool failed (`error` is set).
    Error,
    /// No conclusion, e.g. a budget ran out.
    Unknown,
}

impl Verdict {
    /// The serialised name: `bug`, `no-bug`, `verified`, `error`, `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Bug => "bug",
            Verdict::NoBug => "no-bug",
            Verdict::Verified => "verified",
            Verdict::Error => "error",
            Verdict::Unknown => "unknown",
        }
    }
}

/// The top-level `--json` document.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Report {
    /// Always [`SCHEMA_VERSION`] when produced by this version.
    pub schema: u32,
    /// The subcommand (`run`, `test`, …).
    pub command: String,
    /// The analysed program, as given on the command line.
    pub program: String,
    pub verdict: Verdict,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bug: Option<BugJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Free-form statistics; each command documents its own keys.
    #[serde(default)]
    pub stats: serde_json::Value,
    /// Where the failing schedule was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule_file: Option<String>,
    /// A command line that replays the failing execution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_command: Option<String>,
    /// The failing execution's visible events, when requested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<EventRecord>>,
}

impl Report {
    /// A report with the current schema, empty `stats` (`{}`) and nothing else set.
    pub fn new(command: impl Into<String>, program: impl Into<String>, verdict: Verdict) -> Self {
        Report {
            schema: SCHEMA_VERSION,
            command: command.into(),
            program: program.into(),
            verdict,
            bug: None,
            error: None,
            stats: serde_json::Value::Object(serde_json::Map::new()),
            schedule_file: None,
            replay_command: None,
            events: None,
        }
    }

    /// Pretty-printed JSON (two-space indent), keys in declared order, no trailing
    /// newline.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string_pretty(self).expect("a Report always serialises")
    }
}

/// A finding in the JSON document.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct BugJson {
    pub kind: BugKind,
    pub message: String,
    pub thread: ThreadName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<LocationJson>,
    pub step: usize,
    #[serde(default)]
    pub notes: Vec<FindingNote>,
    #[serde(default)]
    pub cycle: Vec<ThreadName>,
    /// Path of the saved schedule file that replays this bug.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<String>,
}

/// A source location in the JSON document.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct LocationJson {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl From<&SourceLoc> for LocationJson {
    fn from(l: &SourceLoc) -> Self {
        LocationJson { file: l.file.to_string(), line: l.line, column: l.column }
    }
}

impl From<&Finding> for BugJson {
    /// Copies the finding; `schedule` is left `None`.
    fn from(f: &Finding) -> Self {
        BugJson {
            kind: f.kind,
            message: f.message.clone(),
            thread: f.thread.clone(),
            location: f.location.as_ref().map(LocationJson::from),
            step: f.step,
            notes: f.notes.clone(),
            cycle: f.cycle.clone(),
            schedule: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use causa_core::EventKind;
    use serde_json::{json, Value};
    use std::sync::Arc;

    fn t(s: &str) -> ThreadName {
        s.parse().unwrap()
    }

    fn finding() -> Finding {
        Finding {
            kind: BugKind::DataRace,
            message: "data race on `balance`".into(),
            thread: t("0.2"),
            location: Some(SourceLoc { file: Arc::from("bank.c"), line: 14, column: 9 }),
            step: 5,
            notes: vec![FindingNote { thread: Some(t("0.1")), message: "read balance".into(), location: None }],
            cycle: vec![],
        }
    }

    fn report() -> Report {
        let mut r = Report::new("explore", "bank.c", Verdict::Bug);
        r.bug = Some(BugJson::from(&finding()));
        r.stats = json!({ "executions": 12 });
        r.replay_command = Some("causa replay bank.c --schedule bank.sched".into());
        r.events = Some(vec![EventRecord {
            seq: 0,
            thread: t("0"),
            kind: EventKind::Write,
            object: Some("balance".into()),
            width: Some(4),
            value: Some("1".into()),
            new_value: None,
            other_thread: None,
            location: None,
            atomic: false,
            flushed: false,
            local_of: None,
        }]);
        r
    }

    #[test]
    fn document_shape() {
        let s = report().to_json_string();
        assert!(s.contains("\"schema\": 1"), "{s}");
        assert!(s.contains("\"verdict\": \"bug\""), "{s}");
        assert!(s.contains("\"kind\": \"data-race\""), "{s}");
        assert!(!s.contains("\"error\""));
        assert!(!s.contains("\"schedule_file\""));
        // Declared order.
        let pos = |k: &str| s.find(&format!("\"{k}\":")).unwrap();
        assert!(pos("schema") < pos("command"));
        assert!(pos("command") < pos("program"));
        assert!(pos("verdict") < pos("bug"));
        assert!(pos("stats") < pos("replay_command"));
        assert!(pos("replay_command") < pos("events"));
    }

    #[test]
    fn round_trips_through_value() {
        let r = report();
        let v: Value = serde_json::from_str(&r.to_json_string()).unwrap();
        assert_eq!(v["schema"], 1);
        assert_eq!(v["verdict"], "bug");
        assert_eq!(v["bug"]["thread"], "0.2");
        assert_eq!(v["bug"]["location"], json!({ "file": "bank.c", "line": 14, "column": 9 }));
        assert_eq!(v["bug"]["cycle"], json!([]));
        assert_eq!(v["stats"]["executions"], 12);
        let back: Report = serde_json::from_value(v).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn verdicts_are_kebab_case() {
        for (v, s) in [
            (Verdict::Bug, "bug"),
            (Verdict::NoBug, "no-bug"),
            (Verdict::Error, "error"),
            (Verdict::Unknown, "unknown"),
        ] {
            assert_eq!(serde_json::to_value(v).unwrap(), json!(s));
            assert_eq!(v.as_str(), s);
        }
        let mut r = Report::new("check", "x.c", Verdict::Error);
        r.error = Some("cannot read x.c".into());
        let v: Value = serde_json::from_str(&r.to_json_string()).unwrap();
        assert_eq!(
            v,
            json!({ "schema": 1, "command": "check", "program": "x.c",
                    "verdict": "error", "error": "cannot read x.c", "stats": {} })
        );
    }
}
