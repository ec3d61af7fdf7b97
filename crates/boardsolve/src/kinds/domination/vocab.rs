//! The domination kind's own words on an answer, carried by the engine and said by render.

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
    /// No placement of non-attacking pieces covers the board.
    NoIndependentCover,
}

impl Vocabulary for DominationReason {}
