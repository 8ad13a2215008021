//! Words for events: what the renderers and the summary share.

use crate::{EventInfo, Explanation, Flow};
use causa_symbolic::EventRef;

/// Which run a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    Failing,
    Alternate,
}

impl crate::EventInfo {
    /// A read, write, update, bulk access or free.
    pub fn touches_memory(&self) -> bool {
        matches!(self.op, "read" | "write" | "update" | "free") || self.span.is_some()
    }
}

impl Explanation {
    pub fn info_of(&self, r: EventRef) -> &EventInfo {
        &self.info[r.0][r.1]
    }

    /// The index of the thread the failure is in.
    pub fn failing_thread(&self) -> Option<usize> {
        self.threads.iter().position(|t| *t == self.failure.thread)
    }

    /// Where event `r` comes in the failing schedule.
    pub(crate) fn place(&self, r: EventRef) -> Option<usize> {
        self.failing.iter().position(|x| *x == r)
    }

    /// Thread `t`'s end in the failing schedule, when it ends there.
    pub(crate) fn end_of(&self, t: usize) -> Option<EventRef> {
        self.failing.iter().copied().find(|r| r.0 == t && self.info_of(*r).op == "end")
    }

    /// Whether the thread that took the lock at `lock` unlocks it later in
    /// the failing schedule.
    pub(crate) fn unlocked_later(&self, lock: EventRef) -> bool {
        let object = self.info_of(lock).addr;
        self.failing.iter().any(|u| {
            u.0 == lock.0 && u.1 > lock.1 && self.info_of(*u).op == "unlock" && self.info_of(*u).addr == object
        })
    }

    /// The object an event touches: `balance`, `buf[3]` (an address when
    /// no run named it); in the failing run when the runs differ.
    pub fn object(&self, r: EventRef) -> Option<String> {
        self.object_in(r, Run::Failing)
    }

    /// The object an event touches, quoted as the sentences name it
    /// (`` `balance` ``), else `fallback` ("it", "the block").
    pub(crate) fn named(&self, r: EventRef, fallback: &str) -> String {
        self.object(r).map_or_else(|| fallback.to_string(), |o| format!("`{o}`"))
    }

    /// The object an access reaches in the alternate when it is another
    /// than in the failing schedule (an address computed from shared data).
    pub fn elsewhere_in_alternate(&self, r: EventRef) -> Option<String> {
        self.object_in(r, Run::Alternate).filter(|o| Some(o) != self.object(r).as_ref())
    }

    /// The object an event touches in `run` (an access through an address
    /// computed from shared data may touch another in each).
    pub fn object_in(&self, r: EventRef, run: Run) -> Option<String> {
        let i = self.info_of(r);
        let addr = match run {
            Run::Alternate => i.alternate_addr.or(i.addr),
            Run::Failing => i.addr,
        };
        let blocks = if i.op == "free" { Some(&self.blocks) } else { None };
        addr.map(|a| {
            // The run's span of the same bytes, else its widest from the
            // same address (the model may read more of a string than the
            // run did: `strlen` to the end of the object).
            let widest = || self.spans.range((a, 0)..=(a, u32::MAX)).next_back().map(|(_, n)| n);
            let span = i.span.and_then(|s| {
                self.spans.get(&(a, s)).or_else(|| if matches!(i.op, "read" | "write") { None } else { widest() })
            });
            span.or_else(|| blocks.and_then(|b| b.get(&a)))
                .or_else(|| i.size.and_then(|s| self.sized.get(&(a, s))))
                .or_else(|| self.names.get(&a))
                .cloned()
                .unwrap_or_else(|| format!("{a:#x}"))
        })
    }

    /// Where an event is in a projection's table: ` :14` (its line; the
    /// table's events are in the program's files), or ` in qsort` for one
    /// inside causa's own C library (`<causa>/libc.c`), whose line
    /// numbers the program's files do not have.
    pub fn table_line(&self, r: EventRef) -> String {
        let i = self.info_of(r);
        match &i.loc {
            Some(l) if &*l.file == causa_ir::compile::RUNTIME_FILE => {
                format!(" in {}", i.function.as_deref().unwrap_or("causa's C library"))
            }
            Some(l) => format!(" :{}", l.line),
            None => String::new(),
        }
    }

    /// `bank.c:14`, when the event has a source location.
    pub fn line(&self, r: EventRef) -> Option<String> {
        self.info_of(r).loc.as_ref().map(short_line)
    }

    /// `main.c:40`: where thread `t` joins thread `child` in the alternate
    /// run, past the events the trace has of it ([`Explanation::later_joins`]).
    pub fn later_join(&self, t: usize, child: usize) -> Option<String> {
        let j = self.later_joins.iter().find(|j| (j.thread, j.joins) == (t, child))?;
        j.loc.as_ref().map(short_line)
    }

    /// `bank.c:14`, the failure's source line, when the run gave one.
    pub fn failure_line(&self) -> Option<String> {
        finding_line(&self.failure)
    }

    /// The value an event read or wrote in a run.
    pub fn value(&self, r: EventRef, run: Run) -> Option<&str> {
        match run {
            Run::Failing => self.failing_values.get(&r),
            Run::Alternate => self.alternate_values.get(&r),
        }
        .map(|s| s.as_str())
    }

    /// `read balance`: the operation and its object.
    pub fn op_text(&self, r: EventRef) -> String {
        self.op_text_in(r, Run::Failing)
    }

    /// The operation's name as shown: a buffered store where it becomes
    /// visible (as `causa run` lists it under TSO/PSO) is a flush, and a
    /// reader-writer lock's exclusive lock and unlock are `wrlock` and
    /// `rwunlock` (as the run lists them).
    pub fn op_name(&self, r: EventRef) -> &'static str {
        let i = self.info_of(r);
        match (i.buffered, i.realloc, i.rw, i.op) {
            (true, _, _, _) => "flush",
            (_, true, _, _) => "realloc frees",
            (_, _, true, "lock") => "wrlock",
            (_, _, true, "unlock") => "rwunlock",
            _ => i.op,
        }
    }

    /// The operation and its object in `run`.
    pub fn op_text_in(&self, r: EventRef, run: Run) -> String {
        let i = self.info_of(r);
        // The alternate does not fail there: the same access, valid.
        if run == Run::Alternate && i.op == "faulting access" {
            return "access (valid here)".to_string();
        }
        let op = self.op_name(r);
        match self.object_in(r, run) {
            Some(o) => format!("{op} {o}"),
            None => op.to_string(),
        }
    }

    /// `thread 0.1 (teller_a)`: the function the thread starts in; else the
    /// one it ends in (its start routine, when it returns), else the one its
    /// first located event is in.
    pub fn thread_text(&self, t: usize) -> String {
        let evs = &self.info[t];
        let f = self.starts.get(t).cloned().flatten().or_else(|| {
            evs.iter()
                .rev()
                .find(|i| i.op == "end" && i.function.is_some())
                .or_else(|| evs.iter().find(|i| i.function.is_some()))
                .and_then(|i| i.function.as_ref().map(|f| f.to_string()))
        });
        match f {
            Some(f) => format!("thread {} ({f})", self.threads[t]),
            None => format!("thread {}", self.threads[t]),
        }
    }

    /// Which of its thread's writes at its source location (of the same
    /// kind) the write `w` is, counted from 1 (a loop's turns write at the
    /// same line).
    pub fn write_turn(&self, w: EventRef) -> usize {
        let this = self.info_of(w);
        self.info[w.0][..=w.1].iter().filter(|i| i.op == this.op && i.loc == this.loc).count()
    }

    /// `thread 0.1 read balance at bank.c:4`.
    pub fn event_text(&self, r: EventRef) -> String {
        let at = self.line(r).map(|l| format!(" at {l}")).unwrap_or_default();
        format!("thread {} {}{at}", self.threads[r.0], self.op_text(r))
    }

    /// Where a flow's read takes its value from, with the value:
    /// `110 from thread 0.1 line 4`, `0 (initial value)`.
    /// The bytes a bulk read's flow is about (`box.a` of a `memcpy` of
    /// `box`), when the flow is about part of what the read reads and other
    /// accesses named those bytes (`box.a`, or `box.a` to `box.b` when
    /// it spans several); else None, and the read's object names it.
    pub fn flow_part(&self, f: &Flow) -> Option<String> {
        self.named_part(f).or_else(|| {
            let (object, bytes) = self.byte_part(f)?;
            Some(format!("{object} {bytes}"))
        })
    }

    /// The named objects a bulk read's flow covers part of the read's
    /// bytes of: `box.a`, `box.a to box.c`.
    fn named_part(&self, f: &Flow) -> Option<String> {
        let (a, n) = f.bytes?;
        let i = self.info_of(f.read);
        if i.addr == Some(a) && i.span.is_some_and(|s| n >= s) {
            return None;
        }
        let inside: Vec<(&u64, &String)> = self.names.range(a..a + n as u64).collect();
        match inside[..] {
            [(b, name)] if *b == a => Some(name.clone()),
            [(b, first), .., (_, last)] if *b == a => Some(format!("{first} to {last}")),
            // A copy from one shared object into another (`memcpy` into a
            // heap block): the event names its destination, the flow is
            // about its source, named as the run's accesses of it were.
            _ if i.addr.is_some_and(|d| a < d || a >= d + u64::from(i.span.unwrap_or(0))) => {
                self.spans.range((a, n)..=(a, u32::MAX)).next().map(|(_, name)| name.clone())
            }
            _ => None,
        }
    }

    /// Part of a bulk read's bytes no name covers, when another part of
    /// the read differs too (a string's first bytes from one write, the
    /// rest from another): the read's object and the bytes, counted from
    /// the read's first ("bytes 0–6", "byte 7").
    fn byte_part(&self, f: &Flow) -> Option<(String, String)> {
        let (a, n) = f.bytes?;
        let i = self.info_of(f.read);
        let (start, span) = (i.addr?, i.span?);
        if n == 0 || a < start || (a == start && n >= span) || a + n as u64 > start + span as u64 {
            return None;
        }
        let d = &self.dsp;
        if !d.failing_only.iter().chain(&d.alternate_only).any(|g| g.read == f.read && g.bytes != f.bytes) {
            return None;
        }
        let lo = a - start;
        let bytes = match n {
            1 => format!("byte {lo}"),
            _ => format!("bytes {lo}–{}", lo + n as u64 - 1),
        };
        Some((self.object(f.read)?, bytes))
    }

    /// The alternate's flow in place of the failing schedule's `f` (the
    /// same read, the same bytes).
    pub fn counterpart(&self, f: &Flow) -> Option<&Flow> {
        self.dsp.alternate_only.iter().find(|g| g.read == f.read && g.bytes == f.bytes)
    }

    /// [`Explanation::source_text`], naming the bytes of a bulk read's
    /// flow: "the initial value in `box.a`".
    pub fn source_of_part(&self, f: &Flow, run: Run) -> String {
        let text = self.source_text(f, run);
        if let Some(p) = self.named_part(f) {
            return format!("{text} in `{p}`");
        }
        match self.byte_part(f) {
            Some((object, bytes)) => format!("{text} in {bytes} of `{object}`"),
            None => text,
        }
    }

    /// The value `f`'s read takes from `f`'s source: for part of a plain
    /// read (a union's word over bytes written one by one), those bytes
    /// (`-70` of the word `0xbebafeca`); else what the read read.
    pub fn flow_value(&self, f: &Flow, run: Run) -> Option<String> {
        let v = self.value(f.read, run)?;
        let i = self.info_of(f.read);
        let (Some((a, n)), Some(size), Some(start)) = (f.bytes, i.size, i.addr) else { return Some(v.to_string()) };
        match number(v) {
            Some(w) if a >= start && a + n as u64 <= start + size as u64 && n < size && n <= 8 => {
                let part = ((w as u128) >> (8 * (a - start))) & ((1u128 << (8 * n)) - 1);
                Some(causa_interp::naming::format_value(part, n))
            }
            _ => Some(v.to_string()),
        }
    }

    pub fn source_text(&self, f: &Flow, run: Run) -> String {
        let v = self.flow_value(f, run);
        let Some(w) = f.write else {
            return v.map_or_else(|| "the initial value".to_string(), |v| format!("{v} (initial value)"));
        };
        let t = &self.threads[w.0];
        // Where the write is: `line 14` (`at line 14` after "wrote"), or
        // `at <causa>/libc.c:40` in another file than the read's.
        let read_file = self.info_of(f.read).loc.as_ref().map(|l| &l.file);
        let (from, wrote_at) = match (self.info_of(w).loc.as_ref(), read_file) {
            (Some(l), Some(file)) if *file != l.file => {
                let at = format!(" at {}:{}", causa_interp::memory::short_file(&l.file), l.line);
                (at.clone(), at)
            }
            (Some(l), _) => (format!(" line {}", l.line), format!(" at line {}", l.line)),
            (None, _) => (String::new(), String::new()),
        };
        match v {
            Some(v) => format!("{v} from thread {t}{from}"),
            // A bulk read shows no single value.
            None => format!("what thread {t} wrote{wrote_at}"),
        }
    }
}

/// A value as the runs show it (`-70`, `0xbebafeca`) as a number; None
/// when it is none (`&heap#1`, a string).
pub(crate) fn number(v: &str) -> Option<i128> {
    v.strip_prefix("0x").map_or_else(|| v.parse::<i128>().ok(), |h| i128::from_str_radix(h, 16).ok())
}

/// `bank.c:14`, a finding's source line (its file's short name), when it
/// has one.
pub(crate) fn finding_line(f: &causa_core::Finding) -> Option<String> {
    f.location.as_ref().map(short_line)
}

/// `bank.c:14`: a source location's file, without its directories, and line.
fn short_line(l: &causa_core::SourceLoc) -> String {
    format!("{}:{}", causa_interp::memory::short_file(&l.file), l.line)
}
