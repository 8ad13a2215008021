//! From source paths to a loaded [`Program`].
//!
//! C and `.i` files are compiled with clang-14 at `-O0 -g -Xclang
//! -disable-O0-optnone` and then promoted with `opt -mem2reg`: every access to
//! globals and heap stays exactly as written (-O1 would delete racy stores and fold
//! assertions), while locals whose address is never taken become registers. Several
//! inputs are linked with `llvm-link-14`.

use crate::error::IrError;
use crate::fields::FieldNames;
use crate::program::Program;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How to build the program.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// Extra clang flags (`-I dir`, `-D N=3`, …), already split into words.
    pub cflags: Vec<String>,
}

const INSTALL_HINT: &str = "install it with `apt-get install clang-14 llvm-14` (or run `make setup` as root)";

/// Find an LLVM 14 tool: `NAME-14` on PATH, then `/usr/lib/llvm-14/bin/NAME`.
pub fn find_tool(name: &str) -> Result<PathBuf, IrError> {
    let versioned = format!("{name}-14");
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let p = dir.join(&versioned);
            if p.is_file() {
                return Ok(p);
            }
        }
    }
    let p = PathBuf::from("/usr/lib/llvm-14/bin").join(name);
    if p.is_file() {
        return Ok(p);
    }
    Err(IrError::ToolMissing { tool: versioned, hint: INSTALL_HINT.to_string() })
}

fn run(cmd: &mut Command, what: &str) -> Result<(), IrError> {
    let out = cmd.output().map_err(|e| IrError::Io { path: PathBuf::from(what), source: e })?;
    if out.status.success() {
        Ok(())
    } else {
        Err(IrError::Compile {
            file: what.to_string(),
            diagnostics: String::from_utf8_lossy(&out.stderr).trim_end().to_string(),
        })
    }
}

/// Compile (if needed), link and lower the given inputs into a [`Program`].
pub fn load_program(inputs: &[String], opts: &CompileOptions) -> Result<Program, IrError> {
    let dir = tempfile::Builder::new()
        .prefix("causa-")
        .tempdir()
        .map_err(|e| IrError::Io { path: std::env::temp_dir(), source: e })?;
    let linked = compile_bitcode(inputs, opts, dir.path())?;
    let text = module_text(&linked);
    let fingerprint = fingerprint_of(&linked, text.as_deref(), inputs)?;
    let module = if linked.extension().and_then(|e| e.to_str()) == Some("ll") {
        llvm_ir::Module::from_ir_path(&linked)
    } else {
        llvm_ir::Module::from_bc_path(&linked)
    }
    .map_err(|message| IrError::Parse { path: linked.display().to_string(), message })?;
    let fields = text.map(|t| FieldNames::from_ir_text(&t)).unwrap_or_default();
    crate::lower::lower_module_named(&module, inputs.to_vec(), fingerprint, fields)
}

/// The module at `path` (bitcode or textual IR) as text, for the debug
/// information `llvm-ir` does not read ([`crate::fields`]); None when LLVM
/// cannot read it (the fields are then named by offset).
fn module_text(path: &Path) -> Option<String> {
    if path.extension().and_then(|e| e.to_str()) == Some("ll") {
        return std::fs::read_to_string(path).ok();
    }
    // SAFETY: the printed string is copied before it is disposed of.
    with_module(path, |module| unsafe {
        use llvm_sys::core::*;
        let s = LLVMPrintModuleToString(module);
        let text = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
        LLVMDisposeMessage(s);
        text
    })
}

/// `f` of the module in `path` (bitcode, or textual IR for `.ll`), read
/// into a context of its own; None when LLVM cannot read it.
fn with_module<T>(path: &Path, f: impl FnOnce(llvm_sys::prelude::LLVMModuleRef) -> T) -> Option<T> {
    use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
    use llvm_sys::core::*;
    use llvm_sys::ir_reader::LLVMParseIRInContext;
    let c_path = std::ffi::CString::new(path.to_str()?).ok()?;
    let textual = path.extension().and_then(|e| e.to_str()) == Some("ll");
    // SAFETY: every LLVM object made here is disposed of before returning,
    // the module before its context (the IR reader takes the buffer).
    unsafe {
        let mut buf = std::ptr::null_mut();
        let mut msg = std::ptr::null_mut();
        if LLVMCreateMemoryBufferWithContentsOfFile(c_path.as_ptr(), &mut buf, &mut msg) != 0 {
            if !msg.is_null() {
                LLVMDisposeMessage(msg);
            }
            return None;
        }
        let ctx = LLVMContextCreate();
        let mut module = std::ptr::null_mut();
        let failed = if textual {
            let mut err = std::ptr::null_mut();
            let failed = LLVMParseIRInContext(ctx, buf, &mut module, &mut err) != 0;
            if !err.is_null() {
                LLVMDisposeMessage(err);
            }
            failed
        } else {
            let failed = LLVMParseBitcodeInContext2(ctx, buf, &mut module) != 0;
            LLVMDisposeMemoryBuffer(buf);
            failed
        };
        let out = if failed {
            None
        } else {
            let out = f(module);
            LLVMDisposeModule(module);
            Some(out)
        };
        LLVMContextDispose(ctx);
        out
    }
}

/// The module [`load_program`] lowers, as a file (in `dir`, or an input
/// given as `.ll`/`.bc`): every input compiled as causa compiles C, then
/// linked. It gives the program's [`program_fingerprint`]; the native recorder
/// instruments this very module.
pub fn compile_bitcode(inputs: &[String], opts: &CompileOptions, dir: &Path) -> Result<PathBuf, IrError> {
    let mut bitcode = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let path = Path::new(input);
        if !path.exists() {
            return Err(IrError::Io {
                path: path.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
            });
        }
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        match ext {
            "c" | "i" => bitcode.push(compile_c(path, &dir.join(format!("{i}.bc")), opts)?),
            "ll" | "bc" => bitcode.push(path.to_path_buf()),
            _ => return Err(IrError::UnknownInput { path: input.clone() }),
        }
    }
    let program = link(bitcode, &dir.join("linked.bc"))?;
    // The C library functions causa supplies as C code, when the program
    // calls one it does not define.
    let needed = declared_functions(&program);
    if !RUNTIME_FUNCTIONS.iter().any(|f| needed.iter().any(|n| n == f)) {
        return Ok(program);
    }
    let runtime = compile_runtime(dir, opts)?;
    link(vec![program, runtime], &dir.join("with-runtime.bc"))
}

/// One module of `bitcode` (linked into `out` when there are several).
fn link(mut bitcode: Vec<PathBuf>, out: &Path) -> Result<PathBuf, IrError> {
    if bitcode.len() == 1 {
        return Ok(bitcode.pop().unwrap_or_default());
    }
    let mut cmd = Command::new(find_tool("llvm-link")?);
    cmd.args(&bitcode).arg("-o").arg(out);
    run(&mut cmd, "llvm-link")?;
    Ok(out.to_path_buf())
}

/// The functions causa's C runtime ([`RUNTIME_SOURCE`]) defines.
pub const RUNTIME_FUNCTIONS: [&str; 2] = ["qsort", "bsearch"];

/// The C library functions causa supplies as C code: each calls back into
/// the program, so it runs as the program's code does (no shim can call a
/// function of the program in a loop). Written here, not taken from a C
/// library: it must be plain C that causa executes, without the library's
/// internals.
pub const RUNTIME_SOURCE: &str = include_str!("runtime/libc.c");

/// The name reports give [`RUNTIME_SOURCE`] (its debug locations name it).
pub const RUNTIME_FILE: &str = "<causa>/libc.c";

/// The function of [`RUNTIME_SOURCE`] whose body has line `line` (1-based):
/// the name of the last definition at or before it (a line at the left
/// margin that opens a body, `void qsort(…) {`), so that reports can say
/// "in `qsort`" rather than a line of a file the user does not have.
pub fn runtime_function(line: u32) -> Option<&'static str> {
    let upto = RUNTIME_SOURCE.lines().take(line as usize);
    upto.filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()) && l.trim_end().ends_with('{')).last().and_then(
        |l| {
            let head = l.split('(').next()?;
            let name = head.rsplit([' ', '*']).next()?;
            (!name.is_empty()).then_some(name)
        },
    )
}

/// [`RUNTIME_SOURCE`] compiled as the program is (its flags, so that the
/// target matches), named [`RUNTIME_FILE`] in debug locations.
fn compile_runtime(dir: &Path, opts: &CompileOptions) -> Result<PathBuf, IrError> {
    let dir = std::path::absolute(dir).map_err(|e| IrError::Io { path: dir.to_path_buf(), source: e })?;
    let (compilation_dir, file) = RUNTIME_FILE.rsplit_once('/').unwrap_or(("<causa>", "libc.c"));
    let src = dir.join(file);
    std::fs::write(&src, RUNTIME_SOURCE).map_err(|e| IrError::Io { path: src.clone(), source: e })?;
    let mut opts = opts.clone();
    opts.cflags.push(format!("-fdebug-compilation-dir={compilation_dir}"));
    compile_c_in(Path::new(file), &dir, &dir.join("runtime.bc"), &opts)
}

/// The functions `path`'s module declares without defining them.
fn declared_functions(path: &Path) -> Vec<String> {
    // SAFETY: the names are copied while the module lives.
    with_module(path, |module| unsafe {
        use llvm_sys::core::*;
        let mut names = Vec::new();
        let mut f = LLVMGetFirstFunction(module);
        while !f.is_null() {
            if LLVMIsDeclaration(f) != 0 {
                let mut len = 0;
                let p = LLVMGetValueName2(f, &mut len);
                names.push(String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned());
            }
            f = LLVMGetNextFunction(f);
        }
        names
    })
    .unwrap_or_default()
}

fn compile_c(src: &Path, out: &Path, opts: &CompileOptions) -> Result<PathBuf, IrError> {
    compile_c_in(src, Path::new("."), out, opts)
}

/// [`compile_c`] with clang run in `cwd` (`src` relative to it).
fn compile_c_in(src: &Path, cwd: &Path, out: &Path, opts: &CompileOptions) -> Result<PathBuf, IrError> {
    let raw = out.with_extension("raw.bc");
    let mut cmd = Command::new(find_tool("clang")?);
    cmd.current_dir(cwd);
    cmd.args(["-O0", "-g", "-Xclang", "-disable-O0-optnone", "-emit-llvm", "-c"])
        .args(["-fno-discard-value-names", "-Wno-everything"])
        .args(&opts.cflags)
        .arg(src)
        .arg("-o")
        .arg(&raw);
    run(&mut cmd, &src.display().to_string())?;
    let mut opt = Command::new(find_tool("opt")?);
    opt.args(["-mem2reg"]).arg(&raw).arg("-o").arg(out);
    run(&mut opt, "opt -mem2reg")?;
    Ok(out.to_path_buf())
}

/// The fingerprint of the module [`compile_bitcode`] made of `inputs`
/// (`linked`), as [`load_program`] gives it to the program: what schedules
/// and path logs are checked against (`crate::identity`).
pub fn program_fingerprint(linked: &Path, inputs: &[String]) -> Result<String, IrError> {
    fingerprint_of(linked, module_text(linked).as_deref(), inputs)
}

/// [`program_fingerprint`] of `linked`, whose text is `text`; a digest of
/// its bytes when LLVM cannot print it (the lowering then reports why it
/// cannot read it).
fn fingerprint_of(linked: &Path, text: Option<&str>, inputs: &[String]) -> Result<String, IrError> {
    if let Some(t) = text {
        return Ok(crate::identity::of_module_text(t, inputs));
    }
    let bytes = std::fs::read(linked).map_err(|e| IrError::Io { path: linked.to_path_buf(), source: e })?;
    Ok(crate::identity::digest(&bytes))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_runtime_line_is_named_by_its_function() {
        let line = |pat: &str| super::RUNTIME_SOURCE.lines().position(|l| l.contains(pat)).unwrap() as u32 + 1;
        assert_eq!(super::runtime_function(line("if (n < 2 || size == 0)")), Some("qsort"));
        assert_eq!(super::runtime_function(line("void *bsearch(")), Some("bsearch"));
        assert_eq!(super::runtime_function(1), None);
    }
}
