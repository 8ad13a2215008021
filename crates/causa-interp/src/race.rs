//! Data races, checked when a visible access executes: another thread parked at
//! a conflicting access to the same bytes (different threads, at least one write,
//! not both atomic) could execute at this very point, so the two accesses race
//! (MCR's race condition O_a = O_b, observed directly). Enabled by
//! `Config::detect_races`; `causa check --races` steers executions into such
//! states with the constraint solver.

use crate::machine::Machine;
use crate::outcome::Stop;
use crate::thread::Pending;
use causa_core::finding::FindingNote;
use causa_core::{BugKind, Tid};
use causa_ir::Op;

/// A memory access a thread is parked at: (address, size, writes, atomic).
pub(crate) fn parked_access(m: &Machine, u: Tid) -> Option<(u64, u64, bool, bool)> {
    if m.threads[u as usize].pending != Pending::Instr {
        return None;
    }
    let (fr, ins) = m.parked_instr(u)?;
    let addr = |op| crate::step::int(&fr.regs, op) as u64;
    match &ins.op {
        Op::Load { addr: a, ty, atomic } => Some((addr(a), ty.store_size(), false, *atomic)),
        Op::Store { addr: a, ty, atomic, .. } => Some((addr(a), ty.store_size(), true, *atomic)),
        Op::Rmw { addr: a, ty, .. } | Op::CmpXchg { addr: a, ty, .. } => Some((addr(a), ty.store_size(), true, true)),
        _ => None,
    }
}

/// Everything thread `u` is parked at accessing: a memory access, or the
/// shared spans of a visible call (`memcpy`, `strlen`, …: the footprint its
/// event will have).
fn parked_accesses(m: &Machine, u: Tid) -> Vec<(u64, u64, bool, bool)> {
    if let Some(a) = parked_access(m, u) {
        return vec![a];
    }
    if m.threads[u as usize].pending != Pending::Instr {
        return Vec::new();
    }
    let Some((fr, ins)) = m.parked_instr(u) else { return Vec::new() };
    let Op::Call { callee: causa_ir::Callee::Direct(f), args, .. } = &ins.op else { return Vec::new() };
    let name = &m.prep.program.functions[*f as usize].name;
    let argv: Vec<u64> = args.iter().map(|a| crate::step::int(&fr.regs, a) as u64).collect();
    crate::shims::libc::string::footprint(m, name, &argv).into_iter().map(|(a, len, w)| (a, len, w, false)).collect()
}

impl Machine {
    /// Thread `t` is about to access `len` bytes at `addr`: report a race with any
    /// other thread parked at a conflicting access.
    pub(crate) fn check_race(&self, t: Tid, addr: u64, len: u64, write: bool, atomic: bool) -> Result<(), Stop> {
        if !self.cfg.detect_races {
            return Ok(());
        }
        for u in 0..self.threads.len() as Tid {
            if u == t {
                continue;
            }
            let parked = parked_accesses(self, u);
            let conflict = parked.into_iter().find(|(b, blen, bwrite, batomic)| {
                let overlap = addr < b.saturating_add(*blen) && *b < addr.saturating_add(len);
                overlap && (write || *bwrite) && !(atomic && *batomic)
            });
            if let (Some((b, _, bwrite, _)), true) = (conflict, self.is_enabled(u)) {
                let word = |w: bool| if w { "write" } else { "read" };
                let message = format!(
                    "data race on {}: {} by thread {} and {} by thread {} can happen at the same time",
                    self.describe_brief(addr),
                    word(write),
                    self.names[t as usize],
                    word(bwrite),
                    self.names[u as usize]
                );
                let note = FindingNote {
                    thread: Some(self.names[u as usize].clone()),
                    message: format!(
                        "{}s {} here, unordered with the access above",
                        word(bwrite),
                        self.describe_brief(b)
                    ),
                    location: self.loc_of(self.parked_instr(u).map_or(causa_ir::NONE, |(_, i)| i.loc)),
                };
                return Err(Stop::Bug { kind: BugKind::DataRace, message, notes: vec![note] });
            }
        }
        Ok(())
    }
}
