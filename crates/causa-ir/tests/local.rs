//! Which branches path logs leave out, on a compiled program: parameters
//! every call passes local values are local (through direct calls and
//! `pthread_create`'s argument), the parameters of `main` and of functions
//! whose address escapes are not.

use causa_ir::{load_program, CompileOptions, Program};

const SRC: &str = r#"
#include <pthread.h>
int shared;
static int sum(int lo, int hi) {           /* lo, hi: local at every call */
    int s = 0;
    for (int i = lo; i < hi; i++) s += i;
    return s;
}
static int scan(int n) {                   /* n: a shared value at one call */
    int s = 0;
    for (int i = 0; i < n; i++) s += i;
    return s;
}
static int twice(int n) {                  /* address escapes: not local */
    int s = 0;
    for (int i = 0; i < n; i++) s += 2;
    return s;
}
int (*volatile op)(int) = twice;
static void *part(void *arg) {             /* arg: a loop counter of main */
    long q = (long)arg;
    return (void *)(long)(sum(q * 10, (q + 1) * 10) + scan(3) + scan(shared));
}
static void *other(void *arg) {            /* arg: read from shared memory */
    long q = (long)arg;
    if (q > 2)
        shared = 2;
    return (void *)(long)sum(0, 4);
}
int main(int argc, char **argv) {
    pthread_t t[3];
    for (long q = 0; q < 2; q++) pthread_create(&t[q], 0, part, (void *)q);
    pthread_create(&t[2], 0, other, (void *)(long)shared);
    for (int q = 0; q < 3; q++) pthread_join(t[q], 0);
    if (argc > 1)
        shared = op(argc);
    return 0;
}
"#;

fn program() -> Program {
    if causa_ir::compile::find_tool("clang").is_err() {
        panic!("clang-14 is required: install it with `apt-get install clang-14 llvm-14` (or `make setup` as root)");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("local.c");
    std::fs::write(&path, SRC).expect("write");
    load_program(&[path.to_string_lossy().into_owned()], &CompileOptions::default()).expect("compiles")
}

/// The number of recorded branches in function `name`.
fn recorded(p: &Program, name: &str) -> usize {
    let f = p.function_by_name(name).unwrap_or_else(|| panic!("{name} is defined"));
    let body = p.functions[f as usize].body.as_ref().expect("a body");
    assert_eq!(body.recorded.len(), body.blocks.len(), "one flag per block in {name}");
    body.recorded.iter().filter(|r| **r).count()
}

#[test]
fn parameters_passed_local_values_are_local() {
    let p = program();
    // sum's loop bounds come from constants and part's argument, itself a
    // loop counter of main passed through pthread_create.
    assert_eq!(recorded(&p, "sum"), 0);
    // scan(3) and scan(shared): one call passes a shared read.
    assert_eq!(recorded(&p, "scan"), 1);
    // twice is called through a pointer stored in a global.
    assert_eq!(recorded(&p, "twice"), 1);
    // other's argument was read from shared memory: its branch is recorded.
    assert_eq!(recorded(&p, "other"), 1);
    // main's loops are on constants; argc is an input.
    assert_eq!(recorded(&p, "main"), 1);
}
