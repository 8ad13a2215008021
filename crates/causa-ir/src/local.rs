//! Branches whose outcome no shared read can influence ("local" branches).
//!
//! A conditional branch or `switch` whose condition is computed only from
//! constants, stack addresses and local parameters (through arithmetic,
//! comparisons, casts, selects and phis of such values) takes the same way in
//! every schedule of the thread, and anyone who executes the thread can
//! compute it: the interpreter, and the guided symbolic executor, for which
//! such values are constants. Path logs leave these decisions out: a loop
//! `for (i = 0; i < n; i++)` with constant `n`, or with `n` passed down from
//! constants, costs nothing to record, natively or in the interpreter.
//!
//! A parameter is local when every call passes it a local value: the
//! analysis starts from "every parameter is local" and removes, until nothing
//! changes, the parameters some call passes a non-local value. Only direct
//! calls and the start routine of `pthread_create` (whose one parameter is
//! `pthread_create`'s last argument) are calls the analysis can see, so the
//! parameters of `main` and of every function whose address is used in any
//! other way (stored, passed, in a global's initial value) are not local.
//! Loads, calls' results and atomic operations are taken to depend on shared
//! data, and so is everything computed from them.

use crate::program::{Block, Callee, Op, Operand, Program, Term};
use crate::value::Value;

/// Set [`crate::program::Body::recorded`] for every defined function of
/// `program`.
pub fn mark_recorded(program: &mut Program) {
    let regs = register_taint(program);
    for (f, fun) in program.functions.iter_mut().enumerate() {
        if let Some(body) = fun.body.as_mut() {
            body.recorded = branches(&body.blocks, &regs[f]);
        }
    }
}

/// For each defined function, which of its registers a shared read can
/// influence ([`taint`]), once the parameters' taint is settled. A function
/// is analysed again only when one of its parameters became non-local.
fn register_taint(program: &Program) -> Vec<Vec<bool>> {
    let create = program.function_by_name("pthread_create");
    let escaped = escaped_functions(program, create);
    let mut tainted: Vec<Vec<bool>> = program
        .functions
        .iter()
        .enumerate()
        .map(|(f, fun)| vec![escaped[f] || &*fun.name == "main"; fun.params.len()])
        .collect();
    let mut regs: Vec<Vec<bool>> = vec![Vec::new(); program.functions.len()];
    // Functions to analyse (again), and whether each is waiting.
    let mut work: Vec<usize> = (0..program.functions.len()).rev().collect();
    let mut queued = vec![true; program.functions.len()];
    while let Some(f) = work.pop() {
        queued[f] = false;
        let Some(body) = program.functions[f].body.as_ref() else { continue };
        regs[f] = taint(&body.blocks, &tainted[f], body.num_locals);
        for i in body.blocks.iter().flat_map(|b| &b.instrs) {
            let Op::Call { callee: Callee::Direct(g), args, .. } = &i.op else { continue };
            // (callee, its parameter index, the argument passed)
            let passed: Vec<(usize, usize, &Operand)> = if Some(*g) == create {
                match (args.get(2).and_then(|s| function_of(program, s)), args.get(3)) {
                    (Some(start), Some(arg)) => vec![(start, 0, arg)],
                    _ => vec![],
                }
            } else {
                args.iter().enumerate().map(|(k, a)| (*g as usize, k, a)).collect()
            };
            for (g, k, a) in passed {
                if let Some(t) = tainted[g].get_mut(k) {
                    if !*t && is_tainted(&regs[f], a) {
                        *t = true;
                        if !queued[g] {
                            queued[g] = true;
                            work.push(g);
                        }
                    }
                }
            }
        }
    }
    regs
}

/// The function a constant operand designates, if any.
fn function_of(program: &Program, o: &Operand) -> Option<usize> {
    match o {
        Operand::Const(Value::Int(a)) => {
            u64::try_from(*a).ok().and_then(|a| program.function_at(a)).map(|f| f as usize)
        }
        _ => None,
    }
}

/// The functions whose address is used other than as `pthread_create`'s
/// start routine: in any operand, and in any global's initial bytes (read as
/// 4- and 8-byte words at every offset: a false match only makes the
/// analysis more careful).
fn escaped_functions(program: &Program, create: Option<crate::program::FnId>) -> Vec<bool> {
    let mut escaped = vec![false; program.functions.len()];
    let mut mark = |a: u64| {
        if let Some(f) = program.function_at(a) {
            escaped[f as usize] = true;
        }
    };
    fn constants(v: &Value, out: &mut dyn FnMut(u64)) {
        match v {
            Value::Int(a) => {
                if let Ok(a) = u64::try_from(*a) {
                    out(a)
                }
            }
            Value::Agg(vs) => vs.iter().for_each(|v| constants(v, out)),
            _ => {}
        }
    }
    for body in program.functions.iter().filter_map(|f| f.body.as_ref()) {
        for b in &body.blocks {
            let phis = b.phis.iter().flat_map(|p| p.incoming.iter().map(|(_, o)| o));
            let term = match &b.term {
                Term::Ret(Some(o)) | Term::CondBr { c: o, .. } | Term::Switch { v: o, .. } => Some(o),
                _ => None,
            };
            let mut ops: Vec<&Operand> = phis.chain(term).collect();
            for i in &b.instrs {
                let start = match &i.op {
                    Op::Call { callee: Callee::Direct(g), args, .. } if Some(*g) == create => args.get(2),
                    _ => None,
                };
                ops.extend(i.op.operands().into_iter().filter(|o| !start.is_some_and(|s| std::ptr::eq(*o, s))));
            }
            for o in ops {
                if let Operand::Const(v) = o {
                    constants(v, &mut mark);
                }
            }
        }
    }
    for g in &program.globals {
        for w in g.init.windows(8) {
            mark(u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
        }
        for w in g.init.windows(4) {
            mark(u32::from_le_bytes(w.try_into().unwrap_or([0; 4])) as u64);
        }
    }
    escaped
}

fn is_tainted(t: &[bool], o: &Operand) -> bool {
    match o {
        Operand::Local(l) => t.get(*l as usize).copied().unwrap_or(true),
        Operand::Const(_) => false,
    }
}

/// Which registers of a body (with `num_locals` registers, its parameters in
/// `0..params.len()`, `params[i]` telling whether parameter `i` is
/// non-local) a shared read can influence.
fn taint(blocks: &[Block], params: &[bool], num_locals: u32) -> Vec<bool> {
    let mut tainted = vec![false; num_locals as usize];
    for (t, p) in tainted.iter_mut().zip(params) {
        *t = *p;
    }
    let is = is_tainted;
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
                    Op::Bin { .. }
                    | Op::FBin { .. }
                    | Op::ICmp { .. }
                    | Op::FCmp { .. }
                    | Op::FNeg { .. }
                    | Op::Cast { .. }
                    | Op::Copy { .. }
                    | Op::Select { .. }
                    | Op::Alloca { .. }
                    | Op::Gep { .. } => i.op.operands().into_iter().any(|o| is(&tainted, o)),
                    // Loads, calls, atomics and everything else: shared data.
                    _ => true,
                };
                set(&mut tainted, i.dest, v);
            }
        }
        if !changed {
            return tainted;
        }
    }
}

/// For each block of a body (its parameters' taint in `params`, see
/// [`taint`]): whether its terminator's decision is recorded (false for
/// unconditional terminators too).
pub fn recorded_branches(blocks: &[Block], params: &[bool], num_locals: u32) -> Vec<bool> {
    branches(blocks, &taint(blocks, params, num_locals))
}

/// Per block: whether its terminator's decision depends on a tainted register.
fn branches(blocks: &[Block], tainted: &[bool]) -> Vec<bool> {
    blocks
        .iter()
        .map(|b| match &b.term {
            Term::CondBr { c, .. } => is_tainted(tainted, c),
            Term::Switch { v, .. } => is_tainted(tainted, v),
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
        assert_eq!(recorded_branches(&body(), &[true], 6), vec![false, false, true, true]);
        // The same loop counter seeded from the parameter is recorded.
        let mut b = body();
        b[1].phis[0].incoming[0].1 = Operand::Local(0);
        assert_eq!(recorded_branches(&b, &[true], 6), vec![false, true, true, true]);
    }
}
