//! Native recording (`causa build`): a build of the program that records,
//! per thread, the control-flow path `causa reproduce` needs, in the path-log
//! format the interpreter writes (`causa_core::paths`).
//!
//! The build compiles the program exactly as causa analyses it
//! ([`causa_ir::compile_bitcode`]: the same module, hence the same
//! fingerprint), instruments that module ([`instrument`]), and compiles the
//! result with clang at the optimisation level asked for, linked with the
//! runtime (`runtime/causa_rt.c`, written for causa: per-thread buffers, no
//! locks or atomics on the recording path, thread names that follow the
//! creation tree, the log written at exit and at a failure). The recorded
//! decisions are those of the analysed module's branches, so a log decodes
//! against it without ambiguity whatever the optimiser did to the native
//! code. A crash by signal is located afterwards from the executable's debug
//! information ([`symbolize`]).

pub mod instrument;
pub mod symbolize;

use causa_ir::CompileOptions;
use std::path::{Path, PathBuf};
use std::process::Command;

pub use instrument::Instrumented;

/// The runtime's source, compiled into every recording build.
pub const RUNTIME: &str = include_str!("../runtime/causa_rt.c");

/// Why a build failed.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error(transparent)]
    Ir(#[from] causa_ir::IrError),
    #[error("instrumentation failed: {0}")]
    Instrument(String),
    #[error("native compilation failed:\n{0}")]
    Native(String),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

/// How to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Extra clang flags for the analysed module (as `causa reproduce
    /// --cflags` must be given them too).
    pub cflags: Vec<String>,
    /// Optimisation of the native code (`-O0` … `-O3`, `-Os`).
    pub opt: String,
    pub output: PathBuf,
}

/// A recording build.
#[derive(Clone, Debug)]
pub struct Built {
    pub output: PathBuf,
    /// The analysed module's fingerprint, written into every log.
    pub fingerprint: String,
    pub instrumented: Instrumented,
}

/// Build a recording executable of `inputs` (C files, as `causa run` takes
/// them).
pub fn build(inputs: &[String], opts: &BuildOptions) -> Result<Built, RecordError> {
    let dir = tempfile::Builder::new()
        .prefix("causa-build-")
        .tempdir()
        .map_err(|e| RecordError::Io { path: std::env::temp_dir(), source: e })?;
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |e| RecordError::Io { path, source: e }
    };
    let bc = causa_ir::compile_bitcode(inputs, &CompileOptions { cflags: opts.cflags.clone() }, dir.path())?;
    let fingerprint = causa_ir::program_fingerprint(&bc, inputs)?;
    // As the interpreter names it in its logs.
    let program = inputs.join(" ");
    let instrumented_bc = dir.path().join("instrumented.bc");
    // Which branches path logs hold: causa's own lowering of this module.
    let analysed = causa_ir::load_program(&[bc.display().to_string()], &CompileOptions::default())?;
    let recorded = analysed
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref().map(|b| (f.name.to_string(), b.recorded.clone())))
        .collect();
    let instrumented = instrument::instrument(&bc, &instrumented_bc, &program, &fingerprint, &recorded)?;
    let runtime = dir.path().join("causa_rt.c");
    std::fs::write(&runtime, RUNTIME).map_err(io(&runtime))?;
    // The runtime joins the module, so the optimiser inlines the recording
    // calls into the program's loops.
    let runtime_bc = dir.path().join("causa_rt.bc");
    let clang = causa_ir::compile::find_tool("clang")?;
    native(
        Command::new(&clang)
            .args([opts.opt.as_str(), "-g", "-emit-llvm", "-c"])
            .arg(format!("-DCAUSA_PATHS_VERSION={}", causa_core::paths::PATHS_VERSION))
            .arg(&runtime)
            .arg("-o")
            .arg(&runtime_bc),
    )?;
    let linked = dir.path().join("recording.bc");
    let llvm_link = causa_ir::compile::find_tool("llvm-link")?;
    native(Command::new(llvm_link).arg(&instrumented_bc).arg(&runtime_bc).arg("-o").arg(&linked))?;
    native(
        Command::new(&clang)
            .args([opts.opt.as_str(), "-g", "-Wno-everything"])
            .arg(&linked)
            .arg("-o")
            .arg(&opts.output)
            .arg("-lpthread"),
    )?;
    Ok(Built { output: opts.output.clone(), fingerprint, instrumented })
}

/// Run a step of the native build.
fn native(cmd: &mut Command) -> Result<(), RecordError> {
    let out = cmd.output().map_err(|e| RecordError::Native(format!("cannot run {:?}: {e}", cmd.get_program())))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(RecordError::Native(String::from_utf8_lossy(&out.stderr).trim_end().to_string()))
    }
}
