//! Φ_bug for memory errors: the failing operation's address is invalid, or
//! the heap block it touches was freed before it.
//!
//! Symbolic execution stops the failing thread at the operation the log's
//! memory error names ([`crate::exec`] records a [`Fault`]: address
//! expression, bytes, read or write, or a `free`). Whether that operation
//! fails depends on values (a pointer read from shared memory is null, an
//! index read from shared memory is past the end) and on order (another
//! thread's `free` of the block came first). The predicate covers both, over
//! every object of the program ([`SymTrace::objects`]), the interpreter's
//! checks written as constraints:
//! - an access of `n` bytes at `a` is valid when `a` lies in some object with
//!   `n` bytes to spare (not constant data for a write); a `free(a)` is valid
//!   when `a` is null or the start of a heap block; a call through `a` when
//!   `a` is the address of one of the program's functions;
//! - it fails when it is not valid, or when it hits a heap block that some
//!   `free` (at a known address, or at a computed one equal to the block's
//!   start) precedes, or a stack object whose function returned before it
//!   (in the step of that thread's last event before the return: a return
//!   is not a scheduling point).
//!
//! The value parts are built as expressions once every thread has run
//! ([`predicates`]: every object and every free is known then); the order
//! parts when solving ([`bug`]).

use crate::expr::{ExprId, Exprs};
use crate::model::Model;
use crate::trace::{Object, SymOp, SymTrace};
use crate::values::Values;
use causa_constraints::formula::Ev;
use causa_constraints::Formula;
use causa_ir::{addr_alloc, BinOp, ICmpPred};

/// The value parts of a memory error's predicate (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FaultPredicates {
    /// 1 when the operation is invalid whatever the order.
    pub invalid: Option<ExprId>,
    /// Per heap block (its start): 1 when the operation touches it.
    pub hits: Vec<(u64, ExprId)>,
    /// Per free at a computed address (thread, event) and heap block: 1 when
    /// it frees that block.
    pub frees: Vec<(usize, usize, u64, ExprId)>,
}

/// Build the value parts of `trace.fault`'s predicate.
pub fn predicates(trace: &mut SymTrace) {
    let Some(fault) = trace.fault.clone() else { return };
    let x = &mut trace.exprs;
    let a = fault.addr;
    let heap: Vec<&Object> = trace.objects.iter().filter(|o| o.heap).collect();
    let mut p = FaultPredicates::default();
    let valid = if !fault.functions.is_empty() {
        let mut v = x.constant(1, 0);
        for f in &fault.functions {
            let is = start_is(x, a, *f);
            v = x.or(v, is);
        }
        v
    } else if fault.len == 0 {
        let null = x.constant(64, 0);
        let mut v = x.icmp(ICmpPred::Eq, 64, a, null);
        for o in &heap {
            let at = start_is(x, a, o.base);
            v = x.or(v, at);
            p.hits.push((o.base, at));
        }
        v
    } else {
        let mut v = x.constant(1, 0);
        for o in trace.objects.iter().filter(|o| !(fault.write && o.read_only) && o.size >= fault.len) {
            let inside = in_object(x, a, o);
            let fits = fits(x, a, o.size - fault.len);
            let ok = x.and(inside, fits);
            v = x.or(v, ok);
            if o.heap || trace.deaths.iter().any(|d| d.0 == o.base) {
                p.hits.push((o.base, inside));
            }
        }
        v
    };
    p.invalid = Some(x.not(valid));
    for (t, th) in trace.threads.iter().enumerate() {
        for (k, e) in th.events.iter().enumerate() {
            if let SymOp::Free { at: Some(f), .. } = e.op {
                for o in &heap {
                    p.frees.push((t, k, o.base, start_is(x, f, o.base)));
                }
            }
        }
    }
    trace.fault_predicates = p;
}

/// Φ_bug of the trace's memory error (True when there is none).
pub fn bug(sym: &SymTrace, model: &Model, values: &mut Values<'_>) -> Formula {
    let Some(fault) = &sym.fault else { return Formula::True };
    let p = &sym.fault_predicates;
    let Some(fail) = model.event_of[fault.thread].iter().rev().find_map(|e| *e) else {
        return Formula::False;
    };
    // The free comes first, or at the failing operation's position: order
    // positions of two threads' events may be equal, and the replay then
    // runs the failing thread's point last (`clap::happening`), after the
    // free (an alternate took a tie for "not before" and failed again).
    let first = |e: Ev| Formula::or(vec![Formula::Before(e, fail), Formula::Same(e, fail)]);
    let mut cases = vec![atom(&sym.exprs, values, p.invalid)];
    for &(block, hits) in &p.hits {
        let mut freed = Vec::new();
        for (e, (t, k)) in model.origin.iter().enumerate() {
            match sym.threads[*t].events[*k].op {
                SymOp::Free { object, at: None, .. } if object == block => freed.push(first(e)),
                SymOp::Free { at: Some(_), .. } => {
                    let frees = p.frees.iter().find(|f| (f.0, f.1, f.2) == (*t, *k, block));
                    if let Some(f) = frees {
                        let same = atom(&sym.exprs, values, Some(f.3));
                        freed.push(Formula::and(vec![same, first(e)]));
                    }
                }
                _ => {}
            }
        }
        // A stack object whose function returned: dead from the step of
        // its thread's last event before the return.
        for &(_, t, k) in sym.deaths.iter().filter(|d| d.0 == block) {
            freed.push(match model.point_before(t, k) {
                Some(e) if e != fail => first(e),
                Some(_) => Formula::False,
                None => Formula::True,
            });
        }
        if !freed.is_empty() {
            cases.push(Formula::and(vec![atom(&sym.exprs, values, Some(hits)), Formula::or(freed)]));
        }
    }
    Formula::or(cases)
}

/// A 1-bit expression as a formula (constants folded).
fn atom(x: &Exprs, values: &mut Values<'_>, e: Option<ExprId>) -> Formula {
    match e.map(|e| (e, x.value(e))) {
        None => Formula::False,
        Some((_, Some(v))) => {
            if v & 1 == 1 {
                Formula::True
            } else {
                Formula::False
            }
        }
        Some((e, None)) => Formula::Atom(values.holds(e)),
    }
}

/// `a` points into object `o` (same allocation).
fn in_object(x: &mut Exprs, a: ExprId, o: &Object) -> ExprId {
    let shift = x.constant(64, causa_ir::ADDR_SHIFT as u128);
    let id = x.bin(BinOp::LShr, 64, a, shift).expect("shift");
    let want = x.constant(64, addr_alloc(o.base) as u128);
    x.icmp(ICmpPred::Eq, 64, id, want)
}

/// `a`'s offset in its allocation is at most `last`.
fn fits(x: &mut Exprs, a: ExprId, last: u64) -> ExprId {
    let mask = x.constant(64, causa_ir::OFFSET_MASK as u128);
    let off = x.bin(BinOp::And, 64, a, mask).expect("and");
    let last = x.constant(64, last as u128);
    x.icmp(ICmpPred::Ule, 64, off, last)
}

fn start_is(x: &mut Exprs, a: ExprId, base: u64) -> ExprId {
    let b = x.constant(64, base as u128);
    x.icmp(ICmpPred::Eq, 64, a, b)
}
