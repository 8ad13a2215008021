//! Symbiosis' root cause and alternate schedule (TOSEM'16 §3.3–3.5; notes
//! `symbiosis.md` §4.3–5), on CLAP's model of the same symbolic trace:
//! - the failing schedule σ solves Φ_fail = Φ_common ∧ Φ_bug, with the
//!   fewest context switches found (a finely interleaved σ makes a larger
//!   explanation);
//! - Φ_root = Φ_common ∧ ¬Φ_bug ∧ ϕ_fsch is unsatisfiable by construction
//!   (ϕ_fsch: each pair of consecutive events of σ in order, one named
//!   constraint per pair); the events of the pairs in Z3's unsat core are the
//!   root-cause sub-schedule R;
//! - for each pair of events of R from different threads, nearest first, σ
//!   with that pair inverted (the later event, with the events of its thread
//!   between the two, moved just before the earlier one) is tried under
//!   Φ_common ∧ ¬Φ_bug; the first satisfiable one is the alternate schedule,
//!   which has the same paths and does not fail.
//!
//! Events σ leaves out (those after the failure) stay after it in both
//! queries. Only assertion violations have a ¬Φ_bug here (the failing
//! thread's last recorded branch condition, negated).

use crate::clap::{fewest_preemptions, formula, happening, steps_of, ClapError, ClapOptions};
use crate::model::build;
use crate::trace::{SymOp, SymTrace};
use crate::values::Values;
use causa_constraints::formula::Ev;
use causa_constraints::{CoreResult, Encoder, Formula, OrderSolver, SolveResult, Z3Solver};
use std::time::Duration;

/// An event of the symbolic trace: (thread index, event index in the thread).
pub type EventRef = (usize, usize);

/// What [`symbiosis`] found.
#[derive(Clone, Debug)]
pub struct Symbiosis {
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
    /// The inverted pair (the earlier event of the failing schedule first)
    /// and the alternate schedule, when one was found.
    pub alternate: Option<(EventRef, EventRef, Vec<EventRef>)>,
    /// Pairs whose inversion was tried.
    pub pairs_tried: usize,
    pub queries: u64,
    pub solve_time: Duration,
}

/// Options of [`symbiosis`].
#[derive(Clone, Debug)]
pub struct SymbiosisOptions {
    /// For the failing schedule's context switches.
    pub clap: ClapOptions,
    /// Give up after trying this many pairs.
    pub max_pairs: usize,
    /// The failing run's order, as the thread of each of its visible steps:
    /// the explanation works on that order when it is a failing schedule of
    /// the model (each thread's k-th step is its k-th access point); else on
    /// the solver's failing schedule with the fewest context switches.
    pub run_steps: Option<Vec<causa_core::ThreadName>>,
}

impl Default for SymbiosisOptions {
    fn default() -> Self {
        SymbiosisOptions { clap: ClapOptions::default(), max_pairs: 500, run_steps: None }
    }
}

/// The failing schedule, root cause and alternate schedule of `sym`'s failure.
pub fn symbiosis(sym: &SymTrace, opts: &SymbiosisOptions) -> Result<Symbiosis, ClapError> {
    let model = build(sym).ok_or(ClapError::NoFailure)?;
    let mut enc = Encoder::new(&model.trace);
    let mut values = Values::new(&sym.exprs);
    let mut order_vars = enc.variables();
    let parts = formula(sym, &model, &mut enc, &mut values, &mut order_vars)?;
    let not_bug = parts.not_bug.clone().ok_or_else(|| {
        ClapError::Unsupported(format!(
            "explaining a {} is not supported yet (only assertion violations)",
            model.failure.1
        ))
    })?;
    let mut solver = Z3Solver::new();
    solver.set_atoms(values.take_atoms());
    solver.reset(order_vars, &parts.common, &enc.defs);
    let cut = enc.cut();
    let from_run = opts.run_steps.as_ref().and_then(|steps| {
        let sigma = run_order(sym, &model, steps)?;
        let mut fails = vec![parts.bug.clone()];
        fails.extend(chain(&sigma));
        fails.extend(left_out(&sigma, model.trace.len(), cut));
        match solver.solve(&Formula::and(fails), &enc.defs) {
            SolveResult::Sat(_) => Some(sigma),
            _ => None,
        }
    });
    let (sigma, preemptions, failing_from_run) = match from_run {
        Some(sigma) => (sigma, 0, true),
        None => {
            let (pos, preemptions, _) = fewest_preemptions(&mut solver, &model, &mut enc, &parts.bug, &opts.clap)?;
            (happening(&model, &enc, &pos), preemptions, false)
        }
    };
    let mut stay: Vec<Formula> = vec![not_bug];
    stay.extend(left_out(&sigma, model.trace.len(), cut));
    let goal = Formula::and(stay);
    let named = chain(&sigma);
    let core = match solver.solve_core(&goal, &named, &enc.defs) {
        CoreResult::Core(c) => c,
        // The failure does not depend on the order (given the paths).
        CoreResult::Sat(_) => Vec::new(),
        CoreResult::Unknown => return Err(ClapError::SolverUnknown),
    };
    let mut in_root = vec![false; sigma.len()];
    for i in core {
        in_root[i] = true;
        in_root[i + 1] = true;
    }
    let root: Vec<usize> = (0..sigma.len()).filter(|i| in_root[*i]).collect();
    let thread = |i: usize| model.trace.events[sigma[i]].thread;
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (x, &j) in root.iter().enumerate() {
        for &k in &root[x + 1..] {
            if thread(j) != thread(k) {
                pairs.push((j, k));
            }
        }
    }
    pairs.sort_by_key(|&(j, k)| (k - j, std::cmp::Reverse(k)));
    let mut alternate = None;
    let mut tried = 0;
    for &(j, k) in pairs.iter().take(opts.max_pairs) {
        tried += 1;
        let inverted = invert(&sigma, j, k, |e| model.trace.events[e].thread);
        let q = Formula::and(vec![goal.clone(), Formula::and(chain(&inverted))]);
        match solver.solve(&q, &enc.defs) {
            SolveResult::Sat(_) => {
                alternate = Some((model.origin[sigma[j]], model.origin[sigma[k]], steps_of(&model, inverted)));
                break;
            }
            SolveResult::Unsat => {}
            SolveResult::Unknown => return Err(ClapError::SolverUnknown),
        }
    }
    let (queries, solve_time) = solver.stats();
    Ok(Symbiosis {
        failing: steps_of(&model, sigma.clone()),
        preemptions,
        failing_from_run,
        root_cause: root.iter().map(|i| model.origin[sigma[*i]]).collect(),
        alternate,
        pairs_tried: tried,
        queries,
        solve_time,
    })
}

/// Each event of `order` before the next.
fn chain(order: &[Ev]) -> Vec<Formula> {
    order.windows(2).map(|w| Formula::Before(w[0], w[1])).collect()
}

/// The events (of `n`) that `order` leaves out stay after the failure (`cut`).
fn left_out(order: &[Ev], n: usize, cut: Ev) -> Vec<Formula> {
    let inside: std::collections::HashSet<Ev> = order.iter().copied().collect();
    (0..n).filter(|e| !inside.contains(e)).map(|e| Formula::Before(cut, e)).collect()
}

/// The run's order of the model's access points: each thread's k-th step is
/// its k-th access point (None when a thread has more steps than points).
fn run_order(sym: &SymTrace, model: &crate::model::Model, steps: &[causa_core::ThreadName]) -> Option<Vec<Ev>> {
    let index: std::collections::HashMap<&causa_core::ThreadName, usize> =
        sym.threads.iter().enumerate().map(|(i, t)| (&t.thread, i)).collect();
    let points: Vec<Vec<Ev>> = model.event_of.iter().map(|evs| evs.iter().filter_map(|e| *e).collect()).collect();
    let mut next = vec![0usize; points.len()];
    let mut order = Vec::with_capacity(steps.len());
    for s in steps {
        let t = *index.get(s)?;
        order.push(*points[t].get(next[t])?);
        next[t] += 1;
    }
    Some(order)
}

/// σ = α e_j β e_k γ → α β_t e_k e_j (β ∖ β_t) γ, where β_t are the events of
/// e_k's thread in β (they move with it, keeping program order).
pub fn invert<T: Copy>(sigma: &[T], j: usize, k: usize, thread: impl Fn(T) -> u32) -> Vec<T> {
    let t = thread(sigma[k]);
    let beta = &sigma[j + 1..k];
    let mut out = sigma[..j].to_vec();
    out.extend(beta.iter().copied().filter(|e| thread(*e) == t));
    out.push(sigma[k]);
    out.push(sigma[j]);
    out.extend(beta.iter().copied().filter(|e| thread(*e) != t));
    out.extend_from_slice(&sigma[k + 1..]);
    out
}

/// The data flows of a schedule of `sym`'s events: for each read (and
/// read-modify-write) in `order`, the write it reads from (the last earlier
/// write of the same address in `order`; None: the initial value).
pub fn data_flows(sym: &SymTrace, order: &[EventRef]) -> Vec<(EventRef, Option<EventRef>)> {
    let mut last: std::collections::HashMap<u64, EventRef> = std::collections::HashMap::new();
    let mut flows = Vec::new();
    for &(t, k) in order {
        match &sym.threads[t].events[k].op {
            SymOp::Read { addr, .. } => flows.push(((t, k), last.get(addr).copied())),
            SymOp::Rmw { addr, .. } => {
                flows.push(((t, k), last.get(addr).copied()));
                last.insert(*addr, (t, k));
            }
            SymOp::Write { addr, .. } => {
                last.insert(*addr, (t, k));
            }
            _ => {}
        }
    }
    flows
}

#[cfg(test)]
mod tests {
    use super::invert;

    #[test]
    fn inverting_a_pair_moves_the_later_event_and_its_threads_events_between() {
        // (thread, label): σ = a0 b0 a1 c0 b1 → invert(a0, b1): b0 b1 a0 a1 c0.
        let sigma = [(0, 'a'), (1, 'b'), (0, 'c'), (2, 'd'), (1, 'e')];
        let out = invert(&sigma, 0, 4, |e: (u32, char)| e.0);
        assert_eq!(out, vec![(1, 'b'), (1, 'e'), (0, 'a'), (0, 'c'), (2, 'd')]);
        // Adjacent events simply swap.
        assert_eq!(invert(&sigma, 1, 2, |e: (u32, char)| e.0), vec![(0, 'a'), (0, 'c'), (1, 'b'), (2, 'd'), (1, 'e')]);
    }
}
