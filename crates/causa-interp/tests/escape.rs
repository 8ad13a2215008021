//! When a stack object becomes reachable by other threads (its accesses
//! then visible operations): a pointer to it stored into shared memory, or
//! kept in a private object that escapes in turn.

mod common;

use causa_core::EventKind;
use common::run_ir;

/// The writes of `value` the run made visible.
fn visible_writes(ir: &str, value: u128) -> usize {
    let ex = run_ir(ir);
    ex.events.iter().filter(|e| e.kind == EventKind::Write && e.value == value).count()
}

#[test]
fn a_pointer_kept_in_private_memory_does_not_make_its_target_shared() {
    // `int line; int *rest = &line; line = 7;`: nothing escapes.
    let ir = r#"
define i32 @main() {
  %line = alloca i32, align 4
  %rest = alloca i32*, align 8
  store i32* %line, i32** %rest, align 8
  store i32 7, i32* %line, align 4
  ret i32 0
}
"#;
    assert_eq!(visible_writes(ir, 7), 0);
}

#[test]
fn the_target_escapes_with_the_private_object_that_points_to_it() {
    // `rest` holds `&line`; `&rest` stored into a global makes both
    // reachable: the write of 7 to `line` after it is visible, the one of
    // 5 before it is not.
    let ir = r#"
@g = global i32** null, align 8

define i32 @main() {
  %line = alloca i32, align 4
  %rest = alloca i32*, align 8
  store i32* %line, i32** %rest, align 8
  store i32 5, i32* %line, align 4
  store i32** %rest, i32*** @g, align 8
  store i32 7, i32* %line, align 4
  ret i32 0
}
"#;
    assert_eq!(visible_writes(ir, 5), 0);
    assert_eq!(visible_writes(ir, 7), 1);
}
