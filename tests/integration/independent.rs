//! Independent placement against published values (OEIS A000170, A002562), every strategy
//! against the others, every solution through the independent validator.

use boardsolve::engine::{Goal, Status};

use crate::validate::{TestBoard, TestPiece, check_placement, orbit_count};
use crate::{parts_sum, solve};

const QUEENS: &str = "kind = \"independent\"\n[board]\nsize = 8\n[piece]\nmoves = \"Q\"\n";

/// OEIS A000170 and A002562, n = 1..14.
const TOTAL: [u128; 14] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
];
const UNIQUE: [u128; 14] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

const STRATEGIES: [&str; 5] = ["brute", "backtrack", "flags", "bitmask", "dlx"];

fn max_n(strategy: &str) -> usize {
    if strategy == "brute" { 8 } else { 14 }
}

fn count(text: &str, size: usize, strategy: &str, unique: bool) -> u128 {
    let (o, _, _) = solve(text, Some(size), strategy, Goal::Count, unique, 1);
    assert_ne!(o.status, Status::Limit);
    o.answer.count.unwrap()
}

#[test]
fn queens_totals_match_oeis_for_every_strategy() {
    for s in STRATEGIES {
        for n in 1..=max_n(s) {
            assert_eq!(count(QUEENS, n, s, false), TOTAL[n - 1], "{s} n={n}");
        }
    }
}

#[test]
fn queens_unique_counts_match_oeis_for_every_strategy() {
    for s in STRATEGIES {
        for n in 1..=max_n(s).min(12) {
            assert_eq!(count(QUEENS, n, s, true), UNIQUE[n - 1], "{s} n={n}");
        }
    }
}

#[test]
fn queens_count_with_two_threads() {
    for n in [8, 10, 12] {
        let (o, _, _) = solve(QUEENS, Some(n), "bitmask", Goal::Count, false, 2);
        assert_eq!(o.answer.count, Some(TOTAL[n - 1]));
        let (o, _, _) = solve(QUEENS, Some(n), "bitmask", Goal::Count, true, 2);
        assert_eq!(o.answer.count, Some(UNIQUE[n - 1]));
    }
}

fn to_rc(width: usize, sol: &[usize]) -> Vec<(i64, i64)> {
    sol.iter()
        .map(|&s| ((s / width) as i64, (s % width) as i64))
        .collect()
}

#[test]
fn every_queens_solution_is_valid_and_distinct() {
    let q = TestPiece::from_letters("Q");
    for s in STRATEGIES {
        for n in 1..=8 {
            let (o, sols, _) = solve(QUEENS, Some(n), s, Goal::All, false, 1);
            assert_eq!(o.answer.count, Some(TOTAL[n - 1]), "{s} n={n}");
            assert_eq!(sols.len() as u128, TOTAL[n - 1], "{s} n={n}");
            let mut seen = std::collections::HashSet::new();
            for sol in &sols {
                check_placement(&TestBoard::square(n as i64), &q, n, &to_rc(n, sol));
                assert!(seen.insert(sol.clone()), "{s} n={n}: {sol:?} twice");
            }
            // Unique representatives are solutions, one per class.
            let (_, reps, _) = solve(QUEENS, Some(n), s, Goal::All, true, 1);
            assert_eq!(reps.len() as u128, UNIQUE[n - 1], "{s} n={n} unique");
            let rc: Vec<_> = reps.iter().map(|r| to_rc(n, r)).collect();
            assert_eq!(orbit_count(&TestBoard::square(n as i64), &rc), reps.len());
        }
    }
}

/// (file text, board for the validator, piece letters, pieces)
fn others() -> Vec<(String, TestBoard, &'static str, usize)> {
    let mut out = Vec::new();
    for n in 3..=5 {
        out.push((
            format!("kind = \"independent\"\n[board]\nsize = {n}\n[piece]\nmoves = \"N\"\n[rules]\ncount = {n}\n"),
            TestBoard::square(n as i64),
            "N",
            n,
        ));
        out.push((
            format!("kind = \"independent\"\n[board]\nsize = {n}\n[piece]\nmoves = \"K\"\n[rules]\ncount = {}\n", n - 1),
            TestBoard::square(n as i64),
            "K",
            n - 1,
        ));
        out.push((
            format!("kind = \"independent\"\n[board]\nsize = {n}\n[piece]\nmoves = \"NN\"\n[rules]\ncount = {n}\n"),
            TestBoard::square(n as i64),
            "NN",
            n,
        ));
    }
    out.push((
        "kind = \"independent\"\n[board]\nwidth = 5\nheight = 4\nholes = [[1, 2], [2, 2]]\n[piece]\nmoves = \"R\"\n[rules]\ncount = 6\n".into(),
        TestBoard { width: 5, height: 4, holes: vec![(1, 2), (2, 2)] },
        "R",
        6,
    ));
    out.push((
        "kind = \"independent\"\n[board]\nsize = 5\nholes = [\"c3\"]\n[piece]\nmoves = \"Q\"\n[rules]\ncount = 4\n".into(),
        TestBoard { width: 5, height: 5, holes: vec![(2, 2)] },
        "Q",
        4,
    ));
    out.push((
        "kind = \"independent\"\n[board]\nsize = 5\nholes = [\"a1\", \"e5\"]\n[piece]\nmoves = \"B\"\n[rules]\ncount = 6\n".into(),
        TestBoard { width: 5, height: 5, holes: vec![(4, 0), (0, 4)] },
        "B",
        6,
    ));
    out
}

#[test]
fn strategies_agree_on_other_pieces_and_boards_with_holes() {
    for (text, board, letters, k) in others() {
        let piece = TestPiece::from_letters(letters);
        let (ob, brute_sols, _) = solve(&text, None, "brute", Goal::All, false, 1);
        let total = ob.answer.count.unwrap();
        assert_eq!(brute_sols.len() as u128, total);
        let width = board.width as usize;
        let rc: Vec<_> = brute_sols.iter().map(|s| to_rc(width, s)).collect();
        for s in &rc {
            check_placement(&board, &piece, k, s);
        }
        let classes = orbit_count(&board, &rc) as u128;
        for s in STRATEGIES {
            if !crate::applies(&text, s) {
                assert!(s == "flags", "{s} should apply to\n{text}");
                continue;
            }
            let (o, sols, _) = solve(&text, None, s, Goal::All, false, 1);
            assert_eq!(o.answer.count, Some(total), "{s} on\n{text}");
            let mut a = sols.clone();
            let mut b = brute_sols.clone();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{s} found other solutions on\n{text}");
            let (u, _, _) = solve(&text, None, s, Goal::Count, true, 1);
            assert_eq!(u.answer.count, Some(classes), "{s} --unique on\n{text}");
        }
        let (t, _, _) = solve(&text, None, "bitmask", Goal::Count, false, 2);
        assert_eq!(t.answer.count, Some(total), "two threads on\n{text}");
    }
}

#[test]
fn maximize_finds_the_largest_independent_set() {
    let knights = "kind = \"independent\"\n[board]\nsize = 8\n[piece]\nmoves = \"N\"\n[solve]\ngoal = \"maximize\"\n";
    for (n, best) in [(1, 1), (2, 4), (3, 5), (4, 8), (5, 13), (6, 18), (8, 32)] {
        for s in ["backtrack", "bitmask"] {
            if s == "backtrack" && n == 8 {
                continue;
            }
            let (o, _, model) = solve(knights, Some(n), s, Goal::Maximize, false, 1);
            assert_eq!(o.status, Status::Solved);
            assert_eq!(o.answer.optimum, Some(best), "{s} knights n={n}");
            let sol = o.answer.best.clone().unwrap();
            model.check(&sol).unwrap();
            check_placement(
                &TestBoard::square(n as i64),
                &TestPiece::from_letters("N"),
                best as usize,
                &to_rc(n, &sol),
            );
        }
    }
    let kings = "kind = \"independent\"\n[board]\nsize = 7\n[piece]\nmoves = \"K\"\n[solve]\ngoal = \"maximize\"\n";
    for n in 1..=7usize {
        let (o, _, _) = solve(kings, Some(n), "bitmask", Goal::Maximize, false, 1);
        assert_eq!(
            o.answer.optimum,
            Some(n.div_ceil(2).pow(2) as u64),
            "kings n={n}"
        );
    }
}

#[test]
fn node_limit_leaves_the_count_unproven() {
    use boardsolve::engine::{Limits, Run, Task};
    use boardsolve::kinds::Model;
    use boardsolve::spec::{Overrides, Spec};
    let spec = Spec::parse(
        "q.toml",
        QUEENS,
        &Overrides {
            size: Some(12),
            ..Overrides::default()
        },
    )
    .unwrap();
    let model = Model::compile(&spec).unwrap();
    for s in ["backtrack", "flags", "bitmask", "dlx"] {
        let mut run = Run::new(Limits {
            nodes: Some(5_000),
            ..Limits::default()
        });
        let a = model.solve(s, &Task::default(), &mut run).unwrap();
        let o = run.finish(s, a);
        assert_eq!(o.status, Status::Limit, "{s}");
        // The constellation counter reports nodes in batches of 2^14 from its hot loop.
        let slack = if s == "bitmask" { 1 << 14 } else { 64 };
        assert!(
            o.stats.nodes <= 5_000 + slack,
            "{s}: {} nodes",
            o.stats.nodes
        );
    }
}

#[test]
fn row_backtracking_tree_size_matches_the_published_count() {
    // Plain row-by-row backtracking visits 27,358,552 nodes for n = 14 (known-answers.md):
    // one per queen placed, as `backtrack` and `flags` count them.
    for s in ["backtrack", "flags"] {
        let (o, _, _) = solve(QUEENS, Some(14), s, Goal::Count, false, 1);
        assert_eq!(o.stats.nodes, 27_358_552, "{s}");
    }
}

/// `--part`: the parts of bitmask (constellations for the queens count, the row search for
/// goal all, the general search for other pieces) and backtrack add up to one run, nodes
/// included (every search here is deterministic and the parts search the same tree).
#[test]
fn parts_add_up_to_one_run() {
    let queens =
        |n: usize| format!("kind = \"independent\"\n[board]\nsize = {n}\n[piece]\nmoves = \"Q\"\n");
    for n in [8, 10, 12] {
        crate::parts_sum(&queens(n), None, "bitmask", (Goal::Count, false));
    }
    crate::parts_sum(&queens(9), None, "bitmask", (Goal::All, false));
    crate::parts_sum(&queens(8), None, "backtrack", (Goal::Count, false));
    crate::parts_sum(&queens(8), None, "backtrack", (Goal::All, false));
    let knights =
        "kind = \"independent\"\n[board]\nsize = 5\n[piece]\nmoves = \"N\"\n[rules]\ncount = 7\n";
    for strategy in ["bitmask", "backtrack"] {
        for goal in [Goal::Count, Goal::All] {
            crate::parts_sum(knights, None, strategy, (goal, false));
        }
    }
    let holes = std::fs::read_to_string(crate::puzzle("kings-holes.toml")).unwrap();
    crate::parts_sum(&holes, None, "bitmask", (Goal::Count, false));
}

/// Queens classes (`--unique`) in parts: the constellations' Burnside sums need not make
/// whole classes in a part, so the parts count classes in the row search; their sum is the
/// class count (their nodes are the row search's, not the constellation counter's).
#[test]
fn unique_queens_parts_add_up_to_the_classes() {
    let text = "kind = \"independent\"\n[board]\nsize = 10\n[piece]\nmoves = \"Q\"\n";
    let spec = boardsolve::spec::Spec::parse("t.toml", text, &Default::default()).unwrap();
    let model = boardsolve::kinds::Model::compile(&spec).unwrap();
    let mut sum = 0;
    for i in 1..=3 {
        let task = boardsolve::engine::Task {
            unique: true,
            part: Some((i, 3)),
            ..Default::default()
        };
        let run = boardsolve::engine::Run::new(Default::default());
        let c = model.solve_checked("bitmask", &task, run, 0).unwrap();
        assert_eq!(c.outcome.status, Status::Part);
        sum += c.outcome.answer.count.unwrap();
    }
    assert_eq!(sum, 92);
}

/// `solve FILE --goal count --part 1/2`: a part searched to its end exits 0 and says so.
#[test]
fn a_part_exits_zero_and_says_so() {
    let (code, out, err) = crate::run_cli(&[
        &crate::puzzle("queens8.toml"),
        "--goal",
        "count",
        "--part",
        "1/2",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("in this part [part 1/2: "), "{out}");
    // --estimate is for the strategies that size their trees.
    let max = crate::puzzle("knights-max.toml");
    let (code, _, err) = crate::run_cli(&[
        &max,
        "--estimate",
        "100",
        "--part",
        "1/2",
        "--strategy",
        "bitmask",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("strategy \"bitmask\" does not apply: --estimate"),
        "{err}"
    );
}

/// `--part I/N` with dlx: the parts of 8, 9 and 10 queens add up to the whole search (counts,
/// nodes, updates, every placement checked), also under --unique.
#[test]
fn dlx_parts_add_up() {
    let text = std::fs::read_to_string(crate::puzzle("queens8.toml")).unwrap();
    for n in 8..=10 {
        let whole = parts_sum(&text, Some(n), "dlx", (Goal::All, false));
        assert_eq!(whole.count, TOTAL[n - 1], "n = {n}");
        for s in &whole.solutions {
            let q = TestPiece::from_letters("Q");
            check_placement(&TestBoard::square(n as i64), &q, n, &to_rc(n, s));
        }
    }
    let whole = parts_sum(&text, Some(10), "dlx", (Goal::All, true));
    assert_eq!(whole.count, UNIQUE[9]);
    // Knuth's DLX1 figures for 8 queens: the parts count them exactly.
    let whole = parts_sum(&text, Some(8), "dlx", (Goal::Count, false));
    assert_eq!((whole.nodes, whole.updates), (1_049, Some(16_680)));
}

/// The largest number of mutually non-attacking pieces on the board and how many placements
/// of that many there are, by the test's own attack walk: every square either left empty or
/// taken, the squares still free memoised as a bitset (boards of up to 64 squares).
fn largest_by_subsets(board: &TestBoard, piece: &TestPiece) -> (u64, u128) {
    use std::collections::HashMap;
    let cells: Vec<(i64, i64)> = (0..board.height)
        .flat_map(|r| (0..board.width).map(move |c| (r, c)))
        .filter(|rc| !board.holes.contains(rc))
        .collect();
    let hits: Vec<u64> = cells
        .iter()
        .map(|&a| {
            (0..cells.len())
                .filter(|&j| board.attacks(piece, a, cells[j]))
                .fold(0, |m, j| m | 1 << j)
        })
        .collect();
    fn go(free: u64, hits: &[u64], memo: &mut HashMap<u64, (u64, u128)>) -> (u64, u128) {
        if free == 0 {
            return (0, 1);
        }
        if let Some(&v) = memo.get(&free) {
            return v;
        }
        let i = free.trailing_zeros() as usize;
        let rest = free & !(1 << i);
        let skip = go(rest, hits, memo);
        let (k, c) = go(rest & !hits[i], hits, memo);
        let take = (k + 1, c);
        let v = match skip.0.cmp(&take.0) {
            std::cmp::Ordering::Greater => skip,
            std::cmp::Ordering::Less => take,
            std::cmp::Ordering::Equal => (skip.0, skip.1 + take.1),
        };
        memo.insert(free, v);
        v
    }
    let all = if cells.len() == 64 {
        !0
    } else {
        (1u64 << cells.len()) - 1
    };
    go(all, &hits, &mut HashMap::new())
}

/// Goal count without `rules.count` (a piece with no default count): the largest placements
/// counted, their size the answer's optimum, by both strategies that maximize, as the
/// test's own search over subsets finds them; and as a count with that size given.
#[test]
fn count_without_a_count_counts_the_largest_placements() {
    // A piece, the board's width and height, its holes as (row, col).
    type Case = (&'static str, i64, i64, &'static [(i64, i64)]);
    let cases: [Case; 9] = [
        ("K", 4, 4, &[]),
        ("K", 6, 6, &[]),
        ("K", 7, 5, &[]),
        ("K", 6, 6, &[(2, 2), (2, 3), (3, 2), (3, 3)]),
        ("N", 5, 5, &[]),
        ("N", 6, 6, &[]),
        ("N", 4, 7, &[(0, 0), (6, 3)]),
        ("B", 6, 6, &[]),
        ("B", 7, 5, &[(1, 1)]),
    ];
    for (piece, width, height, holes) in cases {
        let board = TestBoard {
            width,
            height,
            holes: holes.to_vec(),
        };
        let (largest, placements) = largest_by_subsets(&board, &TestPiece::from_letters(piece));
        let holes: Vec<String> = holes.iter().map(|(r, c)| format!("[{r}, {c}]")).collect();
        let text = format!(
            "kind = \"independent\"\n[board]\nwidth = {width}\nheight = {height}\nholes = [{}]\n\
             [piece]\nmoves = \"{piece}\"\n",
            holes.join(", ")
        );
        let what = format!("{piece} on {width}x{height} holes {holes:?}");
        for s in ["backtrack", "bitmask"] {
            for threads in [1, 2] {
                let (o, sols, model) = solve(&text, None, s, Goal::Count, false, threads);
                assert_eq!(o.status, Status::Solved, "{s} {what}");
                assert_eq!(o.answer.optimum, Some(largest), "{s} {what}");
                assert_eq!(o.answer.count, Some(placements), "{s} {what}");
                // The placement shown is one of the largest.
                assert_eq!(sols.len(), 1, "{s} {what}");
                model.check(&sols[0]).unwrap();
                assert_eq!(sols[0].len() as u64, largest, "{s} {what}");
            }
        }
        // The same count with the size given, and the same classes under --unique.
        let given = format!("{text}[rules]\ncount = {largest}\n");
        for unique in [false, true] {
            let (a, _, _) = solve(&text, None, "bitmask", Goal::Count, unique, 1);
            let (b, _, _) = solve(&given, None, "dlx", Goal::Count, unique, 1);
            assert_eq!(a.answer.count, b.answer.count, "{what} unique {unique}");
        }
    }
}

/// Published values: 32 knights on 8x8 in 2 ways (the two colours), 14 bishops in 2^8 = 256
/// ways, 16 kings in 281,571 ways (OEIS A018807).
#[test]
fn count_without_a_count_on_the_chessboard() {
    for (piece, largest, placements) in [("N", 32, 2), ("B", 14, 256), ("K", 16, 281_571)] {
        let text =
            format!("kind = \"independent\"\n[board]\nsize = 8\n[piece]\nmoves = \"{piece}\"\n");
        let (o, _, _) = solve(&text, None, "bitmask", Goal::Count, false, 2);
        assert_eq!(o.answer.optimum, Some(largest), "{piece}");
        assert_eq!(o.answer.count, Some(placements), "{piece}");
    }
}

/// The strategies that cannot find the largest size refuse goal count without a count, and
/// so does a part of `backtrack`, whose count needs its size given (`bitmask`'s parts find
/// their own); goals first and all still need one.
#[test]
fn count_without_a_count_is_refused_where_it_cannot_be_served() {
    use boardsolve::engine::Task;
    let bishops = "kind = \"independent\"\n[board]\nsize = 5\n[piece]\nmoves = \"B\"\n";
    let model = crate::model_of(bishops, None);
    for s in ["brute", "flags", "dlx", "construct"] {
        let why = model.applies(s, &Task::default()).unwrap_err().to_string();
        assert!(
            why.contains(&format!("strategy \"{s}\" does not apply")),
            "{why}"
        );
        if s != "construct" {
            assert!(why.contains("served by backtrack and bitmask"), "{why}");
        }
    }
    let part = Task {
        part: Some((1, 2)),
        ..Task::default()
    };
    for s in ["backtrack", "bitmask"] {
        model.applies(s, &Task::default()).unwrap();
    }
    let why = model.applies("backtrack", &part).unwrap_err().to_string();
    assert!(why.contains("given as rules.count"), "{why}");
    model.applies("bitmask", &part).unwrap();
    for goal in ["first", "all"] {
        let text = format!("{bishops}[solve]\ngoal = \"{goal}\"\n");
        let spec = boardsolve::spec::Spec::parse("b.toml", &text, &Default::default()).unwrap();
        let e = boardsolve::kinds::Model::compile(&spec)
            .err()
            .expect("refused");
        assert!(e.to_string().contains("key `rules.count`: missing"), "{e}");
    }
}
