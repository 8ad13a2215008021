//! 32-bit programs (`-m32`): flat address space, 4-byte pointers, i386 struct
//! layout. The IR carries the i386 data layout clang emits for `-m32`.

mod common;

use causa_core::BugKind;
use common::{exit_code, expect_bug};

const I386: &str =
    "target datalayout = \"e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-f64:32:64-f80:32-n8:16:32-S128\"\n";

fn ir(body: &str) -> String {
    format!("{I386}{body}")
}

#[test]
fn pointers_are_four_bytes_and_round_trip_through_memory() {
    let p = ir(r#"
@g = global i32 41
@slot = global i32* null

define i32 @main() {
  store i32* @g, i32** @slot
  %p = load i32*, i32** @slot
  %v = load i32, i32* %p
  %a = ptrtoint i32** @slot to i32
  %b = ptrtoint i32** getelementptr (i32*, i32** @slot, i32 1) to i32
  %size = sub i32 %b, %a
  %r = add i32 %v, %size
  ret i32 %r
}
"#);
    // 41 + sizeof(int*) = 45
    assert_eq!(exit_code(&p), 45);
}

#[test]
fn long_long_is_four_byte_aligned_in_structs() {
    let p = ir(r#"
%struct.R = type { i8, i64 }
@r = global %struct.R { i8 1, i64 2 }

define i32 @main() {
  %a = ptrtoint %struct.R* @r to i32
  %b = ptrtoint i64* getelementptr (%struct.R, %struct.R* @r, i32 0, i32 1) to i32
  %off = sub i32 %b, %a
  %v = load i64, i64* getelementptr (%struct.R, %struct.R* @r, i32 0, i32 1)
  %v32 = trunc i64 %v to i32
  %x = mul i32 %off, 10
  %r = add i32 %x, %v32
  ret i32 %r
}
"#);
    // field 1 at offset 4 (not 8), value 2
    assert_eq!(exit_code(&p), 42);
}

#[test]
fn heap_errors_in_the_flat_space() {
    let oob = ir(r#"
declare i8* @malloc(i32)

define i32 @main() {
  %m = call i8* @malloc(i32 8)
  %p = bitcast i8* %m to i32*
  %q = getelementptr inbounds i32, i32* %p, i32 2
  %v = load i32, i32* %q
  ret i32 %v
}
"#);
    let f = expect_bug(&oob, BugKind::MemoryError, "out-of-bounds read");
    assert!(f.message.contains("heap#1"), "{}", f.message);
    let uaf = ir(r#"
declare i8* @malloc(i32)
declare void @free(i8*)

define i32 @main() {
  %m = call i8* @malloc(i32 4)
  call void @free(i8* %m)
  %v = load i8, i8* %m
  %r = zext i8 %v to i32
  ret i32 %r
}
"#);
    expect_bug(&uaf, BugKind::MemoryError, "use after free");
    let null = ir(r#"
define i32 @main() {
  %v = load i32, i32* inttoptr (i32 12 to i32*)
  ret i32 %v
}
"#);
    expect_bug(&null, BugKind::MemoryError, "null pointer dereference");
}

#[test]
fn function_pointers_work_in_the_flat_space() {
    let p = ir(r#"
@fp = global i32 (i32)* @twice

define i32 @twice(i32 %x) {
  %r = mul i32 %x, 2
  ret i32 %r
}

define i32 @main() {
  %f = load i32 (i32)*, i32 (i32)** @fp
  %r = call i32 %f(i32 21)
  ret i32 %r
}
"#);
    assert_eq!(exit_code(&p), 42);
}
