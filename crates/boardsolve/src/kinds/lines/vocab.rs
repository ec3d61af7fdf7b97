//! The lines kind's own words on an answer, carried by the engine and said by render.

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
