//! What the native tests share: building a program with the recorder.

use causa_record::BuildOptions;
use std::path::{Path, PathBuf};

pub fn require_clang() {
    if causa_ir::compile::find_tool("clang").is_err() {
        panic!("clang-14 is required: install it with `apt-get install clang-14 llvm-14` (or `make setup` as root)");
    }
}

/// Write `src` into `dir` and build it natively (recording, `-O2`).
pub fn build(dir: &Path, name: &str, src: &str) -> (String, PathBuf) {
    require_clang();
    let c = dir.join(format!("{name}.c"));
    std::fs::write(&c, src).expect("write the program");
    let exe = dir.join(name);
    let c = c.display().to_string();
    let opts = BuildOptions { cflags: vec![], opt: "-O2".into(), output: exe.clone() };
    causa_record::build(std::slice::from_ref(&c), &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
    (c, exe)
}
