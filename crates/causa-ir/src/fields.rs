//! The names of struct fields, from the module's debug information, so that
//! an access at an offset into an object can be named as written
//! (`q.items[1].key` instead of `q+8`).
//!
//! `llvm-ir` reads debug locations but not the debug-info metadata
//! (`DICompositeType`, `DIDerivedType`), and LLVM's C API has no getter for
//! a composite type's members, so the module's textual form is read here:
//! each `DICompositeType` of a struct or union with its `elements` tuple,
//! each member's name and bit offset, and the typedef naming an anonymous
//! struct (clang names its LLVM type after the typedef). Bit-field members
//! are left out (their LLVM storage does not follow them).

use causa_core::collections::HashMap;

/// Member names of each struct by its C name (`queue` for
/// `%struct.queue`): (byte offset, name) in declaration order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FieldNames(HashMap<String, Vec<(u64, String)>>);

impl FieldNames {
    /// Read them from a module's textual IR.
    pub fn from_ir_text(text: &str) -> FieldNames {
        let mut nodes: HashMap<&str, &str> = HashMap::default();
        for line in text.lines() {
            if let Some((id, body)) = line.split_once(" = ") {
                if id.starts_with('!') && !id.contains(' ') {
                    nodes.insert(id, body);
                }
            }
        }
        // Anonymous composites named by a typedef.
        let mut typedef: HashMap<&str, String> = HashMap::default();
        for body in nodes.values() {
            if body.contains("!DIDerivedType(tag: DW_TAG_typedef") {
                if let (Some(name), Some(base)) = (field(body, "name"), field(body, "baseType")) {
                    typedef.entry(base).or_insert_with(|| unquote(name));
                }
            }
        }
        let mut out = HashMap::default();
        for (id, body) in &nodes {
            let composite = body.contains("!DICompositeType(tag: DW_TAG_structure_type")
                || body.contains("!DICompositeType(tag: DW_TAG_union_type");
            if !composite {
                continue;
            }
            let Some(name) = field(body, "name").map(unquote).or_else(|| typedef.get(id).cloned()) else { continue };
            let Some(elements) = field(body, "elements").and_then(|e| nodes.get(e)) else { continue };
            let members: Vec<(u64, String)> = elements
                .trim_start_matches("!{")
                .trim_end_matches('}')
                .split(", ")
                .filter_map(|m| nodes.get(m.trim()))
                .filter(|m| m.contains("tag: DW_TAG_member") && !m.contains("DIFlagBitField"))
                .filter_map(|m| {
                    let bits: u64 = field(m, "offset").and_then(|o| o.parse().ok()).unwrap_or(0);
                    Some((bits / 8, unquote(field(m, "name")?)))
                })
                .collect();
            if !members.is_empty() {
                out.entry(name).or_insert(members);
            }
        }
        FieldNames(out)
    }

    /// The member of struct `llvm_name` (`struct.queue`, `union.u`,
    /// `struct.queue.0`) at byte `offset`.
    pub fn member(&self, llvm_name: &str, offset: u64) -> Option<&str> {
        let c = c_name(llvm_name)?;
        self.0.get(c)?.iter().find(|(o, _)| *o == offset).map(|(_, n)| n.as_str())
    }
}

/// The C name of an LLVM struct type's name: `struct.queue` → `queue`
/// (LLVM numbers a second type of the same name `struct.queue.0`).
fn c_name(llvm_name: &str) -> Option<&str> {
    let rest = llvm_name.strip_prefix("struct.").or_else(|| llvm_name.strip_prefix("union."))?;
    let trimmed = match rest.rsplit_once('.') {
        Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => rest,
    };
    (trimmed != "anon").then_some(trimmed)
}

/// The value of `key:` in a metadata node's fields (`name: "x"` → `"x"`,
/// `elements: !12` → `!12`).
fn field<'a>(body: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!("{key}: ");
    let mut from = 0;
    while let Some(i) = body[from..].find(&pat) {
        let start = from + i;
        // A whole key (`name:`, not `linkageName:`).
        let ok = start == 0 || matches!(body.as_bytes()[start - 1], b'(' | b' ');
        let v = &body[start + pat.len()..];
        if ok {
            let end = if let Some(quoted) = v.strip_prefix('"') {
                quoted.find('"').map(|e| e + 2).unwrap_or(v.len())
            } else {
                v.find([',', ')']).unwrap_or(v.len())
            };
            return Some(&v[..end]);
        }
        from = start + pat.len();
    }
    None
}

fn unquote(s: &str) -> String {
    s.trim_matches('"').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const IR: &str = r#"
!10 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "queue", file: !3, line: 5, size: 544, elements: !11)
!11 = !{!12, !20}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "items", scope: !10, file: !3, line: 5, baseType: !13, size: 512)
!20 = !DIDerivedType(tag: DW_TAG_member, name: "tail", scope: !10, file: !3, line: 5, baseType: !7, size: 32, offset: 512)
!30 = distinct !DICompositeType(tag: DW_TAG_structure_type, file: !3, line: 9, size: 64, elements: !31)
!31 = !{!32, !33, !34}
!32 = !DIDerivedType(tag: DW_TAG_member, name: "lo", scope: !30, file: !3, line: 9, baseType: !7, size: 32)
!33 = !DIDerivedType(tag: DW_TAG_member, name: "flag", scope: !30, file: !3, line: 9, baseType: !7, size: 1, offset: 32, flags: DIFlagBitField, extraData: i64 32)
!34 = !DIDerivedType(tag: DW_TAG_member, name: "hi", scope: !30, file: !3, line: 9, baseType: !7, size: 32, offset: 64)
!35 = !DIDerivedType(tag: DW_TAG_typedef, name: "pair_t", file: !3, line: 9, baseType: !30)
"#;

    #[test]
    fn members_are_named_by_offset() {
        let f = FieldNames::from_ir_text(IR);
        assert_eq!(f.member("struct.queue", 0), Some("items"));
        assert_eq!(f.member("struct.queue", 64), Some("tail"));
        assert_eq!(f.member("struct.queue.0", 64), Some("tail"));
        assert_eq!(f.member("struct.queue", 4), None);
        // An anonymous struct takes its typedef's name; bit-fields are left out.
        assert_eq!(f.member("struct.pair_t", 0), Some("lo"));
        assert_eq!(f.member("struct.pair_t", 4), None);
        assert_eq!(f.member("struct.pair_t", 8), Some("hi"));
        assert_eq!(f.member("struct.anon", 0), None);
    }

    #[test]
    fn keys_are_matched_whole() {
        let body = r#"!DISubprogram(name: "f", linkageName: "g", scope: !1)"#;
        assert_eq!(field(body, "name"), Some("\"f\""));
        assert_eq!(field(body, "scope"), Some("!1"));
        assert_eq!(field(body, "line"), None);
    }
}
