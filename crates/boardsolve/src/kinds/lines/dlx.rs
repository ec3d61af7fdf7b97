//! `dlx`: the puzzle as exact cover with multiplicities (Algorithm M) on the Dancing Links
//! core. An option is "a stone of colour c on square s"; it contains
//!
//! - `count.c`, primary with range `[per_color, per_color]`: exactly that many of each colour;
//! - `L.c` for every line L through s that can be overfull, primary with range
//!   `[lo, max_per_line]`: at most `max_per_line` of colour c on L. For rows and columns `lo`
//!   is what the totals force (each row of 6x6 takes exactly 2 + 2), which is what gives
//!   Algorithm M its good branching items; for other lines `lo = 0`. With `max_per_line = 1`
//!   and `lo = 0` the item is secondary instead, which says "at most once" for free;
//! - `s`, secondary and uncoloured, when there are two colours or more: one stone per square.
//!
//! A set of options is a solution exactly when it is a valid placement, and each placement
//! is one set, so counts are exact.

use super::vocab::LinesRefusal;
use super::{Emitter, Model};
use crate::dlx::{Problem, Solver};
use crate::engine::{Answer, Run, Task};
use crate::kinds::{Strategy, dlx_parts};

pub struct Dlx;

/// Option entries beyond this make the model too large to be worth building.
const MAX_ENTRIES: usize = 20_000_000;

impl Strategy<Model> for Dlx {
    fn name(&self) -> &'static str {
        "dlx"
    }
    fn about(&self) -> &'static str {
        "exact cover with multiplicities: (line, colour) items with ranges, a stone per option"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), crate::engine::Refusal> {
        let entries: usize =
            m.lines_through().iter().map(|l| l.len() + 2).sum::<usize>() * m.num_colors();
        if entries > MAX_ENTRIES {
            return Err(LinesRefusal::TooManyEntries {
                entries,
                max: MAX_ENTRIES,
            }
            .into());
        }
        if let Some(why) = dlx_parts::refuses(task) {
            return Err(why);
        }
        Ok(())
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if let Some(why) = &m.infeasible {
            return Answer::none_because(why.clone());
        }
        let (problem, cells) = build(m);
        let mut solver = Solver::new(&problem);
        if !task.unique && !run.reports_each() {
            return dlx_parts::search(&mut solver, task, run);
        }
        let nc = m.num_colors();
        let mut emit = Emitter::new(m, task);
        let mut sol = vec![0usize; m.board.squares()];
        let mut visit = |run: &mut Run, options: &[usize]| {
            sol.fill(0);
            for &o in options {
                sol[cells[o / nc]] = o % nc + 1;
            }
            emit.emit(run, &sol)
        };
        dlx_parts::search_each(&mut solver, task, run, &mut visit)
    }
    fn splits(&self) -> bool {
        true
    }
}

/// The problem, and the square of each option group (option `i * colours + c` is a stone of
/// colour c on `cells[i]`).
fn build(m: &Model) -> (Problem, Vec<usize>) {
    let nc = m.num_colors();
    let k = m.limit().min(m.per_color) as u32;
    let mut p = Problem::new();
    let mut item = vec![usize::MAX; m.lines.len() * nc];
    let rows = m
        .line_of_row
        .iter()
        .enumerate()
        .filter_map(|(r, l)| l.map(|l| (l, m.row_quota[r].0)));
    let cols = m
        .line_of_col
        .iter()
        .enumerate()
        .filter_map(|(c, l)| l.map(|l| (l, m.col_quota[c].0)));
    let mut lo = vec![0usize; m.lines.len()];
    let mut order: Vec<usize> = Vec::new();
    for (l, q) in rows.chain(cols) {
        lo[l] = q;
        order.push(l);
    }
    // Rows and columns first: on ties in the item choice they are the tighter ones.
    let mut is_active = vec![false; m.lines.len()];
    for &l in &m.active {
        is_active[l] = true;
    }
    order.retain(|&l| is_active[l]);
    let rest: Vec<usize> = m
        .active
        .iter()
        .copied()
        .filter(|l| !order.contains(l))
        .collect();
    order.extend(rest);
    for &l in &order {
        for c in 0..nc {
            let name = format!("line{l}.{}", m.colors[c]);
            item[l * nc + c] = if lo[l] == 0 && k == 1 {
                p.add_secondary(name)
            } else {
                p.add_primary_range(name, (lo[l] as u32).min(k), k)
            };
        }
    }
    let p_count = m.per_color as u32;
    let counts: Vec<usize> = (0..nc)
        .map(|c| p.add_primary_range(format!("count.{}", m.colors[c]), p_count, p_count))
        .collect();
    let cells: Vec<usize> = m.board.cells().collect();
    let through = m.lines_through();
    let square_item: Vec<usize> = if nc > 1 {
        cells
            .iter()
            .map(|&s| p.add_secondary(m.board.square_name(s)))
            .collect()
    } else {
        Vec::new()
    };
    let mut opt = Vec::new();
    for (i, &s) in cells.iter().enumerate() {
        for (c, &count) in counts.iter().enumerate() {
            opt.clear();
            opt.push((count, 0));
            opt.extend(through[s].iter().map(|&l| (item[l * nc + c], 0)));
            if let Some(&it) = square_item.get(i) {
                opt.push((it, 0));
            }
            p.add_option(&opt)
                .expect("options built from distinct declared items");
        }
    }
    (p, cells)
}
