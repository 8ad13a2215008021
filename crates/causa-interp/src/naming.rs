//! Naming objects and values the way a person would write them.

use causa_ir::Ty;

/// The longest string literal shown whole; a longer one is cut with `…`.
const LITERAL_CHARS: usize = 24;

/// A string literal as C writes it (`"plum"`, `"a\tb\n"`): the name of
/// the constant character array clang names `.str` or `.str.N` that holds
/// it, from its initial bytes up to the first NUL. None for any other
/// global.
pub fn literal(name: &str, ty: &Ty, is_const: bool, init: &[u8]) -> Option<String> {
    let literal_name =
        name == ".str" || name.strip_prefix(".str.").is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
    if !is_const || !literal_name || !matches!(ty, Ty::Array(e, _) if **e == Ty::Int(8)) {
        return None;
    }
    let text = init.split(|b| *b == 0).next().unwrap_or_default();
    let mut out = String::from('"');
    for (i, &b) in text.iter().enumerate() {
        if i == LITERAL_CHARS {
            out.push('…');
            break;
        }
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
    Some(out)
}

/// `name`, `name[3]`, `name.tail`, `name.items[1].key`, `name+8` for an
/// offset into an object of type `ty` (struct fields by the names the debug
/// information gives, [`causa_ir::fields`]; an offset that falls inside a
/// field without a name or with a name reserved for the C library, or
/// inside a scalar, is shown as `+n`).
pub fn with_offset(name: &str, ty: &Ty, off: u64) -> String {
    with_span(name, ty, off, None)
}

/// [`with_offset`] for an access of `size` bytes: in a union, the member
/// of that size (`st.half.sent` for 4 bytes at the start of `union {
/// uint64_t word; struct { uint32_t sent, acked; } half; }`, `st.word` for 8).
/// An access wider than the scalar there (a word read over a `char`
/// array) is named as a span of that many bytes (`b`, not `b[0]`).
pub fn accessed(name: &str, ty: &Ty, off: u64, size: u64) -> String {
    match scalar_at(ty, off) {
        Some(s) if s.store_size() < size && !matches!(ty, Ty::Struct(u) if !u.parts.is_empty()) => {
            with_span(name, ty, off, Some(size))
        }
        _ => path(name, ty, off, (None, Some(size)), false),
    }
}

/// [`with_offset`] for `len` bytes from `off` (a bulk access): the
/// innermost element or field that holds them all (`shared` for a copy of
/// the whole struct, `b.data` for a `memset` of that array).
pub fn with_span(name: &str, ty: &Ty, off: u64, len: Option<u64>) -> String {
    path(name, ty, off, (len, None), false)
}

/// What a pointer `off` bytes into an object of type `ty` points to: the
/// outermost element or field that starts there (`names[1]` for the
/// second row of `char names[2][16]`, `configs[1]` for the second struct
/// of an array of them), as a C programmer takes its address.
pub fn pointed(name: &str, ty: &Ty, off: u64) -> String {
    path(name, ty, off, (None, None), true)
}

/// `len`: a bulk access's span; `access`: a scalar access's size, which
/// only chooses a union's member.
fn path(name: &str, ty: &Ty, off: u64, (len, access): (Option<u64>, Option<u64>), outermost: bool) -> String {
    let mut out = name.to_string();
    let (mut ty, mut off) = (ty, off);
    let holds = |start: u64, size: u64, off: u64| len.is_none_or(|n| off >= start && off + n <= start + size);
    let mut first = true;
    loop {
        if len.is_some_and(|n| n >= ty.alloc_size()) || (outermost && off == 0 && !first) {
            break;
        }
        first = false;
        match ty {
            Ty::Array(elem, n) => {
                let size = elem.alloc_size();
                if size == 0 || off / size >= *n || !holds(off / size * size, size, off) {
                    break;
                }
                // A bulk access from a byte array's start (an empty
                // string's NUL) is of the array, as a longer one is.
                if len.is_some() && size == 1 && off == 0 {
                    break;
                }
                out.push_str(&format!("[{}]", off / size));
                (ty, off) = (elem, off % size);
            }
            Ty::Struct(s) => {
                // A union's member by the debug information (the LLVM type
                // below holds only the largest one).
                if let Some((part, index)) = union_part(&s.parts, off, len.or(access)) {
                    out.push('.');
                    out.push_str(&part.path);
                    off -= part.offset;
                    if let Some(i) = index {
                        out.push_str(&format!("[{i}]"));
                        off = 0;
                    }
                    break;
                }
                let k = s.offsets.partition_point(|o| *o <= off);
                let Some(k) = k.checked_sub(1).filter(|k| off < s.offsets[*k] + s.fields[*k].alloc_size()) else {
                    break;
                };
                if !holds(s.offsets[k], s.fields[k].alloc_size(), off) {
                    break;
                }
                // Reserved names (`__data`, `__size`) are the C library's
                // inside a `pthread_mutex_t` or `sem_t`: the object is named.
                let Some(field) = s.names[k].as_ref().filter(|f| !f.starts_with("__")) else { break };
                // (C11's unnamed struct or union member: its members are
                // named as the enclosing struct's.)
                if !field.is_empty() {
                    out.push('.');
                    out.push_str(field);
                }
                (ty, off) = (&s.fields[k], off - s.offsets[k]);
            }
            _ => break,
        }
    }
    if off != 0 {
        out.push_str(&format!("+{off}"));
    }
    out
}

/// The member of a union that an access of `want` bytes at `off` names:
/// one that starts there (of that size, when known; the first declared),
/// else an element of an array member (with its index). None: neither
/// (the offset is named from the LLVM type).
fn union_part(
    parts: &[causa_ir::fields::Part],
    off: u64,
    want: Option<u64>,
) -> Option<(&causa_ir::fields::Part, Option<u64>)> {
    let exact = parts.iter().find(|p| p.offset == off && want.is_none_or(|w| p.size == w));
    exact.map(|p| (p, None)).or_else(|| {
        parts.iter().find_map(|p| {
            let e = p.elem?;
            let inside = off >= p.offset && off < p.offset + p.size && (off - p.offset).is_multiple_of(e);
            let fits = want.is_none_or(|w| w <= e);
            (inside && fits).then(|| (p, Some((off - p.offset) / e)))
        })
    })
}

/// The scalar that starts at `off` in an object of type `ty` (descending
/// into arrays and struct fields), None when `off` falls inside one or in
/// padding.
pub fn scalar_at(ty: &Ty, off: u64) -> Option<&Ty> {
    scalar_and_bits_at(ty, off).map(|(ty, _)| ty)
}

/// [`scalar_at`] with the bit-fields LLVM keeps in that scalar, when it is
/// the integer of a struct that holds them ([`causa_ir::types::UnitBits`];
/// empty otherwise).
pub fn scalar_and_bits_at(ty: &Ty, off: u64) -> Option<(&Ty, &[causa_ir::types::UnitBits])> {
    let (mut ty, mut off) = (ty, off);
    let mut bits: &[causa_ir::types::UnitBits] = &[];
    loop {
        match ty {
            Ty::Array(elem, n) => {
                let size = elem.alloc_size();
                if size == 0 || off / size >= *n {
                    return None;
                }
                (ty, off, bits) = (elem, off % size, &[]);
            }
            Ty::Struct(s) => {
                let k = s.offsets.partition_point(|o| *o <= off).checked_sub(1)?;
                if off >= s.offsets[k] + s.fields[k].alloc_size() {
                    return None;
                }
                (ty, off, bits) = (&s.fields[k], off - s.offsets[k], s.bits_of(k));
            }
            _ => return (off == 0).then_some((ty, bits)),
        }
    }
}

/// The value `v` of an integer that holds bit-fields, as theirs: one
/// bit-field's value alone, several as `{1,0,3}` in declaration order (the
/// integer's name lists them the same way, `st.{ready,dirty,count}`).
pub fn format_bits(v: u128, bits: &[causa_ir::types::UnitBits]) -> String {
    match bits {
        [one] => one.of(v).to_string(),
        _ => format!("{{{}}}", bits.iter().map(|b| b.of(v).to_string()).collect::<Vec<_>>().join(",")),
    }
}

/// A value of `size` bytes read or written as a scalar of type `ty`: a
/// `double` or `float` as its number (`6.75`), anything else as
/// [`format_value`] shows it.
pub fn format_typed(v: u128, size: u32, ty: Option<&Ty>) -> String {
    match (ty, size) {
        (Some(Ty::F64), 8) => format!("{:?}", f64::from_bits(v as u64)),
        (Some(Ty::F32), 4) => format!("{:?}", f32::from_bits(v as u32)),
        _ => format_value(v, size),
    }
}

/// A value of `size` bytes as a signed decimal (pointers in hex).
pub fn format_value(v: u128, size: u32) -> String {
    match size {
        1 => (v as u8 as i8).to_string(),
        2 => (v as u16 as i16).to_string(),
        4 => (v as u32 as i32).to_string(),
        8 => {
            let x = v as u64;
            if x >> causa_ir::ADDR_SHIFT != 0 && (x >> 48) == 0 {
                format!("{x:#x}")
            } else {
                (x as i64).to_string()
            }
        }
        _ => (v as i128).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn string_literals_are_named_as_c_writes_them() {
        let chars = |n| Ty::Array(Arc::new(Ty::Int(8)), n);
        assert_eq!(literal(".str.6", &chars(5), true, b"plum\0").as_deref(), Some("\"plum\""));
        assert_eq!(literal(".str", &chars(7), true, b"a\t\"b\"\n\0").as_deref(), Some("\"a\\t\\\"b\\\"\\n\""));
        assert_eq!(literal(".str.1", &chars(3), true, b"\x01\xff\0").as_deref(), Some("\"\\x01\\xff\""));
        let long = b"abcdefghijklmnopqrstuvwxyz\0";
        assert_eq!(literal(".str.2", &chars(27), true, long).as_deref(), Some("\"abcdefghijklmnopqrstuvwx…\""));
        // Only clang's literals: a program's own constant, a writable
        // array, a literal's name that is not clang's, other element types.
        assert_eq!(literal("greeting", &chars(5), true, b"plum\0"), None);
        assert_eq!(literal(".str.6", &chars(5), false, b"plum\0"), None);
        assert_eq!(literal(".str.x", &chars(5), true, b"plum\0"), None);
        assert_eq!(literal(".str", &Ty::Array(Arc::new(Ty::Int(32)), 2), true, &[0; 8]), None);
    }

    #[test]
    fn array_elements_are_indexed() {
        let ty = Ty::Array(Arc::new(Ty::Int(32)), 4);
        assert_eq!(with_offset("buf", &ty, 12), "buf[3]");
        assert_eq!(with_offset("buf", &ty, 13), "buf[3]+1");
        assert_eq!(with_offset("x", &Ty::Int(32), 0), "x");
        assert_eq!(with_offset("s", &Ty::Void, 8), "s+8");
    }

    #[test]
    fn struct_fields_are_named_where_the_debug_information_names_them() {
        use causa_ir::space::Layout;
        use causa_ir::types::StructLayout;
        // struct item { int key; int val; }; struct queue { struct item items[8]; int tail; }
        let mut item = StructLayout::new(vec![Ty::Int(32), Ty::Int(32)], false, &Layout::X86_64);
        item.names = vec![Some("key".into()), Some("val".into())];
        let items = Ty::Array(Arc::new(Ty::Struct(Arc::new(item))), 8);
        let mut queue = StructLayout::new(vec![items, Ty::Int(32)], false, &Layout::X86_64);
        queue.names = vec![Some("items".into()), Some("tail".into())];
        let q = Ty::Struct(Arc::new(queue.clone()));
        assert_eq!(with_offset("q", &q, 64), "q.tail");
        assert_eq!(with_offset("q", &q, 12), "q.items[1].val");
        assert_eq!(with_offset("q", &q, 13), "q.items[1].val+1");
        // Without names: the offset.
        queue.names = vec![None, None];
        assert_eq!(with_offset("q", &Ty::Struct(Arc::new(queue.clone())), 12), "q+12");
        // The C library's own fields (a mutex's `__data.__lock`) are not shown.
        queue.names = vec![Some("__data".into()), None];
        assert_eq!(with_offset("m", &Ty::Struct(Arc::new(queue)), 0), "m");
        // An array of them.
        assert_eq!(with_offset("qs", &Ty::Array(Arc::new(q), 2), 68 + 8), "qs[1].items[1].key");
    }

    #[test]
    fn a_unions_members_are_named_by_offset_and_size() {
        use causa_ir::fields::Part;
        use causa_ir::space::Layout;
        use causa_ir::types::StructLayout;
        // union { uint64_t word; struct { uint32_t sent, acked; } half; unsigned char b[8]; }:
        // LLVM's type is `{ i64 }`.
        let mut u = StructLayout::new(vec![Ty::Int(64)], false, &Layout::X86_64);
        u.names = vec![Some("word".into())];
        let part = |offset, size, path: &str, elem| Part { offset, size, path: path.into(), elem };
        u.parts = vec![
            part(0, 8, "word", None),
            part(0, 8, "half", None),
            part(0, 4, "half.sent", None),
            part(4, 4, "half.acked", None),
            part(0, 8, "b", Some(1)),
        ];
        let st = Ty::Struct(Arc::new(u));
        assert_eq!(accessed("st", &st, 0, 8), "st.word");
        assert_eq!(accessed("st", &st, 0, 4), "st.half.sent");
        assert_eq!(accessed("st", &st, 4, 4), "st.half.acked");
        assert_eq!(accessed("st", &st, 3, 1), "st.b[3]");
        assert_eq!(with_offset("st", &st, 4), "st.half.acked");
        assert_eq!(with_offset("st", &st, 0), "st.word");
        // Inside a struct: `struct packet { int len; union stats s; }`.
        let pkt = StructLayout::new(vec![Ty::Int(32), st], false, &Layout::X86_64);
        let mut pkt = pkt;
        pkt.names = vec![Some("len".into()), Some("s".into())];
        assert_eq!(accessed("p", &Ty::Struct(Arc::new(pkt)), 12, 4), "p.s.half.acked");
        // A word read over a byte array: the bytes it spans.
        let b = Ty::Array(Arc::new(Ty::Int(8)), 4);
        assert_eq!(accessed("b", &b, 0, 4), "b");
        assert_eq!(accessed("b", &b, 2, 1), "b[2]");
    }

    #[test]
    fn floating_point_objects_show_their_numbers() {
        use causa_ir::space::Layout;
        use causa_ir::types::StructLayout;
        // struct { int n; double sum; float avg[2]; }
        let s = StructLayout::new(vec![Ty::Int(32), Ty::F64, Ty::Array(Arc::new(Ty::F32), 2)], false, &Layout::X86_64);
        let ty = Ty::Struct(Arc::new(s));
        assert_eq!(scalar_at(&ty, 8), Some(&Ty::F64));
        assert_eq!(scalar_at(&ty, 20), Some(&Ty::F32));
        assert_eq!(scalar_at(&ty, 0), Some(&Ty::Int(32)));
        assert_eq!(scalar_at(&ty, 4), None, "padding");
        assert_eq!(scalar_at(&ty, 9), None, "inside the double");
        assert_eq!(format_typed(6.75f64.to_bits() as u128, 8, Some(&Ty::F64)), "6.75");
        assert_eq!(format_typed(7.0f64.to_bits() as u128, 8, Some(&Ty::F64)), "7.0");
        assert_eq!(format_typed(0.5f32.to_bits() as u128, 4, Some(&Ty::F32)), "0.5");
        // Another width than the type's, or an integer: a number as before.
        assert_eq!(format_typed(0xffff_ffff, 4, Some(&Ty::F64)), "-1");
        assert_eq!(format_typed(3, 4, Some(&Ty::Int(32))), "3");
    }

    #[test]
    fn values_are_signed() {
        assert_eq!(format_value(0xffff_ffff, 4), "-1");
        assert_eq!(format_value(7, 1), "7");
        assert_eq!(format_value(0x5_0000_0010, 8), "0x500000010");
    }

    #[test]
    fn bit_fields_are_shown_by_their_own_values() {
        use causa_ir::space::Layout;
        use causa_ir::types::{StructLayout, UnitBits};
        // struct s { int id; unsigned ready : 1, dirty : 1, count : 6; unsigned short tag : 3; };
        let mut s = StructLayout::new(vec![Ty::Int(32), Ty::Int(8), Ty::Int(8)], false, &Layout::X86_64);
        let bits = |name: &str, shift, width| UnitBits { name: name.into(), shift, width };
        s.bits =
            vec![vec![], vec![bits("ready", 0, 1), bits("dirty", 1, 1), bits("count", 2, 6)], vec![bits("tag", 0, 3)]];
        let arr = Ty::Array(Arc::new(Ty::Struct(Arc::new(s))), 2);
        let bits_at = |off| scalar_and_bits_at(&arr, off).map(|(_, b)| b).filter(|b| !b.is_empty());
        assert!(bits_at(0).is_none(), "id is no bit-field");
        let unit = bits_at(8 + 4).expect("the second element's unit");
        assert_eq!(unit.len(), 3);
        // ready 1, dirty 0, count 5
        assert_eq!(format_bits(0b0001_0101, unit), "{1,0,5}");
        let tag = bits_at(5).expect("the tag's unit");
        // (Bits above the field's are not its value.)
        assert_eq!(format_bits(0b1111_0110, tag), "6");
        assert!(bits_at(7).is_none(), "padding");
    }
}
