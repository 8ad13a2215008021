//! Path-guided schedule search: CLAP §7's generate-and-validate, validated
//! by execution.
//!
//! CLAP splits its constraints: generate candidate orders of the access
//! points by growing number of context switches, and validate each one (a
//! fixed order decides every read's value, so validation is a scan). Here the
//! candidates are the schedules of the interpreter itself, enumerated
//! depth-first with a preemption bound of 0, 1, 2, … (iterative context
//! bounding, [`DfsScheduler::with_preemption_bound`]), and validation happens
//! while the schedule runs: every thread follows its recorded path
//! ([`causa_interp::Config::follow`]), so a schedule under which some thread
//! would branch differently from its log ends at that branch, and with it
//! every schedule that shares its prefix. The first schedule that fails as
//! the log says is the answer; when every smaller bound was explored to the
//! end, it has the fewest preemptions of all schedules that follow the paths.
//!
//! Being the interpreter, the search needs no model of the failure: it
//! reproduces every kind of failure, including those the solver does not
//! model (invalid pthread use in general, dead stack frames, failures in
//! library functions the symbolic executor lacks), and every library
//! function the interpreter knows.
//! Its cost grows with the number of preemptions the failure needs (the
//! schedules with `c` preemptions number about `(steps · threads)^c`; each
//! one resumes from a machine saved by an earlier one, [`Snapshots`], so it
//! runs only its own steps and a logarithmic number of shared ones), so it
//! has a budget of interpreted steps over all its schedules, and the solver
//! takes over beyond it.

use crate::snapshots::Snapshots;
use crate::DfsScheduler;
use causa_core::paths::ThreadPath;
use causa_core::{Finding, ScheduleError, Scheduler};
use causa_interp::{Config, Execution, InterpError, Outcome, Prepared};
use std::sync::Arc;

/// Bounds of [`search`].
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// The largest preemption bound tried.
    pub max_preemptions: usize,
    /// Visible steps run over all schedules (the search's cost: about
    /// 2–5 million per second; the steps a schedule shares with a saved
    /// machine are not run, see [`crate::snapshots`]).
    pub max_steps: u64,
}

/// The default budget of [`SearchOptions::max_steps`].
pub const DEFAULT_SEARCH_STEPS: u64 = 20_000_000;

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions { max_preemptions: 6, max_steps: DEFAULT_SEARCH_STEPS }
    }
}

/// What the search did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Schedules run (over all bounds).
    pub executions: usize,
    /// Visible steps run (a schedule resumed from a saved machine runs only
    /// the steps after it).
    pub steps: u64,
    /// The search stopped because its budget of steps ran out.
    pub out_of_budget: bool,
    /// Of those, the ones that ended because a thread left its recorded path.
    pub pruned: usize,
    /// Of those, the ones cut at a state reached before.
    pub merged: usize,
    /// The preemption bound of the last round.
    pub bound: usize,
    /// Every schedule with at most this many preemptions was run (`None`:
    /// not even the non-preemptive ones).
    pub complete_up_to: Option<usize>,
}

/// A schedule found by [`search`].
pub struct Found {
    /// The failing execution (without readable records).
    pub execution: Execution,
    /// Its preemptions, as the bound counts them: the fewest of all
    /// schedules that follow the paths to the failure (every smaller bound
    /// was explored to the end, else the search stops before this one).
    pub preemptions: usize,
}

/// What a reproduction must end with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The failure a log records: [`same_failure`].
    Failure(Finding),
    /// A deadlock, in any thread and anywhere: a native run stopped from
    /// outside before it ended ([`causa_core::paths::PathLog::interrupted`]),
    /// whose threads' paths end where they were blocked when it hung.
    Hang,
}

impl Target {
    pub fn matches(&self, got: &Finding) -> bool {
        match self {
            Target::Failure(want) => same_failure(got, want),
            Target::Hang => got.kind == causa_core::BugKind::Deadlock,
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Failure(w) => f.write_str(&described(w)),
            Target::Hang => f.write_str("a deadlock (the recorded run was stopped while it hung)"),
        }
    }
}

/// `deadlock in thread 0.1 at bank.c:14:5`: a finding's kind, thread and
/// location.
pub fn described(f: &Finding) -> String {
    let at = f.location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
    format!("{} in thread {}{at}", f.kind, f.thread)
}

/// Search the schedules of `prep` in which every thread follows `paths` for
/// one that ends with `want`. `cfg` gives the limits, argv and memory model.
pub fn search(
    prep: &Arc<Prepared>,
    cfg: &Config,
    paths: &[ThreadPath],
    want: &Target,
    opts: &SearchOptions,
) -> (Option<Found>, SearchStats) {
    let cfg = Arc::new(Config {
        follow: Some(Arc::new(paths.to_vec())),
        state_digest: true,
        keep_records: false,
        inputs: Vec::new(),
        ..cfg.clone()
    });
    let mut stats = SearchStats::default();
    for bound in 0..=opts.max_preemptions {
        stats.bound = bound;
        let mut dfs = DfsScheduler::with_preemption_bound(bound).with_state_cache();
        let mut snapshots = Snapshots::new();
        while stats.steps < opts.max_steps && dfs.begin_execution() {
            let skipped = snapshots.skipped_steps;
            let ex = snapshots.run(prep, &cfg, &mut dfs);
            stats.executions += 1;
            stats.steps += ex.steps.len() as u64 - (snapshots.skipped_steps - skipped);
            match &ex.outcome {
                Outcome::Bug(f) if want.matches(f) => {
                    return (Some(Found { execution: ex, preemptions: dfs.preemptions() }), stats);
                }
                Outcome::Infeasible(_) => stats.pruned += 1,
                Outcome::Error(InterpError::Schedule(ScheduleError::Pruned { .. })) => stats.merged += 1,
                _ => {}
            }
        }
        if !dfs.is_complete() {
            stats.out_of_budget = true;
            break;
        }
        stats.complete_up_to = Some(bound);
        if !dfs.was_bounded() {
            // No schedule has more preemptions: the search space is exhausted.
            break;
        }
    }
    (None, stats)
}

/// The failure the log records: same kind, thread and location (any
/// location when the log has none: a native crash outside the program's own
/// code or without debug information; the same line when it has a
/// line-precise one, column 0: a native crash located from the executable).
pub fn same_failure(got: &Finding, want: &Finding) -> bool {
    let place = match (&want.location, &got.location) {
        (None, _) => true,
        // Line-precise (a native crash's location, see causa-record's
        // symbolize): the same line of the same file.
        (Some(w), Some(g)) if w.column == 0 => w.file == g.file && w.line == g.line,
        (w, g) => w == g,
    };
    got.kind == want.kind && got.thread == want.thread && place
}
