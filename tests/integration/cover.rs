//! The cover kind: exact cover straight from the file, through the real reader.

use boardsolve::engine::{Goal, Status};

use crate::{parts_sum, puzzle, run_cli, solve};

fn text(name: &str) -> String {
    std::fs::read_to_string(puzzle(name)).unwrap()
}

#[test]
fn pentominoes_6x10_has_9356_packings() {
    let (o, _, _) = solve(
        &text("pentominoes.toml"),
        None,
        "dlx",
        Goal::Count,
        false,
        1,
    );
    assert_eq!(o.answer.count, Some(9356));
}

#[test]
fn pentominoes_with_x_in_one_quadrant_has_2339() {
    let (o, sols, model) = solve(
        &text("pentominoes-unique.toml"),
        None,
        "dlx",
        Goal::All,
        false,
        1,
    );
    assert_eq!(o.answer.count, Some(2339));
    assert_eq!(sols.len(), 2339);
    // The file lists its items in the order of Knuth's data, so DLX1's node count comes out.
    assert_eq!(o.stats.nodes, 904_970);
    for s in &sols {
        model.check(s).unwrap();
    }
}

#[test]
fn sudoku_has_one_solution() {
    let (o, sols, model) = solve(&text("sudoku.toml"), None, "dlx", Goal::All, false, 1);
    assert_eq!((o.status, o.answer.count), (Status::Solved, Some(1)));
    model.check(&sols[0]).unwrap();
}

const KNUTH: &str = r#"
kind = "cover"
[rules]
items = ["a", "b", "c", "d", "e", "f", "g"]
options = [["c", "e"], ["a", "d", "g"], ["b", "c", "f"], ["a", "d", "f"], ["b", "g"], ["d", "e", "g"]]
"#;

#[test]
fn knuths_example_from_the_file() {
    let (o, sols, _) = solve(KNUTH, None, "dlx", Goal::All, false, 1);
    assert_eq!(o.answer.count, Some(1));
    // Options 0 (c e), 3 (a d f) and 4 (b g).
    assert_eq!(sols, vec![vec![0, 3, 4]]);
}

#[test]
fn colours_and_multiplicities_from_the_file() {
    // x may be shared by options agreeing on its colour.
    let coloured = r#"
kind = "cover"
[rules]
items = ["a", "b"]
secondary = ["x"]
options = [["a", "x:red"], ["b", "x:red"], ["b", "x:blue"]]
"#;
    let (o, _, _) = solve(coloured, None, "dlx", Goal::Count, false, 1);
    assert_eq!(o.answer.count, Some(1));
    // a is covered once or twice: {ab}, {a}{a'b}... enumerate by hand: options 0 = [a],
    // 1 = [a, b], 2 = [b]: {0, 2}, {1}, {0, 1} -> 3 solutions.
    let ranged = r#"
kind = "cover"
[rules]
items = ["a", "b"]
options = [["a"], ["a", "b"], ["b"]]
[rules.multiplicity]
a = [1, 2]
"#;
    let (o, sols, model) = solve(ranged, None, "dlx", Goal::All, false, 1);
    assert_eq!(o.answer.count, Some(3), "{sols:?}");
    for s in &sols {
        model.check(s).unwrap();
    }
}

#[test]
fn cover_file_errors_point_at_the_item() {
    let bad = "kind = \"cover\"\n[rules]\nitems = [\"a\"]\noptions = [[\"a\"], [\"b\"]]\n";
    let spec = boardsolve::spec::Spec::parse("c.toml", bad, &Default::default()).unwrap();
    let e = boardsolve::kinds::Model::compile(&spec).err().unwrap();
    assert_eq!((e.line, e.key.as_str()), (4, "rules.options"), "{e}");
    assert!(e.message.contains("\"b\" is not a declared item"), "{e}");
    let bad = "kind = \"cover\"\n[rules]\nitems = [\"a\"]\noptions = [[\"a:red\"]]\n";
    let spec = boardsolve::spec::Spec::parse("c.toml", bad, &Default::default()).unwrap();
    let e = boardsolve::kinds::Model::compile(&spec).err().unwrap();
    assert!(
        e.message.contains("only secondary items take a colour"),
        "{e}"
    );
    // "x:r:g" is not item x in colour "r:g": one colour an item.
    let bad = "kind = \"cover\"\n[rules]\nitems = [\"a\"]\nsecondary = [\"x\"]\n\
               options = [\n  [\"a\", \"x:r:g\"],\n]\n";
    let spec = boardsolve::spec::Spec::parse("c.toml", bad, &Default::default()).unwrap();
    let e = boardsolve::kinds::Model::compile(&spec).err().unwrap();
    assert_eq!((e.line, e.key.as_str()), (6, "rules.options"), "{e}");
    assert!(
        e.message.contains("\"x:r:g\": an item takes one colour")
            && e.message.contains("accepted: name:colour"),
        "{e}"
    );
}

#[test]
fn cover_prints_the_chosen_options() {
    let out = assert_cmd::Command::cargo_bin("solve")
        .unwrap()
        .args(["-", "--goal", "all"])
        .write_stdin(KNUTH)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("c e\na d f\nb g\n"), "{s}");
    assert!(s.contains("1 solution"), "{s}");
}

/// `--part I/N`: the parts of the pentominoes with X in one quadrant and of a sudoku add up
/// to the whole search, counts, nodes and updates, every solution checked. (The whole
/// pentominoes take four times as long; the command line test below splits them.)
#[test]
fn cover_parts_add_up() {
    let whole = parts_sum(
        &text("pentominoes-unique.toml"),
        None,
        "dlx",
        (Goal::All, false),
    );
    assert_eq!((whole.count, whole.nodes), (2339, 904_970));
    assert_eq!(whole.solutions.len(), 2339);
    let whole = parts_sum(&text("sudoku.toml"), None, "dlx", (Goal::All, false));
    assert_eq!(whole.count, 1);
}

/// Colours (Algorithm C) and multiplicities (Algorithm M) from a cover file split as well.
#[test]
fn coloured_and_ranged_cover_parts_add_up() {
    // 5x5 grids of 0s and 1s with two 1s in every row and column: rows and columns are
    // words, the cells secondary items coloured by their digit.
    let words: Vec<String> = (0u32..32)
        .filter(|w| w.count_ones() == 2)
        .map(|w| {
            (0..5)
                .map(|k| if w >> k & 1 == 1 { '1' } else { '0' })
                .collect()
        })
        .collect();
    let mut options = Vec::new();
    for w in &words {
        for line in 0..5 {
            let row: Vec<String> = std::iter::once(format!("\"r{line}\""))
                .chain(
                    w.chars()
                        .enumerate()
                        .map(|(c, d)| format!("\"x{line}{c}:{d}\"")),
                )
                .collect();
            options.push(format!("[{}]", row.join(", ")));
            let col: Vec<String> = std::iter::once(format!("\"c{line}\""))
                .chain(
                    w.chars()
                        .enumerate()
                        .map(|(r, d)| format!("\"x{r}{line}:{d}\"")),
                )
                .collect();
            options.push(format!("[{}]", col.join(", ")));
        }
    }
    let cells: Vec<String> = (0..25)
        .map(|k| format!("\"x{}{}\"", k / 5, k % 5))
        .collect();
    let grids = format!(
        "kind = \"cover\"\n[rules]\nitems = [{}]\nsecondary = [{}]\noptions = [{}]\n",
        (0..5)
            .flat_map(|k| [format!("\"r{k}\""), format!("\"c{k}\"")])
            .collect::<Vec<_>>()
            .join(", "),
        cells.join(", "),
        options.join(", "),
    );
    let whole = parts_sum(&grids, None, "dlx", (Goal::All, false));
    assert_eq!(whole.count, 2040);
    // Eight non-attacking kings on 6x6, one or two in each row: a count item [8, 8] and
    // rows [1, 2] (Algorithm M), the attacking pairs secondary.
    let n: usize = 6;
    let mut pairs = Vec::new();
    let mut options = Vec::new();
    for s in 0..n * n {
        let mut items = vec!["\"count\"".to_string(), format!("\"r{}\"", s / n)];
        for t in 0..n * n {
            let (a, b) = (s.min(t), s.max(t));
            if a != b && (a / n).abs_diff(b / n) <= 1 && (a % n).abs_diff(b % n) <= 1 {
                items.push(format!("\"p{a}.{b}\""));
                if s < t {
                    pairs.push(format!("\"p{a}.{b}\""));
                }
            }
        }
        options.push(format!("[{}]", items.join(", ")));
    }
    let rows: Vec<String> = (0..n).map(|r| format!("\"r{r}\"")).collect();
    let ranges: Vec<String> = (0..n).map(|r| format!("r{r} = [1, 2]")).collect();
    let kings = format!(
        "kind = \"cover\"\n[rules]\nitems = [\"count\", {}]\nsecondary = [{}]\n\
         options = [{}]\n[rules.multiplicity]\ncount = [8, 8]\n{}\n",
        rows.join(", "),
        pairs.join(", "),
        options.join(", "),
        ranges.join("\n"),
    );
    let whole = parts_sum(&kings, None, "dlx", (Goal::All, false));
    assert!(whole.count > 1000, "{}", whole.count);
}

/// `--threads 2` on a count: the subtrees go to two threads, and the report gives the count,
/// nodes and updates of one thread (DLX1's, for this file); the same for a Knuth-format file
/// and for the N-Queens model of the independent kind.
#[test]
fn dlx_counts_on_two_threads_what_one_counts() {
    let stats = |args: &[&str]| {
        let (code, out, err) = run_cli(args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        (
            v["count"].as_u64().unwrap(),
            v["stats"]["nodes"].as_u64().unwrap(),
            v["stats"]["updates"].as_u64().unwrap(),
        )
    };
    let file = puzzle("pentominoes-unique.toml");
    let knuth = puzzle("knuth7.dlx");
    let queens = puzzle("queens8.toml");
    for (args, want) in [
        (
            vec![file.as_str(), "--strategy", "dlx"],
            Some((2339, 904_970, 309_134_131)),
        ),
        (vec![knuth.as_str()], None),
        (
            vec![queens.as_str(), "--size", "9", "--strategy", "dlx"],
            None,
        ),
    ] {
        let with = |threads: &str| {
            let mut a = args.clone();
            a.extend(["--threads", threads, "--format", "json"]);
            stats(&a)
        };
        let one = with("1");
        assert_eq!(with("2"), one, "{args:?}");
        if let Some(w) = want {
            assert_eq!(one, w);
        }
    }
}

#[test]
fn a_cover_part_from_the_command_line() {
    let (code, out, err) = run_cli(&[&puzzle("pentominoes.toml"), "--part", "2/8"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(" solutions in this part [part 2/8: "), "{out}");
    let (code, out, err) = run_cli(&[&puzzle("pentominoes.toml"), "--part", "2/8,3/4"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("[part 2/8,3/4: "), "{out}");
    // Goal first has no parts; --estimate is not served by dlx.
    for (args, says) in [
        (
            vec!["--part", "1/2", "--goal", "first"],
            "--part: accepted for goals",
        ),
        (vec!["--estimate", "100"], "--estimate is not served"),
    ] {
        let mut a = vec![puzzle("pentominoes.toml")];
        a.extend(args.iter().map(|s| s.to_string()));
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let (code, out, err) = run_cli(&a);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// OEIS A004003: domino tilings of 2n x 2n boards; the memo counts the 10x10 tilings without
/// listing them.
#[test]
fn dxz_counts_the_domino_tilings_of_8x8_and_10x10() {
    for (file, want) in [
        ("dominoes8.toml", 12_988_816u128),
        ("dominoes10.toml", 258_584_046_368),
    ] {
        let (o, _, _) = solve(&text(file), None, "dxz", Goal::Count, false, 1);
        assert_eq!(o.answer.count, Some(want), "{file}");
        assert!(o.stats.nodes < 20_000, "{file}: {}", o.stats.nodes);
    }
    // DLX lists the 8x8 tilings one by one and agrees.
    let (o, _, _) = solve(&text("dominoes8.toml"), None, "dlx", Goal::Count, false, 1);
    assert_eq!(o.answer.count, Some(12_988_816));
}

/// OEIS A014552: Langford pairs up to reversal, n = 11 and 12, by both strategies; goal all
/// lists them from the diagram, each checked.
#[test]
fn langford_pairs_by_dxz_and_dlx() {
    for (file, want) in [
        ("langford11.toml", 17_792u128),
        ("langford12.toml", 108_144),
    ] {
        for strategy in ["dxz", "dlx"] {
            let (o, _, _) = solve(&text(file), None, strategy, Goal::Count, false, 1);
            assert_eq!(o.answer.count, Some(want), "{file} {strategy}");
        }
    }
    let (o, sols, model) = solve(&text("langford11.toml"), None, "dxz", Goal::All, false, 1);
    assert_eq!(o.answer.count, Some(17_792));
    assert_eq!(sols.len(), 17_792);
    for s in &sols {
        model.check(s).unwrap();
    }
}

/// A cover whose item `a` has a range, so that it needs Algorithm M.
const RANGED: &str = "kind = \"cover\"\n[rules]\nitems = [\"a\", \"b\"]\noptions = [[\"a\"], [\"a\", \"b\"], [\"b\"]]\nmultiplicity = { a = [1, 2] }\n";

/// Langford pairs for `n` as a TOML cover with the slots listed first, as
/// `puzzles/langford16.toml` is written.
fn langford_slots_first(n: usize) -> String {
    let slots: Vec<String> = (1..=2 * n).map(|j| format!("\"s{j}\"")).collect();
    let nums: Vec<String> = (1..=n).map(|i| format!("\"{i}\"")).collect();
    let mut options = Vec::new();
    for i in 1..=n {
        for j in 1..=2 * n {
            let k = j + i + 1;
            if k > 2 * n || (i == 1 && j > n - 1) {
                break;
            }
            options.push(format!("[\"{i}\", \"s{j}\", \"s{k}\"]"));
        }
    }
    format!(
        "kind = \"cover\"\n[rules]\nitems = [{}, {}]\noptions = [{}]\n",
        slots.join(", "),
        nums.join(", "),
        options.join(", ")
    )
}

/// [`solve`] with the search branching on the first uncovered item, each solution checked.
fn solve_with_branch(
    text: &str,
    strategy: &str,
    goal: Goal,
) -> (
    boardsolve::engine::Outcome,
    Vec<Vec<usize>>,
    boardsolve::kinds::Model,
) {
    use boardsolve::engine::{Limits, Run, Task};
    let mut model = crate::model_of(text, None);
    if let boardsolve::kinds::Model::Cover(m) = &mut model {
        m.branch = boardsolve::dlx::Branch::First;
    }
    let task = Task {
        goal,
        ..Task::default()
    };
    let checked = model
        .solve_checked(strategy, &task, Run::new(Limits::default()), u64::MAX)
        .unwrap_or_else(|e| panic!("{e}"));
    (checked.outcome, checked.solutions, model)
}

/// OEIS A014552 branching on the first item: `dxz` counts by levels and lists from its
/// diagram, `dlx` searches, and all agree; each listed solution is checked.
#[test]
fn langford_pairs_branching_on_the_first_slot() {
    for (n, want) in [
        (3, 1u128),
        (4, 1),
        (5, 0),
        (7, 26),
        (8, 150),
        (11, 17_792),
        (12, 108_144),
    ] {
        let toml = langford_slots_first(n);
        for strategy in ["dxz", "dlx"] {
            let (code, out, err) = crate::run_cli_with(
                &[
                    "-",
                    "--strategy",
                    strategy,
                    "--branch",
                    "first",
                    "--format",
                    "json",
                ],
                Some(&toml),
            );
            assert_eq!(
                code,
                if want == 0 { 1 } else { 0 },
                "n = {n} {strategy}: {err}"
            );
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["count"].as_u64(), Some(want as u64), "n = {n} {strategy}");
        }
        if (1..=1000).contains(&want) {
            let (o, sols, model) = solve_with_branch(&toml, "dxz", Goal::All);
            assert_eq!(o.answer.count, Some(want));
            assert_eq!(sols.len() as u128, want);
            for s in &sols {
                model.check(s).unwrap();
            }
        }
    }
    // The file of n = 16 is what this builds.
    assert!(text("langford16.toml").contains("branch = \"first\""));
}

#[test]
fn branch_takes_fewest_or_first_and_only_exact_cover() {
    let toml = langford_slots_first(4);
    let (code, _, err) = crate::run_cli_with(&["-", "--branch", "sideways"], Some(&toml));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--branch") && err.contains("accepted: fewest"),
        "{err}"
    );
    let in_file = format!("{toml}[solve]\nbranch = \"last\"\n");
    let (code, _, err) = crate::run_cli_with(&["-"], Some(&in_file));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("solve.branch") && err.contains("\"last\""),
        "{err}"
    );
    let (code, _, err) = run_cli(&[&puzzle("queens8.toml"), "--branch", "first"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--branch first: accepted by the exact-cover strategies"),
        "{err}"
    );
    let ranged = RANGED;
    let (code, _, err) = crate::run_cli_with(
        &["-", "--strategy", "dlx", "--branch", "first"],
        Some(ranged),
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("Algorithm M branches on the item of smallest branch degree"),
        "{err}"
    );
    // `solve plan` passes the rule on to every part, and the parts add up.
    let file = std::env::temp_dir().join(format!("langford8-{}.toml", std::process::id()));
    std::fs::write(&file, langford_slots_first(8)).unwrap();
    let file = file.to_str().unwrap();
    let (code, plan, err) = super::run_cli_in_scratch(&[
        "plan",
        file,
        "--parts",
        "3",
        "--strategy",
        "dlx",
        "--branch",
        "first",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut total = 0;
    for k in 1..=3 {
        assert!(
            plan.contains(&format!("--branch first --part {k}/3")),
            "{plan}"
        );
        let part = format!("{k}/3");
        let (code, out, err) = run_cli(&[
            file,
            "--strategy",
            "dlx",
            "--branch",
            "first",
            "--part",
            &part,
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        // A part's record carries its count as a decimal string.
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        total += v["count"].as_str().unwrap().parse::<u64>().unwrap();
    }
    assert_eq!(total, 150);
    std::fs::remove_file(file).unwrap();
    // `fewest` is the default, and saying so changes nothing.
    let (code, out, _) = crate::run_cli_with(&["-", "--branch", "fewest"], Some(&toml));
    assert_eq!(code, 0);
    assert!(out.starts_with("1 solution"), "{out}");
}

/// Listing the 12,988,816 tilings of 8x8 from the diagram outlasts a short time limit: the
/// walk stops at it, with exit 3 and a count marked as partial.
#[test]
fn dxz_listing_from_its_diagram_stops_at_the_time_limit() {
    let (code, out, err) = run_cli(&[
        &puzzle("dominoes8.toml"),
        "--goal",
        "all",
        "--limit",
        "0",
        "--time-limit",
        "0.3",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("[time limit]"), "{out}");
}

#[test]
fn dxz_refuses_multiplicities_and_parts_with_the_reason() {
    let (code, _, err) = run_cli(&[
        &puzzle("pentominoes.toml"),
        "--strategy",
        "dxz",
        "--part",
        "1/2",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("searches no part"), "{err}");
    let ranged = RANGED;
    let (code, _, err) = crate::run_cli_with(&["-", "--strategy", "dxz"], Some(ranged));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("Algorithm M"), "{err}");
}

/// The Dancing Links arrays are counted before they are built: a budget below them is a
/// refusal (exit 2) that says what they would take.
#[test]
fn a_cover_larger_than_the_memory_is_refused_up_front() {
    // A copy of the arrays for each of 1,024 threads: more than the least budget there is.
    let (code, out, err) = run_cli(&[
        &puzzle("pentominoes.toml"),
        "--strategy",
        "dlx",
        "--memory",
        "8M",
        "--threads",
        "1024",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("it would take")
            && err.contains("for the Dancing Links arrays (12,336 item occurrences)")
            && err.contains("more than the memory budget of 8.0 MiB (--memory)"),
        "{err}"
    );
}

/// `bitmask` counts what `dlx` counts on the cover files it takes, and every solution it
/// lists passes the model's check.
#[test]
fn bitmask_counts_what_dlx_counts() {
    for (file, want) in [
        ("pentominoes-unique.toml", 2339u128),
        ("langford11.toml", 17_792),
        ("dominoes8.toml", 12_988_816),
        ("sudoku.toml", 1),
    ] {
        let (o, _, _) = solve(&text(file), None, "bitmask", Goal::Count, false, 1);
        assert_eq!(o.answer.count, Some(want), "{file}");
    }
    let (o, sols, model) = solve(
        &text("pentominoes-unique.toml"),
        None,
        "bitmask",
        Goal::All,
        false,
        1,
    );
    assert_eq!((o.answer.count, sols.len()), (Some(2339), 2339));
    for s in &sols {
        model.check(s).unwrap();
    }
    let (o, mut sols, _) = solve(KNUTH, None, "bitmask", Goal::All, false, 1);
    assert_eq!(o.answer.count, Some(1));
    // The options come in the order the search chose them.
    sols[0].sort_unstable();
    assert_eq!(sols, vec![vec![0, 3, 4]]);
    let (o, sols, _) = solve(
        &text("langford11.toml"),
        None,
        "bitmask",
        Goal::First,
        false,
        1,
    );
    assert_eq!((o.answer.count, sols.len()), (Some(1), 1));
}

/// Random small covers (secondary items among them): `bitmask` and `dlx` agree, and each
/// solution `bitmask` lists is an exact cover.
#[test]
fn bitmask_agrees_with_dlx_on_random_covers() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    for case in 0..200 {
        let primary = 3 + next(10) as usize;
        let secondary = next(4) as usize;
        let n = primary + secondary;
        // Odd cases hold a class: items 0..pieces, every option exactly one of them (as the
        // pieces of a tiling or the rows of N-Queens), which `bitmask` orders first or last.
        let pieces = if case % 2 == 1 {
            1 + next(primary as u64 - 1) as usize
        } else {
            0
        };
        let mut options = Vec::new();
        for _ in 0..(4 + next(30)) {
            let mut o: Vec<usize> = vec![next(primary as u64) as usize];
            if pieces > 0 {
                o = vec![
                    next(pieces as u64) as usize,
                    pieces + next((n - pieces) as u64) as usize,
                ];
            }
            for _ in 0..next(4) {
                let i = pieces + next((n - pieces) as u64) as usize;
                if !o.contains(&i) {
                    o.push(i);
                }
            }
            options.push(
                o.iter()
                    .map(|i| format!("\"i{i}\""))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
        }
        let names = |r: std::ops::Range<usize>| {
            r.map(|i| format!("\"i{i}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let toml = format!(
            "kind = \"cover\"\n[rules]\nitems = [{}]\nsecondary = [{}]\noptions = [[{}]]\n",
            names(0..primary),
            names(primary..n),
            options.join("], [")
        );
        let (dlx, _, _) = solve(&toml, None, "dlx", Goal::Count, false, 1);
        let (bits, sols, model) = solve(&toml, None, "bitmask", Goal::All, false, 1);
        assert_eq!(bits.answer.count, dlx.answer.count, "case {case}: {toml}");
        // Counting (solutions counted where found) on one thread and shared out on two.
        for threads in [1, 2] {
            let (c, _, _) = solve(&toml, None, "bitmask", Goal::Count, false, threads);
            assert_eq!(
                c.answer.count, dlx.answer.count,
                "case {case}, {threads}: {toml}"
            );
        }
        for s in &sols {
            model.check(s).unwrap();
        }
    }
}

/// Colours, multiplicities and more than 512 items are refused with the reason.
#[test]
fn bitmask_refuses_colours_multiplicities_and_size() {
    let coloured = "kind = \"cover\"\n[rules]\nitems = [\"a\"]\nsecondary = [\"x\"]\noptions = [[\"a\", \"x:red\"]]\n";
    for (toml, says) in [
        (coloured, "holds no colours"),
        (RANGED, "other than exactly once"),
    ] {
        let (code, _, err) = crate::run_cli_with(&["-", "--strategy", "bitmask"], Some(toml));
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
    let items: Vec<String> = (0..513).map(|i| format!("\"i{i}\"")).collect();
    let big = format!(
        "kind = \"cover\"\n[rules]\nitems = [{}]\noptions = [[{}]]\n",
        items.join(", "),
        items.join(", ")
    );
    let (code, _, err) = crate::run_cli_with(&["-", "--strategy", "bitmask"], Some(&big));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("513 items; its bitsets hold at most 512"),
        "{err}"
    );
}

/// `dxz`'s memo and its levels grow by doubling; under `ulimit -v` with the default budget
/// (3/4 of it) a growth the system refused aborted the run. Each growth is checked at its
/// peak (the old buffer and the new one) and asked of the system fallibly: the run ends
/// with the memory stop (exit 3), its statistics kept, whether the budget or the system
/// said no.
#[cfg(target_os = "linux")]
#[test]
fn dxz_stops_at_the_memory_it_is_given() {
    let bin = assert_cmd::cargo::cargo_bin("solve");
    let langford = puzzle("langford16.toml");
    for branch in ["first", "fewest"] {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 200000 && exec '{}' '{langford}' --strategy dxz --branch {branch} \
                 --goal count",
                bin.display()
            ))
            .output()
            .unwrap();
        let (stdout, err) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(3), "{branch}: {stdout}{err}");
        assert!(stdout.contains("[memory bound]"), "{branch}: {stdout}");
        assert!(err.contains("memo entries"), "{branch}: {err}");
        // A small budget stops it too, and says which.
        let (code, stdout, err) = run_cli(&[
            &langford,
            "--strategy",
            "dxz",
            "--branch",
            branch,
            "--goal",
            "count",
            "--memory",
            "8M",
        ]);
        assert_eq!(code, 3, "{branch}: {stdout}{err}");
        assert!(
            err.contains("reached the memory budget of 8.0 MiB (--memory)"),
            "{branch}: {err}"
        );
    }
}

/// 130 items of two options each: 2^130 covers, past the 2^128 - 1 that `dxz`'s counters
/// hold (they saturate). The count is that lower bound: `at least` in the text, the
/// saturated count in JSON with `complete` false and `stopped` "counter limit", exit 3;
/// a solution limit or goal first is answered from the diagram as ever.
#[test]
fn a_dxz_count_past_its_counters_is_a_lower_bound() {
    let mut file = (0..130)
        .map(|k| format!("i{k}"))
        .collect::<Vec<_>>()
        .join(" ");
    for k in 0..130 {
        file.push_str(&format!("\ni{k}\ni{k}"));
    }
    let beyond = "340282366920938463463374607431768211455";
    for branch in ["first", "fewest"] {
        let args = [
            "-",
            "--input",
            "knuth",
            "--strategy",
            "dxz",
            "--branch",
            branch,
            "--goal",
            "count",
        ];
        let (code, out, err) = crate::run_cli_with(&args, Some(&file));
        assert_eq!(code, 3, "{branch}: {out}{err}");
        assert!(
            out.starts_with(
                "at least 340,282,366,920,938,463,463,374,607,431,768,211,455 solutions (the \
                 count reached 2^128 - 1, the most its counters hold) [counter limit]"
            ),
            "{branch}: {out}"
        );
        let json = [&args[..], &["--format", "json"]].concat();
        let (code, out, err) = crate::run_cli_with(&json, Some(&file));
        assert_eq!(code, 3, "{branch}: {out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["count"], beyond, "{branch}: {out}");
        assert_eq!(v["complete"], false, "{branch}: {out}");
        assert_eq!(v["stopped"], "counter limit", "{branch}: {out}");
        assert_eq!(v["status"], "limit", "{branch}: {out}");
    }
    let (code, out, err) = crate::run_cli_with(
        &[
            "-",
            "--input",
            "knuth",
            "--strategy",
            "dxz",
            "--goal",
            "count",
            "--limit",
            "5",
        ],
        Some(&file),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("at least 5 solutions (the count stopped at --limit 5)"),
        "{out}"
    );
    let (code, out, err) = crate::run_cli_with(
        &[
            "-",
            "--input",
            "knuth",
            "--strategy",
            "dxz",
            "--goal",
            "first",
        ],
        Some(&file),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 solution"), "{out}");
}
