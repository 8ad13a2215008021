//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "causa", version, about = "Find, reproduce and explain concurrency bugs in multithreaded C programs")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the program once under a controlled scheduler.
    Run(RunArgs),
    /// Run the program many times under random or PCT schedules until a bug shows.
    Test(TestArgs),
    /// Explore every reachable state (Maximal Causality Reduction): bug, verified or unknown.
    Check(CheckArgs),
    /// List every external function causa models, grouped by library.
    Shims(ShimsArgs),
    /// Compute a schedule that reproduces a recorded failure from per-thread
    /// paths alone (CLAP), and confirm it by replay.
    Reproduce(ReproduceArgs),
    /// Explain a failing schedule: the few events and data flows that differ
    /// from the most similar schedule that does not fail (Symbiosis, Max SMT,
    /// progressive; branches flipped when the failure needs another path).
    Explain(ExplainArgs),
    /// Inspect path logs (written by `--record-paths` or by a `causa build`
    /// executable).
    Log(LogArgs),
    /// Build a native executable that records each thread's control-flow
    /// path, for `causa reproduce` (logs go to $CAUSA_PATHS, else
    /// ./causa-paths-<pid>/, when the program exits or fails).
    Build(BuildArgs),
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    /// C files (.c, .i): give `causa reproduce` the same files (by any path,
    /// from any directory) and the same `--cflags`; the logs carry the
    /// analysed module's fingerprint.
    #[arg(required = true)]
    pub program: Vec<String>,
    /// The executable to write.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: PathBuf,
    /// Extra flags for clang (give `causa reproduce` the same).
    #[arg(long, allow_hyphen_values = true)]
    pub cflags: Option<String>,
    /// Optimisation level of the native code: 0, 1, 2, 3 or s.
    #[arg(short = 'O', long = "opt", value_name = "LEVEL", default_value = "2")]
    pub opt: String,
    /// Print one JSON document instead of human output.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub common: ProgramArgs,
    /// The failing schedule (saved by `run`, `test`, `check` or `reproduce`).
    #[arg(long, value_name = "FILE")]
    pub schedule: PathBuf,
    #[command(flatten)]
    pub explain: ExplainFlags,
}

/// How `causa explain` (and the explanation after `check`, `test` and
/// `reproduce`) works and where it writes.
#[derive(Args, Debug, Clone)]
pub struct ExplainFlags {
    /// How the alternate schedule (the most similar one that does not fail)
    /// is searched for.
    #[arg(long, value_enum, default_value_t = ExplainMode::Progressive)]
    pub mode: ExplainMode,
    /// Conflict budget of each Max SMT solver call (0: none; default: 300
    /// in progressive mode, 200000 in the others); when it runs out the best
    /// schedule found so far is used.
    #[arg(long, value_name = "N")]
    pub max_conflicts: Option<u32>,
    /// How each Max SMT query is solved: `linear` asks the trace's
    /// incremental solver for one more satisfied soft constraint until it
    /// cannot; `z3` uses Z3's Optimize (MaxRes).
    #[arg(long, value_enum, default_value_t = MaxSmtEngine::Linear)]
    pub max_smt: MaxSmtEngine,
    /// Seconds the explanation's solver may run in all (0: no limit); past
    /// them the search ends with what it found, and says so.
    #[arg(long, value_name = "SECS", default_value_t = causa_explain::DEFAULT_TIME_LIMIT.as_secs())]
    pub explain_timeout: u64,
    /// Write the explanation as one self-contained HTML page.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write the differential schedule projection as a Graphviz graph.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
}

/// Explanation after a command that finds a failure.
#[derive(Args, Debug, Clone)]
pub struct AutoExplain {
    /// Do not explain the failure found.
    #[arg(long)]
    pub no_explain: bool,
    #[command(flatten)]
    pub flags: ExplainFlags,
}

/// `--max-smt` of `causa explain`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaxSmtEngine {
    /// Solution-improving search on the incremental solver.
    Linear,
    /// Z3's Optimize.
    Z3,
}

/// `--mode` of `causa explain`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainMode {
    /// Invert one pair of root-cause events, nearest first (Symbiosis).
    Symbiosis,
    /// Max SMT: fewest data-flow variations, broken segments and
    /// context-switch variations together (AAAI-19).
    Maxsmt,
    /// The same criteria in order: data flows first.
    Lexico,
    /// Free a window of segments before the failure and widen it until an
    /// alternate exists (AAAI-19 Algorithm 1; small models when the cause is near the failure).
    Progressive,
}

impl ExplainFlags {
    pub fn options(&self) -> causa_explain::ExplainOptions {
        use causa_symbolic::Mode;
        let mode = match self.mode {
            ExplainMode::Symbiosis => Mode::Symbiosis,
            ExplainMode::Maxsmt => Mode::MaxSmt,
            ExplainMode::Lexico => Mode::Lexico,
            ExplainMode::Progressive => Mode::Progressive,
        };
        let engine = match self.max_smt {
            MaxSmtEngine::Linear => causa_symbolic::Engine::Linear,
            MaxSmtEngine::Z3 => causa_symbolic::Engine::Z3,
        };
        let time_limit = (self.explain_timeout > 0).then(|| std::time::Duration::from_secs(self.explain_timeout));
        causa_explain::ExplainOptions { mode, max_conflicts: self.max_conflicts, engine, time_limit }
    }
}

#[derive(Args, Debug)]
pub struct ReproduceArgs {
    #[command(flatten)]
    pub common: ProgramArgs,
    /// The path log (a directory written by `causa run/test --record-paths`).
    #[arg(long, value_name = "DIR")]
    pub paths: PathBuf,
    /// Take the first schedule the solver finds instead of searching for the
    /// fewest context switches.
    #[arg(long)]
    pub any_schedule: bool,
    /// How to find the schedule: `auto` runs the path-guided search and hands
    /// over to the solver when the search's budget runs out.
    #[arg(long, value_enum, default_value = "auto")]
    pub method: ReproduceMethod,
    /// Budget of the path-guided search: visible steps run over all the
    /// schedules it tries (each resumes from a saved copy of an earlier one,
    /// so it runs little more than its own steps; about 2–5 million steps
    /// per second).
    #[arg(long, value_name = "N", default_value_t = causa_explore::guided::DEFAULT_SEARCH_STEPS)]
    pub search_steps: u64,
    /// The largest preemption bound the path-guided search tries.
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub search_preemptions: usize,
    #[command(flatten)]
    pub explain: AutoExplain,
}

/// How `causa reproduce` finds a schedule.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReproduceMethod {
    /// The path-guided search, then the solver.
    Auto,
    /// The interpreter's schedules by growing preemption bound, each thread
    /// held to its recorded path (CLAP §7, validated by execution).
    Search,
    /// CLAP's constraints over the symbolic paths, solved with Z3.
    Solver,
}

#[derive(Args, Debug)]
pub struct LogArgs {
    #[command(subcommand)]
    pub command: LogCommand,
}

#[derive(Subcommand, Debug)]
pub enum LogCommand {
    /// Print a path log readably: the recorded failure, and per thread its
    /// inputs and control-flow decisions.
    Show {
        /// The log's directory.
        dir: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Strategies for `causa test` (sampling ones: `first` would repeat one schedule).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestStrategy {
    /// Pick uniformly among enabled threads at every step.
    Random,
    /// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010).
    Pct,
    /// Every interleaving, depth first, up to --iterations (the naive
    /// exhaustive oracle `causa check` is measured against; inputs fixed).
    Dfs,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Never preempt; run the lowest-numbered enabled thread.
    First,
    /// Pick uniformly among enabled threads at every step.
    Random,
    /// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010).
    Pct,
}

/// Options shared by every command that loads a program.
#[derive(Args, Debug, Clone)]
pub struct ProgramArgs {
    /// C (.c, .i), LLVM IR (.ll) or bitcode (.bc) files; several files are linked.
    #[arg(required = true)]
    pub program: Vec<String>,
    /// Extra flags for clang, e.g. --cflags "-I include -D N=3".
    #[arg(long, allow_hyphen_values = true)]
    pub cflags: Option<String>,
    /// Values for __VERIFIER_nondet_* calls, in order (e.g. --input 3,-1).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub input: Vec<i128>,
    /// Maximum visible steps per execution.
    #[arg(long, default_value_t = 100_000)]
    pub max_steps: usize,
    /// Maximum instructions a thread may run between two visible steps.
    #[arg(long, default_value_t = 50_000_000)]
    pub max_local_instructions: u64,
    /// Print one JSON document instead of human output.
    #[arg(long)]
    pub json: bool,
    /// Report data races: two conflicting accesses (one a write, not both atomic)
    /// that can happen at the same point.
    #[arg(long)]
    pub races: bool,
    /// Directory where schedules of bugs are saved.
    #[arg(long, default_value = "causa-out")]
    pub out_dir: PathBuf,
    /// Memory model: sc (sequential consistency, the default), tso (one FIFO
    /// store buffer per thread, as x86) or pso (one per thread and address).
    /// Under tso/pso, flushes of buffered stores are scheduling steps.
    #[arg(long, value_name = "sc|tso|pso")]
    pub memory_model: Option<causa_core::MemoryModel>,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub common: ProgramArgs,
    /// Scheduling strategy.
    #[arg(long, value_enum, default_value_t = Strategy::First)]
    pub strategy: Strategy,
    /// Seed for random and PCT.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// PCT bug depth (at least 1).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: u32,
    /// Replay this schedule file exactly.
    #[arg(long, conflicts_with = "strategy")]
    pub schedule: Option<PathBuf>,
    /// Write every visible event as JSON Lines to this file.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Record each thread's control-flow path into this directory (a path
    /// log, the input of `causa reproduce`).
    #[arg(long, value_name = "DIR")]
    pub record_paths: Option<PathBuf>,
    /// Arguments passed to the program (after --).
    #[arg(last = true)]
    pub args: Vec<String>,
}

#[derive(Args, Debug)]
pub struct TestArgs {
    #[command(flatten)]
    pub common: ProgramArgs,
    /// Scheduling strategy.
    #[arg(long, value_enum, default_value_t = TestStrategy::Random)]
    pub strategy: TestStrategy,
    /// Number of executions.
    #[arg(long, default_value_t = 1000)]
    pub iterations: usize,
    /// Seed of the first execution.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// PCT bug depth (at least 1).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: u32,
    /// Record the failing execution's per-thread control-flow paths into this
    /// directory (a path log, the input of `causa reproduce`).
    #[arg(long, value_name = "DIR")]
    pub record_paths: Option<PathBuf>,
    #[command(flatten)]
    pub explain: AutoExplain,
    /// Arguments passed to the program (after --).
    #[arg(last = true)]
    pub args: Vec<String>,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub common: ProgramArgs,
    /// Stop after this many executions (verdict: unknown).
    #[arg(long)]
    pub max_executions: Option<usize>,
    /// Stop after this many seconds (verdict: unknown).
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Seed for program inputs (`__VERIFIER_nondet_*`), fixed for the whole check.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Random executions run between MCR's executions each time it has asked about 500 more
    /// solver queries (a bug one of them shows ends the check; they never decide `verified`);
    /// 0: MCR alone
    #[arg(long, value_name = "N", default_value_t = causa_explore::probe::DEFAULT_BATCH)]
    pub probes: usize,
    #[command(flatten)]
    pub explain: AutoExplain,
    /// Arguments passed to the program (after --).
    #[arg(last = true)]
    pub args: Vec<String>,
}

#[derive(Args, Debug)]
pub struct ShimsArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}
