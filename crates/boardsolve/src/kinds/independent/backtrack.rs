//! `backtrack`: place pieces square by square, checking each new piece against those already
//! placed. Rows are capacity-bounded, so for queens this is the classic row-by-row search.
//!
//! With `--part` the same tree is cut by [`split::cut`]: a node is the pieces placed and the
//! next cell to try, expanded as `go` would branch, and each subtree of the part is searched
//! by `go` started from its node.

use super::{Aim, Model, Whole};
use crate::engine::split::{self, Expand, Fingerprint};
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::{Strategy, parts};

pub struct Backtrack;

impl Strategy<Model> for Backtrack {
    fn name(&self) -> &'static str {
        "backtrack"
    }
    fn about(&self) -> &'static str {
        "place pieces in square order, checking each new one against those placed"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        m.whole_board()?;
        if m.army.is_some() {
            super::army::applies(m, task, false)?;
        }
        super::largest_fits(m, task, true, false)?;
        parts::counts_only(task)
    }
    fn splits(&self) -> bool {
        true
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if m.largest && task.goal == Goal::Count {
            return super::count_largest(m, task, run, |m, task, run| self.solve(m, task, run));
        }
        if m.army.is_some() {
            return super::army::backtrack(m, task, run);
        }
        if task.part.is_some() {
            return part(m, task, run);
        }
        let whole = m.whole();
        let mut s = Search {
            whole,
            placed: Vec::with_capacity(whole.cells.len()),
            aim: Aim::new(m, task),
        };
        s.go(0, run);
        s.aim.answer()
    }
}

/// A node of the tree: the pieces placed, and the index of the first cell left to try.
struct Node {
    placed: Vec<usize>,
    from: usize,
}

/// The part's subtrees, each searched by `go` from its node.
fn part(m: &Model, task: &Task, run: &mut Run) -> Answer {
    // Counting and listing only: the pieces a branch must reach are fixed.
    let target = m.count;
    let whole = m.whole();
    let expand = |n: &Node, _: &mut Run| {
        let k = n.placed.len();
        if k == target {
            return Expand::Leaf;
        }
        // The children `go` enters, in its order, with its capacity cut.
        let mut children = Vec::new();
        for i in n.from..whole.cells.len() {
            if k + whole.cap_from[i] < target {
                break;
            }
            let s = whole.cells[i];
            if n.placed.iter().any(|&p| whole.attacks.get(p, s)) {
                continue;
            }
            let mut placed = n.placed.clone();
            placed.push(s);
            children.push(Node {
                placed,
                from: i + 1,
            });
        }
        Expand::Children(children)
    };
    let key = |n: &Node, f: &mut Fingerprint| {
        f.eat(n.placed.len() as u64);
        for &s in &n.placed {
            f.eat(s as u64);
        }
    };
    let root = Node {
        placed: Vec::new(),
        from: 0,
    };
    let Some(cut) = split::cut(task, run, root, None, expand, key) else {
        return Answer::default();
    };
    parts::count_part(task, run, cut, |n, run| {
        // The node's own piece is a node of the search, as `go` counts it before entering.
        if !n.placed.is_empty() && run.node() {
            return;
        }
        let mut s = Search {
            whole,
            placed: n.placed.clone(),
            aim: Aim::new(m, task),
        };
        s.placed.reserve(whole.cells.len());
        s.go(n.from, run);
    })
}

struct Search<'m> {
    whole: &'m Whole,
    placed: Vec<usize>,
    aim: Aim<'m>,
}

impl Search<'_> {
    /// Returns `true` to stop.
    fn go(&mut self, from: usize, run: &mut Run) -> bool {
        if let Some(stop) = self.aim.visit(&self.placed, run) {
            return stop;
        }
        let k = self.placed.len();
        let whole = self.whole;
        for i in from..whole.cells.len() {
            if k + whole.cap_from[i] < self.aim.target {
                break;
            }
            let s = whole.cells[i];
            if self.placed.iter().any(|&p| whole.attacks.get(p, s)) {
                continue;
            }
            if run.node() {
                return true;
            }
            self.placed.push(s);
            let stop = self.go(i + 1, run);
            self.placed.pop();
            if stop {
                return true;
            }
        }
        false
    }
}
