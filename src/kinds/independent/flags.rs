//! `flags`: the textbook N-Queens search with one flag per line (row, column, diagonal),
//! generalised to any rook, bishop or queen on a board with holes: a hole cuts a line into
//! segments, and each segment gets its own flag.

use super::{Emitter, Model};
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::Strategy;

pub struct Flags;

impl Strategy<Model> for Flags {
    fn name(&self) -> &'static str {
        "flags"
    }
    fn about(&self) -> &'static str {
        "one flag per row, column and diagonal segment (rook, bishop and queen only)"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), String> {
        if !m.piece.is_line_piece() {
            return Err(format!(
                "needs a line piece (R, B or Q: unlimited wazir or ferz rides only); this piece is {}",
                m.piece.notation()
            ));
        }
        if task.goal == Goal::Maximize {
            return Err("goal maximize is served by backtrack and bitmask".into());
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        let b = &m.board;
        let mut steps: Vec<(i32, i32)> = Vec::new();
        if m.piece.rides_unlimited((1, 0)) {
            steps.extend([(0, 1), (1, 0)]);
        }
        if m.piece.rides_unlimited((1, 1)) {
            steps.extend([(1, 1), (1, -1)]);
        }
        // seg[d * squares + s]: the segment of line direction d through s. A cell continues
        // the segment of its predecessor along the line, which has a smaller index.
        let n = b.squares();
        let mut seg = vec![0u32; steps.len() * n];
        let mut segments = 0u32;
        for (d, &(dr, dc)) in steps.iter().enumerate() {
            for s in b.cells() {
                seg[d * n + s] = match b.step(s, -dr, -dc) {
                    Some(p) => seg[d * n + p],
                    None => {
                        segments += 1;
                        segments - 1
                    }
                };
            }
        }
        let mut s = Search {
            m,
            dirs: steps.len(),
            seg,
            used: vec![false; segments as usize],
            placed: Vec::with_capacity(m.count),
            emit: Emitter::new(m, task),
        };
        s.go(0, run);
        Answer::default()
    }
}

struct Search<'m> {
    m: &'m Model,
    dirs: usize,
    seg: Vec<u32>,
    used: Vec<bool>,
    placed: Vec<usize>,
    emit: Emitter<'m>,
}

impl Search<'_> {
    fn go(&mut self, from: usize, run: &mut Run) -> bool {
        let k = self.placed.len();
        let m = self.m;
        if k == m.count {
            return self.emit.emit(run, &self.placed);
        }
        let n = m.board.squares();
        for i in from..m.cells.len() {
            if k + m.cap_from[i] < m.count {
                break;
            }
            let s = m.cells[i];
            if (0..self.dirs).any(|d| self.used[self.seg[d * n + s] as usize]) {
                continue;
            }
            if run.node() {
                return true;
            }
            for d in 0..self.dirs {
                self.used[self.seg[d * n + s] as usize] = true;
            }
            self.placed.push(s);
            let stop = self.go(i + 1, run);
            self.placed.pop();
            for d in 0..self.dirs {
                self.used[self.seg[d * n + s] as usize] = false;
            }
            if stop {
                return true;
            }
        }
        false
    }
}
