//! The compiled model of a tour puzzle: a leaper, a board with holes, open or closed, an
//! optional start; the move graph (petgraph for the analysis, flat arrays for the searches);
//! and the verdict on existence reached before any search.

use std::sync::OnceLock;

use petgraph::graph::{NodeIndex, UnGraph};

use super::exists::{self, Existence};
use crate::board::{Board, Packed};
use crate::spec::betza::Piece;
use crate::spec::{Spec, SpecError};

/// Boards up to this many squares get a move graph (petgraph for the analysis, then flat
/// arrays of about 40 bytes a square). Larger boards are built by `divide` alone, which
/// needs no graph: only the plain knight on a board without holes is accepted there.
pub const GRAPH_LIMIT: usize = 1 << 21;

/// Square indices are kept in `u32` arrays; the format allows 10^9 squares, which fits.
pub const NONE: u32 = u32::MAX;

/// The move graph in compressed sparse rows over square indices: the moves from square `s`
/// are `targets[offsets[s]..offsets[s + 1]]`, sorted; holes have none.
#[derive(Clone, Debug)]
pub struct Csr {
    pub offsets: Vec<u32>,
    pub targets: Vec<u32>,
}

impl Csr {
    #[inline]
    pub fn moves(&self, s: usize) -> &[u32] {
        &self.targets[self.offsets[s] as usize..self.offsets[s + 1] as usize]
    }

    pub fn degree(&self, s: usize) -> usize {
        (self.offsets[s + 1] - self.offsets[s]) as usize
    }
}

/// What the petgraph analysis found (boards up to [`GRAPH_LIMIT`] squares).
#[derive(Clone, Debug)]
pub struct Analysis {
    pub components: usize,
    /// Sizes of the two colour classes when the graph is bipartite (the first holds the
    /// lowest-numbered square).
    pub colour_classes: Option<(usize, usize)>,
    /// `class[s]`: 0 or 1 when bipartite, else 0.
    pub class: Vec<u8>,
    pub min_degree: usize,
    pub max_degree: usize,
}

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
    pub fn compile(spec: &Spec) -> Result<Model, SpecError> {
        // A board without holes is made afresh rather than cloned: its all-false hole map
        // then stays untouched zeroed memory, which on a board of 10^8 squares saves 100 MB.
        let board = if spec.board().has_holes() {
            spec.board().clone()
        } else {
            Board::new(spec.board().width, spec.board().height)
        };
        let ps = spec.piece.as_ref().expect("tour puzzles have a piece");
        let piece = ps.piece.clone();
        if !piece.rides.is_empty() {
            return Err(spec.err_nowhere(
                "piece.moves",
                format!(
                    "\"{}\" rides; a tour takes a leaper, which jumps straight to its target \
                     (a rider's path would leave squares visited in passing undefined); \
                     accepted: leaper atoms W F D N A H C Z G and their combinations, e.g. \
                     \"N\", \"C\", \"Z\", or `leaps = [[a, b]]`",
                    piece.notation()
                ),
            ));
        }
        let closed = spec
            .rules
            .closed
            .as_ref()
            .map(|c| *c.get_ref())
            .unwrap_or(false);
        let start = match &spec.rules.start {
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
        let plain_knight = piece.leaps == [(2, 1)] && !board.has_holes();
        let squares = board.squares();
        if squares > GRAPH_LIMIT && !plain_knight {
            return Err(spec.err_nowhere(
                "board",
                format!(
                    "a {}x{} board has {squares} squares; tours above {GRAPH_LIMIT} squares are \
                     built for the plain knight on a board without holes only",
                    board.width, board.height
                ),
            ));
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
        m.existence = exists::decide(&m);
        Ok(m)
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
            .get_or_init(|| (self.board.squares() <= GRAPH_LIMIT).then(|| self.build_graph()))
            .as_ref()
    }

    /// The move graph in petgraph: one node per square on the board, in index order.
    pub fn petgraph(&self) -> (UnGraph<u32, ()>, Vec<u32>) {
        let b = &self.board;
        let mut g = UnGraph::<u32, ()>::with_capacity(self.cells, self.cells * 4);
        let mut node = vec![NONE; b.squares()];
        for s in b.cells() {
            node[s] = g.add_node(s as u32).index() as u32;
        }
        for s in b.cells() {
            for &(dr, dc) in &self.moves {
                if let Some(t) = b.step(s, dr, dc)
                    && t > s
                {
                    g.add_edge(
                        NodeIndex::new(node[s] as usize),
                        NodeIndex::new(node[t] as usize),
                        (),
                    );
                }
            }
        }
        (g, node)
    }

    fn build_graph(&self) -> (Csr, Analysis) {
        let (g, node) = self.petgraph();
        let components = petgraph::algo::connected_components(&g);
        // Two-colour the graph by breadth-first search; a conflict means not bipartite.
        let n = g.node_count();
        let mut colour = vec![u8::MAX; n];
        let mut bipartite = true;
        let mut queue = std::collections::VecDeque::new();
        for root in 0..n {
            if colour[root] != u8::MAX {
                continue;
            }
            colour[root] = 0;
            queue.push_back(NodeIndex::new(root));
            while let Some(v) = queue.pop_front() {
                for w in g.neighbors(v) {
                    if colour[w.index()] == u8::MAX {
                        colour[w.index()] = colour[v.index()] ^ 1;
                        queue.push_back(w);
                    } else if colour[w.index()] == colour[v.index()] {
                        bipartite = false;
                    }
                }
            }
        }
        let squares = self.board.squares();
        let mut class = vec![0u8; squares];
        let mut offsets = Vec::with_capacity(squares + 1);
        let mut targets = Vec::with_capacity(g.edge_count() * 2);
        let (mut min_degree, mut max_degree) = (usize::MAX, 0);
        offsets.push(0u32);
        for s in 0..squares {
            if node[s] != NONE {
                let v = NodeIndex::new(node[s] as usize);
                let before = targets.len();
                targets.extend(g.neighbors(v).map(|w| g[w]));
                targets[before..].sort_unstable();
                let d = targets.len() - before;
                min_degree = min_degree.min(d);
                max_degree = max_degree.max(d);
                if bipartite {
                    class[s] = colour[v.index()];
                }
            }
            offsets.push(targets.len() as u32);
        }
        let colour_classes = bipartite.then(|| {
            let ones = colour.iter().filter(|&&c| c == 1).count();
            (n - ones, ones)
        });
        (
            Csr { offsets, targets },
            Analysis {
                components,
                colour_classes,
                class,
                min_degree,
                max_degree,
            },
        )
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
    pub fn check(&self, order: &[usize]) -> Result<(), String> {
        let b = &self.board;
        if order.len() != self.cells {
            return Err(format!(
                "the tour visits {} squares; the board has {}",
                order.len(),
                self.cells
            ));
        }
        let mut seen = vec![false; b.squares()];
        for (i, &s) in order.iter().enumerate() {
            if s >= b.squares() || b.is_hole(s) {
                return Err(format!("step {} is not a square on the board", i + 1));
            }
            if std::mem::replace(&mut seen[s], true) {
                return Err(format!("square {} is visited twice", b.square_name(s)));
            }
            if i > 0 && !self.is_move(order[i - 1], s) {
                return Err(format!(
                    "step {} from {} to {} is not a move",
                    i + 1,
                    b.square_name(order[i - 1]),
                    b.square_name(s)
                ));
            }
        }
        if self.closed && (order.len() < 2 || !self.is_move(order[order.len() - 1], order[0])) {
            return Err(
                "the tour does not close: the last square is no move from the first".into(),
            );
        }
        if let Some(s) = self.start
            && order.first() != Some(&s)
        {
            return Err(format!("the tour does not start on {}", b.square_name(s)));
        }
        Ok(())
    }

    /// A tour as packed move numbers per square (0-based, all ones on holes) is valid, checked
    /// without the move graph and without extra memory, so the largest boards are checked
    /// too: every number is in range, and from the square numbered 0 a chain of moves
    /// reaches numbers 1, 2, ..., n - 1 in turn. The chain's squares carry distinct numbers,
    /// so they are n distinct squares: all of them, each once.
    pub fn check_numbers(&self, number: &Packed) -> Result<(), String> {
        let b = &self.board;
        let n = self.cells as u64;
        if number.len() != b.squares() {
            return Err("the numbering does not cover the board".into());
        }
        let none = number.ones();
        if (none as u64) < n {
            return Err("the numbering is too narrow for the board".into());
        }
        let mut first = None;
        for (s, k) in number.iter().enumerate() {
            if b.is_hole(s) != (k == none) {
                return Err(format!("square {} is numbered wrongly", b.square_name(s)));
            }
            if k == none {
                continue;
            }
            if k as u64 >= n {
                return Err(format!(
                    "square {} has move {} of {n}",
                    b.square_name(s),
                    k + 1
                ));
            }
            if k == 0 {
                first = Some(s);
            }
        }
        let first = first.ok_or("no square is numbered first")?;
        let mut cur = first;
        // The walk keeps its row and column, so no square is divided back into them; holes
        // need no test, as they carry the sentinel, which is never a move number.
        let (w, h) = (b.width as i64, b.height as i64);
        let (mut r, mut c) = ((first / b.width) as i64, (first % b.width) as i64);
        for k in 1..n as u32 {
            (r, c) = self
                .moves
                .iter()
                .map(|&(dr, dc)| (r + dr as i64, c + dc as i64))
                .find(|&(r2, c2)| {
                    (0..h).contains(&r2)
                        && (0..w).contains(&c2)
                        && number.get((r2 * w + c2) as usize) == k
                })
                .ok_or_else(|| {
                    format!(
                        "move {k} on {} is not followed by a move to move {}",
                        b.square_name(cur),
                        k + 1
                    )
                })?;
            cur = (r * w + c) as usize;
        }
        if self.closed && (n < 3 || !self.is_move(cur, first)) {
            return Err(
                "the tour does not close: the last square is no move from the first".into(),
            );
        }
        if let Some(s) = self.start
            && number.get(s) != 0
        {
            return Err(format!("the tour does not start on {}", b.square_name(s)));
        }
        Ok(())
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

    pub fn describe(&self) -> String {
        format!(
            "{} {} tour of {}{}{} on a {}x{} board{}",
            if self.closed { "closed" } else { "open" },
            self.piece.notation(),
            self.cells,
            if self.cells == 1 {
                " square"
            } else {
                " squares"
            },
            self.start
                .map(|s| format!(" from {}", self.board.square_name(s)))
                .unwrap_or_default(),
            self.board.width,
            self.board.height,
            if self.board.has_holes() {
                " with holes"
            } else {
                ""
            }
        )
    }
}
