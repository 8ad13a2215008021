//! Lowered types with their x86-64 (LP64) memory layout.

use crate::space::Layout;
use std::sync::Arc;

/// A first-class type as the interpreter needs it: enough to load, store and
/// compute sizes. Named structs are resolved to their layout at load time.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Void,
    Int(u32),
    F32,
    F64,
    /// x86 `long double` with its ABI alignment (16 on x86-64, 4 on i386); causa
    /// computes in f64 precision but keeps the memory footprint (a documented
    /// limitation).
    F80(u64),
    Ptr,
    Array(Arc<Ty>, u64),
    Vector(Arc<Ty>, u64),
    Struct(Arc<StructLayout>),
    /// Function, label, metadata and token types: not storable.
    Other,
}

/// Field offsets of a struct, computed once.
#[derive(Clone, Debug, PartialEq)]
pub struct StructLayout {
    pub fields: Vec<Ty>,
    pub offsets: Vec<u64>,
    /// Each field's name in the source, where the debug information gives
    /// it ([`crate::fields`]).
    pub names: Vec<Option<Arc<str>>>,
    /// A union's members as the source declares them ([`crate::fields::Part`]);
    /// empty for a struct.
    pub parts: Vec<crate::fields::Part>,
    /// For a field that is the integer LLVM keeps bit-fields in, those
    /// bit-fields (indexed like `fields`; empty where there are none).
    pub bits: Vec<Vec<UnitBits>>,
    pub size: u64,
    pub align: u64,
}

impl StructLayout {
    /// Lay out `fields` in order, each at its ABI alignment under `layout`
    /// (alignment 1 when packed), the size rounded to the largest alignment.
    pub fn new(fields: Vec<Ty>, packed: bool, layout: &Layout) -> StructLayout {
        let mut off = 0u64;
        let mut align = 1u64;
        let mut offsets = Vec::with_capacity(fields.len());
        for f in &fields {
            let a = if packed { 1 } else { layout.align_of(f) };
            off = off.div_ceil(a) * a;
            offsets.push(off);
            off += f.alloc_size();
            align = align.max(a);
        }
        let size = off.div_ceil(align) * align;
        let names = vec![None; fields.len()];
        StructLayout { fields, offsets, names, parts: Vec::new(), bits: Vec::new(), size, align }
    }

    /// The bit-fields field `k` holds (none when it is not their integer).
    pub fn bits_of(&self, k: usize) -> &[UnitBits] {
        self.bits.get(k).map_or(&[], |b| b.as_slice())
    }
}

/// A bit-field within the integer LLVM keeps it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitBits {
    pub name: Arc<str>,
    /// Its lowest bit, counted from the integer's lowest (x86 is little-endian).
    pub shift: u32,
    pub width: u32,
}

impl UnitBits {
    /// Its value in the integer `v`.
    pub fn of(&self, v: u128) -> u128 {
        let mask = if self.width >= 128 { u128::MAX } else { (1u128 << self.width) - 1 };
        (v >> self.shift.min(127)) & mask
    }
}

impl Ty {
    /// ABI alignment in bytes.
    pub fn align(&self) -> u64 {
        match self {
            Ty::Void | Ty::Other => 1,
            Ty::Int(b) => match *b {
                0..=8 => 1,
                9..=16 => 2,
                17..=32 => 4,
                33..=64 => 8,
                _ => 16,
            },
            Ty::F32 => 4,
            Ty::F64 | Ty::Ptr => 8,
            Ty::F80(align) => *align,
            Ty::Array(e, _) => e.align(),
            Ty::Vector(e, n) => (e.store_size() * n).next_power_of_two().max(1),
            Ty::Struct(s) => s.align,
        }
    }

    /// Bytes written by a store of this type.
    pub fn store_size(&self) -> u64 {
        match self {
            Ty::Void | Ty::Other => 0,
            Ty::Int(b) => (*b as u64).div_ceil(8),
            Ty::F32 => 4,
            Ty::F64 | Ty::Ptr => 8,
            Ty::F80(_) => 10,
            Ty::Array(e, n) => e.alloc_size() * n,
            Ty::Vector(e, n) => (e.store_size() * n).max(1),
            Ty::Struct(s) => s.size,
        }
    }

    /// Bytes an object of this type occupies (store size rounded to alignment).
    pub fn alloc_size(&self) -> u64 {
        let a = self.align();
        self.store_size().div_ceil(a) * a
    }

    /// Integer width in bits (pointers are 64).
    pub fn int_bits(&self) -> u32 {
        match self {
            Ty::Int(b) => *b,
            Ty::Ptr => 64,
            Ty::F32 => 32,
            Ty::F64 => 64,
            _ => 0,
        }
    }

    /// Integer width of a scalar, or of a vector's elements.
    pub fn lane_bits(&self) -> u32 {
        match self {
            Ty::Vector(e, _) => e.int_bits(),
            other => other.int_bits(),
        }
    }

    pub fn is_float(&self) -> bool {
        matches!(self, Ty::F32 | Ty::F64 | Ty::F80(_))
    }

    /// Element type of an array or vector; field `i` of a struct.
    pub fn element(&self, i: usize) -> Option<&Ty> {
        match self {
            Ty::Array(e, _) | Ty::Vector(e, _) => Some(e),
            Ty::Struct(s) => s.fields.get(i),
            _ => None,
        }
    }

    /// Byte offset of element/field `i`.
    pub fn element_offset(&self, i: u64) -> u64 {
        match self {
            Ty::Array(e, _) => e.alloc_size() * i,
            Ty::Vector(e, _) => e.store_size() * i,
            Ty::Struct(s) => s.offsets.get(i as usize).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// Number of elements of an aggregate.
    pub fn len(&self) -> u64 {
        match self {
            Ty::Array(_, n) | Ty::Vector(_, n) => *n,
            Ty::Struct(s) => s.fields.len() as u64,
            _ => 0,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn is_aggregate(&self) -> bool {
        matches!(self, Ty::Array(..) | Ty::Vector(..) | Ty::Struct(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_struct_layout() {
        // struct { char c; long x; int a[3]; } => offsets 0, 8, 16; size 32
        let s = StructLayout::new(
            vec![Ty::Int(8), Ty::Int(64), Ty::Array(Arc::new(Ty::Int(32)), 3)],
            false,
            &Layout::X86_64,
        );
        assert_eq!(s.offsets, vec![0, 8, 16]);
        assert_eq!(s.size, 32);
        assert_eq!(s.align, 8);
        let p = StructLayout::new(vec![Ty::Int(8), Ty::Int(32)], true, &Layout::X86_64);
        assert_eq!(p.offsets, vec![0, 1]);
        assert_eq!(p.size, 5);
        // i386: long long is 4-aligned inside structs.
        let i386 = Layout { ptr_bytes: 4, i64_align: 4, f64_align: 4, f80_align: 4 };
        let q = StructLayout::new(vec![Ty::Int(8), Ty::Int(64)], false, &i386);
        assert_eq!((q.offsets[1], q.size), (4, 12));
    }

    #[test]
    fn scalar_sizes() {
        assert_eq!(Ty::Int(1).store_size(), 1);
        assert_eq!(Ty::Int(128).alloc_size(), 16);
        assert_eq!(Ty::F80(16).alloc_size(), 16);
        assert_eq!(Ty::F80(4).alloc_size(), 12);
        assert_eq!(Ty::Ptr.align(), 8);
    }
}
