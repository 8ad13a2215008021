//! Shared helpers for the interpreter's integration tests: run a hand-written
//! LLVM 14 textual IR module once under the non-preemptive scheduler.

#![allow(dead_code)]

use causa_core::{BugKind, Finding, Scheduler};
use causa_explore::{run_once, FirstScheduler};
use causa_interp::{prepare, Config, Execution, Outcome};
use std::sync::Arc;

/// Parse, lower, prepare and run `ir` once; panics if any stage before running fails.
pub fn run_ir(ir: &str) -> Execution {
    let module =
        llvm_ir::Module::from_ir_str(ir).unwrap_or_else(|e| panic!("IR does not parse: {e}\n--- IR ---\n{ir}"));
    let program = causa_ir::lower::lower_module(&module, vec!["test.ll".into()], "test".into())
        .unwrap_or_else(|e| panic!("lowering failed: {e}"));
    let prep = prepare(program).unwrap_or_else(|e| panic!("prepare failed: {e}"));
    let mut sched = FirstScheduler::new();
    assert!(sched.begin_execution());
    run_once(&Arc::new(prep), &Arc::new(Config::default()), &mut sched)
}

/// Run `ir` and return main's exit code, panicking on any other outcome.
pub fn exit_code(ir: &str) -> i32 {
    match run_ir(ir).outcome {
        Outcome::Exit(code) => code,
        other => panic!("expected a normal exit, got {other:?}"),
    }
}

/// Run `ir` and return its finding, checking its kind; panics on any other outcome.
pub fn finding(ir: &str, kind: BugKind) -> Finding {
    match run_ir(ir).outcome {
        Outcome::Bug(f) => {
            assert_eq!(f.kind, kind, "unexpected bug kind: {f:?}");
            f
        }
        other => panic!("expected a {kind:?} finding, got {other:?}"),
    }
}

/// Run `ir`, expect a bug of `kind` whose message contains `needle`.
pub fn expect_bug(ir: &str, kind: BugKind, needle: &str) -> Finding {
    let f = finding(ir, kind);
    assert!(f.message.contains(needle), "message {:?} does not contain {needle:?}", f.message);
    f
}
