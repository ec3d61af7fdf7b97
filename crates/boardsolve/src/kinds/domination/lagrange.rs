//! The Lagrangian bound of the covering problem at a search node, for `bnb`.
//!
//! Relax "every uncovered square u is covered" with a multiplier `lambda[u] >= 0`: for any
//! such multipliers, every placement that covers the rest needs at least
//! `L = sum(lambda[u]) + sum over allowed squares c of min(0, rc[c])` more pieces, where
//! `rc[c] = 1 - sum(lambda[u] for uncovered u that c covers)` is c's reduced cost. (Sound:
//! a placement P pays 1 per piece; `|P| = sum(lambda[u]) + sum over c in P of rc[c] + sum
//! over u of lambda[u] (covers(u) - 1)`, the last sum is at least 0 as P covers every u,
//! and `sum over c in P of rc[c]` is at least the sum of the negative reduced costs.) That
//! holds for any multipliers, so they are improved by subgradient steps and handed down the
//! tree as they are: a child starts from its parent's. At its best L equals the linear
//! relaxation's value. For leapers the steps run as stencils on a padded grid, in f32, with
//! the bound that counts evaluated exactly in f64 (see `stencil`); other pieces use the
//! lists below.
//!
//! Reduced costs also fix squares: a placement using c needs at least `L + rc[c]` pieces, one
//! leaving c empty at least `L - rc[c]`; when that exceeds the room left, c is excluded or
//! forced. Independence is not part of the relaxation: the bound stays valid (it relaxes a
//! larger set of placements), and no weaker for knights: with the constraints
//! `x_u + x_v <= 1` for attacking squares the linear relaxation keeps its value (33.90 at
//! 16x16, checked with an LP solver).

use super::model::Model;
use super::stencil::Grid;
use crate::util::ones;

/// Slack for floating-point sums: a bound counts only when it clears an integer by this much.
pub const EPS: f64 = 1e-6;

/// How near pruning the grid's f32 bound must come for an exact one: far above its
/// rounding (about 1e-5 on 20x20), so no prune is missed for it.
const CHECK: f64 = 1e-3;

/// How to improve the multipliers at a node.
#[derive(Clone, Copy)]
pub struct Steps {
    /// Stop once L exceeds this (the node is pruned).
    pub enough: f64,
    /// The L each step aims at (Polyak's step length).
    pub target: f64,
    /// At most this many steps.
    pub iters: usize,
    /// The step factor to start with; halved after this many steps without progress.
    pub mu: f64,
    pub patience: usize,
    /// Stop early when the pace of the last steps will not reach `enough` in time.
    pub pace: bool,
}

pub struct Lagrange {
    /// Squares each square covers, `stride` per square.
    stride: usize,
    cov: Vec<u32>,
    /// Reduced costs of the allowed squares at the last evaluation.
    pub rc: Vec<f64>,
    /// The subgradient, by position in `ulist`.
    g: Vec<f64>,
    taken: Vec<u32>,
    /// The node's uncovered squares and the allowed squares that cover one of them, as
    /// lists: the steps touch only these (deep in the tree, a fraction of the board).
    ulist: Vec<u32>,
    clist: Vec<u32>,
    /// The same steps as stencils on a padded grid, for leapers (see `stencil`).
    grid: Option<Grid>,
    /// Steps between the checks of a node's pace (`lagrange.pace_steps`).
    pace_steps: usize,
}

impl Lagrange {
    pub fn new(m: &Model) -> Lagrange {
        let n = m.board.squares();
        // Fixed-length lists padded with square `n`, whose multiplier is always 0: the inner
        // loop then has a fixed trip count and no branch.
        let stride = (0..n)
            .map(|s| m.cover.row_count(s))
            .max()
            .unwrap_or(1)
            .max(1);
        let mut cov = vec![n as u32; n * stride];
        for s in 0..n {
            for (i, t) in ones(m.cover.row(s)).enumerate() {
                cov[s * stride + i] = t as u32;
            }
        }
        Lagrange {
            stride,
            cov,
            rc: vec![0.0; n],
            g: vec![0.0; n],
            taken: vec![0; n + 1],
            ulist: Vec::with_capacity(n),
            clist: Vec::with_capacity(n),
            grid: Grid::new(m),
            pace_steps: m.tuning.lagrange.pace_steps,
        }
    }

    /// The same relaxation without the grid, whatever the piece (the grid's tests compare).
    #[cfg(test)]
    pub fn lists_only(m: &Model) -> Lagrange {
        let mut l = Lagrange::new(m);
        l.grid = None;
        l
    }

    #[cfg(test)]
    pub fn has_grid(&self) -> bool {
        self.grid.is_some()
    }

    /// Lists the node's uncovered squares and the allowed squares that cover one of them;
    /// an allowed square that covers none gets reduced cost 1 (it only costs a piece).
    fn prepare(&mut self, unc: &[u64], alw: &[u64]) {
        self.ulist.clear();
        self.ulist.extend(ones(unc).map(|u| u as u32));
        self.clist.clear();
        let stride = self.stride;
        for c in ones(alw) {
            let useful = self.cov[c * stride..(c + 1) * stride].iter().any(|&u| {
                (u as usize >> 6) < unc.len() && unc[u as usize >> 6] >> (u & 63) & 1 != 0
            });
            if useful {
                self.clist.push(c as u32);
            } else {
                self.rc[c] = 1.0;
            }
        }
    }

    /// L for these multipliers on the node prepared last (`lam` holds one more entry than
    /// squares, and the multipliers of that one and of covered squares must be 0); fills
    /// `rc`, and `taken[u]`: how many squares of negative reduced cost (the relaxation's
    /// choice) cover u.
    fn eval(&mut self, lam: &[f64]) -> f64 {
        // Knights and kings (8 moves and the square itself) get a loop of fixed length.
        match self.stride {
            9 => self.eval_with::<9>(lam),
            _ => self.eval_with::<0>(lam),
        }
    }

    /// `eval` for lists of `S` squares (`S` = 0: of `self.stride`).
    #[inline(always)]
    fn eval_with<const S: usize>(&mut self, lam: &[f64]) -> f64 {
        // Borrowed apart so the loops keep their slices in registers.
        let Lagrange {
            stride,
            cov,
            rc,
            taken,
            ulist,
            clist,
            ..
        } = self;
        let stride = if S == 0 { *stride } else { S };
        // Every entry of `cov` is a square or the pad `n`, and `lam` and `taken` have n + 1
        // entries: the gathers below need no bounds checks (this loop is most of the
        // search's time).
        let n = rc.len();
        assert!(lam.len() > n && taken.len() > n);
        let mut l = 0.0;
        for &u in ulist.iter() {
            l += lam[u as usize];
            taken[u as usize] = 0;
        }
        for &c in clist.iter() {
            let c = c as usize;
            let list = &cov[c * stride..(c + 1) * stride];
            // Two accumulators: half the chain of dependent additions.
            let (mut a, mut b) = (0.0, 0.0);
            let mut it = list.chunks_exact(2);
            for q in &mut it {
                // SAFETY: see the assert above; `Lagrange::new` fills `cov` with 0..=n.
                unsafe {
                    a += *lam.get_unchecked(q[0] as usize);
                    b += *lam.get_unchecked(q[1] as usize);
                }
            }
            for &u in it.remainder() {
                // SAFETY: as above.
                a += unsafe { *lam.get_unchecked(u as usize) };
            }
            let r = 1.0 - (a + b);
            rc[c] = r;
            if r < 0.0 {
                l += r;
                // Covered squares' counts are never read, and are reset before use.
                for &u in list {
                    // SAFETY: as above.
                    unsafe {
                        let t = taken.get_unchecked_mut(u as usize);
                        *t = t.wrapping_add(1);
                    }
                }
            }
        }
        l
    }

    /// L on the grid or the lists, whichever the piece has.
    fn eval_any(&mut self, lam: &[f64]) -> f64 {
        match self.grid.as_mut() {
            Some(g) => g.eval(),
            None => self.eval(lam),
        }
    }

    /// The subgradient at the last evaluation, by position in `ulist`, in `g`; its squared
    /// norm.
    fn gradient(&mut self, lam: &[f64]) -> f64 {
        let mut norm = 0.0;
        let ulist = &self.ulist[..];
        let taken = &self.taken[..];
        let g = &mut self.g[..ulist.len()];
        assert!(lam.len() >= taken.len());
        for (gk, &u) in g.iter_mut().zip(ulist) {
            // SAFETY: `ulist` holds squares, below n < taken.len() <= lam.len().
            let (t, l) = unsafe {
                (
                    *taken.get_unchecked(u as usize),
                    *lam.get_unchecked(u as usize),
                )
            };
            let x = 1.0 - t as f64;
            // A square covered more than once pushes its multiplier down, not below 0.
            let x = if x < 0.0 && l <= 0.0 { 0.0 } else { x };
            *gk = x;
            norm += x * x;
        }
        norm
    }

    /// Subgradient steps as `plan` says, on the node with uncovered squares `unc` and
    /// allowed squares `alw`. Returns the best L met and the L of the final multipliers,
    /// whose reduced costs are left in `rc` for every allowed square. `stop` is asked once a
    /// step (a step on a large board takes milliseconds): `true` ends the steps early, with
    /// what they reached, still a valid bound.
    pub fn improve(
        &mut self,
        unc: &[u64],
        alw: &[u64],
        lam: &mut [f64],
        plan: Steps,
        stop: &mut dyn FnMut() -> bool,
    ) -> (f64, f64) {
        let Steps {
            enough,
            target,
            iters,
            mut mu,
            patience,
            pace,
        } = plan;
        match self.grid.as_mut() {
            Some(g) => g.load(unc, alw, lam),
            None => self.prepare(unc, alw),
        }
        // On the grid the steps run in f32: their L steers the steps, and an exact one (f64,
        // at the same multipliers) is taken where it could prune, at every new best where no
        // pace is kept (the root), and at the end. `proven`: the best exact L; `last`: the
        // exact L at the current multipliers, if taken.
        let on_grid = self.grid.is_some();
        let mut cur = self.eval_any(lam);
        let mut best = cur;
        let (mut proven, mut last) = if on_grid {
            (f64::NEG_INFINITY, None)
        } else {
            (cur, Some(cur))
        };
        if let Some(g) = self.grid.as_mut()
            && (cur > enough - CHECK || !pace)
        {
            let e = g.exact();
            (proven, last) = (e, Some(e));
        }
        let mut stale = 0;
        let mut mark = best;
        for it in 0..iters {
            if proven > enough || stop() {
                break;
            }
            // Every few steps: at the pace of the last few, would the rest reach `enough`?
            // If not, stop: the node is branched on anyway, and its children go on from here.
            if pace && it > 0 && it % self.pace_steps == 0 {
                let left = (iters - it) as f64 / self.pace_steps as f64;
                if best + (best - mark) * left < enough {
                    break;
                }
                mark = best;
            }
            let norm = match self.grid.as_mut() {
                Some(g) => g.gradient(),
                None => self.gradient(lam),
            };
            if norm == 0.0 {
                // The relaxed choice covers every square exactly: L is optimal here.
                break;
            }
            let t = mu * (target - cur).max(0.05) / norm;
            match self.grid.as_mut() {
                Some(g) => g.step(t),
                None => {
                    for (&u, &x) in self.ulist.iter().zip(&self.g) {
                        // SAFETY: `ulist` holds squares, below n < lam.len().
                        let l = unsafe { lam.get_unchecked_mut(u as usize) };
                        *l = (*l + t * x).max(0.0);
                    }
                }
            }
            cur = self.eval_any(lam);
            let better = cur > best + 1e-9;
            last = None;
            match self.grid.as_mut() {
                Some(g) if cur > enough - CHECK || (!pace && better) => {
                    let e = g.exact();
                    (proven, last) = (proven.max(e), Some(e));
                }
                Some(_) => {}
                None => (proven, last) = (proven.max(cur), Some(cur)),
            }
            if better {
                best = cur;
                stale = 0;
            } else {
                stale += 1;
                if stale >= patience {
                    mu *= 0.5;
                    stale = 0;
                }
            }
        }
        if let Some(g) = self.grid.as_mut() {
            let e = match last {
                Some(e) => e,
                None => g.exact(),
            };
            (proven, last) = (proven.max(e), Some(e));
            g.store(lam, &mut self.rc);
        }
        (proven, last.expect("the final multipliers' exact L"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::Rng;

    /// On random nodes the grid's steps give the lists' bound, multipliers and reduced
    /// costs (up to rounding: the sums run in another order).
    #[test]
    fn the_grid_agrees_with_the_lists() {
        let boards = [
            ("N", 16, 16, vec![]),
            ("N", 7, 11, vec![3, 20, 40, 41]),
            ("K", 9, 6, vec![10]),
            ("NC", 10, 9, vec![]),
            ("WD", 5, 13, vec![0, 64]),
            ("W2", 8, 7, vec![]),
        ];
        let mut rng = Rng(0x5eed_0f90_81d0_7e57);
        for (moves, width, height, holes) in &boards {
            let m = Model::for_test(moves, *width, *height, holes);
            let n = m.board.squares();
            let mut grid = Lagrange::new(&m);
            let mut lists = Lagrange::lists_only(&m);
            assert!(grid.has_grid(), "{moves}: a leaper gets the grid");
            for trial in 0..40 {
                let mut unc = m.all.clone();
                let mut alw = m.all.clone();
                for _ in 0..trial % 7 * 3 {
                    let s = m.cells[rng.below(m.cells.len())];
                    for (u, cv) in unc.iter_mut().zip(m.cover.row(s)) {
                        *u &= !cv;
                    }
                }
                for _ in 0..trial % 5 * 4 {
                    let s = m.cells[rng.below(m.cells.len())];
                    alw[s >> 6] &= !(1u64 << (s & 63));
                }
                let mut lam = vec![0.0; n + 1];
                for t in crate::util::ones(&unc) {
                    lam[t] = rng.below(1000) as f64 / 4000.0;
                }
                for iters in [0, 1, 6] {
                    let plan = Steps {
                        enough: 1e9,
                        target: m.cells.len() as f64 / 4.0,
                        iters,
                        mu: 1.0,
                        patience: 3,
                        pace: false,
                    };
                    let (mut a, mut b) = (lam.clone(), lam.clone());
                    let got = grid.improve(&unc, &alw, &mut a, plan, &mut || false);
                    let want = lists.improve(&unc, &alw, &mut b, plan, &mut || false);
                    let name = format!("{moves} {width}x{height} trial {trial}, {iters} steps");
                    // The steps ran in f32: near the lists' steps.
                    assert!(
                        (got.0 - want.0).abs() < 1e-4,
                        "{name}: best {got:?} {want:?}"
                    );
                    assert!(
                        (got.1 - want.1).abs() < 1e-4,
                        "{name}: last {got:?} {want:?}"
                    );
                    assert!(got.0 >= got.1, "{name}: {got:?}");
                    for s in 0..n {
                        assert!((a[s] - b[s]).abs() < 1e-5, "{name}: multiplier of {s}");
                    }
                    // What counts is exact: the final L and reduced costs are the lists' own
                    // at the multipliers handed back.
                    let mut c = a.clone();
                    let again = Steps { iters: 0, ..plan };
                    let exact = lists.improve(&unc, &alw, &mut c, again, &mut || false);
                    assert!((got.1 - exact.1).abs() < 1e-9, "{name}: {got:?} {exact:?}");
                    for s in 0..n {
                        if alw[s >> 6] >> (s & 63) & 1 != 0 {
                            let (x, y) = (grid.rc[s], lists.rc[s]);
                            assert!((x - y).abs() < 1e-9, "{name}: rc of {s}: {x} {y}");
                        }
                    }
                }
            }
        }
    }
}
