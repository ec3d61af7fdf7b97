//! The compiled model of a tour puzzle: a leaper, a board with holes, open or closed, an
//! optional start; the move graph (graph.rs), built on first use; the verdict on existence
//! (exists.rs) reached before any search; and the checks of a tour, as a visiting order or
//! as packed move numbers; with what every strategy asks of it (the settled answer, the
//! counting note, the refusal of `--unique`).

use std::sync::OnceLock;

use petgraph::graph::UnGraph;

use super::exists::{self, Existence};
use super::graph::{self, Analysis, Csr, GRAPH_LIMIT, NONE};
use super::vocab::{TourCounting, TourNote, TourRefusal};
use crate::board::Board;
use crate::board::betza::Piece;
use crate::engine::{Answer, Goal, Need, Note, StopReason, Task};
use crate::kinds::{CheckError, ModelSummary, Violation};
use crate::spec::{Spec, SpecError, TourSpec};
use crate::util::Packed;

/// Columns the check decodes at a time: rows of a wider board go by stripes of this many,
/// so its ring of rows stays small (a knight's five rows of 4,096 values: 80 KB).
const CHECK_STRIPE: usize = 4096;

/// The knight's eight moves as (rows, columns), for the counting sweeps.
pub(super) const KNIGHT: [(i64, i64); 8] = [
    (1, 2),
    (1, -2),
    (-1, 2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

pub struct Model {
    pub board: Board,
    pub piece: Piece,
    pub symbol: char,
    pub closed: bool,
    pub start: Option<usize>,
    /// Squares on the board (not holes).
    pub cells: usize,
    /// The plain knight on a board without holes: the theorems apply in full.
    pub plain_knight: bool,
    /// Every move as (dr, dc).
    pub moves: Vec<(i32, i32)>,
    /// Built on first use: `divide` needs none, and on a board of a million squares the
    /// graph would cost more than the tour.
    built: OnceLock<Option<(Csr, Analysis)>>,
    pub existence: Existence,
}

impl Model {
    pub fn compile(spec: &Spec, rules: &TourSpec) -> Result<Model, SpecError> {
        // A board without holes holds no map of them, so the clone costs nothing per square.
        let board = spec.board().clone();
        let holed = board.has_holes();
        let ps = &rules.piece;
        let piece = ps.piece.clone();
        if !piece.rides.is_empty() {
            return Err(spec.err_at_one_of(
                &["piece.moves", "piece.rides"],
                format!(
                    "\"{}\" rides; a tour takes a leaper, which jumps straight to its target \
                     (a rider's path would leave squares visited in passing undefined); \
                     accepted: leaper atoms W F D N A H C Z G and their combinations, e.g. \
                     \"N\", \"C\", \"Z\", or `leaps = [[a, b]]`",
                    piece.notation()
                ),
            ));
        }
        let closed = rules.closed.as_ref().map(|c| *c.get_ref()).unwrap_or(false);
        let start = match &rules.start {
            None => None,
            Some(s) => {
                let (r, c) = spec.square(&board, s, "rules.start")?;
                let sq = board.index(r, c);
                if board.is_hole(sq) {
                    return Err(spec.err(
                        s.span(),
                        "rules.start",
                        "the start square is a hole; accepted: a square on the board".into(),
                    ));
                }
                Some(sq)
            }
        };
        let plain_knight = piece.leaps == [(2, 1)] && !holed;
        let squares = board.squares();
        if squares > GRAPH_LIMIT && !plain_knight {
            return Err(spec.err_board(format!(
                "a {}x{} board has {squares} squares; tours above {GRAPH_LIMIT} squares are \
                 built for the plain knight on a board without holes only",
                board.width, board.height
            )));
        }
        let mut moves = Vec::new();
        for ((dx, dy), _) in piece.directions() {
            moves.push((dy, dx));
        }
        let cells = board.cell_count();
        let mut m = Model {
            symbol: ps.symbol,
            board,
            piece,
            closed,
            start,
            cells,
            plain_knight,
            moves,
            built: OnceLock::new(),
            existence: Existence::Unknown,
        };
        let puzzle = exists::Puzzle {
            board: &m.board,
            piece: &m.piece,
            closed,
            start,
            cells,
            plain_knight,
        };
        m.existence = exists::decide(&puzzle, || m.built().map(|(g, a)| (g, a)));
        Ok(m)
    }

    /// What the move graph takes while it is built, for the strategies that walk it.
    pub fn graph_need(&self) -> Need {
        Need::new(
            graph::bytes(self.board.squares(), self.cells, self.moves.len()),
            format!(
                "the move graph ({} squares, {} moves each)",
                crate::util::numbers::group(self.cells as u128),
                self.moves.len()
            ),
        )
    }

    /// A tour found as a visiting order on its way out: the order kept (8 bytes a square),
    /// checked (a flag a square), and drawn as packed move numbers.
    pub fn order_need(&self) -> Need {
        let squares = self.board.squares();
        Need::new(
            9 * self.cells as u64 + Packed::bytes_for(squares, Packed::width_for(squares)),
            "the tour found, kept, checked and numbered",
        )
    }

    /// The move graph as flat arrays; `None` above [`GRAPH_LIMIT`] squares.
    pub fn graph(&self) -> Option<&Csr> {
        self.built().map(|b| &b.0)
    }

    /// The petgraph analysis of the move graph; `None` above [`GRAPH_LIMIT`] squares.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.built().map(|b| &b.1)
    }

    fn built(&self) -> Option<&(Csr, Analysis)> {
        self.built
            .get_or_init(|| {
                (self.board.squares() <= GRAPH_LIMIT)
                    .then(|| graph::build(&self.board, &self.moves, self.cells))
            })
            .as_ref()
    }

    /// The move graph in petgraph: one node per square on the board, in index order.
    pub fn petgraph(&self) -> (UnGraph<u32, ()>, Vec<u32>) {
        graph::petgraph(&self.board, &self.moves, self.cells)
    }

    /// Whether one move of the piece takes `a` to `b` (both on the board).
    pub fn is_move(&self, a: usize, b: usize) -> bool {
        let (ra, ca) = self.board.row_col(a);
        let (rb, cb) = self.board.row_col(b);
        let d = (rb as i64 - ra as i64, cb as i64 - ca as i64);
        self.moves
            .iter()
            .any(|&(dr, dc)| (dr as i64, dc as i64) == d)
    }

    /// A tour in visiting order is valid: every square on the board exactly once, each
    /// step a move of the piece, the last square a move from the first when closed, the
    /// given start first.
    pub fn check(&self, order: &[usize]) -> Result<(), Violation> {
        let b = &self.board;
        if order.len() != self.cells {
            return Err(Violation::VisitCount {
                visits: order.len(),
                squares: self.cells,
            });
        }
        let mut seen = vec![false; b.squares()];
        for (i, &s) in order.iter().enumerate() {
            if s >= b.squares() || b.is_hole(s) {
                return Err(Violation::StepOffBoard { step: i + 1 });
            }
            if std::mem::replace(&mut seen[s], true) {
                return Err(Violation::VisitedTwice {
                    square: b.square_name(s),
                });
            }
            if i > 0 && !self.is_move(order[i - 1], s) {
                return Err(Violation::NotAMove {
                    step: i + 1,
                    from: b.square_name(order[i - 1]),
                    to: b.square_name(s),
                });
            }
        }
        if self.closed && (order.len() < 2 || !self.is_move(order[order.len() - 1], order[0])) {
            return Err(Violation::NotClosed);
        }
        if let Some(s) = self.start
            && order.first() != Some(&s)
        {
            return Err(Violation::WrongStart {
                start: b.square_name(s),
            });
        }
        Ok(())
    }

    /// A tour as packed move numbers per square (0-based, all ones on holes) is valid,
    /// checked without the move graph and without memory per square, so the largest boards
    /// are checked too. One scan in square order checks that every square's number is in
    /// 0..n (holes carry the sentinel), that some square is numbered 0, and that every square
    /// numbered k < n - 1 has a move to a square numbered k + 1 (closed: the square numbered
    /// n - 1 one to the square numbered 0). That is a tour: the numbers present hold 0 and
    /// with each k < n - 1 also k + 1, so all of 0..n are there, on n squares, each once; and
    /// k -> k + 1 is a move each time.
    ///
    /// Unlike following the tour from move to move, the scan has no chain of dependent reads:
    /// a square's moves lie in the rows a few above and below, which are decoded into a small
    /// ring of rows (a stripe of columns at a time on very wide boards), and each move is
    /// compared for a whole row at once.
    pub fn check_numbers(&self, number: &Packed) -> Result<(), Violation> {
        match self.check_numbers_until(number, &mut || None) {
            Ok(()) => Ok(()),
            Err(CheckError::Invalid(why)) => Err(why),
            Err(CheckError::Stopped(_)) => unreachable!("a check never asked to stop stopped"),
        }
    }

    /// [`Model::check_numbers`], asking `stop` once a row of every stripe (a few thousand
    /// squares) whether to give up: the check of a board of 10^8 squares takes seconds.
    pub fn check_numbers_until(
        &self,
        number: &Packed,
        stop: &mut dyn FnMut() -> Option<StopReason>,
    ) -> Result<(), CheckError> {
        let b = &self.board;
        let n = self.cells;
        if number.len() != b.squares() {
            return Err(Violation::NumberingSize.into());
        }
        let none = number.ones();
        if (none as u64) < n as u64 {
            return Err(Violation::NumberingNarrow.into());
        }
        if n == 0 {
            return Err(Violation::NoFirst.into());
        }
        if self.closed && n < 3 {
            return Err(Violation::NotClosed.into());
        }
        let (w, h) = (b.width, b.height);
        // Only moves that can land on the board matter; they set how far the ring reaches.
        let moves: Vec<(isize, isize)> = self
            .moves
            .iter()
            .map(|&(dr, dc)| (dr as isize, dc as isize))
            .filter(|&(dr, dc)| dr.unsigned_abs() < h && dc.unsigned_abs() < w)
            .collect();
        let vpad = moves.iter().map(|m| m.0.unsigned_abs()).max().unwrap_or(0);
        let hpad = moves.iter().map(|m| m.1.unsigned_abs()).max().unwrap_or(0);
        // Rows r - vpad ..= r + vpad in slots r % ring; one more slot of sentinels stands
        // for the rows off the board. A slot holds a stripe's columns and hpad either side.
        let ring = 2 * vpad + 1;
        let stripe = CHECK_STRIPE.min(w);
        let sw = stripe + 2 * hpad;
        let mut rows = vec![none; (ring + 1) * sw];
        let mut target = vec![0u32; stripe];
        let mut found = vec![0u32; stripe];
        let last = (n - 1) as u32;
        let holes = self.cells != b.squares();
        let mut first = None;
        for c0 in (0..w).step_by(stripe) {
            let c1 = (c0 + stripe).min(w);
            let cw = c1 - c0;
            let (lo, hi) = (c0.saturating_sub(hpad), (c1 + hpad).min(w));
            // Row r's columns lo..hi into its slot (the stripe's own squares range-checked);
            // columns off the board stay sentinels.
            let mut decode = |r: usize, rows: &mut [u32]| -> Result<(), Violation> {
                let slot = &mut rows[(r % ring) * sw..][..sw];
                let at = hpad + lo - c0;
                slot[..at].fill(none);
                number.get_run(r * w + lo, &mut slot[at..at + hi - lo]);
                slot[at + hi - lo..].fill(none);
                let own = &slot[hpad..hpad + cw];
                // Without holes every square needs a number in range: one pass for the
                // smallest and largest (vectorised), and the square by square look only
                // when something is amiss or a 0 is in the row.
                if !holes {
                    let (lo_k, hi_k) = own
                        .iter()
                        .fold((u32::MAX, 0), |(a, b), &k| (a.min(k), b.max(k)));
                    if hi_k <= last && lo_k > 0 {
                        return Ok(());
                    }
                }
                for (j, &k) in own.iter().enumerate() {
                    let s = r * w + c0 + j;
                    if holes && b.is_hole(s) != (k == none) {
                        return Err(Violation::NumberedWrongly {
                            square: b.square_name(s),
                        });
                    }
                    if k == none && !holes {
                        return Err(Violation::NoNumber {
                            square: b.square_name(s),
                        });
                    }
                    if k != none && k > last {
                        return Err(Violation::NumberBeyond {
                            square: b.square_name(s),
                            number: k as u64 + 1,
                            of: n,
                        });
                    }
                    if k == 0 {
                        first = Some(s);
                    }
                }
                Ok(())
            };
            rows[ring * sw..].fill(none);
            for r in 0..vpad.min(h) {
                decode(r, &mut rows)?;
            }
            for r in 0..h {
                if let Some(reason) = stop() {
                    return Err(CheckError::Stopped(reason));
                }
                if r + vpad < h {
                    decode(r + vpad, &mut rows)?;
                }
                let centre = &rows[(r % ring) * sw + hpad..][..cw];
                // What each square needs next: k + 1, or 0 after the last move of a closed
                // tour; holes and an open tour's last square need nothing.
                // (All in u32 lanes, without branches, so the loops vectorise.)
                let open = !self.closed as u32;
                for ((t, f), &k) in target.iter_mut().zip(found.iter_mut()).zip(centre) {
                    let is_last = (k == last) as u32;
                    *t = k.wrapping_add(1) & (is_last.wrapping_sub(1));
                    *f = (k == none) as u32 | (is_last & open);
                }
                for &(dr, dc) in &moves {
                    let rr = r as isize + dr;
                    let slot = if rr < 0 || rr as usize >= h {
                        ring
                    } else {
                        rr as usize % ring
                    };
                    let from = (slot * sw + hpad) as isize + dc;
                    let src = &rows[from as usize..][..cw];
                    for ((f, &t), &v) in found.iter_mut().zip(&target[..cw]).zip(src) {
                        *f |= (v == t) as u32;
                    }
                }
                if found[..cw].iter().fold(1, |a, &f| a & f) == 0 {
                    let j = found.iter().position(|&f| f == 0).expect("one is missing");
                    return Err(self.no_successor(number, r * w + c0 + j, centre[j]).into());
                }
            }
        }
        let first = first.ok_or(Violation::NoFirst)?;
        if let Some(s) = self.start
            && s != first
        {
            return Err(Violation::StartsElsewhere {
                start: b.square_name(s),
                first: b.square_name(first),
            }
            .into());
        }
        Ok(())
    }

    /// Why square `s`, numbered `k`, has no move to the number after it (the failure path
    /// of [`Model::check_numbers`]: one more scan, to say where that number is).
    fn no_successor(&self, number: &Packed, s: usize, k: u32) -> Violation {
        let b = &self.board;
        let n = self.cells as u32;
        let want = if k + 1 == n { 0 } else { k + 1 };
        let on: Vec<usize> = number
            .iter()
            .enumerate()
            .filter(|&(_, v)| v == want)
            .map(|(t, _)| t)
            .take(2)
            .collect();
        let (moved, square, next) = (k as u64 + 1, b.square_name(s), want as u64 + 1);
        match on[..] {
            [] => Violation::NotFollowed {
                number: moved,
                square,
                next,
            },
            [t] if want == 0 => Violation::LastNotBeforeFirst {
                last: square,
                first: b.square_name(t),
            },
            [t] => Violation::FollowedFar {
                number: moved,
                square,
                next,
                on: b.square_name(t),
            },
            _ => Violation::FollowedTwice {
                number: moved,
                square,
                next,
                on: [b.square_name(on[0]), b.square_name(on[1])],
            },
        }
    }

    /// Move numbers per square from a visiting order, packed ([`NONE`], all ones, on holes).
    pub fn numbers(&self, order: &[usize]) -> Packed {
        let squares = self.board.squares();
        let mut number = Packed::filled(squares, Packed::width_for(squares), NONE);
        for (i, &s) in order.iter().enumerate() {
            number.set(s, i as u32);
        }
        number
    }

    /// The answer without search when existence is already settled negatively.
    pub fn settled(&self) -> Option<Answer> {
        match &self.existence {
            Existence::None(why) => Some(Answer::none_because(why.clone())),
            _ => None,
        }
    }

    /// How counts are counted (puzzle-format.md section 3), for the summary.
    pub fn counting_note(&self, task: &Task) -> Option<Note> {
        if !matches!(task.goal, Goal::Count | Goal::All) {
            return None;
        }
        Some(Note::from(TourNote::TourCount(if self.closed {
            TourCounting::ClosedUndirected
        } else if let Some(s) = self.start {
            TourCounting::DirectedFrom(self.board.square_name(s))
        } else {
            TourCounting::DirectedEveryStart
        })))
    }

    /// The directed tours each counted path stands for: an open tour without a start is
    /// counted as a path, run both ways, except on a board of one square, where the path
    /// and its reverse are the same tour.
    pub fn directions(&self) -> u32 {
        if !self.closed && self.start.is_none() && self.cells > 1 {
            2
        } else {
            1
        }
    }

    pub fn describe(&self) -> ModelSummary {
        ModelSummary::Tour {
            closed: self.closed,
            piece: self.piece.notation(),
            cells: self.cells,
            start: self.start.map(|s| self.board.square_name(s)),
            width: self.board.width,
            height: self.board.height,
            holes: self.cells != self.board.squares(),
        }
    }
}

/// `--unique` is refused up front by the tour strategies that do not count up to symmetry.
pub(crate) fn no_unique(task: &Task) -> Result<(), TourRefusal> {
    if task.unique {
        return Err(TourRefusal::Unique);
    }
    Ok(())
}
