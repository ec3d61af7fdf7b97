//! `rows`: the classic method for "Less Than Three". Fill the board row by row; in each row choose, colour after
//! colour, a combination of free squares, as many as the totals allow (exactly
//! `max_per_line` of each colour when the totals force it, as 12 + 12 stones on 6x6 do);
//! every stone bumps a counter per line through it, and a stone whose line already holds
//! `max_per_line` of its colour is not placed. No bitsets, no symmetry: the baseline the
//! other strategies are measured against.

use super::{Emitter, Model, RowPlan};
use crate::engine::{Answer, Run, Task};
use crate::kinds::Strategy;

pub struct Rows;

impl Strategy<Model> for Rows {
    fn name(&self) -> &'static str {
        "rows"
    }
    fn about(&self) -> &'static str {
        "row by row, combinations of squares per colour, a counter per line and colour"
    }
    fn applies(&self, _m: &Model, _task: &Task) -> Result<(), crate::engine::Refusal> {
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if let Some(why) = &m.infeasible {
            return Answer::none_because(why.clone());
        }
        let plan = RowPlan::new(m);
        let nc = m.num_colors();
        let mut s = Search {
            m,
            nc,
            k: m.limit() as u16,
            cnt: vec![0; m.lines.len() * nc],
            sol: vec![0; m.board.squares()],
            need: vec![m.per_color; nc],
            emit: Emitter::new(m, task),
            plan,
        };
        s.row(0, run);
        Answer::default()
    }
}

struct Search<'m> {
    m: &'m Model,
    nc: usize,
    k: u16,
    plan: RowPlan,
    /// Stones of colour c on line l at `cnt[l * nc + c]`.
    cnt: Vec<u16>,
    sol: Vec<usize>,
    /// Stones of each colour still to place.
    need: Vec<usize>,
    emit: Emitter<'m>,
}

impl Search<'_> {
    /// Returns `true` to stop.
    fn row(&mut self, r: usize, run: &mut Run) -> bool {
        if r == self.m.board.height {
            return self.need.iter().all(|&n| n == 0) && self.emit.emit(run, &self.sol);
        }
        self.colour(r, 0, run)
    }

    fn colour(&mut self, r: usize, c: usize, run: &mut Run) -> bool {
        if c == self.nc {
            return self.row(r + 1, run);
        }
        let (lo, hi) = self.plan.range(r, self.need[c]);
        if lo > hi {
            return false;
        }
        self.pick(r, c, 0, lo, hi, 0, run)
    }

    /// Stones of colour `c` in row `r`: `placed` so far, the next one at column `from` or
    /// later; each combination is reached once, in increasing column order.
    #[allow(clippy::too_many_arguments)]
    fn pick(
        &mut self,
        r: usize,
        c: usize,
        placed: usize,
        lo: usize,
        hi: usize,
        from: usize,
        run: &mut Run,
    ) -> bool {
        if placed >= lo && self.colour(r, c + 1, run) {
            return true;
        }
        if placed == hi {
            return false;
        }
        let w = self.m.board.width;
        for col in from..w {
            if w - col < lo.saturating_sub(placed) {
                break;
            }
            let sq = r * w + col;
            if self.m.board.is_hole(sq) || self.sol[sq] != 0 {
                continue;
            }
            let lines = &self.plan.through[sq];
            let (nc, k) = (self.nc, self.k);
            if lines.iter().any(|&l| self.cnt[l as usize * nc + c] >= k) {
                continue;
            }
            if run.node() {
                return true;
            }
            for &l in lines {
                self.cnt[l as usize * nc + c] += 1;
            }
            self.sol[sq] = c + 1;
            self.need[c] -= 1;
            let stop = self.pick(r, c, placed + 1, lo, hi, col + 1, run);
            self.need[c] += 1;
            self.sol[sq] = 0;
            for &l in &self.plan.through[sq] {
                self.cnt[l as usize * nc + c] -= 1;
            }
            if stop {
                return true;
            }
        }
        false
    }
}
