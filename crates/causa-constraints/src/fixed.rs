//! Solvers that fix the order of many events at once
//! ([`crate::Z3Solver::reset_fixed`]).
//!
//! An explanation's weak solver answers only queries that keep the failing
//! run's incidental events (bookkeeping the failure does not depend on) in
//! the run's order. Given to the solver as a chain of difference
//! constraints, that order costs every query: the difference logic keeps
//! the chain's closure (a trail entry per improved distance), and each
//! order atom between two of those events is still a decision for the
//! search. On a 974-event run of bench/programs/bank_long.c (960 of them
//! incidental), the check that the run's order fails cost 0.33 s with one
//! conflict, and the root cause's unsat-core query 0.09–0.38 s
//! (docs/performance.md). Here the fixed events' order variables are
//! numbers instead: every order atom between two of them is true or false
//! before the search starts (Z3's rewriter folds it when the formula is
//! asserted), and what is left (the other events' order variables, the
//! free variables, the value atoms) is all there is to solve.
//!
//! Exact: the fixed events get positions spaced far enough apart that any
//! placement of the remaining order variables between them that the chain
//! allows is still available.

use crate::formula::Ev;
use z3::ast::Int;

/// The order variables of `n` events with the events of `order` fixed at
/// spaced positions in that order (the others: their constants `o_i`).
pub(crate) fn order_variables(n: usize, order: &[Ev]) -> Vec<Int> {
    // Room between two fixed events for every other variable.
    let gap = n as i64 + 1;
    let mut vars: Vec<Int> = (0..n).map(|i| Int::new_const(format!("o{i}"))).collect();
    for (i, &e) in order.iter().enumerate() {
        if let Some(v) = vars.get_mut(e) {
            *v = Int::from_i64((i as i64 + 1) * gap);
        }
    }
    vars
}

#[cfg(test)]
mod tests {
    use crate::formula::Formula::{Before, Def, Same, Var};
    use crate::formula::{Defs, Ev, Formula};
    use crate::{OrderSolver, SolveResult, Z3Solver};

    fn solver(events: usize, base: &Formula, defs: &Defs, fixed: &[Ev]) -> Z3Solver {
        let mut s = Z3Solver::dense();
        s.reset_fixed(events, base, defs, fixed);
        s
    }

    fn sat(r: &SolveResult) -> bool {
        matches!(r, SolveResult::Sat(_))
    }

    #[test]
    fn a_free_event_still_fits_between_two_fixed_ones() {
        // 0 and 2 fixed, 1 must come strictly between them and at 3's
        // position, which must come after 2: unsatisfiable; without the
        // last part satisfiable, and the model keeps the fixed order.
        let defs = Defs::default();
        let base = Formula::and(vec![Before(0, 1), Before(1, 2), Same(1, 3)]);
        let mut s = solver(4, &base, &defs, &[0, 2]);
        match s.solve(&Formula::True, &defs) {
            SolveResult::Sat(pos) => {
                assert!(pos[0] < pos[1] && pos[1] < pos[2] && pos[1] == pos[3], "{pos:?}");
            }
            other => panic!("expected a model, got {other:?}"),
        }
        assert_eq!(s.solve(&Before(2, 3), &defs), SolveResult::Unsat);
        // The other order of the fixed events contradicts the base.
        let mut r = solver(4, &base, &defs, &[2, 0]);
        assert_eq!(r.solve(&Formula::True, &defs), SolveResult::Unsat);
    }

    #[test]
    fn fixing_an_order_answers_as_the_same_order_given_as_a_chain() {
        // Every order of three of five events fixed, against every goal of
        // a small family with definitions, free variables and bounds: the
        // fixed solver and a chain of `Before`s agree.
        let mut defs = Defs::default();
        let d0 = defs.add(Formula::or(vec![Before(0, 3), Before(4, 1)]));
        let d1 = defs.add(Formula::and(vec![Def(d0), Formula::or(vec![Before(2, 4), Var(0)])]));
        let base = Formula::and(vec![Before(3, 4), Formula::or(vec![Var(0), Before(1, 0)])]);
        let goals = [
            Formula::True,
            Def(d1),
            Formula::and(vec![Def(d1), Formula::NotVar(0)]),
            Formula::AtLeast(vec![Before(0, 1), Before(1, 2), Before(2, 0), Same(3, 2)], 2),
            Formula::and(vec![Same(0, 4), Before(2, 3)]),
        ];
        let fixed_sets: [&[Ev]; 6] = [&[0, 1, 2], &[0, 2, 1], &[1, 0, 2], &[1, 2, 0], &[2, 0, 1], &[2, 1, 0]];
        let mut answers = [0usize; 2];
        for goal in &goals {
            for order in fixed_sets {
                let mut plain = solver(5, &base, &defs, &[]);
                let chain: Vec<Formula> = order.windows(2).map(|w| Before(w[0], w[1])).collect();
                let expected = plain.solve(&Formula::and(vec![goal.clone(), Formula::and(chain)]), &defs);
                let mut s = solver(5, &base, &defs, order);
                let got = s.solve(goal, &defs);
                assert_eq!(sat(&got), sat(&expected), "goal {goal:?}, order {order:?}");
                answers[usize::from(sat(&got))] += 1;
                if let SolveResult::Sat(pos) = got {
                    assert!(order.windows(2).all(|w| pos[w[0]] < pos[w[1]]), "{pos:?}");
                }
            }
        }
        // The family has both answers.
        assert!(answers[0] > 0 && answers[1] > 0, "{answers:?}");
    }
}
