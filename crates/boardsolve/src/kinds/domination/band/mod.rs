//! The band bound: a lower bound stronger than the linear relaxation, for `bnb` (strategy
//! `bands`).
//!
//! The linear relaxation of knight domination stays far below the optimum on large boards
//! (20x20 plain: 53.4 against 62), and the search has to close that gap node by node. Most of
//! the gap sits along the edges, where a piece covers fewer squares than in the middle and
//! fractional pieces make up for it. The band bound solves pieces of the board exactly.
//!
//! The rows are cut into bands (`layout`). Band b asks for the cheapest set of allowed
//! squares (candidates) that covers the uncovered squares of b, each candidate at a price
//! `w_b(c)`. The prices of one candidate split its cost between the bands it reaches:
//! `sum over b of w_b(c) = 1` (`split`). Any covering placement P of the whole board covers
//! every band, so `|P| = sum_b sum_{c in P} w_b(c) >= sum_b OPT_b(w_b)`: the sum of the
//! bands' optima is a lower bound for every split (Lagrangian decomposition). The split
//! starts from the node's Lagrange multipliers (each candidate's cost shared in proportion
//! to the multipliers of the squares it covers in each band, which makes the sum of the
//! bands' own Lagrangian bounds the node's bound exactly), so the band bound starts at
//! least at the node's Lagrangian value; subgradient steps on the split then raise it (a
//! candidate taken by one band's optimum and not by another's gets dearer in the first).
//!
//! One band's covering is solved exactly by a dynamic program along the columns
//! (`program`), up to a cap: a band that would cost more than the room the others leave
//! proves the node anyway. A band whose program outgrows its limits falls back to its own
//! Lagrangian bound, which is valid, only weaker.

mod layout;
mod program;
mod split;

use super::model::Model;
use layout::Layout;
use program::Program;
use split::Split;

pub struct Bands {
    /// Built once per model.
    layout: Layout,
    /// Filled at every call.
    split: Split,
    program: Program,
    /// A band's first cap above its share of the deficit (`bands.cap_extra`).
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
        let opts = &m.tuning.bands;
        let layout = Layout::new(m, opts.rows)?;
        Some(Bands {
            split: Split::new(&layout),
            program: Program::new(&layout, opts),
            cap_extra: opts.cap_extra,
            layout,
        })
    }

    /// The most bytes the band bound of `m` holds on one thread: its program at the caps
    /// `bands.max_states` and `bands.max_choices`.
    pub fn max_bytes(m: &Model) -> u64 {
        Program::max_bytes(&m.tuning.bands)
    }

    /// Bands solved so far (statistics).
    pub fn solves(&self) -> u64 {
        self.program.solves
    }

    /// States the programs met so far (statistics).
    pub fn states(&self) -> u64 {
        self.program.states
    }

    /// The band bound at a node with uncovered squares `unc`, allowed squares `alw` and
    /// multipliers `lam` (one per square and a trailing 0, as in `lagrange`): the best sum
    /// of the bands' optima met, which is a lower bound on the pieces still needed. Stops
    /// as soon as it exceeds `plan.enough`, or when `stop` says so before a band's program
    /// (a root of 20x20 is a long computation).
    ///
    /// Each call starts a fresh split from the node's own multipliers: a child's multipliers
    /// move more than its parent's final split keeps up with.
    pub fn bound(
        &mut self,
        unc: &[u64],
        alw: &[u64],
        lam: &[f64],
        plan: Plan,
        stop: &mut dyn FnMut() -> bool,
    ) -> f64 {
        self.split.load(&self.layout, unc, alw, lam);
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
            if !self.split.step(&self.layout, plan.enough + 1.0 - total, mu) {
                break;
            }
        }
        best
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
        let Bands {
            layout,
            split,
            program,
            cap_extra,
        } = self;
        split.own_bounds(layout, lam);
        let nb = layout.bands.len();
        let mut total: f64 = split.value.iter().sum();
        // First each band up to a little more than its share of the deficit (the program's
        // states grow fast with its cap, and most bands need far less than the whole
        // deficit; any cap gives a valid bound); then the bands that reached their cap
        // again, each up to all the deficit left, which proves the node if reached.
        let share = (enough - total) / nb as f64 + *cap_extra;
        for pass in 0..2 {
            for bi in 0..nb {
                if pass == 1 && split.exact[bi] {
                    continue;
                }
                let rest = total - split.value[bi];
                let cap = if pass == 0 {
                    (split.value[bi] + share).min(enough - rest)
                } else {
                    enough - rest
                };
                if stop() {
                    return None;
                }
                let v = program.solve(layout, split, bi, lam, cap);
                split.value[bi] = v;
                total = rest + v;
                if total > enough {
                    return Some(total);
                }
            }
        }
        Some(total)
    }
}

#[cfg(test)]
mod tests {
    use super::super::options::BandOptions;
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
            for band in &b.layout.bands {
                assert_eq!(band.top, top, "height {height}");
                assert!((1..=rows).contains(&band.height), "height {height}");
                top += band.height;
            }
            assert_eq!(top, height);
            assert_eq!(
                b.layout.bands.len(),
                height.div_ceil(rows),
                "height {height}"
            );
        }
    }

    #[test]
    fn riders_and_long_leapers_have_no_bands() {
        assert!(Bands::new(&model("Q", 8, 8)).is_none());
        assert!(Bands::new(&model("C", 8, 8)).is_none());
        assert!(Bands::new(&model("N", 8, 8)).is_some());
    }
}
