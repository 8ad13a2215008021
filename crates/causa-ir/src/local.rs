//! Branches whose outcome no shared read can influence ("local" branches).
//!
//! A conditional branch or `switch` whose condition is computed only from
//! constants and stack addresses (through arithmetic, comparisons, casts,
//! selects and phis of such values) takes the same way in every schedule of
//! the thread, and anyone who executes the thread can compute it: the
//! interpreter, and the guided symbolic executor, for which such values are
//! constants. Path logs leave these decisions out (format version 2): a
//! loop `for (i = 0; i < n; i++)` with constant `n` costs nothing to record,
//! natively or in the interpreter. The analysis is conservative: function
//! parameters, loads, calls and atomic operations are taken to depend on
//! shared data, and so is everything computed from them.

use crate::program::{Block, Op, Operand, Term};

/// For each block of a body (with `params` parameters in registers
/// `0..params` and `num_locals` registers in all): whether its terminator's
/// decision is recorded (false for unconditional terminators too).
pub fn recorded_branches(blocks: &[Block], params: u32, num_locals: u32) -> Vec<bool> {
    let mut tainted = vec![false; num_locals as usize];
    for t in tainted.iter_mut().take(params as usize) {
        *t = true;
    }
    let is = |t: &[bool], o: &Operand| match o {
        Operand::Local(l) => t.get(*l as usize).copied().unwrap_or(true),
        Operand::Const(_) => false,
    };
    loop {
        let mut changed = false;
        let mut set = |t: &mut Vec<bool>, dest: u32, v: bool| {
            if v {
                if let Some(x) = t.get_mut(dest as usize) {
                    if !*x {
                        *x = true;
                        changed = true;
                    }
                }
            }
        };
        for b in blocks {
            for p in &b.phis {
                let v = p.incoming.iter().any(|(_, o)| is(&tainted, o));
                set(&mut tainted, p.dest, v);
            }
            for i in &b.instrs {
                let v = match &i.op {
                    Op::Bin { a, b, .. } | Op::FBin { a, b, .. } | Op::ICmp { a, b, .. } | Op::FCmp { a, b, .. } => {
                        is(&tainted, a) || is(&tainted, b)
                    }
                    Op::FNeg { a, .. } | Op::Cast { a, .. } | Op::Copy { a } => is(&tainted, a),
                    Op::Select { c, a, b } => is(&tainted, c) || is(&tainted, a) || is(&tainted, b),
                    Op::Alloca { count, .. } => is(&tainted, count),
                    Op::Gep { base, indices, .. } => {
                        is(&tainted, base) || indices.iter().any(|(o, _, _)| is(&tainted, o))
                    }
                    // Loads, calls, atomics and everything else: shared data.
                    _ => true,
                };
                set(&mut tainted, i.dest, v);
            }
        }
        if !changed {
            break;
        }
    }
    blocks
        .iter()
        .map(|b| match &b.term {
            Term::CondBr { c, .. } => is(&tainted, c),
            Term::Switch { v, .. } => is(&tainted, v),
            _ => false,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{BinOp, Instr, Phi};
    use crate::types::Ty;
    use crate::value::Value;
    use crate::{ICmpPred, NONE};

    fn k(v: u128) -> Operand {
        Operand::Const(Value::Int(v))
    }

    fn instr(dest: u32, op: Op) -> Instr {
        Instr { op, dest, loc: NONE }
    }

    /// One parameter (register 0); block 0 jumps into a loop (block 1) over
    /// `i` (register 1, a phi of constants) whose body (block 2) branches on
    /// a loaded value (register 4) and on the parameter (block 3).
    fn body() -> Vec<Block> {
        let cmp = |dest, a| instr(dest, Op::ICmp { pred: ICmpPred::Slt, bits: 32, a, b: k(10) });
        vec![
            Block { phis: vec![], instrs: vec![], term: Term::Br(1), term_loc: NONE },
            Block {
                phis: vec![Phi { dest: 1, incoming: vec![(0, k(0)), (2, Operand::Local(2))] }],
                instrs: vec![cmp(3, Operand::Local(1))],
                term: Term::CondBr { c: Operand::Local(3), t: 2, f: 3 },
                term_loc: NONE,
            },
            Block {
                phis: vec![],
                instrs: vec![
                    instr(2, Op::Bin { op: BinOp::Add, bits: 32, a: Operand::Local(1), b: k(1) }),
                    instr(4, Op::Load { addr: k(0x1_0000_0000), ty: Ty::Int(32), atomic: false }),
                ],
                term: Term::CondBr { c: Operand::Local(4), t: 1, f: 3 },
                term_loc: NONE,
            },
            Block {
                phis: vec![],
                instrs: vec![cmp(5, Operand::Local(0))],
                term: Term::CondBr { c: Operand::Local(5), t: 0, f: 0 },
                term_loc: NONE,
            },
        ]
    }

    #[test]
    fn only_branches_a_shared_read_or_parameter_can_influence_are_recorded() {
        // The loop test on `i` (constants through a phi) is local; the
        // branch on the load and the one on the parameter are recorded.
        assert_eq!(recorded_branches(&body(), 1, 6), vec![false, false, true, true]);
        // The same loop counter seeded from the parameter is recorded.
        let mut b = body();
        b[1].phis[0].incoming[0].1 = Operand::Local(0);
        assert_eq!(recorded_branches(&b, 1, 6), vec![false, true, true, true]);
    }
}
