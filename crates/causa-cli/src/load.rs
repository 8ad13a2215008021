//! Loading a program and turning tool failures into exit codes.

use crate::args::ProgramArgs;
use causa_interp::{prepare, Config, InterpError, OutputMode, Prepared};
use causa_ir::{CompileOptions, IrError};
use std::sync::Arc;

/// Exit codes users rely on.
pub const EXIT_OK: i32 = 0;
pub const EXIT_BUG: i32 = 1;
pub const EXIT_INPUT: i32 = 2;
pub const EXIT_UNSUPPORTED: i32 = 3;

/// A tool failure with its exit code and stable code name.
#[derive(Debug)]
pub struct Failure {
    pub exit: i32,
    pub code: &'static str,
    pub message: String,
}

impl Failure {
    pub fn input(code: &'static str, message: impl Into<String>) -> Failure {
        Failure { exit: EXIT_INPUT, code, message: message.into() }
    }
}

impl From<IrError> for Failure {
    fn from(e: IrError) -> Failure {
        let exit = match e {
            IrError::Unsupported { .. } => EXIT_UNSUPPORTED,
            _ => EXIT_INPUT,
        };
        Failure { exit, code: e.code(), message: e.to_string() }
    }
}

impl From<InterpError> for Failure {
    fn from(e: InterpError) -> Failure {
        let exit = match e {
            InterpError::Schedule(_) => EXIT_INPUT,
            _ => EXIT_UNSUPPORTED,
        };
        Failure { exit, code: e.code(), message: e.to_string() }
    }
}

/// Compile, load and prepare the program.
pub fn load(args: &ProgramArgs) -> Result<Arc<Prepared>, Failure> {
    let cflags = args.cflags.as_deref().map(|s| s.split_whitespace().map(str::to_string).collect()).unwrap_or_default();
    let program = causa_ir::load_program(&args.program, &CompileOptions { cflags })?;
    Ok(Arc::new(prepare(program)?))
}

/// The execution settings every command derives from its flags: bounds, race
/// detection, inputs (given ones first, then from `seed`) and `argv`.
pub fn config(args: &ProgramArgs, seed: u64, program_args: &[String], output: OutputMode) -> Config {
    let capture = output == OutputMode::Capture;
    Config {
        max_steps: args.max_steps,
        max_local_instructions: args.max_local_instructions,
        detect_races: args.races,
        inputs: args.input.clone(),
        input_seed: seed,
        output,
        max_output: if capture { 64 * 1024 } else { Config::default().max_output },
        argv: std::iter::once(args.program[0].clone()).chain(program_args.iter().cloned()).collect(),
        memory_model: args.memory_model.unwrap_or_default(),
        ..Config::default()
    }
}
