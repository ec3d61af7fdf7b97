//! `dxz`: the memoising exact-cover counter (see `dlx::Dxz`): counts, and lists the
//! solutions from its diagram, for Algorithms X and C.

use super::Model;
use crate::dlx;
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::Strategy;

/// The memo's share of memory when no budget is given: most of what a machine has, as the
/// memo is all this strategy needs.
const DEFAULT_BUDGET: u64 = 8 << 30;

pub struct Dxz;

impl Strategy<Model> for Dxz {
    fn name(&self) -> &'static str {
        "dxz"
    }
    fn about(&self) -> &'static str {
        "Dancing Links with a memo of sub-problems and a ZDD of the solutions (X and C)"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), String> {
        if task.unique {
            return Err("a generic cover has no board symmetries to count under (--unique)".into());
        }
        if matches!(task.goal, Goal::Minimize | Goal::Maximize) {
            return Err("cover puzzles have no objective".into());
        }
        if task.partial() {
            return Err(
                "its memo is shared by the whole tree, so it searches no part (--part) and \
                 estimates nothing (--estimate); dlx does both"
                    .into(),
            );
        }
        dlx::Dxz::applies(&m.problem).map_err(str::to_string)
    }
    fn solve(&self, m: &Model, _task: &Task, run: &mut Run) -> Answer {
        let mut dxz = dlx::Dxz::new(&m.problem, DEFAULT_BUDGET);
        let result = dxz.count(run);
        run.stats
            .add_counter("memo entries", dxz.memo_entries() as u64);
        match result.count {
            Some(_) if run.reports_each() => dxz.enumerate(run),
            Some(c) => run.count(c),
            None if result.out_of_memory => run.out_of_memory(),
            None => {}
        }
        Answer::default()
    }
}
