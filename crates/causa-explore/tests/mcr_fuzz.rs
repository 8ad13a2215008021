//! MCR against the exhaustive DFS oracle on generated programs
//! (`support/gen.rs`: two workers and main sharing globals, an array, two
//! mutexes, a condition variable and atomic updates; some with a semaphore,
//! a heap block or fences). For each program:
//! - with `all_outcomes`, MCR reaches exactly DFS's outcomes (how each run
//!   ended and, for runs that exit, the final values of all globals, which
//!   main reads), with no schedule that fails to replay;
//! - the plain check (what `causa check` runs, without its random probes)
//!   says bug exactly when some DFS execution ends in one, and never
//!   "verified" otherwise.
//!
//! Three sets of programs: the first generator's (`MCR_FUZZ_…`, seeds
//! 200–239 by default: seed 211 failed before a prefix stopped fixing its
//! events' order, and 108 did too); with a semaphore and a heap block any
//! thread may free (`MCR_FUZZ_EXT_…`, seeds 0–39: seed 9 found a prefix
//! that counted an event the run never had); with fences, under TSO and
//! PSO (`MCR_FUZZ_TSO_…`, `MCR_FUZZ_PSO_…`, seeds 0–19). `…_CASES=N` runs
//! N programs and `…_FIRST=S` starts at seed S; a longer run:
//! `MCR_FUZZ_EXT_FIRST=40 MCR_FUZZ_EXT_CASES=400 cargo test --release -p
//! causa-explore --test mcr_fuzz -- --nocapture semaphores`.
//! `MCR_FUZZ_DFS_LIMIT` (default 100,000) is the most DFS executions a
//! program may need to be compared. A failure prints the seed and the
//! program; `MCR_FUZZ_SRC=file.c` compares on one program (cut down by
//! hand; `MCR_FUZZ_MODEL=tso` or `pso` for another memory model),
//! `MCR_FUZZ_SHOW=1` prints every program.
//!
//! Without clang-14 these tests fail and say what to install.

#[path = "support/gen.rs"]
mod gen;
#[path = "support/oracle.rs"]
mod oracle;

use causa_core::collections::HashSet;
use causa_core::MemoryModel;
use causa_explore::mcr::{check, McrOptions, McrVerdict};
use causa_interp::Config;
use oracle::{config_under, dfs_outcomes, load};

/// Programs DFS needs more executions for are left out (and counted): DFS
/// explores every interleaving, some of the generated programs have
/// millions.
const DFS_LIMIT: usize = 100_000;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// What went wrong with one program, if anything (`dfs`: what DFS saw).
fn differs(prep: &std::sync::Arc<causa_interp::Prepared>, dfs: &oracle::DfsOutcomes, cfg: &Config) -> Option<String> {
    let all = check(prep, cfg, &McrOptions { all_outcomes: true, ..McrOptions::default() }, &mut |_, _| {});
    if let McrVerdict::Error(e) = &all.verdict {
        return Some(format!("MCR failed: {e}"));
    }
    if all.stats.divergences > 0 {
        return Some(format!("{} MCR schedules did not replay", all.stats.divergences));
    }
    // Final values count only where main read them all, at its exit: a
    // run that stops at a failure or a deadlock leaves values no read saw,
    // which MCR does not tell apart. Those outcomes are compared by how
    // the run ended only.
    let seen = |outcomes: &HashSet<(String, Option<u64>)>| {
        outcomes
            .iter()
            .map(|(how, state)| (how.clone(), state.filter(|_| how.starts_with("exit "))))
            .collect::<HashSet<_>>()
    };
    let (mcr_seen, dfs_seen) = (seen(&all.outcomes), seen(&dfs.outcomes));
    if mcr_seen != dfs_seen {
        let missed: Vec<_> = dfs_seen.difference(&mcr_seen).collect();
        let extra: Vec<_> = mcr_seen.difference(&dfs_seen).collect();
        return Some(format!("outcomes differ: MCR misses {missed:?}; only MCR reaches {extra:?}"));
    }
    let plain = check(prep, cfg, &McrOptions::default(), &mut |_, _| {});
    match (&plain.verdict, dfs.bug) {
        (McrVerdict::Bug(_), true) | (McrVerdict::Verified, false) => None,
        (v, bug) => Some(format!(
            "the check's verdict is {} and DFS {} a bug ({} executions)",
            match v {
                McrVerdict::Bug(_) => "bug".to_string(),
                McrVerdict::Verified => "verified".to_string(),
                McrVerdict::Unknown(why) => format!("unknown ({why})"),
                McrVerdict::Error(e) => format!("error ({e})"),
            },
            if bug { "finds" } else { "finds no" },
            dfs.executions
        )),
    }
}

/// `MCR_FUZZ_SRC=file.c`: compare on that program instead (to look at a
/// program found by the generator, cut down by hand).
#[test]
fn mcr_reaches_what_dfs_reaches_on_a_given_program() {
    let Ok(path) = std::env::var("MCR_FUZZ_SRC") else { return };
    let src = std::fs::read_to_string(&path).expect("MCR_FUZZ_SRC names a readable file");
    let model = match std::env::var("MCR_FUZZ_MODEL").as_deref() {
        Ok("tso") => MemoryModel::Tso,
        Ok("pso") => MemoryModel::Pso,
        _ => MemoryModel::Sc,
    };
    let prep = load("given.c", &src);
    let dfs = dfs_outcomes(&prep, usize::MAX, config_under(model)).expect("no limit");
    eprintln!("DFS: {} executions, bug: {}", dfs.executions, dfs.bug);
    assert_eq!(differs(&prep, &dfs, &config_under(model)), None, "{path}");
}

#[test]
fn mcr_reaches_what_dfs_reaches_on_generated_programs() {
    compare_generated("MCR_FUZZ", (200, 40), gen::Features::all(), MemoryModel::Sc);
}

/// The same with a semaphore and a heap block any thread may free (double
/// frees, uses after free, waits that block for good).
/// `MCR_FUZZ_EXT_FIRST`/`MCR_FUZZ_EXT_CASES` as above.
#[test]
fn mcr_reaches_what_dfs_reaches_on_generated_programs_with_semaphores_and_the_heap() {
    compare_generated("MCR_FUZZ_EXT", (0, 40), gen::Features::extended(), MemoryModel::Sc);
}

/// With a reader-writer lock and a barrier for two (`MCR_FUZZ_SYNC_…`).
#[test]
fn mcr_reaches_what_dfs_reaches_on_generated_programs_with_rwlocks_and_barriers() {
    compare_generated("MCR_FUZZ_SYNC", (0, 20), gen::Features::sync(), MemoryModel::Sc);
}

/// Under TSO and PSO, with fences (DFS takes every flush of a buffered
/// store as a step of its own). `MCR_FUZZ_TSO_…` and `MCR_FUZZ_PSO_…`.
#[test]
fn mcr_reaches_what_dfs_reaches_on_generated_programs_under_tso_and_pso() {
    compare_generated("MCR_FUZZ_TSO", (0, 20), gen::Features::relaxed(), MemoryModel::Tso);
    compare_generated("MCR_FUZZ_PSO", (0, 20), gen::Features::relaxed(), MemoryModel::Pso);
}

/// Compares `{var}_CASES` programs from seed `{var}_FIRST` (by default
/// `cases` from `first`) made with `features`, run under `model`.
fn compare_generated(var: &str, (first, cases): (u64, u64), features: gen::Features, model: MemoryModel) {
    let cfg = config_under(model);
    let first = env_or(&format!("{var}_FIRST"), first);
    let cases = env_or(&format!("{var}_CASES"), cases);
    let limit = env_or("MCR_FUZZ_DFS_LIMIT", DFS_LIMIT as u64) as usize;
    let mut failures = Vec::new();
    let (mut bugs, mut dfs_runs, mut too_large) = (0, 0, 0);
    for seed in first..first + cases {
        let src = gen::program(seed, features);
        if std::env::var("MCR_FUZZ_SHOW").is_ok() {
            eprintln!("seed {seed}:\n{src}");
        }
        let started = std::time::Instant::now();
        let prep = load(&format!("fuzz_{seed}.c"), &src);
        let Some(dfs) = dfs_outcomes(&prep, limit, cfg.clone()) else {
            eprintln!("seed {seed}: left out, DFS needs more than {limit} executions");
            too_large += 1;
            continue;
        };
        let dfs_time = started.elapsed();
        let wrong = differs(&prep, &dfs, &cfg);
        eprintln!(
            "seed {seed}: DFS {} executions in {dfs_time:.2?}, bug: {}; MCR {:.2?}",
            dfs.executions,
            dfs.bug,
            started.elapsed() - dfs_time
        );
        bugs += usize::from(dfs.bug);
        dfs_runs += dfs.executions;
        if let Some(what) = wrong {
            eprintln!("seed {seed}: {what}\n{src}");
            failures.push(seed);
        }
    }
    let compared = cases as usize - too_large;
    println!(
        "{cases} programs from seed {first} ({model:?}): {compared} compared ({bugs} with a bug), {too_large} left out as too \
         large for DFS, {dfs_runs} DFS executions in all"
    );
    // Most programs are compared, and they exercise both verdicts.
    assert!(too_large * 4 <= cases as usize, "{too_large} of {cases} programs were too large for DFS");
    assert!(cases < 20 || (bugs > 0 && bugs < compared), "{bugs} of {compared} programs have a bug");
    assert!(failures.is_empty(), "MCR differs from DFS on seeds {failures:?} (programs above)");
}
