//! Path-schedule dependent failures (AAAI-19 Fig. 2; CORTEX, PPoPP'16):
//! when no reordering of the failing run's paths avoids the failure, or the
//! one found fails again later, the alternate schedule must make a thread
//! take another branch. Each candidate flips one branch whose condition
//! depends on shared reads, nearest the failure first: the schedule runs up
//! to the branch with every other recorded path condition as before and the
//! branch's condition false, the flipped thread goes no further along its
//! recorded path, and the failure is not reached. Past that point the paths
//! are unknown, so the caller re-executes the program from the schedule's
//! end (the interpreter follows the flipped branch) and accepts the
//! candidate only if that run does not fail.

use crate::alternate::{AlternateOptions, Mode, Problem, Verdict, RETRIES};
use crate::clap::{ClapError, Condition, Parts};
use crate::maxsmt::Stage;
use crate::solvers::Solvers;
use crate::trace::{Branch, SymTrace};
use causa_constraints::formula::Ev;
use causa_constraints::trace::Op;
use causa_constraints::{Encoder, Formula, OrderSolver, Priority, SolveResult, Z3Solver};

/// The conflict budget of a flip's satisfiability query: a flip the solver
/// cannot decide within it is skipped (pfscan: one flip's query ran 53 s
/// unbudgeted, the accepted one needs a few hundred conflicts).
const FLIP_CONFLICTS: u32 = 5_000;

/// A flip's figures as `figures::figures_key` gives them (of its proposed
/// steps: `alternate`), to compare two answers of one flip.
pub(crate) type Key<'a> = &'a dyn Fn(&Flipped) -> (usize, usize, usize);

/// An alternate schedule that flips a branch.
pub(crate) struct Flipped {
    pub thread: usize,
    pub branch: Branch,
    /// The thread's events before the branch (a try: up to the try).
    pub events_before: usize,
    /// The schedule's events: those up to the branch, then σ's events it
    /// leaves for later (but the flipped thread's beyond the branch).
    pub order: Vec<Ev>,
    /// How many events of `order` the model orders.
    pub upto: usize,
    pub optimal: bool,
}

/// Try the flippable branches, nearest the failure first, until `accept`
/// (a re-execution from the schedule) takes one; also how many were tried.
///
/// A flip whose accepted schedule leaves past its end a read another
/// thread made before the branch in the failing schedule, or whose most
/// similar schedules all fail and only some other schedule of it passes,
/// is kept aside while the later candidates are tried: such a schedule
/// may pass by how the threads it leaves past its end run, not by the
/// branch (sign-up check-then-act on a list: flipping a thread that signs
/// up another name passed only because the second thread signing up the
/// same name ran its check past the end, after the first had added the
/// name; the flip of that check is the explanation). The first kept aside
/// is the answer when no later candidate gives a clean one.
pub(crate) fn search(
    solvers: &mut Solvers,
    p: &Problem<'_>,
    enc: &Encoder<'_>,
    parts: &Parts,
    sym: &SymTrace,
    (opts, stage, key): (&AlternateOptions, Stage, Key<'_>),
    accept: &mut dyn FnMut(&Flipped) -> Verdict,
) -> Result<(Option<Flipped>, usize), ClapError> {
    let candidates: Vec<(usize, &Condition, Branch)> = parts
        .conditions
        .iter()
        .filter_map(|c| {
            // (Not a doomed one: flipped, an assertion's check fails there
            // and then.)
            let b = branch_of(sym, c).filter(|b| !b.doomed)?;
            Some((p.at[c.point]?, c, b))
        })
        .collect();
    // A parked busy wait's loop branch (its thread's last): leaving the
    // loop at an early turn moves the fewest reads, so its turns are tried
    // from the first, where the last one would be.
    let looping: Vec<(usize, causa_ir::LocId)> = (0..sym.threads.len())
        .filter(|t| sym.threads[*t].events.iter().any(|e| matches!(e.op, crate::trace::SymOp::Spin { .. })))
        .filter_map(|t| Some((t, sym.threads[t].branches.last()?.loc)))
        .collect();
    let turn = |c: &Condition, b: &Branch| looping.contains(&(c.thread, b.loc));
    let last_turn = |t: usize| candidates.iter().filter(|(_, c, b)| c.thread == t && turn(c, b)).map(|x| x.0).max();
    // (Branches before synchronisation objects at computed addresses: using
    // another object changes more than going the other way at a branch.)
    let keys: Vec<(bool, std::cmp::Reverse<usize>, usize, usize)> = candidates
        .iter()
        .map(|(pos, c, b)| match turn(c, b) {
            true => (b.object, std::cmp::Reverse(last_turn(c.thread).unwrap_or(*pos)), c.thread, c.index),
            false => (b.object, std::cmp::Reverse(*pos), c.thread, usize::MAX - c.index),
        })
        .collect();
    let mut keyed: Vec<_> = keys.into_iter().zip(candidates).collect();
    keyed.sort_by_key(|(k, _)| *k);
    let candidates: Vec<(usize, &Condition, Branch)> = keyed.into_iter().map(|(_, c)| c).collect();
    let mut tried = 0;
    let mut aside: Option<Flipped> = None;
    // For the last resort: the flips whose first schedule failed on
    // replay, with their problem and that schedule's solution.
    let mut failed_plain: Vec<(&Condition, Branch, Problem<'_>, Vec<i64>)> = Vec::new();
    let segs = crate::alternate::segments(p.model, &p.sigma);
    // With accesses through computed addresses, each flip is first asked
    // with every such access at the location it touched in σ (`pinned`),
    // and only a clean answer of that pass is taken; then every flip as
    // usual. (stock_sold_below_zero: the flip nearest the failure, a
    // clerk's last test of a stock, passed only by handing the orders out
    // anew so that it tested the item sold out; the flip of the test of
    // that item itself is the explanation. Asked again without the pins,
    // that flip's most similar schedule handed the orders out anew too,
    // with 21 events in its DSP instead of 15.)
    // A clean answer of that pass is then asked of the same flip unpinned,
    // which replaces it only when none of its figures is larger and one is
    // smaller (job_claim_race: the same flip unpinned, a DSP of 39 events
    // instead of 43 and every figure smaller; the figures here count the
    // data flows of accesses through computed addresses as one location's,
    // so one smaller figure alone does not decide: aba_stack_reused_node's
    // unpinned answer had one new data flow less by that count, one broken
    // segment more, and a DSP of 17 events instead of 14).
    let passes: &[bool] = if p.run_addresses != Formula::True { &[true, false] } else { &[false] };
    let n = candidates.len().min(opts.max_flips);
    let plan = passes.iter().flat_map(|pinned| (0..n).map(move |k| (*pinned, k)));
    let mut pinned_clean: Option<(usize, Flipped)> = None;
    for (pinned, k) in plan {
        if pinned_clean.as_ref().is_some_and(|(kp, _)| pinned || k != *kp) {
            continue;
        }
        let (_, c, branch) = candidates[k];
        tried = tried.max(k + 1);
        let goal = match pinned {
            true => Formula::and(vec![flip_goal(p, parts, c), p.run_addresses.clone()]),
            false => flip_goal(p, parts, c),
        };
        let flip = flipped_problem(p, goal, c);
        let outcome = 'body: {
            // (Only progressive mode's first stage holds a flip's incidental
            // events; without sections aside, flips are asked of the full
            // model as before: see `alternate`'s stages.)
            if opts.mode == Mode::Progressive && stage == Stage::Held {
                match held_window(solvers, &flip, enc, opts, &segs, sym, (c, branch), accept)? {
                    Held::Accepted(Settled::Similar(f)) if !leaves_reads_behind(p, parts, c, &f) => {
                        break 'body Outcome::Clean(f)
                    }
                    Held::Accepted(Settled::Similar(f) | Settled::Plain(f)) => break 'body Outcome::Aside(f),
                    Held::Rejected => break 'body Outcome::Nothing,
                    Held::None => {}
                }
            }
            if !stage.frees() {
                break 'body Outcome::Nothing;
            }
            let solver = solvers.full(&enc.defs);
            solver.set_conflict_budget(Some(FLIP_CONFLICTS));
            let r = solver.solve(&flip.goal, &enc.defs);
            solver.set_conflict_budget(None);
            let SolveResult::Sat(pos) = r else {
                tracing::debug!(thread = c.thread, condition = c.index, loc = ?branch.loc, answer = ?r, "flip: no schedule");
                break 'body Outcome::Nothing;
            };
            // Any schedule of the flip first (a plain query), re-executed; only
            // one that avoids the failure is worth the Max SMT search for the
            // most similar (see `promising`).
            let plain = Flipped::at(p, (c, branch), &pos, false);
            let verdict = accept(&plain);
            let passes = verdict.accepted();
            tracing::debug!(thread = c.thread, condition = c.index, loc = ?branch.loc, passes, "flip: a plain schedule of the flip replayed");
            if !promising(verdict) {
                if opts.similar_of_failed_flips && !pinned {
                    failed_plain.push((c, branch, flip, pos));
                }
                break 'body Outcome::Nothing;
            }
            let ask = (solver, &flip, (c, branch));
            match most_similar(ask, (p, enc, sym, opts), passes.then_some(plain), pos, accept)? {
                Some(Settled::Similar(f)) if !leaves_reads_behind(p, parts, c, &f) => Outcome::Clean(f),
                Some(Settled::Similar(f) | Settled::Plain(f)) => Outcome::Aside(f),
                None => Outcome::Nothing,
            }
        };
        match (outcome, pinned_clean.take()) {
            (Outcome::Clean(f), None) if pinned => pinned_clean = Some((k, f)),
            (Outcome::Clean(f), Some((_, first))) if !dominates(key(&f), key(&first)) => {
                tracing::debug!(pinned = ?key(&first), plain = ?key(&f), "flip: the pinned answer kept");
                // (Offered again: the caller keeps the last accepted re-execution.)
                accept(&first);
                return Ok((Some(first), tried));
            }
            (Outcome::Clean(f), first) => {
                if let Some((_, first)) = first {
                    tracing::debug!(pinned = ?key(&first), plain = ?key(&f), "flip: the plain answer taken");
                }
                return Ok((Some(f), tried));
            }
            (_, Some((_, first))) => {
                accept(&first);
                return Ok((Some(first), tried));
            }
            (Outcome::Aside(f), None) if !pinned => {
                aside.get_or_insert(f);
            }
            (Outcome::Aside(_) | Outcome::Nothing, None) => {}
        }
    }
    if let Some((_, first)) = pinned_clean {
        accept(&first);
        return Ok((Some(first), tried));
    }
    // No flip gave a schedule that passes: as a last resort, those whose
    // first schedule failed on replay are asked for their most similar
    // after all (an arbitrary schedule of a flip may fail where the most
    // similar passes: which one the solver gives first depends on what it
    // learnt before).
    if aside.is_none() {
        for (c, branch, flip, pos) in failed_plain {
            let ask = (solvers.full(&enc.defs), &flip, (c, branch));
            if let Some(Settled::Similar(f)) = most_similar(ask, (p, enc, sym, opts), None, pos, accept)? {
                tracing::debug!(
                    thread = c.thread,
                    condition = c.index,
                    "flip: a most similar schedule passed where the first did not"
                );
                if !leaves_reads_behind(p, parts, c, &f) {
                    return Ok((Some(f), tried));
                }
                aside.get_or_insert(f);
            }
        }
    }
    // (Offered again: the caller keeps the last accepted re-execution.)
    if let Some(f) = &aside {
        accept(f);
    }
    Ok((aside, tried))
}

/// What one flip gave.
enum Outcome {
    /// A most similar schedule that passes and leaves no read behind.
    Clean(Flipped),
    /// A schedule kept aside while later flips are tried.
    Aside(Flipped),
    Nothing,
}

/// Whether the flip of `c` leaves past its schedule's end a read another
/// thread made before the branch in σ (but an incidental one) and that
/// thread branches on shared data at or after that read: its path past
/// the end is the replay's, unconstrained. (A thread without such a
/// branch takes its recorded path whatever it reads: pbzip2's producer,
/// whose reads of the queue the consumer's flip leaves behind, gave four
/// flips tried for the first one's answer.)
fn leaves_reads_behind(p: &Problem<'_>, parts: &Parts, c: &Condition, f: &Flipped) -> bool {
    let Some(at) = p.at[c.point] else { return false };
    let placed: std::collections::BTreeSet<Ev> = f.order[..f.upto.min(f.order.len())].iter().copied().collect();
    let incidental = |e: Ev| p.incidental.as_ref().is_some_and(|inc| inc[e]);
    let origin = &p.model.origin;
    let checked = |e: Ev| {
        let (t, i) = origin[e];
        parts.conditions.iter().any(|d| d.thread == t && origin[d.point].1 >= i)
    };
    p.sigma[..at].iter().any(|&e| {
        origin[e].0 != c.thread
            && matches!(p.model.trace.events[e].op, Op::Read { .. } | Op::Rmw { .. })
            && !incidental(e)
            && !placed.contains(&e)
            && checked(e)
    })
}

/// Whether a flip whose first schedule's replay gave `verdict` is worth
/// the search for its most similar schedule: it passed, or it avoided the
/// failure only by losing an update σ does not lose (the flip did what it
/// should; the retries exclude the lost update: refcount_nonatomic_release,
/// whose first schedule of the flip that explains it depends on what the
/// solver learnt before, and lost a decrement on some runs).
fn promising(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::Accepted | Verdict::LosesUpdate)
}

/// The most similar schedule of `flip` (of condition `c`), from the
/// solution `pos` of its plain schedule, settled ([`settle`]) with its
/// retries (`plain`: that schedule when its replay passed).
fn most_similar(
    (solver, flip, (c, branch)): (&mut Z3Solver, &Problem<'_>, (&Condition, Branch)),
    (p, enc, sym, opts): (&Problem<'_>, &Encoder<'_>, &SymTrace, &AlternateOptions),
    plain: Option<Flipped>,
    pos: Vec<i64>,
    accept: &mut dyn FnMut(&Flipped) -> Verdict,
) -> Result<Option<Settled>, ClapError> {
    let mut similar = |goal: &Formula, start: Option<Vec<i64>>| {
        let found = crate::maxsmt::solve_positions(
            solver,
            &flip.with_goal(goal.clone()),
            enc,
            goal,
            (&p.none_kept(), &|_| false),
            Priority::Lexicographic,
            opts,
            start,
        )?;
        Ok(found.map(|(pos, optimal)| Flipped::at(p, (c, branch), &pos, optimal)))
    };
    let first = similar(&flip.goal, Some(pos))?;
    settle(plain, first, (flip, sym), accept, |goal| similar(goal, None))
}

/// How a flip's schedule was settled ([`settle`]).
enum Settled {
    /// A most similar schedule of the flip passes.
    Similar(Flipped),
    /// Only the first schedule found passes.
    Plain(Flipped),
}

impl Flipped {
    /// The flip of `c` whose schedule the solution `pos` gives.
    fn at(p: &Problem<'_>, (c, branch): (&Condition, Branch), pos: &[i64], optimal: bool) -> Flipped {
        let (order, upto) = flipped_order(p, c, pos);
        Flipped { thread: c.thread, branch, events_before: c.at.0, order, upto, optimal }
    }
}

/// A flip's most similar schedule when its re-execution is accepted. One
/// rejected gives way to the next most similar without its flaw
/// (`refine::exclude`: most often an update it loses that σ does not; the
/// most similar flip of refcount_nonatomic_release lost another decrement
/// instead of keeping the one σ loses), [`RETRIES`] times, each asked by
/// `next` with the exclusions so far. Failing those, the plain schedule,
/// whose re-execution passed, offered again (the caller keeps the last
/// accepted re-execution; a replay is deterministic); None when the plain
/// schedule's did not pass either.
fn settle(
    plain: Option<Flipped>,
    first: Option<Flipped>,
    (flip, sym): (&Problem<'_>, &SymTrace),
    accept: &mut dyn FnMut(&Flipped) -> Verdict,
    mut next: impl FnMut(&Formula) -> Result<Option<Flipped>, ClapError>,
) -> Result<Option<Settled>, ClapError> {
    let (mut similar, mut goal, mut offered) = (first, flip.goal.clone(), false);
    for retry in 0..=RETRIES {
        let Some(f) = similar.take() else { break };
        let why = accept(&f);
        offered = true;
        tracing::debug!(thread = f.thread, verdict = ?why, retry, "flip: a most similar schedule replayed");
        if why.accepted() {
            return Ok(Some(Settled::Similar(f)));
        }
        if retry == RETRIES {
            break;
        }
        let order = &f.order[..f.upto];
        goal = Formula::and(vec![goal, crate::refine::exclude(sym, flip.model, &flip.sigma, order, why)]);
        similar = next(&goal)?;
    }
    let Some(plain) = plain else { return Ok(None) };
    if offered {
        accept(&plain);
    }
    Ok(Some(Settled::Plain(plain)))
}

/// What a flip's windows on the weak solver gave ([`held_window`]).
enum Held {
    /// The flip's most similar schedule in its window, or else its first
    /// one, accepted.
    Accepted(Settled),
    /// The window's first schedule of the flip was not accepted.
    Rejected,
    /// No window admits the flip with the incidental events held.
    None,
}

/// Progressive mode's flip: as [`crate::maxsmt::progressive`], the
/// smallest window of σ's segments before the failure that admits the
/// flip, asked of the weak solver with the events incidental to the
/// failure held in σ's order; the first schedule found is replayed, and
/// only when it passes (or only loses an update: `promising`) is the
/// window's most similar one searched for.
/// A long run's bookkeeping (a statistics lock taken hundreds of times)
/// then stays out of the query, as it stays out of the mode's own
/// alternate: asked of the full model with every event free, such a flip
/// took 35 s and its Max SMT moved the statistics sections (a 517-event
/// DSP of a 1,477-event run; docs/performance.md).
#[allow(clippy::too_many_arguments)]
fn held_window(
    solvers: &mut Solvers,
    p: &Problem<'_>,
    enc: &Encoder<'_>,
    opts: &AlternateOptions,
    segs: &[std::ops::Range<usize>],
    sym: &SymTrace,
    (c, branch): (&Condition, Branch),
    accept: &mut dyn FnMut(&Flipped) -> Verdict,
) -> Result<Held, ClapError> {
    // The first schedule found, when it passed.
    let mut first: Option<Flipped> = None;
    let mut first_look = |pos: &[i64]| {
        let f = Flipped::at(p, (c, branch), pos, false);
        let verdict = accept(&f);
        let passes = verdict.accepted();
        tracing::debug!(thread = c.thread, condition = c.index, loc = ?branch.loc, passes, "flip: a first schedule of the flip in its window replayed");
        first = passes.then_some(f);
        !promising(verdict)
    };
    let mut windows = |q: &Problem<'_>, look: &mut dyn FnMut(&[i64]) -> bool| {
        solvers.weak().set_conflict_budget(Some(FLIP_CONFLICTS));
        // (No alternate of the flip is known beforehand.)
        let found = crate::maxsmt::held_windows(solvers, q, (enc, opts), segs, (look, false), &mut |_| Ok(None));
        solvers.weak().set_conflict_budget(None);
        found
    };
    let Some(w) = windows(p, &mut first_look)? else { return Ok(Held::None) };
    // (A solution means the first look's schedule was promising.)
    let Some(pos) = w.pos else { return Ok(Held::Rejected) };
    let similar = Flipped::at(p, (c, branch), &pos, w.optimal);
    // A retry asks the windows again with the exclusions, straight for
    // the most similar schedule.
    let next = |goal: &Formula| {
        let found = windows(&p.with_goal(goal.clone()), &mut |_| false)?;
        Ok(found.and_then(|w| Some(Flipped::at(p, (c, branch), &w.pos?, w.optimal))))
    };
    Ok(settle(first, Some(similar), (p, sym), accept, next)?.map_or(Held::Rejected, Held::Accepted))
}

/// The problem of flipping condition `c` (its goal: [`flip_goal`]): σ's
/// events but the flipped thread's from the branch on should still run
/// before the alternate's end, which the solver places (without this, the
/// most similar schedule could end just after the flip and leave every
/// later event of σ to the replay's own order).
fn flipped_problem<'a>(p: &Problem<'a>, goal: Formula, c: &Condition) -> Problem<'a> {
    let k = c.at.0;
    let mut flip = p.with_goal(goal);
    let beyond = |e: Ev| p.model.origin[e].0 == c.thread && p.model.origin[e].1 >= k;
    flip.still_run = p.sigma.iter().copied().filter(|e| !beyond(*e)).collect();
    flip
}

/// The flip of condition `c`: every other path condition of the run's paths
/// holds as before (but the flipped thread's later ones), `c` does not, its
/// access point happens, the thread's next one does not, nor the failure.
fn flip_goal(p: &Problem<'_>, parts: &Parts, c: &Condition) -> Formula {
    let cut = p.cut;
    let mut g: Vec<Formula> = parts
        .conditions
        .iter()
        .filter(|d| !(d.thread == c.thread && d.at >= c.at))
        .map(|d| Formula::Atom(d.guard))
        .collect();
    g.push(c.negated.clone());
    g.push(Formula::or(vec![Formula::Before(c.point, cut), Formula::Same(c.point, cut)]));
    if let Some(next) = p.model.point_from(c.thread, c.at.0) {
        g.push(Formula::Before(cut, next));
    }
    // The failure is not reached: the flipped thread stops at the branch; any
    // other failing thread stops before its last point.
    if p.model.origin[p.model.last].0 != c.thread {
        g.push(Formula::Before(cut, p.model.last));
    }
    Formula::and(g)
}

/// The solution's order (`Problem::order`) without the flipped thread's
/// events beyond the branch; and how many events happen up to the cut.
fn flipped_order(p: &Problem<'_>, c: &Condition, pos: &[i64]) -> (Vec<Ev>, usize) {
    let k = c.at.0;
    p.order_keeping(pos, |e| !(p.model.origin[e].0 == c.thread && p.model.origin[e].1 >= k))
}

/// The branch `c` is of: its thread's recorded branch, or for a failed
/// try (of a lock or a semaphore) one made for it at the try.
fn branch_of(sym: &SymTrace, c: &Condition) -> Option<Branch> {
    let th = &sym.threads[c.thread];
    if c.failed_try {
        let loc = th.events.get(c.at.0.checked_sub(1)?)?.loc;
        return Some(Branch {
            condition: c.index,
            loc,
            taken: true,
            switch: false,
            doomed: false,
            object: false,
            failed_try: true,
        });
    }
    th.branches.iter().find(|b| b.condition == c.index).copied()
}

/// Whether figures `a` are nowhere larger than `b` and smaller somewhere.
fn dominates(a: (usize, usize, usize), b: (usize, usize, usize)) -> bool {
    a.0 <= b.0 && a.1 <= b.1 && a.2 <= b.2 && a != b
}
