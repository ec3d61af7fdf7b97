//! `dlx`: the puzzle as an exact cover (cover.rs) on the Dancing Links core, each solution's
//! options mapped back to the grid. The one strategy for killer cages.

use super::{Model, SudokuRefusal};
use crate::dlx::Solver;
use crate::engine::{Answer, Refusal, Run, Task};
use crate::kinds::{Strategy, dlx_parts};
use crate::spec::MAX_COVER_ENTRIES;

pub struct Dlx;

impl Strategy<Model> for Dlx {
    fn name(&self) -> &'static str {
        "dlx"
    }
    fn about(&self) -> &'static str {
        "Knuth's Algorithm X on the Dancing Links core: an option a symbol in a cell, or a \
         way to fill a killer cage"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), Refusal> {
        if task.unique {
            return Err(SudokuRefusal::Unique.into());
        }
        if let Some(why) = dlx_parts::refuses(task) {
            return Err(why);
        }
        let entries = m.cover_entries();
        if entries > MAX_COVER_ENTRIES as u64 {
            return Err(SudokuRefusal::CagesTooMany {
                entries,
                limit: MAX_COVER_ENTRIES as u64,
            }
            .into());
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        // `applies` refused a cover beyond the bound; were it built past it anyway, the
        // run stops as for memory, unproven.
        let Ok(cover) = m.cover() else {
            run.out_of_memory();
            return Answer::default();
        };
        let mut solver = Solver::new(&cover.problem);
        solver.set_branch(m.branch);
        if !run.wants_solutions() {
            return dlx_parts::search(&mut solver, task, run);
        }
        let mut grid = Vec::with_capacity(m.n() * m.n());
        let mut visit = |run: &mut Run, options: &[usize]| {
            cover.grid(m, options, &mut grid);
            run.report(&grid)
        };
        if task.part.is_some() {
            return dlx_parts::search_part(&mut solver, task, run, Some(&mut visit));
        }
        solver.search_with(run, &mut visit);
        Answer::default()
    }
    fn splits(&self) -> bool {
        true
    }
}
