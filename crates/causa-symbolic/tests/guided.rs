//! Guided symbolic execution against the interpreter: record the paths of a
//! failing run, execute every thread symbolically along its path, and check
//! the symbolic trace against the run itself — the same shared accesses and
//! synchronisation per thread, and, with the run's read values substituted,
//! every path condition true and every written value the one written.
//!
//! Without clang-14 these tests fail and say what to install.

#[path = "../../causa-explore/tests/support/recorded.rs"]
mod recorded;

use causa_core::{EventKind, Scheduler};
use causa_interp::{Config, Execution, Machine, Outcome};
use causa_symbolic::{execute, SymError, SymOp, SymTrace};
use recorded::{failing_run, load, log_of};
use std::sync::Arc;

/// The interpreter's events of thread `t` as symbolic operations (kind and
/// object only), and its read values in order.
fn run_view(ex: &Execution, t: u32) -> (Vec<String>, Vec<u128>) {
    let mut ops = Vec::new();
    let mut reads = Vec::new();
    for e in ex.events.iter().filter(|e| e.thread == t) {
        let s = match e.kind {
            EventKind::Read => {
                reads.push(e.value);
                format!("read {:#x}/{}", e.addr, e.size)
            }
            EventKind::Write => format!("write {:#x}/{}", e.addr, e.size),
            EventKind::Lock => format!("lock {:#x}", e.addr),
            EventKind::Unlock => format!("unlock {:#x}", e.addr),
            EventKind::Fork => "fork".into(),
            EventKind::Join => "join".into(),
            EventKind::Begin => "begin".into(),
            EventKind::End => "end".into(),
            _ => continue,
        };
        ops.push(s);
    }
    (ops, reads)
}

fn sym_view(tr: &SymTrace, t: usize) -> Vec<String> {
    tr.threads[t]
        .events
        .iter()
        .filter_map(|e| {
            Some(match &e.op {
                SymOp::Read { addr, size, .. } => format!("read {addr:#x}/{size}"),
                SymOp::Write { addr, size, .. } => format!("write {addr:#x}/{size}"),
                SymOp::Bulk { addr, size, writes, .. } if !writes.is_empty() => format!("write {addr:#x}/{size}"),
                // (A copy out of shared memory into the thread's own.)
                SymOp::Bulk { addr, size, at: None, .. } => format!("read {addr:#x}/{size}"),
                SymOp::Lock { mutex, .. } => format!("lock {mutex:#x}"),
                SymOp::Unlock { mutex } => format!("unlock {mutex:#x}"),
                SymOp::Fork { .. } => "fork".into(),
                SymOp::Join { .. } => "join".into(),
                SymOp::Begin => "begin".into(),
                SymOp::End => "end".into(),
                _ => return None,
            })
        })
        .collect()
}

/// Check the symbolic trace against the run (see the module docs).
fn agrees(ex: &Execution, tr: &SymTrace) {
    assert_eq!(tr.threads.len(), ex.names.len());
    // Read id → the run's value.
    let mut values = vec![None; tr.reads.len()];
    for (t, th) in tr.threads.iter().enumerate() {
        let (ops, reads) = run_view(ex, t as u32);
        let sym = sym_view(tr, t);
        // A thread stopped by the failure may have symbolic events the run
        // had not reached; the run's are a prefix.
        assert!(sym.starts_with(&ops) || ops.starts_with(&sym), "thread {}:\nrun {ops:?}\nsym {sym:?}", th.thread);
        let mut k = 0;
        for e in &th.events {
            match &e.op {
                SymOp::Read { value, .. } => {
                    if let causa_symbolic::Expr::Read { id, .. } = tr.exprs.get(*value) {
                        values[*id as usize] = reads.get(k).copied();
                    }
                    k += 1;
                }
                SymOp::Bulk { writes, at: None, .. } if writes.is_empty() => k += 1,
                _ => {}
            }
        }
    }
    // A join's result: what the joined thread returned, with the run's
    // values (joined threads come after their joiner in the trace).
    for &(read, _) in &tr.join_results {
        values[read as usize] = tr.joined_result(read).and_then(|x| tr.exprs.eval(x, &values));
    }
    for th in &tr.threads {
        for (c, _) in &th.path {
            assert_eq!(
                tr.exprs.eval(*c, &values),
                Some(1),
                "thread {}: condition {} false",
                th.thread,
                tr.exprs.show(*c)
            );
        }
    }
    for (t, th) in tr.threads.iter().enumerate() {
        let written: Vec<u128> =
            ex.events.iter().filter(|e| e.thread == t as u32 && e.kind == EventKind::Write).map(|e| e.value).collect();
        let sym: Vec<_> = th
            .events
            .iter()
            .filter_map(|e| if let SymOp::Write { value, .. } = e.op { Some(value) } else { None })
            .collect();
        for (w, v) in sym.iter().zip(&written) {
            assert_eq!(tr.exprs.eval(*w, &values), Some(*v), "thread {}: written {}", th.thread, tr.exprs.show(*w));
        }
    }
}

/// The run of `prep` that never preempts, its paths recorded.
fn first_schedule_run(prep: &Arc<causa_interp::Prepared>) -> Execution {
    let cfg = Arc::new(Config { record_paths: true, ..Config::default() });
    let mut s = causa_explore::FirstScheduler::new();
    s.begin_execution();
    Machine::new(prep.clone(), cfg).run(&mut s)
}

/// The values thread `t` of `tr` writes, where they are constants.
fn constant_writes(tr: &SymTrace, t: usize) -> Vec<Option<u128>> {
    tr.threads[t]
        .events
        .iter()
        .filter_map(|e| if let SymOp::Write { value, .. } = e.op { Some(tr.exprs.value(value)) } else { None })
        .collect()
}

const PRELUDE: &str = "#include <assert.h>\n#include <pthread.h>\n";

#[test]
fn clap_figure_2_first_assertion() {
    // CLAP Fig. 2 (as reconstructed in the notes): assert1 fails under SC.
    let src = format!(
        "{PRELUDE}int x, y;\n\
         void *t1(void *p) {{ int a = x; x = 1; if (y > 0) {{ y = a + 1; x = a + 1; }} else {{ y = 0; x = 0; }} assert(x == y); return 0; }}\n\
         void *t2(void *p) {{ int b = y; y = 2; if (x > 0) {{ x = b + 2; y = b + 2; }} else {{ x = 1; y = 1; }} return 0; }}\n\
         int main(void) {{ pthread_t p, q; pthread_create(&p, 0, t1, 0); pthread_create(&q, 0, t2, 0);\n\
         pthread_join(p, 0); pthread_join(q, 0); return 0; }}\n"
    );
    let prep = load("clap_fig2.c", &src);
    let ex = failing_run(&prep);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("symbolic execution");
    agrees(&ex, &tr);
    // t1: reads x, y, x, y (the assertion) and its branches depend on them.
    let t1 = &tr.threads[1];
    assert!(matches!(t1.events.last().map(|e| &e.op), Some(SymOp::Fail { .. })), "{:?}", t1.events);
    assert!(t1.path.len() >= 2, "the branch on y and the assertion: {:?}", t1.path);
    // Threads still running at the failure go on symbolically past the point
    // the run reached (their last events may not happen in a reproduction).
    let run = ex.events.iter().filter(|e| matches!(e.kind, EventKind::Read | EventKind::Write)).count();
    assert!(tr.shared_accesses() >= run, "{} symbolic, {run} in the run", tr.shared_accesses());
}

#[test]
fn locked_counter_with_inputs_and_a_switch() {
    let src = format!(
        "{PRELUDE}extern int __VERIFIER_nondet_int(void);\nint count; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         static int step(int k) {{ switch (k) {{ case 1: return 1; case 2: return 2; default: return 3; }} }}\n\
         void *inc(void *p) {{ int k = __VERIFIER_nondet_int(); for (int i = 0; i < 2; i++) {{ pthread_mutex_lock(&m);\n\
         int t = count; count = t + step(k); pthread_mutex_unlock(&m); }} return 0; }}\n\
         int main(void) {{ pthread_t a, b; pthread_create(&a, 0, inc, 0); pthread_create(&b, 0, inc, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(count != 6); return 0; }}\n"
    );
    let prep = load("counter.c", &src);
    let cfg = Arc::new(Config { record_paths: true, inputs: vec![2, 1], ..Config::default() });
    let mut s = causa_explore::FirstScheduler::new();
    s.begin_execution();
    let ex = Machine::new(prep.clone(), cfg).run(&mut s);
    assert!(matches!(ex.outcome, Outcome::Bug(_)), "2·2 + 2·1 = 6: {:?}", ex.outcome);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("symbolic execution");
    agrees(&ex, &tr);
    // The inputs are concrete, so the switch is decided without a condition.
    assert!(tr.threads[1].path.iter().all(|(c, _)| !tr.exprs.show(*c).contains("Switch")));
}

#[test]
fn branches_on_local_parameters_are_computed_not_read_from_the_log() {
    // The bounds of `sum`'s loop come from each thread's argument (main's
    // loop counter): the log leaves those branches out, and the symbolic
    // executor computes them through pthread_create's argument and a call.
    let src = format!(
        "{PRELUDE}int total;\n\
         static int sum(int lo, int hi) {{ int s = 0; for (int i = lo; i < hi; i++) s += i; return s; }}\n\
         void *part(void *p) {{ long q = (long)p; int s = sum(q * 4, q * 4 + 4); int t = total; total = t + s; return 0; }}\n\
         int main(void) {{ pthread_t t[2]; for (long q = 0; q < 2; q++) pthread_create(&t[q], 0, part, (void *)q);\n\
         for (int q = 0; q < 2; q++) pthread_join(t[q], 0); assert(total == 28); return 0; }}\n"
    );
    let prep = load("bounds.c", &src);
    let sum = prep.program.function_by_name("sum").expect("sum");
    let body = prep.program.functions[sum as usize].body.as_ref().expect("body");
    assert!(body.recorded.iter().all(|r| !r), "sum's loop is local");
    let ex = failing_run(&prep);
    let log = log_of(&prep, &ex);
    let tr = execute(&prep.program, &log).expect("symbolic execution");
    agrees(&ex, &tr);
    // The workers' logs hold no decision at all: their only branches are local.
    for t in &log.threads[1..] {
        assert!(t.decisions.is_empty(), "{}: {:?}", t.thread, t.decisions);
    }
}

#[test]
fn reads_program_order_decides_are_constants() {
    // Each worker reads its id, which main wrote before creating it, and
    // indexes an array with it (as racey does): the id reads are
    // determined, so the array accesses have concrete addresses. The
    // workers' updates of `hits` race: those reads stay symbolic.
    let src = format!(
        "{PRELUDE}int ids[2], slot[4], hits;\n\
         void *w(void *p) {{ int id = *(int *)p; int v = slot[id * 2 % 4]; slot[(id * 2 + 1) % 4] = v + id + 1;\n\
         int h = hits; hits = h + 1; return 0; }}\n\
         int main(void) {{ pthread_t t[2]; for (int i = 0; i < 2; i++) {{ ids[i] = i; pthread_create(&t[i], 0, w, &ids[i]); }}\n\
         for (int i = 0; i < 2; i++) pthread_join(t[i], 0); assert(hits == 2); return 0; }}\n"
    );
    let prep = load("ids.c", &src);
    let ex = failing_run(&prep);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("symbolic execution");
    agrees(&ex, &tr);
    let constant = |e| tr.exprs.value(e).is_some();
    for th in &tr.threads[1..] {
        let reads: Vec<(u64, bool)> = th
            .events
            .iter()
            .filter_map(|e| match e.op {
                SymOp::Read { value, at, .. } => Some((at.map_or(1, |_| 0), constant(value))),
                SymOp::Write { at: Some(_), .. } => Some((0, false)),
                _ => None,
            })
            .collect();
        // id, slot[...], hits: every address concrete; the id and the slot
        // (nobody else writes it) determined, `hits` not.
        assert_eq!(reads, vec![(1, true), (1, true), (1, false)], "thread {}", th.thread);
    }
    assert!(tr.determined.len() >= 4, "{:?}", tr.determined);
    // main's read of `hits` after both joins: the two workers' writes are
    // unordered, so it is not determined, and the assertion stays a
    // condition the solver decides.
    let main = &tr.threads[0];
    assert_eq!(main.failure_condition, Some(main.path.len() - 1), "{:?}", main.path);
}

#[test]
fn unsupported_functions_are_named_with_their_location() {
    let src = format!(
        "{PRELUDE}#include <stdio.h>\nchar buf[8]; int n;\nvoid *w(void *p) {{ double d; n = sscanf(buf, \"%lf\", &d); return 0; }}\n\
         int main(void) {{ pthread_t a; pthread_create(&a, 0, w, 0); pthread_join(a, 0); assert(n == 1); return 0; }}\n"
    );
    // (sscanf of a shared string is followed, but not its float
    // conversions.)
    let prep = load("sscanf.c", &src);
    let ex = first_schedule_run(&prep);
    let e = execute(&prep.program, &log_of(&prep, &ex)).expect_err("sscanf's %lf of a shared string is not modelled");
    match &e {
        SymError::Unsupported { what, at } => {
            assert!(what.contains("`sscanf`'s floating-point conversion of a string the schedule decides"), "{e}");
            assert!(at.as_deref().is_some_and(|a| a.contains("sscanf.c:5")), "{e}");
        }
        other => panic!("{other}"),
    }
}

/// What the model cannot encode is reported with the source location of
/// the access it stopped at: rw.rs gives the error the access's `LocId`
/// (`ClapError::at`), and the command that shows it writes the location
/// into the message (`ClapError::located`).
#[test]
fn unsupported_model_cases_carry_their_source_location() {
    let src = format!(
        "{PRELUDE}int x;\nvoid *w(void *p) {{ x = 1; return 0; }}\n\
         int main(void) {{ pthread_t a; pthread_create(&a, 0, w, 0); pthread_join(a, 0); assert(x == 0); return 0; }}\n"
    );
    let prep = load("located.c", &src);
    let ex = first_schedule_run(&prep);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("symbolic execution");
    let write = tr.threads[1].events.iter().find(|e| matches!(e.op, SymOp::Write { .. })).expect("w's write of x");
    let e = causa_symbolic::ClapError::unsupported("an access the model cannot encode").at(write.loc);
    assert_eq!(e.to_string(), "an access the model cannot encode", "without the program: the message alone");
    let shown = e.located(&prep.program).to_string();
    assert!(shown.starts_with("an access the model cannot encode, at "), "{shown}");
    assert!(shown.contains("located.c:4:"), "w's line: {shown}");
    // (A location given once stays: the innermost access is the one named.)
    let other = tr.threads[0].events.last().expect("main's last event").loc;
    let kept = causa_symbolic::ClapError::unsupported("x").at(write.loc).at(other).located(&prep.program).to_string();
    assert!(kept.starts_with("x, at ") && kept.contains("located.c:4:"), "{kept}");
}

#[test]
fn strcpy_from_shared_memory_reads_to_the_end_of_the_object() {
    // How many bytes strcpy copies depends on what the string holds: the
    // model reads the source to the end of its object (8 bytes, one read
    // each, in one event) and copies up to the first NUL.
    let src = format!(
        "{PRELUDE}#include <string.h>\nchar name[8] = \"ab\";\n\
         void *w(void *p) {{ name[0] = 'x'; return 0; }}\n\
         int main(void) {{ pthread_t a; pthread_create(&a, 0, w, 0); char l[8]; strcpy(l, name);\n\
         pthread_join(a, 0); assert(l[0] == 'a'); return 0; }}\n"
    );
    let prep = load("strcpy.c", &src);
    let ex = first_schedule_run(&prep);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("strcpy from shared memory is modelled");
    let copies: Vec<_> = tr.threads[0]
        .events
        .iter()
        .filter_map(|e| match &e.op {
            SymOp::Bulk { what: "strcpy", reads, writes, .. } => Some((reads.len(), writes.len())),
            _ => None,
        })
        .collect();
    // Into private memory: nothing shared is written.
    assert_eq!(copies, vec![(8, 0)]);
}

#[test]
fn bulk_copies_and_fills_of_private_memory_are_followed() {
    // `b = a` copies a struct (`llvm.memcpy` between two private objects,
    // whole words), `int v[3] = {…}` copies a constant, `memset` fills
    // bytes that a word load then puts together; `b` and `v` escape to
    // the worker, which finds their contents as their initial values (its
    // reads are determined, so the written sums are constants the run's
    // values must match).
    let src = format!(
        "{PRELUDE}#include <string.h>\nstruct pt {{ int x; int y; }};\nint out, out2, out3;\n\
         void *w(void *p) {{ struct pt *q = p; out = q->x + q->y; return 0; }}\n\
         void *u(void *p) {{ int *v = p; out3 = v[0] + v[2]; return 0; }}\n\
         int main(void) {{ struct pt a = {{3, 4}}; struct pt b; b = a; int v[3] = {{10, 20, 30}};\n\
         char c[8]; memset(c, 7, sizeof c); c[0] = 1; int k; memcpy(&k, c, sizeof k); out2 = k;\n\
         pthread_t t, s; pthread_create(&t, 0, w, &b); pthread_create(&s, 0, u, v);\n\
         pthread_join(t, 0); pthread_join(s, 0); assert(out + out3 == 0); return 0; }}\n"
    );
    let prep = load("bulk.c", &src);
    let ex = first_schedule_run(&prep);
    assert!(matches!(ex.outcome, Outcome::Bug(_)), "{:?}", ex.outcome);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("bulk operations on private memory are modelled");
    agrees(&ex, &tr);
    let written = |t: usize| constant_writes(&tr, t);
    // main wrote out2 = 0x07070701; the workers 7 and 40, all constants.
    assert!(written(0).contains(&Some(0x0707_0701)), "{:?}", written(0));
    assert_eq!(written(1), vec![Some(7)]);
    assert_eq!(written(2), vec![Some(40)]);
}

#[test]
fn a_bulk_copy_into_shared_memory_is_one_event_of_whole_words() {
    let src = format!(
        "{PRELUDE}#include <string.h>\nint g[4];\nvoid *w(void *p) {{ return 0; }}\n\
         int main(void) {{ int l[4] = {{1, 2, 3, 4}}; pthread_t a; pthread_create(&a, 0, w, 0);\n\
         memcpy(g, l, sizeof g); pthread_join(a, 0); assert(g[0] == 2); return 0; }}\n"
    );
    let prep = load("shared_copy.c", &src);
    let ex = first_schedule_run(&prep);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("a bulk shared access is modelled");
    agrees(&ex, &tr);
    // One event: the local array's four ints, as naturally aligned words
    // (two of 8 bytes), constants.
    let bulk: Vec<_> = tr.threads[0]
        .events
        .iter()
        .filter_map(|e| match &e.op {
            SymOp::Bulk { what, size, reads, writes, .. } => Some((*what, *size, reads.len(), writes.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(bulk.len(), 1, "{bulk:?}");
    let (what, size, reads, writes) = &bulk[0];
    assert_eq!((*what, *size, *reads), ("memcpy", 16, 0));
    let values: Vec<(u32, Option<u128>)> = writes.iter().map(|p| (p.size, tr.exprs.value(p.value))).collect();
    assert_eq!(values, [(8, Some(2 << 32 | 1)), (8, Some(4 << 32 | 3))]);
    // The solver reproduces the failure: main's 4-byte read of g[0] sees
    // the first half of the copy's first word.
    let sol = causa_symbolic::solve(&tr, &Default::default()).expect("the model is satisfiable");
    assert!(!sol.order.is_empty());
}

#[test]
fn a_copy_sized_from_shared_data_takes_the_recorded_size() {
    // The worker copies `len` bytes of `msg` and terminates its copy at
    // `len`: the size is the run's (the log's call sizes), required of the
    // read by a path condition, and the store at `copy[n]` is then at a
    // known place. A log without the sizes (a native recording's) gives
    // the error naming the call.
    let src = format!(
        "{PRELUDE}#include <string.h>\nchar msg[16] = \"abcdef\"; int len = 3; int out;\n\
         void *w(void *p) {{ char copy[16]; int n = len; memcpy(copy, msg, n); copy[n] = 0; out = copy[n]; return 0; }}\n\
         int main(void) {{ pthread_t a; pthread_create(&a, 0, w, 0); msg[1] = 122; len = 5; pthread_join(a, 0); assert(out == 0); return 0; }}\n"
    );
    let prep = load("sized.c", &src);
    let ex = first_schedule_run(&prep);
    let log = log_of(&prep, &ex);
    let worker = log.threads.iter().find(|t| t.thread.to_string() == "0.1").expect("the worker's path");
    let recorded = worker.sizes.clone();
    assert!(recorded == [3] || recorded == [5], "memcpy's size: {recorded:?}");
    let tr = execute(&prep.program, &log).expect("a size from shared data is the recorded one");
    agrees(&ex, &tr);
    // The worker's path condition: its read of `len` is the recorded size.
    let t = tr.threads.iter().position(|t| t.thread.to_string() == "0.1").expect("the worker");
    assert_eq!(tr.threads[t].path.len(), 1, "one condition: the size");
    let mut bare = log.clone();
    bare.threads.iter_mut().for_each(|t| t.sizes.clear());
    match execute(&prep.program, &bare).expect_err("without the sizes the copy is not followed") {
        SymError::Unsupported { what, at } => {
            assert!(what.contains("memcpy with a value computed from shared data"), "{what}");
            assert!(at.as_deref().is_some_and(|a| a.contains("sized.c:")), "{at:?}");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_lock_at_an_address_computed_from_shared_data_is_the_recorded_one() {
    // The worker locks `&locks[k].m`, `k` read from shared memory: the
    // log records each lock call's object, and symbolic execution takes
    // the run's mutex there with a path condition on `k`'s read (flippable
    // like a branch). A log without the objects (a native recording's)
    // gives the error naming the call.
    let src = format!(
        "{PRELUDE}struct slot {{ pthread_mutex_t m; int n; }} locks[3]; int k = 1;\n\
         void *w(void *p) {{ int i = k; pthread_mutex_lock(&locks[i].m); locks[i].n++; pthread_mutex_unlock(&locks[i].m); return 0; }}\n\
         int main(void) {{ pthread_t a; pthread_create(&a, 0, w, 0); k = 2; pthread_join(a, 0); assert(locks[1].n + locks[2].n == 1); return 0; }}\n"
    );
    let prep = load("locks.c", &src);
    let ex = first_schedule_run(&prep);
    let log = log_of(&prep, &ex);
    let worker = log.threads.iter().find(|t| t.thread.to_string() == "0.1").expect("the worker's path");
    assert_eq!(worker.objects.len(), 2, "the lock's and the unlock's mutex: {:?}", worker.objects);
    assert_eq!(worker.objects[0], worker.objects[1], "one mutex");
    let tr = execute(&prep.program, &log).expect("a mutex at a computed address is the recorded one");
    let t = tr.threads.iter().position(|t| t.thread.to_string() == "0.1").expect("the worker");
    let locked: Vec<u64> = tr.threads[t]
        .events
        .iter()
        .filter_map(|e| match e.op {
            SymOp::Lock { mutex, .. } => Some(mutex),
            _ => None,
        })
        .collect();
    assert_eq!(locked, [worker.objects[0]], "the run's mutex");
    assert!(!tr.threads[t].path.is_empty(), "a condition on the read of `k`");
    assert!(tr.threads[t].branches.iter().any(|b| b.object), "flippable: {:?}", tr.threads[t].branches);
    let mut bare = log.clone();
    bare.threads.iter_mut().for_each(|t| t.objects.clear());
    match execute(&prep.program, &bare).expect_err("without the objects the lock is not followed") {
        SymError::Unsupported { what, at } => {
            assert!(what.contains("pthread_mutex_lock through an address computed from shared data"), "{what}");
            assert!(at.as_deref().is_some_and(|a| a.contains("locks.c:")), "{at:?}");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn an_atomic_update_at_an_address_computed_from_shared_data_is_one_event() {
    // `atomic_fetch_add(&hist[k], 1)`, `k` read from shared memory: one
    // read-modify-write whose address the solver resolves (before, an
    // unsupported operation), and the solver reproduces the failure.
    let src = format!(
        "{PRELUDE}#include <stdatomic.h>\natomic_int hist[3]; int k = 1;\n\
         void *w(void *p) {{ int i = k; atomic_fetch_add(&hist[i], 1); return 0; }}\n\
         int main(void) {{ pthread_t a; pthread_create(&a, 0, w, 0); k = 2; pthread_join(a, 0); assert(hist[1] == 0); return 0; }}\n"
    );
    let prep = load("hist.c", &src);
    let ex = failing_run(&prep);
    let log = log_of(&prep, &ex);
    let tr = execute(&prep.program, &log).expect("an atomic update at a computed address is followed");
    let t = tr.threads.iter().position(|t| t.thread.to_string() == "0.1").expect("the worker");
    let rmw = tr.threads[t].events.iter().find(|e| matches!(e.op, SymOp::Rmw { .. })).expect("the update");
    assert!(matches!(rmw.op, SymOp::Rmw { addr: 0, at: Some(_), .. }), "{:?}", rmw.op);
    let sol = causa_symbolic::solve(&tr, &Default::default()).expect("the model reaches the failure");
    assert!(!sol.order.is_empty());
}

#[test]
fn values_printed_from_shared_data_are_the_recorded_ones_untied() {
    // `snprintf(status, …, "%d", n)` of a shared count: the text written is
    // the run's (the log's recorded arguments), and no path condition ties
    // the read to it (the failure may depend on the read's value). (`count`
    // takes two values: a location written once is pinned to its value.)
    let src = format!(
        "{PRELUDE}#include <stdio.h>\nint count; char status[16];\n\
         void *w(void *p) {{ int n = count; snprintf(status, sizeof status, \"%d\", n); return 0; }}\n\
         int main(void) {{ pthread_t a; pthread_create(&a, 0, w, 0); count = 7; count = 8; pthread_join(a, 0); assert(status[0] == 0); return 0; }}\n"
    );
    let prep = load("printed.c", &src);
    let ex = first_schedule_run(&prep);
    let log = log_of(&prep, &ex);
    let worker = log.threads.iter().find(|t| t.thread.to_string() == "0.1").expect("the worker's path");
    assert_eq!(worker.sizes.len(), 1, "snprintf's one integer argument: {:?}", worker.sizes);
    let tr = execute(&prep.program, &log).expect("a printed value from shared data is the recorded one");
    let t = tr.threads.iter().position(|t| t.thread.to_string() == "0.1").expect("the worker");
    let shown: Vec<String> = tr.threads[t].path.iter().map(|(c, _)| tr.exprs.show(*c)).collect();
    assert!(shown.is_empty(), "no condition on the read: {shown:?}");
    let mut bare = log.clone();
    bare.threads.iter_mut().for_each(|t| t.sizes.clear());
    let e = execute(&prep.program, &bare).expect_err("without the recorded value the call is not followed");
    assert!(e.to_string().contains("snprintf with a value computed from shared data"), "{e}");
}

#[test]
fn string_lengths_and_duplicates_of_constants_are_followed() {
    // strlen of a literal and of a local array, strdup of a literal: the
    // duplicate's bytes are the new block's initial contents (the
    // interpreter copies them without an event), which the worker reads.
    let src = format!(
        "{PRELUDE}#include <string.h>\n#include <stdlib.h>\nchar *name; int out, len;\n\
         void *w(void *p) {{ out = name[1]; return 0; }}\n\
         int main(void) {{ char local[8] = \"abc\"; len = (int)(strlen(\"hello\") + strlen(local));\n\
         name = strdup(\"xyz\"); pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0);\n\
         assert(out == 0); return 0; }}\n"
    );
    let prep = load("strings.c", &src);
    let ex = first_schedule_run(&prep);
    assert!(matches!(ex.outcome, Outcome::Bug(_)), "{:?}", ex.outcome);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("strlen and strdup of constants are modelled");
    agrees(&ex, &tr);
    let written = |t: usize| constant_writes(&tr, t);
    assert!(written(0).contains(&Some(8)), "len = 5 + 3: {:?}", written(0));
    assert_eq!(written(1), vec![Some(b'y' as u128)]);
}

#[test]
fn strtol_stores_its_end_pointer() {
    // A count parsed with an end pointer to check the whole string was a
    // number (`*end != '\0'`): the end is stored into main's local and
    // the branch on what it points to is computed, not refused.
    let src = format!(
        "{PRELUDE}#include <stdlib.h>\nint out;\nvoid *w(void *p) {{ out = *(int *)p; return 0; }}\n\
         int main(void) {{ char *end; long n = strtol(\"42x\", &end, 10); int v = (int)n + (*end == 'x');\n\
         char *e2; long m = strtol(\" -7\", &e2, 0); v += (int)m + (*e2 == 0);\n\
         pthread_t t; pthread_create(&t, 0, w, &v); pthread_join(t, 0); assert(out == 0); return 0; }}\n"
    );
    let prep = load("strtol.c", &src);
    let ex = first_schedule_run(&prep);
    assert!(matches!(ex.outcome, Outcome::Bug(_)), "{:?}", ex.outcome);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("strtol with an end pointer is modelled");
    agrees(&ex, &tr);
    // 42 + 1 - 7 + 1
    assert_eq!(constant_writes(&tr, 1), vec![Some(37)]);
}

#[test]
fn lines_read_from_a_file_come_from_the_recorded_path() {
    // Main writes a file (kept in memory by the interpreter), reads it back
    // with fgets, fgetc and fread, and hands a number computed from what it
    // read to the worker: symbolic execution takes the bytes each read
    // delivered from main's recorded path and computes the same number.
    let src = format!(
        "{PRELUDE}#include <stdio.h>\n#include <stdlib.h>\nint out;\nvoid *w(void *p) {{ out = *(int *)p; return 0; }}\n\
         int main(void) {{ FILE *f = fopen(\"causa_guided.txt\", \"w\"); fputs(\"12\\nab3456\", f); fclose(f);\n\
         f = fopen(\"causa_guided.txt\", \"r\"); char line[8]; char *r = fgets(line, sizeof line, f);\n\
         int c = fgetc(f); char rest[8] = {{0}}; size_t n = fread(rest, 1, sizeof rest - 1, f);\n\
         int eof = fgetc(f); char *none = fgets(line, sizeof line, f); fclose(f);\n\
         int v = atoi(r) + (c == 'a') * 100 + (int)n * 1000 + atoi(rest + 1) * 10000 + (eof == EOF) + (none == 0) * 2;\n\
         pthread_t t; pthread_create(&t, 0, w, &v); pthread_join(t, 0); assert(out == 0); return 0; }}\n"
    );
    let prep = load("file_reads.c", &src);
    let ex = first_schedule_run(&prep);
    assert!(matches!(ex.outcome, Outcome::Bug(_)), "{:?}", ex.outcome);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("file reads are followed");
    agrees(&ex, &tr);
    // 12 + 100 + 5 * 1000 + 3456 * 10000 + 1 + 2 ("b3456" read whole)
    assert_eq!(constant_writes(&tr, 1), vec![Some(34_565_115)]);
}

#[test]
fn values_scanned_with_sscanf_and_fscanf_are_followed() {
    // sscanf of a known string and fscanf of a file the run wrote (its
    // consumed bytes and result from main's recorded path) store the same
    // values as the interpreter: an int, a float, a word, a %n count, and
    // fscanf's end of file (-1). Stored into shared memory (`limit`), the
    // call is one visible access writing the value.
    let src = format!(
        "{PRELUDE}#include <stdio.h>\nint out;\nint limit;\nvoid *w(void *p) {{ out = *(int *)p + limit; return 0; }}\n\
         int main(void) {{ int a = 0, used = 0; float f = 0; char word[8];\n\
         int k = sscanf(\"12 2.5 ab\", \"%d %f %7s%n\", &a, &f, word, &used);\n\
         FILE *o = fopen(\"causa_guided_scan.txt\", \"w\"); fputs(\"300 x\", o); fclose(o);\n\
         FILE *in = fopen(\"causa_guided_scan.txt\", \"r\"); int b = 0; int k2 = fscanf(in, \"%d\", &b);\n\
         int k3 = fscanf(in, \"%d\", &b); char c = 0; int k4 = fscanf(in, \" %c\", &c); int k5 = fscanf(in, \"%d\", &b); fclose(in);\n\
         sscanf(\"7\", \"%d\", &limit);\n\
         int v = a + (int)(f * 2) * 100 + (word[1] == 'b') * 1000 + used * 10000 + b * 100000\n\
             + (k == 3) + (k2 == 1) * 2 + (k3 == 0) * 4 + (c == 'x' && k4 == 1) * 8 + (k5 == -1) * 16;\n\
         pthread_t t; pthread_create(&t, 0, w, &v); pthread_join(t, 0); assert(out == 0); return 0; }}\n"
    );
    let prep = load("scans.c", &src);
    let ex = first_schedule_run(&prep);
    assert!(matches!(ex.outcome, Outcome::Bug(_)), "{:?}", ex.outcome);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("sscanf and fscanf are followed");
    agrees(&ex, &tr);
    // 12 + 5 * 100 + 1000 + 9 * 10000 + 300 * 100000 + 31, and limit's 7 read back.
    assert_eq!(constant_writes(&tr, 1), vec![Some(30_091_543 + 7)]);
}

#[test]
fn lines_read_with_getline_and_positions_from_ftell_are_followed() {
    // getline allocates the line's block (a heap block: its write is the
    // call's visible step) and fills it again for the next line; ftell's
    // position and fseek's result come from main's recorded path; at the
    // end of the file getline returns -1 (a visible step that writes
    // nothing).
    let src = format!(
        "{PRELUDE}#include <stdio.h>\n#include <stdlib.h>\nint out;\nvoid *w(void *p) {{ out = *(int *)p; return 0; }}\n\
         int main(void) {{ FILE *f = fopen(\"causa_guided_getline.txt\", \"w\"); fputs(\"12\\n345\\n\", f); fclose(f);\n\
         f = fopen(\"causa_guided_getline.txt\", \"r\"); char *line = 0; size_t cap = 0; int v = 0; long n;\n\
         while ((n = getline(&line, &cap, f)) != -1) v = v * 1000 + atoi(line) + (int)n * 100000000;\n\
         long end = ftell(f); int bad = fseek(f, -1, SEEK_SET); rewind(f); int c = fgetc(f);\n\
         v += (int)end * 10 + (bad == -1) + (c == '1') * 2; free(line); fclose(f);\n\
         pthread_t t; pthread_create(&t, 0, w, &v); pthread_join(t, 0); assert(out == 0); return 0; }}\n"
    );
    let prep = load("getline.c", &src);
    let ex = first_schedule_run(&prep);
    assert!(matches!(ex.outcome, Outcome::Bug(_)), "{:?}", ex.outcome);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("getline, ftell and fseek are followed");
    agrees(&ex, &tr);
    // v = (12 + 3e8) * 1000 + 345 + 4e8 wraps in an int; then + 7 * 10 + 3.
    let v = (((12i64 + 300_000_000) * 1000) as i32).wrapping_add(345 + 400_000_000).wrapping_add(73);
    assert_eq!(constant_writes(&tr, 1), vec![Some(v as u32 as u128)]);
}

#[test]
fn strings_split_with_strtok_r_and_strsep_in_the_thread_s_own_memory() {
    // The NUL each split writes and the position it keeps (`save`, `rest`,
    // a pointer into the line kept in main's own memory, which does not
    // make the line shared) are followed: the fields' numbers add up.
    let src = format!(
        "{PRELUDE}#include <stdlib.h>\n#include <string.h>\nint out;\nvoid *w(void *p) {{ out = *(int *)p; return 0; }}\n\
         int main(void) {{ char a[16]; strcpy(a, \"1, 20,,300\"); char *save = 0; int v = 0;\n\
         for (char *t = strtok_r(a, \", \", &save); t; t = strtok_r(0, \", \", &save)) v += atoi(t);\n\
         char b[16]; strcpy(b, \"4000;;50000\"); char *rest = b, *field; int empty = 0;\n\
         while ((field = strsep(&rest, \";\")) != 0) {{ if (*field) v += atoi(field); else empty++; }}\n\
         v += empty * 100000;\n\
         pthread_t t; pthread_create(&t, 0, w, &v); pthread_join(t, 0); assert(out == 0); return 0; }}\n"
    );
    let prep = load("split.c", &src);
    let ex = first_schedule_run(&prep);
    assert!(matches!(ex.outcome, Outcome::Bug(_)), "{:?}", ex.outcome);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("strtok_r and strsep are followed");
    agrees(&ex, &tr);
    assert_eq!(constant_writes(&tr, 1), vec![Some(154_321)]);
}

#[test]
fn attribute_getters_read_back_what_the_setters_stored() {
    // The getters' answers, followed as the interpreter keeps attribute
    // objects: the default stack size (8 MiB), then the one set; the
    // detach state set; the mutex type set; EINVAL for a too small stack.
    let src = format!(
        "{PRELUDE}#include <stddef.h>\nint out;\nvoid *w(void *p) {{ out = *(int *)p; return 0; }}\n\
         int main(void) {{ pthread_attr_t a; pthread_attr_init(&a); size_t s0 = 0, s1 = 0; int d = 0, k = 0;\n\
         pthread_attr_getstacksize(&a, &s0); int bad = pthread_attr_setstacksize(&a, 100);\n\
         pthread_attr_setstacksize(&a, 1 << 16); pthread_attr_getstacksize(&a, &s1);\n\
         pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED); pthread_attr_getdetachstate(&a, &d);\n\
         pthread_mutexattr_t m; pthread_mutexattr_init(&m); pthread_mutexattr_settype(&m, PTHREAD_MUTEX_RECURSIVE);\n\
         pthread_mutexattr_gettype(&m, &k); pthread_attr_destroy(&a);\n\
         int v = (int)(s0 >> 20) + (int)(s1 >> 16) * 10 + d * 100 + k * 1000 + bad * 10000;\n\
         pthread_t t; pthread_create(&t, 0, w, &v); pthread_join(t, 0); assert(out == 0); return 0; }}\n"
    );
    let prep = load("attrs.c", &src);
    let ex = first_schedule_run(&prep);
    assert!(matches!(ex.outcome, Outcome::Bug(_)), "{:?}", ex.outcome);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("attribute getters are followed");
    agrees(&ex, &tr);
    // 8 + 1 * 10 + 1 * 100 + 1 (recursive) * 1000 + 22 * 10000
    assert_eq!(constant_writes(&tr, 1), vec![Some(221_118)]);
}

#[test]
fn objects_have_the_run_s_addresses_when_main_takes_argv() {
    // The interpreter allocates argv's blocks (and a FILE per standard
    // stream the program declares) before main runs: the symbolic trace's
    // stack and heap objects are numbered after them too, so that the
    // worker's read of main's `v` is at the run's address.
    let src = format!(
        "{PRELUDE}#include <stdio.h>\nint out;\nvoid *w(void *p) {{ out = *(int *)p; return 0; }}\n\
         int main(int argc, char **argv) {{ int v = argc + 6; pthread_t t; pthread_create(&t, 0, w, &v);\n\
         pthread_join(t, 0); printf(\"%d\", out); assert(out == 0); return 0; }}\n"
    );
    let prep = load("argv.c", &src);
    let ex = first_schedule_run(&prep);
    let log = causa_explore::reproduce::path_log(&prep, &ex, "test", Config::default().argv);
    let tr = execute(&prep.program, &log).expect("follows the run");
    agrees(&ex, &tr);
    assert_eq!(constant_writes(&tr, 1), vec![Some(7)]);
}

#[test]
fn numbers_and_searches_of_a_private_copy_of_shared_text_are_followed() {
    // main copies the shared text into its own buffer (bytes computed from
    // shared data) and converts and searches the copy: no event of its
    // own, and a result that depends on what the copy read. Before, atoi
    // and strchr of such bytes were refused ("a byte of a value computed
    // from shared data, on the stack").
    let src = format!(
        "{PRELUDE}#include <string.h>\n#include <stdlib.h>\nchar text[8] = \"12;\";\nint out;\n\
         void *w(void *p) {{ strcpy(text, \"345\"); return 0; }}\n\
         int main(void) {{ pthread_t a; pthread_create(&a, 0, w, 0); char l[8]; strcpy(l, text);\n\
         out = atoi(l) + (strchr(l, ';') != 0);\n\
         pthread_join(a, 0); assert(out == 13); return 0; }}\n"
    );
    let prep = load("private_text.c", &src);
    let ex = first_schedule_run(&prep);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("atoi and strchr of a private copy are modelled");
    let bulk: Vec<&str> = tr.threads[0]
        .events
        .iter()
        .filter_map(|e| match &e.op {
            SymOp::Bulk { what, .. } => Some(*what),
            _ => None,
        })
        .collect();
    // Only the copy reads shared memory.
    assert_eq!(bulk, vec!["strcpy"]);
    // `out` is written with a value computed from the copy's reads.
    let out = tr.threads[0].events.iter().find_map(|e| match e.op {
        SymOp::Write { value, size: 4, .. } => Some(value),
        _ => None,
    });
    let out = out.expect("the write of out");
    assert!(tr.exprs.value(out).is_none(), "{}", tr.exprs.show(out));
    // Evaluated with the bytes the copy could read: the old text gives
    // 12 + 1 (a ';'), the new one 345 + 0.
    let pieces = tr.threads[0].events.iter().find_map(|e| match &e.op {
        SymOp::Bulk { what: "strcpy", reads, .. } => Some(reads.clone()),
        _ => None,
    });
    let pieces = pieces.expect("the copy's reads");
    for (text, want) in [(&b"12;"[..], 13u128), (b"345", 345)] {
        let mut reads = vec![None; tr.reads.len()];
        for (k, p) in pieces.iter().enumerate() {
            let id = *tr.exprs.read_ids(p.value).iter().next().expect("a read") as usize;
            reads[id] = Some(text.get(k).copied().unwrap_or(0) as u128);
        }
        assert_eq!(tr.exprs.eval(out, &reads), Some(want), "{}", tr.exprs.show(out));
    }
}

#[test]
fn sscanf_and_strtol_of_text_the_schedule_decides_are_followed() {
    // sscanf of a private copy of shared text (the hex and decimal
    // conversions, a value kept where the scan stops before it) and
    // strtol in base 0 of the same copy: each result an expression of the
    // bytes the copy read. Before, sscanf of such bytes, and strtol in
    // bases 0 and 16, were refused.
    let src = format!(
        "{PRELUDE}#include <string.h>\n#include <stdio.h>\n#include <stdlib.h>\nchar text[8] = \"012 3\";\nint out;\n\
         void *w(void *p) {{ strcpy(text, \"0x1f 2\"); return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); char l[8]; strcpy(l, text);\n\
         unsigned a = 0; int b = 0; int n = sscanf(l, \"%x %d\", &a, &b);\n\
         out = n * 10000 + a * 10 + b + strtol(l, 0, 0);\n\
         pthread_join(t, 0); assert(out == 0); return 0; }}\n"
    );
    let prep = load("scanned_text.c", &src);
    let ex = first_schedule_run(&prep);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("sscanf and strtol of a private copy are modelled");
    let out = tr.threads[0].events.iter().find_map(|e| match e.op {
        SymOp::Write { value, size: 4, .. } => Some(value),
        _ => None,
    });
    let out = out.expect("the write of out");
    let pieces = tr.threads[0].events.iter().find_map(|e| match &e.op {
        SymOp::Bulk { what: "strcpy", reads, .. } => Some(reads.clone()),
        _ => None,
    });
    let pieces = pieces.expect("the copy's reads");
    // The old text: 2 conversions, 0x12 and 3, and 012 (octal) is 10; the
    // new one: 0x1f and 2, and 0x1f; a text with no number: no conversion,
    // a and b as they were, and 0; one number: b as it was.
    let cases = [
        (&b"012 3"[..], 20000 + 180 + 3 + 10u128),
        (b"0x1f 2", 20000 + 310 + 2 + 31),
        (b"z", 0),
        (b" 9", 10000 + 90 + 9),
    ];
    for (text, want) in cases {
        let mut reads = vec![None; tr.reads.len()];
        for (k, p) in pieces.iter().enumerate() {
            let id = *tr.exprs.read_ids(p.value).iter().next().expect("a read") as usize;
            reads[id] = Some(text.get(k).copied().unwrap_or(0) as u128);
        }
        let got = tr.exprs.eval(out, &reads).map(|v| v as u32 as i32 as i128);
        assert_eq!(got, Some(want as i128), "{:?}: {}", String::from_utf8_lossy(text), tr.exprs.show(out));
    }
}

#[test]
fn strings_along_a_list_another_thread_builds_are_followed() {
    // main waits for the worker to build a list (each node's link a copy
    // of the head it read), then walks it and measures each name: main is
    // followed first, when
    // no node is known yet, so the names' targets come from the second
    // pass; the links copied from shared reads are followed to the nodes
    // (they were "values computed from shared data", refused). Each strlen
    // reads as many bytes as the longer name has (4), the shorter one
    // required to end inside its own 3.
    let src = format!(
        "{PRELUDE}#include <string.h>\nstruct node {{ char *name; struct node *next; }};\nstruct node a, b;\nstruct node *head;\n\
         char n1[3] = \"ab\";\nchar n2[4] = \"xyz\";\nvolatile int ready;\n\
         void *w(void *p) {{ a.name = n1; a.next = head; head = &a; b.name = n2; b.next = head; head = &b; ready = 1; return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); while (!ready) {{}}\n\
         unsigned long len = 0; for (struct node *n = head; n; n = n->next) len += strlen(n->name);\n\
         assert(len == 0); return 0; }}\n"
    );
    let prep = load("list_names.c", &src);
    let ex = first_schedule_run(&prep);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("strings along a list are modelled");
    let sizes: Vec<u32> = tr.threads[0]
        .events
        .iter()
        .filter_map(|e| match &e.op {
            SymOp::Bulk { at: Some(_), size, .. } => Some(*size),
            _ => None,
        })
        .collect();
    assert_eq!(sizes, vec![4, 4], "main's strlen of each node's name: {:?}", sym_view(&tr, 0));
}

#[test]
fn strings_through_a_pointer_another_thread_swaps_are_followed() {
    // strlen and atoi through `cur`, which main swaps from `a` to `b`:
    // the address is computed from shared data (it was refused). Each call
    // is one read through the pointer (its targets `a` and `b`, 8 bytes
    // each), and the result is an expression of the bytes read.
    let src = format!(
        "{PRELUDE}#include <string.h>\n#include <stdlib.h>\nchar a[8] = \"12\";\nchar b[8] = \"345\";\nchar *cur = a;\nint out;\n\
         void *w(void *p) {{ char *c = cur; out = strlen(c) * 1000 + atoi(c); return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); cur = b;\n\
         pthread_join(t, 0); assert(out == 0); return 0; }}\n"
    );
    let prep = load("swapped_pointer.c", &src);
    let ex = first_schedule_run(&prep);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("strings through a swapped pointer are modelled");
    let w = &tr.threads[1];
    let through: Vec<&Vec<causa_symbolic::trace::Piece>> = w
        .events
        .iter()
        .filter_map(|e| match &e.op {
            SymOp::Bulk { reads, at: Some(_), addr: 0, size: 8, .. } => Some(reads),
            _ => None,
        })
        .collect();
    assert_eq!(through.len(), 2, "strlen's and atoi's reads through the pointer: {:?}", sym_view(&tr, 1));
    let out = w.events.iter().find_map(|e| match e.op {
        SymOp::Write { value, size: 4, .. } => Some(value),
        _ => None,
    });
    let out = out.expect("the write of out");
    for (text, want) in [(&b"12"[..], 2012u128), (b"345", 3345), (b"7x", 2007)] {
        let mut reads = vec![None; tr.reads.len()];
        for pieces in &through {
            for (k, p) in pieces.iter().enumerate() {
                let id = *tr.exprs.read_ids(p.value).iter().next().expect("a read") as usize;
                reads[id] = Some(text.get(k).copied().unwrap_or(0) as u128);
            }
        }
        assert_eq!(
            tr.exprs.eval(out, &reads),
            Some(want),
            "{:?}: {}",
            String::from_utf8_lossy(text),
            tr.exprs.show(out)
        );
    }
}

#[test]
fn strings_copied_into_a_slot_at_a_shared_index_keep_their_bytes() {
    // `strcpy(items[tail], s)`: the slot's address is computed from the
    // shared `tail`, which main writes too (it was refused). Each copy is one write of the
    // string's bytes and NUL through that address: a constant's bytes (a
    // first version read a constant as the thread's memory, zeros) and a
    // private buffer's.
    let src = format!(
        "{PRELUDE}#include <string.h>\nchar items[4][8];\nint tail;\n\
         void put(const char *s) {{ strcpy(items[tail], s); tail = (tail + 1) % 4; }}\n\
         void *w(void *p) {{ char mine[4] = \"ok\"; put(\"hey\"); put(mine); return 0; }}\n\
         int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); tail = 2; pthread_join(t, 0);\n\
         assert(tail == 0); return 0; }}\n"
    );
    let prep = load("slot_strings.c", &src);
    let ex = first_schedule_run(&prep);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("strings copied to a computed slot are modelled");
    let writes: Vec<(u32, Option<u128>)> = tr.threads[1]
        .events
        .iter()
        .filter_map(|e| match e.op {
            SymOp::Write { at: Some(_), size, value, .. } => Some((size, tr.exprs.value(value))),
            _ => None,
        })
        .collect();
    let le = |b: &[u8]| b.iter().rev().fold(0u128, |acc, x| acc << 8 | *x as u128);
    assert_eq!(writes, vec![(4, Some(le(b"hey\0"))), (3, Some(le(b"ok\0")))], "{:?}", sym_view(&tr, 1));
}

#[test]
fn branches_whose_other_way_fails_at_once_are_marked() {
    // main tests x (the last write of the two racing threads) four times
    // after the joins: an assertion that holds (its other way is
    // __assert_fail), a check that prints and aborts, a check that exits
    // (the program ends without failing), and the assertion that fails
    // (its recorded way is the failing one, its other way goes on).
    let src = format!(
        "{PRELUDE}#include <stdio.h>\n#include <stdlib.h>\nint x, y;\n\
         void *t1(void *p) {{ int a = x; x = a + 1; y = 1; return 0; }}\n\
         void *t2(void *p) {{ int b = x; x = b + 1; return 0; }}\n\
         int main(void) {{ pthread_t p, q; pthread_create(&p, 0, t1, 0); pthread_create(&q, 0, t2, 0);\n\
         pthread_join(p, 0); pthread_join(q, 0);\n\
         assert(x >= 1);\n\
         if (x > 5) {{ printf(\"bad x\\n\"); abort(); }}\n\
         if (x == 7) exit(3);\n\
         assert(x == 2); return 0; }}\n"
    );
    let prep = load("doomed.c", &src);
    let ex = failing_run(&prep);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("symbolic execution");
    let main: Vec<(bool, bool)> = tr.threads[0].branches.iter().map(|b| (b.taken, b.doomed)).collect();
    // (taken, doomed): assertion held, check passed, no exit, assertion failed.
    assert_eq!(main, vec![(true, true), (false, true), (false, false), (false, false)], "{:?}", tr.threads[0].branches);
}

#[test]
fn a_joined_threads_result_is_what_it_returned() {
    // main branches on the results pthread_join stores: one into its own
    // variable, one into a global table (the join writes it), the second
    // passed to pthread_exit.
    let src = format!(
        "{PRELUDE}int count; void *table[1];\n\
         void *take(void *p) {{ int v = count; count = v + 1; if (p) pthread_exit((void *)(long)(v + 10)); return (void *)(long)v; }}\n\
         int main(void) {{ pthread_t a, b; void *ra; pthread_create(&a, 0, take, 0); pthread_create(&b, 0, take, (void *)1);\n\
         pthread_join(a, &ra); pthread_join(b, &table[0]); long x = (long)ra, y = (long)table[0];\n\
         if (x == 0) assert(y != 11); return 0; }}\n"
    );
    let prep = load("joined.c", &src);
    let ex = first_schedule_run(&prep);
    assert!(matches!(ex.outcome, Outcome::Bug(_)), "a takes 0, b 1 + 10: {:?}", ex.outcome);
    let tr = execute(&prep.program, &log_of(&prep, &ex)).expect("symbolic execution");
    agrees(&ex, &tr);
    // Both joins' results are reads tied to what the threads returned (not
    // constants: each depends on the thread's read of `count`).
    assert_eq!(tr.join_results.len(), 2);
    // Numbered after every other read (the others keep their ids).
    let first = tr.reads.len() as u32 - 2;
    assert!(tr.join_results.iter().all(|(r, _)| *r >= first), "{:?} of {}", tr.join_results, tr.reads.len());
    for (id, (t, k)) in tr.reads.iter().enumerate() {
        if let SymOp::Read { value, .. } = &tr.threads[*t].events[*k].op {
            if let causa_symbolic::Expr::Read { id: r, .. } = tr.exprs.get(*value) {
                assert_eq!(*r as usize, id, "read {id} at ({t}, {k})");
            }
        }
    }
    for &(read, _) in &tr.join_results {
        let x = tr.joined_result(read).expect("the joined thread returned");
        assert!(tr.exprs.value(x).is_none(), "{}", tr.exprs.show(x));
    }
    // The second join writes the table.
    let writes = |op: &SymOp| matches!(op, SymOp::Join { result: Some(_), .. });
    assert_eq!(tr.threads[0].events.iter().filter(|e| writes(&e.op)).count(), 1);
    // main's branches test the results.
    assert!(!tr.threads[0].path.is_empty());
}
