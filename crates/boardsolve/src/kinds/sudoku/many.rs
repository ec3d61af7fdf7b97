//! Many puzzles of one set of rules, a line each (the benchmark sets' format): each line
//! read, its givens checked, and the puzzle solved by one strategy with every solution
//! checked, the puzzles shared out to the threads. A bad line is answered as such; the others
//! go on.

use std::ops::ControlFlow;

use super::Model;
use crate::engine::{Run, StopReason, Task};
use crate::kinds::{self, SolveError};
use crate::spec::{LineFault, SudokuSpec, read_sudoku_line, sudoku_clash_in};

/// What came of one line.
#[derive(Debug)]
pub enum LineAnswer {
    /// Not a puzzle of these rules.
    Bad(LineFault),
    /// Searched: its first solution (goal first), the solutions counted (at least so many
    /// where `capped`: a count stopped at the solution limit), and whether the search
    /// finished (else what stopped it).
    Searched {
        solution: Option<Vec<usize>>,
        count: u128,
        capped: bool,
        stopped: Option<StopReason>,
        nodes: u64,
    },
    /// The strategy refused the puzzle, or a solution failed the validator.
    Failed(SolveError),
}

/// Solve each of `lines` (text without its newline) under the rules of `rules` and
/// `base`, with `strategy`, on `task.threads` workers; the answers in the lines' order. Each
/// puzzle runs as a child of `parent` (its clock, limits and interrupt) on one thread.
pub fn solve_lines(
    base: &Model,
    rules: &SudokuSpec,
    strategy: &str,
    task: &Task,
    parent: &mut Run,
    lines: &[String],
) -> Vec<LineAnswer> {
    use rayon::prelude::*;
    let one = Task {
        threads: 1,
        ..*task
    };
    let units = rules.units();
    let children: Vec<Run<'static>> = lines.iter().map(|_| parent.child()).collect();
    let solve = |(line, child): (&String, Run<'static>)| {
        solve_line(base, &units, strategy, &one, child, line)
    };
    match rayon::ThreadPoolBuilder::new()
        .num_threads(task.threads.max(1))
        .build()
    {
        Ok(pool) => pool.install(|| {
            lines
                .par_iter()
                .zip(children.into_par_iter())
                .map(solve)
                .collect()
        }),
        Err(_) => lines.iter().zip(children).map(solve).collect(),
    }
}

fn solve_line(
    base: &Model,
    units: &[Vec<usize>],
    strategy: &str,
    task: &Task,
    mut run: Run<'static>,
    line: &str,
) -> LineAnswer {
    let givens = match read_sudoku_line(line, Some(base.n())) {
        Ok((_, g)) => g,
        Err(f) => return LineAnswer::Bad(f),
    };
    if let Some(cells) = sudoku_clash_in(units, &givens) {
        return LineAnswer::Bad(LineFault::Clash {
            size: base.n(),
            cells,
            symbol: givens[cells.1],
        });
    }
    // A puzzle reached after a limit struck (the time, an interrupt) is not begun.
    if run.check() {
        return LineAnswer::Searched {
            solution: None,
            count: 0,
            capped: false,
            stopped: run.stopped(),
            nodes: 0,
        };
    }
    let model = kinds::Model::Sudoku(base.with_givens(givens));
    let mut first: Option<Vec<usize>> = None;
    let checked = model.solve_checked_with(strategy, task, run, |sol: &[usize]| {
        if first.is_none() {
            first = Some(sol.to_vec());
        }
        ControlFlow::Continue(())
    });
    match checked {
        Ok(c) => LineAnswer::Searched {
            solution: first,
            count: c.outcome.answer.count.unwrap_or(c.outcome.stats.solutions),
            capped: task.goal == crate::engine::Goal::Count
                && c.outcome.stopped == Some(StopReason::Solutions),
            stopped: c.outcome.stopped.filter(|r| r.is_limit()),
            nodes: c.outcome.stats.nodes,
        },
        Err(e) => LineAnswer::Failed(e),
    }
}
