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
