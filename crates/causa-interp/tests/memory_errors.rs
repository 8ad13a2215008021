//! Memory errors found by the interpreter's checked accesses, on tiny hand-written
//! LLVM 14 IR programs.

mod common;

use causa_core::BugKind;
use common::{exit_code, expect_bug};

fn memory_error(ir: &str, needle: &str) -> causa_core::Finding {
    expect_bug(ir, BugKind::MemoryError, needle)
}

#[test]
fn null_dereference() {
    let ir = r#"
define i32 @main() {
  %v = load i32, i32* null
  ret i32 %v
}
"#;
    let f = memory_error(ir, "null pointer dereference");
    assert!(f.message.contains("read of 4 bytes"), "{}", f.message);
}

#[test]
fn null_dereference_through_a_computed_pointer() {
    // A store through a small offset from null (a field of a null struct pointer).
    let ir = r#"
define i32 @main() {
  %p = getelementptr { i64, i32 }, { i64, i32 }* null, i64 0, i32 1
  store i32 1, i32* %p
  ret i32 0
}
"#;
    let f = memory_error(ir, "null pointer dereference");
    assert!(f.message.contains("write"), "{}", f.message);
}

#[test]
fn out_of_bounds_read_past_a_malloced_block() {
    let ir = r#"
declare i8* @malloc(i64)

define i32 @main() {
  %m = call i8* @malloc(i64 8)
  %p = bitcast i8* %m to i32*
  %q = getelementptr inbounds i32, i32* %p, i64 2
  %v = load i32, i32* %q
  ret i32 %v
}
"#;
    let f = memory_error(ir, "out-of-bounds read");
    assert!(f.message.contains("offset 8"), "{}", f.message);
    assert!(f.message.contains("size 8"), "{}", f.message);
}

#[test]
fn out_of_bounds_read_straddling_the_end() {
    // 4 bytes at offset 6 of an 8-byte block: starts inside, ends outside.
    let ir = r#"
declare i8* @malloc(i64)

define i32 @main() {
  %m = call i8* @malloc(i64 8)
  %q8 = getelementptr inbounds i8, i8* %m, i64 6
  %q = bitcast i8* %q8 to i32*
  %v = load i32, i32* %q
  ret i32 %v
}
"#;
    memory_error(ir, "out-of-bounds read");
}

#[test]
fn out_of_bounds_write_one_past_a_global_array() {
    let ir = r#"
@arr = global [4 x i32] zeroinitializer

define i32 @main() {
  %p = getelementptr [4 x i32], [4 x i32]* @arr, i64 0, i64 4
  store i32 1, i32* %p
  ret i32 0
}
"#;
    let f = memory_error(ir, "out-of-bounds write");
    // The size is the whole array's, and the message names the array, not
    // its first element.
    assert!(f.message.contains("offset 16 of arr (size 16)"), "{}", f.message);
}

#[test]
fn out_of_bounds_write_before_a_stack_array() {
    let ir = r#"
define i32 @main() {
  %a = alloca [2 x i32]
  %p = getelementptr [2 x i32], [2 x i32]* %a, i64 0, i64 -1
  store i32 1, i32* %p
  ret i32 0
}
"#;
    memory_error(ir, "out-of-bounds write");
}

#[test]
fn out_of_bounds_read_below_a_heap_block_is_not_a_use_after_free() {
    let ir = r#"
declare i8* @malloc(i64)
declare void @free(i8*)

define i32 @main() {
  %old = call i8* @malloc(i64 4)
  call void @free(i8* %old)
  %m = call i8* @malloc(i64 4)
  %p = getelementptr i8, i8* %m, i64 -1
  %v = load i8, i8* %p
  %z = zext i8 %v to i32
  ret i32 %z
}
"#;
    memory_error(ir, "out-of-bounds read");
}

#[test]
fn use_after_free() {
    let ir = r#"
declare i8* @malloc(i64)
declare void @free(i8*)

define i32 @main() {
  %m = call i8* @malloc(i64 4)
  %p = bitcast i8* %m to i32*
  store i32 3, i32* %p
  call void @free(i8* %m)
  %v = load i32, i32* %p
  ret i32 %v
}
"#;
    let f = memory_error(ir, "use after free");
    // A note names who freed the block (the IR has no source locations).
    let note = f.notes.iter().find(|n| n.message.contains("freed the block")).expect("a note on the free");
    assert_eq!(note.thread, Some(causa_core::ThreadName::main()), "{note:?}");
}

#[test]
fn double_free() {
    let ir = r#"
declare i8* @malloc(i64)
declare void @free(i8*)

define i32 @main() {
  %m = call i8* @malloc(i64 4)
  call void @free(i8* %m)
  call void @free(i8* %m)
  ret i32 0
}
"#;
    memory_error(ir, "double free");
}

#[test]
fn free_of_a_global() {
    let ir = r#"
@g = global i32 0

declare void @free(i8*)

define i32 @main() {
  call void @free(i8* bitcast (i32* @g to i8*))
  ret i32 0
}
"#;
    memory_error(ir, "not allocated on the heap");
}

#[test]
fn free_of_a_stack_object() {
    let ir = r#"
declare void @free(i8*)

define i32 @main() {
  %x = alloca i32
  %p = bitcast i32* %x to i8*
  call void @free(i8* %p)
  ret i32 0
}
"#;
    memory_error(ir, "not allocated on the heap");
}

#[test]
fn free_of_an_interior_pointer() {
    let ir = r#"
declare i8* @malloc(i64)
declare void @free(i8*)

define i32 @main() {
  %m = call i8* @malloc(i64 16)
  %q = getelementptr inbounds i8, i8* %m, i64 4
  call void @free(i8* %q)
  ret i32 0
}
"#;
    memory_error(ir, "middle of");
}

#[test]
fn free_of_null_is_fine() {
    let ir = r#"
declare void @free(i8*)

define i32 @main() {
  call void @free(i8* null)
  ret i32 7
}
"#;
    assert_eq!(exit_code(ir), 7);
}

#[test]
fn access_to_a_dead_stack_frame() {
    let ir = r#"
define i32* @leak() {
  %x = alloca i32
  store i32 5, i32* %x
  ret i32* %x
}

define i32 @main() {
  %p = call i32* @leak()
  %v = load i32, i32* %p
  ret i32 %v
}
"#;
    memory_error(ir, "dead stack frame");
}

#[test]
fn strlen_of_a_string_without_nul() {
    let ir = r#"
declare i8* @malloc(i64)
declare i64 @strlen(i8*)
declare void @llvm.memset.p0i8.i64(i8*, i8, i64, i1)

define i32 @main() {
  %m = call i8* @malloc(i64 8)
  call void @llvm.memset.p0i8.i64(i8* %m, i8 97, i64 8, i1 false)
  %n = call i64 @strlen(i8* %m)
  %t = trunc i64 %n to i32
  ret i32 %t
}
"#;
    memory_error(ir, "not NUL-terminated");
}

#[test]
fn strlen_of_a_terminated_string() {
    let ir = r#"
declare i8* @malloc(i64)
declare i64 @strlen(i8*)
declare void @llvm.memset.p0i8.i64(i8*, i8, i64, i1)

define i32 @main() {
  %m = call i8* @malloc(i64 8)
  call void @llvm.memset.p0i8.i64(i8* %m, i8 97, i64 5, i1 false)
  %n = call i64 @strlen(i8* %m)
  %t = trunc i64 %n to i32
  ret i32 %t
}
"#;
    // malloc'ed memory is zero in causa, so byte 5 terminates the string.
    assert_eq!(exit_code(ir), 5);
}

#[test]
fn write_to_a_constant_global() {
    let ir = r#"
@c = constant i32 5

define i32 @main() {
  store i32 6, i32* @c
  ret i32 0
}
"#;
    memory_error(ir, "read-only");
}

#[test]
fn memcpy_overflowing_its_destination() {
    let ir = r#"
@src = global [8 x i8] zeroinitializer

declare i8* @malloc(i64)
declare void @llvm.memcpy.p0i8.p0i8.i64(i8*, i8*, i64, i1)

define i32 @main() {
  %m = call i8* @malloc(i64 4)
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %m, i8* getelementptr inbounds ([8 x i8], [8 x i8]* @src, i64 0, i64 0), i64 8, i1 false)
  ret i32 0
}
"#;
    memory_error(ir, "out-of-bounds write");
}

#[test]
fn call_through_an_invalid_function_pointer() {
    let ir = r#"
@g = global i32 0

define i32 @main() {
  %f = bitcast i32* @g to i32 ()*
  %r = call i32 %f()
  ret i32 %r
}
"#;
    memory_error(ir, "invalid function pointer");
}

#[test]
fn realloc_preserves_contents() {
    let ir = r#"
declare i8* @malloc(i64)
declare i8* @realloc(i8*, i64)
declare void @free(i8*)

define i32 @main() {
  %m = call i8* @malloc(i64 8)
  %p = bitcast i8* %m to i32*
  store i32 11, i32* %p
  %p1 = getelementptr inbounds i32, i32* %p, i64 1
  store i32 22, i32* %p1
  %n = call i8* @realloc(i8* %m, i64 16)
  %q = bitcast i8* %n to i32*
  %q1 = getelementptr inbounds i32, i32* %q, i64 1
  %q3 = getelementptr inbounds i32, i32* %q, i64 3
  store i32 33, i32* %q3
  %a = load i32, i32* %q
  %b = load i32, i32* %q1
  %c = load i32, i32* %q3
  call void @free(i8* %n)
  %x = mul i32 %a, 10000
  %y = mul i32 %b, 100
  %s = add i32 %x, %y
  %r = add i32 %s, %c
  ret i32 %r
}
"#;
    assert_eq!(exit_code(ir), 112_233);
}

#[test]
fn realloc_frees_the_old_block() {
    let ir = r#"
declare i8* @malloc(i64)
declare i8* @realloc(i8*, i64)

define i32 @main() {
  %m = call i8* @malloc(i64 8)
  %n = call i8* @realloc(i8* %m, i64 16)
  %v = load i8, i8* %m
  %z = zext i8 %v to i32
  ret i32 %z
}
"#;
    memory_error(ir, "use after free");
}
