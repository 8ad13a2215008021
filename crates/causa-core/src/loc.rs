//! Source locations taken from debug info.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// A position in the analysed program's source. `file` is shared, so cloning is cheap.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct SourceLoc {
    pub file: Arc<str>,
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.column > 0 {
            write!(f, "{}:{}:{}", self.file, self.line, self.column)
        } else {
            write!(f, "{}:{}", self.file, self.line)
        }
    }
}
