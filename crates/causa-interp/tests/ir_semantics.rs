//! Instruction semantics, checked on tiny hand-written LLVM 14 IR programs whose
//! `main` computes a value and returns it as the exit code.

mod common;

use causa_core::BugKind;
use common::{exit_code, expect_bug};

// ---------------------------------------------------------------- integer arithmetic

#[test]
fn add_wraps_at_i8() {
    // 200 + 100 = 300 = 44 (mod 256); 127 + 1 = -128 as a signed i8.
    let ir = r#"
define i32 @main() {
  %a = add i8 -56, 100
  %b = add i8 127, 1
  %za = zext i8 %a to i32
  %sb = sext i8 %b to i32
  %m = mul i32 %sb, 1000
  %r = add i32 %m, %za
  ret i32 %r
}
"#;
    assert_eq!(exit_code(ir), -128 * 1000 + 44);
}

#[test]
fn sub_and_mul_wrap_at_i16() {
    // 300 * 300 = 90000 = 24464 (mod 65536); 0 - 1 = 65535 unsigned.
    let ir = r#"
define i32 @main() {
  %m = mul i16 300, 300
  %s = sub i16 0, 1
  %zm = zext i16 %m to i32
  %zs = zext i16 %s to i32
  %hi = mul i32 %zs, 100000
  %r = add i32 %hi, %zm
  ret i32 %r
}
"#;
    // 65535 * 100000 wraps at i32 as well: compute the expected value the same way.
    let expected = 65535i32.wrapping_mul(100000).wrapping_add(24464);
    assert_eq!(exit_code(ir), expected);
}

#[test]
fn add_and_mul_wrap_at_i32() {
    let ir = r#"
define i32 @main() {
  %a = add i32 2147483647, 1
  %m = mul i32 65536, 65537
  %c = icmp eq i32 %a, -2147483648
  %cz = zext i1 %c to i32
  %r = add i32 %m, %cz
  ret i32 %r
}
"#;
    // 65536 * 65537 = 2^32 + 65536 = 65536 (mod 2^32), plus 1 for the INT_MAX + 1 check.
    assert_eq!(exit_code(ir), 65537);
}

#[test]
fn mul_and_sub_wrap_at_i64() {
    // 2^32 * (2^32 + 1) = 2^64 + 2^32 = 2^32 (mod 2^64); 0 - 1 = all ones.
    let ir = r#"
define i32 @main() {
  %m = mul i64 4294967296, 4294967297
  %hi = lshr i64 %m, 32
  %lo = trunc i64 %m to i32
  %s = sub i64 0, 1
  %shi = lshr i64 %s, 60
  %t = trunc i64 %hi to i32
  %u = trunc i64 %shi to i32
  %a = mul i32 %t, 100
  %b = mul i32 %u, 1000
  %c = add i32 %a, %b
  %r = add i32 %c, %lo
  ret i32 %r
}
"#;
    // hi = 1, lo = 0, (2^64 - 1) >> 60 = 15.
    assert_eq!(exit_code(ir), 100 + 15 * 1000);
}

#[test]
fn signed_and_unsigned_division_with_negative_operands() {
    let ir = r#"
define i32 @main() {
  %q = sdiv i32 -7, 2
  %r = srem i32 -7, 2
  %q2 = sdiv i32 7, -2
  %r2 = srem i32 7, -2
  %a = mul i32 %q, 1000
  %b = mul i32 %r, 100
  %c = mul i32 %q2, 10
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %r2
  ret i32 %s3
}
"#;
    // -7 / 2 = -3, -7 % 2 = -1, 7 / -2 = -3, 7 % -2 = 1 (C truncating semantics).
    assert_eq!(exit_code(ir), -3000 - 100 - 30 + 1);
}

#[test]
fn unsigned_division_reinterprets_negative_bits() {
    let ir = r#"
define i32 @main() {
  %q = udiv i32 -7, 2
  %r = urem i32 -7, 2
  %d = sub i32 %q, 2147483000
  %m = mul i32 %r, 10000
  %s = add i32 %d, %m
  ret i32 %s
}
"#;
    // 4294967289 / 2 = 2147483644, 4294967289 % 2 = 1.
    assert_eq!(exit_code(ir), 644 + 10000);
}

#[test]
fn division_at_i8_uses_the_narrow_width() {
    let ir = r#"
define i32 @main() {
  %u = udiv i8 -1, 3
  %s = sdiv i8 -1, 3
  %ur = urem i8 -128, 7
  %sr = srem i8 -128, 7
  %zu = zext i8 %u to i32
  %ss = sext i8 %s to i32
  %zur = zext i8 %ur to i32
  %ssr = sext i8 %sr to i32
  %a = mul i32 %zu, 1000
  %b = mul i32 %zur, 10
  %c = add i32 %a, %b
  %d = add i32 %c, %ss
  %e = add i32 %d, %ssr
  ret i32 %e
}
"#;
    // 255 / 3 = 85, -1 / 3 = 0, 128 % 7 = 2, -128 % 7 = -2.
    assert_eq!(exit_code(ir), 85 * 1000 + 2 * 10 - 2);
}

#[test]
fn shifts_left_logical_and_arithmetic() {
    let ir = r#"
define i32 @main() {
  %shl = shl i32 1, 31
  %lshr = lshr i32 -16, 28
  %ashr = ashr i32 -16, 2
  %is_min = icmp eq i32 %shl, -2147483648
  %z = zext i1 %is_min to i32
  %a = mul i32 %z, 1000
  %b = mul i32 %lshr, 10
  %c = add i32 %a, %b
  %r = add i32 %c, %ashr
  ret i32 %r
}
"#;
    // 1 << 31 = INT_MIN; 0xfffffff0 >> 28 = 15 (logical); -16 >> 2 = -4 (arithmetic).
    assert_eq!(exit_code(ir), 1000 + 150 - 4);
}

#[test]
fn shifts_at_i8_keep_the_sign_bit_of_the_narrow_type() {
    let ir = r#"
define i32 @main() {
  %a = ashr i8 -128, 7
  %l = lshr i8 -128, 7
  %s = shl i8 -1, 4
  %sa = sext i8 %a to i32
  %zl = zext i8 %l to i32
  %zs = zext i8 %s to i32
  %x = mul i32 %zs, 100
  %y = mul i32 %zl, 10
  %p = add i32 %x, %y
  %r = add i32 %p, %sa
  ret i32 %r
}
"#;
    // ashr: -1; lshr: 1; 0xff << 4 = 0xf0 = 240.
    assert_eq!(exit_code(ir), 24000 + 10 - 1);
}

#[test]
fn bitwise_and_or_xor() {
    let ir = r#"
define i32 @main() {
  %and = and i32 61680, 65280
  %or = or i32 61680, 65280
  %xor = xor i32 61680, 65280
  %not = xor i32 %and, -1
  %a = lshr i32 %and, 12
  %o = lshr i32 %or, 4
  %x = lshr i32 %xor, 4
  %n = icmp eq i32 %not, -61441
  %nz = zext i1 %n to i32
  %a1 = mul i32 %a, 1000000
  %o1 = mul i32 %o, 100
  %x1 = mul i32 %x, 10
  %s1 = add i32 %a1, %o1
  %s2 = add i32 %s1, %x1
  %s3 = add i32 %s2, %nz
  ret i32 %s3
}
"#;
    // 0xf0f0 & 0xff00 = 0xf000, | = 0xfff0, ^ = 0x0ff0.
    assert_eq!(exit_code(ir), 0xf * 1_000_000 + 0xfff * 100 + 0xff * 10 + 1);
}

// ---------------------------------------------------------------- comparisons

/// A program returning a mask with bit `i` set when the `i`-th predicate of
/// eq, ne, ugt, uge, ult, ule, sgt, sge, slt, sle holds for `a` and `b`.
fn icmp_mask_program(ty: &str, a: i64, b: i64) -> String {
    let preds = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"];
    let mut body = String::from("  %acc0 = add i32 0, 0\n");
    for (i, p) in preds.iter().enumerate() {
        body += &format!(
            "  %c{i} = icmp {p} {ty} {a}, {b}\n  %z{i} = zext i1 %c{i} to i32\n  %s{i} = shl i32 %z{i}, {i}\n  %acc{n} = or i32 %acc{i}, %s{i}\n",
            n = i + 1
        );
    }
    format!("define i32 @main() {{\n{body}  ret i32 %acc10\n}}\n")
}

fn icmp_mask(a: i64, b: i64, unsigned: fn(i64) -> u64) -> i32 {
    let (ua, ub) = (unsigned(a), unsigned(b));
    let bits = [a == b, a != b, ua > ub, ua >= ub, ua < ub, ua <= ub, a > b, a >= b, a < b, a <= b];
    bits.iter().enumerate().map(|(i, &b)| (b as i32) << i).sum()
}

#[test]
fn icmp_all_predicates_signed_vs_unsigned_i32() {
    let as_u32 = |x: i64| x as i32 as u32 as u64;
    // -1 vs 1: unsigned -1 is the largest value, signed it is the smaller one.
    let m = exit_code(&icmp_mask_program("i32", -1, 1));
    assert_eq!(m, icmp_mask(-1, 1, as_u32));
    assert_eq!(m, 0b11_0000_1110);
    // Equal operands.
    let m = exit_code(&icmp_mask_program("i32", 5, 5));
    assert_eq!(m, icmp_mask(5, 5, as_u32));
    assert_eq!(m, 0b10_1010_1001);
}

#[test]
fn icmp_all_predicates_at_i8() {
    let as_u8 = |x: i64| x as i8 as u8 as u64;
    // -128 (0x80) vs 127 (0x7f).
    let m = exit_code(&icmp_mask_program("i8", -128, 127));
    assert_eq!(m, icmp_mask(-128, 127, as_u8));
    assert_eq!(m, 0b11_0000_1110);
    let m = exit_code(&icmp_mask_program("i8", 3, -3));
    assert_eq!(m, icmp_mask(3, -3, as_u8));
}

#[test]
fn icmp_on_i64_and_pointers() {
    let ir = r#"
@arr = global [4 x i32] zeroinitializer

define i32 @main() {
  %c1 = icmp slt i64 -1, 0
  %c2 = icmp ult i64 -1, 0
  %p0 = getelementptr inbounds [4 x i32], [4 x i32]* @arr, i64 0, i64 0
  %p2 = getelementptr inbounds [4 x i32], [4 x i32]* @arr, i64 0, i64 2
  %c3 = icmp ult i32* %p0, %p2
  %c4 = icmp eq i32* %p0, null
  %z1 = zext i1 %c1 to i32
  %z2 = zext i1 %c2 to i32
  %z3 = zext i1 %c3 to i32
  %z4 = zext i1 %c4 to i32
  %a = mul i32 %z1, 1000
  %b = mul i32 %z2, 100
  %c = mul i32 %z3, 10
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %z4
  ret i32 %s3
}
"#;
    assert_eq!(exit_code(ir), 1010);
}

#[test]
fn select_picks_by_condition() {
    let ir = r#"
define i32 @main() {
  %t = icmp slt i32 -1, 0
  %f = icmp ult i32 -1, 0
  %a = select i1 %t, i32 10, i32 20
  %b = select i1 %f, i32 300, i32 400
  %r = add i32 %a, %b
  ret i32 %r
}
"#;
    assert_eq!(exit_code(ir), 410);
}

// ---------------------------------------------------------------- casts

#[test]
fn zext_sext_and_trunc() {
    let ir = r#"
define i32 @main() {
  %t = trunc i32 300 to i8
  %zt = zext i8 %t to i32
  %s = sext i8 -1 to i32
  %z = zext i8 -1 to i32
  %big = trunc i64 4294967301 to i32
  %s16 = sext i16 -2 to i64
  %s16t = trunc i64 %s16 to i32
  %a = mul i32 %zt, 10000
  %b = mul i32 %z, 10
  %c = add i32 %a, %b
  %d = add i32 %c, %s
  %e = mul i32 %big, 1000000
  %f = add i32 %d, %e
  %g = add i32 %f, %s16t
  ret i32 %g
}
"#;
    // trunc 300 = 44; sext -1 = -1; zext 0xff = 255; trunc (2^32 + 5) = 5; sext i16 -2 = -2.
    assert_eq!(exit_code(ir), 44 * 10000 + 2550 - 1 + 5_000_000 - 2);
}

#[test]
fn i1_arithmetic_wraps_at_one_bit() {
    let ir = r#"
define i32 @main() {
  %add = add i1 true, true
  %sub = sub i1 false, true
  %mul = mul i1 true, true
  %xor = xor i1 true, true
  %or = or i1 false, true
  %za = zext i1 %add to i32
  %zs = zext i1 %sub to i32
  %zm = zext i1 %mul to i32
  %zx = zext i1 %xor to i32
  %zo = zext i1 %or to i32
  %sx = sext i1 true to i32
  %b1 = shl i32 %zs, 1
  %b2 = shl i32 %zm, 2
  %b3 = shl i32 %zx, 3
  %b4 = shl i32 %zo, 4
  %r0 = or i32 %za, %b1
  %r1 = or i32 %r0, %b2
  %r2 = or i32 %r1, %b3
  %r3 = or i32 %r2, %b4
  %m = mul i32 %sx, 100
  %r = add i32 %r3, %m
  ret i32 %r
}
"#;
    // add=0, sub=1, mul=1, xor=0, or=1 -> 0b10110 = 22; sext i1 true = -1.
    assert_eq!(exit_code(ir), 22 - 100);
}

// ---------------------------------------------------------------- i128

#[test]
fn i128_add_carries_into_the_high_half() {
    let ir = r#"
define i32 @main() {
  %x = zext i64 -1 to i128
  %a = add i128 %x, 1
  %hi = lshr i128 %a, 64
  %lo = trunc i128 %a to i64
  %h = trunc i128 %hi to i32
  %l = trunc i64 %lo to i32
  %m = mul i32 %h, 10
  %r = add i32 %m, %l
  ret i32 %r
}
"#;
    // (2^64 - 1) + 1 = 2^64: high half 1, low half 0. (The operand is built with
    // zext: llvm-ir keeps only 64 bits of an i128 literal, and causa sign-extends
    // those, so the literal 18446744073709551615 would read as -1.)
    assert_eq!(exit_code(ir), 10);
}

#[test]
fn i128_mul_high_part() {
    let ir = r#"
define i32 @main() {
  %x = zext i64 -1 to i128
  %p = mul i128 %x, %x
  %hi = lshr i128 %p, 64
  %h = trunc i128 %hi to i32
  ret i32 %h
}
"#;
    // (2^64 - 1)^2 = 2^128 - 2^65 + 1: high half 2^64 - 2, low 32 bits of that = -2.
    assert_eq!(exit_code(ir), -2);
}

#[test]
fn i128_shifts() {
    let ir = r#"
define i32 @main() {
  %a = shl i128 1, 100
  %b = lshr i128 %a, 96
  %top = shl i128 1, 127
  %c = ashr i128 %top, 120
  %d = lshr i128 %top, 120
  %bt = trunc i128 %b to i32
  %ct = trunc i128 %c to i32
  %dt = trunc i128 %d to i32
  %x = mul i32 %bt, 100000
  %y = mul i32 %dt, 100
  %s = add i32 %x, %y
  %r = add i32 %s, %ct
  ret i32 %r
}
"#;
    // 2^100 >> 96 = 16; 2^127 ashr 120 = -128; 2^127 lshr 120 = 128.
    assert_eq!(exit_code(ir), 16 * 100000 + 128 * 100 - 128);
}

#[test]
fn i128_negative_constant() {
    let ir = r#"
define i32 @main() {
  %a = add i128 -1, 1
  %hi = lshr i128 %a, 64
  %h = trunc i128 %hi to i32
  %l = trunc i128 %a to i32
  %m = mul i32 %h, 10
  %r = add i32 %m, %l
  ret i32 %r
}
"#;
    // -1 + 1 = 0 at 128 bits.
    assert_eq!(exit_code(ir), 0);
}

// ---------------------------------------------------------------- floating point

#[test]
fn double_arithmetic_and_fptosi() {
    let ir = r#"
define i32 @main() {
  %a = fadd double 1.5, 2.25
  %b = fmul double %a, 4.0
  %c = fdiv double -7.0, 2.0
  %d = fsub double %b, 0.5
  %bi = fptosi double %b to i32
  %ci = fptosi double %c to i32
  %di = fptosi double %d to i32
  %x = mul i32 %bi, 1000
  %y = mul i32 %di, 10
  %s = add i32 %x, %y
  %r = add i32 %s, %ci
  ret i32 %r
}
"#;
    // 3.75 * 4 = 15; -3.5 truncates to -3; 14.5 truncates to 14.
    assert_eq!(exit_code(ir), 15000 + 140 - 3);
}

#[test]
fn float_arithmetic_and_fptoui() {
    let ir = r#"
define i32 @main() {
  %a = fadd float 5.000000e-01, 2.500000e-01
  %b = fmul float %a, 8.000000e+00
  %c = fdiv float %b, 4.000000e+00
  %bi = fptoui float %b to i32
  %c2 = fmul float %c, 1.000000e+01
  %ci = fptoui float %c2 to i8
  %cz = zext i8 %ci to i32
  %x = mul i32 %bi, 100
  %r = add i32 %x, %cz
  ret i32 %r
}
"#;
    // 0.75 * 8 = 6; 6 / 4 * 10 = 15.
    assert_eq!(exit_code(ir), 615);
}

#[test]
fn int_to_float_conversions() {
    let ir = r#"
define i32 @main() {
  %s = sitofp i32 -3 to double
  %m = fmul double %s, -2.5
  %mi = fptosi double %m to i32
  %u = uitofp i32 -1 to double
  %ud = fdiv double %u, 1048576.0
  %ui = fptoui double %ud to i32
  %f = uitofp i8 -1 to float
  %fi = fptosi float %f to i32
  %sf = sitofp i8 -1 to float
  %sfi = fptosi float %sf to i32
  %a = mul i32 %ui, 100000
  %b = mul i32 %fi, 100
  %c = mul i32 %mi, 10
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %sfi
  ret i32 %s3
}
"#;
    // -3 * -2.5 = 7.5 -> 7; 4294967295 / 2^20 = 4095.99.. -> 4095; uitofp 0xff = 255;
    // sitofp i8 -1 = -1.
    assert_eq!(exit_code(ir), 4095 * 100000 + 25500 + 70 - 1);
}

#[test]
fn fptoui_above_int_max_and_fptosi_to_i8() {
    let ir = r#"
define i32 @main() {
  %f = fptoui double 3.0e9 to i32
  %g = fptosi float -2.750000e+00 to i8
  %gs = sext i8 %g to i32
  %ok = icmp eq i32 %f, -1294967296
  %z = zext i1 %ok to i32
  %x = mul i32 %z, 10
  %r = add i32 %x, %gs
  ret i32 %r
}
"#;
    // 3e9 fits in u32 (bits 0xb2d05e00); -2.75 truncates to -2.
    assert_eq!(exit_code(ir), 8);
}

#[test]
fn fptrunc_rounds_to_float_precision() {
    let ir = r#"
define i32 @main() {
  %f = fptrunc double 1.000000e-01 to float
  %d = fpext float %f to double
  %ne = fcmp une double %d, 1.000000e-01
  %bits = bitcast float %f to i32
  %z = zext i1 %ne to i32
  %ok = icmp eq i32 %bits, 1036831949
  %zo = zext i1 %ok to i32
  %a = mul i32 %z, 10
  %r = add i32 %a, %zo
  ret i32 %r
}
"#;
    // (float)0.1 = 0x3dcccccd = 1036831949, which is not 0.1 as a double.
    assert_eq!(exit_code(ir), 11);
}

#[test]
fn frem_and_fneg() {
    let ir = r#"
define i32 @main() {
  %r = frem double 7.5, 2.0
  %n = fneg double %r
  %m = fmul double %n, 10.0
  %i = fptosi double %m to i32
  ret i32 %i
}
"#;
    assert_eq!(exit_code(ir), -15);
}

/// Bit `i` set when the `i`-th comparison holds.
fn pack_bits(names: &[&str]) -> String {
    let mut s = String::from("  %acc0 = add i32 0, 0\n");
    for (i, n) in names.iter().enumerate() {
        s += &format!(
            "  %z{i} = zext i1 {n} to i32\n  %s{i} = shl i32 %z{i}, {i}\n  %acc{next} = or i32 %acc{i}, %s{i}\n",
            next = i + 1
        );
    }
    s += &format!("  ret i32 %acc{}\n", names.len());
    s
}

#[test]
fn fcmp_ordered_and_unordered_with_nan() {
    let cmps = [
        "olt double 0x7FF8000000000000, 1.0",
        "ult double 0x7FF8000000000000, 1.0",
        "oeq double 0x7FF8000000000000, 0x7FF8000000000000",
        "une double 0x7FF8000000000000, 0x7FF8000000000000",
        "uno double 0x7FF8000000000000, 1.0",
        "ord double 0x7FF8000000000000, 1.0",
        "one double 0x7FF8000000000000, 1.0",
        "ueq double 0x7FF8000000000000, 1.0",
        "ogt double 2.0, 1.0",
        "ord double 2.0, 1.0",
        "ueq double 2.0, 1.0",
        "oge float 0x7FF8000000000000, 0.0",
        "uge float 0x7FF8000000000000, 0.0",
        "true double 0x7FF8000000000000, 1.0",
        "false double 1.0, 1.0",
    ];
    let mut ir = String::from("define i32 @main() {\n");
    let mut names = Vec::new();
    for (i, c) in cmps.iter().enumerate() {
        ir += &format!("  %f{i} = fcmp {c}\n");
        names.push(format!("%f{i}"));
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    ir += &pack_bits(&refs);
    ir += "}\n";
    let expected = [false, true, false, true, true, false, false, true, true, true, false, false, true, true, false];
    let mask: i32 = expected.iter().enumerate().map(|(i, &b)| (b as i32) << i).sum();
    assert_eq!(exit_code(&ir), mask);
}

#[test]
fn fdiv_by_zero_is_infinity_not_a_bug() {
    let ir = r#"
define i32 @main() {
  %z = fsub double 1.0, 1.0
  %inf = fdiv double 1.0, %z
  %big = fcmp ogt double %inf, 1.0e300
  %nan = fdiv double %z, %z
  %isnan = fcmp uno double %nan, %nan
  %a = zext i1 %big to i32
  %b = zext i1 %isnan to i32
  %m = mul i32 %a, 10
  %r = add i32 %m, %b
  ret i32 %r
}
"#;
    assert_eq!(exit_code(ir), 11);
}

#[test]
fn sitofp_i64_to_float_rounds_once() {
    // x = 2^60 + 2^36 + 1 lies just above the midpoint between the floats 2^60 and
    // 2^60 + 2^37, so it must round up. Rounding to double first loses the +1 and
    // leaves an exact tie, which rounds to even (2^60).
    let ir = r#"
define i32 @main() {
  %f = sitofp i64 1152921573326323713 to float
  %back = fptosi float %f to i64
  %hi = lshr i64 %back, 37
  %r = trunc i64 %hi to i32
  ret i32 %r
}
"#;
    assert_eq!(exit_code(ir), (1 << 23) + 1);
}

// ---------------------------------------------------------------- control flow

#[test]
fn phi_loop_sums_one_to_ten() {
    let ir = r#"
define i32 @main() {
entry:
  br label %loop

loop:
  %i = phi i32 [ 1, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %s.next = add i32 %s, %i
  %i.next = add i32 %i, 1
  %done = icmp sgt i32 %i.next, 10
  br i1 %done, label %exit, label %loop

exit:
  ret i32 %s.next
}
"#;
    assert_eq!(exit_code(ir), 55);
}

#[test]
fn phis_of_a_block_are_evaluated_in_parallel() {
    // a and b swap on every iteration: the phis must read the old values.
    let ir = r#"
define i32 @main() {
entry:
  br label %loop

loop:
  %a = phi i32 [ 1, %entry ], [ %b, %loop ]
  %b = phi i32 [ 2, %entry ], [ %a, %loop ]
  %n = phi i32 [ 0, %entry ], [ %n1, %loop ]
  %n1 = add i32 %n, 1
  %done = icmp eq i32 %n1, 4
  br i1 %done, label %exit, label %loop

exit:
  %x = mul i32 %a, 10
  %r = add i32 %x, %b
  ret i32 %r
}
"#;
    // Iterations see (1,2), (2,1), (1,2), (2,1); exit reads the last pair.
    assert_eq!(exit_code(ir), 21);
}

#[test]
fn switch_with_cases_and_default() {
    let ir = r#"
define i32 @classify(i32 %x) {
entry:
  switch i32 %x, label %other [
    i32 1, label %one
    i32 2, label %two
    i32 -5, label %minus_five
  ]
one:
  ret i32 1
two:
  ret i32 2
minus_five:
  ret i32 3
other:
  ret i32 4
}

define i32 @small(i8 %x) {
entry:
  switch i8 %x, label %other [
    i8 -1, label %ff
    i8 127, label %max
  ]
ff:
  ret i32 5
max:
  ret i32 6
other:
  ret i32 7
}

define i32 @main() {
  %a = call i32 @classify(i32 1)
  %b = call i32 @classify(i32 2)
  %c = call i32 @classify(i32 -5)
  %d = call i32 @classify(i32 7)
  %e = call i32 @small(i8 -1)
  %f = call i32 @small(i8 0)
  %a1 = mul i32 %a, 100000
  %b1 = mul i32 %b, 10000
  %c1 = mul i32 %c, 1000
  %d1 = mul i32 %d, 100
  %e1 = mul i32 %e, 10
  %s1 = add i32 %a1, %b1
  %s2 = add i32 %s1, %c1
  %s3 = add i32 %s2, %d1
  %s4 = add i32 %s3, %e1
  %s5 = add i32 %s4, %f
  ret i32 %s5
}
"#;
    assert_eq!(exit_code(ir), 123_457);
}

#[test]
fn recursive_factorial() {
    let ir = r#"
define i32 @fact(i32 %n) {
entry:
  %base = icmp sle i32 %n, 1
  br i1 %base, label %done, label %rec

rec:
  %m = sub i32 %n, 1
  %f = call i32 @fact(i32 %m)
  %r = mul i32 %n, %f
  ret i32 %r

done:
  ret i32 1
}

define i32 @main() {
  %r = call i32 @fact(i32 5)
  ret i32 %r
}
"#;
    assert_eq!(exit_code(ir), 120);
}

#[test]
fn indirect_call_through_a_global_function_pointer() {
    let ir = r#"
@fp = global i32 (i32)* @triple

define i32 @triple(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}

define i32 @plus_one(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

define i32 @main() {
  %f = load i32 (i32)*, i32 (i32)** @fp
  %a = call i32 %f(i32 14)
  store i32 (i32)* @plus_one, i32 (i32)** @fp
  %g = load i32 (i32)*, i32 (i32)** @fp
  %b = call i32 %g(i32 %a)
  ret i32 %b
}
"#;
    assert_eq!(exit_code(ir), 43);
}

// ---------------------------------------------------------------- memory and addresses

const STRUCT_S: &str = r#"
%struct.S = type { i8, i64, [3 x i32] }
@s = global %struct.S { i8 7, i64 -2, [3 x i32] [i32 100, i32 200, i32 300] }
"#;

#[test]
fn gep_into_a_global_struct_field_array() {
    let ir = format!(
        "{STRUCT_S}{}",
        r#"
define i32 @main() {
  %p = getelementptr inbounds %struct.S, %struct.S* @s, i64 0, i32 2, i64 1
  %v = load i32, i32* %p
  ret i32 %v
}
"#
    );
    assert_eq!(exit_code(&ir), 200);
}

#[test]
fn gep_struct_fields_have_c_layout() {
    let ir = format!(
        "{STRUCT_S}{}",
        r#"
define i32 @main() {
  %f0 = getelementptr inbounds %struct.S, %struct.S* @s, i64 0, i32 0
  %f1 = getelementptr inbounds %struct.S, %struct.S* @s, i64 0, i32 1
  %f2 = getelementptr inbounds %struct.S, %struct.S* @s, i64 0, i32 2, i64 2
  %a = load i8, i8* %f0
  %b = load i64, i64* %f1
  %c = load i32, i32* getelementptr inbounds (%struct.S, %struct.S* @s, i64 0, i32 2, i64 2)
  %base = ptrtoint %struct.S* @s to i64
  %o2 = ptrtoint i32* %f2 to i64
  %off = sub i64 %o2, %base
  %az = zext i8 %a to i32
  %bt = trunc i64 %b to i32
  %ot = trunc i64 %off to i32
  %x = mul i32 %az, 1000000
  %y = mul i32 %c, 1000
  %z = mul i32 %ot, 10
  %s1 = add i32 %x, %y
  %s2 = add i32 %s1, %z
  %s3 = add i32 %s2, %bt
  ret i32 %s3
}
"#
    );
    // field0 = 7, field1 = -2, field2[2] = 300 at offset 16 + 8 = 24.
    assert_eq!(exit_code(&ir), 7_000_000 + 300_000 + 240 - 2);
}

#[test]
fn gep_with_variable_and_negative_indices() {
    let ir = r#"
@arr = global [5 x i16] [i16 1, i16 2, i16 3, i16 4, i16 5]

define i32 @at(i64 %i) {
  %p = getelementptr inbounds [5 x i16], [5 x i16]* @arr, i64 0, i64 %i
  %v = load i16, i16* %p
  %r = sext i16 %v to i32
  ret i32 %r
}

define i32 @main() {
  %a = call i32 @at(i64 3)
  %last = getelementptr inbounds [5 x i16], [5 x i16]* @arr, i64 0, i64 4
  %n = sub i32 0, 2
  %back = getelementptr inbounds i16, i16* %last, i32 %n
  %b = load i16, i16* %back
  %bz = sext i16 %b to i32
  %x = mul i32 %a, 10
  %r = add i32 %x, %bz
  ret i32 %r
}
"#;
    // arr[3] = 4; arr[4 - 2] = 3.
    assert_eq!(exit_code(ir), 43);
}

#[test]
fn alloca_store_load_of_scalar_types() {
    let ir = r#"
define i32 @main() {
  %a = alloca i8
  %b = alloca i16
  %c = alloca i32
  %d = alloca i64
  %e = alloca double
  %f = alloca i1
  store i8 -3, i8* %a
  store i16 -300, i16* %b
  store i32 100000, i32* %c
  store i64 -5000000000, i64* %d
  store double 2.5, double* %e
  store i1 true, i1* %f
  %va = load i8, i8* %a
  %vb = load i16, i16* %b
  %vc = load i32, i32* %c
  %vd = load i64, i64* %d
  %ve = load double, double* %e
  %vf = load i1, i1* %f
  %sa = sext i8 %va to i32
  %sb = sext i16 %vb to i32
  %qd = sdiv i64 %vd, 1000000
  %td = trunc i64 %qd to i32
  %e4 = fmul double %ve, 4.0
  %ie = fptosi double %e4 to i32
  %zf = zext i1 %vf to i32
  %f7 = mul i32 %zf, 7000000
  %s1 = add i32 %sa, %sb
  %s2 = add i32 %s1, %vc
  %s3 = add i32 %s2, %td
  %s4 = add i32 %s3, %ie
  %s5 = add i32 %s4, %f7
  ret i32 %s5
}
"#;
    assert_eq!(exit_code(ir), -3 - 300 + 100000 - 5000 + 10 + 7_000_000);
}

#[test]
fn memory_is_little_endian_bytes() {
    let ir = r#"
define i32 @main() {
  %w = alloca i32
  store i32 16909060, i32* %w
  %p = bitcast i32* %w to i8*
  %b0 = load i8, i8* %p
  %p3 = getelementptr inbounds i8, i8* %p, i64 3
  %b3 = load i8, i8* %p3
  %d = alloca double
  store double 2.5, double* %d
  %di = bitcast double* %d to i64*
  %bits = load i64, i64* %di
  %top = lshr i64 %bits, 48
  %t = trunc i64 %top to i32
  %z0 = zext i8 %b0 to i32
  %z3 = zext i8 %b3 to i32
  %x = mul i32 %t, 100
  %y = mul i32 %z0, 10
  %s = add i32 %x, %y
  %r = add i32 %s, %z3
  ret i32 %r
}
"#;
    // 0x01020304: byte 0 = 4, byte 3 = 1; 2.5 = 0x4004000000000000 -> top 16 bits 0x4004.
    assert_eq!(exit_code(ir), 0x4004 * 100 + 40 + 1);
}

#[test]
fn memcpy_and_memset_intrinsics() {
    let ir = r#"
@src = global [4 x i32] [i32 1, i32 2, i32 3, i32 4]

declare void @llvm.memcpy.p0i8.p0i8.i64(i8*, i8*, i64, i1)
declare void @llvm.memset.p0i8.i64(i8*, i8, i64, i1)

define i32 @main() {
  %dst = alloca [4 x i32]
  %d8 = bitcast [4 x i32]* %dst to i8*
  call void @llvm.memset.p0i8.i64(i8* %d8, i8 1, i64 16, i1 false)
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %d8, i8* bitcast ([4 x i32]* @src to i8*), i64 8, i1 false)
  %p0 = getelementptr inbounds [4 x i32], [4 x i32]* %dst, i64 0, i64 0
  %p1 = getelementptr inbounds [4 x i32], [4 x i32]* %dst, i64 0, i64 1
  %p2 = getelementptr inbounds [4 x i32], [4 x i32]* %dst, i64 0, i64 2
  %e0 = load i32, i32* %p0
  %e1 = load i32, i32* %p1
  %e2 = load i32, i32* %p2
  %x = mul i32 %e1, 10
  %s = add i32 %e0, %x
  %r = add i32 %s, %e2
  ret i32 %r
}
"#;
    // dst = {1, 2, 0x01010101, 0x01010101}.
    assert_eq!(exit_code(ir), 1 + 20 + 0x0101_0101);
}

#[test]
fn memmove_handles_overlap() {
    let ir = r#"
@a = global [5 x i32] [i32 1, i32 2, i32 3, i32 4, i32 5]

declare void @llvm.memmove.p0i8.p0i8.i64(i8*, i8*, i64, i1)

define i32 @main() {
  %base = bitcast [5 x i32]* @a to i8*
  %dst = getelementptr inbounds i8, i8* %base, i64 4
  call void @llvm.memmove.p0i8.p0i8.i64(i8* %dst, i8* %base, i64 16, i1 false)
  %p1 = getelementptr inbounds [5 x i32], [5 x i32]* @a, i64 0, i64 1
  %p4 = getelementptr inbounds [5 x i32], [5 x i32]* @a, i64 0, i64 4
  %v1 = load i32, i32* %p1
  %v4 = load i32, i32* %p4
  %x = mul i32 %v4, 10
  %r = add i32 %x, %v1
  ret i32 %r
}
"#;
    // a becomes {1, 1, 2, 3, 4}.
    assert_eq!(exit_code(ir), 41);
}

#[test]
fn extractvalue_and_insertvalue() {
    let ir = r#"
define i32 @main() {
  %a = insertvalue { i32, i32 } undef, i32 6, 0
  %b = insertvalue { i32, i32 } %a, i32 7, 1
  %x = extractvalue { i32, i32 } %b, 0
  %y = extractvalue { i32, i32 } %b, 1
  %n0 = insertvalue { i8, [2 x i16] } zeroinitializer, i16 -9, 1, 1
  %n = extractvalue { i8, [2 x i16] } %n0, 1, 1
  %ns = sext i16 %n to i32
  %slot = alloca { i32, i32 }
  store { i32, i32 } %b, { i32, i32 }* %slot
  %f1 = getelementptr inbounds { i32, i32 }, { i32, i32 }* %slot, i32 0, i32 1
  %m1 = load i32, i32* %f1
  %prod = mul i32 %x, %y
  %p = mul i32 %prod, 1000
  %q = mul i32 %m1, 10
  %s = add i32 %p, %q
  %r = add i32 %s, %ns
  ret i32 %r
}
"#;
    assert_eq!(exit_code(ir), 42_000 + 70 - 9);
}

#[test]
fn ptrtoint_inttoptr_round_trip() {
    let ir = r#"
@g = global i32 77
@arr = global [2 x i32] [i32 5, i32 9]

define i32 @main() {
  %i = ptrtoint i32* @g to i64
  %p = inttoptr i64 %i to i32*
  %v = load i32, i32* %p
  %j = ptrtoint [2 x i32]* @arr to i64
  %j4 = add i64 %j, 4
  %q = inttoptr i64 %j4 to i32*
  %w = load i32, i32* %q
  %x = mul i32 %v, 10
  %r = add i32 %x, %w
  ret i32 %r
}
"#;
    assert_eq!(exit_code(ir), 779);
}

// ---------------------------------------------------------------- intrinsics

#[test]
fn sadd_with_overflow_flag() {
    let ir = r#"
declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)

define i32 @main() {
  %o1 = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 2147483647, i32 1)
  %v1 = extractvalue { i32, i1 } %o1, 0
  %f1 = extractvalue { i32, i1 } %o1, 1
  %o2 = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 5, i32 6)
  %v2 = extractvalue { i32, i1 } %o2, 0
  %f2 = extractvalue { i32, i1 } %o2, 1
  %o3 = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 -2147483648, i32 -1)
  %f3 = extractvalue { i32, i1 } %o3, 1
  %wrapped = icmp eq i32 %v1, -2147483648
  %zw = zext i1 %wrapped to i32
  %z1 = zext i1 %f1 to i32
  %z2 = zext i1 %f2 to i32
  %z3 = zext i1 %f3 to i32
  %a = mul i32 %zw, 100000
  %b = mul i32 %z1, 10000
  %c = mul i32 %z2, 1000
  %d = mul i32 %z3, 100
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  %s4 = add i32 %s3, %v2
  ret i32 %s4
}
"#;
    // INT_MAX + 1 overflows (and wraps to INT_MIN), 5 + 6 does not, INT_MIN - 1 does.
    assert_eq!(exit_code(ir), 100_000 + 10_000 + 100 + 11);
}

#[test]
fn unsigned_overflow_intrinsics() {
    let ir = r#"
declare { i8, i1 } @llvm.uadd.with.overflow.i8(i8, i8)
declare { i32, i1 } @llvm.usub.with.overflow.i32(i32, i32)
declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)

define i32 @main() {
  %a = call { i8, i1 } @llvm.uadd.with.overflow.i8(i8 -56, i8 100)
  %av = extractvalue { i8, i1 } %a, 0
  %af = extractvalue { i8, i1 } %a, 1
  %b = call { i32, i1 } @llvm.usub.with.overflow.i32(i32 3, i32 5)
  %bv = extractvalue { i32, i1 } %b, 0
  %bf = extractvalue { i32, i1 } %b, 1
  %c = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 4294967296, i64 4294967297)
  %cv = extractvalue { i64, i1 } %c, 0
  %cf = extractvalue { i64, i1 } %c, 1
  %avz = zext i8 %av to i32
  %afz = zext i1 %af to i32
  %bfz = zext i1 %bf to i32
  %cfz = zext i1 %cf to i32
  %chi = lshr i64 %cv, 32
  %ch = trunc i64 %chi to i32
  %x1 = mul i32 %afz, 100000
  %x2 = mul i32 %bfz, 10000
  %x3 = mul i32 %cfz, 1000
  %x4 = mul i32 %ch, 100
  %bm = add i32 %bv, 2
  %s1 = add i32 %x1, %x2
  %s2 = add i32 %s1, %x3
  %s3 = add i32 %s2, %x4
  %s4 = add i32 %s3, %avz
  %s5 = add i32 %s4, %bm
  ret i32 %s5
}
"#;
    // 200 + 100 = 44 with carry; 3 - 5 = -2 with borrow; 2^32 * (2^32 + 1) = 2^32 with overflow.
    assert_eq!(exit_code(ir), 100_000 + 10_000 + 1000 + 100 + 44);
}

#[test]
fn uadd_with_overflow_i128_wraps() {
    let ir = r#"
declare { i128, i1 } @llvm.uadd.with.overflow.i128(i128, i128)

define i32 @main() {
  %top = shl i128 1, 127
  %a = or i128 %top, 5
  %b = or i128 %top, 3
  %o = call { i128, i1 } @llvm.uadd.with.overflow.i128(i128 %a, i128 %b)
  %v = extractvalue { i128, i1 } %o, 0
  %f = extractvalue { i128, i1 } %o, 1
  %vt = trunc i128 %v to i32
  %fz = zext i1 %f to i32
  %x = mul i32 %fz, 100
  %r = add i32 %x, %vt
  ret i32 %r
}
"#;
    // (2^127 + 5) + (2^127 + 3) = 8 (mod 2^128), with carry.
    assert_eq!(exit_code(ir), 108);
}

#[test]
fn bit_counting_and_byte_swapping_intrinsics() {
    let ir = r#"
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.bswap.i32(i32)
declare i16 @llvm.bswap.i16(i16)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.cttz.i32(i32, i1)

define i32 @main() {
  %p = call i32 @llvm.ctpop.i32(i32 -252645136)
  %pm = call i32 @llvm.ctpop.i32(i32 -1)
  %lz = call i32 @llvm.ctlz.i32(i32 1, i1 false)
  %tz = call i32 @llvm.cttz.i32(i32 8, i1 false)
  %s16 = call i16 @llvm.bswap.i16(i16 4660)
  %z16 = zext i16 %s16 to i32
  %a = mul i32 %p, 1000000
  %b = mul i32 %pm, 10000
  %c = mul i32 %lz, 100
  %d = add i32 %a, %b
  %e = add i32 %d, %c
  %f = add i32 %e, %tz
  %ok16 = icmp eq i32 %z16, 13330
  %ok = zext i1 %ok16 to i32
  %g = mul i32 %ok, 100000000
  %r = add i32 %f, %g
  ret i32 %r
}
"#;
    // ctpop(0xf0f0f0f0) = 16, ctpop(-1) = 32, ctlz(1) = 31, cttz(8) = 3, bswap16(0x1234) = 0x3412.
    assert_eq!(exit_code(ir), 100_000_000 + 16_000_000 + 320_000 + 3100 + 3);

    let ir = r#"
declare i32 @llvm.bswap.i32(i32)

define i32 @main() {
  %s = call i32 @llvm.bswap.i32(i32 287454020)
  ret i32 %s
}
"#;
    assert_eq!(exit_code(ir), 0x4433_2211);
}

#[test]
fn min_max_and_abs_intrinsics() {
    let ir = r#"
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.abs.i32(i32, i1)

define i32 @main() {
  %smax = call i32 @llvm.smax.i32(i32 -5, i32 3)
  %smin = call i32 @llvm.smin.i32(i32 -5, i32 3)
  %umax = call i32 @llvm.umax.i32(i32 -5, i32 3)
  %umin = call i32 @llvm.umin.i32(i32 -5, i32 3)
  %abs = call i32 @llvm.abs.i32(i32 -7, i1 false)
  %umaxok = icmp eq i32 %umax, -5
  %z = zext i1 %umaxok to i32
  %a = mul i32 %smax, 10000
  %b = mul i32 %smin, 1000
  %c = mul i32 %umin, 100
  %d = mul i32 %abs, 10
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  %s4 = add i32 %s3, %z
  ret i32 %s4
}
"#;
    assert_eq!(exit_code(ir), 30_000 - 5000 + 300 + 70 + 1);
}

#[test]
fn funnel_shift_rotates_i64() {
    let ir = r#"
declare i64 @llvm.fshl.i64(i64, i64, i64)
declare i32 @llvm.fshr.i32(i32, i32, i32)

define i32 @main() {
  %l = call i64 @llvm.fshl.i64(i64 -9223372036854775807, i64 -9223372036854775807, i64 1)
  %lt = trunc i64 %l to i32
  %r = call i32 @llvm.fshr.i32(i32 1, i32 1, i32 1)
  %ok = icmp eq i32 %r, -2147483648
  %z = zext i1 %ok to i32
  %x = mul i32 %z, 10
  %s = add i32 %x, %lt
  ret i32 %s
}
"#;
    // rotl(0x8000000000000001, 1) = 3; rotr(1, 1) = 0x80000000.
    assert_eq!(exit_code(ir), 13);
}

#[test]
fn funnel_shift_i128() {
    let ir = r#"
declare i128 @llvm.fshl.i128(i128, i128, i128)

define i32 @main() {
  %r = call i128 @llvm.fshl.i128(i128 1, i128 0, i128 3)
  %t = trunc i128 %r to i32
  ret i32 %t
}
"#;
    assert_eq!(exit_code(ir), 8);
}

// ---------------------------------------------------------------- atomics

#[test]
fn atomicrmw_add_returns_the_old_value() {
    let ir = r#"
@g = global i32 10

define i32 @main() {
  %old = atomicrmw add i32* @g, i32 5 seq_cst
  %new = load i32, i32* @g
  %x = mul i32 %old, 100
  %r = add i32 %x, %new
  ret i32 %r
}
"#;
    assert_eq!(exit_code(ir), 1015);
}

#[test]
fn atomicrmw_signed_and_unsigned_max() {
    let ir = r#"
@s = global i32 -3
@u = global i32 -3

define i32 @main() {
  %o1 = atomicrmw max i32* @s, i32 5 seq_cst
  %o2 = atomicrmw umax i32* @u, i32 5 seq_cst
  %o3 = atomicrmw xchg i32* @s, i32 42 seq_cst
  %o4 = atomicrmw nand i32* @s, i32 15 seq_cst
  %sv = load i32, i32* @s
  %uv = load i32, i32* @u
  %a = mul i32 %o3, 1000
  %b = mul i32 %o4, 10
  %c = add i32 %a, %b
  %d = add i32 %c, %sv
  %ok1 = icmp eq i32 %o1, -3
  %ok2 = icmp eq i32 %uv, -3
  %z1 = zext i1 %ok1 to i32
  %z2 = zext i1 %ok2 to i32
  %both = and i32 %z1, %z2
  %e = mul i32 %both, 1000000
  %r = add i32 %d, %e
  ret i32 %r
}
"#;
    // max(-3, 5) = 5 signed, umax(0xfffffffd, 5) keeps -3; xchg returns 5 and stores 42;
    // nand: ~(42 & 15) = ~10 = -11, returns 42.
    assert_eq!(exit_code(ir), 1_000_000 + 5000 + 420 - 11);
}

#[test]
fn cmpxchg_success_and_failure() {
    let ir = r#"
@g = global i32 10

define i32 @main() {
  %r1 = cmpxchg i32* @g, i32 10, i32 20 seq_cst seq_cst
  %old1 = extractvalue { i32, i1 } %r1, 0
  %ok1 = extractvalue { i32, i1 } %r1, 1
  %r2 = cmpxchg i32* @g, i32 10, i32 30 seq_cst seq_cst
  %old2 = extractvalue { i32, i1 } %r2, 0
  %ok2 = extractvalue { i32, i1 } %r2, 1
  %now = load i32, i32* @g
  %z1 = zext i1 %ok1 to i32
  %z2 = zext i1 %ok2 to i32
  %a = mul i32 %z1, 10000000
  %b = mul i32 %z2, 1000000
  %c = mul i32 %old1, 10000
  %d = mul i32 %old2, 100
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  %s4 = add i32 %s3, %now
  ret i32 %s4
}
"#;
    // First succeeds (old 10, g = 20); second fails (old 20, g stays 20).
    assert_eq!(exit_code(ir), 10_000_000 + 100_000 + 2000 + 20);
}

// ---------------------------------------------------------------- vectors

#[test]
fn vector_add_and_extractelement() {
    let ir = r#"
define i32 @main() {
  %v = add <4 x i32> <i32 1, i32 2, i32 3, i32 4>, <i32 10, i32 20, i32 30, i32 40>
  %e = extractelement <4 x i32> %v, i32 2
  ret i32 %e
}
"#;
    assert_eq!(exit_code(ir), 33);
}

#[test]
fn vector_icmp_signed() {
    let ir = r#"
define i32 @main() {
  %c = icmp slt <2 x i32> <i32 -1, i32 5>, <i32 0, i32 0>
  %a = extractelement <2 x i1> %c, i32 0
  %b = extractelement <2 x i1> %c, i32 1
  %za = zext i1 %a to i32
  %zb = zext i1 %b to i32
  %x = mul i32 %za, 10
  %r = add i32 %x, %zb
  ret i32 %r
}
"#;
    // -1 < 0 holds, 5 < 0 does not.
    assert_eq!(exit_code(ir), 10);
}

#[test]
fn vector_select_is_per_lane() {
    let ir = r#"
define i32 @main() {
  %s = select <2 x i1> <i1 true, i1 false>, <2 x i32> <i32 10, i32 20>, <2 x i32> <i32 30, i32 40>
  %a = extractelement <2 x i32> %s, i32 0
  %b = extractelement <2 x i32> %s, i32 1
  %x = mul i32 %a, 100
  %r = add i32 %x, %b
  ret i32 %r
}
"#;
    assert_eq!(exit_code(ir), 1040);
}

#[test]
fn vector_fcmp_is_per_lane() {
    let ir = r#"
define i32 @main() {
  %c = fcmp olt <2 x double> <double 1.0, double 5.0>, <double 3.0, double 3.0>
  %a = extractelement <2 x i1> %c, i32 0
  %b = extractelement <2 x i1> %c, i32 1
  %za = zext i1 %a to i32
  %zb = zext i1 %b to i32
  %x = mul i32 %za, 10
  %r = add i32 %x, %zb
  ret i32 %r
}
"#;
    assert_eq!(exit_code(ir), 10);
}

#[test]
fn vector_store_and_load_round_trip() {
    let ir = r#"
define i32 @main() {
  %p = alloca <4 x i32>
  store <4 x i32> <i32 1, i32 2, i32 3, i32 4>, <4 x i32>* %p
  %q = bitcast <4 x i32>* %p to i32*
  %e = getelementptr i32, i32* %q, i64 2
  %v = load i32, i32* %e
  %w = load <4 x i32>, <4 x i32>* %p
  %x = extractelement <4 x i32> %w, i32 3
  %m = mul i32 %v, 10
  %r = add i32 %m, %x
  ret i32 %r
}
"#;
    assert_eq!(exit_code(ir), 34);
}

#[test]
fn vector_insertelement_and_shufflevector() {
    let ir = r#"
define i32 @main() {
  %a = insertelement <4 x i32> zeroinitializer, i32 7, i32 1
  %b = insertelement <4 x i32> %a, i32 9, i32 3
  %s = shufflevector <4 x i32> %b, <4 x i32> <i32 100, i32 200, i32 300, i32 400>, <4 x i32> <i32 3, i32 1, i32 6, i32 0>
  %e0 = extractelement <4 x i32> %s, i32 0
  %e1 = extractelement <4 x i32> %s, i32 1
  %e2 = extractelement <4 x i32> %s, i32 2
  %x = mul i32 %e0, 10000
  %y = mul i32 %e1, 1000
  %p = add i32 %x, %y
  %r = add i32 %p, %e2
  ret i32 %r
}
"#;
    // shuffle = {b[3], b[1], c[2], b[0]} = {9, 7, 300, 0}.
    assert_eq!(exit_code(ir), 90_000 + 7000 + 300);
}

// ---------------------------------------------------------------- bugs the program reports

#[test]
fn division_by_zero_is_a_bug() {
    let ir = r#"
define i32 @main() {
  %z = sub i32 5, 5
  %d = sdiv i32 10, %z
  ret i32 %d
}
"#;
    expect_bug(ir, BugKind::DivisionByZero, "division by zero");

    let ir = r#"
define i32 @main() {
  %z = sub i64 5, 5
  %d = urem i64 10, %z
  %t = trunc i64 %d to i32
  ret i32 %t
}
"#;
    expect_bug(ir, BugKind::DivisionByZero, "division by zero");
}

#[test]
fn signed_division_overflow_is_reported() {
    let ir = r#"
define i32 @main() {
  %m = sub i32 0, 1
  %d = sdiv i32 -2147483648, %m
  ret i32 %d
}
"#;
    expect_bug(ir, BugKind::DivisionByZero, "overflow");

    let ir = r#"
define i32 @main() {
  %d = srem i32 -2147483648, -1
  ret i32 %d
}
"#;
    expect_bug(ir, BugKind::DivisionByZero, "overflow");
}

#[test]
fn failed_assertion_abort_and_unreachable() {
    let ir = r#"
@.expr = private constant [6 x i8] c"x > 0\00"
@.file = private constant [7 x i8] c"test.c\00"
@.func = private constant [5 x i8] c"main\00"

declare void @__assert_fail(i8*, i8*, i32, i8*)

define i32 @main() {
entry:
  %x = sub i32 0, 1
  %ok = icmp sgt i32 %x, 0
  br i1 %ok, label %good, label %bad

bad:
  call void @__assert_fail(i8* getelementptr inbounds ([6 x i8], [6 x i8]* @.expr, i64 0, i64 0), i8* getelementptr inbounds ([7 x i8], [7 x i8]* @.file, i64 0, i64 0), i32 3, i8* getelementptr inbounds ([5 x i8], [5 x i8]* @.func, i64 0, i64 0))
  unreachable

good:
  ret i32 0
}
"#;
    expect_bug(ir, BugKind::AssertionViolation, "x > 0");

    let ir = r#"
declare void @abort()

define i32 @main() {
  call void @abort()
  unreachable
}
"#;
    expect_bug(ir, BugKind::Abort, "abort");

    let ir = r#"
define i32 @main() {
  unreachable
}
"#;
    expect_bug(ir, BugKind::Abort, "unreachable");
}
