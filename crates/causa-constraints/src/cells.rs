//! Memory locations for the model. A scalar access (a load, a store, an atomic
//! operation) is one location, named by its address. A bulk operation
//! (`memcpy`, `memset` on shared memory) covers many bytes; it is split into
//! the locations the scalar accesses use, and the bytes no scalar access
//! touches into pieces cut at every boundary any access uses and at every
//! multiple of 8. Two operations on the same bytes therefore always name the
//! same locations, unless scalar accesses of different sizes overlap (a union,
//! a byte-wise look at an int), which [`Layout::mixed`] reports.

use causa_core::collections::HashSet;
use causa_core::{BulkAccess, Event, EventKind};
use std::collections::{BTreeMap, BTreeSet};

/// The access boundaries of one execution.
#[derive(Debug, Default)]
pub struct Layout {
    /// Scalar accesses: start → end (exclusive).
    scalars: BTreeMap<u64, u64>,
    /// Every start and end of an access.
    cuts: BTreeSet<u64>,
    /// Some accesses overlap without coinciding.
    pub mixed: bool,
}

impl Layout {
    pub fn new(events: &[Event], bulk: &[BulkAccess]) -> Layout {
        let in_bulk: HashSet<usize> = bulk.iter().map(|b| b.event).collect();
        let mut l = Layout::default();
        for (i, e) in events.iter().enumerate() {
            let scalar = matches!(e.kind, EventKind::Read | EventKind::Write | EventKind::Rmw);
            if !scalar || in_bulk.contains(&i) || e.size == 0 {
                continue;
            }
            let end = e.addr + e.size as u64;
            if *l.scalars.entry(e.addr).or_insert(end) != end {
                l.mixed = true;
            }
        }
        let mut prev_end = 0;
        for (&start, &end) in &l.scalars {
            l.mixed |= start < prev_end;
            prev_end = prev_end.max(end);
            l.cuts.insert(start);
            l.cuts.insert(end);
        }
        for b in bulk {
            let ranges =
                b.reads.iter().map(|(a, d)| (*a, d.len())).chain(b.writes.iter().map(|(a, _, d)| (*a, d.len())));
            for (start, len) in ranges {
                for x in [start, start + len as u64] {
                    l.mixed |= l.inside_scalar(x);
                    l.cuts.insert(x);
                }
            }
        }
        l
    }

    /// Whether `x` falls strictly inside a scalar access.
    fn inside_scalar(&self, x: u64) -> bool {
        self.scalars.range(..x).next_back().is_some_and(|(_, end)| *end > x)
    }

    /// The locations `bytes` at `start` cover, with the value each holds
    /// (little-endian).
    pub fn split(&self, start: u64, bytes: &[u8]) -> Vec<(u64, u128)> {
        let end = start + bytes.len() as u64;
        let mut cells = Vec::new();
        let mut p = start;
        while p < end {
            let q = match self.scalars.get(&p) {
                Some(&e) if e <= end => e,
                _ => {
                    let cut = self.cuts.range(p + 1..).next().copied().unwrap_or(end);
                    let word = (p / 8 + 1) * 8;
                    cut.min(word).min(end)
                }
            };
            let chunk = &bytes[(p - start) as usize..(q - start) as usize];
            let value = chunk.iter().rev().take(16).fold(0u128, |v, b| (v << 8) | *b as u128);
            cells.push((p, value));
            p = q;
        }
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(kind: EventKind, addr: u64, size: u32) -> Event {
        Event { thread: 0, kind, loc: 0, addr, size, value: 0, value2: 0, print: 0, atomic: false, section: 0, po: 0 }
    }

    #[test]
    fn bulk_splits_at_scalar_accesses_and_words() {
        // An int array at 0x100 read element-wise, and a 24-byte copy over
        // 0x104..0x11c.
        let events = vec![ev(EventKind::Read, 0x104, 4), ev(EventKind::Read, 0x108, 4), ev(EventKind::Write, 0x110, 8)];
        let bulk = [BulkAccess { event: 3, reads: Vec::new(), writes: vec![(0x104, vec![0; 24], vec![0; 24])] }];
        let l = Layout::new(&events, &bulk);
        assert!(!l.mixed);
        let bytes: Vec<u8> = (1..=24).collect();
        let cells = l.split(0x104, &bytes);
        let locs: Vec<u64> = cells.iter().map(|c| c.0).collect();
        assert_eq!(locs, vec![0x104, 0x108, 0x10c, 0x110, 0x118]);
        assert_eq!(cells[0].1, u32::from_le_bytes([1, 2, 3, 4]) as u128);
        assert_eq!(cells[3].1, u64::from_le_bytes([13, 14, 15, 16, 17, 18, 19, 20]) as u128);
        assert_eq!(cells[4].1, u32::from_le_bytes([21, 22, 23, 24]) as u128);
    }

    #[test]
    fn overlapping_scalars_are_mixed() {
        let events = vec![ev(EventKind::Write, 0x100, 4), ev(EventKind::Read, 0x102, 1)];
        assert!(Layout::new(&events, &[]).mixed);
        let events = vec![ev(EventKind::Write, 0x100, 4), ev(EventKind::Read, 0x100, 2)];
        assert!(Layout::new(&events, &[]).mixed);
        // A copy starting inside an int.
        let events = vec![ev(EventKind::Write, 0x100, 4)];
        let bulk = [BulkAccess { event: 1, reads: vec![(0x102, vec![0; 4])], writes: Vec::new() }];
        assert!(Layout::new(&events, &bulk).mixed);
    }
}
