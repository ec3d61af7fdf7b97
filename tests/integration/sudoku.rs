//! The sudoku kind: published counts (4x4 and 6x6 grids, Latin squares), published puzzles
//! with their published solutions, the strategies against each other, random small puzzles
//! against a brute force that shares no code with the kind, and the command line's grids,
//! errors and puzzles a line.

use boardsolve::engine::Goal;

use crate::{puzzle, run_cli, run_cli_with, solve};

fn text(name: &str) -> String {
    std::fs::read_to_string(puzzle(name)).unwrap()
}

/// A solution's symbols as the puzzle files write them.
fn line(sol: &[usize]) -> String {
    sol.iter()
        .map(|&s| b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[s] as char)
        .collect()
}

fn count(text: &str, size: Option<usize>, strategy: &str, threads: usize) -> u128 {
    let (o, _, _) = solve(text, size, strategy, Goal::Count, false, threads);
    assert!(o.proven, "{strategy}: {o:?}");
    o.answer.count.unwrap()
}

#[test]
fn grids_of_4x4_are_288_and_latin_squares_576_and_161280() {
    let grids = "kind = \"sudoku\"\n[board]\nsize = 4\n";
    let latin = "kind = \"sudoku\"\n[board]\nsize = 4\nbox = \"none\"\n";
    for strategy in ["bitmask", "dlx"] {
        assert_eq!(count(grids, None, strategy, 1), 288);
        assert_eq!(count(latin, None, strategy, 1), 576);
        assert_eq!(count(latin, Some(5), strategy, 2), 161_280);
    }
    assert_eq!(
        count(&text("latin-square.toml"), None, "bitmask", 1),
        161_280
    );
    assert_eq!(count(&text("sudoku4.toml"), None, "dlx", 1), 288);
}

#[test]
fn grids_of_6x6_with_2x3_boxes_are_28200960() {
    let (o, _, _) = solve(
        &text("sudoku4.toml"),
        Some(6),
        "bitmask",
        Goal::Count,
        false,
        2,
    );
    assert_eq!(o.answer.count, Some(28_200_960));
}

/// The published puzzles, each with its published solution (docs/known-answers.md).
const PUBLISHED: [(&str, &str); 5] = [
    (
        "sudoku9.toml",
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
    ),
    (
        "sudoku17.toml",
        "953168742862734951417952836746893125281645397395271468138529674574386219629417583",
    ),
    (
        "killer.toml",
        "632798154478165392195324786724639815813452679569817243346571928981243567257986431",
    ),
    (
        "jigsaw.toml",
        "845279361359162784281395476467918235574623918136754829928536147792481653613847592",
    ),
    (
        "sudoku-x.toml",
        "371865294265914738849732516536429871198376452724158369452697183983541627617283945",
    ),
];

#[test]
fn published_puzzles_have_their_published_solution_and_no_other() {
    for (file, solution) in PUBLISHED {
        let t = text(file);
        let strategies: &[&str] = if file == "killer.toml" {
            &["dlx"]
        } else {
            &["bitmask", "dlx"]
        };
        for &s in strategies {
            let (o, sols, _) = solve(&t, None, s, Goal::All, false, 1);
            assert_eq!(
                o.answer.count.or(Some(o.stats.solutions)),
                Some(1),
                "{file} {s}"
            );
            assert_eq!(line(&sols[0]), solution, "{file} {s}");
        }
    }
}

#[test]
fn bitmask_refuses_cages_and_names_dlx() {
    let (code, _, err) = run_cli(&[&puzzle("killer.toml"), "--strategy", "bitmask"]);
    assert_eq!(code, 2);
    assert!(err.contains("dlx takes cages"), "{err}");
}

/// Every Latin square of order n, by a backtracking of its own.
fn latin_squares(n: usize) -> Vec<Vec<u8>> {
    fn go(n: usize, cell: usize, g: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if cell == n * n {
            out.push(g.clone());
            return;
        }
        let (r, c) = (cell / n, cell % n);
        for s in 0..n as u8 {
            if (0..c).any(|j| g[r * n + j] == s) || (0..r).any(|i| g[i * n + c] == s) {
                continue;
            }
            g[cell] = s;
            go(n, cell + 1, g, out);
        }
    }
    let mut out = Vec::new();
    go(n, 0, &mut vec![0; n * n], &mut out);
    out
}

#[test]
fn small_random_puzzles_against_a_brute_force() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut rand = |k: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % k
    };
    for n in [4usize, 5] {
        let squares = latin_squares(n);
        assert_eq!(squares.len(), if n == 4 { 576 } else { 161_280 });
        for case in 0..40 {
            // Regions: boxes (4 only), none, or n regions grown at random.
            let regions: Option<Vec<u8>> = match rand(3) {
                0 if n == 4 => Some((0..16).map(|c| ((c / 8) * 2 + (c % 4) / 2) as u8).collect()),
                1 => {
                    let mut of = vec![u8::MAX; n * n];
                    let mut sizes = vec![0; n];
                    // Seeds along the first column, then cells taken by a neighbour's region
                    // while it has room: retried until every region has n cells.
                    loop {
                        of.fill(u8::MAX);
                        sizes.fill(0);
                        for r in 0..n {
                            of[r * n] = r as u8;
                            sizes[r] = 1;
                        }
                        for _ in 0..2000 {
                            let c = rand((n * n) as u64) as usize;
                            if of[c] != u8::MAX {
                                continue;
                            }
                            let (r, col) = (c / n, c % n);
                            let nb = [
                                (r > 0).then(|| c - n),
                                (r + 1 < n).then(|| c + n),
                                (col > 0).then(|| c - 1),
                                (col + 1 < n).then(|| c + 1),
                            ];
                            let pick = nb[rand(4) as usize];
                            if let Some(p) = pick
                                && of[p] != u8::MAX
                                && sizes[of[p] as usize] < n
                            {
                                of[c] = of[p];
                                sizes[of[p] as usize] += 1;
                            }
                        }
                        if sizes.iter().all(|&s| s == n) {
                            break;
                        }
                    }
                    Some(of)
                }
                _ => None,
            };
            let diagonals = rand(4) == 0;
            // Givens copied from one Latin square, so that some puzzles have solutions.
            let from = &squares[rand(squares.len() as u64) as usize];
            let mut givens = vec![0u8; n * n];
            for _ in 0..rand(5) {
                let c = rand((n * n) as u64) as usize;
                givens[c] = from[c] + 1;
            }
            // At most two cages of 2 or 3 cells in a row, sums from the same square.
            let mut cages: Vec<(usize, Vec<usize>)> = Vec::new();
            let mut caged = vec![false; n * n];
            for _ in 0..rand(3) {
                let len = 2 + rand(2) as usize;
                let start = rand((n * n) as u64) as usize;
                let cells: Vec<usize> = (start..start + len)
                    .filter(|&c| c < n * n && c / n == start / n)
                    .collect();
                if cells.len() < 2 || cells.iter().any(|&c| caged[c]) {
                    continue;
                }
                for &c in &cells {
                    caged[c] = true;
                }
                let sum =
                    cells.iter().map(|&c| from[c] as usize + 1).sum::<usize>() + rand(2) as usize;
                cages.push((sum, cells));
            }
            let expected = squares
                .iter()
                .filter(|g| {
                    let unit_ok = |cells: &[usize]| {
                        let mut seen = vec![false; n];
                        cells
                            .iter()
                            .all(|&c| !std::mem::replace(&mut seen[g[c] as usize], true))
                    };
                    (0..n * n).all(|c| givens[c] == 0 || givens[c] == g[c] + 1)
                        && regions.as_ref().is_none_or(|of| {
                            (0..n as u8).all(|r| {
                                unit_ok(&(0..n * n).filter(|&c| of[c] == r).collect::<Vec<_>>())
                            })
                        })
                        && (!diagonals
                            || unit_ok(&(0..n).map(|i| i * n + i).collect::<Vec<_>>())
                                && unit_ok(&(0..n).map(|i| i * n + n - 1 - i).collect::<Vec<_>>()))
                        && cages.iter().all(|(sum, cells)| {
                            unit_ok(cells)
                                && cells.iter().map(|&c| g[c] as usize + 1).sum::<usize>() == *sum
                        })
                })
                .count() as u128;
            let mut t = format!("kind = \"sudoku\"\n[board]\nsize = {n}\n");
            match &regions {
                Some(of) => {
                    t.push_str("regions = \"\"\"\n");
                    for r in 0..n {
                        let row: String = (0..n).map(|c| (b'a' + of[r * n + c]) as char).collect();
                        t.push_str(&format!("{row}\n"));
                    }
                    t.push_str("\"\"\"\n");
                }
                None => t.push_str("box = \"none\"\n"),
            }
            t.push_str(&format!("diagonals = {diagonals}\n[rules]\n"));
            let given_line: String = givens
                .iter()
                .map(|&g| if g == 0 { '.' } else { (b'0' + g) as char })
                .collect();
            t.push_str(&format!("givens = \"{given_line}\"\n"));
            if !cages.is_empty() {
                let list: Vec<String> = cages
                    .iter()
                    .map(|(sum, cells)| {
                        let names: Vec<String> = cells
                            .iter()
                            .map(|&c| format!("\"r{}c{}\"", c / n + 1, c % n + 1))
                            .collect();
                        format!("{{ sum = {sum}, cells = [{}] }}", names.join(", "))
                    })
                    .collect();
                t.push_str(&format!("cages = [{}]\n", list.join(", ")));
            }
            // Givens that clash are refused by the file's reader, as the brute force would
            // count none: such cases are skipped.
            let spec = boardsolve::spec::Spec::parse(
                "test.toml",
                &t,
                &boardsolve::spec::Overrides::default(),
            );
            if spec.is_err() {
                assert_eq!(expected, 0, "case {n}/{case}: {t}");
                continue;
            }
            assert_eq!(
                count(&t, None, "dlx", 1),
                expected,
                "dlx case {n}/{case}:\n{t}"
            );
            if cages.is_empty() {
                assert_eq!(
                    count(&t, None, "bitmask", 1),
                    expected,
                    "bitmask {n}/{case}:\n{t}"
                );
            }
            // Every solution listed passes the validator (solve checks each on its way out).
            let (o, sols, _) = solve(&t, None, "dlx", Goal::All, false, 1);
            assert_eq!(sols.len() as u128, expected.min(o.stats.solutions));
        }
    }
}

#[test]
fn a_grid_is_printed_with_its_boxes_ruled() {
    let (code, out, _) = run_cli(&[&puzzle("sudoku9.toml"), "--quiet"]);
    assert_eq!(code, 0);
    assert!(out.contains("5 3 4 | 6 7 8 | 9 1 2\n"), "{out}");
    assert!(out.contains("------+-------+------\n"), "{out}");
    let (code, out, _) = run_cli(&[&puzzle("sudoku9.toml"), "--format", "json", "--quiet"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"534678912\""), "{out}");
    let (code, out, _) = run_cli(&[&puzzle("killer.toml"), "--format", "svg", "--quiet"]);
    assert_eq!(code, 0);
    assert!(out.contains("stroke-dasharray"), "cages drawn: {out}");
    // The sum 17 of the cage r1c5-r3c5 sits in r1c5's top-left corner; that cell's digit is
    // set lower, clear of it, and a cell without a sum keeps its digit centred.
    assert!(out.contains("<text x=\"185\" y=\"32\""), "{out}");
    assert!(out.contains("fill=\"#555\">17</text>"), "{out}");
    assert!(out.contains("<text x=\"200\" y=\"45\""), "{out}");
    assert!(out.contains("<text x=\"80\" y=\"40\""), "{out}");
    assert!(!out.contains("class=\"diagonal\""), "{out}");
    // A puzzle without a solution is drawn as a line that says so, not a blank image: r1c1
    // has no symbol left (2 and 3 in its row, 4 in its column, 1 in its box).
    let dir = std::env::temp_dir().join(format!("boardsolve-svg-none-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("none.toml");
    std::fs::write(
        &f,
        "kind = \"sudoku\"\n[rules]\ngivens = \"\"\"\n.23.\n.1..\n4...\n....\n\"\"\"\n",
    )
    .unwrap();
    let (code, out, _) = run_cli(&[f.to_str().unwrap(), "--format", "svg", "--quiet"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 1);
    assert!(out.contains(">no solution found</text>"), "{out}");
    let (code, out, _) = run_cli(&[&puzzle("sudoku-x.toml"), "--format", "svg", "--quiet"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.matches("class=\"diagonal\"").count(),
        2,
        "an X-sudoku's diagonals drawn: {out}"
    );
}

#[test]
fn givens_that_clash_are_an_error_naming_both() {
    let t = "kind = \"sudoku\"\n[rules]\ngivens = \"\"\"\n5...5....\n.........\n.........\n\
             .........\n.........\n.........\n.........\n.........\n.........\n\"\"\"\n";
    let dir = std::env::temp_dir().join(format!("boardsolve-sudoku-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("clash.toml");
    std::fs::write(&f, t).unwrap();
    let (code, _, err) = run_cli(&[f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("r1c1 and r1c5"), "{err}");
    assert!(
        err.contains("clash.toml:4:5"),
        "points at the second: {err}"
    );
    for (bad, says) in [
        (
            "kind = \"sudoku\"\n[board]\nsize = 6\nbox = [2, 2]\n",
            "product the size 6",
        ),
        (
            "kind = \"sudoku\"\n[rules]\ngivens = \"12x4\"\n",
            "'x' is no symbol",
        ),
        // Without a size the box gives it: a box too large is the box's fault, said at it.
        (
            "kind = \"sudoku\"\n[board]\nbox = [6, 6]\n",
            "clash.toml:3:7: key `board.box`: box = [6, 6] makes a 36x36 grid, and a sudoku \
             takes at most 35 symbols",
        ),
        (
            "kind = \"sudoku\"\n[board]\nbox = [0, 3]\n",
            "[0, 3] is not a box's [height, width]; accepted: [height, width], each 1 or more",
        ),
        (
            "kind = \"sudoku\"\n[rules]\ngivens = \"53..7....6..195\"\n",
            "one line of 15 cells; a grid on one line has n x n cells",
        ),
        (
            "kind = \"sudoku\"\n[board]\nsize = 4\n[rules]\ncages = [{ sum = 20, cells = [\"r1c1\", \"r1c2\"] }]\n",
            "add up to 3 to 7, not 20",
        ),
        (
            "kind = \"sudoku\"\n[board]\nsize = 4\n[rules]\ncages = [{ sum = 3, cells = [\"r1c1\", \"r1c2\"] }, { sum = 3, cells = [\"r1c2\", \"r2c2\"] }]\n",
            "r1c2 is in cage 1 and cage 2",
        ),
        (
            "kind = \"sudoku\"\n[board]\nsize = 4\nregions = \"\"\"\naabb\naabb\nccdd\ncddd\n\"\"\"\n",
            "has 3 cells",
        ),
        (
            "kind = \"sudoku\"\n[board]\nsize = 4\nwidth = 4\n",
            "reads size, box",
        ),
        (
            "kind = \"independent\"\n[board]\nsize = 4\nbox = [2, 2]\n",
            "kind \"sudoku\"'s",
        ),
    ] {
        std::fs::write(&f, bad).unwrap();
        let (code, _, err) = run_cli(&[f.to_str().unwrap()]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains(says), "{bad}: {err}");
    }
}

/// A cage's unknown key is listed against the cage's keys, and a cell is named one way:
/// no leading zeros, no spaces, no sign; every refusal names the accepted forms.
#[test]
fn a_cage_key_and_a_cell_name_are_read_strictly() {
    let dir = std::env::temp_dir().join(format!("boardsolve-sudoku-cells-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("cells.toml");
    let file =
        |cage: &str| format!("kind = \"sudoku\"\n[board]\nsize = 4\n[rules]\ncages = [{cage}]\n");
    std::fs::write(
        &f,
        file("{ sum = 3, cells = [\"r1c1\", \"r1c2\"], colour = 3 }"),
    )
    .unwrap();
    let (code, _, err) = run_cli(&[f.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("expected `sum` or `cells`"), "{err}");
    assert!(!err.contains("`givens`"), "not the [rules] keys: {err}");
    for (name, says) in [
        ("r01c01", "has a leading zero"),
        ("r1c01", "has a leading zero"),
        ("a01", "has a leading zero"),
        (" r1c1", "has spaces around it"),
        ("r1c1 ", "has spaces around it"),
        ("r+1c1", "is not a cell name"),
        ("A1", "is not a cell name"),
        ("r5c1", "is off the 4x4 grid"),
        ("e1", "is off the 4x4 grid"),
    ] {
        let cage = format!("{{ sum = 3, cells = [\"{name}\", \"r2c2\"] }}");
        std::fs::write(&f, file(&cage)).unwrap();
        let (code, _, err) = run_cli(&[f.to_str().unwrap()]);
        assert_eq!(code, 2, "{name:?}: {err}");
        assert!(err.contains(&format!("{name:?} {says}")), "{name:?}: {err}");
        assert!(
            err.contains("accepted: r1c1 to r4c4") && err.contains("a1 to d4"),
            "{name:?}: {err}"
        );
        assert!(err.contains("[row, col]"), "{name:?}: {err}");
    }
    // The same cells in each accepted form: r1c1 and r2c2 hold 1 and 2, in 2 of the 12
    // ordered pairs of distinct symbols that the 288 grids share alike.
    for (a, b) in [("r1c1", "R2C2"), ("a4", "b3"), ("[0, 0]", "[1, 1]")] {
        let a = if a.starts_with('[') {
            a.to_string()
        } else {
            format!("\"{a}\"")
        };
        let b = if b.starts_with('[') {
            b.to_string()
        } else {
            format!("\"{b}\"")
        };
        let cage = format!("{{ sum = 3, cells = [{a}, {b}] }}");
        std::fs::write(&f, file(&cage)).unwrap();
        let (code, out, err) = run_cli(&[f.to_str().unwrap(), "--goal", "count", "--quiet"]);
        assert_eq!((code, out.trim()), (0, "48 solutions"), "{a} {b}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A time limit stops the exact cover's build, not only the search after it: the first two
/// rows as cages of nine cells and the other rows' first eight cells as cages have 2 x 9! +
/// 7 x 8! fillings, 45 million entries (under the bound), whose build and Dancing Links
/// arrays take seconds; with a limit of 0.3 s the run ends in a moment, with the limit's
/// answer (exit 3).
#[test]
fn a_time_limit_stops_the_build_of_a_large_killer_cover() {
    let cage = |r: usize, len: usize, sum: usize| {
        let cells: Vec<String> = (1..=len).map(|c| format!("\"r{r}c{c}\"")).collect();
        format!("{{ sum = {sum}, cells = [{}] }}", cells.join(", "))
    };
    let mut cages = vec![cage(1, 9, 45), cage(2, 9, 45)];
    // Rows 3 to 9 leave out 9, 8, ..., 3 of their first eight cells.
    cages.extend((3..=9).map(|r| cage(r, 8, 45 - (12 - r))));
    let text = format!(
        "kind = \"sudoku\"\n[board]\nsize = 9\n[rules]\ncages = [{}]\n",
        cages.join(",\n  ")
    );
    let dir = std::env::temp_dir().join(format!("boardsolve-sudoku-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("big.toml");
    std::fs::write(&f, text).unwrap();
    let start = std::time::Instant::now();
    let (code, _, err) = run_cli(&[f.to_str().unwrap(), "--time-limit", "0.3"]);
    let took = start.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("[time limit]"), "{err}");
    assert!(
        took < std::time::Duration::from_millis(1500),
        "the build ran on past the limit: {took:?}"
    );
}

#[test]
fn puzzles_a_line_each_get_a_line_and_a_bad_line_is_named() {
    let good = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
    let input = format!(
        "# a comment\n{good}\n{}\n53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7x\n\
         55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n{}\n",
        &good[..80],
        ".".repeat(81)
    );
    let (code, out, err) = run_cli_with(&["-", "--input", "lines", "--threads", "2"], Some(&input));
    assert_eq!(code, 2, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert_eq!(
        lines[0],
        "953168742862734951417952836746893125281645397395271468138529674574386219629417583"
    );
    assert_eq!(&lines[1..4], ["bad line", "bad line", "bad line"]);
    assert_eq!(lines[4].len(), 81, "the empty grid has solutions: {out}");
    assert!(err.contains("<stdin>:3: 80 characters"), "{err}");
    assert!(err.contains("<stdin>:4: character 81 is 'x'"), "{err}");
    assert!(err.contains("<stdin>:5: the givens r1c1 and r1c2"), "{err}");
    assert!(err.contains("5 puzzles in"), "{err}");
    // Is each unique? The empty grid is not: its count stops at the limit.
    let input = format!("{good}\n{}\n", ".".repeat(81));
    let (code, out, _) = run_cli_with(
        &[
            "-", "--input", "lines", "--goal", "count", "--limit", "2", "--quiet",
        ],
        Some(&input),
    );
    assert_eq!(code, 0);
    assert_eq!(out, "1\n2+\n", "a count stopped at the limit is marked");
    let (_, out, _) = run_cli_with(
        &[
            "-", "--input", "lines", "--goal", "count", "--limit", "2", "--format", "json",
            "--quiet",
        ],
        Some(&input),
    );
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["complete"], true);
    assert_eq!(first["stopped"], serde_json::Value::Null);
    let second: serde_json::Value = serde_json::from_str(out.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["complete"], false);
    assert_eq!(second["count"], 2);
    assert_eq!(second["status"], "solved");
    assert_eq!(second["stopped"], "solution limit", "{out}");
    let (_, out, _) = run_cli_with(
        &["-", "--input", "lines", "--format", "json", "--quiet"],
        Some(&input),
    );
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["line"], 1);
    assert_eq!(first["status"], "solved");
    assert_eq!(
        first["stopped"],
        serde_json::Value::Null,
        "goal first's solution is no stop"
    );
    let (code, _, err) = run_cli_with(
        &["-", "--input", "lines", "--goal", "count", "--limit", "0"],
        Some(&input),
    );
    assert_eq!(code, 2);
    assert!(err.contains("--limit 0: with goal count"), "{err}");
    // 4x4 puzzles, and boxes set as a file would set them.
    let (code, out, _) = run_cli_with(
        &[
            "-",
            "--input",
            "lines",
            "--set",
            "board.box=\"none\"",
            "--goal",
            "count",
            "--quiet",
        ],
        Some("1...............\n"),
    );
    assert_eq!(code, 0);
    assert_eq!(
        out, "144\n",
        "Latin squares of order 4 with a 1 in a corner"
    );
}

/// A line too large for any sudoku is named as such, not as "no puzzle" alone; a comment
/// or a blank line of any length is skipped, and a line past the read limit is a bad line
/// by its length.
#[test]
fn lines_name_a_grid_too_large_and_skip_long_comments() {
    let good = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
    let (code, _, err) = run_cli_with(
        &["-", "--input", "lines"],
        Some(&format!("# 36x36\n{}\n", ".".repeat(36 * 36))),
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            "<stdin>: no line is a puzzle: line 2: 1,296 characters, a 36x36 grid: the largest \
             taken is 35x35 (1,225 characters"
        ),
        "{err}"
    );
    // A comment and a blank line longer than a line is read: skipped.
    let input = format!(
        "# {}\n{}\n{good}\n   {}x\n",
        "c".repeat(10_000),
        " ".repeat(10_000),
        ".".repeat(5000)
    );
    let (code, out, err) = run_cli_with(&["-", "--input", "lines", "--quiet"], Some(&input));
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [GOOD_SOLVED, "bad line"],
        "{err}"
    );
    assert!(
        err.contains("<stdin>:4: 5,004 characters; a puzzle of this file has 81"),
        "{err}"
    );
    assert!(
        !err.contains("<stdin>:1:") && !err.contains("<stdin>:2:"),
        "{err}"
    );
}

/// A sudoku with one solution, and that solution.
const GOOD: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
const GOOD_SOLVED: &str =
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583";

/// `solve - --input lines ARGS` with its standard input and output as pipes: the child, its
/// standard input, and its output lines as they come (read by a thread, so that a test waits
/// for one with a timeout instead of hanging).
fn lines_child(
    args: &[&str],
) -> (
    std::process::Child,
    std::process::ChildStdin,
    std::sync::mpsc::Receiver<String>,
) {
    use std::io::BufRead as _;
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("solve"))
        .args(["-", "--input", "lines"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if send.send(line).is_err() {
                return;
            }
        }
    });
    (child, stdin, lines)
}

/// The child's exit status within `secs`, else it is killed and the test fails.
fn exit_within(child: &mut std::process::Child, secs: u64) -> Option<i32> {
    let started = std::time::Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s.code();
        }
        if started.elapsed().as_secs() > secs {
            let _ = child.kill();
            panic!("still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

fn stderr_of(child: &mut std::process::Child) -> String {
    use std::io::Read as _;
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    err
}

#[test]
fn puzzles_a_line_are_answered_as_each_line_comes() {
    use std::io::Write as _;
    let (mut child, mut stdin, lines) = lines_child(&["--threads", "2"]);
    let next =
        |lines: &std::sync::mpsc::Receiver<String>, child: &mut std::process::Child| match lines
            .recv_timeout(std::time::Duration::from_secs(30))
        {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                panic!("no answer within 30 s while standard input stays open");
            }
        };
    writeln!(stdin, "{GOOD}").unwrap();
    stdin.flush().unwrap();
    assert_eq!(next(&lines, &mut child), GOOD_SOLVED);
    // The same run answers the next line too, standard input still open.
    writeln!(stdin, "# a comment\n{}", &GOOD[..80]).unwrap();
    stdin.flush().unwrap();
    assert_eq!(next(&lines, &mut child), "bad line");
    writeln!(stdin, "{GOOD}").unwrap();
    stdin.flush().unwrap();
    assert_eq!(next(&lines, &mut child), GOOD_SOLVED);
    drop(stdin);
    let code = exit_within(&mut child, 30);
    let err = stderr_of(&mut child);
    assert_eq!(code, Some(2), "a bad line: {err}");
    assert!(err.contains("<stdin>:3: 80 characters"), "{err}");
    assert!(err.contains("3 puzzles in"), "{err}");
    assert!(lines.recv().is_err(), "nothing more is written");
}

#[test]
fn a_time_limit_ends_a_run_whose_input_stays_open() {
    use std::io::Write as _;
    let started = std::time::Instant::now();
    let (mut child, mut stdin, lines) = lines_child(&["--time-limit", "1", "--threads", "2"]);
    writeln!(stdin, "{GOOD}").unwrap();
    stdin.flush().unwrap();
    // Standard input is held open, without an end, until the process has ended.
    let code = exit_within(&mut child, 30);
    let err = stderr_of(&mut child);
    drop(stdin);
    assert_eq!(code, Some(3), "{err}");
    assert!(started.elapsed().as_secs_f64() < 10.0, "{err}");
    let out: Vec<String> = lines.iter().collect();
    assert_eq!(out, [GOOD_SOLVED], "{err}");
    assert!(err.contains("1 puzzle in"), "{err}");
    assert!(
        err.contains("stopped (time limit): the lines after line 1, if any, not read"),
        "an input held open may have more lines: {err}"
    );
}

#[test]
fn a_stop_at_the_last_line_claims_no_lines_after_it() {
    let file = std::env::temp_dir().join(format!("boardsolve-one-line-{}.txt", std::process::id()));
    std::fs::write(&file, format!("{}\n", ".".repeat(81))).unwrap();
    let (code, out, err) = run_cli(&[
        file.to_str().unwrap(),
        "--input",
        "lines",
        "--goal",
        "count",
        "--node-limit",
        "1000",
        "--threads",
        "1",
    ]);
    let _ = std::fs::remove_file(&file);
    assert_eq!(code, 3, "{err}");
    assert_eq!(out, "stopped\n");
    assert!(err.contains("1 puzzle in"), "{err}");
    assert!(err.trim_end().ends_with("; stopped (node limit)"), "{err}");
    assert!(!err.contains("after line"), "{err}");
}

#[test]
fn givens_of_the_wrong_shape_say_what_was_written_and_the_size() {
    let dir = std::env::temp_dir().join(format!("boardsolve-shape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("shape.toml");
    for (text, says) in [
        (
            "[board]\nsize = 4\n[rules]\ngivens = \"123456789\"\n",
            "one line of 9 characters; the grid is 4x4 (size = 4): 16 cells",
        ),
        (
            "[rules]\ngivens = \"\"\"\n123456789\n.........\n\"\"\"\n",
            "row 1 has 9 cells; the grid is 2x2 (from the 2 rows drawn, no size given)",
        ),
        (
            "[board]\nsize = 4\n[rules]\ngivens = \"\"\"\n1234\n12\n....\n....\n\"\"\"\n",
            "row 2 has 2 cells; the grid is 4x4 (size = 4), so a row has 4",
        ),
        (
            "[rules]\ngivens = \"12345678901234567890\"\n",
            "(the squares 4, 9, 16, 25, 36, 49, 64, 81, ...: 16 or 25 near this one)",
        ),
        (
            "[board]\nsize = 9\n[rules]\ncages = [{ sum = 10, cells = [\"r1c1\"] }]\n",
            "1 symbol of 1 to 9 is 1 to 9, not 10",
        ),
    ] {
        std::fs::write(&f, format!("kind = \"sudoku\"\n{text}")).unwrap();
        let (code, _, err) = run_cli(&[f.to_str().unwrap()]);
        assert_eq!(code, 2, "{text}: {err}");
        assert!(err.contains(says), "{text}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unique_on_a_sudoku_names_what_asks_for_one_solution() {
    let (code, _, err) = run_cli(&[&puzzle("sudoku9.toml"), "--unique"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--unique counts classes under symmetry"),
        "{err}"
    );
    assert!(err.contains("--goal count --limit 2"), "{err}");
}

#[test]
fn a_count_with_a_limit_stops_there_and_says_at_least() {
    let file = puzzle("sudoku4.toml");
    let json = |extra: &[&str]| {
        let (code, out, err) =
            run_cli(&[&[file.as_str(), "--format", "json", "--quiet"][..], extra].concat());
        (
            code,
            serde_json::from_str::<serde_json::Value>(&out).unwrap(),
            err,
        )
    };
    // Without --limit the count is exact: 288 grids.
    let (code, v, _) = json(&["--goal", "count"]);
    assert_eq!(
        (code, v["count"].clone(), v["complete"].clone()),
        (0, 288.into(), true.into())
    );
    assert_eq!(v["stopped"], serde_json::Value::Null);
    // With it the count stops at N, on every strategy and thread count, and says so.
    for strategy in ["bitmask", "dlx"] {
        for threads in ["1", "2"] {
            let (code, v, err) = json(&[
                "--goal",
                "count",
                "--limit",
                "2",
                "--strategy",
                strategy,
                "--threads",
                threads,
            ]);
            assert_eq!(code, 0, "{err}");
            assert_eq!(v["count"], 2, "{strategy} {threads}: {v}");
            assert_eq!(v["complete"], false);
            assert_eq!(v["stopped"], "solution limit");
            assert_eq!(v["status"], "solved");
        }
    }
    // A limit above the total leaves the count exact.
    let (_, v, _) = json(&["--goal", "count", "--limit", "1000"]);
    assert_eq!(
        (v["count"].clone(), v["complete"].clone()),
        (288.into(), true.into())
    );
    let (code, out, _) = run_cli(&[&file, "--goal", "count", "--limit", "2"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("at least 2 solutions (the count stopped at --limit 2)"),
        "{out}"
    );
    // Goal all prints up to N and counts on.
    let (code, out, _) = run_cli(&[&file, "--goal", "all", "--limit", "2", "--quiet"]);
    assert_eq!(code, 0);
    assert!(out.contains("288 solutions"), "{out}");
    // Goal first's one solution is no stop.
    let (_, v, _) = json(&["--goal", "first"]);
    assert_eq!(v["stopped"], serde_json::Value::Null, "{v}");
    assert_eq!(v["complete"], true);
    // Other kinds stop alike: 92 queens' solutions, counted by symmetry classes' weights.
    let (code, out, _) = run_cli(&[
        &puzzle("queens8.toml"),
        "--goal",
        "count",
        "--limit",
        "5",
        "--quiet",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("at least 5 solutions"), "{out}");
    // A part's count is summed as exact by `solve merge`: no limit there, nor a limit of 0.
    for (flags, says) in [
        (&["--limit", "2", "--part", "1/2"][..], "solve merge"),
        (&["--limit", "0"], "accepted: 1 or more"),
    ] {
        let (code, _, err) = run_cli(&[&[file.as_str(), "--goal", "count"][..], flags].concat());
        assert_eq!(code, 2, "{flags:?}");
        assert!(err.contains(says), "{flags:?}: {err}");
    }
}

#[test]
fn puzzles_not_begun_when_a_limit_strikes_are_not_written() {
    let empty = ".".repeat(81);
    // The empty grid's count runs into the node limit; the lines after it are not begun.
    let input = format!("{GOOD}\n{empty}\n{GOOD}\n{GOOD}\n");
    let args = [
        "-",
        "--input",
        "lines",
        "--goal",
        "count",
        "--node-limit",
        "1000",
        "--threads",
        "1",
    ];
    let (code, out, err) = run_cli_with(&[&args[..], &["--format", "json"]].concat(), Some(&input));
    assert_eq!(code, 3, "{err}");
    let written: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(written.len(), 2, "{out}");
    assert_eq!(written[0]["line"], 1);
    assert_eq!(written[0]["status"], "solved");
    assert_eq!(written[0]["count"], 1);
    assert_eq!(written[0]["complete"], true);
    assert_eq!(written[1]["line"], 2);
    assert_eq!(written[1]["status"], "stopped");
    assert_eq!(written[1]["complete"], false);
    assert_eq!(written[1]["stopped"], "node limit");
    assert!(
        err.contains("2 puzzles in")
            && err.contains(
                "stopped (node limit) before the file's end: the lines after line 2 not answered"
            ),
        "{err}"
    );
    let (code, out, _) = run_cli_with(&args, Some(&input));
    assert_eq!(code, 3);
    assert_eq!(out, "1\nstopped\n", "text writes the same lines as JSON");
    // On several threads the lines written are the first ones, each stopped in its search.
    let input = format!("{empty}\n").repeat(40);
    let (code, out, err) = run_cli_with(
        &[
            "-",
            "--input",
            "lines",
            "--goal",
            "count",
            "--time-limit",
            "0.5",
            "--threads",
            "2",
            "--format",
            "json",
        ],
        Some(&input),
    );
    assert_eq!(code, 3, "{err}");
    let written: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!((1..=2).contains(&written.len()), "{out}");
    for (k, w) in written.iter().enumerate() {
        assert_eq!(w["line"], k + 1, "{out}");
        assert_eq!(w["status"], "stopped", "{out}");
        assert_eq!(w["stopped"], "time limit", "{out}");
    }
}

#[test]
fn options_that_lines_refuse_are_named() {
    for (flags, says) in [
        (&["--unique"][..], "--unique: not taken with --input lines"),
        (&["--prefixes"], "--prefixes: not taken with --input lines"),
        (
            &["--set", "solve.unique=true"],
            "--unique: not taken with --input lines",
        ),
        (&["--branch", "first"], "--branch first: accepted by"),
        (&["--part", "1/2"], "--part: not taken with --input lines"),
    ] {
        let (code, out, err) = run_cli_with(
            &[&["-", "--input", "lines"][..], flags].concat(),
            Some(&format!("{GOOD}\n")),
        );
        assert_eq!(code, 2, "{flags:?}: {err}");
        assert!(out.is_empty(), "{flags:?}: {out}");
        assert!(err.contains(says), "{flags:?}: {err}");
    }
}

/// In lines mode each thread holds one puzzle's search: the threads are as many as the
/// memory budget holds searches at once, and the run says so.
#[test]
fn lines_with_cages_share_the_memory_budget_among_the_threads() {
    let input = format!("{}\n", ".".repeat(256)).repeat(2);
    let cage = "rules.cages=[{sum=30,cells=[\"r1c1\",\"r1c2\",\"r1c3\",\"r1c4\",\"r1c5\"]}]";
    // One search takes some 25 MiB: 40 MiB holds one, 60 MiB two, 200 MiB all four.
    for (memory, threads) in [("40M", 1), ("60M", 2), ("200M", 4)] {
        let (code, out, err) = run_cli_with(
            &[
                "-",
                "--input",
                "lines",
                "--threads",
                "4",
                "--memory",
                memory,
                "--set",
                cage,
            ],
            Some(&input),
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.lines().count(), 2, "{out}");
        let plural = if threads == 1 { "" } else { "s" };
        assert!(
            err.contains(&format!(", {threads} thread{plural}):")),
            "{memory}: {err}"
        );
        assert_eq!(
            err.contains(&format!("holds {threads} at once")),
            threads < 4,
            "{memory}: {err}"
        );
    }
}

/// `--limit 0` with goal count in lines mode would cap every count at nothing: refused.
#[test]
fn lines_count_with_limit_0_is_refused() {
    let input = format!("{}\n", ".".repeat(81));
    let (code, out, err) = run_cli_with(
        &["-", "--input", "lines", "--goal", "count", "--limit", "0"],
        Some(&input),
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--limit 0: with goal count each count stops at N solutions"),
        "{err}"
    );
    let (code, out, err) = run_cli_with(
        &["-", "--input", "lines", "--goal", "count", "--limit", "1"],
        Some(&input),
    );
    assert_eq!((code, out.trim()), (0, "1+"), "{err}");
}
