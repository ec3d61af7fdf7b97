//! Lines: stones of several colours on a grid, at most `max_per_line` of one colour on any
//! straight line through three or more grid points ("Less Than Three", no-three-in-line).

mod bitmask;
mod dlx;
mod model;
mod rows;
pub mod vocab;

pub use model::{Emitter, MAX_COLORS, MAX_SQUARES, Model, RowPlan, grid_lines};
pub use vocab::{LinesReason, LinesRefusal};

use super::Strategy;

pub static STRATEGIES: &[&dyn Strategy<Model>] = &[&rows::Rows, &dlx::Dlx, &bitmask::Bitmask];

/// `auto` takes the first of these that applies.
pub const PREFERENCE: &[&str] = &["bitmask", "rows", "dlx"];
