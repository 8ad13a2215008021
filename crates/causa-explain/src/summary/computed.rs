//! A write of a value computed from data that changed before the write:
//! the stale value, written last, overwrites the fresh one.

use super::*;

/// The failing check reads a value written last by a thread that computed
/// it from its earlier read of other data, while another thread updated
/// that data and wrote the value again in between (a hit ratio computed
/// outside the lock from a copy of the counters): the last write stores a
/// value computed from data as it was before the other's update. In the
/// alternate the other thread's write comes last. The fix: compute and
/// store the value under the lock the update takes.
pub(super) fn stale_write(e: &Explanation) -> Option<String> {
    e.dsp.failing_only.iter().find_map(|g| {
        let (w, fresh) = (g.write?, e.counterpart(g)?.write?);
        if w.0 == fresh.0 || g.bytes.is_some() {
            return None;
        }
        let (pw, pf) = (e.place(w)?, e.place(fresh)?);
        if pf > pw {
            return None;
        }
        let from = e.computed_from.get(&w)?;
        // The latest read the value is computed from that comes before the
        // fresh write, and the other thread's update of what it read
        // between them.
        let (d, update) = from.iter().rev().find_map(|&d| {
            let pd = e.place(d)?;
            if pd > pf {
                return None;
            }
            let i = e.info_of(d);
            let (lo, n) = (i.addr?, i.span.or(i.size)? as u64);
            let update = e.failing.get(pd + 1..pf)?.iter().copied().find(|z| {
                z.0 == fresh.0
                    && matches!(e.info_of(*z).op, "write" | "update")
                    && e.info_of(*z).addr.is_some_and(|a| a >= lo && a < lo + n)
            })?;
            Some((d, update))
        })?;
        let (t, u) = (w.0, fresh.0);
        // A mutex the updater holds at the update, which the writer took
        // last before its read.
        let lock = held_over(e, u, update.1, update.1).into_iter().find_map(|(m, _)| {
            (0..d.1).rev().map(|k| (t, k)).find(|x| e.info_of(*x).op == "lock" && e.info_of(*x).addr == Some(m))
        });
        let fix = match lock {
            Some(l) => format!(
                "Holding `{}` from {} through the write at {} ({}: computing and storing the value under the lock) avoids the failure.",
                e.object(l).unwrap_or_else(|| "the lock".into()),
                e.line(l).unwrap_or_default(),
                e.line(w).unwrap_or_default(),
                line_range(e, l, w)
            ),
            None => format!(
                "Computing and storing the value in one atomic step with the updates of what it is computed from ({}) avoids the failure.",
                line_range(e, d, w)
            ),
        };
        let obj = |x: EventRef| e.named(x, "it");
        Some(format!(
            "{} computes the value it writes to {} at {} from its read of {} at {}; in the failing schedule {} updates {} at {} and writes {} at {} in between, so {}'s write, which comes last, stores a value computed from {} as it was before that update. {fix}",
            who(e, w),
            obj(w),
            e.line(w).unwrap_or_default(),
            obj(d),
            e.line(d).unwrap_or_default(),
            who(e, update),
            obj(update),
            e.line(update).unwrap_or_default(),
            obj(fresh),
            e.line(fresh).unwrap_or_default(),
            who(e, w),
            obj(d),
        ))
    })
}
