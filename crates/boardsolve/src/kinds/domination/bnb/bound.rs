//! The lower bound of `bnb` at a node, and what its reduced costs fix.
//!
//! At the root, a greedy fractional packing: each uncovered square in turn (fewest
//! candidates first) gets the largest weight that keeps every candidate's load (the weight
//! of the squares it covers) at most 1. Any cover then needs at least the total weight, as
//! each piece covers at most 1 of it (linear programming duality). Its weights seed the
//! root's Lagrange multipliers.
//!
//! At every node, the Lagrangian bound (see `lagrange`): multipliers improved by subgradient
//! steps, the root's for long, a child's from its parent's for a few, stopping as soon as
//! the bound exceeds the room left (the node is pruned) or is not on pace to. Where the
//! bound comes near pruning, the band bound (see `band`, strategy `bands`) may prove more.
//! Every bound is valid for any multipliers and any split, so the step counts and factors
//! (`bnb.*`, `bands.*` options) only change how soon a node is pruned.
//!
//! Reduced-cost fixing with the final multipliers: a placement using candidate c needs at
//! least `L + rc[c]` more pieces, one leaving c empty at least `L - rc[c]`; where that
//! exceeds the room, c is excluded, or forced (then the node has one child).

// Word loops index several bitsets in lockstep; explicit indices read clearer than zips.
#![allow(clippy::needless_range_loop)]

use super::super::band::{Bands, Plan};
use super::super::lagrange::{EPS, Lagrange, Steps};
use super::super::model::Model;
use super::stack::Stack;
use crate::engine::Run;

/// Fixed-point unit of the fractional bound: a piece carries at most this much weight.
const UNIT: u32 = 1 << 16;

/// What bounding a node found.
pub enum Bounded {
    /// A limit stopped the search.
    Stop,
    /// The root's packing alone exceeds the room.
    Pruned,
    /// The best bound met and the bound at the final multipliers (whose reduced costs fix).
    Open { best: f64, cur: f64 },
}

pub struct Bounds {
    /// Squares on the board, plus one: the multipliers of a depth (the last always 0, see
    /// `Lagrange::eval`).
    n1: usize,
    /// Most candidates of a square (the packing's buckets).
    stride: usize,
    pub lag: Lagrange,
    /// The band bound (strategy `bands`; see `band`).
    pub bands: Option<Bands>,
    /// Lagrange multipliers at each depth, `n1` per depth.
    pub lam: Vec<f64>,
    /// The root's multipliers once computed (empty before).
    pub root_lam: Vec<f64>,
    /// The root's bound, 0 until the root is bounded.
    pub root_bound: usize,
    /// The packing's scratch: squares in bucket order, bucket starts, candidate loads.
    order: Vec<usize>,
    bucket_start: Vec<usize>,
    load: Vec<u32>,
    touched: Vec<usize>,
    /// Nodes pruned and squares excluded by the bound.
    prunes: u64,
    excluded: u64,
}

impl Bounds {
    /// `stride`: the most candidates of a square.
    pub fn new(m: &Model, stride: usize) -> Bounds {
        let n = m.board.squares();
        Bounds {
            n1: n + 1,
            stride,
            lag: Lagrange::new(m),
            bands: None,
            lam: Vec::new(),
            root_lam: Vec::new(),
            root_bound: 0,
            order: vec![0; n],
            bucket_start: vec![0; stride + 2],
            load: vec![0; n],
            touched: Vec::with_capacity(n),
            prunes: 0,
            excluded: 0,
        }
    }

    /// Room for the multipliers of `levels` depths, all 0.
    pub fn reset(&mut self, levels: usize) {
        self.lam.clear();
        self.lam.resize(levels * self.n1, 0.0);
    }

    /// The multipliers at `depth`.
    pub fn lam_at(&self, depth: usize) -> &[f64] {
        &self.lam[depth * self.n1..(depth + 1) * self.n1]
    }

    /// The parent's multipliers of a subtree resumed at `depth` (empty: the root's).
    pub fn restore(&mut self, depth: usize, lam: &[f64]) {
        let n1 = self.n1;
        let lam = if lam.is_empty() { &self.root_lam } else { lam };
        self.lam[(depth - 1) * n1..depth * n1].copy_from_slice(lam);
    }

    /// Bound the node at `depth` with `room` pieces left and `uncovered_total` uncovered
    /// squares (their candidate counts in `count`): its multipliers from the root's packing,
    /// from the root kept, or from the parent's, then subgradient steps and, where it comes
    /// near pruning, the band bound. Keeps the root's bound and multipliers.
    #[allow(clippy::too_many_arguments)]
    pub fn bound(
        &mut self,
        m: &Model,
        st: &Stack,
        count: &[u32],
        depth: usize,
        room: usize,
        uncovered_total: usize,
        run: &mut Run,
    ) -> Bounded {
        let (w, n1) = (st.w, self.n1);
        let (uo, ao) = (depth * w, (depth + 1) * w);
        let (lo, hi) = (depth * n1, (depth + 1) * n1);
        let opts = &m.tuning.bnb;
        let iters = if depth == 0 && !self.root_lam.is_empty() {
            // The root again (collecting subtrees deeper, or counting after minimize): its
            // multipliers are kept.
            self.lam[lo..hi].copy_from_slice(&self.root_lam);
            0
        } else if depth == 0 {
            // The root's multipliers start from the greedy packing and get many steps:
            // every node below inherits them.
            let bound = self.packing(m, st, count, uo, uncovered_total);
            self.root_bound = bound;
            if bound > room {
                self.prunes += 1;
                return Bounded::Pruned;
            }
            opts.root_steps
        } else {
            let (parent, own) = self.lam.split_at_mut(lo);
            own[..n1].copy_from_slice(&parent[lo - n1..lo]);
            // Squares the new piece covers drop out of the relaxation.
            for kw in 0..w {
                let mut gone = st.uncovered[uo - w + kw] & !st.uncovered[uo + kw];
                while gone != 0 {
                    own[kw * 64 + gone.trailing_zeros() as usize] = 0.0;
                    gone &= gone - 1;
                }
            }
            opts.node_steps
        };
        let room_f = room as f64;
        let (best, cur) = self.lag.improve(
            &st.uncovered[uo..ao],
            &st.allowed[uo..ao],
            &mut self.lam[lo..hi],
            Steps {
                enough: room_f + EPS,
                target: room_f + 1.0,
                iters,
                mu: if depth == 0 {
                    opts.root_mu
                } else {
                    opts.node_mu
                },
                patience: if depth == 0 {
                    opts.root_patience
                } else {
                    opts.node_patience
                },
                pace: depth > 0,
            },
            &mut || run.poll(),
        );
        if run.is_stopped() {
            return Bounded::Stop;
        }
        // The band bound where the relaxation came near: it costs many nodes' time.
        let mut best = best;
        let band = &m.tuning.bands;
        if best <= room_f + EPS
            && (depth == 0 || best > room_f + EPS - band.margin)
            && let Some(bands) = self.bands.as_mut()
        {
            let (solves, states) = (bands.solves(), bands.states());
            let v = bands.bound(
                &st.uncovered[uo..ao],
                &st.allowed[uo..ao],
                &self.lam[lo..hi],
                Plan {
                    enough: room_f + EPS,
                    iters: if depth == 0 {
                        band.root_steps
                    } else {
                        band.steps
                    },
                    mu: band.mu,
                    pace: (depth > 0).then_some(band.pace),
                },
                &mut || run.poll(),
            );
            run.stats
                .add_counter("band solves", bands.solves() - solves);
            run.stats
                .add_counter("band states", bands.states() - states);
            if run.is_stopped() {
                return Bounded::Stop;
            }
            run.stats.add_counter("band bounds", 1);
            if v > room_f + EPS {
                run.stats.add_counter("band prunes", 1);
            }
            best = best.max(v);
        }
        if depth == 0 {
            self.root_bound = self.root_bound.max((best - EPS).ceil() as usize);
            if self.root_lam.is_empty() {
                self.root_lam = self.lam[lo..hi].to_vec();
            }
        }
        Bounded::Open { best, cur }
    }

    /// Whether a bound `best` prunes a node with `room` pieces left.
    pub fn prunes(&mut self, best: f64, room: usize) -> bool {
        let pruned = best > room as f64 + EPS;
        self.prunes += u64::from(pruned);
        pruned
    }

    /// Reduced-cost fixing at `depth` with the multipliers of the last bound (whose value
    /// there was `cur`): squares no placement within the room can use are excluded from the
    /// node. Whether any was, and a square every such placement needs, if one is found.
    pub fn fix(
        &mut self,
        st: &mut Stack,
        depth: usize,
        room: usize,
        cur: f64,
    ) -> (bool, Option<usize>) {
        let w = st.w;
        let uo = depth * w;
        let room_f = room as f64;
        let mut forced = None;
        let mut excluded = false;
        for kw in 0..w {
            let mut word = st.allowed[uo + kw];
            while word != 0 {
                let c = kw * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let r = self.lag.rc[c];
                if r > 0.0 && cur + r > room_f + EPS {
                    st.allowed[uo + kw] &= !(1u64 << (c & 63));
                    excluded = true;
                    self.excluded += 1;
                } else if r < 0.0 && cur - r > room_f + EPS && forced.is_none() {
                    forced = Some(c);
                }
            }
        }
        (excluded, forced)
    }

    /// The counts of the bound's prunes and exclusions, added to the run's statistics and
    /// cleared.
    pub fn flush(&mut self, run: &mut Run) {
        for (name, v) in [
            ("bound prunes", &mut self.prunes),
            ("cost exclusions", &mut self.excluded),
        ] {
            if *v > 0 {
                run.stats.add_counter(name, *v);
                *v = 0;
            }
        }
    }

    /// The greedy fractional packing bound at the root (uncovered squares from `uo`, their
    /// candidate counts in `count`); its weights seed the root's Lagrange multipliers.
    fn packing(
        &mut self,
        m: &Model,
        st: &Stack,
        count: &[u32],
        uo: usize,
        uncovered_total: usize,
    ) -> usize {
        let w = st.w;
        // Bucket the uncovered squares by candidate count.
        let nb = self.stride + 2;
        self.bucket_start[..nb].fill(0);
        for kw in 0..w {
            let mut word = st.uncovered[uo + kw];
            while word != 0 {
                let t = kw * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                self.bucket_start[count[t] as usize + 1] += 1;
            }
        }
        for b in 1..nb {
            self.bucket_start[b] += self.bucket_start[b - 1];
        }
        for kw in 0..w {
            let mut word = st.uncovered[uo + kw];
            while word != 0 {
                let t = kw * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let b = count[t] as usize;
                self.order[self.bucket_start[b]] = t;
                self.bucket_start[b] += 1;
            }
        }
        let mut total = 0u64;
        for idx in 0..uncovered_total {
            let t = self.order[idx];
            let row = m.coverers.row(t);
            let mut most = 0u32;
            for i in 0..w {
                let mut word = row[i] & st.allowed[uo + i];
                while word != 0 {
                    let s = i * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    most = most.max(self.load[s]);
                }
            }
            let y = UNIT - most;
            if y == 0 {
                continue;
            }
            total += y as u64;
            self.lam[t] = y as f64 / UNIT as f64;
            for i in 0..w {
                let mut word = row[i] & st.allowed[uo + i];
                while word != 0 {
                    let s = i * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    if self.load[s] == 0 {
                        self.touched.push(s);
                    }
                    self.load[s] += y;
                }
            }
        }
        for &s in &self.touched {
            self.load[s] = 0;
        }
        self.touched.clear();
        total.div_ceil(UNIT as u64) as usize
    }
}
