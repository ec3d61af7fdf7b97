//! `backtrack`: place pieces square by square, checking each new piece against those already
//! placed. Rows are capacity-bounded, so for queens this is the classic row-by-row search.

use super::{Emitter, Model};
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::Strategy;

pub struct Backtrack;

impl Strategy<Model> for Backtrack {
    fn name(&self) -> &'static str {
        "backtrack"
    }
    fn about(&self) -> &'static str {
        "place pieces in square order, checking each new one against those placed"
    }
    fn applies(&self, _m: &Model, _task: &Task) -> Result<(), String> {
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        let mut s = Search {
            m,
            placed: Vec::with_capacity(m.cells.len()),
            emit: Emitter::new(m, task),
            maximize: task.goal == Goal::Maximize,
            target: if task.goal == Goal::Maximize {
                1
            } else {
                m.count
            },
            best: Vec::new(),
        };
        s.go(0, run);
        super::maximize_answer(s.maximize, s.best)
    }
}

struct Search<'m> {
    m: &'m Model,
    placed: Vec<usize>,
    emit: Emitter<'m>,
    maximize: bool,
    /// Pieces a branch must be able to reach to be worth exploring.
    target: usize,
    best: Vec<usize>,
}

impl Search<'_> {
    /// Returns `true` to stop.
    fn go(&mut self, from: usize, run: &mut Run) -> bool {
        let k = self.placed.len();
        if self.maximize {
            if k >= self.target {
                self.best.clone_from(&self.placed);
                self.target = k + 1;
                run.set_status(format!("best {k}"));
            }
        } else if k == self.target {
            return self.emit.emit(run, &self.placed);
        }
        let m = self.m;
        for i in from..m.cells.len() {
            if k + m.cap_from[i] < self.target {
                break;
            }
            let s = m.cells[i];
            if self.placed.iter().any(|&p| m.attacks.get(p, s)) {
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
