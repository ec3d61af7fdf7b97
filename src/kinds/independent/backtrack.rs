//! `backtrack`: place pieces square by square, checking each new piece against those already
//! placed. Rows are capacity-bounded, so for queens this is the classic row-by-row search.

use super::{Aim, Model};
use crate::engine::{Answer, Run, Task};
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
            aim: Aim::new(m, task),
        };
        s.go(0, run);
        s.aim.answer()
    }
}

struct Search<'m> {
    m: &'m Model,
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
        let m = self.m;
        for i in from..m.cells.len() {
            if k + m.cap_from[i] < self.aim.target {
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
