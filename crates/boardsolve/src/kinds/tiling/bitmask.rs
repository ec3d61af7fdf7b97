//! `bitmask`: the placements as bitsets of the board's cells and the pieces, searched as kind
//! cover's `bitmask` searches an exact cover (`kinds/bitset_cover.rs`): the first
//! uncovered cell of an order that sweeps the board from a corner, the pieces last.

use super::{Model, TilingRefusal};
use crate::engine::{Answer, Need, Refusal, Run, Task};
use crate::kinds::Strategy;
use crate::kinds::bitset_cover as bitmask;

pub struct Bitmask;

impl Strategy<Model> for Bitmask {
    fn name(&self) -> &'static str {
        "bitmask"
    }
    fn about(&self) -> &'static str {
        "placements as bitsets of at most 512 cells and pieces (each piece once), filling the \
         first empty cell of a sweep of the board"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), Refusal> {
        if task.unique {
            return Err(TilingRefusal::BitmaskUnique.into());
        }
        bitmask::refuses(&m.problem).map_or(Ok(()), |why| Err(why.into()))
    }
    fn needs(&self, m: &Model, _task: &Task) -> Option<Need> {
        Some(bitmask::need(&m.problem))
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        bitmask::solve(&m.problem, m.branch, task.threads, run)
    }
}

/// The strategies `auto` tries, in order (see [`bitmask::preference`]).
pub fn preference(m: &Model, task: &Task) -> &'static [&'static str] {
    let takes = Bitmask.applies(m, task).is_ok();
    bitmask::preference(takes, &m.problem, m.branch, task)
}
