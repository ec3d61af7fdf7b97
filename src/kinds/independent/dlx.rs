//! `dlx`: the placement as an exact cover on the Dancing Links core. Each square is an
//! option; each line segment a piece rides is an item (primary when every segment must hold
//! a piece, as rows and columns do for N-Queens; secondary otherwise), and each attacking pair
//! not on a shared segment a secondary item. When no item forces the count, a primary item
//! with multiplicity [count, count] in every option does (Algorithm M).

use super::{Emitter, Model};
use crate::dlx::{Problem, Solver};
use crate::engine::{Answer, Goal, Run, Task};
use crate::kinds::Strategy;

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
    fn applies(&self, m: &Model, task: &Task) -> Result<(), String> {
        if task.goal == Goal::Maximize {
            return Err("goal maximize is served by backtrack and bitmask".into());
        }
        let pairs: usize = m
            .cells
            .iter()
            .map(|&s| m.attacks.row_count(s))
            .sum::<usize>()
            / 2;
        if pairs > MAX_ITEMS {
            return Err(format!(
                "{pairs} attacking pairs would be items; at most {MAX_ITEMS}"
            ));
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        let problem = build(m);
        let mut emit = Emitter::new(m, task);
        let mut squares = Vec::with_capacity(m.count);
        Solver::new(&problem).search_with(run, &mut |run: &mut Run, options: &[usize]| {
            squares.clear();
            squares.extend(options.iter().map(|&k| m.cells[k]));
            emit.emit(run, &squares)
        });
        Answer::default()
    }
}

/// 0, then alternately above and below the middle: Knuth's order for N-Queens rows and
/// columns, so that most-constrained middle lines are tried first on ties.
fn organ_pipe(n: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(n);
    if n == 0 {
        return out;
    }
    let mid = (n - 1) / 2;
    out.push(mid);
    for d in 1..n {
        if mid + d < n {
            out.push(mid + d);
        }
        if d <= mid {
            out.push(mid - d);
        }
    }
    out
}

fn build(m: &Model) -> Problem {
    let b = &m.board;
    let n = b.squares();
    let mut steps: Vec<(i32, i32)> = Vec::new();
    if m.piece.rides_unlimited((1, 0)) {
        steps.extend([(0, 1), (1, 0)]);
    }
    if m.piece.rides_unlimited((1, 1)) {
        steps.extend([(1, 1), (1, -1)]);
    }
    // Segments per line direction, as in `flags`.
    let mut seg = vec![u32::MAX; steps.len() * n];
    let mut seg_count = vec![0u32; steps.len()];
    for (d, &(dr, dc)) in steps.iter().enumerate() {
        for s in b.cells() {
            seg[d * n + s] = match b.step(s, -dr, -dc) {
                Some(p) => seg[d * n + p],
                None => {
                    seg_count[d] += 1;
                    seg_count[d] - 1
                }
            };
        }
    }
    let mut problem = Problem::new();
    // item_of[d][segment]
    let mut item_of: Vec<Vec<usize>> = vec![Vec::new(); steps.len()];
    let rows_cols = steps.len().min(2);
    let mut forced = false;
    for d in 0..rows_cols {
        // Every row (column) segment holds exactly one piece when there are as many pieces
        // as segments: then the segments are primary.
        if seg_count[d] as usize == m.count {
            forced = true;
            item_of[d] = vec![0; m.count];
            for k in organ_pipe(m.count) {
                item_of[d][k] = problem.add_primary(format!("line{d}.{k}"));
            }
        }
    }
    let count_item = (!forced).then(|| {
        let c = m.count as u32;
        problem.add_primary_range("count", c, c)
    });
    for d in 0..steps.len() {
        if item_of[d].is_empty() {
            item_of[d] = (0..seg_count[d])
                .map(|k| problem.add_secondary(format!("line{d}.{k}")))
                .collect();
        }
    }
    // Attacking pairs the shared segments do not already exclude.
    let mut pair_items: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &a in &m.cells {
        for t in m.attacks.row(a).iter().enumerate().flat_map(|(j, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros() as usize;
                    w &= w - 1;
                    j * 64 + bit
                })
            })
        }) {
            if t <= a {
                continue;
            }
            let shared = (0..steps.len()).any(|d| seg[d * n + a] == seg[d * n + t]);
            if !shared {
                let k = problem.add_secondary(format!("pair{a}.{t}"));
                pair_items[a].push(k);
                pair_items[t].push(k);
            }
        }
    }
    let mut opt = Vec::new();
    for &s in &m.cells {
        opt.clear();
        for d in 0..steps.len() {
            opt.push((item_of[d][seg[d * n + s] as usize], 0));
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
        assert_eq!(super::organ_pipe(8)[..2], [3, 4]);
    }
}
