//! Tours against published values (known-answers.md), the existence theorems against
//! exhaustive search, every strategy against the others, and every tour through a validator
//! that shares no code with the library.

use boardsolve::engine::{Goal, Note, Status};
use boardsolve::kinds::tour::TourNote;
use boardsolve::render::Picture;

use crate::{run_cli, solve};

mod counts;
mod existence;
mod parts;
mod spill;

fn board(w: usize, h: usize, closed: bool, start: Option<(usize, usize)>) -> String {
    let mut s = format!(
        "kind = \"tour\"\n[board]\nwidth = {w}\nheight = {h}\n[rules]\nclosed = {closed}\n"
    );
    if let Some((r, c)) = start {
        s.push_str(&format!("start = [{r}, {c}]\n"));
    }
    s
}

const KNIGHT: [(i64, i64); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];

/// Panics unless `order` (row-major square indices) visits every square of the w x h board
/// minus `holes` once, each step a `leap` (all 8 images), closing when asked.
fn check_tour(
    w: usize,
    h: usize,
    holes: &[(usize, usize)],
    leap: (i64, i64),
    closed: bool,
    start: Option<(usize, usize)>,
    order: &[(usize, usize)],
) {
    let cells = w * h - holes.len();
    assert_eq!(order.len(), cells, "tour length");
    let mut seen = vec![vec![false; w]; h];
    for &(r, c) in order {
        assert!(r < h && c < w, "({r}, {c}) off the board");
        assert!(!holes.contains(&(r, c)), "({r}, {c}) is a hole");
        assert!(!seen[r][c], "({r}, {c}) visited twice");
        seen[r][c] = true;
    }
    let is_leap = |a: (usize, usize), b: (usize, usize)| {
        let dr = (a.0 as i64 - b.0 as i64).abs();
        let dc = (a.1 as i64 - b.1 as i64).abs();
        (dr, dc) == leap || (dc, dr) == leap
    };
    for k in 1..order.len() {
        assert!(
            is_leap(order[k - 1], order[k]),
            "step {} {:?} -> {:?} is no move",
            k,
            order[k - 1],
            order[k]
        );
    }
    if closed {
        assert!(
            is_leap(order[order.len() - 1], order[0]),
            "tour does not close"
        );
    }
    if let Some(s) = start {
        assert_eq!(order[0], s, "wrong start");
    }
}

fn rc(w: usize, order: &[usize]) -> Vec<(usize, usize)> {
    order.iter().map(|&s| (s / w, s % w)).collect()
}

/// The one tour a `first` run produced, through the sink or as a compact answer.
type Squares = Vec<(usize, usize)>;

fn tour_of(text: &str, strategy: &str) -> (Status, Option<Squares>, Vec<Note>) {
    let (mut o, sols, model) = solve(text, None, strategy, Goal::First, false, 1);
    let w = match &model {
        boardsolve::kinds::Model::Tour(m) => m.board.width,
        _ => unreachable!(),
    };
    if let Some(c) = o.answer.compact.take() {
        match model.picture_compact(c) {
            Some(Picture::Tour { width, number, .. }) => {
                return (
                    o.status,
                    Some(boardsolve::render::tour_order(width, &number)),
                    o.answer.notes,
                );
            }
            _ => panic!("compact answer without a tour picture"),
        }
    }
    (o.status, sols.first().map(|s| rc(w, s)), o.answer.notes)
}

fn count(text: &str, strategy: &str) -> u128 {
    let (o, _, _) = solve(text, None, strategy, Goal::Count, false, 1);
    assert_ne!(o.status, Status::Limit);
    o.answer.count.unwrap()
}

#[test]
fn warnsdorff_tours_every_square_board_from_5_to_120_and_some_larger() {
    let sizes: Vec<usize> = (5..=120).chain([199, 256, 333, 500]).collect();
    for n in sizes {
        for closed in [false, true] {
            if closed && n % 2 == 1 {
                continue;
            }
            let (st, tour, _) = tour_of(&board(n, n, closed, None), "warnsdorff");
            assert_eq!(st, Status::Solved, "{n}");
            check_tour(n, n, &[], (2, 1), closed, None, &tour.unwrap());
        }
    }
}

#[test]
fn divide_builds_valid_tours_on_many_shapes() {
    let mut shapes = Vec::new();
    for w in 5..=26 {
        for h in [5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 20, 31] {
            shapes.push((w, h));
        }
    }
    shapes.extend([(100, 37), (41, 203), (250, 250)]);
    for (w, h) in shapes {
        for closed in [false, true] {
            let (st, tour, _) = tour_of(&board(w, h, closed, None), "divide");
            if closed && (w * h) % 2 == 1 {
                assert_eq!(st, Status::NoSolution);
                continue;
            }
            assert_eq!(st, Status::Solved, "{w}x{h} closed={closed}");
            check_tour(w, h, &[], (2, 1), closed, None, &tour.unwrap());
        }
        if (w * h) % 2 == 0 {
            let s = (h / 2, w / 3);
            let (_, tour, _) = tour_of(&board(w, h, false, Some(s)), "divide");
            check_tour(w, h, &[], (2, 1), false, Some(s), &tour.unwrap());
        }
    }
}

#[test]
fn divide_builds_strips_of_height_3() {
    let mut jobs: Vec<(usize, usize, bool)> = Vec::new();
    for n in (10..=64).step_by(2) {
        jobs.push((n, 3, true));
    }
    for n in (7..=64).chain([4, 1001]) {
        jobs.push((n, 3, false));
    }
    jobs.extend([(3, 30, true), (3, 41, false), (2002, 3, true)]);
    for (w, h, closed) in jobs {
        let (st, tour, _) = tour_of(&board(w, h, closed, None), "divide");
        assert_eq!(st, Status::Solved, "{w}x{h} closed={closed}");
        check_tour(w, h, &[], (2, 1), closed, None, &tour.unwrap());
    }
    // A closed strip may start anywhere.
    let (_, tour, _) = tour_of(&board(40, 3, true, Some((1, 17))), "divide");
    check_tour(40, 3, &[], (2, 1), true, Some((1, 17)), &tour.unwrap());
    // Warnsdorff on a long strip hands over when its bounded search gives up, or finds the
    // tour itself; either way the tour is valid.
    let (st, tour, _) = tour_of(&board(301, 3, false, None), "warnsdorff");
    assert_eq!(st, Status::Solved);
    check_tour(301, 3, &[], (2, 1), false, None, &tour.unwrap());
}

#[test]
fn warnsdorff_hands_over_to_divide_visibly_when_it_gives_up() {
    // Closed tours from 14x14 up: Warnsdorff's paths do not close within its bound (for
    // every even n from 14 to 500), so the summary must say who built the tour.
    for n in [14, 40, 64] {
        let (st, tour, notes) = tour_of(&board(n, n, true, None), "warnsdorff");
        assert_eq!(st, Status::Solved);
        check_tour(n, n, &[], (2, 1), true, None, &tour.unwrap());
        assert!(
            matches!(
                notes[0].get(),
                Some(TourNote::HandedOver {
                    from: "warnsdorff",
                    to: "divide",
                    ..
                })
            ),
            "{notes:?}"
        );
    }
    // Open tours it finds itself, with no note.
    let (_, tour, notes) = tour_of(&board(64, 64, false, None), "warnsdorff");
    check_tour(64, 64, &[], (2, 1), false, None, &tour.unwrap());
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn other_leapers_and_holes() {
    let text = std::fs::read_to_string(crate::puzzle("camel8.toml")).unwrap();
    let (st, tour, _) = tour_of(&text, "warnsdorff");
    assert_eq!(st, Status::Solved);
    let holes: Vec<(usize, usize)> = (0..64)
        .map(|s| (s / 8, s % 8))
        .filter(|&(r, c)| (r + c) % 2 == 1)
        .collect();
    check_tour(8, 8, &holes, (3, 1), true, None, &tour.unwrap());
    let text = std::fs::read_to_string(crate::puzzle("holed-knight.toml")).unwrap();
    for s in ["warnsdorff", "backtrack"] {
        let (st, tour, _) = tour_of(&text, s);
        assert_eq!(st, Status::Solved);
        check_tour(
            8,
            8,
            &[(4, 3), (3, 3), (4, 4), (3, 4)],
            (2, 1),
            true,
            None,
            &tour.unwrap(),
        );
    }
    // Zebra on 6x6: the graph is connected and balanced, but search proves no tour.
    let zebra = "kind = \"tour\"\n[board]\nsize = 6\n[piece]\nmoves = \"Z\"\n";
    let (st, _, _) = tour_of(zebra, "warnsdorff");
    assert_eq!(st, Status::NoSolution);
    assert_eq!(count(zebra, "backtrack"), 0);
}

#[test]
fn shipped_puzzles_solve() {
    let read = |n: &str| std::fs::read_to_string(crate::puzzle(n)).unwrap();
    let (o, _, _) = solve(&read("tour5x5.toml"), None, "count", Goal::Count, false, 1);
    assert_eq!(o.answer.count, Some(1728));
    let (o, _, _) = solve(
        &read("closed6x6-count.toml"),
        None,
        "count",
        Goal::Count,
        false,
        1,
    );
    assert_eq!(o.answer.count, Some(9862));
    for s in ["divide", "warnsdorff"] {
        let (st, tour, _) = tour_of(&read("closed16.toml"), s);
        assert_eq!(st, Status::Solved);
        check_tour(16, 16, &[], (2, 1), true, None, &tour.unwrap());
        let (st, tour, _) = tour_of(&read("tour24x12.toml"), s);
        assert_eq!(st, Status::Solved);
        check_tour(24, 12, &[], (2, 1), false, Some((10, 5)), &tour.unwrap());
    }
}

#[test]
fn cli_prints_numbered_grid_json_svg_and_dot() {
    let p = crate::puzzle("tour24x12.toml");
    let (code, out, err) = run_cli(&[&p]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<usize>> = out
        .lines()
        .filter(|l| l.split_whitespace().count() == 24)
        .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 12);
    assert_eq!(rows[10][5], 1, "move 1 on [10, 5]");
    // Right-aligned in three columns.
    assert!(
        out.lines()
            .any(|l| l.starts_with("  ") || l.starts_with(' '))
    );
    let mut order = vec![(0, 0); 288];
    for (r, row) in rows.iter().enumerate() {
        for (c, &k) in row.iter().enumerate() {
            order[k - 1] = (r, c);
        }
    }
    check_tour(24, 12, &[], (2, 1), false, Some((10, 5)), &order);

    let (code, out, _) = run_cli(&[&p, "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["kind"], "tour");
    let sq: Vec<(usize, usize)> = v["solutions"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x[0].as_u64().unwrap() as usize,
                x[1].as_u64().unwrap() as usize,
            )
        })
        .collect();
    check_tour(24, 12, &[], (2, 1), false, Some((10, 5)), &sq);

    let closed = crate::puzzle("closed16.toml");
    let (code, out, _) = run_cli(&[&closed, "--format", "svg"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("<polygon points=\""),
        "closed tours draw a closed path"
    );
    let (_, out, _) = run_cli(&[&p, "--format", "svg"]);
    assert!(out.contains("<polyline points=\""));

    let (code, out, _) = run_cli(&[&closed, "--format", "dot", "--size", "6"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("graph "));
    // 6x6 knight graph: 80 moves, 36 of them in the closed tour.
    assert_eq!(out.matches(" -- ").count(), 80);
    assert_eq!(out.matches("penwidth=3").count(), 36);
}

#[test]
fn cli_no_tour_exits_1_with_the_reason_and_riders_are_refused() {
    let closed = crate::puzzle("closed16.toml");
    let (code, out, _) = run_cli(&[&closed, "--size", "5"]);
    assert_eq!(code, 1);
    assert!(out.contains("no solution: Schwenk's theorem"), "{out}");
    let (code, _, err) = run_cli(&[&closed, "--set", "piece.moves=NN"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("piece.moves") && err.contains("leaper"),
        "{err}"
    );
    let (code, _, err) = run_cli(&[&closed, "--set", "rules.start=[3, 99]"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("rules.start") && err.contains("off the 16x16 board"),
        "{err}"
    );
    // The hand-over and the counting convention show in the summary.
    let (code, out, err) = run_cli(&[&crate::puzzle("tour5x5.toml")]);
    assert_eq!(code, 0);
    assert!(out.contains("1,728 solutions"));
    assert!(
        err.contains("| count |") && err.contains("directed tours from every start"),
        "{err}"
    );
}

#[test]
fn divide_streams_a_large_closed_tour() {
    let closed = crate::puzzle("closed16.toml");
    let (code, out, err) = run_cli(&[&closed, "--size", "1000", "--strategy", "divide"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().filter(|l| l.len() > 1000).count(), 1000);
    assert!(err.contains("125 x 125 blocks"), "{err}");
}

/// The largest board the format takes (31622x31622, 10^9 squares less a few) aborted when
/// memory was short for its 3.5 GiB of move numbers: it is refused before anything is
/// allocated, with what it would take against the budget, whoever picks the strategy.
#[test]
fn a_tour_larger_than_the_memory_is_refused_up_front_with_its_size() {
    let closed = crate::puzzle("closed16.toml");
    for strategy in [&[][..], &["--strategy", "divide"][..]] {
        let mut args = vec![&closed[..], "--size", "31622", "--memory", "1G"];
        args.extend_from_slice(strategy);
        let (code, out, err) = run_cli(&args);
        assert_eq!(code, 2, "{out}{err}");
        assert!(
            err.contains(
                "divide: it would take 3.5 GiB for the tour's move numbers (30 bits a square \
                 on 999,950,884 squares), more than the memory budget of 1.0 GiB (--memory)"
            ) || err.contains("\"divide\" does not apply: it would take 3.5 GiB"),
            "{err}"
        );
    }
}

/// Within the budget the same job runs: the budget is checked, not guessed low.
#[test]
fn a_tour_within_the_memory_is_built() {
    let closed = crate::puzzle("closed16.toml");
    let (code, out, err) = run_cli(&[&closed, "--size", "1000", "--memory", "8M"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().filter(|l| l.len() > 1000).count(), 1000);
}

/// Warnsdorff's graph and walk are counted before they are built.
#[test]
fn warnsdorff_is_refused_when_its_graph_exceeds_the_memory() {
    let closed = crate::puzzle("closed16.toml");
    let (code, _, err) = run_cli(&[
        &closed,
        "--size",
        "1000",
        "--strategy",
        "warnsdorff",
        "--memory",
        "100M",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("it would take")
            && err.contains("the move graph (1,000,000 squares, 8 moves each)")
            && err.contains("memory budget of 100 MiB"),
        "{err}"
    );
}

/// Every start square the existence rules allow on a `w` x `h` board, for open tours.
fn legal_starts(w: usize, h: usize) -> Vec<(usize, usize)> {
    use boardsolve::kinds::tour::exists::{Existence, knight};
    (0..h)
        .flat_map(|r| (0..w).map(move |c| (r, c)))
        .filter(|&s| matches!(knight(w, h, false, Some(s)), Existence::Exists(_)))
        .collect()
}

#[test]
fn divide_starts_open_tours_on_every_legal_square_of_odd_boards() {
    for (w, h) in [
        (5, 5),
        (7, 7),
        (5, 9),
        (9, 5),
        (9, 11),
        (11, 9),
        (13, 15),
        (21, 5),
    ] {
        let starts = legal_starts(w, h);
        assert_eq!(starts.len(), (w * h).div_ceil(2), "{w}x{h}");
        for s in starts {
            let (st, tour, _) = tour_of(&board(w, h, false, Some(s)), "divide");
            assert_eq!(st, Status::Solved, "{w}x{h} from {s:?}");
            check_tour(w, h, &[], (2, 1), false, Some(s), &tour.unwrap());
        }
    }
}

#[test]
fn divide_builds_an_open_tour_on_every_board_from_3x3_to_8x40_that_has_one() {
    use boardsolve::kinds::tour::exists::{Existence, knight};
    for m in 3..=8 {
        for n in 3..=40 {
            for (w, h) in [(m, n), (n, m)] {
                let (st, tour, _) = tour_of(&board(w, h, false, None), "divide");
                if matches!(knight(w, h, false, None), Existence::Exists(_)) {
                    assert_eq!(st, Status::Solved, "{w}x{h}");
                    check_tour(w, h, &[], (2, 1), false, None, &tour.unwrap());
                } else {
                    assert_eq!(st, Status::NoSolution, "{w}x{h}");
                }
            }
        }
    }
}

#[test]
fn divide_starts_open_tours_on_every_legal_square_of_thin_boards() {
    let mut shapes: Vec<(usize, usize)> = (7..=12).map(|n| (n, 3)).collect();
    shapes.extend((5..=9).map(|n| (n, 4)));
    shapes.extend([(4, 3), (3, 13), (25, 3), (4, 13), (30, 4), (4, 31)]);
    for (w, h) in shapes {
        for s in legal_starts(w, h) {
            let (st, tour, _) = tour_of(&board(w, h, false, Some(s)), "divide");
            assert_eq!(st, Status::Solved, "{w}x{h} from {s:?}");
            check_tour(w, h, &[], (2, 1), false, Some(s), &tour.unwrap());
        }
    }
}

#[test]
fn divide_builds_long_thin_and_large_odd_tours_from_given_starts() {
    let jobs = [
        (100_000, 4, None::<(usize, usize)>),
        (4, 100_000, Some((50_001, 3))),
        (99_999, 3, Some((1, 50_001))),
        (3, 99_999, Some((77_776, 0))),
        (1001, 1001, Some((500, 500))),
        (1001, 1001, Some((0, 1000))),
    ];
    for (w, h, s) in jobs {
        let (st, tour, notes) = tour_of(&board(w, h, false, s), "divide");
        assert_eq!(st, Status::Solved, "{w}x{h} from {s:?}: {notes:?}");
        check_tour(w, h, &[], (2, 1), false, s, &tour.unwrap());
    }
}

#[test]
fn warnsdorff_hands_long_4xn_boards_to_divide() {
    for (w, h) in [(1000, 4), (4, 333)] {
        let (st, tour, notes) = tour_of(&board(w, h, false, None), "warnsdorff");
        assert_eq!(st, Status::Solved, "{w}x{h}");
        check_tour(w, h, &[], (2, 1), false, None, &tour.unwrap());
        assert!(
            notes
                .iter()
                .any(|n| matches!(n.get(), Some(TourNote::HandedOver { to: "divide", .. }))),
            "{notes:?}"
        );
    }
}
