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
use super::layout::{Band, Layout};
use super::split::Split;
use hashbrown::HashTable;
use hashbrown::hash_table::Entry as Slot;

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
    thirds: Thirds,
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

/// A slot of the band as the states take it: its index, the window squares it covers and
/// its price in the band.
#[derive(Clone, Copy)]
struct Candidate {
    slot: usize,
    mask: u32,
    price: f64,
}

impl Program {
    /// The most bytes one program holds under `opts`: per state its entry (24 bytes), its
    /// share of the table (fewer than 3 buckets of 9 bytes; 64 bytes are counted) and its
    /// flag, per choice 8 bytes, every list up to twice its length as it grows.
    pub fn max_bytes(opts: &BandOptions) -> u64 {
        opts.max_states as u64 * (2 * 24 + 64 + 2) + opts.max_choices as u64 * 2 * 8
    }

    pub fn new(lay: &Layout, opts: &BandOptions) -> Program {
        Program {
            dp: States::default(),
            lam_win: vec![0.0; lay.win_bits],
            thirds: Thirds::default(),
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
        let band = &lay.bands[bi];
        let cols = &split.cols[bi * w..(bi + 1) * w];
        self.bound_the_rest(lay, band, cols, split, lam);
        let limit = cap + SLACK;
        self.solves += 1;
        self.start(lay.reach, band, cols, lam);
        let first = band.col_start[0];
        for j in 0..w {
            self.advance_window(lay, bi, j, cols, lam);
            if !self.decide_column(lay, band, j, split, limit) {
                // Too many states to finish: the band's own Lagrangian bound stands.
                split.exact[bi] = false;
                return split.own[bi];
            }
            // Column j - R is final: states leaving one of its squares uncovered die, and so
            // do those the threshold rules out now.
            let bound = self.future[j] + self.negrc[band.col_start[j + 1] - first];
            let low = (1u32 << band.height) - 1;
            self.dp
                .ent
                .retain(|e| e.state & low == 0 && e.pot + bound <= limit);
            self.dp.drop_dominated();
            self.states += self.dp.ent.len() as u64;
        }
        self.finish(split, bi, cap, limit)
    }

    /// What the rest needs at least, from step k on: the multipliers of the columns not yet
    /// in the window (`future[j]`: those of columns j + R + 1 and beyond), and the negative
    /// reduced costs of the candidates to come (`negrc[k - first]`).
    fn bound_the_rest(
        &mut self,
        lay: &Layout,
        band: &Band,
        cols: &[u32],
        split: &Split,
        lam: &[f64],
    ) {
        let (w, r) = (lay.width, lay.reach);
        let first = band.col_start[0];
        let last = band.col_start[w];
        let future = &mut self.future;
        future.clear();
        future.resize(w + 1, 0.0);
        for j in (0..w).rev() {
            future[j] = future[j + 1]
                + if j + r + 1 < w {
                    col_lam(band, cols, lam, w, j + r + 1)
                } else {
                    0.0
                };
        }
        let negrc = &mut self.negrc;
        negrc.clear();
        negrc.resize(last - first + 1, 0.0);
        for k in (first..last).rev() {
            let d = if split.live[k] {
                (split.price[k] - split.lb[k]).min(0.0)
            } else {
                0.0
            };
            negrc[k - first] = negrc[k - first + 1] + d;
        }
    }

    /// The one state before column 0: the window holds columns -R-1..R-1, of which 0..R-1
    /// exist.
    fn start(&mut self, r: usize, band: &Band, cols: &[u32], lam: &[f64]) {
        let w = cols.len();
        let mut init = 0u32;
        let mut pot = 0.0;
        for (c, &bits) in cols.iter().enumerate().take(r) {
            init |= bits << ((c + r + 1) * band.height);
            pot += col_lam(band, cols, lam, w, c);
        }
        self.dp.ent.clear();
        self.dp.arena.clear();
        self.dp.ent.push(Entry {
            state: init,
            trace: NO_TRACE,
            cost: 0.0,
            pot,
        });
    }

    /// The window moves on to column j: column j + R comes into every state, and the
    /// multipliers of the window's squares are looked up for the column's candidates.
    fn advance_window(&mut self, lay: &Layout, bi: usize, j: usize, cols: &[u32], lam: &[f64]) {
        let (w, r) = (lay.width, lay.reach);
        let band = &lay.bands[bi];
        let h = band.height;
        let (inc, inc_lam) = if j + r < w {
            (
                cols[j + r] << (2 * r * h),
                col_lam(band, cols, lam, w, j + r),
            )
        } else {
            (0, 0.0)
        };
        for e in self.dp.ent.iter_mut() {
            e.state = e.state >> h | inc;
            e.pot += inc_lam;
        }
        let wins = &lay.win_sq[(bi * w + j) * lay.win_bits..][..lay.win_bits];
        for (pos, &s) in wins.iter().enumerate() {
            self.lam_win[pos] = lam[s as usize];
        }
        self.thirds.build(&self.lam_win);
    }

    /// Column j's candidates, each taken after every state that can still use it; `false`
    /// when the states or choices outgrow their caps.
    fn decide_column(
        &mut self,
        lay: &Layout,
        band: &Band,
        j: usize,
        split: &Split,
        limit: f64,
    ) -> bool {
        let low = (1u32 << band.height) - 1;
        let first = band.col_start[0];
        // Column j - R's squares the candidates from k on can still cover: a state
        // leaving another one uncovered is dead, and none is made.
        let (from, to) = (band.col_start[j], band.col_start[j + 1]);
        let reach_low = &mut self.reach_low;
        reach_low.clear();
        reach_low.resize(to - from + 1, 0);
        for k in (from..to).rev() {
            let m = if split.live[k] {
                lay.steps[k].mask & low
            } else {
                0
            };
            reach_low[k - from] = reach_low[k + 1 - from] | m;
        }
        self.dp.rehash();
        for k in from..to {
            if !split.live[k] {
                continue;
            }
            let c = Candidate {
                slot: k,
                mask: lay.steps[k].mask,
                price: split.price[k],
            };
            let bound = self.future[j] + self.negrc[k + 1 - first];
            // (A dead state's children are dead too: k does not cover what it lacks.)
            let dead_after = low & !self.reach_low[k + 1 - from];
            self.dp.take(c, bound, dead_after, limit, &self.thirds);
            if self.dp.ent.len() > self.max_states || self.dp.arena.len() > self.max_choices {
                return false;
            }
        }
        true
    }

    /// The cheapest state with nothing left uncovered at the right edge: its candidates
    /// marked taken, and its cost, or the band's bound when none is that cheap.
    fn finish(&self, split: &mut Split, bi: usize, cap: f64, limit: f64) -> f64 {
        // Whatever is still open at the right edge stays uncovered.
        let Some(best) = self
            .dp
            .ent
            .iter()
            .filter(|e| e.state == 0)
            .min_by(|a, b| a.cost.total_cmp(&b.cost))
            .copied()
        else {
            split.exact[bi] = false;
            return limit.max(split.own[bi]);
        };
        split.exact[bi] = best.cost <= cap;
        let mut t = best.trace;
        while t != NO_TRACE {
            let (up, k) = self.dp.arena[t as usize];
            split.taken[k as usize] = true;
            t = up;
        }
        best.cost.min(limit)
    }
}

/// The multipliers of band `band`'s uncovered squares in column j.
#[inline]
fn col_lam(band: &Band, cols: &[u32], lam: &[f64], w: usize, j: usize) -> f64 {
    let mut bits = cols[j];
    let mut l = 0.0;
    while bits != 0 {
        let b = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        l += lam[(band.top + b) * w + j];
    }
    l
}

/// The multipliers of any set of window squares in three lookups, one a third of the
/// window, each table built from its smaller entries (thirds of a 5 x 5 window make 1,024
/// entries a column to build, where halves would make 12,288).
#[derive(Default)]
struct Thirds {
    tabs: [Vec<f64>; 3],
    third: u32,
    mask: u32,
}

impl Thirds {
    /// The tables of the window whose squares have multipliers `lam_win`.
    fn build(&mut self, lam_win: &[f64]) {
        let win_bits = lam_win.len();
        let third = win_bits.div_ceil(3);
        self.third = third as u32;
        self.mask = (1u32 << third) - 1;
        for (i, tab) in self.tabs.iter_mut().enumerate() {
            let from = (i * third).min(win_bits);
            let bits = (win_bits - from).min(third);
            tab.clear();
            tab.push(0.0);
            for x in 1usize..1 << bits {
                let v = tab[x & (x - 1)] + lam_win[from + x.trailing_zeros() as usize];
                tab.push(v);
            }
        }
    }

    /// The multipliers of the window squares in `hit`.
    #[inline(always)]
    fn sum(&self, hit: u32) -> f64 {
        let [a, b, c] = &self.tabs;
        // SAFETY: a window mask has `win_bits` bits; its thirds index tables of 2^third
        // entries (the last one's, of what is left).
        unsafe {
            *a.get_unchecked((hit & self.mask) as usize)
                + *b.get_unchecked((hit >> self.third & self.mask) as usize)
                + *c.get_unchecked((hit >> (2 * self.third)) as usize)
        }
    }
}

/// The states of one band's program, a table from state to entry, and the choices behind
/// each entry (a tree of (parent, slot) links).
#[derive(Default)]
struct States {
    ent: Vec<Entry>,
    /// Each state beside its entry's index: a look-up compares no entry.
    table: HashTable<(u32, u32)>,
    arena: Vec<(u32, u32)>,
    dominated: Vec<bool>,
}

/// The table's hash of a state: the product's high bits, which every bit of the state stirs
/// (the low bits of a state are mostly alike), rotated down to where the table takes its
/// bucket from.
#[inline(always)]
fn hash(state: u32) -> u64 {
    (u64::from(state) | 1 << 40)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(32)
}

fn hash_of(&(state, _): &(u32, u32)) -> u64 {
    hash(state)
}

impl States {
    /// Candidate `c` taken after each state that has room for it under `limit` (the rest
    /// needing at least `bound`) and keeps no square of `dead_after` uncovered: the states
    /// it makes, or makes cheaper.
    #[inline]
    fn take(&mut self, c: Candidate, bound: f64, dead_after: u32, limit: f64, thirds: &Thirds) {
        let count = self.ent.len();
        for i in 0..count {
            let e = self.ent[i];
            let hit = e.state & c.mask;
            if hit == 0 && c.price >= 0.0 {
                continue;
            }
            let state = e.state & !c.mask;
            if state & dead_after != 0 {
                continue;
            }
            let p = e.pot + c.price - thirds.sum(hit);
            if p + bound > limit {
                continue;
            }
            let cost = e.cost + c.price;
            let new = Entry {
                state,
                trace: self.arena.len() as u32,
                cost,
                pot: p,
            };
            match self.table.entry(hash(state), |&(s, _)| s == state, hash_of) {
                Slot::Occupied(o) => {
                    let at = o.get().1 as usize;
                    if self.ent[at].cost <= cost {
                        continue;
                    }
                    self.ent[at] = new;
                }
                Slot::Vacant(v) => {
                    v.insert((state, self.ent.len() as u32));
                    self.ent.push(new);
                }
            }
            self.arena.push((e.trace, c.slot as u32));
        }
    }

    /// The entry of `state`, if it has one.
    #[inline]
    fn find(&self, state: u32) -> Option<usize> {
        self.table
            .find(hash(state), |&(s, _)| s == state)
            .map(|&(_, at)| at as usize)
    }

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
                if self
                    .find(e.state ^ b)
                    .is_some_and(|at| self.ent[at].cost <= e.cost)
                {
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

    /// Rebuilds the table of states (after the window moved, or the entries were
    /// compacted). A table much larger than the states is shrunk: clearing it costs its
    /// size at every column.
    fn rehash(&mut self) {
        self.table.clear();
        let need = self.ent.len().max(256);
        if self.table.capacity() > 8 * need {
            self.table.shrink_to(2 * need, hash_of);
        }
        self.table.reserve(self.ent.len(), hash_of);
        for (i, e) in self.ent.iter().enumerate() {
            self.table
                .insert_unique(hash(e.state), (e.state, i as u32), hash_of);
        }
    }
}
