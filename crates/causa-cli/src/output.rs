//! Rendering executions for people and for machines.

use crate::args::ProgramArgs;
use causa_core::event::EventRecord;
use causa_core::{Finding, SourceLoc};
use causa_explore::schedule_of;
use causa_interp::{Execution, Outcome, Prepared};
use causa_ir::SourceCache;
use causa_report::{render_columns, render_finding, BugJson, ColumnOptions, Report, Verdict};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// For a verdict that no execution fails: the program uses C11 memory
/// orders weaker than `seq_cst`, which causa does not model (where).
pub fn weak_atomics_note(program: &causa_ir::Program) -> Option<String> {
    let at = program
        .loc(program.weak_atomic?)
        .map(|l| format!(" (first at {}:{})", causa_interp::memory::short_file(&l.file), l.line));
    Some(format!(
        "  note: the program uses C11 memory orders weaker than seq_cst{}; causa runs every atomic operation as sequentially consistent, so this does not cover the reorderings relaxed, acquire and release orders allow",
        at.unwrap_or_default()
    ))
}

/// `n` and `noun`, plural unless `n` is 1: `1 execution`, `2 executions`,
/// `3 branches`, `4 queries`.
pub fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    let consonant_y = noun.strip_suffix('y').filter(|s| !s.ends_with(['a', 'e', 'i', 'o', 'u']));
    match consonant_y {
        Some(stem) => format!("{n} {stem}ies"),
        None if noun.ends_with("ch") || noun.ends_with("sh") || noun.ends_with('s') => format!("{n} {noun}es"),
        None => format!("{n} {noun}s"),
    }
}

/// Save the schedule of `ex` under the output directory; returns the path.
pub fn save_schedule(prep: &Prepared, ex: &Execution, args: &ProgramArgs, tag: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(&args.out_dir)?;
    let stem = Path::new(&args.program[0]).file_stem().and_then(|s| s.to_str()).unwrap_or("program");
    let path = args.out_dir.join(format!("{stem}-{tag}.schedule"));
    std::fs::write(&path, schedule_of(prep, ex).to_text())?;
    Ok(path)
}

/// The command that replays a saved schedule.
pub fn replay_command(args: &ProgramArgs, schedule: &Path, program_args: &[String]) -> String {
    let mut cmd = format!("causa run {}", args.program.join(" "));
    if let Some(c) = &args.cflags {
        cmd.push_str(&format!(" --cflags \"{c}\""));
    }
    cmd.push_str(&format!(" --schedule {}", schedule.display()));
    if args.races {
        cmd.push_str(" --races");
    }
    if !program_args.is_empty() {
        cmd.push_str(&format!(" -- {}", program_args.join(" ")));
    }
    cmd
}

/// Source line lookup for the report renderers.
pub fn source_lookup() -> impl Fn(&SourceLoc) -> Option<String> {
    let cache = RefCell::new(SourceCache::new());
    move |loc: &SourceLoc| cache.borrow_mut().line(loc)
}

/// The finding, then the failing execution as per-thread columns.
pub fn render_bug(f: &Finding, ex: &Execution) -> String {
    let src = source_lookup();
    let mut out = render_finding(f, &src);
    out.push('\n');
    out.push_str("failing execution (one column per thread, one row per visible event):\n");
    if ex.memory_model.buffers_stores() {
        out.push_str(&format!(
            "memory model {}: a store goes to its thread's store buffer{}; `flush` is when it becomes visible to other threads\n",
            ex.memory_model.name().to_uppercase(),
            if ex.memory_model == causa_core::MemoryModel::Pso { " (one per address)" } else { "" }
        ));
    }
    // The columns name files without their directories; the diagnostic above has the path.
    let mut records: Vec<EventRecord> = ex.records.iter().cloned().map(short_location).collect();
    // Show the failing operation itself as the last row.
    if ex.steps.len() > ex.records.len() {
        if let Some(t) = ex.steps.last() {
            records.push(EventRecord {
                seq: ex.steps.len() - 1,
                thread: ex.names[*t as usize].clone(),
                kind: causa_core::EventKind::Fails,
                object: Some(f.kind.to_string()),
                width: None,
                value: None,
                new_value: None,
                other_thread: None,
                location: f.location.clone(),
                atomic: false,
                flushed: false,
                local_of: None,
            });
            if let Some(r) = records.pop() {
                records.push(short_location(r));
            }
        }
    }
    let opts = ColumnOptions { max_rows: Some(60), ..ColumnOptions::default() };
    let full: causa_core::collections::HashMap<String, SourceLoc> = ex
        .records
        .iter()
        .filter_map(|r| r.location.clone())
        .chain(f.location.clone())
        .map(|l| (causa_interp::memory::short_file(&l.file).to_string(), l))
        .collect();
    let short_src = |l: &SourceLoc| {
        let mut l = l.clone();
        if let Some(f) = full.get(&*l.file) {
            l.file = f.file.clone();
        }
        src(&l)
    };
    out.push_str(&render_columns(&records, &ex.names, &short_src, &opts));
    let texts: Vec<&str> = records.iter().flat_map(causa_report::legend::record_texts).collect();
    let blocks = causa_report::legend::named(&ex.heap_blocks, &texts);
    if !blocks.is_empty() {
        out.push('\n');
        out.push_str(&causa_report::render_heap_legend(&blocks, &src));
    }
    out
}

/// One-line outcome for people.
pub fn outcome_line(o: &Outcome) -> String {
    match o {
        Outcome::Exit(code) => format!("the program exited with code {code}"),
        Outcome::Bug(f) => format!("bug found: {}", f.kind),
        Outcome::Infeasible(r) => format!("infeasible execution ({r}); not a bug"),
        Outcome::BoundReached(r) => format!("stopped: {r}"),
        Outcome::Error(e) => format!("error: {e}"),
    }
}

/// The JSON document for an execution-based command.
pub fn report_for(command: &str, args: &ProgramArgs, ex: Option<&Execution>, stats: serde_json::Value) -> Report {
    let program = args.program.join(" ");
    let verdict = match ex.map(|e| &e.outcome) {
        Some(Outcome::Bug(_)) => Verdict::Bug,
        Some(Outcome::Error(_)) => Verdict::Error,
        Some(Outcome::BoundReached(_)) => Verdict::Unknown,
        _ => Verdict::NoBug,
    };
    let mut r = Report::new(command, program, verdict);
    r.stats = stats;
    if let Some(ex) = ex {
        match &ex.outcome {
            Outcome::Bug(f) => r.bug = Some(BugJson::from(f)),
            Outcome::Error(e) => r.error = Some(e.to_string()),
            Outcome::BoundReached(b) => r.error = Some(b.clone()),
            _ => {}
        }
    }
    r
}

/// Write the events of an execution as JSON Lines (first line: a header with the schema).
pub fn write_trace(path: &Path, ex: &Execution) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(
        f,
        "{}",
        serde_json::json!({"schema": 1, "kind": "causa-trace", "threads": ex.names.iter().map(|n| n.to_string()).collect::<Vec<_>>()})
    )?;
    for r in &ex.records {
        writeln!(f, "{}", serde_json::to_string(r).map_err(std::io::Error::other)?)?;
    }
    f.flush()
}

fn short_location(mut r: EventRecord) -> EventRecord {
    if let Some(l) = &mut r.location {
        l.file = causa_interp::memory::short_file(&l.file).into();
    }
    r
}

/// The JSON document of a bug found by `test` or `check`, with its saved schedule.
pub fn bug_report(
    command: &str,
    args: &ProgramArgs,
    ex: &Execution,
    stats: serde_json::Value,
    schedule: &Path,
    program_args: &[String],
) -> Report {
    let mut r = report_for(command, args, Some(ex), stats);
    r.schedule_file = Some(schedule.display().to_string());
    r.replay_command = Some(replay_command(args, schedule, program_args));
    if let Some(b) = &mut r.bug {
        b.schedule = r.schedule_file.clone();
    }
    r
}

/// The lines that end every bug report: the round-trip check, where the schedule
/// is and the command that replays it.
pub fn print_bug_trailer(confirmed: bool, args: &ProgramArgs, schedule: &Path, program_args: &[String]) {
    if confirmed {
        println!("replayed the saved schedule: same bug at the same step");
    } else {
        println!("WARNING: replaying the saved schedule did not reproduce the bug; this is a bug in causa");
    }
    println!("schedule saved to {}", schedule.display());
    println!("replay with: {}", replay_command(args, schedule, program_args));
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn counts_read_as_english() {
        assert_eq!(counted(1, "execution"), "1 execution");
        assert_eq!(counted(0, "execution"), "0 executions");
        assert_eq!(counted(2, "branch"), "2 branches");
        assert_eq!(counted(3, "solver query"), "3 solver queries");
        assert_eq!(counted(1, "solver query"), "1 solver query");
        assert_eq!(counted(2, "delay"), "2 delays");
        assert_eq!(counted(2, "access"), "2 accesses");
    }
}
