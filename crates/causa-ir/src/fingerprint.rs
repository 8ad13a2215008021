//! The registers a busy-wait fingerprint covers.
//!
//! The interpreter parks a thread whose loop repeats its local state with
//! nothing changed (`causa_interp::spin`); the state it compares includes
//! the top frame's registers. A register whose value never reaches anything
//! the thread does (a branch, an address, a store, a call, the returned
//! value) cannot tell two turns of a loop apart in any way that matters: a
//! counter of turns nobody reads (`while (!ready) spins++;`) would make every
//! turn look new, and the loop would run to the step bound instead of being
//! parked. So only registers some such use depends on, through the
//! instructions and phis that compute from them, are fingerprinted.

use crate::program::{Body, Local, Op, Operand, Program, Term, NONE};

/// Set [`Body::fingerprinted`] for every defined function of `program`.
pub fn mark_fingerprinted(program: &mut Program) {
    for fun in program.functions.iter_mut() {
        if let Some(body) = fun.body.as_mut() {
            body.fingerprinted = used(body);
        }
    }
}

fn reg(o: &Operand) -> Option<Local> {
    match o {
        Operand::Local(l) if *l != NONE => Some(*l),
        _ => None,
    }
}

/// Which registers of `body` a use that matters depends on.
fn used(body: &Body) -> Vec<bool> {
    let n = body.num_locals as usize;
    // The registers each register is computed from.
    let mut from: Vec<Vec<Local>> = vec![Vec::new(); n];
    let mut work: Vec<Local> = Vec::new();
    for b in &body.blocks {
        for phi in &b.phis {
            if let Some(d) = from.get_mut(phi.dest as usize) {
                d.extend(phi.incoming.iter().filter_map(|(_, o)| reg(o)));
            }
        }
        for i in &b.instrs {
            let operands = i.op.operands();
            if let Some(d) = from.get_mut(i.dest as usize) {
                d.extend(operands.iter().filter_map(|o| reg(o)));
            }
            // What the thread does with a value: where it reads or writes,
            // what it stores, passes (an indirect call's callee too) or
            // allocates.
            let acts = match &i.op {
                Op::Load { .. }
                | Op::Store { .. }
                | Op::Rmw { .. }
                | Op::CmpXchg { .. }
                | Op::Call { .. }
                | Op::Alloca { .. }
                | Op::VaArg { .. } => operands,
                _ => Vec::new(),
            };
            work.extend(acts.into_iter().filter_map(reg));
        }
        match &b.term {
            Term::CondBr { c, .. } => work.extend(reg(c)),
            Term::Switch { v, .. } => work.extend(reg(v)),
            Term::Ret(Some(v)) => work.extend(reg(v)),
            _ => {}
        }
    }
    let mut out = vec![false; n];
    while let Some(r) = work.pop() {
        let Some(seen) = out.get_mut(r as usize) else { continue };
        if !*seen {
            *seen = true;
            work.extend(from[r as usize].iter().copied());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Block, ICmpPred, Instr, Phi};
    use crate::types::Ty;
    use crate::value::Value;

    fn instr(op: Op, dest: Local) -> Instr {
        Instr { op, dest, loc: NONE }
    }

    #[test]
    fn a_counter_nobody_reads_is_left_out() {
        // entry: br loop
        // loop: spins = phi [0, entry], [next, loop]; next = spins + 1;
        //       v = load ready; c = v == 0; br c, loop, exit
        // exit: ret
        let konst = |v| Operand::Const(Value::Int(v));
        let (spins, next, v, c, ready) = (1, 2, 3, 4, 0);
        let looping = Block {
            phis: vec![Phi { dest: spins, incoming: vec![(0, konst(0)), (1, Operand::Local(next))] }],
            instrs: vec![
                instr(Op::Bin { op: crate::BinOp::Add, bits: 32, a: Operand::Local(spins), b: konst(1) }, next),
                instr(Op::Load { addr: Operand::Local(ready), ty: Ty::Int(32), atomic: true }, v),
                instr(Op::ICmp { pred: ICmpPred::Eq, bits: 32, a: Operand::Local(v), b: konst(0) }, c),
            ],
            term: Term::CondBr { c: Operand::Local(c), t: 1, f: 2 },
            term_loc: NONE,
        };
        let block = |term| Block { phis: vec![], instrs: vec![], term, term_loc: NONE };
        let mut body = Body {
            blocks: vec![block(Term::Br(1)), looping, block(Term::Ret(None))],
            num_locals: 5,
            recorded: vec![],
            fingerprinted: vec![],
        };
        let used = used(&body);
        assert_eq!(used, vec![true, false, false, true, true], "the address, the value read and the condition");
        // Returned, the counter matters.
        body.blocks[2].term = Term::Ret(Some(Operand::Local(spins)));
        assert_eq!(super::used(&body), vec![true, true, true, true, true]);
    }
}
