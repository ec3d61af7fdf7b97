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
        // The build asks the run's stop conditions as it goes: a killer cage's fillings may
        // take longer than the time limit. `applies` refused a cover beyond the bound; were
        // it built past it anyway, the run stops as for memory, unproven.
        let cover = match m.cover_until(&mut || run.poll()) {
            Ok(Some(cover)) => cover,
            // The run holds why it stopped; nothing was searched.
            Ok(None) => return Answer::default(),
            Err(_) => {
                run.out_of_memory();
                return Answer::default();
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Limits, StopReason};
    use crate::spec::{KindSpec, Overrides, Spec};

    /// The run's stop reaches the cover's build: a run that stops at its first question
    /// (a node limit of 0, which a question reaches at once) stops before the killer cage's
    /// fillings are even counted, and nothing is searched.
    #[test]
    fn the_cover_is_built_under_the_runs_stop_conditions() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../puzzles/killer.toml"
        ))
        .unwrap();
        let spec = Spec::parse("killer.toml", &text, &Overrides::default()).unwrap();
        let KindSpec::Sudoku(s) = &spec.rules else {
            panic!("a sudoku");
        };
        let m = Model::compile(&spec, s).unwrap();
        let mut run = Run::new(Limits {
            nodes: Some(0),
            ..Limits::default()
        });
        Dlx.solve(&m, &Task::default(), &mut run);
        assert_eq!(run.stopped(), Some(StopReason::Nodes));
        assert_eq!((run.stats.solutions, run.stats.nodes), (0, 0));
        assert!(m.entries.get().is_none(), "stopped within the count");
        // Unstopped, the same model is counted whole: one grid.
        let mut run = Run::new(Limits::default());
        Dlx.solve(&m, &Task::default(), &mut run);
        assert_eq!((run.stopped(), run.stats.solutions), (None, 1));
    }
}
