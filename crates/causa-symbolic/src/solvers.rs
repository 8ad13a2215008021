//! The two solvers of an explanation. Most of a long failing run is often
//! bookkeeping the failure does not depend on (`relevant::incidental_events`:
//! a statistics counter updated under its lock, thousands of times). Φ_lock
//! between two such critical sections is quadratic in their number and
//! decides nothing as long as they keep the failing order; it made every
//! solver's first query cost about a second on a 974-event run of
//! bench/programs/bank_long.c. So:
//! - the `weak` solver's base leaves it out ([`Encoder::set_locks_aside`]).
//!   It answers the queries that keep those sections in the failing order σ
//!   (σ's check, progressive mode's windows holding them), where it is
//!   exact, and the root cause's unsat core outside Symbiosis mode, which
//!   it may only make less minimal (a core under fewer constraints is a
//!   core under more; Symbiosis mode inverts the core's pairs, so it asks
//!   the full solver);
//! - the `full` solver's base has it: it is built on first use, for the
//!   queries that may move those sections (Symbiosis' inversions, the full
//!   Max SMT models, branch flips, progressive mode freeing every event).
//!
//! When nothing is left out, both are the same solver.

use causa_constraints::{Defs, Formula, OrderSolver, Z3Solver};
use std::time::Duration;
use z3::ast::Bool;

pub(crate) struct Solvers {
    weak: Z3Solver,
    full: Option<Z3Solver>,
    /// What the full solver's base has beyond the weak one's (True: nothing).
    aside: Formula,
    common: Formula,
    vars: usize,
    atoms: Vec<Bool>,
    /// Queries and time of a weak solver dropped by [`Solvers::full_only`].
    dropped: (u64, Duration),
}

impl Solvers {
    /// `common`: the weak base; `aside`: the constraints it leaves out;
    /// `vars` order variables; `atoms`: the value atoms.
    pub fn new(vars: usize, common: Formula, aside: Formula, atoms: Vec<Bool>, defs: &Defs) -> Solvers {
        let mut weak = Z3Solver::dense();
        weak.set_atoms(atoms.clone());
        weak.reset(vars, &common, defs);
        Solvers { weak, full: None, aside, common, vars, atoms, dropped: (0, Duration::ZERO) }
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
            let mut s = Z3Solver::dense();
            s.set_atoms(self.atoms.clone());
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
