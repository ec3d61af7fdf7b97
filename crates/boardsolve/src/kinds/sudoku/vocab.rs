//! The sudoku kind's own words on a refusal, carried by the engine and said by render.

use crate::engine::Vocabulary;

/// Why a strategy of the sudoku kind does not take a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SudokuRefusal {
    /// `bitmask` with killer cages: its candidates know rows, columns and regions only.
    BitmaskCages,
    /// `--unique`: the kind counts grids, not classes of grids.
    Unique,
    /// The cages' options (every way to fill each cage) add up to more than an exact cover
    /// holds: `entries` of at most `limit`.
    CagesTooMany { entries: u64, limit: u64 },
}

impl Vocabulary for SudokuRefusal {}
