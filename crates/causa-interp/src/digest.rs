//! State digests for searches that merge equal states (the path-guided
//! search of `causa reproduce`): a 64-bit hash of what decides an
//! execution's future, kept up to date incrementally and only when
//! [`crate::Config::state_digest`] asks for it.
//!
//! A thread's local state (registers, frames, where it is on its path) is a
//! function of the program and of what it observed, so a thread is summed up
//! by a running hash of its visible events (kind, address, size, values).
//! Memory is hashed per object; a write marks its object, and only marked
//! objects are hashed again when the digest is asked for. The digest is the
//! combination of both, independent of thread numbering (threads are keyed by
//! their stable names).
//!
//! Hash collisions or states that differ only in what no digest covers
//! (open files, output) can merge two states that are not equal: a search
//! may then miss a schedule, never report a wrong one (every schedule it
//! reports is replayed).

use crate::memory::{Alloc, Life};

const K: u64 = 0x9E37_79B9_7F4A_7C15;

/// Mix `x` into `h`.
#[inline]
pub(crate) fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(K).rotate_left(31)
}

fn alloc_hash(id: usize, a: &Alloc) -> u64 {
    let life = match a.life {
        Life::Live => 1,
        Life::Freed(_) => 2,
        Life::Dead => 3,
        Life::Exited => 4,
    };
    let mut h = mix(mix(id as u64 + 1, life), a.escaped as u64);
    let mut chunks = a.bytes.chunks_exact(8);
    for c in &mut chunks {
        h = mix(h, u64::from_le_bytes(c.try_into().expect("8 bytes")));
    }
    for (i, b) in chunks.remainder().iter().enumerate() {
        h = mix(h, (*b as u64) << (8 * i) | 0x100 << (8 * i));
    }
    mix(h, a.bytes.len() as u64)
}

/// Incremental digest of memory: one hash per object, re-hashed when marked.
#[derive(Clone, Debug, Default)]
pub(crate) struct MemDigest {
    hashes: Vec<u64>,
    marked: Vec<bool>,
    dirty: Vec<usize>,
    total: u64,
}

impl MemDigest {
    /// Object `id` changed (or was created).
    #[inline]
    pub(crate) fn touch(&mut self, id: usize) {
        if self.marked.len() <= id {
            self.marked.resize(id + 1, false);
        }
        if !self.marked[id] {
            self.marked[id] = true;
            self.dirty.push(id);
        }
    }

    /// The digest of `allocs`, re-hashing the objects touched since the last call.
    pub(crate) fn digest(&mut self, allocs: &[Alloc]) -> u64 {
        for id in std::mem::take(&mut self.dirty) {
            self.marked[id] = false;
            if self.hashes.len() <= id {
                self.hashes.resize(id + 1, 0);
            }
            let h = allocs.get(id).map_or(0, |a| alloc_hash(id, a));
            self.total ^= self.hashes[id] ^ h;
            self.hashes[id] = h;
        }
        self.total
    }
}

impl crate::machine::Machine {
    /// The state digest ([`crate::Config::state_digest`]): memory, what each
    /// thread observed, the program's `rand()` state.
    pub(crate) fn state_digest(&mut self) -> u64 {
        let threads = self.observed.iter().fold(0, |acc, h| acc ^ mix(*h, 1));
        mix(mix(self.mem.digest(), threads), self.rand_state)
    }

    /// Thread `t` performed a visible event: fold it into what `t` observed.
    pub(crate) fn observe(&mut self, t: causa_core::Tid, kind: causa_core::EventKind, ev: [u128; 4]) {
        use std::hash::{Hash, Hasher};
        let i = t as usize;
        while self.observed.len() <= i {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            self.names[self.observed.len()].hash(&mut h);
            self.observed.push(h.finish());
        }
        let mut h = mix(self.observed[i], kind as u64);
        for x in ev {
            h = mix(mix(h, x as u64), (x >> 64) as u64);
        }
        self.observed[i] = h;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::AllocKind;

    fn obj(bytes: &[u8]) -> Alloc {
        Alloc { kind: AllocKind::Null, bytes: bytes.to_vec(), life: Life::Live, escaped: true, read_only: false }
    }

    #[test]
    fn the_digest_follows_the_contents_not_the_history() {
        let mut allocs = vec![obj(&[0; 4]), obj(&[1, 2, 3])];
        let mut d = MemDigest::default();
        d.touch(0);
        d.touch(1);
        let start = d.digest(&allocs);
        allocs[1].bytes[0] = 9;
        d.touch(1);
        let changed = d.digest(&allocs);
        assert_ne!(start, changed);
        allocs[1].bytes[0] = 1;
        d.touch(1);
        assert_eq!(d.digest(&allocs), start, "back to the same contents");
        // Untouched changes are not seen until touched.
        allocs[0].bytes[3] = 5;
        assert_eq!(d.digest(&allocs), start);
        d.touch(0);
        assert_ne!(d.digest(&allocs), start);
        // Equal bytes in different objects do not cancel out.
        let mut e = MemDigest::default();
        let same = vec![obj(&[7]), obj(&[7])];
        e.touch(0);
        e.touch(1);
        assert_ne!(e.digest(&same), 0);
    }
}
