//! The compiled model of a tour puzzle: a leaper, a board with holes, open or closed, an
//! optional start; the move graph (petgraph for the analysis, flat arrays for the searches);
//! and the verdict on existence reached before any search.

use std::sync::OnceLock;

use petgraph::graph::{NodeIndex, UnGraph};

use super::exists::{self, Existence};
use crate::board::Board;
use crate::board::betza::Piece;
use crate::spec::{Spec, SpecError};
use crate::util::Packed;

/// Boards up to this many squares get a move graph (petgraph for the analysis, then flat
/// arrays of about 40 bytes a square). Larger boards are built by `divide` alone, which
/// needs no graph: only the plain knight on a board without holes is accepted there.
pub const GRAPH_LIMIT: usize = 1 << 21;

/// Square indices are kept in `u32` arrays; the format allows 10^9 squares, which fits.
pub const NONE: u32 = u32::MAX;

/// Columns the check decodes at a time: rows of a wider board go by stripes of this many,
/// so its ring of rows stays small (a knight's five rows of 4,096 values: 80 KB).
const CHECK_STRIPE: usize = 4096;

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
        // Each look at the hole map is a pass over the board (10^8 squares: 100 MB): one.
        let holed = spec.board().has_holes();
        let board = if holed {
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
        let plain_knight = piece.leaps == [(2, 1)] && !holed;
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
        let cells = if holed {
            board.cell_count()
        } else {
            board.squares()
        };
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
    pub fn check_numbers(&self, number: &Packed) -> Result<(), String> {
        let b = &self.board;
        let n = self.cells;
        if number.len() != b.squares() {
            return Err("the numbering does not cover the board".into());
        }
        let none = number.ones();
        if (none as u64) < n as u64 {
            return Err("the numbering is too narrow for the board".into());
        }
        if n == 0 {
            return Err("no square is numbered first".into());
        }
        if self.closed && n < 3 {
            return Err(
                "the tour does not close: the last square is no move from the first".into(),
            );
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
            let mut decode = |r: usize, rows: &mut [u32]| -> Result<(), String> {
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
                        return Err(format!("square {} is numbered wrongly", b.square_name(s)));
                    }
                    if k == none && !holes {
                        return Err(format!("square {} has no move number", b.square_name(s)));
                    }
                    if k != none && k > last {
                        return Err(format!(
                            "square {} has move {} of {n}",
                            b.square_name(s),
                            k as u64 + 1
                        ));
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
                    return Err(self.no_successor(number, r * w + c0 + j, centre[j]));
                }
            }
        }
        let first = first.ok_or("no square is numbered first")?;
        if let Some(s) = self.start
            && s != first
        {
            return Err(format!(
                "the tour does not start on {}: move 1 is on {}",
                b.square_name(s),
                b.square_name(first)
            ));
        }
        Ok(())
    }

    /// Why square `s`, numbered `k`, has no move to the number after it (the failure path
    /// of [`Model::check_numbers`]: one more scan, to say where that number is).
    fn no_successor(&self, number: &Packed, s: usize, k: u32) -> String {
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
        let here = format!("move {} on {}", k as u64 + 1, b.square_name(s));
        match on[..] {
            [] => format!("{here} is not followed: no square has move {}", want + 1),
            [t] if want == 0 => format!(
                "the tour does not close: the last square, {}, is no move from the first, {}",
                b.square_name(s),
                b.square_name(t)
            ),
            [t] => format!(
                "{here} is followed by move {} on {}, which is no move away",
                want + 1,
                b.square_name(t)
            ),
            _ => format!(
                "{here} is not followed by a move to move {}, which is on {} and {} (twice)",
                want + 1,
                b.square_name(on[0]),
                b.square_name(on[1])
            ),
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
            if self.cells != self.board.squares() {
                " with holes"
            } else {
                ""
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Limits, Run, Task};
    use crate::kinds::Strategy;
    use crate::spec::Overrides;

    fn model(board: &str) -> Model {
        let text = format!("kind = \"tour\"\n[board]\n{board}\n");
        let spec = Spec::parse("t.toml", &text, &Overrides::default()).unwrap();
        Model::compile(&spec).unwrap()
    }

    /// A tour found by `strategy`, as packed move numbers.
    fn tour(m: &Model, strategy: &dyn Strategy<Model>) -> Packed {
        let mut order = Vec::new();
        let a = {
            let mut run = Run::new(Limits::default()).with_sink(Box::new(|s: &[usize]| {
                order = s.to_vec();
                std::ops::ControlFlow::Break(())
            }));
            strategy.solve(m, &Task::default(), &mut run)
        };
        match a.compact {
            Some(x) => x,
            None => {
                assert!(!order.is_empty(), "no tour");
                m.numbers(&order)
            }
        }
    }

    fn rejects(m: &Model, x: &Packed, what: &str, says: &str) {
        match m.check_numbers(x) {
            Ok(()) => panic!("{what}: accepted"),
            Err(e) => assert!(e.contains(says), "{what}: {e}"),
        }
    }

    /// The square holding move number `k`.
    fn square_of(x: &Packed, k: u32) -> usize {
        x.iter().position(|v| v == k).unwrap()
    }

    #[test]
    fn the_check_accepts_tours_and_rejects_each_kind_of_fault() {
        let m = model("size = 8\n[rules]\nclosed = true");
        let x = tour(&m, &super::super::divide::Divide);
        m.check_numbers(&x).unwrap();
        let n = m.cells as u32;

        // A duplicated number (move 10 on move 20's square): one of the two squares
        // numbered 10 has no move to 11, or move 19 none to 20, whichever comes first.
        let mut bad = x.clone();
        bad.set(square_of(&x, 19), 9);
        rejects(&m, &bad, "duplicate", "move ");
        // The one to be met first in square order says move 20 is gone.
        let mut bad = x.clone();
        let (s19, s20) = (square_of(&x, 18), square_of(&x, 19));
        bad.set(s20, 9);
        if s19 < s20 && s19 < square_of(&x, 9) {
            rejects(
                &m,
                &bad,
                "missing",
                "is not followed: no square has move 20",
            );
        }
        // A number missing at the start: move 1 appears nowhere.
        let mut bad = x.clone();
        bad.set(square_of(&x, 0), 5);
        rejects(&m, &bad, "no first", "move ");
        // Two numbers swapped: each is on a square, but not a move away.
        let mut bad = x.clone();
        let (a, c) = (square_of(&x, 30), square_of(&x, 40));
        bad.set(a, 40);
        bad.set(c, 30);
        rejects(&m, &bad, "swapped", "which is no move away");
        // Out of range, and a square with no number.
        let mut bad = x.clone();
        bad.set(7, n);
        rejects(&m, &bad, "out of range", "has move 65 of 64");
        let mut bad = x.clone();
        bad.set(7, u32::MAX);
        rejects(&m, &bad, "sentinel", "has no move number");
        // A given start elsewhere.
        let from = model("size = 8\n[rules]\nclosed = true\nstart = [3, 4]");
        rejects(&from, &x, "start", "does not start on");
        // Every square numbered last: in range, nothing needs a successor on an open tour;
        // only the missing first move gives it away.
        let open = model("size = 8\n[rules]\nclosed = false");
        let all_last = Packed::filled(64, x.bits(), n - 1);
        rejects(&open, &all_last, "all last", "no square is numbered first");
    }

    #[test]
    fn the_check_rejects_an_open_tour_as_closed() {
        // 5x5 has open tours only (odd), so an open one cannot close.
        let open = model("size = 5\n[rules]\nclosed = false");
        let x = tour(&open, &super::super::warnsdorff::Warnsdorff);
        open.check_numbers(&x).unwrap();
        let closed = model("size = 5\n[rules]\nclosed = true");
        rejects(&closed, &x, "not closing", "the tour does not close");
    }

    #[test]
    fn the_check_rejects_numbered_holes() {
        let m = model("size = 8\nholes = [\"a1\"]\n[rules]\nclosed = false");
        let x = tour(&m, &super::super::warnsdorff::Warnsdorff);
        m.check_numbers(&x).unwrap();
        let hole = (0..m.board.squares())
            .find(|&s| m.board.is_hole(s))
            .expect("a1 is a hole");
        assert_eq!(x.get(hole), x.ones());
        let mut bad = x.clone();
        bad.set(hole, 3);
        rejects(&m, &bad, "numbered hole", "numbered wrongly");
        let mut bad = x.clone();
        bad.set(square_of(&x, 12), u32::MAX);
        rejects(&m, &bad, "unnumbered square", "numbered wrongly");
    }

    /// Boards wider than one stripe of the check, and leapers other than the knight.
    #[test]
    fn the_check_works_across_stripes_and_for_long_leaps() {
        let wide = model("width = 4200\nheight = 5\n[rules]\nclosed = true");
        let x = tour(&wide, &super::super::divide::Divide);
        wide.check_numbers(&x).unwrap();
        for k in [0u32, 4095 * 5, 20_999] {
            let mut bad = x.clone();
            let (a, c) = (square_of(&x, k), square_of(&x, (k + 7) % 21_000));
            bad.set(a, (k + 7) % 21_000);
            bad.set(c, k);
            assert!(wide.check_numbers(&bad).is_err(), "swap at {k}");
        }
        // Wazir steps and three-square leaps: columns of 4 go 1 2 3 0 (a leap up) and
        // 0 3 2 1 (a leap down) in turn, joined at the top or the next row.
        let m = model(
            "width = 9\nheight = 4\n[piece]\nleaps = [[1, 0], [3, 0]]\n[rules]\nclosed = false",
        );
        let mut order = Vec::new();
        for c in 0..9 {
            let col: [usize; 4] = if c % 2 == 0 {
                [1, 2, 3, 0]
            } else {
                [0, 3, 2, 1]
            };
            order.extend(col.iter().map(|&r| r * 9 + c));
        }
        m.check(&order).unwrap();
        let x = m.numbers(&order);
        m.check_numbers(&x).unwrap();
        let mut bad = x.clone();
        bad.set(order[5], 6);
        bad.set(order[6], 5);
        rejects(&m, &bad, "leaper swap", "no move away");
    }
}
