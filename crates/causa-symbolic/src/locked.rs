//! Φ_rw of a location that every write reaches holding one mutex, by the
//! order of its critical sections rather than of its accesses.
//!
//! [`crate::rw`]'s rule for a read is quadratic in the location's writes
//! (each may be the latest before the read, and every other must then come
//! before it or after the read). A location written only in critical
//! sections of one mutex — a list's head pushed under its lock, a queue's
//! index, a locked total — has in any run a simple shape: its writing
//! sections follow one another, and the value a section finds on entry is
//! what the previous writing section left. So each writing section S picks
//! its predecessor T (or the initial value) with one Boolean, which implies
//! "T's release is before S's acquisition" (an order atom Φ_lock has
//! already) and "S's first read sees T's last write"; each section is the
//! predecessor of at most one other and at most one section starts from
//! the initial value (two pseudo-Boolean bounds per section).
//!
//! Why that is exact: the sections that happen, each with an increasing
//! edge from its predecessor, at most one without one and none chosen
//! twice, form one path through all of them in time order, so each
//! predecessor is the section just before; and the path itself keeps the
//! writing sections apart, so no other write of the location falls inside
//! one (the reads after a section's first read see its entry value or its
//! own latest write, plain equalities). Reads outside the writing sections
//! keep [`crate::rw`]'s rule.
//!
//! The 90-node list walk (bench/programs/list_walk.c at 30 pushes per
//! thread): the pushes' reads of `head` were half of σ's check
//! (docs/performance.md, seventy-sixth and seventy-seventh sessions).

use crate::rw::{initial_bv, Access, Location};
use crate::trace::Initial;
use crate::values::Values;
use causa_constraints::formula::Ev;
use causa_constraints::{Encoder, Formula, Op};
use std::collections::BTreeMap;

/// Fewer writing sections than this keep [`crate::rw`]'s rule (on small
/// programs it is as cheap, and the explanations stay as they were).
pub(crate) const SECTIONS_FROM: usize = 8;

/// A critical section: its acquisition and release (None: still held at
/// the end).
type Section = (Ev, Option<Ev>);

/// Per writing section (by acquisition): its release and its accesses in
/// program order (`true`: a write).
type Sections = BTreeMap<Ev, (Option<Ev>, Vec<(Access, bool)>)>;

/// The writing sections of a location and which accesses are inside them.
pub(crate) struct Chain {
    sections: Sections,
    /// The last of the writes made outside the sections, each before every
    /// one of them (`main`'s `head = NULL` before it starts the threads):
    /// the value the first section finds, in place of the initial one.
    before: Option<Access>,
    /// The reads the chain values (the others keep [`crate::rw`]'s rule).
    pub(crate) covers: Vec<Ev>,
}

impl Chain {
    /// How many writing sections it orders.
    pub(crate) fn len(&self) -> usize {
        self.sections.len()
    }
}

/// The chain of `loc`, when every write to it is a plain write (a concrete
/// address, the whole location, not an atomic update) made inside an
/// exclusive critical section of one mutex, in at least
/// [`SECTIONS_FROM`] sections, or before every such section (in one
/// thread's program order, each must-happen-before every section); under
/// sequential consistency only (a buffered store is not visible at the
/// release).
pub(crate) fn chain(enc: &Encoder<'_>, origin: &[(usize, usize)], loc: &Location, sc: bool) -> Option<Chain> {
    if !sc || loc.writes.len() < SECTIONS_FROM {
        return None;
    }
    let plain = |a: &Access| a.guard.is_none() && a.part.is_none();
    if !loc.writes.iter().all(plain) || loc.writes.iter().any(|w| loc.reads.iter().any(|r| r.ev == w.ev)) {
        return None;
    }
    let trace = enc.trace;
    let thread = |e: Ev| trace.events[e].thread;
    let inside = |e: Ev, (l, u): Section| {
        thread(l) == thread(e) && enc.mhb_before(l, e) && u.is_none_or(|u| enc.mhb_before(e, u))
    };
    // The mutex whose exclusive sections hold every write (the lowest
    // address when several do).
    let (mutex, sections, before) = enc.mutexes().into_iter().find_map(|m| {
        let pairs = enc.lock_pairs_of(m);
        if pairs.iter().any(|(l, _)| matches!(trace.events[*l].op, Op::Lock { shared: true, .. })) {
            return None;
        }
        let mut holding: BTreeMap<Ev, Option<Ev>> = BTreeMap::new();
        let mut outside = Vec::new();
        for w in &loc.writes {
            match pairs.iter().find(|s| inside(w.ev, **s)) {
                Some(s) => _ = holding.insert(s.0, s.1),
                None => outside.push(*w),
            }
        }
        if holding.len() < SECTIONS_FROM {
            return None;
        }
        // Writes outside the sections: each before every section, one
        // after the other.
        let early = |w: &Access| holding.keys().all(|l| enc.mhb_before(w.ev, *l));
        let ordered = outside.windows(2).all(|p| enc.mhb_before(p[0].ev, p[1].ev));
        (outside.iter().all(early) && ordered).then(|| (m, holding, outside.last().copied()))
    })?;
    let pairs = enc.lock_pairs_of(mutex);
    let mut by_section: Sections = sections.iter().map(|(l, u)| (*l, (*u, Vec::new()))).collect();
    let mut covers = Vec::new();
    let accesses =
        loc.writes.iter().map(|w| (w, true)).chain(loc.reads.iter().filter(|r| plain(r)).map(|r| (r, false)));
    for (a, write) in accesses {
        let Some(s) = pairs.iter().find(|s| sections.contains_key(&s.0) && inside(a.ev, **s)) else { continue };
        if !write {
            covers.push(a.ev);
        }
        if let Some((_, v)) = by_section.get_mut(&s.0) {
            v.push((*a, write));
        }
    }
    for (_, v) in by_section.values_mut() {
        v.sort_by_key(|(a, write)| (origin[a.ev].1, *write));
    }
    covers.sort_unstable();
    Some(Chain { sections: by_section, before, covers })
}

/// The chain's constraints (module docs); `after(e)`: `e` does not happen.
pub(crate) fn constraints(
    enc: &Encoder<'_>,
    values: &mut Values<'_>,
    (addr, loc, init): (u64, &Location, Initial),
    chain: &Chain,
) -> Vec<Formula> {
    let cut = enc.cut();
    let after = |e: Ev| Formula::Before(cut, e);
    let bits = loc.size * 8;
    let init = match chain.before {
        Some(w) => Some(w.bv(values, bits)),
        None => initial_bv(values, init, bits),
    };
    // Each section's last write: what the next section finds.
    let last: BTreeMap<Ev, Access> = chain
        .sections
        .iter()
        .filter_map(|(l, (_, v))| v.iter().rev().find(|(_, w)| *w).map(|(a, _)| (*l, *a)))
        .collect();
    let mut parts = Vec::new();
    // The Booleans "T is the predecessor of some section", per T, and
    // "this section starts from the initial value".
    let mut chosen: BTreeMap<Ev, Vec<z3::ast::Bool>> = BTreeMap::new();
    let mut initial = Vec::new();
    for (&l, (_, accesses)) in &chain.sections {
        // The section's first read, when it comes before its first write.
        let entry = accesses.first().filter(|(_, w)| !*w).map(|(a, _)| *a);
        let entry_bv = entry.map(|r| r.bv(values, bits));
        let mut alts = Vec::new();
        for (&t, (u, _)) in &chain.sections {
            let Some(u) = *u else { continue };
            if t == l || enc.mhb_before(l, u) {
                continue;
            }
            let b = z3::ast::Bool::new_const(format!("pred{addr:x}_{l}_{t}"));
            chosen.entry(t).or_default().push(b.clone());
            let mut and = vec![Formula::Atom(values.atom(b)), Formula::Before(u, l)];
            if let (Some(r), Some(rbv)) = (entry, &entry_bv) {
                let w = last[&t].bv(values, bits);
                and.push(Formula::or(vec![Formula::Atom(values.atom(rbv.eq(&w))), after(r.ev)]));
            }
            alts.push(Formula::and(and));
        }
        // First of all (no writing section must come before it).
        let first = !chain.sections.iter().any(|(t, (u, _))| *t != l && u.is_some_and(|u| enc.mhb_before(u, l)));
        if first {
            let b = z3::ast::Bool::new_const(format!("first{addr:x}_{l}"));
            initial.push(b.clone());
            let mut and = vec![Formula::Atom(values.atom(b))];
            if let (Some(r), Some(rbv), Some(v)) = (entry, &entry_bv, &init) {
                and.push(Formula::or(vec![Formula::Atom(values.atom(rbv.eq(v))), after(r.ev)]));
            }
            alts.push(Formula::and(and));
        }
        alts.push(after(l));
        parts.push(Formula::or(alts));
        // The other reads in the section: its entry value until its first
        // write, then its latest write.
        let mut seen = entry;
        for (a, write) in accesses.iter().skip(usize::from(entry.is_some())) {
            if *write {
                seen = Some(*a);
                continue;
            }
            let Some(src) = seen else { continue };
            let (rbv, sbv) = (a.bv(values, bits), src.bv(values, bits));
            parts.push(Formula::or(vec![Formula::Atom(values.atom(rbv.eq(&sbv))), after(a.ev)]));
        }
    }
    for bs in chosen.values().chain(std::iter::once(&initial)) {
        if bs.len() > 1 {
            parts.push(Formula::Atom(values.at_most_one(bs)));
        }
    }
    parts
}
