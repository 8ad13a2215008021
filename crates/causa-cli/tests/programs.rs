//! The C program corpus under `tests/programs/`: every file states its
//! expectation in `// causa:` header lines; this one harness checks them all.
//!
//! - `expect=bug:<kind>`: `causa test` (random by default, or the header's
//!   `flags=`) must find a bug of that kind (at `at-line`, with `message`), and
//!   replaying the saved schedule must give the same bug at the same step.
//!   Then the failing execution is run again recording its paths, and
//!   `causa reproduce` must compute, from the path log alone, a schedule that
//!   fails the same way (confirmed by replay): the default method (the
//!   path-guided search, the solver after it) always, and the solver alone
//!   too — unless the header says `solver-unsupported=<text>`: the solver
//!   must then fail with an error containing that text (what its model does
//!   not cover yet, named).
//! - `expect=no-bug`: no execution of `causa test` may find a bug or fail, and the
//!   non-preemptive run must print every `stdout=` line.
//! - `expect=error:<code>`: loading the program must fail with that code.
//!
//! Other header lines: `at-line=` (a line, or lines the bug may be at:
//! `at-line=17,18`), `message=`, `stdout=` (repeatable), `input=`,
//! `iterations=`, `flags=` (`--strategy`, `--depth`, `--seed`, `--iterations`) and
//! `cflags=` (extra clang flags, e.g. `-m32`) and `check=bug|verified|unknown`
//! (also run `causa check`, which must give that verdict, and for a bug the
//! kind of `expect=`), `check-max-executions=N` (bound that check),
//! `check-cflags=` (extra clang flags for the check only:
//! a smaller instance of a program whose full size is beyond the check's
//! budget in the test suite; `bench/check.sh` runs the full size).
//!
//! `tso=` and `pso=` (`bug:<kind>` or `verified`): under that memory model
//! `causa check` must give that verdict (a bug's schedule, with its flushes,
//! must replay to the same bug, and `causa reproduce` must reproduce it from
//! the paths of that execution, recorded under the same model), and the exhaustive DFS oracle under the same
//! model must agree: it reaches the bug exactly when one is expected, and when
//! it finishes, MCR reaches exactly its set of outcomes.
//!
//! Without clang-14 the harness fails and says what to install.

use causa_core::collections::HashSet;
use causa_core::{BugKind, Finding, MemoryModel, Schedule, Scheduler};
use causa_explore::mcr::{check as mcr_check, outcome_key, McrOptions, McrResult, McrVerdict};
use causa_explore::reproduce::{path_log, reproduce, Method, ReproduceOptions};
use causa_explore::{replay, run_once, schedule_of, test, DfsScheduler, FirstScheduler, PctScheduler, RandomScheduler};
use causa_interp::{prepare, Config, Execution, Outcome, OutputMode, Prepared};
use causa_ir::{load_program, CompileOptions};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

#[derive(Debug, Default)]
struct Header {
    expect: String,
    /// Lines the bug may be at (`at-line=17,18`: either).
    at_line: Vec<u32>,
    strategy: Option<String>,
    depth: Option<u32>,
    seed: Option<u64>,
    iterations: Option<usize>,
    input: Vec<i128>,
    stdout: Vec<String>,
    message: Option<String>,
    cflags: Vec<String>,
    /// Expected `causa check` verdict (`bug`, `verified`, `unknown`), if checked.
    check: Option<String>,
    /// Extra clang flags for the check only.
    check_cflags: Vec<String>,
    /// `--max-executions` for the check (a program whose exploration does not
    /// end: `check=unknown` must then name this bound).
    check_max_executions: Option<usize>,
    /// Why `causa reproduce --method solver` cannot reproduce this bug yet
    /// (a part of its error message).
    solver_unsupported: Option<String>,
    /// Expected verdicts under relaxed memory models.
    relaxed: Vec<(MemoryModel, String)>,
}

fn parse_header(text: &str) -> Result<Header, String> {
    let mut h = Header::default();
    for line in text.lines().take_while(|l| l.starts_with("//") || l.trim().is_empty()) {
        let Some(d) = line.strip_prefix("// causa:") else {
            continue;
        };
        let d = d.trim();
        let (k, v) = d.split_once('=').ok_or_else(|| format!("bad header line `{line}`"))?;
        match k {
            "expect" => h.expect = v.to_string(),
            "at-line" => {
                for l in v.split(',') {
                    h.at_line.push(l.trim().parse().map_err(|_| format!("bad at-line `{v}`"))?);
                }
            }
            "flags" => parse_flags(v, &mut h)?,
            "iterations" => h.iterations = Some(v.parse().map_err(|_| format!("bad iterations `{v}`"))?),
            "input" => {
                h.input = v
                    .split(',')
                    .map(|x| x.trim().parse::<i128>().map_err(|_| format!("bad input `{x}`")))
                    .collect::<Result<_, _>>()?
            }
            "stdout" => h.stdout.push(v.to_string()),
            "message" => h.message = Some(v.to_string()),
            "cflags" => h.cflags = v.split_whitespace().map(str::to_string).collect(),
            "check" if ["bug", "verified", "unknown"].contains(&v) => h.check = Some(v.to_string()),
            "check-cflags" => h.check_cflags = v.split_whitespace().map(str::to_string).collect(),
            "solver-unsupported" => h.solver_unsupported = Some(v.to_string()),
            "tso" | "pso" if v == "verified" || v.starts_with("bug:") => {
                h.relaxed.push((k.parse().map_err(|e| format!("{e}"))?, v.to_string()))
            }
            "check-max-executions" => {
                h.check_max_executions = Some(v.parse().map_err(|_| format!("bad check-max-executions `{v}`"))?)
            }
            other => return Err(format!("unknown header key `{other}`")),
        }
    }
    if h.expect.is_empty() {
        return Err("missing `// causa: expect=` header".into());
    }
    Ok(h)
}

/// Parse `flags=` (the `causa test` flags a program needs): `--strategy`,
/// `--depth`, `--seed`, `--iterations`, as `--k v` or `--k=v`. Anything else is
/// an error, so a typo never silently changes what is tested.
fn parse_flags(v: &str, h: &mut Header) -> Result<(), String> {
    let words: Vec<&str> = v.split_whitespace().collect();
    let mut i = 0;
    while i < words.len() {
        let (key, value) = match words[i].split_once('=') {
            Some((k, x)) => (k, x),
            None => {
                i += 1;
                (words[i - 1], *words.get(i).ok_or_else(|| format!("flag `{}` needs a value", words[i - 1]))?)
            }
        };
        i += 1;
        let bad = || format!("bad value `{value}` for `{key}`");
        match key {
            "--strategy" if ["random", "pct", "first"].contains(&value) => h.strategy = Some(value.to_string()),
            "--depth" => h.depth = Some(value.parse().map_err(|_| bad())?),
            "--seed" => h.seed = Some(value.parse().map_err(|_| bad())?),
            "--iterations" => h.iterations = Some(value.parse().map_err(|_| bad())?),
            _ => return Err(format!("unsupported flag `{key}={value}` in `flags=`")),
        }
    }
    Ok(())
}

fn scheduler(h: &Header, seed: u64) -> Box<dyn Scheduler> {
    match h.strategy.as_deref() {
        Some("pct") => Box::new(PctScheduler::new(seed, h.depth.unwrap_or(3))),
        Some("first") => Box::new(FirstScheduler::new()),
        _ => Box::new(RandomScheduler::new(seed)),
    }
}

/// Check one program; returns a description of every mismatch.
fn check(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let h = parse_header(&text)?;
    let name = path.display().to_string();
    let loaded = load_program(std::slice::from_ref(&name), &CompileOptions { cflags: h.cflags.clone() })
        .map_err(|e| (e.code().to_string(), e.to_string()))
        .and_then(|p| prepare(p).map_err(|e| (e.code().to_string(), e.to_string())));
    if let Some(code) = h.expect.strip_prefix("error:") {
        return match loaded {
            Ok(_) => Err(format!("expected error `{code}` but the program loaded")),
            Err((c, m)) if c == code => match &h.message {
                Some(want) if !m.contains(want.as_str()) => Err(format!("error message `{m}` lacks `{want}`")),
                _ => Ok(format!("error {c}")),
            },
            Err((c, m)) => Err(format!("expected error `{code}`, got `{c}`: {m}")),
        };
    }
    let prep = Arc::new(loaded.map_err(|(c, m)| format!("failed to load ({c}): {m}"))?);
    let checked = match &h.check {
        Some(want) if !h.check_cflags.is_empty() => {
            let cflags = h.cflags.iter().chain(&h.check_cflags).cloned().collect();
            let small = load_program(std::slice::from_ref(&name), &CompileOptions { cflags })
                .map_err(|e| e.to_string())
                .and_then(|p| prepare(p).map_err(|e| e.to_string()))
                .map_err(|e| format!("failed to load with check-cflags: {e}"))?;
            let v = check_verdict(&Arc::new(small), &h, want)?;
            format!("; check ({}): {v}", h.check_cflags.join(" "))
        }
        Some(want) => format!("; check: {}", check_verdict(&prep, &h, want)?),
        None => String::new(),
    };
    let mut checked = checked;
    for (model, want) in &h.relaxed {
        checked.push_str(&format!("; {model}: {}", relaxed_verdict(&prep, &h, *model, want)?));
    }
    let cfg = Config { inputs: h.input.clone(), output: OutputMode::Capture, max_steps: 20_000, ..Config::default() };
    let cfg = Arc::new(cfg);
    let seed: u64 = h.seed.unwrap_or(0);
    if let Some(kind) = h.expect.strip_prefix("bug:") {
        let want = BugKind::from_code(kind).ok_or_else(|| format!("unknown bug kind `{kind}`"))?;
        let iterations = h.iterations.unwrap_or(1000);
        let mut sched = scheduler(&h, seed);
        let r = test(&prep, &cfg, sched.as_mut(), iterations, &mut |_| {});
        let Some((i, ex)) = r.stopped_by else {
            return Err(format!("no bug found in {} executions", r.stats.executions));
        };
        let f = match &ex.outcome {
            Outcome::Bug(f) => f,
            other => return Err(format!("execution {i} ended with {other:?}")),
        };
        if f.kind != want {
            return Err(format!("expected {want}, found {} ({}) at {:?}", f.kind, f.message, f.location));
        }
        if !h.at_line.is_empty() {
            let got = f.location.as_ref().map(|l| l.line);
            if !got.is_some_and(|g| h.at_line.contains(&g)) {
                return Err(format!("expected the {want} at line {:?}, found it at {got:?}: {}", h.at_line, f.message));
            }
        }
        if let Some(m) = &h.message {
            if !f.message.contains(m.as_str()) {
                return Err(format!("message `{}` lacks `{m}`", f.message));
            }
        }
        replays_to_same_bug(&prep, &cfg, &ex, f)?;
        let reproduced = reproduce_from_paths(&prep, &cfg, &ex, &h)?;
        return Ok(format!("{want} in execution {}, replay confirmed{checked}; {reproduced}", i + 1));
    }
    if h.expect != "no-bug" {
        return Err(format!("unknown expectation `{}`", h.expect));
    }
    let mut first = FirstScheduler::new();
    first.begin_execution();
    let ex = run_once(&prep, &cfg, &mut first);
    if !matches!(ex.outcome, Outcome::Exit(_) | Outcome::Infeasible(_)) {
        return Err(format!("non-preemptive run ended with {:?}", ex.outcome));
    }
    let out = String::from_utf8_lossy(&ex.stdout);
    for want in &h.stdout {
        if !out.lines().any(|l| l == want) {
            return Err(format!("stdout lacks the line `{want}`; it was:\n{out}"));
        }
    }
    let iterations = h.iterations.unwrap_or(300);
    let mut sched = scheduler(&h, seed);
    let r = test(&prep, &cfg, sched.as_mut(), iterations, &mut |_| {});
    if let Some((i, ex)) = r.stopped_by {
        return Err(format!("execution {i} ended with {:?}", ex.outcome));
    }
    if r.stats.bounded > 0 {
        return Err(format!("{} executions hit a bound", r.stats.bounded));
    }
    Ok(format!("no bug in {} executions{checked}", r.stats.executions))
}

/// The execution's schedule, saved in the text format and parsed back,
/// replays to the same bug at the same step.
fn replays_to_same_bug(prep: &Arc<Prepared>, cfg: &Config, ex: &Execution, f: &Finding) -> Result<(), String> {
    let sched_text = schedule_of(prep, ex).to_text();
    let parsed = Schedule::from_text(&sched_text).map_err(|e| format!("saved schedule does not parse: {e}"))?;
    let again = replay(prep, cfg, &parsed);
    match again.outcome.finding() {
        Some(g) if g.same_as(f) => Ok(()),
        _ => Err(format!("replay gave {:?}, expected {} at step {}", again.outcome, f.kind, f.step)),
    }
}

/// Record the paths of the failing execution `ex` (by replaying it) and
/// reproduce its failure from the log alone (CLAP), as the header expects.
fn reproduce_from_paths(prep: &Arc<Prepared>, cfg: &Config, ex: &Execution, h: &Header) -> Result<String, String> {
    let recording = Config { record_paths: true, ..cfg.clone() };
    let again = replay(prep, &recording, &schedule_of(prep, ex));
    let log = path_log(prep, &again, "corpus", recording.argv.clone());
    let auto = reproduce(prep, cfg, &log, &ReproduceOptions::default())
        .map_err(|e| format!("reproduce from paths (default method): {e}"))?;
    let found = format!(
        "reproduced from paths by the {} ({} context switches{}, {:.3}s)",
        match auto.found_by {
            Method::Search => "search",
            _ => "solver",
        },
        auto.preemptions,
        if auto.minimal { ", fewest" } else { "" },
        auto.total_time.as_secs_f64()
    );
    let solver = reproduce(prep, cfg, &log, &ReproduceOptions { method: Method::Solver, ..Default::default() });
    match (solver, &h.solver_unsupported) {
        (Ok(r), None) => Ok(format!(
            "{found}; by the solver ({} accesses, {} context switches, {:.3}s)",
            r.solution.as_ref().map_or(0, |s| s.stats.shared_accesses),
            r.preemptions,
            r.total_time.as_secs_f64()
        )),
        (Ok(_), Some(why)) => {
            Err(format!("the solver reproduced it, but the header says `solver-unsupported={why}`: remove that line"))
        }
        (Err(e), None) => Err(format!("reproduce from paths with the solver: {e}")),
        (Err(e), Some(why)) if e.to_string().contains(why.as_str()) => Ok(format!("{found}; solver: not yet ({why})")),
        (Err(e), Some(why)) => {
            Err(format!("reproduce with the solver failed with `{e}`, expected an error about `{why}`"))
        }
    }
}

/// Executions the DFS oracle may take under a relaxed memory model.
const RELAXED_DFS_BUDGET: usize = 50_000;

/// Under `model`: `causa check` gives `want` (`verified` or `bug:<kind>`), and
/// the DFS oracle agrees (see the module docs).
fn relaxed_verdict(prep: &Arc<Prepared>, h: &Header, model: MemoryModel, want: &str) -> Result<String, String> {
    let cfg = Config { inputs: h.input.clone(), max_steps: 20_000, memory_model: model, ..Config::default() };
    let opts = McrOptions { timeout: Some(CHECK_TIMEOUT), ..McrOptions::default() };
    let r = mcr_check(prep, &cfg, &opts, &mut |_, _| {});
    let got = verdict(prep, &cfg, &r)?;
    if got != want {
        return Err(format!("check gave {got}, expected {want}"));
    }
    let reproduced = match &r.verdict {
        McrVerdict::Bug(ex) => format!("; {}", reproduce_from_paths(prep, &cfg, ex, h)?),
        _ => String::new(),
    };
    // The oracle: every interleaving and flush order, depth first.
    let oracle = Arc::new(Config { final_state: true, keep_records: false, ..cfg.clone() });
    let mut dfs = DfsScheduler::new();
    let (mut outcomes, mut runs, mut bug) = (HashSet::default(), 0, None);
    while runs < RELAXED_DFS_BUDGET && dfs.begin_execution() {
        let ex = run_once(prep, &oracle, &mut dfs);
        runs += 1;
        if let Some(f) = ex.outcome.finding() {
            bug.get_or_insert_with(|| format!("bug:{}", f.kind.code()));
        }
        // As MCR's outcome set (see `McrResult::outcomes`).
        if !ex.exited_early() {
            outcomes.insert((outcome_key(&ex.outcome), ex.final_state));
        }
    }
    if let Some(d) = dfs.divergence() {
        return Err(format!("the DFS oracle diverged: {d}"));
    }
    if bug.is_none() && want.starts_with("bug:") && !dfs.is_complete() {
        // Deep in the plain depth-first order: the same interleavings, by
        // growing number of preemptions (where bugs usually are).
        bug = bounded_dfs_bug(prep, &oracle, &mut runs);
    }
    match (&bug, want.starts_with("bug:")) {
        (Some(b), true) if b != want => return Err(format!("the DFS oracle found {b}, expected {want}")),
        (Some(b), false) => return Err(format!("check verified it but the DFS oracle found {b}")),
        (None, true) => return Err(format!("check found {want} but the DFS oracle did not in {runs} executions")),
        _ => {}
    }
    let compared = if dfs.is_complete() {
        let all = McrOptions { all_outcomes: true, ..opts };
        let every = mcr_check(prep, &cfg, &all, &mut |_, _| {});
        if every.stats.divergences > 0 {
            return Err(format!("{} MCR schedules did not replay", every.stats.divergences));
        }
        if every.outcomes != outcomes {
            return Err(format!(
                "MCR reaches {} outcomes, the DFS oracle {}: they differ (MCR {:?} DFS {:?})",
                every.outcomes.len(),
                outcomes.len(),
                every.outcomes,
                outcomes
            ));
        }
        format!("same {} outcomes as DFS ({} executions vs {runs})", outcomes.len(), every.stats.executions)
    } else {
        format!("DFS agrees within {runs} executions")
    };
    Ok(format!("{got} in {} executions; {compared}{reproduced}", r.stats.executions))
}

/// The first bug of the DFS oracle's interleavings taken by growing
/// preemption bound (0 to 3), equal states merged, within the rest of the
/// budget.
fn bounded_dfs_bug(prep: &Arc<Prepared>, oracle: &Arc<Config>, runs: &mut usize) -> Option<String> {
    let oracle = Arc::new(Config { state_digest: true, ..(**oracle).clone() });
    for bound in 0..=3 {
        let mut dfs = DfsScheduler::with_preemption_bound(bound).with_state_cache();
        while *runs < 2 * RELAXED_DFS_BUDGET && dfs.begin_execution() {
            let ex = run_once(prep, &oracle, &mut dfs);
            *runs += 1;
            if let Some(f) = ex.outcome.finding() {
                return Some(format!("bug:{}", f.kind.code()));
            }
        }
    }
    None
}

/// How long one `causa check` may run. The slowest, `cas_spinlock.c`,
/// takes about 75 s on a 2-core VM since a prefix no longer fixes its
/// events' order (docs/performance.md); it took 25 s, and reached 123 of
/// its 138 states, before.
const CHECK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(240);

/// Run `causa check` (MCR) and compare its verdict with `want`.
fn check_verdict(prep: &Arc<Prepared>, h: &Header, want: &str) -> Result<String, String> {
    let cfg = Config { inputs: h.input.clone(), max_steps: 20_000, ..Config::default() };
    let opts =
        McrOptions { timeout: Some(CHECK_TIMEOUT), max_executions: h.check_max_executions, ..McrOptions::default() };
    let r = mcr_check(prep, &cfg, &opts, &mut |_, _| {});
    let got = verdict(prep, &cfg, &r)?;
    let short = got.split([':', ' ']).next().unwrap_or_default();
    if short != want {
        return Err(format!("check gave {got}, expected {want}"));
    }
    if let (Some(found), Some(expected)) = (got.strip_prefix("bug:"), h.expect.strip_prefix("bug:")) {
        if found != expected {
            return Err(format!("check found {found}, expected {expected}"));
        }
    }
    Ok(format!("{short} in {} executions", r.stats.executions))
}

/// A check's verdict as `bug:<kind>`, `verified` or `unknown (<reason>)`; a
/// bug's schedule, saved and parsed back, must replay to the same bug.
fn verdict(prep: &Arc<Prepared>, cfg: &Config, r: &McrResult) -> Result<String, String> {
    match &r.verdict {
        McrVerdict::Bug(ex) => {
            let f = ex.outcome.finding().ok_or("a bug verdict without a finding")?;
            replays_to_same_bug(prep, cfg, ex, f).map_err(|e| format!("check's counterexample: {e}"))?;
            Ok(format!("bug:{}", f.kind.code()))
        }
        McrVerdict::Verified => Ok("verified".to_string()),
        McrVerdict::Unknown(reason) => Ok(format!("unknown ({reason})")),
        McrVerdict::Error(e) => Err(format!("check failed: {e}")),
    }
}

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs");
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot read {}: {e}", d.display())) {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "c" || x == "i") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn corpus_programs_meet_their_expectations() {
    if causa_ir::compile::find_tool("clang").is_err() {
        panic!("clang-14 is required for the program corpus: install it with `apt-get install clang-14 llvm-14` (or `make setup` as root)");
    }
    let filter = std::env::var("CAUSA_TEST_FILTER").unwrap_or_default();
    let files: Vec<PathBuf> = corpus().into_iter().filter(|p| p.display().to_string().contains(&filter)).collect();
    assert!(!files.is_empty(), "no programs found under tests/programs");
    let queue = Arc::new(Mutex::new(files.clone()));
    let results = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..2)
        .map(|_| {
            let (queue, results) = (queue.clone(), results.clone());
            std::thread::spawn(move || loop {
                let Some(p) = queue.lock().expect("queue").pop() else {
                    break;
                };
                let r = check(&p);
                results.lock().expect("results").push((p, r));
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker");
    }
    let mut results = Arc::try_unwrap(results).expect("results").into_inner().expect("results");
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let mut failed = 0;
    for (p, r) in &results {
        let rel = p.display().to_string();
        let rel = rel.split("tests/programs/").nth(1).unwrap_or(&rel).to_string();
        match r {
            Ok(m) => println!("ok    {rel}: {m}"),
            Err(m) => {
                failed += 1;
                println!("FAIL  {rel}: {m}");
            }
        }
    }
    println!("{} programs, {} failed", results.len(), failed);
    assert_eq!(failed, 0, "{failed} corpus programs did not meet their expectations (see above)");
}
