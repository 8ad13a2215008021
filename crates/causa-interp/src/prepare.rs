//! Preparing a loaded program for execution: resolve every callee once and
//! check at load time that every external function the program declares is
//! supported, listing all unsupported ones at once with their call sites.
//!
//! Resolution order: the program's own definition, then a shim, then an error.
//! The exception are the SV-COMP functions (`reach_error`, `assume_abort_if_not`,
//! `__VERIFIER_*`): their shim wins even over a definition in the file, so that
//! they keep their verification meaning.

use crate::outcome::InterpError;
use crate::shims::{registry, ShimId};
use causa_ir::{FnId, Program};

/// A program ready to run: callee resolution done once.
pub struct Prepared {
    pub program: Program,
    /// For each function: the shim that runs when it is called, if any (see the
    /// module docs for the resolution order).
    pub shims: Vec<Option<ShimId>>,
    /// Functions named `__VERIFIER_atomic_*`: run without interruption.
    pub atomic_fns: Vec<bool>,
    pub main: FnId,
}

/// Functions the program may define that causa must not intercept.
fn definition_wins(name: &str) -> bool {
    !causa_ir::svcomp_intercepted(name)
}

/// Compile C source text with clang-14 and prepare it (tests and examples):
/// the text is written as `name` into a fresh temporary directory.
pub fn prepare_c_source(name: &str, src: &str) -> Result<std::sync::Arc<Prepared>, String> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // Fixed-width names: the path is in `assert`'s message, and its length
    // moves the program's globals, so a varying one would make runs (and
    // the explanations tests assert on) differ from one test run to the next.
    let dir = std::env::temp_dir().join(format!("causa-src-{:010}-{n:06}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join(name);
    std::fs::write(&path, src).map_err(|e| e.to_string())?;
    let loaded = causa_ir::load_program(&[path.display().to_string()], &causa_ir::CompileOptions::default());
    let _ = std::fs::remove_dir_all(&dir);
    let program = loaded.map_err(|e| e.to_string())?;
    prepare(program).map(std::sync::Arc::new).map_err(|e| e.to_string())
}

pub fn prepare(program: Program) -> Result<Prepared, InterpError> {
    let reg = registry();
    let mut shims = Vec::with_capacity(program.functions.len());
    let mut missing = Vec::new();
    for (i, f) in program.functions.iter().enumerate() {
        let shim = reg.lookup(&f.name);
        if f.body.is_some() {
            shims.push(shim.filter(|_| !definition_wins(&f.name)));
            continue;
        }
        if shim.is_none() && !causa_ir::lower::is_dropped_intrinsic(&f.name) {
            let uses = program
                .external_uses
                .iter()
                .find(|(id, _)| *id as usize == i)
                .map(|(_, sites)| sites.iter().filter_map(|s| program.loc(s.loc).cloned()).collect())
                .unwrap_or_default();
            missing.push((f.name.to_string(), uses));
        }
        shims.push(shim);
    }
    for g in program.globals.iter().filter(|g| g.external) {
        if !matches!(&*g.name, "stdin" | "stdout" | "stderr") {
            let at = program.loc(g.loc).cloned().into_iter().collect();
            missing.push((format!("{} (external variable)", g.name), at));
        }
    }
    if !missing.is_empty() {
        return Err(InterpError::UnsupportedExternals(missing));
    }
    let atomic_fns =
        program.functions.iter().map(|f| f.body.is_some() && causa_ir::is_atomic_function(&f.name)).collect();
    let main = program
        .function_by_name("main")
        .filter(|f| program.functions[*f as usize].body.is_some())
        .ok_or_else(|| InterpError::Unsupported { what: "program without a `main` function".into(), loc: None })?;
    Ok(Prepared { program, shims, atomic_fns, main })
}
