//! The `construct` strategy of the independent kind: queens and rooks placed by formula on
//! boards of any size, kings and knights in their largest patterns, every placement checked
//! by the library's validator on its way out and once more here, by lines counted in plain
//! vectors or leaps looked up in a set.

use boardsolve::engine::{Goal, Limits, Refusal, Run, Status, Task};
use boardsolve::kinds::Model;
use boardsolve::kinds::independent::{IndependentRefusal, Pattern};
use boardsolve::util::Packed;

use crate::validate::{TestBoard, TestPiece, check_placement};
use crate::{model_of, puzzle, run_cli, solve};

const QUEENS: &str = "kind = \"independent\"\n[board]\nsize = 8\n[piece]\nmoves = \"Q\"\n";

fn board(width: usize, height: usize, piece: &str, count: usize) -> String {
    format!(
        "kind = \"independent\"\n[board]\nwidth = {width}\nheight = {height}\n[piece]\nmoves = \
         \"{piece}\"\n[rules]\ncount = {count}\n"
    )
}

fn first() -> Task {
    Task {
        goal: Goal::First,
        ..Task::default()
    }
}

/// Why `strategy` does not take the task: the independent kind's own refusal, which the
/// library carries inside the strategy's.
fn refusal(m: &Model, strategy: &str, task: &Task) -> IndependentRefusal {
    let why = match m.applies(strategy, task) {
        Err(Refusal::DoesNotApply { strategy: s, why }) if s == strategy => *why,
        other => panic!("{strategy}: {other:?}"),
    };
    match &why {
        Refusal::Kind(k) => k
            .get::<IndependentRefusal>()
            .cloned()
            .unwrap_or_else(|| panic!("{strategy}: {why:?}")),
        _ => panic!("{strategy}: {why:?}"),
    }
}

/// The placement `construct` gives, as (row, column) pairs: from the solutions of a board
/// with the whole model, from the compact answer (a column per row) of a larger one. Both
/// passed the library's validator in `solve`.
fn placement(text: &str, size: Option<usize>) -> Vec<(usize, usize)> {
    let (o, sols, m) = solve(text, size, "construct", Goal::First, false, 1);
    assert_eq!(o.status, Status::Solved, "{text} at {size:?}");
    let width = match &m {
        boardsolve::kinds::Model::Independent(m) => m.board.width,
        _ => unreachable!(),
    };
    match (&o.answer.compact, sols.as_slice()) {
        (Some(cols), []) => rows(cols),
        (None, [one]) => one.iter().map(|&s| (s / width, s % width)).collect(),
        _ => panic!("one placement, as squares or packed: {o:?}"),
    }
}

fn rows(cols: &Packed) -> Vec<(usize, usize)> {
    let none = cols.ones();
    cols.iter()
        .enumerate()
        .filter(|&(_, c)| c != none)
        .map(|(r, c)| (r, c as usize))
        .collect()
}

/// No two pieces share a row, a column (`rook`) or a diagonal (`bishop`), each on the
/// `width` x `height` board: every line counted in a vector of its own.
fn lines_free(pieces: &[(usize, usize)], width: usize, height: usize, rook: bool, bishop: bool) {
    let mut row = vec![0u8; height];
    let mut col = vec![0u8; width];
    let mut diag = vec![0u8; width + height];
    let mut anti = vec![0u8; width + height];
    for &(r, c) in pieces {
        assert!(r < height && c < width, "({r}, {c}) off the board");
        row[r] += 1;
        col[c] += 1;
        diag[r + width - c] += 1;
        anti[r + c] += 1;
    }
    assert!(row.iter().all(|&k| k <= 1), "two pieces in a row");
    if rook {
        assert!(col.iter().all(|&k| k <= 1), "two pieces in a column");
    }
    if bishop {
        assert!(diag.iter().all(|&k| k <= 1), "two pieces on a diagonal");
        assert!(
            anti.iter().all(|&k| k <= 1),
            "two pieces on an anti-diagonal"
        );
    }
}

#[test]
fn queens_by_formula_pass_both_validators_for_every_n_to_2000() {
    for n in (1..=2000).filter(|&n| n != 2 && n != 3) {
        let p = placement(QUEENS, Some(n));
        assert_eq!(p.len(), n, "n = {n}");
        lines_free(&p, n, n, true, true);
        if n <= 12 {
            let rc: Vec<(i64, i64)> = p.iter().map(|&(r, c)| (r as i64, c as i64)).collect();
            check_placement(
                &TestBoard::square(n as i64),
                &TestPiece::from_letters("Q"),
                n,
                &rc,
            );
        }
    }
}

#[test]
fn sides_two_and_three_are_left_to_the_searches_which_find_none() {
    for n in [2, 3] {
        let m = model_of(QUEENS, Some(n));
        assert_eq!(
            refusal(&m, "construct", &first()),
            IndependentRefusal::ConstructSmallQueens { side: n }
        );
        assert_eq!(m.auto_strategy(&first()), Some("bitmask"), "n = {n}");
        let (o, sols, _) = solve(QUEENS, Some(n), "bitmask", Goal::First, false, 1);
        assert_eq!(o.status, Status::NoSolution, "n = {n}");
        assert!(sols.is_empty());
        let size = n.to_string();
        let (code, out, _) =
            run_cli(&[&puzzle("queens8.toml"), "--size", &size, "--goal", "first"]);
        assert_eq!(code, 1, "n = {n}: {out}");
        assert!(out.contains("no solution"), "{out}");
    }
}

/// A million queens, built and checked: the compact answer, with nothing per square.
#[test]
fn a_million_queens_pass_both_validators() {
    let n = 1_000_000;
    let p = placement(QUEENS, Some(n));
    assert_eq!(p.len(), n);
    lines_free(&p, n, n, true, true);
}

#[test]
fn fewer_pieces_and_rectangles_take_the_shorter_side() {
    for (w, h, piece, count) in [
        (5, 9, "Q", 5),
        (9, 5, "Q", 5),
        (9, 5, "Q", 3),
        (70, 100, "Q", 70),
        (100, 70, "Q", 41),
        (6, 4, "R", 4),
        (3, 8, "R", 2),
        (200, 300, "R", 200),
        (1, 1, "Q", 1),
        (3, 3, "Q", 1),
    ] {
        let text = board(w, h, piece, count);
        let p = placement(&text, None);
        assert_eq!(p.len(), count, "{text}");
        lines_free(&p, w, h, true, piece == "Q");
    }
}

/// Goal first on small boards: construct's placement passes the validator, and every
/// strategy that applies finds one too (or none, with construct refusing).
#[test]
fn construct_agrees_with_every_strategy_on_small_boards() {
    let strategies = ["brute", "backtrack", "flags", "bitmask", "dlx", "construct"];
    let mut texts: Vec<String> = (1..=8).map(|n| board(n, n, "Q", n)).collect();
    texts.extend((1..=6).map(|n| board(n, n + 1, "R", n)));
    texts.push(board(6, 4, "Q", 3));
    texts.push(board(4, 6, "Q", 4));
    for n in 1..=6usize {
        texts.push(board(n, n, "K", n.div_ceil(2).pow(2)));
        texts.push(board(n + 1, n, "K", (n + 1).div_ceil(2) * n.div_ceil(2)));
        texts.push(board(n, n, "N", (n * n).div_ceil(2)));
    }
    texts.push(board(5, 3, "N", 6));
    for text in &texts {
        let m = model_of(text, None);
        let mut found = Vec::new();
        for s in strategies {
            if m.applies(s, &first()).is_err() {
                assert!(
                    ["construct", "brute", "flags"].contains(&s),
                    "{s} refuses\n{text}"
                );
                continue;
            }
            let (o, sols, _) = solve(text, None, s, Goal::First, false, 1);
            found.push((s, o.status, sols.len()));
        }
        let (_, status, _) = found[0];
        assert!(
            found
                .iter()
                .all(|&(_, st, k)| st == status && k == usize::from(st == Status::Solved)),
            "{found:?}\n{text}"
        );
    }
}

/// No two pieces a leap `(a, b)` (in any of its 8 images) apart.
fn leaps_free(pieces: &[(usize, usize)], leaps: &[(i64, i64)]) {
    let at: std::collections::HashSet<(i64, i64)> =
        pieces.iter().map(|&(r, c)| (r as i64, c as i64)).collect();
    assert_eq!(at.len(), pieces.len(), "two pieces on one square");
    for &(r, c) in &at {
        for &(a, b) in leaps {
            for (dr, dc) in [(a, b), (b, a)] {
                for (sr, sc) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let other = (r + sr * dr, c + sc * dc);
                    assert!(!at.contains(&other), "({r}, {c}) attacks {other:?}");
                }
            }
        }
    }
}

#[test]
fn kings_and_knights_fill_their_largest_patterns() {
    for (w, h) in [
        (1000usize, 1000usize),
        (999, 1001),
        (64, 64),
        (1, 700),
        (2, 900),
    ] {
        let kings = w.div_ceil(2) * h.div_ceil(2);
        let p = placement(&board(w, h, "K", kings), None);
        assert_eq!(p.len(), kings);
        leaps_free(&p, &[(1, 0), (1, 1)]);
        let knights = (w * h).div_ceil(2);
        let p = placement(&board(w, h, "N", knights), None);
        assert_eq!(p.len(), knights);
        leaps_free(&p, &[(2, 1)]);
    }
    // Fewer: the first in square order.
    let p = placement(&board(300, 300, "N", 7), None);
    assert_eq!(
        p,
        [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10), (0, 12)]
    );
}

#[test]
fn construct_says_where_it_does_not_apply() {
    let holed = "kind = \"independent\"\n[board]\nsize = 8\nholes = [\"a1\"]\n[piece]\nmoves = \
                 \"Q\"\n[rules]\ncount = 7\n";
    let unique = Task {
        unique: true,
        ..first()
    };
    let count = Task::default();
    let piece = |p: &str| IndependentRefusal::ConstructPiece { piece: p.into() };
    let pattern = |pattern, count, most, width, height| IndependentRefusal::ConstructPattern {
        pattern,
        count,
        most,
        width,
        height,
    };
    for (text, size, task, refused) in [
        (holed, None, first(), IndependentRefusal::ConstructHoles),
        (&board(8, 8, "NN", 8)[..], None, first(), piece("NN")),
        (
            &board(9, 9, "K", 26)[..],
            None,
            first(),
            pattern(Pattern::Kings, 26, 25, 9, 9),
        ),
        (
            &board(2, 3, "N", 4)[..],
            None,
            first(),
            pattern(Pattern::Knights, 4, 3, 2, 3),
        ),
        (
            &board(1025, 1024, "N", 8)[..],
            None,
            first(),
            IndependentRefusal::ConstructListed {
                squares: 1_049_600,
                max: 1_048_576,
            },
        ),
        (&board(8, 8, "B", 8)[..], None, first(), piece("B")),
        (&board(8, 8, "RN", 8)[..], None, first(), piece("RN")),
        (
            &board(6, 5, "R", 6)[..],
            None,
            first(),
            IndependentRefusal::ConstructTooMany {
                count: 6,
                side: 5,
                width: 6,
                height: 5,
            },
        ),
        (
            QUEENS,
            Some(1000),
            count,
            IndependentRefusal::ConstructGoal(Goal::Count),
        ),
        (QUEENS, None, unique, IndependentRefusal::ConstructUnique),
        (
            QUEENS,
            Some(3),
            first(),
            IndependentRefusal::ConstructSmallQueens { side: 3 },
        ),
    ] {
        let m = model_of(text, size);
        assert_eq!(refusal(&m, "construct", &task), refused, "{text}");
    }
    // The searches refuse a board beyond their attack sets, saying so; construct takes it.
    let m = model_of(QUEENS, Some(100));
    assert_eq!(
        refusal(&m, "bitmask", &first()),
        IndependentRefusal::WholeBoard {
            squares: 10_000,
            max: 4096
        }
    );
    assert_eq!(m.auto_strategy(&first()), Some("construct"));
}

/// The time limit stops a run before or while its answer is built, checked or written: a
/// run that stopped says so and shows no placement unchecked.
#[test]
fn a_node_limit_stops_the_construction() {
    let m = model_of(QUEENS, Some(1_000_000));
    let run = Run::new(Limits {
        nodes: Some(10_000),
        ..Limits::default()
    });
    let c = m.solve_checked("construct", &first(), run, 1).unwrap();
    assert_eq!(c.outcome.status, Status::Limit);
    assert!(c.outcome.answer.compact.is_none());
}

#[test]
fn the_command_line_lists_a_thousand_queens() {
    let args = [
        &puzzle("queens8.toml")[..],
        "--size",
        "1000",
        "--goal",
        "first",
    ];
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("| construct |"), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.starts_with("One line per row from the top: the column of its Q"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(lines[head].contains("counted from 0 at the left"), "{out}");
    let cols: Vec<usize> = lines[head + 1..head + 1001]
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(lines[head + 1001], "");
    assert_eq!(lines[head + 1002], "1 solution");
    let p: Vec<(usize, usize)> = cols.into_iter().enumerate().collect();
    lines_free(&p, 1000, 1000, true, true);

    let (code, out, _) = run_cli(&[&args[..], &["--format", "json", "--quiet"]].concat());
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "solved");
    assert_eq!(v["strategy"], "construct");
    let squares = v["solutions"][0].as_array().unwrap();
    assert_eq!(squares.len(), 1000);
    let p: Vec<(usize, usize)> = squares
        .iter()
        .map(|s| {
            (
                s[0].as_u64().unwrap() as usize,
                s[1].as_u64().unwrap() as usize,
            )
        })
        .collect();
    lines_free(&p, 1000, 1000, true, true);

    let (code, out, err) = run_cli(&[&args[..], &["--format", "svg"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(
            "--format svg draws boards of up to 250,000 squares, and this one has 1,000,000"
        ),
        "{err}"
    );
}

/// Ten million queens under a time limit far below what building, checking and writing them
/// take: the run stops where the clock finds it, exits 3, and its JSON stays valid.
#[test]
fn ten_million_queens_stop_at_the_time_limit() {
    let (code, out, err) = run_cli(&[
        &puzzle("queens8.toml"),
        "--size",
        "10000000",
        "--goal",
        "first",
        "--format",
        "json",
        "--time-limit",
        "0.05",
    ]);
    assert_eq!(code, 3, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let cut_short =
        v["status"] == "limit" || !v["truncated"].is_null() || !v["unchecked"].is_null();
    assert!(cut_short, "{}", &out[out.len().saturating_sub(500)..]);
}

#[test]
fn board_sides_and_holes_have_the_kinds_limits() {
    let (code, _, err) = run_cli(&[&puzzle("queens8.toml"), "--size", "10000001"]);
    assert_eq!(code, 2);
    assert!(err.contains("accepted: 1 to 10000000"), "{err}");
    let (code, _, err) = run_cli(&[
        &puzzle("queens8.toml"),
        "--size",
        "100000",
        "--set",
        "board.holes=[\"a1\"]",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("holes are accepted on boards of at most 10^9"),
        "{err}"
    );
    // The other kinds keep theirs.
    let (code, _, err) = run_cli(&[&puzzle("knights8.toml"), "--size", "200000"]);
    assert_eq!(code, 2);
    assert!(err.contains("accepted: 1 to 100000"), "{err}");
}
