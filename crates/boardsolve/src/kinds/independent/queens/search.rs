//! The plain search over one constellation: the inner rows filled with the usual three
//! masks (columns and both diagonals of the queens it placed) down to the deep levels
//! (kernels.rs). The squares the border queens attack come from a per-row table, so the
//! rows of the two side queens are simply left out. It runs from the bottom up, a child is
//! entered only if neither its row nor the next one is already full, and the last six rows
//! are counted at once by sets of permutations ([`last_rows`]), on boards too small for
//! that the last three in closed form without branches. Nodes, as reported to the run in
//! batches, are the queens the search places (the plain search does not count the rows it
//! counts at once). Apart from the deep levels, which hold the processor-specific code, and
//! from the constellations, built once before any search.

use super::super::last_rows::{self, Spacing};
use super::constellations::{Bits, Constellation, MAX_N, blocked_rows};
use super::kernels::{self, DEEP_LEVELS, Deep, Plan, Tail, deep, last_three, last_two};
use crate::engine::Run;

/// Nodes counted locally between reports to the run, so the limits still bite within a
/// sub-problem while the hot loop stays free of engine calls.
const REPORT_EVERY: u64 = 1 << 14;

/// Completions of a constellation without symmetry.
///
/// The search runs from the bottom up: the canonical form puts the border queen nearest a
/// corner on top, so the bottom queen is the more central one and prunes the first rows
/// searched harder (N=14: 6.1 million nodes instead of 9.9 million). The two rows of the
/// side queens are left out altogether, their attacks being in the table already; the
/// diagonals then shift by the distance between consecutive searched rows.
pub(super) fn count_plain(n: usize, c: &Constellation, deep: Deep, run: &mut Run) -> Option<u64> {
    let m = n - 1;
    let flipped = Constellation {
        top: c.bottom,
        bottom: c.top,
        left: (m - c.left as usize) as u8,
        right: (m - c.right as usize) as u8,
        stabiliser: c.stabiliser,
    };
    let blocked = blocked_rows(n, &flipped);
    let rows = (1..m).filter(|&r| r != flipped.left as usize && r != flipped.right as usize);
    let mut plan = Plan {
        blocked: [!0; MAX_N],
        shift: [1; MAX_N],
        levels: 0,
        columns: 0,
        tail: None,
        deep,
    };
    let mut previous = None;
    for row in rows {
        if let Some(p) = previous {
            plan.shift[plan.levels - 1] = (row - p) as u32;
        }
        plan.blocked[plan.levels] = blocked[row];
        plan.levels += 1;
        previous = Some(row);
    }
    // The columns the search fills: all but the border queens' and the two border columns.
    let border = 1 | 1 << m | 1 << c.top | 1 << c.bottom;
    plan.columns = ((1u64 << n) - 1) as Bits & !border;
    if plan.levels > last_rows::ROWS {
        let at = plan.levels - last_rows::ROWS;
        let steps = std::array::from_fn(|j| plan.shift[at + j]);
        let mut reach = [0; last_rows::ROWS];
        for j in 1..last_rows::ROWS {
            reach[j] = reach[j - 1] + steps[j - 1];
        }
        let blocked = std::array::from_fn(|j| plan.blocked[at + j]);
        plan.tail = Some(Tail {
            spacing: Spacing::for_steps(steps),
            blocked,
            reach,
            wide: last_rows::Rows::new(blocked, reach),
        });
    }
    let b = &plan.blocked;
    let sh = &plan.shift;
    let count = match plan.levels {
        0 => 1,
        1 => (!b[0] != 0) as u64,
        2 => last_two(0, 0, 0, [b[0], b[1]], sh[0]),
        3 => last_three(0, 0, 0, [b[0], b[1], b[2]], [sh[0], sh[1]]),
        _ => {
            let mut w = Walker {
                plan: &plan,
                nodes: 0,
                reported: 0,
                stopped: false,
                run,
            };
            let free = !b[0];
            let count = if free == 0 {
                0
            } else if plan.levels > DEEP_LEVELS {
                w.walk(0, 0, 0, 0, free)
            } else {
                let (c, nodes) = kernels::deep(&plan, 0, 0, 0, 0, free);
                w.nodes += nodes;
                c
            };
            if w.stopped || w.run.nodes(w.nodes - w.reported) {
                return None;
            }
            count
        }
    };
    Some(count)
}

/// The recursive part of the plain search, so that the masks live in registers.
struct Walker<'p, 'r, 'a> {
    plan: &'p Plan,
    nodes: u64,
    reported: u64,
    stopped: bool,
    run: &'r mut Run<'a>,
}

impl Walker<'_, '_, '_> {
    /// Completions of levels `level..` (more than `DEEP_LEVELS`) given the masks of the queens
    /// above, already shifted to this level; `free` is the level's free mask, non-zero.
    fn walk(&mut self, level: usize, ld: Bits, rd: Bits, cols: Bits, mut free: Bits) -> u64 {
        let plan = self.plan;
        let s = plan.shift[level];
        let next = plan.blocked[level + 1];
        let mut count = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.nodes += 1;
            let nl = (ld | bit) << s;
            let nr = (rd | bit) >> s;
            let nc = cols | bit;
            let nf = !(nl | nr | nc | next);
            if nf == 0 {
                continue;
            }
            if plan.levels - (level + 1) > DEEP_LEVELS {
                count += self.walk(level + 1, nl, nr, nc, nf);
                if self.stopped {
                    return 0;
                }
            } else {
                let (c, nodes) = deep(plan, level + 1, nl, nr, nc, nf);
                count += c;
                self.nodes += nodes;
            }
        }
        if self.nodes - self.reported >= REPORT_EVERY.min(self.run.nodes_until_check()) {
            self.stopped = self.run.nodes(self.nodes - self.reported);
            self.reported = self.nodes;
        }
        count
    }
}
