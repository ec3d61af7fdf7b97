//! The kind's validator, a library call every solution passes on its way out. Given as
//! squares, a placement is checked by the whole board's attack sets where the model has them.
//! On a larger board (more than 4,096 squares) pieces are checked by the lines they ride and
//! the squares they leap to, never by a table per square, so that 10^7 queens given as a
//! column per row are checked with bitsets of n and 2n - 1 bits. It shares no code with the
//! construction whose output it checks: it knows the rules, not how the placement was made.

use super::Model;
use crate::engine::StopReason;
use crate::kinds::{CheckError, Line, Violation};
use crate::util::Packed;

/// Rows checked between two questions to the clock.
const ASK_EVERY_ROWS: usize = 1 << 16;

/// Lines of the unlimited wazir and ferz rides, as bitsets: a piece on a line marks it, and
/// a second piece on a marked line attacks the first. Only on a board without holes, where
/// a line is one segment.
struct Lines {
    width: usize,
    /// The piece rides rows and columns; diagonals.
    rook: bool,
    bishop: bool,
    /// One bitset a direction: rows, columns, diagonals (`row - col + width - 1`) and
    /// anti-diagonals (`row + col`).
    taken: [Vec<u64>; 4],
}

const LINES: [Line; 4] = [Line::Row, Line::Column, Line::Diagonal, Line::AntiDiagonal];

impl Lines {
    fn new(m: &Model) -> Lines {
        let (w, h) = (m.board.width, m.board.height);
        let words = |bits: usize| vec![0u64; bits.div_ceil(64)];
        Lines {
            width: w,
            rook: m.piece.rides_unlimited((1, 0)),
            bishop: m.piece.rides_unlimited((1, 1)),
            taken: [words(h), words(w), words(w + h - 1), words(w + h - 1)],
        }
    }

    /// Mark the lines through (r, c); `Err` names the line a piece already holds.
    #[inline]
    fn take(&mut self, r: usize, c: usize) -> Result<(), Violation> {
        let index = [r, c, r + self.width - 1 - c, r + c];
        let rides = [self.rook, self.rook, self.bishop, self.bishop];
        let mut clash = None;
        for d in 0..4 {
            let (word, bit) = (index[d] >> 6, 1u64 << (index[d] & 63));
            let w = &mut self.taken[d][word];
            if rides[d] && *w & bit != 0 && clash.is_none() {
                clash = Some(d);
            }
            *w |= bit;
        }
        match clash {
            None => Ok(()),
            Some(d) => Err(Violation::SharedLine {
                row: r,
                col: c,
                line: LINES[d],
            }),
        }
    }
}

impl Model {
    /// A placement given as squares is valid: distinct squares, none a hole, none attacked;
    /// by the whole board's attack sets where the model has them, else by [`squares`].
    pub fn check(&self, placed: &[usize]) -> Result<(), Violation> {
        if let Some(a) = &self.army {
            return a.check(&self.board, placed, a.mixed, true);
        }
        let Some(whole) = &self.whole else {
            return squares(self, placed);
        };
        // Every square on the board first: the pairs below look them up.
        if let Some(a) = placed
            .iter()
            .find(|&&a| a >= self.board.squares() || self.board.is_hole(a))
        {
            return Err(Violation::NotOnBoard { square: *a });
        }
        for (i, &a) in placed.iter().enumerate() {
            for &b in &placed[i + 1..] {
                if a == b || whole.attacks.get(a, b) {
                    return Err(Violation::Attack { a, b });
                }
            }
        }
        Ok(())
    }
}

/// A placement given as the column of each row's piece (`cols.ones()` for a row without
/// one) is valid: as many pieces as the puzzle asks, every one on the board, none on a line
/// of another. For rooks, bishops and queens on a board without holes; `stop` is asked every
/// few ten thousand rows whether to give up.
pub fn rows_until(
    m: &Model,
    cols: &Packed,
    stop: &mut dyn FnMut() -> Option<StopReason>,
) -> Result<(), CheckError> {
    let b = &m.board;
    if !m.piece.is_line_piece() {
        return Err(Violation::RowsNeedLinePiece {
            piece: m.piece.notation(),
        }
        .into());
    }
    if b.has_holes() {
        return Err(Violation::RowsNeedNoHoles.into());
    }
    if cols.len() != b.height {
        return Err(Violation::RowCount {
            given: cols.len(),
            height: b.height,
        }
        .into());
    }
    let none = cols.ones();
    if (none as usize) < b.width {
        return Err(Violation::ColumnsNarrow.into());
    }
    let mut lines = Lines::new(m);
    let mut pieces = 0usize;
    for (r, c) in cols.iter().enumerate() {
        if r % ASK_EVERY_ROWS == ASK_EVERY_ROWS - 1
            && let Some(reason) = stop()
        {
            return Err(CheckError::Stopped(reason));
        }
        if c == none {
            continue;
        }
        let c = c as usize;
        if c >= b.width {
            return Err(Violation::ColumnOff {
                row: r,
                col: c,
                width: b.width,
            }
            .into());
        }
        lines.take(r, c)?;
        pieces += 1;
    }
    if pieces != m.count {
        return Err(Violation::PieceCount {
            placed: pieces,
            asked: m.count,
        }
        .into());
    }
    Ok(())
}

/// A placement given as squares is valid: distinct squares, none a hole, none attacked.
/// Unlimited wazir and ferz rides are checked by their lines on a board without holes; every
/// other move by the squares it reaches, looked up among the pieces sorted.
pub fn squares(m: &Model, squares: &[usize]) -> Result<(), Violation> {
    let b = &m.board;
    let mut sorted = squares.to_vec();
    sorted.sort_unstable();
    for pair in sorted.windows(2) {
        if pair[0] == pair[1] {
            return Err(Violation::TwoOnSquare { square: pair[0] });
        }
    }
    if let Some(&s) = sorted.iter().find(|&&s| s >= b.squares() || b.is_hole(s)) {
        return Err(Violation::NotOnBoard { square: s });
    }
    let by_lines = !b.has_holes();
    if by_lines {
        let mut lines = Lines::new(m);
        for &s in &sorted {
            let (r, c) = b.row_col(s);
            lines.take(r, c)?;
        }
    }
    // The unlimited rides of the eight unit vectors: rook and bishop lines.
    let line_ride = |v: (i32, i32), lim: u32| lim == 0 && v.0.abs() <= 1 && v.1.abs() <= 1;
    let moves: Vec<((i32, i32), u32)> = m
        .piece
        .directions()
        .into_iter()
        .filter(|&(v, lim)| !(by_lines && line_ride(v, lim)))
        .collect();
    for &s in &sorted {
        for &((dx, dy), lim) in &moves {
            let mut cur = s;
            let mut steps = 0u32;
            while let Some(next) = b.step(cur, dy, dx) {
                if sorted.binary_search(&next).is_ok() {
                    return Err(Violation::Attack { a: s, b: next });
                }
                steps += 1;
                if lim != 0 && steps >= lim {
                    break;
                }
                cur = next;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{KindSpec, Overrides, Spec};

    /// A model of a board too large for the whole model.
    fn model(piece: &str, width: usize, height: usize, count: usize) -> Model {
        let text = format!(
            "kind = \"independent\"\n[board]\nwidth = {width}\nheight = {height}\n[piece]\n\
             moves = \"{piece}\"\n[rules]\ncount = {count}\n"
        );
        let spec = Spec::parse("t.toml", &text, &Overrides::default()).unwrap();
        let KindSpec::Independent(rules) = &spec.rules else {
            panic!("an independent puzzle");
        };
        let m = Model::compile(&spec, rules).unwrap();
        assert!(m.whole.is_none());
        m
    }

    fn rows(m: &Model, cols: &[Option<u32>]) -> Result<(), CheckError> {
        let mut p = Packed::new(cols.len(), Packed::width_for(m.board.width));
        for (r, c) in cols.iter().enumerate() {
            p.set(r, c.unwrap_or(u32::MAX));
        }
        rows_until(m, &p, &mut || None)
    }

    fn invalid(r: Result<(), CheckError>) -> Violation {
        match r {
            Err(CheckError::Invalid(why)) => why,
            other => panic!("{other:?}"),
        }
    }

    fn shared(row: usize, col: usize, line: Line) -> Violation {
        Violation::SharedLine { row, col, line }
    }

    #[test]
    fn a_column_per_row_is_checked_by_every_line() {
        // Five queens on 5 x 1000: a solution of 5 x 5 in the corner.
        let q = model("Q", 1000, 5, 5);
        let good = [Some(0), Some(2), Some(4), Some(1), Some(3)];
        rows(&q, &good).unwrap();
        let mut cols = good;
        cols[1] = Some(0);
        assert_eq!(invalid(rows(&q, &cols)), shared(1, 0, Line::Column));
        cols[1] = Some(1);
        assert_eq!(invalid(rows(&q, &cols)), shared(1, 1, Line::Diagonal));
        cols[1] = Some(999);
        cols[3] = Some(997);
        assert_eq!(invalid(rows(&q, &cols)), shared(3, 997, Line::AntiDiagonal));
        cols = good;
        cols[4] = None;
        assert_eq!(
            invalid(rows(&q, &cols)),
            Violation::PieceCount {
                placed: 4,
                asked: 5
            }
        );
        // Rooks do not see diagonals.
        let r = model("R", 1000, 5, 5);
        rows(&r, &[Some(0), Some(1), Some(2), Some(3), Some(4)]).unwrap();
        assert_eq!(
            invalid(rows(&r, &[Some(0), Some(1), Some(2), Some(3), Some(1)])),
            shared(4, 1, Line::Column)
        );
        // Too few rows, a column off the board, a piece the row form does not check.
        assert_eq!(
            invalid(rows(&q, &good[..4])),
            Violation::RowCount {
                given: 4,
                height: 5
            }
        );
        let narrow = Packed::new(5, 3);
        assert_eq!(
            invalid(rows_until(&q, &narrow, &mut || None)),
            Violation::ColumnsNarrow
        );
        assert_eq!(
            invalid(rows(&q, &[Some(1000), None, None, None, None])),
            Violation::ColumnOff {
                row: 0,
                col: 1000,
                width: 1000
            }
        );
        let n = model("N", 1000, 5, 2);
        assert_eq!(
            invalid(rows(&n, &good)),
            Violation::RowsNeedLinePiece { piece: "N".into() }
        );
    }

    #[test]
    fn squares_are_checked_by_lines_and_leaps() {
        let q = model("Q", 100, 100, 3);
        let sq = |r: usize, c: usize| r * 100 + c;
        squares(&q, &[sq(0, 0), sq(1, 2), sq(2, 4)]).unwrap();
        assert_eq!(
            squares(&q, &[sq(0, 0), sq(5, 5)]),
            Err(shared(5, 5, Line::Diagonal))
        );
        assert_eq!(
            squares(&q, &[sq(3, 9), sq(3, 0)]),
            Err(shared(3, 9, Line::Row))
        );
        assert_eq!(
            squares(&q, &[sq(3, 9), sq(3, 9)]),
            Err(Violation::TwoOnSquare { square: sq(3, 9) })
        );
        assert_eq!(
            squares(&q, &[100 * 100]),
            Err(Violation::NotOnBoard { square: 100 * 100 })
        );
        let n = model("N", 100, 100, 3);
        squares(&n, &[sq(0, 0), sq(1, 1), sq(0, 1)]).unwrap();
        assert_eq!(
            squares(&n, &[sq(50, 50), sq(52, 51)]),
            Err(Violation::Attack {
                a: sq(50, 50),
                b: sq(52, 51)
            })
        );
        // A limited ride: the wazir rides 2 squares, not 3.
        let w = model("W2", 100, 100, 2);
        assert!(squares(&w, &[sq(5, 5), sq(7, 5)]).is_err());
        squares(&w, &[sq(5, 5), sq(8, 5)]).unwrap();
    }
}
