//! The lowered program: what the interpreter executes.
//!
//! Everything is addressed by dense indices: [`FnId`] into [`Program::functions`],
//! block indices into [`Body::blocks`], local slots into a frame's register file,
//! [`LocId`] into [`Program::locs`]. Phi nodes are kept per block and resolved on the
//! edge taken.

use crate::types::Ty;
use crate::value::Value;
use causa_core::SourceLoc;
use std::sync::Arc;

pub type FnId = u32;
pub type LocId = u32;
pub type BlockId = u32;
pub type Local = u32;

/// "No location" / "no destination" marker.
pub const NONE: u32 = u32::MAX;

/// The standard streams: a program that declares one of these external
/// globals gets a `FILE` for it before `main` runs (in this order).
pub const STD_STREAMS: [&str; 3] = ["stdin", "stdout", "stderr"];

/// An instruction operand: a local register or a pre-evaluated constant.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    Local(Local),
    Const(Value),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FBinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ICmpPred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FCmpPred {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Uno,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    True,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    FpTrunc,
    FpExt,
    FpToUi,
    FpToSi,
    UiToFp,
    SiToFp,
    /// ptrtoint, inttoptr, bitcast and addrspacecast between same-size scalars.
    Bits,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RmwOp {
    Xchg,
    Add,
    Sub,
    And,
    Nand,
    Or,
    Xor,
    Max,
    Min,
    UMax,
    UMin,
    FAdd,
    FSub,
}

/// The callee of a call instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    /// A function of [`Program::functions`] (defined or external).
    Direct(FnId),
    /// A function pointer computed at run time.
    Indirect(Operand),
    /// Inline assembly: unsupported, reported when reached.
    Asm,
}

/// One lowered instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Bin {
        op: BinOp,
        bits: u32,
        a: Operand,
        b: Operand,
    },
    FBin {
        op: FBinOp,
        ty: Ty,
        a: Operand,
        b: Operand,
    },
    FNeg {
        ty: Ty,
        a: Operand,
    },
    ICmp {
        pred: ICmpPred,
        bits: u32,
        a: Operand,
        b: Operand,
    },
    FCmp {
        pred: FCmpPred,
        a: Operand,
        b: Operand,
    },
    Cast {
        op: CastOp,
        from: Ty,
        to: Ty,
        a: Operand,
    },
    Select {
        c: Operand,
        a: Operand,
        b: Operand,
    },
    /// Stack allocation of `size * count` bytes.
    Alloca {
        size: u64,
        align: u64,
        count: Operand,
        name: Option<Arc<str>>,
        /// The allocated type (one element when `count` is more).
        ty: Ty,
    },
    Load {
        addr: Operand,
        ty: Ty,
        atomic: bool,
    },
    Store {
        addr: Operand,
        val: Operand,
        ty: Ty,
        atomic: bool,
    },
    /// `base + offset + Σ index_i * scale_i` (indices sign-extended from `bits`).
    Gep {
        base: Operand,
        offset: i64,
        indices: Vec<(Operand, i64, u32)>,
    },
    Rmw {
        op: RmwOp,
        addr: Operand,
        val: Operand,
        ty: Ty,
    },
    CmpXchg {
        addr: Operand,
        expected: Operand,
        new: Operand,
        ty: Ty,
    },
    Fence,
    ExtractValue {
        agg: Operand,
        indices: Vec<u32>,
    },
    InsertValue {
        agg: Operand,
        val: Operand,
        indices: Vec<u32>,
    },
    ExtractElement {
        vec: Operand,
        idx: Operand,
    },
    InsertElement {
        vec: Operand,
        val: Operand,
        idx: Operand,
    },
    ShuffleVector {
        a: Operand,
        b: Operand,
        mask: Vec<i64>,
    },
    Call {
        callee: Callee,
        args: Vec<Operand>,
        ret: Ty,
    },
    VaArg {
        list: Operand,
        ty: Ty,
    },
    /// Freeze: the value itself (causa has no poison).
    Copy {
        a: Operand,
    },
    /// The address of the running thread's own instance of the
    /// thread-local global `global` (`__thread`, `_Thread_local`), plus
    /// `offset`. Lowering puts one at the entry of each function for each
    /// thread-local address the function uses (LLVM 14 names such a
    /// variable by a constant, which is one address for every thread).
    ThreadLocal {
        global: u32,
        offset: u64,
    },
    /// An instruction causa cannot execute; fails when reached.
    Unsupported {
        what: Arc<str>,
    },
}

impl Op {
    /// The operands the instruction reads (a direct call's callee is not an
    /// operand; an indirect call's is).
    pub fn operands(&self) -> Vec<&Operand> {
        match self {
            Op::Bin { a, b, .. }
            | Op::FBin { a, b, .. }
            | Op::ICmp { a, b, .. }
            | Op::FCmp { a, b, .. }
            | Op::ShuffleVector { a, b, .. } => vec![a, b],
            Op::FNeg { a, .. } | Op::Cast { a, .. } | Op::Copy { a } => vec![a],
            Op::Select { c, a, b } => vec![c, a, b],
            Op::Alloca { count, .. } => vec![count],
            Op::Load { addr, .. } => vec![addr],
            Op::Store { addr, val, .. } | Op::Rmw { addr, val, .. } => vec![addr, val],
            Op::Gep { base, indices, .. } => std::iter::once(base).chain(indices.iter().map(|(o, _, _)| o)).collect(),
            Op::CmpXchg { addr, expected, new, .. } => vec![addr, expected, new],
            Op::ExtractValue { agg, .. } => vec![agg],
            Op::InsertValue { agg, val, .. } => vec![agg, val],
            Op::ExtractElement { vec, idx } => vec![vec, idx],
            Op::InsertElement { vec, val, idx } => vec![vec, val, idx],
            Op::Call { callee, args, .. } => match callee {
                Callee::Indirect(f) => std::iter::once(f).chain(args).collect(),
                _ => args.iter().collect(),
            },
            Op::VaArg { list, .. } => vec![list],
            Op::Fence | Op::ThreadLocal { .. } | Op::Unsupported { .. } => vec![],
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    pub op: Op,
    /// Destination register, or [`NONE`].
    pub dest: Local,
    pub loc: LocId,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    Ret(Option<Operand>),
    Br(BlockId),
    CondBr { c: Operand, t: BlockId, f: BlockId },
    Switch { v: Operand, cases: Vec<(u128, BlockId)>, default: BlockId },
    Unreachable,
    Unsupported { what: Arc<str> },
}

/// The library calls that report a failure of the program (an assertion's,
/// `abort`, the SV-COMP error functions).
pub const FAILURE_CALLS: &[&str] =
    &["__assert_fail", "__assert_perror_fail", "__assert", "__assert_rtn", "abort", "reach_error", "__VERIFIER_error"];

/// A phi node: `dest = incoming[pred]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Phi {
    pub dest: Local,
    pub incoming: Vec<(BlockId, Operand)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub phis: Vec<Phi>,
    pub instrs: Vec<Instr>,
    pub term: Term,
    pub term_loc: LocId,
}

/// Body of a defined function.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    pub blocks: Vec<Block>,
    /// Register file size; parameters occupy slots `0..params`.
    pub num_locals: u32,
    /// Per block: whether its terminator's decision goes into path logs
    /// (false for a branch no shared read can influence, and for
    /// unconditional terminators; see [`crate::local`]).
    pub recorded: Vec<bool>,
    /// Per register: whether a busy-wait fingerprint covers it (false for
    /// one whose value nothing the thread does depends on; see
    /// [`crate::fingerprint`]).
    pub fingerprinted: Vec<bool>,
}

/// A function, defined in the module or external.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: Arc<str>,
    pub params: Vec<Ty>,
    pub ret: Ty,
    pub variadic: bool,
    pub body: Option<Body>,
    pub loc: LocId,
}

/// A global variable with its initial bytes (pointers already resolved).
#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    pub name: Arc<str>,
    pub ty: Ty,
    pub init: Vec<u8>,
    pub is_const: bool,
    /// Declared but not defined in the module (`extern int x;`, `stdout`).
    pub external: bool,
    /// Thread-local (`__thread`): every thread has an instance of its own,
    /// initialised from `init` ([`Op::ThreadLocal`]).
    pub thread_local: bool,
    pub loc: LocId,
}

/// A call site of an external function (for load-time support checks).
#[derive(Clone, Debug, PartialEq)]
pub struct CallSite {
    pub caller: FnId,
    pub loc: LocId,
}

/// The whole lowered program.
#[derive(Clone, Debug)]
pub struct Program {
    /// Paths the program was loaded from, as given.
    pub inputs: Vec<String>,
    /// Hex digest of the linked bitcode: replay refuses another program.
    pub fingerprint: String,
    pub functions: Vec<Function>,
    pub globals: Vec<Global>,
    pub locs: Vec<SourceLoc>,
    /// For each external function, the places that call it directly.
    pub external_uses: Vec<(FnId, Vec<CallSite>)>,
    /// Data layout and the addresses of static objects.
    pub space: crate::space::AddrSpace,
    /// What the heap blocks allocated at a location hold, where the program
    /// casts them to one type (naming offsets into them).
    pub heap_types: causa_core::collections::HashMap<LocId, Ty>,
    /// Where the program first uses an atomic operation with a C11 memory
    /// order weaker than `seq_cst` (relaxed, acquire, release, acq_rel):
    /// causa runs every atomic operation as sequentially consistent, so its
    /// verdicts do not cover the reorderings such orders allow.
    pub weak_atomic: Option<LocId>,
}

impl Program {
    /// Address of global `g`.
    pub fn global_addr(&self, g: usize) -> u64 {
        self.space.global_addr(g)
    }

    /// The function a function-pointer address designates, if any.
    pub fn function_at(&self, addr: u64) -> Option<FnId> {
        self.space.function_at(addr)
    }

    pub fn function_by_name(&self, name: &str) -> Option<FnId> {
        self.functions.iter().position(|f| &*f.name == name).map(|i| i as FnId)
    }

    /// Source location of a [`LocId`].
    pub fn loc(&self, id: LocId) -> Option<&SourceLoc> {
        self.locs.get(id as usize)
    }

    /// Whether a thread entering `block` of `func` surely reports a failure
    /// (an assertion's failing side): the block, and the blocks it jumps to
    /// unconditionally, reach a call of [`FAILURE_CALLS`] with no call before
    /// it that could end the thread or the program another way (a defined
    /// function, a call through a pointer, an external whose name says it
    /// exits or jumps). A flipped branch that goes there cannot give a
    /// schedule that does not fail.
    pub fn fails_at_once(&self, func: FnId, block: BlockId) -> bool {
        let Some(body) = self.functions.get(func as usize).and_then(|f| f.body.as_ref()) else { return false };
        let mut b = block;
        // A chain of unconditional jumps, not a loop.
        for _ in 0..body.blocks.len().min(16) {
            let Some(blk) = body.blocks.get(b as usize) else { return false };
            for i in &blk.instrs {
                let Op::Call { callee, .. } = &i.op else { continue };
                let Callee::Direct(f) = callee else { return false };
                let Some(f) = self.functions.get(*f as usize) else { return false };
                if FAILURE_CALLS.contains(&&*f.name) {
                    return true;
                }
                if f.body.is_some() || f.name.contains("exit") || f.name.contains("jmp") {
                    return false;
                }
            }
            match blk.term {
                Term::Br(next) => b = next,
                _ => return false,
            }
        }
        false
    }

    /// External functions (declared, not defined).
    pub fn externals(&self) -> impl Iterator<Item = (FnId, &Function)> {
        self.functions.iter().enumerate().filter(|(_, f)| f.body.is_none()).map(|(i, f)| (i as FnId, f))
    }
}
