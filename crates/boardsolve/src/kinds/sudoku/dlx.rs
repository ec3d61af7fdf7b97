//! `dlx`: the puzzle as an exact cover (cover.rs) on the Dancing Links core, each solution's
//! options mapped back to the grid. The one strategy for killer cages.

use super::{Model, SudokuRefusal};
use crate::dlx::Problem;
use crate::dlx::Solver;
use crate::engine::{Answer, Need, Refusal, Run, Task};
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
    /// The exact cover (its options counted before it is built, the cages' fillings up to
    /// the bound) and the Dancing Links arrays on it, a copy a thread for a shared count.
    fn needs(&self, m: &Model, task: &Task) -> Option<Need> {
        let entries = m.cover_entries();
        let n = m.n();
        let items = n * n + m.grid.num_units() * n + m.grid.cages.len();
        // Every option has two entries or more.
        let options = (entries / 2) as usize;
        let entries = entries as usize;
        Some(
            Need::new(
                Problem::bytes_for(items, options, entries),
                "the exact cover",
            )
            .and(dlx_parts::arrays_need(items, options, entries, task)),
        )
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
        dlx_parts::search_each(&mut solver, task, run, &mut visit)
    }
    fn splits(&self) -> bool {
        true
    }
}
