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
use sha2::{Digest, Sha256};
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
    let bytes = std::fs::read(&linked).map_err(|e| IrError::Io { path: linked.clone(), source: e })?;
    let fingerprint = fingerprint(&bytes);
    let module = if linked.extension().and_then(|e| e.to_str()) == Some("ll") {
        llvm_ir::Module::from_ir_path(&linked)
    } else {
        llvm_ir::Module::from_bc_path(&linked)
    }
    .map_err(|message| IrError::Parse { path: linked.display().to_string(), message })?;
    let fields = module_text(&linked).map(|t| FieldNames::from_ir_text(&t)).unwrap_or_default();
    crate::lower::lower_module_named(&module, inputs.to_vec(), fingerprint, fields)
}

/// The module at `path` (bitcode or textual IR) as text, for the debug
/// information `llvm-ir` does not read ([`crate::fields`]); None when LLVM
/// cannot read it (the fields are then named by offset).
fn module_text(path: &Path) -> Option<String> {
    if path.extension().and_then(|e| e.to_str()) == Some("ll") {
        return std::fs::read_to_string(path).ok();
    }
    use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
    use llvm_sys::core::*;
    let c_path = std::ffi::CString::new(path.to_str()?).ok()?;
    // SAFETY: every LLVM object made here is disposed of before returning,
    // the module before its context; the printed string is copied first.
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
        let failed = LLVMParseBitcodeInContext2(ctx, buf, &mut module) != 0;
        LLVMDisposeMemoryBuffer(buf);
        let text = if failed {
            None
        } else {
            let s = LLVMPrintModuleToString(module);
            let text = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
            LLVMDisposeMessage(s);
            LLVMDisposeModule(module);
            Some(text)
        };
        LLVMContextDispose(ctx);
        text
    }
}

/// The module [`load_program`] lowers, as a file (in `dir`, or an input
/// given as `.ll`/`.bc`): every input compiled as causa compiles C, then
/// linked. Its bytes give the program's [`fingerprint`]; the native recorder
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
    if bitcode.len() == 1 {
        return Ok(bitcode.pop().unwrap_or_default());
    }
    let out = dir.join("linked.bc");
    let mut cmd = Command::new(find_tool("llvm-link")?);
    cmd.args(&bitcode).arg("-o").arg(&out);
    run(&mut cmd, "llvm-link")?;
    Ok(out)
}

fn compile_c(src: &Path, out: &Path, opts: &CompileOptions) -> Result<PathBuf, IrError> {
    let raw = out.with_extension("raw.bc");
    let mut cmd = Command::new(find_tool("clang")?);
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

/// Short, stable digest of the program's bitcode.
pub fn fingerprint(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}
