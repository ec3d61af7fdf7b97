//! What the kinds that compile to one exact cover (cover, tiling) share beyond the parts of
//! a search (dlx_parts.rs): the memoised count of `dxz` and the words of their refusals and
//! notes.

use crate::dlx;
use crate::engine::{Answer, Run, Task, Vocabulary};

/// Why an exact-cover strategy does not take a puzzle, whichever kind compiled it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExactCoverRefusal {
    /// `--branch first` with multiplicities: Algorithm M branches on its own rule.
    BranchFirstMultiplicities,
    /// `dxz`'s memo serves the whole tree: no `--part`, no `--estimate`.
    MemoWhole,
    /// `dxz`'s memo is not exact with multiplicities.
    MemoMultiplicities,
    /// `bitmask`: an option colours a secondary item (Algorithm C's sharing).
    BitmaskColours,
    /// `bitmask`: a primary item has a multiplicity other than [1, 1] (Algorithm M).
    BitmaskMultiplicities,
    /// `bitmask`: more items than its bitsets hold.
    BitmaskItems { items: usize, max: usize },
}

impl Vocabulary for ExactCoverRefusal {}

/// A fact about how a memoised count ended, for the summary line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoNote {
    /// `what` reached the memory budget of `budget` bytes: the run stopped there.
    BudgetReached { what: &'static str, budget: u64 },
    /// The system refused `what` more memory, within the budget: the run stopped there.
    SystemRefused { what: &'static str },
}

impl Vocabulary for MemoNote {}

/// The memo's bound when no budget is given (`Task::memory` is `None`): the memo stops
/// somewhere, and a library caller who wants more says so.
const UNBUDGETED: u64 = 8 << 30;

/// Count (or list) the solutions of `problem` with the memo, within the task's memory
/// budget: the search of the kinds that compile to one exact cover. A count that reaches
/// 2^128 - 1, where the counters saturate, is that count and a stop at the counters' limit
/// (at least so many).
pub fn memo_solve(
    problem: &dlx::Problem,
    branch: dlx::Branch,
    task: &Task,
    run: &mut Run,
) -> Answer {
    let budget = task.memory.unwrap_or(UNBUDGETED);
    let mut answer = Answer::default();
    let out_of_memory =
        |run: &mut Run, answer: &mut Answer, what: &'static str, short: dlx::Short| {
            run.out_of_memory();
            answer.notes.push(
                match short {
                    dlx::Short::Budget => MemoNote::BudgetReached { what, budget },
                    dlx::Short::System => MemoNote::SystemRefused { what },
                }
                .into(),
            );
        };
    let counted = |run: &mut Run, c: u128| {
        run.count(c);
        if c == u128::MAX {
            run.counter_full();
        }
    };
    if branch == dlx::Branch::First
        && !run.reports_each()
        && let Some(r) = count_by_levels(problem, budget, run)
    {
        run.stats.add_counter("memo entries", r.entries);
        match (r.count, r.out_of_memory) {
            (Some(c), _) => counted(run, c),
            (None, Some(short)) => {
                out_of_memory(run, &mut answer, "the levels of sub-problems", short)
            }
            (None, None) => {}
        }
        return answer;
    }
    let mut dxz = dlx::Dxz::new(problem, branch, budget);
    let result = dxz.count(run);
    run.stats
        .add_counter("memo entries", dxz.memo_entries() as u64);
    match (result.count, result.out_of_memory) {
        // Solutions one by one come from the diagram, whatever their number: a walk stops
        // at a solution limit, or at the first solution.
        (Some(_), _) if run.reports_each() => dxz.enumerate(run),
        (Some(c), _) => counted(run, c),
        (None, Some(short)) => out_of_memory(run, &mut answer, "the memo of sub-problems", short),
        (None, None) => {}
    }
    answer
}

/// The count level by level ([`dlx::Levels`]), where the problem's items fit its words (and
/// it has no colours): the sub-problems the memo would search, each once, in sequential
/// passes. `None` where it does not fit.
fn count_by_levels(problem: &dlx::Problem, budget: u64, run: &mut Run) -> Option<dlx::LevelCount> {
    if dlx::Levels::<1>::fits(problem) {
        Some(dlx::Levels::<1>::new(problem, budget).count(run))
    } else if dlx::Levels::<2>::fits(problem) {
        Some(dlx::Levels::<2>::new(problem, budget).count(run))
    } else if dlx::Levels::<4>::fits(problem) {
        Some(dlx::Levels::<4>::new(problem, budget).count(run))
    } else {
        None
    }
}
