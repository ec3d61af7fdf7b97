//! Tours against published values (known-answers.md), the existence theorems against
//! exhaustive search, every strategy against the others, and every tour through a validator
//! that shares no code with the library.

use boardsolve::engine::{Goal, Note, Status};
use boardsolve::render::Picture;

use crate::{run_cli, solve};

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
fn five_by_five_open_counts_match_a165134() {
    for s in ["backtrack", "count"] {
        assert_eq!(count(&board(5, 5, false, None), s), 1728, "{s}");
        assert_eq!(count(&board(5, 5, false, Some((0, 0))), s), 304, "{s}");
        assert_eq!(count(&board(5, 5, false, Some((2, 2))), s), 64, "{s}");
        assert_eq!(count(&board(5, 5, false, Some((1, 3))), s), 56, "{s}");
        assert_eq!(count(&board(5, 5, false, Some((0, 1))), s), 0, "{s}");
    }
}

#[test]
fn every_start_on_5x5_sums_to_the_total() {
    let mut total = 0;
    for r in 0..5 {
        for c in 0..5 {
            total += count(&board(5, 5, false, Some((r, c))), "count");
        }
    }
    assert_eq!(total, 1728);
}

#[test]
fn six_by_six_closed_is_9862_and_3x2n_follow_a070030() {
    assert_eq!(count(&board(6, 6, true, None), "count"), 9862);
    let a070030 = [16u128, 176, 1536, 15424, 147_728, 1_448_416];
    for (k, &v) in a070030.iter().enumerate() {
        let n = 10 + 2 * k;
        assert_eq!(count(&board(n, 3, true, None), "count"), v, "3x{n}");
        assert_eq!(count(&board(3, n, true, None), "count"), v, "{n}x3");
    }
}

#[test]
fn open_counts_on_three_and_four_rank_boards_follow_oeis() {
    // A169696: undirected open tours of 3 x n, n = 1..20; a directed count is twice that.
    let a169696: [u128; 20] = [
        0,
        0,
        0,
        8,
        0,
        0,
        52,
        396,
        560,
        3048,
        10_672,
        57_248,
        128_864,
        646_272,
        1_838_784,
        8_636_880,
        23_400_992,
        105_865_688,
        305_753_680,
        1_322_849_752,
    ];
    for (k, &v) in a169696.iter().enumerate().skip(3) {
        let n = k + 1;
        assert_eq!(count(&board(n, 3, false, None), "count"), 2 * v, "3x{n}");
    }
    // A328341: geometrically distinct open tours of 4 x n (classes under the rectangle's 4
    // symmetries); A328340: those of 4 x (2k - 1) that are their own 180-degree turn (then
    // reversed). An asymmetric class holds 8 directed tours, a symmetric one 4; on 4 x 2k no
    // tour is symmetric (a symmetry that reverses the tour would map its middle move to
    // itself, and no knight's move joins a square to its mirror or turned image there).
    let a328341: [u128; 16] = [
        0,
        0,
        3,
        0,
        22,
        186,
        1603,
        7772,
        47_478,
        303_278,
        1_671_273,
        9_121_582,
        50_322_028,
        270_896_326,
        1_426_536_267,
        7_454_807_822,
    ];
    let a328340: [u128; 8] = [0, 2, 3, 17, 112, 620, 2821, 13_805];
    for n in 3..=16 {
        let classes = a328341[n - 1];
        let symmetric = if n % 2 == 1 {
            a328340[n.div_ceil(2) - 1]
        } else {
            0
        };
        let expected = 8 * classes - 4 * symmetric;
        assert_eq!(count(&board(n, 4, false, None), "count"), expected, "4x{n}");
        assert_eq!(count(&board(4, n, false, None), "count"), expected, "{n}x4");
    }
}

/// The first `cells` squares of a board `rows` high, filled column by column, as a closed
/// tour count puzzle (the squares past them are holes).
fn first_cells(rows: usize, cells: usize) -> String {
    let cols = cells.div_ceil(rows);
    let holes: Vec<String> = (cells..rows * cols)
        .map(|k| format!("[{}, {}]", k % rows, k / rows))
        .collect();
    format!(
        "kind = \"tour\"\n[board]\nwidth = {cols}\nheight = {rows}\nholes = [{}]\n\
         [rules]\nclosed = true\n",
        holes.join(", ")
    )
}

#[test]
fn closed_counts_on_partly_filled_boards_follow_knuth() {
    // Knuth, TAOCP prefascicle 8a: closed tours in the first 2n cells of a 3 x ceil(2n/3)
    // (A383660, n = 11..30) and of a 5 x ceil(2n/5) board (A383661, n = 9..30).
    let a383660: [u128; 20] = [
        4, 0, 4, 24, 16, 56, 306, 176, 456, 2632, 1536, 4828, 26_788, 15_424, 44_952, 254_288,
        147_728, 448_032, 2_502_568, 1_448_416,
    ];
    for (k, &v) in a383660.iter().enumerate() {
        let n = 11 + k;
        assert_eq!(
            count(&first_cells(3, 2 * n), "count"),
            v,
            "3 rows, {} cells",
            2 * n
        );
    }
    let a383661: [u128; 22] = [
        1,
        0,
        1,
        30,
        0,
        148,
        8,
        78,
        9309,
        612,
        62_749,
        44_202,
        42_049,
        2_916_485,
        147_192,
        18_284_136,
        13_311_268,
        13_008_389,
        973_107_552,
        51_147_756,
        6_190_192_748,
        4_557_702_762,
    ];
    for (k, &v) in a383661.iter().enumerate() {
        let n = 9 + k;
        assert_eq!(
            count(&first_cells(5, 2 * n), "count"),
            v,
            "5 rows, {} cells",
            2 * n
        );
    }
}

#[test]
fn count_and_backtrack_agree_on_small_boards() {
    for (w, h) in [
        (3, 4),
        (4, 3),
        (4, 5),
        (5, 4),
        (3, 7),
        (3, 8),
        (4, 6),
        (3, 10),
        (5, 6),
    ] {
        for closed in [false, true] {
            if (w * h > 24 && !closed) || w * h > 30 {
                continue;
            }
            let t = board(w, h, closed, None);
            assert_eq!(
                count(&t, "count"),
                count(&t, "backtrack"),
                "{w}x{h} closed={closed}"
            );
        }
    }
    for (w, h, s) in [
        (4, 5, (0, 1)),
        (3, 7, (0, 0)),
        (4, 4, (1, 1)),
        (5, 5, (1, 1)),
    ] {
        let t = board(w, h, false, Some(s));
        assert_eq!(
            count(&t, "count"),
            count(&t, "backtrack"),
            "{w}x{h} from {s:?}"
        );
    }
    // With holes.
    let t = "kind = \"tour\"\n[board]\nsize = 5\nholes = [[2, 2], [0, 0]]\n";
    assert_eq!(count(t, "count"), count(t, "backtrack"));
    let t = "kind = \"tour\"\n[board]\nwidth = 6\nheight = 4\nholes = [[0, 0], [3, 5]]\n[rules]\nclosed = true\n";
    assert_eq!(count(t, "count"), count(t, "backtrack"));
}

#[test]
fn every_listed_tour_is_valid_and_distinct() {
    for (w, h, closed, start) in [
        (5, 5, false, None),
        (5, 5, false, Some((2, 2))),
        (3, 4, false, None),
        (3, 10, true, None),
        (5, 6, true, None),
    ] {
        let t = board(w, h, closed, start);
        let (o, sols, _) = solve(&t, None, "backtrack", Goal::All, false, 1);
        assert_eq!(o.answer.count, Some(sols.len() as u128));
        assert_eq!(sols.len() as u128, count(&t, "count"), "{w}x{h}");
        let mut seen = std::collections::HashSet::new();
        for s in &sols {
            check_tour(w, h, &[], (2, 1), closed, start, &rc(w, s));
            // Closed tours are listed once per undirected cycle: no rotation or reversal
            // of another.
            let key = if closed {
                let mut v = s.clone();
                let p = v.iter().position(|&x| x == 0).unwrap();
                v.rotate_left(p);
                if v[1] > v[v.len() - 1] {
                    v[1..].reverse();
                }
                v
            } else {
                s.clone()
            };
            assert!(seen.insert(key), "{w}x{h}: a tour twice");
        }
    }
}

/// An independent exhaustive search: does a knight's tour exist (optionally from `start`)?
fn exists_by_search(w: usize, h: usize, closed: bool, start: Option<(usize, usize)>) -> bool {
    let n = w * h;
    let nb: Vec<Vec<usize>> = (0..n)
        .map(|s| {
            let (r, c) = ((s / w) as i64, (s % w) as i64);
            KNIGHT
                .iter()
                .map(|&(dr, dc)| (r + dr, c + dc))
                .filter(|&(r2, c2)| r2 >= 0 && c2 >= 0 && r2 < h as i64 && c2 < w as i64)
                .map(|(r2, c2)| r2 as usize * w + c2 as usize)
                .collect()
        })
        .collect();
    fn go(
        cur: usize,
        len: usize,
        first: usize,
        closed: bool,
        nb: &[Vec<usize>],
        seen: &mut [bool],
        budget: &mut u64,
    ) -> bool {
        if len == seen.len() {
            return !closed || nb[cur].contains(&first);
        }
        *budget -= 1;
        assert!(*budget > 0, "exhaustive search over budget");
        let free = |s: usize, seen: &[bool]| nb[s].iter().filter(|&&t| !seen[t]).count();
        let mut next: Vec<usize> = nb[cur].iter().copied().filter(|&t| !seen[t]).collect();
        next.sort_by_key(|&t| free(t, seen));
        for t in next {
            seen[t] = true;
            if go(t, len + 1, first, closed, nb, seen, budget) {
                return true;
            }
            seen[t] = false;
        }
        false
    }
    let starts: Vec<usize> = match start {
        Some((r, c)) => vec![r * w + c],
        None if closed => vec![0],
        None => (0..n).collect(),
    };
    let mut budget = 200_000_000u64;
    starts.into_iter().any(|s| {
        let mut seen = vec![false; n];
        seen[s] = true;
        go(s, 1, s, closed, &nb, &mut seen, &mut budget)
    })
}

fn theorem_says(w: usize, h: usize, closed: bool, start: Option<(usize, usize)>) -> bool {
    let (o, _, _) = solve(
        &board(w, h, closed, start),
        None,
        "warnsdorff",
        Goal::First,
        false,
        1,
    );
    match o.status {
        Status::Solved => true,
        Status::NoSolution => {
            assert!(o.answer.reason.is_some(), "{w}x{h}: no reason given");
            assert_eq!(o.stats.nodes, 0, "{w}x{h}: settled without search");
            false
        }
        Status::Limit => panic!("limit"),
    }
}

#[test]
fn existence_rules_match_exhaustive_search_up_to_7x7() {
    for h in 1..=7 {
        for w in 1..=7 {
            let open = theorem_says(w, h, false, None);
            assert_eq!(open, exists_by_search(w, h, false, None), "open {w}x{h}");
            // Closed tours on odd boards fall to the colour count; search the rest.
            let closed = theorem_says(w, h, true, None);
            if (w * h) % 2 == 0 {
                assert_eq!(closed, exists_by_search(w, h, true, None), "closed {w}x{h}");
            } else {
                assert!(!closed, "closed {w}x{h}");
            }
        }
    }
}

#[test]
fn start_square_rules_match_exhaustive_search() {
    // Every start where it is cheap: boards up to 6 wide (and 3x7, 3x8), plus the
    // right-coloured starts of 7x7 (the wrong colour there falls to the colour count).
    let mut boards: Vec<(usize, usize)> =
        vec![(4, 3), (3, 4), (7, 3), (3, 7), (8, 3), (5, 4), (4, 5)];
    boards.extend([(6, 4), (5, 5), (6, 5), (5, 6), (6, 6), (7, 7)]);
    for (w, h) in boards {
        for r in 0..h {
            for c in 0..w {
                let t = theorem_says(w, h, false, Some((r, c)));
                if (w, h) == (7, 7) && (r + c) % 2 == 1 {
                    assert!(!t);
                    continue;
                }
                assert_eq!(
                    t,
                    exists_by_search(w, h, false, Some((r, c))),
                    "{w}x{h} from ({r}, {c})"
                );
            }
        }
    }
}

#[test]
fn no_tour_reasons_name_the_theorem() {
    let reason = |t: &str| {
        let (o, _, _) = solve(t, None, "backtrack", Goal::First, false, 1);
        assert_eq!(o.status, Status::NoSolution);
        o.answer.reason.unwrap()
    };
    assert!(reason(&board(4, 4, false, None)).contains("no open knight's tour on 4x4"));
    assert!(reason(&board(8, 3, true, None)).contains("Schwenk"));
    assert!(reason(&board(5, 5, true, None)).contains("both sides of 5x5 are odd"));
    assert!(reason(&board(5, 5, false, Some((0, 1)))).contains("corners' colour"));
    assert!(reason(&board(7, 3, false, Some((1, 3)))).contains("centre"));
    let camel = "kind = \"tour\"\n[board]\nsize = 8\n[piece]\nmoves = \"C\"\n";
    assert!(reason(camel).contains("falls into 2 parts"));
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
                notes[0],
                Note::HandedOver {
                    from: "warnsdorff",
                    to: "divide",
                    ..
                }
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

#[test]
fn six_by_six_open_and_six_by_eight_closed_counts_match_known_answers() {
    assert_eq!(count(&board(6, 6, false, None), "count"), 6_637_920);
    assert_eq!(count(&board(8, 6, true, None), "count"), 55_488_142);
    // Wide squares are expanded and merged on several threads when asked.
    for threads in [2, 3] {
        let (o, _, _) = solve(
            &board(6, 8, true, None),
            None,
            "count",
            Goal::Count,
            false,
            threads,
        );
        assert_eq!(o.answer.count, Some(55_488_142), "{threads} threads");
    }
}

/// Boards with holes and starts drawn by a fixed pseudo-random sequence: the counting
/// strategy's pruning against plain backtracking.
#[test]
fn count_and_backtrack_agree_with_holes_and_starts() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut draw = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut nonzero = 0;
    for case in 0..48 {
        let (w, h, closed) = [
            (5, 5, false),
            (6, 4, false),
            (4, 6, false),
            (5, 6, true),
            (6, 5, true),
        ][case % 5];
        let holes: Vec<(usize, usize)> = (0..case % 3).map(|_| (draw(h), draw(w))).collect();
        let free: Vec<(usize, usize)> = (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .filter(|s| !holes.contains(s))
            .collect();
        let start = (!closed && case % 2 == 0).then(|| free[draw(free.len())]);
        let mut t = board(w, h, closed, start);
        let list: Vec<String> = holes.iter().map(|(r, c)| format!("[{r}, {c}]")).collect();
        t = t.replace(
            "[rules]",
            &format!("holes = [{}]\n[rules]", list.join(", ")),
        );
        let c = count(&t, "count");
        assert_eq!(c, count(&t, "backtrack"), "{t}");
        nonzero += (c > 0) as usize;
    }
    assert!(nonzero >= 20, "too few boards with tours: {nonzero}");
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
                .any(|n| matches!(n, Note::HandedOver { to: "divide", .. })),
            "{notes:?}"
        );
    }
}

#[test]
fn a_count_too_large_for_memory_stops_and_says_why() {
    // 7x7 open tours: the frontier outgrows the bound on new states at one square.
    let (code, out, err) = run_cli(&[&crate::puzzle("tour5x5.toml"), "--size", "7"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("stopped before any was counted [memory bound]"),
        "{out}"
    );
    assert!(err.contains("the frontier outgrew"), "{err}");
}
