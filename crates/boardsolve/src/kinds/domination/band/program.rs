//! One band's covering, solved exactly by a dynamic program along the columns.
//!
//! The candidates go column by column (in a column, top to bottom); a piece reaches at most
//! `R` columns either side (2 for knights), so while column j is decided only the band
//! squares of columns j-R..j+R are open: a state is the set of those still uncovered (at most
//! 5 x 5 bits, in a u32), with the cheapest price that reaches it. Column j-R is final once
//! column j is decided: states leaving a square of it uncovered die. The program is exact:
//! every cover of the band passes through one state a column, and a state keeps the
//! cheapest way to it.
//!
//! Two things keep the states few. A threshold: the node is pruned as soon as the sum of the
//! bands exceeds the room left, so a band only needs solving up to a cap `T_b`; a state whose
//! price plus a lower bound on what it still needs (the multipliers of its uncovered squares
//! and of the columns to come, less the negative reduced costs of the candidates to come:
//! the Lagrangian bound of the rest) exceeds `T_b` is dropped, and a band none of whose
//! states survives is worth `T_b` (every cover of it costs more). And dominance: at each
//! column's end a state is dropped when one with a single uncovered square fewer costs no
//! more (it covers all the first one covers, for no more).

use super::super::options::BandOptions;
use super::layout::Layout;
use super::split::Split;

/// Slack on the threshold: a state is dropped only when it clears the threshold by this
/// much, so rounding never drops one that could reach it.
const SLACK: f64 = 1e-7;

const NO_TRACE: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Entry {
    state: u32,
    /// The last choice on the way here (an index into `arena`), for the optimum's candidates.
    trace: u32,
    cost: f64,
    /// `cost` plus the multipliers of the squares `state` leaves uncovered.
    pot: f64,
}

/// The program with its scratch, kept from one band to the next (no allocation per solve).
pub struct Program {
    dp: States,
    lam_win: Vec<f64>,
    /// The multipliers of any set of the window's squares in a third of it, by third.
    lam_part: [Vec<f64>; 3],
    future: Vec<f64>,
    negrc: Vec<f64>,
    reach_low: Vec<u32>,
    /// States the programs met (statistics).
    pub states: u64,
    /// Bands solved (statistics).
    pub solves: u64,
    /// Beyond these the band gives up and its own Lagrangian bound stands (`bands.*`).
    max_states: usize,
    max_choices: usize,
}

impl Program {
    /// The most bytes one program holds under `opts`: per state its entry (24 bytes), its
    /// table slots (up to 8 of 8 bytes) and its flag, per choice 8 bytes, every list up to
    /// twice its length as it grows.
    pub fn max_bytes(opts: &BandOptions) -> u64 {
        opts.max_states as u64 * (2 * 24 + 64 + 2) + opts.max_choices as u64 * 2 * 8
    }

    pub fn new(lay: &Layout, opts: &BandOptions) -> Program {
        Program {
            dp: States::default(),
            lam_win: vec![0.0; lay.win_bits],
            lam_part: Default::default(),
            future: Vec::new(),
            negrc: Vec::new(),
            reach_low: Vec::new(),
            states: 0,
            solves: 0,
            max_states: opts.max_states,
            max_choices: opts.max_choices,
        }
    }

    /// Band `bi`'s cheapest cover at the prices of `split`, or a lower bound on it no
    /// smaller than `cap` when it costs more than that. Marks the optimum's slots in
    /// `split.taken`.
    pub fn solve(
        &mut self,
        lay: &Layout,
        split: &mut Split,
        bi: usize,
        lam: &[f64],
        cap: f64,
    ) -> f64 {
        let w = lay.width;
        let r = lay.reach;
        let Layout {
            bands,
            steps,
            win_sq,
            win_bits,
            ..
        } = lay;
        let Split {
            price,
            lb,
            live,
            taken,
            cols,
            own,
            exact,
            ..
        } = split;
        let Program {
            dp,
            lam_win,
            lam_part,
            future,
            negrc,
            reach_low,
            states,
            solves,
            max_states,
            max_choices,
        } = self;
        let band = &bands[bi];
        let h = band.height;
        let cols = &cols[bi * w..(bi + 1) * w];
        let col_lam = |j: usize| -> f64 {
            let mut bits = cols[j];
            let mut l = 0.0;
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                l += lam[(band.top + b) * w + j];
            }
            l
        };
        // What the rest needs at least, from step k on: the multipliers of the columns not
        // yet in the window, and the negative reduced costs of the candidates to come.
        // `future[j]`: multipliers of columns j + R + 1 and beyond.
        let first = band.col_start[0];
        let last = band.col_start[w];
        future.clear();
        future.resize(w + 1, 0.0);
        for j in (0..w).rev() {
            future[j] = future[j + 1]
                + if j + r + 1 < w {
                    col_lam(j + r + 1)
                } else {
                    0.0
                };
        }
        negrc.clear();
        negrc.resize(last - first + 1, 0.0);
        for k in (first..last).rev() {
            let d = if live[k] {
                (price[k] - lb[k]).min(0.0)
            } else {
                0.0
            };
            negrc[k - first] = negrc[k - first + 1] + d;
        }
        let limit = cap + SLACK;
        *solves += 1;
        dp.ent.clear();
        dp.arena.clear();
        // Before column 0: the window holds columns -R-1..R-1, of which 0..R-1 exist.
        let mut init = 0u32;
        let mut pot = 0.0;
        for (c, &bits) in cols.iter().enumerate().take(r) {
            init |= bits << ((c + r + 1) * h);
            pot += col_lam(c);
        }
        dp.ent.push(Entry {
            state: init,
            trace: NO_TRACE,
            cost: 0.0,
            pot,
        });
        let low = (1u32 << h) - 1;
        for j in 0..w {
            // The window moves on: column j + R comes in.
            let (inc, inc_lam) = if j + r < w {
                (cols[j + r] << (2 * r * h), col_lam(j + r))
            } else {
                (0, 0.0)
            };
            for e in dp.ent.iter_mut() {
                e.state = e.state >> h | inc;
                e.pot += inc_lam;
            }
            let wins = &win_sq[(bi * w + j) * *win_bits..][..*win_bits];
            for (pos, &s) in wins.iter().enumerate() {
                lam_win[pos] = lam[s as usize];
            }
            // The multipliers of any set of window squares in three lookups, one a third of
            // the window, each table built from its smaller entries (thirds of a 5 x 5
            // window make 1,024 entries a column to build, where halves would make 12,288).
            let third = win_bits.div_ceil(3);
            let part_mask = (1u32 << third) - 1;
            for (i, tab) in lam_part.iter_mut().enumerate() {
                let from = (i * third).min(*win_bits);
                let bits = (*win_bits - from).min(third);
                tab.clear();
                tab.push(0.0);
                for x in 1usize..1 << bits {
                    let v = tab[x & (x - 1)] + lam_win[from + x.trailing_zeros() as usize];
                    tab.push(v);
                }
            }
            let [lam_a, lam_b, lam_c] = &*lam_part;
            // Column j - R's squares the candidates from k on can still cover: a state
            // leaving another one uncovered is dead, and none is made.
            let (from, to) = (band.col_start[j], band.col_start[j + 1]);
            reach_low.clear();
            reach_low.resize(to - from + 1, 0);
            for k in (from..to).rev() {
                let m = if live[k] { steps[k].mask & low } else { 0 };
                reach_low[k - from] = reach_low[k + 1 - from] | m;
            }
            dp.rehash();
            for k in from..to {
                if !live[k] {
                    continue;
                }
                let mask = steps[k].mask;
                let price = price[k];
                let bound = future[j] + negrc[k + 1 - first];
                // (A dead state's children are dead too: k does not cover what it lacks.)
                let dead_after = low & !reach_low[k + 1 - from];
                let count = dp.ent.len();
                for i in 0..count {
                    let e = dp.ent[i];
                    let hit = e.state & mask;
                    if hit == 0 && price >= 0.0 {
                        continue;
                    }
                    let state = e.state & !mask;
                    if state & dead_after != 0 {
                        continue;
                    }
                    // SAFETY: a window mask has `win_bits` bits; its thirds index tables of
                    // 2^third entries (the last one's, of what is left).
                    let gain = unsafe {
                        *lam_a.get_unchecked((hit & part_mask) as usize)
                            + *lam_b.get_unchecked((hit >> third & part_mask) as usize)
                            + *lam_c.get_unchecked((hit >> (2 * third)) as usize)
                    };
                    let p = e.pot + price - gain;
                    if p + bound > limit {
                        continue;
                    }
                    let cost = e.cost + price;
                    let slot = dp.find(state);
                    let at = dp.at(slot);
                    if at != 0 && dp.ent[at as usize - 1].cost <= cost {
                        continue;
                    }
                    dp.arena.push((e.trace, k as u32));
                    let trace = (dp.arena.len() - 1) as u32;
                    let new = Entry {
                        state,
                        trace,
                        cost,
                        pot: p,
                    };
                    if at != 0 {
                        dp.ent[at as usize - 1] = new;
                    } else {
                        dp.ent.push(new);
                        dp.table[slot] = u64::from(state) << 32 | dp.ent.len() as u64;
                        if dp.ent.len() * 2 > dp.table.len() {
                            dp.rehash();
                        }
                    }
                }
                if dp.ent.len() > *max_states || dp.arena.len() > *max_choices {
                    // Too many states to finish: the band's own Lagrangian bound stands.
                    exact[bi] = false;
                    return own[bi];
                }
            }
            // Column j - R is final: states leaving one of its squares uncovered die, and so
            // do those the threshold rules out now.
            let bound = future[j] + negrc[band.col_start[j + 1] - first];
            dp.ent
                .retain(|e| e.state & low == 0 && e.pot + bound <= limit);
            dp.drop_dominated();
            *states += dp.ent.len() as u64;
        }
        // Whatever is still open at the right edge stays uncovered.
        let Some(best) = dp
            .ent
            .iter()
            .filter(|e| e.state == 0)
            .min_by(|a, b| a.cost.total_cmp(&b.cost))
            .copied()
        else {
            exact[bi] = false;
            return limit.max(own[bi]);
        };
        exact[bi] = best.cost <= cap;
        let mut t = best.trace;
        while t != NO_TRACE {
            let (up, k) = dp.arena[t as usize];
            taken[k as usize] = true;
            t = up;
        }
        best.cost.min(limit)
    }
}

/// The states of one band's program, a table from state to entry, and the choices behind
/// each entry (a tree of (parent, slot) links).
#[derive(Default)]
struct States {
    ent: Vec<Entry>,
    /// Open addressing: a state in the high half, its entry's index plus 1 in the low half
    /// (0: empty).
    table: Vec<u64>,
    arena: Vec<(u32, u32)>,
    dominated: Vec<bool>,
    /// 64 minus the log of the table's size.
    shift: u32,
}

impl States {
    /// Drops every state for which one with a single uncovered square fewer costs no
    /// more (it covers all the first one covers, for no more): about two thirds of the
    /// states at the middle column of knights 16x16 bands.
    fn drop_dominated(&mut self) {
        self.rehash();
        self.dominated.clear();
        for e in &self.ent {
            let mut bits = e.state;
            let mut dominated = false;
            while bits != 0 {
                let b = bits & bits.wrapping_neg();
                bits ^= b;
                let at = self.at(self.find(e.state ^ b));
                if at != 0 && self.ent[at as usize - 1].cost <= e.cost {
                    dominated = true;
                    break;
                }
            }
            self.dominated.push(dominated);
        }
        let mut keep = 0;
        for i in 0..self.ent.len() {
            if !self.dominated[i] {
                self.ent[keep] = self.ent[i];
                keep += 1;
            }
        }
        self.ent.truncate(keep);
    }

    /// Rebuilds the table of states (after the window moved, or to grow it).
    fn rehash(&mut self) {
        let want = (self.ent.len() * 4).next_power_of_two().max(1024);
        if self.table.len() != want {
            self.table = vec![0; want];
            self.shift = 64 - want.trailing_zeros();
        } else {
            self.table.fill(0);
        }
        for i in 0..self.ent.len() {
            let state = self.ent[i].state;
            let slot = self.find(state);
            self.table[slot] = u64::from(state) << 32 | (i as u64 + 1);
        }
    }

    /// The entry (plus 1) at a table slot, 0 when the slot is empty.
    #[inline]
    fn at(&self, slot: usize) -> u32 {
        self.table[slot] as u32
    }

    /// The table slot of `state`: where it is, or the empty slot where it would go.
    #[inline]
    fn find(&self, state: u32) -> usize {
        let mask = self.table.len() - 1;
        // The product's high bits: every bit of the state stirs them (the low bits of a
        // state are mostly alike).
        let mut slot = ((u64::from(state) | 1 << 40).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            >> self.shift) as usize;
        loop {
            // The state beside its entry's index: no look into the entries to compare.
            let t = self.table[slot];
            if t as u32 == 0 || (t >> 32) as u32 == state {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
    }
}
