//! `dxz`: the memoising exact-cover counter on the placements (see `dlx::Dxz`), as kind
//! cover runs it.

use super::Model;
use crate::dlx;
use crate::engine::{Answer, Refusal, Run, Task};
use crate::kinds::Strategy;

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
            return Err(
                "its memo counts the whole problem; --unique compares solutions with their \
                 images, which dlx does"
                    .into(),
            );
        }
        if task.partial() {
            return Err(
                "its memo is shared by the whole tree, so it searches no part (--part) and \
                 estimates nothing (--estimate); dlx does both"
                    .into(),
            );
        }
        dlx::Dxz::applies(&m.problem).map_err(Into::into)
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        crate::kinds::cover::dxz::solve(&m.problem, m.branch, task, run)
    }
}
