//! The cover kind's own words on an answer and on why a strategy does not take a puzzle,
//! carried by the engine and said by render.

use crate::engine::Vocabulary;

/// A fact about how an exact cover answer was reached, for the summary line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoverNote {
    /// `what` reached the memory budget of `budget` bytes: the run stopped there.
    BudgetReached { what: &'static str, budget: u64 },
}

impl Vocabulary for CoverNote {}

/// Why a strategy of the cover kind does not take a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoverRefusal {
    /// `--unique`: a generic cover has no board symmetries; `break_in_options`: the refusal
    /// says how a puzzle counts up to symmetry instead.
    Unique { break_in_options: bool },
    /// `--branch first` with multiplicities: Algorithm M branches on its own rule.
    BranchFirstMultiplicities,
    /// Goals minimize and maximize: a cover has no objective.
    NoObjective,
    /// `dxz`'s memo serves the whole tree: no `--part`, no `--estimate`.
    MemoWhole,
    /// `dxz`'s memo is not exact with multiplicities.
    MemoMultiplicities,
}

impl Vocabulary for CoverRefusal {}
