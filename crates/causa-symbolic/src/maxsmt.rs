//! The alternate schedule as a Max SMT problem (AAAI-19 §4.2; notes
//! `maxsmt.md` §7–8): the hard constraints are the model with the failure
//! negated; the soft constraints reward similarity to the failing schedule
//! σ, one per
//! - data flow of σ (a read still reads from the same write, or from the
//!   initial value): `W < R ∧ ⋀ (W' < W ∨ R < W')` over the other writes W'
//!   of the location; and, in the same group, each read σ does not run
//!   (the failing run never reached it) staying after the failure's point,
//!   since one the alternate runs is a data flow σ does not have;
//! - thread segment of σ (a maximal run of one thread's events o_1…o_k, k ≥
//!   2): no other thread's event of σ between o_1 and o_k;
//! - context switch of σ (consecutive events o_i o_j of two threads): o_i
//!   before o_j and no event of σ between them.
//!
//! The paper states the last two as `O_k − O_1 = k − 1` and `O_j = O_i + 1`
//! over dense positions (all distinct in [1, n]); the core's order variables
//! are not dense (distinctness over n variables costs n² disjunctions), so
//! "nothing in between" is spelled out per thread: the thread's last event
//! of σ before the pair stays before it and its first after stays after
//! (program order keeps the rest out), which says the same.
//!
//! [`full`] solves the whole model (flat: one objective; lexicographic: data
//! flows, then segments, then switches). [`progressive`] is Algorithm 1:
//! every event of σ but a window of segments ending at the failure keeps its
//! order from σ; the window grows until an alternate exists. σ ends at the
//! failure, so the window grows backwards only (its next segment is always
//! empty). Inside the window, the events the failure does not depend on
//! (`relevant::incidental_events`) first keep their order from σ too; only
//! when no window admits an alternate that way are they freed. Soft atoms
//! between two kept events are decided by σ and left out of the query.
//!
//! Each query is answered by the chosen engine (`AlternateOptions::engine`):
//! by default a solution-improving search on the trace's incremental
//! solver, which keeps what it learned from one query to the next (pfscan's
//! window: 0.97 s with Z3's `Optimize`, 0.27 s this way; same objective
//! values; docs/performance.md), or Z3's `Optimize`.
//!
//! Why the incidental events: the cost of a Max SMT query is dominated by
//! the events it leaves free, and in a long run most of them are
//! bookkeeping (bench/programs/bank_long.c: 80 locked `ops++` per thread
//! after the race; one query over its 974 events took 17.6 s with them
//! free). Keeping them in σ's order also keeps them out of the DSP.

use crate::alternate::{segments, AlternateOptions, Found, Mode, Problem};
use crate::clap::ClapError;
use crate::solvers::Solvers;
use causa_constraints::formula::Ev;
use causa_constraints::{Encoder, Formula, Op, OptResult, OrderSolver, Priority, SolveResult, Z3Solver};
use causa_core::collections::HashMap;
use std::collections::BTreeMap;

/// Which of progressive mode's stages a search runs: with the events
/// incidental to the failure held in σ's order (on the weak solver), with
/// every event of a window free (on the full one), or the first and then
/// the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    Held,
    Free,
    Both,
}

impl Stage {
    pub fn holds(self) -> bool {
        self != Stage::Free
    }

    pub fn frees(self) -> bool {
        self != Stage::Held
    }
}

/// The whole model, every event free.
pub(crate) fn full(
    solver: &mut Z3Solver,
    p: &Problem<'_>,
    enc: &Encoder<'_>,
    opts: &AlternateOptions,
) -> Result<Found, ClapError> {
    let priority = if opts.mode == Mode::MaxSmt { Priority::Flat } else { Priority::Lexicographic };
    let r = solve_positions(solver, p, enc, &p.goal, (&p.none_kept(), &|_| false), priority, opts, None)?;
    Ok(Found {
        order: r.as_ref().map(|(pos, _)| p.order(pos)),
        optimal: r.is_some_and(|(_, opt)| opt),
        ..Found::none()
    })
}

/// Algorithm 1: widen the window of free segments before the failure until
/// an alternate exists (a round whose budget runs out without one counts as
/// none).
///
/// Whether a window admits an alternate at all is a plain satisfiability
/// question, monotone in the window (a wider window fixes a subset of the
/// orders): it is asked of the trace's incremental solver, doubling the
/// window and then bisecting, and only the first window that admits one is
/// optimised. That is the window Algorithm 1's one-segment-per-round growth
/// stops at, found with O(log segments) cheap queries instead of one Max SMT
/// call per round (the bank example's race 45 segments before its failure:
/// 46 Max SMT calls, 49 s, before).
///
/// `paths_fail` is shown the first solution found (the gallop's, before
/// the bisection narrows the window and before it is optimised): when it
/// says the failing run's paths fail anyway (its replay failed the same
/// check again, later), it is shown the window's most similar solution
/// too, and when that fails again as well the search ends with
/// [`Found::paths_fail`] (the branch flips come next). Which first
/// solution the solver gives is arbitrary: stopping at the first alone,
/// pbzip2's and lazy_registry_replaced's explanations became flips
/// (20 and 12 operations instead of 7 and 9) when a change in how Φ_rw
/// is given to Z3 changed its first model.
pub(crate) fn progressive(
    solvers: &mut Solvers,
    p: &Problem<'_>,
    enc: &Encoder<'_>,
    (opts, stage): (&AlternateOptions, Stage),
    paths_fail: &mut dyn FnMut(&[Ev]) -> bool,
    known: Known<'_>,
) -> Result<Found, ClapError> {
    let segs = segments(p.model, &p.sigma);
    let n = segs.len();
    if n == 0 {
        return Ok(Found::none());
    }
    let mut first_look = |pos: &[i64]| paths_fail(&p.order(pos));
    let found = |w: Windowed| match w.pos {
        None => Found { window: Some(w.window), paths_fail: true, ..Found::none() },
        Some(pos) => Found {
            order: Some(p.order(&pos)),
            window: Some(w.window),
            held: w.held,
            optimal: w.optimal,
            ..Found::none()
        },
    };
    if stage.holds() {
        if let Some(w) = held_windows(solvers, p, (enc, opts), &segs, (&mut first_look, true), known)? {
            return Ok(found(w));
        }
    }
    if !stage.frees() {
        return Ok(Found::none());
    }
    let full = solvers.full(&enc.defs);
    Ok(windows(full, p, (enc, opts), &segs, (&|_| false, false), (&mut first_look, true), known)?
        .map(found)
        .unwrap_or(Found { window: Some(n), ..Found::none() }))
}

/// [`windows`] on the weak solver, with the events incidental to the
/// failure held in σ's order in every window (None: no window admits an
/// alternate that way, or none of σ's events is incidental).
pub(crate) fn held_windows(
    solvers: &mut Solvers,
    p: &Problem<'_>,
    (enc, opts): (&Encoder<'_>, &AlternateOptions),
    segs: &[std::ops::Range<usize>],
    look: Look<'_>,
    known: Known<'_>,
) -> Result<Option<Windowed>, ClapError> {
    if !p.any_holdable() {
        return Ok(None);
    }
    let holdable = |i: usize| p.holdable.as_ref().is_some_and(|h| h[p.sigma[i]]);
    // The weak solver is exact while the incidental events hold
    // (solvers.rs). A weak solver of its own has the held order fixed
    // already (`Solvers::new`): the queries need not order those events
    // again.
    let fixed = solvers.narrowed();
    windows(solvers.weak(), p, (enc, opts), segs, (&holdable, fixed), look, known)
}

/// An alternate known before the windows are asked about, found by the
/// solver they are asked of (its positions; None: none is known): the
/// root cause's first inverted pair that admits one
/// ([`crate::symbiosis::invert_pairs`]). The smallest window that holds it
/// bounds Algorithm 1's search: windows the gallop would ask about beyond
/// it are the costly queries (list_walk.c at 90 nodes: the window that
/// frees the workers' pushes, 38 s), and it is the first window's
/// solution there, so the Max SMT search starts from an alternate that
/// keeps σ's order but for one pair.
pub(crate) type Known<'a> = &'a mut dyn FnMut(&mut Z3Solver) -> Result<Option<Vec<i64>>, ClapError>;

/// The model events from which progressive mode looks for a [`Known`]
/// alternate: on smaller traces each window query costs about as much as
/// one of the pairs' (job_claim_race, 156 events: windows of 10–60 ms, and
/// 24 pairs tried in 0.3 s that found none).
pub(crate) const KNOWN_FROM: usize = 200;

/// Whether `pos` keeps σ's events at the `kept` positions in σ's order.
fn keeps(p: &Problem<'_>, kept: &[bool], pos: &[i64]) -> bool {
    let order: Vec<Ev> = (0..p.sigma.len()).filter(|i| kept[*i]).map(|i| p.sigma[i]).collect();
    order.windows(2).all(|w| pos[w[0]] < pos[w[1]])
}

/// [`windows`]' look at a first solution: says whether it fails again on
/// replay; and whether a failure is confirmed on the window's most similar
/// solution before the search stops ([`progressive`]'s look at the run's
/// paths) or stops it at once (a flip's look: `flip.rs`).
pub(crate) type Look<'a> = (&'a mut dyn FnMut(&[i64]) -> bool, bool);

/// What [`windows`] found: the window, and the solution's positions (None:
/// the first look at the window's first solution stopped the search), and
/// how many σ events inside the window kept σ's order.
pub(crate) struct Windowed {
    pub window: usize,
    pub pos: Option<Vec<i64>>,
    pub optimal: bool,
    pub held: usize,
}

/// Algorithm 1's windows: the first that admits an alternate, with the σ
/// positions `hold` holds in σ's order in every window; and its most
/// similar alternate (None: no window admits one), unless the look
/// ([`Look`]) at the first window's first solution (and, when confirmed,
/// at its most similar one) says to stop there
/// ([`progressive`]: the run's paths fail anyway).
fn windows(
    solver: &mut Z3Solver,
    p: &Problem<'_>,
    (enc, opts): (&Encoder<'_>, &AlternateOptions),
    segs: &[std::ops::Range<usize>],
    (hold, fixed): (&dyn Fn(usize) -> bool, bool),
    (first_look, confirm): Look<'_>,
    known: Known<'_>,
) -> Result<Option<Windowed>, ClapError> {
    let n = segs.len();
    // With `fixed`, the solver has the held positions' order fixed
    // ([`causa_constraints::Z3Solver::reset_fixed`]): the queries only
    // order the rest (on a long run most of σ is held).
    let ordered = |i: usize| fixed && hold(i);
    tracing::debug!(
        segments = n,
        held = (0..p.sigma.len()).filter(|i| hold(*i)).count(),
        "progressive: windows with these σ events held in σ's order"
    );
    // σ's positions that keep σ's order with `window` segments free.
    let kept = |window: usize| {
        let upto = segs[n - window].start;
        (0..p.sigma.len()).map(|i| i < upto || hold(i)).collect::<Vec<bool>>()
    };
    // The first solution found (the gallop's) is looked at before the
    // bisection narrows the window: a replay costs a few milliseconds, a
    // window query tens (job_claim_race's eight flips rejected on replay
    // each took two bisection queries first).
    let (mut looked, mut failed) = (false, false);
    // Algorithm 1's first window (two segments: the failure's and the one
    // before it), asked first. When it refuses, the smallest window that
    // holds a known alternate admits one: no larger window is asked about
    // ([`Known`]). (Only then: the known alternate's queries change what
    // the solver answers next, and where the first window admits one they
    // would only cost time.)
    let low = 2.min(n);
    let query =
        |solver: &mut Z3Solver, window: usize| solver.solve(&p.fixing(&p.goal, &kept(window), &ordered), &enc.defs);
    let asked = std::time::Instant::now();
    let mut low_answer = Some(query(solver, low));
    let low_ms = asked.elapsed().as_secs_f64() * 1e3;
    let known = match low_answer {
        Some(SolveResult::Sat(_)) => None,
        _ => known(solver)?.and_then(|pos| (low..=n).find(|w| keeps(p, &kept(*w), &pos)).map(|w| (w, pos))),
    };
    let upto = known.as_ref().map_or(n, |(w, _)| *w);
    let Some((first, start)) = smallest_window(upto, |window| {
        let asked = std::time::Instant::now();
        let (answer, ms) = match (&known, low_answer.take_if(|_| window == low)) {
            (Some((w, pos)), _) if *w == window => (SolveResult::Sat(pos.clone()), 0.0),
            (_, Some(answer)) => (answer, low_ms),
            _ => (query(solver, window), asked.elapsed().as_secs_f64() * 1e3),
        };
        tracing::debug!(
            window,
            of = n,
            known = known.as_ref().is_some_and(|(w, _)| *w == window),
            sat = matches!(answer, SolveResult::Sat(_)),
            ms,
            "progressive: does the window admit an alternate?"
        );
        match answer {
            SolveResult::Sat(pos) if !looked => {
                looked = true;
                failed = first_look(&pos);
                match failed && !confirm {
                    true => Probe::Stop,
                    false => Probe::Admits(pos),
                }
            }
            SolveResult::Sat(pos) => Probe::Admits(pos),
            _ => Probe::Refuses,
        }
    }) else {
        return Ok(None);
    };
    let Some(start) = start else {
        return Ok(Some(Windowed { window: first, pos: None, optimal: false, held: 0 }));
    };
    for window in first..=n {
        let kept = kept(window);
        // The first window's search starts from the solution that showed
        // it admits an alternate.
        let start = (window == first).then(|| start.clone());
        if let Some((pos, optimal)) =
            solve_positions(solver, p, enc, &p.goal, (&kept, &ordered), Priority::Lexicographic, opts, start)?
        {
            // The first solution failed again: so do the run's paths,
            // unless the most similar one does not.
            if failed && first_look(&pos) {
                return Ok(Some(Windowed { window, pos: None, optimal: false, held: 0 }));
            }
            let held = (segs[n - window].start..p.sigma.len()).filter(|i| kept[*i]).count();
            return Ok(Some(Windowed { window, pos: Some(pos), optimal, held }));
        }
    }
    Ok(None)
}

/// The smallest window (of 1..=n segments) that is `feasible` (a solution
/// when it is), which is monotone: galloping from the smallest window (its
/// queries, with most of σ's order fixed, are the cheap ones: racey's
/// whole-model query took 55 s, its windowed ones 0.08 s), then bisection
/// between the last window without an alternate and the first with one.
/// The window and its solution (None: no window is feasible; a window
/// without a solution: `feasible` said to stop at it).
fn smallest_window<T>(n: usize, mut feasible: impl FnMut(usize) -> Probe<T>) -> Option<(usize, Option<T>)> {
    let (mut lo, mut hi) = (2.min(n), 2.min(n));
    let mut found;
    loop {
        match feasible(hi) {
            Probe::Admits(x) => {
                found = x;
                break;
            }
            Probe::Stop => return Some((hi, None)),
            Probe::Refuses if hi == n => return None,
            Probe::Refuses => {}
        }
        lo = hi + 1;
        hi = (hi * 2).min(n);
    }
    while lo < hi {
        let mid = (lo + hi) / 2;
        match feasible(mid) {
            Probe::Admits(x) => {
                hi = mid;
                found = x;
            }
            Probe::Stop => return Some((mid, None)),
            Probe::Refuses => lo = mid + 1,
        }
    }
    Some((hi, Some(found)))
}

/// A window query's answer to [`smallest_window`].
enum Probe<T> {
    Admits(T),
    Refuses,
    /// It admits one, and the search stops there.
    Stop,
}

/// One Max SMT query: `goal`, with σ's events at the `kept` positions in
/// σ's order (of which the solver has the `ordered` ones fixed),
/// starting from `start` when given (a solution of that). The solution's
/// positions and whether they are proven optimal.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_positions(
    solver: &mut Z3Solver,
    p: &Problem<'_>,
    enc: &Encoder<'_>,
    goal: &Formula,
    (kept, ordered): (&[bool], &dyn Fn(usize) -> bool),
    priority: Priority,
    opts: &AlternateOptions,
    start: Option<Vec<i64>>,
) -> Result<Option<(Vec<i64>, bool)>, ClapError> {
    let hard = p.fixing(goal, kept, ordered);
    let groups = Similarity { p, enc, kept }.groups();
    let (pos, optimal) =
        match solver.max_smt(opts.engine, &hard, &groups, priority, opts.max_conflicts, &enc.defs, start) {
            OptResult::Optimal(pos) => (pos, true),
            OptResult::Best(pos) => (pos, false),
            OptResult::Unsat | OptResult::Unknown => return Ok(None),
        };
    Ok(Some((pos, optimal)))
}

/// The soft constraints of similarity to σ.
struct Similarity<'a> {
    p: &'a Problem<'a>,
    enc: &'a Encoder<'a>,
    /// The σ positions that keep their order from σ.
    kept: &'a [bool],
}

impl Similarity<'_> {
    /// `a < b`, decided by program order (with fork and join) or by σ when
    /// both events keep their order from σ.
    fn before(&self, a: Ev, b: Ev) -> Formula {
        if self.enc.mhb_before(a, b) {
            return Formula::True;
        }
        if self.enc.mhb_before(b, a) {
            return Formula::False;
        }
        match (self.p.at[a], self.p.at[b]) {
            (Some(i), Some(j)) if self.kept[i] && self.kept[j] => {
                if i < j {
                    Formula::True
                } else {
                    Formula::False
                }
            }
            _ => Formula::Before(a, b),
        }
    }

    /// None of `members` between `a` and `b`, two events of σ with none of
    /// them between them in σ. `members` are σ positions, per thread, in
    /// order: each thread's last member before `a` in σ stays before `a` and
    /// its first after `b` stays after `b`; program order keeps the rest out
    /// (two atoms per thread instead of two per event). Under TSO/PSO
    /// program order does not order a thread's flushes (nor a load and an
    /// earlier store's flush): a member that the must-happen-before order
    /// does not put before the ones already kept before `a` (after `b`) is
    /// kept there too.
    fn outside<'m>(&self, members: impl IntoIterator<Item = &'m [usize]>, a: Ev, b: Ev) -> Vec<Formula> {
        let (Some(pa), Some(pb)) = (self.p.at[a], self.p.at[b]) else { return Vec::new() };
        let mhb = |x: Ev, y: Ev| self.enc.mhb_before(x, y);
        let mut out = Vec::new();
        for list in members {
            let i = list.partition_point(|&p| p < pa);
            let mut kept: Vec<Ev> = Vec::new();
            for &p in list[..i].iter().rev() {
                let e = self.p.sigma[p];
                if e != a && e != b && !kept.iter().any(|&k| mhb(e, k)) {
                    out.push(self.before(e, a));
                    kept.push(e);
                }
            }
            let j = list.partition_point(|&p| p <= pb);
            kept.clear();
            for &p in &list[j..] {
                let e = self.p.sigma[p];
                if e != a && e != b && !kept.iter().any(|&k| mhb(k, e)) {
                    out.push(self.before(b, e));
                    kept.push(e);
                }
            }
        }
        out
    }

    /// The locations `e` reads (`writes` false) or writes: its own, and a
    /// bulk operation's other ones ([`Model::cells`]).
    fn accesses(&self, e: Ev, writes: bool) -> Vec<u64> {
        let own = match (self.p.model.trace.events[e].op, writes) {
            (Op::Read { loc, .. }, false) | (Op::Write { loc, .. }, true) | (Op::Rmw { loc, .. }, _) => Some(loc),
            _ => None,
        };
        let cells = self.p.model.cells.get(&e).map(|(r, w)| if writes { w } else { r });
        own.into_iter().chain(cells.into_iter().flatten().copied()).collect()
    }

    /// σ's positions, per thread, in order.
    fn by_thread(&self) -> BTreeMap<u32, Vec<usize>> {
        let mut m: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (i, &e) in self.p.sigma.iter().enumerate() {
            m.entry(self.p.model.trace.events[e].thread).or_default().push(i);
        }
        m
    }

    /// Data flows, segments, context switches: one soft formula per item
    /// (items σ's fixed order already decides are left out).
    fn groups(&self) -> Vec<Vec<Formula>> {
        let keep = |f: Formula| (f != Formula::True).then_some(f);
        let events = &self.p.model.trace.events;
        let (read, written) = (|e: Ev| self.accesses(e, false), |e: Ev| self.accesses(e, true));
        // Writers in σ, per location and thread (σ positions); writers σ
        // leaves out, per location.
        let mut writers: HashMap<u64, BTreeMap<u32, Vec<usize>>> = HashMap::default();
        for (i, &e) in self.p.sigma.iter().enumerate() {
            for loc in written(e) {
                writers.entry(loc).or_default().entry(events[e].thread).or_default().push(i);
            }
        }
        let mut outside_sigma: HashMap<u64, Vec<Ev>> = HashMap::default();
        for e in (0..events.len()).filter(|e| self.p.at[*e].is_none()) {
            for loc in written(e) {
                outside_sigma.entry(loc).or_default().push(e);
            }
        }
        let mut flows = Vec::new();
        let mut last: HashMap<u64, Ev> = HashMap::default();
        for &r in &self.p.sigma {
            for loc in read(r) {
                let w = last.get(&loc).copied();
                let mut parts: Vec<Formula> = w.iter().map(|w| self.before(*w, r)).collect();
                // σ's other writers of the location stay outside (w, r): none
                // is between them in σ.
                let members = writers.get(&loc).into_iter().flat_map(|m| m.values().map(Vec::as_slice));
                parts.extend(self.outside(members, w.unwrap_or(r), r));
                for &x in outside_sigma.get(&loc).into_iter().flatten() {
                    parts.push(match w {
                        Some(w) => Formula::or(vec![self.before(x, w), self.before(r, x)]),
                        None => self.before(r, x),
                    });
                }
                flows.extend(keep(Formula::and(parts)));
            }
            for loc in written(r) {
                last.insert(loc, r);
            }
        }
        flows.extend(self.p.still_run.iter().map(|e| Formula::Before(*e, self.p.cut)));
        // A read σ does not run is a data flow σ does not have: the
        // alternate runs it only when it must (it would be a data-flow
        // variation of the DSP, dsp.rs).
        for (e, ev) in events.iter().enumerate() {
            if self.p.at[e].is_none() && matches!(ev.op, Op::Read { .. } | Op::Rmw { .. }) {
                flows.push(Formula::Before(self.p.cut, e));
            }
        }
        let segs = segments(self.p.model, &self.p.sigma);
        let all = self.by_thread();
        let broken = segs
            .iter()
            .filter(|s| s.len() >= 2)
            .filter_map(|s| {
                let (a, b) = (self.p.sigma[s.start], self.p.sigma[s.end - 1]);
                let t = events[a].thread;
                let others = all.iter().filter(|(u, _)| **u != t).map(|(_, v)| v.as_slice());
                keep(Formula::and(self.outside(others, a, b)))
            })
            .collect();
        let switches = segs
            .windows(2)
            .filter_map(|w| {
                let (a, b) = (self.p.sigma[w[0].end - 1], self.p.sigma[w[1].start]);
                let mut parts = vec![self.before(a, b)];
                parts.extend(self.outside(all.values().map(Vec::as_slice), a, b));
                keep(Formula::and(parts))
            })
            .collect();
        vec![flows, broken, switches]
    }
}

#[cfg(test)]
mod tests {
    use super::{smallest_window, Probe};

    /// Windows from `from` on admit an alternate (its solution: the window);
    /// the windows asked, in order.
    fn search(n: usize, from: usize, stop_at_first: bool) -> (Option<(usize, Option<usize>)>, Vec<usize>) {
        let mut asked = Vec::new();
        let found = smallest_window(n, |w| {
            asked.push(w);
            match w >= from {
                true if stop_at_first && asked.iter().filter(|a| **a >= from).count() == 1 => Probe::Stop,
                true => Probe::Admits(w),
                false => Probe::Refuses,
            }
        });
        (found, asked)
    }

    #[test]
    fn gallops_then_bisects_to_the_smallest_window() {
        assert_eq!(search(12, 5, false), (Some((5, Some(5))), vec![2, 4, 8, 6, 5]));
        assert_eq!(search(12, 2, false), (Some((2, Some(2))), vec![2]));
        assert_eq!(search(12, 12, false), (Some((12, Some(12))), vec![2, 4, 8, 12, 10, 11]));
        assert_eq!(search(1, 1, false), (Some((1, Some(1))), vec![1]));
    }

    #[test]
    fn no_window_admits_one() {
        assert_eq!(search(12, 13, false), (None, vec![2, 4, 8, 12]));
    }

    #[test]
    fn a_stop_at_the_first_solution_skips_the_bisection() {
        assert_eq!(search(12, 5, true), (Some((8, None)), vec![2, 4, 8]));
        assert_eq!(search(12, 2, true), (Some((2, None)), vec![2]));
    }
}
