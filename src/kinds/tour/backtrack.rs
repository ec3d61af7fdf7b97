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

use super::exists::Existence;
use super::graph::GRAPH_LIMIT;
use super::model::{Model, no_unique};
use crate::engine::{Answer, Goal, Reason, Run, Task};
use crate::kinds::Strategy;

/// Recursion depth is the number of squares; beyond this a plain search has no hope anyway.
const MAX_CELLS: usize = 4096;

pub struct Backtrack;

impl Strategy<Model> for Backtrack {
    fn name(&self) -> &'static str {
        "backtrack"
    }
    fn about(&self) -> &'static str {
        "plain depth-first search; enumerates and counts tours on small boards"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), String> {
        no_unique(task)?;
        if m.cells > GRAPH_LIMIT || m.cells > MAX_CELLS {
            return Err(format!(
                "plain backtracking takes boards up to {MAX_CELLS} squares; this one has {}",
                m.cells
            ));
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if let Some(a) = m.settled() {
            return a;
        }
        let g = m.graph().expect("applies checked the graph");
        let squares = m.board.squares();
        let mut s = Search {
            m,
            visited: vec![false; squares],
            deg: (0..squares).map(|q| g.degree(q) as u8).collect(),
            path: Vec::with_capacity(m.cells),
            first: 0,
            found: 0,
            report: run.wants_solutions(),
        };
        let starts: Vec<usize> = match (m.start, m.closed) {
            (Some(st), _) => vec![st],
            (None, true) => m.board.cells().take(1).collect(),
            (None, false) => m.board.cells().collect(),
        };
        for st in starts {
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
        if !s.report {
            run.count(s.found);
        }
        if run.stats.solutions == 0 && !run.is_stopped() {
            a.count = Some(0);
            a.reason = Some(match m.existence {
                Existence::Exists(_) => {
                    Reason::Bug("the search found none (contradicting a theorem: a bug)".into())
                }
                _ => Reason::SearchFoundNone,
            });
        }
        if task.goal != Goal::First {
            a.notes.extend(m.counting_note(task));
        }
        a
    }
}

struct Search<'m> {
    m: &'m Model,
    visited: Vec<bool>,
    /// Unvisited neighbours of each square.
    deg: Vec<u8>,
    path: Vec<usize>,
    first: usize,
    found: u128,
    report: bool,
}

impl Search<'_> {
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
            self.found += 1;
            return false;
        }
        let g = self.m.graph().expect("graph");
        for &v in g.moves(cur) {
            let v = v as usize;
            if self.visited[v] {
                continue;
            }
            if run.node() {
                return true;
            }
            self.visit(v);
            self.path.push(v);
            let dead = self.moves(cur).iter().any(|&u| {
                let u = u as usize;
                !self.visited[u] && self.deg[u] == 0 && !self.adjacent(u, v)
            }) || (self.m.closed && self.path.len() < n && self.deg[self.first] == 0);
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
