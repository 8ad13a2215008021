//! Interpreter benchmarks (run with `cargo bench -p causa-cli --bench interp`, or
//! `make bench`): LLVM instructions per second on a CPU-bound single-thread
//! program, and executions per second of `causa test` on a two-thread program
//! of about 100 visible events. Each figure is the median of 5 runs.

use causa_core::Scheduler;
use causa_explore::{run_once, test, FirstScheduler, RandomScheduler};
use causa_interp::{prepare, Config, Outcome, Prepared};
use causa_ir::{load_program, CompileOptions};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

fn load(name: &str) -> Arc<Prepared> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/programs").join(name);
    let program =
        load_program(&[path.display().to_string()], &CompileOptions::default()).expect("bench program compiles");
    Arc::new(prepare(program).expect("bench program is supported"))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let cfg = Arc::new(Config::default());

    let cpu = load("cpu.c");
    let mut rates = Vec::new();
    let mut instructions = 0;
    for _ in 0..5 {
        let mut s = FirstScheduler::new();
        s.begin_execution();
        let t = Instant::now();
        let ex = run_once(&cpu, &cfg, &mut s);
        let secs = t.elapsed().as_secs_f64();
        assert!(matches!(ex.outcome, Outcome::Exit(0)), "cpu.c: {:?}", ex.outcome);
        instructions = ex.instructions;
        rates.push(ex.instructions as f64 / secs);
    }
    println!("cpu.c: {instructions} instructions per run, {:.1} M instructions/s (median of 5)", median(rates) / 1e6);

    let two = load("two_threads.c");
    let mut s = FirstScheduler::new();
    s.begin_execution();
    let events = run_once(&two, &cfg, &mut s).events.len();
    let mut rates = Vec::new();
    for seed in 0..5 {
        let mut s = RandomScheduler::new(seed);
        let r = test(&two, &cfg, &mut s, 20_000, &mut |_| {});
        assert!(r.stopped_by.is_none(), "two_threads.c must not fail");
        rates.push(r.stats.executions_per_second());
    }
    println!(
        "two_threads.c: {events} visible events per execution, {:.0} executions/s (median of 5 x 20000)",
        median(rates)
    );
}
