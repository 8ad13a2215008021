//! Files named by the program and the standard streams. Reading is
//! deterministic: a file's contents are read once when it is opened. A file
//! opened for writing is kept in memory for the run (its earlier contents
//! read first when it is appended to or updated): causa runs a program
//! thousands of times and never changes the disk, and what one run wrote is
//! gone at its end. Reading it back in the same run sees what was written.

use super::stdio::cstr;
use crate::machine::Machine;
use crate::outcome::Stop;
use crate::shims::{ret_i32, ret_u64, Call, Registry, Ret};
use causa_core::cconv::GETLINE_FIRST;
use causa_core::EventKind;
use causa_ir::{Program, Value};

/// The three standard streams' `FILE` objects and the files the program opened.
#[derive(Clone, Default)]
pub struct Files {
    /// Addresses of the `FILE` objects of stdin, stdout and stderr.
    pub std: [u64; 3],
    open: Vec<OpenFile>,
    /// Paths the run removed (`remove`, `unlink`): the disk's file is gone
    /// for the rest of the run (the disk itself is not changed).
    removed: Vec<String>,
}

#[derive(Clone)]
struct OpenFile {
    path: String,
    /// Address of the `FILE` object (0 for descriptors opened with `open`).
    stream: u64,
    fd: i32,
    data: Vec<u8>,
    pos: usize,
    closed: bool,
    /// Opened for writing; `append`: every write goes to the end.
    writable: bool,
    append: bool,
    /// Its path was removed: handles still open read and write it, but
    /// opening the path no longer finds it.
    unlinked: bool,
}

impl Files {
    /// The latest handle that wrote `path` in this run and still names it
    /// (not removed since): what the file holds now.
    fn written(&self, path: &str) -> Option<&OpenFile> {
        self.open.iter().rev().find(|f| f.path == path && f.writable && !f.unlinked)
    }

    /// Write `bytes` to the open file `fd` (false: no such writable file).
    pub fn write(&mut self, fd: i32, bytes: &[u8]) -> bool {
        let Some(f) = self.open.iter_mut().find(|f| f.fd == fd && !f.closed && f.writable) else {
            return false;
        };
        if f.append {
            f.pos = f.data.len();
        }
        if f.pos > f.data.len() {
            // (A seek past the end: the gap reads as zeros.)
            f.data.resize(f.pos, 0);
        }
        let end = (f.pos + bytes.len()).min(f.data.len());
        f.data.splice(f.pos..end, bytes.iter().copied());
        f.pos += bytes.len();
        true
    }
}

/// How a file is opened: for writing, whether it starts empty (`w`,
/// `O_TRUNC`), is appended to (`a`, `O_APPEND`), and may be created.
#[derive(Clone, Copy)]
struct Mode {
    writable: bool,
    truncate: bool,
    append: bool,
    create: bool,
}

const FIRST_FD: i32 = 3;

/// Give `stdin`/`stdout`/`stderr` (external globals) their `FILE` objects.
pub fn init_std_streams(m: &mut Machine) {
    let names = causa_ir::STD_STREAMS;
    let prog: &Program = &m.prep.clone().program;
    for (i, g) in prog.globals.iter().enumerate() {
        if let Some(k) = names.iter().position(|n| *n == &*g.name).filter(|_| g.external) {
            let file = m.mem.alloc_heap(216, causa_ir::NONE, names[k], 0);
            m.files.std[k] = file;
            let _ = m.store(prog.global_addr(i), &m.ptr_ty(), &Value::Int(file as u128));
        }
    }
}

/// The descriptor behind a `FILE*` (1 for stdout, 2 for stderr).
pub fn stream_fd(m: &Machine, stream: u64) -> Result<i32, Stop> {
    if let Some(k) = m.files.std.iter().position(|a| *a == stream && stream != 0) {
        return Ok(k as i32);
    }
    match m.files.open.iter().find(|f| f.stream == stream && stream != 0) {
        Some(f) if f.closed => Err(Stop::memory(format!("use of FILE {} after fclose", m.describe(stream)))),
        Some(f) if f.writable => Ok(f.fd),
        Some(_) => Err(Stop::unsupported("writing to a file opened for reading only")),
        None => Err(Stop::memory(format!("invalid FILE pointer {}", m.describe(stream)))),
    }
}

pub fn register(r: &mut Registry) {
    r.add("file", "fopen", fopen);
    r.add("file", "fclose", |m, c| {
        if is_std(m, c.ptr(0)) {
            return ret_i32(0);
        }
        close(m, |f| f.stream == c.ptr(0) && c.ptr(0) != 0)
    });
    // A read into shared memory is one visible write of the bytes it
    // delivered (as a `memcpy` is).
    r.visible_if_shared("file", "fgets", EventKind::Write, &[0], |m, c| {
        no_std_read(m, c.ptr(2))?;
        fgets(m, c)
    });
    r.add("file", "fgetc", getc);
    r.add("file", "getc", getc);
    r.visible_if_shared("file", "fread", EventKind::Write, &[0], |m, c| {
        no_std_read(m, c.ptr(3))?;
        fread(m, c)
    });
    r.add("file", "feof", |m, c| {
        no_std_read(m, c.ptr(0))?;
        let f = file(m, |f| f.stream == c.ptr(0))?;
        ret_i32((f.pos >= f.data.len()) as i32)
    });
    for name in ["fscanf", "__isoc99_fscanf"] {
        r.visible_if_shared("file", name, EventKind::Write, super::scan::FSCANF_SHARED, fscanf);
    }
    r.add("file", "open", open);
    r.add("file", "remove", remove);
    r.add("file", "unlink", remove);
    r.visible_if_shared("file", "read", EventKind::Write, &[1], |m, c| {
        if (0..3).contains(&c.i32(0)) {
            return Err(Stop::unsupported(STD_READ));
        }
        read(m, c)
    });
    // (Its result is noted in the recorded path, as `open`'s and `read`'s.)
    r.add("file", "close", |m, c| {
        let fd = c.i32(0);
        let r = if (0..3).contains(&fd) {
            0
        } else if has_fd(m, fd) {
            close(m, |f| f.fd == fd && !f.closed)?;
            0
        } else {
            bad_fd(m, c)?;
            -1i32
        };
        ret_i32(noted_value(m, c, r as u32 as u64)? as u32 as i32)
    });
    for name in ["getline", "getdelim", "__getdelim"] {
        r.add("file", name, getline);
    }
    r.add("file", "ftell", |m, c| {
        no_std_read(m, c.ptr(0))?;
        let pos = file(m, |f| f.stream == c.ptr(0))?.pos as u64;
        ret_u64(noted_value(m, c, pos)?)
    });
    r.add("file", "fseek", fseek);
    r.add("file", "rewind", |m, c| {
        no_std_read(m, c.ptr(0))?;
        file(m, |f| f.stream == c.ptr(0))?.pos = 0;
        Ok(Ret::Value(Value::ZERO))
    });
    r.add("file", "write", |m, c| {
        let fd = c.i32(0);
        let data = m.read_bytes(c.ptr(1), c.int(2) as u64)?;
        if !m.output(fd, &data) {
            bad_fd(m, c)?;
            return ret_u64(u64::MAX);
        }
        ret_u64(data.len() as u64)
    });
}

const STD_READ: &str = "reading the standard streams (causa reads only files the program opens)";

/// `stream` is stdin, stdout or stderr.
fn is_std(m: &Machine, stream: u64) -> bool {
    stream != 0 && m.files.std.contains(&stream)
}

/// Reading a standard stream is not modelled: say so instead of failing as if the
/// pointer were invalid.
fn no_std_read(m: &Machine, stream: u64) -> Result<(), Stop> {
    if is_std(m, stream) {
        return Err(Stop::unsupported(STD_READ));
    }
    Ok(())
}

fn file(m: &mut Machine, pred: impl Fn(&OpenFile) -> bool) -> Result<&mut OpenFile, Stop> {
    match m.files.open.iter_mut().find(|f| pred(f)) {
        Some(f) if !f.closed => Ok(f),
        Some(_) => Err(Stop::memory("use of a file after it was closed")),
        None => Err(Stop::memory("invalid FILE pointer or file descriptor")),
    }
}

/// The file's contents as the run starts with them, and how it is open
/// (None: it cannot be opened: missing, and not created).
fn load(m: &mut Machine, c: &Call<'_>, mode_at: Option<usize>) -> Result<Option<(String, Vec<u8>, Mode)>, Stop> {
    let path = String::from_utf8_lossy(&cstr(m, c.ptr(0))?).into_owned();
    let mode = match mode_at {
        Some(i) => {
            let s = cstr(m, c.ptr(i))?;
            let (first, plus) = (s.first().copied(), s.contains(&b'+'));
            Mode {
                writable: plus || matches!(first, Some(b'w' | b'a')),
                truncate: first == Some(b'w'),
                append: first == Some(b'a'),
                create: matches!(first, Some(b'w' | b'a')),
            }
        }
        // O_WRONLY/O_RDWR, O_CREAT, O_TRUNC, O_APPEND (Linux).
        None => {
            let flags = c.int(1);
            Mode {
                writable: flags & 3 != 0,
                truncate: flags & 0o1000 != 0,
                append: flags & 0o2000 != 0,
                create: flags & 0o100 != 0,
            }
        }
    };
    // A file this run wrote has what it wrote (as it was when last written
    // through another handle), else the disk's contents.
    // (Truncated: only whether it exists matters, not what it holds.)
    let written = m.files.written(&path).map(|f| &f.data);
    let truncated = mode.writable && mode.truncate;
    let on_disk = !m.files.removed.contains(&path);
    let data = match written {
        Some(_) if truncated => Some(Vec::new()),
        Some(d) => Some(d.clone()),
        None if !on_disk => None,
        None if truncated => std::path::Path::new(&path).exists().then(Vec::new),
        None => std::fs::read(&path).ok(),
    };
    let data = match data {
        Some(d) => d,
        // (Created only in a directory that exists, as the system would.)
        None if mode.writable && mode.create && in_a_directory(&path) => Vec::new(),
        None => return Ok(None),
    };
    Ok(Some((path, data, mode)))
}

/// Whether `path`'s directory exists (a bare name: the working directory).
fn in_a_directory(path: &str) -> bool {
    match std::path::Path::new(path).parent() {
        Some(d) if !d.as_os_str().is_empty() => d.is_dir(),
        _ => true,
    }
}

fn opened(stream: u64, fd: i32, (path, data, mode): (String, Vec<u8>, Mode)) -> OpenFile {
    let pos = if mode.append { data.len() } else { 0 };
    OpenFile {
        path,
        stream,
        fd,
        data,
        pos,
        closed: false,
        writable: mode.writable,
        append: mode.append,
        unlinked: false,
    }
}

/// `remove(path)`/`unlink(path)`: 0, or -1 when there is no such file (a
/// file this run wrote, or one on the disk it has not removed yet).
fn remove(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let path = String::from_utf8_lossy(&cstr(m, c.ptr(0))?).into_owned();
    let written = m.files.written(&path).is_some();
    let on_disk = !m.files.removed.contains(&path) && std::path::Path::new(&path).is_file();
    if !written && !on_disk {
        return ret_i32(-1);
    }
    for f in m.files.open.iter_mut().filter(|f| f.path == path) {
        f.unlinked = true;
    }
    if !m.files.removed.contains(&path) {
        m.files.removed.push(path);
    }
    ret_i32(0)
}

fn fopen(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let Some(file) = load(m, c, Some(1))? else {
        return ret_u64(0);
    };
    let loc = m.threads[c.t as usize].loc;
    let stream = m.mem.alloc_heap(216, loc, "fopen", c.t);
    let fd = FIRST_FD + m.files.open.len() as i32;
    m.files.open.push(opened(stream, fd, file));
    ret_u64(stream)
}

/// The descriptor is noted in the thread's recorded path (symbolic
/// execution takes it from there). Following a recorded run, the run's own
/// number is taken: the system's can differ from causa's (it reuses the
/// numbers of closed descriptors, causa does not).
fn open(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let file = load(m, c, None)?;
    let ours = if file.is_some() { FIRST_FD + m.files.open.len() as i32 } else { -1 };
    let fd = m.note_value(c.t, ours as u32 as u64)? as u32 as i32;
    match file {
        None if fd == -1 => ret_i32(-1),
        Some(file) if fd >= FIRST_FD && !has_fd(m, fd) => {
            m.files.open.push(opened(0, fd, file));
            ret_i32(fd)
        }
        _ => Err(Stop::Infeasible(
            "`open` answers otherwise than in the recorded run (the file changed, or its descriptor is taken)".into(),
        )),
    }
}

/// What a read from a `FILE` returns to thread `c.t` (`fgetc`'s byte),
/// noted in its recorded path as a clock read is (`ThreadPath::values`):
/// symbolic execution takes it from there. When following a recorded run,
/// the file must give what it gave then.
fn noted_value(m: &mut Machine, c: &Call<'_>, v: u64) -> Result<u64, Stop> {
    if m.note_value(c.t, v)? != v {
        return Err(Stop::Infeasible(format!(
            "`{}` answers otherwise than in the recorded run (the file changed)",
            c.name
        )));
    }
    Ok(v)
}

/// The bytes a read from a `FILE` (`fgets`, `fread`) delivers to thread
/// `c.t` (None: `fgets`' end of file), noted in its recorded path: their
/// count (u64::MAX for None), then the bytes eight to a value
/// ([`noted_value`]).
fn noted_bytes(m: &mut Machine, c: &Call<'_>, data: Option<&[u8]>) -> Result<(), Stop> {
    let Some(data) = data else {
        noted_value(m, c, u64::MAX)?;
        return Ok(());
    };
    noted_value(m, c, data.len() as u64)?;
    for chunk in data.chunks(8) {
        let mut b = [0u8; 8];
        b[..chunk.len()].copy_from_slice(chunk);
        noted_value(m, c, u64::from_le_bytes(b))?;
    }
    Ok(())
}

fn close(m: &mut Machine, pred: impl Fn(&OpenFile) -> bool) -> Result<Ret, Stop> {
    let f = file(m, pred)?;
    f.closed = true;
    ret_i32(0)
}

fn take(f: &mut OpenFile, n: usize) -> Vec<u8> {
    if f.pos >= f.data.len() {
        return Vec::new();
    }
    let end = (f.pos + n).min(f.data.len());
    let out = f.data[f.pos..end].to_vec();
    f.pos = end;
    out
}

fn fgets(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let n = c.i32(1);
    if n <= 0 {
        super::string::seen(m, c, Vec::new(), None)?;
        return ret_u64(0);
    }
    let f = file(m, |f| f.stream == c.ptr(2))?;
    if f.pos >= f.data.len() {
        noted_bytes(m, c, None)?;
        super::string::seen(m, c, Vec::new(), None)?;
        return ret_u64(0);
    }
    let rest = &f.data[f.pos..];
    let len = rest.iter().position(|&b| b == b'\n').map(|i| i + 1).unwrap_or(rest.len()).min(n as usize - 1);
    let mut line = take(f, len);
    noted_bytes(m, c, Some(&line))?;
    line.push(0);
    delivered(m, c, c.ptr(0), line)?;
    ret_u64(c.ptr(0))
}

fn getc(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let stream = c.ptr(0);
    no_std_read(m, stream)?;
    let f = file(m, |f| f.stream == stream)?;
    let v = take(f, 1).first().map_or(-1, |b| *b as i32);
    ret_i32(noted_value(m, c, v as u32 as u64)? as i32)
}

fn fread(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let (size, count) = (c.int(1) as usize, c.int(2) as usize);
    if size == 0 {
        super::string::seen(m, c, Vec::new(), None)?;
        return ret_u64(0);
    }
    let f = file(m, |f| f.stream == c.ptr(3))?;
    let data = take(f, size.saturating_mul(count));
    noted_bytes(m, c, Some(&data))?;
    let n = data.len();
    delivered(m, c, c.ptr(0), data)?;
    ret_u64((n / size) as u64)
}

/// `fscanf(f, format, …)`: the conversions of the file's bytes from its
/// position on; the bytes consumed and the result are noted in the
/// recorded path (symbolic execution scans those bytes again).
fn fscanf(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    no_std_read(m, c.ptr(0))?;
    let f = file(m, |f| f.stream == c.ptr(0))?;
    let rest = f.data.get(f.pos..).unwrap_or_default().to_vec();
    let scanned = super::scan::scanned(m, c, &rest)?;
    file(m, |f| f.stream == c.ptr(0))?.pos += scanned.consumed;
    noted_bytes(m, c, Some(&rest[..scanned.consumed]))?;
    noted_value(m, c, scanned.result as u32 as u64)?;
    let writes = super::scan::store(m, c, &scanned.items)?;
    super::string::seen_writes(m, c, Vec::new(), writes)?;
    ret_i32(scanned.result)
}

/// Whether `fd` is a descriptor the program opened and has not closed.
fn has_fd(m: &Machine, fd: i32) -> bool {
    m.files.open.iter().any(|f| f.fd == fd && !f.closed)
}

/// A call on a descriptor that is not open sets `errno` to EBADF (and
/// returns -1), as the system answers: not a crash, a descriptor is a number.
fn bad_fd(m: &mut Machine, c: &Call<'_>) -> Result<(), Stop> {
    super::misc::set_errno(m, c.t, super::misc::EBADF)
}

/// `getline(&line, &cap, f)` and `getdelim(&line, &cap, delim, f)`: the
/// next line (to the delimiter, kept) into `*line`, NUL-terminated, its
/// length returned (-1 at the end of the file). A null `*line` gets a new
/// block of at least [`GETLINE_FIRST`] bytes, private to the thread until
/// its address escapes (as a stack object), `*line` and `*cap` updated.
/// What it read is noted as `fgets`' is. A buffer other threads can reach,
/// growing a buffer an earlier call filled (a line longer than it; glibc
/// reallocates it) and `line` or `cap` in memory other threads reach are
/// reported as unsupported.
fn getline(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    let delimited = c.name != "getline";
    let (delim, stream) = if delimited { (c.i32(2) as u8, c.ptr(3)) } else { (b'\n', c.ptr(2)) };
    no_std_read(m, stream)?;
    let (lp, np) = (c.ptr(0), c.ptr(1));
    if m.mem.is_shared(lp) || m.mem.is_shared(np) {
        return Err(Stop::unsupported("`getline` with `line` or `cap` in memory other threads can reach"));
    }
    let f = file(m, |f| f.stream == stream)?;
    if f.pos >= f.data.len() {
        noted_bytes(m, c, None)?;
        return ret_u64(u64::MAX);
    }
    let rest = &f.data[f.pos..];
    let len = rest.iter().position(|&b| b == delim).map_or(rest.len(), |i| i + 1);
    let mut line = take(f, len);
    noted_bytes(m, c, Some(&line))?;
    let word = m.ptr_ty();
    let mut buf = m.load(lp, &word)?.as_addr();
    let cap = m.load(np, &word)?.as_addr();
    if buf != 0 && cap < len as u64 + 1 {
        return Err(Stop::unsupported(format!(
            "`getline` growing the buffer of an earlier line (a line of {len} bytes, longer than its {cap})"
        )));
    }
    if buf == 0 {
        let Ret::Value(p) = super::alloc::alloc_at(m, c, (len as u64 + 1).max(GETLINE_FIRST), "getline")? else {
            return ret_u64(u64::MAX);
        };
        buf = p.as_addr();
        m.mem.make_private(buf);
        m.store(lp, &word, &p)?;
        m.store(np, &word, &Value::Int((len as u128 + 1).max(GETLINE_FIRST as u128)))?;
    }
    if m.mem.is_shared(buf) {
        return Err(Stop::unsupported("`getline` into a buffer other threads can reach"));
    }
    line.push(0);
    m.write_bytes(buf, &line)?;
    ret_u64(len as u64)
}

/// `fseek(f, offset, whence)`: 0, or -1 (EINVAL) for a position before the
/// start or an unknown `whence`; the result is noted (symbolic execution
/// takes it from there).
fn fseek(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    no_std_read(m, c.ptr(0))?;
    let (offset, whence) = (c.int(1) as u64 as i64, c.i32(2));
    let f = file(m, |f| f.stream == c.ptr(0))?;
    let base = match whence {
        0 => Some(0),
        1 => Some(f.pos as i64),
        2 => Some(f.data.len() as i64),
        _ => None,
    };
    let to = base.and_then(|b| b.checked_add(offset)).filter(|p| *p >= 0);
    if let Some(p) = to {
        f.pos = p as usize;
    }
    let r = if to.is_some() { 0 } else { -1i32 };
    if r < 0 {
        super::misc::set_errno(m, c.t, super::misc::EINVAL)?;
    }
    ret_i32(noted_value(m, c, r as u32 as u64)? as u32 as i32)
}

fn read(m: &mut Machine, c: &Call<'_>) -> Result<Ret, Stop> {
    if !has_fd(m, c.i32(0)) {
        bad_fd(m, c)?;
        noted_value(m, c, u64::MAX)?;
        return ret_u64(u64::MAX);
    }
    let f = file(m, |f| f.fd == c.i32(0) && !f.closed)?;
    let data = take(f, c.int(2) as usize);
    noted_bytes(m, c, Some(&data))?;
    let n = data.len();
    delivered(m, c, c.ptr(1), data)?;
    ret_u64(n as u64)
}

/// The bytes a read puts at `dest`: into shared memory, the call's one
/// visible write ([`super::string::seen`]).
fn delivered(m: &mut Machine, c: &Call<'_>, dest: u64, data: Vec<u8>) -> Result<(), Stop> {
    let old = m.replace_bytes(dest, &data)?;
    super::string::seen(m, c, Vec::new(), Some((dest, old, data)))
}
