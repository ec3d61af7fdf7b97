//! Tour counts against published values (OEIS, Knuth's tables) and the counting strategies
//! against each other and plain backtracking.

use boardsolve::engine::{Limits, Outcome, Run, Task};
use boardsolve::kinds::CountNote;
use boardsolve::kinds::tour::TourNote;
use boardsolve::util::Natural;

use super::*;

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

/// Knuth, TAOCP prefascicle 8a: closed tours in the first 2n cells of a 3 x ceil(2n/3) board
/// (A383660, from n = 11) and of a 5 x ceil(2n/5) board (A383661, from n = 9).
const A383660: [u128; 35] = [
    4,
    0,
    4,
    24,
    16,
    56,
    306,
    176,
    456,
    2632,
    1536,
    4828,
    26_788,
    15_424,
    44_952,
    254_288,
    147_728,
    448_032,
    2_502_568,
    1_448_416,
    4_310_048,
    24_228_704,
    14_060_048,
    42_195_584,
    236_335_248,
    136_947_616,
    409_403_328,
    2_297_294_496,
    1_332_257_856,
    3_989_883_552,
    22_366_625_344,
    12_965_578_752,
    38_798_663_104,
    217_604_833_360,
    126_169_362_176,
];
const A383661: [u128; 31] = [
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
    4_311_375_354,
    316_985_255_470,
    16_552_301_184,
    2_015_267_424_300,
    1_495_135_512_514,
    1_417_634_375_316,
    104_324_890_543_686,
    5_459_334_927_260,
    663_068_761_241_948,
];

#[test]
fn closed_counts_on_partly_filled_boards_follow_knuth() {
    // Each prefix as its own board, the cells past it as holes: n = 11..30 and 9..30.
    for (k, &v) in A383660[..20].iter().enumerate() {
        let n = 11 + k;
        assert_eq!(
            count(&first_cells(3, 2 * n), "count"),
            v,
            "3 rows, {} cells",
            2 * n
        );
    }

    for (k, &v) in A383661[..22].iter().enumerate() {
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

/// A fixed pseudo-random sequence (xorshift) from `seed`: each call draws below `n`.
fn draws(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

/// `text` (a tour puzzle from `board`) with `holes` as `[row, column]` squares.
fn with_holes(text: &str, holes: &[(usize, usize)]) -> String {
    let list: Vec<String> = holes.iter().map(|(r, c)| format!("[{r}, {c}]")).collect();
    text.replace(
        "[rules]",
        &format!("holes = [{}]\n[rules]", list.join(", ")),
    )
}

/// Boards with holes and starts drawn by a fixed pseudo-random sequence: the counting
/// strategy's pruning against plain backtracking.
#[test]
fn count_and_backtrack_agree_with_holes_and_starts() {
    let mut draw = draws(0x2545_f491_4f6c_dd1d);
    let mut nonzero = 0;
    let mut closed_from_start = 0;
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
        // A closed tour's start is a square like the others: the same cycles pass it.
        let start = (case % 2 == 0).then(|| free[draw(free.len())]);
        let t = with_holes(&board(w, h, closed, start), &holes);
        let c = count(&t, "count");
        assert_eq!(c, count(&t, "backtrack"), "{t}");
        nonzero += (c > 0) as usize;
        closed_from_start += (c > 0 && closed && start.is_some()) as usize;
    }
    assert!(nonzero >= 18, "too few boards with tours: {nonzero}");
    assert!(
        closed_from_start >= 2,
        "too few closed boards with a start and tours: {closed_from_start}"
    );
}

/// Boards 7 wide, where open tours are counted pair of ends by pair, against backtracking:
/// the lower rows are holes so that backtracking stays quick, and a few more holes and
/// starts are drawn as above.
#[test]
fn open_counts_by_pairs_of_ends_agree_with_backtrack() {
    let mut draw = draws(0x9e37_79b9_7f4a_7c15);
    let mut nonzero = 0;
    for case in 0..12 {
        let (w, h, rows) = [(7, 7, 4), (8, 7, 3), (7, 8, 3)][case % 3];
        let mut holes: Vec<(usize, usize)> = (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .filter(|&(r, c)| if w >= h { r >= rows } else { c >= rows })
            .collect();
        for _ in 0..case % 3 {
            holes.push((draw(rows.min(h)), draw(rows.min(w))));
        }
        let free: Vec<(usize, usize)> = (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .filter(|s| !holes.contains(s))
            .collect();
        let start = (case % 2 == 0).then(|| free[draw(free.len())]);
        let t = with_holes(&board(w, h, false, start), &holes);
        let (o, _, _) = solve(&t, None, "count", Goal::Count, false, 2);
        let c = o.answer.count.unwrap_or(0);
        // A board the colour count rules out is answered before any sweep.
        let by_pairs = |n: &Note| matches!(n.get(), Some(TourNote::EndPairs { .. }));
        assert!(c == 0 || o.answer.notes.iter().any(by_pairs), "{t}");
        assert_eq!(c, count(&t, "backtrack"), "{t}");
        nonzero += (c > 0) as usize;
    }
    assert!(nonzero >= 6, "too few boards with tours: {nonzero}");
}

#[test]
fn a_count_too_large_for_its_memory_stops_and_says_what_it_would_need() {
    // 7x7 open tours: the first pair of ends' sweep outgrows 64 MiB at its 27th square, in
    // half a second, and the other sweeps stop with it.
    for threads in ["1", "2"] {
        let (code, out, err) = run_cli(&[
            &crate::puzzle("tour5x5.toml"),
            "--size",
            "7",
            "--memory",
            "64M",
            "--threads",
            threads,
            "--scratch",
            "off",
        ]);
        assert_eq!(code, 3, "{out}{err}");
        assert!(
            out.contains("stopped before any was counted [memory bound]"),
            "{out}"
        );
        assert!(
            err.contains("the frontier outgrew the memory at square")
                && err.contains("the square would need about")
                // Two sweeps share the budget: the refused one may need just over it,
                // which the message then spells out in bytes.
                && err.contains("more than the memory budget of 64 MiB")
                && err.contains("(--memory)"),
            "{err}"
        );
    }
    // JSON says it as data: the square, and what it would need against the budget.
    let (code, out, _) = run_cli(&[
        &crate::puzzle("closed6x6-count.toml"),
        "--width",
        "8",
        "--memory",
        "8M",
        "--threads",
        "1",
        "--scratch",
        "off",
        "--format",
        "json",
    ]);
    assert_eq!(code, 3);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["stopped"], "memory bound");
    let o = &v["outgrew"];
    assert_eq!(o["budget_bytes"], 8 << 20, "{o}");
    assert!(o["needed_bytes"].as_u64().unwrap() > 8 << 20, "{o}");
    assert_eq!(o["squares"], 48, "{o}");
    let frontier = v["frontier"].as_array().unwrap();
    assert_eq!(
        o["index"].as_u64().unwrap() as usize,
        frontier.len() + 1,
        "{o}"
    );
    assert_eq!(o["states_before"], *frontier.last().unwrap(), "{o}");
}

/// The count finishes under a budget its states fit in (6x6 closed takes about 5 MB).
#[test]
fn a_count_within_its_memory_finishes() {
    let (code, out, err) = run_cli(&[&crate::puzzle("closed6x6-count.toml"), "--memory", "16M"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("9,862"), "{out}");
}

/// `--part`: the parts of backtrack add up to one run, nodes included (its tree below the
/// root is the paths `go` enters, each a node of the run's count).
#[test]
fn backtrack_parts_add_up_to_one_run() {
    let count = (Goal::Count, false);
    crate::parts_sum(&board(5, 5, false, None), None, "backtrack", count);
    crate::parts_sum(&board(3, 8, false, None), None, "backtrack", count);
    crate::parts_sum(
        &board(4, 5, false, Some((0, 0))),
        None,
        "backtrack",
        (Goal::All, false),
    );
    crate::parts_sum(&board(6, 5, true, None), None, "backtrack", count);
}

/// Open tours 7 wide split into parts by their pairs of ends: the parts add up to one run.
#[test]
fn count_parts_by_pairs_of_ends_add_up_to_one_run() {
    let holes: Vec<String> = (4..7)
        .flat_map(|r| (0..7).map(move |c| format!("[{r}, {c}]")))
        .collect();
    let text = board(7, 7, false, None).replace(
        "[rules]",
        &format!("holes = [{}]\n[rules]", holes.join(", ")),
    );
    let sum = crate::parts_sum(&text, None, "count", (Goal::Count, false));
    assert_eq!(sum.count, 12_756);
    // From a start: the other end's squares are the list.
    let text = text.replace("closed = false", "closed = false\nstart = [0, 0]");
    crate::parts_sum(&text, None, "count", (Goal::Count, false));
}

/// `count` refuses `--part` for closed tours in its own words; `auto` then counts in parts
/// with backtrack.
#[test]
fn count_refuses_parts_of_closed_tours_in_its_own_words() {
    let file = crate::puzzle("closed6x6-count.toml");
    let board = ["--width", "10", "--height", "3"];
    let mut args = vec![file.as_str()];
    args.extend(board);
    args.extend(["--strategy", "count", "--part", "1/2"]);
    let (code, _, err) = run_cli(&args);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            "\"count\" does not apply: a frontier dynamic program has no subtrees to split: \
             closed tours and prefixes are one sweep of the board"
        ),
        "{err}"
    );
    let mut args = vec![file.as_str()];
    args.extend(board);
    args.extend(["--part", "2/2"]);
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(" in this part [part 2/2: "), "{out}");
    assert!(err.contains("| backtrack |"), "{err}");
}

/// The prefix counts of one sweep over a closed tour board `w` x `h` whose squares from
/// `holes_from` on (row by row) are holes: (cells, count).
fn prefixes(
    w: usize,
    h: usize,
    holes_from: usize,
    threads: usize,
) -> (Outcome, Vec<(usize, Natural)>) {
    let holes: Vec<String> = (holes_from..w * h)
        .map(|k| format!("[{}, {}]", k / w, k % w))
        .collect();
    let text = board(w, h, true, None).replace(
        "[rules]",
        &format!("holes = [{}]\n[rules]", holes.join(", ")),
    );
    let model = crate::model_of(&text, None);
    let task = Task {
        goal: Goal::Count,
        prefixes: true,
        threads,
        ..Task::default()
    };
    let o = model
        .solve_checked("count", &task, Run::new(Limits::default()), u64::MAX)
        .unwrap_or_else(|e| panic!("{e}"))
        .outcome;
    let rows = o
        .answer
        .prefixes
        .iter()
        .map(|p| {
            assert_eq!(p.cells, p.squares, "a board without holes");
            (p.cells, p.count.clone())
        })
        .collect();
    (o, rows)
}

#[test]
fn one_sweep_counts_every_prefix_as_knuths_tables_give_them() {
    // A383660 (3 rows, n = 11..45), A383661 (5 rows, n = 9..39) and A383663 (7 rows,
    // n = 11..20): closed tours in the first 2n cells, column by column from the top.

    let a383663: [u128; 7] = [2, 11, 58, 0, 21, 1020, 9309];
    // Boards wider than tall are swept column by column from the top; 7 x 7 row by row,
    // which its diagonal mirror makes the same (34 cells of it, the rest holes).
    for (rows, cols, cells, first, table, threads) in [
        (3, 30, 90, 11, &A383660[..], 1),
        (5, 16, 80, 9, &A383661[..], 2),
        (7, 7, 34, 11, &a383663[..], 1),
    ] {
        let (o, got) = prefixes(cols, rows, cells, threads);
        // Every even number of cells, from 2 to the whole board.
        let listed: Vec<usize> = got.iter().map(|g| g.0).collect();
        let even: Vec<usize> = (1..=cells / 2).map(|k| 2 * k).collect();
        assert_eq!(listed, even, "{rows} rows");
        for (k, &v) in table.iter().enumerate() {
            let n = first + k;
            assert_eq!(
                got[n - 1],
                (2 * n, Natural::from(v)),
                "{rows} rows, n = {n}"
            );
        }
        // The whole board's count is the last prefix's.
        let whole = got.last().unwrap().1.to_u128();
        assert_eq!(o.answer.count, whole, "{rows} rows");
    }
}

/// The rows `n a(n)` of a table in tables/, its comments left out.
fn table(name: &str) -> Vec<(usize, String)> {
    let path = format!("{}/tables/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (n, v) = l.split_once(' ').expect("n a(n)");
            (n.parse().expect("n"), v.to_string())
        })
        .collect()
}

/// The tables to n = 150 in tables/: the 3- and 5-row ones as a sweep gives them now, the
/// 7-row one (25 minutes on two cores) against OEIS's first terms and the 7x8 count.
#[test]
fn the_tables_to_150_are_what_the_sweeps_give() {
    for (name, rows, cols, first, oeis) in [
        ("a383660.txt", 3, 100, 11, &A383660[..]),
        ("a383661.txt", 5, 60, 9, &A383661[..]),
    ] {
        let rows_listed = table(name);
        let (_, got) = prefixes(cols, rows, rows * cols, 2);
        let got: Vec<(usize, String)> = got
            .into_iter()
            .filter(|g| g.0 / 2 >= first)
            .map(|(cells, count)| (cells / 2, count.to_string()))
            .collect();
        assert_eq!(rows_listed, got, "{name}");
        for (k, v) in oeis.iter().enumerate() {
            assert_eq!(rows_listed[k].1, v.to_string(), "{name}, n = {}", first + k);
        }
    }
    let a383663 = table("a383663.txt");
    let ns: Vec<usize> = a383663.iter().map(|r| r.0).collect();
    assert_eq!(ns, (11..=150).collect::<Vec<_>>());
    let published = [2u64, 11, 58, 0, 21, 1020, 9309, 1481, 34162, 1295034];
    for (k, v) in published.iter().enumerate() {
        assert_eq!(a383663[k].1, v.to_string(), "n = {}", 11 + k);
    }
    // The first 56 cells are the whole 7x8 board.
    assert_eq!(a383663[28 - 11].1, "34524432316");
}

#[test]
fn each_prefix_counts_as_the_same_board_with_holes() {
    // The sweep's prefixes against separate counts of each prefix as a holed board, whose
    // own sweep has its end in view and prunes with it.
    let (_, got) = prefixes(9, 5, 45, 1);
    for (cells, c) in got.iter().filter(|g| g.0 >= 16) {
        let alone = count(&first_cells(5, *cells), "count");
        assert_eq!(*c, Natural::from(alone), "5 rows, {cells} cells");
    }
}

/// Closed tours of 3 x n, n = 0..=len, modulo `p`, from their published generating
/// function (OEIS A169764): an independent check of counts of any size.
fn a169764_mod(len: usize, p: u64) -> Vec<u64> {
    // Coefficients of z^(2k), k = 0.. .
    let num: [i64; 23] = [
        0, 0, 0, 0, 0, 16, 80, -544, -1856, 8080, 9856, -50864, -64, 152_576, -130_816, -214_272,
        245_760, 222_208, 44_544, -53_248, -352_256, 81_920, 32_768,
    ];
    let den: [i64; 22] = [
        1, -6, -64, 200, 1000, -3016, -3488, 24_256, -23_776, -104_168, 203_408, 184_704, -443_392,
        -14_336, 151_296, -145_920, 263_424, -317_440, -36_864, 966_656, -573_440, -131_072,
    ];
    let m = |x: i64| x.rem_euclid(p as i64) as u128;
    // a(2k) from the recurrence of the series num / den (odd n have none).
    let mut a: Vec<u128> = Vec::new();
    for k in 0..=len / 2 {
        let mut v = num.get(k).map_or(0, |&x| m(x));
        for j in 1..den.len().min(k + 1) {
            v = (v + (p as u128 - m(den[j])) * a[k - j]) % p as u128;
        }
        a.push(v);
    }
    (0..=len)
        .map(|n| if n % 2 == 0 { a[n / 2] as u64 } else { 0 })
        .collect()
}

#[test]
fn a_count_past_128_bits_agrees_with_the_generating_function() {
    // 3 x 300: a count of about 480 bits, in the wide integers; checked modulo three primes
    // near 2^61 against the series, and its low terms exactly.
    let (o, _, _) = crate::solve(
        &board(300, 3, true, None),
        None,
        "count",
        Goal::Count,
        false,
        1,
    );
    let big = o.answer.big.clone().expect("a count past u128");
    assert!(o.answer.count.is_none());
    assert!(big.to_string().len() > 140, "{big}");
    for p in [
        2_305_843_009_213_693_951u64,
        2_305_843_009_213_693_921,
        2_305_843_009_213_693_907,
    ] {
        assert_eq!(big.rem(p), a169764_mod(300, p)[300], "mod {p}");
    }
    let exact = a169764_mod(30, 2_305_843_009_213_693_951);
    assert_eq!(
        exact[10..=24],
        [
            16,
            0,
            176,
            0,
            1536,
            0,
            15424,
            0,
            147_728,
            0,
            1_448_416,
            0,
            14_060_048,
            0,
            136_947_616
        ]
    );
}

#[test]
fn prefixes_and_counts_past_2_to_the_53_reach_text_and_json_exactly() {
    let file = crate::puzzle("prefixes7.toml");
    let args = [
        &file[..],
        "--height",
        "3",
        "--width",
        "100",
        "--format",
        "json",
    ];
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["prefixes"].as_array().unwrap();
    assert_eq!(rows.len(), 150);
    // 3 x 10 (30 cells) as a number, 3 x 100 as a string: past 2^53.
    assert_eq!(rows[14]["cells"], 30);
    assert_eq!(rows[14]["count"], 16);
    let whole = rows[149]["count"].as_str().unwrap();
    assert_eq!(v["count"].as_str().unwrap(), whole);
    let p = 2_305_843_009_213_693_951u64;
    let residue = whole
        .bytes()
        .fold(0u128, |r, d| (r * 10 + (d - b'0') as u128) % p as u128);
    assert_eq!(residue as u64, a169764_mod(100, p)[100]);
    // Text: a line a prefix, and the answer grouped by thousands.
    let (code, out, _) = run_cli(&[&file[..], "--height", "3", "--width", "12"]);
    assert_eq!(code, 0);
    assert!(out.contains("      22 squares  4\n"), "{out}");
    assert!(out.contains("      36 squares  176\n"), "{out}");
    assert!(out.ends_with("\n176 solutions\n"), "{out}");
    // Open tours and other kinds refuse it, naming the option.
    let (code, _, err) = run_cli(&[&crate::puzzle("tour5x5.toml"), "--prefixes"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("prefixes are counted for closed tours only"),
        "{err}"
    );
    // A start: the prefixes that leave it out have no tour from it.
    let (code, _, err) = run_cli(&[
        &file[..],
        "--height",
        "3",
        "--width",
        "12",
        "--set",
        "rules.start=[0, 0]",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("prefixes are counted without a start"),
        "{err}"
    );
    let (code, _, err) = run_cli(&[&crate::puzzle("queens8.toml"), "--prefixes"]);
    assert_eq!(code, 2);
    assert!(err.contains("--prefixes: accepted by"), "{err}");
}

#[test]
fn counts_up_to_symmetry_follow_a169769_and_a328341() {
    // A169769: geometrically distinct closed tours of 3 x n; A328341: open tours of 4 x n
    // (tour diagrams: the board's symmetries and the direction).
    for (w, h, closed, classes, tours) in [
        (10, 3, true, 6u128, 16u128),
        (3, 10, true, 6, 16),
        (12, 3, true, 44, 176),
        (3, 4, false, 3, 16),
        (5, 4, false, 22, 164),
        (6, 4, false, 186, 1488),
        (7, 4, false, 1603, 12_756),
    ] {
        let text = board(w, h, closed, None);
        let (o, _, _) = crate::solve(&text, None, "backtrack", Goal::Count, true, 1);
        assert_eq!(o.answer.count, Some(classes), "{w}x{h}");
        assert!(
            o.answer
                .notes
                .contains(&CountNote::SolutionsInAll(tours).into()),
            "{w}x{h}: {:?}",
            o.answer.notes
        );
        // The tours themselves, as the plain count gives them.
        assert_eq!(count(&text, "count"), tours, "{w}x{h}");
    }
    let file = crate::puzzle("tour5x5.toml");
    let (code, out, err) = run_cli(&[&file[..], "--width", "5", "--height", "4", "--unique"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("22 classes under 8 symmetries"), "{out}");
    // A start, and the strategies that do not serve it, are refused in their words.
    let (code, _, err) = run_cli(&[&file[..], "--unique", "--set", "rules.start=[0, 0]"]);
    assert_eq!(code, 2);
    assert!(err.contains("accepted without a start"), "{err}");
    let (code, _, err) = run_cli(&[&file[..], "--unique", "--strategy", "count"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`backtrack` counts open tours up to symmetry"),
        "{err}"
    );
}

/// `count --unique` (Burnside: the half turn's fixed tours by a sweep to the middle of the
/// board, the other symmetries' ruled out) against `backtrack --unique` (each tour weighed
/// by its stabiliser), on 6x6 boards with two pairs of holes that the half turn swaps, one
/// pair of each colour: some keep the quarter turns too, and all have tours that the half
/// turn maps to themselves (classes times the group's order pass the tours).
#[test]
fn count_up_to_symmetry_agrees_with_backtrack() {
    for (holes, tours, order) in [
        ("[0, 2], [5, 3], [0, 1], [5, 4]", 38, 2),
        ("[0, 2], [5, 3], [1, 0], [4, 5]", 1_902, 2),
        ("[0, 4], [5, 1], [0, 1], [5, 4]", 3_576, 4),
        ("[0, 4], [5, 1], [1, 0], [4, 5]", 1_510, 4),
    ] {
        let t = board(6, 6, true, None).replace("[rules]", &format!("holes = [{holes}]\n[rules]"));
        let (o, _, _) = crate::solve(&t, None, "count", Goal::Count, true, 2);
        let (b, _, _) = crate::solve(&t, None, "backtrack", Goal::Count, true, 1);
        assert_eq!(o.answer.count, b.answer.count, "{holes}");
        assert_eq!(count(&t, "count"), tours, "{holes}");
        for a in [&o.answer, &b.answer] {
            assert!(
                a.notes.contains(&CountNote::SolutionsInAll(tours).into()),
                "{holes}"
            );
        }
        assert!(o.answer.count.unwrap() * order > tours, "{holes}");
    }
    // Boards whose symmetries the sweep cannot weigh are refused in its words: 6x6's
    // quarter turns (a quarter of 36 cells is odd), open tours.
    let file = crate::puzzle("closed6x6-count.toml");
    let (code, _, err) = run_cli(&[&file[..], "--unique", "--strategy", "count"]);
    assert_eq!(code, 2);
    assert!(err.contains("turns it a quarter"), "{err}");
    // 3x10's reflection across its long side changes colours with 15 cells to each half: a
    // tour may map onto itself half a turn along.
    let (code, _, err) = run_cli(&[
        &file[..],
        "--height",
        "3",
        "--width",
        "10",
        "--unique",
        "--strategy",
        "count",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("reflects it, with an odd number of cells in each half"),
        "{err}"
    );
}

/// Distinct tour diagrams among `tours` (square indices on a w x h board), each taken to a
/// canonical form under the board's symmetries (and, for open tours, reversal) by code that
/// shares nothing with the strategy's stabilisers.
fn diagrams(tours: &[Vec<usize>], w: usize, h: usize, closed: bool) -> usize {
    let maps: Vec<Box<dyn Fn(usize) -> usize>> = (0..8)
        .filter(|t| t & 4 == 0 || w == h)
        .map(|t| {
            Box::new(move |s: usize| {
                let (mut r, mut c) = (s / w, s % w);
                if t & 4 != 0 {
                    std::mem::swap(&mut r, &mut c);
                }
                if t & 2 != 0 {
                    r = h - 1 - r;
                }
                if t & 1 != 0 {
                    c = w - 1 - c;
                }
                r * w + c
            }) as Box<dyn Fn(usize) -> usize>
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    for t in tours {
        let forms = maps.iter().flat_map(|f| {
            let image: Vec<usize> = t.iter().map(|&s| f(s)).collect();
            if closed {
                let n = image.len();
                let mut edges: Vec<(usize, usize)> = (0..n)
                    .map(|i| {
                        let (a, b) = (image[i], image[(i + 1) % n]);
                        (a.min(b), a.max(b))
                    })
                    .collect();
                edges.sort();
                vec![edges.iter().flat_map(|&(a, b)| [a, b]).collect::<Vec<_>>()]
            } else {
                let mut back = image.clone();
                back.reverse();
                vec![image, back]
            }
        });
        seen.insert(forms.min().unwrap());
    }
    seen.len()
}

#[test]
fn classes_match_canonical_forms_of_every_tour_listed() {
    for (w, h, closed) in [(5, 5, false), (12, 3, true), (6, 4, false)] {
        let text = board(w, h, closed, None);
        let (_, tours, _) = crate::solve(&text, None, "backtrack", Goal::All, false, 1);
        let (o, _, _) = crate::solve(&text, None, "backtrack", Goal::Count, true, 1);
        assert_eq!(
            o.answer.count,
            Some(diagrams(&tours, w, h, closed) as u128),
            "{w}x{h}"
        );
    }
}

/// Boards whose shorter side is 8 to 10 take 128-bit states: the rows past the first few
/// are holes so that backtracking stays quick, and a few more holes and starts are drawn.
/// Five rows of the 8x8 board count the closed tours of 5x8 (A175881).
#[test]
fn counts_on_boards_8_to_10_wide_agree_with_backtrack() {
    let mut draw = draws(0x6a09_e667_f3bc_c908);
    let mut nonzero = 0;
    for case in 0..12 {
        let closed = case % 3 == 2;
        // Three rows have closed tours from 10 columns on (3x10: 16, 3x12: 176).
        let (w, h) = match closed {
            true => [(10, 10), (12, 10)][case / 3 % 2],
            false => [(8, 8), (9, 9), (10, 10), (8, 11)][case % 4],
        };
        let rows = 3;
        let mut holes: Vec<(usize, usize)> = (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .filter(|&(r, _)| r >= rows)
            .collect();
        for _ in 0..case % 2 {
            holes.push((draw(rows), draw(w)));
        }
        let free: Vec<(usize, usize)> = (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .filter(|s| !holes.contains(s))
            .collect();
        let start = (case % 4 < 2).then(|| free[draw(free.len())]);
        let t = with_holes(&board(w, h, closed, start), &holes);
        let c = count(&t, "count");
        assert_eq!(c, count(&t, "backtrack"), "{t}");
        nonzero += (c > 0) as usize;
    }
    assert!(nonzero >= 5, "too few boards with tours: {nonzero}");
    let rows: Vec<(usize, usize)> = (5..8).flat_map(|r| (0..8).map(move |c| (r, c))).collect();
    let five_of_eight = with_holes(&board(8, 8, true, None), &rows);
    assert_eq!(count(&five_of_eight, "count"), 44_202);
}

/// The JSON report lists the states after each square of the sweep: 36 on 6x6, adding up
/// to the nodes; and where the states outgrow the memory, those of the squares done.
#[test]
fn the_report_lists_the_frontier_square_by_square() {
    let file = crate::puzzle("closed6x6-count.toml");
    let (code, out, err) = run_cli(&[&file[..], "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let states: Vec<u64> = v["frontier"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(states.len(), 36);
    // The first row has no back moves: one state a square.
    assert_eq!(states[..6], [1; 6]);
    assert_eq!(states[35], 1);
    let nodes = v["stats"]["nodes"].as_u64().unwrap();
    assert_eq!(states.iter().sum::<u64>() + 36, nodes);
    // 8x8 takes 128-bit states; 16 MiB holds its first 20-odd squares.
    let args = [
        &file[..],
        "--size",
        "8",
        "--memory",
        "16M",
        "--scratch",
        "off",
        "--format",
        "json",
    ];
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("the frontier outgrew the memory at square"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let done = v["frontier"].as_array().unwrap();
    assert!((16..40).contains(&done.len()), "{}", done.len());
    // The first line has no back moves; on the second each square may take a move back to
    // each of its free neighbours or not, doubling the states or more.
    assert!(done[..8].iter().all(|x| x == 1), "{done:?}");
    assert_eq!(done[12], 64);
}

/// A path of one square is its own reverse: one directed tour, not two. The counting sweep
/// (knights only) and backtracking agree; on boards of two squares and more a path and its
/// reverse are two tours.
#[test]
fn a_single_square_is_one_directed_tour() {
    for s in ["backtrack", "count"] {
        assert_eq!(count(&board(1, 1, false, None), s), 1, "{s}");
    }
    let wazir = |w: usize, h: usize| {
        format!("kind = \"tour\"\n[board]\nwidth = {w}\nheight = {h}\n[piece]\nmoves = \"W\"\n")
    };
    for (w, h, want) in [(1, 1, 1), (2, 1, 2), (3, 1, 2), (2, 2, 8)] {
        assert_eq!(count(&wazir(w, h), "backtrack"), want, "{w}x{h}");
    }
}
