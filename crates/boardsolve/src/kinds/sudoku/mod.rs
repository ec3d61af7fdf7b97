//! `kind = "sudoku"`: a grid of n x n cells, each holding one of n symbols, so that every
//! row, column and region (boxes, a jigsaw's drawn regions, the diagonals of an X-sudoku)
//! holds each symbol once, and each killer cage's symbols differ and add up to its sum.
//!
//! The model is the grid's geometry (its units and each cell's peers, shared by every puzzle
//! of a file of many) and the givens. A solution is the symbol of every cell (0 to n - 1), in
//! reading order, whichever strategy found it: `dlx` maps its options back to cells.

mod bitmask;
mod check;
mod cover;
mod dlx;
mod many;
pub mod vocab;

use std::sync::{Arc, OnceLock};

pub use many::{LineAnswer, LineBatch, LineSolver};
pub use vocab::SudokuRefusal;

use super::{ModelSummary, Picture, Strategy};
use crate::dlx::Branch;
use crate::spec::{Cage, SUDOKU_SYMBOLS, Spec, SpecError, SudokuSpec};

/// What every puzzle of one set of rules shares: the units and the peers of each cell.
pub struct Grid {
    /// Symbols, and cells a side.
    pub n: usize,
    /// The region of each cell, for drawing; `None` for a Latin square.
    pub regions: Option<Vec<u8>>,
    pub diagonals: bool,
    pub cages: Vec<Cage>,
    /// The cells of unit `u`: `units[u * n..(u + 1) * n]`.
    units: Vec<u32>,
    /// The units of cell `c`: `cell_units[unit_start[c]..unit_start[c + 1]]`.
    unit_start: Vec<u32>,
    cell_units: Vec<u32>,
    /// The cells sharing a unit with cell `c`: `peers[peer_start[c]..peer_start[c + 1]]`.
    peer_start: Vec<u32>,
    peers: Vec<u32>,
    /// The units of each cell as bits (at most 3 x 35 + 2 units).
    pub unit_mask: Vec<u128>,
}

impl Grid {
    fn new(s: &SudokuSpec) -> Grid {
        let n = s.size;
        let unit_lists = s.units();
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); n * n];
        for (u, unit) in unit_lists.iter().enumerate() {
            for &c in unit {
                per_cell[c].push(u as u32);
            }
        }
        let units: Vec<u32> = unit_lists.iter().flatten().map(|&c| c as u32).collect();
        let mut unit_start = vec![0u32];
        let mut cell_units = Vec::new();
        let mut peer_start = vec![0u32];
        let mut peers = Vec::new();
        let mut seen = vec![usize::MAX; n * n];
        for (c, us) in per_cell.iter().enumerate() {
            cell_units.extend_from_slice(us);
            unit_start.push(cell_units.len() as u32);
            for &u in us {
                for &p in &units[u as usize * n..(u as usize + 1) * n] {
                    if p as usize != c && seen[p as usize] != c {
                        seen[p as usize] = c;
                        peers.push(p);
                    }
                }
            }
            peer_start.push(peers.len() as u32);
        }
        let unit_mask = per_cell
            .iter()
            .map(|us| us.iter().fold(0u128, |m, &u| m | 1 << u))
            .collect();
        Grid {
            unit_mask,
            n,
            regions: s.regions.of_cells(n),
            diagonals: s.diagonals,
            cages: s.cages.clone(),
            units,
            unit_start,
            cell_units,
            peer_start,
            peers,
        }
    }

    pub fn num_units(&self) -> usize {
        self.units.len() / self.n.max(1)
    }

    /// Every unit, as bits.
    pub fn all_units(&self) -> u128 {
        let k = self.num_units();
        if k >= 128 {
            u128::MAX
        } else {
            (1u128 << k) - 1
        }
    }

    pub fn unit(&self, u: usize) -> &[u32] {
        &self.units[u * self.n..(u + 1) * self.n]
    }

    pub fn units_of(&self, c: usize) -> &[u32] {
        &self.cell_units[self.unit_start[c] as usize..self.unit_start[c + 1] as usize]
    }

    pub fn peers_of(&self, c: usize) -> &[u32] {
        &self.peers[self.peer_start[c] as usize..self.peer_start[c + 1] as usize]
    }

    /// The box sides of a grid ruled in boxes, for a summary.
    fn boxes(&self) -> Option<(usize, usize)> {
        let r = self.regions.as_ref()?;
        let n = self.n;
        let width = (0..n).take_while(|&c| r[c] == r[0]).count();
        let height = (0..n).take_while(|&row| r[row * n] == r[0]).count();
        let boxed = (0..n * n).all(|c| {
            r[c] as usize == (c / n / height) * (n / width.max(1)) + (c % n) / width.max(1)
        });
        (boxed && width * height == n).then_some((height, width))
    }
}

pub struct Model {
    pub grid: Arc<Grid>,
    /// The given symbol of each cell: 0 for none, k for symbol k - 1.
    pub givens: Vec<u8>,
    pub branch: Branch,
    /// The entries of the exact cover, once counted (the killer cages' fillings enumerated).
    entries: OnceLock<u64>,
}

pub static STRATEGIES: &[&dyn Strategy<Model>] = &[&bitmask::Bitmask, &dlx::Dlx];
pub const PREFERENCE: &[&str] = &["bitmask", "dlx"];

impl Model {
    pub fn compile(spec: &Spec, s: &SudokuSpec) -> Result<Model, SpecError> {
        Ok(Model {
            grid: Arc::new(Grid::new(s)),
            givens: s.givens.clone(),
            branch: spec.solve.branch,
            entries: OnceLock::new(),
        })
    }

    /// The same rules with other givens (checked by the spec's reader: no two clash).
    pub fn with_givens(&self, givens: Vec<u8>) -> Model {
        Model {
            grid: Arc::clone(&self.grid),
            givens,
            branch: self.branch,
            entries: OnceLock::new(),
        }
    }

    pub fn n(&self) -> usize {
        self.grid.n
    }

    pub fn picture(&self, solution: &[usize]) -> Picture {
        let n = self.grid.n;
        Picture::Grid {
            size: n,
            symbols: solution
                .iter()
                .map(|&s| SUDOKU_SYMBOLS.get(s).map_or('?', |&b| b as char))
                .collect(),
            given: self.givens.iter().map(|&g| g != 0).collect(),
            regions: self.grid.regions.clone(),
            diagonals: self.grid.diagonals,
            cages: self
                .grid
                .cages
                .iter()
                .map(|c| (c.sum, c.cells.clone()))
                .collect(),
        }
    }

    pub fn describe(&self) -> ModelSummary {
        let g = &self.grid;
        ModelSummary::Sudoku {
            size: g.n,
            regions: match (&g.regions, g.boxes()) {
                (None, _) => crate::kinds::picture::GridRegions::None,
                (Some(_), Some((h, w))) => crate::kinds::picture::GridRegions::Boxes {
                    height: h,
                    width: w,
                },
                (Some(_), None) => crate::kinds::picture::GridRegions::Drawn,
            },
            diagonals: g.diagonals,
            givens: self.givens.iter().filter(|&&g| g != 0).count(),
            cages: g.cages.len(),
        }
    }
}
