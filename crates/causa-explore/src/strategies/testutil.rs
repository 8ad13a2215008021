//! Helpers for the strategy tests: hand-built contexts and a tiny simulated program.

use causa_core::{PickContext, Scheduler, ThreadName, Tid};

/// Names `0, 0.1, 0.2, …` for `n` threads (main and its children).
pub(crate) fn names(n: u32) -> Vec<ThreadName> {
    let main = ThreadName::main();
    std::iter::once(main.clone()).chain((1..n).map(|j| main.child(j))).collect()
}

/// A context for step `step`.
pub(crate) fn ctx<'a>(
    step: usize,
    enabled: &'a [Tid],
    current: Option<Tid>,
    names: &'a [ThreadName],
) -> PickContext<'a> {
    PickContext {
        yielded: None,
        step,
        enabled,
        current,
        names,
        flushes: &[],
        state: None,
        ends_program: &|_| false,
        parked: &|_| false,
    }
}

/// Runs `executions` executions of a program whose thread `t` takes `budgets[t]`
/// visible steps and is enabled until it has; returns the picked `Tid`s of each.
/// Checks that every pick is enabled and that `begin_execution` agrees to run.
pub(crate) fn simulate(s: &mut dyn Scheduler, budgets: &[usize], executions: usize) -> Vec<Vec<Tid>> {
    let names = names(budgets.len() as u32);
    let mut runs = Vec::new();
    for _ in 0..executions {
        assert!(s.begin_execution(), "{} refused to start an execution", s.name());
        let mut left = budgets.to_vec();
        let mut picks: Vec<Tid> = Vec::new();
        loop {
            let enabled: Vec<Tid> = (0..left.len() as Tid).filter(|&t| left[t as usize] > 0).collect();
            if enabled.is_empty() {
                break;
            }
            let current = picks.last().copied().filter(|t| enabled.contains(t));
            let t = s.pick_thread(&ctx(picks.len(), &enabled, current, &names)).unwrap();
            assert!(enabled.contains(&t), "picked {t}, not in {enabled:?}");
            left[t as usize] -= 1;
            picks.push(t);
        }
        s.end_execution(picks.len());
        runs.push(picks);
    }
    runs
}

/// Number of preemptions in a run of [`simulate`]: switches away from a thread that
/// still had steps left.
pub(crate) fn preemptions(picks: &[Tid], budgets: &[usize]) -> usize {
    let mut left = budgets.to_vec();
    let mut count = 0;
    for w in picks.windows(2) {
        left[w[0] as usize] -= 1;
        if w[0] != w[1] && left[w[0] as usize] > 0 {
            count += 1;
        }
    }
    count
}
