//! Domination: the fewest pieces such that every square is occupied or attacked, optionally
//! with no piece attacking another (`independent = true`, as in the classic puzzle of
//! knights on the chessboard).
//!
//! Goals: `minimize` (default) finds the optimum and one optimal placement, proven unless a
//! limit stops the search (then the best so far, exit 3); `count` finds the optimum and
//! counts the optimal placements (with `--unique`, classes under the board's symmetries);
//! `first` returns the first covering placement the strategy meets, quickly and without a
//! claim of minimality (its size is printed).

mod band;
mod blocks;
mod bnb;
mod dlx;
mod goals;
mod lagrange;
mod local;
mod model;
mod options;
mod stencil;
pub mod vocab;

pub use bnb::subtree_list;
pub use model::{MAX_SQUARES, Model};
pub use options::{
    BandOptions, BnbOptions, Descriptor, Group, LagrangeOptions, LocalOptions, OptionError, Tuning,
    option_table,
};
pub use vocab::{DominationNote, DominationReason, DominationRefusal};

use super::Strategy;
use crate::kinds::{ModelSummary, Picture};

pub static STRATEGIES: &[&dyn Strategy<Model>] =
    &[&bnb::Bnb, &bnb::BnbBands, &dlx::Dlx, &blocks::Blocks];

/// `auto` takes the first of these that applies.
pub const PREFERENCE: &[&str] = &["bnb", "dlx"];

impl Model {
    pub fn picture(&self, squares: &[usize]) -> Picture {
        match &self.army {
            Some(a) => a.picture(&self.board, squares),
            None => super::placement(&self.board, self.symbol, squares),
        }
    }

    /// `Err(why)` where the model has givens or several pieces: the refusal of a strategy
    /// whose bounds and tables are for one piece on an empty board.
    pub fn no_army(&self) -> Result<(), DominationRefusal> {
        match &self.army {
            None => Ok(()),
            Some(a) if a.mixed => Err(DominationRefusal::Mixed),
            Some(_) => Err(DominationRefusal::Givens),
        }
    }

    /// What the model holds.
    pub fn describe(&self) -> ModelSummary {
        ModelSummary::Domination {
            piece: self.piece.notation(),
            width: self.board.width,
            height: self.board.height,
            holes: self.board.has_holes(),
            independent: self.independent,
            mixed: self
                .army
                .as_ref()
                .map(super::army::Army::summary)
                .unwrap_or_default(),
            givens: self.army.as_ref().map_or(0, |a| a.givens.len()),
        }
    }
}
