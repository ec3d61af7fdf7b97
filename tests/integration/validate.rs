//! Independent validators: they share no code with the library, so a bug in the library's
//! attack tables or symmetries cannot hide itself.

/// A piece as test code sees it: vectors (dx, dy) with a step limit (0 = unlimited), all 8
/// images included by `moves`.
pub struct TestPiece {
    pub moves: Vec<((i64, i64), u32)>,
}

impl TestPiece {
    /// Letters: Q, R, B, N, K, NN (nightrider) only; enough for the test puzzles.
    pub fn from_letters(s: &str) -> TestPiece {
        let base: Vec<((i64, i64), u32)> = match s {
            "Q" => vec![((1, 0), 0), ((1, 1), 0)],
            "R" => vec![((1, 0), 0)],
            "B" => vec![((1, 1), 0)],
            "N" => vec![((2, 1), 1)],
            "K" => vec![((1, 0), 1), ((1, 1), 1)],
            "NN" => vec![((2, 1), 0)],
            other => panic!("test validator does not know {other}"),
        };
        let mut moves = Vec::new();
        for ((a, b), lim) in base {
            for (x, y) in [(a, b), (b, a)] {
                for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let v = ((x * sx, y * sy), lim);
                    if !moves.contains(&v) {
                        moves.push(v);
                    }
                }
            }
        }
        TestPiece { moves }
    }
}

pub struct TestBoard {
    pub width: i64,
    pub height: i64,
    /// (row, col) of holes
    pub holes: Vec<(i64, i64)>,
}

impl TestBoard {
    pub fn square(n: i64) -> TestBoard {
        TestBoard {
            width: n,
            height: n,
            holes: vec![],
        }
    }

    fn on(&self, r: i64, c: i64) -> bool {
        r >= 0 && c >= 0 && r < self.height && c < self.width && !self.holes.contains(&(r, c))
    }

    /// Does a piece on `a` attack `b`? Walks each direction step by step.
    pub fn attacks(&self, p: &TestPiece, a: (i64, i64), b: (i64, i64)) -> bool {
        for &((dx, dy), lim) in &p.moves {
            let (mut r, mut c) = a;
            let mut steps = 0;
            loop {
                r += dy;
                c += dx;
                steps += 1;
                if !self.on(r, c) {
                    break;
                }
                if (r, c) == b {
                    return true;
                }
                if lim != 0 && steps >= lim {
                    break;
                }
            }
        }
        false
    }
}

/// Panics with a readable message unless `sol` is `count` mutually non-attacking pieces on
/// distinct squares of the board.
pub fn check_placement(board: &TestBoard, piece: &TestPiece, count: usize, sol: &[(i64, i64)]) {
    assert_eq!(sol.len(), count, "wrong number of pieces in {sol:?}");
    for (i, &a) in sol.iter().enumerate() {
        assert!(
            board.on(a.0, a.1),
            "piece off the board or on a hole: {a:?} in {sol:?}"
        );
        for &b in &sol[i + 1..] {
            assert_ne!(a, b, "two pieces on {a:?}");
            assert!(
                !board.attacks(piece, a, b) && !board.attacks(piece, b, a),
                "{a:?} and {b:?} attack each other in {sol:?}"
            );
        }
    }
}

/// The number of classes of `solutions` under the board's symmetries that keep the holes,
/// computed by brute force over the 8 maps of the square.
pub fn orbit_count(board: &TestBoard, solutions: &[Vec<(i64, i64)>]) -> usize {
    let (w, h) = (board.width, board.height);
    // Map t of the 8: 0..4 flip columns and/or rows; 4..8 also transpose (square boards).
    let map = |t: u8, (r, c): (i64, i64)| -> (i64, i64) {
        let (r, c) = if t >= 4 { (c, r) } else { (r, c) };
        let r = if t & 2 != 0 { h - 1 - r } else { r };
        let c = if t & 1 != 0 { w - 1 - c } else { c };
        (r, c)
    };
    let mut holes = board.holes.clone();
    holes.sort();
    let syms: Vec<u8> = (0..8u8)
        .filter(|&t| t < 4 || w == h)
        .filter(|&t| {
            let mut img: Vec<_> = board.holes.iter().map(|&x| map(t, x)).collect();
            img.sort();
            img == holes
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    let mut classes = 0;
    for s in solutions {
        let mut s = s.clone();
        s.sort();
        if seen.contains(&s) {
            continue;
        }
        classes += 1;
        for &t in &syms {
            let mut img: Vec<_> = s.iter().map(|&x| map(t, x)).collect();
            img.sort();
            seen.insert(img);
        }
    }
    classes
}
