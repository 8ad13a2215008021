//! Solving order formulas. The [`OrderSolver`] trait keeps Z3 behind a small
//! interface, so encodings can be tested without it and the solver swapped.

use crate::formula::{Defs, Ev, Formula};
use std::time::{Duration, Instant};
use z3::ast::{Bool, Int};
use z3::{SatResult, Solver};

/// The answer to a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// A position for every event (smaller comes first).
    Sat(Vec<i64>),
    Unsat,
    /// The solver gave up (timeout or incompleteness).
    Unknown,
}

/// The answer to a query with named constraints ([`OrderSolver::solve_core`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoreResult {
    Sat(Vec<i64>),
    /// The indices of named constraints that cannot hold together with the
    /// base and the goal (an unsatisfiable core: sufficient, not necessarily
    /// minimal), in increasing order.
    Core(Vec<usize>),
    Unknown,
}

/// Solves queries over the order variables of one trace.
pub trait OrderSolver {
    /// Start a new trace with `events` order variables and the constraints every
    /// query shares.
    fn reset(&mut self, events: usize, base: &Formula, defs: &Defs);
    /// Is `base ∧ goal` satisfiable? `defs` may have grown since `reset`.
    fn solve(&mut self, goal: &Formula, defs: &Defs) -> SolveResult;
    /// Queries answered and time spent so far.
    fn stats(&self) -> (u64, Duration);
    /// After a satisfiable query: the values of the free variables `0..n`
    /// ([`Formula::Var`]) in its model (false when unknown).
    fn var_values(&self, n: usize) -> Vec<bool>;
    /// Is `base ∧ goal ∧ named[0] ∧ named[1] ∧ …` satisfiable? If not, which
    /// of the named constraints conflict (Symbiosis' root cause: the unsat
    /// core of the failing order under the negated failure).
    fn solve_core(&mut self, goal: &Formula, named: &[Formula], defs: &Defs) -> CoreResult;
}

/// Z3 in process, one (thread-local) context for the whole run, one solver per
/// trace; each query's goal is assumed through a fresh literal. Shared sub-formulas become Boolean
/// constants `d_i` with `d_i → body`: they occur only positively, so the
/// implication is equivalent to a definition.
///
/// Every arithmetic atom of an order formula is `o_a < o_b` or `o_a = o_b`, a
/// difference constraint, so each trace's solver first uses Z3's
/// difference-logic arithmetic (`arith.solver=1`), several times faster than
/// its default simplex-based one on these formulas (ring_buffer_semaphores'
/// median query 5.7 → 1.3 ms; docs/performance.md). Z3 sometimes declares that
/// theory incomplete on a formula (seen with bit-vector value atoms); the
/// query is then asked again of a solver with the default arithmetic, which
/// answers the rest of the trace's queries.
pub struct Z3Solver {
    solver: Solver,
    /// The current trace's shared constraints, kept to rebuild the solver.
    pub(crate) base: Formula,
    /// Whether the current solver uses difference-logic arithmetic.
    difference_logic: bool,
    pub(crate) order: Vec<Int>,
    defs: Vec<Bool>,
    /// The meaning of each value atom ([`Formula::Atom`]).
    atoms: Vec<Bool>,
    asserted_defs: usize,
    asserted_axioms: usize,
    pub(crate) queries: u64,
    pub(crate) time: Duration,
    /// Per-query time limit (none: unlimited).
    timeout: Option<Duration>,
    /// Seed of Z3's random choices (0, Z3's default, unless a test varies
    /// it to see that a result does not hang on which model Z3 returns).
    random_seed: u32,
    /// The arithmetic wanted (see [`Arithmetic`]).
    arithmetic: Arithmetic,
    /// Per-query conflict budget (none: unlimited).
    pub(crate) conflicts: Option<u32>,
    /// Z3's resource limit per query (`rlimit`): deterministic work units.
    pub(crate) resources: Option<u32>,
    /// No query is asked after this instant (None: no deadline).
    deadline: Option<Instant>,
    /// The time limit the deadline puts on each query, as last set.
    cap: Option<Duration>,
    /// Whether the next satisfiable query keeps its model
    /// ([`Z3Solver::keep_next_model`]).
    keep_model: bool,
    /// The model kept ([`Z3Solver::atoms_in_kept_model`]).
    last_model: Option<z3::Model>,
}

/// The arithmetic of a [`Z3Solver`]'s order constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arithmetic {
    /// Z3's sparse difference logic (`arith.solver=1`), then the general
    /// one if it gives up: many small queries ([`Z3Solver::new`]).
    SparseDifference,
    /// Z3's dense difference logic (`arith.solver=3`), then the general one
    /// if it gives up: few large queries ([`Z3Solver::dense`]).
    DenseDifference,
    /// Z3's default arithmetic (simplex) from the start: large queries whose
    /// orders the dense logic's closure makes costly ([`Z3Solver::general`]).
    General,
}

impl Arithmetic {
    pub fn name(self) -> &'static str {
        match self {
            Arithmetic::SparseDifference => "sparse difference logic",
            Arithmetic::DenseDifference => "dense difference logic",
            Arithmetic::General => "general arithmetic",
        }
    }
}

/// Traces with more order variables than this use the sparse difference
/// logic even in a [`Z3Solver::dense`] solver (the dense one keeps a
/// distance matrix: quadratic memory).
pub const DENSE_LIMIT: usize = 4000;

impl Default for Z3Solver {
    fn default() -> Self {
        Self::new()
    }
}

impl Z3Solver {
    pub fn new() -> Z3Solver {
        Z3Solver {
            solver: Solver::new(),
            base: Formula::True,
            difference_logic: false,
            order: Vec::new(),
            defs: Vec::new(),
            atoms: Vec::new(),
            asserted_defs: 0,
            asserted_axioms: 0,
            queries: 0,
            time: Duration::ZERO,
            timeout: None,
            random_seed: 0,
            arithmetic: Arithmetic::SparseDifference,
            conflicts: None,
            resources: None,
            deadline: None,
            cap: None,
            keep_model: false,
            last_model: None,
        }
    }

    /// A solver for one large query after another on the same trace (CLAP's
    /// schedule, explain's alternate schedules) rather than many small ones
    /// (MCR): its difference logic is Z3's dense one (`arith.solver=3`,
    /// Floyd–Warshall over all order variables), which finds the first model
    /// of a trace's lock and read-write constraints far faster than the
    /// sparse one (the bank example of explain, 494 events: 6 s → 0.3 s;
    /// docs/performance.md). Traces of more than [`DENSE_LIMIT`] variables
    /// use the sparse one.
    pub fn dense() -> Z3Solver {
        Z3Solver::with_arithmetic(Arithmetic::DenseDifference)
    }

    /// A solver with the given arithmetic ([`Z3Solver::new`],
    /// [`Z3Solver::dense`], [`Z3Solver::general`]).
    pub fn with_arithmetic(arithmetic: Arithmetic) -> Z3Solver {
        Z3Solver { arithmetic, ..Z3Solver::new() }
    }

    /// A solver that uses Z3's default arithmetic from the start. The dense
    /// difference logic keeps the closure of the orders it is told, with a
    /// trail entry for each distance it improves: a long chain of orders
    /// that switches threads often (a failing schedule asserted in full)
    /// costs it about switches × variables² updates (late_race at 985
    /// events and 163 switches: 1.3 GB and 1.7 s for one query; at 1,945
    /// events 4.9 GB and 25 s for the explanation, 0.6 GB and 2.9 s with
    /// this arithmetic; docs/performance.md).
    pub fn general() -> Z3Solver {
        Z3Solver::with_arithmetic(Arithmetic::General)
    }

    /// [`OrderSolver::reset`], with the events of `order` happening in that
    /// order, each before the next, in every query: their order variables
    /// are numbers (`fixed.rs`).
    pub fn reset_fixed(&mut self, events: usize, base: &Formula, defs: &Defs, order: &[Ev]) {
        self.base = base.clone();
        self.difference_logic = self.arithmetic != Arithmetic::General;
        self.order = crate::fixed::order_variables(events, order);
        self.defs.clear();
        self.rebuild(defs);
    }

    /// Whether the current trace uses the dense difference logic.
    pub(crate) fn uses_dense(&self) -> bool {
        self.arithmetic == Arithmetic::DenseDifference && self.order.len() <= DENSE_LIMIT
    }

    /// Limit every later query to `limit` (None: no limit); a query that
    /// runs out answers [`SolveResult::Unknown`].
    pub fn set_timeout(&mut self, limit: Option<Duration>) {
        // Setting Z3's parameters costs about as much as a small query.
        if self.timeout != limit {
            self.timeout = limit;
            self.configure();
        }
    }

    /// Seed Z3's random choices (which model it returns among several)
    /// for every later query.
    pub fn set_random_seed(&mut self, seed: u32) {
        self.random_seed = seed;
        self.configure();
    }

    /// Limit every later query to `budget` conflicts (None: no limit); a
    /// query that runs out answers [`SolveResult::Unknown`]. Unlike a time
    /// limit, the same query gives up at the same point on every machine.
    pub fn set_conflict_budget(&mut self, budget: Option<u32>) {
        self.conflicts = budget;
        self.configure();
    }

    /// Limit every later query to `budget` of Z3's resource units (its
    /// `rlimit`, counted from the query's start; None: no limit); a query
    /// that runs out answers [`SolveResult::Unknown`]. Deterministic like
    /// the conflict budget, and it also bounds what one conflict may cost:
    /// on a large trace each conflict propagates through many more
    /// constraints.
    pub fn set_resource_budget(&mut self, budget: Option<u32>) {
        self.resources = budget;
        self.configure();
    }

    /// Ask no query after `deadline`: each query answers
    /// [`SolveResult::Unknown`] once it has passed (or when it runs out
    /// during the query). An explanation's solvers share one deadline.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Whether a deadline was set and has passed.
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The time left before the deadline (None: no deadline).
    pub(crate) fn time_left(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Before a query: whether the deadline (if any) has not passed, and
    /// Z3's time limit lowered to what is left when that falls below half
    /// of the limit set (parameters are not set on every query, which
    /// costs about as much as a small one; a query may then overrun the
    /// deadline by at most as much as it had left).
    pub(crate) fn within_deadline(&mut self) -> bool {
        let Some(left) = self.time_left() else { return true };
        if left.is_zero() {
            return false;
        }
        if self.cap.is_none_or(|c| left < c / 2) {
            self.cap = Some(left);
            self.configure();
        }
        true
    }

    /// The solver's parameters: the time limit and the arithmetic. (Z3 reads
    /// the arithmetic when the solver first checks: a new solver is configured
    /// before its first query.)
    fn configure(&self) {
        let mut p = z3::Params::new();
        let limit = match (self.timeout, self.cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        p.set_u32("timeout", limit.map_or(u32::MAX, millis));
        p.set_u32("max_conflicts", self.conflicts.unwrap_or(u32::MAX));
        p.set_u32("rlimit", self.resources.unwrap_or(0));
        p.set_u32("random_seed", self.random_seed);
        if self.difference_logic {
            p.set_u32("arith.solver", if self.uses_dense() { 3 } else { 1 });
        }
        self.solver.set_params(&p);
    }

    /// A fresh solver for the current trace holding every definition, axiom
    /// and the base constraints.
    fn rebuild(&mut self, defs: &Defs) {
        self.solver = Solver::new();
        self.configure();
        self.asserted_defs = 0;
        self.asserted_axioms = 0;
        self.sync_defs(defs);
        let b = self.lower(&self.base);
        self.solver.assert(&b);
    }

    /// One query: `goal` and each of `named` assumed through a fresh literal
    /// (rather than asserted in a pushed scope, so what the solver learns
    /// stays for the next query); asked again with the default arithmetic
    /// when the difference logic gives up.
    fn query(&mut self, goal: &Formula, named: &[Formula], defs: &Defs) -> CoreResult {
        let start = Instant::now();
        if !self.within_deadline() {
            self.queries += 1;
            tracing::trace!(query = self.queries, "solver query not asked: the deadline has passed");
            return CoreResult::Unknown;
        }
        self.sync_defs(defs);
        let g = self.lower(goal);
        let named: Vec<Bool> = named.iter().map(|f| self.lower(f)).collect();
        let lowered = start.elapsed();
        let mut r = self.check(&g, &named);
        if r == CoreResult::Unknown && self.logic_gave_up() {
            self.difference_logic = false;
            self.rebuild(defs);
            r = self.check(&g, &named);
        }
        self.queries += 1;
        self.time += start.elapsed();
        tracing::trace!(
            query = self.queries,
            named = named.len(),
            answer = match &r {
                CoreResult::Sat(_) => "sat",
                CoreResult::Core(_) => "unsat",
                CoreResult::Unknown => "unknown",
            },
            ms = start.elapsed().as_secs_f64() * 1e3,
            lowering_ms = lowered.as_secs_f64() * 1e3,
            conflicts_total = self.conflicts_so_far(),
            rlimit_total = self.resources_so_far(),
            "solver query"
        );
        r
    }

    /// Check `goal ∧ named…` under the current solver: a model's positions,
    /// or the indices of the named constraints in the unsat core.
    fn check(&mut self, goal: &Bool, named: &[Bool]) -> CoreResult {
        let q = self.queries;
        let lit = Bool::new_const(format!("q{q}"));
        self.solver.assert(lit.implies(goal));
        let mut assumptions = vec![lit];
        for (i, f) in named.iter().enumerate() {
            let n = Bool::new_const(format!("q{q}n{i}"));
            self.solver.assert(n.implies(f));
            assumptions.push(n);
        }
        // For studying a slow query outside causa: `CAUSA_SMT2_DUMP=DIR`
        // writes each query, with what the solver holds, as DIR/qN.smt2
        // (run it with `z3 smt.arith.solver=3 DIR/qN.smt2`).
        if let Ok(dir) = std::env::var("CAUSA_SMT2_DUMP") {
            let names: Vec<String> = assumptions.iter().map(|a| a.to_string()).collect();
            let text = format!("{}\n(check-sat-assuming ({}))\n", self.solver, names.join(" "));
            let _ = std::fs::write(format!("{dir}/q{q}.smt2"), text);
        }
        match self.solver.check_assumptions(&assumptions) {
            SatResult::Sat => {
                let Some(m) = self.solver.get_model() else {
                    return CoreResult::Unknown;
                };
                let pos: Option<Vec<i64>> =
                    self.order.iter().map(|o| m.eval(o, true).and_then(|v| v.as_i64())).collect();
                if std::mem::take(&mut self.keep_model) {
                    self.last_model = Some(m);
                }
                pos.map_or(CoreResult::Unknown, CoreResult::Sat)
            }
            SatResult::Unsat if named.is_empty() => CoreResult::Core(Vec::new()),
            SatResult::Unsat => {
                let prefix = format!("q{q}n");
                let mut core: Vec<usize> = self
                    .solver
                    .get_unsat_core()
                    .iter()
                    .filter_map(|b| b.to_string().strip_prefix(&prefix).and_then(|i| i.parse().ok()))
                    .collect();
                core.sort_unstable();
                CoreResult::Core(core)
            }
            SatResult::Unknown => CoreResult::Unknown,
        }
    }

    /// The conflicts Z3 met on this solver so far, all queries together
    /// (its statistics; 0 when it reports none).
    fn conflicts_so_far(&self) -> u64 {
        match self.solver.get_statistics().value("conflicts") {
            Some(z3::StatisticsValue::UInt(n)) => n as u64,
            Some(z3::StatisticsValue::Double(x)) => x as u64,
            None => 0,
        }
    }

    /// Z3's resource units (`rlimit`) this solver spent so far, all
    /// queries together (0 when it reports none).
    pub fn resources_so_far(&self) -> u64 {
        match self.solver.get_statistics().value("rlimit count") {
            Some(z3::StatisticsValue::UInt(n)) => n as u64,
            Some(z3::StatisticsValue::Double(x)) => x as u64,
            None => 0,
        }
    }

    /// After an unknown answer: did the difference-logic arithmetic give up
    /// (rather than the time limit run out)?
    fn logic_gave_up(&self) -> bool {
        self.difference_logic && self.solver.get_reason_unknown().is_some_and(|r| r.contains("incomplete"))
    }

    pub(crate) fn lower(&self, f: &Formula) -> Bool {
        match f {
            Formula::True => Bool::from_bool(true),
            Formula::False => Bool::from_bool(false),
            Formula::Before(a, b) => self.order[*a].lt(&self.order[*b]),
            Formula::And(v) => {
                let parts: Vec<Bool> = v.iter().map(|x| self.lower(x)).collect();
                Bool::and(&parts)
            }
            Formula::Or(v) => {
                let parts: Vec<Bool> = v.iter().filter_map(|x| self.lower_disjunct(x, v)).collect();
                Bool::or(&parts)
            }
            Formula::Def(d) => self.defs[*d].clone(),
            Formula::Same(a, b) => self.order[*a].eq(&self.order[*b]),
            Formula::Var(i) => self.var(*i),
            Formula::NotVar(i) => self.var(*i).not(),
            Formula::AtMost(v, k) => {
                let vars: Vec<Bool> = v.iter().map(|i| self.var(*i)).collect();
                let weighted: Vec<(&Bool, i32)> = vars.iter().map(|b| (b, 1)).collect();
                Bool::pb_le(&weighted, (*k).min(i32::MAX as u32) as i32)
            }
            Formula::AtLeast(v, k) => {
                let parts: Vec<Bool> = v.iter().map(|x| self.lower(x)).collect();
                let weighted: Vec<(&Bool, i32)> = parts.iter().map(|b| (b, 1)).collect();
                Bool::pb_ge(&weighted, (*k).min(i32::MAX as u32) as i32)
            }
            // An atom nobody defined is false (the client's formulas only
            // name atoms it defined).
            Formula::Atom(i) => self.atoms.get(*i).cloned().unwrap_or_else(|| Bool::from_bool(false)),
        }
    }

    /// One disjunct of `or`, where `a < b` and `a = b` side by side are one
    /// `a <= b` (the `Same` then gives nothing more). Φ_rw's "every write
    /// before the read is at or before the latest" is such a pair: as one
    /// bound, the arithmetic propagates it; as two atoms, Z3 guesses which
    /// holds (racey LOOPS=8's check of σ: 2,117 conflicts and 0.70 s in the
    /// z3 command line, 139 and 0.16 s as `<=`).
    fn lower_disjunct(&self, x: &Formula, or: &[Formula]) -> Option<Bool> {
        let same =
            |a: Ev, b: Ev| or.iter().any(|y| matches!(*y, Formula::Same(c, d) if (c, d) == (a, b) || (d, c) == (a, b)));
        let before = |a: Ev, b: Ev| {
            or.iter().any(|y| matches!(*y, Formula::Before(c, d) if (c, d) == (a, b) || (c, d) == (b, a)))
        };
        match *x {
            Formula::Before(a, b) if same(a, b) => Some(self.order[a].le(&self.order[b])),
            Formula::Same(a, b) if before(a, b) => None,
            _ => Some(self.lower(x)),
        }
    }

    /// Define the value atoms ([`Formula::Atom`]`(i)` means `atoms[i]`), built
    /// by the client in this thread's Z3 context (bit-vector facts over
    /// program values). Call before [`OrderSolver::reset`]: the atoms stay.
    pub fn set_atoms(&mut self, atoms: Vec<Bool>) {
        self.atoms = atoms;
    }

    /// Keep the model of the next query if it is satisfiable, for
    /// [`Z3Solver::atoms_in_kept_model`]. (Not every model is kept: a model
    /// held on to keeps its terms alive, and Z3's later choices, which
    /// follow the terms' numbering, then change.)
    pub fn keep_next_model(&mut self) {
        self.keep_model = true;
    }

    /// Whether each of the value atoms `idx` holds in the model kept
    /// ([`Z3Solver::keep_next_model`]; None: no such model, or no such
    /// atom). The model is dropped.
    pub fn atoms_in_kept_model(&mut self, idx: &[usize]) -> Vec<Option<bool>> {
        self.keep_model = false;
        let Some(m) = self.last_model.take() else { return vec![None; idx.len()] };
        idx.iter().map(|i| self.atoms.get(*i).and_then(|a| m.eval(a, true)).and_then(|v| v.as_bool())).collect()
    }

    pub(crate) fn def(&self, i: usize) -> &Bool {
        &self.defs[i]
    }

    fn var(&self, i: usize) -> Bool {
        Bool::new_const(format!("v{i}"))
    }

    /// Name every definition of `defs` (asserting new ones and the axioms
    /// in the current solver).
    pub(crate) fn sync_defs(&mut self, defs: &Defs) {
        while self.defs.len() < defs.len() {
            let i = self.defs.len();
            self.defs.push(Bool::new_const(format!("d{i}")));
        }
        while self.asserted_defs < defs.len() {
            let i = self.asserted_defs;
            let body = self.lower(defs.get(i));
            self.solver.assert(self.defs[i].implies(&body));
            self.asserted_defs += 1;
        }
        while self.asserted_axioms < defs.axioms().len() {
            let a = self.lower(&defs.axioms()[self.asserted_axioms]);
            self.solver.assert(&a);
            self.asserted_axioms += 1;
        }
    }
}

impl OrderSolver for Z3Solver {
    fn reset(&mut self, events: usize, base: &Formula, defs: &Defs) {
        self.reset_fixed(events, base, defs, &[]);
    }

    fn solve(&mut self, goal: &Formula, defs: &Defs) -> SolveResult {
        match self.query(goal, &[], defs) {
            CoreResult::Sat(p) => SolveResult::Sat(p),
            CoreResult::Core(_) => SolveResult::Unsat,
            CoreResult::Unknown => SolveResult::Unknown,
        }
    }

    fn stats(&self) -> (u64, Duration) {
        (self.queries, self.time)
    }

    fn solve_core(&mut self, goal: &Formula, named: &[Formula], defs: &Defs) -> CoreResult {
        self.query(goal, named, defs)
    }

    fn var_values(&self, n: usize) -> Vec<bool> {
        let Some(m) = self.solver.get_model() else {
            return vec![false; n];
        };
        (0..n).map(|i| m.eval(&self.var(i), true).and_then(|b| b.as_bool()).unwrap_or(false)).collect()
    }
}

/// A time limit as Z3's `timeout` parameter (milliseconds, at least 1).
pub(crate) fn millis(d: Duration) -> u32 {
    d.as_millis().clamp(1, u32::MAX as u128) as u32
}

/// Runs `f` with a Z3 context of its own. Every solver causa makes uses the
/// thread's current context, and Z3's answers depend on the terms that
/// context has seen (it numbers and hash-conses them): without this, one
/// explanation could change the next one in the same thread (a test
/// explaining several programs got another alternate for the fifth than a
/// process explaining it alone).
pub fn in_own_context<R: Send + Sync>(f: impl FnOnce() -> R + Send + Sync) -> R {
    z3::with_z3_config(&z3::Config::new(), f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passed_deadline_answers_unknown_without_asking_and_none_answers() {
        let defs = Defs::default();
        let base = Formula::and(vec![Formula::Before(0, 1), Formula::Before(1, 2)]);
        let mut s = Z3Solver::new();
        s.reset(3, &base, &defs);
        assert!(matches!(s.solve(&Formula::True, &defs), SolveResult::Sat(_)));
        assert!(!s.past_deadline());
        s.set_deadline(Some(Instant::now() + Duration::from_secs(3600)));
        assert!(matches!(s.solve(&Formula::True, &defs), SolveResult::Sat(_)));
        assert_eq!(s.solve(&Formula::Before(2, 0), &defs), SolveResult::Unsat);
        s.set_deadline(Some(Instant::now()));
        assert!(s.past_deadline());
        assert_eq!(s.solve(&Formula::True, &defs), SolveResult::Unknown);
        let soft = vec![vec![Formula::Before(2, 0)]];
        let opt = s.optimize(&Formula::True, &soft, crate::optimize::Priority::Flat, None, &defs);
        assert_eq!(opt, crate::optimize::OptResult::Unknown);
        // (Each counts as a query.)
        assert_eq!(s.stats().0, 5);
        s.set_deadline(None);
        assert!(matches!(s.solve(&Formula::True, &defs), SolveResult::Sat(_)));
    }

    #[test]
    fn before_or_same_side_by_side_is_at_most() {
        let defs = Defs::default();
        let mut s = Z3Solver::new();
        s.reset(4, &Formula::True, &defs);
        let at_most = |a, b, rest: Vec<Formula>| {
            let mut v = vec![Formula::Before(a, b), Formula::Same(b, a)];
            v.extend(rest);
            Formula::or(v)
        };
        let sat = |s: &mut Z3Solver, f: Vec<Formula>| matches!(s.solve(&Formula::and(f), &defs), SolveResult::Sat(_));
        // Equal, before: both allowed; after: not.
        assert!(sat(&mut s, vec![at_most(0, 1, vec![]), Formula::Same(0, 1)]));
        assert!(sat(&mut s, vec![at_most(0, 1, vec![]), Formula::Before(0, 1)]));
        assert!(!sat(&mut s, vec![at_most(0, 1, vec![]), Formula::Before(1, 0)]));
        // The other disjuncts still count; a `Same` of another pair is kept.
        assert!(sat(&mut s, vec![at_most(0, 1, vec![Formula::Before(2, 3)]), Formula::Before(1, 0)]));
        let other = Formula::or(vec![Formula::Before(0, 1), Formula::Same(2, 3)]);
        assert!(sat(&mut s, vec![other.clone(), Formula::Before(1, 0), Formula::Same(2, 3)]));
        assert!(!sat(&mut s, vec![other, Formula::Before(1, 0), Formula::Before(2, 3)]));
    }
}
