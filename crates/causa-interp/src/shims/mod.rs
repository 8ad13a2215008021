//! External functions causa models ("shims"), in one registry.
//!
//! Each library module supplies `register(&mut Registry)` with one row per
//! function: name, library, handler, and — for visible operations — the event
//! kind it records and an optional `enabled` test (a lock is enabled only when it
//! can be acquired). Adding a shim takes two steps: write the handler, add a row.
//!
//! Callees are resolved once at load time (`prepare.rs`): the module's own
//! definition, then a shim, then a load-time error listing every unsupported
//! external (SV-COMP functions always take their shim).
//! LLVM intrinsics are looked up without their type suffixes
//! (`llvm.memcpy.p0i8.p0i8.i64` → `llvm.memcpy`).

pub mod intrinsics;
pub mod libc;
pub mod pthread;
pub mod verifier;

use crate::machine::Machine;
use crate::outcome::Stop;
use crate::thread::{Frame, Pending};
use causa_core::collections::HashMap;
use causa_core::{EventKind, Tid};
use causa_ir::{Op, Value};
use std::sync::OnceLock;

pub type ShimId = usize;

/// What a shim handler did.
pub enum Ret {
    /// Return this value (ignored for void calls).
    Value(Value),
    /// The thread stays inside the call, waiting; the machine parks it with this state.
    Park(Pending),
    /// The handler pushed a frame (and advanced the caller past the call).
    Pushed,
    /// The calling thread ended (`pthread_exit`).
    Ended,
}

/// One call of a shim.
pub struct Call<'a> {
    /// The calling thread.
    pub t: Tid,
    pub args: &'a [Value],
    /// The callee's symbol name (intrinsics keep their type suffixes).
    pub name: &'a str,
    /// The call's return type.
    pub ret: &'a causa_ir::Ty,
    /// The caller's destination register (`NONE` if unused).
    pub dest: u32,
    /// The call is a visible operation whose event was just recorded (the
    /// handler may refine that event through `Machine::events.last_mut()`).
    pub visible: bool,
}

impl Call<'_> {
    /// Argument `i` as an integer (0 when missing).
    #[inline]
    pub fn int(&self, i: usize) -> u128 {
        arg(self.args, i)
    }

    /// Argument `i` as an address.
    #[inline]
    pub fn ptr(&self, i: usize) -> u64 {
        arg(self.args, i) as u64
    }

    /// Argument `i` as a C `int`.
    #[inline]
    pub fn i32(&self, i: usize) -> i32 {
        arg(self.args, i) as u32 as i32
    }
}

pub type Handler = fn(&mut Machine, &Call<'_>) -> Result<Ret, Stop>;
/// Whether a parked call can proceed; sees the call's first two arguments.
pub type EnabledFn = fn(&Machine, Tid, &[Value]) -> bool;
/// Describes what a disabled call waits for (a full sentence after the thread
/// name, see [`with_holder`]) and the thread it waits for, if any (deadlock reports).
pub type WaitFn = fn(&Machine, Tid, &[Value]) -> (String, Option<Tid>);

pub struct ShimDesc {
    pub name: &'static str,
    pub lib: &'static str,
    pub handler: Handler,
    /// `Some(kind)`: a visible operation, recorded as `kind`; `None`: runs invisibly.
    pub event: Option<EventKind>,
    pub enabled: Option<EnabledFn>,
    pub waits: Option<WaitFn>,
    /// For memory functions: the call is visible only when one of these pointer
    /// arguments points to memory other threads can reach (empty: always visible).
    pub shared_args: &'static [usize],
}

#[derive(Default)]
pub struct Registry {
    pub shims: Vec<ShimDesc>,
    by_name: HashMap<&'static str, ShimId>,
}

impl Registry {
    /// Add an invisible shim.
    pub fn add(&mut self, lib: &'static str, name: &'static str, handler: Handler) -> &mut ShimDesc {
        self.insert(ShimDesc { name, lib, handler, event: None, enabled: None, waits: None, shared_args: &[] })
    }

    /// Add a visible shim recorded as `kind`.
    pub fn visible(
        &mut self,
        lib: &'static str,
        name: &'static str,
        kind: EventKind,
        handler: Handler,
    ) -> &mut ShimDesc {
        self.insert(ShimDesc { name, lib, handler, event: Some(kind), shared_args: &[], enabled: None, waits: None })
    }

    /// Add a memory function that is visible (recorded as `kind`) only when one
    /// of the pointer arguments `shared_args` points to shared memory.
    pub fn visible_if_shared(
        &mut self,
        lib: &'static str,
        name: &'static str,
        kind: EventKind,
        shared_args: &'static [usize],
        handler: Handler,
    ) -> &mut ShimDesc {
        let d = self.visible(lib, name, kind, handler);
        d.shared_args = shared_args;
        d
    }

    fn insert(&mut self, d: ShimDesc) -> &mut ShimDesc {
        let id = self.shims.len();
        assert!(self.by_name.insert(d.name, id).is_none(), "shim {} registered twice", d.name);
        self.shims.push(d);
        &mut self.shims[id]
    }

    /// Find the shim for a symbol (intrinsics without their type suffixes).
    pub fn lookup(&self, name: &str) -> Option<ShimId> {
        // Every SV-COMP input function (`__VERIFIER_nondet_pchar`, `_sector_t`, …):
        // the handler reads the width from the call's return type.
        if name.starts_with("__VERIFIER_nondet_") && !self.by_name.contains_key(name) {
            return self.by_name.get("__VERIFIER_nondet_int").copied();
        }
        if let Some(id) = self.by_name.get(name) {
            return Some(*id);
        }
        if name.starts_with("llvm.") {
            let mut n = name;
            while let Some((head, _)) = n.rsplit_once('.') {
                if let Some(id) = self.by_name.get(head) {
                    return Some(*id);
                }
                n = head;
            }
        }
        None
    }
}

impl ShimDesc {
    pub fn enabled_when(&mut self, f: EnabledFn, waits: WaitFn) -> &mut Self {
        self.enabled = Some(f);
        self.waits = Some(waits);
        self
    }
}

/// The registry of all shims, built once.
pub fn registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(|| {
        let mut r = Registry::default();
        libc::register(&mut r);
        pthread::register(&mut r);
        verifier::register(&mut r);
        intrinsics::register(&mut r);
        r
    })
}

/// The shim a thread is parked at a call of, with the call's frame and
/// argument operands.
fn parked_shim(m: &Machine, t: Tid) -> Option<(&'static ShimDesc, &Frame, &[causa_ir::Operand])> {
    let (fr, ins) = m.parked_instr(t)?;
    let Op::Call { callee, args, .. } = &ins.op else {
        return None;
    };
    let fid = match callee {
        causa_ir::Callee::Direct(f) => *f,
        causa_ir::Callee::Indirect(op) => m.prep.program.function_at(crate::step::int(&fr.regs, op) as u64)?,
        causa_ir::Callee::Asm => return None,
    };
    let shim = m.prep.shims[fid as usize]?;
    Some((&registry().shims[shim], fr, args))
}

/// The shim call a thread is parked at, if it has an `enabled` test, with its
/// first two argument values (all that `enabled` and `waits` tests look at; kept
/// on the stack because this runs for every thread at every step).
fn parked_call(m: &Machine, t: Tid) -> Option<(&'static ShimDesc, [Value; 2])> {
    let (desc, fr, args) = parked_shim(m, t)?;
    desc.enabled?;
    let arg = |i: usize| args.get(i).map(|a| crate::step::val(&fr.regs, a)).unwrap_or(Value::ZERO);
    Some((desc, [arg(0), arg(1)]))
}

/// Whether `t` is parked at a call of a shim whose event is `kind` (any
/// shim, not only those with an `enabled` test).
pub fn parked_at_kind(m: &Machine, t: Tid, kind: EventKind) -> bool {
    parked_shim(m, t).is_some_and(|(desc, _, _)| desc.event == Some(kind))
}

/// Whether the visible instruction `t` is parked at can run now.
pub fn pending_enabled(m: &Machine, t: Tid) -> bool {
    match parked_call(m, t) {
        Some((desc, args)) => desc.enabled.is_none_or(|f| f(m, t, &args)),
        None => true,
    }
}

/// What a parked, disabled thread waits for (deadlock reports).
pub fn pending_wait(m: &Machine, t: Tid) -> (String, Option<Tid>) {
    match parked_call(m, t) {
        Some((desc, args)) => match desc.waits {
            Some(f) => f(m, t, &args),
            None => (format!("is blocked in {}", desc.name), None),
        },
        None => ("is blocked".to_string(), None),
    }
}

/// The visible operation (event kind) a parked thread waits to perform, with
/// its first two arguments.
pub fn pending_op(m: &Machine, t: Tid) -> Option<(EventKind, [Value; 2])> {
    parked_call(m, t).and_then(|(desc, args)| Some((desc.event?, args)))
}

/// Argument `i` as an integer (0 when missing).
#[inline]
pub fn arg(args: &[Value], i: usize) -> u128 {
    args.get(i).map(|v| v.as_int()).unwrap_or(0)
}

/// Argument `i` as an address.
#[inline]
pub fn ptr(args: &[Value], i: usize) -> u64 {
    arg(args, i) as u64
}

/// Return an `i32` result.
pub fn ret_i32(v: i32) -> Result<Ret, Stop> {
    Ok(Ret::Value(Value::Int(v as u32 as u128)))
}

/// Return a 64-bit result.
pub fn ret_u64(v: u64) -> Result<Ret, Stop> {
    Ok(Ret::Value(Value::Int(v as u128)))
}

/// `what`, followed by who holds the object (for deadlock notes).
pub fn with_holder(m: &Machine, t: Tid, what: String, holder: Option<Tid>) -> String {
    match holder {
        Some(h) if h == t => format!("{what}, which it holds itself"),
        Some(h) => format!("{what} held by thread {}", m.names[h as usize]),
        None => what,
    }
}
