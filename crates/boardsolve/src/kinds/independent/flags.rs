//! `flags`: the textbook N-Queens search with one flag per line (row, column, diagonal),
//! generalised to any rook, bishop or queen on a board with holes: a hole cuts a line into
//! segments, and each segment gets its own flag.

use super::vocab::IndependentRefusal;
use super::{Model, Whole};
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::Strategy;
use crate::kinds::report::Placements;

pub struct Flags;

impl Strategy<Model> for Flags {
    fn name(&self) -> &'static str {
        "flags"
    }
    fn about(&self) -> &'static str {
        "one flag per row, column and diagonal segment (rook, bishop and queen only)"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        m.no_army()?;
        m.whole_board()?;
        if !m.piece.is_line_piece() {
            return Err(IndependentRefusal::NotLinePiece {
                piece: m.piece.notation(),
            }
            .into());
        }
        super::largest_fits(m, task, false, false)?;
        if task.goal == Goal::Maximize {
            return Err(crate::engine::Refusal::Goal {
                goal: Goal::Maximize,
                served_by: &["backtrack", "bitmask"],
            });
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        let whole = m.whole();
        let lines = m.segments();
        let n = m.board.squares();
        // One flag per segment: direction d's segments follow those of directions before it.
        let offset: Vec<u32> = lines
            .count
            .iter()
            .scan(0, |acc, &c| {
                *acc += c;
                Some(*acc - c)
            })
            .collect();
        let segments: u32 = lines.count.iter().sum();
        let seg: Vec<u32> = (0..lines.dirs * n)
            .map(|i| lines.seg[i].wrapping_add(offset[i / n]))
            .collect();
        // Cell-major segment ids, D per cell, so a candidate's flags sit together.
        let dirs = lines.dirs;
        let cell_seg: Vec<u32> = whole
            .cells
            .iter()
            .flat_map(|&c| (0..dirs).map(move |d| (d, c)))
            .map(|(d, c)| seg[d * n + c])
            .collect();
        let used = vec![false; segments as usize];
        let emit = Placements::new(&whole.symmetries, whole.cells.len(), task);
        let placed = Vec::with_capacity(m.count);
        if dirs == 4 {
            let segs = cell_seg
                .chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]])
                .collect();
            Search::<4> {
                m,
                whole,
                segs,
                used,
                placed,
                emit,
            }
            .go(0, run);
        } else {
            let segs = cell_seg.chunks_exact(2).map(|c| [c[0], c[1]]).collect();
            Search::<2> {
                m,
                whole,
                segs,
                used,
                placed,
                emit,
            }
            .go(0, run);
        }
        Answer::default()
    }
}

/// D line directions: 2 for a rook or bishop, 4 for a queen.
struct Search<'m, const D: usize> {
    m: &'m Model,
    whole: &'m Whole,
    /// `segs[i]`: the segments through `cells[i]`.
    segs: Vec<[u32; D]>,
    used: Vec<bool>,
    placed: Vec<usize>,
    emit: Placements<'m>,
}

impl<const D: usize> Search<'_, D> {
    fn go(&mut self, from: usize, run: &mut Run) -> bool {
        let k = self.placed.len();
        let (m, whole) = (self.m, self.whole);
        if k == m.count {
            return self.emit.emit(run, &self.placed);
        }
        for i in from..whole.cells.len() {
            if k + whole.cap_from[i] < m.count {
                break;
            }
            let segs = self.segs[i];
            if segs.iter().any(|&g| self.used[g as usize]) {
                continue;
            }
            if run.node() {
                return true;
            }
            for g in segs {
                self.used[g as usize] = true;
            }
            self.placed.push(whole.cells[i]);
            let stop = self.go(i + 1, run);
            self.placed.pop();
            for g in segs {
                self.used[g as usize] = false;
            }
            if stop {
                return true;
            }
        }
        false
    }
}
