// Exact cover instances shared by the tests and the `cover` benchmark, pulled in with
// `include!` inside a module that first imports `Problem` (the library's or the crate's own).
// They live outside the library because the Dancing Links core knows nothing of boards.

/// N-Queens as exact cover, built as Knuth's generator for DLX1 builds it: items r_i and c_i
/// primary, in "organ pipe" order from the centre outwards (rows and columns interleaved), the
/// diagonals a_k (i + j = k) and b_k (n - 1 - i + j = k) secondary, the two one-square
/// diagonals at the corners left out; one option per square, row-major.
#[allow(dead_code)]
pub fn queens(n: usize) -> Problem {
    let mut p = Problem::new();
    let mut row = vec![0; n];
    let mut col = vec![0; n];
    for j in 0..n {
        let t = (if j & 1 == 1 { n - 1 - j } else { n + j }) >> 1;
        row[t] = p.add_primary(format!("r{t}"));
        col[t] = p.add_primary(format!("c{t}"));
    }
    let nn = 2 * n.max(1) - 2;
    let mut a = vec![usize::MAX; nn.max(1)];
    let mut b = vec![usize::MAX; nn.max(1)];
    for k in 1..nn {
        a[k] = p.add_secondary(format!("a{k}"));
        b[k] = p.add_secondary(format!("b{k}"));
    }
    for (i, &r) in row.iter().enumerate() {
        for (j, &c) in col.iter().enumerate() {
            let mut opt = vec![(r, 0), (c, 0)];
            let t = i + j;
            if t > 0 && t < nn {
                opt.push((a[t], 0));
            }
            let t = n - 1 - i + j;
            if t > 0 && t < nn {
                opt.push((b[t], 0));
            }
            p.add_option(&opt).expect("valid queens option");
        }
    }
    p
}

/// The twelve pentominoes by name, each as cells (row, col) of one orientation.
#[allow(dead_code)]
pub const PENTOMINOES: [(&str, [(i32, i32); 5]); 12] = [
    ("F", [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)]),
    ("I", [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
    ("L", [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]),
    ("N", [(0, 1), (1, 1), (2, 0), (2, 1), (3, 0)]),
    ("P", [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]),
    ("T", [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]),
    ("U", [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]),
    ("V", [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]),
    ("W", [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    ("X", [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
    ("Y", [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)]),
    ("Z", [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]),
];

/// The distinct orientations (rotations and reflections) of a piece, each normalised to touch
/// row 0 and column 0, cells sorted.
#[allow(dead_code)]
pub fn orientations(cells: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
    let mut out: Vec<Vec<(i32, i32)>> = Vec::new();
    for t in 0..8 {
        let mut v: Vec<(i32, i32)> = cells
            .iter()
            .map(|&(r, c)| {
                let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
                let r = if t & 1 != 0 { -r } else { r };
                let c = if t & 2 != 0 { -c } else { c };
                (r, c)
            })
            .collect();
        let r0 = v.iter().map(|x| x.0).min().unwrap();
        let c0 = v.iter().map(|x| x.1).min().unwrap();
        for x in v.iter_mut() {
            *x = (x.0 - r0, x.1 - c0);
        }
        v.sort_unstable();
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The twelve pentominoes packing a `rows` x `cols` rectangle: items the pieces then the cells
/// "r{row}c{col}" row-major, all primary; one option per placement (piece, then its cells in
/// row-major order). With `x_quadrant`, the X piece (symmetric under every symmetry of the
/// rectangle) keeps its centre in the top-left quarter, which leaves one solution of each
/// class when both sides are even: 9356 / 4 = 2339 on 6x10.
#[allow(dead_code)]
pub fn pentominoes(rows: i32, cols: i32, x_quadrant: bool) -> Problem {
    let mut p = Problem::new();
    let pieces: Vec<usize> = PENTOMINOES.iter().map(|(n, _)| p.add_primary(*n)).collect();
    let mut cell = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            cell.push(p.add_primary(format!("r{r}c{c}")));
        }
    }
    for (k, (name, shape)) in PENTOMINOES.iter().enumerate() {
        for o in orientations(shape) {
            let h = o.iter().map(|x| x.0).max().unwrap() + 1;
            let w = o.iter().map(|x| x.1).max().unwrap() + 1;
            for dr in 0..=rows - h {
                for dc in 0..=cols - w {
                    if x_quadrant && *name == "X" && !(2 * (dr + 1) < rows && 2 * (dc + 1) < cols) {
                        continue;
                    }
                    let mut opt = vec![(pieces[k], 0)];
                    for &(r, c) in &o {
                        opt.push((cell[((r + dr) * cols + c + dc) as usize], 0));
                    }
                    p.add_option(&opt).expect("valid pentomino option");
                }
            }
        }
    }
    p
}

/// Sudoku as exact cover with Knuth's item names: p{r}{c} (cell filled), r{r}{d}, c{c}{d} and
/// b{b}{d} (row, column, box holds digit d), all primary. `grid` has 81 characters, digits
/// for givens and '.' or '0' for blanks; a given cell gets its one option, a blank cell an
/// option for each digit not given in its row, column or box.
#[allow(dead_code)]
pub fn sudoku(grid: &str) -> Problem {
    let g: Vec<u32> = grid
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_digit(10).unwrap_or(0))
        .collect();
    assert_eq!(g.len(), 81, "a sudoku grid has 81 cells");
    let mut p = Problem::new();
    let mut cell = [0; 81];
    let (mut row, mut col, mut bx) = ([0; 81], [0; 81], [0; 81]);
    for r in 0..9 {
        for c in 0..9 {
            cell[r * 9 + c] = p.add_primary(format!("p{r}{c}"));
        }
    }
    for (ids, tag) in [(&mut row, 'r'), (&mut col, 'c'), (&mut bx, 'b')] {
        for u in 0..9 {
            for d in 1..=9 {
                ids[u * 9 + d - 1] = p.add_primary(format!("{tag}{u}{d}"));
            }
        }
    }
    let boxof = |r: usize, c: usize| (r / 3) * 3 + c / 3;
    for r in 0..9 {
        for c in 0..9 {
            for d in 1..=9u32 {
                let given = g[r * 9 + c];
                let allowed = if given != 0 {
                    given == d
                } else {
                    (0..81).all(|k| {
                        let (rr, cc) = (k / 9, k % 9);
                        g[k] != d || (rr != r && cc != c && boxof(rr, cc) != boxof(r, c))
                    })
                };
                if allowed {
                    let d = d as usize - 1;
                    p.add_option(&[
                        (cell[r * 9 + c], 0),
                        (row[r * 9 + d], 0),
                        (col[c * 9 + d], 0),
                        (bx[boxof(r, c) * 9 + d], 0),
                    ])
                    .expect("valid sudoku option");
                }
            }
        }
    }
    p
}

/// Langford pairs for `n`, up to reversal (the 1s in the first half), as
/// `puzzles/langford16.toml` lists them: the slots s1..s2n first, then the numbers; one option
/// "i sj sk" per placement, k = j + i + 1.
#[allow(dead_code)]
pub fn langford(n: usize) -> Problem {
    let mut p = Problem::new();
    let slots: Vec<usize> = (1..=2 * n).map(|j| p.add_primary(format!("s{j}"))).collect();
    let numbers: Vec<usize> = (1..=n).map(|i| p.add_primary(format!("{i}"))).collect();
    for i in 1..=n {
        let last = if i == 1 { n - 1 } else { 2 * n - i - 1 };
        for j in 1..=last {
            let k = j + i + 1;
            p.add_option(&[(numbers[i - 1], 0), (slots[j - 1], 0), (slots[k - 1], 0)])
                .expect("a valid option");
        }
    }
    p
}
