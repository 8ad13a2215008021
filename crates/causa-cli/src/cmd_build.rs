//! `causa build`: a native executable that records path logs.

use crate::args::BuildArgs;
use crate::load::{Failure, EXIT_OK};
use causa_record::{BuildOptions, RecordError};

pub fn run(args: &BuildArgs) -> Result<i32, Failure> {
    let level = args.opt.as_str();
    if !matches!(level, "0" | "1" | "2" | "3" | "s") {
        return Err(Failure::input("bad-argument", format!("-O{level}: the optimisation level is 0, 1, 2, 3 or s")));
    }
    let cflags: Vec<String> =
        args.cflags.as_deref().map(|s| s.split_whitespace().map(str::to_string).collect()).unwrap_or_default();
    let opts = BuildOptions { cflags, opt: format!("-O{level}"), output: args.output.clone() };
    let built = causa_record::build(&args.program, &opts).map_err(|e| match e {
        RecordError::Ir(e) => Failure::from(e),
        RecordError::Native(m) => Failure::input("compile-error", format!("native compilation failed:\n{m}")),
        e => Failure::input("build-error", e.to_string()),
    })?;
    let i = &built.instrumented;
    let cflags = args.cflags.as_deref().map(|c| format!(" --cflags \"{c}\"")).unwrap_or_default();
    if args.json {
        let doc = serde_json::json!({
            "schema": 1,
            "command": "build",
            "verdict": "built",
            "output": built.output.display().to_string(),
            "fingerprint": built.fingerprint,
            "instrumented": {
                "functions": i.functions,
                "branches": i.branches,
                "switches": i.switches,
                "indirect_calls": i.indirect_calls,
                "failure_sites": i.sites,
                "size_arguments": i.sizes,
            },
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return Ok(EXIT_OK);
    }
    println!(
        "causa build: {} (-O{level}), recording builds of fingerprint {}",
        built.output.display(),
        built.fingerprint
    );
    let n = |k: usize, what: &str| {
        format!(
            "{k} {what}{}",
            if k == 1 {
                ""
            } else if what.ends_with("ch") {
                "es"
            } else {
                "s"
            }
        )
    };
    println!(
        "  instrumented {}: {}, {}, {}, {}, {}",
        n(i.functions, "function"),
        n(i.branches, "branch"),
        n(i.switches, "switch"),
        n(i.indirect_calls, "indirect call"),
        n(i.sites, "failure site"),
        n(i.sizes, "size argument")
    );
    println!(
        "  each run writes its path log when it exits, fails or is stopped (Ctrl-C, kill): to $CAUSA_PATHS, else ./causa-paths-<pid>/"
    );
    println!("  reproduce a failure with: causa reproduce {}{cflags} --paths DIR", args.program.join(" "));
    Ok(EXIT_OK)
}
