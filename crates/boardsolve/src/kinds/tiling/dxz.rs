//! `dxz`: the memoising exact-cover counter on the placements (see `dlx::Dxz`), as kind
//! cover runs it.

use super::Model;
use crate::dlx;
use crate::engine::{Answer, Refusal, Run, Task};
use crate::kinds::Strategy;
use crate::kinds::exact_cover::ExactCoverRefusal;

pub struct Dxz;

impl Strategy<Model> for Dxz {
    fn name(&self) -> &'static str {
        "dxz"
    }
    fn about(&self) -> &'static str {
        "Dancing Links with a memo of sub-problems and a ZDD of the solutions, over the \
         placements (no multiplicities)"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), Refusal> {
        if task.unique {
            return Err(super::TilingRefusal::MemoUnique.into());
        }
        if task.partial() {
            return Err(ExactCoverRefusal::MemoWhole.into());
        }
        dlx::Dxz::applies(&m.problem).map_err(|_| ExactCoverRefusal::MemoMultiplicities.into())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        crate::kinds::exact_cover::memo_solve(&m.problem, m.branch, task, run)
    }
}
