//! `dlx`: the placements as an exact cover on the Dancing Links core (Algorithm X, or M where
//! a piece has several copies or cells may stay empty). With `--unique`, one piece kept to a
//! placement an orbit, and solutions compared with their images where that is not enough
//! (symmetry.rs).

use super::symmetry::{self, Restriction, Symmetries};
use super::{Model, TilingNote};
use crate::dlx::{Branch, Solver};
use crate::engine::{Answer, Need, Refusal, Run, Task};
use crate::kinds::exact_cover::ExactCoverRefusal;
use crate::kinds::{CountNote, Strategy, dlx_parts};

pub struct Dlx;

impl Strategy<Model> for Dlx {
    fn name(&self) -> &'static str {
        "dlx"
    }
    fn about(&self) -> &'static str {
        "Knuth's Algorithms X and M on the Dancing Links core, an option a placement; \
         --unique keeps one piece to a placement per class"
    }
    fn applies(&self, m: &Model, task: &Task) -> Result<(), Refusal> {
        if m.branch == Branch::First && m.problem.has_multiplicities() {
            return Err(ExactCoverRefusal::BranchFirstMultiplicities.into());
        }
        if let Some(why) = dlx_parts::refuses(task) {
            return Err(why);
        }
        Ok(())
    }
    fn needs(&self, m: &Model, task: &Task) -> Option<Need> {
        Some(dlx_parts::needs(&m.problem, task))
    }
    fn solve(&self, m: &Model, task: &Task, run: &mut Run) -> Answer {
        if !task.unique {
            let mut solver = solver(&m.problem, m.branch);
            return dlx_parts::search(&mut solver, task, run);
        }
        let sym = symmetry::symmetries(m);
        if sym.perms.is_empty() {
            let mut solver = solver(&m.problem, m.branch);
            let mut a = dlx_parts::search(&mut solver, task, run);
            a.notes.push(TilingNote::NoSymmetry.into());
            return a;
        }
        match symmetry::restriction(m, &sym) {
            Some(r) => restricted(m, &sym, &r, task, run),
            None => {
                let mut solver = solver(&m.problem, m.branch);
                let all: Vec<usize> = (0..sym.perms.len()).collect();
                let mut a = compared(&mut solver, m, &sym, None, &all, task, run);
                a.notes.push(
                    TilingNote::Canonical {
                        symmetries: sym.order(),
                    }
                    .into(),
                );
                a
            }
        }
    }
    fn splits(&self) -> bool {
        true
    }
}

/// A solver of `problem` branching by `branch`.
fn solver(problem: &crate::dlx::Problem, branch: Branch) -> Solver {
    let mut s = Solver::new(problem);
    s.set_branch(branch);
    s
}

/// Count the classes with piece `r.piece` kept to one placement an orbit.
fn restricted(m: &Model, sym: &Symmetries, r: &Restriction, task: &Task, run: &mut Run) -> Answer {
    let (problem, full) = r.problem(m);
    let mut solver = solver(&problem, m.branch);
    let piece = &m.pieces[r.piece];
    let note = TilingNote::Restricted {
        piece: piece.name.clone(),
        kept: r.kept.len(),
        placements: piece.placements,
        symmetries: sym.order(),
        symmetric: r.symmetric(),
    };
    let mut a = if r.symmetric() == 0 && !run.reports_each() {
        // Every class counted once, and each stands for as many solutions as symmetries.
        let before = run.stats.solutions;
        let mut a = dlx_parts::search(&mut solver, task, run);
        if task.part.is_none() && !run.is_stopped() {
            let classes = run.stats.solutions - before;
            a.notes
                .push(CountNote::SolutionsInAll(classes * sym.order() as u128).into());
        }
        a
    } else {
        compared(&mut solver, m, sym, Some((r, &full)), &[], task, run)
    };
    a.notes.push(note.into());
    a
}

/// Search `solver` (the whole problem, or the restricted one with the map `full` of its
/// options), reporting each solution that is the least of its images under the symmetries
/// that matter: those fixing the kept placement it goes through, or `all`.
fn compared(
    solver: &mut Solver,
    m: &Model,
    sym: &Symmetries,
    restriction: Option<(&Restriction, &[u32])>,
    all: &[usize],
    task: &Task,
    run: &mut Run,
) -> Answer {
    let mut sol: Vec<usize> = Vec::new();
    let mut buf: Vec<usize> = Vec::new();
    let mut in_all: u128 = 0;
    let order = sym.order() as u128;
    let mut visit = |run: &mut Run, options: &[usize]| {
        sol.clear();
        match restriction {
            Some((_, full)) => sol.extend(options.iter().map(|&k| full[k] as usize)),
            None => sol.extend_from_slice(options),
        }
        sol.sort_unstable();
        let which: &[usize] = match restriction {
            Some((r, _)) => r.fixing(m, &sol),
            None => all,
        };
        match symmetry::least_of_images(sym, which.iter().copied(), &sol, &mut buf) {
            Some(same) => {
                in_all += order / (same as u128 + 1);
                run.report(&sol)
            }
            None => false,
        }
    };
    let mut a = dlx_parts::search_each(solver, task, run, &mut visit);
    if task.part.is_none() && !run.is_stopped() {
        a.notes.push(CountNote::SolutionsInAll(in_all).into());
    }
    a
}
