//! The lines kind's own words on an answer and on why a strategy does not take a puzzle,
//! carried by the engine and said by render.

use crate::engine::Vocabulary;

/// Why the stones cannot be placed, known by counting before any search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinesReason {
    /// More stones than squares.
    StonesExceedSquares {
        colours: usize,
        per_colour: usize,
        squares: usize,
    },
    /// A colour's stones do not fit in the rows (or columns) at `max_per_line` each.
    StonesExceedLines {
        per_colour: usize,
        lines: usize,
        columns: bool,
        max_per_line: usize,
        room: usize,
    },
}

impl Vocabulary for LinesReason {}

/// Why a strategy of the lines kind does not take a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinesRefusal {
    /// The `width` x `height` board's `squares` do not fit the `bits` of a bitset.
    BoardBits {
        width: usize,
        height: usize,
        squares: usize,
        bits: usize,
    },
    /// The exact cover would hold `entries` option entries, more than `max`.
    TooManyEntries { entries: usize, max: usize },
}

impl Vocabulary for LinesRefusal {}
