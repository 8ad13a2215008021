//! Runtime values. Integers and pointers share one representation (pointers are
//! addresses in causa's address space, see the crate docs); integers are kept
//! zero-extended to 128 bits and masked to their width.

use std::sync::Arc;

/// A first-class LLVM value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Integer or pointer, zero-extended, masked to its width.
    Int(u128),
    F32(f32),
    F64(f64),
    /// Struct, array or vector value (elements in order).
    Agg(Arc<[Value]>),
}

impl Value {
    pub const ZERO: Value = Value::Int(0);

    /// The integer (or pointer) payload; floats give their bit pattern, aggregates 0.
    #[inline]
    pub fn as_int(&self) -> u128 {
        match self {
            Value::Int(v) => *v,
            Value::F32(f) => f.to_bits() as u128,
            Value::F64(f) => f.to_bits() as u128,
            Value::Agg(_) => 0,
        }
    }

    /// The value as a 64-bit address.
    #[inline]
    pub fn as_addr(&self) -> u64 {
        self.as_int() as u64
    }

    pub fn as_f64(&self) -> f64 {
        match self {
            Value::F32(f) => *f as f64,
            Value::F64(f) => *f,
            Value::Int(v) => f64::from_bits(*v as u64),
            Value::Agg(_) => 0.0,
        }
    }

    pub fn as_f32(&self) -> f32 {
        match self {
            Value::F32(f) => *f,
            Value::F64(f) => *f as f32,
            Value::Int(v) => f32::from_bits(*v as u32),
            Value::Agg(_) => 0.0,
        }
    }

    /// Elements of an aggregate (empty for scalars).
    pub fn elements(&self) -> &[Value] {
        match self {
            Value::Agg(v) => v,
            _ => &[],
        }
    }
}

/// Mask for an integer of `bits` width.
#[inline]
pub fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// Sign-extend the low `bits` of `v` to i128.
#[inline]
pub fn sext(v: u128, bits: u32) -> i128 {
    if bits >= 128 || bits == 0 {
        v as i128
    } else {
        let shift = 128 - bits;
        ((v << shift) as i128) >> shift
    }
}

use crate::types::Ty;

/// Write `v` as type `ty` into `out` (little endian, `out.len() >= ty.store_size()`).
pub fn encode(ty: &Ty, v: &Value, out: &mut [u8]) {
    match ty {
        Ty::Int(_) | Ty::Ptr => {
            let n = ty.store_size() as usize;
            let bytes = v.as_int().to_le_bytes();
            out[..n].copy_from_slice(&bytes[..n]);
        }
        Ty::F32 => out[..4].copy_from_slice(&v.as_f32().to_le_bytes()),
        Ty::F64 => out[..8].copy_from_slice(&v.as_f64().to_le_bytes()),
        Ty::F80(_) => {
            out[..8].copy_from_slice(&v.as_f64().to_le_bytes());
            out[8..10].fill(0);
        }
        Ty::Array(..) | Ty::Vector(..) | Ty::Struct(_) => {
            let elems = v.elements();
            for i in 0..ty.len() {
                let Some(ety) = ty.element(i as usize) else {
                    break;
                };
                let off = ty.element_offset(i) as usize;
                let ev = elems.get(i as usize).cloned().unwrap_or(Value::ZERO);
                encode(ety, &ev, &mut out[off..]);
            }
        }
        Ty::Void | Ty::Other => {}
    }
}

/// Read a value of type `ty` from `bytes`.
pub fn decode(ty: &Ty, bytes: &[u8]) -> Value {
    match ty {
        Ty::Int(bits) => {
            let n = ty.store_size() as usize;
            let mut b = [0u8; 16];
            b[..n].copy_from_slice(&bytes[..n]);
            Value::Int(u128::from_le_bytes(b) & mask(*bits))
        }
        Ty::Ptr => {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[..8]);
            Value::Int(u64::from_le_bytes(b) as u128)
        }
        Ty::F32 => Value::F32(f32::from_le_bytes(bytes[..4].try_into().unwrap_or([0; 4]))),
        Ty::F64 | Ty::F80(_) => Value::F64(f64::from_le_bytes(bytes[..8].try_into().unwrap_or([0; 8]))),
        Ty::Array(..) | Ty::Vector(..) | Ty::Struct(_) => {
            let mut elems = Vec::with_capacity(ty.len() as usize);
            for i in 0..ty.len() {
                let Some(ety) = ty.element(i as usize) else {
                    break;
                };
                let off = ty.element_offset(i) as usize;
                elems.push(decode(ety, &bytes[off..]));
            }
            Value::Agg(elems.into())
        }
        Ty::Void | Ty::Other => Value::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::StructLayout;

    #[test]
    fn sext_and_mask() {
        assert_eq!(sext(0xff, 8), -1);
        assert_eq!(sext(0x7f, 8), 127);
        assert_eq!(mask(1), 1);
        assert_eq!(mask(128), u128::MAX);
    }

    #[test]
    fn encode_decode_struct() {
        let ty = Ty::Struct(Arc::new(StructLayout::new(
            vec![Ty::Int(8), Ty::F64, Ty::Ptr],
            false,
            &crate::space::Layout::X86_64,
        )));
        let v = Value::Agg(vec![Value::Int(7), Value::F64(2.5), Value::Int(0x5_0000_0010)].into());
        let mut buf = vec![0u8; ty.alloc_size() as usize];
        encode(&ty, &v, &mut buf);
        assert_eq!(buf[0], 7);
        assert_eq!(decode(&ty, &buf), v);
    }
}
