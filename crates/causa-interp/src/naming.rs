//! Naming objects and values the way a person would write them.

use causa_ir::Ty;

/// `name`, `name[3]`, `name+8` for an offset into an object of type `ty`.
pub fn with_offset(name: &str, ty: &Ty, off: u64) -> String {
    if let Ty::Array(elem, n) = ty {
        let size = elem.alloc_size();
        if size > 0 && off.is_multiple_of(size) && off / size < *n {
            return format!("{name}[{}]", off / size);
        }
        if size > 0 && off / size < *n {
            return format!("{name}[{}]+{}", off / size, off % size);
        }
    }
    if off == 0 {
        name.to_string()
    } else {
        format!("{name}+{off}")
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
    fn array_elements_are_indexed() {
        let ty = Ty::Array(Arc::new(Ty::Int(32)), 4);
        assert_eq!(with_offset("buf", &ty, 12), "buf[3]");
        assert_eq!(with_offset("buf", &ty, 13), "buf[3]+1");
        assert_eq!(with_offset("x", &Ty::Int(32), 0), "x");
        assert_eq!(with_offset("s", &Ty::Void, 8), "s+8");
    }

    #[test]
    fn values_are_signed() {
        assert_eq!(format_value(0xffff_ffff, 4), "-1");
        assert_eq!(format_value(7, 1), "7");
        assert_eq!(format_value(0x5_0000_0010, 8), "0x500000010");
    }
}
