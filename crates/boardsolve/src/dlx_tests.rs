//! The Dancing Links core driven through the engine's `Run`, as the kinds drive it.

use crate::dlx::*;
use crate::engine::{Answer, Limits, Run, Stats, Status};
use proptest::prelude::*;
use std::ops::ControlFlow;

mod instances {
    use crate::dlx::Problem;
    include!("../../../tests/common/cover_instances.rs");
}

/// Every solution the solver reports, in the order found, and the run's statistics.
fn solve_all(p: &Problem) -> (Vec<Vec<usize>>, Stats) {
    let mut sols = Vec::new();
    let stats;
    {
        let mut run = Run::new(Limits::default()).with_sink(Box::new(|s: &[usize]| {
            sols.push(s.to_vec());
            ControlFlow::Continue(())
        }));
        Solver::new(p).search(&mut run);
        stats = run.stats.clone();
    }
    (sols, stats)
}

fn count(p: &Problem) -> Stats {
    let mut run = Run::new(Limits::default());
    Solver::new(p).search(&mut run);
    run.stats
}

/// All solutions by trying every subset of options (for small option counts), sorted.
fn brute_force(p: &Problem) -> Vec<Vec<usize>> {
    let m = p.num_options();
    assert!(m <= 20, "brute force is for small instances");
    let mut out = Vec::new();
    for mask in 0u32..(1 << m) {
        let set: Vec<usize> = (0..m).filter(|&k| mask >> k & 1 == 1).collect();
        if is_solution(p, &set) {
            out.push(set);
        }
    }
    out.sort();
    out
}

/// The solver's solutions, each checked, sorted; duplicates are an error.
fn checked_solutions(p: &Problem) -> Vec<Vec<usize>> {
    let (mut sols, stats) = solve_all(p);
    assert_eq!(stats.solutions, sols.len() as u128);
    for s in &sols {
        assert!(s.windows(2).all(|w| w[0] < w[1]), "not sorted: {s:?}");
        assert!(is_solution(p, s), "invalid solution {s:?}");
    }
    sols.sort();
    let n = sols.len();
    sols.dedup();
    assert_eq!(n, sols.len(), "a solution was reported twice");
    sols
}

/// Build a problem from Knuth's text format: a first line of items (`lo:hi|name` or
/// `hi|name` for ranges, `|` alone separating secondary items), then one option per line,
/// `name:c` for a colour, single characters as colours mapped to 1, 2, ...
fn parse_knuth(text: &str) -> Problem {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut p = Problem::new();
    let mut secondary = false;
    for tok in lines.next().unwrap().split_whitespace() {
        if tok == "|" {
            secondary = true;
        } else if secondary {
            p.add_secondary(tok);
        } else if let Some((range, name)) = tok.split_once('|') {
            let (lo, hi) = match range.split_once(':') {
                Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
                None => (range.parse().unwrap(), range.parse().unwrap()),
            };
            p.add_primary_range(name, lo, hi);
        } else {
            p.add_primary(tok);
        }
    }
    let mut colours: Vec<char> = Vec::new();
    for line in lines {
        let items: Vec<(usize, u32)> = line
            .split_whitespace()
            .map(|tok| {
                let (name, colour) = match tok.split_once(':') {
                    Some((n, c)) => {
                        let ch = c.chars().next().unwrap();
                        if !colours.contains(&ch) {
                            colours.push(ch);
                        }
                        (n, colours.iter().position(|&x| x == ch).unwrap() as u32 + 1)
                    }
                    None => (tok, 0),
                };
                (p.item_index(name).expect("known item"), colour)
            })
            .collect();
        p.add_option(&items).unwrap();
    }
    p
}

#[test]
fn knuth_seven_items_has_one_solution() {
    // TAOCP 7.2.2.1 (5): items a..g, all primary.
    let p = parse_knuth(
        "a b c d e f g
         c e
         a d g
         b c f
         a d f
         b g
         d e g",
    );
    let sols = checked_solutions(&p);
    assert_eq!(sols, vec![vec![0, 3, 4]]);
    assert_eq!(sols, brute_force(&p));
}

#[test]
fn dlx1_example_with_secondary_items() {
    // DLX1's own example: A..E primary, F and G secondary; the one solution is A D, E F C, B G.
    let p = parse_knuth(
        "A B C D E | F G
         C E F
         A D G
         B C F
         A D
         B G
         D E G",
    );
    assert_eq!(checked_solutions(&p), vec![vec![0, 3, 4]]);
    assert_eq!(brute_force(&p), vec![vec![0, 3, 4]]);
}

#[test]
fn dlx3_example_without_multiplicity_colours_decide() {
    // DLX3's example with C an ordinary item: "A B X:0 Y:0" goes with "C X:0" (X shared in
    // colour 0), "A C X:1 Y:1" with "B X:1"; no other pair agrees on X.
    let p = parse_knuth(
        "A B C | X Y
         A B X:0 Y:0
         A C X:1 Y:1
         C X:0
         B X:1
         C Y:1",
    );
    assert_eq!(Solver::new(&p).algorithm(), "C");
    assert_eq!(checked_solutions(&p), vec![vec![0, 2], vec![1, 3]]);
    assert_eq!(brute_force(&p), vec![vec![0, 2], vec![1, 3]]);
}

#[test]
fn colours_shared_and_exclusive_uses() {
    // x coloured 1 twice is fine; x uncoloured conflicts with any other use.
    let p = parse_knuth(
        "A B | x
         A x:1
         B x:1
         B x:2
         A x
         B",
    );
    let sols = checked_solutions(&p);
    assert_eq!(sols, brute_force(&p));
    assert_eq!(sols, vec![vec![0, 1], vec![0, 4], vec![3, 4]]);
}

#[test]
fn dlx3_example_multiplicity_and_colours() {
    // DLX3's example: C must be covered 2 or 3 times; the unique solution is
    // "A C X:1 Y:1", "B X:1", "C Y:1".
    let p = parse_knuth(
        "A B 2:3|C | X Y
         A B X:0 Y:0
         A C X:1 Y:1
         C X:0
         B X:1
         C Y:1",
    );
    assert_eq!(Solver::new(&p).algorithm(), "M");
    assert_eq!(checked_solutions(&p), vec![vec![1, 3, 4]]);
    assert_eq!(brute_force(&p), vec![vec![1, 3, 4]]);
}

#[test]
fn multiplicities_match_brute_force() {
    // Choose 2 of the 4 options of A (C(4,2) = 6) while B takes 0 or 1 ...
    let p = parse_knuth(
        "2|A 0:1|B
         A
         A B
         A
         A B",
    );
    let sols = checked_solutions(&p);
    assert_eq!(sols, brute_force(&p));
    assert_eq!(sols.len(), 5);
    // ... an item that may be left out entirely, and an upper bound reached through a
    // neighbour's option (A's second option uses up B).
    let p = parse_knuth(
        "0:2|A 0:1|B 1|C
         A B
         A C
         B C
         A
         C",
    );
    let sols = checked_solutions(&p);
    assert_eq!(sols, brute_force(&p));
    assert!(!sols.is_empty());
    // Branching on A with bound 1 left and slack 1: the remaining options of A must not be
    // chosen through B or C afterwards.
    let p = parse_knuth(
        "0:1|A 0:1|B 0:1|C
         A B
         A C
         B
         C",
    );
    let sols = checked_solutions(&p);
    assert_eq!(sols, brute_force(&p));
}

#[test]
fn no_primary_item_has_the_empty_solution() {
    let mut p = Problem::new();
    p.add_secondary("x");
    assert_eq!(checked_solutions(&p), vec![Vec::<usize>::new()]);
}

#[test]
fn zero_lower_bounds_allow_the_empty_solution() {
    let p = parse_knuth(
        "0:1|A 0:2|B
         A B
         B",
    );
    let sols = checked_solutions(&p);
    assert_eq!(sols, brute_force(&p));
    assert!(sols.contains(&vec![]));
}

#[test]
fn add_option_validates() {
    let mut p = Problem::new();
    let a = p.add_primary("a");
    let x = p.add_secondary("x");
    assert_eq!(p.add_option(&[]), Err(DlxError::EmptyOption));
    assert_eq!(
        p.add_option(&[(a, 0), (a, 0)]),
        Err(DlxError::RepeatedItem { name: "a".into() })
    );
    assert_eq!(
        p.add_option(&[(a, 3)]),
        Err(DlxError::ColouredPrimary { name: "a".into() })
    );
    assert_eq!(
        p.add_option(&[(a, 0), (7, 0)]),
        Err(DlxError::ItemOutOfRange { item: 7, count: 2 })
    );
    assert_eq!(p.add_option(&[(x, 1)]), Err(DlxError::NoPrimary));
    assert_eq!(p.add_option(&[(a, 0), (x, 2)]), Ok(0));
    assert_eq!(p.option(0), &[(a, 0), (x, 2)]);
    assert!(p.try_add_primary_range("b", 2, 1).is_err());
    assert!(p.try_add_primary_range("b", 0, 0).is_err());
    assert_eq!(p.num_options(), 1);
    assert_eq!(p.num_items(), 2);
    assert_eq!(p.num_primary(), 1);
}

#[test]
fn items_may_be_declared_in_any_order() {
    // Secondary items first, and items after options: the solver renumbers internally.
    let mut p = Problem::new();
    let x = p.add_secondary("x");
    let a = p.add_primary("a");
    p.add_option(&[(x, 0), (a, 0)]).unwrap();
    let b = p.add_primary("b");
    p.add_option(&[(b, 0), (x, 0)]).unwrap();
    p.add_option(&[(b, 0)]).unwrap();
    assert_eq!(checked_solutions(&p), vec![vec![0, 2]]);
}

#[test]
fn node_limit_stops_near_the_limit() {
    let p = instances::queens(12);
    let mut solver = Solver::new(&p);
    let mut run = Run::new(Limits {
        nodes: Some(1000),
        ..Limits::default()
    });
    solver.search(&mut run);
    let nodes = run.stats.nodes;
    assert!(
        (1000..=1001).contains(&nodes),
        "stopped after {nodes} nodes"
    );
    let out = run.finish("dlx", Answer::default());
    assert_eq!(out.status, Status::Limit);
    // The solver put its links back and searches again from scratch.
    let mut run = Run::new(Limits::default());
    solver.search(&mut run);
    assert_eq!(run.stats.solutions, 14_200);
    assert_eq!(run.stats.nodes, 211_716);
    assert_eq!(run.stats.counter("updates"), Some(3_594_752));
}

#[test]
fn sink_break_and_solution_limit_stop_the_search() {
    let p = instances::queens(8);
    let mut seen = 0;
    {
        let mut run = Run::new(Limits::default()).with_sink(Box::new(|s: &[usize]| {
            seen += 1;
            assert_eq!(s.len(), 8);
            if seen == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }));
        Solver::new(&p).search(&mut run);
        assert_eq!(run.stats.solutions, 3);
    }
    assert_eq!(seen, 3);
    // A solution limit without a sink still stops after that many.
    let mut run = Run::new(Limits {
        solutions: Some(5),
        ..Limits::default()
    });
    Solver::new(&p).search(&mut run);
    assert_eq!(run.stats.solutions, 5);
}

#[test]
fn queens_counts_match_a000170() {
    let expected = [1u128, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (n, &want) in (1..=10).zip(expected.iter()) {
        let p = instances::queens(n);
        if n <= 8 {
            assert_eq!(checked_solutions(&p).len() as u128, want, "N = {n}");
        }
        assert_eq!(count(&p).solutions, want, "N = {n}");
    }
}

/// A random instance with a planted solution; see `planted`.
#[derive(Clone, Debug)]
struct Instance {
    problem: Problem,
}

/// Primary items partitioned into groups, one planted option per group; secondary items used
/// by the planted options consistently (an uncoloured one by a single option, a coloured one
/// with a single colour); extra random options; the options shuffled. With `ranges`, each
/// primary item gets a range containing 1, so the planted solution stays valid.
fn planted(ranges: bool) -> impl Strategy<Value = Instance> {
    (1usize..=6, 0usize..=3, 0u32..=2)
        .prop_flat_map(move |(np, ns, nc)| {
            (
                prop::collection::vec(0..np, np),
                prop::collection::vec((0..=nc + 1, prop::collection::vec(any::<bool>(), np)), ns),
                prop::collection::vec(
                    (
                        prop::collection::vec(any::<bool>(), np),
                        prop::collection::vec(0..=nc + 1, ns),
                    ),
                    0..=8,
                ),
                prop::collection::vec((0u32..=1, 1u32..=2), np),
                any::<u64>(),
            )
        })
        .prop_map(move |(group, sec_plan, extra, range, seed)| {
            let np = group.len();
            let ns = sec_plan.len();
            let mut p = Problem::new();
            for (i, &(lo, hi)) in range.iter().enumerate() {
                if ranges {
                    p.add_primary_range(format!("p{i}"), lo, hi);
                } else {
                    p.add_primary(format!("p{i}"));
                }
            }
            for j in 0..ns {
                p.add_secondary(format!("s{j}"));
            }
            let mut options: Vec<Vec<(usize, u32)>> = Vec::new();
            let mut ids: Vec<usize> = group.clone();
            ids.sort_unstable();
            ids.dedup();
            for (g_index, &g) in ids.iter().enumerate() {
                let mut opt: Vec<(usize, u32)> =
                    (0..np).filter(|&i| group[i] == g).map(|i| (i, 0)).collect();
                for (j, (code, mask)) in sec_plan.iter().enumerate() {
                    let first_user = mask.iter().position(|&b| b);
                    match *code {
                        0 => {}
                        1 if first_user == Some(g_index) => opt.push((np + j, 0)),
                        1 => {}
                        c if mask[g_index] => opt.push((np + j, c - 1)),
                        _ => {}
                    }
                }
                options.push(opt);
            }
            for (mask, codes) in &extra {
                let mut opt: Vec<(usize, u32)> =
                    (0..np).filter(|&i| mask[i]).map(|i| (i, 0)).collect();
                if opt.is_empty() {
                    opt.push((0, 0));
                }
                for (j, &code) in codes.iter().enumerate() {
                    if code > 0 {
                        opt.push((np + j, code - 1));
                    }
                }
                options.push(opt);
            }
            // Fisher-Yates with a small LCG, so the planted options are not always first.
            let mut s = seed | 1;
            for k in (1..options.len()).rev() {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                options.swap(k, (s >> 33) as usize % (k + 1));
            }
            for opt in &options {
                p.add_option(opt).expect("generated option is valid");
            }
            Instance { problem: p }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn planted_solution_is_found_x_and_c(inst in planted(false)) {
        let p = &inst.problem;
        let sols = checked_solutions(p);
        prop_assert!(!sols.is_empty());
        prop_assert_eq!(&sols, &brute_force(p));
    }

    #[test]
    fn planted_solution_is_found_with_multiplicities(inst in planted(true)) {
        let p = &inst.problem;
        let sols = checked_solutions(p);
        prop_assert!(!sols.is_empty());
        prop_assert_eq!(&sols, &brute_force(p));
        prop_assert_eq!(count(p).solutions, sols.len() as u128);
    }
}

/// What one search found (the whole tree, or one part of it): its solutions sorted, each
/// checked, and its counts.
struct Searched {
    sols: Vec<Vec<usize>>,
    count: u128,
    nodes: u64,
    updates: u64,
    partial: Option<crate::engine::Partial>,
}

/// Search the whole tree (`part` `None`) or one part of it, on a solver that earlier parts
/// used too, goal all: every solution goes through the sink.
fn search_split(
    p: &Problem,
    solver: &mut Solver,
    part: Option<(usize, usize)>,
    subpart: Option<(usize, usize)>,
) -> Searched {
    use crate::engine::{Goal, Task};
    let mut sols = Vec::new();
    let (answer, stats) = {
        let mut run = Run::new(Limits::default()).with_sink(Box::new(|s: &[usize]| {
            sols.push(s.to_vec());
            ControlFlow::Continue(())
        }));
        let task = Task {
            goal: Goal::All,
            part,
            subpart,
            ..Task::default()
        };
        let answer = match part {
            Some(_) => crate::kinds::dlx_parts::search_part(solver, &task, &mut run, None),
            None => {
                solver.search(&mut run);
                Answer::default()
            }
        };
        (answer, run.stats.clone())
    };
    assert_eq!(stats.solutions, sols.len() as u128);
    if part.is_some() {
        assert_eq!(answer.count, Some(stats.solutions));
    }
    for s in &sols {
        assert!(is_solution(p, s), "invalid solution {s:?}");
    }
    sols.sort();
    Searched {
        sols,
        count: stats.solutions,
        nodes: stats.nodes,
        updates: stats.counter("updates").unwrap_or(0),
        partial: answer.partial,
    }
}

/// The parts of `p`, N = 1, 2, 3, 7, and parts of 3 split in subparts, find every solution
/// of the whole search once between them, and count its nodes and updates exactly; the parts
/// of one N agree on the list. Every part runs on one solver, left as built after each.
fn parts_add_up(p: &Problem) -> u64 {
    use crate::engine::PartialWork;
    let mut solver = Solver::new(p);
    let whole = search_split(p, &mut solver, None, None);
    for n in [1, 2, 3, 7] {
        let (mut sols, mut nodes, mut updates, mut count, mut taken) = (Vec::new(), 0, 0, 0, 0);
        let mut list = None;
        for i in 1..=n {
            let s = search_split(p, &mut solver, Some((i, n)), None);
            let partial = s.partial.expect("a part's record");
            assert_eq!(partial.work, PartialWork::Counted);
            assert_eq!(partial.part, Some((i, n)));
            assert!(list.is_none_or(|l| l == partial.list), "part {i}/{n}");
            list = Some(partial.list);
            taken += partial.taken;
            sols.extend(s.sols);
            (nodes, updates, count) = (nodes + s.nodes, updates + s.updates, count + s.count);
        }
        assert_eq!(taken, list.unwrap().subtrees, "N = {n}");
        sols.sort();
        assert_eq!(sols, whole.sols, "N = {n}");
        assert_eq!(count, whole.count, "N = {n}");
        assert_eq!(nodes, whole.nodes, "N = {n}");
        assert_eq!(updates, whole.updates, "N = {n}");
    }
    // Part 2/3 in 4 subparts (its subtrees dealt out), in 16 (their descendants listed a
    // level or more below: subpart 1 counts the nodes between), and part 1/3 in 16 (its
    // subpart 1 counts the list's ancestors too).
    for (i, m) in [(2, 4), (2, 16), (1, 16)] {
        let part = search_split(p, &mut solver, Some((i, 3)), None);
        let (mut sols, mut nodes, mut updates, mut taken) = (Vec::new(), 0, 0, 0);
        let mut sub = None;
        for j in 1..=m {
            let s = search_split(p, &mut solver, Some((i, 3)), Some((j, m)));
            let partial = s.partial.expect("a subpart's record");
            assert_eq!(partial.work, PartialWork::Counted);
            assert_eq!(partial.list, part.partial.as_ref().unwrap().list);
            let this = partial.subpart.expect("a subpart");
            assert!(sub.is_none_or(|s: crate::engine::Subpart| {
                (s.descendants, s.fingerprint) == (this.descendants, this.fingerprint)
            }));
            sub = Some(this);
            taken += partial.taken;
            sols.extend(s.sols);
            (nodes, updates) = (nodes + s.nodes, updates + s.updates);
        }
        assert_eq!(taken, sub.unwrap().descendants);
        sols.sort();
        assert_eq!(sols, part.sols, "part {i}/3 in {m}");
        assert_eq!(nodes, part.nodes, "part {i}/3 in {m}");
        assert_eq!(updates, part.updates, "part {i}/3 in {m}");
    }
    // The solver is as built: a last whole search counts as the first.
    let again = search_split(p, &mut solver, None, None);
    assert_eq!((again.nodes, again.updates), (whole.nodes, whole.updates));
    whole.nodes
}

/// `--threads` on a count: the whole tree and a part shared out to 2 and 3 threads count the
/// solutions, nodes and updates of one thread, and leave the solver as built.
fn threads_count_as_one(p: &Problem) {
    use crate::engine::{Goal, Task};
    let counted = |solver: &mut Solver, threads: usize, part: Option<(usize, usize)>| {
        let task = Task {
            goal: Goal::Count,
            threads,
            part,
            ..Task::default()
        };
        let mut run = Run::new(Limits::default());
        let answer = crate::kinds::dlx_parts::search(solver, &task, &mut run);
        assert_eq!(answer.partial.is_some(), part.is_some());
        let updates = run.stats.counter("updates").unwrap_or(0);
        let stats = run.finish("dlx", answer).stats;
        (stats.solutions, stats.nodes, updates)
    };
    let mut solver = Solver::new(p);
    for part in [None, Some((2, 3))] {
        let one = counted(&mut solver, 1, part);
        for threads in [2, 3] {
            assert_eq!(
                counted(&mut solver, threads, part),
                one,
                "{threads} threads, part {part:?}"
            );
        }
    }
    let whole = count(p);
    let again = counted(&mut solver, 1, None);
    assert_eq!(
        again,
        (
            whole.solutions,
            whole.nodes,
            whole.counter("updates").unwrap_or(0)
        )
    );
}

/// A list of subtrees cut with runs of at most `most` siblings a level (runs split again
/// further down), a few levels deep, searched node by node on one solver, in the list's
/// order and backwards: the solutions of the whole search once, and its nodes and updates
/// with those the listing expanded. Whether the list held a run.
fn runs_cover_the_tree(p: &Problem, most: usize) -> bool {
    let solutions_of = |solver: &mut Solver, nodes: &[Prefix]| {
        let mut sols = Vec::new();
        let stats = {
            let mut run = Run::new(Limits::default()).with_sink(Box::new(|s: &[usize]| {
                sols.push(s.to_vec());
                ControlFlow::Continue(())
            }));
            for node in nodes {
                solver.search_below(node, &mut run);
            }
            run.stats.clone()
        };
        sols.sort();
        (sols, stats.nodes, stats.counter("updates").unwrap_or(0))
    };
    let mut solver = Solver::new(p);
    let whole = solutions_of(&mut solver, &[Prefix::root()]);
    let (mut list, mut expanded, mut made) = (vec![Prefix::root()], 0, 0);
    let mut had_runs = false;
    for _ in 0..4 {
        let mut next = Vec::new();
        for node in list {
            match solver.expand(&node, most) {
                Expansion::Solution => next.push(node),
                Expansion::Children { children, updates } => {
                    (expanded, made) = (expanded + 1, made + updates);
                    had_runs |= children.iter().any(|c| c.run() > 1);
                    next.extend(children);
                }
                Expansion::Runs(runs) => {
                    assert!(runs.len() > 1 && runs.len() <= most);
                    assert_eq!(runs.iter().map(Prefix::run).sum::<usize>(), node.run());
                    next.extend(runs);
                }
            }
        }
        list = next;
    }
    let forward = solutions_of(&mut solver, &list);
    list.reverse();
    let backward = solutions_of(&mut solver, &list);
    for (sols, nodes, updates) in [forward, backward] {
        assert_eq!(sols, whole.0, "most {most}, runs {had_runs}");
        assert_eq!(nodes + expanded, whole.1, "most {most}");
        assert_eq!(updates + made, whole.2, "most {most}");
    }
    // The links came back as built: the whole search again counts as the first.
    assert_eq!(solutions_of(&mut solver, &[Prefix::root()]), whole);
    had_runs
}

#[test]
fn runs_of_siblings_cover_the_tree() {
    for p in [
        instances::queens(6),
        instances::pentominoes(3, 20, false),
        binary_grids(4, 2),
        kings(5, 6),
    ] {
        for most in [2, 3] {
            assert!(runs_cover_the_tree(&p, most));
        }
        runs_cover_the_tree(&p, 7);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn runs_of_siblings_cover_planted_trees(
        inst in planted(false),
        ranged in planted(true),
        most in 2usize..=4,
    ) {
        runs_cover_the_tree(&inst.problem, most);
        runs_cover_the_tree(&ranged.problem, most);
    }
}

/// One primary item and `n` options each holding only it: `n` solutions on one level.
fn one_wide_level(n: usize) -> Problem {
    let mut p = Problem::new();
    let x = p.add_primary("x");
    for _ in 0..n {
        p.add_option(&[(x, 0)]).unwrap();
    }
    p
}

/// A level of a hundred thousand options is listed as runs of them, as many as a list
/// needs, and shared out to threads or parts with the exact count, nodes and updates of one
/// search.
#[test]
fn a_wide_level_is_cut_into_runs() {
    use crate::engine::{Goal, Task};
    let p = one_wide_level(100_000);
    let mut solver = Solver::new(&p);
    let mut total = (0, 0);
    for (i, n, threads) in [(1, 1, 2), (1, 3, 1), (2, 3, 2), (3, 3, 1)] {
        let task = Task {
            goal: Goal::Count,
            part: Some((i, n)),
            threads,
            ..Task::default()
        };
        let mut run = Run::new(Limits::default());
        let answer = crate::kinds::dlx_parts::search_part(&mut solver, &task, &mut run, None);
        let partial = answer.partial.expect("a part's record");
        assert_eq!(partial.list.subtrees, 4 * crate::engine::split::list_len(n));
        let count = answer.count.unwrap();
        if n == 1 {
            assert_eq!((count, run.stats.nodes), (100_000, 100_001));
        } else {
            total = (total.0 + count, total.1 + run.stats.nodes);
        }
    }
    assert_eq!(total, (100_000, 100_001));
}

/// Siblings are one change of option apart: searching below each of a hundred thousand
/// options of one item, one after another, takes no cover of the item for each (a
/// hundred thousand hides each: minutes), and counts as the whole search does.
#[test]
fn siblings_searched_one_after_another_count_each_once() {
    let p = one_wide_level(100_000);
    let mut solver = Solver::new(&p);
    let Expansion::Children { children, .. } = solver.expand(&Prefix::root(), usize::MAX) else {
        panic!("the root branches");
    };
    assert_eq!(children.len(), 100_000);
    let mut run = Run::new(Limits::default());
    for child in &children {
        solver.search_below(child, &mut run);
    }
    assert_eq!((run.stats.solutions, run.stats.nodes), (100_000, 100_000));
}

/// Rows and columns of a `size` x `size` 0/1 grid each a word with `ones` ones, the cells
/// secondary items coloured by their digit (Algorithm C): the grids whose rows and columns
/// all hold `ones` ones.
fn binary_grids(size: usize, ones: u32) -> Problem {
    let mut p = Problem::new();
    let rows: Vec<usize> = (0..size).map(|r| p.add_primary(format!("r{r}"))).collect();
    let cols: Vec<usize> = (0..size).map(|c| p.add_primary(format!("c{c}"))).collect();
    let cell: Vec<usize> = (0..size * size)
        .map(|k| p.add_secondary(format!("x{k}")))
        .collect();
    for w in (0u32..1 << size).filter(|w| w.count_ones() == ones) {
        let digit = |k: usize| (w >> k & 1) + 1;
        for r in 0..size {
            let mut opt = vec![(rows[r], 0)];
            opt.extend((0..size).map(|c| (cell[r * size + c], digit(c))));
            p.add_option(&opt).unwrap();
        }
        for c in 0..size {
            let mut opt = vec![(cols[c], 0)];
            opt.extend((0..size).map(|r| (cell[r * size + c], digit(r))));
            p.add_option(&opt).unwrap();
        }
    }
    p
}

/// `kings` non-attacking kings on a `size` x `size` board, one or two in each row (Algorithm
/// M: a count item [kings, kings], rows [1, 2], the attacking pairs secondary).
fn kings(size: usize, kings: u32) -> Problem {
    let mut p = Problem::new();
    let count = p.add_primary_range("count", kings, kings);
    let rows: Vec<usize> = (0..size)
        .map(|r| p.add_primary_range(format!("r{r}"), 1, 2))
        .collect();
    let mut pairs = vec![Vec::new(); size * size];
    for a in 0..size * size {
        for b in a + 1..size * size {
            let (ra, ca, rb, cb) = (a / size, a % size, b / size, b % size);
            if ra.abs_diff(rb) <= 1 && ca.abs_diff(cb) <= 1 {
                let k = p.add_secondary(format!("p{a}.{b}"));
                pairs[a].push(k);
                pairs[b].push(k);
            }
        }
    }
    for s in 0..size * size {
        let mut opt = vec![(count, 0), (rows[s / size], 0)];
        opt.extend(pairs[s].iter().map(|&k| (k, 0)));
        p.add_option(&opt).unwrap();
    }
    p
}

#[test]
fn parts_add_up_algorithm_x() {
    assert_eq!(parts_add_up(&instances::queens(8)), 1_049);
    parts_add_up(&instances::queens(9));
    // 3x20: the 8 packings of the two solutions' classes.
    assert!(parts_add_up(&instances::pentominoes(3, 20, false)) > 1_000);
    parts_add_up(&instances::sudoku(
        "4.....8.5 .3....... ...7..... .2.....6. ....8.4.. ....1.... ...6.3.7. 5..2..... 1.4......",
    ));
    threads_count_as_one(&instances::queens(9));
    threads_count_as_one(&instances::pentominoes(3, 20, false));
}

#[test]
fn parts_add_up_algorithm_c() {
    let p = binary_grids(5, 2);
    assert_eq!(Solver::new(&p).algorithm(), "C");
    assert_eq!(count(&p).solutions, 2040);
    parts_add_up(&p);
    threads_count_as_one(&p);
}

#[test]
fn parts_add_up_algorithm_m() {
    let p = kings(6, 8);
    assert_eq!(Solver::new(&p).algorithm(), "M");
    assert!(count(&p).solutions > 100);
    parts_add_up(&p);
    threads_count_as_one(&p);
    // Colours and multiplicities together.
    parts_add_up(&parse_knuth(
        "A B 2:3|C | X Y
         A B X:0 Y:0
         A C X:1 Y:1
         C X:0
         B X:1
         C Y:1",
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn parts_add_up_on_planted_instances(inst in planted(false), ranged in planted(true)) {
        parts_add_up(&inst.problem);
        parts_add_up(&ranged.problem);
        threads_count_as_one(&inst.problem);
        threads_count_as_one(&ranged.problem);
    }
}

/// DXZ's count and its diagram's solutions, sorted.
fn dxz_all(p: &Problem, branch: Branch) -> (u128, Vec<Vec<usize>>) {
    let mut dxz = Dxz::new(p, branch, 1 << 30);
    let counted = dxz.count(&mut Run::new(Limits::default()));
    let count = counted.count.expect("an unlimited run finishes");
    let mut sols = Vec::new();
    {
        let mut run = Run::new(Limits::default()).with_sink(Box::new(|s: &[usize]| {
            sols.push(s.to_vec());
            ControlFlow::Continue(())
        }));
        dxz.enumerate(&mut run);
    }
    for s in &sols {
        assert!(is_solution(p, s), "invalid solution {s:?}");
    }
    sols.sort();
    (count, sols)
}

/// Domino tilings of a `w` x `h` board with holes at the squares `holes` marks: one primary
/// item per square, one option per domino; the squares a colour class of secondary items when
/// `coloured` (each domino gives its row's parity as a colour to a shared item of its column,
/// so that colours constrain without changing the count much).
fn dominoes(w: usize, h: usize, holes: &[bool], coloured: bool) -> Problem {
    let mut p = Problem::new();
    let mut item = vec![usize::MAX; w * h];
    for s in 0..w * h {
        if !holes[s] {
            item[s] = p.add_primary(format!("c{s}"));
        }
    }
    let columns: Vec<usize> = (0..w).map(|c| p.add_secondary(format!("k{c}"))).collect();
    for r in 0..h {
        for (c, &column) in columns.iter().enumerate() {
            let s = r * w + c;
            for t in [(c + 1 < w).then_some(s + 1), (r + 1 < h).then_some(s + w)]
                .into_iter()
                .flatten()
            {
                if holes[s] || holes[t] {
                    continue;
                }
                let mut opt = vec![(item[s], 0), (item[t], 0)];
                if coloured && t == s + w {
                    opt.push((column, 1 + (r % 2) as u32));
                }
                p.add_option(&opt).unwrap();
            }
        }
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn dxz_finds_what_dlx_finds(inst in planted(false), first in any::<bool>()) {
        let p = &inst.problem;
        let want = checked_solutions(p);
        let branch = if first { Branch::First } else { Branch::Fewest };
        let (count, sols) = dxz_all(p, branch);
        prop_assert_eq!(count, want.len() as u128);
        prop_assert_eq!(&sols, &want);
        let mut solver = Solver::new(p);
        solver.set_branch(branch);
        let mut run = Run::new(Limits::default());
        solver.search(&mut run);
        prop_assert_eq!(run.stats.solutions, want.len() as u128);
    }

    /// The count by levels meets the sub-problems the memo searches branching on the first
    /// item, each once: same count, as many distinct ones, as many copies merged.
    #[test]
    fn levels_count_what_the_memo_counts(inst in planted(false)) {
        let p = &inst.problem;
        prop_assume!(!p.has_colours());
        let want = checked_solutions(p).len() as u128;
        let (entries, hits) = memo_first(p);
        let levels = Levels::<1>::new(p, 1 << 30).count(&mut Run::new(Limits::default()));
        prop_assert_eq!(levels.count, Some(want));
        prop_assert_eq!((levels.entries, levels.merged), (entries, hits));
    }

    /// Tilings repeat their sub-problems, so the memo is used, with colours too.
    #[test]
    fn dxz_counts_holed_tilings_as_dlx_does(
        w in 2usize..=6,
        h in 2usize..=6,
        holes in prop::collection::vec(0u8..8, 36),
        coloured in any::<bool>(),
    ) {
        let holes: Vec<bool> = holes[..w * h].iter().map(|&x| x == 0).collect();
        prop_assume!(holes.iter().any(|&x| !x));
        let p = dominoes(w, h, &holes, coloured);
        let want = checked_solutions(&p);
        for branch in [Branch::Fewest, Branch::First] {
            let (count, sols) = dxz_all(&p, branch);
            prop_assert_eq!(count, want.len() as u128);
            prop_assert_eq!(&sols, &want);
        }
        if !coloured {
            let (entries, hits) = memo_first(&p);
            let levels = Levels::<1>::new(&p, 1 << 30).count(&mut Run::new(Limits::default()));
            prop_assert_eq!(levels.count, Some(want.len() as u128));
            prop_assert_eq!((levels.entries, levels.merged), (entries, hits));
        }
    }
}

/// The memo's entries and hits, branching on the first item.
fn memo_first(p: &Problem) -> (u64, u64) {
    let mut dxz = Dxz::new(p, Branch::First, 1 << 30);
    let mut run = Run::new(Limits::default());
    dxz.count(&mut run)
        .count
        .expect("an unlimited run finishes");
    let hits = run.stats.counter("memo hits").unwrap_or(0);
    (dxz.memo_entries() as u64, hits)
}

/// Tilings of 8x8, 10x10 and 14x14 by levels, in one, two and four words a key (the
/// 14x14 board's 210 items), against their OEIS values (A004003) and the memo's count; the
/// 14x14 count passes 2^64, so its levels are counted again in 128 bits.
#[test]
fn levels_count_tilings_in_every_width() {
    // 4x6: 281 tilings.
    let small = dominoes(4, 6, &[false; 24], false);
    assert!(Levels::<1>::fits(&small));
    let run = || Run::new(Limits::default());
    assert_eq!(
        Levels::<1>::new(&small, 1 << 30).count(&mut run()).count,
        Some(281)
    );
    for (side, want) in [
        (8, 12_988_816u128),
        (10, 258_584_046_368),
        (14, 112_202_208_776_036_178_000_000),
    ] {
        let p = dominoes(side, side, &vec![false; side * side], false);
        let got = if Levels::<2>::fits(&p) {
            Levels::<2>::new(&p, 1 << 30).count(&mut run())
        } else {
            assert!(Levels::<4>::fits(&p));
            Levels::<4>::new(&p, 1 << 30).count(&mut run())
        };
        assert_eq!(got.count, Some(want), "{side}x{side}");
        let mut dxz = Dxz::new(&p, Branch::First, 1 << 30);
        assert_eq!(dxz.count(&mut run()).count, Some(want));
    }
}

#[test]
fn levels_stop_at_a_limit_or_the_budget() {
    let p = dominoes(6, 6, &[false; 36], false);
    let limited = Levels::<1>::new(&p, 1 << 30).count(&mut Run::new(Limits {
        nodes: Some(20),
        ..Limits::default()
    }));
    assert_eq!((limited.count, limited.out_of_memory), (None, None));
    let small = Levels::<1>::new(&p, 2000).count(&mut Run::new(Limits::default()));
    assert_eq!(
        (small.count, small.out_of_memory),
        (None, Some(Short::Budget))
    );
}

#[test]
fn dxz_remembers_sub_problems_of_a_tiling() {
    let p = dominoes(8, 8, &[false; 64], false);
    let mut dxz = Dxz::new(&p, Branch::Fewest, 1 << 30);
    let mut run = Run::new(Limits::default());
    assert_eq!(dxz.count(&mut run).count, Some(12_988_816));
    // Far fewer sub-problems than tilings: the memo did the work.
    assert!(dxz.memo_entries() < 10_000, "{}", dxz.memo_entries());
    assert!(run.stats.counter("memo hits").unwrap() > 0);
}

#[test]
fn dxz_stopped_or_out_of_memory_leaves_the_links_as_built() {
    let p = dominoes(6, 6, &[false; 36], true);
    let whole = dxz_all(&p, Branch::Fewest).0;
    let mut dxz = Dxz::new(&p, Branch::Fewest, 1 << 30);
    let stopped = dxz.count(&mut Run::new(Limits {
        nodes: Some(20),
        ..Limits::default()
    }));
    assert_eq!(stopped.count, None);
    assert_eq!(stopped.out_of_memory, None);
    let mut small = Dxz::new(&p, Branch::Fewest, 2000);
    let out = small.count(&mut Run::new(Limits::default()));
    assert_eq!(out.count, None);
    assert_eq!(out.out_of_memory, Some(Short::Budget));
    // Both searched again from the start give the whole count: nothing was left covered.
    let again = dxz.count(&mut Run::new(Limits::default())).count;
    assert_eq!(again, Some(whole));
    let mut fresh = Dxz::new(&p, Branch::Fewest, 1 << 30);
    assert_eq!(
        fresh.count(&mut Run::new(Limits::default())).count,
        Some(whole)
    );
}
