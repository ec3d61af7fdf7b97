//! Tours: a leaper visits every square of the board once, open or closed, from a given
//! start or from anywhere.
//!
//! The model (model.rs) holds the puzzle and checks tours; the move graph (graph.rs) is
//! built with petgraph for its analysis (components, colour classes, degrees) and kept as
//! flat arrays for the searches; existence is decided before any search (exists.rs). The
//! strategies, each file's documentation saying how it works and where it applies:
//! - `backtrack`: plain depth-first search; enumerates and counts small boards, and counts
//!   them up to symmetry (symmetry.rs);
//! - `count`: exact counts by frontier dynamic programming for the knight on boards with a
//!   short side (sweep.rs sweeps the board, rule.rs and expand.rs take one square,
//!   states.rs holds its states);
//! - `warnsdorff`: fewest onward moves first (Roth's tie-break), bounded backtracking, the
//!   closing rotation for closed tours; hands over to `divide` when it gives up;
//! - `divide`: divide and conquer for the knight: block tours found once per block shape
//!   (blocks.rs), joined by swapping two moves at block corners, or chained along the strip
//!   on boards with a side of 3 or 4 (strip.rs, chain.rs), then numbered (numbering.rs);
//!   every board and start where a tour exists; linear time, ceil(log2(squares + 1)) bits a
//!   square (packed: 27 bits at 10^8 squares).
//!
//! Files use each other in one direction only: graph.rs and blocks.rs use no other file of
//! the kind; exists.rs uses the graph, model.rs the graph and exists.rs; the strategies use
//! the model, and `divide` the files that build its blocks, strips and numbers.

mod backtrack;
mod blocks;
mod chain;
mod count;
mod divide;
mod ends;
pub mod exists;
mod expand;
mod fixed;
mod graph;
mod key;
mod model;
mod numbering;
mod order;
mod rule;
mod spill;
mod states;
mod strip;
mod sweep;
mod symmetry;
#[cfg(test)]
mod tests;
pub mod vocab;
mod warnsdorff;

pub use exists::Existence;
pub use graph::{Analysis, Csr, GRAPH_LIMIT, NONE};
pub use model::Model;
pub use vocab::{
    BlockLayout, ClassRule, SymmetryKeeps, TourBug, TourCounting, TourNote, TourReason, TourRefusal,
};

use super::Strategy;
use super::{NoGraph, Picture, SquareGraph};
use crate::util::Packed;

pub static STRATEGIES: &[&dyn Strategy<Model>] = &[
    &backtrack::Backtrack,
    &count::Count,
    &warnsdorff::Warnsdorff,
    &divide::Divide,
];

/// `auto` takes the first of these that applies: `divide` for the knight on boards with
/// both sides at least 3 (linear and certain), else `warnsdorff`; counts go to `count`
/// where its frontier fits, else (and lists) to `backtrack`.
pub const PREFERENCE: &[&str] = &["divide", "warnsdorff", "count", "backtrack"];

/// What the rest of the crate asks of a tour model beyond its check: its picture and its
/// graph.
impl Model {
    /// The symmetries `--unique` takes tours up to (the board's, and for open tours the
    /// direction).
    pub fn symmetry_count(&self) -> usize {
        symmetry::Symmetries::new(self).order() as usize
    }

    pub fn picture(&self, order: &[usize]) -> Picture {
        self.picture_numbers(self.numbers(order))
    }

    pub fn picture_numbers(&self, number: Packed) -> Picture {
        Picture::Tour {
            width: self.board.width,
            height: self.board.height,
            number,
            closed: self.closed,
            cells: self.cells,
        }
    }

    /// The graph `--format dot` writes: every square and move, with the tour's moves in
    /// `tour` (visiting order) drawn bold.
    pub fn move_graph(&self, tour: Option<&Packed>) -> Result<SquareGraph, NoGraph> {
        let g = self
            .graph()
            .ok_or(NoGraph::TooLarge { limit: GRAPH_LIMIT })?;
        let b = &self.board;
        let nodes: Vec<(usize, String)> = b.cells().map(|s| (s, b.square_name(s))).collect();
        let mut edges = Vec::new();
        for s in b.cells() {
            for &t in g.moves(s) {
                if (t as usize) > s {
                    edges.push((s, t as usize));
                }
            }
        }
        let mut bold = Vec::new();
        if let Some(number) = tour {
            let mut order = vec![0usize; self.cells];
            for (s, k) in number.iter().enumerate() {
                if k != number.ones() {
                    order[k as usize] = s;
                }
            }
            bold.extend(order.windows(2).map(|w| (w[0], w[1])));
            if self.closed && order.len() > 2 {
                bold.push((order[order.len() - 1], order[0]));
            }
        }
        let name = format!(
            "{} moves on {}x{}",
            self.piece.notation(),
            b.width,
            b.height
        );
        Ok(SquareGraph {
            name,
            width: b.width,
            nodes,
            edges,
            highlight: bold,
        })
    }
}
