//! The cover kind's own words on an answer and on why a strategy does not take a puzzle,
//! carried by the engine and said by render.

use crate::engine::Vocabulary;

/// Why a strategy of the cover kind does not take a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoverRefusal {
    /// `--unique`: a generic cover has no board symmetries; `break_in_options`: the refusal
    /// says how a puzzle counts up to symmetry instead.
    Unique { break_in_options: bool },
    /// Goals minimize and maximize: a cover has no objective.
    NoObjective,
}

impl Vocabulary for CoverRefusal {}
