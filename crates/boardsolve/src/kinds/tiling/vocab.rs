//! The tiling kind's own words on an answer, carried by the engine and said by render.

use crate::engine::Vocabulary;

/// How `--unique` counted the classes of solutions under the board's symmetries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TilingNote {
    /// Piece `piece` was kept to `kept` of its `placements` placements, one from each class
    /// under the board's `symmetries` symmetries: every class of solutions has a member with
    /// the piece on a kept placement. `symmetric` of the kept placements are left unchanged by
    /// some symmetry; a solution through one of them was counted only where it is the least
    /// of its images under those symmetries, the others once each.
    Restricted {
        piece: String,
        kept: usize,
        placements: usize,
        symmetries: usize,
        symmetric: usize,
    },
    /// No piece could be restricted (none stands alone, one copy, mapped to itself by every
    /// symmetry): each solution was counted where it is the least of its `symmetries` images.
    Canonical { symmetries: usize },
    /// The board has no symmetry but the identity that maps the puzzle to itself.
    NoSymmetry,
}

impl Vocabulary for TilingNote {}

/// Why a strategy of the tiling kind does not take a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TilingRefusal {
    /// `dxz` with `--unique`: its memo counts the whole problem.
    MemoUnique,
    /// `bitmask` with `--unique`: it keeps no piece to a placement per class.
    BitmaskUnique,
    /// `--unique` with `--format knuth-input`: the kept piece has `symmetric` kept placements
    /// that a symmetry fixes, so the restricted problem alone counts some classes twice.
    KeptSymmetric { piece: String, symmetric: usize },
    /// `--unique` with `--format knuth-input`: no piece stands alone to be restricted.
    NoneAlone,
}

impl Vocabulary for TilingRefusal {}
