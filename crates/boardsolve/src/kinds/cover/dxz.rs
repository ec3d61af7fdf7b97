//! `dxz`: the memoising exact-cover counter (see `dlx::Dxz`): counts, and lists the
//! solutions from its diagram, for Algorithms X and C.

use super::Model;
use super::vocab::{CoverNote, CoverRefusal};
use crate::dlx;
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::Strategy;

/// The memo's bound when no budget is given (`Task::memory` is `None`): the memo stops
/// somewhere, and a library caller who wants more says so.
const UNBUDGETED: u64 = 8 << 30;

pub struct Dxz;

impl Strategy<Model> for Dxz {
    fn name(&self) -> &'static str {
        "dxz"
    }
    fn about(&self) -> &'static str {
        "Dancing Links with a memo of sub-problems and a ZDD of the solutions (X and C); \
         with --branch first, a count goes level by level"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        if task.unique {
            return Err(CoverRefusal::Unique {
                break_in_options: false,
            }
            .into());
        }
        if matches!(task.goal, Goal::Minimize | Goal::Maximize) {
            return Err(CoverRefusal::NoObjective.into());
        }
        if task.partial() {
            return Err(CoverRefusal::MemoWhole.into());
        }
        dlx::Dxz::applies(&m.problem).map_err(|_| CoverRefusal::MemoMultiplicities.into())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        solve(&m.problem, m.branch, task, run)
    }
}

/// Count (or list) the solutions of `problem` with the memo, within the task's memory
/// budget: the search of the kinds that compile to one exact cover.
pub(crate) fn solve(
    problem: &dlx::Problem,
    branch: dlx::Branch,
    task: &Task,
    run: &mut Run,
) -> Answer {
    let budget = task.memory.unwrap_or(UNBUDGETED);
    let mut answer = Answer::default();
    let out_of_memory = |run: &mut Run, answer: &mut Answer, what: &'static str| {
        run.out_of_memory();
        answer
            .notes
            .push(CoverNote::BudgetReached { what, budget }.into());
    };
    if branch == dlx::Branch::First
        && !run.reports_each()
        && let Some(r) = count_by_levels(problem, budget, run)
    {
        run.stats.add_counter("memo entries", r.entries);
        match r.count {
            Some(c) => run.count(c),
            None if r.out_of_memory => {
                out_of_memory(run, &mut answer, "the levels of sub-problems")
            }
            None => {}
        }
        return answer;
    }
    let mut dxz = dlx::Dxz::new(problem, branch, budget);
    let result = dxz.count(run);
    run.stats
        .add_counter("memo entries", dxz.memo_entries() as u64);
    match result.count {
        Some(_) if run.reports_each() => dxz.enumerate(run),
        Some(c) => run.count(c),
        None if result.out_of_memory => out_of_memory(run, &mut answer, "the memo of sub-problems"),
        None => {}
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
