//! Source text lookup for reports ("the source line beside each event").

use causa_core::collections::HashMap;
use causa_core::SourceLoc;
use std::sync::Arc;

/// The file a debug location names, as causa reports it: `filename`, under
/// its compilation `directory` when it is relative and not found from here.
/// (The lowering and the native recorder's failure sites must agree.)
pub fn debug_path(filename: &str, directory: Option<&str>) -> String {
    match directory {
        // causa's own C runtime: always `<causa>/…`.
        Some(dir)
            if crate::compile::RUNTIME_FILE.strip_suffix(filename).and_then(|d| d.strip_suffix('/')) == Some(dir) =>
        {
            crate::compile::RUNTIME_FILE.to_string()
        }
        Some(dir) if !dir.is_empty() && !filename.starts_with('/') && !std::path::Path::new(filename).exists() => {
            format!("{}/{}", dir.trim_end_matches('/'), filename)
        }
        _ => filename.to_string(),
    }
}

/// The text of the source file `path` names (causa's own C runtime, named
/// [`crate::compile::RUNTIME_FILE`], included); None when it cannot be read.
pub fn read_source(path: &str) -> Option<String> {
    if path == crate::compile::RUNTIME_FILE {
        return Some(crate::compile::RUNTIME_SOURCE.to_string());
    }
    std::fs::read(path).ok().map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// Lazily reads source files and returns single lines. Missing files give `None`.
#[derive(Default)]
pub struct SourceCache {
    files: HashMap<Arc<str>, Option<Vec<String>>>,
}

impl SourceCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// The text of the line at `loc` (trailing space removed), if the file can be read.
    pub fn line(&mut self, loc: &SourceLoc) -> Option<String> {
        let lines = self
            .files
            .entry(loc.file.clone())
            .or_insert_with(|| read_source(&loc.file).map(|text| text.lines().map(str::to_string).collect()));
        let idx = (loc.line as usize).checked_sub(1)?;
        lines.as_ref()?.get(idx).map(|l| l.trim_end().to_string())
    }
}
