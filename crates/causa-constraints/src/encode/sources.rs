//! Where a read takes its value from: the writes (and the initial value)
//! Φ_value chooses among, each as its own formula, and the new-state queries
//! that make a read take the value it read from another write.
//!
//! MCR asks for each value a read did not read. Reading the same value from
//! another write can matter too: a thread that reads a lock word's initial 0
//! before another thread takes the lock runs in a different state from one
//! that reads the 0 of that thread's release, although both read 0 (a
//! test-then-set lock lets two threads in only in the first). Once a
//! prefix has put the other thread's release before the read, no value
//! query can move the read back before its acquisition; so MCR also asks
//! for the read to take its value from the start
//! ([`Encoder::other_sources`]).

use super::{Encoder, Query};
use crate::formula::{Ev, Formula};
use crate::trace::Op;
use causa_core::collections::{HashMap, HashSet};

/// One place a read can take its value from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Source {
    /// A write (or rmw, or bulk write) of the trace, visible in memory.
    Write(Ev),
    /// Under TSO/PSO, the reading thread's own store still in its buffer.
    Own(Ev),
    /// The location's value before any write.
    Initial,
}

impl Encoder<'_> {
    /// The sources `r` may read `loc` from by must-happen-before alone: the
    /// writes not forced after `r` and not hidden by a write forced between
    /// them and `r`, the thread's own buffered store (TSO/PSO), and the
    /// initial value when no write is forced before `r` (and none is buffered).
    pub(super) fn sources(&self, r: Ev, loc: u64) -> Vec<Source> {
        let ws = self.other_writes(r, loc);
        let own = self.own_store(r, loc);
        let mut out: Vec<Source> =
            ws.iter().copied().filter(|&w| self.may_read_from(r, w, &ws)).map(Source::Write).collect();
        out.extend(own.map(Source::Own));
        if self.initial_readable(r, loc) {
            out.push(Source::Initial);
        }
        out
    }

    /// `r` may read from the write `w` by must-happen-before alone (`ws`: the
    /// other writes to the location): `w` is not forced after `r`, and no
    /// write forced between them hides it.
    fn may_read_from(&self, r: Ev, w: Ev, ws: &[Ev]) -> bool {
        !self.mhb_before(r, w) && !ws.iter().any(|&w2| w2 != w && self.mhb_before(w, w2) && self.mhb_before(w2, r))
    }

    /// `r` may read `loc`'s initial value by must-happen-before alone: no
    /// other write to it is forced before `r`, and none of its thread's is
    /// buffered.
    fn initial_readable(&self, r: Ev, loc: u64) -> bool {
        let overwritten = self.writes_to(loc).iter().any(|&w| w != r && self.mhb_before(w, r));
        !overwritten && self.own_store(r, loc).is_none()
    }

    /// Whether `r` reads `v` at `loc` when it reads from `src`. The trace
    /// knows the initial value of every location it writes; of one no event
    /// writes, any value read is the initial one.
    pub(super) fn gives(&self, r: Ev, src: Source, loc: u64, v: u128) -> bool {
        match src {
            Source::Write(w) | Source::Own(w) => self.trace.written_at(w, loc) == Some(v),
            Source::Initial => match self.trace.initial.get(&loc) {
                Some(x) => *x == v,
                None => self.other_writes(r, loc).is_empty(),
            },
        }
    }

    /// `r` reads `loc` from `src`: a valid write placed before it with no other
    /// write to the location in between (visible in memory: under TSO/PSO
    /// after the thread's own buffered store, if any, is flushed), the
    /// thread's own buffered store not yet flushed, or the initial value with
    /// every write after it. Must-happen-before facts settle many order atoms
    /// statically: a write forced after `r` cannot be its source, and an atom
    /// already implied by Φ_mhb is dropped.
    pub(super) fn reads_from(&mut self, r: Ev, loc: u64, src: Source) -> Formula {
        let ws = self.other_writes(r, loc);
        match src {
            Source::Write(w) => {
                let mut parts = vec![self.validity(w), self.observation(w), Formula::Before(w, r)];
                parts.extend(self.own_store(r, loc).map(|o| Formula::Before(o, r)));
                for &w2 in &ws {
                    if w2 == w || self.mhb_before(w2, w) || self.mhb_before(r, w2) {
                        continue;
                    }
                    parts.push(if self.mhb_before(w, w2) {
                        Formula::Before(r, w2)
                    } else if self.mhb_before(w2, r) {
                        Formula::Before(w2, w)
                    } else {
                        Formula::or(vec![Formula::Before(w2, w), Formula::Before(r, w2)])
                    });
                }
                Formula::and(parts)
            }
            Source::Own(o) => Formula::and(vec![self.validity(o), Formula::Before(r, o)]),
            Source::Initial => {
                Formula::and(ws.iter().filter(|&&w| !self.mhb_before(r, w)).map(|&w| Formula::Before(r, w)).collect())
            }
        }
    }

    /// The writes to `loc` other than `r` itself.
    fn other_writes(&self, r: Ev, loc: u64) -> Vec<Ev> {
        self.writes.get(&loc).map(|w| w.iter().copied().filter(|w| *w != r).collect()).unwrap_or_default()
    }

    /// The other sources of the value `r` read that MCR asks for, per
    /// location it read, for a location some thread accesses holding no
    /// lock (a lock word, a flag, data updated without a lock): the initial
    /// value, when `r` read the same value from a write and could read it
    /// from the start, and every other write of the same value it could
    /// read from ([`Encoder::sources`]). Without them a program whose
    /// threads write one value several times was `verified` while an order
    /// fails (two threads setting `i = j + 1` and `j = i + 1` in loops:
    /// the failure needs each read from a particular one of equal writes).
    /// Data every thread accesses under a lock is left out: its critical
    /// sections order it, and the values read explore them (asking there
    /// too tripled the queries of the corpus's verified programs;
    /// docs/performance.md).
    pub fn other_sources(&self, r: Ev) -> Vec<(u64, Source)> {
        let mut out = Vec::new();
        if !matches!(self.trace.events[r].op, Op::Read { .. } | Op::Rmw { .. } | Op::Bulk { .. }) {
            return out;
        }
        let unguarded = self.unguarded.get_or_init(|| unguarded(self));
        for (loc, seen) in self.trace.reads_of(r) {
            // (Not `sources`: it is quadratic in the writes, and a long spin
            // has thousands; this runs for every read.)
            let from_write = self.writes_to(loc).iter().any(|&w| w != r && w < r);
            if from_write
                && unguarded.contains(&loc)
                && self.initial_readable(r, loc)
                && self.gives(r, Source::Initial, loc, seen)
            {
                out.push((loc, Source::Initial));
            }
            if unguarded.contains(&loc) {
                // The write it read from in the trace (the latest before it).
                let ws = self.other_writes(r, loc);
                let actual = ws.iter().copied().filter(|&w| w < r).max();
                // The other writes of the value `sources` allows (only those
                // of the value: the visibility test is linear in the writes).
                let same =
                    ws.iter().copied().filter(|&w| Some(w) != actual && self.trace.written_at(w, loc) == Some(seen));
                let found: Vec<Ev> = same.filter(|&w| self.may_read_from(r, w, &ws)).collect();
                out.extend(found.into_iter().map(|w| (loc, Source::Write(w))));
            }
        }
        out
    }

    /// The new-state query for read `r` taking the value it read from another
    /// source `src` at `loc` ([`Encoder::other_sources`]); otherwise as
    /// [`Encoder::new_state`].
    pub fn new_source(&mut self, r: Ev, loc: u64, src: Source) -> Query {
        let read = self.reads_from(r, loc, src);
        self.state_query(r, loc, read)
    }
}

/// The locations some thread reads or writes while it holds no lock (no
/// mutex, read-write lock or condition wait's mutex of its own), at a point
/// that must-happen-before does not order against another thread's write of
/// it (a read after joining every writer is ordered, not racing).
fn unguarded(enc: &Encoder<'_>) -> HashSet<u64> {
    let trace = enc.trace;
    let mut held: HashMap<u32, i64> = HashMap::default();
    let mut bare: HashMap<u64, Vec<Ev>> = HashMap::default();
    for (e, ev) in trace.events.iter().enumerate() {
        let h = held.entry(ev.thread).or_insert(0);
        match ev.op {
            Op::Lock { .. } | Op::WaitReturn { .. } => *h += 1,
            Op::Unlock { .. } | Op::Wait { .. } => *h -= 1,
            Op::Read { .. } | Op::Write { .. } | Op::Rmw { .. } | Op::Bulk { .. } if *h <= 0 => {
                for (l, _) in trace.reads_of(e).chain(trace.writes_of(e)) {
                    bare.entry(l).or_default().push(e);
                }
            }
            _ => {}
        }
    }
    // Each thread's writes of a location, in its program order: those
    // that must happen before an access are a prefix, those that must
    // happen after it a suffix; one in neither is concurrent with it (two
    // binary searches per thread, as a long spin has thousands of each).
    let racing = |l: u64, accesses: &[Ev]| {
        let mut by_thread: HashMap<u32, Vec<Ev>> = HashMap::default();
        for &w in enc.writes_to(l) {
            by_thread.entry(trace.events[w].thread).or_default().push(w);
        }
        accesses.iter().any(|&a| {
            by_thread.iter().any(|(t, ws)| {
                let before = ws.partition_point(|&w| enc.mhb_before(w, a));
                let not_after = ws.partition_point(|&w| !enc.mhb_before(a, w));
                *t != trace.events[a].thread && not_after > before
            })
        })
    };
    bare.into_iter().filter(|(l, accesses)| racing(*l, accesses)).map(|(l, _)| l).collect()
}
