//! The program's fingerprint: what a saved schedule or a path log was made
//! for. `causa run --schedule`, `causa explain` and `causa reproduce`
//! refuse one made for another build of the program.
//!
//! It is a digest of the linked module as LLVM prints it, without what
//! depends on where the program was compiled from rather than on what it
//! does: the module's name and source file name, the debug metadata (file
//! names, compilation directories, line numbers) and the path clang puts in
//! `__FILE__` (an `assert`'s message). A schedule saved by `causa test
//! dir/prog.c` therefore replays with `causa run /abs/dir/prog.c` or, from
//! `dir`, `causa run prog.c`; it is refused when the code, a constant or a
//! compiler flag changed (an `assert` moved to another line changes its
//! `__LINE__`). The bitcode's own bytes hold every one of those paths.

use sha2::{Digest, Sha256};

/// The fingerprint of the module whose text is `text`, compiled from
/// `inputs` (the paths as clang was given them).
pub fn of_module_text(text: &str, inputs: &[String]) -> String {
    digest(normalised(text, inputs).as_bytes())
}

/// Short, stable digest of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// `text` without comments, the source file name, metadata and debug
/// intrinsics, with each input's path in a string constant reduced to its
/// file name (and that constant's array length left out).
fn normalised(text: &str, inputs: &[String]) -> String {
    let paths: Vec<String> = inputs.iter().map(|p| escaped(p)).filter(|p| !p.is_empty()).collect();
    // Globals holding a path (`@.str.1 = … constant [48 x i8] c"dir/x.c\00"`):
    // their names and array types, which change with the path's length.
    let mut sized: Vec<(String, String)> = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('@')) {
        for p in &paths {
            let lit = format!(" c\"{p}\\00\"");
            let Some(at) = line.find(&lit) else { continue };
            let (Some(name), Some(open)) = (line.split(' ').next(), line[..at].rfind('[')) else { continue };
            sized.push((name.to_string(), line[open..at].to_string()));
        }
    }
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with(';') || t.starts_with("source_filename") || t.starts_with('!') || t.contains("@llvm.dbg.") {
            continue;
        }
        let mut l = without_attachments(line);
        for (name, ty) in &sized {
            if mentions(&l, name) {
                l = l.replace(ty.as_str(), "[_ x i8]");
            }
        }
        for p in &paths {
            let base = p.rsplit('/').next().unwrap_or(p);
            l = l.replace(&format!("c\"{p}\\00\""), &format!("c\"{base}\\00\""));
        }
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// `line` without its metadata attachments (`, !dbg !12`, `!dbg !7 {`,
/// `, !llvm.loop !30`).
fn without_attachments(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(" !") {
        let (head, tail) = rest.split_at(at);
        let after = &tail[2..];
        let name_len =
            after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_')).unwrap_or(after.len());
        let value = &after[name_len..];
        let is_attachment = name_len > 0
            && after.as_bytes()[0].is_ascii_alphabetic()
            && value.starts_with(" !")
            && value[2..].starts_with(|c: char| c.is_ascii_digit());
        if !is_attachment {
            out.push_str(head);
            out.push_str(" !");
            rest = after;
            continue;
        }
        out.push_str(head.strip_suffix(',').unwrap_or(head));
        let digits = value[2..].find(|c: char| !c.is_ascii_digit()).unwrap_or(value.len() - 2);
        rest = &value[2 + digits..];
    }
    out.push_str(rest);
    out
}

/// Whether `line` names the global `name` (not a longer name it begins).
fn mentions(line: &str, name: &str) -> bool {
    line.match_indices(name)
        .any(|(i, _)| !line[i + name.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_'))
}

/// `s` as LLVM prints it inside `c"…"`: printable ASCII but `"` and `\` as
/// it is, every other byte as `\XX`.
fn escaped(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            0x20..=0x7e if b != b'"' && b != b'\\' => (b as char).to_string(),
            _ => format!("\\{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const RELATIVE: &str = r#"; ModuleID = '/tmp/a.bc'
source_filename = "dir/x.c"
@.str = private unnamed_addr constant [7 x i8] c"n == 2\00", align 1
@.str.1 = private unnamed_addr constant [8 x i8] c"dir/x.c\00", align 1
define dso_local i32 @main() #0 !dbg !16 {
  %0 = load i32, i32* @n, align 4, !dbg !31
  br label %for.cond, !dbg !34, !llvm.loop !35
  call void @__assert_fail(i8* noundef getelementptr inbounds ([7 x i8], [7 x i8]* @.str, i64 0, i64 0), i8* noundef getelementptr inbounds ([8 x i8], [8 x i8]* @.str.1, i64 0, i64 0), i32 noundef 27), !dbg !55
}
!3 = !DIFile(filename: "dir/x.c", directory: "/work")
"#;

    fn absolute() -> String {
        RELATIVE
            .replace("c\"dir/x.c", "c\"/work/dir/x.c")
            .replace("[8 x i8]", "[14 x i8]")
            .replace("!dbg !31", "!dbg !32")
            .replace("\"dir/x.c\"", "\"/work/dir/x.c\"")
            .replace("\"/work\"", "\"/work/dir\"")
    }

    #[test]
    fn the_path_a_program_was_compiled_from_does_not_count() {
        let a = of_module_text(RELATIVE, &["dir/x.c".to_string()]);
        let b = of_module_text(&absolute(), &["/work/dir/x.c".to_string()]);
        assert_eq!(a, b);
        let n = normalised(RELATIVE, &["dir/x.c".to_string()]);
        assert!(n.contains("c\"x.c\\00\""), "{n}");
        assert!(!n.contains("!dbg") && !n.contains("!llvm.loop") && !n.contains("DIFile"), "{n}");
        // The attachments go, the rest of each line stays.
        assert!(n.contains("define dso_local i32 @main() #0 {"), "{n}");
        assert!(n.contains("br label %for.cond\n"), "{n}");
        // The other string keeps its length.
        assert!(n.contains("[7 x i8] c\"n == 2\\00\""), "{n}");
    }

    #[test]
    fn a_change_to_the_code_or_a_constant_counts() {
        let a = of_module_text(RELATIVE, &["dir/x.c".to_string()]);
        assert_ne!(a, of_module_text(&RELATIVE.replace("align 4", "align 8"), &["dir/x.c".to_string()]));
        assert_ne!(a, of_module_text(&RELATIVE.replace("n == 2", "n == 3"), &["dir/x.c".to_string()]));
        // Another file of the same name elsewhere is the same program.
        let moved = RELATIVE.replace("dir/x.c", "other/x.c");
        assert_eq!(a, of_module_text(&moved, &["other/x.c".to_string()]));
    }

    #[test]
    fn paths_are_escaped_as_llvm_prints_strings() {
        assert_eq!(escaped("dir/x.c"), "dir/x.c");
        assert_eq!(escaped("a\"b\\c"), "a\\22b\\5Cc");
        assert_eq!(escaped("é\t"), "\\C3\\A9\\09");
    }

    #[test]
    fn metadata_in_an_instruction_operand_is_kept() {
        let line = "  call void @f(metadata !12), !dbg !3";
        assert_eq!(without_attachments(line), "  call void @f(metadata !12)");
        assert_eq!(without_attachments("  ret i32 0, !dbg !60"), "  ret i32 0");
        assert_eq!(without_attachments("x !\"s\""), "x !\"s\"");
    }
}
