//! The Lagrangian bound of the covering problem at a search node, for `bnb`.
//!
//! Relax "every uncovered square u is covered" with a multiplier `lambda[u] >= 0`: for any
//! such multipliers, every placement that covers the rest needs at least
//! `L = sum(lambda[u]) + sum over allowed squares c of min(0, rc[c])` more pieces, where
//! `rc[c] = 1 - sum(lambda[u] for uncovered u that c covers)` is c's reduced cost. That holds
//! for any multipliers, so they are improved by subgradient steps and handed down the tree
//! as they are: a child starts from its parent's. At its best L equals the linear
//! relaxation's value (28.9 for knights on 14x14, where a greedy fractional packing reaches 23).
//!
//! Reduced costs also fix squares: a placement using c needs at least `L + rc[c]` pieces, one
//! leaving c empty at least `L - rc[c]`; when that exceeds the room left, c is excluded or
//! forced. (Independence is not part of the relaxation; the bound stays valid, only weaker.)

use super::model::Model;

/// Slack for floating-point sums: a bound counts only when it clears an integer by this much.
pub const EPS: f64 = 1e-6;

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
}

pub struct Lagrange {
    /// Squares each square covers, as flat lists.
    cov_off: Vec<u32>,
    cov: Vec<u32>,
    /// Reduced costs of the allowed squares at the last evaluation.
    pub rc: Vec<f64>,
    g: Vec<f64>,
    taken: Vec<u32>,
}

#[inline]
fn has(bits: &[u64], i: usize) -> bool {
    bits[i >> 6] >> (i & 63) & 1 != 0
}

/// The set bits of a bitset, in order.
#[inline]
pub fn ones(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(k, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                k * 64 + b
            })
        })
    })
}

impl Lagrange {
    pub fn new(m: &Model) -> Lagrange {
        let n = m.board.squares();
        let (mut cov_off, mut cov) = (vec![0u32], Vec::new());
        for s in 0..n {
            cov.extend(ones(m.cover.row(s)).map(|t| t as u32));
            cov_off.push(cov.len() as u32);
        }
        Lagrange {
            cov_off,
            cov,
            rc: vec![0.0; n],
            g: vec![0.0; n],
            taken: vec![0; n],
        }
    }

    /// L for these multipliers on the node (uncovered `unc`, allowed `alw`; multipliers of
    /// covered squares must be 0); fills `rc`, and
    /// `taken[u]`: how many squares of negative reduced cost (the relaxation's choice) cover u.
    pub fn eval(&mut self, unc: &[u64], alw: &[u64], lam: &[f64]) -> f64 {
        let mut l = 0.0;
        for u in ones(unc) {
            l += lam[u];
            self.taken[u] = 0;
        }
        for c in ones(alw) {
            let list = &self.cov[self.cov_off[c] as usize..self.cov_off[c + 1] as usize];
            // Covered squares hold multiplier 0 (the caller's contract), so no test is needed.
            let mut s = 0.0;
            for &u in list {
                s += lam[u as usize];
            }
            let r = 1.0 - s;
            self.rc[c] = r;
            if r < 0.0 {
                l += r;
                for &u in list {
                    if has(unc, u as usize) {
                        self.taken[u as usize] += 1;
                    }
                }
            }
        }
        l
    }

    /// Subgradient steps as `plan` says. Returns the best L met and the L of the final
    /// multipliers, whose reduced costs are left in `rc`.
    pub fn improve(
        &mut self,
        unc: &[u64],
        alw: &[u64],
        lam: &mut [f64],
        plan: Steps,
    ) -> (f64, f64) {
        let Steps {
            enough,
            target,
            iters,
            mut mu,
            patience,
        } = plan;
        let mut cur = self.eval(unc, alw, lam);
        let mut best = cur;
        let mut stale = 0;
        for _ in 0..iters {
            if best > enough {
                break;
            }
            let mut norm = 0.0;
            for u in ones(unc) {
                let mut g = 1.0 - self.taken[u] as f64;
                if g < 0.0 && lam[u] <= 0.0 {
                    g = 0.0;
                }
                self.g[u] = g;
                norm += g * g;
            }
            if norm == 0.0 {
                // The relaxed choice covers every square exactly: L is optimal here.
                break;
            }
            let t = mu * (target - cur).max(0.05) / norm;
            for u in ones(unc) {
                lam[u] = (lam[u] + t * self.g[u]).max(0.0);
            }
            cur = self.eval(unc, alw, lam);
            if cur > best + 1e-9 {
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
        (best, cur)
    }
}
