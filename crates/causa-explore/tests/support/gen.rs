//! Small random multithreaded C programs for differential tests of the
//! explorers (`mcr_fuzz.rs`): two worker threads and main share a few
//! globals, an array indexed by a value read, two mutexes and atomic
//! updates; main joins the workers and asserts a predicate of the final
//! values (after reading them all). Every program terminates on every schedule (loops are bounded),
//! so an exhaustive DFS is the oracle. The same seed gives the same program.
//!
//! Written by hand: the programs must stay within what the interpreter runs
//! and small enough for DFS, which a general C fuzzer (csmith) does not aim
//! at.

#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::fmt::Write;

/// Globals `g0..g{GLOBALS-1}`, locals `r0..r{LOCALS-1}` in each thread.
const GLOBALS: usize = 3;
const LOCALS: usize = 3;

/// What a program may use beyond plain reads and writes.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    pub locks: bool,
    pub atomics: bool,
    pub arrays: bool,
    pub branches: bool,
    pub condvars: bool,
    pub trylocks: bool,
    /// A semaphore (posts, waits that may block for good, tries).
    pub sems: bool,
    /// A heap block main allocates and any thread may free (a racy
    /// take-and-free: double frees and uses after free).
    pub heap: bool,
    /// Full fences between plain accesses (they matter under TSO and PSO).
    pub fences: bool,
    /// A reader-writer lock besides the mutexes.
    pub rwlocks: bool,
    /// A barrier for two threads.
    pub barriers: bool,
}

impl Features {
    /// Everything but semaphores and the heap (the programs of the first
    /// seeds, kept as they were).
    pub fn all() -> Features {
        Features {
            locks: true,
            atomics: true,
            arrays: true,
            branches: true,
            condvars: true,
            trylocks: true,
            sems: false,
            heap: false,
            fences: false,
            rwlocks: false,
            barriers: false,
        }
    }

    /// Everything, semaphores and the heap too.
    pub fn extended() -> Features {
        Features { sems: true, heap: true, ..Features::all() }
    }

    /// For the relaxed memory models: [`Features::all`] and fences.
    pub fn relaxed() -> Features {
        Features { fences: true, ..Features::all() }
    }

    /// [`Features::all`], a reader-writer lock and a barrier.
    pub fn sync() -> Features {
        Features { rwlocks: true, barriers: true, ..Features::all() }
    }
}

struct Gen {
    rng: Pcg64,
    f: Features,
    /// Mutexes the statement being generated is nested in.
    held: Vec<usize>,
    /// Visible operations generated so far in this thread (a bound keeps
    /// DFS small).
    ops: usize,
    budget: usize,
}

impl Gen {
    fn g(&mut self) -> String {
        format!("g{}", self.rng.random_range(0..GLOBALS))
    }
    fn r(&mut self) -> String {
        format!("r{}", self.rng.random_range(0..LOCALS))
    }
    fn c(&mut self) -> i32 {
        self.rng.random_range(0..3)
    }
    fn chance(&mut self, percent: u32) -> bool {
        self.rng.random_range(0..100) < percent
    }

    /// A statement on the semaphore or the heap block (drawn only when
    /// one of them is on, so the other programs stay as they were).
    fn extended(&mut self) -> Option<String> {
        if self.f.barriers && self.chance(10) {
            self.ops += 1;
            return Some("pthread_barrier_wait(&bar);".to_string());
        }
        if self.f.fences && self.chance(15) {
            return Some("__atomic_thread_fence(__ATOMIC_SEQ_CST);".to_string());
        }
        if !(self.f.sems || self.f.heap) || !self.chance(30) {
            return None;
        }
        let (r, c) = (self.r(), self.c());
        let pick = self.rng.random_range(0..100);
        Some(match pick {
            0..=19 if self.f.sems => "sem_post(&s);".to_string(),
            20..=34 if self.f.sems => "sem_wait(&s);".to_string(),
            35..=44 if self.f.sems => format!("{r} = sem_trywait(&s);"),
            45..=64 if self.f.heap => format!("{{ int *q = hp; if (q) {r} = q[{r} & 1]; }}"),
            65..=84 if self.f.heap => format!("{{ int *q = hp; if (q) q[{r} & 1] = {c}; }}"),
            85..=99 if self.f.heap => "{ int *q = hp; hp = 0; if (q) free(q); }".to_string(),
            _ => return None,
        })
    }

    /// One statement with no nested block.
    fn simple(&mut self, out: &mut String, indent: &str) {
        self.ops += 1;
        if let Some(line) = self.extended() {
            let _ = writeln!(out, "{indent}{line}");
            return;
        }
        let pick = self.rng.random_range(0..100);
        let (g, r, c) = (self.g(), self.r(), self.c());
        let line = match pick {
            0..=29 => format!("{r} = {g};"),
            30..=49 => format!("{g} = {c};"),
            50..=64 => format!("{g} = {r} + 1;"),
            65..=74 if self.f.arrays => format!("arr[{r} & 1] = {c};"),
            75..=79 if self.f.arrays => format!("{r} = arr[{r} & 1];"),
            80..=87 if self.f.atomics => format!("{r} = __atomic_fetch_add(&{g}, 1, __ATOMIC_SEQ_CST);"),
            88..=93 if self.f.atomics => format!("{r} = __atomic_exchange_n(&{g}, {c}, __ATOMIC_SEQ_CST);"),
            94..=99 if self.f.atomics => {
                let d = self.c();
                format!(
                    "{{ int e = {c}; {r} = __atomic_compare_exchange_n(&{g}, &e, {d}, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }}"
                )
            }
            _ => format!("{r} = {g};"),
        };
        let _ = writeln!(out, "{indent}{line}");
    }

    fn block(&mut self, out: &mut String, indent: &str, depth: usize) {
        let pick = self.rng.random_range(0..100);
        let locks = if self.f.rwlocks { 3 } else { 2 };
        let free: Vec<usize> = (0..locks).filter(|m| !self.held.contains(m)).collect();
        if pick < 25 && self.f.locks && depth < 2 && !free.is_empty() {
            let m = free[self.rng.random_range(0..free.len())];
            self.ops += 2;
            self.held.push(m);
            let inner = format!("{indent}    ");
            // (Lock 2 is the reader-writer lock, taken to read or to write.)
            let (lock, trylock, unlock) = match m {
                2 if self.chance(50) => ("pthread_rwlock_rdlock", "pthread_rwlock_tryrdlock", "pthread_rwlock_unlock"),
                2 => ("pthread_rwlock_wrlock", "pthread_rwlock_trywrlock", "pthread_rwlock_unlock"),
                _ => ("pthread_mutex_lock", "pthread_mutex_trylock", "pthread_mutex_unlock"),
            };
            let name = if m == 2 { "rw".to_string() } else { format!("m{m}") };
            if self.f.trylocks && self.chance(20) {
                let _ = writeln!(out, "{indent}if ({trylock}(&{name}) == 0) {{");
                self.ops += 1;
            } else {
                let _ = writeln!(out, "{indent}{lock}(&{name}); {{");
            }
            let n = self.rng.random_range(1..=2);
            for _ in 0..n {
                self.block(out, &inner, depth + 1);
            }
            if self.f.condvars && m == 0 && self.chance(30) {
                let _ = writeln!(out, "{inner}flag = 1; pthread_cond_broadcast(&cv);");
                self.ops += 2;
            }
            let _ = writeln!(out, "{inner}{unlock}(&{name});");
            let _ = writeln!(out, "{indent}}}");
            self.held.pop();
        } else if pick < 40 && self.f.branches && depth < 2 {
            let (r, c) = (self.r(), self.c());
            let _ = writeln!(out, "{indent}if ({r} == {c}) {{");
            self.block(out, &format!("{indent}    "), depth + 1);
            if self.chance(40) {
                let _ = writeln!(out, "{indent}}} else {{");
                self.block(out, &format!("{indent}    "), depth + 1);
            }
            let _ = writeln!(out, "{indent}}}");
        } else if pick < 45 && depth < 2 {
            let _ = writeln!(out, "{indent}for (int k = 0; k < 2; k++) {{");
            self.simple(out, &format!("{indent}    "));
            self.ops += 1;
            let _ = writeln!(out, "{indent}}}");
        } else if pick < 50 && self.f.condvars && self.f.locks && self.held.is_empty() && depth < 2 {
            // A wait for a flag another thread may set under m0 with a
            // broadcast; when none does, or it comes first without the
            // flag, the waiter sleeps for good: a deadlock, an outcome like
            // any other.
            let g = self.g();
            self.ops += 4;
            let _ = writeln!(
                out,
                "{indent}pthread_mutex_lock(&m0); if (flag == 0) pthread_cond_wait(&cv, &m0); {g} = flag; pthread_mutex_unlock(&m0);"
            );
        } else {
            self.simple(out, indent);
        }
    }

    fn thread(&mut self, name: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "void *{name}(void *p) {{");
        let _ = writeln!(out, "    int r0 = 0, r1 = 0, r2 = 0;");
        self.ops = 0;
        while self.ops < self.budget {
            self.block(&mut out, "    ", 0);
        }
        let _ = writeln!(out, "    last_{name} = r0 + 3 * r1 + 9 * r2;");
        let _ = writeln!(out, "    return 0;\n}}");
        out
    }
}

/// The program of `seed`: its C source.
pub fn program(seed: u64, f: Features) -> String {
    let mut gen = Gen { rng: Pcg64::seed_from_u64(seed), f, held: Vec::new(), ops: 0, budget: 0 };
    gen.budget = gen.rng.random_range(2..=3);
    let t0 = gen.thread("t0");
    gen.budget = gen.rng.random_range(1..=3);
    let t1 = gen.thread("t1");
    let mut main_ops = String::new();
    let main_writes = gen.rng.random_range(0..=1);
    for _ in 0..main_writes {
        let (g, c) = (gen.g(), gen.c());
        let _ = writeln!(main_ops, "    {g} = {c};");
    }
    // The final predicate: main fails when two globals hold chosen values
    // (often reachable on some schedules only).
    let (a, b) = (gen.rng.random_range(0..GLOBALS), gen.rng.random_range(0..GLOBALS));
    let (ca, cb) = (gen.c(), gen.c());
    let mut src = String::new();
    src.push_str("#include <assert.h>\n#include <pthread.h>\n");
    if f.sems || f.heap {
        src.push_str("#include <semaphore.h>\n#include <stdlib.h>\nsem_t s;\nint *hp;\n");
    }
    if f.rwlocks || f.barriers {
        src.push_str("pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;\npthread_barrier_t bar;\n");
    }
    src.push_str("int g0, g1, g2, arr[2], flag, last_t0, last_t1, seen;\n");
    src.push_str("pthread_mutex_t m0 = PTHREAD_MUTEX_INITIALIZER, m1 = PTHREAD_MUTEX_INITIALIZER;\n");
    src.push_str("pthread_cond_t cv = PTHREAD_COND_INITIALIZER;\n");
    src.push_str(&t0);
    src.push_str(&t1);
    src.push_str("int main(void) {\n    pthread_t a, b;\n");
    if f.rwlocks || f.barriers {
        src.push_str("    pthread_barrier_init(&bar, 0, 2);\n");
    }
    if f.sems || f.heap {
        let start = gen.rng.random_range(0..=1);
        let _ = writeln!(src, "    sem_init(&s, 0, {start});\n    hp = calloc(2, sizeof(int));");
    }
    src.push_str("    pthread_create(&a, 0, t0, 0);\n    pthread_create(&b, 0, t1, 0);\n");
    src.push_str(&main_ops);
    src.push_str("    pthread_join(a, 0);\n    pthread_join(b, 0);\n");
    // Main reads every global: MCR tells states apart by the values reads
    // return, so a final value no read sees is not one of its states.
    src.push_str("    seen = g0 + 4 * g1 + 16 * g2 + 64 * arr[0] + 256 * arr[1] + 1024 * flag + 2048 * last_t0 + 65536 * last_t1;\n");
    if f.sems || f.heap {
        // (What is left of the semaphore and the block, read too; main
        // frees the block when no thread did.)
        src.push_str("    int left = 0;\n    sem_getvalue(&s, &left);\n");
        src.push_str("    int *q = hp;\n    if (q) { seen += 4096 * (q[0] + 3 * q[1]); free(q); }\n");
        src.push_str("    seen += 1 << (20 + (left & 3));\n");
    }
    let _ = writeln!(src, "    assert(!(g{a} == {ca} && g{b} == {cb}));");
    src.push_str("    return 0;\n}\n");
    src
}
