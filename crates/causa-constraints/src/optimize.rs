//! Max SMT over the same order formulas (AAAI-19 §4, notes `maxsmt.md` §6–8):
//! hard constraints that must hold and groups of soft constraints whose
//! satisfied count is maximised, two ways ([`Engine`]):
//! - [`Z3Solver::improve`]: solution-improving (linear) search on the
//!   trace's incremental solver: each solution's count, plus one, becomes a
//!   pseudo-Boolean bound, until that is unsatisfiable. What the solver
//!   learned about the trace stays between the steps and between queries;
//! - [`Z3Solver::optimize`]: Z3's `Optimize` (MaxRes). It cannot reuse the
//!   incremental solver, and on explain's windows it was 3–4 times slower
//!   (docs/performance.md).
//!
//! The `Optimize` query is built in a fresh `Optimize` from the [`Z3Solver`]'s current
//! trace (its base constraints, definitions, axioms and value atoms), so one
//! model of a trace serves both the ordinary queries and the optimisation.
//! A conflict budget bounds each call (deterministic, unlike a time limit):
//! when it runs out, the best solution found so far is returned, marked
//! [`OptResult::Best`].

use crate::formula::{Defs, Formula};
use crate::solver::Z3Solver;
use std::time::Instant;
use z3::ast::Bool;
use z3::{Optimize, SatResult};

/// How several groups of soft constraints combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// Every soft constraint counts the same (one objective).
    Flat,
    /// Maximise the first group's count, then the second's among those
    /// solutions, and so on.
    Lexicographic,
}

/// How a Max SMT query is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// [`Z3Solver::improve`]: solution-improving search on the trace's
    /// incremental solver.
    #[default]
    Linear,
    /// [`Z3Solver::optimize`]: Z3's `Optimize` (MaxRes), built afresh.
    Z3,
}

/// The answer to [`Z3Solver::optimize`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptResult {
    /// The positions of an optimal solution.
    Optimal(Vec<i64>),
    /// The budget ran out: the best solution found (not proven optimal).
    Best(Vec<i64>),
    /// The hard constraints cannot hold.
    Unsat,
    /// The budget ran out before any solution was found.
    Unknown,
}

impl OptResult {
    /// The positions of the solution, if there is one.
    pub fn positions(&self) -> Option<&[i64]> {
        match self {
            OptResult::Optimal(p) | OptResult::Best(p) => Some(p),
            _ => None,
        }
    }
}

impl Z3Solver {
    /// Maximise the satisfied soft constraints of `soft` (groups, combined
    /// by `priority`) subject to the base constraints and `hard`, with at most
    /// `max_conflicts` conflicts per call of the underlying SMT solver (None:
    /// no limit). Counts as one query in [`crate::OrderSolver::stats`].
    pub fn optimize(
        &mut self,
        hard: &Formula,
        soft: &[Vec<Formula>],
        priority: Priority,
        max_conflicts: Option<u32>,
        defs: &Defs,
    ) -> OptResult {
        let start = Instant::now();
        if !self.within_deadline() {
            self.queries += 1;
            return OptResult::Unknown;
        }
        self.sync_defs(defs);
        let opt = Optimize::new();
        let mut p = z3::Params::new();
        p.set_symbol("priority", "lex");
        if let Some(c) = max_conflicts {
            p.set_u32("max_conflicts", c);
        }
        if let Some(left) = self.time_left() {
            p.set_u32("timeout", crate::solver::millis(left));
        }
        opt.set_params(&p);
        for f in self.trace_constraints(hard, defs) {
            opt.assert(f);
        }
        for (g, group) in soft.iter().enumerate() {
            let id = match priority {
                Priority::Flat => "soft".to_string(),
                Priority::Lexicographic => format!("soft{g}"),
            };
            for f in group {
                opt.assert_soft(&self.lower(f), 1, Some(z3::Symbol::String(id.clone())));
            }
        }
        // Optimize takes its SMT solver's arithmetic from the global
        // parameters only; causa sets no other global parameter, so they are
        // reset right after.
        if self.uses_dense() {
            z3::set_global_param("smt.arith.solver", "3");
        }
        let r = opt.check(&[]);
        z3::reset_all_global_params();
        let positions = || -> Option<Vec<i64>> {
            let m = opt.get_model()?;
            self.order.iter().map(|o| m.eval(o, true).and_then(|v| v.as_i64())).collect()
        };
        let out = match r {
            SatResult::Sat => positions().map_or(OptResult::Unknown, OptResult::Optimal),
            SatResult::Unsat => OptResult::Unsat,
            SatResult::Unknown => positions().map_or(OptResult::Unknown, |p| self.checked(p, hard, defs)),
        };
        self.queries += 1;
        self.time += start.elapsed();
        out
    }

    /// A Max SMT query answered by `engine`; `start`: positions known to
    /// satisfy `hard` (a satisfiability query's answer), which the linear
    /// engine improves on instead of solving `hard` again.
    #[allow(clippy::too_many_arguments)]
    pub fn max_smt(
        &mut self,
        engine: Engine,
        hard: &Formula,
        soft: &[Vec<Formula>],
        priority: Priority,
        max_conflicts: Option<u32>,
        defs: &Defs,
        start: Option<Vec<i64>>,
    ) -> OptResult {
        match engine {
            Engine::Linear => self.improve(hard, soft, priority, max_conflicts, defs, start),
            Engine::Z3 => self.optimize(hard, soft, priority, max_conflicts, defs),
        }
    }

    /// [`Z3Solver::optimize`] by solution-improving search on this
    /// (incremental) solver: solve, count the soft constraints the
    /// solution satisfies, ask for one more (a pseudo-Boolean bound), and
    /// so on until that is unsatisfiable; group after group when
    /// lexicographic, the earlier groups' counts then kept. Each query
    /// has the conflict budget; when one runs out, its group keeps the best
    /// count found so far and the next group is improved (the answer is
    /// then [`OptResult::Best`]). The soft formulas must be order formulas
    /// (their count is evaluated on the positions). `start`: a solution of
    /// `hard` to begin from (racey: solving its window's `hard` again took
    /// 2.5 s of 8).
    pub fn improve(
        &mut self,
        hard: &Formula,
        soft: &[Vec<Formula>],
        priority: Priority,
        max_conflicts: Option<u32>,
        defs: &Defs,
        start: Option<Vec<i64>>,
    ) -> OptResult {
        let saved = self.conflicts;
        self.set_conflict_budget(max_conflicts);
        let r = self.improve_within_budget(hard, soft, priority, defs, start);
        self.set_conflict_budget(saved);
        r
    }

    /// [`Z3Solver::improve`] under the conflict budget already set.
    fn improve_within_budget(
        &mut self,
        hard: &Formula,
        soft: &[Vec<Formula>],
        priority: Priority,
        defs: &Defs,
        start: Option<Vec<i64>>,
    ) -> OptResult {
        use crate::solver::{OrderSolver, SolveResult};
        let groups: Vec<Vec<Formula>> = match priority {
            Priority::Flat => vec![soft.concat()],
            Priority::Lexicographic => soft.to_vec(),
        };
        let query = |s: &mut Z3Solver, bounds: &[Formula]| {
            let mut q = vec![hard.clone()];
            q.extend_from_slice(bounds);
            s.solve(&Formula::and(q), defs)
        };
        let first = match start {
            Some(pos) => SolveResult::Sat(pos),
            None => query(self, &[]),
        };
        let mut best = match first {
            SolveResult::Sat(pos) => pos,
            SolveResult::Unsat => return OptResult::Unsat,
            SolveResult::Unknown => return OptResult::Unknown,
        };
        let mut bounds: Vec<Formula> = Vec::new();
        let mut proven = true;
        for (g, group) in groups.iter().enumerate() {
            loop {
                let held = group.iter().filter(|f| f.eval(&best, defs)).count() as u32;
                if held as usize == group.len() {
                    bounds.push(Formula::and(group.clone()));
                    break;
                }
                let mut more = bounds.clone();
                more.push(Formula::AtLeast(group.clone(), held + 1));
                let asked = Instant::now();
                let answer = query(self, &more);
                tracing::debug!(
                    group = g,
                    held,
                    of = group.len(),
                    sat = matches!(answer, SolveResult::Sat(_)),
                    ms = asked.elapsed().as_secs_f64() * 1e3,
                    "max smt: one more satisfied soft constraint?"
                );
                match answer {
                    SolveResult::Sat(pos) => best = pos,
                    SolveResult::Unsat => {
                        bounds.push(Formula::AtLeast(group.clone(), held));
                        break;
                    }
                    // The budget ran out: this group keeps the best
                    // count found, and the next group is still improved
                    // (each call has its own budget).
                    SolveResult::Unknown => {
                        proven = false;
                        bounds.push(Formula::AtLeast(group.clone(), held));
                        break;
                    }
                }
            }
        }
        if proven {
            OptResult::Optimal(best)
        } else {
            OptResult::Best(best)
        }
    }

    /// Every definition and axiom, the base constraints and `hard`.
    fn trace_constraints(&self, hard: &Formula, defs: &Defs) -> Vec<Bool> {
        let mut out: Vec<Bool> = (0..defs.len()).map(|i| self.def(i).implies(self.lower(defs.get(i)))).collect();
        out.extend(defs.axioms().iter().map(|a| self.lower(a)));
        out.push(self.lower(&self.base));
        out.push(self.lower(hard));
        out
    }

    /// A model Z3 returned after running out of budget, kept only when it
    /// satisfies the hard constraints (Z3 returns its best model so far,
    /// which MaxRes keeps feasible; checked rather than trusted).
    fn checked(&mut self, pos: Vec<i64>, hard: &Formula, defs: &Defs) -> OptResult {
        let s = z3::Solver::new();
        for f in self.trace_constraints(hard, defs) {
            s.assert(f);
        }
        for (o, v) in self.order.iter().zip(&pos) {
            s.assert(o.eq(z3::ast::Int::from_i64(*v)));
        }
        match s.check() {
            SatResult::Sat => OptResult::Best(pos),
            _ => OptResult::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OrderSolver;

    fn solver(events: usize, base: &Formula) -> Z3Solver {
        let mut s = Z3Solver::new();
        s.reset(events, base, &Defs::default());
        s
    }

    type Method = fn(&mut Z3Solver, &Formula, &[Vec<Formula>], Priority, Option<u32>, &Defs) -> OptResult;

    fn improve(
        s: &mut Z3Solver,
        h: &Formula,
        soft: &[Vec<Formula>],
        p: Priority,
        c: Option<u32>,
        d: &Defs,
    ) -> OptResult {
        s.improve(h, soft, p, c, d, None)
    }

    /// The search started from a solution of the hard constraints (0 < 1 <
    /// 2 < 3 satisfies every test's).
    fn improve_from(
        s: &mut Z3Solver,
        h: &Formula,
        soft: &[Vec<Formula>],
        p: Priority,
        c: Option<u32>,
        d: &Defs,
    ) -> OptResult {
        s.improve(h, soft, p, c, d, Some(vec![0, 1, 2, 3][..s.order.len()].to_vec()))
    }

    /// Z3's Optimize and the solution-improving search answer alike.
    const METHODS: [(&str, Method); 3] =
        [("optimize", Z3Solver::optimize), ("improve", improve), ("improve from a solution", improve_from)];

    #[test]
    fn flat_maximises_the_number_of_satisfied_soft_constraints() {
        for (name, method) in METHODS {
            // 0 < 1 is hard; the soft constraints 1 < 0 (impossible), 2 < 0
            // and 1 < 2 can hold together except the first.
            let mut s = solver(3, &Formula::Before(0, 1));
            let soft = vec![vec![Formula::Before(1, 0), Formula::Before(2, 0), Formula::Before(1, 2)]];
            let r = method(&mut s, &Formula::True, &soft, Priority::Flat, None, &Defs::default());
            let p = r.positions().expect("a solution").to_vec();
            assert!(matches!(r, OptResult::Optimal(_)), "{name}");
            // 2 < 0 and 1 < 2 contradict 0 < 1 together: the best keeps one.
            let kept = [p[2] < p[0], p[1] < p[2]].iter().filter(|b| **b).count();
            assert_eq!(kept, 1, "{name}");
            assert!(p[0] < p[1], "{name}");
        }
    }

    #[test]
    fn lexicographic_prefers_the_first_group_over_any_count_of_the_second() {
        for (name, method) in METHODS {
            // Group 0: 1 < 0. Group 1: 0 < 1 three times over (as three atoms).
            let mut s = solver(4, &Formula::True);
            let soft = vec![
                vec![Formula::Before(1, 0)],
                vec![
                    Formula::Before(0, 1),
                    Formula::Before(0, 2),
                    Formula::And(vec![Formula::Before(2, 1), Formula::Before(0, 3)]),
                ],
            ];
            let lex = method(&mut s, &Formula::True, &soft, Priority::Lexicographic, None, &Defs::default());
            let p = lex.positions().expect("a solution").to_vec();
            assert!(p[1] < p[0], "{name}: the first group wins: {p:?}");
            // Then the second group's best among those: one of 0 < 2 and
            // (2 < 1 and 0 < 3), which exclude each other once 1 < 0.
            let second = [p[0] < p[2], p[2] < p[1] && p[0] < p[3]].iter().filter(|b| **b).count();
            assert_eq!(second, 1, "{name}: {p:?}");
            let flat = method(&mut s, &Formula::True, &soft, Priority::Flat, None, &Defs::default());
            let p = flat.positions().expect("a solution").to_vec();
            assert!(p[0] < p[1], "{name}: the count wins: {p:?}");
        }
    }

    #[test]
    fn unsatisfiable_hard_constraints_are_reported() {
        // (Not from a solution: there is none.)
        for (name, method) in &METHODS[..2] {
            let mut s = solver(2, &Formula::Before(0, 1));
            let r = method(
                &mut s,
                &Formula::Before(1, 0),
                &[vec![Formula::True]],
                Priority::Flat,
                Some(1000),
                &Defs::default(),
            );
            assert_eq!(r, OptResult::Unsat, "{name}");
            assert_eq!(s.stats().0, 1, "{name}");
        }
    }

    #[test]
    fn a_group_whose_budget_runs_out_keeps_its_best_and_the_next_group_is_still_improved() {
        let mut s = solver(6, &Formula::True);
        // Group 0: every order between four events, of which a total order
        // satisfies half (proving that takes more conflicts than the
        // budget); group 1: one free order of two other events.
        let pairs = (0..4).flat_map(|a| (0..4).filter(move |b| *b != a).map(move |b| Formula::Before(a, b)));
        let soft = vec![pairs.collect(), vec![Formula::Before(5, 4)]];
        let start = Some((0..6).collect());
        let budget = Some(5);
        let r = s.improve(&Formula::True, &soft, Priority::Lexicographic, budget, &Defs::default(), start);
        let OptResult::Best(p) = r else { panic!("the budget ran out, so not proven optimal: {r:?}") };
        assert!(p[5] < p[4], "group 1 improved after group 0's budget ran out: {p:?}");
    }

    #[test]
    fn improving_keeps_the_conflict_budget_it_was_given() {
        let mut s = solver(3, &Formula::True);
        s.set_conflict_budget(Some(7));
        let soft = vec![vec![Formula::Before(1, 0), Formula::Before(2, 1)]];
        let r = s.improve(&Formula::True, &soft, Priority::Flat, Some(100), &Defs::default(), None);
        let p = r.positions().expect("a solution").to_vec();
        assert!(p[1] < p[0] && p[2] < p[1], "{p:?}");
        assert_eq!(s.conflicts, Some(7));
    }
}
