//! Lowering function bodies instruction by instruction.

use super::Lowerer;
use crate::error::IrError;
use crate::program::*;
use crate::types::Ty;
use crate::value::Value;
use causa_core::collections::HashMap;
use either::Either;
use llvm_ir::instruction as li;
use llvm_ir::types::Type;
use llvm_ir::{HasDebugLoc, Instruction, IntPredicate, Name, Operand as LOperand, Terminator};
use std::sync::Arc;

struct FnCtx {
    locals: HashMap<Name, Local>,
    blocks: HashMap<Name, BlockId>,
    next: Local,
    thread_locals: super::tls::ThreadLocals,
}

impl FnCtx {
    fn local(&mut self, n: &Name) -> Local {
        if let Some(l) = self.locals.get(n) {
            return *l;
        }
        let l = self.next;
        self.next += 1;
        self.locals.insert(n.clone(), l);
        l
    }
}

pub fn icmp_pred(p: IntPredicate) -> ICmpPred {
    match p {
        IntPredicate::EQ => ICmpPred::Eq,
        IntPredicate::NE => ICmpPred::Ne,
        IntPredicate::UGT => ICmpPred::Ugt,
        IntPredicate::UGE => ICmpPred::Uge,
        IntPredicate::ULT => ICmpPred::Ult,
        IntPredicate::ULE => ICmpPred::Ule,
        IntPredicate::SGT => ICmpPred::Sgt,
        IntPredicate::SGE => ICmpPred::Sge,
        IntPredicate::SLT => ICmpPred::Slt,
        IntPredicate::SLE => ICmpPred::Sle,
    }
}

fn fcmp_pred(p: llvm_ir::FPPredicate) -> FCmpPred {
    use llvm_ir::FPPredicate as P;
    match p {
        P::False => FCmpPred::False,
        P::OEQ => FCmpPred::Oeq,
        P::OGT => FCmpPred::Ogt,
        P::OGE => FCmpPred::Oge,
        P::OLT => FCmpPred::Olt,
        P::OLE => FCmpPred::Ole,
        P::ONE => FCmpPred::One,
        P::ORD => FCmpPred::Ord,
        P::UNO => FCmpPred::Uno,
        P::UEQ => FCmpPred::Ueq,
        P::UGT => FCmpPred::Ugt,
        P::UGE => FCmpPred::Uge,
        P::ULT => FCmpPred::Ult,
        P::ULE => FCmpPred::Ule,
        P::UNE => FCmpPred::Une,
        P::True => FCmpPred::True,
    }
}

fn rmw_op(op: li::RMWBinOp) -> Option<RmwOp> {
    use li::RMWBinOp as R;
    Some(match op {
        R::Xchg => RmwOp::Xchg,
        R::Add => RmwOp::Add,
        R::Sub => RmwOp::Sub,
        R::And => RmwOp::And,
        R::Nand => RmwOp::Nand,
        R::Or => RmwOp::Or,
        R::Xor => RmwOp::Xor,
        R::Max => RmwOp::Max,
        R::Min => RmwOp::Min,
        R::UMax => RmwOp::UMax,
        R::UMin => RmwOp::UMin,
        R::FAdd => RmwOp::FAdd,
        R::FSub => RmwOp::FSub,
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

/// Intrinsics that have no effect on execution and are dropped at load time.
pub fn is_dropped_intrinsic(name: &str) -> bool {
    name.starts_with("llvm.dbg.")
        || name.starts_with("llvm.lifetime.")
        || name.starts_with("llvm.invariant.")
        || name == "llvm.assume"
        || name.starts_with("llvm.experimental.noalias")
}

/// What the blocks `malloc`, `calloc` and `realloc` return in `f` are cast
/// to (clang casts the `i8*` to the pointer it is stored as), by call
/// location: what names offsets into a heap block. A location whose calls
/// are cast to different types is left out.
fn note_heap_types(lw: &mut Lowerer<'_>, f: &llvm_ir::Function) {
    let mut casts: HashMap<&Name, &llvm_ir::TypeRef> = HashMap::default();
    for inst in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
        if let Instruction::BitCast(b) = inst {
            if let LOperand::LocalOperand { name, .. } = &b.operand {
                casts.entry(name).or_insert(&b.to_type);
            }
        }
    }
    for inst in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
        let Instruction::Call(c) = inst else { continue };
        let Either::Right(LOperand::ConstantOperand(k)) = &c.function else { continue };
        let llvm_ir::Constant::GlobalReference { name: Name::Name(callee), .. } = k.as_ref() else { continue };
        if !matches!(callee.as_str(), "malloc" | "calloc" | "realloc") {
            continue;
        }
        let Some(llvm_ir::Type::PointerType { pointee_type, .. }) =
            c.dest.as_ref().and_then(|d| casts.get(d)).map(|t| t.as_ref())
        else {
            continue;
        };
        let ty = lw.ty(pointee_type);
        let loc = lw.loc(inst.get_debug_loc());
        if loc != NONE {
            lw.note_heap_type(loc, ty);
        }
    }
}

pub fn lower_body(lw: &mut Lowerer<'_>, f: &llvm_ir::Function, fid: FnId) -> Result<Body, IrError> {
    note_heap_types(lw, f);
    let mut cx =
        FnCtx { locals: HashMap::default(), blocks: HashMap::default(), next: 0, thread_locals: Default::default() };
    for p in &f.parameters {
        cx.local(&p.name);
    }
    for (i, bb) in f.basic_blocks.iter().enumerate() {
        cx.blocks.insert(bb.name.clone(), i as BlockId);
    }
    let mut blocks = Vec::with_capacity(f.basic_blocks.len());
    for bb in &f.basic_blocks {
        let mut phis = Vec::new();
        let mut instrs = Vec::with_capacity(bb.instrs.len());
        for inst in &bb.instrs {
            let loc = lw.loc(inst.get_debug_loc());
            if let Instruction::Phi(p) = inst {
                let dest = cx.local(&p.dest);
                let mut incoming = Vec::with_capacity(p.incoming_values.len());
                for (op, from) in &p.incoming_values {
                    let b = cx.blocks.get(from).copied().unwrap_or(NONE);
                    match operand(lw, &mut cx, op, loc) {
                        Ok(o) => incoming.push((b, o)),
                        // Fails when the block is reached, never silently.
                        Err(e) => instrs.push(Instr {
                            op: Op::Unsupported { what: format!("phi operand: {e}").into() },
                            dest: NONE,
                            loc,
                        }),
                    }
                }
                phis.push(Phi { dest, incoming });
                continue;
            }
            if let Instruction::Call(c) = inst {
                if let Either::Right(LOperand::ConstantOperand(k)) = &c.function {
                    if let llvm_ir::Constant::GlobalReference { name: Name::Name(n), .. } = k.as_ref() {
                        if is_dropped_intrinsic(n) {
                            continue;
                        }
                    }
                }
            }
            let dest = inst.try_get_result().map(|n| cx.local(n)).unwrap_or(NONE);
            let op = match lower_instr(lw, &mut cx, inst, loc, fid) {
                Ok(op) => op,
                Err(IrError::Unsupported { what, .. }) => Op::Unsupported { what: what.into() },
                Err(e) => return Err(e),
            };
            instrs.push(Instr { op, dest, loc });
        }
        let term_loc = lw.loc(bb.term.get_debug_loc());
        let term = match lower_term(lw, &mut cx, &bb.term, term_loc) {
            Ok(t) => t,
            Err(IrError::Unsupported { what, .. }) => Term::Unsupported { what: what.into() },
            Err(e) => return Err(e),
        };
        blocks.push(Block { phis, instrs, term, term_loc });
    }
    if let Some(entry) = blocks.first_mut() {
        let loc = lw.loc(&f.debugloc);
        let mut set = cx.thread_locals.entry(loc);
        set.append(&mut entry.instrs);
        entry.instrs = set;
    }
    // Set for the whole program once every function is lowered.
    let recorded = Vec::new();
    Ok(Body { blocks, num_locals: cx.next, recorded, fingerprinted: Vec::new() })
}

fn operand(lw: &mut Lowerer<'_>, cx: &mut FnCtx, op: &LOperand, loc: LocId) -> Result<Operand, IrError> {
    match op {
        LOperand::LocalOperand { name, .. } => Ok(Operand::Local(cx.local(name))),
        LOperand::ConstantOperand(c) => match lw.thread_local_in(c) {
            Some(g) => {
                let offset = lw.thread_local_offset(c, g, loc)?;
                let FnCtx { thread_locals, next, .. } = cx;
                Ok(thread_locals.register(g as u32, offset, || {
                    *next += 1;
                    *next - 1
                }))
            }
            None => Ok(Operand::Const(lw.constant(c, loc)?)),
        },
        LOperand::MetadataOperand => Ok(Operand::Const(Value::ZERO)),
    }
}

fn op_ty(lw: &mut Lowerer<'_>, op: &LOperand) -> Ty {
    let t = lw.module.types.type_of(op);
    lw.ty(&t)
}

fn block(cx: &FnCtx, n: &Name) -> BlockId {
    cx.blocks.get(n).copied().unwrap_or(NONE)
}

fn lower_term(lw: &mut Lowerer<'_>, cx: &mut FnCtx, t: &Terminator, loc: LocId) -> Result<Term, IrError> {
    Ok(match t {
        Terminator::Ret(r) => Term::Ret(match &r.return_operand {
            Some(o) => Some(operand(lw, cx, o, loc)?),
            None => None,
        }),
        Terminator::Br(b) => Term::Br(block(cx, &b.dest)),
        Terminator::CondBr(b) => Term::CondBr {
            c: operand(lw, cx, &b.condition, loc)?,
            t: block(cx, &b.true_dest),
            f: block(cx, &b.false_dest),
        },
        Terminator::Switch(s) => {
            let v = operand(lw, cx, &s.operand, loc)?;
            let mut cases = Vec::with_capacity(s.dests.len());
            for (c, d) in &s.dests {
                cases.push((lw.constant(c, loc)?.as_int(), block(cx, d)));
            }
            Term::Switch { v, cases, default: block(cx, &s.default_dest) }
        }
        Terminator::Unreachable(_) => Term::Unreachable,
        other => {
            let text = other.to_string();
            let what = text.split_whitespace().next().unwrap_or("terminator").to_string();
            return Err(IrError::Unsupported { what: format!("instruction `{what}`"), loc: None });
        }
    })
}

fn cast(
    lw: &mut Lowerer<'_>,
    cx: &mut FnCtx,
    op: CastOp,
    a: &LOperand,
    to: &llvm_ir::TypeRef,
    loc: LocId,
) -> Result<Op, IrError> {
    let from = op_ty(lw, a);
    let to = lw.ty(to);
    Ok(Op::Cast { op, from, to, a: operand(lw, cx, a, loc)? })
}

fn lower_instr(lw: &mut Lowerer<'_>, cx: &mut FnCtx, inst: &Instruction, loc: LocId, fid: FnId) -> Result<Op, IrError> {
    macro_rules! bin {
        ($i:expr, $op:expr) => {{
            let bits = op_ty(lw, &$i.operand0).lane_bits();
            Op::Bin { op: $op, bits, a: operand(lw, cx, &$i.operand0, loc)?, b: operand(lw, cx, &$i.operand1, loc)? }
        }};
    }
    macro_rules! fbin {
        ($i:expr, $op:expr) => {{
            let ty = op_ty(lw, &$i.operand0);
            Op::FBin { op: $op, ty, a: operand(lw, cx, &$i.operand0, loc)?, b: operand(lw, cx, &$i.operand1, loc)? }
        }};
    }
    Ok(match inst {
        Instruction::Add(i) => bin!(i, BinOp::Add),
        Instruction::Sub(i) => bin!(i, BinOp::Sub),
        Instruction::Mul(i) => bin!(i, BinOp::Mul),
        Instruction::UDiv(i) => bin!(i, BinOp::UDiv),
        Instruction::SDiv(i) => bin!(i, BinOp::SDiv),
        Instruction::URem(i) => bin!(i, BinOp::URem),
        Instruction::SRem(i) => bin!(i, BinOp::SRem),
        Instruction::And(i) => bin!(i, BinOp::And),
        Instruction::Or(i) => bin!(i, BinOp::Or),
        Instruction::Xor(i) => bin!(i, BinOp::Xor),
        Instruction::Shl(i) => bin!(i, BinOp::Shl),
        Instruction::LShr(i) => bin!(i, BinOp::LShr),
        Instruction::AShr(i) => bin!(i, BinOp::AShr),
        Instruction::FAdd(i) => fbin!(i, FBinOp::Add),
        Instruction::FSub(i) => fbin!(i, FBinOp::Sub),
        Instruction::FMul(i) => fbin!(i, FBinOp::Mul),
        Instruction::FDiv(i) => fbin!(i, FBinOp::Div),
        Instruction::FRem(i) => fbin!(i, FBinOp::Rem),
        Instruction::FNeg(i) => Op::FNeg { ty: op_ty(lw, &i.operand), a: operand(lw, cx, &i.operand, loc)? },
        Instruction::ICmp(i) => {
            let bits = op_ty(lw, &i.operand0).lane_bits();
            Op::ICmp {
                pred: icmp_pred(i.predicate),
                bits,
                a: operand(lw, cx, &i.operand0, loc)?,
                b: operand(lw, cx, &i.operand1, loc)?,
            }
        }
        Instruction::FCmp(i) => Op::FCmp {
            pred: fcmp_pred(i.predicate),
            a: operand(lw, cx, &i.operand0, loc)?,
            b: operand(lw, cx, &i.operand1, loc)?,
        },
        Instruction::Trunc(i) => cast(lw, cx, CastOp::Trunc, &i.operand, &i.to_type, loc)?,
        Instruction::ZExt(i) => cast(lw, cx, CastOp::ZExt, &i.operand, &i.to_type, loc)?,
        Instruction::SExt(i) => cast(lw, cx, CastOp::SExt, &i.operand, &i.to_type, loc)?,
        Instruction::FPTrunc(i) => cast(lw, cx, CastOp::FpTrunc, &i.operand, &i.to_type, loc)?,
        Instruction::FPExt(i) => cast(lw, cx, CastOp::FpExt, &i.operand, &i.to_type, loc)?,
        Instruction::FPToUI(i) => cast(lw, cx, CastOp::FpToUi, &i.operand, &i.to_type, loc)?,
        Instruction::FPToSI(i) => cast(lw, cx, CastOp::FpToSi, &i.operand, &i.to_type, loc)?,
        Instruction::UIToFP(i) => cast(lw, cx, CastOp::UiToFp, &i.operand, &i.to_type, loc)?,
        Instruction::SIToFP(i) => cast(lw, cx, CastOp::SiToFp, &i.operand, &i.to_type, loc)?,
        Instruction::PtrToInt(i) => cast(lw, cx, CastOp::Bits, &i.operand, &i.to_type, loc)?,
        Instruction::IntToPtr(i) => cast(lw, cx, CastOp::Bits, &i.operand, &i.to_type, loc)?,
        Instruction::BitCast(i) => cast(lw, cx, CastOp::Bits, &i.operand, &i.to_type, loc)?,
        Instruction::AddrSpaceCast(i) => cast(lw, cx, CastOp::Bits, &i.operand, &i.to_type, loc)?,
        Instruction::Select(i) => Op::Select {
            c: operand(lw, cx, &i.condition, loc)?,
            a: operand(lw, cx, &i.true_value, loc)?,
            b: operand(lw, cx, &i.false_value, loc)?,
        },
        Instruction::Freeze(i) => Op::Copy { a: operand(lw, cx, &i.operand, loc)? },
        Instruction::Alloca(i) => {
            let ty = lw.ty(&i.allocated_type);
            let name = match &i.dest {
                Name::Name(s) => Some(Arc::from(s.trim_end_matches(".addr"))),
                Name::Number(_) => None,
            };
            Op::Alloca {
                size: ty.alloc_size(),
                align: ty.align().max(i.alignment as u64),
                count: operand(lw, cx, &i.num_elements, loc)?,
                name,
                ty,
            }
        }
        Instruction::Load(i) => {
            note_order(lw, i.atomicity.as_ref().map(|a| a.mem_ordering), loc);
            let t = lw.module.types.type_of(inst);
            let ty = storable(lw.ty(&t), &t)?;
            Op::Load { addr: operand(lw, cx, &i.address, loc)?, ty, atomic: i.atomicity.is_some() }
        }
        Instruction::Store(i) => {
            note_order(lw, i.atomicity.as_ref().map(|a| a.mem_ordering), loc);
            let t = lw.module.types.type_of(&i.value);
            Op::Store {
                addr: operand(lw, cx, &i.address, loc)?,
                ty: storable(lw.ty(&t), &t)?,
                val: operand(lw, cx, &i.value, loc)?,
                atomic: i.atomicity.is_some(),
            }
        }
        Instruction::Fence(i) => {
            note_order(lw, Some(i.atomicity.mem_ordering), loc);
            Op::Fence
        }
        Instruction::AtomicRMW(i) => {
            note_order(lw, Some(i.atomicity.mem_ordering), loc);
            let op = rmw_op(i.operation)
                .ok_or_else(|| IrError::Unsupported { what: format!("atomicrmw {:?}", i.operation), loc: None })?;
            Op::Rmw {
                op,
                ty: op_ty(lw, &i.value),
                addr: operand(lw, cx, &i.address, loc)?,
                val: operand(lw, cx, &i.value, loc)?,
            }
        }
        Instruction::CmpXchg(i) => {
            note_order(lw, Some(i.atomicity.mem_ordering), loc);
            note_order(lw, Some(i.failure_memory_ordering), loc);
            Op::CmpXchg {
                ty: op_ty(lw, &i.expected),
                addr: operand(lw, cx, &i.address, loc)?,
                expected: operand(lw, cx, &i.expected, loc)?,
                new: operand(lw, cx, &i.replacement, loc)?,
            }
        }
        Instruction::GetElementPtr(g) => gep(lw, cx, g, loc)?,
        Instruction::ExtractValue(i) => {
            Op::ExtractValue { agg: operand(lw, cx, &i.aggregate, loc)?, indices: i.indices.clone() }
        }
        Instruction::InsertValue(i) => Op::InsertValue {
            agg: operand(lw, cx, &i.aggregate, loc)?,
            val: operand(lw, cx, &i.element, loc)?,
            indices: i.indices.clone(),
        },
        Instruction::ExtractElement(i) => {
            Op::ExtractElement { vec: operand(lw, cx, &i.vector, loc)?, idx: operand(lw, cx, &i.index, loc)? }
        }
        Instruction::InsertElement(i) => Op::InsertElement {
            vec: operand(lw, cx, &i.vector, loc)?,
            val: operand(lw, cx, &i.element, loc)?,
            idx: operand(lw, cx, &i.index, loc)?,
        },
        Instruction::ShuffleVector(i) => {
            let m = lw.constant(&i.mask, loc)?;
            let mask = m.elements().iter().map(|e| e.as_int() as i64).collect();
            Op::ShuffleVector { a: operand(lw, cx, &i.operand0, loc)?, b: operand(lw, cx, &i.operand1, loc)?, mask }
        }
        Instruction::Call(c) => call(lw, cx, c, loc, fid)?,
        Instruction::VAArg(v) => Op::VaArg { list: operand(lw, cx, &v.arg_list, loc)?, ty: lw.ty(&v.cur_type) },
        other => {
            let text = other.to_string();
            let what = text.split('=').next_back().unwrap_or("").split_whitespace().next().unwrap_or("?").to_string();
            return Err(IrError::Unsupported { what: format!("instruction `{what}`"), loc: None });
        }
    })
}

/// A type causa can load and store (floating-point formats it does not model are
/// reported by name).
fn storable(ty: Ty, t: &llvm_ir::TypeRef) -> Result<Ty, IrError> {
    match ty {
        Ty::Other => Err(IrError::Unsupported { what: format!("memory access of type `{t}`"), loc: None }),
        ty => Ok(ty),
    }
}

/// Note the first atomic operation whose memory order is weaker than
/// `seq_cst` ([`crate::Program::weak_atomic`]).
fn note_order(lw: &mut Lowerer<'_>, order: Option<llvm_ir::instruction::MemoryOrdering>, loc: LocId) {
    use llvm_ir::instruction::MemoryOrdering::*;
    if lw.weak_atomic.is_none() && order.is_some_and(|o| !matches!(o, SequentiallyConsistent | NotAtomic)) {
        lw.weak_atomic = Some(loc);
    }
}

fn gep(lw: &mut Lowerer<'_>, cx: &mut FnCtx, g: &li::GetElementPtr, loc: LocId) -> Result<Op, IrError> {
    let mut ty = lw.ty(&g.source_element_type);
    let mut offset: i64 = 0;
    let mut indices = Vec::new();
    for (i, idx) in g.indices.iter().enumerate() {
        let bits = match lw.module.types.type_of(idx).as_ref() {
            Type::IntegerType { bits } => *bits,
            _ => return Err(IrError::Unsupported { what: "vector getelementptr".into(), loc: None }),
        };
        let o = operand(lw, cx, idx, loc)?;
        if i == 0 {
            let scale = ty.alloc_size() as i64;
            match &o {
                Operand::Const(v) => offset = offset.wrapping_add(crate::value::sext(v.as_int(), bits) as i64 * scale),
                Operand::Local(_) => indices.push((o, scale, bits)),
            }
            continue;
        }
        match (&ty, &o) {
            (Ty::Struct(_), Operand::Const(v)) => {
                let n = v.as_int() as u64;
                offset += ty.element_offset(n) as i64;
                ty = ty.element(n as usize).cloned().unwrap_or(Ty::Int(8));
            }
            (Ty::Array(e, _) | Ty::Vector(e, _), _) => {
                let scale = ty.element_offset(1) as i64;
                match &o {
                    Operand::Const(v) => {
                        offset = offset.wrapping_add(crate::value::sext(v.as_int(), bits) as i64 * scale)
                    }
                    Operand::Local(_) => indices.push((o.clone(), scale, bits)),
                }
                ty = (**e).clone();
            }
            _ => {
                return Err(IrError::Unsupported {
                    what: "getelementptr with a variable struct index".into(),
                    loc: None,
                })
            }
        }
    }
    Ok(Op::Gep { base: operand(lw, cx, &g.address, loc)?, offset, indices })
}

fn call(lw: &mut Lowerer<'_>, cx: &mut FnCtx, c: &li::Call, loc: LocId, fid: FnId) -> Result<Op, IrError> {
    let callee = match &c.function {
        Either::Left(_) => Callee::Asm,
        Either::Right(LOperand::ConstantOperand(k)) => {
            let addr = lw.constant(k, loc)?.as_int() as u64;
            match lw.space.function_at(addr) {
                Some(f) => {
                    lw.note_external_use(f, fid, loc);
                    Callee::Direct(f)
                }
                None => Callee::Indirect(Operand::Const(Value::Int(addr as u128))),
            }
        }
        Either::Right(op) => Callee::Indirect(operand(lw, cx, op, loc)?),
    };
    let mut args = Vec::with_capacity(c.arguments.len());
    for (a, _) in &c.arguments {
        args.push(operand(lw, cx, a, loc)?);
    }
    let ret = match c.dest {
        Some(_) => {
            let t = lw.module.types.type_of(c);
            lw.ty(&t)
        }
        None => Ty::Void,
    };
    Ok(Op::Call { callee, args, ret })
}
