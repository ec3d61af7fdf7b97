//! Givens and mixed pieces (kinds independent and domination) against brute forces written
//! here from the pieces' geometry, sharing no code with the compiler or the strategies;
//! every solution the library reports passes the model's validator on its way out.

use assert_cmd::Command;
use boardsolve::engine::Goal;

use crate::solve;

/// A piece on a square: its letter and (row, col).
type Placed = (char, (i64, i64));
/// Whether a piece may join those placed.
type Keep = dyn Fn(&[Placed], Placed) -> bool;
/// What sees each placement.
type Each<'a> = dyn FnMut(&[Placed]) + 'a;
/// Pieces as written in `[[piece]]` tables: letter, count, givens.
type Army<'a> = [(char, &'a str, &'a [(i64, i64)])];

/// Whether `p` ('Q', 'R', 'B', 'N', 'K') on `a` attacks `b` on an empty board: lines are
/// not blocked (a blocker of an independent placement is itself attacked; domination counts
/// attacks on the piece's move graph).
fn attacks(p: char, a: (i64, i64), b: (i64, i64)) -> bool {
    let (dr, dc) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    if (dr, dc) == (0, 0) {
        return false;
    }
    let rook = dr == 0 || dc == 0;
    let bishop = dr == dc;
    match p {
        'Q' => rook || bishop,
        'R' => rook,
        'B' => bishop,
        'N' => (dr, dc) == (1, 2) || (dr, dc) == (2, 1),
        'K' => dr <= 1 && dc <= 1,
        _ => panic!("no piece {p}"),
    }
}

/// Every placement of `army` (piece, least, most) on a `w` x `h` board holding `givens`
/// (piece, square) and at most `most` pieces in all, passed to `each` as (piece, square)
/// pairs: pieces placed piece by piece on squares in increasing order, each square at most
/// once; a piece that `keep` refuses beside those placed ends its branch.
fn placements(
    (w, h): (i64, i64),
    army: &[(char, usize, usize)],
    givens: &[(char, (i64, i64))],
    most: usize,
    keep: &Keep,
    each: &mut Each,
) {
    struct Walk<'a> {
        squares: Vec<(i64, i64)>,
        most: usize,
        keep: &'a Keep,
    }
    impl Walk<'_> {
        fn go(
            &self,
            army: &[(char, usize, usize)],
            placed: &mut Vec<(char, (i64, i64))>,
            each: &mut Each,
        ) {
            let Some((&(p, lo, hi), rest)) = army.split_first() else {
                each(placed);
                return;
            };
            let have = placed.iter().filter(|q| q.0 == p).count();
            self.choose(0, (p, have, lo, hi), rest, placed, each);
        }
        fn choose(
            &self,
            from: usize,
            (p, have, lo, hi): (char, usize, usize, usize),
            rest: &[(char, usize, usize)],
            placed: &mut Vec<(char, (i64, i64))>,
            each: &mut Each,
        ) {
            if have >= lo && have <= hi {
                self.go(rest, placed, each);
            }
            if have >= hi || placed.len() >= self.most {
                return;
            }
            for i in from..self.squares.len() {
                let s = self.squares[i];
                if placed.iter().any(|q| q.1 == s) || !(self.keep)(placed, (p, s)) {
                    continue;
                }
                placed.push((p, s));
                self.choose(i + 1, (p, have + 1, lo, hi), rest, placed, each);
                placed.pop();
            }
        }
    }
    let walk = Walk {
        squares: (0..h).flat_map(|r| (0..w).map(move |c| (r, c))).collect(),
        most,
        keep,
    };
    let mut placed = givens.to_vec();
    walk.go(army, &mut placed, each);
}

/// A piece beside others none of which it attacks or is attacked by.
fn apart(placed: &[(char, (i64, i64))], (p, a): (char, (i64, i64))) -> bool {
    placed
        .iter()
        .all(|&(q, b)| !attacks(p, a, b) && !attacks(q, b, a))
}

fn anywhere(_: &[(char, (i64, i64))], _: (char, (i64, i64))) -> bool {
    true
}

fn independent(placed: &[(char, (i64, i64))]) -> bool {
    placed.iter().enumerate().all(|(i, &(p, a))| {
        placed[i + 1..]
            .iter()
            .all(|&(q, b)| !attacks(p, a, b) && !attacks(q, b, a))
    })
}

fn dominates(w: i64, h: i64, placed: &[(char, (i64, i64))]) -> bool {
    (0..h).all(|r| {
        (0..w).all(|c| {
            placed
                .iter()
                .any(|&(p, a)| a == (r, c) || attacks(p, a, (r, c)))
        })
    })
}

/// The independent placements of the army, counted.
fn brute_independent(
    w: i64,
    h: i64,
    army: &[(char, usize, usize)],
    givens: &[(char, (i64, i64))],
) -> u128 {
    let mut n = 0;
    placements((w, h), army, givens, usize::MAX, &apart, &mut |p| {
        assert!(independent(p));
        n += 1;
    });
    n
}

/// The smallest dominating placements of the army (independent ones where asked): their
/// size and number.
fn brute_domination(
    w: i64,
    h: i64,
    army: &[(char, usize, usize)],
    givens: &[(char, (i64, i64))],
    indep: bool,
) -> (u64, u128) {
    // The smallest total first: every placement of at most k pieces, those of exactly k
    // that dominate counted.
    let keep: &Keep = if indep { &apart } else { &anywhere };
    for k in givens.len()..=(w * h) as usize {
        let mut n = 0u128;
        placements((w, h), army, givens, k, keep, &mut |p| {
            if p.len() == k && dominates(w, h, p) {
                n += 1;
            }
        });
        if n > 0 {
            return (k as u64, n);
        }
    }
    panic!("no placement dominates")
}

/// The `[[piece]]` tables of an army; givens written as [row, col].
fn tables(army: &Army) -> String {
    army.iter()
        .map(|(p, count, given)| {
            let given: Vec<String> = given.iter().map(|(r, c)| format!("[{r}, {c}]")).collect();
            format!(
                "[[piece]]\nmoves = \"{p}\"\ncount = {count}\ngiven = [{}]\n",
                given.join(", ")
            )
        })
        .collect()
}

fn range(count: &str) -> (usize, usize) {
    match count.trim_matches('"').split_once("..") {
        Some((lo, hi)) => (lo.parse().unwrap(), hi.parse().unwrap()),
        None => {
            let k = count.parse().unwrap();
            (k, k)
        }
    }
}

#[test]
fn eight_queens_with_a_queen_on_a1_against_a_brute_force() {
    // Every permutation, one queen a row: those with a queen on a1 (row 7, column 0 from
    // the top-left) and no two on a diagonal.
    let mut perm: Vec<i64> = (0..8).collect();
    let mut expected = 0u128;
    let mut solutions: Vec<Vec<i64>> = Vec::new();
    fn permute(k: usize, perm: &mut Vec<i64>, out: &mut dyn FnMut(&[i64])) {
        if k == perm.len() {
            out(perm);
            return;
        }
        for i in k..perm.len() {
            perm.swap(k, i);
            permute(k + 1, perm, out);
            perm.swap(k, i);
        }
    }
    permute(0, &mut perm, &mut |p| {
        let diagonal = (0..8).any(|a| (a + 1..8).any(|b| (p[a] - p[b]).abs() == (b - a) as i64));
        if p[7] == 0 && !diagonal {
            expected += 1;
            solutions.push(p.to_vec());
        }
    });
    assert!(expected > 0);
    let text = std::fs::read_to_string(crate::puzzle("queens8-completion.toml")).unwrap();
    for s in ["backtrack", "dlx"] {
        let (o, _, _) = solve(&text, None, s, Goal::Count, false, 1);
        assert_eq!(o.answer.count, Some(expected), "{s}");
        let (_, sols, _) = solve(&text, None, s, Goal::All, false, 1);
        assert_eq!(sols.len() as u128, expected, "{s}");
        // Each holds the given queen on a1 (square 56).
        assert!(sols.iter().all(|sol| sol.contains(&56) && sol.len() == 8));
    }
    // --unique: classes under the symmetries that keep a1 where it is, the identity and
    // the reflection in the a1-h8 diagonal ((r, c) -> (7 - c, 7 - r)).
    let reflect = |p: &Vec<i64>| {
        let mut q = vec![0i64; 8];
        for (r, &c) in p.iter().enumerate() {
            q[(7 - c) as usize] = 7 - r as i64;
        }
        q
    };
    let classes = solutions.iter().filter(|p| reflect(p) >= **p).count() as u128;
    for s in ["backtrack", "dlx"] {
        let (o, _, _) = solve(&text, None, s, Goal::Count, true, 1);
        assert_eq!(o.answer.count, Some(classes), "{s} --unique");
    }
}

#[test]
fn givens_on_small_boards_against_a_brute_force() {
    // Piece, count, givens and board side.
    type Case<'a> = (char, usize, &'a [(i64, i64)], i64);
    let cases: [Case; 5] = [
        ('Q', 5, &[(0, 0)], 5),
        ('Q', 6, &[(1, 3)], 6),
        ('N', 6, &[(0, 0), (2, 2)], 4),
        ('K', 4, &[(1, 1)], 5),
        ('R', 5, &[(2, 2), (4, 0)], 5),
    ];
    for (p, count, given, n) in cases {
        let given_text: Vec<String> = given.iter().map(|(r, c)| format!("[{r}, {c}]")).collect();
        let text = format!(
            "kind = \"independent\"\n[board]\nsize = {n}\n[piece]\nmoves = \"{p}\"\n\
             [rules]\ncount = {count}\ngiven = [{}]\n",
            given_text.join(", ")
        );
        let givens: Vec<(char, (i64, i64))> = given.iter().map(|&s| (p, s)).collect();
        let expected = brute_independent(n, n, &[(p, count, count)], &givens);
        for s in ["backtrack", "dlx"] {
            let (o, _, _) = solve(&text, None, s, Goal::Count, false, 1);
            assert_eq!(
                o.answer.count,
                Some(expected),
                "{s} {p} x{count} on {n}x{n}"
            );
        }
        // Maximize: the most pieces with the givens, against the brute force's largest.
        let mut most = 0;
        let all = (n * n) as usize;
        placements((n, n), &[(p, 0, all)], &givens, all, &apart, &mut |pl| {
            most = most.max(pl.len());
        });
        let (o, _, _) = solve(&text, None, "backtrack", Goal::Maximize, false, 1);
        assert_eq!(
            o.answer.optimum,
            Some(most as u64),
            "maximize {p} on {n}x{n}"
        );
    }
}

#[test]
fn mixed_placements_on_small_boards_against_a_brute_force() {
    let cases: [(i64, &Army); 7] = [
        (4, &[('Q', "1", &[]), ('N', "1", &[]), ('R', "1", &[])]),
        (
            4,
            &[
                ('Q', "\"1..2\"", &[]),
                ('N', "\"1..3\"", &[]),
                ('R', "\"0..1\"", &[]),
            ],
        ),
        (5, &[('Q', "2", &[]), ('N', "1", &[]), ('R', "1", &[])]),
        (
            5,
            &[
                ('Q', "\"1..2\"", &[]),
                ('N', "\"0..2\"", &[]),
                ('R', "1", &[]),
            ],
        ),
        (5, &[('Q', "2", &[(0, 0)]), ('N', "\"1..2\"", &[(3, 1)])]),
        (4, &[('K', "\"0..3\"", &[]), ('B', "\"2..3\"", &[(0, 1)])]),
        (
            5,
            &[('N', "3", &[]), ('R', "\"0..1\"", &[]), ('B', "2", &[])],
        ),
    ];
    for (n, army) in cases {
        let text = format!(
            "kind = \"independent\"\n[board]\nsize = {n}\n{}",
            tables(army)
        );
        let ranges: Vec<(char, usize, usize)> = army
            .iter()
            .map(|&(p, c, _)| {
                let (lo, hi) = range(c);
                (p, lo, hi)
            })
            .collect();
        let givens: Vec<(char, (i64, i64))> = army
            .iter()
            .flat_map(|&(p, _, g)| g.iter().map(move |&s| (p, s)))
            .collect();
        let expected = brute_independent(n, n, &ranges, &givens);
        assert!(expected > 0, "{text}");
        for s in ["backtrack", "dlx"] {
            let (o, sols, _) = solve(&text, None, s, Goal::All, false, 1);
            assert_eq!(
                o.answer.count.unwrap_or(sols.len() as u128),
                expected,
                "{s}\n{text}"
            );
            assert_eq!(sols.len() as u128, expected, "{s}\n{text}");
            let (o, _, _) = solve(&text, None, s, Goal::Count, false, 1);
            assert_eq!(o.answer.count, Some(expected), "{s}\n{text}");
        }
        // --unique: both strategies agree, and the classes stand for every solution.
        let (a, _, _) = solve(&text, None, "backtrack", Goal::Count, true, 1);
        let (b, _, _) = solve(&text, None, "dlx", Goal::Count, true, 1);
        assert_eq!(a.answer.count, b.answer.count, "--unique\n{text}");
        let classes = a.answer.count.unwrap();
        assert!(classes <= expected && classes * 8 >= expected, "{text}");
    }
}

#[test]
fn unique_keeps_each_square_to_its_piece() {
    // A queen and a rook on a 3x3 board, apart: the brute force's placements grouped by
    // the board's 8 symmetries, each square keeping its piece.
    let text = "kind = \"independent\"\n[board]\nsize = 3\n[[piece]]\nmoves = \"Q\"\ncount = 1\n\
                [[piece]]\nmoves = \"N\"\ncount = 1\n";
    let mut all: Vec<Vec<(char, (i64, i64))>> = Vec::new();
    placements(
        (3, 3),
        &[('Q', 1, 1), ('N', 1, 1)],
        &[],
        2,
        &apart,
        &mut |p| {
            all.push(p.to_vec());
        },
    );
    let map = |t: u8, (r, c): (i64, i64)| {
        let (r, c) = if t >= 4 { (c, r) } else { (r, c) };
        (
            if t & 2 != 0 { 2 - r } else { r },
            if t & 1 != 0 { 2 - c } else { c },
        )
    };
    let canonical = |p: &Vec<(char, (i64, i64))>| {
        (0..8)
            .map(|t| {
                let mut q: Vec<(char, (i64, i64))> =
                    p.iter().map(|&(x, s)| (x, map(t, s))).collect();
                q.sort();
                q
            })
            .min()
            .unwrap()
    };
    let mut classes: Vec<_> = all.iter().map(canonical).collect();
    classes.sort();
    classes.dedup();
    for s in ["backtrack", "dlx"] {
        let (o, _, _) = solve(text, None, s, Goal::Count, true, 1);
        assert_eq!(o.answer.count, Some(classes.len() as u128), "{s}");
    }
}

#[test]
fn domination_with_givens_and_mixed_pieces_against_a_brute_force() {
    let cases: [(i64, bool, &Army); 7] = [
        (4, false, &[('Q', "\"0..16\"", &[(0, 1)])]),
        (5, false, &[('Q', "\"0..25\"", &[(0, 0)])]),
        (
            4,
            false,
            &[('Q', "\"0..16\"", &[]), ('N', "\"0..16\"", &[])],
        ),
        (5, false, &[('Q', "\"0..1\"", &[]), ('N', "\"0..25\"", &[])]),
        (
            5,
            false,
            &[('R', "\"0..25\"", &[]), ('N', "\"1..25\"", &[(2, 2)])],
        ),
        (
            4,
            true,
            &[('K', "\"0..16\"", &[(0, 0)]), ('N', "\"0..16\"", &[])],
        ),
        (5, true, &[('Q', "\"0..25\"", &[(0, 1)])]),
    ];
    for (n, indep, army) in cases {
        let text = format!(
            "kind = \"domination\"\n[board]\nsize = {n}\n[rules]\nindependent = {indep}\n{}",
            tables(army)
        );
        // One piece with givens is written as a [piece] and [rules] given alike.
        let text = if army.len() == 1 {
            let (p, _, g) = army[0];
            let given: Vec<String> = g.iter().map(|(r, c)| format!("[{r}, {c}]")).collect();
            format!(
                "kind = \"domination\"\n[board]\nsize = {n}\n[piece]\nmoves = \"{p}\"\n\
                 [rules]\nindependent = {indep}\ngiven = [{}]\n",
                given.join(", ")
            )
        } else {
            text
        };
        let ranges: Vec<(char, usize, usize)> = army
            .iter()
            .map(|&(p, c, _)| {
                let (lo, hi) = range(c);
                (p, lo, hi)
            })
            .collect();
        let givens: Vec<(char, (i64, i64))> = army
            .iter()
            .flat_map(|&(p, _, g)| g.iter().map(move |&s| (p, s)))
            .collect();
        let (optimum, count) = brute_domination(n, n, &ranges, &givens, indep);
        let (o, best, _) = solve(&text, None, "dlx", Goal::Minimize, false, 1);
        assert_eq!(o.answer.optimum, Some(optimum), "minimize\n{text}");
        assert_eq!(best[0].len() as u64, optimum, "{text}");
        let (o, _, _) = solve(&text, None, "dlx", Goal::Count, false, 1);
        assert_eq!(o.answer.optimum, Some(optimum), "count\n{text}");
        assert_eq!(o.answer.count, Some(count), "count\n{text}");
        let (o, sols, _) = solve(&text, None, "dlx", Goal::First, false, 1);
        assert_eq!(sols.len(), 1, "first\n{text}");
        assert!(o.answer.optimum.is_none_or(|k| k >= optimum));
    }
}

fn run_text(text: &str, extra: &[&str]) -> (i32, String, String) {
    // `solve strategies -` names the file after its command; a solve names it first.
    let args: Vec<&str> = match extra.split_first() {
        Some((&"strategies", rest)) => ["strategies", "-"]
            .into_iter()
            .chain(rest.iter().copied())
            .collect(),
        _ => std::iter::once("-").chain(extra.iter().copied()).collect(),
    };
    let out = Command::cargo_bin("solve")
        .unwrap()
        .args(args)
        .write_stdin(text.to_string())
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), stdout, err)
}

const QUEENS: &str = "kind = \"independent\"\n[board]\nsize = 8\n[piece]\nmoves = \"Q\"\n";

#[test]
fn givens_that_attack_each_other_are_refused_naming_both() {
    let text = format!("{QUEENS}[rules]\ncount = 8\ngiven = [\"a1\",\n  \"c2\",\n  \"h8\"]\n");
    let (code, _, err) = run_text(&text, &[]);
    assert_eq!(code, 2, "{err}");
    for needle in [
        "<stdin>:10:",
        "rules.given",
        "a1",
        "h8",
        "attack each other",
    ] {
        assert!(err.contains(needle), "{needle:?} in {err}");
    }
    // Mixed pieces: a knight given where it attacks a given rook's square (the knight's
    // attack), and a rook attacking a given knight (the rook's).
    let text = "kind = \"independent\"\n[board]\nsize = 5\n[[piece]]\nmoves = \"R\"\ncount = 1\n\
                given = [\"a1\"]\n[[piece]]\nmoves = \"N\"\ncount = 1\ngiven = [\"b3\"]\n";
    let (code, _, err) = run_text(text, &[]);
    assert_eq!(code, 2, "{err}");
    for needle in [
        "<stdin>:11:",
        "piece.given",
        "a1",
        "b3",
        "attack each other",
    ] {
        assert!(err.contains(needle), "{needle:?} in {err}");
    }
    let text = "kind = \"independent\"\n[board]\nsize = 5\n[[piece]]\nmoves = \"N\"\ncount = 1\n\
                given = [\"a1\"]\n[[piece]]\nmoves = \"R\"\ncount = 1\ngiven = [\"a5\"]\n";
    let (code, _, err) = run_text(text, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a1") && err.contains("a5"), "{err}");
}

#[test]
fn bad_givens_and_pieces_are_refused_with_their_line() {
    let cases: [(String, &[&str]); 8] = [
        (
            format!("{QUEENS}[rules]\ncount = 8\ngiven = [\"i1\"]\n"),
            &["<stdin>:8:", "rules.given", "off"],
        ),
        (
            format!("{QUEENS}[rules]\ncount = 8\ngiven = [[8, 0]]\n"),
            &["<stdin>:8:", "[8, 0] is off"],
        ),
        (
            "kind = \"independent\"\n[board]\nsize = 8\nholes = [\"d4\"]\n[piece]\nmoves = \"Q\"\n\
             [rules]\ncount = 7\ngiven = [\"d4\"]\n"
                .to_string(),
            &["<stdin>:9:", "d4 is a hole"],
        ),
        (
            format!("{QUEENS}[rules]\ncount = 8\ngiven = [\"a1\", [7, 0]]\n"),
            &["<stdin>:8:", "a1 is given twice"],
        ),
        (
            format!("{QUEENS}[rules]\ncount = 1\ngiven = [\"a1\", \"b3\"]\n"),
            &["rules.given", "2 pieces 'Q' given", "at most 1"],
        ),
        (
            "kind = \"independent\"\n[board]\nsize = 5\n[[piece]]\nmoves = \"Q\"\n\
             [[piece]]\nmoves = \"N\"\ncount = 1\n"
                .to_string(),
            &["piece", "number 1 has no count"],
        ),
        (
            "kind = \"independent\"\n[board]\nsize = 5\n[[piece]]\nmoves = \"Q\"\ncount = 1\n\
             [[piece]]\nmoves = \"Q\"\ncount = \"1..x\"\n"
                .to_string(),
            &["<stdin>:9:", "piece.count", "accepted"],
        ),
        (
            "kind = \"domination\"\n[board]\nsize = 5\n[[piece]]\nmoves = \"Q\"\ncount = 1\n\
             [[piece]]\nmoves = \"WF\"\ncount = 1\nsymbol = \"Q\"\n"
                .to_string(),
            &["<stdin>:10:", "piece.symbol", "symbol 'Q' of another piece"],
        ),
    ];
    for (text, needles) in cases {
        let (code, _, err) = run_text(&text, &[]);
        assert_eq!(code, 2, "{text}\n{err}");
        for n in needles {
            assert!(err.contains(n), "{n:?} in\n{err}");
        }
    }
    // [rules] count beside [[piece]] tables, and a shape's key in a chess piece's table.
    let text = "kind = \"independent\"\n[board]\nsize = 5\n[rules]\ncount = 2\n[[piece]]\n\
                moves = \"Q\"\ncount = 1\n";
    let (code, _, err) = run_text(text, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("rules.count") && err.contains("own count"),
        "{err}"
    );
    let text = "kind = \"domination\"\n[board]\nsize = 5\n[[piece]]\nmoves = \"Q\"\ncount = 1\n\
                shape = \"#\"\n";
    let (code, _, err) = run_text(text, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("piece.shape") && err.contains("tiling"),
        "{err}"
    );
}

#[test]
fn counts_asking_for_more_pieces_than_squares_are_refused() {
    // Three counts of at least 20 on 36 squares, for both kinds that read [[piece]] tables:
    // refused at the count that passes the squares, before any search.
    let three = |kind: &str| {
        format!(
            "kind = \"{kind}\"\n[board]\nsize = 6\n[[piece]]\nmoves = \"K\"\n\
             count = \"20..30\"\n[[piece]]\nmoves = \"N\"\ncount = \"20..30\"\n[[piece]]\n\
             moves = \"Q\"\ncount = \"20..30\"\n"
        )
    };
    for kind in ["independent", "domination"] {
        let (code, _, err) = run_text(&three(kind), &[]);
        assert_eq!(code, 2, "{kind}: {err}");
        for needle in [
            "<stdin>:9:",
            "piece.count",
            "at least 60 pieces",
            "36 squares",
            "accepted",
        ] {
            assert!(err.contains(needle), "{kind}: {needle:?} in {err}");
        }
    }
    // Exact counts past the squares left free by the givens: 30 kings (two of them given)
    // and 7 knights on 36 squares.
    for kind in ["independent", "domination"] {
        let text = format!(
            "kind = \"{kind}\"\n[board]\nsize = 6\n[[piece]]\nmoves = \"K\"\ncount = 30\n\
             given = [\"a1\", \"d1\"]\n[[piece]]\nmoves = \"N\"\ncount = 7\n"
        );
        let (code, _, err) = run_text(&text, &[]);
        assert_eq!(code, 2, "{kind}: {err}");
        for needle in [
            "<stdin>:10:",
            "piece.count",
            "at least 37 pieces",
            "36 squares",
        ] {
            assert!(err.contains(needle), "{kind}: {needle:?} in {err}");
        }
    }
    // Givens beyond their piece's least count count as they stand: 2 kings given, 35 knights.
    let text = "kind = \"domination\"\n[board]\nsize = 6\n[[piece]]\nmoves = \"K\"\n\
                count = \"0..5\"\ngiven = [\"a1\", \"d1\"]\n[[piece]]\nmoves = \"N\"\n\
                count = 35\n";
    let (code, _, err) = run_text(text, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("at least 37 pieces"), "{err}");
    // Counts that fill the board exactly are a puzzle: four pieces on a 2x2 board.
    let text = "kind = \"domination\"\n[board]\nsize = 2\n[[piece]]\nmoves = \"K\"\n\
                count = 2\n[[piece]]\nmoves = \"N\"\ncount = \"2..3\"\n";
    let (code, out, err) = run_text(text, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("optimum 4"), "{out}");
}

#[test]
fn no_cover_is_said_in_the_words_of_the_puzzles_rules() {
    // One king and one knight cannot cover 5x5 (9 and 9 squares of 25): ordinary domination
    // with counts says nothing of attacks.
    let text = "kind = \"domination\"\n[board]\nsize = 5\n[[piece]]\nmoves = \"K\"\n\
                count = 1\n[[piece]]\nmoves = \"N\"\ncount = 1\n";
    let (code, out, err) = run_text(text, &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("no placement of the pieces within their counts covers the board"),
        "{out}"
    );
    assert!(!out.contains("non-attacking"), "{out}");
    let text = format!("{text}given = [\"c3\"]\n[rules]\nindependent = true\n");
    let (code, out, err) = run_text(&text, &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(
            "no placement of non-attacking pieces within their counts and holding the givens \
             covers the board"
        ),
        "{out}"
    );
}

#[test]
fn strategies_that_take_no_givens_or_several_pieces_say_so() {
    let (code, out, _) = run_text(
        &format!("{QUEENS}[rules]\ncount = 8\ngiven = [\"a1\"]\n"),
        &["strategies"],
    );
    assert_eq!(code, 0, "{out}");
    for s in ["brute", "flags", "bitmask", "construct"] {
        let line = out.lines().find(|l| l.trim_start().starts_with(s)).unwrap();
        assert!(line.contains("takes no givens"), "{line}");
    }
    for s in ["backtrack", "dlx"] {
        let line = out.lines().find(|l| l.trim_start().starts_with(s)).unwrap();
        assert!(line.contains("applies"), "{line}");
    }
    let text = std::fs::read_to_string(crate::puzzle("queens-knights-domination.toml")).unwrap();
    let (code, out, _) = run_text(&text, &["strategies"]);
    assert_eq!(code, 0, "{out}");
    for s in ["bnb", "bands", "blocks"] {
        let line = out.lines().find(|l| l.trim_start().starts_with(s)).unwrap();
        assert!(line.contains("several pieces"), "{line}");
    }
    let (code, _, err) = run_text(&text, &["--strategy", "bnb"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("several pieces are taken by dlx"), "{err}");
}

#[test]
fn mixed_solutions_render_each_piece_with_its_symbol() {
    let text = std::fs::read_to_string(crate::puzzle("mixed-army.toml")).unwrap();
    let (code, out, err) = run_text(&text, &["--goal", "first"]);
    assert_eq!(code, 0, "{err}");
    let board: String = out
        .lines()
        .filter(|l| !l.is_empty() && l.chars().all(|c| ".QRN ".contains(c)))
        .collect();
    for p in ['Q', 'R', 'N'] {
        assert_eq!(board.matches(p).count(), 2, "{out}");
    }
    let (_, out, _) = run_text(&text, &["--goal", "first", "--format", "json"]);
    assert!(out.contains("{\"square\":[0,0],\"piece\":\"Q\"}"), "{out}");
    assert!(out.contains("\"piece\":\"N\""), "{out}");
    let (_, out, _) = run_text(&text, &["--goal", "first", "--format", "svg"]);
    for p in ['Q', 'R', 'N'] {
        assert!(out.contains(&format!(">{p}<")), "{p} in {out}");
    }
}
