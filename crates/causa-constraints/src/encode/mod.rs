//! MCR's encoding (Huang, PLDI'15; dissertation §1.4): must-happen-before, lock
//! mutual exclusion, data validity and the new-state query, over a [`Trace`].

mod deadlock;
mod destroy;
mod flips;
mod relaxed;
mod relevant;
mod sources;
mod spin;
mod sync;

use crate::formula::{DefId, Defs, Ev, Formula};
use crate::trace::{Op, Trace};
use causa_core::collections::{HashMap, HashSet};
pub use sources::Source;
use spin::Spin;

/// A satisfiability question over the trace's order variables.
#[derive(Clone, Debug)]
pub struct Query {
    pub goal: Formula,
}

/// Builds formulas for one trace, memoising validity per event.
pub struct Encoder<'t> {
    pub trace: &'t Trace,
    pub defs: Defs,
    /// Previous event of the same thread in the trace.
    po_pred: Vec<Option<Ev>>,
    /// Under TSO/PSO, the events of the same thread that must happen
    /// immediately before each event (see `relaxed.rs`); `None` under SC, where
    /// that is `po_pred`.
    thread_preds: Option<Vec<Vec<Ev>>>,
    /// Under TSO/PSO, must-happen-before as bit sets (instead of `clocks`).
    reach: Vec<Vec<u64>>,
    /// Other must-happen-before predecessors: fork → begin, end → join.
    extra_pred: Vec<Option<Ev>>,
    /// Writes (and rmws) per location, in trace order.
    writes: HashMap<u64, Vec<Ev>>,
    /// Memo: Φ_validity(e) ("every read that must happen before e reads its value").
    valid: Vec<Option<DefId>>,
    /// Memo: e's own observation holds (its read value, its wake-up, …).
    observed: Vec<Option<DefId>>,
    /// Memo: Φ_value(r, v) per location `r` reads.
    values: HashMap<(Ev, u64, u128), DefId>,
    /// Free variables "wait-return e is woken by signal s" (CLAP §3.2); each
    /// signal wakes at most one waiter.
    wake_vars: HashMap<(Ev, Ev), usize>,
    /// The variables of each signal, in creation order.
    token_takers: HashMap<Ev, Vec<usize>>,
    /// Wait-returns already limited to one waking signal each.
    one_token: HashSet<Ev>,
    /// Free variables created so far (wake-ups, tokens, preemptions).
    vars: usize,
    /// The preemption variables, once built (see [`Encoder::preemption_vars`]).
    preemptions: Option<Vec<usize>>,
    /// Busy-wait pairs (earlier read, repeating read, the thread's next event).
    spin_pairs: Vec<Spin>,
    /// Must-happen-before vector clocks: `clocks[e][t]` = how many events of
    /// thread `t` must happen no later than `e`.
    clocks: Vec<Vec<u32>>,
    /// Position of each event among its thread's events.
    index_in_thread: Vec<u32>,
    /// Lock/unlock pairs per mutex: (acquire, release if any), per thread in order.
    lock_pairs: HashMap<u64, Vec<(Ev, Option<Ev>)>>,
    /// Arrivals per barrier generation.
    arrivals: HashMap<(u64, u32), Vec<Ev>>,
    /// Frees per heap block.
    frees: HashMap<u64, Vec<Ev>>,
    /// Acquisitions whose critical sections' mutual Φ_lock [`Encoder::base`]
    /// leaves out (see [`Encoder::set_locks_aside`]), and those constraints.
    aside: Vec<bool>,
    locks_aside: Vec<Formula>,
    /// Locations some thread accesses holding no lock (see `sources.rs`).
    unguarded: std::cell::OnceCell<HashSet<u64>>,
}

impl<'t> Encoder<'t> {
    pub fn new(trace: &'t Trace) -> Encoder<'t> {
        let n = trace.len();
        let mut po_pred = vec![None; n];
        let mut extra_pred = vec![None; n];
        let mut last: HashMap<u32, Ev> = HashMap::default();
        let mut fork_of: HashMap<u32, Ev> = HashMap::default();
        let mut end_of: HashMap<u32, Ev> = HashMap::default();
        let mut writes: HashMap<u64, Vec<Ev>> = HashMap::default();
        let mut arrivals: HashMap<(u64, u32), Vec<Ev>> = HashMap::default();
        let mut frees: HashMap<u64, Vec<Ev>> = HashMap::default();
        for (i, e) in trace.events.iter().enumerate() {
            po_pred[i] = last.insert(e.thread, i);
            match e.op {
                Op::Arrive { barrier, gen, .. } => arrivals.entry((barrier, gen)).or_default().push(i),
                Op::Free { object } if object != 0 => frees.entry(object).or_default().push(i),
                Op::Fork { child } => {
                    fork_of.insert(child, i);
                }
                Op::End => {
                    end_of.insert(e.thread, i);
                }
                _ => {}
            }
            for (loc, _) in trace.writes_of(i) {
                writes.entry(loc).or_default().push(i);
            }
        }
        // A stack object dies, like a free, in the step of its thread's last
        // event before its function returned.
        for &(e, object) in &trace.deaths {
            frees.entry(object).or_default().push(e);
        }
        for (i, e) in trace.events.iter().enumerate() {
            extra_pred[i] = match e.op {
                Op::Begin => fork_of.get(&e.thread).copied(),
                Op::Join { child } => end_of.get(&child).copied(),
                _ => None,
            };
        }
        let lock_pairs = lock_pairs(trace);
        let spin_pairs = spin::spins(trace, &po_pred);
        let threads = trace.events.iter().map(|e| e.thread as usize + 1).max().unwrap_or(0);
        let mut clocks: Vec<Vec<u32>> = Vec::with_capacity(n);
        let mut index_in_thread = vec![0u32; n];
        for e in 0..n {
            let mut c = match po_pred[e] {
                Some(p) => clocks[p].clone(),
                None => vec![0; threads],
            };
            if let Some(x) = extra_pred[e] {
                for (ci, xi) in c.iter_mut().zip(&clocks[x]) {
                    *ci = (*ci).max(*xi);
                }
            }
            let t = trace.events[e].thread as usize;
            index_in_thread[e] = po_pred[e].map(|p| index_in_thread[p] + 1).unwrap_or(0);
            c[t] = index_in_thread[e] + 1;
            clocks.push(c);
        }
        let thread_preds = trace.relaxed.as_ref().map(|r| relaxed::thread_preds(trace, r));
        let reach = thread_preds.as_ref().map(|p| relaxed::reach(p, &extra_pred)).unwrap_or_default();
        Encoder {
            trace,
            defs: Defs::default(),
            po_pred,
            thread_preds,
            reach,
            extra_pred,
            writes,
            valid: vec![None; n],
            observed: vec![None; n],
            values: HashMap::default(),
            wake_vars: HashMap::default(),
            vars: 0,
            preemptions: None,
            token_takers: HashMap::default(),
            one_token: HashSet::default(),
            spin_pairs,
            clocks,
            index_in_thread,
            lock_pairs,
            aside: Vec::new(),
            locks_aside: Vec::new(),
            arrivals,
            frees,
            unguarded: std::cell::OnceCell::new(),
        }
    }

    /// Immediate must-happen-before predecessors of `e`.
    pub fn preds(&self, e: Ev) -> impl Iterator<Item = Ev> + '_ {
        let thread: &[Ev] = match &self.thread_preds {
            Some(p) => &p[e],
            None => self.po_pred[e].as_slice(),
        };
        thread.iter().copied().chain(self.extra_pred[e])
    }

    /// Φ_mhb: program order, fork → begin, end → join.
    pub fn mhb(&self) -> Formula {
        let mut v = Vec::new();
        for e in 0..self.trace.len() {
            for p in self.preds(e) {
                v.push(Formula::Before(p, e));
            }
        }
        Formula::and(v)
    }

    /// The prefix happens, up to the cut at the latest. Its events may come
    /// in another order, and other events between them, as long as its
    /// reads keep their values (see `observation`): a prefix fixes a state
    /// (what its reads return), not an order.
    pub fn prefix_happens(&self) -> Formula {
        let cut = self.cut();
        Formula::and(
            (0..self.trace.prefix_len)
                .map(|e| Formula::or(vec![Formula::Before(e, cut), Formula::Same(e, cut)]))
                .collect(),
        )
    }

    /// The order variable of the cut: the point where the schedule a query builds
    /// ends (its target). An event placed after the cut does not happen in that
    /// schedule, so it constrains nothing. Every query sets `O(cut) = O(target)`,
    /// which lets all constraints that depend on the cut be asserted once per trace.
    pub fn cut(&self) -> Ev {
        self.trace.len()
    }

    /// Order variables the solver needs: one per event and the cut.
    pub fn variables(&self) -> usize {
        self.trace.len() + 1
    }

    /// `e` does not happen before the cut.
    fn after_cut(&self, e: Ev) -> Formula {
        Formula::Before(self.cut(), e)
    }

    /// Leave Φ_lock between two critical sections whose acquisitions
    /// `aside` marks (indexed by event) out of [`Encoder::base`]; they are
    /// kept for [`Encoder::locks_aside`]. A query that keeps those sections
    /// in an order they do not overlap in (explain keeps critical sections
    /// the failure does not depend on in the failing order) needs none of
    /// them: their observations, required of every event that happens, give
    /// the releases' validity. Call before `base`.
    pub fn set_locks_aside(&mut self, aside: Vec<bool>) {
        self.aside = aside;
    }

    /// The Φ_lock constraints [`Encoder::base`] left out (after `base`).
    pub fn locks_aside(&self) -> Formula {
        Formula::and(self.locks_aside.clone())
    }

    /// Φ_lock: two critical sections on one mutex do not overlap (a section whose
    /// release is not in the trace extends to the end), for the events that happen
    /// before the cut (a section may still be open at the cut, which is how a
    /// deadlock is reached).
    pub fn locks(&mut self) -> Formula {
        let cut = self.cut();
        let after = |e: Ev| Formula::Before(cut, e);
        let mut sections: Vec<Vec<(Ev, Option<Ev>)>> = self.lock_pairs.values().cloned().collect();
        sections.sort();
        let mut v = Vec::new();
        for pairs in sections {
            for (i, &(l1, u1)) in pairs.iter().enumerate() {
                for &(l2, u2) in &pairs[i + 1..] {
                    if self.trace.events[l1].thread == self.trace.events[l2].thread
                        || (self.shared(l1) && self.shared(l2))
                    {
                        continue; // program order separates them, or both are readers
                    }
                    // One section ends (its thread validly reaches the release)
                    // before the other begins, or one of them does not happen.
                    let mut ends_before = |u: Option<Ev>, l: Ev| match u {
                        Some(u) => Formula::and(vec![Formula::Before(u, l), self.validity(u)]),
                        None => Formula::False,
                    };
                    let first = ends_before(u1, l2);
                    let second = ends_before(u2, l1);
                    let f = Formula::or(vec![first, second, after(l1), after(l2)]);
                    let aside = |l: Ev| self.aside.get(l).copied().unwrap_or(false);
                    if aside(l1) && aside(l2) {
                        self.locks_aside.push(f);
                    } else {
                        v.push(f);
                    }
                }
            }
        }
        Formula::and(v)
    }

    /// Operations modelled only approximately keep their original relative order
    /// per object (for the events that happen before the cut).
    pub fn ordered_objects(&self) -> Formula {
        let mut last: HashMap<u64, Ev> = HashMap::default();
        let mut v = Vec::new();
        for (i, e) in self.trace.events.iter().enumerate() {
            if let Op::Ordered { object } = e.op {
                if let Some(p) = last.insert(object, i) {
                    v.push(Formula::or(vec![Formula::Before(p, i), self.after_cut(i)]));
                }
            }
        }
        Formula::and(v)
    }

    /// What every query on this trace shares: Φ_mhb, the prefix, and the
    /// synchronisation constraints up to the cut (Φ_lock, busy-wait parking,
    /// uninterruptible sections, approximated objects).
    pub fn base(&mut self) -> Formula {
        let mut parts = vec![self.mhb(), self.prefix_happens()];
        parts.push(self.locks());
        parts.push(self.ordered_objects());
        parts.push(self.spin_constraints());
        parts.push(self.atomic_sections());
        // The prefix happens as it did: its reads keep their values, its
        // events take their wake-ups and semaphore units.
        for e in 0..self.trace.prefix_len {
            parts.push(self.observation(e));
        }
        Formula::and(parts)
    }

    /// Φ_validity(e): every read that must happen before `e` returns the value it
    /// returned in the trace (and every earlier observation holds), so the thread
    /// reaches `e` along the same path.
    pub fn validity(&mut self, e: Ev) -> Formula {
        if let Some(d) = self.valid[e] {
            return Formula::Def(d);
        }
        let d = self.defs.reserve();
        self.valid[e] = Some(d);
        let preds: Vec<Ev> = self.preds(e).collect();
        let mut parts = Vec::with_capacity(preds.len() * 2);
        for p in preds {
            parts.push(self.validity(p));
            parts.push(self.observation(p));
        }
        let f = Formula::and(parts);
        self.defs.set(d, f);
        Formula::Def(d)
    }

    /// `e`'s own observation of shared state holds: a read (or rmw) reads its
    /// value, a signalled wait-return is woken by a signal, a failed trylock finds
    /// the mutex held.
    pub fn observation(&mut self, e: Ev) -> Formula {
        if let Some(d) = self.observed[e] {
            return Formula::Def(d);
        }
        let d = self.defs.reserve();
        self.observed[e] = Some(d);
        // (A symbolic trace's reads get their values from the client's
        // value atoms.)
        let read = if self.trace.symbolic {
            Formula::True
        } else if let Op::Arrive { last, .. } = self.trace.events[e].op {
            self.value(e, last as u128)
        } else {
            let reads: Vec<(u64, u128)> = self.trace.reads_of(e).collect();
            Formula::and(reads.into_iter().map(|(loc, v)| self.value_at(e, loc, v)).collect())
        };
        let extra = self.condition(e);
        self.defs.set(d, Formula::and(vec![read, extra]));
        Formula::Def(d)
    }

    /// What `e` observed besides a value: a signalled wait-return was woken, a
    /// failed trylock found the mutex held. (A new-state query keeps this for its
    /// target, whose value changes.)
    pub fn condition(&mut self, e: Ev) -> Formula {
        match self.trace.events[e].op {
            Op::WaitReturn { cond, signalled: true, .. } => self.woken(e, cond),
            Op::WaitReturn { cond, signalled: false, timed: true, .. } => self.timed_out(e, cond),
            Op::TrylockFail { mutex } => self.held_at(self.trace.events[e].thread, e, mutex, false),
            Op::SemFail { sem } => self.units_gone(sem, e),
            Op::SemWait { sem, .. } => self.sem_unit(e, sem),
            Op::Spin { since, .. } => self.spin_woken(e, since),
            // Everyone of the generation has arrived (a generation short of
            // arrivals in the trace — a symbolic trace cut by a failure —
            // lets nobody leave).
            Op::Depart { barrier, gen } => match self.generation_count(barrier, gen) {
                Some(c) if self.generation_complete(barrier, gen, c) => self.arrived_before(barrier, gen, e),
                _ => Formula::False,
            },
            _ if self.trace.guards[e] != 0 => self.alive(e),
            _ => Formula::True,
        }
    }

    /// The arrival `a` is the last of its generation (`last`) or not. An
    /// incomplete generation (the trace ended first) has no last arrival.
    fn arrival(&mut self, a: Ev, last: bool) -> Formula {
        let Op::Arrive { barrier, gen, count, .. } = self.trace.events[a].op else {
            return Formula::False;
        };
        match (last, self.generation_complete(barrier, gen, count)) {
            (true, false) => Formula::False,
            (false, false) => Formula::True,
            (true, true) => self.arrived_before(barrier, gen, a),
            (false, true) => {
                let others = self.arrivals.get(&(barrier, gen)).into_iter().flatten().filter(|o| **o != a);
                Formula::or(others.map(|o| Formula::Before(a, *o)).collect())
            }
        }
    }

    /// Every other arrival of the generation happens (validly) before `x`.
    fn arrived_before(&mut self, barrier: u64, gen: u32, x: Ev) -> Formula {
        let all: Vec<Ev> =
            self.arrivals.get(&(barrier, gen)).into_iter().flatten().copied().filter(|a| *a != x).collect();
        Formula::and(all.into_iter().flat_map(|a| [self.validity(a), Formula::Before(a, x)]).collect())
    }

    /// How many threads the barrier of a generation waits for (its
    /// arrivals' count; None: no arrival in the trace).
    fn generation_count(&self, barrier: u64, gen: u32) -> Option<u32> {
        let a = *self.arrivals.get(&(barrier, gen))?.first()?;
        match self.trace.events[a].op {
            Op::Arrive { count, .. } => Some(count),
            _ => Some(0),
        }
    }

    /// All `count` arrivals of the generation are in the trace.
    fn generation_complete(&self, barrier: u64, gen: u32, count: u32) -> bool {
        self.arrivals.get(&(barrier, gen)).is_some_and(|v| v.len() == count as usize)
    }

    /// The heap block `e` accesses (or frees) is not freed before it by another
    /// thread.
    fn alive(&mut self, e: Ev) -> Formula {
        Formula::and(self.frees_by_others(e).map(|f| Formula::Before(e, f)).collect())
    }

    /// The frees, by other threads, of the heap block `e` accesses.
    fn frees_by_others(&self, e: Ev) -> impl Iterator<Item = Ev> + '_ {
        let t = self.trace.events[e].thread;
        let frees = self.frees.get(&self.trace.guards[e]).into_iter().flatten().copied();
        frees.filter(move |f| self.trace.events[*f].thread != t)
    }

    /// Φ_value(r, v): `r` reads `v` — from a valid write of `v` with no other write
    /// to the location in between, or from the initial value with every write after.
    /// (For an event that reads one location, or a barrier arrival.)
    pub fn value(&mut self, r: Ev, v: u128) -> Formula {
        match self.trace.reads_of(r).next() {
            Some((loc, _)) => self.value_at(r, loc, v),
            None => self.value_at(r, u64::MAX, v),
        }
    }

    /// Φ_value(r, v) for the location `loc` among those `r` reads (a bulk copy
    /// reads several).
    pub fn value_at(&mut self, r: Ev, loc: u64, v: u128) -> Formula {
        if let Some(d) = self.values.get(&(r, loc, v)) {
            return Formula::Def(*d);
        }
        let d = self.defs.reserve();
        self.values.insert((r, loc, v), d);
        if matches!(self.trace.events[r].op, Op::Arrive { .. }) {
            let f = self.arrival(r, v != 0);
            self.defs.set(d, f);
            return Formula::Def(d);
        }
        if !self.trace.reads_of(r).any(|(l, _)| l == loc) {
            self.defs.set(d, Formula::False);
            return Formula::Def(d);
        }
        let mut alts = Vec::new();
        for src in self.sources(r, loc) {
            if self.gives(r, src, loc, v) {
                alts.push(self.reads_from(r, loc, src));
            }
        }
        let f = Formula::or(alts);
        self.defs.set(d, f);
        Formula::Def(d)
    }

    /// Uninterruptible sections (`__VERIFIER_atomic_*`): no event of another
    /// thread happens between the step that enters a section and the section's
    /// last event (up to `cut`).
    pub fn atomic_sections(&mut self) -> Formula {
        let sections = self.section_bounds();
        let mut parts = Vec::new();
        for (first, last) in sections {
            let t = self.trace.events[first].thread;
            // The thread is already inside the section right after its previous
            // step (it entered while running to the section's first event).
            let start = self.po_pred[first].unwrap_or(first);
            for x in 0..self.trace.len() {
                if self.trace.events[x].thread == t {
                    continue;
                }
                // Before the section, after it (its thread validly reaches its end),
                // or not happening.
                let after_section = Formula::and(vec![Formula::Before(last, x), self.validity(last)]);
                parts.push(Formula::or(vec![Formula::Before(x, start), after_section, self.after_cut(x)]));
            }
        }
        Formula::and(parts)
    }

    /// (first, last) event of every uninterruptible section, by first event.
    fn section_bounds(&self) -> Vec<(Ev, Ev)> {
        let mut bounds: HashMap<u32, (Ev, Ev)> = HashMap::default();
        for (e, s) in self.trace.sections.iter().enumerate() {
            if *s != 0 {
                bounds.entry(*s).and_modify(|b| b.1 = e).or_insert((e, e));
            }
        }
        let mut sections: Vec<(Ev, Ev)> = bounds.into_values().collect();
        sections.sort_unstable();
        sections
    }

    /// Number of free variables created so far.
    pub fn num_vars(&self) -> usize {
        self.vars
    }

    /// `f` as a shared sub-formula (used positively only), so that repeating
    /// it costs one literal.
    fn named(&mut self, f: Formula) -> Formula {
        if matches!(f, Formula::True | Formula::False | Formula::Before(..) | Formula::Def(_)) {
            return f;
        }
        let d = self.defs.reserve();
        self.defs.set(d, f);
        Formula::Def(d)
    }

    fn fresh_var(&mut self) -> usize {
        self.vars += 1;
        self.vars - 1
    }

    /// Reach `target` along its thread's path (every read before it and its
    /// own observation keep their values), the schedule ending there: how a
    /// failure found in this trace is reached again.
    pub fn reach(&mut self, target: Ev) -> Query {
        let parts = vec![self.validity(target), self.observation(target), Formula::Same(self.cut(), target)];
        Query { goal: Formula::and(parts) }
    }

    /// CLAP §6's context-switch count, on the events up to the cut: one
    /// variable per pair of consecutive events `(a, b)` of a thread, forced true
    /// when another thread's event up to the cut lies between them (ties count),
    /// i.e. when the thread was preempted there. Switches before an operation
    /// that waits (a condition-wait return, a join, a barrier departure, a
    /// `pthread_once` resume) or after a yield are free, and so is a switch
    /// from a busy wait parked for good ([`Op::Spin`] after the cut: nothing
    /// its loop reads changes after its previous turn, so the interpreter
    /// has parked it). Bound them with [`Formula::AtMost`]. Quadratic in the
    /// trace length.
    pub fn preemption_vars(&mut self) -> Vec<usize> {
        if let Some(v) = &self.preemptions {
            return v.clone();
        }
        let cut = self.cut();
        let n = self.trace.len();
        let mut vars = Vec::new();
        for (a, b, parked) in self.preemption_pairs() {
            let s = self.fresh_var();
            vars.push(s);
            let t = self.trace.events[b].thread;
            for x in (0..n).filter(|x| self.trace.events[*x].thread != t) {
                let mut alts =
                    vec![Formula::Before(x, a), Formula::Before(b, x), Formula::Before(cut, x), Formula::Var(s)];
                if parked {
                    alts.push(Formula::Before(cut, b));
                }
                self.defs.axiom(Formula::or(alts));
            }
        }
        self.preemptions = Some(vars.clone());
        vars
    }

    /// How many constraints [`Encoder::preemption_vars`] adds (one per
    /// pair it has a variable for and event of another thread).
    pub fn preemption_constraints(&self) -> usize {
        let mut per_thread: HashMap<u32, usize> = HashMap::default();
        for e in &self.trace.events {
            *per_thread.entry(e.thread).or_default() += 1;
        }
        let n = self.trace.len();
        self.preemption_pairs()
            .iter()
            .map(|(_, b, _)| n - per_thread.get(&self.trace.events[*b].thread).copied().unwrap_or(0))
            .sum()
    }

    /// The pairs of consecutive events `(a, b)` of a thread that
    /// [`Encoder::preemption_vars`] has a variable for, and whether `b` is
    /// a parked busy wait.
    fn preemption_pairs(&self) -> Vec<(Ev, Ev, bool)> {
        let mut pairs = Vec::new();
        for b in 0..self.trace.len() {
            let Some(a) = self.po_pred[b] else { continue };
            let waits = matches!(
                self.trace.events[b].op,
                Op::WaitReturn { .. } | Op::Join { .. } | Op::Depart { .. } | Op::OnceResume { .. }
            );
            if waits || self.trace.yields.get(a).copied().unwrap_or(false) {
                continue;
            }
            pairs.push((a, b, matches!(self.trace.events[b].op, Op::Spin { .. })));
        }
        pairs
    }

    /// How many of the variables of [`Encoder::preemption_vars`] the order
    /// `pos` forces true: the count an `AtMost` bound on them bounds.
    pub fn preemptions_at(&self, pos: &[i64]) -> usize {
        let cut = pos[self.cut()];
        let n = self.trace.len();
        let preempted = |&(a, b, parked): &(Ev, Ev, bool)| {
            let t = self.trace.events[b].thread;
            !(parked && pos[b] > cut)
                && (0..n)
                    .any(|x| self.trace.events[x].thread != t && pos[x] >= pos[a] && pos[x] <= pos[b] && pos[x] <= cut)
        };
        self.preemption_pairs().iter().filter(|p| preempted(p)).count()
    }

    /// The new-state query for read `r` and a value `v` it did not read:
    /// Φ_validity(r) ∧ Φ_value(r, v), with the cut at `r` (the base, with Φ_lock
    /// up to the cut, is asserted separately). The schedule it yields ends at `r`.
    /// `loc` is the location whose value changes (a bulk copy reads several;
    /// the others keep theirs).
    pub fn new_state(&mut self, r: Ev, loc: u64, v: u128) -> Query {
        let value = self.value_at(r, loc, v);
        self.state_query(r, loc, value)
    }

    /// [`Encoder::new_state`] with the other locations a bulk read `r`
    /// reads free to change too (None when it reads one location). One
    /// write can cover several of them (a `memcpy` into the buffer another
    /// one copies from): then no state changes one alone, and only this
    /// query reaches the states where the copy reads before that write.
    pub fn new_state_with_others(&mut self, r: Ev, loc: u64, v: u128) -> Option<Query> {
        // (A second location, or none.)
        self.trace.reads_of(r).nth(1)?;
        let read = self.value_at(r, loc, v);
        Some(self.query_holding(r, read, |_| false))
    }

    /// A new-state query for read `r` whose read of `loc` is `read`: Φ_validity(r),
    /// its condition, its other locations' values as in the trace, the cut at `r`.
    fn state_query(&mut self, r: Ev, loc: u64, read: Formula) -> Query {
        self.query_holding(r, read, |l| l != loc)
    }

    /// Φ_validity(r), `read`, r's condition, the values as in the trace of
    /// the locations `r` reads that `hold` holds, the cut at `r`.
    fn query_holding(&mut self, r: Ev, read: Formula, hold: impl Fn(u64) -> bool) -> Query {
        let mut parts = vec![self.validity(r), read, self.condition(r)];
        let held: Vec<(u64, u128)> = self.trace.reads_of(r).filter(|(l, _)| hold(*l)).collect();
        parts.extend(held.into_iter().map(|(l, x)| self.value_at(r, l, x)));
        parts.push(Formula::Same(self.cut(), r));
        Query { goal: Formula::and(parts) }
    }

    /// Condition waits after the prefix (other than `r` and those that must
    /// come after it) keep the number of wake-ups they saw before them. A
    /// wait "reads" that count only so that MCR explores waiting before and
    /// after a signal; a prefix that takes a signal but leaves out a wait
    /// placed after it fixes that wait after the signal in every later
    /// execution, which loses the states where it waits through the signal
    /// (two consumers woken by one broadcast). Asked along with a new state
    /// when the trace has such waits; None when it has none.
    pub fn kept_waits(&mut self, r: Ev) -> Option<Formula> {
        let waits: Vec<(Ev, u64, u128)> = (self.trace.prefix_len..self.trace.len())
            .filter(|w| *w != r && !self.mhb_before(r, *w))
            .filter_map(|w| match self.trace.events[w].op {
                Op::Wait { cond, wakes, .. } => Some((w, cond, wakes)),
                _ => None,
            })
            .collect();
        if waits.is_empty() {
            return None;
        }
        Some(Formula::and(
            waits.into_iter().map(|(w, cond, wakes)| self.value_at(w, crate::trace::cond_loc(cond), wakes)).collect(),
        ))
    }

    /// The reads of other threads before `r` in the trace (after the
    /// prefix; not those that also write a location `r` reads) staying
    /// before it, each with its value and what it depends on: asked along
    /// with a new state at `r`, so that the state differs from the trace's
    /// at `r` and not also at reads the model moved after it. Φ_validity(r) keeps only `r`'s causal past; a read outside it
    /// that the model places after a write of another section (a pointer
    /// read under a lock that another thread's section swaps) reads another
    /// value in every execution from the new prefix, and the states where
    /// it read the old one along with `r`'s new value were never reached
    /// (a logger that took the active buffer before the flusher swapped
    /// it, writing into it after the flusher read it: `causa check` said
    /// verified). The reads and None when there are none.
    pub fn kept_reads(&mut self, r: Ev) -> Option<(Vec<Ev>, Formula)> {
        let t = self.trace.events[r].thread;
        let read_by_r: Vec<u64> = self.trace.reads_of(r).map(|(l, _)| l).collect();
        let reads: Vec<Ev> = (self.trace.prefix_len..r)
            .filter(|e| self.trace.events[*e].thread != t && self.trace.reads_of(*e).next().is_some())
            // (Not one that also writes what `r` reads: an append that
            // must move after `r` for `r` to see the old bytes.)
            .filter(|e| !self.trace.writes_of(*e).any(|(l, _)| read_by_r.contains(&l)))
            .collect();
        if reads.is_empty() {
            return None;
        }
        let mut parts = Vec::with_capacity(reads.len() * 3);
        for &e in &reads {
            parts.push(Formula::Before(e, r));
            parts.push(self.validity(e));
            parts.push(self.observation(e));
        }
        Some((reads, Formula::and(parts)))
    }

    /// Accesses (after the prefix) that another thread's free of their block
    /// might precede: (access, free).
    pub fn after_free_candidates(&self) -> Vec<(Ev, Ev)> {
        let mut pairs = Vec::new();
        for e in self.trace.prefix_len..self.trace.len() {
            pairs.extend(self.frees_by_others(e).filter(|f| !self.mhb_before(e, *f)).map(|f| (e, f)));
        }
        pairs
    }

    /// The access `e` happens after the free `f` of its block (a use after free,
    /// or a double free), its thread reaching it along the same path.
    pub fn after_free(&mut self, e: Ev, f: Ev) -> Query {
        let parts = vec![
            self.validity(e),
            self.validity(f),
            self.observation(f),
            Formula::Before(f, e),
            Formula::Same(self.cut(), e),
        ];
        Query { goal: Formula::and(parts) }
    }

    /// Pairs of accesses that could race: same location (program memory, not a
    /// lock's acquisition count), different threads, at least one write, not both
    /// atomic, at least one after the prefix.
    pub fn race_candidates(&self) -> Vec<(Ev, Ev)> {
        let mut by_loc: HashMap<u64, Vec<Ev>> = HashMap::default();
        for (e, ev) in self.trace.events.iter().enumerate() {
            if !matches!(ev.op, Op::Read { .. } | Op::Write { .. } | Op::Rmw { .. } | Op::Bulk { .. }) {
                continue;
            }
            let mut locs: Vec<u64> = self.trace.reads_of(e).chain(self.trace.writes_of(e)).map(|(l, _)| l).collect();
            locs.sort_unstable();
            locs.dedup();
            for loc in locs {
                by_loc.entry(loc).or_default().push(e);
            }
        }
        let mut locs: Vec<_> = by_loc.into_iter().collect();
        locs.sort_unstable();
        let mut pairs = Vec::new();
        for (loc, accesses) in locs {
            for (i, &a) in accesses.iter().enumerate() {
                for &b in &accesses[i + 1..] {
                    let (ea, eb) = (&self.trace.events[a], &self.trace.events[b]);
                    let writes = self.trace.written_at(a, loc).is_some() || self.trace.written_at(b, loc).is_some();
                    let atomic = self.trace.atomic.get(a).copied().unwrap_or(false)
                        && self.trace.atomic.get(b).copied().unwrap_or(false);
                    if ea.thread != eb.thread && writes && !atomic && b >= self.trace.prefix_len {
                        pairs.push((a, b));
                    }
                }
            }
        }
        pairs
    }

    /// MCR's race query: both accesses are reachable (their threads' earlier reads
    /// keep their values) and can happen at the same point, `O(a) = O(b)`.
    pub fn race(&mut self, a: Ev, b: Ev) -> Query {
        let parts = vec![self.validity(a), self.validity(b), Formula::Same(a, b), Formula::Same(self.cut(), a)];
        Query { goal: Formula::and(parts) }
    }

    /// Values a read could return that differ from the one it returned: the
    /// distinct values written to its location in the trace, and the initial one.
    /// Each is (location, value); a barrier arrival's "value" (whether it is
    /// the last) has location `u64::MAX`.
    pub fn other_values(&self, r: Ev) -> Vec<(u64, u128)> {
        match self.trace.events[r].op {
            // Who arrives last; a complete generation only.
            Op::Arrive { barrier, gen, count, last } => {
                let complete = self.generation_complete(barrier, gen, count);
                return if complete { vec![(u64::MAX, !last as u128)] } else { Vec::new() };
            }
            // A resumed waiter only ever sees the routine done.
            Op::OnceResume { .. } => return Vec::new(),
            _ => {}
        }
        let mut all = Vec::new();
        for (loc, seen) in self.trace.reads_of(r) {
            let mut vals = self.readable(r, loc);
            vals.sort_unstable();
            vals.dedup();
            vals.retain(|v| *v != seen);
            all.extend(vals.into_iter().map(|v| (loc, v)));
        }
        all
    }

    /// The values `r` could read at `loc` by must-happen-before alone (a
    /// cheap necessary condition that skips queries that must be
    /// unsatisfiable): those of the writes not forced after `r` and not
    /// hidden by a write forced between them, and the initial value when no
    /// write is forced before `r`. A write is hidden when it must happen
    /// before one of the writes forced before `r`, that is before the latest
    /// such write of some thread (a thread's writes to one location are in
    /// must-happen-before order, under TSO and PSO too), so each write is
    /// compared with one write per thread, not with all.
    fn readable(&self, r: Ev, loc: u64) -> Vec<u128> {
        let ws = self.writes_to(loc);
        let mut latest: HashMap<u32, Ev> = HashMap::default();
        for &w in ws.iter().filter(|w| **w != r && self.mhb_before(**w, r)) {
            let t = self.trace.events[w].thread;
            latest.entry(t).and_modify(|m| *m = (*m).max(w)).or_insert(w);
        }
        let mut vals: Vec<u128> = ws
            .iter()
            .copied()
            .filter(|&w| w != r && !self.mhb_before(r, w))
            .filter(|&w| !latest.values().any(|&m| m != w && self.mhb_before(w, m)))
            .filter_map(|w| self.trace.written_at(w, loc))
            .collect();
        if latest.is_empty() {
            vals.extend(self.trace.initial.get(&loc).copied());
        }
        vals
    }

    /// `a` must happen before `b` (program order, fork, join; transitively).
    pub fn mhb_before(&self, a: Ev, b: Ev) -> bool {
        if self.thread_preds.is_some() {
            return self.reach.get(b).is_some_and(|s| s[a / 64] >> (a % 64) & 1 == 1);
        }
        let ta = self.trace.events[a].thread as usize;
        a != b && self.clocks[b].get(ta).copied().unwrap_or(0) > self.index_in_thread[a]
    }

    /// `e` is a read-lock acquisition (shared with other readers).
    fn shared(&self, e: Ev) -> bool {
        matches!(self.trace.events[e].op, Op::Lock { shared: true, .. })
    }

    /// Writes to `loc` (for schedule extraction).
    pub fn writes_to(&self, loc: u64) -> &[Ev] {
        self.writes.get(&loc).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The mutexes with critical sections in the trace, by address.
    pub fn mutexes(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self.lock_pairs.keys().copied().collect();
        v.sort_unstable();
        v
    }

    pub fn lock_pairs_of(&self, mutex: u64) -> &[(Ev, Option<Ev>)] {
        self.lock_pairs.get(&mutex).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// Critical sections per mutex: each acquisition (lock, wait-return) with the
/// release (unlock, wait) that ends it in the same thread, if any. Recursive
/// re-acquisitions by the holder are nested and not separate sections.
fn lock_pairs(trace: &Trace) -> HashMap<u64, Vec<(Ev, Option<Ev>)>> {
    let mut pairs: HashMap<u64, Vec<(Ev, Option<Ev>)>> = HashMap::default();
    let mut open: HashMap<(u32, u64), (Ev, u32)> = HashMap::default();
    for (i, e) in trace.events.iter().enumerate() {
        match e.op {
            Op::Lock { mutex, .. } | Op::WaitReturn { mutex, .. } => {
                open.entry((e.thread, mutex)).and_modify(|(_, depth)| *depth += 1).or_insert((i, 1));
            }
            Op::Unlock { mutex } | Op::Wait { mutex, .. } => {
                if let Some((l, depth)) = open.get_mut(&(e.thread, mutex)) {
                    *depth -= 1;
                    if *depth == 0 {
                        let l = *l;
                        open.remove(&(e.thread, mutex));
                        pairs.entry(mutex).or_default().push((l, Some(i)));
                    }
                }
            }
            _ => {}
        }
    }
    let mut still: Vec<((u32, u64), (Ev, u32))> = open.into_iter().collect();
    still.sort_by_key(|(_, (l, _))| *l);
    for ((_, mutex), (l, _)) in still {
        pairs.entry(mutex).or_default().push((l, None));
    }
    for v in pairs.values_mut() {
        v.sort_by_key(|(l, _)| *l);
    }
    pairs
}
