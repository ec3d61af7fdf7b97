//! The band bound: a lower bound stronger than the linear relaxation, for `bnb`.
//!
//! The linear relaxation of knight domination stays far below the optimum on large boards
//! (20x20 plain: 53.4 against 62), and the search has to close that gap node by node. Most of
//! the gap sits along the edges, where a piece covers fewer squares than in the middle and
//! fractional pieces make up for it. The band bound solves pieces of the board exactly.
//!
//! The rows are cut into bands of at most 5 rows. Band b asks for the cheapest set of allowed
//! squares (candidates) that covers the uncovered squares of b, each candidate at a price
//! `w_b(c)`. The prices of one candidate split its cost between the bands it reaches:
//! `sum over b of w_b(c) = 1`. Any covering placement P of the whole board covers every
//! band, so `|P| = sum_b sum_{c in P} w_b(c) >= sum_b OPT_b(w_b)`: the sum of the bands'
//! optima is a lower bound for every split (Lagrangian decomposition). The split starts from
//! the node's Lagrange multipliers (each candidate's cost shared in proportion to the
//! multipliers of the squares it covers in each band, which makes the sum of the bands'
//! own Lagrangian bounds the node's bound exactly), so the band bound starts at least at
//! the node's Lagrangian value; subgradient steps on the split then raise it (a candidate
//! taken by one band's optimum and not by another's gets dearer in the first).
//!
//! One band's covering is solved exactly by a dynamic program along the columns. The
//! candidates go column by column (in a column, top to bottom); a piece reaches at most `R`
//! columns either side (2 for knights), so while column j is decided only the band squares
//! of columns j-R..j+R are open: a state is the set of those still uncovered (at most
//! 5 x 5 bits, in a u32), with the cheapest price that reaches it. Column j-R is final once
//! column j is decided: states leaving a square of it uncovered die.
//!
//! Two things keep the states few. A threshold: the node is pruned as soon as the sum of the
//! bands exceeds the room left, so a band only needs solving up to a cap `T_b` (first its
//! share of the deficit, then, if it reached that, all the room the other bands leave); a
//! state whose price plus a lower bound on what it still needs (the multipliers of its
//! uncovered squares and of the columns to come, less the negative reduced costs of the
//! candidates to come: the Lagrangian bound of the rest) exceeds `T_b` is dropped, and a
//! band none of whose states survives is worth `T_b`. And dominance: at each column's end a
//! state is dropped when one with a single uncovered square fewer costs no more. Even so a
//! program keeps a few hundred states a column (the multipliers leave many candidates with
//! reduced costs near 0, and partial covers built of them tie), and a band bound costs about
//! a millisecond on 14x14, twenty times a `bnb` node.

use super::model::Model;
use super::options::BandOptions;

/// How far a piece may reach, in rows and in columns, for the bands to apply.
const MAX_REACH: usize = 2;
/// Slack on the threshold: a state is dropped only when it clears the threshold by this
/// much, so rounding never drops one that could reach it.
const SLACK: f64 = 1e-7;

/// A candidate as one band sees it.
#[derive(Clone, Copy)]
struct Step {
    sq: u32,
    /// The band squares it covers, as bits of the window at its column.
    mask: u32,
}

struct Band {
    top: usize,
    height: usize,
    /// The steps of column j: `col_start[j]..col_start[j + 1]` (indices into `steps`, which
    /// are also the steps' slots in the split).
    col_start: Vec<usize>,
}

#[derive(Clone, Copy)]
struct Entry {
    state: u32,
    /// The last choice on the way here (an index into `arena`), for the optimum's candidates.
    trace: u32,
    cost: f64,
    /// `cost` plus the multipliers of the squares `state` leaves uncovered.
    pot: f64,
}

const NO_TRACE: u32 = u32::MAX;

pub struct Bands {
    width: usize,
    reach: usize,
    bands: Vec<Band>,
    steps: Vec<Step>,
    /// The slots (steps) of each square, by square: `occ[occ_start[s]..occ_start[s + 1]]`.
    occ_start: Vec<usize>,
    occ: Vec<u32>,
    /// The square under each window position, by band and column: `n` off the board.
    win_sq: Vec<u32>,
    win_bits: usize,
    // Per slot: price in its band, multipliers of the band squares it covers, whether it
    // covers an uncovered one (and is allowed), whether the band's optimum takes it.
    price: Vec<f64>,
    lb: Vec<f64>,
    live: Vec<bool>,
    taken: Vec<bool>,
    // Per band: its uncovered squares by column, the program's answer, its Lagrangian bound.
    cols: Vec<u32>,
    value: Vec<f64>,

    own: Vec<f64>,
    exact: Vec<bool>,
    dp: Program,
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
    /// `bands.max_states`, `bands.max_choices`, `bands.cap_extra`.
    max_states: usize,
    max_choices: usize,
    cap_extra: f64,
}

/// Parameters of one call of [`Bands::bound`].
#[derive(Clone, Copy)]
pub struct Plan {
    /// The node is pruned once the bound exceeds this.
    pub enough: f64,
    /// Subgradient steps on the split after the first evaluation.
    pub iters: usize,
    pub mu: f64,
    /// Give up once the deficit exceeds this much a step left.
    pub pace: Option<f64>,
}

impl Bands {
    /// `None` where a piece reaches more than two rows or columns (riders, camels): the
    /// window would not fit a word.
    pub fn new(m: &Model) -> Option<Bands> {
        let b = &m.board;
        let (width, height) = (b.width, b.height);
        let n = b.squares();
        let (mut reach, mut reach_rows) = (0, 0);
        for &s in &m.cells {
            let (r, c) = b.row_col(s);
            for t in crate::util::ones(m.cover.row(s)) {
                let (rt, ct) = b.row_col(t);
                reach = reach.max(c.abs_diff(ct));
                reach_rows = reach_rows.max(r.abs_diff(rt));
            }
        }
        if reach > MAX_REACH || reach_rows > MAX_REACH {
            return None;
        }
        // As few bands as rows of 5 allow, as even as can be (20: 4 x 5; 18: 5, 5, 4, 4).
        let opts: &BandOptions = &m.tuning.bands;
        let count = height.div_ceil(opts.rows).max(1);
        let heights: Vec<usize> = (0..count)
            .map(|i| height / count + usize::from(i < height % count))
            .collect();
        let hmax = *heights.iter().max().expect("one band at least");
        let win_bits = (2 * reach + 1) * hmax;
        if win_bits > 32 {
            return None;
        }
        let mut bands = Vec::new();
        let mut steps = Vec::new();
        let mut win_sq = Vec::new();
        let mut top = 0usize;
        for &h in &heights {
            let mut col_start = vec![steps.len()];
            for j in 0..width {
                let rows = top.saturating_sub(reach_rows)..(top + h + reach_rows).min(height);
                for r in rows {
                    let s = b.index(r, j);
                    if b.is_hole(s) {
                        continue;
                    }
                    let mut mask = 0u32;
                    for t in crate::util::ones(m.cover.row(s)) {
                        let (rt, ct) = b.row_col(t);
                        if rt >= top && rt < top + h {
                            mask |= 1 << ((ct + reach - j) * h + rt - top);
                        }
                    }
                    if mask != 0 {
                        steps.push(Step { sq: s as u32, mask });
                    }
                }
                // Those that cover squares of column j - R first: after them a state that
                // still leaves one uncovered is dead, and the others skip it.
                let low = (1u32 << h) - 1;
                steps[col_start[j]..].sort_by_key(|st| st.mask & low == 0);
                col_start.push(steps.len());
                for pos in 0..win_bits {
                    let (dc, r) = (pos / h, top + pos % h);
                    let sq = match (j + dc).checked_sub(reach) {
                        Some(c) if pos < (2 * reach + 1) * h && c < width => b.index(r, c),
                        _ => n,
                    };
                    win_sq.push(sq as u32);
                }
            }
            bands.push(Band {
                top,
                height: h,
                col_start,
            });
            top += h;
        }
        let mut per_sq = vec![Vec::new(); n];
        for (k, st) in steps.iter().enumerate() {
            per_sq[st.sq as usize].push(k as u32);
        }
        let mut occ_start = vec![0];
        let mut occ = Vec::new();
        for v in &per_sq {
            occ.extend_from_slice(v);
            occ_start.push(occ.len());
        }
        let slots = steps.len();
        let nb = bands.len();
        Some(Bands {
            width,
            reach,
            bands,
            steps,
            occ_start,
            occ,
            win_sq,
            win_bits,
            price: vec![0.0; slots],
            lb: vec![0.0; slots],
            live: vec![false; slots],
            taken: vec![false; slots],
            cols: vec![0; nb * width],
            value: vec![0.0; nb],

            own: vec![0.0; nb],
            exact: vec![false; nb],
            dp: Program::default(),
            lam_win: vec![0.0; win_bits],
            lam_part: Default::default(),
            future: Vec::new(),
            negrc: Vec::new(),
            reach_low: Vec::new(),
            states: 0,
            solves: 0,
            max_states: opts.max_states,
            max_choices: opts.max_choices,
            cap_extra: opts.cap_extra,
        })
    }

    /// The band bound at a node with uncovered squares `unc`, allowed squares `alw` and
    /// multipliers `lam` (one per square and a trailing 0, as in `lagrange`): the best sum
    /// of the bands' optima met, which is a lower bound on the pieces still needed. Stops
    /// as soon as it exceeds `plan.enough`, or when `stop` says so before a band's program
    /// (a root of 20x20 takes half a minute).
    ///
    /// (A child starting from its parent's final split, solving again only the bands its
    /// piece changed, took 5 times more nodes than a fresh split from its own multipliers
    /// on knights 14x14: the multipliers move more than the split keeps up with.)
    pub fn bound(
        &mut self,
        unc: &[u64],
        alw: &[u64],
        lam: &[f64],
        plan: Plan,
        stop: &mut dyn FnMut() -> bool,
    ) -> f64 {
        let bit = |set: &[u64], s: usize| set[s >> 6] >> (s & 63) & 1 != 0;
        let w = self.width;
        // The uncovered squares of each band, column by column.
        for (bi, band) in self.bands.iter().enumerate() {
            for j in 0..w {
                let mut bits = 0u32;
                for r in 0..band.height {
                    let s = (band.top + r) * w + j;
                    if bit(unc, s) {
                        bits |= 1 << r;
                    }
                }
                self.cols[bi * w + j] = bits;
            }
        }
        // Which slots matter, and the multipliers of what they cover.
        for (bi, band) in self.bands.iter().enumerate() {
            let h = band.height;
            for j in 0..w {
                let mut open = 0u32;
                for dc in 0..=2 * self.reach {
                    if let Some(c) = (j + dc).checked_sub(self.reach)
                        && c < w
                    {
                        open |= self.cols[bi * w + c] << (dc * h);
                    }
                }
                let wins = &self.win_sq[(bi * w + j) * self.win_bits..];
                for k in band.col_start[j]..band.col_start[j + 1] {
                    let st = self.steps[k];
                    let cov = st.mask & open;
                    self.live[k] = cov != 0 && bit(alw, st.sq as usize);
                    let mut sum = 0.0;
                    let mut bits = cov;
                    while bits != 0 {
                        sum += lam[wins[bits.trailing_zeros() as usize] as usize];
                        bits &= bits - 1;
                    }
                    self.lb[k] = sum;
                }
            }
        }
        // Each candidate's cost split among the bands it reaches, in proportion to the
        // multipliers of the squares it covers in each.
        for s in 0..self.occ_start.len() - 1 {
            let slots = &self.occ[self.occ_start[s]..self.occ_start[s + 1]];
            let (mut live, mut total) = (0, 0.0);
            for &k in slots {
                let k = k as usize;
                if self.live[k] {
                    live += 1;
                    total += self.lb[k];
                }
            }
            for &k in slots {
                let k = k as usize;
                self.price[k] = if !self.live[k] {
                    0.0
                } else if total > 0.0 {
                    self.lb[k] / total
                } else {
                    1.0 / live as f64
                };
            }
        }
        let mut best = f64::NEG_INFINITY;
        let mut mu = plan.mu;
        let mut last = f64::NEG_INFINITY;
        for it in 0..=plan.iters {
            let Some(total) = self.evaluate(lam, plan.enough, stop) else {
                break;
            };
            best = best.max(total);
            if best > plan.enough {
                return best;
            }
            if it == plan.iters {
                break;
            }
            // Steps on the split raise the bound by a few hundredths each: when the steps
            // left cannot close the deficit at that pace, the node is branched on anyway.
            if let Some(pace) = plan.pace
                && plan.enough - total > pace * (plan.iters - it) as f64
            {
                break;
            }
            if total <= last + 1e-9 {
                mu *= 0.5;
            }
            last = total;
            if !self.step(plan.enough + 1.0 - total, mu) {
                break;
            }
        }
        best
    }

    /// One subgradient step on the split; `false` when every band agrees on every shared
    /// candidate (no direction to move).
    fn step(&mut self, gap: f64, mu: f64) -> bool {
        let mut norm = 0.0;
        for s in 0..self.occ_start.len() - 1 {
            if let Some((slots, _, mean)) = self.shared(s) {
                for &k in &self.occ[slots] {
                    let k = k as usize;
                    if self.live[k] {
                        let g = f64::from(u8::from(self.taken[k])) - mean;
                        norm += g * g;
                    }
                }
            }
        }
        if norm == 0.0 {
            return false;
        }
        let t = mu * gap.max(0.05) / norm;
        for s in 0..self.occ_start.len() - 1 {
            let Some((slots, live, mean)) = self.shared(s) else {
                continue;
            };
            let mut sum = 0.0;
            for &k in &self.occ[slots.clone()] {
                let k = k as usize;
                if self.live[k] {
                    let g = f64::from(u8::from(self.taken[k])) - mean;
                    self.price[k] = (self.price[k] + t * g).max(0.0);
                    sum += self.price[k];
                }
            }
            for &k in &self.occ[slots] {
                let k = k as usize;
                if self.live[k] {
                    self.price[k] = if sum > 0.0 {
                        self.price[k] / sum
                    } else {
                        1.0 / live as f64
                    };
                }
            }
        }
        true
    }

    /// For a square whose cost two bands or more share: the range of its slots in `occ`,
    /// how many are live, and the share of those its bands' optima take.
    fn shared(&self, s: usize) -> Option<(std::ops::Range<usize>, usize, f64)> {
        let slots = self.occ_start[s]..self.occ_start[s + 1];
        let (mut live, mut took) = (0, 0);
        for &k in &self.occ[slots.clone()] {
            let k = k as usize;
            if self.live[k] {
                live += 1;
                took += usize::from(self.taken[k]);
            }
        }
        (live >= 2).then(|| (slots, live, took as f64 / live as f64))
    }

    /// The sum of the bands' optima at the current prices, each solved only as far as the
    /// node needs: a band that reaches the room the others leave ends the evaluation with
    /// a value above `enough`. Marks the slots each band's optimum takes.
    fn evaluate(
        &mut self,
        lam: &[f64],
        enough: f64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<f64> {
        let w = self.width;
        // Each band's own Lagrangian bound at these prices: its floor.
        for (bi, band) in self.bands.iter().enumerate() {
            let mut l = 0.0;
            for j in 0..w {
                let mut bits = self.cols[bi * w + j];
                while bits != 0 {
                    let r = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    l += lam[(band.top + r) * w + j];
                }
            }
            for k in band.col_start[0]..band.col_start[w] {
                if self.live[k] {
                    l += (self.price[k] - self.lb[k]).min(0.0);
                }
            }
            self.own[bi] = l;
            self.value[bi] = l;
        }
        self.taken.fill(false);
        let mut total: f64 = self.value.iter().sum();
        // First each band up to a little more than its share of the deficit (the program's
        // states grow fast with its cap, and most bands need far less than the whole
        // deficit; any cap gives a valid bound); then the bands that reached their cap
        // again, each up to all the deficit left, which proves the node if reached.
        let share = (enough - total) / self.bands.len() as f64 + self.cap_extra;
        for pass in 0..2 {
            for bi in 0..self.bands.len() {
                if pass == 1 && self.exact[bi] {
                    continue;
                }
                let rest = total - self.value[bi];
                let cap = if pass == 0 {
                    (self.value[bi] + share).min(enough - rest)
                } else {
                    enough - rest
                };
                if stop() {
                    return None;
                }
                let v = self.solve_band(bi, lam, cap);
                self.value[bi] = v;
                total = rest + v;
                if total > enough {
                    return Some(total);
                }
            }
        }
        Some(total)
    }

    /// Band `bi`'s cheapest cover at the current prices, or a lower bound on it no smaller
    /// than `cap` when it costs more than that. Marks the optimum's slots in `taken`.
    fn solve_band(&mut self, bi: usize, lam: &[f64], cap: f64) -> f64 {
        let w = self.width;
        let r = self.reach;
        let Bands {
            bands,
            steps,
            win_sq,
            win_bits,
            price,
            lb,
            live,
            taken,
            cols,
            own,
            exact,
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
            ..
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
            // the window, each table built from its smaller entries (halves of a 5 x 5
            // window took 12,288 entries a column to build, thirds take 1,024).
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

/// One band's dynamic program: the states, a table from state to entry, and the choices
/// behind each entry (a tree of (parent, slot) links).
#[derive(Default)]
struct Program {
    ent: Vec<Entry>,
    /// Open addressing: a state in the high half, its entry's index plus 1 in the low half
    /// (0: empty).
    table: Vec<u64>,
    arena: Vec<(u32, u32)>,
    dominated: Vec<bool>,
    /// 64 minus the log of the table's size.
    shift: u32,
}

impl Program {
    /// Drops every state for which one with a single uncovered square fewer costs no
    /// more (it covers all the first one covers, for no more): about two thirds of the
    /// states, measured at the middle column of knights 16x16 bands.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::board::betza::Piece;
    use crate::util::Rng;

    fn model(moves: &str, width: usize, height: usize) -> Model {
        let piece = Piece::parse(moves).expect("a piece");
        Model::new(Board::new(width, height), piece, 'X', false)
    }

    /// The fewest allowed squares covering the uncovered ones, by exhaustive search
    /// (branch on the square with the fewest coverers left): the test's own answer.
    fn fewest(m: &Model, unc: &[u64], alw: &[u64]) -> Option<usize> {
        fn go(m: &Model, unc: &mut Vec<u64>, alw: &mut Vec<u64>, k: usize, best: &mut usize) {
            if k >= *best {
                return;
            }
            let Some((t, _)) = crate::util::ones(unc)
                .map(|t| {
                    let c: u32 = m
                        .coverers
                        .row(t)
                        .iter()
                        .zip(alw.iter())
                        .map(|(a, b)| (a & b).count_ones())
                        .sum();
                    (t, c)
                })
                .min_by_key(|&(_, c)| c)
            else {
                *best = k;
                return;
            };
            let cands: Vec<usize> = crate::util::ones(m.coverers.row(t))
                .filter(|&c| alw[c >> 6] >> (c & 63) & 1 != 0)
                .collect();
            let saved_alw = alw.clone();
            for c in cands {
                let saved = unc.clone();
                for (u, cv) in unc.iter_mut().zip(m.cover.row(c)) {
                    *u &= !cv;
                }
                go(m, unc, alw, k + 1, best);
                *unc = saved;
                alw[c >> 6] &= !(1u64 << (c & 63));
            }
            *alw = saved_alw;
        }
        let mut best = usize::MAX;
        go(m, &mut unc.to_vec(), &mut alw.to_vec(), 0, &mut best);
        (best != usize::MAX).then_some(best)
    }

    /// A random node: a few pieces placed, some squares excluded, random multipliers on
    /// the squares left uncovered (and 0 elsewhere, as the search keeps them).
    fn node(
        m: &Model,
        rng: &mut Rng,
        pieces: usize,
        excluded: usize,
    ) -> (Vec<u64>, Vec<u64>, Vec<f64>) {
        let n = m.board.squares();
        let mut unc = m.all.clone();
        let mut alw = m.all.clone();
        for _ in 0..pieces {
            let s = m.cells[rng.below(m.cells.len())];
            for (u, cv) in unc.iter_mut().zip(m.cover.row(s)) {
                *u &= !cv;
            }
        }
        for _ in 0..excluded {
            let s = m.cells[rng.below(m.cells.len())];
            alw[s >> 6] &= !(1u64 << (s & 63));
        }
        let mut lam = vec![0.0; n + 1];
        for t in crate::util::ones(&unc) {
            lam[t] = (rng.below(1000) as f64) / 2000.0;
        }
        (unc, alw, lam)
    }

    const NO_STOP: Plan = Plan {
        enough: 1e9,
        iters: 0,
        mu: 1.0,
        pace: None,
    };

    /// Random nodes of each board with the exhaustive optimum (`None`: no cover at all),
    /// handed to `check` with the board's bands.
    fn each_node(
        boards: &[(&str, usize, usize)],
        seed: u64,
        trials: usize,
        min_pieces: usize,
        mut check: impl FnMut(&str, usize, &mut Bands, &[u64], &[u64], &[f64], Option<usize>),
    ) {
        let mut rng = Rng(seed);
        for &(moves, width, height) in boards {
            let m = model(moves, width, height);
            let mut bands = Bands::new(&m).expect("a short piece");
            for trial in 0..trials {
                let (unc, alw, lam) = node(&m, &mut rng, min_pieces + trial % 5, trial % 9);
                let want = fewest(&m, &unc, &alw);
                let name = format!("{moves} {width}x{height}");
                check(&name, trial, &mut bands, &unc, &alw, &lam, want);
            }
        }
    }

    /// On a board of at most 5 rows the one band is the whole board: the program's answer
    /// is the exact optimum, whatever the multipliers.
    #[test]
    fn one_band_is_solved_exactly() {
        let boards = [
            ("N", 9, 4),
            ("N", 8, 5),
            ("N", 7, 3),
            ("K", 8, 4),
            ("K", 7, 5),
            ("N", 6, 1),
            ("WD", 7, 4),
        ];
        each_node(
            &boards,
            0x1234_5678_9abc_def1,
            40,
            0,
            |name, trial, bands, unc, alw, lam, want| {
                let got = bands.bound(unc, alw, lam, NO_STOP, &mut || false);
                match want {
                    Some(k) => assert!(
                        (got - k as f64).abs() < 1e-6,
                        "{name} trial {trial}: band {got}, optimum {k}"
                    ),
                    // No cover at all: the band says so with a value past any room.
                    None => assert!(got > 1e8, "{name} trial {trial}: {got}"),
                }
            },
        );
    }

    /// On taller boards the sum over the bands never exceeds the optimum, with or without
    /// steps on the split, and with a stopping point anywhere.
    #[test]
    fn the_band_bound_never_exceeds_the_optimum() {
        let boards = [
            ("N", 8, 8),
            ("N", 7, 9),
            ("N", 6, 11),
            ("K", 8, 7),
            ("NA", 6, 8),
        ];
        each_node(
            &boards,
            0x0dd_ba11_5eed_cafe,
            30,
            2,
            |name, trial, bands, unc, alw, lam, want| {
                let Some(k) = want else {
                    return;
                };
                for (enough, iters) in [
                    (1e9, 0),
                    (1e9, 8),
                    (k as f64 - 0.5, 8),
                    (k as f64 + 1e-6, 4),
                ] {
                    let plan = Plan {
                        enough,
                        iters,
                        mu: 1.0,
                        pace: None,
                    };
                    let got = bands.bound(unc, alw, lam, plan, &mut || false);
                    assert!(
                        got <= k as f64 + 1e-6,
                        "{name} trial {trial}: band {got} above the optimum {k} \
                     (enough {enough}, {iters} steps)"
                    );
                }
            },
        );
    }

    /// The bands cover every row once, none taller than `bands.rows`, and as few as that
    /// allows.
    #[test]
    fn bands_tile_the_rows() {
        for height in 1..=24 {
            let b = Bands::new(&model("N", 5, height)).expect("a short piece");
            let rows = BandOptions::default().rows;
            let mut top = 0;
            for band in &b.bands {
                assert_eq!(band.top, top, "height {height}");
                assert!((1..=rows).contains(&band.height), "height {height}");
                top += band.height;
            }
            assert_eq!(top, height);
            assert_eq!(b.bands.len(), height.div_ceil(rows), "height {height}");
        }
    }

    #[test]
    fn riders_and_long_leapers_have_no_bands() {
        assert!(Bands::new(&model("Q", 8, 8)).is_none());
        assert!(Bands::new(&model("C", 8, 8)).is_none());
        assert!(Bands::new(&model("N", 8, 8)).is_some());
    }
}
