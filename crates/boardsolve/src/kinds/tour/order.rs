//! The order in which `count`'s sweep takes the board's squares: lines across the shorter
//! side, one after another along the longer side (the board is transposed when it is
//! taller than wide), each line in an order of its places.
//!
//! The frontier is the squares swept that still have a neighbour to come. A square two
//! lines back leaves it once both its neighbours on the new line (places j - 1 and j + 1)
//! are swept. Taken from one edge to the other, place j frees place j - 1 two lines back
//! and the first place frees none, so the frontier holds 2w + 1 squares. With a line's odd
//! places first the even places two lines back leave early, the frontier holds 2w, and the
//! states at the middle of a line, where the row order holds its most, never pass those at
//! the line's ends: on 8x7 closed 0.35 of the row order's widest square and 0.45 of its
//! states in all, on 8x8 0.6 at square 35 (benches/reference/sweep_order.rs compares these
//! and other orders, docs/performance.md "Orders of the squares").
//!
//! The cost is a longer window: a square stays in the state until its last neighbour is
//! swept, up to 3w - 1 squares later where the row order needs 2w + 1 ([`Order::span`]).
//! Counting prefixes (each a first part of the rows), the half turn's quotient (whose
//! middle is the image of the order reversed) and open tours whose ends are not both given
//! (a square that may end the tour stays labelled in the longer window) keep the row order.

use crate::board::Board;

/// The measured best orders of a line's places, by the line's length; other lengths take
/// their odd places up, then their even places down. Lines of 6 take the best order whose
/// window (15 squares) fits a 64-bit state: on 10x6 closed it holds 3.6 million states in
/// all against 3.1 million for the odd places first, which need 128-bit ones, and runs in
/// 1.0 s against 1.6 s.
const MEASURED: &[&[usize]] = &[
    &[2, 4, 1, 3, 5, 0],
    &[1, 5, 3, 6, 4, 2, 0],
    &[1, 6, 3, 5, 7, 4, 2, 0],
];

/// Where each square of the sweep lies on the board.
#[derive(Clone, Debug)]
pub(super) struct Order {
    /// Places across the shorter side, lines along the longer.
    pub(super) w: usize,
    pub(super) h: usize,
    transpose: bool,
    board_width: usize,
    /// The place of each position in a line, and the position of each place.
    line: Vec<usize>,
    position: Vec<usize>,
}

impl Order {
    /// Lines taken from place 0 up (prefixes, the half turn).
    pub(super) fn rows(b: &Board) -> Order {
        let w = b.width.min(b.height);
        Order::with_line(b, (0..w).collect())
    }

    /// The order with the fewest states measured for lines of the board's shorter side.
    pub(super) fn best(b: &Board) -> Order {
        let w = b.width.min(b.height);
        let line = match MEASURED.iter().find(|l| l.len() == w) {
            Some(l) => l.to_vec(),
            None => (1..w).step_by(2).chain((0..w).step_by(2).rev()).collect(),
        };
        Order::with_line(b, line)
    }

    fn with_line(b: &Board, line: Vec<usize>) -> Order {
        let transpose = b.height < b.width;
        let (w, h) = if transpose {
            (b.height, b.width)
        } else {
            (b.width, b.height)
        };
        let mut position = vec![0; w];
        for (k, &c) in line.iter().enumerate() {
            position[c] = k;
        }
        Order {
            w,
            h,
            transpose,
            board_width: b.width,
            line,
            position,
        }
    }

    /// Line and place of sweep square `p`.
    #[inline]
    pub(super) fn at(&self, p: usize) -> (usize, usize) {
        (p / self.w, self.line[p % self.w])
    }

    /// The sweep square at line `r`, place `c`.
    #[inline]
    pub(super) fn index(&self, r: usize, c: usize) -> usize {
        r * self.w + self.position[c]
    }

    /// The sweep square at line `r` + `dr`, place `c` + `dc`, if on the board.
    pub(super) fn step(&self, (r, c): (usize, usize), (dr, dc): (i64, i64)) -> Option<usize> {
        let (r2, c2) = (r as i64 + dr, c as i64 + dc);
        let inside = r2 >= 0 && c2 >= 0 && (r2 as usize) < self.h && (c2 as usize) < self.w;
        inside.then(|| self.index(r2 as usize, c2 as usize))
    }

    /// The board's square of sweep square `p`.
    pub(super) fn square(&self, p: usize) -> usize {
        let (r, c) = self.at(p);
        let (row, col) = if self.transpose { (c, r) } else { (r, c) };
        row * self.board_width + col
    }

    /// The sweep square of the board's square `sq`.
    pub(super) fn of_square(&self, sq: usize) -> usize {
        let (row, col) = (sq / self.board_width, sq % self.board_width);
        if self.transpose {
            self.index(col, row)
        } else {
            self.index(row, col)
        }
    }

    /// The colour of sweep square `p`.
    pub(super) fn colour(&self, p: usize) -> u8 {
        let (r, c) = self.at(p);
        ((r + c) % 2) as u8
    }

    /// The most sweep squares from a square to a knight's neighbour of it: how many squares
    /// the window holds.
    pub(super) fn span(&self) -> usize {
        let mut most = 0;
        for p in 0..self.w * self.h.min(3) {
            for d in super::model::KNIGHT {
                if let Some(q) = self.step(self.at(p), d) {
                    most = most.max(q.saturating_sub(p));
                }
            }
        }
        most
    }

    /// The most squares swept with a neighbour still to come, after any square.
    #[cfg(test)]
    pub(super) fn width(&self) -> usize {
        let n = self.w * self.h;
        (0..n)
            .map(|p| {
                (0..=p)
                    .filter(|&q| {
                        super::model::KNIGHT
                            .iter()
                            .any(|&d| self.step(self.at(q), d).is_some_and(|x| x > p))
                    })
                    .count()
            })
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(w: usize, h: usize) -> Board {
        Board::new(w, h)
    }

    #[test]
    fn every_square_has_one_place_in_the_sweep() {
        for (w, h) in [(1, 1), (3, 4), (4, 3), (7, 8), (8, 7), (10, 6), (5, 5)] {
            let b = board(w, h);
            for o in [Order::rows(&b), Order::best(&b)] {
                let mut seen = vec![false; w * h];
                for p in 0..w * h {
                    let sq = o.square(p);
                    assert!(!seen[sq], "{w}x{h}");
                    seen[sq] = true;
                    assert_eq!(o.of_square(sq), p, "{w}x{h}");
                    assert_eq!(o.colour(p) as usize, (sq / w + sq % w) % 2);
                }
            }
        }
    }

    #[test]
    fn the_best_order_keeps_the_frontier_within_the_rows() {
        // The labels of a state (4 bits a square, 2 to 14) are bounded for a frontier of
        // 2w + 1 squares; the window fits a 128-bit state (31 squares).
        for w in 1..=super::super::rule::MAX_SHORT_SIDE {
            let b = board(w, w + 3);
            let (rows, best) = (Order::rows(&b), Order::best(&b));
            if w >= 2 {
                assert_eq!(rows.span(), 2 * w + 1);
            }
            assert!(best.width() <= rows.width(), "{w}");
            assert!(best.span() < 32, "{w}");
            // Lines of 6 take an order whose window fits a 64-bit state, as wide a frontier.
            if w >= 4 && w != 6 {
                assert!(best.width() < rows.width(), "{w}");
            }
        }
    }
}
