//! Independent placement: `count` pieces, none attacking another (N-Queens and kin).

mod army;
mod backtrack;
mod bitmask;
mod brute;
mod check;
mod construct;
mod dlx;
mod flags;
mod last_rows;
mod model;
pub mod queens;
pub mod vocab;

pub use dlx::exact_cover;
pub use model::{Aim, MAX_SQUARES, Model, Whole};
pub use vocab::{IndependentRefusal, Pattern};

use super::{CheckError, CountNote, Strategy};
use crate::engine::{Answer, Goal, Refusal, Run, StopReason, Task};
use crate::kinds::Picture;
use crate::util::Packed;

pub static STRATEGIES: &[&dyn Strategy<Model>] = &[
    &brute::Brute,
    &backtrack::Backtrack,
    &flags::Flags,
    &bitmask::Bitmask,
    &dlx::Dlx,
    &construct::Construct,
];

/// `auto` takes the first of these that applies: a construction, where there is one, needs
/// no search.
pub const PREFERENCE: &[&str] = &["construct", "bitmask", "backtrack", "dlx"];

impl Model {
    pub fn picture(&self, squares: &[usize]) -> Picture {
        match &self.army {
            Some(a) => a.picture(&self.board, squares),
            None => super::placement(&self.board, self.symbol, squares),
        }
    }

    /// The drawing of a placement given as the column of each row's piece, the all-ones
    /// value for none (the compact answer of a large board).
    pub fn picture_rows(&self, cols: Packed) -> Picture {
        let none = cols.ones();
        let pieces = cols.iter().filter(|&c| c != none).count();
        Picture::OnePerRow {
            width: self.board.width,
            height: self.board.height,
            symbol: self.symbol,
            cols,
            pieces,
        }
    }

    /// Check a placement given as the column of each row's piece ([`check::rows_until`]),
    /// asking `stop` now and then whether to give up.
    pub fn check_rows_until(
        &self,
        cols: &Packed,
        stop: &mut dyn FnMut() -> Option<StopReason>,
    ) -> Result<(), CheckError> {
        check::rows_until(self, cols, stop)
    }
}

/// Goal count on a model without a count ([`Model::largest`]): `solve` finds the largest
/// placement (goal maximize), then counts the placements of its size on the same run. The
/// answer carries both, as domination's count does; a limit in the first phase leaves the
/// largest found so far, unproven.
fn count_largest(
    m: &Model,
    task: &Task,
    run: &mut Run,
    solve: impl Fn(&Model, &Task, &mut Run) -> Answer,
) -> Answer {
    let maximize = Task {
        goal: Goal::Maximize,
        ..*task
    };
    let first = solve(m, &maximize, run);
    let Some(k) = first.optimum.filter(|_| !run.is_stopped()) else {
        return first;
    };
    let second = solve(&m.at_count(k as usize), task, run);
    let mut notes = second.notes;
    notes.push(CountNote::LargestCounted(k).into());
    Answer {
        count: Some(second.count.unwrap_or(run.stats.solutions)),
        optimum: Some(k),
        best: first.best,
        notes,
        ..Answer::default()
    }
}

/// Whether a strategy takes goal count on a model without a count: those that maximize
/// (`maximizes`) do, in one run, and in parts those whose parts each find their own largest
/// size and count it (`in_parts`), which merge takes the largest of.
fn largest_fits(m: &Model, task: &Task, maximizes: bool, in_parts: bool) -> Result<(), Refusal> {
    if !m.largest || task.goal != Goal::Count {
        return Ok(());
    }
    if !maximizes {
        return Err(IndependentRefusal::LargestNeedsMaximum.into());
    }
    if task.part.is_some() && !in_parts {
        return Err(IndependentRefusal::LargestInParts.into());
    }
    Ok(())
}
