//! Independent placement: `count` pieces, none attacking another (N-Queens and kin).

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

use super::{CheckError, Strategy};
use crate::engine::StopReason;
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
        super::placement(&self.board, self.symbol, squares)
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
