//! The values shared locations can hold, for strings read through a
//! pointer computed from shared data (`pointed.rs`): each location's
//! initial value, the constants written to it, and the values of the
//! other expressions written to it, each evaluated over the values its
//! reads can return ([`crate::rw::eval_set`]). The last are what a linked
//! list needs: `e->next = b->head` copies a pointer read from shared
//! memory, so `e->next` holds whatever `b->head` held. A value computed
//! from the location's own (a ring's index, `tail = (tail + 1) % CAP`)
//! has no such bound, the copies followed are cut off after
//! [`MAX_COPIES`] steps; such a read is then valued by a least fixpoint
//! over every location written, as the model's ([`Valuer::fixed`]).
//!
//! While a thread runs, the writes are those of the threads followed so
//! far and what the pass before saw written by the end, evaluated then
//! ([`Pass::values`](super::Pass)). The same bound as the model's
//! ([`crate::rw::value_sets`]), which computes these sets for every
//! location as a least fixpoint and resolves the read among them: a value
//! found here that the model does not allow is only a target the path
//! condition rules out.

use super::{State, Thread};
use crate::expr::ExprId;
use crate::trace::{Initial, SymEvent, SymOp};
use causa_core::collections::HashMap;
use std::collections::BTreeSet;

/// At most this many writes of values computed from shared reads
/// followed, one inside another, to find what a location holds.
const MAX_COPIES: u32 = 8;

/// What was written to one shared location.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stored {
    /// The constants.
    consts: BTreeSet<u128>,
    /// The other values.
    exprs: Vec<ExprId>,
    /// A bulk write over another word changed part of it.
    unknown: bool,
    /// The width of what was written, in bits (None: several widths).
    bits: Option<u32>,
}

/// What each shared location was written, in one pass.
pub(crate) type StoredMap = HashMap<u64, Stored>;

/// The values each location written in a pass can hold (None: unknown),
/// its initial value left out.
pub(crate) type Values = HashMap<u64, Option<BTreeSet<u128>>>;

impl Stored {
    pub(super) fn note(&mut self, constant: Option<u128>, value: ExprId, bits: u32) {
        let first = self.consts.is_empty() && self.exprs.is_empty();
        if first || self.bits != Some(bits) {
            self.bits = first.then_some(bits);
        }
        match constant {
            Some(v) => {
                self.consts.insert(v);
            }
            None if !self.exprs.contains(&value) => self.exprs.push(value),
            None => {}
        }
    }

    pub(super) fn spoil(&mut self) {
        self.unknown = true;
    }
}

/// Reads and locations valued over a state (`own`: the running thread's
/// index and events, not in the trace yet).
struct Valuer<'a, 'p> {
    st: &'a State<'p>,
    own: (usize, &'a [SymEvent]),
}

impl Valuer<'_, '_> {
    /// What read `id` can return: through a computed address (a list's
    /// link followed), the values of each location the address can take
    /// ([`crate::rw::held_at`]), [`crate::rw::MAX_LINKS`] links deep.
    fn read(&self, id: u32, (links, copies): (u32, u32)) -> Option<BTreeSet<u128>> {
        let (t, k) = *self.st.trace.reads.get(id as usize)?;
        let events = if t == self.own.0 { self.own.1 } else { &self.st.trace.threads.get(t)?.events };
        let SymOp::Read { addr, size, at, .. } = events.get(k)?.op else { return None };
        match at {
            None => self.location(addr, size, copies),
            Some(_) if links >= crate::rw::MAX_LINKS => None,
            Some(q) => crate::rw::held_at(
                &self.st.trace.exprs,
                (q, size),
                &|r| self.read(r, (links + 1, copies)),
                &|a, size| self.location(a, size, copies),
            ),
        }
    }

    /// What `addr` can hold: its initial value, and what was written there.
    fn location(&self, addr: u64, size: u32, copies: u32) -> Option<BTreeSet<u128>> {
        let mut set = self.written(addr, copies)?;
        set.extend(self.unwritten(addr, size)?);
        Some(set)
    }

    /// What every location written can hold, and read `id` among them
    /// (a least fixpoint, as the model's `rw::value_sets`, with what the
    /// pass before saw written by the end): the values of a location whose
    /// writes are computed from its own reads (a ring's index), which
    /// [`Valuer::read`] cuts off.
    fn fixed(&self) -> Values {
        let st = self.st;
        let mut sets: Values = HashMap::default();
        for (a, s) in &st.stored {
            let start = || {
                if s.unknown {
                    return None;
                }
                let mut set = s.consts.clone();
                set.extend(self.unwritten(*a, s.bits? / 8)?);
                Some(set)
            };
            sets.insert(*a, start());
        }
        let mut addrs: Vec<u64> = st.stored.keys().copied().collect();
        addrs.sort_unstable();
        loop {
            let mut changed = false;
            for a in &addrs {
                let Some(Some(now)) = sets.get(a).cloned() else { continue };
                let mut next = now.clone();
                let mut unknown = false;
                for e in &st.stored[a].exprs {
                    match crate::rw::eval_set(&st.trace.exprs, *e, &|r| self.fixed_read(r, &sets, 0)) {
                        Some(v) => next.extend(v),
                        None => unknown = true,
                    }
                }
                let next = (!unknown && next.len() <= crate::rw::MAX_VALUES).then_some(next);
                if next.as_ref() != Some(&now) {
                    sets.insert(*a, next);
                    changed = true;
                }
            }
            if !changed {
                return sets;
            }
        }
    }

    /// What read `id` can return by the fixpoint's `sets` ([`Valuer::fixed`]).
    fn fixed_read(&self, id: u32, sets: &Values, links: u32) -> Option<BTreeSet<u128>> {
        let (t, k) = *self.st.trace.reads.get(id as usize)?;
        let events = if t == self.own.0 { self.own.1 } else { &self.st.trace.threads.get(t)?.events };
        let SymOp::Read { addr, size, at, .. } = events.get(k)?.op else { return None };
        let held = |a: u64, size: u32| match sets.get(&a) {
            Some(set) if self.st.stored[&a].bits == Some(size * 8) => set.clone(),
            Some(_) => None,
            None => self.unwritten(a, size),
        };
        match at {
            None => held(addr, size),
            Some(_) if links >= crate::rw::MAX_LINKS => None,
            Some(q) => {
                crate::rw::held_at(&self.st.trace.exprs, (q, size), &|r| self.fixed_read(r, sets, links + 1), &held)
            }
        }
    }

    /// What `addr` holds but for this pass's writes: its initial value and
    /// what the pass before saw written.
    fn unwritten(&self, addr: u64, size: u32) -> Option<BTreeSet<u128>> {
        let mut set = BTreeSet::new();
        if let Some(prior) = self.st.prior_values.get(&addr) {
            set.extend(prior.as_ref()?);
        }
        set.insert(match self.st.trace.initial_value(addr, size) {
            Initial::Known(v) => v,
            Initial::Expr(e) => self.st.trace.exprs.value(e)?,
            Initial::Unknown => 0,
        });
        Some(set)
    }

    /// The values written to `addr` in this pass.
    fn written(&self, addr: u64, copies: u32) -> Option<BTreeSet<u128>> {
        let Some(s) = self.st.stored.get(&addr) else { return Some(BTreeSet::new()) };
        if s.unknown || (!s.exprs.is_empty() && copies >= MAX_COPIES) {
            return None;
        }
        let mut set = s.consts.clone();
        for e in &s.exprs {
            set.extend(crate::rw::eval_set(&self.st.trace.exprs, *e, &|r| self.read(r, (0, copies + 1)))?);
        }
        Some(set)
    }
}

impl Thread<'_, '_> {
    /// What read `id` can return ([`Valuer::read`]).
    pub(super) fn read_values(&self, id: u32) -> Option<BTreeSet<u128>> {
        let v = Valuer { st: self.st, own: (self.index, &self.out.events) };
        v.read(id, (0, 0)).or_else(|| v.fixed_read(id, &v.fixed(), 0))
    }
}

/// What each location written in the pass can hold, for the next pass.
pub(super) fn values(st: &State<'_>) -> Values {
    let v = Valuer { st, own: (usize::MAX, &[]) };
    let mut fixed: Option<Values> = None;
    st.stored
        .keys()
        .map(|a| {
            let set = v.written(*a, 0).or_else(|| fixed.get_or_insert_with(|| v.fixed()).get(a).cloned().flatten());
            (*a, set)
        })
        .collect()
}
