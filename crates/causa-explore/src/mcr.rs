//! Maximal Causality Reduction (Huang, PLDI'15; dissertation §1): stateless
//! model checking that explores one execution per reachable *state* (the values
//! every read returns) instead of one per interleaving.
//!
//! Worklist of schedule prefixes. Each prefix is run with the replay strategy and
//! continued with `first`; the resulting trace is checked, then for every read after
//! the prefix and every other value written to its location (or its initial value)
//! the constraint core asks whether some reordering makes the read return it while
//! every earlier read keeps its value (Φ_mhb ∧ Φ_lock ∧ Φ_validity(r) ∧ Φ_value(r,v')).
//! Each satisfiable answer becomes a new prefix ending at that read; each prefix is
//! run once.
//!
//! Unlike the dissertation's MCR (§5.1), a prefix fixes what its reads
//! return, not the order of its events: a query may reorder them, and put
//! later events between them, as long as those reads keep their values.
//! With the order fixed, a state that needs a write the prefix holds to move
//! before another (main's two final reads after the joins, whose prefix
//! held both threads' writes in one order) or a later write to move before
//! one of the prefix's writes was never reached, and `causa check` said
//! verified on programs with a bug (`tests/mcr_fuzz.rs` found them against
//! DFS).

use crate::strategies::{FirstScheduler, ReplayScheduler};
use causa_constraints::{Encoder, Formula, Op, OrderSolver, SolveResult, Trace, Z3Solver};
use causa_core::collections::HashSet;
use causa_core::{ScheduleError, Scheduler, ThreadName};
use causa_interp::{Config, Execution, InterpError, Machine, Outcome, Prepared};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Bounds and switches of a check.
#[derive(Clone, Debug, Default)]
pub struct McrOptions {
    pub max_executions: Option<usize>,
    pub timeout: Option<Duration>,
    /// Keep exploring after a bug (used to compare outcome sets with DFS).
    pub all_outcomes: bool,
    /// Look for data races too (MCR's race query; the interpreter reports the
    /// race when the two accesses can execute at the same point).
    pub races: bool,
    /// Seed of the solver's random choices (0 by default). Which model the
    /// solver returns must not change the verdict; tests vary it.
    pub solver_seed: u32,
    /// Random executions per batch of probes between MCR's executions
    /// (`probe.rs`; 0, the default here: none, MCR alone). Never with
    /// `all_outcomes`.
    pub probes: usize,
}

/// What a check counted.
#[derive(Clone, Debug, Default)]
pub struct McrStats {
    pub executions: usize,
    pub queries: u64,
    pub sat: u64,
    pub unknown_queries: u64,
    /// Prefixes whose replay did not fit the program (should not happen; each is
    /// a reason the verdict cannot be `verified`).
    pub divergences: usize,
    pub infeasible: usize,
    pub bounded: usize,
    pub exec_time: Duration,
    pub solve_time: Duration,
    pub largest_trace: usize,
    /// Why some traces were modelled only approximately (see
    /// `causa_constraints::trace::approx`).
    pub approximations: std::collections::BTreeSet<&'static str>,
    /// Why some executions' states were left out: threads the program's end
    /// cut short in a way MCR does not explore further (see [`EXIT_DELAY`]).
    pub cut_short: std::collections::BTreeSet<&'static str>,
    /// How long each solver query took, in order.
    pub query_times: Vec<Duration>,
    /// What the random probes did (`probe.rs`).
    pub probes: crate::probe::ProbeStats,
    /// The bug was found by this probe (counting from 1), not by MCR.
    pub bug_from_probe: Option<usize>,
}

impl McrStats {
    /// Median and longest query time.
    pub fn query_time_summary(&self) -> (Duration, Duration) {
        let mut t = self.query_times.clone();
        t.sort_unstable();
        let median = t.get(t.len() / 2).copied().unwrap_or_default();
        (median, t.last().copied().unwrap_or_default())
    }
}

/// The answer of a check.
pub enum McrVerdict {
    /// A bug, with the execution that shows it.
    Bug(Box<Execution>),
    /// Every reachable state was explored.
    Verified,
    /// A bound or a limitation stopped the check; the reason says which.
    Unknown(String),
    /// causa itself failed (unsupported instruction, …).
    Error(InterpError),
}

pub struct McrResult {
    pub verdict: McrVerdict,
    pub stats: McrStats,
    /// Every distinct end of an execution seen (outcome description and final
    /// state digest), for comparing explorers; not of runs that exited while
    /// another thread could still move or a store still become visible
    /// ([`Execution::exited_early`]: MCR
    /// explores what reads can see, not where an exit falls among writes no
    /// read saw, and continues each run with the exit last).
    pub outcomes: HashSet<(String, Option<u64>)>,
}

/// A short, schedule-independent description of how an execution ended.
pub fn outcome_key(o: &Outcome) -> String {
    match o {
        Outcome::Exit(c) => format!("exit {c}"),
        // A deadlock is the same state whichever thread blocked last: describe
        // where every blocked thread waits.
        Outcome::Bug(f) if f.kind == causa_core::BugKind::Deadlock => {
            let mut waits: Vec<String> = f
                .notes
                .iter()
                .map(|n| {
                    format!(
                        "{} at {}",
                        n.thread.as_ref().map(|t| t.to_string()).unwrap_or_default(),
                        n.location.as_ref().map(|l| l.to_string()).unwrap_or_default()
                    )
                })
                .collect();
            waits.sort();
            format!("deadlock: {}", waits.join("; "))
        }
        Outcome::Bug(f) => format!("{} at {}", f.kind, f.location.as_ref().map(|l| l.to_string()).unwrap_or_default()),
        Outcome::Infeasible(_) => "infeasible".into(),
        Outcome::BoundReached(b) => format!("bound: {b}"),
        Outcome::Error(e) => format!("error: {e}"),
    }
}

/// Run the MCR exploration of `prep`, in a Z3 context of its own
/// (`causa_constraints::in_own_context`: its queries' answers, and so the
/// states it explores, do not depend on what the calling thread solved
/// before).
pub fn check(
    prep: &Arc<Prepared>,
    cfg: &Config,
    opts: &McrOptions,
    progress: &mut (dyn FnMut(&McrStats, usize) + Send),
) -> McrResult {
    // The context's closure must be Sync; the callback is reached through
    // a lock (taken by this thread only).
    let progress = std::sync::Mutex::new(progress);
    causa_constraints::in_own_context(|| {
        check_here(prep, cfg, opts, &mut |s, n| {
            if let Ok(mut p) = progress.lock() {
                p(s, n)
            }
        })
    })
}

/// [`check`] in the thread's current Z3 context.
fn check_here(
    prep: &Arc<Prepared>,
    cfg: &Config,
    opts: &McrOptions,
    progress: &mut dyn FnMut(&McrStats, usize),
) -> McrResult {
    let start = Instant::now();
    let cfg = Arc::new(Config {
        keep_records: false,
        final_state: true,
        detect_races: cfg.detect_races || opts.races,
        ..cfg.clone()
    });
    let mut raced: HashSet<(u32, u32)> = HashSet::default();
    let mut stats = McrStats::default();
    let mut outcomes = HashSet::default();
    let mut solver = Z3Solver::new();
    solver.set_random_seed(opts.solver_seed);
    let mut worklist: VecDeque<Prefix> = VecDeque::from([Prefix::default()]);
    let mut seen: HashSet<Prefix> = std::iter::once(Prefix::default()).collect();
    let mut first_bug: Option<Execution> = None;
    let mut stopped: Option<String> = None;
    let out_of_time = || opts.timeout.is_some_and(|t| start.elapsed() >= t);
    let deadline = opts.timeout.map(|t| start + t);
    let mut probes = crate::probe::Probes::new(if opts.all_outcomes { 0 } else { opts.probes });
    while let Some(prefix) = worklist.pop_front() {
        if opts.max_executions.is_some_and(|m| stats.executions >= m) {
            stopped = Some(format!(
                "--max-executions {} reached with {} prefixes left",
                stats.executions,
                worklist.len() + 1
            ));
            break;
        }
        if out_of_time() {
            stopped = Some(format!(
                "--timeout reached after {:.1}s with {} prefixes left",
                start.elapsed().as_secs_f64(),
                worklist.len() + 1
            ));
            break;
        }
        let t0 = Instant::now();
        let (ex, turned) = run_prefix(prep, &cfg, &prefix);
        stats.exec_time += t0.elapsed();
        match &ex.outcome {
            Outcome::Error(InterpError::Schedule(e @ ScheduleError::Diverged { .. })) => {
                tracing::debug!(prefix = ?prefix, error = %e, "mcr: a prefix did not replay");
                stats.divergences += 1;
                continue;
            }
            Outcome::Error(e) => {
                return McrResult { verdict: McrVerdict::Error(e.clone()), stats, outcomes };
            }
            _ => {}
        }
        stats.executions += 1;
        stats.largest_trace = stats.largest_trace.max(ex.events.len());
        if tracing::enabled!(tracing::Level::TRACE) {
            let reads: Vec<String> = ex
                .events
                .iter()
                .filter(|e| matches!(e.kind, causa_core::EventKind::Read | causa_core::EventKind::Rmw))
                .map(|e| format!("{}:{:#x}={}", ex.names[e.thread as usize], e.addr, e.value))
                .collect();
            tracing::trace!(execution = stats.executions, prefix = prefix.len(), outcome = %outcome_key(&ex.outcome), reads = %reads.join(" "), "mcr: ran");
        }
        if !ex.exited_early() {
            outcomes.insert((outcome_key(&ex.outcome), ex.final_state));
        }
        match &ex.outcome {
            Outcome::Infeasible(_) => stats.infeasible += 1,
            Outcome::BoundReached(_) => stats.bounded += 1,
            _ => {}
        }
        progress(&stats, worklist.len());
        let is_bug = matches!(ex.outcome, Outcome::Bug(_));
        if is_bug && !opts.all_outcomes {
            first_bug = Some(ex);
            break;
        }
        // New states from this trace.
        let t1 = Instant::now();
        let trace = trace_of(&ex, prefix.len());
        stats.approximations.extend(trace.approximations.iter().copied());
        let mut enc = Encoder::new(&trace);
        // The reads' other values, whose queries come next: when they make
        // enough, a batch of random probes runs first (`probe.rs`). (Counted
        // only as far as that needs: a long trace's reads take a while.)
        let mut others: Vec<Option<Vec<(u64, u128)>>> = vec![None; trace.len() - trace.prefix_len];
        let mut upcoming = 0;
        let wanted = probes.wanted(stats.queries);
        for (r, o) in (trace.prefix_len..).zip(others.iter_mut()) {
            if upcoming >= wanted || out_of_time() {
                break;
            }
            let v = enc.other_values(r);
            upcoming += v.len() as u64;
            *o = Some(v);
        }
        if probes.due(stats.queries, upcoming, trace.len()) {
            let found = probes.batch(prep, &cfg, &out_of_time);
            stats.probes = probes.stats.clone();
            progress(&stats, worklist.len());
            if let Some((n, ex)) = found {
                stats.bug_from_probe = Some(n);
                first_bug = Some(ex);
                break;
            }
        }
        // A thread that loops until another thread acts (a stop flag) was
        // made to pass the processor on after its turn: the orders where
        // it loops longer first are as many as its turns, without end
        // (each run a state of its own: the counting loop's count). None is
        // asked for from this trace; the verdict says so. (A thread that
        // was only working long is not waiting: its run is explored.)
        if turned && polls(&trace) {
            stats.cut_short.insert(TURNED);
            continue;
        }
        let base = enc.base();
        solver.reset(enc.variables(), &base, &enc.defs);
        // No query of a long trace runs past `--timeout` (it then gives up:
        // unknown). Not for short traces: with a time limit Z3 starts a timer
        // for every query, which costs more than their queries.
        let deadline = deadline.filter(|_| trace.len() > LONG_TRACE);
        solver.set_timeout(None);
        let names = |events: &[usize]| prefix_of(&ex, &trace, events);
        // A long trace yields many queries: the time limit and the progress
        // report are looked at between queries, not only between executions.
        let mut reported = Instant::now();
        let timed_out = |r: usize, left: usize| {
            format!(
                "--timeout reached after {:.1}s, in the states of an execution of {} events (at event {r}), with {left} prefixes left",
                start.elapsed().as_secs_f64(),
                trace.len(),
            )
        };
        'reads: for r in trace.prefix_len..trace.len() {
            // (Looked at for each read too: on a long trace of one
            // location, finding a read's other values alone takes a while.)
            if out_of_time() {
                stopped = Some(timed_out(r, worklist.len()));
                break 'reads;
            }
            let values = others[r - trace.prefix_len].take().unwrap_or_else(|| enc.other_values(r));
            for (loc, v) in values {
                if out_of_time() {
                    stopped = Some(timed_out(r, worklist.len()));
                    break 'reads;
                }
                if reported.elapsed() >= PROGRESS_EVERY {
                    progress(&stats, worklist.len());
                    reported = Instant::now();
                }
                let q = enc.new_state(r, loc, v);
                let mut a = ask_keeping_waits(&mut solver, &q.goal, &mut enc, r, &mut stats, deadline);
                // (A copy's other bytes may have to change with this one.)
                if a.is_empty() {
                    if let Some(q) = enc.new_state_with_others(r, loc, v) {
                        a = ask_keeping_waits(&mut solver, &q.goal, &mut enc, r, &mut stats, deadline);
                    }
                }
                tracing::trace!(read = r, value = v, answers = a.len(), "mcr: another value");
                for (pos, vars, targets) in a {
                    enqueue(&mut seen, &mut worklist, names(&enc.relevant_to(&targets, &pos, &vars)), false);
                }
            }
            // The value it read, from the start (a lock word or a flag back
            // at its initial value).
            for (loc, src) in enc.other_sources(r) {
                let q = enc.new_source(r, loc, src);
                for (pos, vars, targets) in ask_keeping_waits(&mut solver, &q.goal, &mut enc, r, &mut stats, deadline) {
                    enqueue(&mut seen, &mut worklist, names(&enc.relevant_to(&targets, &pos, &vars)), false);
                }
            }
        }
        if stopped.is_some() {
            stats.solve_time += t1.elapsed();
            break;
        }
        // Trylocks, semaphore tries and timed waits that could get the other
        // result; when one can, asked again with the other threads' reads
        // before it in the trace kept, with their values, before the cut, as
        // for a read's new value (`ask_keeping_waits`): a trylock that fails
        // in another thread's section after that thread read a store still
        // buffered (TSO) was never reached, since the flip's schedule holds
        // the flush it waits for and the read then saw the new value.
        for e in enc.flips().collect::<Vec<_>>() {
            let q = enc.flip(e);
            let Some((pos, vars)) = ask(&mut solver, &q.goal, &enc, &mut stats, deadline) else { continue };
            enqueue(&mut seen, &mut worklist, names(&enc.relevant_flipped(e, &pos, &vars)), false);
            let Some((reads, kept)) = enc.kept_reads(e) else { continue };
            let cut = enc.cut();
            let mut keeping = vec![q.goal, kept];
            keeping.extend(reads.iter().map(|r| Formula::Before(*r, cut)));
            if let Some((pos, vars)) = ask(&mut solver, &Formula::and(keeping), &enc, &mut stats, deadline) {
                enqueue(&mut seen, &mut worklist, names(&enc.relevant_flipped_with(e, &reads, &pos, &vars)), false);
            }
        }
        // Points where the threads could get stuck (one is enough for a
        // verdict; every distinct one when comparing outcome sets).
        if let Some(q) = enc.deadlock() {
            let mut goal = q.goal;
            for _ in 0..if opts.all_outcomes { DEADLOCKS_PER_TRACE } else { 1 } {
                let Some((pos, _)) = ask(&mut solver, &goal, &enc, &mut stats, deadline) else { break };
                enqueue(&mut seen, &mut worklist, names(&enc.before_cut(&pos)), false);
                goal = Formula::and(vec![goal, enc.other_cut(&pos)]);
            }
        }
        // What the stop (a failure, `exit`) cut off: the flushes of the
        // stores still buffered, and the threads that had not ended (none of
        // their later operations is in the trace, so no query above moves
        // one; each one's next operation is in the model, the synchronisation
        // it waits at or an event of unknown effect). Reach each, and the
        // next trace goes on from there.
        let first_unflushed = ex.events.len();
        let unflushed = first_unflushed..first_unflushed + ex.unflushed.len();
        // After an exit, a ready thread was still running when the end
        // had waited EXIT_DELAY steps (an endless loop?): asking for its next
        // step would only grow the runs one step at a time.
        let still_running = matches!(ex.outcome, Outcome::Exit(_)) && ex.cut_off.iter().any(|c| c.ready);
        if still_running {
            stats.cut_short.insert(STILL_RUNNING);
        }
        // A join waiting for a thread that did not end in the trace waits for
        // that thread's own next step, asked for on its own.
        let waits_for_cut_off = |e: usize| match trace.events[e].op {
            Op::Join { child } => !trace.events.iter().any(|x| x.thread == child && x.op == Op::End),
            _ => false,
        };
        let cut_off = ex.cut_off_next().map(|(e, _)| e).filter(|e| !still_running && !waits_for_cut_off(*e));
        // After a deadlock, the operations the threads were stuck at: in
        // another order one of them can happen (a semaphore wait that gets
        // the unit another thread took), and its thread goes on. Only the
        // outcome sets need them: a deadlock ends the plain check as a bug.
        let first_blocked = first_unflushed + ex.unflushed.len() + ex.cut_off_next().count();
        let blocked =
            (first_blocked..first_blocked + ex.blocked.len()).filter(|e| opts.all_outcomes && !waits_for_cut_off(*e));
        for next in unflushed.chain(cut_off).chain(blocked) {
            let q = enc.reach(next);
            let a = ask(&mut solver, &q.goal, &enc, &mut stats, deadline);
            tracing::trace!(next, found = a.is_some(), "mcr: reach a cut-off operation");
            if let Some((pos, vars)) = a {
                enqueue(&mut seen, &mut worklist, names(&enc.relevant_events(next, &pos, &vars)), false);
            }
        }
        if ex.cut_off.iter().any(|c| c.next.is_none()) {
            stats.cut_short.insert(BLOCKED_AT_STOP);
        }
        // Accesses that could come after another thread frees their block.
        for (e, f) in enc.after_free_candidates() {
            let q = enc.after_free(e, f);
            if let Some((pos, vars)) = ask(&mut solver, &q.goal, &enc, &mut stats, deadline) {
                enqueue(&mut seen, &mut worklist, names(&enc.relevant_events(e, &pos, &vars)), false);
            }
        }
        // Destroys that could come while another thread holds the lock (or
        // waits on the condition variable), and acquisitions that could come
        // after another thread's destroy.
        for (d, l, u) in enc.destroy_candidates() {
            let q = enc.destroy_held(d, l, u);
            if let Some((pos, vars)) = ask(&mut solver, &q.goal, &enc, &mut stats, deadline) {
                enqueue(&mut seen, &mut worklist, names(&enc.relevant_to(&[d, l], &pos, &vars)), false);
            }
        }
        for (d, w) in enc.destroy_wait_candidates() {
            let q = enc.destroy_waited(d, w);
            if let Some((pos, vars)) = ask(&mut solver, &q.goal, &enc, &mut stats, deadline) {
                enqueue(&mut seen, &mut worklist, names(&enc.relevant_to(&[d, w], &pos, &vars)), false);
            }
        }
        for (d, l) in enc.after_destroy_candidates() {
            let q = enc.lock_after_destroy(d, l);
            if let Some((pos, vars)) = ask(&mut solver, &q.goal, &enc, &mut stats, deadline) {
                enqueue(&mut seen, &mut worklist, names(&enc.relevant_to(&[d, l], &pos, &vars)), false);
            }
        }
        if opts.races {
            // Steer into states where two conflicting accesses are both next.
            let mut asked: HashSet<(u32, u32)> = HashSet::default();
            for (a, b) in enc.race_candidates() {
                let (sa, sb) = (trace.srcs[a], trace.srcs[b]);
                let key = (sa.min(sb), sa.max(sb));
                if raced.contains(&key) || !asked.insert(key) {
                    continue;
                }
                let q = enc.race(a, b);
                if let Some((pos, vars)) = ask(&mut solver, &q.goal, &enc, &mut stats, deadline) {
                    raced.insert(key);
                    let before: Vec<usize> =
                        enc.relevant_to(&[a, b], &pos, &vars).into_iter().filter(|e| *e != a && *e != b).collect();
                    let mut new = names(&before);
                    new.steps.push(ex.names[trace.events[a].thread as usize].clone());
                    enqueue(&mut seen, &mut worklist, new, true);
                }
            }
        }
        stats.solve_time += t1.elapsed();
        if is_bug && first_bug.is_none() {
            first_bug = Some(ex);
        }
    }
    let verdict = if let Some(ex) = first_bug {
        McrVerdict::Bug(Box::new(ex))
    } else if let Some(reason) = stopped {
        McrVerdict::Unknown(reason)
    } else if let Some(reason) = incompleteness(&stats) {
        McrVerdict::Unknown(reason)
    } else {
        McrVerdict::Verified
    };
    McrResult { verdict, stats, outcomes }
}

/// How many steps an execution's end (`main` returning, `exit`) waits for
/// the other threads to run on ([`FirstScheduler::exit_last`]).
pub const EXIT_DELAY: usize = 5_000;

/// How many steps in a row a thread of MCR's executions takes, past the
/// schedule it follows, while another thread could move
/// ([`FirstScheduler::with_turns`]). Far above what a thread of a program
/// MCR can explore runs in one go (its traces are slow to model from about
/// 8,000 events): at 1,000, a teller doing 300 locked operations
/// (bench/programs/bank_long.c, 3,615 events) passed the processor on in
/// MCR's first execution, and no order of it was explored.
pub const TURN: usize = 10_000;

/// How many reads of one location, all of one value, a thread makes in a
/// trace without writing the location, for [`polls`].
const POLL_READS: usize = 100;

/// Whether a thread of `trace` polls: it reads some location it does not
/// write [`POLL_READS`] times or more, always seeing the same value (a
/// loop waiting for another thread to change it). A thread that passed
/// the processor on after its turn without polling was working, not
/// waiting (main's 6,000-turn loop over its own array before it reads a
/// flag another thread sets): its run is explored as any other.
fn polls(trace: &Trace) -> bool {
    let mut written: HashSet<(u32, u64)> = HashSet::default();
    // (Per thread and location: the value read, how many times, and
    // whether every read saw it.)
    let mut reads: BTreeMap<(u32, u64), (u128, usize, bool)> = BTreeMap::new();
    for e in &trace.events {
        match e.op {
            Op::Write { loc, .. } | Op::Rmw { loc, .. } => {
                written.insert((e.thread, loc));
            }
            Op::Read { loc, value } => {
                let r = reads.entry((e.thread, loc)).or_insert((value, 0, true));
                r.1 += 1;
                r.2 &= r.0 == value;
            }
            _ => {}
        }
    }
    reads.iter().any(|(k, (_, n, same))| *same && *n >= POLL_READS && !written.contains(k))
}

/// Why a verdict is not complete when a thread passed the processor on
/// after its turn ([`TURN`]).
const TURNED: &str = "a thread ran 10,000 steps in a row while another thread could move, reading one value of a \
     location it does not write over and over (a loop waiting for another thread): no other order of that run's events \
     is explored, nor runs where the loop turns longer";

/// Why a verdict is not complete when a thread still ran after the end had
/// waited [`EXIT_DELAY`] steps.
const STILL_RUNNING: &str = "a thread was still running when the program ended, long after main was ready to end \
     (an endless loop?): the states where it runs longer before the end are not explored";

/// Why a verdict is not complete when a thread was blocked as the program
/// stopped on an operation the model cannot name ([`causa_interp::CutOff`]).
const BLOCKED_AT_STOP: &str = "a thread blocked in a library call when the program exited or failed: the orders in \
     which that call returns before the end are not explored";

/// Traces longer than this have each query bounded by `--timeout`.
const LONG_TRACE: usize = 1_000;

/// How often a long trace's exploration reports progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// How many deadlocks at different points one trace may yield when every
/// outcome is wanted.
const DEADLOCKS_PER_TRACE: usize = 16;

/// Ask one query, counting it, its time and its answer; the model's event
/// positions when it is satisfiable. With a deadline the query gives up
/// (unknown) when it comes.
fn ask(
    solver: &mut Z3Solver,
    goal: &Formula,
    enc: &Encoder,
    stats: &mut McrStats,
    deadline: Option<Instant>,
) -> Option<(Vec<i64>, Vec<bool>)> {
    let t = Instant::now();
    if let Some(d) = deadline {
        solver.set_timeout(Some(d.saturating_duration_since(t).max(Duration::from_millis(1))));
    }
    let r = solver.solve(goal, &enc.defs);
    stats.queries += 1;
    stats.query_times.push(t.elapsed());
    match r {
        SolveResult::Sat(pos) => {
            stats.sat += 1;
            Some((pos, solver.var_values(enc.num_vars())))
        }
        SolveResult::Unsat => None,
        SolveResult::Unknown => {
            stats.unknown_queries += 1;
            None
        }
    }
}

/// [`ask`] for a new state at `r`; when it is reachable and the trace has
/// condition waits after the prefix, asked again with those waits keeping
/// the wake-ups they saw ([`Encoder::kept_waits`]), whose model is taken
/// when there is one. Then asked again with the other threads' reads
/// before `r` in the trace kept before it with their values
/// ([`Encoder::kept_reads`]): when that is reachable too, its model is a
/// second new state (with those reads as targets besides `r`, so that the
/// schedule takes them along). Both are explored: each reaches states the
/// other does not (`chained_updates_equal_writes.c` needs the first, the
/// logger whose read another section's swap changes needs the second).
/// Each: positions, free variables, targets.
fn ask_keeping_waits(
    solver: &mut Z3Solver,
    goal: &Formula,
    enc: &mut Encoder,
    r: usize,
    stats: &mut McrStats,
    deadline: Option<Instant>,
) -> Vec<(Vec<i64>, Vec<bool>, Vec<usize>)> {
    let Some(found) = ask(solver, goal, enc, stats, deadline) else { return Vec::new() };
    let reads = enc.kept_reads(r);
    let waits = enc.kept_waits(r);
    let enc: &Encoder = enc;
    let with_waits =
        |solver: &mut Z3Solver, goal: Formula, found: (Vec<i64>, Vec<bool>), stats: &mut McrStats| match &waits {
            Some(kept) => ask(solver, &Formula::and(vec![goal, kept.clone()]), enc, stats, deadline).unwrap_or(found),
            None => found,
        };
    let (pos, vars) = with_waits(solver, goal.clone(), found, stats);
    let mut out = vec![(pos, vars, vec![r])];
    if let Some((reads, kept)) = reads {
        let keeping = Formula::and(vec![goal.clone(), kept]);
        if let Some(m) = ask(solver, &keeping, enc, stats, deadline) {
            let (pos, vars) = with_waits(solver, keeping, m, stats);
            out.push((pos, vars, std::iter::once(r).chain(reads).collect()));
        }
    }
    out
}

/// Queue a new schedule prefix unless it was queued before (race prefixes go
/// first: they end at a report).
fn enqueue(seen: &mut HashSet<Prefix>, worklist: &mut VecDeque<Prefix>, new: Prefix, front: bool) {
    let fresh = seen.insert(new.clone());
    tracing::trace!(steps = ?new.steps.iter().map(|t| t.to_string()).collect::<Vec<_>>(), new = fresh, "mcr: prefix");
    if fresh {
        if front {
            worklist.push_front(new);
        } else {
            worklist.push_back(new);
        }
    }
}

/// Why a finished exploration still cannot claim every state was covered.
fn incompleteness(s: &McrStats) -> Option<String> {
    if s.executions > 0 && s.infeasible == s.executions {
        return Some(
            "every execution stopped at a false assumption (__VERIFIER_assume or assume_abort_if_not) with the fixed \
             program inputs, so nothing was checked; choose other inputs with --seed or --input"
                .into(),
        );
    }
    if s.bounded > 0 {
        return Some(format!("{} executions were cut by --max-steps", s.bounded));
    }
    if s.divergences > 0 {
        return Some(format!("{} computed schedules did not replay (an imprecision of causa's model)", s.divergences));
    }
    if s.unknown_queries > 0 {
        return Some(format!("the solver gave up on {} queries", s.unknown_queries));
    }
    if !s.cut_short.is_empty() {
        let what: Vec<&str> = s.cut_short.iter().copied().collect();
        return Some(format!("not every state is covered: {}", what.join("; ")));
    }
    if !s.approximations.is_empty() {
        let what: Vec<&str> = s.approximations.iter().copied().collect();
        return Some(format!(
            "this version of `causa check` models some of the program's operations only approximately (keeping their \
             original order instead of exploring them), so not every state is covered: {}",
            what.join("; ")
        ));
    }
    None
}

/// What the constraint model sees of `ex`, whose first `prefix_len` events
/// followed a fixed prefix: its events, then the flushes of the stores it left
/// buffered when it stopped and the operations its blocked threads wait to
/// perform after a deadlock (other orders may let them happen), under the
/// memory model it ran with.
pub fn trace_of(ex: &Execution, prefix_len: usize) -> Trace {
    // A step that fails (a use after free) records no event: a prefix that
    // ends with it counts one step more than the run has events, and the
    // model's next event is then what the stop cut off (a join waiting for
    // the failing thread), which is no part of the prefix.
    model_trace(ex, &ex.model_events(), prefix_len.min(ex.events.len()))
}

/// What the constraint model needs of a failing `ex` to reach its failure
/// again ([`crate::minimize`]): its events and, after a deadlock, the
/// blocked operations; not what the stop cut off, which comes after it.
pub fn failure_trace(ex: &Execution) -> Trace {
    model_trace(ex, &[ex.events.as_slice(), &ex.blocked].concat(), 0)
}

/// The trace of `events` (`ex`'s, with what it adds after them): its bulk
/// bytes, memory model and stack frame deaths.
fn model_trace(ex: &Execution, events: &[causa_core::Event], prefix_len: usize) -> Trace {
    Trace::from_run(events, &ex.bulk, prefix_len).under(ex.memory_model, events).with_deaths(events, &ex.deaths)
}

/// A schedule prefix: steps by thread name, some of which flush a buffered
/// store (TSO/PSO).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Prefix {
    pub steps: Vec<ThreadName>,
    /// The steps that flush a store of their thread, with its address.
    pub flushes: BTreeMap<usize, u64>,
}

impl Prefix {
    /// The whole schedule of `ex`.
    pub fn of(ex: &Execution) -> Prefix {
        Prefix { steps: ex.schedule_steps(), flushes: ex.flushes.clone() }
    }

    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The first `n` steps.
    pub fn truncated(&self, n: usize) -> Prefix {
        let flushes = self.flushes.range(..n).map(|(k, v)| (*k, *v)).collect();
        Prefix { steps: self.steps[..n.min(self.steps.len())].to_vec(), flushes }
    }

    /// Follow the prefix, then continue without preemption.
    pub fn scheduler(&self) -> ReplayScheduler {
        self.then(FirstScheduler::new())
    }

    /// Follow the prefix, then continue without preemption, the program's
    /// end last ([`FirstScheduler::exit_last`]): how MCR's executions go on.
    pub fn exploring_scheduler(&self) -> ReplayScheduler {
        self.then(FirstScheduler::exit_last(EXIT_DELAY).with_turns(TURN))
    }

    fn then(&self, fallback: FirstScheduler) -> ReplayScheduler {
        ReplayScheduler::new(self.steps.clone()).with_flushes(self.flushes.clone()).with_fallback(Box::new(fallback))
    }
}

/// The schedule prefix that runs `events` (trace indices, in order) of `ex`:
/// a buffered store's event is the flush of that store.
pub fn prefix_of(ex: &Execution, trace: &Trace, events: &[usize]) -> Prefix {
    let mut p = Prefix::default();
    for &e in events {
        if trace.relaxed.as_ref().is_some_and(|r| r.buffered[e]) {
            // A store flushed in `ex` or left in its buffer ([`Execution::unflushed`]).
            if let Op::Write { loc, .. } = trace.events[e].op {
                p.flushes.insert(p.steps.len(), loc);
            }
        }
        p.steps.push(ex.names[trace.events[e].thread as usize].clone());
    }
    p
}

/// Run `prefix` exactly, then continue as MCR does ([`Prefix::exploring_scheduler`]);
/// and whether a thread had to pass the processor on after its turn
/// ([`TURN`]).
pub fn run_prefix(prep: &Arc<Prepared>, cfg: &Arc<Config>, prefix: &Prefix) -> (Execution, bool) {
    let mut sched = prefix.exploring_scheduler();
    sched.begin_execution();
    let ex = Machine::new(prep.clone(), cfg.clone()).run(&mut sched);
    (ex, sched.passed_turns())
}

#[cfg(test)]
mod tests {
    use super::{polls, POLL_READS};
    use causa_constraints::{Op, Trace, TraceEvent};

    fn read(thread: u32, loc: u64, value: u128) -> TraceEvent {
        TraceEvent { thread, op: Op::Read { loc, value } }
    }

    fn write(thread: u32, loc: u64, value: u128) -> TraceEvent {
        TraceEvent { thread, op: Op::Write { loc, value } }
    }

    #[test]
    fn a_thread_rereading_one_value_it_does_not_write_polls() {
        let trace = |events: Vec<TraceEvent>| Trace::new(events, Default::default());
        // Thread 1 reads the flag at 8 as 0 again and again, and counts at 16.
        let waiting: Vec<TraceEvent> = (0..POLL_READS)
            .flat_map(|i| [read(1, 8, 0), read(1, 16, i as u128), write(1, 16, i as u128 + 1)])
            .collect();
        assert!(polls(&trace(waiting.clone())));
        // One read fewer: not yet.
        assert!(!polls(&trace(waiting[3..].to_vec())));
        // The flag read as another value once: it changed, so not a wait.
        let mut changed = waiting.clone();
        changed.push(read(1, 8, 1));
        assert!(!polls(&trace(changed)));
        // A thread that writes what it reads (its own array) is working.
        let working: Vec<TraceEvent> = (0..2 * POLL_READS).flat_map(|_| [read(0, 24, 5), write(0, 24, 5)]).collect();
        assert!(!polls(&trace(working)));
        // Another thread writing the flag does not matter: thread 1 still
        // saw one value only.
        let mut other = waiting;
        other.push(write(2, 8, 1));
        assert!(polls(&trace(other)));
    }
}
