//! Tour counts against published values (OEIS, Knuth's tables) and the counting strategies
//! against each other and plain backtracking.

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

#[test]
fn a_count_too_large_for_its_memory_stops_and_says_what_it_would_need() {
    // 7x7 open tours: the frontier outgrows 64 MiB at the 22nd square, in half a second.
    for threads in ["1", "2"] {
        let (code, out, err) = run_cli(&[
            &crate::puzzle("tour5x5.toml"),
            "--size",
            "7",
            "--memory",
            "64M",
            "--threads",
            threads,
        ]);
        assert_eq!(code, 3, "{out}{err}");
        assert!(
            out.contains("stopped before any was counted [memory bound]"),
            "{out}"
        );
        assert!(
            err.contains("the frontier outgrew the memory at square")
                && err.contains("the square would need about")
                && err.contains("more than the memory budget of 64 MiB (--memory)"),
            "{err}"
        );
    }
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

/// `count` refuses `--part` in its own words; `auto` then counts in parts with backtrack.
#[test]
fn count_refuses_parts_in_its_own_words() {
    let file = crate::puzzle("tour5x5.toml");
    let (code, _, err) = run_cli(&[&file, "--strategy", "count", "--part", "1/2"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            "\"count\" does not apply: a frontier dynamic program has no subtrees to split"
        ),
        "{err}"
    );
    let (code, out, err) = run_cli(&[&file, "--part", "2/2"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("solutions in this part [part 2/2: "), "{out}");
}
