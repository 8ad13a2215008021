//! Lowering an `llvm-ir` module into a [`Program`].
//!
//! Done once per load. Names are resolved to indices, types to layouts, constants
//! (including constant expressions over globals) to values, debug locations to
//! interned [`LocId`]s. Instructions causa cannot execute become
//! [`Op::Unsupported`] and fail with their name and location only if reached.

mod consts;
mod func;
mod tls;

pub use func::is_dropped_intrinsic;

use crate::error::IrError;
use crate::fields::FieldNames;
use crate::program::*;
use crate::space::{AddrSpace, Layout};
use crate::types::{StructLayout, Ty};
use causa_core::collections::HashMap;
use causa_core::SourceLoc;
use llvm_ir::types::{NamedStructDef, Type, TypeRef};
use llvm_ir::{DebugLoc, Module, Name};
use std::sync::Arc;

/// Shared state while lowering one module.
pub(crate) struct Lowerer<'m> {
    pub module: &'m Module,
    pub globals: HashMap<String, usize>,
    pub functions: HashMap<String, FnId>,
    pub aliases: HashMap<String, &'m llvm_ir::ConstantRef>,
    types: HashMap<TypeRef, Ty>,
    pub locs: Vec<SourceLoc>,
    loc_ids: HashMap<(Arc<str>, u32, u32), LocId>,
    files: HashMap<String, Arc<str>>,
    pub external_uses: HashMap<FnId, Vec<CallSite>>,
    pub layout: Layout,
    pub space: AddrSpace,
    fields: FieldNames,
    /// What heap blocks allocated at a location hold (None: calls there
    /// disagree).
    heap_types: HashMap<LocId, Option<Ty>>,
    /// The thread-local globals (`tls.rs`).
    pub thread_locals: std::collections::BTreeSet<usize>,
    /// Every global's size.
    pub global_sizes: Vec<u64>,
    /// The first atomic operation with a C11 memory order weaker than
    /// `seq_cst` ([`Program::weak_atomic`]).
    pub weak_atomic: Option<LocId>,
}

fn name_str(n: &Name) -> String {
    match n {
        Name::Name(s) => s.to_string(),
        Name::Number(i) => i.to_string(),
    }
}

/// Lower a parsed module.
pub fn lower_module(module: &Module, inputs: Vec<String>, fingerprint: String) -> Result<Program, IrError> {
    lower_module_named(module, inputs, fingerprint, FieldNames::default())
}

/// [`lower_module`], the structs' fields named from `fields`.
pub fn lower_module_named(
    module: &Module,
    inputs: Vec<String>,
    fingerprint: String,
    fields: FieldNames,
) -> Result<Program, IrError> {
    let layout = Layout::parse(&module.data_layout.layout_str);
    let mut lw = Lowerer {
        module,
        globals: HashMap::default(),
        functions: HashMap::default(),
        aliases: HashMap::default(),
        types: HashMap::default(),
        locs: Vec::new(),
        loc_ids: HashMap::default(),
        files: HashMap::default(),
        external_uses: HashMap::default(),
        layout,
        space: AddrSpace::new(layout, &[], 0),
        fields,
        heap_types: HashMap::default(),
        thread_locals: Default::default(),
        global_sizes: Vec::new(),
        weak_atomic: None,
    };
    for (i, g) in module.global_vars.iter().enumerate() {
        lw.globals.insert(name_str(&g.name), i);
        if g.thread_local_mode != llvm_ir::module::ThreadLocalMode::NotThreadLocal {
            lw.thread_locals.insert(i);
        }
    }
    let mut fn_names: Vec<String> = module.functions.iter().map(|f| f.name.clone()).collect();
    fn_names.extend(module.func_declarations.iter().map(|f| f.name.clone()));
    for (i, n) in fn_names.iter().enumerate() {
        lw.functions.insert(n.clone(), i as FnId);
    }
    for a in &module.global_aliases {
        lw.aliases.insert(name_str(&a.name), &a.aliasee);
    }

    // Global types first: their sizes fix every static address.
    let global_tys: Vec<Ty> = module
        .global_vars
        .iter()
        .map(|g| match g.ty.as_ref() {
            Type::PointerType { pointee_type, .. } => lw.ty(pointee_type),
            _ => lw.ty(&g.ty),
        })
        .collect();
    let sizes: Vec<u64> = global_tys.iter().map(Ty::alloc_size).collect();
    lw.space = AddrSpace::new(layout, &sizes, fn_names.len());
    lw.global_sizes = sizes;

    let mut globals = Vec::with_capacity(module.global_vars.len());
    for (g, ty) in module.global_vars.iter().zip(global_tys) {
        let loc = lw.loc(&g.debugloc);
        let mut init = vec![0u8; ty.alloc_size() as usize];
        if let Some(c) = &g.initializer {
            let v = lw.constant(c, loc)?;
            crate::value::encode(&ty, &v, &mut init);
        }
        globals.push(Global {
            name: name_str(&g.name).into(),
            ty,
            init,
            is_const: g.is_constant,
            external: g.initializer.is_none(),
            thread_local: lw.thread_locals.contains(&globals.len()),
            loc,
        });
    }

    let mut functions = Vec::with_capacity(fn_names.len());
    for (i, f) in module.functions.iter().enumerate() {
        let params = f.parameters.iter().map(|p| lw.ty(&p.ty)).collect();
        let ret = lw.ty(&f.return_type);
        let loc = lw.loc(&f.debugloc);
        let body = func::lower_body(&mut lw, f, i as FnId)?;
        functions.push(Function {
            name: f.name.as_str().into(),
            params,
            ret,
            variadic: f.is_var_arg,
            body: Some(body),
            loc,
        });
    }
    for d in &module.func_declarations {
        let params = d.parameters.iter().map(|p| lw.ty(&p.ty)).collect();
        let ret = lw.ty(&d.return_type);
        functions.push(Function {
            name: d.name.as_str().into(),
            params,
            ret,
            variadic: d.is_var_arg,
            body: None,
            loc: NONE,
        });
    }
    if !lw.functions.contains_key("main") {
        return Err(IrError::NoMain);
    }
    let mut external_uses: Vec<(FnId, Vec<CallSite>)> = lw.external_uses.drain().collect();
    external_uses.sort_by_key(|(f, _)| *f);
    let heap_types = lw.heap_types.into_iter().filter_map(|(l, t)| Some((l, t?))).collect();
    let weak_atomic = lw.weak_atomic;
    let mut program = Program {
        inputs,
        fingerprint,
        functions,
        globals,
        locs: lw.locs,
        external_uses,
        space: lw.space,
        heap_types,
        weak_atomic,
    };
    crate::local::mark_recorded(&mut program);
    crate::fingerprint::mark_fingerprinted(&mut program);
    Ok(program)
}

impl<'m> Lowerer<'m> {
    /// Lower a type (memoised).
    pub fn ty(&mut self, t: &TypeRef) -> Ty {
        if let Some(ty) = self.types.get(t) {
            return ty.clone();
        }
        let ty = match t.as_ref() {
            Type::VoidType => Ty::Void,
            Type::IntegerType { bits } => Ty::Int(*bits),
            // 32-bit pointers are plain 32-bit integers (flat address space).
            Type::PointerType { .. } if self.layout.ptr_bytes == 4 => Ty::Int(32),
            Type::PointerType { .. } => Ty::Ptr,
            Type::FPType(fp) => match fp {
                llvm_ir::types::FPType::Single => Ty::F32,
                llvm_ir::types::FPType::Double => Ty::F64,
                llvm_ir::types::FPType::X86_FP80 | llvm_ir::types::FPType::FP128 => Ty::F80(self.layout.f80_align),
                // half, bfloat, ppc_fp128: not modelled; memory accesses of these
                // types are reported as unsupported when reached.
                _ => Ty::Other,
            },
            Type::ArrayType { element_type, num_elements } => {
                Ty::Array(Arc::new(self.ty(element_type)), *num_elements as u64)
            }
            Type::VectorType { element_type, num_elements, .. } => {
                Ty::Vector(Arc::new(self.ty(element_type)), *num_elements as u64)
            }
            Type::StructType { element_types, is_packed } => {
                let fields = element_types.iter().map(|e| self.ty(e)).collect();
                Ty::Struct(Arc::new(StructLayout::new(fields, *is_packed, &self.layout)))
            }
            Type::NamedStructType { name } => match self.module.types.named_struct_def(name) {
                Some(NamedStructDef::Defined(inner)) => {
                    let inner = inner.clone();
                    match self.ty(&inner) {
                        Ty::Struct(layout) => {
                            let mut layout = (*layout).clone();
                            if let Some(c) = self.fields.composite(name) {
                                name_layout(&mut layout, c);
                            }
                            Ty::Struct(Arc::new(layout))
                        }
                        other => other,
                    }
                }
                _ => Ty::Struct(Arc::new(StructLayout::new(vec![], false, &self.layout))),
            },
            _ => Ty::Other,
        };
        self.types.insert(t.clone(), ty.clone());
        ty
    }

    /// Heap blocks allocated at `loc` hold a `ty` (or one of several types).
    pub(crate) fn note_heap_type(&mut self, loc: LocId, ty: Ty) {
        let e = self.heap_types.entry(loc).or_insert_with(|| Some(ty.clone()));
        if e.as_ref() != Some(&ty) {
            *e = None;
        }
    }

    /// Intern a debug location.
    pub fn loc(&mut self, d: &Option<DebugLoc>) -> LocId {
        let Some(d) = d else { return NONE };
        let file = match self.files.get(&d.filename) {
            Some(f) => f.clone(),
            None => {
                let f: Arc<str> = crate::source::debug_path(&d.filename, d.directory.as_deref()).into();
                self.files.insert(d.filename.clone(), f.clone());
                f
            }
        };
        let col = d.col.unwrap_or(0);
        let key = (file.clone(), d.line, col);
        if let Some(id) = self.loc_ids.get(&key) {
            return *id;
        }
        let id = self.locs.len() as LocId;
        self.locs.push(SourceLoc { file, line: d.line, column: col });
        self.loc_ids.insert(key, id);
        id
    }

    pub fn loc_value(&self, id: LocId) -> Option<SourceLoc> {
        self.locs.get(id as usize).cloned()
    }

    pub fn note_external_use(&mut self, f: FnId, caller: FnId, loc: LocId) {
        let idx = f as usize;
        if idx >= self.module.functions.len() {
            self.external_uses.entry(f).or_default().push(CallSite { caller, loc });
        }
    }
}

/// Names `layout`'s fields as the debug information's `c` declares them,
/// and the fields that are anonymous structs or unions after their own
/// members (LLVM names their types `struct.anon`, `union.anon.1`, which
/// say nothing of where they are). Inside a union the members are named
/// by its parts instead ([`crate::fields::Part`]).
fn name_layout(layout: &mut crate::types::StructLayout, c: &crate::fields::Composite) {
    layout.names = layout.offsets.iter().map(|o| c.member(*o).map(Arc::from)).collect();
    // The integer LLVM keeps bit-fields in: named after them (`flag`,
    // or `{ready,dirty}` for several, which one assignment all rewrites).
    layout.bits = vec![Vec::new(); layout.fields.len()];
    for (k, name) in layout.names.iter_mut().enumerate().filter(|(_, n)| n.is_none()) {
        let (start, end) = (layout.offsets[k], layout.offsets[k] + layout.fields[k].alloc_size());
        let held: Vec<&crate::fields::BitField> =
            c.bitfields.iter().filter(|b| (start..end).contains(&b.byte())).collect();
        let names: Vec<&str> = held.iter().map(|b| b.name.as_str()).collect();
        *name = match names[..] {
            [] => None,
            [one] => Some(Arc::from(one)),
            _ => Some(Arc::from(format!("{{{}}}", names.join(",")).as_str())),
        };
        // (Their bits within the integer, for its values.)
        layout.bits[k] = held
            .iter()
            .map(|b| crate::types::UnitBits {
                name: Arc::from(b.name.as_str()),
                shift: (b.bit - 8 * start) as u32,
                width: b.width as u32,
            })
            .collect();
    }
    layout.parts = c.parts.clone();
    if !c.parts.is_empty() {
        return;
    }
    for k in 0..layout.fields.len() {
        let Some((name, inner)) = c.nested(layout.offsets[k]) else { continue };
        if let Ty::Struct(s) = &layout.fields[k] {
            let mut s = (**s).clone();
            name_layout(&mut s, inner);
            layout.fields[k] = Ty::Struct(Arc::new(s));
            // (C11's unnamed member: its members are the struct's own.)
            if name.is_empty() {
                layout.names[k] = Some(Arc::from(""));
            }
        }
    }
}
