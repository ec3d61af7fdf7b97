//! `dlx`: the placement as an exact cover on the Dancing Links core. Each square is an
//! option; each line segment a piece rides is an item (primary when every segment must hold
//! a piece, as rows and columns do for N-Queens; secondary otherwise), and each attacking pair
//! not on a shared segment a secondary item. When no item forces the count, a primary item
//! with multiplicity [count, count] in every option does (Algorithm M).

use super::Model;
use super::vocab::IndependentRefusal;
use crate::dlx::{Problem, Solver};
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::report::Placements;
use crate::kinds::{Strategy, dlx_parts};

pub struct Dlx;

/// Items beyond this make the model too large to be worth building.
const MAX_ITEMS: usize = 5_000_000;

impl Strategy<Model> for Dlx {
    fn name(&self) -> &'static str {
        "dlx"
    }
    fn about(&self) -> &'static str {
        "exact cover on Dancing Links: lines as items, attacking pairs as secondary items"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        if m.army.is_some() {
            m.whole_board()?;
            super::largest_fits(m, task, false, false)?;
            return super::army::applies(m, task, true);
        }
        if task.goal == Goal::Maximize {
            return Err(crate::engine::Refusal::Goal {
                goal: Goal::Maximize,
                served_by: &["backtrack", "bitmask"],
            });
        }
        let whole = m.whole_board()?;
        super::largest_fits(m, task, false, false)?;
        let pairs: usize = whole
            .cells
            .iter()
            .map(|&s| whole.attacks.row_count(s))
            .sum::<usize>()
            / 2;
        if pairs > MAX_ITEMS {
            return Err(IndependentRefusal::TooManyPairs {
                pairs,
                max: MAX_ITEMS,
            }
            .into());
        }
        if let Some(why) = dlx_parts::refuses(task) {
            return Err(why);
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if m.army.is_some() {
            return super::army::dlx(m, task, run);
        }
        let whole = m.whole();
        let problem = build(m);
        let mut solver = Solver::new(&problem);
        if !task.unique && !run.wants_solutions() {
            // Plain counting: no solution needs mapping back to squares.
            return dlx_parts::search(&mut solver, task, run);
        }
        let mut emit = Placements::new(&whole.symmetries, whole.cells.len(), task);
        let mut squares = Vec::with_capacity(m.count);
        let mut visit = |run: &mut Run, options: &[usize]| {
            squares.clear();
            squares.extend(options.iter().map(|&k| whole.cells[k]));
            emit.emit(run, &squares)
        };
        dlx_parts::search_each(&mut solver, task, run, &mut visit)
    }
    fn splits(&self) -> bool {
        true
    }
}

/// The exact cover this strategy searches, for writing it out; `Err` when the strategy does
/// not take the puzzle with goal `goal`.
pub fn exact_cover(m: &Model, goal: Goal) -> Result<Problem, crate::engine::Refusal> {
    let task = Task {
        goal,
        ..Task::default()
    };
    Dlx.applies(m, &task)?;
    if m.army.is_some() {
        return super::army::exact_cover(m).ok_or(IndependentRefusal::NothingToPlace.into());
    }
    Ok(build(m))
}

/// Knuth's "organ pipe" order for N-Queens rows and columns, from the centre outwards
/// (n = 8: 4 3 5 2 6 1 7 0): ties in the MRV choice then go to the most constrained middle
/// lines, and the node counts match his DLX1 figures.
fn organ_pipe(n: usize) -> Vec<usize> {
    (0..n)
        .map(|j| (if j % 2 == 1 { n - 1 - j } else { n + j }) >> 1)
        .collect()
}

fn build(m: &Model) -> Problem {
    let whole = m.whole();
    let b = &m.board;
    let n = b.squares();
    let lines = m.segments();
    let (seg, seg_count) = (&lines.seg, &lines.count);
    let mut seg_len: Vec<Vec<u32>> = seg_count.iter().map(|&c| vec![0; c as usize]).collect();
    for (d, lens) in seg_len.iter_mut().enumerate() {
        for s in b.cells() {
            lens[seg[d * n + s] as usize] += 1;
        }
    }
    let mut problem = Problem::new();
    // item_of[d][segment]; NONE for a one-square segment, which constrains nothing.
    const NONE: usize = usize::MAX;
    let mut item_of: Vec<Vec<usize>> = vec![Vec::new(); lines.dirs];
    // Every row (column) segment holds exactly one piece when there are as many pieces as
    // segments (for queens: the rows and the columns): then the segments are primary,
    // interleaved as Knuth does.
    let primary: Vec<usize> = (0..lines.dirs)
        .filter(|&d| seg_count[d] as usize == m.count)
        .collect();
    for &d in &primary {
        item_of[d] = vec![NONE; m.count];
    }
    for k in organ_pipe(m.count) {
        for &d in &primary {
            item_of[d][k] = problem.add_primary(format!("line{d}.{k}"));
        }
    }
    let count_item = primary.is_empty().then(|| {
        let c = m.count as u32;
        problem.add_primary_range("count", c, c)
    });
    for d in 0..lines.dirs {
        if item_of[d].is_empty() {
            item_of[d] = (0..seg_count[d] as usize)
                .map(|k| {
                    if seg_len[d][k] >= 2 {
                        problem.add_secondary(format!("line{d}.{k}"))
                    } else {
                        NONE
                    }
                })
                .collect();
        }
    }
    // Attacking pairs the shared segments do not already exclude.
    let mut pair_items: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &a in &whole.cells {
        for t in crate::util::ones(whole.attacks.row(a)) {
            if t <= a {
                continue;
            }
            let shared = (0..lines.dirs).any(|d| seg[d * n + a] == seg[d * n + t]);
            if !shared {
                let k = problem.add_secondary(format!("pair{a}.{t}"));
                pair_items[a].push(k);
                pair_items[t].push(k);
            }
        }
    }
    let mut opt = Vec::new();
    for &s in &whole.cells {
        opt.clear();
        for (d, items) in item_of.iter().enumerate() {
            let item = items[seg[d * n + s] as usize];
            if item != NONE {
                opt.push((item, 0));
            }
        }
        if let Some(c) = count_item {
            opt.push((c, 0));
        }
        opt.extend(pair_items[s].iter().map(|&k| (k, 0)));
        problem
            .add_option(&opt)
            .expect("options built from distinct declared items");
    }
    problem
}

#[cfg(test)]
mod tests {
    #[test]
    fn organ_pipe_is_a_permutation() {
        for n in 1..12 {
            let mut p = super::organ_pipe(n);
            p.sort_unstable();
            assert_eq!(p, (0..n).collect::<Vec<_>>());
        }
        assert_eq!(super::organ_pipe(8), [4, 3, 5, 2, 6, 1, 7, 0]);
    }
}
