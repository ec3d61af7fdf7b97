//! `kind = "tiling"`: shapes (polyominoes on a board, polycubes in a box) that cover its cells
//! without overlap, compiled to one exact cover problem as Knuth's POLYOMINO-DLX and
//! POLYCUBE-DLX generators do: an item a cell, an item a piece (with a multiplicity where
//! the file allows several copies), an option a placement of a piece. Every exact-cover
//! search then works on it unchanged; a solution maps back to pieces on cells.

mod bitmask;
mod check;
mod compile;
mod dlx;
mod dxz;
pub mod sets;
mod symmetry;
pub mod vocab;

use std::sync::Arc;

pub use vocab::{TilingNote, TilingRefusal};

use super::{ModelSummary, Picture, Strategy};
use crate::board::polyform::{Cell, Turns};
use crate::dlx::{Branch, Problem};
use crate::spec::{CellBox, Fill, PieceCount};

/// A piece of the puzzle, from a named set or a `[[piece]]`.
#[derive(Clone, Debug)]
pub struct Piece {
    pub name: String,
    /// Its squares or cubes as drawn.
    pub cells: Vec<Cell>,
    pub count: PieceCount,
    /// The turns it may take, resolved (a flat board's free turns are the plane's).
    pub turns: Turns,
    /// Its placements: options `first..first + placements` of the problem.
    pub first: usize,
    pub placements: usize,
}

/// The option of one uncovered cell, under `leave`.
pub const BLANK: u32 = u32::MAX;

pub struct Model {
    pub board: CellBox,
    /// Whether the pieces turn in space (a box of more than one layer).
    pub space: bool,
    pub pieces: Vec<Piece>,
    pub fill: Fill,
    /// Cells left uncovered (`leave`); 0 without.
    pub leave: usize,
    pub problem: Arc<Problem>,
    pub branch: Branch,
    /// For each option: its piece (an index into `pieces`, or [`BLANK`]) and its cells
    /// (`cells[start[k]..start[k + 1]]`, board indices, sorted).
    piece_of: Vec<u32>,
    start: Vec<u32>,
    cells: Vec<u32>,
}

pub static STRATEGIES: &[&dyn Strategy<Model>] = &[&dlx::Dlx, &dxz::Dxz, &bitmask::Bitmask];
pub use bitmask::preference;

impl Model {
    /// The piece (or [`BLANK`]) and the cells of option `k`.
    pub fn placement(&self, k: usize) -> (u32, &[u32]) {
        let (a, b) = (self.start[k] as usize, self.start[k + 1] as usize);
        (self.piece_of[k], &self.cells[a..b])
    }

    pub fn num_options(&self) -> usize {
        self.piece_of.len()
    }

    /// The cells of the board, as indices.
    pub fn cell_count(&self) -> usize {
        self.board.cells.iter().filter(|&&c| c).count()
    }

    pub fn picture(&self, options: &[usize]) -> Picture {
        let b = &self.board;
        let mut pieces = Vec::with_capacity(options.len());
        for &k in options {
            let (p, cells) = self.placement(k);
            if p != BLANK {
                pieces.push((
                    self.pieces[p as usize].name.clone(),
                    cells.iter().map(|&c| c as usize).collect(),
                ));
            }
        }
        Picture::Shapes {
            width: b.width,
            height: b.height,
            depth: b.depth,
            cells: b.cells.clone(),
            pieces,
        }
    }

    pub fn describe(&self) -> ModelSummary {
        ModelSummary::Tiling {
            width: self.board.width,
            height: self.board.height,
            depth: self.board.depth,
            cells: self.cell_count(),
            pieces: self.pieces.len(),
            placements: self.num_options(),
            pack: self.fill == Fill::Pack,
            leave: self.leave,
        }
    }

    /// The symmetries of the puzzle, identity included: what `--unique` counts classes under.
    pub fn symmetry_count(&self) -> usize {
        symmetry::symmetries(self).order()
    }

    /// The exact cover whose solutions are the classes of solutions under the puzzle's
    /// symmetries, one each, for a program that knows nothing of them (DLX1, SSXCC): the
    /// problem with one piece kept to a placement an orbit, where that alone is exact.
    pub fn exact_cover_up_to_symmetry(&self) -> Result<Problem, crate::engine::Refusal> {
        let sym = symmetry::symmetries(self);
        if sym.perms.is_empty() {
            return Ok((*self.problem).clone());
        }
        match symmetry::restriction(self, &sym) {
            Some(r) if r.symmetric() == 0 => Ok(r.problem(self).0),
            Some(r) => Err(TilingRefusal::KeptSymmetric {
                piece: self.pieces[r.piece].name.clone(),
                symmetric: r.symmetric(),
            }
            .into()),
            None => Err(TilingRefusal::NoneAlone.into()),
        }
    }

    /// The colour names of the problem: a tiling has none.
    pub fn colours(&self) -> &[String] {
        &[]
    }
}
