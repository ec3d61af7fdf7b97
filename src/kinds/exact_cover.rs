//! The exact cover behind a compiled puzzle, for writing it in Knuth's format: a cover
//! puzzle's own problem, or the one the independent kind's `dlx` strategy builds (N-Queens
//! with Knuth's item order). The other kinds' Dancing Links models are searches over
//! several problems (domination lowers a count item until none is left) or are not built
//! from a fixed list here, so they are refused.

use std::borrow::Cow;

use super::Model;
use crate::dlx::Problem;
use crate::engine::Goal;

/// A problem and its colour names (colour code k + 1 is `colours[k]`).
pub struct ExactCoverOf<'a> {
    pub problem: Cow<'a, Problem>,
    pub colours: &'a [String],
}

impl Model {
    /// The puzzle as one exact cover problem, as `solve` would search it with goal `goal`;
    /// `Err` says why there is none.
    pub fn exact_cover(&self, goal: Goal) -> Result<ExactCoverOf<'_>, String> {
        match self {
            Model::Cover(m) => Ok(ExactCoverOf {
                problem: Cow::Borrowed(&*m.problem),
                colours: m.colours(),
            }),
            Model::Independent(m) => Ok(ExactCoverOf {
                problem: Cow::Owned(super::independent::exact_cover(m, goal)?),
                colours: &[],
            }),
            _ => Err(format!(
                "kind \"{}\" is not written as one exact cover problem; the kinds cover and \
                 independent are (the latter as its dlx strategy builds it)",
                self.kind().name()
            )),
        }
    }
}
