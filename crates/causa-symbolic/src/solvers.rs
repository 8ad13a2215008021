//! The two solvers of an explanation. Most of a long failing run is often
//! bookkeeping the failure does not depend on (`relevant::incidental_events`:
//! a statistics counter updated under its lock, thousands of times). Φ_lock
//! between two such critical sections is quadratic in their number and
//! decides nothing as long as they keep the failing order; it made every
//! solver's first query cost about a second on a 974-event run of
//! bench/programs/bank_long.c. So:
//! - the `weak` solver's base leaves it out ([`Encoder::set_locks_aside`]),
//!   and has the incidental events' order fixed as in σ
//!   ([`Z3Solver::reset_fixed`]). It answers the queries that keep them in
//!   the failing order σ (σ's check, progressive mode's windows holding
//!   them), where it is exact, and the root cause's unsat core outside
//!   Symbiosis mode: a core of the run's paths with the incidental events
//!   in σ's order, so no pair of two of them is in it (late_race at 985
//!   events: 11 events instead of 39). Symbiosis mode inverts the core's
//!   pairs, so it asks the full solver;
//! - the `full` solver's base has it: it is built on first use, for the
//!   queries that may move those sections (Symbiosis' inversions, the full
//!   Max SMT models, branch flips, progressive mode freeing every event).
//!
//! When nothing is left out, both are the same solver.
//!
//! Both use the arithmetic [`arithmetic_for`] picks from the failing order.

use crate::alternate::Mode;
use causa_constraints::{Arithmetic, Defs, Formula, OrderSolver, Z3Solver};
use std::time::{Duration, Instant};
use z3::ast::Bool;

pub(crate) struct Solvers {
    weak: Z3Solver,
    full: Option<Z3Solver>,
    /// What the full solver's base has beyond the weak one's (True: nothing).
    aside: Formula,
    common: Formula,
    vars: usize,
    atoms: Vec<Bool>,
    arithmetic: Arithmetic,
    /// Queries and time of a weak solver dropped by [`Solvers::full_only`].
    dropped: (u64, Duration),
    /// No query after this instant.
    deadline: Option<Instant>,
}

impl Solvers {
    /// `common`: the weak base; `aside`: the constraints it leaves out
    /// (with `held`: the order of the incidental events in σ, which every
    /// query of the weak solver keeps, so it is fixed there
    /// ([`Z3Solver::reset_fixed`]): asked as a chain, the σ check of a
    /// 974-event run cost 0.33 s, with one conflict); `vars` order
    /// variables; `atoms`: the value atoms; `deadline`: no query of
    /// either after it.
    pub fn new(
        (vars, arithmetic): (usize, Arithmetic),
        common: Formula,
        (aside, held): (Formula, &[causa_constraints::formula::Ev]),
        atoms: Vec<Bool>,
        defs: &Defs,
        deadline: Option<Instant>,
    ) -> Solvers {
        let mut weak = Z3Solver::with_arithmetic(arithmetic);
        weak.set_atoms(atoms.clone());
        weak.set_deadline(deadline);
        // (Without sections aside the weak solver is the full one, which
        // frees the incidental events too.)
        let held = if aside == Formula::True { &[] } else { held };
        weak.reset_fixed(vars, &common, defs, held);
        Solvers { weak, full: None, aside, common, vars, atoms, arithmetic, dropped: (0, Duration::ZERO), deadline }
    }

    /// From now on every query goes to the full solver: the sections left
    /// aside were chosen from an order that is not the failing schedule
    /// after all (the run's order did not fail in the model).
    pub fn full_only(&mut self, defs: &Defs) {
        if !self.narrowed() {
            return;
        }
        self.full(defs);
        if let Some(full) = self.full.take() {
            let (q, t) = self.weak.stats();
            self.dropped = (self.dropped.0 + q, self.dropped.1 + t);
            self.weak = full;
            self.aside = Formula::True;
        }
    }

    /// Whether the weak solver leaves anything out.
    pub fn narrowed(&self) -> bool {
        self.aside != Formula::True
    }

    pub fn weak(&mut self) -> &mut Z3Solver {
        &mut self.weak
    }

    pub fn full(&mut self, defs: &Defs) -> &mut Z3Solver {
        if !self.narrowed() {
            return &mut self.weak;
        }
        self.full.get_or_insert_with(|| {
            let mut s = Z3Solver::with_arithmetic(self.arithmetic);
            s.set_atoms(self.atoms.clone());
            s.set_deadline(self.deadline);
            s.reset(self.vars, &Formula::and(vec![self.common.clone(), self.aside.clone()]), defs);
            s
        })
    }

    /// Queries answered and time spent, by both.
    pub fn stats(&self) -> (u64, Duration) {
        let (q, t) = self.weak.stats();
        let (fq, ft) = self.full.as_ref().map_or((0, Duration::ZERO), |s| s.stats());
        (q + fq + self.dropped.0, t + ft + self.dropped.1)
    }
}

/// Above this many context switches in σ, the explanation's solvers use
/// the general arithmetic. The dense difference logic's closure of σ's
/// chain costs about (variables² updates, each kept on a trail) per switch;
/// measured on one machine (docs/performance.md, progressive mode), the
/// dense logic wins on bank_long's 7 switches at every length (974 events:
/// 0.64 s against 1.5 s; 1,454: 1.3 s against 4.4 s) and loses on
/// late_race's 59 switches and more (325 events: 0.27 s against 0.21 s;
/// 985 events and 163 switches: 3.0 s and 1.3 GB against 0.94 s and
/// 0.2 GB).
pub const DENSE_SWITCH_LIMIT: usize = 32;

/// The arithmetic of an explanation's solvers: the dense difference logic
/// (fastest to a first model of a long trace), unless the mode is
/// progressive and the failing order σ switches threads (`switches` times;
/// None: σ is not known yet, and the solver's own has few switches) so
/// often that its closure would be costly ([`Z3Solver::general`]). Progressive mode's
/// queries fix most of σ's order, each its own chain; the other modes leave
/// every event free, where the dense logic's propagation pays for its
/// closure (late_race at 985 events, Symbiosis mode: 6.3 s dense, 42 s
/// general; Max SMT: 14 s dense, over 120 s general).
pub(crate) fn arithmetic_for(switches: Option<usize>, mode: Mode) -> Arithmetic {
    match switches {
        Some(s) if mode == Mode::Progressive && s > DENSE_SWITCH_LIMIT => Arithmetic::General,
        _ => Arithmetic::DenseDifference,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_progressive_mode_on_a_finely_interleaved_order_leaves_the_dense_logic() {
        let dense = Arithmetic::DenseDifference;
        assert_eq!(arithmetic_for(Some(DENSE_SWITCH_LIMIT + 1), Mode::Progressive), Arithmetic::General);
        assert_eq!(arithmetic_for(Some(DENSE_SWITCH_LIMIT), Mode::Progressive), dense);
        assert_eq!(arithmetic_for(None, Mode::Progressive), dense);
        for mode in [Mode::Symbiosis, Mode::MaxSmt, Mode::Lexico] {
            assert_eq!(arithmetic_for(Some(10 * DENSE_SWITCH_LIMIT), mode), dense);
        }
    }
}
