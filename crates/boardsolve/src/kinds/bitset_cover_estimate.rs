//! Which of `bitmask` and `dlx` `auto` runs on a plain cover: the work of each one's tree,
//! estimated by Knuth's random probes (a path from the root, each node weighted by the
//! product of the branching degrees above it), on the same bitsets.
//!
//! `bitmask` branches on the first uncovered item of its order and checks every option of
//! that item's group; `dlx` branches on the item with the fewest options left (as found at
//! each probed node by counting them) and pays an update for each link it removes. The two
//! trees differ, and so do their costs a node: each estimate is turned into nanoseconds
//! with costs measured on this project's benchmarks (pentominoes, N-Queens, dominoes,
//! Langford pairs), so the comparison is between times, not node counts.

use super::{Bits, clashes, done};
use crate::util::rng::Rng;

/// Nanoseconds a `bitmask` node, and a group option it checks.
const BITMASK_NODE_NS: f64 = 6.0;
const BITMASK_CHECK_NS: f64 = 1.0;
/// Nanoseconds a `dlx` node, and an update (a link removed or restored).
const DLX_NODE_NS: f64 = 25.0;
const DLX_UPDATE_NS: f64 = 2.7;

/// Probes at least, and at most.
const MIN_PROBES: usize = 32;
const MAX_PROBES: usize = 4096;
/// The probing stops once its own checks reach this share of the smaller estimate's (in
/// the same nanoseconds), or this many checks in all.
const PROBE_SHARE: f64 = 0.01;
const MAX_PROBE_CHECKS: u64 = 20_000_000;

/// The estimated nanoseconds of a whole search by each strategy, on one thread.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    pub bitmask_ns: f64,
    pub dlx_ns: f64,
}

impl<const W: usize> Bits<W> {
    /// Every option containing each item position (primary and secondary): indices into
    /// `bits`.
    fn by_item(&self, items: usize) -> Vec<Vec<u32>> {
        let mut by = vec![Vec::new(); items];
        for (k, o) in self.bits.iter().enumerate() {
            for (w, &word) in o.iter().enumerate() {
                let mut rest = word;
                while rest != 0 {
                    by[w * 64 + rest.trailing_zeros() as usize].push(k as u32);
                    rest &= rest - 1;
                }
            }
        }
        by
    }
}

fn size<const W: usize>(o: &[u64; W]) -> u64 {
    o.iter().map(|w| u64::from(w.count_ones())).sum()
}

/// Estimate both searches of `bits` (`items` item positions in all).
pub fn estimate<const W: usize>(bits: &Bits<W>, items: usize) -> Estimate {
    let by_item = bits.by_item(items);
    let primary: Vec<usize> = (0..items)
        .filter(|&i| bits.primary[i / 64] >> (i % 64) & 1 == 1)
        .collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut bitmask, mut dlx) = (0.0f64, 0.0f64);
    let mut checks = 0u64;
    let mut probes = 0;
    let mut ok: Vec<u32> = Vec::new();
    let mut live = vec![0u32; items];
    while probes < MAX_PROBES {
        // One probe of each tree.
        let mut covered = [0u64; W];
        let mut weight = 1.0f64;
        while !done(&covered, &bits.primary) {
            bitmask += weight * BITMASK_NODE_NS;
            let item = bits.first_open(&covered);
            let (a, b) = (bits.first[item] as usize, bits.first[item + 1] as usize);
            bitmask += weight * (b - a) as f64 * BITMASK_CHECK_NS;
            checks += (b - a) as u64;
            ok.clear();
            ok.extend(
                (a..b)
                    .filter(|&k| !clashes(&bits.bits[k], &covered))
                    .map(|k| k as u32),
            );
            if ok.is_empty() {
                break;
            }
            weight *= ok.len() as f64;
            let pick = &bits.bits[ok[rng.below(ok.len())] as usize];
            (0..W).for_each(|w| covered[w] |= pick[w]);
        }
        let mut covered = [0u64; W];
        let mut weight = 1.0f64;
        while !done(&covered, &bits.primary) {
            dlx += weight * DLX_NODE_NS;
            // The options left of each uncovered primary item; the fewest first.
            let mut best = usize::MAX;
            for &i in &primary {
                if covered[i / 64] >> (i % 64) & 1 == 1 {
                    continue;
                }
                checks += by_item[i].len() as u64;
                live[i] = by_item[i]
                    .iter()
                    .filter(|&&k| !clashes(&bits.bits[k as usize], &covered))
                    .count() as u32;
                if best == usize::MAX || live[i] < live[best] {
                    best = i;
                }
            }
            ok.clear();
            ok.extend(
                by_item[best]
                    .iter()
                    .copied()
                    .filter(|&k| !clashes(&bits.bits[k as usize], &covered)),
            );
            // Covering `best` unlinks each of its options from its other items.
            let cover: u64 = ok.iter().map(|&k| size(&bits.bits[k as usize]) - 1).sum();
            if ok.is_empty() {
                break;
            }
            let chosen = ok[rng.below(ok.len())] as usize;
            let pick = &bits.bits[chosen];
            // Choosing an option covers its other items: each of their options left loses
            // its other links. Every sibling costs about as much.
            let mut commit = 0u64;
            for (w, &word) in pick.iter().enumerate() {
                let mut rest = word;
                while rest != 0 {
                    let j = w * 64 + rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if j == best {
                        continue;
                    }
                    checks += by_item[j].len() as u64;
                    commit += by_item[j]
                        .iter()
                        .filter(|&&k| k as usize != chosen)
                        .filter(|&&k| !clashes(&bits.bits[k as usize], &covered))
                        .map(|&k| size(&bits.bits[k as usize]) - 1)
                        .sum::<u64>();
                }
            }
            dlx += weight * (cover + ok.len() as u64 * commit) as f64 * DLX_UPDATE_NS;
            weight *= ok.len() as f64;
            (0..W).for_each(|w| covered[w] |= pick[w]);
        }
        probes += 1;
        if checks >= MAX_PROBE_CHECKS {
            break;
        }
        if probes >= MIN_PROBES && probes.is_power_of_two() {
            let smaller = bitmask.min(dlx) / probes as f64;
            if checks as f64 * BITMASK_CHECK_NS >= PROBE_SHARE * smaller {
                break;
            }
        }
    }
    Estimate {
        bitmask_ns: bitmask / probes as f64,
        dlx_ns: dlx / probes as f64,
    }
}
