//! `bitmask`: the cover's options as bitsets, searched by the shared bitset search
//! (`kinds/bitset_cover.rs`), which `auto` runs where its tree is estimated the faster.

use super::Model;
use super::vocab::CoverRefusal;
use crate::engine::{Answer, Goal, Need, Run, Task};
use crate::kinds::{Strategy, bitset_cover};

pub struct Bitmask;

impl Strategy<Model> for Bitmask {
    fn name(&self) -> &'static str {
        "bitmask"
    }
    fn about(&self) -> &'static str {
        "options as bitsets of at most 512 items (no colours, no multiplicities), branching on \
         the first uncovered item of an order taken from the problem"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        if task.unique {
            return Err(CoverRefusal::Unique {
                break_in_options: true,
            }
            .into());
        }
        if matches!(task.goal, Goal::Minimize | Goal::Maximize) {
            return Err(CoverRefusal::NoObjective.into());
        }
        bitset_cover::refuses(&m.problem).map_or(Ok(()), |why| Err(why.into()))
    }
    fn needs(&self, m: &Model, _task: &Task) -> Option<Need> {
        Some(bitset_cover::need(&m.problem))
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        bitset_cover::solve(&m.problem, m.branch, task.threads, run)
    }
}

/// The strategies `auto` tries, in order (see [`bitset_cover::preference`]).
pub fn preference(m: &Model, task: &Task) -> &'static [&'static str] {
    let takes = Bitmask.applies(m, task).is_ok();
    bitset_cover::preference(takes, &m.problem, m.branch, task)
}
