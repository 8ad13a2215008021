//! Failures of loading a program (tool errors, never findings).

use causa_core::SourceLoc;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum IrError {
    #[error("`{tool}` not found: {hint}")]
    ToolMissing { tool: String, hint: String },
    #[error("could not compile {file}:\n{diagnostics}")]
    Compile { file: String, diagnostics: String },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("could not read LLVM IR from {path}: {message}")]
    Parse { path: String, message: String },
    #[error("unsupported input file {path}: expected a .c, .i, .ll or .bc file")]
    UnknownInput { path: String },
    #[error("unsupported {what}{}", at(.loc))]
    Unsupported { what: String, loc: Option<SourceLoc> },
    #[error("the program has no `main` function")]
    NoMain,
}

fn at(loc: &Option<SourceLoc>) -> String {
    match loc {
        Some(l) => format!(" at {l}"),
        None => String::new(),
    }
}

impl IrError {
    /// Stable code for JSON output and tests.
    pub fn code(&self) -> &'static str {
        match self {
            IrError::ToolMissing { .. } => "tool-missing",
            IrError::Compile { .. } => "compile-error",
            IrError::Io { .. } => "io-error",
            IrError::Parse { .. } => "ir-parse-error",
            IrError::UnknownInput { .. } => "unknown-input",
            IrError::Unsupported { .. } => "unsupported",
            IrError::NoMain => "no-main",
        }
    }
}
