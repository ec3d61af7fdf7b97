//! Local search for small covering placements: the first incumbent of `bnb`.
//!
//! With one piece fewer than the best cover found, each step lifts the piece whose squares
//! matter least and puts one on a coverer of a random uncovered square, the one that gains
//! the most. "Matter" and "gain" are weighted: every square carries a weight that grows by
//! one for each step it stays uncovered, so squares the search keeps leaving open get
//! covered at last and the search cannot circle in one trap (square weighting, as in the
//! best local searches for minimum dominating sets). Weights are scaled down now and then
//! so old history fades. A lifted square is tabu for a few steps, the piece just placed is
//! not lifted next, and ties go to the square left alone the longest.
//!
//! Under `independent`, placing a piece lifts the pieces it attacks or that attack it; their
//! loss counts against its gain, and the count of pieces may fall below the target for a
//! few steps (then a step only places).

use super::model::Model;
use crate::engine::Run;
use crate::util::{Rng, ones};

/// A placement under local search: pieces, how many pieces cover each square, and the
/// uncovered cells as a set with O(1) insert and remove.
struct Placement {
    pieces: Vec<u32>,
    on: Vec<bool>,
    cnt: Vec<u32>,
    unc: Vec<u32>,
    at: Vec<u32>,
    /// For a piece: the weight of the squares it alone covers (what lifting it loses).
    loss: Vec<u64>,
    /// For a square: the XOR of the pieces covering it, so the one piece covering it alone
    /// is at hand.
    xor: Vec<u32>,
}

impl Placement {
    fn new(n: usize, cells: &[usize]) -> Placement {
        let mut at = vec![u32::MAX; n];
        let mut unc = Vec::with_capacity(cells.len());
        for &c in cells {
            at[c] = unc.len() as u32;
            unc.push(c as u32);
        }
        Placement {
            pieces: Vec::new(),
            on: vec![false; n],
            cnt: vec![0; n],
            unc,
            at,
            loss: vec![0; n],
            xor: vec![0; n],
        }
    }

    fn add(&mut self, p: usize, cov: &Lists, weight: &[u64]) {
        self.on[p] = true;
        self.pieces.push(p as u32);
        self.loss[p] = 0;
        for &v in &cov[p] {
            let v = v as usize;
            self.cnt[v] += 1;
            match self.cnt[v] {
                1 => {
                    self.loss[p] += weight[v];
                    let i = self.at[v] as usize;
                    let last = self.unc.pop().expect("v is uncovered");
                    if last as usize != v {
                        self.unc[i] = last;
                        self.at[last as usize] = i as u32;
                    }
                    self.at[v] = u32::MAX;
                }
                2 => {
                    // The piece that covered v alone no longer does.
                    self.loss[self.xor[v] as usize] -= weight[v];
                }
                _ => {}
            }
            self.xor[v] ^= p as u32;
        }
    }

    fn remove(&mut self, p: usize, cov: &Lists, weight: &[u64]) {
        self.on[p] = false;
        let i = self
            .pieces
            .iter()
            .position(|&q| q as usize == p)
            .expect("p holds a piece");
        self.pieces.swap_remove(i);
        for &v in &cov[p] {
            let v = v as usize;
            self.cnt[v] -= 1;
            self.xor[v] ^= p as u32;
            match self.cnt[v] {
                0 => {
                    self.at[v] = self.unc.len() as u32;
                    self.unc.push(v as u32);
                }
                1 => self.loss[self.xor[v] as usize] += weight[v],
                _ => {}
            }
        }
    }

    /// Every piece's loss from scratch (after the weights were scaled).
    fn reckon(&mut self, cov: &Lists, weight: &[u64]) {
        for &p in &self.pieces {
            let p = p as usize;
            self.loss[p] = cov[p]
                .iter()
                .filter(|&&v| self.cnt[v as usize] == 1)
                .map(|&v| weight[v as usize])
                .sum();
        }
    }
}

/// Lists of squares by square, in one array (the steps read them in their inner loops).
struct Lists {
    start: Vec<u32>,
    data: Vec<u32>,
}

impl Lists {
    fn new(n: usize, mut list: impl FnMut(usize) -> Vec<u32>) -> Lists {
        let mut start = Vec::with_capacity(n + 1);
        let mut data = Vec::new();
        start.push(0);
        for s in 0..n {
            data.extend(list(s));
            start.push(data.len() as u32);
        }
        Lists { start, data }
    }
}

impl std::ops::Index<usize> for Lists {
    type Output = [u32];
    #[inline]
    fn index(&self, s: usize) -> &[u32] {
        &self.data[self.start[s] as usize..self.start[s + 1] as usize]
    }
}

struct Search<'a> {
    cov: &'a Lists,
    cvr: &'a Lists,
    clash: &'a Lists,
    st: Placement,
    weight: Vec<u64>,
    total: u64,
    cells: u64,
    /// The step at which a square last gained or lost a piece (ties: the oldest first).
    age: Vec<u64>,
    tabu_until: Vec<u64>,
    tenure: u64,
    rng: Rng,
    step: u64,
    /// Scratch for `gain`: a square's last stamp, the pieces a placement would displace.
    mark: Vec<u64>,
    stamp: u64,
    displaced: Vec<u32>,
    /// Weights are scaled by `fade` once their mean passes `mean_cap` (`local.*` options).
    mean_cap: u64,
    fade: f64,
}

impl Search<'_> {
    /// Lift the piece that loses the least (never `keep`), ties to the oldest.
    fn lift_one(&mut self, keep: usize) {
        let mut pick = usize::MAX;
        let mut least = (u64::MAX, u64::MAX);
        for &p in &self.st.pieces {
            let p = p as usize;
            if p == keep {
                continue;
            }
            let key = (self.st.loss[p], self.age[p]);
            if key < least {
                least = key;
                pick = p;
            }
        }
        if pick != usize::MAX {
            self.st.remove(pick, self.cov, &self.weight);
            self.age[pick] = self.step;
            self.tabu_until[pick] = self.step + self.tenure;
        }
    }

    /// The weighted gain of a piece on `c`: the uncovered weight it covers, less what the
    /// pieces it would displace (under `independent`) alone cover and it does not.
    fn gain(&mut self, c: usize) -> i64 {
        let (cov, st, weight) = (self.cov, &mut self.st, &self.weight);
        let mut score: i64 = cov[c]
            .iter()
            .filter(|&&v| st.cnt[v as usize] == 0)
            .map(|&v| weight[v as usize] as i64)
            .sum();
        self.displaced.clear();
        self.displaced
            .extend(self.clash[c].iter().filter(|&&q| st.on[q as usize]));
        if !self.displaced.is_empty() {
            // Squares c covers, and squares already counted, carry this step's stamp.
            self.stamp += 1;
            let stamp = self.stamp;
            for &v in &cov[c] {
                self.mark[v as usize] = stamp;
            }
            for &q in &self.displaced {
                for &v in &cov[q as usize] {
                    st.cnt[v as usize] -= 1;
                }
            }
            for &q in &self.displaced {
                for &v in &cov[q as usize] {
                    let v = v as usize;
                    if st.cnt[v] == 0 && self.mark[v] != stamp {
                        self.mark[v] = stamp;
                        score -= weight[v] as i64;
                    }
                }
            }
            for &q in &self.displaced {
                for &v in &cov[q as usize] {
                    st.cnt[v as usize] += 1;
                }
            }
        }
        score
    }

    /// Place a piece on a coverer of a random uncovered square (none of which holds a piece);
    /// returns the square.
    fn place(&mut self) -> usize {
        let u = self.st.unc[self.rng.below(self.st.unc.len())] as usize;
        let cvr = self.cvr;
        let mut pick = usize::MAX;
        let mut best = (i64::MIN, u64::MAX);
        for &c in &cvr[u] {
            let c = c as usize;
            if self.tabu_until[c] > self.step {
                continue;
            }
            let g = self.gain(c);
            // Highest gain, then the oldest.
            if g > best.0 || (g == best.0 && self.age[c] < best.1) {
                best = (g, self.age[c]);
                pick = c;
            }
        }
        if pick == usize::MAX {
            // Every coverer is tabu: take one at random (the weights move on anyway).
            pick = cvr[u][self.rng.below(cvr[u].len())] as usize;
        }
        for &q in &self.clash[pick] {
            if self.st.on[q as usize] {
                self.st.remove(q as usize, self.cov, &self.weight);
                self.age[q as usize] = self.step;
                self.tabu_until[q as usize] = self.step + self.tenure;
            }
        }
        self.st.add(pick, self.cov, &self.weight);
        self.age[pick] = self.step;
        pick
    }

    /// Uncovered squares gain weight; all weights fade once their mean is high.
    fn reweigh(&mut self) {
        for &v in &self.st.unc {
            self.weight[v as usize] += 1;
        }
        self.total += self.st.unc.len() as u64;
        if self.total > self.mean_cap * self.cells {
            self.total = 0;
            for w in self.weight.iter_mut() {
                if *w > 0 {
                    *w = ((*w as f64 * self.fade) as u64).max(1);
                    self.total += *w;
                }
            }
            self.st.reckon(self.cov, &self.weight);
        }
    }
}

impl Model {
    /// Steps without a smaller cover before the local search gives up, as `bnb` uses it. An
    /// optimal incumbent early spares the search most of its work, and the search's cost
    /// grows much faster with the board than the local search's: the patience doubles with
    /// every 24 squares, 10,000 steps at 144 (12x12), and stays between 2,000 and a million.
    pub fn local_patience(&self) -> u64 {
        let cells = self.cells.len() as f64;
        (10_000.0 * ((cells - 144.0) / 24.0).exp2()).clamp(2_000.0, 1e6) as u64
    }

    /// Look for covers with fewer pieces than `start` (a covering placement that respects
    /// `independent`) by the weighted local search above. Gives up after `stall` steps
    /// without a smaller cover. Returns the smallest cover found if it beats `start`.
    pub fn local_search(&self, start: &[usize], stall: u64, run: &mut Run) -> Option<Vec<usize>> {
        let n = self.board.squares();
        if start.len() < 2 {
            return None;
        }
        let lists = |m: &crate::util::BitMatrix, s: usize, skip_self: bool| -> Vec<u32> {
            ones(m.row(s))
                .filter(|&t| !skip_self || t != s)
                .map(|t| t as u32)
                .collect()
        };
        let cov = Lists::new(n, |s| lists(&self.cover, s, false));
        let cvr = Lists::new(n, |s| lists(&self.coverers, s, false));
        // Under `independent`, the squares a piece on s may not share the board with.
        let clash = Lists::new(n, |s| {
            if self.independent {
                lists(&self.conflict, s, true)
            } else {
                Vec::new()
            }
        });
        let mut weight = vec![0u64; n];
        for &c in &self.cells {
            weight[c] = 1;
        }
        let mut s = Search {
            cov: &cov,
            cvr: &cvr,
            clash: &clash,
            st: Placement::new(n, &self.cells),
            weight,
            total: self.cells.len() as u64,
            cells: self.cells.len() as u64,
            age: vec![0; n],
            tabu_until: vec![0; n],
            tenure: 2 + start.len() as u64 / 10,
            rng: Rng(0x2545_f491_4f6c_dd1d),
            step: 1,
            mark: vec![0; n],
            stamp: 0,
            displaced: Vec::new(),
            mean_cap: self.tuning.local.mean_cap,
            fade: self.tuning.local.fade,
        };
        for &p in start {
            s.st.add(p, &cov, &s.weight);
        }
        let mut best: Option<Vec<usize>> = None;
        let mut target = start.len() - 1;
        s.lift_one(usize::MAX);
        let mut since = 0u64;
        let mut last = usize::MAX;
        while since < stall {
            since += 1;
            s.step += 1;
            if run.poll() {
                break;
            }
            if s.st.unc.is_empty() {
                since = 0;
                best = Some(s.st.pieces.iter().map(|&p| p as usize).collect());
                if target < 2 {
                    break;
                }
                target -= 1;
                while s.st.pieces.len() > target {
                    s.lift_one(usize::MAX);
                }
                continue;
            }
            if s.st.pieces.len() >= target {
                // The step places one piece: lift one first (not the one placed last), so
                // the count stays at the target.
                s.lift_one(last);
            }
            last = s.place();
            s.reweigh();
        }
        best.filter(|b| b.len() < start.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::board::betza::Piece;
    use crate::engine::Limits;

    /// The incremental bookkeeping (uncovered set, each piece's loss, the XOR of coverers)
    /// equals a recount after every one of many random moves, with random weights.
    #[test]
    fn placement_bookkeeping_matches_a_recount() {
        let mut board = Board::new(9, 7);
        board.set_hole(10);
        board.set_hole(33);
        let m = Model::new(board, Piece::parse("NW").unwrap(), 'X', false);
        let n = m.board.squares();
        let lists = |b: &crate::util::BitMatrix| {
            Lists::new(n, |s| ones(b.row(s)).map(|t| t as u32).collect())
        };
        let (cov, cvr) = (lists(&m.cover), lists(&m.coverers));
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let weight: Vec<u64> = (0..n).map(|_| 1 + rng.next() % 50).collect();
        let mut st = Placement::new(n, &m.cells);
        for _ in 0..3000 {
            let c = m.cells[rng.below(m.cells.len())];
            if st.on[c] {
                st.remove(c, &cov, &weight);
            } else {
                st.add(c, &cov, &weight);
            }
            for &v in &m.cells {
                let by: Vec<usize> = cvr[v]
                    .iter()
                    .map(|&q| q as usize)
                    .filter(|&q| st.on[q])
                    .collect();
                assert_eq!(st.cnt[v] as usize, by.len());
                assert_eq!(st.at[v] != u32::MAX, by.is_empty());
                if by.len() == 1 {
                    assert_eq!(st.xor[v] as usize, by[0]);
                }
            }
            for &p in &st.pieces {
                let p = p as usize;
                let alone: u64 = cov[p]
                    .iter()
                    .filter(|&&v| st.cnt[v as usize] == 1)
                    .map(|&v| weight[v as usize])
                    .sum();
                assert_eq!(st.loss[p], alone, "piece {p}");
            }
        }
    }

    /// From a cover of every square, the search finds smaller covers that the model accepts,
    /// independent ones where asked, on a holed board with an unusual piece.
    #[test]
    fn finds_smaller_valid_covers() {
        for independent in [false, true] {
            let mut board = Board::new(10, 9);
            for h in [0, 11, 45, 46, 89] {
                board.set_hole(h);
            }
            let m = Model::new(board, Piece::parse("NF").unwrap(), 'X', independent);
            let mut run = Run::new(Limits::default());
            let start = m.heuristic(1, &mut run).expect("a cover");
            let better = m
                .local_search(&start, 20_000, &mut run)
                .expect("the greedy cover is not the best");
            assert!(better.len() < start.len());
            m.check(&better).expect("a valid cover");
        }
    }
}
