//! Counting N-Queens solutions on an empty board, all of them and up to symmetry.
//!
//! Every solution has exactly one queen in each border line: the top and bottom rows and the
//! left and right columns. Those four queens (a *constellation*) are enumerated first and
//! kept only in a canonical orientation under the 8 symmetries of the square; each canonical
//! constellation is then a small sub-problem, the inner rows filled by a bitmask search.
//! This is the idea of the Q27 project (Preusser) and of NQueensFAF, and it buys two things
//! over the classic mirror-halved counter: less search (8-fold instead of 2-fold symmetry,
//! four queens placed for free), and thousands of independent sub-problems that threads can
//! share without coordination.
//!
//! Why the weights are right:
//! - At most one corner holds a queen (two corners always share a line). A solution with a
//!   corner queen is turned so that the queen sits at (0,0); of its 8 images exactly two do so,
//!   the solution and its transpose, and they swap the row `r` of the right-column queen with
//!   the column `b` of the bottom-row queen, which always differ. Keeping `r < b` counts each
//!   class once: weight 8, one class each.
//! - Without a corner queen, no constellation is fixed by a reflection (each reflection would
//!   make two of its queens attack each other), so its stabiliser `H` is a group of rotations.
//!   The constellation's orbit carries `8 / |H|` times its completions, and by Burnside the
//!   classes among them number `(1/|H|) * sum over h in H of completions fixed by h`. Only the
//!   few constellations with a rotational stabiliser need the fixed completions; they are
//!   counted like the others, and their fixed completions found by a search over half the
//!   board, each queen placed with its image under the half turn.
//!
//! The files: the constellations and their symmetry classes (constellations.rs); the plain
//! search over one of them (search.rs), whose last levels are compiled per kind of
//! processor (kernels.rs); the completions a half or quarter turn fixes (half_turn.rs).
//! The search fills the inner rows with bitmasks and counts the last six at once by sets
//! of permutations (last_rows.rs). Nodes, as reported to the run, are the queens the
//! search places. Timings beside other counters: docs/performance.md.

mod constellations;
mod half_turn;
mod kernels;
mod search;

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::engine::split::{self, Expand};
use crate::engine::{Answer, Run, Task};
use crate::kinds::parts;
pub use constellations::MAX_N;
use constellations::{Constellation, constellations};
use half_turn::fixed_by_half_turn;
use kernels::Deep;
use search::count_plain;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct QueensCount {
    pub total: u128,
    pub unique: u128,
}

/// Count all placements of n non-attacking queens on an empty n x n board and the classes
/// under the 8 symmetries of the square (OEIS A000170, A002562). `None` when the run stopped
/// (time/node limit, Ctrl-C) before the count was complete. Uses `threads` workers (0 counts
/// as 1); nodes (queens placed by the search) are reported to the run in batches, and the
/// solutions found are added to the run's count.
///
/// # Panics
/// When `n > MAX_N`.
pub fn count_queens(n: usize, threads: usize, run: &mut Run) -> Option<QueensCount> {
    count_with(n, threads, Deep::for_this_processor(), run)
}

/// [`count_queens`] with the deep levels compiled for `deep`.
fn count_with(n: usize, threads: usize, deep: Deep, run: &mut Run) -> Option<QueensCount> {
    assert!(n <= MAX_N, "count_queens: n = {n} exceeds MAX_N = {MAX_N}");
    if n < 4 {
        // Too small for four distinct border lines; the answers are immediate.
        let c = if n <= 1 { 1 } else { 0 };
        run.count(c);
        return Some(QueensCount {
            total: c,
            unique: c,
        });
    }
    let constellations = constellations(n);
    let threads = threads.max(1);
    let mut sum = Tally::default();
    // The constellations are the list a progress display counts down.
    run.list_items(constellations.len());
    if threads == 1 {
        for c in &constellations {
            sum.add(solve_constellation(n, c, deep, run)?);
            run.item_done();
        }
    } else {
        let next = AtomicUsize::new(0);
        let mut workers: Vec<(Run<'static>, Option<Tally>)> =
            (0..threads).map(|_| (run.child(), None)).collect();
        // The pool the caller runs in (the global one outside any): a worker a task, each
        // claiming constellations until none is left.
        rayon::scope(|s| {
            for (child, result) in workers.iter_mut() {
                let next = &next;
                let constellations = &constellations;
                s.spawn(move |_| {
                    // Claiming one sub-problem at a time balances the load: they differ in
                    // size by orders of magnitude and there are thousands of them.
                    let mut tally = Tally::default();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(c) = constellations.get(i) else {
                            break;
                        };
                        match solve_constellation(n, c, deep, child) {
                            Some(t) => tally.add(t),
                            None => return,
                        }
                        child.item_done();
                    }
                    *result = Some(tally);
                });
            }
        });
        let mut complete = true;
        for (child, result) in workers {
            run.absorb(child);
            match result {
                Some(t) => sum.add(t),
                None => complete = false,
            }
        }
        if !complete || run.is_stopped() {
            return None;
        }
    }
    Some(sum.finish())
}

/// The solutions in part `task.part` of the constellations (`--part I/N`, `I/N,J/M`), each
/// constellation's completions weighted by its orbit as in [`count_queens`]. The list is the
/// constellations, in their fixed order: each is a subtree searched whole, so the parts'
/// nodes add up to one count's. Classes are not counted: a part's Burnside sums need not
/// make whole classes.
///
/// # Panics
/// When `n < 4` (no constellations) or `n > MAX_N`.
pub fn count_part(n: usize, task: &Task, run: &mut Run) -> Answer {
    assert!((4..=MAX_N).contains(&n), "count_part: n = {n}");
    // The root (`None`) branches into the constellations, which do not branch further.
    let expand = |c: &Option<Constellation>, _: &mut Run| match c {
        None => Expand::Children(constellations(n).into_iter().map(Some).collect()),
        Some(_) => Expand::Leaf,
    };
    let key = |c: &Option<Constellation>, f: &mut split::Fingerprint| {
        if let Some(c) = c {
            for x in [c.top, c.bottom, c.left, c.right, c.stabiliser] {
                f.eat(u64::from(x));
            }
        }
    };
    let Some(cut) = split::cut(task, run, None, None, expand, key) else {
        return Answer::default();
    };
    parts::count_part(task, run, cut, |c, run| {
        // A constellation is no node of the search (its four queens come for free); its
        // completions are counted into the run with their weight.
        if let Some(c) = c {
            let _ = solve_constellation(n, c, Deep::for_this_processor(), run);
        }
    })
}

/// Solutions weighted by orbit size, and eight times the number of classes (so that the
/// Burnside quotients 1/2 and 1/4 stay integral until the end).
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    total: u128,
    unique8: u128,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.total += other.total;
        self.unique8 += other.unique8;
    }

    fn finish(self) -> QueensCount {
        debug_assert_eq!(self.unique8 % 8, 0);
        QueensCount {
            total: self.total,
            unique: self.unique8 / 8,
        }
    }
}

fn solve_constellation(n: usize, c: &Constellation, deep: Deep, run: &mut Run) -> Option<Tally> {
    let weight = 8 / c.stabiliser as u128;
    let count = count_plain(n, c, deep, run)?;
    let fixed = if c.stabiliser == 1 {
        [0; 2]
    } else {
        fixed_by_half_turn(n, c)
    };
    run.count(weight * count as u128);
    let unique8 = if c.stabiliser == 1 {
        8 * count as u128
    } else {
        // Burnside over H: the identity fixes all, rot180 fixes fixed[0], each quarter turn
        // (only when |H| = 4) fixes fixed[1].
        let sum = count as u128
            + fixed[0] as u128
            + if c.stabiliser == 4 {
                2 * fixed[1] as u128
            } else {
                0
            };
        weight * sum
    };
    Some(Tally {
        total: weight * count as u128,
        unique8,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Limits;

    const TOTAL: [u128; 19] = [
        1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
        95815104, 666090624,
    ];
    const UNIQUE: [u128; 19] = [
        1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955, 11977939,
        83263591,
    ];

    fn count(n: usize, threads: usize) -> QueensCount {
        let mut run = Run::new(Limits::default());
        let c = count_queens(n, threads, &mut run).expect("no limit set");
        assert_eq!(run.stats.solutions, c.total, "run's solutions for n = {n}");
        c
    }

    #[test]
    fn known_answers_one_thread() {
        for n in 1..=15 {
            let c = count(n, 1);
            assert_eq!((c.total, c.unique), (TOTAL[n], UNIQUE[n]), "n = {n}");
        }
    }

    #[test]
    fn every_kind_of_processor_code_counts_the_same() {
        // The portable code comes last, whatever the processor.
        for (kind, deep) in Deep::available().into_iter().enumerate() {
            for n in 8..=14 {
                let mut run = Run::new(Limits::default());
                let c = count_with(n, 1, deep, &mut run).expect("no limit set");
                assert_eq!(
                    (c.total, c.unique),
                    (TOTAL[n], UNIQUE[n]),
                    "n = {n}, kind {kind}"
                );
            }
        }
    }

    #[test]
    fn known_answers_two_threads() {
        for n in 1..=15 {
            let c = count(n, 2);
            assert_eq!((c.total, c.unique), (TOTAL[n], UNIQUE[n]), "n = {n}");
        }
    }

    #[test]
    fn largest_board_stops_at_a_node_limit() {
        for threads in [1, 2] {
            let mut run = Run::new(Limits {
                nodes: Some(200_000),
                ..Limits::default()
            });
            assert_eq!(count_queens(MAX_N, threads, &mut run), None);
            assert!(run.stats.nodes < 2_000_000, "{}", run.stats.nodes);
        }
    }

    #[test]
    fn node_limit_stops_the_count() {
        for threads in [1, 2] {
            let mut run = Run::new(Limits {
                nodes: Some(100_000),
                ..Limits::default()
            });
            assert_eq!(
                count_queens(14, threads, &mut run),
                None,
                "threads = {threads}"
            );
            assert!(run.is_stopped());
            assert!(run.stats.nodes < 1_000_000, "{}", run.stats.nodes);
        }
    }
}
