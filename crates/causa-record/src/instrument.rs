//! The instrumentation pass: calls to the recorder runtime inserted into the
//! very module causa analyses (LLVM C API through `llvm-sys`).
//!
//! Each function the interpreter executes (defined, not one of the SV-COMP
//! functions causa intercepts) gets, before every terminator and call that
//! makes a decision in causa's lowered IR, a call that records it:
//! `__causa_branch(cond)` before a conditional branch, `__causa_switch(k)`
//! before a `switch` (k computed from the case values in case order: 0 for
//! the default destination), `__causa_icall(callee)` before an indirect
//! call, `__causa_size(v)` before a direct call of a function whose size
//! arguments path logs record (`memcpy`, `malloc`, …: one call per
//! argument, `causa_core::paths::SIZED_CALLS`) — except the branches and switches path logs leave out, which the
//! caller names from causa's lowering of the same module (no shared read
//! influences them, `causa_ir::local`). Calls that report a failure (`__assert_fail`, `abort`,
//! `reach_error`, `__VERIFIER_error`) get `__causa_site(file, line, column)`
//! with their debug location, as causa's lowering names it. The program's
//! `pthread_create`, failure functions and `__VERIFIER_nondet_*` are
//! redirected to the runtime's, and so are the calls whose outcome path
//! logs record (`pthread_once`, the clocks, `rand`, lock and semaphore
//! tries). The module
//! also gets a table of its defined functions (for naming indirect-call
//! targets) and its fingerprint.
//!
//! Written by hand: no crate instruments LLVM IR for path logging; the
//! `llvm-ir` crate causa reads modules with is read-only.

use crate::RecordError;
use causa_core::collections::HashMap;
use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
use llvm_sys::bit_writer::LLVMWriteBitcodeToFile;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMIntPredicate, LLVMLinkage, LLVMOpcode};
use std::ffi::{CStr, CString};
use std::os::raw::c_char;
use std::path::Path;
use std::ptr::null_mut;

/// What the pass inserted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Instrumented {
    pub functions: usize,
    pub branches: usize,
    /// Branches and switches left out: no shared read influences them.
    pub local_branches: usize,
    pub switches: usize,
    pub indirect_calls: usize,
    pub sites: usize,
    /// Size arguments recorded (`__causa_size` calls inserted).
    pub sizes: usize,
}

/// Functions whose calls can report a failure.
const FAILURE_CALLS: [&str; 4] = ["__assert_fail", "abort", "reach_error", "__VERIFIER_error"];

/// The program's functions redirected to the runtime's.
const REDIRECTS: [(&str, &str); 34] = [
    ("pthread_create", "__causa_pthread_create"),
    ("pthread_exit", "__causa_pthread_exit"),
    ("__assert_fail", "__causa_assert_fail"),
    ("abort", "__causa_abort"),
    ("reach_error", "__causa_reach_error"),
    ("__VERIFIER_error", "__causa_reach_error"),
    ("pthread_once", "__causa_pthread_once"),
    ("clock_gettime", "__causa_clock_gettime"),
    ("gettimeofday", "__causa_gettimeofday"),
    ("clock", "__causa_clock"),
    ("rand", "__causa_rand"),
    ("random", "__causa_random"),
    ("fgets", "__causa_fgets"),
    ("fgetc", "__causa_fgetc"),
    ("getc", "__causa_getc"),
    ("fread", "__causa_fread"),
    ("fscanf", "__causa_fscanf"),
    ("__isoc99_fscanf", "__causa_fscanf"),
    ("getline", "__causa_getline"),
    ("getdelim", "__causa_getdelim"),
    ("__getdelim", "__causa_getdelim"),
    ("ftell", "__causa_ftell"),
    ("fseek", "__causa_fseek"),
    ("open", "__causa_open"),
    ("read", "__causa_read"),
    ("close", "__causa_close"),
    ("pthread_mutex_trylock", "__causa_pthread_mutex_trylock"),
    ("pthread_spin_trylock", "__causa_pthread_spin_trylock"),
    ("pthread_mutex_timedlock", "__causa_pthread_mutex_timedlock"),
    ("sem_trywait", "__causa_sem_trywait"),
    ("sem_timedwait", "__causa_sem_timedwait"),
    ("pthread_cond_timedwait", "__causa_pthread_cond_timedwait"),
    ("pthread_rwlock_tryrdlock", "__causa_pthread_rwlock_tryrdlock"),
    ("pthread_rwlock_trywrlock", "__causa_pthread_rwlock_trywrlock"),
];

/// Instrument the bitcode at `input` (the module causa analyses, whose
/// fingerprint is `fingerprint`) and write the result to `output`.
/// `recorded` says, per function name and block, whether the block's branch
/// goes into path logs (causa's lowering of the same module: see
/// `causa_ir::local`); branches of unlisted functions are recorded.
pub fn instrument(
    input: &Path,
    output: &Path,
    program: &str,
    fingerprint: &str,
    recorded: &HashMap<String, Vec<bool>>,
) -> Result<Instrumented, RecordError> {
    // SAFETY: every LLVM object is created in and owned by the context made
    // here, used on this thread only, and disposed of when `Ctx` drops.
    unsafe {
        let ctx = Ctx(LLVMContextCreate());
        let module = parse(ctx.0, input)?;
        let mut pass = Pass::new(ctx.0, module, recorded);
        let stats = pass.run(program, fingerprint);
        let mut msg: *mut c_char = null_mut();
        if LLVMVerifyModule(module, LLVMVerifierFailureAction::LLVMReturnStatusAction, &mut msg) != 0 {
            let m = take_message(msg);
            LLVMDisposeModule(module);
            return Err(RecordError::Instrument(format!("the instrumented module is invalid: {m}")));
        }
        take_message(msg);
        let out = cstring(&output.display().to_string())?;
        let failed = LLVMWriteBitcodeToFile(module, out.as_ptr()) != 0;
        LLVMDisposeModule(module);
        if failed {
            return Err(RecordError::Instrument(format!("cannot write {}", output.display())));
        }
        Ok(stats)
    }
}

struct Ctx(LLVMContextRef);

impl Drop for Ctx {
    fn drop(&mut self) {
        // SAFETY: the context was created by `LLVMContextCreate` and its module
        // was disposed of before.
        unsafe { LLVMContextDispose(self.0) }
    }
}

fn cstring(s: &str) -> Result<CString, RecordError> {
    CString::new(s).map_err(|_| RecordError::Instrument(format!("a name with a NUL byte: {s:?}")))
}

unsafe fn take_message(msg: *mut c_char) -> String {
    if msg.is_null() {
        return String::new();
    }
    let s = CStr::from_ptr(msg).to_string_lossy().into_owned();
    LLVMDisposeMessage(msg);
    s
}

unsafe fn parse(ctx: LLVMContextRef, input: &Path) -> Result<LLVMModuleRef, RecordError> {
    let path = cstring(&input.display().to_string())?;
    let mut buf: LLVMMemoryBufferRef = null_mut();
    let mut msg: *mut c_char = null_mut();
    if LLVMCreateMemoryBufferWithContentsOfFile(path.as_ptr(), &mut buf, &mut msg) != 0 {
        return Err(RecordError::Instrument(format!("cannot read {}: {}", input.display(), take_message(msg))));
    }
    let mut module: LLVMModuleRef = null_mut();
    let failed = LLVMParseBitcodeInContext2(ctx, buf, &mut module) != 0;
    LLVMDisposeMemoryBuffer(buf);
    if failed {
        return Err(RecordError::Instrument(format!("{} is not LLVM 14 bitcode", input.display())));
    }
    Ok(module)
}

unsafe fn name_of(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    let p = LLVMGetValueName2(v, &mut len);
    if p.is_null() {
        return String::new();
    }
    String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
}

struct Pass<'r> {
    recorded: &'r HashMap<String, Vec<bool>>,
    ctx: LLVMContextRef,
    module: LLVMModuleRef,
    builder: LLVMBuilderRef,
    i1: LLVMTypeRef,
    i32: LLVMTypeRef,
    i64: LLVMTypeRef,
    i8p: LLVMTypeRef,
}

impl Drop for Pass<'_> {
    fn drop(&mut self) {
        // SAFETY: the builder belongs to this pass.
        unsafe { LLVMDisposeBuilder(self.builder) }
    }
}

impl<'r> Pass<'r> {
    unsafe fn new(ctx: LLVMContextRef, module: LLVMModuleRef, recorded: &'r HashMap<String, Vec<bool>>) -> Pass<'r> {
        Pass {
            recorded,
            ctx,
            module,
            builder: LLVMCreateBuilderInContext(ctx),
            i1: LLVMInt1TypeInContext(ctx),
            i32: LLVMInt32TypeInContext(ctx),
            i64: LLVMInt64TypeInContext(ctx),
            i8p: LLVMPointerType(LLVMInt8TypeInContext(ctx), 0),
        }
    }

    /// The runtime function `name` of type `void(params)`.
    unsafe fn runtime(&self, name: &str, params: &mut [LLVMTypeRef]) -> (LLVMValueRef, LLVMTypeRef) {
        let ty = LLVMFunctionType(LLVMVoidTypeInContext(self.ctx), params.as_mut_ptr(), params.len() as u32, 0);
        let cname = CString::new(name).expect("runtime names have no NUL");
        let mut f = LLVMGetNamedFunction(self.module, cname.as_ptr());
        if f.is_null() {
            f = LLVMAddFunction(self.module, cname.as_ptr(), ty);
        }
        (f, ty)
    }

    unsafe fn call(&self, f: (LLVMValueRef, LLVMTypeRef), args: &mut [LLVMValueRef]) {
        LLVMBuildCall2(self.builder, f.1, f.0, args.as_mut_ptr(), args.len() as u32, c"".as_ptr());
    }

    unsafe fn run(&mut self, program: &str, fingerprint: &str) -> Instrumented {
        let mut stats = Instrumented::default();
        let mut defined = Vec::new();
        let mut f = LLVMGetFirstFunction(self.module);
        while !f.is_null() {
            if LLVMIsDeclaration(f) == 0 {
                defined.push(f);
            }
            f = LLVMGetNextFunction(f);
        }
        let branch = self.runtime("__causa_branch", &mut [self.i1]);
        let switch = self.runtime("__causa_switch", &mut [self.i32]);
        let icall = self.runtime("__causa_icall", &mut [self.i8p]);
        let site = self.runtime("__causa_site", &mut [self.i8p, self.i32, self.i32]);
        let size = self.runtime("__causa_size", &mut [self.i64]);
        for &f in &defined {
            let name = name_of(f);
            if causa_ir::svcomp_intercepted(&name) {
                continue;
            }
            stats.functions += 1;
            let flags = self.recorded.get(&name);
            let mut bb = LLVMGetFirstBasicBlock(f);
            let mut index = 0;
            while !bb.is_null() {
                let recorded = flags.and_then(|v| v.get(index).copied()).unwrap_or(true);
                self.block(bb, recorded, [branch, switch, icall, site, size], &mut stats);
                bb = LLVMGetNextBasicBlock(bb);
                index += 1;
            }
        }
        self.redirect();
        self.tables(&defined, program, fingerprint);
        stats
    }

    /// Instrument one block; `recorded`: its branch goes into path logs.
    unsafe fn block(
        &mut self,
        bb: LLVMBasicBlockRef,
        recorded: bool,
        [branch, switch, icall, site, size]: [(LLVMValueRef, LLVMTypeRef); 5],
        stats: &mut Instrumented,
    ) {
        let mut calls = Vec::new();
        let mut i = LLVMGetFirstInstruction(bb);
        while !i.is_null() {
            if LLVMGetInstructionOpcode(i) == LLVMOpcode::LLVMCall {
                calls.push(i);
            }
            i = LLVMGetNextInstruction(i);
        }
        for call in calls {
            let callee = LLVMGetCalledValue(call);
            LLVMPositionBuilderBefore(self.builder, call);
            if !LLVMIsAFunction(callee).is_null() {
                let name = name_of(callee);
                // The size arguments, then a formatting call's integer and
                // pointer arguments, as u64, in the interpreter's order.
                let sized = causa_core::paths::sized_args(&name).iter().map(|&k| (k as u32, false));
                let printed = causa_core::paths::format_args_from(&name)
                    .map_or(0..0, |from| from as u32..LLVMGetNumArgOperands(call))
                    .map(|k| (k, true));
                for (k, pointers) in sized.chain(printed) {
                    if let Some(v) = self.as_u64(LLVMGetOperand(call, k), pointers) {
                        self.call(size, &mut [v]);
                        stats.sizes += 1;
                    }
                }
                if FAILURE_CALLS.contains(&name.as_str()) {
                    let (file, line, col) = self.location(call);
                    let file = LLVMBuildGlobalStringPtr(self.builder, file.as_ptr(), c"".as_ptr());
                    let line = LLVMConstInt(self.i32, line as u64, 0);
                    let col = LLVMConstInt(self.i32, col as u64, 0);
                    self.call(site, &mut [file, line, col]);
                    stats.sites += 1;
                }
            } else if LLVMIsAInlineAsm(callee).is_null() {
                let p = LLVMBuildBitCast(self.builder, callee, self.i8p, c"".as_ptr());
                self.call(icall, &mut [p]);
                stats.indirect_calls += 1;
            }
        }
        let term = LLVMGetBasicBlockTerminator(bb);
        if term.is_null() {
            return;
        }
        let opcode = LLVMGetInstructionOpcode(term);
        let decides =
            opcode == LLVMOpcode::LLVMSwitch || (opcode == LLVMOpcode::LLVMBr && LLVMIsConditional(term) != 0);
        if decides && !recorded {
            stats.local_branches += 1;
            return;
        }
        match opcode {
            LLVMOpcode::LLVMBr if LLVMIsConditional(term) != 0 => {
                LLVMPositionBuilderBefore(self.builder, term);
                self.call(branch, &mut [LLVMGetCondition(term)]);
                stats.branches += 1;
            }
            LLVMOpcode::LLVMSwitch => {
                LLVMPositionBuilderBefore(self.builder, term);
                let v = LLVMGetOperand(term, 0);
                let cases = (LLVMGetNumOperands(term) as u32 - 2) / 2;
                let mut index = LLVMConstInt(self.i32, 0, 0);
                for k in 0..cases {
                    let case = LLVMGetOperand(term, 2 + 2 * k);
                    let hit = LLVMBuildICmp(self.builder, LLVMIntPredicate::LLVMIntEQ, v, case, c"".as_ptr());
                    let number = LLVMConstInt(self.i32, k as u64 + 1, 0);
                    index = LLVMBuildSelect(self.builder, hit, number, index, c"".as_ptr());
                }
                self.call(switch, &mut [index]);
                stats.switches += 1;
            }
            _ => {}
        }
    }

    /// `arg` as a 64-bit integer, built before the call: an integer widened
    /// (zero-extended, as the interpreter holds it) or cut, a pointer's
    /// address when `pointers`; None for other values.
    unsafe fn as_u64(&self, arg: LLVMValueRef, pointers: bool) -> Option<LLVMValueRef> {
        if arg.is_null() {
            return None;
        }
        let ty = LLVMTypeOf(arg);
        Some(match LLVMGetTypeKind(ty) {
            llvm_sys::LLVMTypeKind::LLVMPointerTypeKind if pointers => {
                LLVMBuildPtrToInt(self.builder, arg, self.i64, c"".as_ptr())
            }
            llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind => match LLVMGetIntTypeWidth(ty) {
                64 => arg,
                w if w < 64 => LLVMBuildZExt(self.builder, arg, self.i64, c"".as_ptr()),
                _ => LLVMBuildTrunc(self.builder, arg, self.i64, c"".as_ptr()),
            },
            _ => return None,
        })
    }

    /// An instruction's debug location as causa's lowering names it
    /// ([`causa_ir::source::debug_path`]).
    unsafe fn location(&self, i: LLVMValueRef) -> (CString, u32, u32) {
        let mut len = 0u32;
        let f = LLVMGetDebugLocFilename(i, &mut len);
        let file = if f.is_null() {
            String::new()
        } else {
            String::from_utf8_lossy(std::slice::from_raw_parts(f as *const u8, len as usize)).into_owned()
        };
        let d = LLVMGetDebugLocDirectory(i, &mut len);
        let dir = if d.is_null() {
            String::new()
        } else {
            String::from_utf8_lossy(std::slice::from_raw_parts(d as *const u8, len as usize)).into_owned()
        };
        let path = causa_ir::source::debug_path(&file, Some(&dir));
        let line = LLVMGetDebugLocLine(i);
        let col = LLVMGetDebugLocColumn(i);
        (CString::new(path).unwrap_or_default(), line, col)
    }

    /// Uses of the program's `pthread_create`, failure functions, inputs and
    /// recorded outcomes go to the runtime's.
    unsafe fn redirect(&self) {
        let mut pairs: Vec<(String, String)> = REDIRECTS.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let mut f = LLVMGetFirstFunction(self.module);
        while !f.is_null() {
            let name = name_of(f);
            if let Some(suffix) = name.strip_prefix("__VERIFIER_nondet_") {
                pairs.push((name.clone(), format!("__causa_nondet_{suffix}")));
            }
            f = LLVMGetNextFunction(f);
        }
        for (from, to) in pairs {
            let cfrom = CString::new(from).expect("no NUL");
            let old = LLVMGetNamedFunction(self.module, cfrom.as_ptr());
            // A function the program defines itself (its own `clock` or
            // `rand`) is the program's: the interpreter runs it too.
            if old.is_null() || LLVMIsDeclaration(old) == 0 {
                continue;
            }
            let cto = CString::new(to).expect("no NUL");
            let mut new = LLVMGetNamedFunction(self.module, cto.as_ptr());
            if new.is_null() {
                new = LLVMAddFunction(self.module, cto.as_ptr(), LLVMGlobalGetValueType(old));
            }
            let new = if LLVMTypeOf(new) == LLVMTypeOf(old) { new } else { LLVMConstBitCast(new, LLVMTypeOf(old)) };
            LLVMReplaceAllUsesWith(old, new);
        }
    }

    /// The defined functions' addresses and names, the program's name and
    /// fingerprint, as globals the runtime reads.
    unsafe fn tables(&self, defined: &[LLVMValueRef], program: &str, fingerprint: &str) {
        let mut ptrs: Vec<LLVMValueRef> = defined.iter().map(|f| LLVMConstBitCast(*f, self.i8p)).collect();
        let mut names: Vec<LLVMValueRef> = defined.iter().map(|f| self.string(&name_of(*f))).collect();
        self.global("__causa_fn_ptrs", LLVMConstArray(self.i8p, ptrs.as_mut_ptr(), ptrs.len() as u32));
        self.global("__causa_fn_names", LLVMConstArray(self.i8p, names.as_mut_ptr(), names.len() as u32));
        self.global("__causa_fn_count", LLVMConstInt(self.i32, defined.len() as u64, 0));
        self.global("__causa_fingerprint", self.bytes(fingerprint));
        self.global("__causa_program", self.bytes(program));
    }

    /// A constant global `name` initialised with `init`.
    unsafe fn global(&self, name: &str, init: LLVMValueRef) -> LLVMValueRef {
        let cname = CString::new(name).expect("no NUL");
        let g = LLVMAddGlobal(self.module, LLVMTypeOf(init), cname.as_ptr());
        LLVMSetInitializer(g, init);
        LLVMSetGlobalConstant(g, 1);
        LLVMSetLinkage(g, LLVMLinkage::LLVMExternalLinkage);
        g
    }

    /// A NUL-terminated byte array constant.
    unsafe fn bytes(&self, s: &str) -> LLVMValueRef {
        LLVMConstStringInContext(self.ctx, s.as_ptr() as *const c_char, s.len() as u32, 0)
    }

    /// An `i8*` to a private constant string.
    unsafe fn string(&self, s: &str) -> LLVMValueRef {
        let init = self.bytes(s);
        let g = LLVMAddGlobal(self.module, LLVMTypeOf(init), c"".as_ptr());
        LLVMSetInitializer(g, init);
        LLVMSetGlobalConstant(g, 1);
        LLVMSetLinkage(g, LLVMLinkage::LLVMPrivateLinkage);
        LLVMConstBitCast(g, self.i8p)
    }
}
