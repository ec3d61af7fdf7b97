//! `construct`: a first placement without search, by the classical formulas, on boards of up
//! to 10^7 x 10^7 squares.
//!
//! Queens: on an n x n board (n = 1 or n >= 4), the columns of the rows from the top, counted
//! from 1, are the even numbers up to n, then the odd ones; for n mod 6 = 2 the odd ones
//! begin 3, 1 and end with 5 (3, 1, 7, 9, ..., n - 1, 5), and for n mod 6 = 3 the even ones
//! end with 2 and the odd ones with 1, 3 (4, 6, ..., n - 1, 2, 5, 7, ..., n, 1, 3). This is
//! the explicit solution of Hoffman, Loessi and Moore (1969), in the form Bernhardsson gave
//! it (1991); the tests check it for every n to 2,000 with the independent validator. n = 2
//! and 3 have no solution at all: the searches say so.
//!
//! Rooks: one on each square of the main diagonal.
//!
//! Kings: on every other square of every other row from the top-left corner, ceil(w/2) *
//! ceil(h/2) of them, the most there can be (each 2x2 block holds one at most). Knights: on
//! the squares of the top-left corner's colour, ceil(wh/2) of them, since a knight always
//! changes colour (the most for both sides at least 3). Both go out as squares, on boards of
//! up to 2^20 squares; fewer pieces are the first ones in square order.
//!
//! On a rectangle the placement of the shorter side's square stands in the top-left corner:
//! two of its squares share a line of the rectangle exactly when they share one of the
//! square. Fewer pieces than the side are the first rows of the full placement (a part of a
//! placement in which nothing attacks is one too).
//!
//! On a board small enough for the whole model the pieces go out as squares, as every
//! strategy's do; on a larger one as the column of each row's piece, packed
//! ([`Answer::compact`]): ceil(log2(width + 1)) bits a row, 24 for 10^7 rows, and the board
//! itself costs nothing per square.

use super::Model;
use super::vocab::{IndependentRefusal, Pattern};
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::Strategy;
use crate::kinds::report::Placements;
use crate::util::Packed;

pub struct Construct;

/// Rows built between two reports to the run (nodes and limits).
const CHUNK: usize = 1 << 14;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Formula {
    /// Even columns, then odd ones (with the adjustments for n mod 6 = 2, 3).
    Queens,
    /// The main diagonal.
    Rooks,
    /// Every other square of every other row, from the top-left corner.
    Kings,
    /// The squares of the top-left corner's colour.
    Knights,
}

/// Kings and knights go out as squares: a board of up to this many.
const MAX_LISTED_SQUARES: usize = 1 << 20;

/// Whether the piece leaps exactly these vectors (each with its 8 images) and rides none.
fn leaps_only(m: &Model, leaps: &[(i32, i32)]) -> bool {
    m.piece.rides.is_empty()
        && m.piece.leaps.len() == leaps.len()
        && leaps.iter().all(|v| m.piece.leaps.contains(v))
}

/// What the construction places on this model: the formula and the side of the square it
/// fills in the top-left corner; or why it cannot.
fn plan(m: &Model, task: &Task) -> Result<(Formula, usize), IndependentRefusal> {
    m.no_army()?;
    if task.goal != Goal::First {
        return Err(IndependentRefusal::ConstructGoal(task.goal));
    }
    if task.unique {
        return Err(IndependentRefusal::ConstructUnique);
    }
    let b = &m.board;
    if b.has_holes() {
        return Err(IndependentRefusal::ConstructHoles);
    }
    let formula = if m.piece.is_queen() {
        Formula::Queens
    } else if m.piece.is_line_piece() && m.piece.rides_unlimited((1, 0)) && m.piece.rides.len() == 1
    {
        Formula::Rooks
    } else if leaps_only(m, &[(1, 0), (1, 1)]) {
        Formula::Kings
    } else if leaps_only(m, &[(2, 1)]) {
        Formula::Knights
    } else {
        return Err(IndependentRefusal::ConstructPiece {
            piece: m.piece.notation(),
        });
    };
    if matches!(formula, Formula::Kings | Formula::Knights) {
        let (w, h) = (b.width, b.height);
        let (most, pattern) = if formula == Formula::Kings {
            (w.div_ceil(2) * h.div_ceil(2), Pattern::Kings)
        } else {
            ((w * h).div_ceil(2), Pattern::Knights)
        };
        if b.squares() > MAX_LISTED_SQUARES {
            return Err(IndependentRefusal::ConstructListed {
                squares: b.squares(),
                max: MAX_LISTED_SQUARES,
            });
        }
        if m.count > most {
            return Err(IndependentRefusal::ConstructPattern {
                pattern,
                count: m.count,
                most,
                width: w,
                height: h,
            });
        }
        return Ok((formula, 0));
    }
    let side = b.width.min(b.height);
    if m.count > side {
        return Err(IndependentRefusal::ConstructTooMany {
            count: m.count,
            side,
            width: b.width,
            height: b.height,
        });
    }
    if formula == Formula::Queens && (side == 2 || side == 3) && m.count > 1 {
        return Err(IndependentRefusal::ConstructSmallQueens { side });
    }
    Ok((formula, side))
}

/// The column, from 0, of row `r`'s queen in the classical placement on n x n (n = 1 or
/// n >= 4): the formula's list of numbers from 1, read at position `r` without making it.
fn queen_column(n: usize, r: usize) -> usize {
    debug_assert!((n == 1 || n >= 4) && r < n);
    // The even numbers up to n; the odd ones follow them.
    let evens = n / 2;
    let from_one = match n % 6 {
        // 2, 4, ..., n, then 3, 1, 7, 9, ..., n - 1, 5.
        2 if r < evens => 2 * r + 2,
        2 => match r - evens {
            0 => 3,
            1 => 1,
            k if k == evens - 1 => 5,
            k => 2 * k + 3,
        },
        // 4, 6, ..., n - 1, 2, then 5, 7, ..., n, 1, 3 (n odd: as many evens as n / 2).
        3 if r + 1 < evens => 2 * r + 4,
        3 if r + 1 == evens => 2,
        3 => match r - evens {
            k if k + 1 < evens => 2 * k + 5,
            k if k + 1 == evens => 1,
            _ => 3,
        },
        // 2, 4, ..., then 1, 3, ...
        _ if r < evens => 2 * r + 2,
        _ => 2 * (r - evens) + 1,
    };
    from_one - 1
}

/// The column of row `r`'s piece, or `None` for a row without one: the first `count` rows
/// of the queens' or rooks' placement of side `side`.
#[inline]
fn column(formula: Formula, side: usize, count: usize, r: usize) -> Option<usize> {
    (r < count).then(|| match formula {
        Formula::Queens => queen_column(side, r),
        _ => r,
    })
}

/// The first `count` squares, in index order, of the kings' or knights' pattern.
fn pattern(formula: Formula, width: usize, height: usize, count: usize) -> Vec<usize> {
    let (rows, step) = if formula == Formula::Kings {
        ((0..height).step_by(2), 2)
    } else {
        ((0..height).step_by(1), 2)
    };
    rows.flat_map(|r| {
        // Knights: the squares whose row and column add up to an even number.
        let first = if formula == Formula::Knights {
            r % 2
        } else {
            0
        };
        (first..width).step_by(step).map(move |c| r * width + c)
    })
    .take(count)
    .collect()
}

impl Strategy<Model> for Construct {
    fn name(&self) -> &'static str {
        "construct"
    }
    fn about(&self) -> &'static str {
        "no search: queens by the classical formula, rooks on the diagonal (boards up to 10^7 \
         x 10^7), kings and knights in their maximal patterns; goal first, no holes"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        plan(m, task).map(|_| ()).map_err(Into::into)
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        let Ok((formula, side)) = plan(m, task) else {
            return Answer::default();
        };
        let b = &m.board;
        let count = m.count;
        if matches!(formula, Formula::Kings | Formula::Knights) {
            let squares = pattern(formula, b.width, b.height, count);
            if !run.nodes(squares.len() as u64) {
                match &m.whole {
                    Some(whole) => {
                        Placements::new(&whole.symmetries, whole.cells.len(), task)
                            .emit(run, &squares);
                    }
                    None => {
                        run.report(&squares);
                    }
                }
            }
            return Answer::default();
        }
        if let Some(whole) = &m.whole {
            let squares: Vec<usize> = (0..count)
                .filter_map(|r| column(formula, side, count, r).map(|c| b.index(r, c)))
                .collect();
            if !run.nodes(squares.len() as u64) {
                Placements::new(&whole.symmetries, whole.cells.len(), task).emit(run, &squares);
            }
            return Answer::default();
        }
        // A column per row, the all-ones value for none; filled a chunk at a time, each
        // chunk's pieces reported as nodes, so the limits and the clock still bite.
        let mut packed = Packed::new(b.height, Packed::width_for(b.width));
        let none = packed.ones();
        let mut buf: Vec<u32> = Vec::with_capacity(CHUNK);
        for from in (0..b.height).step_by(CHUNK) {
            let to = b.height.min(from + CHUNK);
            buf.clear();
            buf.extend(
                (from..to).map(|r| column(formula, side, count, r).map_or(none, |c| c as u32)),
            );
            packed.put_run(from, &buf);
            let placed = count.clamp(from, to) - from;
            if run.nodes(placed as u64) {
                return Answer::default();
            }
        }
        let mut a = Answer::count(1);
        a.compact = Some(packed);
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queens_of_eight_nine_and_fourteen_are_the_textbook_ones() {
        let from_one =
            |n: usize| -> Vec<usize> { (0..n).map(|r| queen_column(n, r) + 1).collect() };
        assert_eq!(from_one(8), [2, 4, 6, 8, 3, 1, 7, 5]);
        assert_eq!(from_one(9), [4, 6, 8, 2, 5, 7, 9, 1, 3]);
        assert_eq!(
            from_one(14),
            [2, 4, 6, 8, 10, 12, 14, 3, 1, 7, 9, 11, 13, 5]
        );
        assert_eq!(
            from_one(15),
            [4, 6, 8, 10, 12, 14, 2, 5, 7, 9, 11, 13, 15, 1, 3]
        );
        assert_eq!(from_one(7), [2, 4, 6, 1, 3, 5, 7]);
        assert_eq!(from_one(1), [1]);
    }

    #[test]
    fn every_side_gives_one_column_per_row() {
        for n in (4..200).chain([1]) {
            let mut seen = vec![false; n];
            for r in 0..n {
                let c = queen_column(n, r);
                assert!(!seen[c], "n = {n}: column {c} twice");
                seen[c] = true;
            }
        }
    }
}
