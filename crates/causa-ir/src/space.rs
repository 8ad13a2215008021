//! Target data layout and the address space causa runs a program in.
//!
//! Two address encodings, chosen by pointer width:
//! - **Tagged** (64-bit pointers): pointer `p` points into allocation `p >> 32` at
//!   offset `p & 0xffff_ffff`. Finding an address's object is a shift, and an
//!   address computed below or far above an object still names that object.
//! - **Flat** (32-bit pointers, `-m32`): allocations get increasing base addresses
//!   with a 16-byte gap between them (so a one-past-the-end pointer never names
//!   the next object); an address's object is found by binary search.
//!
//! In both, allocation 0 is the null page and globals and functions have fixed
//! addresses known at load time, so constant pointers are plain integers.

use crate::types::Ty;

/// The parts of the LLVM data layout causa needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Pointer size in bytes (4 or 8).
    pub ptr_bytes: u64,
    /// ABI alignment of i64 (4 on i386, 8 on x86-64).
    pub i64_align: u64,
    /// ABI alignment of double.
    pub f64_align: u64,
    /// ABI alignment of x86_fp80 (`long double`): 4 on i386, 16 on x86-64.
    pub f80_align: u64,
}

impl Layout {
    pub const X86_64: Layout = Layout { ptr_bytes: 8, i64_align: 8, f64_align: 8, f80_align: 16 };

    /// Parse an LLVM data layout string (missing entries take LLVM's defaults).
    /// A module without a data layout is taken to be x86-64, the target causa
    /// models by default.
    pub fn parse(s: &str) -> Layout {
        if s.trim().is_empty() {
            return Layout::X86_64;
        }
        // LLVM defaults: p:64:64, i64:32:64, f64:64:64, f80:128.
        let mut l = Layout { ptr_bytes: 8, i64_align: 4, f64_align: 8, f80_align: 16 };
        for spec in s.split('-') {
            let parts: Vec<&str> = spec.split(':').collect();
            let abi = |i: usize| parts.get(i).and_then(|x| x.parse::<u64>().ok()).map(|b| (b / 8).max(1));
            match parts[0] {
                "p" | "p0" => {
                    if let Some(sz) = abi(1) {
                        l.ptr_bytes = sz;
                    }
                }
                "i64" => l.i64_align = abi(1).unwrap_or(l.i64_align),
                "f64" => l.f64_align = abi(1).unwrap_or(l.f64_align),
                "f80" => l.f80_align = abi(1).unwrap_or(l.f80_align),
                _ => {}
            }
        }
        l
    }

    /// ABI alignment of a type under this layout (for struct field placement).
    pub fn align_of(&self, ty: &Ty) -> u64 {
        match ty {
            Ty::Int(b) if *b > 32 && *b <= 64 => self.i64_align,
            Ty::F64 => self.f64_align,
            Ty::Ptr => self.ptr_bytes,
            Ty::Array(e, _) => self.align_of(e),
            other => other.align(),
        }
    }
}

/// Where static objects live and how addresses are decoded.
#[derive(Clone, Debug, PartialEq)]
pub struct AddrSpace {
    pub layout: Layout,
    /// Flat mode: base address of each static allocation (null, globals,
    /// functions), ascending; empty in tagged mode.
    pub static_bases: Vec<u64>,
    /// Flat mode: first address available for stack and heap objects.
    pub first_dynamic_base: u64,
    pub num_globals: u32,
    pub num_functions: u32,
}

/// Bits of a tagged address that hold the offset inside an allocation.
pub const ADDR_SHIFT: u32 = 32;
/// Mask of the offset part of a tagged address.
pub const OFFSET_MASK: u64 = (1u64 << ADDR_SHIFT) - 1;
/// Gap left after every flat allocation.
pub const FLAT_GAP: u64 = 16;
/// First address of a flat address space (below is the null page).
pub const FLAT_START: u64 = 0x1000;

/// Round `x` up to a multiple of 16.
pub fn align16(x: u64) -> u64 {
    x.div_ceil(16) * 16
}

impl AddrSpace {
    /// The address space for a program with globals of the given sizes.
    pub fn new(layout: Layout, global_sizes: &[u64], num_functions: usize) -> AddrSpace {
        let mut s = AddrSpace {
            layout,
            static_bases: Vec::new(),
            first_dynamic_base: 0,
            num_globals: global_sizes.len() as u32,
            num_functions: num_functions as u32,
        };
        if !s.tagged() {
            let mut next = FLAT_START;
            s.static_bases.push(0);
            let sizes = global_sizes.iter().copied().chain(std::iter::repeat_n(1, num_functions));
            for size in sizes {
                let base = align16(next);
                s.static_bases.push(base);
                next = base + size.max(1) + FLAT_GAP;
            }
            s.first_dynamic_base = align16(next);
        }
        s
    }

    /// 64-bit pointers use the tagged encoding.
    pub fn tagged(&self) -> bool {
        self.layout.ptr_bytes == 8
    }

    /// Mask of a pointer-sized integer.
    pub fn ptr_mask(&self) -> u64 {
        if self.tagged() {
            u64::MAX
        } else {
            u32::MAX as u64
        }
    }

    /// Address of static allocation `id` (0 null, then globals, then functions).
    pub fn static_addr(&self, id: u32) -> u64 {
        if self.tagged() {
            (id as u64) << ADDR_SHIFT
        } else {
            self.static_bases[id as usize]
        }
    }

    pub fn global_addr(&self, g: usize) -> u64 {
        self.static_addr(g as u32 + 1)
    }

    pub fn function_addr(&self, f: u32) -> u64 {
        self.static_addr(self.num_globals + 1 + f)
    }

    /// The function a function-pointer value designates, if any.
    pub fn function_at(&self, addr: u64) -> Option<u32> {
        let first = self.num_globals + 1;
        if self.tagged() {
            let a = (addr >> ADDR_SHIFT) as u32;
            let ok = addr & OFFSET_MASK == 0 && a >= first && a < first + self.num_functions;
            return ok.then(|| a - first);
        }
        let lo = first as usize;
        let bases = &self.static_bases[lo..lo + self.num_functions as usize];
        bases.binary_search(&addr).ok().map(|i| i as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_of_both_targets() {
        let x64 = Layout::parse("e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128");
        assert_eq!(x64, Layout::X86_64);
        let i386 = Layout::parse("e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-f64:32:64-f80:32-n8:16:32-S128");
        assert_eq!(i386, Layout { ptr_bytes: 4, i64_align: 4, f64_align: 4, f80_align: 4 });
    }

    #[test]
    fn flat_addresses_are_separated_and_found() {
        let s = AddrSpace::new(Layout { ptr_bytes: 4, ..Layout::X86_64 }, &[4, 100], 2);
        assert_eq!(s.global_addr(0), FLAT_START);
        assert!(s.global_addr(1) >= s.global_addr(0) + 4 + FLAT_GAP);
        let f1 = s.function_addr(1);
        assert_eq!(s.function_at(f1), Some(1));
        assert_eq!(s.function_at(f1 + 1), None);
        assert!(s.first_dynamic_base > f1);
        let t = AddrSpace::new(Layout::X86_64, &[4], 1);
        assert_eq!(t.global_addr(0), 1 << 32);
        assert_eq!(t.function_at(2 << 32), Some(0));
    }
}
