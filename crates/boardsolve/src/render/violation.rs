//! The sentences of what the kinds' validators and output checks find: a [`Violation`] of a
//! puzzle's rules, a move graph that is not there ([`NoGraph`]), a tuning option that is not
//! set ([`OptionError`]) and a checked solve that failed ([`SolveError`]).

use std::fmt;

use crate::kinds::domination::OptionError;
use crate::kinds::{Line, NoGraph, SolveError, Violation};

/// The rule a solution breaks, in words.
pub fn violation_text(v: &Violation) -> String {
    match v {
        Violation::NotOnBoard { square } => format!("square {square} is not on the board"),
        Violation::TwoOnSquare { square } => format!("two pieces on square {square}"),
        Violation::Attack { a, b } => format!("squares {a} and {b} attack each other"),
        Violation::SharedLine { row, col, line } => {
            let line = match line {
                Line::Row => "row",
                Line::Column => "column",
                Line::Diagonal => "diagonal",
                Line::AntiDiagonal => "anti-diagonal",
            };
            format!("the piece on [{row}, {col}] shares its {line} with another")
        }
        Violation::RowsNeedLinePiece { piece } => format!(
            "a column per row is checked for rooks, bishops and queens; this piece is {piece}"
        ),
        Violation::RowsNeedNoHoles => "a column per row is checked on boards without holes".into(),
        Violation::RowCount { given, height } => {
            format!("{given} rows given; the board has {height}")
        }
        Violation::ColumnsNarrow => "the columns are too narrow for the board".into(),
        Violation::ColumnOff { row, col, width } => {
            format!("row {row}: column {col} is off the {width}-column board")
        }
        Violation::PieceCount { placed, asked } => {
            format!("{placed} pieces placed; the puzzle asks for {asked}")
        }
        Violation::SymbolBeyond {
            cell,
            symbol,
            symbols,
        } => format!(
            "cell {cell} holds symbol {} of a grid of {symbols}",
            symbol + 1
        ),
        Violation::GivenChanged { cell } => format!("cell {cell} does not hold its given"),
        Violation::SymbolTwice { a, b } => {
            format!("cells {a} and {b} hold one symbol in a row, column, region, diagonal or cage")
        }
        Violation::CageSum {
            cage,
            sum,
            expected,
        } => format!("cage {} adds up to {sum}, not {expected}", cage + 1),
        Violation::GivenMissing { square } => {
            format!("the piece given on square {square} is not there")
        }
        Violation::Uncovered { square } => {
            format!("square {square} is neither occupied nor attacked")
        }
        Violation::NotAPlacement { option } => format!("option {option} is not a placement"),
        Violation::NotACell { cell } => format!("a placement covers {cell}, which is not a cell"),
        Violation::CoveredTwice { cell } => format!("cell {cell} is covered twice"),
        Violation::NotThePiece { piece, cells } => {
            format!("the cells {cells:?} are not piece \"{piece}\" turned as it may be")
        }
        Violation::PieceUsed { piece, times } => {
            format!("piece \"{piece}\" is placed {times} times, outside its count")
        }
        Violation::EmptyCells { marked, leave } => {
            format!("{marked} cells are marked empty where the puzzle leaves {leave}")
        }
        Violation::CellsUncovered { cells } => format!("{cells} cells are not covered"),
        Violation::NotExactCover { options } => {
            format!("options {options:?} are not an exact cover")
        }
        Violation::EntryCount { entries, squares } => {
            format!("{entries} entries for {squares} squares")
        }
        Violation::ColourBeyond {
            square,
            colour,
            colours,
        } => format!("square {square} holds colour {colour}, beyond {colours} colours"),
        Violation::StoneOnHole { square } => format!("square {square} is a hole and holds a stone"),
        Violation::StoneCount {
            colour,
            stones,
            per_colour,
        } => format!("{stones} stones of {colour}, not {per_colour}"),
        Violation::LineOverfull {
            stones,
            colour,
            line,
        } => format!("{stones} stones of {colour} on the line through squares {line:?}"),
        Violation::VisitCount { visits, squares } => {
            format!("the tour visits {visits} squares; the board has {squares}")
        }
        Violation::StepOffBoard { step } => format!("step {step} is not a square on the board"),
        Violation::VisitedTwice { square } => format!("square {square} is visited twice"),
        Violation::NotAMove { step, from, to } => {
            format!("step {step} from {from} to {to} is not a move")
        }
        Violation::NotClosed => {
            "the tour does not close: the last square is no move from the first".into()
        }
        Violation::WrongStart { start } => format!("the tour does not start on {start}"),
        Violation::NumberingSize => "the numbering does not cover the board".into(),
        Violation::NumberingNarrow => "the numbering is too narrow for the board".into(),
        Violation::NoFirst => "no square is numbered first".into(),
        Violation::NumberedWrongly { square } => format!("square {square} is numbered wrongly"),
        Violation::NoNumber { square } => format!("square {square} has no move number"),
        Violation::NumberBeyond { square, number, of } => {
            format!("square {square} has move {number} of {of}")
        }
        Violation::NotFollowed {
            number,
            square,
            next,
        } => format!("move {number} on {square} is not followed: no square has move {next}"),
        Violation::LastNotBeforeFirst { last, first } => format!(
            "the tour does not close: the last square, {last}, is no move from the first, {first}"
        ),
        Violation::FollowedFar {
            number,
            square,
            next,
            on,
        } => format!(
            "move {number} on {square} is followed by move {next} on {on}, which is no move away"
        ),
        Violation::FollowedTwice {
            number,
            square,
            next,
            on: [a, b],
        } => format!(
            "move {number} on {square} is not followed by a move to move {next}, which is on {a} \
             and {b} (twice)"
        ),
        Violation::StartsElsewhere { start, first } => {
            format!("the tour does not start on {start}: move 1 is on {first}")
        }
        Violation::NoCompact(_) => "this kind has no compact solutions".into(),
    }
}

/// Why `--format dot` has no graph to write, in words.
pub fn no_graph_text(g: &NoGraph) -> String {
    match g {
        NoGraph::Kind(kind) => format!(
            "--format dot writes the move graph of kind \"tour\"; kind \"{}\" has none",
            kind.name()
        ),
        NoGraph::TooLarge { limit } => {
            format!("the move graph of a board above {limit} squares is not built")
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&violation_text(self))
    }
}

impl std::error::Error for Violation {}

impl fmt::Display for NoGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&no_graph_text(self))
    }
}

impl std::error::Error for NoGraph {}

/// A tuning option's key or value refused: the message of the spec error that names it.
impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { key, known } => {
                write!(f, "unknown option \"{key}\"; known: {}", known.join(", "))
            }
            OptionError::OutOfRange {
                key,
                value,
                min,
                max,
                integer,
            } => write!(
                f,
                "{key} = {value}: accepted: {}{min} to {max}",
                if *integer { "whole numbers " } else { "" }
            ),
        }
    }
}

impl std::error::Error for OptionError {}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Refused(why) => write!(f, "{why}"),
            SolveError::Invalid { strategy, why } => write!(
                f,
                "internal error: strategy {strategy} produced an invalid solution: {why}"
            ),
        }
    }
}

impl std::error::Error for SolveError {}
