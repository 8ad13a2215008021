//! CLAP's constraint model and its solution (CLAP §3–4, §6; notes §4, §6):
//! Φ = Φ_path ∧ Φ_bug ∧ Φ_so ∧ Φ_rw ∧ Φ_mo over one order variable per shared
//! access point and one bit-vector value per shared read, on the constraint
//! core of `causa check`:
//! - Φ_mo (sequential consistency) and Φ_so come from
//!   [`causa_constraints::Encoder`] over the [`crate::model`] trace: program
//!   order, fork → begin, end → join, lock mutual exclusion (a section still
//!   open at the failure excludes every other section until the failure: the
//!   effect of Symbiosis's synthetic unlock), condition-variable wake-ups with
//!   0/1 mapping variables (a signal wakes one waiter, a broadcast all),
//!   semaphore units counted.
//! - Φ_rw: a read returns the value of the last write to its location before
//!   it, or the location's initial value when no write precedes it.
//! - Φ_path and Φ_bug: every recorded branch condition holds (the failure's
//!   own condition, such as the negated assertion, is the last of the failing
//!   thread's).
//!
//! The failure is the cut of the core's encodings: the schedule ends with the
//! failing thread's last access point; an access point ordered after it does
//! not happen and constrains nothing (threads stopped by the failure may have
//! been executed symbolically beyond the point they had reached). A branch
//! condition is required once the access point before it happens (the thread
//! then runs that branch).
//!
//! Fewest context switches (CLAP §6): the core's preemption variables, bounded
//! with a pseudo-Boolean constraint; a binary search between 0 and the first
//! solution's count.

use crate::expr::ExprId;
use crate::model::{build, Model};
use crate::trace::{Object, SymOp, SymTrace};
use crate::values::Values;
use causa_constraints::formula::Ev;
use causa_constraints::trace::Op;
use causa_constraints::{Encoder, Formula, OrderSolver, SolveResult, Z3Solver};
use causa_core::collections::HashMap;
use std::time::Duration;

/// Why no schedule was computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClapError {
    #[error(
        "symbolic execution did not reach a failure: the log records none, or the failing thread's path ends elsewhere"
    )]
    NoFailure,
    /// What the model cannot encode, and the source location of the
    /// access or call it stopped at (when known; [`ClapError::located`]
    /// puts it in the message).
    #[error("{what}")]
    Unsupported { what: String, at: Option<causa_ir::LocId> },
    #[error("no schedule of the recorded paths reaches the failure (the constraints are unsatisfiable){0}")]
    NoSchedule(String),
    #[error("the solver gave up")]
    SolverUnknown,
    #[error("the explanation's time limit ran out (--explain-timeout)")]
    TimedOut,
}

impl ClapError {
    /// What the model cannot encode, with no source location (yet).
    pub fn unsupported(what: impl Into<String>) -> ClapError {
        ClapError::Unsupported { what: what.into(), at: None }
    }

    /// The error, at `loc` if it is an unsupported case with no location yet.
    pub fn at(self, loc: causa_ir::LocId) -> ClapError {
        match self {
            ClapError::Unsupported { what, at: None } => ClapError::Unsupported { what, at: Some(loc) },
            e => e,
        }
    }

    /// The error with its source location written into the message (an
    /// unsupported case is reported by name and source location).
    pub fn located(self, program: &causa_ir::Program) -> ClapError {
        match self {
            ClapError::Unsupported { what, at: Some(loc) } => {
                let what = match program.loc(loc) {
                    Some(l) => format!("{what}, at {l}"),
                    None => what,
                };
                ClapError::Unsupported { what, at: None }
            }
            e => e,
        }
    }

    /// The error, with what `sym` leaves out of the model that may be why
    /// no schedule fits (the bytes a `realloc` copied).
    pub fn noted(self, sym: &SymTrace) -> ClapError {
        match self {
            ClapError::NoSchedule(note) if note.is_empty() && !sym.realloc_copies.is_empty() => {
                let calls: Vec<&str> = sym.realloc_copies.iter().filter_map(|(_, _, at)| at.as_deref()).collect();
                ClapError::NoSchedule(format!(
                    "; the values `realloc` copied (at {}) are not modelled, and a read of them may be why",
                    calls.join(", ")
                ))
            }
            e => e,
        }
    }
}

/// [`ClapOptions::minimize_query_resources`]' default: about 2.3 s of Z3's
/// work on an idle AMD EPYC core, near the 2 s time limit it replaces
/// (pfscan's minimisation queries spend 2.1–2.6 million units in 1.6–2.0
/// s, and fit).
pub const MINIMIZE_QUERY_RESOURCES: u32 = 3_000_000;

/// Options of [`solve`].
#[derive(Clone, Debug)]
pub struct ClapOptions {
    /// Search for the fewest context switches.
    pub minimize: bool,
    /// Only minimise traces with at most this many access points (the
    /// preemption encoding is quadratic).
    pub minimize_limit: usize,
    /// Z3 resource units (`rlimit`) each query of the search for fewer
    /// context switches may spend (the search stops, not minimal, when one
    /// runs out). Not a time limit: the same log gives the same schedule
    /// whatever the machine's load (with 2 s per query, pfscan's log gave
    /// 1 or 4 context switches from one run to the next, its fourth query
    /// taking 1.98 s or running out at 2 s).
    pub minimize_query_resources: u32,
}

impl Default for ClapOptions {
    fn default() -> Self {
        ClapOptions { minimize: true, minimize_limit: 3000, minimize_query_resources: MINIMIZE_QUERY_RESOURCES }
    }
}

/// The sizes and times CLAP reports (its Table 1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClapStats {
    pub threads: usize,
    pub shared_accesses: usize,
    /// Access points (reads, writes, synchronisation) in the model.
    pub access_points: usize,
    /// Atomic constraints (order comparisons and value facts).
    pub constraints: usize,
    /// Order variables, read values and 0/1 variables.
    pub variables: usize,
    pub queries: u64,
    pub solve_time: Duration,
}

/// A schedule that reaches the failure.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The access points in schedule order: (thread index, event index); it
    /// ends with the failing thread's last access point.
    pub order: Vec<(usize, usize)>,
    /// The program inputs in the order the schedule reads them: (thread
    /// index, index among the thread's inputs).
    pub inputs: Vec<(usize, usize)>,
    /// Preempted segments of the schedule as the model counts them.
    pub preemptions: usize,
    /// Whether `preemptions` is the fewest the model allows.
    pub minimal: bool,
    pub stats: ClapStats,
}

/// Compute a schedule of `sym`'s access points that reaches its failure.
pub fn solve(sym: &SymTrace, opts: &ClapOptions) -> Result<Solution, ClapError> {
    solve_model(sym, opts).map_err(|e| e.noted(sym))
}

fn solve_model(sym: &SymTrace, opts: &ClapOptions) -> Result<Solution, ClapError> {
    if let Some(why) = overfull_barrier(sym) {
        return Err(ClapError::unsupported(why));
    }
    let model = build(sym).ok_or(ClapError::NoFailure)?;
    let mut enc = Encoder::new(&model.trace);
    let mut values = Values::new(&sym.exprs).with_domains(crate::domains::of_reads(sym));
    // Order variables: the access points, the cut, then Φ_rw's auxiliaries.
    let mut order_vars = enc.variables();
    let parts = formula(sym, &model, &mut enc, &mut values, &mut order_vars, false)?;
    let base = Formula::and(vec![parts.common, parts.bug]);
    let mut stats = ClapStats {
        threads: sym.threads.len(),
        shared_accesses: sym.shared_accesses(),
        access_points: model.trace.len(),
        ..ClapStats::default()
    };
    let mut solver = Z3Solver::dense();
    solver.set_atoms(values.take_atoms());
    solver.reset(order_vars, &base, &enc.defs);
    let count = |enc: &Encoder<'_>, pos: &[i64]| enc.preemptions_at(pos);
    let (pos, best, minimal) = fewest_preemptions(&mut solver, &model, &mut enc, &Formula::True, opts, &count)?;
    let (queries, time) = solver.stats();
    stats.queries = queries;
    stats.solve_time = time;
    stats.constraints = size(&base, &enc);
    stats.variables = order_vars + sym.reads.len() + enc.num_vars();
    let order = schedule(&model, &enc, &pos);
    let inputs = input_order(sym, &model, &order);
    Ok(Solution { order, inputs, preemptions: best, minimal, stats })
}

/// A barrier more threads arrive at than it lets through at a time, as
/// one generation ([`SymTrace::barrier_generations`]). Which of them is left waiting depends on
/// the order, which the model does not say: its schedule would not be the
/// run's. (`causa explain` tells such a barrier from its arrivals.)
fn overfull_barrier(sym: &SymTrace) -> Option<String> {
    sym.barrier_generations().into_iter().find_map(|((barrier, _), arrivals)| {
        let (n, count) = (arrivals.len(), sym.barrier_count_of(barrier)?);
        (n > count as usize).then(|| {
            format!("a barrier more threads wait at than it lets through at a time ({n} at a barrier initialised for {count}): which of them is left waiting depends on the order")
        })
    })
}

/// A solution of `goal` (over the solver's base) with the fewest preempted
/// segments found (CLAP §6: a binary search on the core's preemption
/// variables), their number by `count`, and whether it is the fewest
/// possible. (`count` should be [`Encoder::preemptions_at`], the number the
/// search bounds, for the claim to hold.)
pub(crate) fn fewest_preemptions(
    solver: &mut Z3Solver,
    model: &Model,
    enc: &mut Encoder<'_>,
    goal: &Formula,
    opts: &ClapOptions,
    count: &dyn Fn(&Encoder<'_>, &[i64]) -> usize,
) -> Result<(Vec<i64>, usize, bool), ClapError> {
    let mut pos = match solver.solve(goal, &enc.defs) {
        SolveResult::Sat(p) => p,
        SolveResult::Unsat => return Err(ClapError::NoSchedule(String::new())),
        SolveResult::Unknown if solver.past_deadline() => return Err(ClapError::TimedOut),
        SolveResult::Unknown => return Err(ClapError::SolverUnknown),
    };
    let mut best = count(enc, &pos);
    let mut minimal = best == 0;
    if opts.minimize && !minimal && model.trace.len() <= opts.minimize_limit {
        let vars = enc.preemption_vars();
        solver.set_resource_budget(Some(opts.minimize_query_resources));
        let (mut lo, mut hi) = (0usize, best);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let bounded = Formula::and(vec![goal.clone(), Formula::AtMost(vars.clone(), mid as u32)]);
            match solver.solve(&bounded, &enc.defs) {
                SolveResult::Sat(p) => {
                    let c = count(enc, &p);
                    if c < best {
                        best = c;
                        pos = p;
                    }
                    hi = mid.min(best);
                }
                SolveResult::Unsat => lo = mid + 1,
                SolveResult::Unknown => break,
            }
        }
        minimal = lo >= hi;
        solver.set_resource_budget(None);
    }
    Ok((pos, best, minimal))
}

/// `pthread_once` as the paths have it (the symbolic model's reads leave
/// the once's state open): every other call on a once comes after the call
/// that runs its routine; one that waits comes before the routine is done
/// and resumes after; one that found it done comes after (each once it
/// happens).
fn onces(sym: &SymTrace, model: &Model, after: &dyn Fn(Ev) -> Formula) -> Vec<Formula> {
    let op = |e: Ev| {
        let (t, k) = model.origin[e];
        &sym.threads[t].events[k].op
    };
    let n = model.trace.len();
    let mut out = Vec::new();
    for first in (0..n).filter(|e| matches!(op(*e), SymOp::OnceCall { found: 0, .. })) {
        let SymOp::OnceCall { once, .. } = *op(first) else { continue };
        let done = (0..n).find(|e| matches!(op(*e), SymOp::OnceDone { once: o } if *o == once));
        let once_after = |e: Ev, x: Option<Ev>| match x {
            Some(x) => Formula::or(vec![Formula::Before(x, e), after(e)]),
            // The routine never returned in the trace: nothing waits past it.
            None => after(e),
        };
        for e in 0..n {
            match *op(e) {
                SymOp::OnceCall { once: o, found: 1 } if o == once => {
                    out.push(Formula::or(vec![Formula::Before(first, e), after(e)]));
                    out.extend(done.map(|d| Formula::or(vec![Formula::Before(e, d), after(e)])));
                }
                SymOp::OnceCall { once: o, found: 2 } if o == once => out.push(once_after(e, done)),
                SymOp::OnceResume { once: o } if o == once => out.push(once_after(e, done)),
                _ => {}
            }
        }
    }
    out
}

/// What each `pthread_barrier_wait` whose result matters returned: its
/// 1-bit read is 1 exactly when its arrival is the last of its generation
/// (required when the arrival happens).
fn serial_results(
    sym: &SymTrace,
    model: &Model,
    (enc, slice): (&mut Encoder<'_>, &crate::relevant::Slice),
    values: &mut Values<'_>,
    after: &dyn Fn(Ev) -> Formula,
) -> Vec<Formula> {
    let mut out = Vec::new();
    for (e, (t, k)) in model.origin.iter().enumerate() {
        let SymOp::Arrive { serial, .. } = sym.threads[*t].events[*k].op else { continue };
        if !slice.reads.get(serial as usize).copied().unwrap_or(false) {
            continue;
        }
        let read = values.read(serial, 1);
        let last = values.atom(read.eq(crate::values::constant(1, 1)));
        let not_last = values.atom(read.eq(crate::values::constant(1, 0)));
        let (is_last, is_not_last) = (enc.value(e, 1), enc.value(e, 0));
        out.push(Formula::or(vec![
            Formula::and(vec![Formula::Atom(last), is_last]),
            Formula::and(vec![Formula::Atom(not_last), is_not_last]),
            after(e),
        ]));
    }
    out
}

/// What each `pthread_join` whose result matters stored: its read is what
/// the joined thread returned (required when the join happens; a join
/// follows the thread's end in every schedule, so no order decides it).
fn join_results(
    sym: &SymTrace,
    model: &Model,
    slice: &crate::relevant::Slice,
    values: &mut Values<'_>,
    after: &dyn Fn(Ev) -> Formula,
) -> Vec<Formula> {
    let mut out = Vec::new();
    for (read, _) in &sym.join_results {
        if !slice.reads.get(*read as usize).copied().unwrap_or(false) {
            continue;
        }
        // (A thread that never ends is never joined: the join is after
        // the cut.)
        let Some(returned) = sym.joined_result(*read) else { continue };
        let (t, k) = sym.reads[*read as usize];
        let Some(e) = model.event_of[t].get(k).copied().flatten() else { continue };
        let same = values.read(*read, 64).eq(values.bv_bits(returned, 64));
        out.push(Formula::or(vec![Formula::Atom(values.atom(same)), after(e)]));
    }
    out
}

/// Φ (every part but the context-switch bound), with the failure's own
/// condition apart.
pub(crate) struct Parts {
    /// Φ_path (without the failure's condition) ∧ Φ_so ∧ Φ_rw ∧ Φ_mo, and
    /// the schedule's end at the failure.
    pub common: Formula,
    /// Φ_bug: the failure happens.
    pub bug: Formula,
    /// ¬Φ_bug: for a failure in the thread's own computation (an assertion,
    /// `abort`, a division by zero), the failing thread's last recorded
    /// branch condition (the one that led to it) does not hold; for a memory
    /// error, the negation of its predicate; for a deadlock, True (the
    /// alternate's frame has the blocked operation done); None for other
    /// failures.
    pub not_bug: Option<Formula>,
    /// A retractable model's frame, which every query of the failing run's
    /// paths assumes: the schedule ends at the failure and every path
    /// condition's guard holds (True when the model is not retractable:
    /// both are in `common`).
    pub frame: Formula,
    /// The frame of an alternate schedule: `frame`, but for a deadlock the
    /// schedule ends with the failing thread's blocking operation done
    /// instead of in the deadlock.
    pub alternate_frame: Formula,
    /// A retractable model's path conditions (but the failure's own).
    pub conditions: Vec<Condition>,
}

/// A path condition of a retractable model: asserted as `¬guard ∨ atom ∨
/// point after the cut`, so a query that does not assume its guard may
/// flip it. Also a lock or semaphore try that failed (`failed_try`): what
/// it observed, the mutex held by another thread or no unit left, is
/// asserted the same way, and its flip is a try that succeeds.
#[derive(Clone, Debug)]
pub(crate) struct Condition {
    pub thread: usize,
    /// Its index in the thread's path (a try: how many of the path's
    /// conditions come before it).
    pub index: usize,
    /// The thread's access point before it (the condition is required once
    /// that point happens; a try: the try itself).
    pub point: Ev,
    /// Its place in its thread: the thread's events before the point from
    /// which a flip of it runs none of the thread's recorded events, then
    /// its rank among the conditions there (a try first: the conditions
    /// after it are on what it returned).
    pub at: (usize, usize),
    /// What says it does not hold (a try: it finds the mutex free or a
    /// unit left, and the schedule ends there).
    pub negated: Formula,
    pub guard: usize,
    /// A failed try rather than a branch.
    pub failed_try: bool,
}

/// Each access into a heap block, when it happens, comes before every
/// free of that block: the run did not fail there, and an order that frees
/// the block first fails earlier, at that access.
/// (config_swapped_while_read: the run failed at the read of
/// `c->retries`; the solver's order freed the block before the read of
/// `c->timeout`, and its replay failed there.) An access through a
/// computed address does so when its address is in the block; a free of a
/// computed pointer when the pointer is the block's start
/// (config_reference_taken_from_zero: the reloader frees the block it read
/// from `current`, and the solver's order put that free before the
/// reader's increment, which then failed before the recorded failure).
fn used_before_freed(
    sym: &SymTrace,
    model: &Model,
    values: &mut Values<'_>,
    after: &dyn Fn(Ev) -> Formula,
) -> Vec<Formula> {
    let heap: Vec<&Object> = sym.objects.iter().filter(|o| o.heap).collect();
    let mut frees: Vec<Freed<'_>> = Vec::new();
    for (e, (t, k)) in model.origin.iter().enumerate() {
        match sym.threads[*t].events[*k].op {
            SymOp::Free { object, at: None, .. } => {
                let blocks = heap.iter().filter(|o| same_block(o.base, object)).map(|o| (*o, None)).collect();
                frees.push((e, blocks));
            }
            SymOp::Free { at: Some(p), .. } => {
                let blocks = (heap.iter())
                    .map(|o| {
                        let start = values.bv_bits(p, 64).eq(crate::values::constant(64, o.base as u128));
                        (*o, Some(values.atom(start)))
                    })
                    .collect();
                frees.push((e, blocks));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    if frees.is_empty() {
        return out;
    }
    for (e, (t, k)) in model.origin.iter().enumerate() {
        let (addrs, at): (Vec<u64>, Option<ExprId>) = match &sym.threads[*t].events[*k].op {
            SymOp::Read { addr, at, .. } | SymOp::Write { addr, at, .. } | SymOp::Rmw { addr, at, .. } => {
                (vec![*addr], *at)
            }
            SymOp::Bulk { reads, writes, at, .. } => (reads.iter().chain(writes).map(|p| p.addr).collect(), *at),
            _ => continue,
        };
        for (f, blocks) in frees.iter().filter(|(f, _)| model.origin[*f].0 != *t) {
            for &(o, frees_it) in blocks {
                let mut unless = vec![Formula::Before(e, *f), after(e)];
                if let Some(a) = frees_it {
                    unless.push(Formula::Atom(values.atom_not(a)));
                }
                match at {
                    None if addrs.iter().any(|a| same_block(*a, o.base)) => {}
                    None => continue,
                    Some(p) => {
                        let offset = values.bv_bits(p, 64).bvsub(crate::values::constant(64, o.base as u128));
                        let inside = values.atom(offset.bvult(crate::values::constant(64, o.size as u128)));
                        unless.push(Formula::Atom(values.atom_not(inside)));
                    }
                }
                out.push(Formula::or(unless));
            }
        }
    }
    out
}

/// A free: the heap blocks it may free, each with what says it does (None:
/// it frees that block whatever the values).
type Freed<'a> = (Ev, Vec<(&'a Object, Option<usize>)>);

/// Two addresses are in the same allocation.
fn same_block(a: u64, b: u64) -> bool {
    causa_ir::addr_alloc(a) == causa_ir::addr_alloc(b)
}

pub(crate) fn formula(
    sym: &SymTrace,
    model: &Model,
    enc: &mut Encoder<'_>,
    values: &mut Values<'_>,
    next_var: &mut usize,
    retractable: bool,
) -> Result<Parts, ClapError> {
    let cut = enc.cut();
    let after = |e: Ev| Formula::Before(cut, e);
    let end = match model.failure.1 {
        causa_core::BugKind::Deadlock => deadlock_end(model, enc)?,
        _ => Formula::Same(cut, model.last),
    };
    let mut parts = vec![enc.base()];
    let mut frame = Vec::new();
    let mut conditions = Vec::new();
    let deadlock = model.failure.1 == causa_core::BugKind::Deadlock;
    let alternate_end = if deadlock { Formula::Same(cut, alternate_last(model)) } else { end.clone() };
    if !retractable {
        parts.push(end.clone());
    }
    let n = model.trace.len();
    // Synchronisation observations (wake-ups, semaphore units) of the access
    // points that happen. A failed try's (a mutex held, no unit of a
    // semaphore left) is retractable like a path condition: the try that
    // succeeds goes another way.
    for e in 0..n {
        let obs = enc.observation(e);
        if !(retractable && matches!(model.trace.events[e].op, Op::TrylockFail { .. } | Op::SemFail { .. })) {
            parts.push(Formula::or(vec![obs, after(e)]));
            continue;
        }
        let (t, k) = model.origin[e];
        let guard = values.atom(z3::ast::Bool::new_const(format!("try{t}_{k}")));
        parts.push(Formula::or(vec![Formula::Atom(values.atom_not(guard)), obs, after(e)]));
        frame.push(Formula::Atom(guard));
        let index = sym.threads[t].path.iter().filter(|(_, pk)| *pk <= k).count();
        let negated = enc.flip(e).goal;
        conditions.push(Condition { thread: t, index, point: e, at: (k + 1, 0), negated, guard, failed_try: true });
    }
    // A join of a thread that never ends does not happen.
    let ends: Vec<bool> = sym.threads.iter().map(|t| t.events.iter().any(|e| e.op == SymOp::End)).collect();
    for (e, (t, k)) in model.origin.iter().enumerate() {
        if let SymOp::Join { child, .. } = &sym.threads[*t].events[*k].op {
            if sym.thread_index(child).is_none_or(|c| !ends[c]) {
                parts.push(after(e));
            }
        }
    }
    // `main` returning ends the program (the interpreter's `exit` step):
    // no failure comes after it.
    for (e, (t, k)) in model.origin.iter().enumerate() {
        let th = &sym.threads[*t];
        if th.start.as_deref() == Some("main") && th.events[*k].op == SymOp::End {
            parts.push(after(e));
        }
    }
    parts.extend(onces(sym, model, &after));
    let slice = crate::relevant::slice(sym);
    parts.extend(serial_results(sym, model, (enc, &slice), values, &after));
    parts.extend(join_results(sym, model, &slice, values, &after));
    parts.extend(crate::rw::constraints(sym, model, (enc, &slice), values, next_var)?);
    // (Not for an explanation's model: its alternates are replayed, and the
    // orders this leaves out were among those its searches start from;
    // refcount_nonatomic_release's summary became two regions instead of
    // its lost update.)
    if !retractable {
        parts.extend(used_before_freed(sym, model, values, &after));
    }
    let misuse = misuse_by_order(sym, model, enc);
    let fault = misuse.as_ref().map_or_else(|| crate::fault::bug(sym, model, values), |m| m.bug.clone());
    let mut not_bug = match &misuse {
        Some(m) => Some(m.avoided.clone()),
        None if sym.fault.is_some() => negate(&fault, values),
        None => deadlock.then_some(Formula::True),
    };
    let mut bug = vec![fault];
    // Φ_path and Φ_bug: a condition is required once the access point before
    // it happens. The failing thread's last condition is the failure's own
    // when it fails in its own computation.
    let (ft, kind) = model.failure;
    for (t, th) in sym.threads.iter().enumerate() {
        for (i, &(c, k)) in th.path.iter().enumerate() {
            let Some(e) = model.point_before(t, k) else { continue };
            let a = values.holds(c);
            let holds = Formula::or(vec![Formula::Atom(a), after(e)]);
            if t == ft && th.failure_condition == Some(i) && crate::model::fails_locally(kind) {
                bug.push(holds);
                not_bug = Some(Formula::or(vec![Formula::Atom(values.atom_not(a)), after(e)]));
            } else if retractable {
                let guard = values.atom(z3::ast::Bool::new_const(format!("guard{t}_{i}")));
                let off = values.atom_not(guard);
                parts.push(Formula::or(vec![Formula::Atom(off), Formula::Atom(a), after(e)]));
                frame.push(Formula::Atom(guard));
                let negated = Formula::Atom(values.atom_not(a));
                let at = (k, i + 1);
                conditions.push(Condition { thread: t, index: i, point: e, at, negated, guard, failed_try: false });
            } else {
                parts.push(holds);
            }
        }
    }
    // Failures the run's paths decide whatever the order: a failing branch
    // whose condition is a constant, or an invalid pthread use (what a
    // thread holds follows from its own path).
    let decided = (kind == causa_core::BugKind::InvalidPthreadUse && misuse.is_none())
        || (crate::model::fails_locally(kind) && sym.threads[ft].failure_condition.is_none());
    if not_bug.is_none() && decided {
        not_bug = Some(Formula::False);
    }
    let (frame, alternate_frame) = if retractable {
        let with = |end: Formula| Formula::and(std::iter::once(end).chain(frame.iter().cloned()).collect());
        (with(end), with(alternate_end))
    } else {
        (Formula::and(frame.clone()), Formula::and(frame))
    };
    Ok(Parts { common: Formula::and(parts), bug: Formula::and(bug), not_bug, frame, alternate_frame, conditions })
}

/// An invalid pthread use the order decides: Φ_bug, and what an alternate
/// schedule must do instead.
struct Misuse {
    bug: Formula,
    avoided: Formula,
}

/// An invalid pthread use the order decides (the failing thread's event
/// before the failure's marker, [`crate::model::fails_at_step`]): a destroy
/// of a lock another thread holds, or an acquisition of a destroyed lock
/// ([`Encoder::misuse_at`], [`Encoder::misuse_avoided`]); None for other
/// failures.
fn misuse_by_order(sym: &SymTrace, model: &Model, enc: &Encoder<'_>) -> Option<Misuse> {
    let (ft, kind) = model.failure;
    if kind != causa_core::BugKind::InvalidPthreadUse {
        return None;
    }
    let k = sym.threads[ft].events.len().checked_sub(1)?;
    if !crate::model::fails_at_step(sym, ft, k) {
        return None;
    }
    let step = model.point_before(ft, k)?;
    Some(Misuse { bug: enc.misuse_at(step)?, avoided: enc.misuse_avoided(step)? })
}

/// ¬f, for the formulas Φ_bug is made of (None for free variables, bounds
/// and definitions).
fn negate(f: &Formula, values: &mut Values<'_>) -> Option<Formula> {
    Some(match f {
        Formula::True => Formula::False,
        Formula::False => Formula::True,
        Formula::Before(a, b) => Formula::or(vec![Formula::Before(*b, *a), Formula::Same(*a, *b)]),
        Formula::Same(a, b) => Formula::or(vec![Formula::Before(*a, *b), Formula::Before(*b, *a)]),
        Formula::And(v) => Formula::or(v.iter().map(|x| negate(x, values)).collect::<Option<Vec<_>>>()?),
        Formula::Or(v) => Formula::and(v.iter().map(|x| negate(x, values)).collect::<Option<Vec<_>>>()?),
        Formula::Atom(i) => Formula::Atom(values.atom_not(*i)),
        Formula::Def(_) | Formula::Var(_) | Formula::NotVar(_) | Formula::AtMost(..) | Formula::AtLeast(..) => {
            return None
        }
    })
}

/// Where an alternate schedule's model part ends: at the failing thread's
/// last access point, but for a deadlock at the operation it was blocked
/// at (done, in the alternate), before the failure's marker.
pub(crate) fn alternate_last(model: &Model) -> Ev {
    match model.failure.1 {
        causa_core::BugKind::Deadlock => deadlock_points(model).map_or(model.last, |(_, blocked)| blocked),
        _ => model.last,
    }
}

/// A deadlock's failing thread: its last step before it blocked, and the
/// operation it blocked at (its access points end with them and the
/// failure's marker).
fn deadlock_points(model: &Model) -> Option<(Ev, Ev)> {
    let evs: Vec<Ev> = model.event_of[model.failure.0].iter().filter_map(|e| *e).collect();
    match evs[..] {
        [.., prev, blocked, _fail] => Some((prev, blocked)),
        _ => None,
    }
}

/// The schedule ends in the log's deadlock: every thread has finished or is
/// stuck (the core's deadlock query, [`Encoder::deadlock`]), the failing
/// thread at its blocking operation (the last of its events before the
/// failure marker), and the interpreter reports that thread: the one that
/// stepped last when it is blocked, else the blocked thread created last.
/// So either the failing thread's step before its blocking operation is
/// the schedule's last, or the last step ends another thread and every
/// thread created after the failing one has finished or was never created
/// (a worker blocked at its wait while another worker, stepping last,
/// returns).
fn deadlock_end(model: &Model, enc: &mut Encoder<'_>) -> Result<Formula, ClapError> {
    let cut = enc.cut();
    let t = model.failure.0;
    let (prev, blocked) = deadlock_points(model).ok_or(ClapError::NoFailure)?;
    let goal = enc.deadlock().ok_or(ClapError::NoSchedule(String::new()))?.goal;
    let events = &model.trace.events;
    // Every event of the other threads that happens comes before `e`.
    let last = |e: Ev| {
        let mut v = vec![Formula::Before(e, cut)];
        for (x, ev) in events.iter().enumerate() {
            if x != e && ev.thread != events[e].thread {
                v.push(Formula::or(vec![Formula::Before(x, e), Formula::Before(cut, x)]));
            }
        }
        Formula::and(v)
    };
    let mut ways = vec![last(prev)];
    let later_done: Vec<Formula> = (t + 1..model.event_of.len())
        .filter_map(|u| {
            let evs: Vec<Ev> = model.event_of[u].iter().filter_map(|e| *e).collect();
            let (first, end) = (*evs.first()?, *evs.last()?);
            let finished = matches!(events[end].op, Op::End).then_some(Formula::Before(end, cut));
            Some(Formula::or(finished.into_iter().chain([Formula::Before(cut, first)]).collect()))
        })
        .collect();
    for (x, ev) in events.iter().enumerate() {
        if ev.thread != t as u32 && matches!(ev.op, Op::End) {
            ways.push(Formula::and(std::iter::once(last(x)).chain(later_done.iter().cloned()).collect()));
        }
    }
    Ok(Formula::and(vec![goal, Formula::Before(prev, cut), Formula::Before(cut, blocked), Formula::or(ways)]))
}

/// The events that happen (up to the cut), in schedule order; the cut's own
/// event last among ties.
pub(crate) fn happening(model: &Model, cut: Ev, pos: &[i64]) -> Vec<Ev> {
    let cut = pos[cut];
    let mut evs: Vec<Ev> = (0..model.trace.len()).filter(|e| pos[*e] <= cut).collect();
    evs.sort_by_key(|e| (pos[*e], *e == model.last, *e));
    evs
}

/// The access points in schedule order, without the departure of the last
/// thread to arrive at each barrier generation (it has no step of its own).
fn schedule(model: &Model, enc: &Encoder<'_>, pos: &[i64]) -> Vec<(usize, usize)> {
    steps_of(model, happening(model, enc.cut(), pos))
}

/// The access points of the order `evs` that are steps of their own (not
/// the departure of the last thread to arrive at a barrier generation).
pub(crate) fn steps_of(model: &Model, evs: Vec<Ev>) -> Vec<(usize, usize)> {
    let mut last_arrival: HashMap<(u64, u32), u32> = HashMap::default();
    for &e in &evs {
        if let causa_constraints::Op::Arrive { barrier, gen, .. } = model.trace.events[e].op {
            last_arrival.insert((barrier, gen), model.trace.events[e].thread);
        }
    }
    evs.into_iter()
        .filter(|&e| match model.trace.events[e].op {
            causa_constraints::Op::Depart { barrier, gen } => {
                last_arrival.get(&(barrier, gen)) != Some(&model.trace.events[e].thread)
            }
            _ => true,
        })
        .map(|e| model.origin[e])
        .collect()
}

/// Switches away from a thread whose next event also happens, not before a
/// wait-return or a join (those wait anyway): how explain picks the failing
/// schedule it shows when it cannot take the run's own order (a relaxed
/// memory model). (Not the count the solver's bound is on: a switch away
/// from a thread whose next event comes after the failure is one there, as
/// it is in a run; the fewer such switches here keep the other thread's
/// flushes and end out of the failing schedule.)
pub(crate) fn switches(model: &Model, enc: &Encoder<'_>, pos: &[i64]) -> usize {
    let evs = happening(model, enc.cut(), pos);
    let in_schedule: causa_core::collections::HashSet<Ev> = evs.iter().copied().collect();
    let mut next_of: HashMap<Ev, Ev> = HashMap::default();
    let mut last: HashMap<u32, Ev> = HashMap::default();
    for e in 0..model.trace.len() {
        if let Some(p) = last.insert(model.trace.events[e].thread, e) {
            next_of.insert(p, e);
        }
    }
    evs.windows(2)
        .filter(|w| {
            let (a, b) = (w[0], w[1]);
            let ta = model.trace.events[a].thread;
            ta != model.trace.events[b].thread
                && next_of.get(&a).is_some_and(|n| {
                    in_schedule.contains(n)
                        && !matches!(
                            model.trace.events[*n].op,
                            causa_constraints::Op::WaitReturn { .. } | causa_constraints::Op::Join { .. }
                        )
                })
        })
        .count()
}

/// The inputs in the order the schedule reads them: a thread reads an input
/// while it runs after the access point before the read.
pub(crate) fn input_order(sym: &SymTrace, model: &Model, order: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let at: HashMap<Ev, usize> =
        order.iter().enumerate().filter_map(|(i, (t, k))| model.event_of[*t][*k].map(|e| (e, i))).collect();
    let mut keyed = Vec::new();
    for (t, th) in sym.threads.iter().enumerate() {
        for (i, &k) in th.inputs_at.iter().enumerate() {
            if let Some(step) = model.point_before(t, k).and_then(|e| at.get(&e)) {
                keyed.push((*step, i, t));
            }
        }
    }
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i, t)| (t, i)).collect()
}

/// Atomic constraints of the formula: the base and every definition and axiom.
fn size(base: &Formula, enc: &Encoder<'_>) -> usize {
    let mut n = leaves(base);
    for d in 0..enc.defs.len() {
        n += leaves(enc.defs.get(d));
    }
    n + enc.defs.axioms().iter().map(leaves).sum::<usize>()
}

fn leaves(f: &Formula) -> usize {
    match f {
        Formula::And(v) | Formula::Or(v) | Formula::AtLeast(v, _) => v.iter().map(leaves).sum(),
        Formula::True | Formula::False | Formula::Def(_) => 0,
        Formula::AtMost(v, _) => v.len(),
        _ => 1,
    }
}
