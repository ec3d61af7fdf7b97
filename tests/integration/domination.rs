//! Domination against published values (OEIS A006075, A103315, A006076, A342576, A075458),
//! every strategy against the others on small boards, every placement through an independent
//! validator written here.

use boardsolve::engine::{Goal, Outcome, Status};

use crate::validate::{TestBoard, TestPiece};
use crate::{puzzle, run_cli, run_cli_with, solve};

const STRATEGIES: [&str; 4] = ["bnb", "bands", "dlx", "blocks"];

/// The statistics counters of bnb's pruning rules and of the band bound's prunes.
const BNB_RULES: [&str; 14] = [
    "bound prunes",
    "cost exclusions",
    "forced squares",
    "dominated siblings",
    "symmetric siblings",
    "corner images",
    "excluded replacers",
    "replaceable pieces",
    "replaceable pairs",
    "swap demands",
    "swapped pieces",
    "group demands",
    "swapped groups",
    "band prunes",
];

/// OEIS A006075: knights covering n x n, n = 1..16.
const KNIGHTS: [usize; 16] = [1, 4, 4, 4, 5, 8, 10, 12, 14, 16, 21, 24, 28, 32, 36, 40];
/// OEIS A342576: non-attacking knights covering n x n, n = 1..16.
const KNIGHTS_INDEPENDENT: [usize; 16] = [1, 4, 4, 4, 5, 8, 13, 14, 14, 16, 22, 24, 29, 33, 36, 40];
/// OEIS A103315 (minimum placements) and A006076 (up to symmetry), n = 1..12.
const KNIGHT_PLACEMENTS: [u128; 12] = [1, 1, 8, 9, 47, 127, 10, 2, 2, 4, 800, 2];
const KNIGHT_CLASSES: [u128; 12] = [1, 1, 2, 3, 8, 23, 3, 1, 1, 2, 100, 1];
/// OEIS A075458: queens covering n x n, n = 1..12.
const QUEENS: [usize; 12] = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6];

fn text(moves: &str, independent: bool) -> String {
    format!(
        "kind = \"domination\"\n[board]\nsize = 8\n[piece]\nmoves = \"{moves}\"\n\
         [rules]\nindependent = {independent}\n"
    )
}

/// The independent check: every square of the board occupied or attacked by a piece, the
/// pieces on distinct squares of the board, and none attacking another when asked.
fn check_domination(
    board: &TestBoard,
    piece: &TestPiece,
    independent: bool,
    width: usize,
    sol: &[usize],
) {
    let rc: Vec<(i64, i64)> = sol
        .iter()
        .map(|&s| ((s / width) as i64, (s % width) as i64))
        .collect();
    for (i, &a) in rc.iter().enumerate() {
        assert!(
            a.0 < board.height && a.1 < board.width && !board.holes.contains(&a),
            "piece off the board: {a:?} in {rc:?}"
        );
        for &b in &rc[i + 1..] {
            assert_ne!(a, b, "two pieces on {a:?}");
            if independent {
                assert!(
                    !board.attacks(piece, a, b) && !board.attacks(piece, b, a),
                    "{a:?} and {b:?} attack each other in {rc:?}"
                );
            }
        }
    }
    for r in 0..board.height {
        for c in 0..board.width {
            if board.holes.contains(&(r, c)) {
                continue;
            }
            assert!(
                rc.iter()
                    .any(|&p| p == (r, c) || board.attacks(piece, p, (r, c))),
                "({r}, {c}) is neither occupied nor attacked by {rc:?}"
            );
        }
    }
}

fn minimum(t: &str, n: usize, strategy: &str) -> (usize, Vec<usize>) {
    let (o, _, _) = solve(t, Some(n), strategy, Goal::Minimize, false, 1);
    assert_eq!(o.status, Status::Solved, "{strategy} n={n}");
    let best = o.answer.best.clone().expect("a placement");
    assert_eq!(o.answer.optimum, Some(best.len() as u64));
    (best.len(), best)
}

fn counted(t: &str, n: usize, strategy: &str, unique: bool) -> Outcome {
    let (o, _, _) = solve(t, Some(n), strategy, Goal::Count, unique, 1);
    assert_eq!(o.status, Status::Solved, "{strategy} n={n}");
    o
}

#[test]
fn knight_domination_numbers_match_oeis() {
    let n_piece = TestPiece::from_letters("N");
    for (independent, table) in [(false, KNIGHTS), (true, KNIGHTS_INDEPENDENT)] {
        let t = text("N", independent);
        // Up to 16x16, of which plain 16x16 is the longest search.
        for n in 1..=16 {
            let (k, best) = minimum(&t, n, "bnb");
            assert_eq!(k, table[n - 1], "independent={independent} n={n}");
            check_domination(
                &TestBoard::square(n as i64),
                &n_piece,
                independent,
                n,
                &best,
            );
        }
    }
}

#[test]
fn knight_minimum_placements_match_oeis_counted_and_up_to_symmetry() {
    let t = text("N", false);
    let n_piece = TestPiece::from_letters("N");
    for n in 1..=12 {
        let o = counted(&t, n, "bnb", false);
        assert_eq!(o.answer.count, Some(KNIGHT_PLACEMENTS[n - 1]), "n={n}");
        assert_eq!(o.answer.optimum, Some(KNIGHTS[n - 1] as u64), "n={n}");
        let o = counted(&t, n, "bnb", true);
        assert_eq!(o.answer.count, Some(KNIGHT_CLASSES[n - 1]), "n={n} unique");
    }
    // Every one of the 127 optimal 6x6 placements, as each strategy reports them to a sink,
    // is valid and distinct, and the strategies report the same ones.
    let mut all = Vec::new();
    {
        use boardsolve::engine::{Limits, Run, Task};
        use boardsolve::kinds::Model;
        use boardsolve::spec::{Overrides, Spec};
        let spec = Spec::parse(
            "t.toml",
            &t,
            &Overrides {
                size: Some(6),
                ..Overrides::default()
            },
        )
        .unwrap();
        let model = Model::compile(&spec).unwrap();
        let found = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let f = std::sync::Arc::clone(&found);
        for strategy in STRATEGIES {
            f.lock().unwrap().clear();
            let f2 = std::sync::Arc::clone(&f);
            let mut run = Run::new(Limits::default()).with_sink(Box::new(move |s: &[usize]| {
                f2.lock().unwrap().push(s.to_vec());
                std::ops::ControlFlow::Continue(())
            }));
            let task = Task {
                goal: Goal::Count,
                ..Task::default()
            };
            model.solve(strategy, &task, &mut run).unwrap();
            let mut sols = found.lock().unwrap().clone();
            sols.sort();
            sols.dedup();
            assert_eq!(sols.len(), 127, "{strategy}: distinct placements");
            for s in &sols {
                assert_eq!(s.len(), 8);
                check_domination(&TestBoard::square(6), &n_piece, false, 6, s);
            }
            all.push(sols);
        }
    }
    assert!(
        all.windows(2).all(|w| w[0] == w[1]),
        "strategies found different placements"
    );
}

/// Two workers sharing the incumbent give the same optima as one, on knights (both
/// variants), queens and kings, every placement validated.
#[test]
fn bnb_on_two_threads_matches_oeis() {
    let cases: [(&str, bool, &[usize]); 4] = [
        ("N", false, &KNIGHTS[..12]),
        ("N", true, &KNIGHTS_INDEPENDENT[..13]),
        ("Q", false, &QUEENS[..10]),
        ("K", false, &[1, 1, 1, 4, 4, 4, 9, 9, 9]),
    ];
    for (moves, independent, table) in cases {
        let t = text(moves, independent);
        for (i, &want) in table.iter().enumerate() {
            let n = i + 1;
            let (o, _, _) = solve(&t, Some(n), "bnb", Goal::Minimize, false, 2);
            assert_eq!(o.status, Status::Solved, "{moves} n={n}");
            let best = o.answer.best.clone().expect("a placement");
            assert_eq!(best.len(), want, "{moves} independent={independent} n={n}");
            assert_eq!(o.answer.optimum, Some(want as u64));
            check_domination(
                &TestBoard::square(n as i64),
                &TestPiece::from_letters(moves),
                independent,
                n,
                &best,
            );
        }
    }
}

/// The band bound's search (one thread and two) gives the published optima of both knight
/// variants and the counts of optimal placements, every placement validated.
#[test]
fn bands_match_oeis() {
    let piece = TestPiece::from_letters("N");
    for (independent, table) in [(false, &KNIGHTS), (true, &KNIGHTS_INDEPENDENT)] {
        let t = text("N", independent);
        for n in 1..=12 {
            let want = table[n - 1];
            for threads in [1, 2] {
                let (o, _, _) = solve(&t, Some(n), "bands", Goal::Minimize, false, threads);
                let best = o.answer.best.clone().expect("a placement");
                assert_eq!(o.status, Status::Solved, "n={n}");
                assert_eq!(best.len(), want, "independent={independent} n={n}");
                assert_eq!(o.answer.optimum, Some(want as u64));
                check_domination(&TestBoard::square(n as i64), &piece, independent, n, &best);
            }
        }
    }
    let t = text("N", false);
    for n in 1..=10 {
        let o = counted(&t, n, "bands", false);
        assert_eq!(o.answer.count, Some(KNIGHT_PLACEMENTS[n - 1]), "n={n}");
    }
}

#[test]
fn queen_king_rook_bishop_domination_numbers() {
    let q = text("Q", false);
    for n in 1..=10 {
        let (k, best) = minimum(&q, n, "bnb");
        assert_eq!(k, QUEENS[n - 1], "queens n={n}");
        check_domination(
            &TestBoard::square(n as i64),
            &TestPiece::from_letters("Q"),
            false,
            n,
            &best,
        );
    }
    for (moves, value) in [
        ("K", (|n: usize| n.div_ceil(3).pow(2)) as fn(usize) -> usize),
        ("R", |n| n),
        ("B", |n| n),
    ] {
        let t = text(moves, false);
        for n in 1..=9 {
            let (k, best) = minimum(&t, n, "bnb");
            assert_eq!(k, value(n), "{moves} n={n}");
            check_domination(
                &TestBoard::square(n as i64),
                &TestPiece::from_letters(moves),
                false,
                n,
                &best,
            );
        }
    }
}

/// Every strategy that applies gives the same optimum and the same number of optimal
/// placements, with and without `independent`, on boards up to 7x7, rectangles and holes;
/// bnb's minimize gives that optimum too; and every pruning rule of bnb fired on the way.
#[test]
fn strategies_agree_up_to_7x7() {
    let mut cases: Vec<(String, Option<usize>, TestBoard, &str)> = Vec::new();
    for moves in ["N", "K", "Q", "B", "R", "NN"] {
        for independent in [false, true] {
            for n in 1..=7 {
                // Long jobs left out: dlx would count the 243,856 optimal king placements on
                // 7x7 one by one, and riders on 7x7 are long for it too.
                if n == 7 && moves != "N" {
                    continue;
                }
                cases.push((
                    text(moves, independent),
                    Some(n),
                    TestBoard::square(n as i64),
                    moves,
                ));
            }
        }
    }
    for independent in [false, true] {
        cases.push((
            format!(
                "kind = \"domination\"\n[board]\nwidth = 7\nheight = 4\n[piece]\nmoves = \"N\"\n\
                 [rules]\nindependent = {independent}\n"
            ),
            None,
            TestBoard {
                width: 7,
                height: 4,
                holes: vec![],
            },
            "N",
        ));
        cases.push((
            format!(
                "kind = \"domination\"\n[board]\nsize = 6\nholes = [[0, 0], [2, 3], [3, 3]]\n\
                 [piece]\nmoves = \"Q\"\n[rules]\nindependent = {independent}\n"
            ),
            None,
            TestBoard {
                width: 6,
                height: 6,
                holes: vec![(0, 0), (2, 3), (3, 3)],
            },
            "Q",
        ));
    }
    // What bnb's pruning rules did over all the cases, counting and minimizing: each must
    // have fired, or the agreement says nothing about it.
    let mut fired = boardsolve::engine::Stats::default();
    for (t, size, board, moves) in &cases {
        let independent = t.contains("independent = true");
        let piece = TestPiece::from_letters(moves);
        let mut verdicts = Vec::new();
        for s in STRATEGIES {
            if !crate::applies(
                &t.replace("size = 8", &format!("size = {}", size.unwrap_or(8))),
                s,
            ) {
                continue;
            }
            let (o, _, _) = solve(t, *size, s, Goal::Count, false, 1);
            assert_eq!(o.status, Status::Solved, "{s} on {t} size {size:?}");
            let best = o.answer.best.clone().expect("a placement");
            check_domination(board, &piece, independent, board.width as usize, &best);
            assert_eq!(o.answer.optimum, Some(best.len() as u64));
            verdicts.push((s, o.answer.optimum, o.answer.count));
            fired.merge(&o.stats);
        }
        assert!(verdicts.len() >= 2, "{t} {size:?}: {verdicts:?}");
        assert!(
            verdicts
                .windows(2)
                .all(|w| (w[0].1, w[0].2) == (w[1].1, w[1].2)),
            "{t} size {size:?}: {verdicts:?}"
        );
        // Minimize, where symmetry and replaceability prune, on one thread and two: the
        // optimum the strategies agreed on.
        for threads in [1, 2] {
            let (o, _, _) = solve(t, *size, "bnb", Goal::Minimize, false, threads);
            assert_eq!(
                o.answer.optimum, verdicts[0].1,
                "bnb minimize on {t} {size:?}"
            );
            let best = o.answer.best.clone().expect("a placement");
            check_domination(board, &piece, independent, board.width as usize, &best);
            fired.merge(&o.stats);
        }
    }
    // Independent knights on 13x13 and 14x14 against the published optima: there the swap
    // demands drop nodes, which the small boards with an optimal incumbent do not reach.
    for n in [13, 14] {
        let (o, _, _) = solve(&text("N", true), Some(n), "bnb", Goal::Minimize, false, 1);
        assert_eq!(
            o.answer.optimum,
            Some(KNIGHTS_INDEPENDENT[n - 1] as u64),
            "n={n}"
        );
        fired.merge(&o.stats);
    }
    for rule in BNB_RULES {
        assert!(
            fired.counter(rule).is_some_and(|n| n > 0),
            "{rule} never fired: {:?}",
            fired.counters
        );
    }
}

#[test]
fn goal_first_gives_a_covering_placement_from_every_strategy() {
    let n_piece = TestPiece::from_letters("N");
    for independent in [false, true] {
        let t = text("N", independent);
        for s in STRATEGIES {
            let (o, sols, _) = solve(&t, Some(8), s, Goal::First, false, 1);
            assert_eq!(o.status, Status::Solved, "{s}");
            assert_eq!(sols.len(), 1, "{s}");
            check_domination(&TestBoard::square(8), &n_piece, independent, 8, &sols[0]);
        }
    }
}

#[test]
fn knights8_prints_fourteen_knights_proven() {
    let (code, out, err) = run_cli(&[&puzzle("knights8.toml")]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.split(' ').count() == 8 && l.chars().all(|c| "K. ".contains(c)))
        .collect();
    assert_eq!(rows.len(), 8, "{out}");
    assert_eq!(out.matches('K').count(), 14, "{out}");
    assert!(out.contains("optimum 14 (proven)"), "{out}");
    let (code, out, _) = run_cli(&[
        &puzzle("knights8.toml"),
        "--set",
        "rules.independent=false",
        "--format",
        "json",
        "--quiet",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["optimum"], 12);
    assert_eq!(v["proven"], true);
    assert_eq!(v["status"], "solved");
    assert_eq!(v["solutions"][0].as_array().unwrap().len(), 12);
}

#[test]
fn a_limit_returns_the_best_so_far_not_proven() {
    let (code, out, _) = run_cli(&[
        &puzzle("knights8.toml"),
        "--size",
        "16",
        "--set",
        "rules.independent=false",
        "--node-limit",
        "50",
        "--format",
        "json",
        "--quiet",
    ]);
    assert_eq!(code, 3, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "limit");
    assert_eq!(v["proven"], false);
    let best = v["optimum"].as_u64().expect("a best so far");
    assert!(best >= 40, "{out}");
    assert_eq!(v["solutions"][0].as_array().unwrap().len() as u64, best);
}

#[test]
fn blocks_is_refused_where_its_bound_is_empty() {
    let t = text("Q", false);
    assert!(!crate::applies(&t, "blocks"));
    assert!(crate::applies(&text("N", true), "blocks"));
}

/// OEIS A006075 and A342576, n = 17..21: beyond what the tests prove, the first incumbent
/// (greedy rounds and the local search, before any branching) already has the published size.
const KNIGHTS_LARGE: [(usize, usize, usize); 5] = [
    (17, 46, 47),
    (18, 52, 52),
    (19, 57, 58),
    (20, 62, 63),
    (21, 68, 68),
];

#[test]
fn local_search_finds_the_published_optimum_up_to_21x21() {
    let n_piece = TestPiece::from_letters("N");
    for (n, plain, independent) in KNIGHTS_LARGE {
        for (indep, want) in [(false, plain), (true, independent)] {
            let size = n.to_string();
            let set = format!("rules.independent={indep}");
            // One node: the search stops at the root, after the local search.
            let (code, out, err) = run_cli(&[
                &puzzle("knights8.toml"),
                "--size",
                &size,
                "--set",
                &set,
                "--node-limit",
                "1",
                "--format",
                "json",
                "--quiet",
            ]);
            assert_eq!(code, 3, "n={n} independent={indep}: {out}{err}");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["proven"], false);
            assert_eq!(v["optimum"], want, "n={n} independent={indep}");
            let sol: Vec<usize> = v["solutions"][0]
                .as_array()
                .expect("a best so far")
                .iter()
                .map(|p| (p[0].as_u64().unwrap() * n as u64 + p[1].as_u64().unwrap()) as usize)
                .collect();
            assert_eq!(sol.len(), want);
            check_domination(&TestBoard::square(n as i64), &n_piece, indep, n, &sol);
        }
    }
}

/// `--part I/N`: each part is searched on its own, says so in its record, and is not proven
/// alone; the parts see one subtree list whatever the threads.
#[test]
fn parts_split_one_subtree_list_and_are_not_proven_alone() {
    let n_piece = TestPiece::from_letters("N");
    let mut listed = Vec::new();
    for (part, threads) in [("1/3", "1"), ("2/3", "2"), ("3/3", "1")] {
        let (code, out, err) = run_cli(&[
            &puzzle("knights8.toml"),
            "--size",
            "14",
            "--set",
            "rules.independent=false",
            "--part",
            part,
            "--threads",
            threads,
            "--format",
            "json",
            "--quiet",
        ]);
        assert_eq!(code, 0, "{out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["proven"], false);
        assert_eq!(v["finished"], true);
        assert_eq!(v["best"], 32);
        let (i, n) = part.split_once('/').unwrap();
        let want: Vec<u64> = vec![i.parse().unwrap(), n.parse().unwrap()];
        assert_eq!(v["part"], serde_json::json!(want), "{v}");
        assert_eq!(v["none_below"], 32, "{v}");
        assert_eq!(v["list"]["bar"], 32, "{v}");
        listed.push((
            v["taken"].as_u64().unwrap() as usize,
            v["list"]["subtrees"].as_u64().unwrap() as usize,
            v["list"]["fingerprint"].as_str().unwrap().to_string(),
        ));
        let sol: Vec<usize> = v["solution"]
            .as_array()
            .expect("the best placement")
            .iter()
            .map(|s| s.as_u64().unwrap() as usize)
            .collect();
        check_domination(&TestBoard::square(14), &n_piece, false, 14, &sol);
    }
    let total = listed[0].1;
    // One list whatever the threads: the same count and the same fingerprint.
    assert!(listed.iter().all(|(_, t, _)| *t == listed[0].1));
    assert!(
        listed.iter().all(|(_, _, f)| *f == listed[0].2),
        "{listed:?}"
    );
    assert_eq!(listed.iter().map(|(k, _, _)| k).sum::<usize>(), total);
    // The answer line says the same in words.
    let (code, out, _) = run_cli(&[
        &puzzle("knights8.toml"),
        "--size",
        "14",
        "--set",
        "rules.independent=false",
        "--part",
        "2/3",
        "--quiet",
    ]);
    assert_eq!(code, 0);
    let want = format!(
        "optimum 32 (best found, not proven) [part 2/3: {} of {total} subtrees below 32 (list {}) \
         searched: none smaller than 32 in them]",
        listed[1].0, listed[1].2
    );
    assert_eq!(out.lines().last(), Some(want.as_str()), "{out}");
}

#[test]
fn parts_and_estimates_report_and_bad_ones_are_refused() {
    // The whole tree, and with --part the part's share (how long the part will take).
    for (part, says) in [
        (None, "[estimate, "),
        (Some("2/5"), "[estimate, part 2/5: "),
    ] {
        let mut args = vec![puzzle("knights8.toml")];
        args.extend(["--size", "12", "--estimate", "500", "--quiet"].map(String::from));
        if let Some(p) = part {
            args.extend(["--part".to_string(), p.to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 3, "{out}{err}");
        assert!(out.contains(says), "{out}");
        assert!(out.contains("nodes (Knuth, 500 probes"), "{out}");
    }
    for (args, says) in [
        (vec!["--part", "0/3"], "--part 0/3: accepted: I/N"),
        (vec!["--part", "4/3"], "--part 4/3: accepted: I/N"),
        (vec!["--part", "x"], "--part x: accepted: I/N"),
        (vec!["--part", "1/3,0/2"], "or I/N,J/M for part J of M"),
        (vec!["--part", "1/3,2/2,1/2"], "or I/N,J/M for part J of M"),
        (vec!["--part", "1/3,"], "or I/N,J/M for part J of M"),
        (
            vec!["--estimate", "0"],
            "--estimate 0: accepted: 1 or more probes",
        ),
        (vec!["--part", "1/2", "--goal", "count"], "--optimum K"),
        (
            vec!["--part", "1/2", "--strategy", "dlx"],
            "accepted only by strategies that split",
        ),
    ] {
        let mut a = vec![puzzle("knights8.toml")];
        a.extend(args.iter().map(|s| s.to_string()));
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let (code, out, err) = run_cli(&a);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // A subpart says which part's descendants it took, under both fingerprints.
    let (code, out, err) = run_cli(&[
        &puzzle("knights8.toml"),
        "--size",
        "13",
        "--part",
        "2/5,3/4",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("[part 2/5,3/4: "), "{out}");
    assert!(out.contains("descendants of"), "{out}");
    assert!(out.contains(", sublist "), "{out}");
    assert!(
        out.contains("searched: none smaller than 29 in them]"),
        "{out}"
    );
    // An option no strategy of the kind takes: the reason once, not once per strategy.
    let (code, _, err) = run_cli(&[&puzzle("queens8.toml"), "--optimum", "8"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err.matches("--optimum: accepted with goal count and --part")
            .count(),
        1,
        "{err}"
    );
}

/// `puzzles/knights8.toml` at `size`, plain or independent, as `solve` compiles it.
fn knights8(size: usize, independent: bool) -> boardsolve::kinds::Model {
    use boardsolve::spec::{Overrides, Spec};
    let file = puzzle("knights8.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let overrides = Overrides {
        size: Some(size),
        set: vec![format!("rules.independent={independent}")],
        ..Overrides::default()
    };
    boardsolve::kinds::Model::compile(&Spec::parse(&file, &text, &overrides).unwrap()).unwrap()
}

/// The nodes bnb takes to prove knights n x n, one thread and two. They hold once the local
/// search has found the optimum (it does on these boards, whatever the machine): the two
/// workers then search the same tree. A change here is a change in what the search does.
#[test]
fn bnb_node_counts_are_pinned() {
    use boardsolve::engine::{Limits, Run, Task};
    // (n, independent, optimum, nodes on one thread and on two)
    let cases = [
        (14, true, 33, 10_420, 10_420),
        (14, false, 32, 2_637, 2_637),
        (16, true, 40, 23_101, 23_101),
    ];
    for (n, independent, optimum, one, two) in cases {
        let m = knights8(n, independent);
        for (threads, nodes) in [(1, one), (2, two)] {
            let task = Task {
                goal: Goal::Minimize,
                threads,
                ..Task::default()
            };
            let mut run = Run::new(Limits::default());
            let answer = m.solve("bnb", &task, &mut run).unwrap();
            let o = run.finish("bnb", answer);
            let name = format!("n={n} independent={independent} threads={threads}");
            assert_eq!(o.status, Status::Solved, "{name}");
            assert_eq!(o.answer.optimum, Some(optimum), "{name}");
            // A worker that runs dry is given part of another's subtree when the timing
            // allows; a donated subtree keeps no rows above it, so plain domination may then
            // take a few more nodes (never fewer placements checked). Without donation the
            // count is exact.
            if o.stats.counter("donations").unwrap_or(0) == 0 {
                assert_eq!(o.stats.nodes, nodes, "{name}");
            } else {
                let ratio = o.stats.nodes as f64 / nodes as f64;
                assert!(
                    (1.0..1.1).contains(&ratio),
                    "{name}: {} nodes",
                    o.stats.nodes
                );
            }
        }
    }
}

/// The subtree lists of the two 20x20 proofs in parts (`--part I/N`, in proofs/): the
/// parts already searched hold only for these lists, so the list a binary computes must not
/// change.
#[test]
fn the_subtree_lists_of_the_20x20_proofs_are_pinned() {
    use boardsolve::engine::{Limits, Run, SubtreeList};
    use boardsolve::kinds::Model;
    use boardsolve::kinds::domination::subtree_list;
    for (independent, want) in [
        (
            true,
            SubtreeList {
                subtrees: 102,
                bar: Some(63),
                fingerprint: 0x5db2_f912_8d57_d3a5,
            },
        ),
        (
            false,
            SubtreeList {
                subtrees: 169,
                bar: Some(62),
                fingerprint: 0x47b9_00cf_0657_0310,
            },
        ),
    ] {
        let Model::Domination(m) = knights8(20, independent) else {
            unreachable!("knights8.toml is a domination puzzle")
        };
        let got = subtree_list(&m, &mut Run::new(Limits::default()));
        assert_eq!(got, Some(want), "independent={independent}");
    }
}

/// A tuning knob set in `[solve.options]` or by `--set` reaches the search (other steps,
/// other nodes, the same proven optimum); a bad one is refused where it stands, naming the
/// key and what is accepted; kinds without knobs refuse them.
#[test]
fn tuning_options_come_from_the_file_or_set_and_bad_ones_are_refused() {
    let nodes = |extra: &[&str]| {
        let mut args = vec![
            puzzle("knights8.toml"),
            "--size".into(),
            "12".into(),
            "--format".into(),
            "json".into(),
            "--quiet".into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 0, "{extra:?}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["optimum"], 24, "{extra:?}");
        v["stats"]["nodes"].as_u64().unwrap()
    };
    let default = nodes(&[]);
    let same = nodes(&["--set", "solve.options.bnb.root_steps=3000"]);
    assert_eq!(default, same);
    let fewer_steps = nodes(&["--set", "solve.options.bnb.root_steps=0"]);
    assert_ne!(default, fewer_steps, "the knob reached the search");

    let text = std::fs::read_to_string(puzzle("knights8.toml")).unwrap()
        + "\n[solve.options]\nbnb.root_steps = -1\n";
    let (code, _, err) = run_cli_with(&["-"], Some(&text));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("solve.options.bnb.root_steps"), "{err}");
    assert!(err.contains("accepted") || err.contains(" to "), "{err}");
    assert!(err.contains("<stdin>:"), "{err}");
    let (code, _, err) = run_cli(&[
        &puzzle("knights8.toml"),
        "--set",
        "solve.options.bnb.nonsense=1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("known: bnb.root_steps"), "{err}");
    let (code, _, err) = run_cli(&[
        &puzzle("queens8.toml"),
        "--set",
        "solve.options.bnb.root_steps=1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("has no tuning options"), "{err}");
}

/// The band programs may grow to their caps on every thread: `bands` is refused up front when
/// that exceeds the budget, naming the caps that set it; `bnb` needs no such room.
#[test]
fn bands_are_refused_when_their_programs_exceed_the_memory() {
    let knights = puzzle("knights8.toml");
    let with = |s| {
        run_cli(&[
            &knights,
            "--threads",
            "1",
            "--memory",
            "100M",
            "--strategy",
            s,
        ])
    };
    let (code, out, err) = with("bands");
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("it would take 156 MiB for the band programs at their caps")
            && err.contains("bands.max_choices = 8388608) on 1 thread")
            && err.contains("memory budget of 100 MiB (--memory)"),
        "{err}"
    );
    let (code, out, err) = with("bnb");
    assert_eq!(code, 0, "{out}{err}");
}
