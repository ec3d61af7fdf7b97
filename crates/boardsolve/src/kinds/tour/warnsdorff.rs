//! `warnsdorff`: Warnsdorff's rule (1823): move to the square with the fewest onward moves.
//! Ties go by Roth's rule, to the square farthest from the centre of the board, then to the
//! lower square index, so the run is deterministic. When the rule walks into a dead end the
//! search backtracks, trying the next candidates in the same order; for a closed tour a
//! complete path whose ends do not meet is closed by Pósa rotations (reverse the tail after
//! a neighbour of the last square, so a new square becomes last) before backtracking.
//!
//! Where it applies: goal first, any leaper, boards with holes, up to [`GRAPH_LIMIT`]
//! squares (it walks the move graph). On the plain knight, where `divide` is certain to
//! build a tour (every board with both sides at least 3, long 4xn boards and given starts
//! included), the backtracking is bounded (4 moves a square and 10,000 more); past the
//! bound the strategy hands the board over to `divide` and says so in the summary
//! (`warnsdorff gave up after N moves tried; handed over to divide`). That bound is where
//! its limits show: on long 4xn boards its own search does not finish, and on large closed
//! boards its paths do not close by rotation. Elsewhere (other leapers, holes) the search is
//! complete: with all starts tried it proves that no tour exists, though on a board with
//! no tour that proof can take exponential time.

use super::divide;
use super::exists::Existence;
use super::graph::GRAPH_LIMIT;
use super::model::{Model, no_unique};
use super::vocab::{TourBug, TourNote, TourReason, TourRefusal};
use crate::engine::{Answer, Goal, Need, Run, Task};
use crate::kinds::Strategy;

pub struct Warnsdorff;

impl Strategy<Model> for Warnsdorff {
    fn name(&self) -> &'static str {
        "warnsdorff"
    }
    fn about(&self) -> &'static str {
        "fewest onward moves first (Roth's tie-break), bounded backtracking, closing rotations"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        no_unique(task)?;
        if task.goal != Goal::First {
            return Err(TourRefusal::WarnsdorffGoal.into());
        }
        if m.cells > GRAPH_LIMIT {
            return Err(TourRefusal::GraphSize { max: GRAPH_LIMIT }.into());
        }
        Ok(())
    }
    fn needs(&self, m: &Model, _task: &Task) -> Option<Need> {
        // The walk: a flag, a degree and a distance a square; the path, its frames and the
        // candidates of every frame (a move each at most) a square of the path.
        let per_square = 10 * m.board.squares() as u64;
        let per_step = (20 + 4 * m.moves.len() as u64) * m.cells as u64;
        let walk = Need::new(per_square + per_step, "the walk");
        let need = m.graph_need().and(walk).and(m.order_need());
        // Handing over to `divide` keeps the graph and adds its tour.
        Some(if divide::supports(m).is_ok() {
            let (w, h) = (m.board.width, m.board.height);
            need.and(divide::need(w, h))
        } else {
            need
        })
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if let Some(a) = m.settled() {
            return a;
        }
        let bounded = divide::supports(m).is_ok();
        // Linear in the board, so handing over costs no more than a few walks; the constant
        // leaves small boards room to backtrack.
        let budget = if bounded {
            Some(4 * m.cells as u64 + 10_000)
        } else {
            None
        };
        let mut w = Walk::new(m);
        for start in w.starts() {
            match w.search(start, budget, run) {
                Found::Tour => {
                    run.solution(&w.path);
                    return Answer::default();
                }
                Found::Stopped => return Answer::default(),
                Found::GaveUp(nodes) => {
                    let mut a = divide::Divide.solve(m, task, run);
                    a.notes.insert(
                        0,
                        TourNote::HandedOver {
                            from: "warnsdorff",
                            to: "divide",
                            tried: nodes,
                        }
                        .into(),
                    );
                    return a;
                }
                Found::Exhausted => {}
            }
        }
        Answer::none_because(match m.existence {
            Existence::Exists(_) => TourReason::Bug(TourBug::SearchFoundNone),
            _ => TourReason::SearchFoundNone,
        })
    }
}

enum Found {
    Tour,
    /// A limit of the run (time, nodes, Ctrl-C) struck.
    Stopped,
    /// The bounded backtracking ran out after this many moves.
    GaveUp(u64),
    /// Every path from this start was tried.
    Exhausted,
}

struct Walk<'m> {
    m: &'m Model,
    visited: Vec<bool>,
    deg: Vec<u8>,
    /// Roth's key: squared distance from the centre, doubled coordinates.
    far: Vec<u64>,
    path: Vec<usize>,
    /// Candidates of every open frame, stacked; `frames` holds (first, end, next) of each.
    cands: Vec<u32>,
    frames: Vec<(u32, u32, u32)>,
}

impl<'m> Walk<'m> {
    fn new(m: &'m Model) -> Walk<'m> {
        let g = m.graph().expect("applies checked the graph");
        let b = &m.board;
        let squares = b.squares();
        let far = (0..squares)
            .map(|s| {
                let (r, c) = b.row_col(s);
                let dr = 2 * r as i64 - (b.height as i64 - 1);
                let dc = 2 * c as i64 - (b.width as i64 - 1);
                (dr * dr + dc * dc) as u64
            })
            .collect();
        Walk {
            m,
            visited: vec![false; squares],
            deg: (0..squares).map(|s| g.degree(s) as u8).collect(),
            far,
            path: Vec::with_capacity(m.cells),
            cands: Vec::new(),
            frames: Vec::new(),
        }
    }

    /// Start squares in the order tried: the given one; else the squares with the fewest
    /// moves first (where Warnsdorff would begin), in the larger colour class when the
    /// classes differ (an open tour must start there).
    fn starts(&self) -> Vec<usize> {
        if let Some(s) = self.m.start {
            return vec![s];
        }
        let g = self.m.graph().expect("graph");
        let a = self.m.analysis().expect("analysis");
        let larger = match a.colour_classes {
            Some((p, q)) if p != q && !self.m.closed => Some(if p > q { 0 } else { 1 }),
            _ => None,
        };
        let mut starts: Vec<usize> = self
            .m
            .board
            .cells()
            .filter(|&s| larger.is_none_or(|l| a.class[s] == l))
            .collect();
        starts.sort_by_key(|&s| (g.degree(s), std::cmp::Reverse(self.far[s]), s));
        if self.m.closed {
            starts.truncate(1);
        }
        starts
    }

    fn visit(&mut self, v: usize) {
        self.visited[v] = true;
        for &u in self.m.graph().expect("graph").moves(v) {
            self.deg[u as usize] -= 1;
        }
    }

    fn unvisit(&mut self, v: usize) {
        self.visited[v] = false;
        for &u in self.m.graph().expect("graph").moves(v) {
            self.deg[u as usize] += 1;
        }
    }

    fn adjacent(&self, a: usize, b: usize) -> bool {
        self.m
            .graph()
            .expect("graph")
            .moves(a)
            .contains(&(b as u32))
    }

    /// Push the frame of `cur`: its unvisited neighbours in Warnsdorff-Roth order.
    fn push_frame(&mut self, cur: usize) {
        let g = self.m.graph().expect("graph");
        let first = self.cands.len();
        for &u in g.moves(cur) {
            if !self.visited[u as usize] {
                self.cands.push(u);
            }
        }
        let (deg, far) = (&self.deg, &self.far);
        self.cands[first..].sort_unstable_by_key(|&u| {
            let u = u as usize;
            (deg[u], std::cmp::Reverse(far[u]), u)
        });
        self.frames
            .push((first as u32, self.cands.len() as u32, first as u32));
    }

    fn pop_frame(&mut self) {
        if let Some((first, _, _)) = self.frames.pop() {
            self.cands.truncate(first as usize);
        }
    }

    fn search(&mut self, start: usize, budget: Option<u64>, run: &mut Run) -> Found {
        let n = self.m.cells;
        let closed = self.m.closed;
        self.visit(start);
        self.path.push(start);
        self.push_frame(start);
        let mut tried = 0u64;
        let result = loop {
            if n == 1 {
                break Found::Tour;
            }
            let Some(top) = self.frames.last_mut() else {
                break Found::Exhausted;
            };
            let (_, end, next) = *top;
            if next == end {
                self.pop_frame();
                if self.path.len() == 1 {
                    break Found::Exhausted;
                }
                let v = self.path.pop().expect("path");
                self.unvisit(v);
                continue;
            }
            top.2 += 1;
            let v = self.cands[next as usize] as usize;
            tried += 1;
            if run.node() {
                break Found::Stopped;
            }
            if budget.is_some_and(|b| tried > b) {
                break Found::GaveUp(tried);
            }
            let cur = *self.path.last().expect("path");
            self.visit(v);
            self.path.push(v);
            if self.path.len() == n {
                if !closed || self.adjacent(v, start) || self.close_by_rotation(run) {
                    break Found::Tour;
                }
                self.path.pop();
                self.unvisit(v);
                continue;
            }
            let g = self.m.graph().expect("graph");
            let dead = g.moves(cur).iter().any(|&u| {
                let u = u as usize;
                !self.visited[u] && self.deg[u] == 0 && !self.adjacent(u, v)
            }) || (closed && self.deg[start] == 0);
            if dead {
                self.path.pop();
                self.unvisit(v);
                continue;
            }
            self.push_frame(v);
        };
        if !matches!(result, Found::Tour) {
            for &s in &self.path {
                self.visited[s] = false;
            }
            let g = self.m.graph().expect("graph");
            for s in 0..self.m.board.squares() {
                self.deg[s] = g.degree(s) as u8;
            }
            self.path.clear();
            self.cands.clear();
            self.frames.clear();
        }
        result
    }

    /// Pósa rotations on a complete path until its last square is a move from its first:
    /// for a neighbour `p[i]` of the last square, reverse `p[i+1..]`, making `p[i+1]` last.
    /// Takes a closing rotation when one exists, else a pseudo-random one; gives up after a
    /// bound.
    fn close_by_rotation(&mut self, run: &mut Run) -> bool {
        let n = self.path.len();
        if n < 3 {
            return false;
        }
        // Rotate a copy: the search's own path must stay as its frames built it.
        let mut path = self.path.clone();
        let mut pos = vec![u32::MAX; self.m.board.squares()];
        for (i, &s) in path.iter().enumerate() {
            pos[s] = i as u32;
        }
        let first = path[0];
        let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
        // Each rotation costs up to a pass over the path: a bound linear in the path for small
        // boards, capped so that a path that will not close costs little on large ones.
        for _ in 0..(4 * n).min(2000) {
            if run.node() {
                return false;
            }
            let last = path[n - 1];
            let g = self.m.graph().expect("graph");
            let mut options: Vec<usize> = Vec::new();
            for &u in g.moves(last) {
                let i = pos[u as usize] as usize;
                if i + 2 < n {
                    options.push(i);
                }
            }
            if options.is_empty() {
                return false;
            }
            let pick = options
                .iter()
                .copied()
                .find(|&i| self.adjacent(path[i + 1], first))
                .unwrap_or_else(|| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    options[(rng % options.len() as u64) as usize]
                });
            path[pick + 1..].reverse();
            for k in pick + 1..n {
                pos[path[k]] = k as u32;
            }
            if self.adjacent(path[n - 1], first) {
                self.path = path;
                return true;
            }
        }
        false
    }
}
