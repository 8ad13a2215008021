//! Φ_rw (CLAP §4.4): every read that happens returns the value of the last
//! write to its location before it, or the location's initial value when no
//! write precedes it.
//!
//! Accesses through symbolic addresses (computed from shared data, CLAP §8.4)
//! are resolved at solving time: each may touch any of its candidate
//! locations, under the guard "its address equals that location", and must
//! touch one of them. The candidates come from a value-set analysis over the
//! trace (the values the address expression can take, given the values
//! written to the locations its reads read), else every word of the object
//! the address is based on, else every location of that size the trace
//! accesses.

use crate::expr::{Expr, ExprId, Exprs};
use crate::model::Model;
use crate::trace::{Initial, SymOp, SymTrace};
use crate::values::{constant, Values};
use crate::ClapError;
use causa_constraints::formula::Ev;
use causa_constraints::{Encoder, Formula};
use causa_core::collections::HashMap;
use std::collections::{BTreeMap, BTreeSet};

/// A value set larger than this is "unknown".
pub(crate) const MAX_VALUES: usize = 64;

/// An access through a computed address with more candidates than this is
/// also told that its address is at most one of them, as one
/// pseudo-Boolean constraint over the candidate equalities (the bits say
/// it too, but the solver learns it only from the bit-blasted equalities,
/// candidate by candidate). A list of 30 nodes walked through the pointers
/// it read (bench/programs/list_walk.c, 30 candidates per step): 90 s ->
/// 2.4 s, with [`read_from`]'s fixed sources. Not for fewer: on the
/// corpus's small arrays it made nothing
/// faster and changed which of equally good alternates Z3 returned
/// (docs/performance.md, sixty-fourth session).
const AT_MOST_ONE_FROM: usize = 8;

/// One shared access.
#[derive(Clone, Copy)]
pub(crate) struct Access {
    pub(crate) ev: Ev,
    value: ExprId,
    /// For an access through a symbolic address: the atom "the address is
    /// this location" (filled per location).
    pub(crate) guard: Option<usize>,
    /// Part of a wider access cut where accesses of other widths overlap it
    /// ([`split`]): (its first byte in `value`, the whole access's size).
    pub(crate) part: Option<(u32, u32)>,
}

impl Access {
    fn new(ev: Ev, value: ExprId) -> Access {
        Access { ev, value, guard: None, part: None }
    }

    /// Its value as a bit vector of the location's `bits`.
    pub(crate) fn bv(&self, values: &mut Values<'_>, bits: u32) -> z3::ast::BV {
        match self.part {
            None => values.bv_bits(self.value, bits),
            Some((lo, whole)) => values.bv_bits(self.value, whole * 8).extract(lo * 8 + bits - 1, lo * 8),
        }
    }
}

/// A piece of a bulk read through a symbolic address: the access, its
/// offset from the address, its size.
type Offset = (Access, u64, u32);

/// A location's accesses in trace order.
#[derive(Default)]
pub(crate) struct Location {
    pub(crate) size: u32,
    pub(crate) writes: Vec<Access>,
    pub(crate) reads: Vec<Access>,
}

/// Φ_rw, each conjunct required when its read happens (`after(e)`: `e` is
/// after the cut). Auxiliary order variables are numbered from `next_var`
/// on (it is advanced past them). `slice`: what the failure depends on
/// ([`crate::relevant::slice`]).
pub(crate) fn constraints(
    sym: &SymTrace,
    model: &Model,
    (enc, slice): (&Encoder<'_>, &crate::relevant::Slice),
    values: &mut Values<'_>,
    next_var: &mut usize,
) -> Result<Vec<Formula>, ClapError> {
    let cut = enc.cut();
    let after = |e: Ev| Formula::Before(cut, e);
    // (Where an access the model cannot encode is in the program.)
    let loc_of = |e: Ev| {
        let (t, k) = model.origin[e];
        sym.threads[t].events[k].loc
    };
    let mut locs: BTreeMap<u64, Location> = BTreeMap::new();
    // Accesses at concrete addresses: (address, size, access, is write).
    let mut raw: Vec<(u64, u32, Access, bool)> = Vec::new();
    // Symbolic accesses: (access, address expression, size, is write).
    let mut symbolic = Vec::new();
    // Bulk reads through a symbolic address: (event, address, its pieces
    // with their offsets and sizes).
    let mut through: Vec<(Ev, ExprId, Vec<Offset>)> = Vec::new();
    // Bulk writes through a symbolic address (a struct wider than one
    // expression stored into a slot at a computed index): the same.
    let mut wide: Vec<(Ev, ExprId, Vec<Offset>)> = Vec::new();
    let matters = |value: ExprId| match sym.exprs.get(value) {
        Expr::Read { id, .. } => slice.reads.get(*id as usize).copied().unwrap_or(true),
        // A determined read: program order fixes the write it returns.
        Expr::Const { .. } => false,
        _ => true,
    };
    for (ev, (t, k)) in model.origin.iter().enumerate() {
        let (addr, size, value, at, write) = match &sym.threads[*t].events[*k].op {
            // A read whose value nothing depends on constrains nothing.
            SymOp::Read { value, .. } if !matters(*value) => continue,
            // Nor does a write through a symbolic address into an object no
            // read that matters reads (where it lands changes nothing).
            SymOp::Write { at: Some(p), .. } if !slice.written_matters(crate::relevant::object_of(sym, *p), None) => {
                continue
            }
            SymOp::Rmw { at: Some(p), old, .. }
                if !matters(*old) && !slice.written_matters(crate::relevant::object_of(sym, *p), None) =>
            {
                continue
            }
            SymOp::Rmw { addr, size, old, new, at } if !matters(*old) => (*addr, *size, *new, *at, true),
            SymOp::Read { addr, size, value, at, .. } => (*addr, *size, *value, *at, false),
            SymOp::Write { addr, size, value, at, .. } => (*addr, *size, *value, *at, true),
            SymOp::Fork { handle: Some((addr, value)), .. } | SymOp::Join { result: Some((addr, value)), .. } => {
                (*addr, 8, *value, None, true)
            }
            // A read and a write at the same instant (one order variable):
            // the read sees the latest write before the event, not its own.
            // (Through a computed address: a read and a write, each placed
            // among the candidates, with the same address.)
            SymOp::Rmw { addr, size, old, new, at } => {
                match at {
                    Some(p) => symbolic.push((Access::new(ev, *old), *p, *size, false)),
                    None => raw.push((*addr, *size, Access::new(ev, *old), false)),
                }
                (*addr, *size, *new, *at, true)
            }
            // A string read, or a wide value written, through a computed
            // pointer: resolved below.
            SymOp::Bulk { reads, writes, at: Some(p), .. } => {
                let pieces: Vec<Offset> = reads
                    .iter()
                    .filter(|r| matters(r.value))
                    .map(|r| (Access::new(ev, r.value), r.addr, r.size))
                    .collect();
                if !pieces.is_empty() {
                    through.push((ev, *p, pieces));
                }
                if !writes.is_empty() && slice.written_matters(crate::relevant::object_of(sym, *p), None) {
                    wide.push((ev, *p, writes.iter().map(|w| (Access::new(ev, w.value), w.addr, w.size)).collect()));
                }
                continue;
            }
            SymOp::Bulk { reads, writes, .. } => {
                let reads = reads.iter().filter(|p| matters(p.value)).map(|p| (p, false));
                let writes = writes
                    .iter()
                    .filter(|p| slice.written_matters(Some(causa_ir::addr_alloc(p.addr)), None))
                    .map(|p| (p, true));
                raw.extend(reads.chain(writes).map(|(p, w)| (p.addr, p.size, Access::new(ev, p.value), w)));
                continue;
            }
            _ => continue,
        };
        let acc = Access::new(ev, value);
        match at {
            Some(p) => symbolic.push((acc, p, size, write)),
            None => raw.push((addr, size, acc, write)),
        }
    }
    // Where accesses through computed addresses of a narrower width may
    // land in an object, its wider concrete accesses are cut at that
    // width's boundaries too (a struct copied whole from a fixed slot,
    // its fields written at a computed index).
    let mut narrow: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for (_, p, size, _) in &symbolic {
        if let Some(o) = crate::relevant::object_of(sym, *p) {
            narrow.entry(o).or_default().insert(*size);
        }
    }
    for (_, p, pieces) in &wide {
        if let Some(o) = crate::relevant::object_of(sym, *p) {
            narrow.entry(o).or_default().extend(pieces.iter().map(|(_, _, size)| *size));
        }
    }
    // A string read through a computed pointer reads byte by byte wherever
    // the pointer may point: the accesses there are cut into bytes (not
    // the rest of the object: a list node's link after its name stays a
    // pointer, which the reads through it need whole).
    let mut byte_spans: Vec<(u64, u64)> = Vec::new();
    for (_, p, pieces) in &through {
        let lo = pieces.iter().map(|(_, off, _)| *off).min().unwrap_or(0);
        let hi = pieces.iter().map(|(_, off, size)| off + *size as u64).max().unwrap_or(0);
        byte_spans.extend(pointed_addresses(sym, &raw, *p).into_iter().map(|t| (t + lo, t + hi)));
    }
    let grid = |a: u64, size: u32| -> Vec<u64> {
        let end = a + size as u64;
        if byte_spans.iter().any(|(s, e)| *s < end && a < *e) {
            return (a..end).collect();
        }
        let Some(widths) = narrow.get(&causa_ir::addr_alloc(a)) else { return Vec::new() };
        let base = causa_ir::make_addr(causa_ir::addr_alloc(a), 0);
        widths
            .iter()
            .filter(|w| **w < size)
            .flat_map(|w| (a..end).filter(move |x| (x - base).is_multiple_of(*w as u64)))
            .collect()
    };
    for (addr, size, acc, write) in split(raw, &grid) {
        add(&mut locs, addr, size, acc, write).map_err(|e| e.at(loc_of(acc.ev)))?;
    }
    check_overlaps(&locs).map_err(|(e, ev)| e.at(loc_of(ev)))?;
    let mut parts = Vec::new();
    if !symbolic.is_empty() || !through.is_empty() || !wide.is_empty() {
        // (A read through a link is valued by the concretely addressed
        // writes only: with writes through computed addresses, such as
        // `r->users++`, its location may hold more.)
        let linked = !symbolic.iter().any(|(_, _, _, write)| *write) && wide.is_empty();
        let sets = through_links(sym, &model.origin, &locs, &symbolic, linked);
        for (ev, p, pieces) in through {
            let read_values = |id: u32| linked_read_set(sym, &locs, &sets, id, 0);
            let targets = eval_set(&sym.exprs, p, &read_values).ok_or_else(|| {
                ClapError::unsupported(format!(
                    "a string read through a pointer whose possible values are unknown ({})",
                    sym.exprs.brief(p)
                ))
                .at(loc_of(ev))
            })?;
            let pb = values.bv_bits(p, 64);
            let mut some = Vec::new();
            for t in targets {
                let t = t as u64;
                // The bytes read inside the target's object: a string at
                // a target shorter than the longest ends before the rest
                // (symbolic execution required that, `pointed.rs`).
                let end = sym.objects.iter().find(|o| causa_ir::addr_alloc(o.base) == causa_ir::addr_alloc(t));
                let Some(end) = end.map(|o| o.base + o.size) else { continue };
                let g = values.atom(pb.eq(constant(64, t as u128)));
                some.push(Formula::Atom(g));
                for (acc, off, size) in pieces.iter().filter(|(_, off, size)| t + off + *size as u64 <= end) {
                    let tiled = tiles(&locs, t + off, *size, &BTreeSet::new()).map_err(|e| e.at(loc_of(ev)))?;
                    for (a, s, part) in tiled {
                        add(&mut locs, a, s, Access { guard: Some(g), part, ..*acc }, false)
                            .map_err(|e| e.at(loc_of(ev)))?;
                    }
                }
            }
            some.push(after(ev));
            parts.push(Formula::or(some));
        }
        // Where each access through a computed address may begin and end:
        // the new locations one of them makes where no other access is are
        // cut there, so that another of other extent finds locations that
        // fit (a message copied out whole from a queue slot that the
        // producer fills field by field, none of them at a fixed address).
        let mut ends: BTreeSet<u64> = BTreeSet::new();
        for (_, p, size, _) in &symbolic {
            for l in candidates(sym, &sym.exprs, (&locs, &sets, linked), *p, *size) {
                ends.extend([l, l + *size as u64]);
            }
        }
        for (_, p, pieces) in &wide {
            for l in candidates(sym, &sym.exprs, (&locs, &sets, linked), *p, extent(pieces)) {
                ends.extend(pieces.iter().flat_map(|(_, off, size)| [l + off, l + off + *size as u64]));
            }
        }
        for (acc, p, size, write) in symbolic {
            let cands = candidates(sym, &sym.exprs, (&locs, &sets, linked), p, size);
            if cands.is_empty() {
                return Err(ClapError::unsupported(format!(
                    "an access through a symbolic address whose possible targets are unknown ({})",
                    sym.exprs.brief(p)
                ))
                .at(loc_of(acc.ev)));
            }
            let mut equal = Vec::new();
            let mut guards = Vec::new();
            for l in cands {
                let eq = values.eq_const(p, 64, l as u128);
                // (A candidate the address's reads' domains rule out: a
                // list's head among the locations a walk's `n->next` may
                // be, when the nodes are too many for a value set.)
                if eq.as_bool() == Some(false) {
                    continue;
                }
                let g = values.atom(eq.clone());
                equal.push(eq);
                guards.push(g);
                for (a, s, part) in tiles(&locs, l, size, &ends).map_err(|e| e.at(loc_of(acc.ev)))? {
                    add(&mut locs, a, s, Access { guard: Some(g), part, ..acc }, write)
                        .map_err(|e| e.at(loc_of(acc.ev)))?;
                }
            }
            let mut some: Vec<Formula> = guards.iter().map(|g| Formula::Atom(*g)).collect();
            values.note_addressed(acc.ev, guards);
            // The address is one of the candidates, and, when there are
            // many, at most one ([`AT_MOST_ONE_FROM`]).
            some.push(after(acc.ev));
            parts.push(Formula::or(some));
            if equal.len() > AT_MOST_ONE_FROM {
                parts.push(Formula::Atom(values.at_most_one(&equal)));
            }
        }
        for (ev, p, pieces) in wide {
            let cands = candidates(sym, &sym.exprs, (&locs, &sets, linked), p, extent(&pieces));
            if cands.is_empty() {
                return Err(ClapError::unsupported(format!(
                    "a copy through a symbolic address whose possible targets are unknown ({})",
                    sym.exprs.brief(p)
                ))
                .at(loc_of(ev)));
            }
            let pb = values.bv_bits(p, 64);
            let mut some = Vec::new();
            for l in cands {
                let g = values.atom(pb.eq(constant(64, l as u128)));
                some.push(Formula::Atom(g));
                for (acc, off, size) in &pieces {
                    for (a, s, part) in tiles(&locs, l + off, *size, &ends).map_err(|e| e.at(loc_of(ev)))? {
                        add(&mut locs, a, s, Access { guard: Some(g), part, ..*acc }, true)
                            .map_err(|e| e.at(loc_of(ev)))?;
                    }
                }
            }
            some.push(after(ev));
            parts.push(Formula::or(some));
        }
    }
    // Reads through a symbolic address: one alternative per candidate (the
    // reads of all its parts).
    let mut by_read: HashMap<Ev, BTreeMap<usize, Vec<Formula>>> = HashMap::default();
    for (addr, loc) in &locs {
        if loc.reads.is_empty() {
            // Nobody reads the location (or no read of it matters).
            continue;
        }
        let init = sym.initial_value(*addr, loc.size);
        // Written only in one mutex's critical sections: those reads by
        // the sections' order (`crate::locked`), which keeps the writes
        // apart too.
        let chain = crate::locked::chain(enc, &model.origin, loc, !sym.memory_model.buffers_stores());
        match &chain {
            Some(c) => {
                tracing::debug!(
                    addr = format!("{addr:#x}"),
                    sections = c.len(),
                    "a locked location read by its sections' order"
                );
                parts.extend(crate::locked::constraints(enc, values, (*addr, loc, init), c))
            }
            None => parts.extend(writes_apart(enc, loc)),
        }
        for r in &loc.reads {
            if chain.as_ref().is_some_and(|c| c.covers.binary_search(&r.ev).is_ok()) {
                continue;
            }
            let own = own_store(sym, model, loc, r);
            let f = read_from(enc, values, loc, r, init, next_var, own);
            match r.guard {
                None => parts.push(Formula::or(vec![f, after(r.ev)])),
                Some(g) => by_read.entry(r.ev).or_default().entry(g).or_default().push(f),
            }
        }
    }
    let mut guarded: Vec<(Ev, BTreeMap<usize, Vec<Formula>>)> = by_read.into_iter().collect();
    guarded.sort_by_key(|(e, _)| *e);
    for (r, by_guard) in guarded {
        let mut alts: Vec<Formula> = by_guard
            .into_iter()
            .map(|(g, fs)| Formula::and(std::iter::once(Formula::Atom(g)).chain(fs).collect()))
            .collect();
        alts.push(after(r));
        parts.push(Formula::or(alts));
    }
    Ok(parts)
}

/// How many bytes from the pointer pieces cover.
fn extent(pieces: &[Offset]) -> u32 {
    pieces.iter().map(|(_, off, size)| *off as u32 + size).max().unwrap_or(0)
}

fn add(locs: &mut BTreeMap<u64, Location>, addr: u64, size: u32, acc: Access, write: bool) -> Result<(), ClapError> {
    let l = locs.entry(addr).or_insert_with(|| Location { size, ..Location::default() });
    if l.size != size {
        return Err(mixed(addr));
    }
    if write {
        l.writes.push(acc);
    } else {
        l.reads.push(acc);
    }
    Ok(())
}

/// A location an access through a symbolic address covers: (address,
/// size, the access's part there as (first byte, whole size)).
type Tile = (u64, u32, Option<(u32, u32)>);

/// Where an access of `size` bytes through a symbolic address lands when
/// it is at `l`: the location there, or, when other accesses cut
/// `[l, l + size)` into several locations, one part of it per location
/// (`(address, size, (first byte, whole size))`), the gaps between them
/// new locations, cut at `cuts` (where other such accesses begin or end).
/// A location that sticks out of the range is an overlap the model does
/// not split.
fn tiles(locs: &BTreeMap<u64, Location>, l: u64, size: u32, cuts: &BTreeSet<u64>) -> Result<Vec<Tile>, ClapError> {
    let end = l + size as u64;
    let inside: Vec<(u64, u32)> =
        locs.range(..end).filter(|(a, loc)| **a + loc.size as u64 > l).map(|(a, loc)| (*a, loc.size)).collect();
    // The locations inside, and new ones for the gaps between them.
    let mut at = l;
    let mut pieces = Vec::new();
    let gap = |from: u64, to: u64, pieces: &mut Vec<(u64, u32)>| {
        let mut a = from;
        for c in cuts.range(from + 1..to).copied().chain([to]) {
            pieces.push((a, (c - a) as u32));
            a = c;
        }
    };
    for (a, s) in inside {
        if a < at || a + s as u64 > end {
            return Err(mixed(at.max(a)));
        }
        if a > at {
            gap(at, a, &mut pieces);
        }
        pieces.push((a, s));
        at = a + s as u64;
    }
    if at < end {
        gap(at, end, &mut pieces);
    }
    // (One piece: the location there, or one new one, whole.)
    if pieces == [(l, size)] {
        return Ok(vec![(l, size, None)]);
    }
    Ok(pieces.into_iter().map(|(a, s)| (a, s, Some(((a - l) as u32, size)))).collect())
}

/// Accesses that overlap with different extents (a bulk copy's words and
/// a struct's fields, a union, bytes of a wider value) cut at every
/// boundary of any of them, so that locations do not overlap: each access
/// becomes one part per piece between two boundaries inside it, at the
/// same instant, its value that part of the whole.
fn split(mut raw: Vec<(u64, u32, Access, bool)>, grid: &dyn Fn(u64, u32) -> Vec<u64>) -> Vec<(u64, u32, Access, bool)> {
    // By location, each location's accesses in trace order.
    let by_location = |(a, s, acc, w): &(u64, u32, Access, bool)| (*a, *s, acc.ev, *w);
    raw.sort_by_key(by_location);
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        // A cluster: accesses overlapping one another, transitively.
        let mut end = raw[i].0 + raw[i].1 as u64;
        let mut j = i + 1;
        while j < raw.len() && raw[j].0 < end {
            end = end.max(raw[j].0 + raw[j].1 as u64);
            j += 1;
        }
        let cluster = &raw[i..j];
        let extra: BTreeSet<u64> = cluster.iter().flat_map(|(a, s, _, _)| grid(*a, *s)).collect();
        let same = cluster.iter().all(|(a, s, _, _)| (*a, *s) == (cluster[0].0, cluster[0].1));
        if same && extra.iter().all(|x| *x == cluster[0].0) {
            out.extend_from_slice(cluster);
        } else {
            let mut cuts: BTreeSet<u64> = cluster.iter().flat_map(|(a, s, _, _)| [*a, a + *s as u64]).collect();
            cuts.extend(extra);
            for (a, s, acc, w) in cluster {
                let e = a + *s as u64;
                let inside: Vec<u64> = cuts.range(*a..=e).copied().collect();
                for pair in inside.windows(2) {
                    let whole = (pair[0], pair[1]) == (*a, e);
                    let part = Access { part: (!whole).then_some(((pair[0] - a) as u32, *s)), ..*acc };
                    out.push((pair[0], (pair[1] - pair[0]) as u32, part, *w));
                }
            }
        }
        i = j;
    }
    out.sort_by_key(by_location);
    out
}

/// Locations must not overlap ([`split`] cuts concrete accesses; an access
/// through a symbolic address must land on one of them exactly); one
/// address has one size by [`add`].
/// (On overlapping locations: the error, and an access of the second.)
fn check_overlaps(locs: &BTreeMap<u64, Location>) -> Result<(), (ClapError, Ev)> {
    let mut prev: Option<(u64, u32)> = None;
    for (a, l) in locs {
        if let Some((pa, ps)) = prev {
            if pa + ps as u64 > *a {
                let ev = l.writes.iter().chain(&l.reads).map(|acc| acc.ev).next().unwrap_or(0);
                return Err((mixed(*a), ev));
            }
        }
        prev = Some((*a, l.size));
    }
    Ok(())
}

fn mixed(addr: u64) -> ClapError {
    ClapError::unsupported(format!(
        "overlapping shared accesses of different sizes at {addr:#x} (unions, byte-wise access to wider data)"
    ))
}

/// Φ_rw(r) at one location, quadratic rather than CLAP's cubic form: an
/// auxiliary order variable `L` stands for the latest write to the location
/// before `r` (every write before `r` is at or before `L`, `L` before `r`);
/// `r` reads from a write placed exactly at `L`, or, when every write is
/// after it, the initial value (when known). Writes to one location are
/// placed apart (no ties), and writes through symbolic addresses take part
/// under their guard. Orders must-happen-before already decides are left
/// out.
fn read_from(
    enc: &Encoder<'_>,
    values: &mut Values<'_>,
    loc: &Location,
    r: &Access,
    init: Initial,
    next_var: &mut usize,
    own: Option<&Access>,
) -> Formula {
    let bits = loc.size * 8;
    let rbv = r.bv(values, bits);
    let not_there = |values: &mut Values<'_>, w: &Access| w.guard.map(|g| Formula::Atom(values.atom_not(g)));
    // The writes that may come before r.
    let before: Vec<&Access> = loc.writes.iter().filter(|w| w.ev != r.ev && !enc.mhb_before(r.ev, w.ev)).collect();
    // One write that must happen before r, after every other that may:
    // r reads it in every schedule, and no order needs deciding.
    let last = before.iter().find(|w| {
        w.guard.is_none()
            && enc.mhb_before(w.ev, r.ev)
            && before.iter().all(|x| x.ev == w.ev || enc.mhb_before(x.ev, w.ev))
    });
    if let (Some(w), None) = (last, own) {
        let wbv = w.bv(values, bits);
        return Formula::Atom(values.atom(rbv.eq(&wbv)));
    }
    // The auxiliary order variable of the latest write before r.
    let latest = *next_var;
    *next_var += 1;
    let mut parts = vec![Formula::Before(latest, r.ev)];
    for x in &before {
        let mut at_most = vec![Formula::Before(r.ev, x.ev), Formula::Before(x.ev, latest), Formula::Same(x.ev, latest)];
        at_most.extend(not_there(values, x));
        parts.push(Formula::or(at_most));
    }
    let mut alts = Vec::new();
    for w in &before {
        // Overwritten for sure before r by a write of r's own thread.
        let overwritten = loc
            .writes
            .iter()
            .any(|x| x.guard.is_none() && x.ev != w.ev && enc.mhb_before(w.ev, x.ev) && enc.mhb_before(x.ev, r.ev));
        if overwritten {
            continue;
        }
        let mut from = vec![Formula::Before(w.ev, r.ev), Formula::Same(w.ev, latest)];
        from.extend(w.guard.map(Formula::Atom));
        let wbv = w.bv(values, bits);
        from.push(Formula::Atom(values.atom(rbv.eq(&wbv))));
        alts.push(Formula::and(from));
    }
    // The initial value: no write before r.
    let must_follow = loc.writes.iter().any(|w| w.guard.is_none() && enc.mhb_before(w.ev, r.ev));
    if !must_follow {
        let mut none = Vec::new();
        for x in &before {
            let mut later = vec![Formula::Before(r.ev, x.ev)];
            later.extend(not_there(values, x));
            none.push(Formula::or(later));
        }
        if let Some(v) = initial_bv(values, init, bits) {
            none.push(Formula::Atom(values.atom(rbv.eq(&v))));
        }
        alts.push(Formula::and(none));
    }
    if let Some(o) = own {
        // Reading memory needs the thread's own store visible; before that,
        // the read returns it (store-to-load forwarding).
        for a in alts.iter_mut() {
            *a = Formula::and(vec![std::mem::replace(a, Formula::True), Formula::Before(o.ev, r.ev)]);
        }
        let obv = o.bv(values, bits);
        alts.push(Formula::and(vec![Formula::Before(r.ev, o.ev), Formula::Atom(values.atom(rbv.eq(&obv)))]));
    }
    parts.push(Formula::or(alts));
    Formula::and(parts)
}

/// What a location holds before its first write, as a bit vector of
/// `bits` (None: unknown).
pub(crate) fn initial_bv(values: &mut Values<'_>, init: Initial, bits: u32) -> Option<z3::ast::BV> {
    match init {
        Initial::Known(v) => Some(constant(bits, v)),
        Initial::Expr(e) => Some(values.bv_bits(e, bits)),
        Initial::Unknown => None,
    }
}

/// Under TSO/PSO, the store a plain read forwards from while it is not yet
/// visible: its thread's newest store to the location before it in program
/// order, when that store went through the store buffer. (The core's
/// `Encoder::own_store` answers the same for MCR traces; here the location's
/// writes include the thread-handle writes of forks, which the core's trace
/// of a symbolic model does not hold as writes.)
fn own_store<'l>(sym: &SymTrace, model: &Model, loc: &'l Location, r: &Access) -> Option<&'l Access> {
    if !sym.memory_model.buffers_stores() || r.guard.is_some() {
        return None;
    }
    let (t, k) = model.origin[r.ev];
    if !matches!(sym.threads[t].events[k].op, SymOp::Read { .. }) {
        return None;
    }
    let newest = loc
        .writes
        .iter()
        .filter(|w| w.guard.is_none() && model.origin[w.ev].0 == t && model.origin[w.ev].1 < k)
        .max_by_key(|w| model.origin[w.ev].1)?;
    let (wt, wk) = model.origin[newest.ev];
    crate::model::buffered(&sym.threads[wt].events[wk]).then_some(newest)
}

/// Writes to one location are placed apart (the latest write before a read
/// is then one write).
fn writes_apart(enc: &Encoder<'_>, loc: &Location) -> Vec<Formula> {
    let mut v = Vec::new();
    for (i, a) in loc.writes.iter().enumerate() {
        for b in &loc.writes[i + 1..] {
            if a.ev != b.ev && !enc.mhb_before(a.ev, b.ev) && !enc.mhb_before(b.ev, a.ev) {
                v.push(Formula::or(vec![Formula::Before(a.ev, b.ev), Formula::Before(b.ev, a.ev)]));
            }
        }
    }
    v
}

/// A value a location can hold, and the writes it was computed through
/// (each write's thread and event index).
type Derived = (u128, BTreeSet<(usize, usize)>);

/// A write through a computed address at one location it may land in
/// (address, size, the write): [`value_sets`]' `extra`.
type Placed = (u64, u32, Access);

/// What each concretely addressed location can hold ([`value_sets`]).
type ValueSets = HashMap<u64, Option<BTreeSet<Derived>>>;

/// Most derived values kept per location (a location with more is
/// "unknown").
const MAX_DERIVED: usize = 4 * MAX_VALUES;

/// [`value_sets`] with the writes through computed addresses at each
/// location they may land in, to a fixpoint: a write through a link
/// (`q.tail->next = n`) gives the locations it may land in values that
/// reads through links (`p = p->next`) follow. (At most [`MAX_LINKS`]
/// rounds, links being followed that deep.)
fn through_links(
    sym: &SymTrace,
    origin: &[(usize, usize)],
    locs: &BTreeMap<u64, Location>,
    symbolic: &[(Access, ExprId, u32, bool)],
    linked: bool,
) -> ValueSets {
    let mut sets = value_sets(sym, origin, locs, &[]);
    for _ in 0..MAX_LINKS {
        let extra: Vec<Placed> = symbolic
            .iter()
            .filter(|(_, _, _, write)| *write)
            .flat_map(|(acc, p, size, _)| {
                let cands = candidates(sym, &sym.exprs, (locs, &sets, linked), *p, *size);
                cands.into_iter().map(move |l| (l, *size, *acc))
            })
            .collect();
        if extra.is_empty() {
            break;
        }
        let next = value_sets(sym, origin, locs, &extra);
        if next == sets {
            break;
        }
        sets = next;
    }
    sets
}

/// The values each concretely addressed location can hold (None: unknown or
/// too many), a least fixpoint over the writes' value expressions.
///
/// Each value keeps the writes it was computed through, and a read returns
/// none computed through a write its own thread makes at or after it (that
/// write would need the read's value first). Without that, a reservation
/// counter (`at = pos; …; pos = at + len;` in two threads) grows without
/// bound, each thread's write fed the other's fed its own; with it, the
/// offsets are the sums of each subset of the lengths, and the writes at
/// `log + at` have their few candidate places.
/// `extra`: writes through computed addresses, at a location each may
/// land in (one that only overlaps another access's location makes that
/// location unknown).
fn value_sets(
    sym: &SymTrace,
    origin: &[(usize, usize)],
    locs: &BTreeMap<u64, Location>,
    extra: &[Placed],
) -> ValueSets {
    let mut sets: ValueSets = HashMap::default();
    for (addr, loc) in locs {
        let init = match sym.initial_value(*addr, loc.size) {
            Initial::Known(v) => Some(BTreeSet::from([(v, BTreeSet::new())])),
            _ => None,
        };
        sets.insert(*addr, init);
    }
    loop {
        let mut changed = false;
        for (addr, loc) in locs {
            if sets.get(addr).is_some_and(|s| s.is_none()) {
                continue;
            }
            let mut acc: BTreeSet<Derived> = sets[addr].clone().unwrap_or_default();
            let end = addr + loc.size as u64;
            let overlapping = extra.iter().filter(|(a, size, _)| *a < end && addr < &(a + *size as u64));
            let mut unknown = false;
            let mut here = Vec::new();
            for (a, size, w) in overlapping {
                match (*a, *size) == (*addr, loc.size) {
                    true => here.push(w),
                    false => unknown = true,
                }
            }
            for w in loc.writes.iter().chain(here) {
                if w.part.is_some() {
                    unknown = true;
                    continue;
                }
                match origin.get(w.ev).and_then(|tk| derive(sym, (locs, extra), &sets, w.value, *tk)) {
                    Some(s) => acc.extend(s),
                    None => unknown = true,
                }
                if acc.len() > MAX_DERIVED {
                    unknown = true;
                    break;
                }
            }
            let values = acc.iter().map(|(v, _)| *v).collect::<BTreeSet<u128>>().len();
            let new = (!unknown && values <= MAX_VALUES).then_some(acc);
            if sets.get(addr) != Some(&new) {
                sets.insert(*addr, new);
                changed = true;
            }
        }
        if !changed {
            return sets;
        }
    }
}

/// The values the write at `w` (thread, event index) of `value` can
/// store, each with the writes it is computed through (`w` among them):
/// one per combination of what its reads can return.
/// (A read through a computed address, such as a free list's `b->next`
/// stored back into its head: [`linked_derived`].)
fn derive(
    sym: &SymTrace,
    (locs, extra): (&BTreeMap<u64, Location>, &[Placed]),
    sets: &ValueSets,
    value: ExprId,
    w: (usize, usize),
) -> Option<Vec<Derived>> {
    let ids: Vec<u32> = sym.exprs.read_ids(value).into_iter().collect();
    let choices: Vec<Vec<Derived>> = ids
        .iter()
        .map(|id| read_derived(sym, locs, sets, *id).or_else(|| linked_derived(sym, (locs, extra), sets, *id)))
        .collect::<Option<_>>()?;
    // (A read that can return nothing, such as one only through null: the
    // write stores nothing either.)
    if choices.iter().any(Vec::is_empty) {
        return Some(Vec::new());
    }
    // (Too many combinations: unknown.)
    choices.iter().try_fold(1usize, |n, c| n.checked_mul(c.len()).filter(|n| *n <= MAX_DERIVED * 4))?;
    let mut out = Vec::new();
    let mut pick = vec![0usize; ids.len()];
    loop {
        let mut through = BTreeSet::from([w]);
        for (c, i) in choices.iter().zip(&pick) {
            through.extend(c[*i].1.iter().copied());
        }
        let one = |r: u32| ids.iter().position(|x| *x == r).map(|j| BTreeSet::from([choices[j][pick[j]].0]));
        for v in eval_set(&sym.exprs, value, &one)? {
            out.push((v, through.clone()));
        }
        // The next combination (the last read's choice varies fastest).
        let Some(j) = (0..ids.len()).rev().find(|j| pick[*j] + 1 < choices[*j].len()) else { return Some(out) };
        pick[j] += 1;
        pick[j + 1..].iter_mut().for_each(|p| *p = 0);
    }
}

/// What read `id` through a computed address (`b->next` with `b` read
/// from a list's head) can return: what each location the address can
/// take holds ([`value_sets`] so far; a location no concrete access uses,
/// its initial value, unless a write through a computed address may land
/// there). Each value is computed through no write (an over-approximation:
/// the read's own thread's later writes are not left out).
fn linked_derived(
    sym: &SymTrace,
    (locs, extra): (&BTreeMap<u64, Location>, &[Placed]),
    sets: &ValueSets,
    id: u32,
) -> Option<Vec<Derived>> {
    let (t, k) = *sym.reads.get(id as usize)?;
    let SymOp::Read { at: Some(q), size, .. } = sym.threads[t].events[k].op else { return None };
    let held = |a: u64, size: u32| location_values(sym, (locs, extra), sets, a, size);
    let values = held_at(&sym.exprs, (q, size), &|r| read_set(sym, locs, sets, r), &held)?;
    Some(values.into_iter().map(|v| (v, BTreeSet::new())).collect())
}

/// What read `id` can return, with the writes each value is computed
/// through: its location's values ([`value_sets`]) but those computed
/// through a write its thread makes at or after it; when it reads one
/// location whole (not cut by [`split`]).
fn read_derived(sym: &SymTrace, locs: &BTreeMap<u64, Location>, sets: &ValueSets, id: u32) -> Option<Vec<Derived>> {
    let a = sym.read_addr(id)?;
    let (t, k) = *sym.reads.get(id as usize)?;
    let size = match sym.threads[t].events[k].op {
        SymOp::Read { size, .. } | SymOp::Rmw { size, .. } => size,
        _ => return None,
    };
    if locs.get(&a).map(|l| l.size) != Some(size) {
        return None;
    }
    let set = sets.get(&a)?.as_ref()?;
    Some(set.iter().filter(|(_, through)| !through.iter().any(|(u, j)| *u == t && *j >= k)).cloned().collect())
}

/// The values read `id` can return ([`read_derived`]).
fn read_set(sym: &SymTrace, locs: &BTreeMap<u64, Location>, sets: &ValueSets, id: u32) -> Option<BTreeSet<u128>> {
    read_derived(sym, locs, sets, id).map(|d| d.into_iter().map(|(v, _)| v).collect())
}

/// The values a location can hold, whoever reads them.
fn held_values(sets: &ValueSets, a: u64) -> Option<BTreeSet<u128>> {
    sets.get(&a)?.as_ref().map(|d| d.iter().map(|(v, _)| *v).collect())
}

/// The addresses the pointer `p` may take, when each read it is
/// computed from returns its location's initial value or a constant
/// written there (`raw`: the concretely addressed accesses; a read through
/// a computed address, those of each location it can take, a few links
/// deep); none when that is not known (the accesses are then not cut for
/// it).
fn pointed_addresses(sym: &SymTrace, raw: &[(u64, u32, Access, bool)], p: ExprId) -> Vec<u64> {
    let values = eval_set(&sym.exprs, p, &|id| raw_read_set(sym, raw, id, 0)).unwrap_or_default();
    values.into_iter().map(|v| v as u64).filter(|a| causa_ir::addr_alloc(*a) != 0).collect()
}

/// What read `id` can return by `raw`'s constant writes ([`pointed_objects`]).
fn raw_read_set(sym: &SymTrace, raw: &[(u64, u32, Access, bool)], id: u32, depth: u32) -> Option<BTreeSet<u128>> {
    let (t, k) = *sym.reads.get(id as usize)?;
    let SymOp::Read { addr, size, at, .. } = sym.threads[t].events[k].op else { return None };
    let held = |a: u64, size: u32| {
        let mut set = BTreeSet::new();
        if let Initial::Known(v) = sym.initial_value(a, size) {
            set.insert(v);
        }
        for (_, _, acc, _) in raw.iter().filter(|(b, s, _, w)| *w && *b == a && *s == size) {
            set.insert(sym.exprs.value(acc.value)?);
        }
        Some(set)
    };
    match at {
        None => held(addr, size).filter(|set| set.len() <= MAX_VALUES),
        Some(_) if depth >= MAX_LINKS => None,
        Some(q) => held_at(&sym.exprs, (q, size), &|r| raw_read_set(sym, raw, r, depth + 1), &held),
    }
}

/// [`read_set`], and for a read through a computed address (a field of
/// a struct another pointer points to, `c->name`) the sets of the
/// locations the address can take (a location no concrete access uses:
/// its initial value), [`MAX_LINKS`] links deep at most.
fn linked_read_set(
    sym: &SymTrace,
    locs: &BTreeMap<u64, Location>,
    sets: &ValueSets,
    id: u32,
    depth: u32,
) -> Option<BTreeSet<u128>> {
    if let Some(s) = read_set(sym, locs, sets, id) {
        return Some(s);
    }
    let (t, k) = *sym.reads.get(id as usize)?;
    let SymOp::Read { at: Some(q), size, .. } = sym.threads[t].events[k].op else { return None };
    if depth >= MAX_LINKS {
        return None;
    }
    let held = |a: u64, size: u32| location_values(sym, (locs, &[]), sets, a, size);
    held_at(&sym.exprs, (q, size), &|r| linked_read_set(sym, locs, sets, r, depth + 1), &held)
}

/// What `size` bytes at `a` can hold: a concretely addressed location's
/// value set; a location no concrete access uses, its initial value,
/// unless one of the writes through computed addresses in `extra` may
/// land there (None: not known).
fn location_values(
    sym: &SymTrace,
    (locs, extra): (&BTreeMap<u64, Location>, &[Placed]),
    sets: &ValueSets,
    a: u64,
    size: u32,
) -> Option<BTreeSet<u128>> {
    match locs.get(&a) {
        Some(l) if l.size == size => held_values(sets, a),
        Some(_) => None,
        None if extra.iter().any(|(b, s, _)| *b < a + size as u64 && a < b + *s as u64) => None,
        None => match sym.initial_value(a, size) {
            Initial::Known(v) => Some(BTreeSet::from([v])),
            _ => None,
        },
    }
}

/// At most this many pointers followed to a value read through computed
/// addresses (`e->next->key`): [`held_at`]'s callers.
pub(crate) const MAX_LINKS: u32 = 4;

/// What `size` bytes at the computed address `q` can hold: the union of
/// `held` over the addresses `q` can take when each read takes a value of
/// `reads` (null and other invalid addresses left out; None when any
/// location is unknown or the values are too many).
pub(crate) fn held_at(
    x: &Exprs,
    (q, size): (ExprId, u32),
    reads: &dyn Fn(u32) -> Option<BTreeSet<u128>>,
    held: &dyn Fn(u64, u32) -> Option<BTreeSet<u128>>,
) -> Option<BTreeSet<u128>> {
    let mut out = BTreeSet::new();
    for a in eval_set(x, q, reads)?.into_iter().map(|a| a as u64).filter(|a| causa_ir::addr_alloc(*a) != 0) {
        out.extend(held(a, size)?);
        if out.len() > MAX_VALUES {
            return None;
        }
    }
    Some(out)
}

/// The values `e` can take when each read takes a value of its set.
pub(crate) fn eval_set(x: &Exprs, e: ExprId, reads: &dyn Fn(u32) -> Option<BTreeSet<u128>>) -> Option<BTreeSet<u128>> {
    eval_set_within(x, e, reads, MAX_VALUES)
}

/// [`eval_set`] with sets of up to `limit` values (None beyond).
pub(crate) fn eval_set_within(
    x: &Exprs,
    e: ExprId,
    reads: &dyn Fn(u32) -> Option<BTreeSet<u128>>,
    limit: usize,
) -> Option<BTreeSet<u128>> {
    let pairs = |a: &BTreeSet<u128>, b: &BTreeSet<u128>, f: &dyn Fn(u128, u128) -> Option<u128>| {
        if a.len() * b.len() > limit * limit {
            return None;
        }
        let out: BTreeSet<u128> = a.iter().flat_map(|p| b.iter().filter_map(move |q| f(*p, *q))).collect();
        (out.len() <= limit).then_some(out)
    };
    match x.get(e) {
        Expr::Const { v, .. } => Some(BTreeSet::from([*v])),
        Expr::Read { id, bits } => {
            reads(*id).map(|s| s.into_iter().map(|v| v & causa_ir::value::mask(*bits)).collect())
        }
        Expr::Bin { op, bits, a, b } => {
            let (sa, sb) = (eval_set_within(x, *a, reads, limit)?, eval_set_within(x, *b, reads, limit)?);
            pairs(&sa, &sb, &|p, q| causa_ir::ops::int_binop(*op, *bits, p, q).ok())
        }
        Expr::ICmp { pred, bits, a, b } => {
            let (sa, sb) = (eval_set_within(x, *a, reads, limit)?, eval_set_within(x, *b, reads, limit)?);
            pairs(&sa, &sb, &|p, q| Some(causa_ir::ops::icmp(*pred, *bits, p, q) as u128))
        }
        Expr::Cast { op, from, to, a } => {
            let s = eval_set_within(x, *a, reads, limit)?;
            let ty = |b: u32| causa_ir::Ty::Int(b);
            Some(
                s.into_iter()
                    .map(|v| causa_ir::ops::cast(*op, &ty(*from), &ty(*to), &causa_ir::Value::Int(v)).as_int())
                    .collect(),
            )
        }
        Expr::Select { a, b, .. } => {
            let mut s = eval_set_within(x, *a, reads, limit)?;
            s.extend(eval_set_within(x, *b, reads, limit)?);
            (s.len() <= limit).then_some(s)
        }
        Expr::Fp { op, from, to, a, b } => {
            let (sa, sb) = (eval_set_within(x, *a, reads, limit)?, eval_set_within(x, *b, reads, limit)?);
            pairs(&sa, &sb, &|p, q| Some(crate::expr::fp_fold(*op, *from, *to, p, q)))
        }
    }
}

/// The locations an access of `size` bytes at `p` may touch. Within an
/// object, the slots that would overlap data accessed with another width
/// (an array index next to a pointer field) are left out: the access is
/// required to hit one of the candidates, so this only rules schedules out.
fn candidates(
    sym: &SymTrace,
    x: &Exprs,
    (locs, sets, linked): (&BTreeMap<u64, Location>, &ValueSets, bool),
    p: ExprId,
    size: u32,
) -> Vec<u64> {
    // (`linked`: a pointer read through another, `e->key[0]` with `e` a
    // list's link: the locations the links can reach.)
    let read_values = |id: u32| match linked {
        true => linked_read_set(sym, locs, sets, id, 0),
        false => read_set(sym, locs, sets, id),
    };
    if let Some(s) = eval_set(x, p, &read_values) {
        // Null and other invalid addresses are failures, not locations.
        return s.into_iter().filter(|a| causa_ir::addr_alloc(*a as u64) != 0).map(|a| a as u64).collect();
    }
    // Without a better bound: every location of that size.
    let any_of_size = || locs.iter().filter(|(_, l)| l.size == size).map(|(a, _)| *a).collect();
    let clash = |a: u64| {
        let end = a + size as u64;
        locs.range(..end).next_back().is_some_and(|(b, l)| *b + l.size as u64 > a && (*b, l.size) != (a, size))
    };
    // Every slot of `size` bytes of the object at `base` (`len` bytes) in
    // line with the pointer `at` into it.
    let slots = |(base, len): (u64, u64), at: u64| {
        let first = base + (at - base) % size as u64;
        (0..).map(move |k| first + k * size as u64).take_while(move |a| a + size as u64 <= base + len)
    };
    if let Some(c) = x.constant_term(p) {
        let id = causa_ir::addr_alloc(c as u64);
        if let Some(bounds) = object_bounds(sym, id) {
            let aligned: Vec<u64> = slots(bounds, c as u64).filter(|a| !clash(*a)).collect();
            if !aligned.is_empty() || bounds.1 > UNALIGNED_LIMIT {
                return aligned;
            }
            // None in line with the object's start: a string's bytes
            // copied to an offset computed from shared data
            // (`strcpy(line + strlen(line), word)`), which may begin at any
            // byte. Every start whose extent no location straddles.
            let straddled = |x: u64| locs.range(..x).next_back().is_some_and(|(b, l)| *b + l.size as u64 > x);
            let last = (bounds.0 + bounds.1).saturating_sub(size as u64);
            return (bounds.0..=last).filter(|a| !straddled(*a) && !straddled(a + size as u64)).collect();
        }
    }
    // A pointer read from shared memory plus an offset computed from other
    // shared data (`r->ids[r->users]` with `r` read from `reg`): the
    // pointers' objects, every slot of each.
    if let Some(pointers) = pointer_term(x, p, &read_values) {
        let mut out = BTreeSet::new();
        for at in pointers {
            let id = causa_ir::addr_alloc(at as u64);
            if id == 0 {
                continue;
            }
            match sym.objects.iter().find(|o| causa_ir::addr_alloc(o.base) == id) {
                Some(o) => out.extend(slots((o.base, o.size), at as u64).filter(|a| !clash(*a))),
                None => return any_of_size(),
            }
        }
        return out.into_iter().collect();
    }
    any_of_size()
}

/// The largest object whose every byte an access through a computed
/// address may begin at, when none of its slots in line with the
/// object's start fits ([`candidates`]).
const UNALIGNED_LIMIT: u64 = 256;

/// The values of the term of the sum `p` that is a pointer (an address
/// in a known object, or null), when one term's values are all such.
fn pointer_term(x: &Exprs, p: ExprId, reads: &dyn Fn(u32) -> Option<BTreeSet<u128>>) -> Option<BTreeSet<u128>> {
    match x.get(p) {
        Expr::Bin { op: causa_ir::BinOp::Add, a, b, .. } => {
            pointer_term(x, *a, reads).or_else(|| pointer_term(x, *b, reads))
        }
        Expr::Read { .. } => {
            let s = eval_set(x, p, reads)?;
            let pointer = |v: &u128| *v == 0 || causa_ir::addr_alloc(*v as u64) != 0;
            (s.iter().any(|v| *v != 0) && s.iter().all(pointer)).then_some(s)
        }
        _ => None,
    }
}

/// Base address and size of object `id`, when known.
fn object_bounds(sym: &SymTrace, id: u32) -> Option<(u64, u64)> {
    let base = causa_ir::make_addr(id, 0);
    if let Some((_, n)) = sym.zeroed_objects.iter().find(|(o, _)| *o == id) {
        return Some((base, *n));
    }
    sym.initial.iter().find(|(b, _)| *b == base).map(|(b, bytes)| (*b, bytes.len() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_accesses_of_other_widths_are_cut_at_every_boundary() {
        let x = |ev: Ev| Access::new(ev, ev as ExprId);
        // A bulk word of 8 bytes at 0x10, a 4-byte write at 0x14, a 4-byte
        // read at 0x10; apart, an 8-byte read at 0x20 stays whole.
        let raw = vec![(0x10, 8, x(0), true), (0x14, 4, x(1), true), (0x10, 4, x(2), false), (0x20, 8, x(3), false)];
        type Cut = (u64, u32, Ev, Option<(u32, u32)>, bool);
        let got: Vec<Cut> =
            split(raw, &|_, _| Vec::new()).into_iter().map(|(a, s, acc, w)| (a, s, acc.ev, acc.part, w)).collect();
        assert_eq!(
            got,
            vec![
                // The 8-byte word in two halves, each a part of its value;
                // the 4-byte accesses are one piece each, whole; each
                // location's accesses in trace order.
                (0x10, 4, 0, Some((0, 8)), true),
                (0x10, 4, 2, None, false),
                (0x14, 4, 0, Some((4, 8)), true),
                (0x14, 4, 1, None, true),
                (0x20, 8, 3, None, false),
            ]
        );
    }

    #[test]
    fn an_access_through_a_symbolic_address_is_cut_into_the_locations_it_covers() {
        let loc = |size| Location { size, ..Location::default() };
        let locs: BTreeMap<u64, Location> = BTreeMap::from([(0x10, loc(4)), (0x18, loc(4)), (0x22, loc(4))]);
        let none = BTreeSet::new();
        // Nothing there: whole. Exactly one location: whole.
        assert_eq!(tiles(&locs, 0x40, 8, &none).unwrap(), vec![(0x40, 8, None)]);
        assert_eq!(tiles(&locs, 0x18, 4, &none).unwrap(), vec![(0x18, 4, None)]);
        // Two 4-byte fields under an 8-byte copy; a gap becomes a location.
        assert_eq!(tiles(&locs, 0x10, 8, &none).unwrap(), vec![(0x10, 4, Some((0, 8))), (0x14, 4, Some((4, 8)))]);
        assert_eq!(tiles(&locs, 0x14, 8, &none).unwrap(), vec![(0x14, 4, Some((0, 8))), (0x18, 4, Some((4, 8)))]);
        // A location sticking out of the range is not split.
        assert!(tiles(&locs, 0x20, 4, &none).is_err());
        // Where other accesses through computed addresses begin or end,
        // the new locations are cut (a 16-byte slot copied out whole, its
        // 4-byte and 6-byte fields written apart); a cut at the range's
        // ends alone leaves it whole.
        let cuts = BTreeSet::from([0x40, 0x44, 0x4a, 0x50]);
        assert_eq!(
            tiles(&locs, 0x40, 16, &cuts).unwrap(),
            vec![(0x40, 4, Some((0, 16))), (0x44, 6, Some((4, 16))), (0x4a, 6, Some((10, 16)))]
        );
        assert_eq!(tiles(&locs, 0x44, 6, &cuts).unwrap(), vec![(0x44, 6, None)]);
        // Around a location there already: the gaps cut too.
        let cuts = BTreeSet::from([0x0c, 0x1c]);
        assert_eq!(
            tiles(&locs, 0x08, 24, &cuts).unwrap(),
            vec![
                (0x08, 4, Some((0, 24))),
                (0x0c, 4, Some((4, 24))),
                (0x10, 4, Some((8, 24))),
                (0x14, 4, Some((12, 24))),
                (0x18, 4, Some((16, 24))),
                (0x1c, 4, Some((20, 24))),
            ]
        );
    }
}
