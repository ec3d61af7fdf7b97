//! The independent kind's own words: why a strategy does not take a puzzle. The engine
//! carries them; render says them.

use crate::engine::{Goal, Vocabulary};

/// Why a strategy of the independent kind does not take a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub enum IndependentRefusal {
    /// Goal count without `rules.count` counts the largest placements, whose size only a
    /// strategy that maximizes finds.
    LargestNeedsMaximum,
    /// The largest placements are not counted in this strategy's parts: their size is not
    /// known to a part that does not search for it.
    LargestInParts,
    /// The board's `squares` are more than the `max` of the whole board's attack sets, which
    /// the searches need.
    WholeBoard { squares: usize, max: usize },
    /// Brute force has no bound to maximize with.
    MaximizeNeedsBound,
    /// Brute force would test `candidates` placements, more than its `max`.
    TooManyCandidates { candidates: f64, max: f64 },
    /// The strategy takes line pieces only (R, B, Q); this one is `piece`.
    NotLinePiece { piece: String },
    /// The exact cover would have `pairs` items for attacking pairs, more than `max`.
    TooManyPairs { pairs: usize, max: usize },
    /// `construct` builds one placement: goal first only.
    ConstructGoal(Goal),
    /// `construct` builds a placement, not its class's representative.
    ConstructUnique,
    /// `construct`'s formulas fill a whole rectangle.
    ConstructHoles,
    /// `construct` knows formulas for Q, R, K and N; this piece is `piece`.
    ConstructPiece { piece: String },
    /// Kings and knights go out as squares, on boards of at most `max` squares; this one
    /// has `squares`.
    ConstructListed { squares: usize, max: usize },
    /// `count` pieces asked where the `pattern` places at most `most` on `width` x `height`.
    ConstructPattern {
        pattern: Pattern,
        count: usize,
        most: usize,
        width: usize,
        height: usize,
    },
    /// `count` pieces asked where at most `side` fit, one a row and a column.
    ConstructTooMany {
        count: usize,
        side: usize,
        width: usize,
        height: usize,
    },
    /// Queens on a board whose shorter side, `side`, is 2 or 3: no formula.
    ConstructSmallQueens { side: usize },
    /// The strategy places pieces on an empty board; the puzzle has givens.
    Givens,
    /// The strategy places one piece; the puzzle has several (`[[piece]]` tables).
    Mixed,
    /// Givens and several pieces are searched in one run, not in parts.
    ArmyInParts,
    /// The givens leave no piece to place: no exact cover to write.
    NothingToPlace,
}

impl Vocabulary for IndependentRefusal {}

/// A pattern `construct` places pieces in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// Kings on every other square of every other row.
    Kings,
    /// Knights on every square of one colour.
    Knights,
}
