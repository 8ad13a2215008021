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
use std::sync::Arc;

/// Each named struct's and union's [`Composite`], by its C name (`queue`
/// for `%struct.queue`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FieldNames(HashMap<String, Composite>);

/// A struct's or union's members as the debug information declares them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Composite {
    /// (byte offset, name, the anonymous struct or union the member is),
    /// in declaration order. A member without a name (C11's anonymous
    /// `union { … };` inside a struct) has the empty name: its members are
    /// named as the enclosing struct's.
    pub members: Vec<(u64, String, Option<Composite>)>,
    /// A union's [`Part`]s (empty for a struct).
    pub parts: Vec<Part>,
    /// Bit-field members in declaration order. LLVM stores neighbouring
    /// ones in one integer.
    pub bitfields: Vec<BitField>,
}

/// A bit-field member: `unsigned ready : 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitField {
    pub name: String,
    /// Its first bit, counted from the composite's start.
    pub bit: u64,
    /// How many bits it has.
    pub width: u64,
}

impl BitField {
    /// The byte its first bit is in.
    pub fn byte(&self) -> u64 {
        self.bit / 8
    }
}

/// A part of a union as the source declares it, which the union's LLVM type
/// (its largest member only) does not show: `half.acked` in `union { uint64_t
/// word; struct { uint32_t sent, acked; } half; }`. Members come before
/// what they hold, in declaration order; names the C library reserves
/// (`__data` in `pthread_mutex_t`) are left out with what they hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// Bytes from the union's start.
    pub offset: u64,
    pub size: u64,
    /// From the union: `half.acked`.
    pub path: Arc<str>,
    /// An array's element size in bytes (`char bytes[8]`: 1).
    pub elem: Option<u64>,
}

/// How deep anonymous structs and unions inside one another are followed.
const MAX_DEPTH: u32 = 4;

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
            if !is_composite(body) {
                continue;
            }
            let Some(name) = field(body, "name").map(unquote).or_else(|| typedef.get(id).cloned()) else { continue };
            let c = composite(&nodes, &typedef, body, 0);
            if !c.members.is_empty() || !c.bitfields.is_empty() {
                out.entry(name).or_insert(c);
            }
        }
        FieldNames(out)
    }

    /// Struct or union `llvm_name`'s members (`struct.queue`, `union.u`,
    /// `struct.queue.0`).
    pub fn composite(&self, llvm_name: &str) -> Option<&Composite> {
        self.0.get(c_name(llvm_name)?)
    }

    /// The member of struct `llvm_name` (`struct.queue`, `union.u`,
    /// `struct.queue.0`) at byte `offset`.
    pub fn member(&self, llvm_name: &str, offset: u64) -> Option<&str> {
        self.composite(llvm_name)?.member(offset)
    }
}

impl Composite {
    /// The (first declared) named member at byte `offset`.
    pub fn member(&self, offset: u64) -> Option<&str> {
        self.members.iter().find(|(o, n, _)| *o == offset && !n.is_empty()).map(|(_, n, _)| n.as_str())
    }

    /// The anonymous struct or union the member at `offset` is, with the
    /// member's name.
    pub fn nested(&self, offset: u64) -> Option<(&str, &Composite)> {
        self.members
            .iter()
            .find(|(o, _, c)| *o == offset && c.is_some())
            .and_then(|(_, n, c)| Some((n.as_str(), c.as_ref()?)))
    }
}

fn is_composite(body: &str) -> bool {
    body.contains("!DICompositeType(tag: DW_TAG_structure_type")
        || body.contains("!DICompositeType(tag: DW_TAG_union_type")
}

/// The members of composite `body`, with the anonymous structs and unions
/// among them (to [`MAX_DEPTH`]); a union's parts.
fn composite(nodes: &HashMap<&str, &str>, typedef: &HashMap<&str, String>, body: &str, depth: u32) -> Composite {
    let (bitfields, members): (Vec<&str>, Vec<&str>) =
        member_nodes(nodes, body).into_iter().partition(|m| m.contains("DIFlagBitField"));
    let bitfields = bitfields
        .into_iter()
        .filter_map(|m| {
            Some(BitField { name: unquote(field(m, "name")?), bit: bits(m, "offset"), width: bits(m, "size") })
        })
        .collect();
    let members = members
        .into_iter()
        .filter_map(|m| {
            let name = field(m, "name").map(unquote).unwrap_or_default();
            // (An anonymous struct or union: not named by itself or a
            // typedef, so its LLVM type is `struct.anon`, found by where
            // it is.)
            let base = field(m, "baseType");
            let anonymous = base
                .filter(|b| !typedef.contains_key(b))
                .and_then(|b| nodes.get(b))
                .filter(|t| is_composite(t) && field(t, "name").is_none() && depth < MAX_DEPTH);
            let nested = anonymous.map(|t| composite(nodes, typedef, t, depth + 1));
            (!name.is_empty() || nested.is_some()).then_some((bits(m, "offset") / 8, name, nested))
        })
        .collect();
    let mut parts = Vec::new();
    if body.contains("DW_TAG_union_type") {
        flatten(nodes, body, (0, ""), &mut parts, 0);
    }
    Composite { members, parts, bitfields }
}

/// The member nodes of composite `body` (its `elements`), bit-fields
/// included, in declaration order.
fn member_nodes<'a>(nodes: &HashMap<&str, &'a str>, body: &str) -> Vec<&'a str> {
    let elements = field(body, "elements").and_then(|e| nodes.get(e)).copied().unwrap_or_default();
    let ids = elements.trim_start_matches("!{").trim_end_matches('}').split(", ");
    ids.filter_map(|m| nodes.get(m.trim()).copied()).filter(|m| m.contains("tag: DW_TAG_member")).collect()
}

/// A numeric field of a metadata node, in bits (`offset`, `size`), 0 when
/// it has none.
fn bits(body: &str, key: &str) -> u64 {
    field(body, key).and_then(|o| o.parse().ok()).unwrap_or(0)
}

/// The type node a member's `baseType` names, through typedefs and
/// qualifiers.
fn resolved<'a>(nodes: &HashMap<&str, &'a str>, mut id: &'a str) -> Option<&'a str> {
    for _ in 0..16 {
        let body = *nodes.get(id)?;
        let alias = ["DW_TAG_typedef", "DW_TAG_const_type", "DW_TAG_volatile_type", "DW_TAG_atomic_type"]
            .iter()
            .any(|t| body.contains(&format!("!DIDerivedType(tag: {t}")));
        if !alias {
            return Some(body);
        }
        id = field(body, "baseType")?;
    }
    None
}

/// The members of composite `body` (and of the structs and unions they
/// are, to a few levels) as [`Part`]s from `at` bytes, named after `prefix`.
fn flatten(nodes: &HashMap<&str, &str>, body: &str, (at, prefix): (u64, &str), out: &mut Vec<Part>, depth: u32) {
    for m in member_nodes(nodes, body).into_iter().filter(|m| !m.contains("DIFlagBitField")) {
        // (A member without a name, C11's anonymous struct or union: its
        // members are named as the enclosing one's.)
        let name = field(m, "name").map(unquote).unwrap_or_default();
        if name.starts_with("__") {
            continue;
        }
        let offset = at + bits(m, "offset") / 8;
        let path = match (prefix.is_empty(), name.is_empty()) {
            (_, true) => prefix.to_string(),
            (true, false) => name,
            (false, false) => format!("{prefix}.{name}"),
        };
        let ty = field(m, "baseType").and_then(|b| resolved(nodes, b));
        let array = ty.filter(|t| t.contains("DW_TAG_array_type"));
        let elem =
            array.and_then(|a| field(a, "baseType")).and_then(|b| resolved(nodes, b)).map(|e| bits(e, "size") / 8);
        if !path.is_empty() && path != prefix {
            let elem = elem.filter(|e| *e > 0);
            out.push(Part { offset, size: bits(m, "size") / 8, path: Arc::from(path.as_str()), elem });
        }
        let composite = ty.filter(|t| is_composite(t));
        if let Some(inner) = composite.filter(|_| depth < MAX_DEPTH) {
            flatten(nodes, inner, (offset, &path), out, depth + 1);
        }
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
        // An anonymous struct takes its typedef's name; bit-fields are not
        // members (LLVM keeps them in an integer of its own), but listed
        // with their bits.
        assert_eq!(f.member("struct.pair_t", 0), Some("lo"));
        assert_eq!(f.member("struct.pair_t", 4), None);
        assert_eq!(f.member("struct.pair_t", 8), Some("hi"));
        assert_eq!(
            f.composite("struct.pair_t").unwrap().bitfields,
            [BitField { name: "flag".to_string(), bit: 32, width: 1 }]
        );
        assert_eq!(f.member("struct.anon", 0), None);
    }

    #[test]
    fn a_unions_members_are_its_parts() {
        // union stats { uint64_t word; struct { uint32_t sent, acked; } half; unsigned char b[8]; };
        // and pthread_mutex_t's `__data`, which is the C library's.
        let ir = r#"
!7 = distinct !DICompositeType(tag: DW_TAG_union_type, name: "stats", file: !3, line: 5, size: 64, elements: !8)
!8 = !{!9, !15, !40}
!9 = !DIDerivedType(tag: DW_TAG_member, name: "word", scope: !7, file: !3, line: 5, baseType: !10, size: 64)
!10 = !DIDerivedType(tag: DW_TAG_typedef, name: "uint64_t", file: !11, line: 27, baseType: !14)
!14 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!15 = !DIDerivedType(tag: DW_TAG_member, name: "half", scope: !7, file: !3, line: 5, baseType: !16, size: 64)
!16 = distinct !DICompositeType(tag: DW_TAG_structure_type, scope: !7, file: !3, line: 5, size: 64, elements: !17)
!17 = !{!18, !22}
!18 = !DIDerivedType(tag: DW_TAG_member, name: "sent", scope: !16, file: !3, line: 5, baseType: !21, size: 32)
!21 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!22 = !DIDerivedType(tag: DW_TAG_member, name: "acked", scope: !16, file: !3, line: 5, baseType: !21, size: 32, offset: 32)
!40 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !7, file: !3, line: 5, baseType: !41, size: 64)
!41 = !DICompositeType(tag: DW_TAG_array_type, baseType: !42, size: 64, elements: !43)
!42 = !DIBasicType(name: "unsigned char", size: 8, encoding: DW_ATE_unsigned_char)
!43 = !{!44}
!44 = !DISubrange(count: 8)
!25 = distinct !DICompositeType(tag: DW_TAG_union_type, file: !24, line: 67, size: 320, elements: !26)
!26 = !{!27}
!27 = !DIDerivedType(tag: DW_TAG_member, name: "__data", scope: !25, file: !24, line: 69, baseType: !16, size: 320)
!23 = !DIDerivedType(tag: DW_TAG_typedef, name: "pthread_mutex_t", file: !24, line: 72, baseType: !25)
"#;
        let f = FieldNames::from_ir_text(ir);
        let parts: Vec<(u64, u64, &str, Option<u64>)> =
            f.composite("union.stats").unwrap().parts.iter().map(|p| (p.offset, p.size, &*p.path, p.elem)).collect();
        assert_eq!(
            parts,
            [
                (0, 8, "word", None),
                (0, 8, "half", None),
                (0, 4, "half.sent", None),
                (4, 4, "half.acked", None),
                (0, 8, "b", Some(1)),
            ]
        );
        // The LLVM type's one field keeps the first member's name.
        assert_eq!(f.member("union.stats", 0), Some("word"));
        // A struct has no parts (`half`, the anonymous struct inside);
        // the C library's union none it names.
        assert_eq!(f.composite("union.stats").unwrap().nested(0).map(|(n, c)| (n, c.parts.len())), Some(("half", 0)));
        assert!(f.composite("union.pthread_mutex_t").unwrap().parts.is_empty());
    }

    #[test]
    fn anonymous_structs_and_unions_are_named_where_they_are() {
        // struct value { int kind; union { int i; float f; }; struct { int lo, hi; } range; };
        let ir = r#"
!5 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "value", file: !3, line: 3, size: 128, elements: !6)
!6 = !{!7, !9, !15}
!7 = !DIDerivedType(tag: DW_TAG_member, name: "kind", scope: !5, file: !3, line: 4, baseType: !8, size: 32)
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DIDerivedType(tag: DW_TAG_member, scope: !5, file: !3, line: 5, baseType: !10, size: 32, offset: 32)
!10 = distinct !DICompositeType(tag: DW_TAG_union_type, scope: !5, file: !3, line: 5, size: 32, elements: !11)
!11 = !{!12, !13}
!12 = !DIDerivedType(tag: DW_TAG_member, name: "i", scope: !10, file: !3, line: 5, baseType: !8, size: 32)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "f", scope: !10, file: !3, line: 5, baseType: !14, size: 32)
!14 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!15 = !DIDerivedType(tag: DW_TAG_member, name: "range", scope: !5, file: !3, line: 6, baseType: !16, size: 64, offset: 64)
!16 = distinct !DICompositeType(tag: DW_TAG_structure_type, scope: !5, file: !3, line: 6, size: 64, elements: !17)
!17 = !{!18, !19}
!18 = !DIDerivedType(tag: DW_TAG_member, name: "lo", scope: !16, file: !3, line: 6, baseType: !8, size: 32)
!19 = !DIDerivedType(tag: DW_TAG_member, name: "hi", scope: !16, file: !3, line: 6, baseType: !8, size: 32, offset: 32)
"#;
        let f = FieldNames::from_ir_text(ir);
        let c = f.composite("struct.value").unwrap();
        assert_eq!(c.member(0), Some("kind"));
        // C11's unnamed union: no name of its own, its members named as
        // the struct's.
        assert_eq!(c.member(4), None);
        let (name, u) = c.nested(4).unwrap();
        assert_eq!((name, u.member(0)), ("", Some("i")));
        assert_eq!(u.parts.iter().map(|p| &*p.path).collect::<Vec<_>>(), ["i", "f"]);
        let (name, r) = c.nested(8).unwrap();
        assert_eq!((name, r.member(0), r.member(4)), ("range", Some("lo"), Some("hi")));
        assert!(r.parts.is_empty());
        // (`struct.anon` itself is nobody's name.)
        assert_eq!(f.composite("struct.anon"), None);
    }

    #[test]
    fn keys_are_matched_whole() {
        let body = r#"!DISubprogram(name: "f", linkageName: "g", scope: !1)"#;
        assert_eq!(field(body, "name"), Some("\"f\""));
        assert_eq!(field(body, "scope"), Some("!1"));
        assert_eq!(field(body, "line"), None);
    }
}
