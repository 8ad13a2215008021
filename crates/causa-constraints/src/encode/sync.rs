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
                Op::Signal { cond: c, .. } if c == cond => Some(self.wake_var(ret, Token::Event(s))),
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
                    let taken = Formula::Var(self.wake_var(r, Token::Event(s)));
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

    /// The variable "`e` takes token `k`". A token is taken at most once (a
    /// `signal` wakes one waiter, a post's unit goes to one wait): each new
    /// variable adds that axiom against the token's earlier variables.
    pub(super) fn wake_var(&mut self, e: Ev, k: Token) -> usize {
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

    /// A semaphore wait takes one unit: an initial one, or one a post made before it.
    pub(super) fn sem_unit(&mut self, w: Ev, sem: u64) -> Formula {
        let mut alts = Vec::new();
        let mut vars = Vec::new();
        for k in self.sem_tokens(sem) {
            let var = self.wake_var(w, k);
            vars.push(var);
            alts.push(match k {
                Token::Initial(..) => Formula::Var(var),
                Token::Event(p) => Formula::and(vec![Formula::Var(var), Formula::Before(p, w), self.validity(p)]),
            });
        }
        self.take_one(w, vars);
        Formula::or(alts)
    }

    /// The units of semaphore `sem`: its initial ones (at most 64) and its posts.
    fn sem_tokens(&self, sem: u64) -> Vec<Token> {
        let init = self.trace.sem_initial.get(&sem).copied().unwrap_or(0).min(64) as u32;
        let posts = (0..self.trace.len())
            .filter(|p| matches!(self.trace.events[*p].op, Op::SemPost { sem: s } if s == sem))
            .map(Token::Event);
        (0..init).map(|k| Token::Initial(sem, k)).chain(posts).collect()
    }

    /// Every unit of `sem` made before `x` (the event that finds none, or the
    /// cut) was taken before `x` by another successful wait.
    pub(super) fn units_gone(&mut self, sem: u64, x: Ev) -> Formula {
        let takers: Vec<Ev> = (0..self.trace.len())
            .filter(|w| *w != x && matches!(self.trace.events[*w].op, Op::SemWait { sem: s, .. } if s == sem))
            .collect();
        let mut parts = Vec::new();
        for k in self.sem_tokens(sem) {
            let mut alts = match k {
                Token::Event(p) if p == x => continue,
                Token::Event(p) => vec![Formula::Before(x, p)],
                Token::Initial(..) => Vec::new(),
            };
            for &w in &takers {
                let taken = Formula::Var(self.wake_var(w, k));
                alts.push(Formula::and(vec![taken, Formula::Before(w, x), self.validity(w), self.observation(w)]));
            }
            parts.push(Formula::or(alts));
        }
        Formula::and(parts)
    }

    /// `e` takes at most one of the tokens `vars` (asserted once per event).
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

/// Something one event may take at most once: a signal's wake-up, a post's
/// unit, or one of a semaphore's initial units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Token {
    Event(Ev),
    Initial(u64, u32),
}
