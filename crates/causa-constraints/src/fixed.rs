//! Queries and solvers that fix the order of many events at once.
//!
//! Asking the trace's incremental solver "does the formula hold with these
//! events in this order?" makes it take the order as a chain of difference
//! constraints: its difference logic then keeps their closure (with a trail
//! entry per improved distance), and every order atom of the base between
//! two of those events is still a decision for its search. Checking that a
//! failing run's own order of 974 events fails in the model cost 0.33 s with
//! a single conflict that way (bench/programs/bank_long.c), and 0.55 s and
//! 686 conflicts at 985 events (docs/performance.md). Here the fixed events'
//! order variables are numbers instead: every order atom between two of them
//! is true or false before the search starts (Z3's rewriter folds it when the
//! formula is asserted), and what is left (the other events' order
//! variables, the free variables, the value atoms) is all there is to solve.
//!
//! Exact: the fixed events get positions spaced far enough apart that any
//! placement of the remaining order variables between them that the chain
//! allows is still available.

use crate::formula::{Defs, Ev, Formula};
use crate::solver::{SolveResult, Z3Solver};
use crate::OrderSolver;
use z3::ast::Int;

/// The order variables of `n` events with the events of `order` fixed at
/// spaced positions in that order (the others: their constants `o_i`).
fn fixed_positions(n: usize, order: &[Ev]) -> Vec<Int> {
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

impl Z3Solver {
    /// From now on the events of `order` happen in that order, each before
    /// the next, in every query: their order variables become numbers (see
    /// the module docs). The solver is rebuilt (what it learned is lost).
    pub fn fix_order(&mut self, order: &[Ev], defs: &Defs) {
        self.order = fixed_positions(self.order.len(), order);
        self.rebuild(defs);
    }

    /// A new solver for this one's trace, base and settings, with the events
    /// of `order` fixed in that order ([`Z3Solver::fix_order`]). Its queries
    /// count as this one's once [`Z3Solver::absorb`]ed.
    pub fn fixed_sibling(&self, order: &[Ev], defs: &Defs) -> Z3Solver {
        let mut s = Z3Solver::with_arithmetic(self.arithmetic);
        s.set_atoms(self.atoms.clone());
        s.timeout = self.timeout;
        s.random_seed = self.random_seed;
        s.conflicts = self.conflicts;
        s.resources = self.resources;
        s.reset(self.order.len(), &self.base, defs);
        s.fix_order(order, defs);
        s
    }

    /// Move `other`'s queries and time so far to this solver's count.
    pub fn absorb(&mut self, other: &mut Z3Solver) {
        self.queries += std::mem::take(&mut other.queries);
        self.time += std::mem::take(&mut other.time);
    }

    /// Is `base ∧ goal` satisfiable with the events of `order` happening in
    /// that order? Answered by a [`Z3Solver::fixed_sibling`]; this solver is
    /// left as it was. Counts as one of its queries.
    pub fn solve_in_order(&mut self, goal: &Formula, defs: &Defs, order: &[Ev]) -> SolveResult {
        let mut once = self.fixed_sibling(order, defs);
        let answer = once.solve(goal, defs);
        self.absorb(&mut once);
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::Formula::{Before, Def, Same, Var};

    fn solver(events: usize, base: &Formula, defs: &Defs) -> Z3Solver {
        let mut s = Z3Solver::dense();
        s.reset(events, base, defs);
        s
    }

    fn sat(r: &SolveResult) -> bool {
        matches!(r, SolveResult::Sat(_))
    }

    #[test]
    fn a_free_event_still_fits_between_two_fixed_ones() {
        // 0 and 2 fixed, 1 must come strictly between them and equal 3's
        // position, which must come after 2: unsatisfiable; without the
        // last part satisfiable, and the model keeps the fixed order.
        let defs = Defs::default();
        let base = Formula::and(vec![Before(0, 1), Before(1, 2), Same(1, 3)]);
        let mut s = solver(4, &base, &defs);
        match s.solve_in_order(&Formula::True, &defs, &[0, 2]) {
            SolveResult::Sat(pos) => {
                assert!(pos[0] < pos[1] && pos[1] < pos[2] && pos[1] == pos[3], "{pos:?}");
            }
            other => panic!("expected a model, got {other:?}"),
        }
        assert_eq!(s.solve_in_order(&Before(2, 3), &defs, &[0, 2]), SolveResult::Unsat);
        // The other order of the fixed events contradicts the base.
        assert_eq!(s.solve_in_order(&Formula::True, &defs, &[2, 0]), SolveResult::Unsat);
        // Each call counted as a query of the solver asked.
        assert_eq!(s.stats().0, 3);
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
                let mut plain = solver(5, &base, &defs);
                let chain: Vec<Formula> = order.windows(2).map(|w| Before(w[0], w[1])).collect();
                let expected = plain.solve(&Formula::and(vec![goal.clone(), Formula::and(chain)]), &defs);
                let mut s = solver(5, &base, &defs);
                let got = s.solve_in_order(goal, &defs, order);
                assert_eq!(sat(&got), sat(&expected), "goal {goal:?}, order {order:?}");
                answers[usize::from(sat(&got))] += 1;
                if let SolveResult::Sat(pos) = got {
                    assert!(order.windows(2).all(|w| pos[w[0]] < pos[w[1]]), "{pos:?}");
                }
                // The same through a solver whose base fixes the order.
                let mut f = solver(5, &base, &defs);
                f.fix_order(order, &defs);
                assert_eq!(sat(&f.solve(goal, &defs)), sat(&expected), "goal {goal:?}, order {order:?} (fixed)");
            }
        }
        // The family has both answers.
        assert!(answers[0] > 0 && answers[1] > 0, "{answers:?}");
    }
}
