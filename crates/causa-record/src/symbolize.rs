//! The source location of a native crash, from the recording executable's
//! debug information (`llvm-symbolizer`): the runtime records only the
//! faulting instruction's address, since a signal handler cannot read debug
//! information, and `causa reproduce` asks here where that was.

use causa_core::paths::{NativeCrash, PathLog};
use causa_core::SourceLoc;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// Give `log`'s failure the source location of its native crash, if it has
/// one and no location yet: Ok(true) when located, Ok(false) when there was
/// nothing to locate, `Err` with the reason it could not be.
pub fn locate_crash(log: &mut PathLog, program: &causa_ir::Program) -> Result<bool, String> {
    let (Some(failure), Some(crash)) = (log.failure.as_mut(), &log.native_crash) else { return Ok(false) };
    if failure.location.is_some() {
        return Ok(false);
    }
    let files: BTreeSet<&str> = program.locs.iter().map(|l| &*l.file).collect();
    failure.location = Some(crash_location(crash, files)?);
    Ok(true)
}

/// Where `crash` happened, as one of `files` (the program's source files as
/// causa names them) names it. `Err` says why it is not known (no
/// executable, no symbolizer, no debug information, a file not in the
/// program); the caller goes on without a location.
pub fn crash_location<'a>(crash: &NativeCrash, files: impl IntoIterator<Item = &'a str>) -> Result<SourceLoc, String> {
    if !Path::new(&crash.executable).is_file() {
        return Err(format!("the recording executable {} is gone", crash.executable));
    }
    let tool = causa_ir::compile::find_tool("llvm-symbolizer").map_err(|e| e.to_string())?;
    let out = Command::new(&tool)
        .arg(format!("--obj={}", crash.executable))
        .args(["--functions=none", "--inlining"])
        .arg(format!("{:#x}", crash.pc))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    // The innermost (inlined) frame comes first: `file:line:column`.
    let first = text.lines().next().unwrap_or_default();
    let (file, line) = parse(first).ok_or_else(|| format!("no debug information at {:#x}", crash.pc))?;
    let file = same_file(&file, files).ok_or_else(|| format!("{file} is not one of the program's files"))?;
    // Line-precise: the optimised machine code's column need not be the
    // analysed module's.
    Ok(SourceLoc { file: file.into(), line, column: 0 })
}

/// `file:line:column` (or `file:line`) → (file, line); `??` and line 0 are
/// unknown.
fn parse(s: &str) -> Option<(String, u32)> {
    let mut parts = s.rsplitn(3, ':').collect::<Vec<_>>();
    parts.reverse();
    let (file, line) = match parts.as_slice() {
        [f, l, c] if c.parse::<u32>().is_ok() => (f.to_string(), l.parse::<u32>().ok()?),
        [f, l] => (f.to_string(), l.parse::<u32>().ok()?),
        _ => return None,
    };
    (file != "??" && line > 0).then_some((file, line))
}

/// The program file that is `file`: the same path once both are made
/// canonical, else the only one with the same file name.
fn same_file<'a>(file: &str, files: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let canon = |p: &str| std::fs::canonicalize(p).ok();
    let want = canon(file);
    let name = Path::new(file).file_name();
    let mut by_name = Vec::new();
    for f in files {
        if want.is_some() && canon(f) == want {
            return Some(f.to_string());
        }
        if Path::new(f).file_name() == name && !by_name.contains(&f) {
            by_name.push(f);
        }
    }
    match by_name.as_slice() {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbolizer_lines_are_parsed() {
        assert_eq!(parse("/tmp/a b/x.c:12:7"), Some(("/tmp/a b/x.c".into(), 12)));
        assert_eq!(parse("x.c:3"), Some(("x.c".into(), 3)));
        assert_eq!(parse("??:0:0"), None);
        assert_eq!(parse("x.c:0:0"), None);
        assert_eq!(parse(""), None);
    }

    #[test]
    fn files_are_matched_by_path_then_by_unique_name() {
        assert_eq!(same_file("/nowhere/dir/x.c", ["x.c", "y.c"]), Some("x.c".into()));
        assert_eq!(same_file("/nowhere/x.c", ["a/x.c", "b/x.c"]), None);
        assert_eq!(same_file("/nowhere/z.c", ["x.c"]), None);
    }
}
