//! `bitmask`: the squares still available as a bitset in machine words, one copy per level of
//! a preallocated stack, so placing a piece is a few AND-NOTs and no allocation. For N-Queens
//! proper it uses the classic shifted-diagonal form (columns and both diagonals as three words
//! shifted one bit per row), and for counting the border-constellation counter with full
//! 8-fold symmetry in `queens`.

use super::{Aim, Model};
use crate::engine::{Answer, Goal, Note, Run, Task};
use crate::kinds::Strategy;
use crate::kinds::report::Placements;

pub struct Bitmask;

impl Strategy<Model> for Bitmask {
    fn name(&self) -> &'static str {
        "bitmask"
    }
    fn about(&self) -> &'static str {
        "available squares as bitsets in machine words; queens by shifted diagonals and symmetry"
    }
    fn applies(&self, _m: &Model, _task: &Task) -> Result<(), String> {
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if m.is_full_queens() && task.goal == Goal::Count && m.board.width <= super::queens::MAX_N {
            return queens_count(m, task, run);
        }
        if m.is_full_queens() && m.board.width <= 64 && task.goal != Goal::Maximize {
            return queens_rows(m, task, run);
        }
        let maximize = task.goal == Goal::Maximize;
        let w = m.attacks.words_per_row();
        let mut init = vec![0u64; w];
        for &s in &m.cells {
            init[s >> 6] |= 1 << (s & 63);
        }
        let mut cell_of = vec![0u32; m.board.squares()];
        for (i, &s) in m.cells.iter().enumerate() {
            cell_of[s] = i as u32;
        }
        let parallel = task.threads > 1 && !run.wants_solutions() && !maximize;
        if !parallel {
            let mut s = Search::new(m, task, &cell_of, &init);
            s.go(0, run);
            return s.aim.answer();
        }
        // Share the first piece's squares out to the workers; each subtree is independent.
        let firsts: Vec<usize> = m
            .cells
            .iter()
            .enumerate()
            .filter(|&(i, _)| m.cap_from[i] >= m.count)
            .map(|(_, &s)| s)
            .collect();
        run.share_out(&firsts, task.threads, |&first, child| {
            let mut level1 = init.clone();
            let row = m.attacks.row(first);
            for (j, word) in level1.iter_mut().enumerate() {
                // Squares up to `first` were tried as the first piece elsewhere.
                let below = if first >> 6 > j {
                    !0
                } else if first >> 6 == j {
                    (2u64 << (first & 63)).wrapping_sub(1)
                } else {
                    0
                };
                *word &= !row[j] & !below;
            }
            let mut s = Search::new(m, task, &cell_of, &level1);
            s.placed.push(first);
            if !child.node() {
                s.go(1, child);
            }
        });
        Answer::default()
    }
}

struct Search<'m> {
    m: &'m Model,
    w: usize,
    cell_of: &'m [u32],
    /// Level d's available squares at `stack[d * w..(d + 1) * w]`.
    stack: Vec<u64>,
    placed: Vec<usize>,
    aim: Aim<'m>,
}

impl<'m> Search<'m> {
    fn new(m: &'m Model, task: &Task, cell_of: &'m [u32], init: &[u64]) -> Search<'m> {
        let w = init.len();
        let maximize = task.goal == Goal::Maximize;
        let levels = if maximize {
            m.cells.len() + 2
        } else {
            m.count + 2
        };
        let mut stack = vec![0u64; levels * w];
        // Parallel workers start at level 1 with one piece placed; level 0 then goes unused.
        stack[..w].copy_from_slice(init);
        stack[w..2 * w].copy_from_slice(init);
        Search {
            m,
            w,
            cell_of,
            stack,
            placed: Vec::with_capacity(levels),
            aim: Aim::new(m, task),
        }
    }

    fn go(&mut self, depth: usize, run: &mut Run) -> bool {
        if let Some(stop) = self.aim.visit(&self.placed, run) {
            return stop;
        }
        let k = self.placed.len();
        let w = self.w;
        let base = depth * w;
        loop {
            let cur = &self.stack[base..base + w];
            let Some(j) = cur.iter().position(|&x| x != 0) else {
                break;
            };
            let s = j * 64 + cur[j].trailing_zeros() as usize;
            let avail: usize = cur[j..].iter().map(|x| x.count_ones() as usize).sum();
            let cap = self.m.cap_from[self.cell_of[s] as usize];
            if k + avail.min(cap) < self.aim.target {
                break;
            }
            self.stack[base + j] &= self.stack[base + j] - 1;
            if run.node() {
                return true;
            }
            let row = self.m.attacks.row(s);
            let (cur, next) = self.stack[base..base + 2 * w].split_at_mut(w);
            for ((n, &c), &r) in next.iter_mut().zip(cur.iter()).zip(row) {
                *n = c & !r;
            }
            self.placed.push(s);
            let stop = self.go(depth + 1, run);
            self.placed.pop();
            if stop {
                return true;
            }
        }
        false
    }
}

/// N-Queens in the shifted-diagonal form: one word each for the columns and the two
/// diagonals taken by the rows above, shifted by one bit per row.
fn queens_rows(m: &Model, task: &Task, run: &mut Run) -> Answer {
    struct Q<'m> {
        n: usize,
        full: u64,
        placed: Vec<usize>,
        emit: Placements<'m>,
    }
    impl Q<'_> {
        fn go(&mut self, cols: u64, ld: u64, rd: u64, run: &mut Run) -> bool {
            let row = self.placed.len();
            if row == self.n {
                return self.emit.emit(run, &self.placed);
            }
            let mut avail = !(cols | ld | rd) & self.full;
            while avail != 0 {
                let bit = avail & avail.wrapping_neg();
                avail ^= bit;
                if run.node() {
                    return true;
                }
                self.placed
                    .push(row * self.n + bit.trailing_zeros() as usize);
                let stop = self.go(cols | bit, (ld | bit) << 1, (rd | bit) >> 1, run);
                self.placed.pop();
                if stop {
                    return true;
                }
            }
            false
        }
    }
    let n = m.board.width;
    let mut q = Q {
        n,
        full: if n == 64 { !0 } else { (1u64 << n) - 1 },
        placed: Vec::with_capacity(n),
        emit: Placements::new(&m.symmetries, m.cells.len(), task),
    };
    q.go(0, 0, 0, run);
    Answer::default()
}

/// N-Queens counted by border constellations under the 8 symmetries (see `queens`).
fn queens_count(m: &Model, task: &Task, run: &mut Run) -> Answer {
    match super::queens::count_queens(m.board.width, task.threads, run) {
        Some(c) => {
            let mut a = Answer::count(if task.unique { c.unique } else { c.total });
            a.notes.push(Note::SymmetryFold(8));
            a
        }
        // Stopped by a limit: the partial count of complete sub-problems is a lower bound.
        None => Answer::default(),
    }
}
