//! The library functions guided symbolic execution models: the
//! synchronisation operations become shared access points, the failure
//! functions end the thread with its failure, inputs come from the log.
//! Anything else is reported by name (never skipped silently).

use crate::exec::{Access, SymError, Thread};
use crate::trace::SymOp;
use causa_core::BugKind;
use causa_ir::{Operand, Ty};

/// The size of the interpreter's `FILE` objects (causa-interp's
/// `shims/libc/file.rs`).
const FILE_SIZE: u64 = 216;

/// What a call returns: `Some(Some(v))` a value, `Some(None)` nothing, `None`
/// the thread stops here.
type Outcome = Option<Option<crate::exec::Reg>>;

pub(crate) fn call(
    t: &mut Thread<'_, '_>,
    name: &str,
    args: &[Operand],
    argv: &[crate::exec::Reg],
    ret: &Ty,
) -> Result<Outcome, SymError> {
    let zero = |t: &mut Thread<'_, '_>| Some(Some(t.int_reg(32, 0)));
    let obj = |t: &mut Thread<'_, '_>, what: &str| t.addr_arg(args, 0, what);
    // Operations on one synchronisation object, their first argument.
    let on_object: Option<fn(u64) -> SymOp> = match name {
        "pthread_mutex_lock" | "pthread_spin_lock" | "pthread_rwlock_wrlock" => {
            Some(|m| SymOp::Lock { mutex: m, shared: false })
        }
        "pthread_rwlock_rdlock" => Some(|m| SymOp::Lock { mutex: m, shared: true }),
        "pthread_mutex_unlock" | "pthread_spin_unlock" | "pthread_rwlock_unlock" => {
            Some(|m| SymOp::Unlock { mutex: m })
        }
        "pthread_cond_signal" => Some(|c| SymOp::Signal { cond: c }),
        "pthread_cond_broadcast" => Some(|c| SymOp::Broadcast { cond: c }),
        "sem_wait" => Some(|s| SymOp::SemWait { sem: s, tried: false }),
        "sem_post" => Some(|s| SymOp::SemPost { sem: s }),
        _ => None,
    };
    if t.at_failure(BugKind::InvalidPthreadUse) {
        return invalid_use(t, name, args);
    }
    // Pointer arguments the call touches first, where the log's memory
    // error can be, before their addresses are needed: a synchronisation
    // object in freed (or no) memory; a string function's null or freed
    // pointer (read from shared memory: a pointer published after its flag).
    let touched: &[usize] = match name {
        _ if on_object.is_some() => &[0],
        "pthread_cond_wait" | "pthread_cond_timedwait" | "sem_init" | "strlen" | "strdup" => &[0],
        "strcmp" | "strcpy" | "strncpy" | "strcat" => &[0, 1],
        "strchr" | "strrchr" | "strnlen" | "memchr" | "atoi" | "atol" | "atoll" | "strtol" | "strtoll" | "strtoul"
        | "strtoull" => &[0],
        "strstr" | "strspn" | "strcspn" | "strpbrk" | "strncmp" => &[0, 1],
        _ => &[],
    };
    for arg in touched.iter().filter_map(|i| args.get(*i)) {
        if t.memory_fault(arg, Access::Bytes(1, None))? {
            return Ok(None);
        }
    }
    if let Some(op) = on_object {
        let object = obj(t, name)?;
        if name.starts_with("pthread_rwlock_") {
            t.note_rwlock(object);
        }
        match name {
            // (A recursive mutex's relocks and inner unlocks.)
            "pthread_mutex_lock" => t.lock_mutex(object),
            "pthread_mutex_unlock" => t.unlock_mutex(object),
            _ => t.sync(op(object)),
        }
        return Ok(zero(t));
    }
    Ok(match name {
        "pthread_cond_wait" => {
            let (c, m) = (obj(t, name)?, t.addr_arg(args, 1, name)?);
            t.sync(SymOp::Wait { cond: c, mutex: m });
            t.sync(SymOp::WaitReturn { cond: c, mutex: m, timed: false, woken: true });
            zero(t)
        }
        "pthread_cond_timedwait" => return t.timed_wait(args),
        "sem_init" => {
            let s = obj(t, name)?;
            let v = t.concrete_arg(args, 2, 32, name)?;
            t.set_sem_initial(s, v);
            zero(t)
        }
        "sem_destroy" => zero(t),
        "malloc" => {
            let n = t.concrete_arg(args, 0, 64, name)?;
            Some(Some(t.allocate(n as u64)))
        }
        "calloc" => {
            let (n, m) = (t.concrete_arg(args, 0, 64, name)?, t.concrete_arg(args, 1, 64, name)?);
            Some(Some(t.allocate(n.saturating_mul(m) as u64)))
        }
        "realloc" => return t.reallocate(args),
        "free" => {
            // A scheduling point in the interpreter, even for a null pointer.
            let Some(p) = args.first() else {
                return Err(SymError::Mismatch("free: missing argument".into()));
            };
            if t.memory_fault(p, Access::Free)? {
                return Ok(None);
            }
            let p = t.pointer(p)?;
            let op = t.free_op(p, false);
            t.sync(op);
            Some(None)
        }
        "pthread_barrier_init" => {
            let b = obj(t, name)?;
            let n = t.concrete_arg(args, 2, 32, name)?;
            t.set_barrier_count(b, n as u32);
            zero(t)
        }
        "pthread_barrier_destroy" => zero(t),
        "pthread_barrier_wait" => {
            // PTHREAD_BARRIER_SERIAL_THREAD (-1) for the last to arrive, else
            // 0: minus whether it is last (a read the model ties to the order).
            let b = obj(t, name)?;
            let gen = t.barrier_arrival(b)?;
            let last = t.barrier_serial(b, gen);
            t.sync(SymOp::Depart { barrier: b, gen });
            Some(Some(last))
        }
        "pthread_create" => {
            t.spawn(args)?;
            zero(t)
        }
        "pthread_join" => {
            let child = t.join_target(args)?;
            let result = t.join_result(args, &child)?;
            t.sync(SymOp::Join { child, result });
            zero(t)
        }
        // Records no event in the interpreter either. Returns 0: a second
        // detach of the same thread (EINVAL there), if the program branches
        // on it, does not fit its path, an error.
        "pthread_detach" => zero(t),
        // Visible in the interpreter when other threads can reach the lock.
        "pthread_mutex_destroy" | "pthread_spin_destroy" | "pthread_rwlock_destroy" | "pthread_cond_destroy" => {
            let mutex = obj(t, name)?;
            if t.is_shared(mutex) {
                t.sync(SymOp::Destroy { mutex });
            }
            zero(t)
        }
        "pthread_mutex_init"
        | "pthread_cond_init"
        | "pthread_mutexattr_destroy"
        | "pthread_attr_destroy"
        | "pthread_rwlock_init"
        | "pthread_rwlockattr_init"
        | "pthread_rwlockattr_destroy"
        // (As in the interpreter: one process, no priorities; every clock
        // is the same virtual clock.)
        | "pthread_mutexattr_setpshared"
        | "pthread_mutexattr_setprotocol"
        | "pthread_mutexattr_setrobust"
        | "pthread_condattr_init"
        | "pthread_condattr_destroy"
        | "pthread_condattr_setclock"
        | "pthread_spin_init" => zero(t),
        "printf" | "puts" | "fprintf" | "fputs" => {
            let at = match name {
                "printf" => Some(0),
                "fprintf" => Some(1),
                _ => None,
            };
            if t.print_fault(name, args, at)? {
                return Ok(None);
            }
            zero(t)
        }
        "putchar" | "fflush" | "fputc" | "putc" | "setvbuf" | "perror" | "fclose" => zero(t),
        // The interpreter's `FILE` of a file it opens (kept in memory when
        // written): a heap block of its own, as the run allocated it. (A
        // run whose `fopen` failed returned null: its branch on that does
        // not fit this path, an error, not a wrong trace.)
        "fopen" => Some(Some(t.allocate(FILE_SIZE))),
        // (Likewise a run whose `remove` failed: its branch on -1 does not
        // fit this path.)
        "remove" | "unlink" => zero(t),
        "fgets" => t.file_line(args)?,
        "getline" => t.file_getline("getline", args)?,
        "getdelim" | "__getdelim" => t.file_getline("getdelim", args)?,
        // The position the run's `ftell` found and whether its `fseek`
        // succeeded, from the path log; `rewind` returns nothing.
        "ftell" => t.libc_values("ftell", args)?,
        "fseek" => t.libc_values("fseek", args)?,
        // Descriptors: what the run's calls returned, and read's bytes.
        "open" | "close" => t.libc_values(name, args)?,
        "read" => t.descriptor_read(args)?,
        "rewind" => Some(None),
        "fscanf" | "__isoc99_fscanf" => t.scan_file("fscanf", args)?,
        "sscanf" | "__isoc99_sscanf" => Some(Some(t.scan_string("sscanf", args)?)),
        "fread" => t.file_block(args)?,
        "fgetc" | "getc" => t.file_byte(name)?,
        // (A recursive mutex shows in the run: its holder's relock did
        // not block, `Thread::lock_mutex`; whether a thread starts detached
        // matters only to a join of it, which the run's paths decide: see
        // `invalid_use`. The attributes are still kept for their getters.)
        n if Thread::is_attribute_call(n) => Some(Some(t.attribute_call(n, args)?)),
        "time" | "getpid" | "getenv" | "clock" | "clock_gettime" | "gettimeofday" | "rand" | "random" | "srand"
        | "srandom" => t.libc_values(name, args)?,
        "pthread_mutex_trylock" | "pthread_spin_trylock" | "pthread_mutex_timedlock" => t.trylock(name, args)?,
        "pthread_rwlock_tryrdlock" | "pthread_rwlock_trywrlock" => t.rwlock_try(name, args)?,
        "pthread_key_create" | "pthread_key_delete" | "pthread_setspecific" | "pthread_getspecific" => {
            Some(t.key_call(name, args)?)
        }
        "sem_trywait" | "sem_timedwait" => t.sem_try(name, args)?,
        "sched_yield" | "pthread_yield" | "sleep" | "usleep" | "nanosleep" => {
            t.sync(SymOp::Yield);
            zero(t)
        }
        // As in the interpreter, the event is recorded before the section
        // begins or ends (so the end is inside the section).
        "__VERIFIER_atomic_begin" => {
            t.sync(SymOp::AtomicBegin);
            t.enter_atomic();
            zero(t)
        }
        "__VERIFIER_atomic_end" => {
            t.sync(SymOp::AtomicEnd);
            t.leave_atomic();
            zero(t)
        }
        "__VERIFIER_assume" | "assume_abort_if_not" => {
            t.assume(&args[0])?;
            Some(None)
        }
        "__assert_fail" | "__assert" | "__assert_rtn" => {
            t.fail(BugKind::AssertionViolation, "assertion failed".into());
            None
        }
        "reach_error" | "__VERIFIER_error" => {
            t.fail(BugKind::AssertionViolation, format!("{name} was called"));
            None
        }
        // The program ends there, so the failing run never got to it (the
        // failure came first): the thread stops before it, as where its
        // recorded path ends. (An alternate that lets a thread exit before
        // another fails is one the replay confirms or refuses.)
        "exit" | "_exit" => t.stopped_before(),
        "abort" => {
            t.fail(BugKind::Abort, "abort was called".into());
            None
        }
        n if n.starts_with("__VERIFIER_nondet_") => {
            let bits = match ret {
                Ty::Ptr => 64,
                r => r.int_bits().max(1),
            };
            Some(Some(t.input(n, bits)?))
        }
        n if n.starts_with("llvm.dbg.") || n.starts_with("llvm.lifetime.") => Some(None),
        n if causa_ir::ops::math_double_name(n).is_some() => Some(Some(t.math(n, args, ret)?)),
        "strlen" => Some(Some(t.string_length(args)?)),
        "strdup" => Some(Some(t.string_dup(args)?)),
        "strcpy" => t.string_copy(args)?.then(|| argv.first().cloned()),
        "strncpy" => t.bounded_copy(args)?.then(|| argv.first().cloned()),
        "strcat" => t.string_append(args)?.then(|| argv.first().cloned()),
        "strcmp" => Some(Some(t.string_compare("strcmp", args)?)),
        "strncmp" => Some(Some(t.string_compare("strncmp", args)?)),
        "strtok_r" => Some(Some(t.tokenize(args)?)),
        "strsep" => Some(Some(t.separate(args)?)),
        "sprintf" => t.format_into("sprintf", args, false)?.map(Some),
        "snprintf" => t.format_into("snprintf", args, true)?.map(Some),
        "memcmp" => Some(Some(t.memory_compare(args)?)),
        "memchr" => Some(Some(t.memory_find(args)?)),
        n if crate::exec::pure::is_pure(n) => Some(Some(t.pure_call(n, args)?)),
        other => match bulk(other) {
            Some(kind) => {
                if !t.bulk_call(kind, args)? {
                    None
                } else if other.starts_with("llvm.") {
                    // libc's versions return their destination.
                    Some(None)
                } else {
                    argv.first().cloned().map(Some)
                }
            }
            None => return Err(t.unsupported_call(other)),
        },
    })
}

/// The thread does `op` and fails there with the log's invalid pthread use.
fn fails_at(t: &mut Thread<'_, '_>, op: SymOp) -> Outcome {
    t.sync(op);
    let message = t.failure_message();
    t.fail(BugKind::InvalidPthreadUse, message);
    None
}

/// The log's invalid pthread use, at this call. Modelled when the call is
/// invalid in every schedule (releasing a mutex, or waiting on a condition
/// with a mutex, that the thread does not hold: its own operations decide)
/// and when destroying a lock another thread holds or taking one another
/// thread destroyed (the order decides).
fn invalid_use(t: &mut Thread<'_, '_>, name: &str, args: &[Operand]) -> Result<Outcome, SymError> {
    let mutex_arg = match name {
        // Joining a detached (or already joined) thread: what the threads
        // did before decides it, not the order; the join still waits for
        // the thread's end, as in the interpreter.
        "pthread_join" => {
            let child = t.join_target(args)?;
            return Ok(fails_at(t, SymOp::Join { child, result: None }));
        }
        // Destroying a lock another thread holds (a condition variable
        // another thread waits on): the order decides.
        "pthread_mutex_destroy" | "pthread_spin_destroy" | "pthread_rwlock_destroy" | "pthread_cond_destroy" => {
            let mutex = t.addr_arg(args, 0, name)?;
            return Ok(fails_at(t, SymOp::Destroy { mutex }));
        }
        // Taking a lock another thread destroyed: the order decides.
        "pthread_mutex_lock"
        | "pthread_mutex_trylock"
        | "pthread_mutex_timedlock"
        | "pthread_spin_lock"
        | "pthread_spin_trylock"
        | "pthread_rwlock_wrlock"
        | "pthread_rwlock_trywrlock"
        | "pthread_rwlock_rdlock"
        | "pthread_rwlock_tryrdlock"
            if causa_core::finding::misuse::is_use_after_destroy(&t.failure_message()) =>
        {
            let mutex = t.addr_arg(args, 0, name)?;
            return Ok(fails_at(t, SymOp::Lock { mutex, shared: name.contains("rdlock") }));
        }
        "pthread_mutex_unlock" | "pthread_rwlock_unlock" | "pthread_spin_unlock" => 0,
        "pthread_cond_wait" | "pthread_cond_timedwait" => 1,
        _ => {
            return Err(t.unsupported_what(format!(
            "an invalid use of `{name}` (the solver models releasing or waiting with a mutex the thread does not hold)"
        )))
        }
    };
    let mutex = t.addr_arg(args, mutex_arg, name)?;
    if t.holds(mutex) {
        return Err(t.unsupported_what(format!("an invalid use of `{name}` by a thread that holds the mutex")));
    }
    let message = t.failure_message();
    t.fail(BugKind::InvalidPthreadUse, message);
    Ok(None)
}

/// `memcpy`, `memmove` or `memset` when `name` is one of them or its
/// `llvm.` intrinsic (`llvm.memcpy.p0i8.p0i8.i64`).
fn bulk(name: &str) -> Option<&'static str> {
    let base = name.strip_prefix("llvm.").map_or(name, |n| n.split('.').next().unwrap_or(n));
    ["memcpy", "memmove", "memset"].into_iter().find(|k| *k == base)
}
