//! `backtrack`: plain depth-first search over the moves in square order, extending the path
//! one move at a time. It enumerates and counts: open tours from every start (or the given
//! one), closed tours once per undirected cycle (from the first square, kept when the second
//! square is below the last). The only pruning is exact: a move is undone when it leaves an
//! unvisited square with no way in, or, for closed tours, the first square with no way back.
//!
//! Where it applies: every goal (first, count, all), any leaper, boards with holes, up to
//! [`MAX_CELLS`] squares. It is the one strategy that lists tours, and `auto` gives it the
//! counts that `count` cannot take. Its limit is the search itself: with no pruning beyond
//! the exact one its time grows exponentially with the board, so it serves small boards
//! (5x5, 6x6) and checks the other strategies on them; for one tour on a larger board
//! `warnsdorff` or `divide` are the ones to use.
//!
//! With `--part` the same tree is cut by [`split::cut`]: below the root (no square yet), a
//! node is a path of two squares or more, as `go` enters it (the start and its first move,
//! then one move at a time), with whether `go` found it dead; each subtree of the part is
//! searched by `go` from its path.

use super::exists::Existence;
use super::graph::GRAPH_LIMIT;
use super::model::Model;
use super::symmetry::Symmetries;
use super::vocab::{TourBug, TourReason, TourRefusal};
use crate::engine::split::{self, Expand, Fingerprint};
use crate::engine::{Answer, Goal, Need, Run, Standing, Task};
use crate::kinds::CountNote;
use crate::kinds::{Strategy, parts};

/// Recursion depth is the number of squares; beyond this a plain search has no hope anyway.
const MAX_CELLS: usize = 4096;

pub struct Backtrack;

impl Strategy<Model> for Backtrack {
    fn name(&self) -> &'static str {
        "backtrack"
    }
    fn about(&self) -> &'static str {
        "plain depth-first search; enumerates and counts tours on small boards, also up to \
         symmetry (--unique)"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        if task.unique {
            if task.goal != Goal::Count {
                return Err(TourRefusal::UniqueGoal.into());
            }
            if m.start.is_some() {
                return Err(TourRefusal::UniqueStart.into());
            }
            if task.partial() {
                return Err(TourRefusal::UniquePart.into());
            }
        }
        parts::counts_only(task)?;
        if m.cells > GRAPH_LIMIT || m.cells > MAX_CELLS {
            return Err(TourRefusal::BacktrackSize {
                cells: m.cells,
                max: MAX_CELLS,
            }
            .into());
        }
        Ok(())
    }
    fn splits(&self) -> bool {
        true
    }
    fn needs(&self, m: &Model, _task: &Task) -> Option<Need> {
        Some(m.graph_need().and(m.order_need()))
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if let Some(a) = m.settled() {
            return a;
        }
        if task.part.is_some() {
            let mut a = part(m, task, run);
            a.notes.extend(m.counting_note(task));
            return a;
        }
        let mut s = Search::new(m, run.wants_solutions());
        if task.unique {
            s.symmetries = Some(Symmetries::new(m));
        }
        let starts = starts(m);
        for (i, &st) in starts.iter().enumerate() {
            s.top = (i + 1, starts.len());
            s.first = st;
            s.visit(st);
            s.path.push(st);
            let stop = s.go(st, run);
            s.path.pop();
            s.unvisit(st);
            if stop {
                break;
            }
        }
        let mut a = Answer::default();
        if let Some(sym) = &s.symmetries {
            // Each class weighs the group's order in all, so a search stopped early has at
            // least this many, and a finished one with a remainder has a bug.
            a.count = Some(s.found / sym.order());
            if !run.is_stopped() && !s.found.is_multiple_of(sym.order()) {
                a.reason = Some(TourReason::Bug(TourBug::WeightsUneven).into());
            }
            // Stopped early, the tours so far are a bound, which the classes' count says.
            if !run.is_stopped() {
                a.notes.push(CountNote::SolutionsInAll(s.tours).into());
            }
        }
        if run.stats.solutions == 0 && !run.is_stopped() {
            a.count = Some(0);
            a.reason = Some(
                match m.existence {
                    Existence::Exists(_) => TourReason::Bug(TourBug::SearchFoundNone),
                    _ => TourReason::SearchFoundNone,
                }
                .into(),
            );
        }
        if task.goal != Goal::First {
            a.notes.extend(m.counting_note(task));
        }
        a
    }
}

/// The squares a tour may start from: the given start; for closed tours the first square
/// (a cycle passes through it); else every square.
fn starts(m: &Model) -> Vec<usize> {
    match (m.start, m.closed) {
        (Some(st), _) => vec![st],
        (None, true) => m.board.cells().take(1).collect(),
        (None, false) => m.board.cells().collect(),
    }
}

/// A node of the tree below the root: the path so far, and whether `go` leaves it at once
/// (its move left a square with no way in).
struct Node {
    path: Vec<usize>,
    dead: bool,
}

/// The part's subtrees, each searched by `go` from its path.
fn part(m: &Model, task: &Task, run: &mut Run) -> Answer {
    let n = m.cells;
    let expand = |node: &Node, _: &mut Run| {
        if node.path.len() == n {
            return Expand::Leaf;
        }
        if node.dead {
            return Expand::Children(Vec::new());
        }
        let mut s = Search::new(m, false);
        let mut children = Vec::new();
        if node.path.is_empty() {
            // The root: each start with its first moves, as `solve` enters them (a start is
            // no node of the search; a tour of one square is a leaf of its own).
            for st in starts(m) {
                s.enter(&[st]);
                if n == 1 {
                    children.push(Node {
                        path: vec![st],
                        dead: false,
                    });
                } else {
                    s.children(&mut children);
                }
                s.leave();
            }
        } else {
            s.enter(&node.path);
            s.children(&mut children);
        }
        Expand::Children(children)
    };
    let key = |node: &Node, f: &mut Fingerprint| {
        f.eat(node.path.len() as u64);
        for &q in &node.path {
            f.eat(q as u64);
        }
    };
    let root = Node {
        path: Vec::new(),
        dead: false,
    };
    let Some(cut) = split::cut(task, run, root, None, expand, key) else {
        return Answer::default();
    };
    parts::count_part(task, run, cut, |node, run| {
        // The path's last move is a node of the search, as `go` counts it before entering.
        if node.path.len() >= 2 && run.node() || node.dead {
            return;
        }
        let mut s = Search::new(m, run.wants_solutions());
        s.enter(&node.path);
        let cur = *node.path.last().expect("a node below the root has a path");
        s.go(cur, run);
    })
}

struct Search<'m> {
    m: &'m Model,
    visited: Vec<bool>,
    /// Unvisited neighbours of each square.
    deg: Vec<u8>,
    path: Vec<usize>,
    first: usize,
    /// With `symmetries`, the sum of the stabilisers' orders of the tours found.
    found: u128,
    report: bool,
    /// Counting up to symmetry: the group, and the tours found.
    symmetries: Option<Symmetries>,
    tours: u128,
    /// The start being searched, of how many (from 1; none in a part, whose list says
    /// where it stands), for the progress line.
    top: (usize, usize),
}

impl<'m> Search<'m> {
    fn new(m: &'m Model, report: bool) -> Search<'m> {
        let g = m.graph().expect("applies checked the graph");
        let squares = m.board.squares();
        Search {
            m,
            visited: vec![false; squares],
            deg: (0..squares).map(|q| g.degree(q) as u8).collect(),
            path: Vec::with_capacity(m.cells),
            first: 0,
            found: 0,
            report,
            symmetries: None,
            tours: 0,
            top: (0, 0),
        }
    }

    /// Stand on `path`, as `go` would after walking it.
    fn enter(&mut self, path: &[usize]) {
        self.first = path[0];
        for &q in path {
            self.visit(q);
            self.path.push(q);
        }
    }

    /// Back to the empty board.
    fn leave(&mut self) {
        while let Some(q) = self.path.pop() {
            self.unvisit(q);
        }
    }

    /// The nodes `go` enters from the path it stands on, in its order, each with whether it
    /// is dead.
    fn children(&mut self, out: &mut Vec<Node>) {
        let cur = *self.path.last().expect("a path");
        let g = self.m.graph().expect("graph");
        let moves = g.moves(cur);
        for &v in moves {
            let v = v as usize;
            if self.visited[v] || self.closes_none(v, moves) {
                continue;
            }
            self.visit(v);
            self.path.push(v);
            out.push(Node {
                path: self.path.clone(),
                dead: self.dead(cur, v),
            });
            self.path.pop();
            self.unvisit(v);
        }
    }

    /// Whether the first move, to `v` of the first square's `moves`, leads to no cycle that
    /// counts: a cycle is kept from the smaller of the first square's two neighbours on it,
    /// so a first move to the largest neighbour of all closes none.
    fn closes_none(&self, v: usize, moves: &[u32]) -> bool {
        self.m.closed && self.path.len() == 1 && moves.iter().all(|&u| u as usize <= v)
    }

    /// After the move `cur` to `v`: a square next to `cur` has no way in left (and is not
    /// `v`'s next), or a closed tour can no longer return to its first square.
    fn dead(&self, cur: usize, v: usize) -> bool {
        let n = self.m.cells;
        self.moves(cur).iter().any(|&u| {
            let u = u as usize;
            !self.visited[u] && self.deg[u] == 0 && !self.adjacent(u, v)
        }) || (self.m.closed && self.path.len() < n && self.deg[self.first] == 0)
    }

    fn moves(&self, s: usize) -> &[u32] {
        self.m.graph().expect("graph").moves(s)
    }

    fn visit(&mut self, v: usize) {
        self.visited[v] = true;
        let g = self.m.graph().expect("graph");
        for &u in g.moves(v) {
            self.deg[u as usize] -= 1;
        }
    }

    fn unvisit(&mut self, v: usize) {
        self.visited[v] = false;
        let g = self.m.graph().expect("graph");
        for &u in g.moves(v) {
            self.deg[u as usize] += 1;
        }
    }

    fn adjacent(&self, a: usize, b: usize) -> bool {
        self.moves(a).contains(&(b as u32))
    }

    /// Returns `true` to stop.
    fn go(&mut self, cur: usize, run: &mut Run) -> bool {
        let n = self.m.cells;
        if self.path.len() == n {
            if self.m.closed
                && !(n >= 3 && self.adjacent(cur, self.first) && self.path[1] < self.path[n - 1])
            {
                return false;
            }
            if self.report {
                return run.solution(&self.path);
            }
            // Counted into the run as found, so that the progress line says the tours so far.
            if let Some(sym) = &mut self.symmetries {
                self.found += sym.stabiliser(&self.path);
                self.tours += 1;
            }
            run.count(1);
            return false;
        }
        let g = self.m.graph().expect("graph");
        let moves = g.moves(cur);
        for (j, &v) in moves.iter().enumerate() {
            let v = v as usize;
            if self.visited[v] {
                continue;
            }
            if self.closes_none(v, moves) {
                continue;
            }
            // The branches at the top two levels: the share done on the progress line.
            if self.path.len() == 1 && self.top.1 > 0 {
                run.set_standing(Standing {
                    branch: [self.top, (j + 1, moves.len())],
                    ..Standing::default()
                });
            }
            if run.node() {
                return true;
            }
            self.visit(v);
            self.path.push(v);
            let dead = self.dead(cur, v);
            let stop = !dead && self.go(v, run);
            self.path.pop();
            self.unvisit(v);
            if stop {
                return true;
            }
        }
        false
    }
}
