//! What the bands see of one node, and the split of each candidate's cost among them: per
//! slot its price in its band, the multipliers of the band squares it covers, whether it is
//! live (allowed, and covers an uncovered square) and whether its band's optimum takes it;
//! per band its uncovered squares column by column, its value, its own Lagrangian bound
//! and whether the program solved it exactly. Filled at every call of the bound; the sizes
//! come from the layout.
//!
//! The split is valid whatever the prices, as long as a candidate's prices add up to 1
//! (`sum over b of w_b(c) = 1`): a placement then costs the same summed over the bands. The
//! first split is in proportion to the multipliers, which makes the sum of the bands' own
//! Lagrangian bounds equal to the node's; subgradient steps move it from there, each
//! followed by a rescaling of each candidate's prices to add up to 1 again.

use super::layout::Layout;

pub struct Split {
    pub price: Vec<f64>,
    pub lb: Vec<f64>,
    pub live: Vec<bool>,
    pub taken: Vec<bool>,
    /// Band `bi`'s uncovered squares of column j, as bits by row: `cols[bi * width + j]`.
    pub cols: Vec<u32>,
    pub value: Vec<f64>,
    pub own: Vec<f64>,
    pub exact: Vec<bool>,
}

impl Split {
    pub fn new(lay: &Layout) -> Split {
        let slots = lay.steps.len();
        let nb = lay.bands.len();
        Split {
            price: vec![0.0; slots],
            lb: vec![0.0; slots],
            live: vec![false; slots],
            taken: vec![false; slots],
            cols: vec![0; nb * lay.width],
            value: vec![0.0; nb],
            own: vec![0.0; nb],
            exact: vec![false; nb],
        }
    }

    /// The node with uncovered squares `unc`, allowed squares `alw` and multipliers `lam`:
    /// the bands' columns, the live slots and their multipliers, and the first split.
    pub fn load(&mut self, lay: &Layout, unc: &[u64], alw: &[u64], lam: &[f64]) {
        let bit = |set: &[u64], s: usize| set[s >> 6] >> (s & 63) & 1 != 0;
        let w = lay.width;
        // The uncovered squares of each band, column by column.
        for (bi, band) in lay.bands.iter().enumerate() {
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
        for (bi, band) in lay.bands.iter().enumerate() {
            let h = band.height;
            for j in 0..w {
                let mut open = 0u32;
                for dc in 0..=2 * lay.reach {
                    if let Some(c) = (j + dc).checked_sub(lay.reach)
                        && c < w
                    {
                        open |= self.cols[bi * w + c] << (dc * h);
                    }
                }
                let wins = lay.window(bi, j);
                for k in band.col_start[j]..band.col_start[j + 1] {
                    let st = lay.steps[k];
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
        for s in 0..lay.squares() {
            let slots = &lay.occ[lay.slots(s)];
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
    }

    /// Each band's own Lagrangian bound at the current prices, its floor, into `own` and
    /// `value`; clears `taken`.
    pub fn own_bounds(&mut self, lay: &Layout, lam: &[f64]) {
        let w = lay.width;
        for (bi, band) in lay.bands.iter().enumerate() {
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
    }

    /// One subgradient step on the split; `false` when every band agrees on every shared
    /// candidate (no direction to move).
    pub fn step(&mut self, lay: &Layout, gap: f64, mu: f64) -> bool {
        let mut norm = 0.0;
        for s in 0..lay.squares() {
            if let Some((slots, _, mean)) = self.shared(lay, s) {
                for &k in &lay.occ[slots] {
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
        for s in 0..lay.squares() {
            let Some((slots, live, mean)) = self.shared(lay, s) else {
                continue;
            };
            let mut sum = 0.0;
            for &k in &lay.occ[slots.clone()] {
                let k = k as usize;
                if self.live[k] {
                    let g = f64::from(u8::from(self.taken[k])) - mean;
                    self.price[k] = (self.price[k] + t * g).max(0.0);
                    sum += self.price[k];
                }
            }
            for &k in &lay.occ[slots] {
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
    fn shared(&self, lay: &Layout, s: usize) -> Option<(std::ops::Range<usize>, usize, f64)> {
        let slots = lay.slots(s);
        let (mut live, mut took) = (0, 0);
        for &k in &lay.occ[slots.clone()] {
            let k = k as usize;
            if self.live[k] {
                live += 1;
                took += usize::from(self.taken[k]);
            }
        }
        (live >= 2).then(|| (slots, live, took as f64 / live as f64))
    }
}
