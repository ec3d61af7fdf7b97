//! The completions of a constellation that a half or a quarter turn maps to themselves, for
//! the count up to symmetry (Burnside): a search over the upper half of the board, each
//! queen placed with its image. Apart from the plain search because only the few
//! constellations with a rotational stabiliser need it, and it walks the board square by
//! square rather than by masks.

use super::constellations::{Constellation, MAX_N};

/// The completions of a constellation that a half turn maps to themselves, and those a
/// quarter turn does (`[half, quarter]`). A half turn pairs row `r` with row `m - r` and
/// column `k` with `m - k`, so such a completion is fixed by its upper half: the search
/// places each queen with its image and visits some square root of the plain search's nodes.
/// The quarter-turn ones are among them and are picked out at the leaves.
pub(super) fn fixed_by_half_turn(n: usize, c: &Constellation) -> [u64; 2] {
    let m = n - 1;
    let mut board = HalfTurn {
        m,
        column: [usize::MAX; MAX_N],
        cols: 0,
        diag: 0,
        anti: 0,
        fixed: [0; 2],
    };
    // The border queens are images of one another (the constellation is fixed by a half
    // turn), and on odd boards the middle row's queen is the centre, its own image.
    let mut queens = vec![
        (0, c.top as usize),
        (m, c.bottom as usize),
        (c.left as usize, 0),
        (c.right as usize, m),
    ];
    if n % 2 == 1 {
        queens.push((m / 2, m / 2));
    }
    for (r, k) in queens {
        if !board.free(r, k) {
            return [0; 2];
        }
        board.place(r, k);
    }
    board.fill(1);
    board.fixed
}

/// The board of [`fixed_by_half_turn`]: the column of each row's queen (`usize::MAX` while
/// empty) and the lines taken, diagonals indexed by `r + m - k` and anti-diagonals by `r + k`.
struct HalfTurn {
    m: usize,
    column: [usize; MAX_N],
    cols: u64,
    diag: u64,
    anti: u64,
    fixed: [u64; 2],
}

impl HalfTurn {
    fn free(&self, r: usize, k: usize) -> bool {
        self.column[r] == usize::MAX
            && (self.cols >> k) & 1 == 0
            && (self.diag >> (r + self.m - k)) & 1 == 0
            && (self.anti >> (r + k)) & 1 == 0
    }

    fn place(&mut self, r: usize, k: usize) {
        self.column[r] = k;
        self.cols |= 1 << k;
        self.diag |= 1 << (r + self.m - k);
        self.anti |= 1 << (r + k);
    }

    fn remove(&mut self, r: usize, k: usize) {
        self.column[r] = usize::MAX;
        self.cols &= !(1 << k);
        self.diag &= !(1 << (r + self.m - k));
        self.anti &= !(1 << (r + k));
    }

    /// Fills rows `r..` of the upper half, each with its image in the lower half.
    fn fill(&mut self, r: usize) {
        let m = self.m;
        if 2 * r >= m {
            self.fixed[0] += 1;
            let quarter = (0..=m).all(|row| self.column[self.column[row]] == m - row);
            self.fixed[1] += quarter as u64;
            return;
        }
        if self.column[r] != usize::MAX {
            return self.fill(r + 1);
        }
        for k in 1..m {
            if !self.free(r, k) {
                continue;
            }
            self.place(r, k);
            // The image shares a line with (r, k) only on the centre's lines, which a
            // placed queen would then hold twice.
            if self.free(m - r, m - k) {
                self.place(m - r, m - k);
                self.fill(r + 1);
                self.remove(m - r, m - k);
            }
            self.remove(r, k);
        }
    }
}
