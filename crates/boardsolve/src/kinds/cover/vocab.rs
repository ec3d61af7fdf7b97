//! The cover kind's own words on an answer, carried by the engine and said by render.

use crate::engine::Vocabulary;

/// A fact about how an exact cover answer was reached, for the summary line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoverNote {
    /// `what` reached the memory budget of `budget` bytes: the run stopped there.
    BudgetReached { what: &'static str, budget: u64 },
}

impl Vocabulary for CoverNote {}
