//! The compiled model of an independent placement puzzle.

use super::vocab::IndependentRefusal;
use crate::board::Board;
use crate::board::betza::Piece;
use crate::engine::{Answer, Goal, Run, Standing, Task};
use crate::kinds::army::Army;
use crate::kinds::report::Placements;
use crate::spec::{self, IndependentSpec, Spec, SpecError};
use crate::util::BitMatrix;

/// Boards up to this many squares get the search strategies' data ([`Whole`]): the attack
/// relation is kept as one bitset per square (4096 squares: 2 MiB).
pub const MAX_SQUARES: usize = 4096;

#[derive(Clone)]
pub struct Model {
    pub board: Board,
    pub piece: Piece,
    pub symbol: char,
    /// Pieces to place (for `maximize`: ignored).
    pub count: usize,
    /// No count was given and the piece has no default: goal count counts the placements of
    /// the largest size, found first ([`Model::at_count`]), and `count` means nothing.
    pub largest: bool,
    /// What the search strategies keep per square; `None` on a board of more than
    /// [`MAX_SQUARES`] squares (up to 10^14), where only `construct` applies.
    pub whole: Option<Whole>,
    /// Givens or several pieces: a placement is then a list of codes ([`Army`]), searched
    /// by the strategies that take an army; `piece` and `symbol` are the first piece's.
    pub army: Option<Army>,
}

/// The whole board's data, a bitset or an entry per square, for the strategies that search.
#[derive(Clone)]
pub struct Whole {
    /// `attacks.get(a, b)`: a piece on `a` attacks `b` (a symmetric relation).
    pub attacks: BitMatrix,
    /// Squares on the board (not holes), in index order.
    pub cells: Vec<usize>,
    /// `cap_from[i]`: at most this many pieces fit on `cells[i..]`, whatever lies on the
    /// earlier cells: one per row segment for pieces that ride the rows, one per cell otherwise.
    pub cap_from: Vec<usize>,
    pub symmetries: Vec<Vec<u32>>,
}

impl Model {
    pub fn compile(spec: &Spec, rules: &IndependentSpec) -> Result<Model, SpecError> {
        let board = spec.board().clone();
        let piece_spec = match &rules.army {
            spec::Army::One { piece, .. } => piece,
            spec::Army::Mixed(list) => &list[0].piece,
        };
        let piece = piece_spec.piece.clone();
        // No pass over a board without holes: it may have 10^14 squares.
        let cell_count = board.cell_count();
        if let spec::Army::Mixed(_) = &rules.army {
            if board.squares() > MAX_SQUARES {
                return Err(spec.err_board(format!(
                    "a {}x{} board has {} squares; several pieces are placed on boards of at \
                     most {MAX_SQUARES}",
                    board.width,
                    board.height,
                    board.squares()
                )));
            }
            let army = Army::compile(spec, &rules.army, (0, 0), true)?;
            return Ok(Model {
                symbol: piece_spec.symbol,
                whole: Some(Whole::new(&board, &piece)),
                board,
                piece,
                count: 0,
                largest: false,
                army,
            });
        }
        let mut largest = false;
        let count = match &rules.count {
            Some(c) => {
                let v = *c.get_ref();
                if v < 1 || v as u64 > cell_count as u64 {
                    return Err(spec.err(
                        c.span(),
                        "rules.count",
                        format!(
                            "{v} pieces cannot be placed on a board of {cell_count} squares; \
                             accepted: 1 to {cell_count}"
                        ),
                    ));
                }
                v as usize
            }
            None if piece.rides_unlimited((1, 0)) && piece.leaps.is_empty() => {
                board.width.min(board.height)
            }
            None => {
                // Goal count without a count counts the largest placements; first and all
                // need a size to place.
                let goal = spec.solve.goal.unwrap_or(spec.kind().default_goal());
                if matches!(goal, Goal::First | Goal::All) {
                    return Err(spec.err_nowhere(
                        "rules.count",
                        format!(
                            "missing: how many pieces to place (the default, the board size, is \
                             only for queens and rooks); accepted: 1 to {cell_count}; without \
                             it, goal \"maximize\" finds the largest number and goal \"count\" \
                             counts the placements of that many"
                        ),
                    ));
                }
                largest = true;
                1
            }
        };
        let whole = (board.squares() <= MAX_SQUARES).then(|| Whole::new(&board, &piece));
        let army = if let spec::Army::One { given: Some(g), .. } = &rules.army
            && whole.is_none()
        {
            return Err(spec.err(
                g.span(),
                "rules.given",
                format!(
                    "givens are placed on boards of at most {MAX_SQUARES} squares; this one has \
                     {}",
                    board.squares()
                ),
            ));
        } else {
            // Without a count the size is the search's to find: any number may stand.
            let one = if largest {
                (0, cell_count)
            } else {
                (count, count)
            };
            Army::compile(spec, &rules.army, one, true)?
        };
        Ok(Model {
            symbol: piece_spec.symbol,
            board,
            piece,
            count,
            largest,
            whole,
            army,
        })
    }

    /// The same puzzle with `count` pieces to place: the second phase of goal count on a
    /// model without a count, once the largest size is known.
    pub fn at_count(&self, count: usize) -> Model {
        let mut army = self.army.clone();
        if let Some(a) = &mut army
            && !a.mixed
        {
            (a.troops[0].lo, a.troops[0].hi) = (count, count);
        }
        Model {
            count,
            largest: false,
            army,
            ..self.clone()
        }
    }

    /// `Err(why)` where the model has givens or several pieces: the refusal of a strategy
    /// that places one piece on an empty board.
    pub fn no_army(&self) -> Result<(), IndependentRefusal> {
        match &self.army {
            None => Ok(()),
            Some(a) if a.mixed => Err(IndependentRefusal::Mixed),
            Some(_) => Err(IndependentRefusal::Givens),
        }
    }

    /// The search strategies' data.
    ///
    /// # Panics
    /// On a board of more than [`MAX_SQUARES`] squares: a strategy that uses it refuses such
    /// a board in its `applies` ([`Model::whole_board`]).
    pub fn whole(&self) -> &Whole {
        self.whole
            .as_ref()
            .expect("a strategy that searches refuses a board beyond MAX_SQUARES")
    }

    /// `Err(why)` on a board too large for the search strategies' data: their refusal.
    pub fn whole_board(&self) -> Result<&Whole, IndependentRefusal> {
        self.whole.as_ref().ok_or(IndependentRefusal::WholeBoard {
            squares: self.board.squares(),
            max: MAX_SQUARES,
        })
    }

    /// The board's symmetries: 8 for a square board, 4 for a rectangle, fewer when holes
    /// break them (a board too large for the whole model is taken as without holes).
    pub fn symmetry_count(&self) -> usize {
        if let Some(a) = &self.army {
            // Only the symmetries that keep the givens.
            return a.code_symmetries.len();
        }
        match &self.whole {
            Some(w) => w.symmetries.len(),
            None if self.board.width == self.board.height => 8,
            None => 4,
        }
    }

    /// N-Queens proper: n queens on an empty n x n board.
    pub fn is_full_queens(&self) -> bool {
        self.board.width == self.board.height
            && !self.board.has_holes()
            && self.piece.is_queen()
            && self.count == self.board.width
    }
}

impl Whole {
    fn new(board: &Board, piece: &Piece) -> Whole {
        let cells: Vec<usize> = board.cells().collect();
        let rides_rows = piece.rides_unlimited((1, 0));
        let mut cap_from = vec![0usize; cells.len() + 1];
        for i in (0..cells.len()).rev() {
            let s = cells[i];
            // A new row segment starts at `s` when the next cell is not its right neighbour
            // in the same row; counting segment ends from the right gives segments per suffix.
            let next = cells.get(i + 1).copied();
            let same_segment = next == Some(s + 1) && !(s + 1).is_multiple_of(board.width);
            cap_from[i] = cap_from[i + 1] + usize::from(!rides_rows || !same_segment);
        }
        Whole {
            attacks: board.attack_matrix(piece),
            cells,
            cap_from,
            symmetries: board.symmetries(),
        }
    }
}

/// The line segments of the lines a piece rides without limit (rows and columns for a rook,
/// diagonals for a bishop, both for a queen): holes cut a line into segments, and two pieces
/// attack along a line exactly when they share a segment.
pub struct Segments {
    pub dirs: usize,
    /// `seg[d * squares + s]`: the segment of direction d through cell s, numbered per
    /// direction.
    pub seg: Vec<u32>,
    /// Segments per direction.
    pub count: Vec<u32>,
}

impl Model {
    pub fn segments(&self) -> Segments {
        let b = &self.board;
        let mut steps: Vec<(i32, i32)> = Vec::new();
        if self.piece.rides_unlimited((1, 0)) {
            steps.extend([(0, 1), (1, 0)]);
        }
        if self.piece.rides_unlimited((1, 1)) {
            steps.extend([(1, 1), (1, -1)]);
        }
        // A cell continues the segment of its predecessor along the line, which has a
        // smaller index, so one pass in index order numbers them all.
        let n = b.squares();
        let mut seg = vec![u32::MAX; steps.len() * n];
        let mut count = vec![0u32; steps.len()];
        for (d, &(dr, dc)) in steps.iter().enumerate() {
            for s in b.cells() {
                seg[d * n + s] = match b.step(s, -dr, -dc) {
                    Some(p) => seg[d * n + p],
                    None => {
                        count[d] += 1;
                        count[d] - 1
                    }
                };
            }
        }
        Segments {
            dirs: steps.len(),
            seg,
            count,
        }
    }
}

/// What a placement search does at each node: report complete placements (first, all,
/// count), or keep the best placement so far and raise the bar (maximize).
pub struct Aim<'m> {
    emit: Placements<'m>,
    maximize: bool,
    /// Pieces a branch must be able to reach to be worth exploring.
    pub target: usize,
    best: Vec<usize>,
}

impl<'m> Aim<'m> {
    pub fn new(m: &'m Model, task: &Task) -> Aim<'m> {
        let maximize = task.goal == Goal::Maximize;
        Aim {
            emit: Placements::new(&m.whole().symmetries, m.whole().cells.len(), task),
            maximize,
            target: if maximize { 1 } else { m.count },
            best: Vec::new(),
        }
    }

    /// At a node with `placed` pieces: `Some(stop)` when the branch ends here.
    #[inline]
    pub fn visit(&mut self, placed: &[usize], run: &mut Run) -> Option<bool> {
        let k = placed.len();
        if self.maximize {
            if k >= self.target {
                self.best.clear();
                self.best.extend_from_slice(placed);
                self.target = k + 1;
                run.set_standing(Standing {
                    best: Some(k as u64),
                    ..Standing::default()
                });
            }
            None
        } else if k == self.target {
            Some(self.emit.emit(run, placed))
        } else {
            None
        }
    }

    /// Maximize: look only for placements of at least `k` pieces (a part that knows one of
    /// `k - 1` already).
    pub fn at_least(&mut self, k: usize) {
        self.target = self.target.max(k);
    }

    /// Maximize: the largest placement found.
    pub fn best(&self) -> &[usize] {
        &self.best
    }

    pub fn answer(self) -> Answer {
        if !self.maximize {
            return Answer::default();
        }
        Answer {
            optimum: Some(self.best.len() as u64),
            best: Some(self.best),
            ..Answer::default()
        }
    }
}
