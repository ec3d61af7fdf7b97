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
use crate::kinds::army::Army;

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
        if let Some(army) = &m.army {
            return drive(m, &mut Troops::new(m, army, task), task, run);
        }
        drive(m, &mut Links { m, task }, task, run)
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
    shrink(m.cells.len(), 0, run, &mut |hi, run| {
        search(m, 1, hi, run, &mut |_, _| true)
    })
}

/// Covers of ever fewer pieces: `find(hi, run)` searches one of at most `hi` pieces (more
/// than `floor`, the fewest a cover may hold); each found is the standing best and the next
/// search asks for one piece fewer. The last found, the smallest, when none is left (or the
/// best so far when the run stops).
fn shrink(
    mut hi: usize,
    floor: usize,
    run: &mut Run,
    find: &mut dyn FnMut(usize, &mut Run) -> Option<Vec<usize>>,
) -> Option<Vec<usize>> {
    let mut best: Option<Vec<usize>> = None;
    while hi > floor {
        let found = find(hi, run);
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

/// The searches of a puzzle with givens or several pieces: the givens stand in every
/// placement, the squares they cover are no items, and the options are the codes (piece and
/// square) a search may add. Placements are counted with the givens: the optimum is the
/// total.
struct Troops<'m> {
    m: &'m Model,
    army: &'m Army,
    task: &'m Task,
    /// The codes a search may add, each an option in this order.
    codes: Vec<usize>,
    /// The squares no given covers: each an item.
    open: Vec<usize>,
    /// The givens alone answer the puzzle (they cover the board and meet every count).
    givens_suffice: bool,
}

impl<'m> Troops<'m> {
    fn new(m: &'m Model, army: &'m Army, task: &'m Task) -> Troops<'m> {
        let given = army.given_counts();
        let mut covered = vec![false; army.squares];
        for &g in &army.givens {
            let (t, s) = army.split(g);
            covered[s] = true;
            for b in crate::util::ones(army.troops[t].attacks.row(s)) {
                covered[b] = true;
            }
        }
        let codes: Vec<usize> =
            army.codes(&m.cells)
                .filter(|&c| {
                    let (t, s) = army.split(c);
                    given[t] < army.troops[t].hi
                        && !army.givens.iter().any(|&g| {
                            g % army.squares == s || (m.independent && army.conflict(g, c))
                        })
                })
                .collect();
        let open: Vec<usize> = m.cells.iter().copied().filter(|&s| !covered[s]).collect();
        let givens_suffice =
            open.is_empty() && army.troops.iter().zip(&given).all(|(t, &g)| g >= t.lo);
        Troops {
            m,
            army,
            task,
            codes,
            open,
            givens_suffice,
        }
    }

    /// Search placements of `lo..=hi` pieces in all, givens included (`lo` above the
    /// givens); `visit(run, codes)` sees each, `true` stops. Returns the last visited.
    fn search(
        &self,
        lo: usize,
        hi: usize,
        run: &mut Run,
        visit: &mut dyn FnMut(&mut Run, &[usize]) -> bool,
    ) -> Option<Vec<usize>> {
        let g = self.army.givens.len();
        if hi <= g || self.codes.is_empty() {
            return None;
        }
        let problem = self.build(lo.max(g + 1) - g, hi - g);
        let mut last = None;
        let mut placed = Vec::with_capacity(hi);
        Solver::new(&problem).search_with(run, &mut |run: &mut Run, options: &[usize]| {
            placed.clear();
            placed.extend_from_slice(&self.army.givens);
            placed.extend(options.iter().map(|&k| self.codes[k]));
            last = Some(placed.clone());
            visit(run, &placed)
        });
        last
    }

    /// The exact cover of `lo..=hi` pieces added to the givens.
    fn build(&self, lo: usize, hi: usize) -> Problem {
        let (a, m) = (self.army, self.m);
        let n = a.squares;
        let mut problem = Problem::new();
        let mut item = vec![usize::MAX; n];
        let mut coverers = vec![0u32; n];
        let covers = |c: usize, t: usize| {
            let (p, s) = a.split(c);
            s == t || a.troops[p].attacks.get(s, t)
        };
        for &t in &self.open {
            coverers[t] = self.codes.iter().filter(|&&c| covers(c, t)).count() as u32;
            // A square nothing may cover still gets its item: no option covers it, and the
            // search finds nothing, as it should.
            item[t] = problem.add_primary_range(format!("sq{t}"), 1, coverers[t].max(1));
        }
        let count = problem.add_primary_range("count", lo as u32, hi as u32);
        let given = a.given_counts();
        let troop: Vec<Option<usize>> = if a.mixed {
            a.troops
                .iter()
                .enumerate()
                .map(|(t, troop)| {
                    let hi = troop.hi - given[t];
                    let lo = troop.lo.saturating_sub(given[t]);
                    if hi == 0 {
                        return None;
                    }
                    Some(problem.add_primary_range(format!("piece{t}"), lo as u32, hi as u32))
                })
                .collect()
        } else {
            vec![None]
        };
        // A piece owed more than its givens, with no room left: an item no option covers.
        for (t, troop) in a.troops.iter().enumerate() {
            if a.mixed && troop.lo > given[t] && troop.hi == given[t] {
                problem.add_primary(format!("owed{t}"));
            }
        }
        let mut square = vec![usize::MAX; n];
        if a.troops.len() > 1 {
            for &c in &self.codes {
                let s = c % n;
                if square[s] == usize::MAX {
                    square[s] = problem.add_secondary(format!("at{s}"));
                }
            }
        }
        let mut pairs: Vec<Vec<usize>> = vec![Vec::new(); self.codes.len()];
        if m.independent {
            for i in 0..self.codes.len() {
                for j in i + 1..self.codes.len() {
                    let (x, y) = (self.codes[i], self.codes[j]);
                    if x % n != y % n && a.conflict(x, y) {
                        let k = problem.add_secondary(format!("pair{x}.{y}"));
                        pairs[i].push(k);
                        pairs[j].push(k);
                    }
                }
            }
        }
        let mut opt = Vec::new();
        for (i, &c) in self.codes.iter().enumerate() {
            let (t, s) = a.split(c);
            opt.clear();
            opt.extend(
                self.open
                    .iter()
                    .filter(|&&q| covers(c, q))
                    .map(|&q| (item[q], 0)),
            );
            opt.push((count, 0));
            if let Some(k) = troop[t] {
                opt.push((k, 0));
            }
            if square[s] != usize::MAX {
                opt.push((square[s], 0));
            }
            opt.extend(pairs[i].iter().map(|&k| (k, 0)));
            problem
                .add_option(&opt)
                .expect("options built from distinct declared items");
        }
        problem
    }

    /// The most pieces a placement may hold in all.
    fn most(&self) -> usize {
        let troops: usize = self.army.troops.iter().map(|t| t.hi).sum();
        troops.min(self.m.cells.len())
    }
}

impl<'m> Searcher<'m> for Troops<'m> {
    fn minimize(&mut self, run: &mut Run) -> Option<Vec<usize>> {
        if self.givens_suffice {
            return Some(self.army.givens.clone());
        }
        // Every placement holds the givens and, the givens not sufficing, one piece more.
        shrink(self.most(), self.army.givens.len(), run, &mut |hi, run| {
            self.search(0, hi, run, &mut |_, _| true)
        })
    }
    fn count(&mut self, k: usize, run: &mut Run) -> Tally<'m> {
        let mut tally = Tally::new(self.m, self.task);
        if self.givens_suffice {
            if k == self.army.givens.len() {
                tally.add(run, &self.army.givens);
            }
            return tally;
        }
        self.search(k, k, run, &mut |run, codes| tally.add(run, codes));
        tally
    }
    fn first(&mut self, run: &mut Run) -> Option<usize> {
        if self.givens_suffice {
            run.solution(&self.army.givens);
            return Some(self.army.givens.len());
        }
        let found = self.search(0, self.most(), run, &mut |run, codes| {
            run.solution(codes);
            true
        });
        found.map(|s| s.len())
    }
}
