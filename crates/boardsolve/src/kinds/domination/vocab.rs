//! The domination kind's own words on an answer and on why a strategy does not take a
//! puzzle, carried by the engine and said by render.

use crate::engine::Vocabulary;

/// A fact about how a domination answer was reached, for the summary line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DominationNote {
    /// The lower bound at the root of a branch and bound.
    RootBound(u64),
    /// Goal count of an optimisation: the solutions counted are those of this optimum.
    OptimalCounted(u64),
    /// Goal first of an optimisation: the placement found has this size, not proven minimal.
    NotProvenMinimal(usize),
}

impl Vocabulary for DominationNote {}

/// Why no placement answers the puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DominationReason {
    /// No placement the rules allow covers the board. The rules that narrow the placements,
    /// for the words to name them: the pieces may not attack each other (`independent`),
    /// each piece's count is bounded (`counts`, `[[piece]]` tables), and the givens stand in
    /// every placement (`givens`).
    NoCover {
        independent: bool,
        counts: bool,
        givens: bool,
    },
}

impl Vocabulary for DominationReason {}

/// Why a strategy of the domination kind does not take a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DominationRefusal {
    /// `blocks` decides squares one by one: at most `max`, and the board has `squares`.
    BlocksTooMany { squares: usize, max: usize },
    /// No square is covered only from inside its 4x4 block: the block bound is empty.
    BlocksEmptyBound,
    /// `--part` with goal count needs the optimum the parts count at (`--optimum`).
    PartCountNeedsOptimum,
    /// `--part` and `--estimate` with a goal the branch and bound does not split.
    PartGoals,
    /// The band bound takes pieces that move at most 2 rows and 2 columns.
    BandPiece,
    /// The strategy's bounds and tables are built for an empty board; the puzzle has givens.
    Givens,
    /// The strategy's bounds are for one piece; the puzzle has several.
    Mixed,
}

impl Vocabulary for DominationRefusal {}
