//! Thread-local globals: each thread has its own instance, initialised from
//! the global's initial value, reached through the constant that names the
//! global (and through constant `getelementptr`s into it).

mod common;

use causa_core::BugKind;
use causa_interp::Outcome;
use common::{exit_code, expect_bug, run_ir};

const DECLS: &str = r#"
%union.pthread_attr_t = type { i64, [48 x i8] }
declare i32 @pthread_create(i64*, %union.pthread_attr_t*, i8* (i8*)*, i8*)
declare i32 @pthread_join(i64, i8**)
"#;

#[test]
fn each_thread_has_its_own_instance_with_the_initial_value() {
    // The worker adds 100 to its pair[1] and returns what it sees there
    // (120); main's pair[1] keeps 20 and main's pair[0] the 1 it added.
    let ir = format!(
        r#"{DECLS}
@pair = internal thread_local global [2 x i32] [i32 10, i32 20], align 4

define internal i8* @worker(i8* %arg) {{
  %v = load i32, i32* getelementptr inbounds ([2 x i32], [2 x i32]* @pair, i64 0, i64 1), align 4
  %w = add i32 %v, 100
  store i32 %w, i32* getelementptr inbounds ([2 x i32], [2 x i32]* @pair, i64 0, i64 1), align 4
  %r = zext i32 %w to i64
  %p = inttoptr i64 %r to i8*
  ret i8* %p
}}

define i32 @main() {{
  %t = alloca i64, align 8
  %ret = alloca i8*, align 8
  %a = load i32, i32* getelementptr inbounds ([2 x i32], [2 x i32]* @pair, i64 0, i64 0), align 4
  %a1 = add i32 %a, 1
  store i32 %a1, i32* getelementptr inbounds ([2 x i32], [2 x i32]* @pair, i64 0, i64 0), align 4
  %c = call i32 @pthread_create(i64* %t, %union.pthread_attr_t* null, i8* (i8*)* @worker, i8* null)
  %h = load i64, i64* %t, align 8
  %j = call i32 @pthread_join(i64 %h, i8** %ret)
  %rp = load i8*, i8** %ret, align 8
  %rv = ptrtoint i8* %rp to i64
  %rv32 = trunc i64 %rv to i32
  %b = load i32, i32* getelementptr inbounds ([2 x i32], [2 x i32]* @pair, i64 0, i64 1), align 4
  %m0 = load i32, i32* getelementptr inbounds ([2 x i32], [2 x i32]* @pair, i64 0, i64 0), align 4
  %x = mul i32 %rv32, 10000
  %y = mul i32 %b, 100
  %s = add i32 %x, %y
  %z = add i32 %s, %m0
  ret i32 %z
}}
"#
    );
    assert_eq!(exit_code(&ir), 120 * 10000 + 20 * 100 + 11);
}

#[test]
fn a_thread_local_address_in_an_integer_constant_is_reported_by_name() {
    let ir = r#"
@x = internal thread_local global i32 0, align 4

define i32 @main() {
  %v = add i64 ptrtoint (i32* @x to i64), 0
  %r = trunc i64 %v to i32
  ret i32 %r
}
"#;
    match run_ir(ir).outcome {
        Outcome::Error(e) => {
            let msg = e.to_string();
            assert!(msg.contains("thread-local `x` in a constant expression"), "{msg}");
        }
        other => panic!("expected an unsupported-instruction error, got {other:?}"),
    }
}

#[test]
fn an_instance_ends_with_its_thread() {
    // The worker returns the address of its instance; main reads through
    // it after the join, when the worker has ended.
    let ir = format!(
        r#"{DECLS}
@x = internal thread_local global i32 5, align 4

define internal i8* @worker(i8* %arg) {{
  store i32 7, i32* @x, align 4
  %p = bitcast i32* @x to i8*
  ret i8* %p
}}

define i32 @main() {{
  %t = alloca i64, align 8
  %ret = alloca i8*, align 8
  %c = call i32 @pthread_create(i64* %t, %union.pthread_attr_t* null, i8* (i8*)* @worker, i8* null)
  %h = load i64, i64* %t, align 8
  %j = call i32 @pthread_join(i64 %h, i8** %ret)
  %rp = load i8*, i8** %ret, align 8
  %q = bitcast i8* %rp to i32*
  %v = load i32, i32* %q, align 4
  ret i32 %v
}}
"#
    );
    expect_bug(&ir, BugKind::MemoryError, "access to an ended thread's variable: read of 4 bytes in x@0.1");
}
