//! `dxz`: the memoising exact-cover counter (see `dlx::Dxz`): counts, and lists the
//! solutions from its diagram, for Algorithms X and C.

use super::Model;
use super::vocab::CoverRefusal;
use crate::dlx;
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::Strategy;
use crate::kinds::exact_cover::{self, ExactCoverRefusal};

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
            return Err(ExactCoverRefusal::MemoWhole.into());
        }
        dlx::Dxz::applies(&m.problem).map_err(|_| ExactCoverRefusal::MemoMultiplicities.into())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        exact_cover::memo_solve(&m.problem, m.branch, task, run)
    }
}
