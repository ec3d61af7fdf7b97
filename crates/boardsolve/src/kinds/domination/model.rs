//! The compiled model of a domination puzzle: the board, the piece, and per square the
//! bitsets every strategy reads (what a piece covers, who covers a square, what may not
//! share the board with it); the tuning of the strategies; the check of a placement; and a
//! quick greedy placement (the local search that improves it is in `local`).

use super::options::{OptionError, Tuning};
use super::vocab::DominationReason;
use crate::board::Board;
use crate::board::betza::Piece;
use crate::engine::Run;
use crate::kinds::Violation;
use crate::kinds::army::{self, Army};
use crate::spec::{self, DominationSpec, Kind, Spec, SpecError};
use crate::util::BitMatrix;

/// Boards larger than this are refused up front: three bitsets per square (4096 squares:
/// 6 MiB) and a search depth up to the number of squares.
pub const MAX_SQUARES: usize = Kind::Domination.max_squares();

pub struct Model {
    pub board: Board,
    pub piece: Piece,
    pub symbol: char,
    /// Pieces may not attack each other (independent domination).
    pub independent: bool,
    /// Squares on the board (not holes), in index order.
    pub cells: Vec<usize>,
    /// Words of one bitset over the board's squares.
    pub words: usize,
    /// `cover.row(s)`: the squares a piece on `s` takes care of: `s` itself and what it attacks.
    pub cover: BitMatrix,
    /// `coverers.row(t)`: the squares from which a piece takes care of `t`.
    pub coverers: BitMatrix,
    /// `conflict.row(s)`: squares a second piece may not take once `s` holds one under
    /// `independent` (`s` itself, what it attacks and what attacks it); `s` alone otherwise.
    pub conflict: BitMatrix,
    /// Every cell, as a bitset.
    pub all: Vec<u64>,
    pub symmetries: Vec<Vec<u32>>,
    /// The strategies' tuning knobs (see `options`): how fast they go, not what they prove.
    pub tuning: Tuning,
    /// Where a parallel `bnb` proof writes the trace of the pieces its workers searched
    /// (see `bnb::pool::Trace`): a measuring instrument, which the front end points.
    pub trace: Option<std::path::PathBuf>,
    /// Givens or several pieces: a placement is then a list of codes ([`Army`]), which
    /// `dlx` alone searches; the bitsets above are the first piece's.
    pub army: Option<Army>,
}

impl Model {
    pub fn compile(spec: &Spec, rules: &DominationSpec) -> Result<Model, SpecError> {
        let board = spec.board().clone();
        let piece_spec = match &rules.army {
            spec::Army::One { piece, .. } => piece,
            spec::Army::Mixed(list) => &list[0].piece,
        };
        let independent = rules
            .independent
            .as_ref()
            .map(|v| *v.get_ref())
            .unwrap_or(false);
        let army = Army::compile(spec, &rules.army, (0, board.cell_count()), independent)?;
        let mut m = Model::new(
            board,
            piece_spec.piece.clone(),
            piece_spec.symbol,
            independent,
        );
        m.army = army;
        for (key, value) in &spec.solve.options {
            m.set_option(key, *value.get_ref()).map_err(|why| {
                spec.err(
                    value.span(),
                    &format!("solve.options.{key}"),
                    why.to_string(),
                )
            })?;
        }
        Ok(m)
    }

    pub fn new(board: Board, piece: Piece, symbol: char, independent: bool) -> Model {
        let n = board.squares();
        let attacks = board.attack_matrix(&piece);
        let mut cover = BitMatrix::new(n, n);
        let mut coverers = BitMatrix::new(n, n);
        let mut conflict = BitMatrix::new(n, n);
        let cells: Vec<usize> = board.cells().collect();
        let mut all = vec![0u64; n.div_ceil(64).max(1)];
        for &s in &cells {
            all[s >> 6] |= 1 << (s & 63);
            cover.set(s, s);
            coverers.set(s, s);
            conflict.set(s, s);
            for &t in &cells {
                if attacks.get(s, t) {
                    cover.set(s, t);
                    coverers.set(t, s);
                    if independent {
                        conflict.set(s, t);
                        conflict.set(t, s);
                    }
                }
            }
        }
        Model {
            symmetries: board.symmetries(),
            words: cover.words_per_row(),
            board,
            piece,
            symbol,
            independent,
            cells,
            cover,
            coverers,
            conflict,
            all,
            tuning: Tuning::default(),
            trace: None,
            army: None,
        }
    }

    /// A plain (not independent) model of `moves` on a board with `holes`, for the
    /// techniques' unit tests.
    #[cfg(test)]
    pub fn for_test(moves: &str, width: usize, height: usize, holes: &[usize]) -> Model {
        let piece = Piece::parse(moves).expect("a piece");
        let mut board = Board::new(width, height);
        for &h in holes {
            board.set_hole(h);
        }
        Model::new(board, piece, 'X', false)
    }

    /// Set a tuning option by key (`"bnb.root_steps"`; see `option_table`). The error gives
    /// the accepted range, or the known keys.
    /// Why no placement answers the puzzle, from the rules that narrow its placements.
    pub fn no_cover(&self) -> DominationReason {
        DominationReason::NoCover {
            independent: self.independent,
            counts: self.army.as_ref().is_some_and(|a| a.mixed),
            givens: self.army.as_ref().is_some_and(|a| !a.givens.is_empty()),
        }
    }

    pub fn set_option(&mut self, key: &str, value: f64) -> Result<(), OptionError> {
        self.tuning.set(key, value)
    }

    /// A placement is valid: distinct squares on the board, every square occupied or attacked,
    /// and under `independent` no piece attacking another. (Minimality is the search's claim.)
    pub fn check(&self, squares: &[usize]) -> Result<(), Violation> {
        if let Some(a) = &self.army {
            a.check(&self.board, squares, true, self.independent)?;
            let covered = army::covered(a, &self.board, squares);
            return match self.board.cells().find(|&s| !covered[s]) {
                Some(s) => Err(Violation::Uncovered { square: s }),
                None => Ok(()),
            };
        }
        let mut covered = vec![0u64; self.words];
        // Every square on the board first: the pairs below look them up.
        if let Some(a) = squares
            .iter()
            .find(|&&a| a >= self.board.squares() || self.board.is_hole(a))
        {
            return Err(Violation::NotOnBoard { square: *a });
        }
        for (i, &a) in squares.iter().enumerate() {
            for &b in &squares[i + 1..] {
                if a == b {
                    return Err(Violation::TwoOnSquare { square: a });
                }
                if self.independent && self.conflict.get(a, b) {
                    return Err(Violation::Attack { a, b });
                }
            }
            for (c, w) in covered.iter_mut().zip(self.cover.row(a)) {
                *c |= w;
            }
        }
        match self
            .cells
            .iter()
            .find(|&&s| covered[s >> 6] >> (s & 63) & 1 == 0)
        {
            Some(&s) => Err(Violation::Uncovered { square: s }),
            None => Ok(()),
        }
    }

    /// Whether `squares` covers the board (and, under `independent`, is independent): the
    /// search's own fast test, for the heuristic.
    fn covers(&self, squares: &[usize]) -> bool {
        self.check(squares).is_ok()
    }

    /// A covering placement found quickly: greedy choices (the square covering the most
    /// uncovered squares, ties broken at random), then pieces that turn out redundant
    /// removed; the best of `rounds` tries. `None` only when no covering placement respects
    /// `independent`, which cannot happen for the symmetric attack relations of Betza pieces
    /// (a maximal independent set covers the board), but the search does not rely on it.
    pub fn heuristic(&self, rounds: usize, run: &mut Run) -> Option<Vec<usize>> {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut best: Option<Vec<usize>> = None;
        let w = self.words;
        let mut uncovered = vec![0u64; w];
        let mut allowed = vec![0u64; w];
        let mut placed = Vec::new();
        for round in 0..rounds {
            // Rounds are not search nodes; the limits are still honoured between rounds.
            if run.check() {
                break;
            }
            uncovered.copy_from_slice(&self.all);
            allowed.copy_from_slice(&self.all);
            placed.clear();
            while uncovered.iter().any(|&x| x != 0) {
                let mut pick = None;
                let mut pick_gain = 0u32;
                let mut ties = 0u64;
                for (k, &aw) in allowed.iter().enumerate() {
                    let mut word = aw;
                    while word != 0 {
                        let s = k * 64 + word.trailing_zeros() as usize;
                        word &= word - 1;
                        let gain: u32 = self
                            .cover
                            .row(s)
                            .iter()
                            .zip(&uncovered)
                            .map(|(a, b)| (a & b).count_ones())
                            .sum();
                        if gain == 0 {
                            continue;
                        }
                        if gain > pick_gain {
                            pick = Some(s);
                            pick_gain = gain;
                            ties = 1;
                        } else if gain == pick_gain && round > 0 {
                            // Reservoir sampling among equal gains: a uniform tie-break.
                            ties += 1;
                            rng ^= rng << 13;
                            rng ^= rng >> 7;
                            rng ^= rng << 17;
                            if rng.is_multiple_of(ties) {
                                pick = Some(s);
                            }
                        }
                    }
                }
                let Some(s) = pick else { break };
                placed.push(s);
                for ((u, a), (c, x)) in uncovered
                    .iter_mut()
                    .zip(allowed.iter_mut())
                    .zip(self.cover.row(s).iter().zip(self.conflict.row(s)))
                {
                    *u &= !c;
                    *a &= !x;
                }
            }
            if uncovered.iter().any(|&x| x != 0) {
                continue;
            }
            // Drop pieces whose squares the others cover anyway (latest first).
            let mut i = placed.len();
            while i > 0 && !run.poll() {
                i -= 1;
                let s = placed.remove(i);
                if !self.covers(&placed) {
                    placed.insert(i, s);
                }
            }
            // Swaps cost more than a greedy round: only for placements near the best.
            if best.as_ref().is_none_or(|b| placed.len() <= b.len() + 1) {
                self.two_for_one(&mut placed, run);
            }
            if best.as_ref().is_none_or(|b| placed.len() < b.len()) {
                best = Some(placed.clone());
            }
        }
        best
    }

    /// Local improvement of a covering placement: while two pieces can be replaced by one
    /// square that covers everything only they covered (and, under `independent`, attacks no
    /// other piece), do so. Each step keeps a cover, so a stop (`run`, asked once per
    /// piece: on a large board a pass takes seconds) leaves one.
    pub fn two_for_one(&self, placed: &mut Vec<usize>, run: &mut Run) {
        let n = self.board.squares();
        let list = |s: usize| self.cover.row(s);
        // How many pieces cover each square.
        let mut cnt = vec![0u32; n];
        for &p in placed.iter() {
            for t in crate::util::ones(list(p)) {
                cnt[t] += 1;
            }
        }
        let w = self.words;
        let mut lost = vec![0u64; w];
        'again: loop {
            for i in 0..placed.len() {
                if run.poll() {
                    return;
                }
                for j in i + 1..placed.len() {
                    let (a, b) = (placed[i], placed[j]);
                    for t in crate::util::ones(list(a)).chain(crate::util::ones(list(b))) {
                        cnt[t] -= 1;
                    }
                    lost.fill(0);
                    let mut first = None;
                    for t in crate::util::ones(list(a)).chain(crate::util::ones(list(b))) {
                        if cnt[t] == 0 {
                            lost[t >> 6] |= 1 << (t & 63);
                            first.get_or_insert(t);
                        }
                    }
                    let mut replacement = None;
                    if let Some(f) = first {
                        for c in crate::util::ones(self.coverers.row(f)) {
                            let row = list(c);
                            if (0..w).any(|x| lost[x] & !row[x] != 0) {
                                continue;
                            }
                            let clash = self.independent
                                && placed
                                    .iter()
                                    .any(|&p| p != a && p != b && self.conflict.get(c, p));
                            if !clash {
                                replacement = Some(c);
                                break;
                            }
                        }
                    }
                    match (first, replacement) {
                        (Some(_), None) => {
                            for t in crate::util::ones(list(a)).chain(crate::util::ones(list(b))) {
                                cnt[t] += 1;
                            }
                        }
                        (_, r) => {
                            // Both go; the replacement (if anything was lost) comes in.
                            placed.swap_remove(j);
                            placed.swap_remove(i);
                            if let Some(c) = r {
                                placed.push(c);
                                for t in crate::util::ones(list(c)) {
                                    cnt[t] += 1;
                                }
                            }
                            continue 'again;
                        }
                    }
                }
            }
            break;
        }
    }

    /// The symmetries a class of placements is taken under: the board's, or those of them
    /// that keep the givens.
    pub fn symmetry_count(&self) -> usize {
        match &self.army {
            Some(a) => a.code_symmetries.len(),
            None => self.symmetries.len(),
        }
    }

    /// Symmetries as a bit mask (bit i: `symmetries[i]`), all of them.
    pub fn all_symmetries(&self) -> u32 {
        ((1u64 << self.symmetries.len()) - 1) as u32
    }
}
