//! `bnb`: branch and bound on bitsets, and `bands`, the same search with the band bound.
//!
//! The search (`search`) branches on the uncovered square with the fewest candidate
//! coverers. The lower bound (`bound`) is Lagrangian, seeded at the root by a greedy
//! fractional packing and improved by subgradient steps at every node, its reduced costs
//! excluding or forcing squares; with `bands`, the band bound where that comes near
//! pruning. Under minimize, rules of replaceability (`replace`) drop nodes whose placements
//! all have twins in earlier branches, and symmetry (`symmetry`) is broken at the top of
//! the tree by corner cells and below it between siblings; counting needs every placement,
//! so it goes without them.
//!
//! The first incumbent comes from the model's greedy heuristic improved by a weighted local
//! search (see `local`), which finds the optimum of knights on every size up to 21x21 where
//! OEIS gives it, both variants: the search then only has to prove it. The proof (`parts`)
//! bounds the root, lists the subtrees below it, and searches them on `--threads` workers
//! sharing the incumbent (`pool`), or one part of them (`--part`), or estimates them
//! (`--estimate`, `estimate`).
//!
//! The files, from the bottom up: `stack` (the path from the root), `bound`, `replace`,
//! `symmetry`, `estimate`, `pool`; `search` (a node); `parts` (the proof); this file (the
//! strategies).

mod bound;
mod estimate;
mod parts;
mod pool;
mod replace;
mod search;
mod stack;
mod symmetry;
#[cfg(test)]
mod tests;

pub use parts::subtree_list;

use super::band::Bands;
use super::goals::{Searcher, Tally, drive};
use super::model::Model;
use super::vocab::{DominationNote, DominationRefusal};
use crate::engine::{Answer, Goal, Need, Note, Partial, Run, Task};
use crate::kinds::Strategy;
use search::{Aim, Search};

pub struct Bnb;

pub struct BnbBands;

impl Strategy<Model> for Bnb {
    fn name(&self) -> &'static str {
        "bnb"
    }
    fn about(&self) -> &'static str {
        "branch and bound on bitsets: fewest-coverers branching, Lagrangian bound and fixing, symmetry breaking"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        m.no_army()?;
        let split_count =
            task.goal == Goal::Count && task.part.is_some() && task.estimate.is_none();
        if split_count && task.optimum.is_none() {
            return Err(DominationRefusal::PartCountNeedsOptimum.into());
        }
        if task.partial() && task.goal != Goal::Minimize && !split_count {
            return Err(DominationRefusal::PartGoals.into());
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        drive(m, &mut Search::new(m, task), task, run)
    }
    fn splits(&self) -> bool {
        true
    }
    fn counts_at_optimum(&self) -> bool {
        true
    }
}

impl Strategy<Model> for BnbBands {
    fn name(&self) -> &'static str {
        "bands"
    }
    fn about(&self) -> &'static str {
        "bnb with the band bound: bands of rows covered exactly by dynamic programs; fewer nodes, each dearer"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        Bnb.applies(m, task)?;
        if Bands::new(m).is_none() {
            return Err(DominationRefusal::BandPiece.into());
        }
        Ok(())
    }
    fn needs(&self, m: &Model, task: &Task) -> Option<Need> {
        let threads = task.threads.max(1);
        let o = &m.tuning.bands;
        Some(Need::new(
            Bands::max_bytes(m) * threads as u64,
            format!(
                "the band programs at their caps (bands.max_states = {}, bands.max_choices = {}) \
                 on {threads} thread{}",
                o.max_states,
                o.max_choices,
                if threads == 1 { "" } else { "s" }
            ),
        ))
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        let mut s = Search::new(m, task);
        s.bounds.bands = Bands::new(m);
        drive(m, &mut s, task, run)
    }
    fn splits(&self) -> bool {
        true
    }
    fn counts_at_optimum(&self) -> bool {
        true
    }
}

impl<'m> Searcher<'m> for Search<'m> {
    fn minimize(&mut self, run: &mut Run) -> Option<Vec<usize>> {
        self.search_minimum(run);
        self.flush(run);
        self.best.take()
    }
    fn count(&mut self, k: usize, run: &mut Run) -> Tally<'m> {
        // Counting needs every placement: no symmetry breaking.
        self.aim = Aim::Count(k);
        self.start(run);
        self.flush(run);
        self.tally.take().expect("tally set for counting")
    }
    fn first(&mut self, run: &mut Run) -> Option<usize> {
        self.aim = Aim::First;
        self.start(run);
        self.flush(run);
        self.first_size
    }
    fn partial(&self) -> Option<Partial> {
        self.partial.clone()
    }
    fn count_part(&mut self, k: usize, run: &mut Run) -> (Tally<'m>, Option<Partial>) {
        self.search_count_part(k, run);
        self.flush(run);
        let tally = self.tally.take().expect("tally set for counting");
        (tally, self.partial.take())
    }
    fn notes(&self) -> Vec<Note> {
        // 0 until the root is bounded: a run stopped before that has no bound to report.
        let root_bound = self.bounds.root_bound;
        if root_bound == 0 {
            return Vec::new();
        }
        vec![DominationNote::RootBound(root_bound as u64).into()]
    }
}
