//! From a model to a schedule: the events a schedule reaching the query's
//! target must contain, in the model's order.

use super::Encoder;
use crate::formula::Ev;
use crate::trace::Op;
use causa_core::collections::HashMap;

impl Encoder<'_> {
    /// The events a schedule reaching `target` under `pos` must contain: the
    /// must-happen-before closure of `target`, the writes its reads read from (and
    /// theirs), the releases that let its acquisitions happen, the signals that
    /// wake its waits, and the whole prefix. Returned sorted by position.
    /// `vars`: the model's free variables ([`crate::OrderSolver::var_values`]),
    /// which say which signal wakes a waiter (without them the earliest
    /// fitting one is chosen).
    pub fn relevant_events(&self, target: Ev, pos: &[i64], vars: &[bool]) -> Vec<Ev> {
        self.relevant_to(&[target], pos, vars)
    }

    /// [`Encoder::relevant_events`] for several targets at once.
    pub fn relevant_to(&self, targets: &[Ev], pos: &[i64], vars: &[bool]) -> Vec<Ev> {
        self.closure(targets, pos, vars, None)
    }

    /// [`Encoder::relevant_events`] for a model of [`Encoder::flip`]: the
    /// target `e` gets its other outcome.
    pub fn relevant_flipped(&self, e: Ev, pos: &[i64], vars: &[bool]) -> Vec<Ev> {
        self.closure(&[e], pos, vars, Some(e))
    }

    /// [`Encoder::relevant_flipped`] with more targets (the reads kept
    /// with it, [`Encoder::kept_reads`]).
    pub fn relevant_flipped_with(&self, e: Ev, also: &[Ev], pos: &[i64], vars: &[bool]) -> Vec<Ev> {
        let targets: Vec<Ev> = std::iter::once(e).chain(also.iter().copied()).collect();
        self.closure(&targets, pos, vars, Some(e))
    }

    /// The signal that wakes each wait-return in the model (`vars`), if one
    /// placed before it.
    fn chosen_tokens(&self, pos: &[i64], vars: &[bool]) -> HashMap<Ev, Ev> {
        let mut chosen = HashMap::default();
        for (&(e, k), &v) in &self.wake_vars {
            if vars.get(v).copied().unwrap_or(false) && pos[k] < pos[e] {
                chosen.insert(e, k);
            }
        }
        chosen
    }

    /// Whether the wait-return or semaphore try `e` succeeds (is woken, takes
    /// a unit) in the schedule being built, where `flipped` has the outcome the
    /// trace did not show.
    fn succeeds(&self, e: Ev, flipped: Option<Ev>) -> bool {
        let shown = match self.trace.events[e].op {
            Op::WaitReturn { signalled, .. } => signalled,
            Op::SemWait { .. } => true,
            _ => false,
        };
        shown != (flipped == Some(e))
    }

    fn closure(&self, targets: &[Ev], pos: &[i64], vars: &[bool], flipped: Option<Ev>) -> Vec<Ev> {
        let n = self.trace.len();
        let chosen = self.chosen_tokens(pos, vars);
        let mut inside = vec![false; n];
        let mut stack: Vec<Ev> = (0..self.trace.prefix_len).chain(targets.iter().copied()).collect();
        let sections = self.section_bounds();
        loop {
            self.close(&mut stack, &mut inside, pos);
            self.wake_ups(&inside, &mut stack, pos, &chosen, flipped);
            self.semaphore_units(&inside, &mut stack, pos, flipped);
            // A section entered inside the schedule must be finished before any
            // other thread's later event in it (the interpreter lets nobody else run).
            for &(first, last) in &sections {
                let start = self.po_pred[first].unwrap_or(first);
                let t = self.trace.events[first].thread;
                let entered = inside[start];
                let others_after = (0..n).any(|x| inside[x] && self.trace.events[x].thread != t && pos[x] > pos[start]);
                if entered && others_after && !inside[last] {
                    stack.push(last);
                }
            }
            if stack.is_empty() {
                break;
            }
        }
        let mut v: Vec<Ev> = (0..n).filter(|e| inside[*e]).collect();
        v.sort_by_key(|e| (pos[*e], *e));
        v
    }

    /// Add the events of `stack` and everything they need (except wake-ups) to `inside`.
    fn close(&self, stack: &mut Vec<Ev>, inside: &mut [bool], pos: &[i64]) {
        let n_events = self.trace.len();
        while let Some(e) = stack.pop() {
            if inside[e] {
                continue;
            }
            inside[e] = true;
            stack.extend(self.preds(e));
            let ev = &self.trace.events[e];
            for (loc, _) in self.trace.reads_of(e) {
                if self.own_store(e, loc).is_some_and(|o| pos[o] > pos[e]) {
                    // It reads its thread's own store, still buffered there
                    // (forwarding), which program order brings along: no
                    // source to keep, and none to fix early. (Not decided by
                    // the value the trace shows: a new state's target reads
                    // another, from memory once the store is flushed.)
                    continue;
                }
                // The write it reads from: the last write to loc placed before it.
                let src =
                    self.writes_to(loc).iter().copied().filter(|w| *w != e && pos[*w] < pos[e]).max_by_key(|w| pos[*w]);
                stack.extend(src);
            }
            if let Op::Lock { mutex, .. } | Op::WaitReturn { mutex, .. } | Op::TrylockFail { mutex } = ev.op {
                // Every earlier critical section of another thread must be closed.
                for &(l, u) in self.lock_pairs_of(mutex) {
                    let readers = self.shared(l) && self.shared(e);
                    if pos[l] < pos[e] && self.trace.events[l].thread != ev.thread && !readers {
                        stack.push(l);
                        if let Some(u) = u.filter(|u| pos[*u] < pos[e]) {
                            stack.push(u);
                        }
                    }
                }
            }
            // A parked spinner moves on only after another thread's change to
            // what its loop observed.
            stack.extend(self.wakers_of(e, false, pos));
            match ev.op {
                // Who a signal or broadcast wakes depends on who waits: the
                // waits placed before it come first.
                Op::Signal { cond, .. } | Op::Broadcast { cond, .. } => stack.extend((0..n_events).filter(|w| {
                    matches!(self.trace.events[*w].op, Op::Wait { cond: c, .. } if c == cond) && pos[*w] < pos[e]
                })),
                // Every arrival of the generation comes first.
                Op::Depart { barrier, gen } => stack.extend(self.arrivals.get(&(barrier, gen)).into_iter().flatten()),
                // The arrivals before it decide whether it is last.
                Op::Arrive { barrier, gen, .. } => {
                    stack.extend(self.arrivals.get(&(barrier, gen)).into_iter().flatten().filter(|a| pos[**a] < pos[e]))
                }
                _ => {}
            }
            if self.trace.guards[e] != 0 {
                // A free placed before an access to its block.
                let frees = self.frees.get(&self.trace.guards[e]).into_iter().flatten();
                stack.extend(frees.filter(|f| **f != e && pos[**f] < pos[e]));
            }
            if let Op::Ordered { object } = ev.op {
                // Keep every earlier operation on the same object.
                stack.extend(
                    (0..e).filter(|x| matches!(self.trace.events[*x].op, Op::Ordered { object: o } if o == object)),
                );
            }
        }
    }

    /// Semaphores in the schedule being built: a successful wait takes an
    /// initial unit, else an unused post placed before it (one already in the
    /// schedule, else the earliest; the model only counts units); a failed
    /// try needs every unit made before it taken, by the earliest waits placed
    /// before it.
    fn semaphore_units(&self, inside: &[bool], stack: &mut Vec<Ev>, pos: &[i64], flipped: Option<Ev>) {
        let n = self.trace.len();
        let sem_of = |e: Ev| match self.trace.events[e].op {
            Op::SemWait { sem, .. } | Op::SemFail { sem } => Some(sem),
            _ => None,
        };
        let is_post = |p: Ev, sem: u64| matches!(self.trace.events[p].op, Op::SemPost { sem: s } if s == sem);
        let mut ops: Vec<Ev> = (0..n).filter(|e| inside[*e] && sem_of(*e).is_some()).collect();
        ops.sort_by_key(|e| pos[*e]);
        let mut units: HashMap<u64, u128> = HashMap::default();
        let mut taken = vec![false; n];
        for w in ops {
            let Some(sem) = sem_of(w) else { continue };
            let left = units.entry(sem).or_insert_with(|| self.trace.sem_initial.get(&sem).copied().unwrap_or(0));
            if !self.succeeds(w, flipped) {
                let posts = (0..n).filter(|p| inside[*p] && !taken[*p] && is_post(*p, sem) && pos[*p] < pos[w]);
                let available = *left as usize + posts.count();
                let mut more: Vec<Ev> = (0..n)
                    .filter(|x| !inside[*x] && sem_of(*x) == Some(sem) && self.succeeds(*x, flipped))
                    .filter(|x| pos[*x] < pos[w])
                    .collect();
                more.sort_by_key(|x| pos[*x]);
                stack.extend(more.into_iter().take(available));
                continue;
            }
            // The model counts units; a post already in the schedule first.
            let post = match *left {
                0 => (0..n)
                    .filter(|p| !taken[*p] && is_post(*p, sem) && pos[*p] < pos[w])
                    .min_by_key(|p| (!inside[*p], pos[*p])),
                _ => None,
            };
            if post.is_none() {
                *left = left.saturating_sub(1);
            }
            if let Some(p) = post {
                taken[p] = true;
                if !inside[p] {
                    stack.push(p);
                }
            }
        }
    }

    /// Condition variables in the schedule being built: every signalled
    /// wait-return gets a signal of its own (the model's choice, else the
    /// earliest fitting one; a broadcast may serve several), and a return that
    /// times out leaves every signal since its wait to another waiter.
    fn wake_ups(
        &self,
        inside: &[bool],
        stack: &mut Vec<Ev>,
        pos: &[i64],
        chosen: &HashMap<Ev, Ev>,
        flipped: Option<Ev>,
    ) {
        let n = self.trace.len();
        // Wake-ups: give every signalled wait-return inside a signal of its own
        // (a broadcast may serve several), earliest deadline first.
        let is_return = |e: Ev| matches!(self.trace.events[e].op, Op::WaitReturn { .. });
        let mut returns: Vec<Ev> =
            (0..n).filter(|e| inside[*e] && is_return(*e) && self.succeeds(*e, flipped)).collect();
        returns.sort_by_key(|e| pos[*e]);
        let mut used = vec![false; n];
        for r in returns {
            let Op::WaitReturn { cond, .. } = self.trace.events[r].op else { continue };
            let wait = self.po_pred[r];
            let in_model = match chosen.get(&r) {
                Some(s) if wait.is_none_or(|w| pos[w] < pos[*s]) => Some(*s),
                _ => None,
            };
            let sig = in_model.or_else(|| {
                (0..n)
                    .filter(|s| match self.trace.events[*s].op {
                        Op::Signal { cond: c, .. } => c == cond && !used[*s],
                        Op::Broadcast { cond: c, .. } => c == cond,
                        _ => false,
                    })
                    .filter(|s| pos[*s] < pos[r] && wait.is_none_or(|w| pos[w] < pos[*s]))
                    .min_by_key(|s| pos[*s])
            });
            if let Some(s) = sig {
                used[s] = matches!(self.trace.events[s].op, Op::Signal { .. });
                if !inside[s] {
                    stack.push(s);
                }
            }
        }
        // A return that times out: every signal inside since its wait goes to
        // another waiter's return before it.
        for r in (0..n).filter(|e| inside[*e] && is_return(*e) && !self.succeeds(*e, flipped)) {
            let Op::WaitReturn { cond, .. } = self.trace.events[r].op else { continue };
            // A timed-wait loop the interpreter parked times out again only
            // after another thread's change to what it observed.
            stack.extend(self.wakers_of(r, true, pos).into_iter().filter(|c| !inside[*c]));
            let since = self.po_pred[r].map(|w| pos[w]).unwrap_or(i64::MIN);
            let signals = (0..n).filter(|s| {
                inside[*s]
                    && !used[*s]
                    && matches!(self.trace.events[*s].op, Op::Signal { cond: c, .. } if c == cond)
                    && since < pos[*s]
                    && pos[*s] < pos[r]
            });
            for s in signals.collect::<Vec<_>>() {
                let taker = (0..n)
                    .filter(|x| !inside[*x] && is_return(*x) && self.succeeds(*x, flipped))
                    .filter(|x| matches!(self.trace.events[*x].op, Op::WaitReturn { cond: c, .. } if c == cond))
                    .filter(|x| pos[s] < pos[*x] && pos[*x] < pos[r])
                    .filter(|x| self.po_pred[*x].is_none_or(|w| pos[w] < pos[s]))
                    .min_by_key(|x| pos[*x]);
                stack.extend(taker);
            }
        }
    }
}
