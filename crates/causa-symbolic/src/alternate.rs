//! The failing schedule of a symbolic trace, its root cause, and the most
//! similar schedule that does not fail (the alternate schedule), on CLAP's
//! model of the trace:
//! - the failing schedule σ solves Φ_fail = Φ_common ∧ Φ_bug: the run's own
//!   order when it maps onto the model, else the solver's with the fewest
//!   context switches found (a finely interleaved σ makes a larger
//!   explanation);
//! - Φ_root = Φ_common ∧ ¬Φ_bug ∧ ϕ_fsch is unsatisfiable by construction
//!   (ϕ_fsch: each pair of consecutive events of σ in order, one named
//!   constraint per pair); the events of the pairs in Z3's unsat core are the
//!   root-cause sub-schedule (Symbiosis TOSEM'16 §3.4);
//! - the alternate schedule satisfies Φ_common ∧ ¬Φ_bug (same paths, the
//!   failure does not happen), found by the chosen [`Mode`]: Symbiosis' pair
//!   inversion ([`crate::symbiosis`]) or a Max SMT model of similarity to σ
//!   (`maxsmt.rs`, AAAI-19);
//! - the caller replays each alternate offered ([`Proposal`]); when it does
//!   not accept the mode's (its re-execution fails, perhaps later or in
//!   another thread: the model says nothing past the failing point), branches
//!   are flipped (`flip.rs`): the model's path conditions are
//!   retractable (each guarded by an atom the ordinary queries assume), so
//!   one solver serves both.
//!
//! Events σ leaves out (those the failing run never reached) stay after the
//! failure in the root-cause query; the alternate schedule may run some of
//! them before the failing thread's point (a null dereference is avoided by
//! the store the failing run had not made yet). A deadlock's alternate ends
//! with the failing thread's blocked operation done (`Parts::alternate_frame`);
//! invalid pthread use has no ¬Φ_bug here yet.

use crate::clap::{fewest_preemptions, formula, happening, steps_of, ClapError, ClapOptions};
use crate::maxsmt::Stage;
use crate::model::{build, Model};
use crate::solvers::Solvers;
use crate::trace::{SymOp, SymTrace};
use crate::values::Values;
use causa_constraints::formula::Ev;
use causa_constraints::{CoreResult, Encoder, Formula, OrderSolver, SolveResult, Z3Solver};
use std::time::Duration;

/// An event of the symbolic trace: (thread index, event index in the thread).
pub type EventRef = (usize, usize);

/// How the alternate schedule is searched for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Invert one pair of the root cause, nearest first (Symbiosis).
    Symbiosis,
    /// Max SMT: fewest data-flow variations, broken segments and
    /// context-switch variations together (AAAI-19 §4.2).
    MaxSmt,
    /// The same criteria in lexicographic order, data flows first.
    Lexico,
    /// AAAI-19 Algorithm 1: the lexicographic model with every event's order
    /// fixed but a window of segments before the failure, widened until an
    /// alternate exists.
    Progressive,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Symbiosis, Mode::MaxSmt, Mode::Lexico, Mode::Progressive];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Symbiosis => "symbiosis",
            Mode::MaxSmt => "maxsmt",
            Mode::Lexico => "lexico",
            Mode::Progressive => "progressive",
        }
    }

    /// The conflict budget of each Max SMT solver call when none is asked
    /// for: AAAI-19's 200,000 for the full models; for progressive mode,
    /// whose queries fix most of σ, far less. There a budget runs out only
    /// in the proof that a window's best alternate cannot be bettered (on
    /// the benchmark's rows, racey's alone: 7 s of its 12 s for the same
    /// DSP; docs/performance.md).
    pub fn conflict_budget(self) -> u32 {
        match self {
            Mode::Progressive => PROGRESSIVE_CONFLICTS,
            _ => 200_000,
        }
    }
}

/// Progressive mode's conflict budget per solver call ([`Mode::conflict_budget`]).
pub const PROGRESSIVE_CONFLICTS: u32 = 300;

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Options of [`alternate`].
#[derive(Clone, Debug)]
pub struct AlternateOptions {
    pub mode: Mode,
    /// For the failing schedule's context switches.
    pub clap: ClapOptions,
    /// Symbiosis mode: give up after trying this many pairs.
    pub max_pairs: usize,
    /// Max SMT modes: the conflict budget of each solver call (None: none).
    /// When it runs out, the best schedule found so far is taken (progressive
    /// mode widens its window when none was found).
    pub max_conflicts: Option<u32>,
    /// Max SMT modes: how each query is solved.
    pub engine: causa_constraints::Engine,
    /// The failing run's order, as the thread of each of its visible steps:
    /// the explanation works on that order when it is a failing schedule of
    /// the model (each thread's k-th step is its k-th access point); else on
    /// the solver's failing schedule with the fewest context switches.
    pub run_steps: Option<Vec<causa_core::ThreadName>>,
    /// Path-schedule dependent failures: how many branches to try flipping
    /// when the mode's alternate schedule is not accepted (`flip.rs`).
    pub max_flips: usize,
    /// A flip whose first schedule fails on replay is asked for its most
    /// similar schedule all the same, when no flip passes otherwise
    /// (`flip.rs`): the last resort of an explanation that found no
    /// alternate without it.
    pub similar_of_failed_flips: bool,
    /// No solver query is asked after this instant (None: no deadline):
    /// the whole explanation's time limit.
    pub deadline: Option<std::time::Instant>,
}

impl Default for AlternateOptions {
    fn default() -> Self {
        AlternateOptions {
            mode: Mode::Progressive,
            clap: ClapOptions::default(),
            max_pairs: 500,
            max_conflicts: Some(Mode::Progressive.conflict_budget()),
            engine: causa_constraints::Engine::default(),
            run_steps: None,
            max_flips: 16,
            similar_of_failed_flips: false,
            deadline: None,
        }
    }
}

/// What [`alternate`] found.
#[derive(Clone, Debug)]
pub struct Alternate {
    pub mode: Mode,
    /// The failing schedule: access points in order, ending at the failure
    /// (each a step of the interpreter: a barrier's last departure, which
    /// has none, is left out, as in CLAP's schedules).
    pub failing: Vec<EventRef>,
    /// Context switches of `failing` that were not forced (when the solver
    /// chose it; 0 when it is the run's own order).
    pub preemptions: usize,
    /// Whether `failing` is the failing run's own order.
    pub failing_from_run: bool,
    /// The root-cause sub-schedule: events of the core's pairs, in failing order.
    pub root_cause: Vec<EventRef>,
    /// The alternate schedule, when one was found: the events of `failing`
    /// (and possibly events the failing run never reached) in another order.
    pub alternate: Option<Vec<EventRef>>,
    /// How many steps of `alternate` the model orders: up to the failing
    /// thread's point. The rest are events of `failing` the alternate runs
    /// after that point, which the model leaves unconstrained (a replay
    /// should let the program finish its own way from there).
    pub alternate_prefix: usize,
    /// The program inputs in the order the alternate schedule reads them:
    /// (thread index, index among the thread's inputs).
    pub alternate_inputs: Vec<(usize, usize)>,
    /// Symbiosis mode: the inverted pair (the earlier event of the failing
    /// schedule first).
    pub inverted: Option<(EventRef, EventRef)>,
    /// Symbiosis mode: pairs whose inversion was tried.
    pub pairs_tried: usize,
    /// Progressive mode: the segments before the failure whose order was
    /// left free, out of `segments`.
    pub window: Option<usize>,
    /// Progressive mode: events of the window that kept their order from
    /// the failing schedule because the failure depends on none of them
    /// (accesses to locations no relevant read reads, critical sections
    /// with only those inside).
    pub held: usize,
    /// The root cause was computed with this many events the failure does
    /// not depend on held in the failing order (the weak solver's core,
    /// `solvers.rs`; 0: with every event free). An empty root cause then
    /// says only that no order keeping them avoids the failure.
    pub root_held: usize,
    /// Progressive mode found the answer in its first stage, with this many
    /// events the failure does not depend on held in the failing order (0:
    /// not in that stage): a flip then says only that no schedule keeping
    /// them avoids the failure.
    pub held_stage: usize,
    /// Thread segments of the failing schedule.
    pub segments: usize,
    /// Max SMT modes: whether the alternate is proven optimal (false when a
    /// conflict budget ran out first).
    pub optimal: bool,
    /// The branch the alternate schedule flips, when the failing run's paths
    /// admit no accepted alternate (a path-schedule dependent failure).
    pub flipped: Option<FlippedBranch>,
    /// Branches whose flip was tried.
    pub flips_tried: usize,
    /// Alternates of the failing run's paths whose replay failed later,
    /// before the one given (each next one has other data flows or
    /// synchronisation orders: it is the most similar of those).
    pub rejected: usize,
    pub queries: u64,
    pub solve_time: Duration,
    /// The solvers' arithmetic (`solvers::arithmetic_for`).
    pub arithmetic: causa_constraints::Arithmetic,
    /// The deadline ([`AlternateOptions::deadline`]) passed: the search
    /// stopped early, and what it found may not be the best.
    pub timed_out: bool,
    /// For each event of each thread of the trace: whether it is
    /// incidental to the failure (`relevant::incidental_events`; None:
    /// unknown, as for a memory error).
    pub incidental: Option<Vec<Vec<bool>>>,
}

/// A branch an alternate schedule takes the other way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlippedBranch {
    /// Thread index.
    pub thread: usize,
    /// The branch (its condition, location, and the way the failing run went).
    pub branch: crate::trace::Branch,
    /// The thread's events before the branch: the alternate runs none of
    /// its recorded events from this index on (a failed try: the try is
    /// the first, which the alternate makes with the other outcome).
    pub events_before: usize,
}

/// An alternate schedule offered to the caller of [`alternate`], which
/// accepts it when a re-execution from it does not fail.
pub struct Proposal<'a> {
    /// The schedule: access points in order.
    pub order: &'a [EventRef],
    /// How many steps of `order` the model orders (the rest are left to the
    /// re-execution).
    pub prefix: usize,
    /// The program inputs in the order the schedule reads them.
    pub inputs: &'a [(usize, usize)],
    /// The branch it flips, if any.
    pub flipped: Option<FlippedBranch>,
    /// The failing schedule it is an alternate to.
    pub failing: &'a [EventRef],
    /// A first look only (an alternate not yet optimised, replayed to see
    /// whether the failing run's paths fail anyway): not an answer.
    pub look: bool,
}

/// The caller's answer to a [`Proposal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Replayed, it runs to the end: the answer.
    Accepted,
    /// Replayed, it runs to the end by losing an update the failing
    /// schedule does not lose (set aside: see causa-explain's `lost.rs`).
    LosesUpdate,
    /// Replayed, it fails (or does not finish).
    Fails,
    /// Replayed, it fails the same check in the same thread again (a
    /// later turn of it): the model saw the check pass, and what the
    /// failing thread checks after it is beyond the failing run.
    FailsAgain,
}

impl Verdict {
    pub fn accepted(self) -> bool {
        self == Verdict::Accepted
    }
}

/// A proposal's steps, how many of them the model orders, and the inputs'
/// order.
type Steps = (Vec<EventRef>, usize, Vec<(usize, usize)>);

/// One staged search for an accepted alternate (`alternate`).
struct Attempt {
    found: Found,
    /// The alternate to show.
    chosen: Option<Steps>,
    accepted: bool,
    rejections: usize,
    flipped: Option<FlippedBranch>,
    flips_tried: usize,
    optimal: bool,
    stage: Stage,
}

/// What a mode's search found, on the model's events.
pub(crate) struct Found {
    pub order: Option<Vec<Ev>>,
    pub inverted: Option<(Ev, Ev)>,
    pub pairs_tried: usize,
    pub window: Option<usize>,
    pub held: usize,
    pub optimal: bool,
    /// An alternate of the failing run's paths was replayed and failed the
    /// same check again: the search stopped before optimising one
    /// (`maxsmt::progressive`).
    pub paths_fail: bool,
    /// The solution's positions, where the search keeps them (Symbiosis'
    /// inverted pairs: `symbiosis::invert_pairs`).
    pub positions: Option<Vec<i64>>,
}

impl Found {
    pub fn none() -> Found {
        Found {
            order: None,
            inverted: None,
            pairs_tried: 0,
            window: None,
            held: 0,
            optimal: false,
            paths_fail: false,
            positions: None,
        }
    }
}

/// The failure is a deadlock at a lock its thread already holds (a default
/// mutex taken twice): its blocked operation, the last before the failure's
/// marker, locks a mutex the thread's own events took and did not release.
fn relocks(sym: &SymTrace, model: &Model) -> bool {
    if model.failure.1 != causa_core::BugKind::Deadlock {
        return false;
    }
    let events = &sym.threads[model.failure.0].events;
    let [before @ .., blocked, _fail] = &events[..] else { return false };
    let SymOp::Lock { mutex, .. } = blocked.op else { return false };
    let held: i64 = before
        .iter()
        .map(|e| match e.op {
            SymOp::Lock { mutex: m, .. } if m == mutex => 1,
            SymOp::Unlock { mutex: m } if m == mutex => -1,
            _ => 0,
        })
        .sum();
    held > 0
}

/// Some thread is parked in a busy wait at the log's deadlock
/// ([`SymOp::Spin`]).
fn spins(sym: &SymTrace) -> bool {
    sym.threads.iter().any(|t| t.events.iter().any(|e| matches!(e.op, SymOp::Spin { .. })))
}

/// The problem every mode solves: the model, its solver (base: Φ_common),
/// the failing order σ and the alternate's goal ¬Φ_bug.
#[derive(Clone)]
pub(crate) struct Problem<'a> {
    pub model: &'a Model,
    pub sigma: Vec<Ev>,
    /// The position in σ of each model event (None: σ leaves it out).
    pub at: Vec<Option<usize>>,
    pub goal: Formula,
    /// The failure's order variable (events after it do not happen).
    pub cut: Ev,
    /// For each model event: whether it is incidental to the failure
    /// (`relevant::incidental_events`); None: none is known to be.
    pub incidental: Option<Vec<bool>>,
    /// For each model event: whether progressive mode holds it in σ's
    /// order first (the incidental events and the updates of commuting
    /// counters: `relevant::holdable_events`).
    pub holdable: Option<Vec<bool>>,
    /// Events of σ the alternate should still run before the failure's
    /// point, as σ does: one soft constraint each, with the data flows
    /// (a flip's alternate, whose end the solver places: `flip.rs`).
    pub still_run: Vec<Ev>,
    /// Every access through a computed address that happens touches the
    /// location it touched in σ (True: none, or σ is not the run's). The
    /// flips are tried with it first (`flip.rs`).
    pub run_addresses: Formula,
}

impl<'a> Problem<'a> {
    pub fn new(
        model: &'a Model,
        sigma: Vec<Ev>,
        goal: Formula,
        cut: Ev,
        (incidental, holdable): (Option<Vec<bool>>, Option<Vec<bool>>),
    ) -> Problem<'a> {
        let mut at = vec![None; model.trace.len()];
        for (i, e) in sigma.iter().enumerate() {
            at[*e] = Some(i);
        }
        let run_addresses = Formula::True;
        Problem { model, sigma, at, goal, cut, incidental, holdable, still_run: Vec::new(), run_addresses }
    }

    /// The same problem with another goal.
    pub fn with_goal(&self, goal: Formula) -> Problem<'a> {
        Problem { goal, ..self.clone() }
    }

    /// Whether σ has every event of the model (none is left out past the
    /// failure): a chain over σ then orders them all.
    pub fn has_every_event(&self) -> bool {
        self.sigma.len() == self.model.trace.len()
    }

    /// Whether progressive mode may hold some event of σ.
    pub fn any_holdable(&self) -> bool {
        self.holdable.as_ref().is_some_and(|h| self.sigma.iter().any(|e| h[*e]))
    }

    /// None of σ's positions keeps σ's order: every event free.
    pub fn none_kept(&self) -> Vec<bool> {
        vec![false; self.sigma.len()]
    }

    /// `goal` with σ's events at the `kept` positions in σ's order, but
    /// for consecutive ones both `ordered` (the solver has their order fixed).
    pub fn fixing(&self, goal: &Formula, kept: &[bool], ordered: &dyn Fn(usize) -> bool) -> Formula {
        let order: Vec<usize> = (0..self.sigma.len()).filter(|i| kept[*i]).collect();
        let mut parts = vec![goal.clone()];
        for w in order.windows(2) {
            if !(ordered(w[0]) && ordered(w[1])) {
                parts.push(Formula::Before(self.sigma[w[0]], self.sigma[w[1]]));
            }
        }
        Formula::and(parts)
    }

    /// The alternate order of a solution: the events that happen (up to
    /// the failing thread's point; they may include events σ left out, which
    /// the failing run never reached), then σ's other events, which the
    /// solution puts after that point, in its order.
    pub fn order(&self, pos: &[i64]) -> Vec<Ev> {
        self.order_keeping(pos, |_| true).0
    }

    /// [`Problem::order`] with only the events of σ after the cut that
    /// `keep` keeps; and how many events happen up to the cut.
    pub fn order_keeping(&self, pos: &[i64], keep: impl Fn(Ev) -> bool) -> (Vec<Ev>, usize) {
        let mut evs = happening(self.model, self.cut, pos);
        let upto = evs.len();
        let cut = pos[self.cut];
        let mut after: Vec<Ev> = self.sigma.iter().copied().filter(|e| pos[*e] > cut && keep(*e)).collect();
        after.sort_by_key(|e| (pos[*e], *e));
        evs.extend(after);
        (evs, upto)
    }
}

/// The failing schedule, root cause and alternate schedule of `sym`'s
/// failure. `accept` is offered the mode's alternate schedule and, when it
/// declines it (or there is none), alternates that flip a branch
/// (`flip.rs`); the first accepted flip is the answer, else the mode's
/// own alternate.
pub fn alternate(
    sym: &SymTrace,
    opts: &AlternateOptions,
    accept: &mut dyn FnMut(&Proposal<'_>) -> Verdict,
) -> Result<Alternate, ClapError> {
    let started = std::time::Instant::now();
    let ms = || started.elapsed().as_secs_f64() * 1e3;
    let model = build(sym).ok_or(ClapError::NoFailure)?;
    // In a deadlock the locks are what matters: nothing is incidental.
    let by_thread = crate::relevant::incidental_events(sym);
    let deadlock = model.failure.1 == causa_core::BugKind::Deadlock;
    let per_event = |inc: &Vec<Vec<bool>>| model.origin.iter().map(|&(t, k)| inc[t][k]).collect::<Vec<bool>>();
    let incidental: Option<Vec<bool>> = by_thread.as_ref().filter(|_| !deadlock).map(per_event);
    // What progressive mode holds in σ's order first: those, and the
    // updates of counters whose updates commute (`commuting.rs`). (Only
    // progressive mode holds events; in the others the weak solver
    // answers only σ's check and the root cause, and the full one, built
    // as well when the weak one holds the updates, cost late_race+hist
    // L=80 in maxsmt mode 30 s and 4.3 GB instead of 14.5 s and 2.2 GB.)
    let holdable: Option<Vec<bool>> = match opts.mode {
        Mode::Progressive => crate::relevant::holdable_events(sym).filter(|_| !deadlock).map(|h| per_event(&h)),
        _ => incidental.clone(),
    };
    let run_sigma = opts.run_steps.as_ref().and_then(|steps| run_order(sym, &model, steps));
    let mut enc = Encoder::new(&model.trace);
    if let (Some(inc), Some(sigma)) = (&holdable, &run_sigma) {
        enc.set_locks_aside(held_sections(&model, &enc, inc, sigma));
    }
    let mut values = Values::new(&sym.exprs).with_domains(crate::domains::of_reads(sym));
    let mut order_vars = enc.variables();
    let parts = formula(sym, &model, &mut enc, &mut values, &mut order_vars, true)?;
    let not_bug = parts.not_bug.clone().ok_or_else(|| {
        ClapError::unsupported(format!(
            "explaining a {} is not supported (assertion violations, aborts, divisions by zero, memory errors, deadlocks and invalid pthread use are)",
            model.failure.1
        ))
    })?;
    tracing::debug!(
        events = model.trace.len(),
        atoms = values.atoms_len(),
        vars = order_vars,
        ms = ms(),
        "explain: model and formula built"
    );
    let switches = run_sigma.as_ref().map(|s| segments(&model, s).len().saturating_sub(1));
    let arithmetic = crate::solvers::arithmetic_for(switches, opts.mode);
    let held: Vec<Ev> = match (&holdable, &run_sigma) {
        (Some(inc), Some(sigma)) => sigma.iter().copied().filter(|e| inc[*e]).collect(),
        _ => Vec::new(),
    };
    let mut solvers = Solvers::new(
        (order_vars, arithmetic),
        parts.common.clone(),
        (enc.locks_aside(), &held),
        values.take_atoms(),
        &enc.defs,
        opts.deadline,
    );
    let cut = enc.cut();
    // σ's order keeps the sections left aside apart: the weak solver is exact.
    let from_run = run_sigma.and_then(|sigma| {
        let mut fails = vec![parts.bug.clone(), parts.frame.clone()];
        fails.extend(chain(&sigma));
        fails.extend(left_out(&sigma, model.trace.len(), cut));
        solvers.weak().keep_next_model();
        match solvers.weak().solve(&Formula::and(fails), &enc.defs) {
            SolveResult::Sat(_) => Some(sigma),
            _ => None,
        }
    });
    let run_addresses = held_addresses(solvers.weak(), values.addressed(), cut);
    let (sigma, preemptions, failing_from_run) = match from_run {
        Some(sigma) => (sigma, 0, true),
        None => {
            let bug = Formula::and(vec![parts.bug.clone(), parts.frame.clone()]);
            solvers.full_only(&enc.defs);
            let solver = solvers.full(&enc.defs);
            let count = |enc: &Encoder<'_>, pos: &[i64]| crate::clap::switches(&model, enc, pos);
            let (pos, preemptions, _) = fewest_preemptions(solver, &model, &mut enc, &bug, &opts.clap, &count)?;
            (happening(&model, cut, &pos), preemptions, false)
        }
    };
    tracing::debug!(events = sigma.len(), from_run = failing_from_run, ms = ms(), "explain: failing schedule");
    let goal = Formula::and(vec![not_bug, parts.alternate_frame.clone()]);
    let mut problem = Problem::new(&model, sigma, goal, cut, (incidental, holdable));
    problem.run_addresses = run_addresses;
    // Symbiosis inverts the core's pairs: its core comes from the full
    // model (the weak one's may be less minimal: more pairs to try).
    let (root, root_held) = match opts.mode {
        Mode::Symbiosis => (root_cause(solvers.full(&enc.defs), &problem, &enc)?, 0),
        _ => {
            let held = if solvers.narrowed() { held.len() } else { 0 };
            (root_cause(solvers.weak(), &problem, &enc)?, held)
        }
    };
    tracing::debug!(events = root.sigma.len(), ms = ms(), "explain: root cause");
    let origin = |e: Ev| model.origin[e];
    let stop = crate::clap::alternate_last(&model);
    let upto_of = |o: &[Ev]| o.iter().position(|e| *e == stop).map_or(o.len(), |i| i + 1);
    // Symbiosis' alternate is σ with one pair inverted: left as it is.
    // (The order, and how many of its events the model orders.)
    let coarse = |o: &[Ev], upto: usize| {
        if opts.mode == Mode::Symbiosis {
            (o.to_vec(), upto)
        } else {
            crate::coarsen::coarsen(sym, &model, &enc, &problem.sigma, o, upto)
        }
    };
    // A proposal of an order already coarsened: its steps, how many of them
    // the model orders, and the inputs' order.
    let steps_for = |o: &[Ev], upto: usize| {
        let prefix = steps_of(&model, o[..upto].to_vec()).len();
        let steps = steps_of(&model, o.to_vec());
        let inputs = crate::clap::input_order(sym, &model, &steps);
        (steps, prefix, inputs)
    };
    // (The last order proposed, kept: progressive mode's pairs ask for an
    // order's figures and then replay it, and coarsening a long order is
    // the costly part: about 10 ms at 993 events.)
    let last_proposed: std::cell::RefCell<Option<(Vec<Ev>, usize, Steps)>> = Default::default();
    let propose = |o: &[Ev], upto: usize| {
        if let Some((_, _, steps)) = last_proposed.borrow().as_ref().filter(|(p, u, _)| p == o && *u == upto) {
            return steps.clone();
        }
        let (c, cu) = coarse(o, upto);
        let steps = steps_for(&c, cu);
        *last_proposed.borrow_mut() = Some((o.to_vec(), upto, steps.clone()));
        steps
    };
    let failing = steps_of(&model, problem.sigma.clone());
    let offer = |accept: &mut dyn FnMut(&Proposal<'_>) -> Verdict,
                 (order, prefix, inputs): &Steps,
                 (flipped, look): (Option<FlippedBranch>, bool)| {
        accept(&Proposal { order, prefix: *prefix, inputs, flipped, failing: &failing, look })
    };
    let mode_search = |solvers: &mut Solvers,
                       accept: &mut dyn FnMut(&Proposal<'_>) -> Verdict,
                       look: bool,
                       stage: Stage|
     -> Result<Found, ClapError> {
        Ok(match opts.mode {
            // No order of the threads lets a thread through a lock it holds
            // itself (the model orders locks between threads only).
            _ if relocks(sym, &model) => Found::none(),
            // A thread parked in a busy wait leaves it only by reading another
            // value, which is a branch of its loop taken the other way: the
            // flips (`flip.rs`) say which read and from which write. An order of
            // the recorded paths can only move a waker after the loop's last
            // turn, and whether the next turn then sees another value is left
            // to the replay (the summary could say only that the reads moved).
            _ if spins(sym) => Found::none(),
            Mode::Symbiosis => {
                // A pair whose alternate fails anyway on replay (past the
                // model's part) gives way to the next pair that does not.
                let mut passes = |o: &[Ev]| !look || offer(accept, &propose(o, upto_of(o)), (None, true)).accepted();
                crate::symbiosis::invert_pairs(
                    solvers.full(&enc.defs),
                    &problem,
                    &enc,
                    &root,
                    (opts.max_pairs, None),
                    &mut passes,
                    &mut |_| true,
                )?
            }
            Mode::MaxSmt | Mode::Lexico => crate::maxsmt::full(solvers.full(&enc.defs), &problem, &enc, opts)?,
            Mode::Progressive => {
                // (Replays asked by the windows' look, the pairs' search and
                // the comparison after the windows, one at a time.)
                let accept = std::cell::RefCell::new(accept);
                // (A look's verdict is the same every time: an inverted
                // pair's order is replayed before the solver is asked
                // about it, and the solution's order, often the same, after.)
                let looked: std::cell::RefCell<causa_core::collections::HashMap<Vec<Ev>, Verdict>> = Default::default();
                // (When σ has every event, a look replays the order as it
                // is: coarsening keeps every data flow and synchronisation
                // order and drops no event, so the program reaches the same
                // state, and coarsening the pairs' orders was most of what
                // their looks cost: work_queue at 40 tasks, 91 orders, 0.7 s
                // of the explanation's 3.2 s.)
                let looked_at = |o: &[Ev]| match problem.has_every_event() {
                    true => steps_for(o, upto_of(o)),
                    false => propose(o, upto_of(o)),
                };
                let replay = |o: &[Ev]| {
                    if let Some(v) = looked.borrow().get(o) {
                        return *v;
                    }
                    let v = offer(&mut **accept.borrow_mut(), &looked_at(o), (None, true));
                    looked.borrow_mut().insert(o.to_vec(), v);
                    v
                };
                // (Shown the window's first solution, and its most similar
                // one when the first fails again: `maxsmt::windows`.)
                let mut paths_fail = |o: &[Ev]| {
                    look && {
                        let why = replay(o);
                        tracing::debug!(verdict = ?why, "explain: a look at an alternate of the run's paths replayed");
                        why == Verdict::FailsAgain
                    }
                };
                // (The events the differences touch break a tie: the
                // window's optimum and a pair of the same figures can show
                // projections of different sizes.)
                let key = |o: &[Ev]| {
                    let (steps, prefix, _) = propose(o, upto_of(o));
                    crate::figures::figures_and_touched(sym, &failing, &steps[..prefix])
                };
                // (Where the same data flows give the same values, an
                // alternate without a new one fails the same way.)
                use causa_core::BugKind::{Abort, AssertionViolation, DivisionByZero};
                let values_fail = matches!(model.failure.1, AssertionViolation | Abort | DivisionByZero);
                // (The data flows an order adds, for the pairs' filter:
                // coarsening keeps them, and when σ has every event it
                // leaves none of the order out of the model's part, so the
                // order as it is gives them without coarsening it.)
                let flows = |o: &[Ev]| {
                    let (steps, prefix, _) = looked_at(o);
                    crate::figures::new_flows(sym, &failing, &steps[..prefix])
                };
                let new_flows =
                    (values_fail && sym.flows_decide_values()).then_some(&flows as &crate::symbiosis::NewFlows<'_>);
                // The windows' bound: an inverted pair of the root cause
                // whose replay passes (`maxsmt::Known`), kept for the
                // comparison after them. (One that fails again is no start
                // for the window's search: pbzip2's most similar alternate
                // from there failed too, and a branch flip of 20 events
                // was shown instead of 7.)
                let mut bound: Option<Found> = None;
                let mut known = |solver: &mut Z3Solver| {
                    if !look || model.trace.len() < crate::maxsmt::KNOWN_FROM {
                        return Ok(None);
                    }
                    let mut passes = |o: &[Ev]| replay(o).accepted();
                    let root = (&problem, &enc, &root);
                    let asked = std::cell::Cell::new(0);
                    let (pair, passed) =
                        crate::symbiosis::progressive_pairs(solver, root, opts, &mut passes, new_flows, &asked)?;
                    tracing::debug!(
                        found = pair.positions.is_some(),
                        passed,
                        tried = pair.pairs_tried,
                        "progressive: a pair to bound the windows"
                    );
                    let positions = pair.positions.clone().filter(|_| passed);
                    // (Kept for the comparison when it stands as it would
                    // there: passed, or none found.)
                    bound = (pair.order.is_none() || passed).then_some(pair);
                    Ok(positions)
                };
                let found =
                    crate::maxsmt::progressive(solvers, &problem, &enc, (opts, stage), &mut paths_fail, &mut known)?;
                // (Only on a first look at a proven window optimum: see
                // `symbiosis::more_similar_pair`.)
                if !(look && !found.paths_fail && found.optimal) {
                    return Ok(found);
                }
                let mut passes = |o: &[Ev]| replay(o).accepted();
                let weak = solvers.weak();
                let root = (&problem, &enc, &root);
                crate::symbiosis::more_similar_pair(weak, root, opts, &mut passes, (&key, new_flows), (found, bound))?
            }
        })
    };
    let flip_of = |f: &crate::flip::Flipped| FlippedBranch {
        thread: f.thread,
        branch: f.branch,
        events_before: f.events_before - usize::from(f.branch.failed_try),
    };
    // The branch flips (`flip.rs`): the first accepted, and how many were tried.
    let flips = |solvers: &mut Solvers, accept: &mut dyn FnMut(&Proposal<'_>) -> Verdict, stage: Stage| {
        // (A flip's figures as the pairs' are taken: of its proposed steps.)
        let key = |f: &crate::flip::Flipped| {
            let (steps, prefix, _) = propose(&f.order, f.upto);
            crate::figures::figures_key(sym, &failing, &steps[..prefix])
        };
        let (f, tried) = crate::flip::search(solvers, &problem, &enc, &parts, sym, (opts, stage, &key), &mut |f| {
            offer(accept, &propose(&f.order, f.upto), (Some(flip_of(f)), false))
        })?;
        tracing::debug!(tried, accepted = f.is_some(), ?stage, ms = ms(), "explain: branch flips");
        Ok::<_, ClapError>((f, tried))
    };
    // One search for an accepted alternate: the mode's, other alternates of
    // the same paths when it is rejected, then branch flips.
    let attempt = |solvers: &mut Solvers,
                   accept: &mut dyn FnMut(&Proposal<'_>) -> Verdict,
                   stage: Stage|
     -> Result<Attempt, ClapError> {
        let mut found = mode_search(solvers, accept, true, stage)?;
        // The run's paths failed again on a first look: branch flips first,
        // then, if none is accepted, the paths' own alternates after all.
        let mut early_flips = None;
        if found.paths_fail {
            let (f, tried) = if opts.max_flips > 0 { flips(solvers, accept, stage)? } else { (None, 0) };
            if f.is_none() {
                found = mode_search(solvers, accept, false, stage)?;
            }
            early_flips = Some((f, tried));
        }
        tracing::debug!(
            found = found.order.is_some(),
            window = found.window,
            ms = ms(),
            "explain: the mode's alternate"
        );
        // The mode's alternate, coarsened, with its part the model orders.
        let first = found.order.as_ref().filter(|_| !found.paths_fail).map(|o| coarse(o, upto_of(o)));
        let mut chosen = first.as_ref().map(|(o, upto)| steps_for(o, *upto));
        let verdict = chosen.as_ref().map(|proposal| offer(accept, proposal, (None, false)));
        let mut accepted = verdict.is_some_and(Verdict::accepted);
        tracing::debug!(?verdict, ms = ms(), "explain: the mode's alternate replayed");
        // An alternate whose replay fails later (after the model's part) may
        // have a sibling of the same paths that does not: ask for the next best
        // with other data flows or synchronisation orders than each one
        // rejected, a few times, before flipping branches (pbzip2 in lexico
        // mode: of two alternates with the same figures, one frees the queue
        // before the consumer's last unlock).
        let mut goal = problem.goal.clone();
        let mut rejected = first.zip(verdict).filter(|_| !accepted && opts.mode != Mode::Symbiosis);
        let mut rejections = usize::from(!accepted && verdict.is_some());
        for _ in 0..RETRIES {
            let Some(((o, upto), why)) = rejected.take() else { break };
            goal = Formula::and(vec![goal, crate::refine::exclude(sym, &model, &problem.sigma, &o[..upto], why)]);
            let retry = problem.with_goal(goal.clone());
            let again = match opts.mode {
                Mode::Progressive => {
                    crate::maxsmt::progressive(solvers, &retry, &enc, (opts, stage), &mut |_| false, &mut |_| Ok(None))?
                }
                _ => crate::maxsmt::full(solvers.full(&enc.defs), &retry, &enc, opts)?,
            };
            let Some(o) = again.order.as_ref() else { break };
            let (o, upto) = coarse(o, upto_of(o));
            let proposal = steps_for(&o, upto);
            let why = offer(accept, &proposal, (None, false));
            tracing::debug!(verdict = ?why, ms = ms(), "explain: a retry's alternate replayed");
            if why.accepted() {
                accepted = true;
                chosen = Some(proposal);
                found = again;
                break;
            }
            rejections += 1;
            rejected = Some(((o, upto), why));
        }
        let (mut flipped, mut flips_tried, mut optimal) = (None, 0, found.optimal);
        let flipping = match early_flips {
            Some(done) => Some(done),
            None if !accepted && opts.max_flips > 0 => Some(flips(solvers, accept, stage)?),
            None => None,
        };
        if let Some((f, tried)) = flipping {
            flips_tried = tried;
            if let Some(f) = f.filter(|_| !accepted) {
                chosen = Some(propose(&f.order, f.upto));
                flipped = Some(flip_of(&f));
                optimal = f.optimal;
                accepted = true;
            }
        }
        Ok(Attempt { found, chosen, accepted, rejections, flipped, flips_tried, optimal, stage })
    };
    // Progressive mode widens what is free in stages when the weak solver
    // leaves critical sections aside (`solvers.rs`): first with the events
    // incidental to the failure held in σ's order, its windows and then
    // its flips; only then every event of the windows free, on the full
    // model, whose queries are the costly ones on a long run's bookkeeping
    // (two shoppers' 242 statistics sections: its first window query ran
    // for minutes, the flip held in its window took 0.4 s;
    // docs/performance.md).
    let stages: &[Stage] = match opts.mode {
        Mode::Progressive if solvers.narrowed() && problem.any_holdable() => &[Stage::Held, Stage::Free],
        _ => &[Stage::Both],
    };
    let mut tries: Vec<Attempt> = Vec::new();
    for &stage in stages {
        let a = attempt(&mut solvers, accept, stage)?;
        let done = a.accepted;
        tries.push(a);
        if done {
            break;
        }
    }
    // The accepted attempt, else the last that found an alternate at all.
    let pick = tries
        .iter()
        .rposition(|a| a.accepted)
        .or_else(|| tries.iter().rposition(|a| a.chosen.is_some()))
        .unwrap_or(tries.len() - 1);
    let Attempt { found, chosen, accepted, rejections, flipped, flips_tried, optimal, stage } = tries.swap_remove(pick);
    // Without an accepted alternate the caller shows the last
    // re-execution offered: offer the one shown again (a replay is
    // deterministic; flips and later stages offered others since).
    if let (false, Some(proposal)) = (accepted, &chosen) {
        offer(accept, proposal, (flipped, false));
    }
    let (queries, solve_time) = solvers.stats();
    let (alternate, prefix, alternate_inputs) = match chosen {
        Some((o, p, i)) => (Some(o), p, i),
        None => (None, 0, Vec::new()),
    };
    Ok(Alternate {
        mode: opts.mode,
        failing,
        preemptions,
        failing_from_run,
        root_cause: root
            .sigma
            .iter()
            .map(|i| origin(problem.sigma[*i]))
            .chain(root.late.iter().map(|e| origin(*e)))
            .collect(),
        alternate,
        alternate_prefix: prefix,
        alternate_inputs,
        inverted: found.inverted.filter(|_| flipped.is_none()).map(|(a, b)| (origin(a), origin(b))),
        pairs_tried: found.pairs_tried,
        window: found.window.filter(|_| flipped.is_none()),
        held: if flipped.is_none() { found.held } else { 0 },
        root_held,
        held_stage: if stage == Stage::Held { held.len() } else { 0 },
        segments: segments(&model, &problem.sigma).len(),
        optimal,
        flipped,
        flips_tried,
        rejected: if accepted { rejections } else { 0 },
        queries,
        solve_time,
        arithmetic,
        timed_out: opts.deadline.is_some_and(|d| std::time::Instant::now() >= d),
        incidental: by_thread,
    })
}

/// How many other alternates of the failing run's paths are tried when one
/// fails later on replay, before branches are flipped; and how many other
/// schedules of a flip when its most similar one is rejected (`flip.rs`).
pub(crate) const RETRIES: usize = 2;

/// Each access through a computed address (`addressed`: its event and its
/// candidates' atoms) touches, when it happens (before `cut`), the location
/// the model σ's check kept gives it (True: no model was kept, σ is not
/// the run's).
fn held_addresses(solver: &mut Z3Solver, addressed: &[(Ev, Vec<usize>)], cut: Ev) -> Formula {
    let all: Vec<usize> = addressed.iter().flat_map(|(_, g)| g.iter().copied()).collect();
    let holds = solver.atoms_in_kept_model(&all);
    let mut holds = holds.into_iter();
    let mut held = Vec::new();
    for (ev, guards) in addressed {
        let these: Vec<Option<bool>> = holds.by_ref().take(guards.len()).collect();
        if let Some(k) = these.iter().position(|h| *h == Some(true)) {
            held.push(Formula::or(vec![Formula::Atom(guards[k]), Formula::Before(cut, *ev)]));
        }
    }
    Formula::and(held)
}

/// The acquisitions (per event) of the critical sections σ runs whole that
/// are incidental to the failure: the weak solver leaves their mutual
/// Φ_lock out (`solvers.rs`).
fn held_sections(model: &Model, enc: &Encoder<'_>, incidental: &[bool], sigma: &[Ev]) -> Vec<bool> {
    let mut in_sigma = vec![false; model.trace.len()];
    sigma.iter().for_each(|e| in_sigma[*e] = true);
    let mut aside = vec![false; model.trace.len()];
    for (e, ev) in model.trace.events.iter().enumerate() {
        let causa_constraints::Op::Lock { mutex, .. } = ev.op else { continue };
        let whole = enc.lock_pairs_of(mutex).iter().any(|&(l, u)| l == e && u.is_some_and(|u| in_sigma[u]));
        aside[e] = whole && in_sigma[e] && incidental[e];
    }
    aside
}

/// Positions in σ of the root-cause sub-schedule's events: the events of the
/// consecutive pairs of σ in Φ_root's unsat core, the events σ leaves out
/// staying after the failure (none when the failure does not depend on the
/// order, given the paths).
fn root_cause(solver: &mut Z3Solver, p: &Problem<'_>, enc: &Encoder<'_>) -> Result<Root, ClapError> {
    let mut named = chain(&p.sigma);
    let pairs = named.len();
    let outside = left_out_events(&p.sigma, p.model.trace.len());
    named.extend(outside.iter().map(|e| Formula::Before(p.cut, *e)));
    let core = match solver.solve_core(&p.goal, &named, &enc.defs) {
        CoreResult::Core(c) => c,
        CoreResult::Sat(_) => Vec::new(),
        CoreResult::Unknown if solver.past_deadline() => return Err(ClapError::TimedOut),
        CoreResult::Unknown => return Err(ClapError::SolverUnknown),
    };
    let mut in_root = vec![false; p.sigma.len()];
    let mut late = Vec::new();
    for i in core {
        if i < pairs {
            in_root[i] = true;
            in_root[i + 1] = true;
        } else {
            late.push(outside[i - pairs]);
        }
    }
    Ok(Root { sigma: (0..p.sigma.len()).filter(|i| in_root[*i]).collect(), late })
}

/// The root cause: positions in σ, and events σ leaves out whose staying
/// after the failure is part of the conflict (a store the failing run had
/// not made yet).
pub(crate) struct Root {
    pub sigma: Vec<usize>,
    pub late: Vec<Ev>,
}

/// The thread segments of `order`: maximal runs of one thread's events, as
/// index ranges.
pub(crate) fn segments(model: &Model, order: &[Ev]) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, &e) in order.iter().enumerate() {
        let t = model.trace.events[e].thread;
        match out.last_mut() {
            Some(r) if model.trace.events[order[r.start]].thread == t => r.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

/// Each event of `order` before the next.
pub(crate) fn chain(order: &[Ev]) -> Vec<Formula> {
    order.windows(2).map(|w| Formula::Before(w[0], w[1])).collect()
}

/// The events (of `n`) that `order` leaves out stay after the failure (`cut`).
fn left_out(order: &[Ev], n: usize, cut: Ev) -> Vec<Formula> {
    left_out_events(order, n).into_iter().map(|e| Formula::Before(cut, e)).collect()
}

fn left_out_events(order: &[Ev], n: usize) -> Vec<Ev> {
    let inside: causa_core::collections::HashSet<Ev> = order.iter().copied().collect();
    (0..n).filter(|e| !inside.contains(e)).collect()
}

/// The run's order of the model's access points: each thread's k-th step is
/// its k-th access point (None when a thread has more steps than points).
/// The failing operation itself may be an access point the run never
/// completed as a step (a read through a null pointer read from shared
/// memory): it ends the order then.
fn run_order(sym: &SymTrace, model: &Model, steps: &[causa_core::ThreadName]) -> Option<Vec<Ev>> {
    let index: causa_core::collections::HashMap<&causa_core::ThreadName, usize> =
        sym.threads.iter().enumerate().map(|(i, t)| (&t.thread, i)).collect();
    let points: Vec<Vec<Ev>> = model.event_of.iter().map(|evs| evs.iter().filter_map(|e| *e).collect()).collect();
    let mut next = vec![0usize; points.len()];
    let mut order = Vec::with_capacity(steps.len());
    // Arrivals at each barrier generation so far: the last to arrive goes
    // on without a step of its own, and its departure follows its arrival.
    let mut arrived: causa_core::collections::HashMap<(u64, u32), u32> = Default::default();
    for s in steps {
        let t = *index.get(s)?;
        let e = *points[t].get(next[t])?;
        order.push(e);
        next[t] += 1;
        if let causa_constraints::Op::Arrive { barrier, gen, count, .. } = model.trace.events[e].op {
            let n = arrived.entry((barrier, gen)).or_default();
            *n += 1;
            let departs = |d: &Ev| matches!(model.trace.events[*d].op, causa_constraints::Op::Depart { barrier: b, gen: g } if (b, g) == (barrier, gen));
            if *n == count {
                if let Some(d) = points[t].get(next[t]).copied().filter(departs) {
                    order.push(d);
                    next[t] += 1;
                }
            }
        }
    }
    let t = model.failure.0;
    if points[t].get(next[t]) == Some(&model.last) && next[t] + 1 == points[t].len() {
        order.push(model.last);
    }
    Some(order)
}
