//! The goals on a domination search: what every strategy shares to answer minimize, count
//! and first. A strategy implements [`Searcher`] (its three searches); [`drive`] turns the
//! task's goal into calls of them and their results into an [`Answer`]; a [`Tally`] counts
//! the placements a search reports (one per class under `--unique`).

use super::model::Model;
use super::vocab::DominationNote;
use crate::engine::{Answer, Goal, Note, Partial, Run, Task};
use crate::kinds::report::Placements;

/// What a search reports placements to: counts them (one per class under `--unique`),
/// forwards them to the run, and keeps one.
pub struct Tally<'m> {
    placements: Placements<'m>,
    pub count: u128,
    pub kept: Option<Vec<usize>>,
}

impl<'m> Tally<'m> {
    pub fn new(m: &'m Model, task: &Task) -> Tally<'m> {
        Tally {
            placements: match &m.army {
                // Codes of several pieces, under the symmetries that keep the givens.
                Some(a) => Placements::new(&a.code_symmetries, a.troops.len() * a.squares, task),
                None => Placements::new(&m.symmetries, m.cells.len(), task),
            },
            count: 0,
            kept: None,
        }
    }

    /// Count one placement; `true` means stop.
    pub fn add(&mut self, run: &mut Run, squares: &[usize]) -> bool {
        let Some(sorted) = self.placements.canonical(squares) else {
            return false;
        };
        self.count += 1;
        if self.kept.is_none() {
            self.kept = Some(sorted.to_vec());
        }
        run.report(sorted)
    }
}

/// What a search is after, as each [`Searcher`] records it for its inner loop.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Find placements smaller than `best`.
    Minimize,
    /// Report every placement of exactly this many pieces.
    Count(usize),
    /// Stop at the first covering placement.
    First,
}

/// A domination search as the goals drive it (see [`drive`]).
pub trait Searcher<'m> {
    /// The smallest covering placement, the best so far when a limit stops the search.
    fn minimize(&mut self, run: &mut Run) -> Option<Vec<usize>>;
    /// Every covering placement of exactly `k` pieces, counted (and reported) by a tally.
    fn count(&mut self, k: usize, run: &mut Run) -> Tally<'m>;
    /// The first covering placement met, reported to the run; its size.
    fn first(&mut self, run: &mut Run) -> Option<usize>;
    /// What a split or estimated minimize did (`--part`, `--estimate`), for the answer line.
    fn partial(&self) -> Option<Partial> {
        None
    }
    /// The placements of exactly `k` pieces (the optimum, given) in the part of the count's
    /// tree the task asks for (`--part`), and what the part did.
    fn count_part(&mut self, k: usize, run: &mut Run) -> (Tally<'m>, Option<Partial>) {
        (self.count(k, run), None)
    }
    /// Notes for the summary after minimize (a bound, say).
    fn notes(&self) -> Vec<Note> {
        Vec::new()
    }
}

/// The goals on any searcher of the model `m`: minimize, count (minimize, then count at the
/// optimum), first.
pub fn drive<'m>(m: &Model, s: &mut impl Searcher<'m>, task: &Task, run: &mut Run) -> Answer {
    match task.goal {
        Goal::First => first_answer(m, s.first(run)),
        Goal::Count if task.part.is_some() => {
            // The second phase alone, at the optimum the first phase proved.
            let k = task.optimum.expect("a split count takes its optimum") as usize;
            let (tally, partial) = s.count_part(k, run);
            let mut a = count_answer(k, tally);
            a.partial = partial;
            a
        }
        Goal::Count => {
            let best = s.minimize(run);
            if run.is_stopped() {
                return minimum_answer(m, best);
            }
            let Some(best) = best else {
                return minimum_answer(m, None);
            };
            let tally = s.count(best.len(), run);
            count_answer(best.len(), tally)
        }
        _ => {
            let mut a = minimum_answer(m, s.minimize(run));
            a.partial = s.partial();
            a.notes.extend(s.notes());
            a
        }
    }
}

/// The answer to goal minimize: the best placement and its size.
fn minimum_answer(m: &Model, best: Option<Vec<usize>>) -> Answer {
    match best {
        Some(mut b) => {
            b.sort_unstable();
            Answer {
                optimum: Some(b.len() as u64),
                best: Some(b),
                ..Answer::default()
            }
        }
        None => Answer::none_because(m.no_cover()),
    }
}

/// The answer to goal count: how many optimal placements, the optimum, one of them.
fn count_answer(optimum: usize, tally: Tally) -> Answer {
    Answer {
        count: Some(tally.count),
        optimum: Some(optimum as u64),
        best: tally.kept,
        notes: vec![DominationNote::OptimalCounted(optimum as u64).into()],
        ..Answer::default()
    }
}

/// The answer to goal first: a covering placement went to the sink; say its size.
fn first_answer(m: &Model, found: Option<usize>) -> Answer {
    match found {
        Some(k) => Answer {
            notes: vec![DominationNote::NotProvenMinimal(k).into()],
            ..Answer::default()
        },
        None => Answer::none_because(m.no_cover()),
    }
}
