//! Memory with provenance.
//!
//! Every object (global, function, stack slot, heap block) is an [`Alloc`] in one
//! arena, addressed by its id; a pointer is `make_addr(id, offset)` (see
//! `causa_ir`). Freed and dead objects keep their entry, so a later access is
//! reported as use-after-free or dead-stack access, never as a wild read.

use causa_core::Tid;
use causa_ir::space::{align16, FLAT_GAP};
use causa_ir::{addr_alloc, addr_offset, make_addr, LocId, Program, Ty, OFFSET_MASK};
use std::sync::Arc;

/// What kind of object an allocation is.
#[derive(Clone, Debug, PartialEq)]
pub enum AllocKind {
    /// The null page (allocation 0).
    Null,
    Global {
        index: u32,
    },
    Function {
        id: u32,
    },
    Stack {
        thread: Tid,
        name: Option<Arc<str>>,
        function: Arc<str>,
        /// What the object holds, for naming offsets into it.
        ty: Ty,
    },
    /// `thread`'s instance of the thread-local global `index`.
    ThreadLocal {
        thread: Tid,
        index: u32,
    },
    /// State the C library keeps for the whole process, which every thread
    /// shares (`strtok`'s position): `name` says what it is.
    Hidden {
        name: &'static str,
    },
    /// A heap block: the `seq`-th (from 1) that `thread` allocated. Named
    /// by thread and count (`heap#2`, `heap@0.1#1`), so that the same
    /// allocation has the same name in every schedule of the same paths.
    Heap {
        thread: Tid,
        seq: u32,
        site: LocId,
        by: Arc<str>,
    },
}

/// Lifetime state of an allocation.
#[derive(Clone, Debug, PartialEq)]
pub enum Life {
    Live,
    /// Freed by `thread` at `loc`.
    Freed(FreedBy),
    /// Stack object whose function returned.
    Dead,
    /// Stack object of a thread that called `pthread_exit`.
    Exited,
}

#[derive(Clone, Debug)]
pub struct Alloc {
    pub kind: AllocKind,
    pub bytes: Vec<u8>,
    pub life: Life,
    /// A stack object whose address was stored to memory or handed to another
    /// thread: accesses to it are visible operations.
    pub escaped: bool,
    pub read_only: bool,
}

/// Who freed a block: the thread, the place, and how many `free` calls the
/// thread made before that one (which of its frees it was, in a loop).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FreedBy {
    pub thread: Tid,
    pub loc: LocId,
    pub nth: u32,
}

/// A memory error, described for the user (becomes a `memory-error` finding).
#[derive(Clone, Debug, PartialEq)]
pub struct MemError {
    pub message: String,
    /// A use after free or a double free: the `free` that came first (the
    /// finding notes it).
    pub freed: Option<FreedBy>,
}

impl MemError {
    pub fn new(message: String) -> MemError {
        MemError { message, freed: None }
    }
}

/// Access direction, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    /// A library call's use of the object (a lock, a condition variable):
    /// the function's name.
    Call(&'static str),
}

impl Access {
    fn word(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
            Access::Call(name) => name,
        }
    }

    /// What the access does, for messages: `read of 4 bytes`,
    /// `pthread_mutex_lock`.
    fn what(self, len: u64) -> String {
        match self {
            Access::Call(name) => name.to_string(),
            _ => format!("{} of {len} byte{}", self.word(), if len == 1 { "" } else { "s" }),
        }
    }
}

#[derive(Clone)]
pub struct Memory {
    pub allocs: Vec<Alloc>,
    /// Heap blocks allocated so far, per thread.
    heap_seq: Vec<u32>,
    /// Tagged (64-bit) or flat (32-bit) addresses; see `causa_ir::space`.
    tagged: bool,
    /// Flat mode: base address of every allocation, ascending.
    bases: Vec<u64>,
    /// Flat mode: where the next allocation may start.
    next_base: u64,
    /// Flat mode: end of the address space.
    limit: u64,
    /// Kept only when asked for ([`Memory::track_digest`]).
    digest: Option<crate::digest::MemDigest>,
}

impl Memory {
    /// Fresh memory for one execution of `prog`: globals initialised, functions placed.
    pub fn new(prog: &Program) -> Memory {
        let space = &prog.space;
        let statics = 1 + prog.globals.len() + prog.functions.len();
        let mut allocs = Vec::with_capacity(statics + 64);
        allocs.push(Alloc {
            kind: AllocKind::Null,
            bytes: Vec::new(),
            life: Life::Live,
            escaped: false,
            read_only: true,
        });
        for (i, g) in prog.globals.iter().enumerate() {
            allocs.push(Alloc {
                kind: AllocKind::Global { index: i as u32 },
                bytes: g.init.clone(),
                life: Life::Live,
                escaped: true,
                read_only: g.is_const,
            });
        }
        for f in 0..prog.functions.len() {
            allocs.push(Alloc {
                kind: AllocKind::Function { id: f as u32 },
                bytes: Vec::new(),
                life: Life::Live,
                escaped: true,
                read_only: true,
            });
        }
        Memory {
            allocs,
            heap_seq: Vec::new(),
            tagged: space.tagged(),
            bases: space.static_bases.clone(),
            next_base: space.first_dynamic_base,
            limit: space.ptr_mask(),
            digest: None,
        }
    }

    /// Keep a digest of the contents from now on ([`Memory::digest`]).
    pub fn track_digest(&mut self) {
        let mut d = crate::digest::MemDigest::default();
        (0..self.allocs.len()).for_each(|id| d.touch(id));
        self.digest = Some(d);
    }

    /// The digest of the contents (0 unless [`Memory::track_digest`] was called).
    pub fn digest(&mut self) -> u64 {
        match self.digest.as_mut() {
            Some(d) => d.digest(&self.allocs),
            None => 0,
        }
    }

    #[inline]
    fn touch(&mut self, id: usize) {
        if let Some(d) = self.digest.as_mut() {
            d.touch(id);
        }
    }

    /// Add an allocation; `None` when the address space is exhausted.
    fn push(&mut self, kind: AllocKind, size: u64, escaped: bool) -> Option<u64> {
        let id = self.allocs.len() as u32;
        let addr = if self.tagged {
            if id == u32::MAX || size > OFFSET_MASK {
                return None;
            }
            make_addr(id, 0)
        } else {
            let base = align16(self.next_base);
            let next = base.checked_add(size.max(1) + FLAT_GAP).filter(|n| *n <= self.limit)?;
            self.next_base = next;
            self.bases.push(base);
            base
        };
        self.allocs.push(Alloc { kind, bytes: vec![0; size as usize], life: Life::Live, escaped, read_only: false });
        self.touch(id as usize);
        Some(addr)
    }

    /// The allocation `addr` falls in, and the offset into it. Every address
    /// falls in some allocation (the null page, or the object below it), so a
    /// wild address is reported as out of bounds of a named object.
    #[inline]
    pub fn locate(&self, addr: u64) -> (usize, u64) {
        if self.tagged {
            (addr_alloc(addr) as usize, addr_offset(addr))
        } else {
            let i = self.bases.partition_point(|b| *b <= addr).saturating_sub(1);
            (i, addr - self.bases[i])
        }
    }

    /// Address of the start of the object `addr` falls in.
    pub fn base_of(&self, addr: u64) -> u64 {
        addr.wrapping_sub(self.locate(addr).1)
    }

    /// A stack object for `thread` (`None` when the address space is exhausted).
    pub fn alloc_stack(
        &mut self,
        size: u64,
        thread: Tid,
        (name, ty): (Option<Arc<str>>, Ty),
        function: Arc<str>,
    ) -> Option<u64> {
        self.push(AllocKind::Stack { thread, name, function, ty }, size, false)
    }

    /// `thread`'s instance of thread-local global `index`, holding `init`
    /// (private to the thread until its address escapes, like a stack
    /// object). None when the address space is exhausted.
    pub fn alloc_thread_local(&mut self, thread: Tid, index: u32, init: &[u8]) -> Option<u64> {
        let addr = self.push(AllocKind::ThreadLocal { thread, index }, init.len() as u64, false)?;
        let id = self.locate(addr).0;
        self.allocs[id].bytes.copy_from_slice(init);
        Some(addr)
    }

    /// Library state shared by every thread ([`AllocKind::Hidden`]), of
    /// `size` zero bytes. None when the address space is exhausted.
    pub fn alloc_hidden(&mut self, name: &'static str, size: u64) -> Option<u64> {
        self.push(AllocKind::Hidden { name }, size, true)
    }

    /// A heap block; 0 (a null pointer, as from a failing `malloc`) when the
    /// address space is exhausted.
    pub fn alloc_heap(&mut self, size: u64, site: LocId, by: &str, thread: Tid) -> u64 {
        let t = thread as usize;
        if self.heap_seq.len() <= t {
            self.heap_seq.resize(t + 1, 0);
        }
        self.heap_seq[t] += 1;
        let seq = self.heap_seq[t];
        self.push(AllocKind::Heap { thread, seq, site, by: by.into() }, size, true).unwrap_or(0)
    }

    /// Kill a stack object of a returning frame, or an ended thread's
    /// thread-local instance.
    pub fn kill(&mut self, addr: u64) {
        self.end_life(addr, Life::Dead);
    }

    /// End the life of a stack or thread-local object with `life`
    /// ([`Life::Dead`] or [`Life::Exited`]).
    pub fn end_life(&mut self, addr: u64, life: Life) {
        let id = self.locate(addr).0;
        self.touch(id);
        if let Some(a) = self.allocs.get_mut(id) {
            a.life = life;
            a.bytes = Vec::new();
        }
    }

    /// Whether an access to `addr` may be observed by other threads.
    #[inline]
    pub fn is_shared(&self, addr: u64) -> bool {
        match self.allocs.get(self.locate(addr).0) {
            // Read-only objects (string literals, constants) cannot be raced on;
            // stack objects (and thread-private blocks) only once they escape.
            Some(a) => !a.read_only && a.escaped,
            None => true,
        }
    }

    /// Make the heap block at `addr` private to the thread that allocated it
    /// (like a stack object, it becomes shared if its address escapes).
    pub fn make_private(&mut self, addr: u64) {
        let id = self.locate(addr).0;
        self.touch(id);
        if let Some(a) = self.allocs.get_mut(id) {
            a.escaped = false;
        }
    }

    /// Mark the object `addr` points into as escaped (no-op otherwise), and
    /// with it every stack object its contents point into: a pointer kept
    /// in a private object (`char *rest = line;`) makes its target
    /// reachable by other threads only when that object escapes too.
    #[inline]
    pub fn escape(&mut self, addr: u64) {
        let id = self.locate(addr).0;
        // (Most stores of a pointer-sized value find nothing to escape.)
        if self.allocs.get(id).is_some_and(|a| !a.escaped) {
            self.escape_all(vec![id]);
        }
    }

    /// Mark every stack object (or thread-local instance) that a
    /// pointer-sized word of `data` points into as escaped (for bulk copies
    /// that may carry pointers), with what they point into in turn.
    pub fn escape_words(&mut self, data: &[u8]) {
        let stacks = self.private_targets(data);
        self.escape_all(stacks);
    }

    /// Escape the objects `work`, and transitively the stack objects (and
    /// thread-local instances) their contents point into.
    fn escape_all(&mut self, mut work: Vec<usize>) {
        while let Some(id) = work.pop() {
            let Some(a) = self.allocs.get_mut(id) else { continue };
            if a.escaped {
                continue;
            }
            a.escaped = true;
            self.touch(id);
            let targets = self.private_targets(&self.allocs[id].bytes);
            work.extend(targets);
        }
    }

    /// The objects not escaped yet (stack objects, thread-local instances,
    /// thread-private heap blocks such as `getline`'s) that pointer-sized
    /// words of `data` point into.
    fn private_targets(&self, data: &[u8]) -> Vec<usize> {
        let word = if self.tagged { 8 } else { 4 };
        data.chunks_exact(word)
            .filter_map(|w| {
                let mut b = [0u8; 8];
                b[..word].copy_from_slice(w);
                let id = self.locate(u64::from_le_bytes(b)).0;
                self.allocs.get(id).filter(|a| !a.escaped).map(|_| id)
            })
            .collect()
    }

    /// Check an access of `len` bytes and return the allocation index and offset.
    /// `names` names the memory an error is about.
    pub fn check(&self, addr: u64, len: u64, access: Access, names: &dyn Names) -> Result<(usize, usize), MemError> {
        let describe = |x: u64| names.at(x);
        let (id, off) = self.locate(addr);
        let (w, what) = (access.word(), access.what(len));
        let Some(a) = self.allocs.get(id) else {
            return Err(MemError::new(format!("invalid pointer: {what} at {addr:#x}, which is not inside any object")));
        };
        match (&a.kind, &a.life) {
            (AllocKind::Null, _) => {
                return Err(MemError::new(format!("null pointer dereference: {what} at address {addr:#x}")))
            }
            (AllocKind::Function { .. }, _) => {
                return Err(MemError::new(format!("{what} through a function pointer ({})", describe(addr))))
            }
            (_, Life::Freed(by)) => {
                let of = if matches!(access, Access::Call(_)) { "of" } else { "in" };
                let message = format!("use after free: {what} {of} {}, which was already freed", describe(addr));
                return Err(MemError { message, freed: Some(*by) });
            }
            (AllocKind::ThreadLocal { .. }, Life::Dead) => {
                return Err(MemError::new(format!(
                    "access to an ended thread's variable: {what} in {} after its thread ended",
                    describe(addr)
                )))
            }
            (_, Life::Dead) => {
                return Err(MemError::new(format!(
                    "access to a dead stack frame: {what} in {} after its function returned",
                    describe(addr)
                )))
            }
            (_, Life::Exited) => {
                return Err(MemError::new(format!(
                    "access to a dead stack frame: {what} in {} after its thread called pthread_exit",
                    describe(addr)
                )))
            }
            _ => {}
        }
        if off.checked_add(len).is_none_or(|end| end > a.bytes.len() as u64) {
            return Err(MemError::new(format!(
                "out-of-bounds {w}: {len} bytes at offset {off} of {} (size {})",
                names.object(addr),
                a.bytes.len()
            )));
        }
        if access == Access::Write && a.read_only {
            return Err(MemError::new(format!("write to read-only memory {}", describe(addr))));
        }
        Ok((id, off as usize))
    }

    pub fn read(&self, addr: u64, len: u64, names: &dyn Names) -> Result<&[u8], MemError> {
        let (id, off) = self.check(addr, len, Access::Read, names)?;
        Ok(&self.allocs[id].bytes[off..off + len as usize])
    }

    pub fn write(&mut self, addr: u64, data: &[u8], names: &dyn Names) -> Result<(), MemError> {
        let (id, off) = self.check(addr, data.len() as u64, Access::Write, names)?;
        self.touch(id);
        self.allocs[id].bytes[off..off + data.len()].copy_from_slice(data);
        Ok(())
    }

    /// Mutable bytes of an object range (already checked by the caller through `check`).
    pub fn bytes_mut(&mut self, id: usize, off: usize, len: usize) -> &mut [u8] {
        self.touch(id);
        &mut self.allocs[id].bytes[off..off + len]
    }

    /// Read a NUL-terminated string starting at `addr` (at most `max` bytes, without the NUL).
    pub fn read_cstr(&self, addr: u64, max: Option<usize>, names: &dyn Names) -> Result<Vec<u8>, MemError> {
        let (id, off) = self.check(addr, 1, Access::Read, names)?;
        let bytes = &self.allocs[id].bytes[off..];
        let limit = max.unwrap_or(usize::MAX);
        match bytes.iter().take(limit).position(|&b| b == 0) {
            Some(n) => Ok(bytes[..n].to_vec()),
            None if bytes.len() >= limit => Ok(bytes[..limit].to_vec()),
            None => Err(MemError::new(format!(
                "out-of-bounds read: string at {} is not NUL-terminated within its object",
                names.at(addr)
            ))),
        }
    }

    /// Free a heap block. Errors: double free, free of a non-heap pointer, interior pointer.
    pub fn free(&mut self, addr: u64, by: FreedBy, describe: &dyn Fn(u64) -> String) -> Result<(), MemError> {
        if addr == 0 {
            return Ok(());
        }
        let (id, off) = self.locate(addr);
        let Some(a) = self.allocs.get_mut(id) else {
            return Err(MemError::new(format!("free of an invalid pointer {addr:#x}")));
        };
        if !matches!(a.kind, AllocKind::Heap { .. }) {
            return Err(MemError::new(format!(
                "free of a pointer that was not allocated on the heap: {}",
                describe(addr)
            )));
        }
        if let Life::Freed(first) = a.life {
            let message = format!("double free of {}", describe(self.base_of(addr)));
            return Err(MemError { message, freed: Some(first) });
        }
        if off != 0 {
            return Err(MemError::new(format!("free of a pointer into the middle of {}", describe(addr))));
        }
        a.life = Life::Freed(by);
        a.bytes = Vec::new();
        self.touch(id);
        Ok(())
    }

    /// Size of the live object `addr` points to the start of (for realloc).
    pub fn size_of(&self, addr: u64) -> usize {
        self.allocs.get(self.locate(addr).0).map(|a| a.bytes.len()).unwrap_or(0)
    }
}

/// How memory errors name the memory they are about (the machine knows the
/// program's names for it).
pub trait Names {
    /// The part of an object at `addr`, as an access names it (`hits[2]`).
    fn at(&self, addr: u64) -> String;
    /// The whole object `addr` points into (`hits`): what its size is of.
    fn object(&self, addr: u64) -> String;
}

/// Addresses as numbers, for memory causa sets up itself.
pub struct Unnamed;

impl Names for Unnamed {
    fn at(&self, addr: u64) -> String {
        format!("{addr:#x}")
    }
    fn object(&self, addr: u64) -> String {
        format!("{addr:#x}")
    }
}

/// The file name without its directories, for compact messages.
pub fn short_file(path: &str) -> &str {
    // causa's own C runtime keeps its `<causa>/`.
    if path == causa_ir::compile::RUNTIME_FILE {
        return path;
    }
    path.rsplit('/').next().unwrap_or(path)
}
