//! Whether a tour exists, decided before any search.
//!
//! For the plain knight on a board without holes the question is settled by theorems:
//! Schwenk (1991) for closed tours; the classical table for open tours (1x1, 3x4, 3xn with
//! n >= 7, 4xn with n >= 5, and every board with both sides at least 5); and for a given
//! start square the colour argument on boards with an odd number of squares plus the small
//! exceptions: the centre of 3x7, the middle columns of 3x4, two squares of the middle line
//! of 3x8 (found by our exhaustive search; known-answers.md does not list them), and the
//! inner lines of 4xn (stated for 4x5 in known-answers.md; it holds for every n by Schwenk's
//! outer-row argument, and our exhaustive search confirms it for 4x5 to 4x8). The tests
//! check every one of these rules against exhaustive search.
//!
//! For other leapers and for boards with holes only necessary conditions are known: the
//! move graph must be connected, a closed tour needs two moves at every square, an open one
//! at most two squares with one move, and when the moves alternate between two colour
//! classes the classes must balance (equal for closed tours, within one for open ones, the
//! start in the larger). When they hold, the search decides.

use super::graph::{Analysis, Csr};
use super::vocab::{ClassRule, TourReason};
use crate::board::Board;
use crate::board::betza::Piece;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Existence {
    /// Proven to exist; the theorem that says so.
    Exists(&'static str),
    /// Proven not to exist; the reason, for the user.
    None(TourReason),
    /// The necessary conditions hold; only a search can tell.
    Unknown,
}

/// What the rules look at: the puzzle as compiled.
pub struct Puzzle<'a> {
    pub board: &'a Board,
    pub piece: &'a Piece,
    pub closed: bool,
    pub start: Option<usize>,
    /// Squares on the board (not holes).
    pub cells: usize,
    /// The plain knight on a board without holes: the theorems apply in full.
    pub plain_knight: bool,
}

impl Existence {
    /// The theorem that proves a tour exists, when one does.
    pub fn theorem(&self) -> Option<&'static str> {
        match self {
            Existence::Exists(why) => Some(why),
            _ => None,
        }
    }
}

/// The verdict for `m`; `graph` gives the move graph and its analysis (`None` where the
/// board is too large for one), asked only where no theorem settles the question.
pub fn decide<'g>(
    m: &Puzzle,
    graph: impl FnOnce() -> Option<(&'g Csr, &'g Analysis)>,
) -> Existence {
    let b = &m.board;
    if m.cells == 1 {
        return if m.closed {
            Existence::None(TourReason::ClosedSingleSquare)
        } else {
            Existence::Exists("a board of one square is its own tour")
        };
    }
    if m.plain_knight {
        let start = m.start.map(|s| b.row_col(s));
        return knight(b.width, b.height, m.closed, start);
    }
    match graph() {
        Some((g, a)) => necessary(m, g, a),
        None => Existence::Unknown,
    }
}

/// The theorems for the knight on a full `width` x `height` board.
pub fn knight(
    width: usize,
    height: usize,
    closed: bool,
    start: Option<(usize, usize)>,
) -> Existence {
    let (m, n) = (width.min(height), width.max(height));
    let size = format!("{width}x{height}");
    if closed {
        if m * n == 1 {
            return Existence::None(TourReason::ClosedNoReturn);
        }
        if m % 2 == 1 && n % 2 == 1 {
            return Existence::None(TourReason::SchwenkOdd {
                size,
                squares: m * n,
            });
        }
        if m <= 2 {
            return Existence::None(TourReason::SchwenkNarrow { size });
        }
        if m == 4 {
            return Existence::None(TourReason::SchwenkSideFour { size });
        }
        if m == 3 && matches!(n, 4 | 6 | 8) {
            return Existence::None(TourReason::SchwenkThreeRows { size });
        }
        return Existence::Exists("Schwenk's theorem");
    }
    let open = match (m, n) {
        (1, 1) => true,
        (1 | 2, _) => false,
        (3, n) => n == 4 || n >= 7,
        (4, n) => n >= 5,
        _ => true,
    };
    if !open {
        return Existence::None(TourReason::OpenTable { size });
    }
    let Some((r, c)) = start else {
        return Existence::Exists("the open knight's tour table");
    };
    // a runs along the short side, b along the long one.
    let (a, bb) = if height <= width { (r, c) } else { (c, r) };
    let name = format!("[{r}, {c}]");
    if (m * n) % 2 == 1 && (r + c) % 2 == 1 {
        return Existence::None(TourReason::OpenStartColour {
            size,
            squares: m * n,
            start: name,
        });
    }
    if (m, n) == (3, 7) && (a, bb) == (1, 3) {
        return Existence::None(TourReason::OpenCentreOf3x7 { start: name });
    }
    if (m, n) == (3, 4) && !(bb == 0 || bb == 3) {
        return Existence::None(TourReason::OpenEndsOf3x4 { size, start: name });
    }
    if (m, n) == (3, 8) && a == 1 && (bb == 2 || bb == 5) {
        return Existence::None(TourReason::OpenThirdOf3x8 { size, start: name });
    }
    if m == 4 && !(a == 0 || a == 3) {
        return Existence::None(TourReason::OpenInnerLineOf4 { start: name });
    }
    Existence::Exists("the open knight's tour table and the start-square rules")
}

/// Necessary conditions from the move graph, for other pieces and holed boards.
fn necessary(m: &Puzzle, g: &Csr, a: &Analysis) -> Existence {
    let b = &m.board;
    if a.components > 1 {
        return Existence::None(TourReason::GraphSplit {
            piece: m.piece.notation(),
            parts: a.components,
        });
    }
    let cells: Vec<usize> = b.cells().collect();
    if m.closed {
        if let Some(&s) = cells.iter().find(|&&s| g.degree(s) < 2) {
            return Existence::None(TourReason::ClosedDeadEnd {
                square: b.square_name(s),
                moves: g.degree(s),
            });
        }
    } else {
        let ends: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&s| g.degree(s) == 1 && Some(s) != m.start)
            .collect();
        let room = if m.start.is_some() { 1 } else { 2 };
        if ends.len() > room {
            return Existence::None(TourReason::TooManyEnds {
                squares: ends.iter().map(|&s| b.square_name(s)).collect(),
                free: room,
            });
        }
    }
    if let Some((p, q)) = a.colour_classes {
        let classes = |rule| {
            Existence::None(TourReason::Classes {
                piece: m.piece.notation(),
                sizes: (p, q),
                rule,
            })
        };
        if m.closed && p != q {
            return classes(ClassRule::ClosedNeedsEqual);
        }
        if p.abs_diff(q) > 1 {
            return classes(ClassRule::DifferByOne);
        }
        if let Some(s) = m.start
            && p != q
        {
            let larger = if p > q { 0 } else { 1 };
            if a.class[s] != larger {
                return classes(ClassRule::StartInSmaller(b.square_name(s)));
            }
        }
    }
    Existence::Unknown
}
