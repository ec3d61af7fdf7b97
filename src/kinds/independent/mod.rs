//! Independent placement: `count` pieces, none attacking another (N-Queens and kin).

mod backtrack;
mod bitmask;
mod brute;
mod check;
mod dlx;
mod flags;
mod model;
pub mod queens;

pub use model::{Aim, MAX_SQUARES, Model, Whole};

use super::Strategy;
use crate::render::Picture;

pub static STRATEGIES: &[&dyn Strategy<Model>] = &[
    &brute::Brute,
    &backtrack::Backtrack,
    &flags::Flags,
    &bitmask::Bitmask,
    &dlx::Dlx,
];

/// `auto` takes the first of these that applies.
pub const PREFERENCE: &[&str] = &["bitmask", "backtrack", "dlx"];

impl Model {
    pub fn picture(&self, squares: &[usize]) -> Picture {
        super::placement(&self.board, self.symbol, squares)
    }
}
