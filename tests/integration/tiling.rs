//! The tiling kind: published counts, strategies against each other, `--unique` against a
//! count of classes made here, and small random puzzles against a brute-force search that
//! shares no code with the compiler.

use std::collections::BTreeSet;

use boardsolve::engine::{Goal, Status};

use crate::{puzzle, run_cli, solve};

fn text(name: &str) -> String {
    std::fs::read_to_string(puzzle(name)).unwrap()
}

fn in_all(o: &boardsolve::engine::Outcome) -> Option<u128> {
    o.answer
        .notes
        .iter()
        .find_map(|n| match n.get::<boardsolve::kinds::CountNote>() {
            Some(boardsolve::kinds::CountNote::SolutionsInAll(t)) => Some(*t),
            _ => None,
        })
}

#[test]
fn pentominoes_6x10_up_to_symmetry_as_knuth_counts_them() {
    let (o, _, _) = solve(
        &text("pentominoes6x10.toml"),
        None,
        "dlx",
        Goal::Count,
        true,
        1,
    );
    assert_eq!(o.answer.count, Some(2339));
    assert_eq!(in_all(&o), Some(9356));
    // X kept to 8 placements of 32: DLX1's very search of Knuth's one-quadrant data.
    assert_eq!(o.stats.nodes, 904_970);
    let (cover, _, _) = solve(
        &text("pentominoes-unique.toml"),
        None,
        "dlx",
        Goal::Count,
        false,
        1,
    );
    assert_eq!(cover.stats.nodes, o.stats.nodes);
}

#[test]
fn scotts_puzzle_has_65_classes_each_listed_and_valid() {
    let (o, sols, model) = solve(&text("scott.toml"), None, "dlx", Goal::All, true, 1);
    assert_eq!(o.answer.count, Some(65));
    assert_eq!(sols.len(), 65);
    assert_eq!(in_all(&o), Some(520));
    for s in &sols {
        model.check(s).unwrap();
    }
    let (all, _, _) = solve(&text("scott.toml"), None, "dlx", Goal::Count, false, 2);
    assert_eq!(all.answer.count, Some(520));
}

#[test]
fn soma_cube_11520_and_240_up_to_the_cubes_48_symmetries() {
    let (o, _, _) = solve(&text("soma.toml"), None, "dlx", Goal::Count, false, 2);
    assert_eq!(o.answer.count, Some(11520));
    let (o, sols, model) = solve(&text("soma.toml"), None, "dlx", Goal::All, true, 1);
    assert_eq!(o.answer.count, Some(240));
    assert_eq!(in_all(&o), Some(11520));
    for s in &sols {
        model.check(s).unwrap();
    }
    let (d, _, _) = solve(&text("soma.toml"), None, "dxz", Goal::Count, false, 1);
    assert_eq!(d.answer.count, Some(11520));
    for threads in [1, 2] {
        let (b, _, _) = solve(
            &text("soma.toml"),
            None,
            "bitmask",
            Goal::Count,
            false,
            threads,
        );
        assert_eq!(b.answer.count, Some(11520));
    }
}

#[test]
fn pentominoes_and_the_square_on_8x8_16146_up_to_symmetry() {
    let (o, _, _) = solve(
        &text("pentominoes8x8.toml"),
        None,
        "dlx",
        Goal::Count,
        true,
        2,
    );
    assert_eq!(o.answer.count, Some(16146));
    assert_eq!(in_all(&o), Some(129_168));
}

#[test]
fn bedlam_cube_19186_up_to_rotation() {
    let (o, _, _) = solve(&text("bedlam.toml"), None, "dlx", Goal::Count, true, 2);
    assert_eq!(o.answer.count, Some(19186));
    assert_eq!(in_all(&o), Some(19186 * 24));
}

#[test]
fn domino_tilings_as_oeis_a004003() {
    let t = text("dominoes-tiling.toml");
    let (o, _, _) = solve(&t, None, "dxz", Goal::Count, false, 1);
    assert_eq!(o.answer.count, Some(12_988_816));
    for (n, tilings) in [(2, 2), (4, 36), (6, 6728)] {
        let (a, _, _) = solve(&t, Some(n), "dlx", Goal::Count, false, 1);
        let (b, _, _) = solve(&t, Some(n), "dxz", Goal::Count, false, 1);
        assert_eq!(
            (a.answer.count, b.answer.count),
            (Some(tilings), Some(tilings)),
            "{n}"
        );
    }
}

#[test]
fn calendar_dates_have_solutions_and_leave_the_date_uncovered() {
    let (o, sols, model) = solve(&text("calendar.toml"), None, "dlx", Goal::All, false, 1);
    assert_eq!(o.status, Status::Solved);
    assert!(!sols.is_empty());
    for s in &sols {
        model.check(s).unwrap();
    }
}

// A brute force of its own: shapes as sets of (row, col), turned by its own code, placed
// cell by cell at the first empty cell, solutions as sets of (piece, cells).

type Shape = Vec<(i32, i32)>;

fn norm(mut s: Shape) -> Shape {
    let r0 = s.iter().map(|c| c.0).min().unwrap();
    let c0 = s.iter().map(|c| c.1).min().unwrap();
    for c in &mut s {
        *c = (c.0 - r0, c.1 - c0);
    }
    s.sort();
    s
}

fn turned(s: &Shape, free: bool) -> Vec<Shape> {
    let mut out: Vec<Shape> = Vec::new();
    let mut cur = s.clone();
    for flip in 0..(if free { 2 } else { 1 }) {
        if flip == 1 {
            cur = cur.iter().map(|&(r, c)| (r, -c)).collect();
        }
        for _ in 0..4 {
            cur = cur.iter().map(|&(r, c)| (c, -r)).collect();
            let n = norm(cur.clone());
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

type Solution = BTreeSet<(usize, Vec<usize>)>;

struct Brute<'a> {
    w: usize,
    h: usize,
    cell: Vec<bool>,
    forms: Vec<Vec<Shape>>,
    counts: &'a [(u32, u32)],
    used: Vec<u32>,
    placed: Vec<(usize, Vec<usize>)>,
    out: Vec<Solution>,
}

impl Brute<'_> {
    fn go(&mut self, filled: &mut Vec<bool>) {
        let Some(first) = (0..self.w * self.h).find(|&i| self.cell[i] && !filled[i]) else {
            if self
                .used
                .iter()
                .zip(self.counts)
                .all(|(&u, &(lo, _))| u >= lo)
            {
                self.out.push(self.placed.iter().cloned().collect());
            }
            return;
        };
        let (fr, fc) = ((first / self.w) as i32, (first % self.w) as i32);
        for p in 0..self.forms.len() {
            if self.used[p] >= self.counts[p].1 {
                continue;
            }
            for f in 0..self.forms[p].len() {
                // The shape's first cell in reading order lands on the first empty cell.
                let anchor = self.forms[p][f][0];
                let cells: Option<Vec<usize>> = self.forms[p][f]
                    .iter()
                    .map(|&(r, c)| {
                        let (r, c) = (r - anchor.0 + fr, c - anchor.1 + fc);
                        let inside =
                            r >= 0 && c >= 0 && (r as usize) < self.h && (c as usize) < self.w;
                        let i = (r * self.w as i32 + c) as usize;
                        (inside && self.cell[i] && !filled[i]).then_some(i)
                    })
                    .collect();
                let Some(mut cells) = cells else { continue };
                cells.sort();
                for &i in &cells {
                    filled[i] = true;
                }
                self.used[p] += 1;
                self.placed.push((p, cells.clone()));
                self.go(filled);
                self.placed.pop();
                self.used[p] -= 1;
                for &i in &cells {
                    filled[i] = false;
                }
            }
        }
    }
}

/// The solutions' classes under the symmetries of the board (its own turns of the grid): a
/// placement's image is the same piece where that piece can take it, else a piece of the
/// same count that can (a mirror image, where pieces may only rotate).
fn classes(
    w: usize,
    h: usize,
    cell: &[bool],
    sols: &[Solution],
    forms: &[Vec<Shape>],
    counts: &[(u32, u32)],
) -> usize {
    let piece_of = |p: usize, cells: &[usize]| -> Option<usize> {
        let shape = norm(
            cells
                .iter()
                .map(|&i| ((i / w) as i32, (i % w) as i32))
                .collect(),
        );
        if forms[p].contains(&shape) {
            return Some(p);
        }
        (0..forms.len()).find(|&q| counts[q] == counts[p] && forms[q].contains(&shape))
    };
    let maps: Vec<Box<dyn Fn(usize) -> usize>> = {
        let mut v: Vec<Box<dyn Fn(usize) -> usize>> = Vec::new();
        let at = move |r: usize, c: usize| r * w + c;
        v.push(Box::new(move |i| i));
        v.push(Box::new(move |i| at(h - 1 - i / w, w - 1 - i % w)));
        v.push(Box::new(move |i| at(h - 1 - i / w, i % w)));
        v.push(Box::new(move |i| at(i / w, w - 1 - i % w)));
        if w == h {
            v.push(Box::new(move |i| at(i % w, i / w)));
            v.push(Box::new(move |i| at(w - 1 - i % w, h - 1 - i / w)));
            v.push(Box::new(move |i| at(i % w, h - 1 - i / w)));
            v.push(Box::new(move |i| at(w - 1 - i % w, i / w)));
        }
        v
    };
    let maps: Vec<_> = maps
        .into_iter()
        .filter(|m| (0..w * h).all(|i| cell[i] == cell[m(i)]))
        .collect();
    let mut seen: BTreeSet<Solution> = BTreeSet::new();
    let mut n = 0;
    for s in sols {
        if seen.contains(s) {
            continue;
        }
        n += 1;
        for m in &maps {
            let img: Option<Solution> = s
                .iter()
                .map(|(p, cells)| {
                    let mut c: Vec<usize> = cells.iter().map(|&i| m(i)).collect();
                    c.sort();
                    Some((piece_of(*p, &c)?, c))
                })
                .collect();
            if let Some(img) = img {
                seen.insert(img);
            }
        }
    }
    n
}

#[test]
fn small_random_tilings_against_a_brute_force() {
    // A fixed seed: the same cases on every run.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut checked = 0;
    let mut bitmask = 0;
    for case in 0..60 {
        let (w, h) = (2 + next(4) as usize, 2 + next(3) as usize);
        let cell: Vec<bool> = (0..w * h).map(|_| next(7) != 0).collect();
        if !cell.iter().any(|&c| c) {
            continue;
        }
        // Pieces grown at random from one square.
        let pieces: Vec<Shape> = (0..1 + next(3))
            .map(|_| {
                let mut s: Shape = vec![(0, 0)];
                for _ in 0..next(4) {
                    let base = s[next(s.len() as u64) as usize];
                    let d = [(0, 1), (1, 0), (0, -1), (-1, 0)][next(4) as usize];
                    let n = (base.0 + d.0, base.1 + d.1);
                    if !s.contains(&n) {
                        s.push(n);
                    }
                }
                norm(s)
            })
            .collect();
        let counts: Vec<(u32, u32)> = pieces
            .iter()
            .map(|_| match next(3) {
                0 => (1, 1),
                1 => (0, 2),
                _ => (0, 99),
            })
            .collect();
        let free = next(2) == 0;
        let forms: Vec<Vec<Shape>> = pieces.iter().map(|s| turned(s, free)).collect();
        let mut b = Brute {
            w,
            h,
            cell: cell.clone(),
            forms: forms.clone(),
            counts: &counts,
            used: vec![0; pieces.len()],
            placed: Vec::new(),
            out: Vec::new(),
        };
        b.go(&mut vec![false; w * h]);
        let sols = b.out;
        // The same puzzle as a file.
        let mut file = String::from("kind = \"tiling\"\n[board]\npicture = \"\"\"\n");
        for r in 0..h {
            for c in 0..w {
                file.push(if cell[r * w + c] { '.' } else { '#' });
            }
            file.push('\n');
        }
        file.push_str("\"\"\"\n");
        for (k, (s, &(lo, hi))) in pieces.iter().zip(&counts).enumerate() {
            let (rows, cols) = (
                s.iter().map(|c| c.0).max().unwrap() + 1,
                s.iter().map(|c| c.1).max().unwrap() + 1,
            );
            let mut pic = String::new();
            for r in 0..rows {
                for c in 0..cols {
                    pic.push(if s.contains(&(r, c)) { '#' } else { '.' });
                }
                pic.push('\n');
            }
            let count = if lo == hi {
                lo.to_string()
            } else if hi == 99 {
                "\"any\"".into()
            } else {
                format!("\"{lo}..{hi}\"")
            };
            let turns = if free { "free" } else { "rotations" };
            file.push_str(&format!(
                "[[piece]]\nname = \"p{k}\"\nshape = \"\"\"\n{pic}\"\"\"\ncount = {count}\nturns = \"{turns}\"\n"
            ));
        }
        let spec = boardsolve::spec::Spec::parse("case.toml", &file, &Default::default());
        let model = match spec.and_then(|s| boardsolve::kinds::Model::compile(&s)) {
            Ok(m) => m,
            // Areas that cannot add up, a piece that fits nowhere: the brute force agrees
            // there is nothing.
            Err(e) => {
                assert!(sols.is_empty(), "case {case}: {e}\n{file}");
                continue;
            }
        };
        let _ = model;
        let (o, listed, m) = solve(&file, None, "dlx", Goal::All, false, 1);
        assert_eq!(
            o.answer.count,
            Some(sols.len() as u128),
            "case {case}\n{file}"
        );
        for s in &listed {
            m.check(s).unwrap();
        }
        let (u, _, _) = solve(&file, None, "dlx", Goal::Count, true, 1);
        assert_eq!(
            u.answer.count,
            Some(classes(w, h, &cell, &sols, &forms, &counts) as u128),
            "case {case} --unique\n{file}"
        );
        if m.applies("dxz", &Default::default()).is_ok() {
            let (d, _, _) = solve(&file, None, "dxz", Goal::Count, false, 1);
            assert_eq!(d.answer.count, o.answer.count, "case {case} dxz");
        }
        if m.applies("bitmask", &Default::default()).is_ok() {
            let (b, listed, _) = solve(&file, None, "bitmask", Goal::All, false, 1);
            assert_eq!(b.answer.count, o.answer.count, "case {case} bitmask");
            for s in &listed {
                m.check(s).unwrap();
            }
            for threads in [1, 2] {
                let (c, _, _) = solve(&file, None, "bitmask", Goal::Count, false, threads);
                assert_eq!(
                    c.answer.count, o.answer.count,
                    "case {case} bitmask {threads}"
                );
            }
            bitmask += 1;
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} cases compiled");
    assert!(bitmask >= 10, "bitmask took only {bitmask} cases");
}

#[test]
fn knuth_input_of_a_tiling_is_the_same_instance() {
    let dir = std::env::temp_dir().join(format!("boardsolve-tiling-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("soma.dlx");
    let (code, _, err) = run_cli(&[
        &puzzle("soma.toml"),
        "--format",
        "knuth-input",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, stdout, err) = run_cli(&[out.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(stdout.trim().lines().last(), Some("11,520 solutions"));
    // Up to symmetry: the problem with the kept piece restricted, where that alone is exact.
    let scott = dir.join("scott.dlx");
    let (code, _, err) = run_cli(&[
        &puzzle("scott.toml"),
        "--unique",
        "--format",
        "knuth-input",
        "--output",
        scott.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, stdout, _) = run_cli(&[scott.to_str().unwrap(), "--quiet"]);
    assert_eq!(stdout.trim().lines().last(), Some("65 solutions"));
    let (code, _, err) = run_cli(&[&puzzle("soma.toml"), "--unique", "--format", "knuth-input"]);
    assert_eq!(code, 2);
    assert!(err.contains("fixes 1 of them"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn solutions_are_drawn_as_shapes() {
    let (code, out, err) = run_cli(&[&puzzle("soma.toml"), "--goal", "first", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    // Three layers side by side, a name a cell.
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.split_whitespace().count() == 9)
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    let (code, out, _) = run_cli(&[
        &puzzle("pentominoes6x10.toml"),
        "--goal",
        "first",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let placed = v["solutions"][0].as_array().unwrap();
    assert_eq!(placed.len(), 12);
    assert_eq!(placed[0]["cells"].as_array().unwrap().len(), 5);
    assert!(placed[0]["piece"].is_string());
    let (code, svg, _) = run_cli(&[&puzzle("scott.toml"), "--goal", "first", "--format", "svg"]);
    assert_eq!(code, 0);
    assert!(
        svg.contains("<svg") && svg.contains("<line") && svg.contains(">X</text>"),
        "{svg}"
    );
}

#[test]
fn bad_tilings_are_named_errors() {
    let dir = std::env::temp_dir().join(format!("boardsolve-badtiling-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: &[(&str, &str, &str)] = &[
        (
            "kind = \"tiling\"\n[board]\nsize = 3\n[[piece]]\nname = \"I\"\nshape = \"####\"\n",
            "piece.shape",
            "fits nowhere",
        ),
        (
            "kind = \"tiling\"\n[board]\nsize = 3\n[pieces]\nset = \"domino\"\n",
            "pieces.set",
            "cannot add up",
        ),
        (
            "kind = \"tiling\"\n[board]\nsize = 4\n[[piece]]\nname = \"A\"\nshape = \"\"\"\n#.\n.#\n\"\"\"\n",
            "piece.shape",
            "falls apart",
        ),
        (
            "kind = \"tiling\"\n[board]\nsize = 4\n[[piece]]\nname = \"A\"\nshape = \"\"\"\n#\n\n#\n\"\"\"\n",
            "piece.shape",
            "several layers",
        ),
        (
            "kind = \"tiling\"\n[board]\npicture = \"\"\"\n..\n.x\n\"\"\"\n[pieces]\nset = \"monomino\"\n",
            "board.picture",
            "accepted: '.'",
        ),
        (
            "kind = \"tiling\"\n[board]\nsize = 4\n[pieces]\nset = \"heptominoes\"\n",
            "pieces.set",
            "accepted: monomino",
        ),
        (
            "kind = \"tiling\"\n[board]\nsize = 4\n[[piece]]\nname = \"A\"\nshape = \"#\"\ncount = \"3..1\"\n",
            "piece.count",
            "accepted",
        ),
        (
            "kind = \"tiling\"\n[board]\npicture = \"..\"\nlabels = \"x x\"\n[pieces]\nset = \"monomino\"\n",
            "board.labels",
            "labels two cells",
        ),
        (
            "kind = \"tiling\"\n[board]\nsize = 2\n[piece]\nname = \"D\"\n",
            "piece.name",
            "[[piece]] tables",
        ),
    ];
    for (k, (toml, key, what)) in cases.iter().enumerate() {
        let f = dir.join(format!("bad{k}.toml"));
        std::fs::write(&f, toml).unwrap();
        let (code, _, err) = run_cli(&[f.to_str().unwrap()]);
        assert_eq!(code, 2, "case {k}: {err}");
        assert!(err.contains(&format!("key `{key}`")), "case {k}: {err}");
        assert!(err.contains(what), "case {k}: {err}");
        assert!(err.contains(&format!("bad{k}.toml")), "case {k}: {err}");
    }
    // The wrong character of a picture is pointed at: line 5, column 2.
    let (_, _, err) = run_cli(&[dir.join("bad4.toml").to_str().unwrap()]);
    assert!(err.contains("bad4.toml:5:2"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cells_left_empty_by_pack_and_by_leave() {
    // V trominoes, as many as fit, on 3x3: every packing, the empty one included, counted by
    // hand as 39 (8 up to symmetry); with exactly 3 cells empty, 22 (4).
    let v = "[[piece]]\nname = \"V\"\nshape = \"\"\"\n##\n#.\n\"\"\"\ncount = \"any\"\n";
    let pack = format!("kind = \"tiling\"\n[board]\nsize = 3\n[rules]\nfill = \"pack\"\n{v}");
    let leave = format!("kind = \"tiling\"\n[board]\nsize = 3\n[rules]\nleave = 3\n{v}");
    for (file, all, classes) in [(pack, 39, 8), (leave, 22, 4)] {
        let (o, sols, m) = solve(&file, None, "dlx", Goal::All, false, 1);
        assert_eq!(o.answer.count, Some(all), "{file}");
        for s in &sols {
            m.check(s).unwrap();
        }
        let (u, _, _) = solve(&file, None, "dlx", Goal::Count, true, 1);
        assert_eq!(u.answer.count, Some(classes), "{file}");
    }
}

#[test]
fn a_count_beyond_the_memos_counters_is_not_claimed() {
    // Domino tilings of 2 x n are Fibonacci numbers: 2 x 185 fits in 128 bits, 2 x 186 does
    // not, and the memo's counters saturate there.
    let t = text("dominoes-tiling.toml");
    let (code, out, _) = run_cli(&[
        &puzzle("dominoes-tiling.toml"),
        "--width",
        "2",
        "--height",
        "185",
        "--strategy",
        "dxz",
        "--quiet",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("332,825,110,087,067,562,321,196,029,789,634,457,848 solutions"),
        "{out}"
    );
    let (code, out, err) = run_cli(&[
        &puzzle("dominoes-tiling.toml"),
        "--width",
        "2",
        "--height",
        "186",
        "--strategy",
        "dxz",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("2^128 - 1"), "{err}");
    let _ = t;
}
