//! `backtrack` and `dlx` on a puzzle with givens or several pieces ([`Army`]): a placement
//! is a list of codes (piece and square), the givens are part of every one, and under
//! `--unique` only the symmetries that keep the givens (each on its piece) are used.

use super::Model;
use super::vocab::IndependentRefusal;
use crate::dlx::{Problem, Solver};
use crate::engine::{Answer, Goal, Refusal, Run, Standing, Task};
use crate::kinds::army::Army;
use crate::kinds::dlx_parts;
use crate::kinds::report::Placements;

/// Items beyond this make the exact cover too large to be worth building.
const MAX_ITEMS: usize = 5_000_000;

/// Whether `backtrack` or `dlx` (`exact`) takes the army's task.
pub fn applies(m: &Model, task: &Task, exact: bool) -> Result<(), Refusal> {
    if task.partial() {
        return Err(IndependentRefusal::ArmyInParts.into());
    }
    if exact {
        if task.goal == Goal::Maximize {
            return Err(Refusal::Goal {
                goal: Goal::Maximize,
                served_by: &["backtrack"],
            });
        }
        let (a, whole) = (army(m), m.whole());
        let codes = candidates(m, a).len();
        let pairs = codes.saturating_mul(a.troops.len() * whole.cells.len()) / 2;
        if pairs > MAX_ITEMS {
            return Err(IndependentRefusal::TooManyPairs {
                pairs,
                max: MAX_ITEMS,
            }
            .into());
        }
    }
    Ok(())
}

fn army(m: &Model) -> &Army {
    m.army
        .as_ref()
        .expect("the army strategies run on a model with one")
}

/// Each piece's count range as the goal reads it: maximize looks for the most pieces that
/// keep to the ranges of several pieces; one piece (with givens) is then bounded by the
/// board alone, as without givens.
fn bounds(m: &Model, a: &Army, goal: Goal) -> Vec<(usize, usize)> {
    a.troops
        .iter()
        .map(|t| {
            if goal == Goal::Maximize && !a.mixed {
                (0, m.whole().cells.len())
            } else {
                (t.lo, t.hi)
            }
        })
        .collect()
}

/// The codes a search may add: a piece that may still be placed, on a cell that no given
/// holds or conflicts with.
fn candidates(m: &Model, a: &Army) -> Vec<usize> {
    let given = a.given_counts();
    a.codes(&m.whole().cells)
        .filter(|&c| {
            let t = c / a.squares;
            given[t] < a.troops[t].hi && !a.givens.iter().any(|&g| a.conflict(g, c))
        })
        .collect()
}

/// Cells in index order, each with the codes it may take.
fn by_cell(m: &Model, a: &Army) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); a.squares];
    for c in candidates(m, a) {
        out[c % a.squares].push(c);
    }
    m.whole()
        .cells
        .iter()
        .map(|&s| std::mem::take(&mut out[s]))
        .filter(|codes| !codes.is_empty())
        .collect()
}

/// `backtrack`: cell by cell, each left empty or given one of the pieces it may take that
/// conflicts with none placed; a placement is complete when the cells run out (or every
/// piece is at its most) with every piece at least at its least.
pub fn backtrack(m: &Model, task: &Task, run: &mut Run) -> Answer {
    let a = army(m);
    let mut s = Search {
        army: a,
        cells: by_cell(m, a),
        bounds: bounds(m, a, task.goal),
        placed: a.givens.clone(),
        count: a.given_counts(),
        emit: Placements::new(&a.code_symmetries, a.troops.len() * a.squares, task),
        maximize: task.goal == Goal::Maximize,
        best: None,
    };
    s.go(0, run);
    match s.best {
        Some(best) if s.maximize => Answer {
            optimum: Some(best.len() as u64),
            best: Some(best),
            ..Answer::default()
        },
        _ => Answer::default(),
    }
}

struct Search<'m> {
    army: &'m Army,
    cells: Vec<Vec<usize>>,
    bounds: Vec<(usize, usize)>,
    placed: Vec<usize>,
    count: Vec<usize>,
    emit: Placements<'m>,
    maximize: bool,
    /// Maximize: the largest placement so far.
    best: Option<Vec<usize>>,
}

impl Search<'_> {
    /// Pieces still owed to the least counts.
    fn owed(&self) -> usize {
        self.bounds
            .iter()
            .zip(&self.count)
            .map(|(&(lo, _), &k)| lo.saturating_sub(k))
            .sum()
    }

    fn full(&self) -> bool {
        self.bounds
            .iter()
            .zip(&self.count)
            .all(|(&(_, hi), &k)| k == hi)
    }

    /// Returns `true` to stop.
    fn go(&mut self, i: usize, run: &mut Run) -> bool {
        let left = self.cells.len() - i;
        if self.owed() > left {
            return false;
        }
        if self.maximize {
            let most = self.placed.len() + left;
            if self.best.as_ref().is_some_and(|b| most <= b.len()) {
                return false;
            }
            if self.owed() == 0
                && self
                    .best
                    .as_ref()
                    .is_none_or(|b| self.placed.len() > b.len())
            {
                self.best = Some(self.placed.clone());
                run.set_standing(Standing {
                    best: Some(self.placed.len() as u64),
                    ..Standing::default()
                });
            }
        }
        if i == self.cells.len() || self.full() {
            return !self.maximize && self.emit.emit(run, &self.placed);
        }
        for k in 0..self.cells[i].len() {
            let c = self.cells[i][k];
            let t = c / self.army.squares;
            if self.count[t] == self.bounds[t].1
                || self.placed.iter().any(|&p| self.army.conflict(p, c))
            {
                continue;
            }
            if run.node() {
                return true;
            }
            self.placed.push(c);
            self.count[t] += 1;
            let stop = self.go(i + 1, run);
            self.count[t] -= 1;
            self.placed.pop();
            if stop {
                return true;
            }
        }
        self.go(i + 1, run)
    }
}

/// `dlx`: each code a search may add is an option; each piece a primary item with the range
/// of pieces left to it after its givens; each square a secondary item (one piece a square)
/// where there are several pieces; each pair of codes in conflict on two squares a secondary
/// item.
pub fn dlx(m: &Model, task: &Task, run: &mut Run) -> Answer {
    let a = army(m);
    let mut emit = Placements::new(&a.code_symmetries, a.troops.len() * a.squares, task);
    let (problem, codes) = build(m, a);
    let Some(problem) = problem else {
        // Nothing left to place: the givens are the one placement, when they are enough.
        let given = a.given_counts();
        if a.troops.iter().zip(&given).all(|(t, &g)| g >= t.lo) {
            emit.emit(run, &a.givens);
        }
        return Answer::default();
    };
    let mut solver = Solver::new(&problem);
    if !task.unique && !run.wants_solutions() {
        return dlx_parts::search(&mut solver, task, run);
    }
    let mut placed = Vec::with_capacity(a.givens.len() + codes.len());
    solver.search_with(run, &mut |run: &mut Run, options: &[usize]| {
        placed.clear();
        placed.extend_from_slice(&a.givens);
        placed.extend(options.iter().map(|&k| codes[k]));
        emit.emit(run, &placed)
    });
    Answer::default()
}

/// The exact cover `dlx` searches, for writing it out; `None` where the givens leave no
/// piece to place.
pub fn exact_cover(m: &Model) -> Option<Problem> {
    build(m, army(m)).0
}

/// The exact cover and the code of each option; no problem where no piece may be added.
fn build(m: &Model, a: &Army) -> (Option<Problem>, Vec<usize>) {
    let codes = candidates(m, a);
    let given = a.given_counts();
    let mut problem = Problem::new();
    let troop_item: Vec<Option<usize>> = a
        .troops
        .iter()
        .enumerate()
        .map(|(t, troop)| {
            let hi = troop.hi.saturating_sub(given[t]);
            let lo = troop.lo.saturating_sub(given[t]);
            (hi > 0 && codes.iter().any(|&c| c / a.squares == t))
                .then(|| problem.add_primary_range(format!("piece{t}"), lo as u32, hi as u32))
        })
        .collect();
    // A piece owed more than its squares allow, or owed with nowhere to go: no placement.
    for (t, troop) in a.troops.iter().enumerate() {
        if troop_item[t].is_none() && troop.lo > given[t] {
            // An item no option covers: the search finds nothing, as it should.
            problem.add_primary(format!("piece{t}"));
        }
    }
    if problem.num_primary() == 0 {
        return (None, codes);
    }
    let mut square_item = vec![usize::MAX; a.squares];
    if a.troops.len() > 1 {
        for &c in &codes {
            let s = c % a.squares;
            if square_item[s] == usize::MAX {
                square_item[s] = problem.add_secondary(format!("sq{s}"));
            }
        }
    }
    let mut pair_items: Vec<Vec<usize>> = vec![Vec::new(); codes.len()];
    for i in 0..codes.len() {
        for j in i + 1..codes.len() {
            let (x, y) = (codes[i], codes[j]);
            if x % a.squares != y % a.squares && a.conflict(x, y) {
                let k = problem.add_secondary(format!("pair{x}.{y}"));
                pair_items[i].push(k);
                pair_items[j].push(k);
            }
        }
    }
    let mut opt = Vec::new();
    for (i, &c) in codes.iter().enumerate() {
        let (t, s) = a.split(c);
        let item = troop_item[t].expect("a candidate's piece may take more, so it has an item");
        opt.clear();
        opt.push((item, 0));
        if square_item[s] != usize::MAX {
            opt.push((square_item[s], 0));
        }
        opt.extend(pair_items[i].iter().map(|&k| (k, 0)));
        problem
            .add_option(&opt)
            .expect("options built from distinct declared items");
    }
    (Some(problem), codes)
}
