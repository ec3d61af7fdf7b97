//! `dlx`: domination on the Dancing Links core (Algorithm M). Every square is a primary item
//! to be covered between 1 and as many times as it has coverers; an option per square holds
//! the squares a piece there covers, a `count` item, and under `independent` a secondary item
//! for each attacking pair it belongs to. The `count` item's range bounds the number of
//! pieces: minimize finds any cover, then asks again for fewer pieces until none exists
//! (the last search is the proof); count asks for exactly the optimum and enumerates.

use super::goals::{Searcher, Tally, drive};
use super::model::Model;
use crate::dlx::{Problem, Solver};
use crate::engine::{Answer, Need, Run, Standing, Task};
use crate::kinds::Strategy;

pub struct Dlx;

fn incidences(m: &Model) -> usize {
    m.cells
        .iter()
        .map(|&s| 1 + m.cover.row_count(s) + m.conflict.row_count(s))
        .sum()
}

impl Strategy<Model> for Dlx {
    fn name(&self) -> &'static str {
        "dlx"
    }
    fn about(&self) -> &'static str {
        "Dancing Links with multiplicities: squares covered 1..k times, a count item bounding the pieces"
    }
    fn applies(&self, _m: &Model, _task: &Task) -> Result<(), crate::engine::Refusal> {
        Ok(())
    }
    fn needs(&self, m: &Model, _task: &Task) -> Option<Need> {
        // An item a square, the count item and one a pair in conflict (each in a map of
        // about 40 bytes); an option a square; its occurrences.
        let pairs: usize = m
            .cells
            .iter()
            .map(|&s| m.conflict.row_count(s))
            .sum::<usize>()
            / 2;
        let (items, options, entries) = (m.cells.len() + 1 + pairs, m.cells.len(), incidences(m));
        Some(Need::new(
            Problem::bytes_for(items, options, entries)
                + Solver::bytes_for(items, options, entries)
                + 40 * pairs as u64,
            format!(
                "the Dancing Links arrays ({} option nodes)",
                crate::util::numbers::group(entries as u128)
            ),
        ))
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        drive(&mut Links { m, task }, task, run)
    }
}

/// The searches, each on a problem built for its range of piece counts.
struct Links<'m> {
    m: &'m Model,
    task: &'m Task,
}

impl<'m> Searcher<'m> for Links<'m> {
    fn minimize(&mut self, run: &mut Run) -> Option<Vec<usize>> {
        minimize(self.m, run)
    }
    fn count(&mut self, k: usize, run: &mut Run) -> Tally<'m> {
        let mut tally = Tally::new(self.m, self.task);
        if k == 0 {
            // A board of holes only: the empty placement (a count item needs k >= 1).
            tally.add(run, &[]);
            return tally;
        }
        search(self.m, k, k, run, &mut |run, squares| {
            tally.add(run, squares)
        });
        tally
    }
    fn first(&mut self, run: &mut Run) -> Option<usize> {
        let m = self.m;
        if m.cells.is_empty() {
            run.solution(&[]);
            return Some(0);
        }
        let found = search(m, 1, m.cells.len(), run, &mut |run, squares| {
            run.solution(squares);
            true
        });
        found.map(|s| s.len())
    }
}

/// Any cover, then covers with fewer pieces until there are none.
fn minimize(m: &Model, run: &mut Run) -> Option<Vec<usize>> {
    if m.cells.is_empty() {
        return Some(Vec::new());
    }
    let mut best: Option<Vec<usize>> = None;
    let mut hi = m.cells.len();
    while hi >= 1 {
        let found = search(m, 1, hi, run, &mut |_, _| true);
        if run.is_stopped() {
            break;
        }
        match found {
            Some(sol) => {
                hi = sol.len() - 1;
                run.set_standing(Standing {
                    best: Some(sol.len() as u64),
                    ..Standing::default()
                });
                best = Some(sol);
            }
            None => break,
        }
    }
    best
}

/// Search covers with `lo..=hi` pieces; `visit(run, squares)` sees each, `true` stops.
/// Returns the last placement visited.
fn search(
    m: &Model,
    lo: usize,
    hi: usize,
    run: &mut Run,
    visit: &mut dyn FnMut(&mut Run, &[usize]) -> bool,
) -> Option<Vec<usize>> {
    let problem = build(m, lo, hi);
    let mut last = None;
    let mut squares = Vec::with_capacity(hi);
    Solver::new(&problem).search_with(run, &mut |run: &mut Run, options: &[usize]| {
        squares.clear();
        squares.extend(options.iter().map(|&k| m.cells[k]));
        last = Some(squares.clone());
        visit(run, &squares)
    });
    last
}

fn build(m: &Model, lo: usize, hi: usize) -> Problem {
    let n = m.board.squares();
    let mut problem = Problem::new();
    let mut item = vec![usize::MAX; n];
    for &t in &m.cells {
        let coverers = m.coverers.row_count(t) as u32;
        item[t] = problem.add_primary_range(format!("sq{t}"), 1, coverers);
    }
    let count = problem.add_primary_range("count", lo as u32, hi as u32);
    let mut pair = std::collections::HashMap::new();
    if m.independent {
        for &a in &m.cells {
            for &b in &m.cells {
                if a < b && m.conflict.get(a, b) {
                    pair.insert((a, b), problem.add_secondary(format!("pair{a}.{b}")));
                }
            }
        }
    }
    let mut opt = Vec::new();
    for &s in &m.cells {
        opt.clear();
        for &t in &m.cells {
            if m.cover.get(s, t) {
                opt.push((item[t], 0));
            }
        }
        opt.push((count, 0));
        if m.independent {
            for &t in &m.cells {
                if t != s && m.conflict.get(s, t) {
                    opt.push((pair[&(s.min(t), s.max(t))], 0));
                }
            }
        }
        problem
            .add_option(&opt)
            .expect("options built from distinct declared items");
    }
    problem
}
