//! `brute`: generate every candidate placement, then test it. The baseline the others are
//! measured against; refused up front when the candidates are too many to test.

use super::Model;
use super::vocab::IndependentRefusal;
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::Strategy;
use crate::kinds::report::Placements;

pub struct Brute;

/// Candidates beyond this would take minutes to hours.
const MAX_CANDIDATES: f64 = 2e9;

/// When every row must hold exactly one piece (as many pieces as rows, a piece riding the rows,
/// no holes), candidates are one square per row; otherwise every set of `count` squares.
fn one_per_row(m: &Model) -> bool {
    m.count == m.board.height && m.piece.rides_unlimited((1, 0)) && !m.board.has_holes()
}

fn candidates(m: &Model) -> f64 {
    if one_per_row(m) {
        (m.board.width as f64).powi(m.board.height as i32)
    } else {
        let n = m.whole().cells.len() as f64;
        (0..m.count).fold(1.0, |acc, i| acc * (n - i as f64) / (i as f64 + 1.0))
    }
}

impl Strategy<Model> for Brute {
    fn name(&self) -> &'static str {
        "brute"
    }
    fn about(&self) -> &'static str {
        "generate every candidate placement (one per row when rows force it), then test it"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        m.no_army()?;
        m.whole_board()?;
        super::largest_fits(m, task, false, false)?;
        if task.goal == Goal::Maximize {
            return Err(IndependentRefusal::MaximizeNeedsBound.into());
        }
        let c = candidates(m);
        if c > MAX_CANDIDATES {
            return Err(IndependentRefusal::TooManyCandidates {
                candidates: c,
                max: MAX_CANDIDATES,
            }
            .into());
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        let whole = m.whole();
        let mut emit = Placements::new(&whole.symmetries, whole.cells.len(), task);
        let k = m.count;
        let valid = |sq: &[usize]| {
            (0..sq.len()).all(|i| (i + 1..sq.len()).all(|j| !whole.attacks.get(sq[i], sq[j])))
        };
        let mut squares = vec![0usize; k];
        if one_per_row(m) {
            let w = m.board.width;
            let mut cols = vec![0usize; k];
            loop {
                for (r, &c) in cols.iter().enumerate() {
                    squares[r] = r * w + c;
                }
                if run.node() {
                    break;
                }
                if valid(&squares) && emit.emit(run, &squares) {
                    break;
                }
                // Odometer over one column per row.
                let mut r = k;
                loop {
                    if r == 0 {
                        return Answer::default();
                    }
                    r -= 1;
                    cols[r] += 1;
                    if cols[r] < w {
                        break;
                    }
                    cols[r] = 0;
                }
            }
        } else {
            let n = whole.cells.len();
            let mut idx: Vec<usize> = (0..k).collect();
            loop {
                for (i, &c) in idx.iter().enumerate() {
                    squares[i] = whole.cells[c];
                }
                if run.node() {
                    break;
                }
                if valid(&squares) && emit.emit(run, &squares) {
                    break;
                }
                // Next k-combination of cell indices in lexicographic order.
                let mut i = k;
                loop {
                    if i == 0 {
                        return Answer::default();
                    }
                    i -= 1;
                    if idx[i] < n - k + i {
                        break;
                    }
                }
                idx[i] += 1;
                for j in i + 1..k {
                    idx[j] = idx[j - 1] + 1;
                }
            }
        }
        Answer::default()
    }
}
