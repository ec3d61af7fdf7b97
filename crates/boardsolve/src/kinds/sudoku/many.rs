//! Many puzzles of one set of rules, a line each (the benchmark sets' format): each line
//! read, its givens checked, and the puzzle solved by one strategy with every solution
//! checked, the puzzles shared out to the threads. A bad line is answered as such; the others
//! go on.

use std::ops::ControlFlow;
use std::sync::Mutex;

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
    /// finished (else what stopped it: a limit, or the solution limit of a capped count).
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

/// What came of a batch of lines.
#[derive(Debug)]
pub struct LineBatch {
    /// The answers of the lines begun, in order: the first lines of the batch, all of them
    /// unless a limit struck. A puzzle stopped in its search is among them, with its reason.
    pub answers: Vec<LineAnswer>,
    /// The limit that struck before the lines after `answers` were begun; `None` when every
    /// line was begun.
    pub stopped: Option<StopReason>,
}

/// Solves batches of lines under one set of rules, with one strategy, on `task.threads`
/// workers that live as long as it does (a slow input's batches are a line or two, and
/// starting the workers for each would cost more than the puzzle).
pub struct LineSolver<'m> {
    base: &'m Model,
    units: Vec<Vec<usize>>,
    strategy: String,
    /// The task of one puzzle: one thread.
    task: Task,
    /// `None` where the system gave no threads: the lines are solved here, one by one.
    pool: Option<rayon::ThreadPool>,
}

impl<'m> LineSolver<'m> {
    pub fn new(base: &'m Model, rules: &SudokuSpec, strategy: &str, task: &Task) -> Self {
        LineSolver {
            base,
            units: rules.units(),
            strategy: strategy.to_string(),
            task: Task {
                threads: 1,
                ..*task
            },
            pool: rayon::ThreadPoolBuilder::new()
                .num_threads(task.threads.max(1))
                .build()
                .ok(),
        }
    }

    /// Solve `lines` (text without its newline), each puzzle as a child of `parent` (its
    /// clock, limits and interrupt) on one worker. The workers take the lines in order and
    /// look at the limits as they take one, under one lock: the lines begun are always the
    /// first ones, so that what is written of a stopped run is the input's first lines,
    /// answered, and no puzzle that was not begun looks answered.
    pub fn solve(&self, parent: &Run, lines: &[String]) -> LineBatch {
        let children: Vec<Run<'static>> = lines.iter().map(|_| parent.child()).collect();
        let queue = Mutex::new(lines.iter().zip(children).enumerate());
        let work = || {
            let mut done: Vec<(usize, LineAnswer)> = Vec::new();
            loop {
                let (k, line, child) = {
                    let mut queue = queue.lock().unwrap_or_else(|e| e.into_inner());
                    let Some((k, (line, mut child))) = queue.next() else {
                        return (done, None);
                    };
                    // The limits only ever strike more: once a take finds them struck,
                    // every later take does too.
                    if child.check() {
                        return (done, child.stopped());
                    }
                    (k, line, child)
                };
                done.push((k, self.solve_line(child, line)));
            }
        };
        let results = match &self.pool {
            Some(pool) => pool.broadcast(|_| work()),
            None => vec![work()],
        };
        let mut slots: Vec<Option<LineAnswer>> = lines.iter().map(|_| None).collect();
        let mut stopped = None;
        for (done, stop) in results {
            stopped = stopped.or(stop);
            for (k, answer) in done {
                slots[k] = Some(answer);
            }
        }
        // A line is left unanswered only after a take found a limit struck, and every take
        // after it did: the answers are the first lines, with no gap.
        let answers: Vec<LineAnswer> = slots.into_iter().map_while(|a| a).collect();
        LineBatch { answers, stopped }
    }

    fn solve_line(&self, run: Run<'static>, line: &str) -> LineAnswer {
        let base = self.base;
        let givens = match read_sudoku_line(line, Some(base.n())) {
            Ok((_, g)) => g,
            Err(f) => return LineAnswer::Bad(f),
        };
        if let Some(cells) = sudoku_clash_in(&self.units, &givens) {
            return LineAnswer::Bad(LineFault::Clash {
                size: base.n(),
                cells,
                symbol: givens[cells.1],
            });
        }
        let model = kinds::Model::Sudoku(base.with_givens(givens));
        let mut first: Option<Vec<usize>> = None;
        let task = &self.task;
        let checked = model.solve_checked_with(&self.strategy, task, run, |sol: &[usize]| {
            if first.is_none() {
                first = Some(sol.to_vec());
            }
            ControlFlow::Continue(())
        });
        match checked {
            Ok(c) => LineAnswer::Searched {
                solution: first,
                count: c.outcome.answer.count.unwrap_or(c.outcome.stats.solutions),
                capped: c.outcome.count_capped(),
                stopped: c
                    .outcome
                    .stopped
                    .filter(|r| r.is_limit() || *r == StopReason::Solutions),
                nodes: c.outcome.stats.nodes,
            },
            Err(e) => LineAnswer::Failed(e),
        }
    }
}
