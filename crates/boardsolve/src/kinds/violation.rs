//! What a kind's validator finds wrong with a solution: the [`Violation`]. The validators
//! return it; render says it. Squares of placements and stones are indices (row * width +
//! col); a tour's squares are named as its board names them ("a1").

use crate::spec::Kind;

/// A rule of the puzzle that a solution breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    // Placements (independent, domination).
    /// A piece stands off the board or on a hole.
    NotOnBoard { square: usize },
    /// Two pieces stand on one square.
    TwoOnSquare { square: usize },
    /// The pieces on squares `a` and `b` attack each other.
    Attack { a: usize, b: usize },
    /// The piece on (`row`, `col`) rides a line that another piece holds.
    SharedLine { row: usize, col: usize, line: Line },
    /// A column per row was given for a piece that is not a line piece (`piece`, Betza).
    RowsNeedLinePiece { piece: String },
    /// A column per row was given for a board with holes.
    RowsNeedNoHoles,
    /// `given` rows for a board of `height`.
    RowCount { given: usize, height: usize },
    /// The packed columns cannot say every column of the board and "none".
    ColumnsNarrow,
    /// Row `row`'s column `col` is beyond the board's `width`.
    ColumnOff {
        row: usize,
        col: usize,
        width: usize,
    },
    /// `placed` pieces where the puzzle asks for `asked`.
    PieceCount { placed: usize, asked: usize },
    /// The piece given on `square` is not there.
    GivenMissing { square: usize },
    /// A square neither occupied nor attacked (domination).
    Uncovered { square: usize },

    // Exact cover.
    /// The chosen options do not cover every primary item once (or within its range).
    NotExactCover { options: Vec<usize> },

    // Tilings (cells are indices (layer * height + row) * width + col).
    /// Option `option` is no placement of the puzzle.
    NotAPlacement { option: usize },
    /// A placement covers `cell`, which is not a cell of the board.
    NotACell { cell: usize },
    /// Two placements cover `cell`.
    CoveredTwice { cell: usize },
    /// The cells of a placement are not piece `piece` turned as it may be.
    NotThePiece { piece: String, cells: Vec<usize> },
    /// Piece `piece` is placed `times` times, outside its count.
    PieceUsed { piece: String, times: u64 },
    /// `marked` cells are marked empty where the puzzle leaves `leave`.
    EmptyCells { marked: usize, leave: usize },
    /// `cells` cells are neither covered nor marked empty.
    CellsUncovered { cells: usize },

    // Sudoku (cells are indices row * size + col).
    /// Cell `cell` holds symbol `symbol` (from 0) of only `symbols`.
    SymbolBeyond {
        cell: usize,
        symbol: usize,
        symbols: usize,
    },
    /// Cell `cell` does not hold its given.
    GivenChanged { cell: usize },
    /// Cells `a` and `b` hold one symbol in a row, column, region, diagonal or cage.
    SymbolTwice { a: usize, b: usize },
    /// Cage `cage` (from 0) adds up to `sum`, not its `expected`.
    CageSum {
        cage: usize,
        sum: usize,
        expected: usize,
    },

    // Lines.
    /// `entries` entries for a board of `squares`.
    EntryCount { entries: usize, squares: usize },
    /// A square holds colour `colour` (from 1) of only `colours`.
    ColourBeyond {
        square: usize,
        colour: usize,
        colours: usize,
    },
    /// A hole holds a stone.
    StoneOnHole { square: usize },
    /// `stones` stones of `colour` where each colour has `per_colour`.
    StoneCount {
        colour: String,
        stones: usize,
        per_colour: usize,
    },
    /// `stones` stones of `colour` on the line through `line`'s squares, more than a line
    /// takes.
    LineOverfull {
        stones: usize,
        colour: String,
        line: Vec<usize>,
    },

    // Tours in visiting order.
    /// The tour visits `visits` squares of the board's `squares`.
    VisitCount { visits: usize, squares: usize },
    /// Step `step` (from 1) is off the board or on a hole.
    StepOffBoard { step: usize },
    /// A square is visited twice.
    VisitedTwice { square: String },
    /// Step `step` (from 1), from `from` to `to`, is not a move of the piece.
    NotAMove {
        step: usize,
        from: String,
        to: String,
    },
    /// A closed tour whose last square is no move from its first.
    NotClosed,
    /// The tour does not start on the given start.
    WrongStart { start: String },

    // Tours as move numbers per square.
    /// The numbering's length is not the board's.
    NumberingSize,
    /// The packed numbers cannot say every move number and "hole".
    NumberingNarrow,
    /// No square holds move 1.
    NoFirst,
    /// A hole holds a number, or a square the hole's mark.
    NumberedWrongly { square: String },
    /// A square of a board without holes holds no number.
    NoNumber { square: String },
    /// A square holds move `number` (from 1) of a tour of `of` moves.
    NumberBeyond {
        square: String,
        number: u64,
        of: usize,
    },
    /// Move `number` (from 1) on `square` is followed by no move: no square holds `next`.
    NotFollowed {
        number: u64,
        square: String,
        next: u64,
    },
    /// A closed tour's last square, `last`, is no move from its first, `first`.
    LastNotBeforeFirst { last: String, first: String },
    /// Move `number` on `square` is followed by move `next` on `on`, no move away.
    FollowedFar {
        number: u64,
        square: String,
        next: u64,
        on: String,
    },
    /// Move `next` that should follow move `number` on `square` stands on two squares.
    FollowedTwice {
        number: u64,
        square: String,
        next: u64,
        on: [String; 2],
    },
    /// The tour does not start on the given start, `start`: move 1 is on `first`.
    StartsElsewhere { start: String, first: String },

    /// A solution in the compact encoding for a kind that has none.
    NoCompact(Kind),
}

/// A line a rider rides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    Row,
    Column,
    Diagonal,
    AntiDiagonal,
}
