//! Synchronisation observations in order-variable form: condition-variable
//! wake-ups (CLAP §3.2's 0/1 mapping variables), semaphore units, and whether a
//! mutex is held or free at an event.

use super::Encoder;
use crate::formula::{Ev, Formula};
use crate::trace::Op;
use causa_core::Tid;

impl Encoder<'_> {
    /// A signalled wait-return `ret` (of a wait on `cond`) is woken by a signal or
    /// broadcast between its wait and itself (CLAP §3.2: a 0/1 variable per
    /// (return, signal) pair; [`Encoder::wake_var`] lets one `signal` wake
    /// at most one waiter, a broadcast wakes all).
    pub(super) fn woken(&mut self, ret: Ev, cond: u64) -> Formula {
        let Some(wait) = self.po_pred[ret] else {
            return Formula::False;
        };
        let mut alts = Vec::new();
        let mut vars = Vec::new();
        for s in 0..self.trace.len() {
            let var = match self.trace.events[s].op {
                Op::Signal { cond: c, .. } if c == cond => Some(self.wake_var(ret, s)),
                Op::Broadcast { cond: c, .. } if c == cond => None,
                _ => continue,
            };
            vars.extend(var);
            let mut parts = vec![self.validity(s), Formula::Before(wait, s), Formula::Before(s, ret)];
            parts.extend(var.map(Formula::Var));
            alts.push(Formula::and(parts));
        }
        self.take_one(ret, vars);
        Formula::or(alts)
    }

    /// The timed wait-return `ret` (of a wait on `cond`) times out: no wake-up
    /// is left for it, and a loop the interpreter parked was woken first.
    pub(super) fn timed_out(&mut self, ret: Ev, cond: u64) -> Formula {
        Formula::and(vec![self.not_woken(ret, cond, ret), self.timeout_parking(ret)])
    }

    /// The wait-return `ret` (of a wait on `cond`) finds no wake-up at `x` (the
    /// return itself, or the cut): no broadcast since its wait, and every
    /// signal since its wait was taken by another waiter's return before `x`
    /// (the interpreter lets a waiter take any signal made after its wait).
    pub(super) fn not_woken(&mut self, ret: Ev, cond: u64, x: Ev) -> Formula {
        let Some(wait) = self.po_pred[ret] else {
            return Formula::False;
        };
        let returns: Vec<Ev> = (0..self.trace.len())
            .filter(|r| {
                *r != ret
                    && matches!(self.trace.events[*r].op, Op::WaitReturn { cond: c, signalled: true, .. } if c == cond)
            })
            .collect();
        let mut parts = Vec::new();
        for s in 0..self.trace.len() {
            let mut alts = match self.trace.events[s].op {
                Op::Signal { cond: c, .. } | Op::Broadcast { cond: c, .. } if c == cond => {
                    vec![Formula::Before(s, wait), Formula::Before(x, s)]
                }
                _ => continue,
            };
            if matches!(self.trace.events[s].op, Op::Signal { .. }) {
                for &r in &returns {
                    let taken = Formula::Var(self.wake_var(r, s));
                    let mut parts = vec![taken, Formula::Before(s, r), Formula::Before(r, x)];
                    parts.extend(self.po_pred[r].map(|w| Formula::Before(w, s)));
                    parts.extend([self.validity(r), self.observation(r)]);
                    alts.push(Formula::and(parts));
                }
            }
            parts.push(Formula::or(alts));
        }
        Formula::and(parts)
    }

    /// The variable "the wait-return `e` is woken by the signal `k`". A signal
    /// wakes at most one waiter: each new variable adds that axiom against the
    /// signal's earlier variables.
    pub(super) fn wake_var(&mut self, e: Ev, k: Ev) -> usize {
        if let Some(v) = self.wake_vars.get(&(e, k)) {
            return *v;
        }
        let v = self.fresh_var();
        self.wake_vars.insert((e, k), v);
        let takers = self.token_takers.entry(k).or_default();
        for &other in takers.iter() {
            self.defs.axiom(Formula::or(vec![Formula::NotVar(other), Formula::NotVar(v)]));
        }
        takers.push(v);
        v
    }

    /// A semaphore wait `w` finds a unit, counted: the initial units plus the
    /// posts placed before it (that happen: valid) exceed the other successful
    /// waits placed before it. (A wait placed before `w` counts even if it would
    /// not happen; the solver can place it later instead.) No token variables:
    /// the units of a semaphore are interchangeable.
    pub(super) fn sem_unit(&mut self, w: Ev, sem: u64) -> Formula {
        let init = self.sem_initial(sem);
        let mut terms = Vec::new();
        for p in self.sem_ops(sem, true) {
            if p != w {
                terms.push(Formula::and(vec![Formula::Before(p, w), self.validity(p)]));
            }
        }
        let others: Vec<Ev> = self.sem_ops(sem, false).into_iter().filter(|x| *x != w).collect();
        // posts before − (others − others after) ≥ 1 − init
        let need = 1 - init + others.len() as i64;
        terms.extend(others.into_iter().map(|x| Formula::Before(w, x)));
        at_least(terms, need)
    }

    /// Every unit of `sem` made before `x` (the event that finds none, or the
    /// cut) was taken before `x` by a successful wait that happens, counted:
    /// those waits outnumber the initial units plus the posts before `x`.
    pub(super) fn units_gone(&mut self, sem: u64, x: Ev) -> Formula {
        let init = self.sem_initial(sem);
        let posts: Vec<Ev> = self.sem_ops(sem, true).into_iter().filter(|p| *p != x).collect();
        let mut terms = Vec::new();
        for w in self.sem_ops(sem, false) {
            if w != x {
                terms.push(Formula::and(vec![Formula::Before(w, x), self.validity(w), self.observation(w)]));
            }
        }
        // waits before ≥ init + (posts − posts after)
        let need = init + posts.len() as i64;
        terms.extend(posts.into_iter().map(|p| Formula::Before(x, p)));
        at_least(terms, need)
    }

    /// The units semaphore `sem` had before its first operation in the trace.
    fn sem_initial(&self, sem: u64) -> i64 {
        self.trace.sem_initial.get(&sem).copied().unwrap_or(0).min(u32::MAX as u128) as i64
    }

    /// The posts (`posts`) or the successful waits of semaphore `sem`.
    fn sem_ops(&self, sem: u64, posts: bool) -> Vec<Ev> {
        (0..self.trace.len())
            .filter(|e| match self.trace.events[*e].op {
                Op::SemPost { sem: s } => posts && s == sem,
                Op::SemWait { sem: s, .. } => !posts && s == sem,
                _ => false,
            })
            .collect()
    }

    /// The wait-return `e` is woken by at most one of the signals whose
    /// variables are `vars` (asserted once per event).
    fn take_one(&mut self, e: Ev, vars: Vec<usize>) {
        if vars.len() > 1 && self.one_token.insert(e) {
            self.defs.axiom(Formula::AtMost(vars, 1));
        }
    }

    /// At `x` (an event of thread `me`, or the cut), another thread holds
    /// `mutex` in a way that excludes an acquisition by `me` (`shared`: a
    /// reader's, which only a writer excludes).
    pub(super) fn held_at(&mut self, me: Tid, x: Ev, mutex: u64, shared: bool) -> Formula {
        let pairs = self.lock_pairs.get(&mutex).cloned().unwrap_or_default();
        let mut alts = Vec::new();
        for (l, u) in pairs {
            if self.trace.events[l].thread == me || (shared && self.shared(l)) {
                continue;
            }
            let mut parts = vec![self.validity(l), Formula::Before(l, x)];
            // A wait's return takes the mutex back only once woken (or timed
            // out). (Not the whole observation: a lock's fixes its place in
            // the mutex's order, which the querying thread may change.)
            if matches!(self.trace.events[l].op, Op::WaitReturn { .. }) {
                parts.push(self.condition(l));
            }
            parts.extend(u.map(|u| Formula::Before(x, u)));
            alts.push(Formula::and(parts));
        }
        Formula::or(alts)
    }

    /// No other thread holds `mutex` at `e`: each of their critical sections
    /// starts after `e` or ends before it.
    pub(super) fn free(&self, e: Ev, mutex: u64) -> Formula {
        let me = self.trace.events[e].thread;
        let pairs = self.lock_pairs.get(&mutex).map(Vec::as_slice).unwrap_or(&[]);
        let sections = pairs.iter().filter(|(l, _)| self.trace.events[*l].thread != me);
        Formula::and(
            sections
                .map(|(l, u)| match u {
                    Some(u) => Formula::or(vec![Formula::Before(e, *l), Formula::Before(*u, e)]),
                    None => Formula::Before(e, *l),
                })
                .collect(),
        )
    }
}

/// At least `k` of `terms` hold.
fn at_least(terms: Vec<Formula>, k: i64) -> Formula {
    if k <= 0 {
        Formula::True
    } else if k as usize > terms.len() {
        Formula::False
    } else {
        Formula::AtLeast(terms, k as u32)
    }
}
