//! `--part I/N` (and `--part I/N,J/M`) for the strategies on the Dancing Links core, and
//! `--threads` for their counts: the core's search tree cut by [`split::cut`], a node being
//! the options chosen from the root (the item the search branches on at each level, then each
//! of its options in the search's order; a node with more children than a list needs lists
//! them as runs of siblings), and the subtrees searched one after another on the one solver,
//! or shared out to the threads, each with a copy of the solver.
//!
//! The parts' counts add up to the whole search's; so do their nodes (with the nodes the
//! listing expanded, counted by the first part, as `split` says) and their updates (the
//! updates the search makes at an expanded node go with it). A count on several threads is
//! the one part `1/1` of the tree, so it counts exactly the nodes and updates of a search on
//! one thread.

use std::cell::RefCell;
use std::sync::Mutex;

use crate::dlx::{Decision, Expansion, Prefix, Solver};
use crate::engine::split::{self, Expand, Fingerprint};
use crate::engine::{Answer, Goal, Need, PartialWork, Refusal, Run, Task};

/// Why a Dancing Links strategy does not take this split task, if it does not: `--part`
/// serves goals count and all, `--estimate` none.
pub fn refuses(task: &Task) -> Option<Refusal> {
    if task.estimate.is_some() {
        return Some(Refusal::DlxEstimate);
    }
    if task.part.is_some() && !matches!(task.goal, Goal::Count | Goal::All) {
        return Some(Refusal::DlxPartGoal(task.goal));
    }
    None
}

/// Where a strategy sends each solution (option indices), as [`Solver::search_with`] does;
/// `true` means stop.
pub type OnSolution<'a, 'r> = &'a mut dyn FnMut(&mut Run<'r>, &[usize]) -> bool;

/// Count (or search without reporting) the whole tree of `solver` as [`Solver::search`]
/// does, on `task.threads` threads where no solution goes to the run one by one, or part
/// `task.part` of it. The entry point for a strategy that does not map solutions back.
pub fn search(solver: &mut Solver, task: &Task, run: &mut Run) -> Answer {
    if task.part.is_some() {
        return search_part(solver, task, run, None);
    }
    if task.threads > 1 && !run.reports_each() {
        let whole = Task {
            part: Some((1, 1)),
            subpart: None,
            ..*task
        };
        // The list's record is a part's; a whole search has none.
        let answer = search_part(solver, &whole, run, None);
        return Answer {
            count: answer.count,
            ..Answer::default()
        };
    }
    solver.search(run);
    Answer::default()
}

/// The bytes a search holds beside its solver (`solver` bytes): a copy a thread when a
/// count shares out its subtrees (goals first and all report each solution, in order, from
/// one solver).
pub fn thread_copies(solver: u64, task: &Task) -> u64 {
    if task.threads > 1 && task.goal == Goal::Count {
        solver * task.threads as u64
    } else {
        0
    }
}

/// The memory a Dancing Links search of `problem` takes for `task`: its arrays, and a copy
/// a thread where a count shares its subtrees out.
pub fn needs(p: &crate::dlx::Problem, task: &Task) -> Need {
    let entries = (0..p.num_options()).map(|k| p.option(k).len()).sum();
    arrays_need(p.num_items(), p.num_options(), entries, task)
}

/// The memory of the Dancing Links arrays on a problem of `items` items, `options` options
/// and `entries` item occurrences, counted before the problem is built, for `task`: the
/// arrays, and a copy a thread where a count shares its subtrees out.
pub fn arrays_need(items: usize, options: usize, entries: usize, task: &Task) -> Need {
    let arrays = Solver::bytes_for(items, options, entries);
    let need = Need::new(
        arrays,
        format!(
            "the Dancing Links arrays ({} item occurrences)",
            crate::util::numbers::group(entries as u128)
        ),
    );
    let copies = thread_copies(arrays, task);
    if copies > 0 {
        need.and(Need::new(
            copies,
            format!("a copy of them for each of {} threads", task.threads),
        ))
    } else {
        need
    }
}

/// Search the whole tree of `solver`, or part `task.part` of it, each solution going to
/// `visit`, which maps its options back to the strategy's solution and reports it (`true`
/// stops). The entry point for a strategy that maps solutions back.
pub fn search_each<'r>(
    solver: &mut Solver,
    task: &Task,
    run: &mut Run<'r>,
    visit: OnSolution<'_, 'r>,
) -> Answer {
    if task.part.is_some() {
        return search_part(solver, task, run, Some(visit));
    }
    solver.search_with(run, visit);
    Answer::default()
}

/// Search part `task.part` (`task.subpart`) of the solver's tree; each solution goes to
/// `on_solution` when given, as with [`Solver::search_with`], else to the run. The answer
/// holds the part's count and its partial result.
pub fn search_part<'r>(
    solver: &mut Solver,
    task: &Task,
    run: &mut Run<'r>,
    mut on_solution: Option<OnSolution<'_, 'r>>,
) -> Answer {
    let before = run.stats.solutions;
    let (i, _) = task.part.expect("a part to search");
    let cell = RefCell::new(solver);
    // The updates made at each node the listing expanded, in the order it expanded them.
    let mut made = Vec::new();
    // A node's children beyond this many come as runs of siblings: a level of a hundred
    // thousand options is cut into as many subtrees as a list needs, not one an option (each
    // a subtree to list, fingerprint and hand out), and a level of at most so many (those of
    // N-Queens, pentominoes, sudoku) is listed option by option.
    let widest = 4 * split::list_len(task.part.map_or(1, |(_, n)| n));
    let cut = split::cut(
        task,
        run,
        Prefix::root(),
        None,
        |node: &Prefix, _: &mut Run| match cell.borrow_mut().expand(node, widest) {
            Expansion::Solution => Expand::Leaf,
            Expansion::Children { children, updates } => {
                made.push(updates);
                Expand::Children(children)
            }
            Expansion::Runs(runs) => Expand::Apart(runs),
        },
        |node: &Prefix, f: &mut Fingerprint| {
            let solver = cell.borrow();
            f.eat(node.depth() as u64);
            for d in solver.decisions(node) {
                f.eat(match d {
                    Decision::Option(k) => k as u64,
                    Decision::NoMore(item) => 1 << 63 | item as u64,
                });
            }
            // A node alone keys as it always has: lists without runs keep their fingerprints.
            if node.run() > 1 {
                f.eat(3 << 62 | node.run() as u64);
            }
        },
    );
    let Some(cut) = cut else {
        return Answer::default();
    };
    let solver = cell.into_inner();
    if on_solution.is_none() && task.threads > 1 && !run.reports_each() {
        share_out(solver, &cut.nodes, task.threads, run);
    } else {
        for node in &cut.nodes {
            if run.is_stopped() {
                break;
            }
            match on_solution.as_deref_mut() {
                Some(visit) => solver.search_below_with(node, run, visit),
                None => solver.search_below(node, run),
            }
        }
    }
    // The nodes this part counts of those the listing expanded are the first ones listed
    // (part 1: the list's ancestors, and in subpart 1 its own descendants' too) or the last
    // ones (subpart 1 of another part: the nodes between its subtrees and their
    // descendants, expanded after the list).
    let above = cut.above as usize;
    let updates: u64 = if i == 1 {
        made[..above].iter().sum()
    } else {
        made[made.len() - above..].iter().sum()
    };
    run.nodes(cut.above);
    run.stats.add_counter("updates", updates);
    Answer {
        count: Some(run.stats.solutions - before),
        partial: Some(cut.finish(run, PartialWork::Counted)),
        ..Answer::default()
    }
}

/// Search the subtrees under `nodes` on `threads` threads. The links change as a search
/// goes, so each worker thread has a solver of its own, a copy of `solver` made when it takes
/// its first subtree, and keeps it at the node its last subtree left it: a worker takes runs
/// of consecutive subtrees, siblings mostly, each reached from the last by the choices that
/// differ rather than by a replay from the root.
fn share_out(solver: &Solver, nodes: &[Prefix], threads: usize, run: &mut Run) {
    let mine: Vec<Mutex<Option<Solver>>> = (0..threads).map(|_| Mutex::new(None)).collect();
    run.share_out(nodes, threads, |node, child| {
        // Outside a pool (none could be built) the subtrees run here, one after another.
        let slot = rayon::current_thread_index().unwrap_or(0) % threads;
        let mut held = mine[slot].lock().unwrap_or_else(|e| e.into_inner());
        held.get_or_insert_with(|| solver.clone())
            .search_below(node, child);
    });
}
