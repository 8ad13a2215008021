//! Explaining a failure (issue 6, in progress): the few events and data flows
//! that make the difference between a failing schedule and the most similar
//! schedule that does not fail — a differential schedule projection (DSP,
//! Symbiosis TOSEM'16 §3.6; notes `symbiosis.md` §6, `maxsmt.md` §2.3).
//!
//! So far, Symbiosis mode: the failing execution's paths are executed
//! symbolically ([`causa_symbolic::execute`]), the root cause and an
//! alternate schedule come from [`causa_symbolic::symbiosis`], the alternate
//! schedule is replayed in the interpreter to confirm it does not fail, and
//! the DSP is the data flows that differ between the two schedules, with the
//! events they touch and the inverted pair.

use causa_core::{Scheduler, ThreadName};
use causa_explore::{run_once, FirstScheduler, ReplayScheduler};
use causa_interp::{Config, Execution, Outcome, Prepared};
use causa_symbolic::symbiosis::{data_flows, EventRef};
use causa_symbolic::{ClapError, SymError, SymOp, SymTrace, SymbiosisOptions};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why no explanation was computed.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    #[error("the execution did not fail: there is nothing to explain")]
    NoFailure,
    #[error("symbolic execution of the failing run: {0}")]
    Symbolic(#[from] SymError),
    #[error("{0}")]
    Model(#[from] ClapError),
    #[error("explaining a failure under {0} is not supported yet (only sequential consistency)")]
    MemoryModel(causa_core::MemoryModel),
}

/// A read's source of data in a schedule: the write it reads (None: the
/// initial value).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Flow {
    pub read: EventRef,
    pub write: Option<EventRef>,
}

/// The differential schedule projection of a failing and an alternate schedule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dsp {
    /// Data flows of the failing schedule the alternate does not have.
    pub failing_only: Vec<Flow>,
    /// Data flows of the alternate schedule the failing one does not have.
    pub alternate_only: Vec<Flow>,
    /// The events the projection shows: those of the differing data flows and
    /// the inverted pair, in failing order.
    pub events: Vec<EventRef>,
}

/// What an event of the explanation is, for display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventInfo {
    /// `read`, `write`, `update`, `lock`, `begin`, …
    pub op: &'static str,
    /// The memory or synchronisation object, when it has an address.
    pub addr: Option<u64>,
    pub loc: Option<causa_core::SourceLoc>,
}

/// An explanation of one failure.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// Thread names, by the thread index of [`EventRef`].
    pub threads: Vec<ThreadName>,
    /// Every event of every thread, by [`EventRef`] (`info[t][k]`).
    pub info: Vec<Vec<EventInfo>>,
    /// The failing schedule the explanation works on (access points in
    /// order, ending at the failure).
    pub failing: Vec<EventRef>,
    /// Whether `failing` is the run's own order (else the solver's, on the
    /// run's paths, with the fewest context switches).
    pub failing_from_run: bool,
    /// Symbiosis' root-cause sub-schedule.
    pub root_cause: Vec<EventRef>,
    /// The inverted pair and the alternate schedule, when one was found.
    pub alternate: Option<(EventRef, EventRef, Vec<EventRef>)>,
    /// The alternate schedule replayed in the interpreter: how it ended.
    pub alternate_outcome: Option<Outcome>,
    pub dsp: Dsp,
    pub pairs_tried: usize,
    pub queries: u64,
    pub solve_time: Duration,
    pub total_time: Duration,
}

/// Explain the failure of `ex`, an execution of `prep` run with
/// `Config::record_paths` (its paths are what is executed symbolically).
pub fn explain(prep: &Arc<Prepared>, cfg: &Config, ex: &Execution) -> Result<Explanation, ExplainError> {
    let start = Instant::now();
    if ex.outcome.finding().is_none() {
        return Err(ExplainError::NoFailure);
    }
    if ex.memory_model != causa_core::MemoryModel::Sc {
        return Err(ExplainError::MemoryModel(ex.memory_model));
    }
    let log = causa_explore::reproduce::path_log(prep, ex, "explain", cfg.argv.clone());
    let sym = causa_symbolic::execute(&prep.program, &log)?;
    let run_steps = ex.steps.iter().map(|t| ex.names[*t as usize].clone()).collect();
    let s = causa_symbolic::symbiosis(&sym, &SymbiosisOptions { run_steps: Some(run_steps), ..Default::default() })?;
    let threads: Vec<ThreadName> = sym.threads.iter().map(|t| t.thread.clone()).collect();
    let (alternate_outcome, dsp) = match &s.alternate {
        Some((a, b, alt)) => {
            let mut cfg = cfg.clone();
            // The inputs in the order the failing run read them (an
            // alternate order of threads reading inputs is not handled yet).
            cfg.inputs = ex.inputs.clone();
            let run = replay_order(prep, &cfg, &sym, alt);
            (Some(run.outcome), projection(&sym, &s.failing, alt, &[*a, *b]))
        }
        None => (None, Dsp::default()),
    };
    let info = sym
        .threads
        .iter()
        .map(|t| t.events.iter().map(|e| event_info(&prep.program, &e.op, e.loc)).collect())
        .collect();
    Ok(Explanation {
        threads,
        info,
        failing: s.failing,
        failing_from_run: s.failing_from_run,
        root_cause: s.root_cause,
        alternate: s.alternate,
        alternate_outcome,
        dsp,
        pairs_tried: s.pairs_tried,
        queries: s.queries,
        solve_time: s.solve_time,
        total_time: start.elapsed(),
    })
}

fn event_info(program: &causa_ir::Program, op: &SymOp, loc: causa_ir::LocId) -> EventInfo {
    let (op, addr) = match op {
        SymOp::Begin => ("begin", None),
        SymOp::End => ("end", None),
        SymOp::Read { addr, .. } => ("read", Some(*addr)),
        SymOp::Write { addr, .. } => ("write", Some(*addr)),
        SymOp::Rmw { addr, .. } => ("update", Some(*addr)),
        SymOp::Free { object, .. } => ("free", Some(*object)),
        SymOp::Lock { mutex, .. } => ("lock", Some(*mutex)),
        SymOp::Unlock { mutex } => ("unlock", Some(*mutex)),
        SymOp::Wait { .. } => ("wait", None),
        SymOp::WaitReturn { .. } => ("wake", None),
        SymOp::Signal { .. } => ("signal", None),
        SymOp::Broadcast { .. } => ("broadcast", None),
        SymOp::SemWait { .. } => ("sem_wait", None),
        SymOp::SemPost { .. } => ("sem_post", None),
        SymOp::Arrive { .. } => ("barrier", None),
        SymOp::Depart { .. } => ("barrier exit", None),
        SymOp::Fork { .. } => ("fork", None),
        SymOp::Join { .. } => ("join", None),
        SymOp::AtomicBegin => ("atomic begin", None),
        SymOp::AtomicEnd => ("atomic end", None),
        SymOp::Fence => ("fence", None),
        SymOp::Fail { .. } => ("failure", None),
    };
    EventInfo { op, addr, loc: program.loc(loc).cloned() }
}

/// Run `order` (access points) in the interpreter, then let the program
/// finish with the first runnable thread at each step.
fn replay_order(prep: &Arc<Prepared>, cfg: &Config, sym: &SymTrace, order: &[EventRef]) -> Execution {
    let steps: Vec<ThreadName> = order.iter().map(|(t, _)| sym.threads[*t].thread.clone()).collect();
    let mut sched = ReplayScheduler::new(steps).with_fallback(Box::new(FirstScheduler::new()));
    sched.begin_execution();
    run_once(prep, &Arc::new(cfg.clone()), &mut sched)
}

/// The DSP of `failing` against `alternate` (`pair`: the inverted events).
pub fn projection(sym: &SymTrace, failing: &[EventRef], alternate: &[EventRef], pair: &[EventRef]) -> Dsp {
    let flows = |order: &[EventRef]| -> BTreeSet<Flow> {
        data_flows(sym, order).into_iter().map(|(read, write)| Flow { read, write }).collect()
    };
    let (f, a) = (flows(failing), flows(alternate));
    let failing_only: Vec<Flow> = f.difference(&a).cloned().collect();
    let alternate_only: Vec<Flow> = a.difference(&f).cloned().collect();
    let mut shown: BTreeSet<EventRef> = pair.iter().copied().collect();
    for fl in failing_only.iter().chain(&alternate_only) {
        shown.insert(fl.read);
        shown.extend(fl.write);
    }
    let events = failing.iter().copied().filter(|e| shown.contains(e)).collect();
    Dsp { failing_only, alternate_only, events }
}
