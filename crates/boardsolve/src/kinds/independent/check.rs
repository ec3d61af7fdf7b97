//! The kind's validator, a library call every solution passes on its way out. Given as
//! squares, a placement is checked by the whole board's attack sets where the model has them.
//! On a larger board (more than 4,096 squares) pieces are checked by the lines they ride and
//! the squares they leap to, never by a table per square, so that 10^7 queens given as a
//! column per row are checked with bitsets of n and 2n - 1 bits. It shares no code with the
//! construction whose output it checks: it knows the rules, not how the placement was made.

use super::Model;
use crate::engine::StopReason;
use crate::kinds::CheckError;
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

const LINE_NAMES: [&str; 4] = ["row", "column", "diagonal", "anti-diagonal"];

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
    fn take(&mut self, r: usize, c: usize) -> Result<(), String> {
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
            Some(d) => Err(format!(
                "the piece on [{r}, {c}] shares its {} with another",
                LINE_NAMES[d]
            )),
        }
    }
}

impl Model {
    /// A placement given as squares is valid: distinct squares, none a hole, none attacked;
    /// by the whole board's attack sets where the model has them, else by [`squares`].
    pub fn check(&self, placed: &[usize]) -> Result<(), String> {
        let Some(whole) = &self.whole else {
            return squares(self, placed);
        };
        // Every square on the board first: the pairs below look them up.
        if let Some(a) = placed
            .iter()
            .find(|&&a| a >= self.board.squares() || self.board.is_hole(a))
        {
            return Err(format!("square {a} is not on the board"));
        }
        for (i, &a) in placed.iter().enumerate() {
            for &b in &placed[i + 1..] {
                if a == b || whole.attacks.get(a, b) {
                    return Err(format!("squares {a} and {b} attack each other"));
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
        return Err(format!(
            "a column per row is checked for rooks, bishops and queens; this piece is {}",
            m.piece.notation()
        )
        .into());
    }
    if b.has_holes() {
        return Err("a column per row is checked on boards without holes".into());
    }
    if cols.len() != b.height {
        return Err(format!("{} rows given; the board has {}", cols.len(), b.height).into());
    }
    let none = cols.ones();
    if (none as usize) < b.width {
        return Err("the columns are too narrow for the board".into());
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
            return Err(format!("row {r}: column {c} is off the {}-column board", b.width).into());
        }
        lines.take(r, c)?;
        pieces += 1;
    }
    if pieces != m.count {
        return Err(format!("{pieces} pieces placed; the puzzle asks for {}", m.count).into());
    }
    Ok(())
}

/// A placement given as squares is valid: distinct squares, none a hole, none attacked.
/// Unlimited wazir and ferz rides are checked by their lines on a board without holes; every
/// other move by the squares it reaches, looked up among the pieces sorted.
pub fn squares(m: &Model, squares: &[usize]) -> Result<(), String> {
    let b = &m.board;
    let mut sorted = squares.to_vec();
    sorted.sort_unstable();
    for pair in sorted.windows(2) {
        if pair[0] == pair[1] {
            return Err(format!("two pieces on square {}", pair[0]));
        }
    }
    if let Some(&s) = sorted.iter().find(|&&s| s >= b.squares() || b.is_hole(s)) {
        return Err(format!("square {s} is not on the board"));
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
                    return Err(format!("squares {s} and {next} attack each other"));
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

    fn invalid(r: Result<(), CheckError>) -> String {
        match r {
            Err(CheckError::Invalid(why)) => why,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_column_per_row_is_checked_by_every_line() {
        // Five queens on 5 x 1000: a solution of 5 x 5 in the corner.
        let q = model("Q", 1000, 5, 5);
        let good = [Some(0), Some(2), Some(4), Some(1), Some(3)];
        rows(&q, &good).unwrap();
        let mut cols = good;
        cols[1] = Some(0);
        assert!(invalid(rows(&q, &cols)).contains("shares its column"));
        cols[1] = Some(1);
        assert!(invalid(rows(&q, &cols)).contains("shares its diagonal"));
        cols[1] = Some(999);
        cols[3] = Some(997);
        assert!(invalid(rows(&q, &cols)).contains("anti-diagonal"));
        cols = good;
        cols[4] = None;
        assert!(invalid(rows(&q, &cols)).contains("4 pieces placed; the puzzle asks for 5"));
        // Rooks do not see diagonals.
        let r = model("R", 1000, 5, 5);
        rows(&r, &[Some(0), Some(1), Some(2), Some(3), Some(4)]).unwrap();
        assert!(
            invalid(rows(&r, &[Some(0), Some(1), Some(2), Some(3), Some(1)])).contains("column")
        );
        // Too few rows, a column off the board, a piece the row form does not check.
        assert!(invalid(rows(&q, &good[..4])).contains("4 rows given; the board has 5"));
        let narrow = Packed::new(5, 3);
        assert!(invalid(rows_until(&q, &narrow, &mut || None)).contains("too narrow"));
        assert!(invalid(rows(&q, &[Some(1000), None, None, None, None])).contains("off the"));
        let n = model("N", 1000, 5, 2);
        assert!(invalid(rows(&n, &good)).contains("this piece is N"));
    }

    #[test]
    fn squares_are_checked_by_lines_and_leaps() {
        let q = model("Q", 100, 100, 3);
        let sq = |r: usize, c: usize| r * 100 + c;
        squares(&q, &[sq(0, 0), sq(1, 2), sq(2, 4)]).unwrap();
        assert!(
            squares(&q, &[sq(0, 0), sq(5, 5)])
                .unwrap_err()
                .contains("diagonal")
        );
        assert!(
            squares(&q, &[sq(3, 9), sq(3, 0)])
                .unwrap_err()
                .contains("row")
        );
        assert!(
            squares(&q, &[sq(3, 9), sq(3, 9)])
                .unwrap_err()
                .contains("two pieces")
        );
        assert!(
            squares(&q, &[100 * 100])
                .unwrap_err()
                .contains("not on the board")
        );
        let n = model("N", 100, 100, 3);
        squares(&n, &[sq(0, 0), sq(1, 1), sq(0, 1)]).unwrap();
        assert!(
            squares(&n, &[sq(50, 50), sq(52, 51)])
                .unwrap_err()
                .contains("attack")
        );
        // A limited ride: the wazir rides 2 squares, not 3.
        let w = model("W2", 100, 100, 2);
        assert!(squares(&w, &[sq(5, 5), sq(7, 5)]).is_err());
        squares(&w, &[sq(5, 5), sq(8, 5)]).unwrap();
    }
}
