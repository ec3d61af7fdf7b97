//! What the kinds hand render to draw: a solution as a [`Picture`], a compiled puzzle as a
//! [`ModelSummary`], a move graph as a [`SquareGraph`] (or why there is none, [`NoGraph`]).
//! Data only: render writes them.

use crate::engine::Vocabulary;
use crate::spec::Kind;
use crate::util::Packed;

/// A solution, described for drawing. Saved and read back with serde (the Python package
/// pickles its answers' drawings).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Picture {
    /// Pieces on squares (index = row * width + col).
    Placement {
        width: usize,
        height: usize,
        holes: Vec<bool>,
        pieces: Vec<(usize, char)>,
        /// Several pieces (`[[piece]]` tables): JSON names each square's piece by its symbol.
        mixed: bool,
    },
    /// Pieces of one symbol, at most one a row, on a board without holes: the column of each
    /// row's piece (all ones for a row without one), packed, so that 10^7 queens cost 24
    /// bits a row and the board nothing per square.
    OnePerRow {
        width: usize,
        height: usize,
        symbol: char,
        cols: Packed,
        /// Rows holding a piece.
        pieces: usize,
    },
    /// Chosen options of an exact cover, each as its item names (with colours).
    Options(Vec<Vec<String>>),
    /// A tour: the move number of each square (0-based; all ones on holes), packed, so the
    /// largest boards cost ceil(log2(squares + 1)) bits a square (10^8 squares: 27).
    Tour {
        width: usize,
        height: usize,
        number: Packed,
        closed: bool,
        /// Squares on the board (not holes): a valid tour's widest number.
        cells: usize,
    },
    /// Shapes on the cells of a board or a box (kind tiling): `cells[i]` is true where the
    /// board has a cell (index `(layer * height + row) * width + col`), and each piece
    /// placed is its name and its cells.
    Shapes {
        width: usize,
        height: usize,
        depth: usize,
        cells: Vec<bool>,
        pieces: Vec<(String, Vec<usize>)>,
    },
    /// Symbols in the cells of a square grid (kind sudoku), in reading order, with the
    /// cells that were given, the region of each cell (`None`: a Latin square), whether the
    /// long diagonals are units (X-sudoku) and the killer cages (sum, cells).
    Grid {
        size: usize,
        symbols: Vec<char>,
        given: Vec<bool>,
        regions: Option<Vec<u8>>,
        diagonals: bool,
        cages: Vec<(u32, Vec<usize>)>,
    },
    /// Stones of several colours (kind lines): `stones[sq]` is 0 for none, `c + 1` for a
    /// stone of colour `c`, named `colors[c]`.
    Stones {
        width: usize,
        height: usize,
        holes: Vec<bool>,
        stones: Vec<usize>,
        colors: Vec<String>,
    },
}

impl Picture {
    /// The squares (or cells) it draws: what a drawing's size is bounded by.
    pub fn squares(&self) -> usize {
        match self {
            Picture::Tour { number, .. } => number.len(),
            Picture::Placement { holes, .. } | Picture::Stones { holes, .. } => holes.len(),
            Picture::OnePerRow { width, height, .. } => width * height,
            Picture::Shapes { cells, .. } => cells.len(),
            Picture::Grid { symbols, .. } => symbols.len(),
            Picture::Options(_) => 0,
        }
    }
}

/// What a compiled puzzle holds, for `check`, `strategies` and `compare`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelSummary {
    /// `count` pieces of `piece` (Betza), none attacking another.
    Independent {
        /// `None`: no count given; as many as fit (goals count and maximize).
        count: Option<usize>,
        piece: String,
        width: usize,
        height: usize,
        /// Several pieces: each one's moves (Betza) and count range; `piece` and `count`
        /// then say nothing.
        mixed: Vec<(String, usize, usize)>,
        /// Pieces standing before the search.
        givens: usize,
    },
    /// The fewest `piece`s covering the board.
    Domination {
        piece: String,
        width: usize,
        height: usize,
        holes: bool,
        independent: bool,
        /// Several pieces: each one's moves (Betza) and count range.
        mixed: Vec<(String, usize, usize)>,
        /// Pieces standing before the search.
        givens: usize,
    },
    /// A tour of the board's `cells` squares.
    Tour {
        closed: bool,
        piece: String,
        cells: usize,
        start: Option<String>,
        width: usize,
        height: usize,
        holes: bool,
    },
    /// `per_color` stones of each colour, at most `max_per_line` of one on a line.
    Lines {
        per_color: usize,
        colors: Vec<String>,
        width: usize,
        height: usize,
        max_per_line: usize,
        lines: usize,
        /// Lines that can hold more than their share (the others are full by the totals).
        active: usize,
    },
    /// Shapes covering a board or a box.
    Tiling {
        width: usize,
        height: usize,
        depth: usize,
        cells: usize,
        pieces: usize,
        placements: usize,
        pack: bool,
        leave: usize,
    },
    /// A sudoku: a grid of `size` symbols, its regions, `givens` cells given.
    Sudoku {
        size: usize,
        regions: GridRegions,
        diagonals: bool,
        givens: usize,
        cages: usize,
    },
    /// A generic exact cover.
    Cover {
        items: usize,
        primary: usize,
        options: usize,
    },
}

/// The regions of a sudoku's grid besides rows and columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridRegions {
    /// None: a Latin square.
    None,
    Boxes {
        height: usize,
        width: usize,
    },
    /// Drawn in the file (jigsaw).
    Drawn,
}

/// A graph on board squares (a piece's move graph), with the edges of a path through it to
/// draw bold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareGraph {
    pub name: String,
    /// The board's width: a square `s` sits at row `s / width`, column `s % width`.
    pub width: usize,
    /// Each node's square and label.
    pub nodes: Vec<(usize, String)>,
    pub edges: Vec<(usize, usize)>,
    /// Edges to draw bold, in either direction.
    pub highlight: Vec<(usize, usize)>,
}

/// Why a puzzle has no move graph for `--format dot`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoGraph {
    /// Only tours have a move graph; this kind has none.
    Kind(Kind),
    /// The graph of a board above `limit` squares is not built.
    TooLarge { limit: usize },
}

/// Why a puzzle is not written as one exact cover problem: the Dancing Links models of its
/// kind are not one fixed problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoExactCover(pub Kind);

impl Vocabulary for NoExactCover {}
