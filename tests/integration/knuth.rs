//! Knuth's exact-cover format: read directly (`*.dlx`, `--input knuth`), solutions printed as
//! his DLX1 prints them (`--format knuth`), and any cover puzzle written in it
//! (`--format knuth-input`) and read back to the same search: counts, nodes and updates.

use boardsolve::dlx::Problem;
use boardsolve::engine::{Goal, Limits, Outcome, Run, Task};
use boardsolve::kinds::Model;
use boardsolve::spec::{Overrides, Spec};

use crate::{puzzle, run_cli, run_cli_with};

/// A text in Knuth's format compiled as the command line compiles a *.dlx file.
fn knuth_model(text: &str) -> Model {
    let spec =
        Spec::parse_knuth("t.dlx", text, &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
    Model::compile(&spec).unwrap_or_else(|e| panic!("{e}"))
}

fn toml_model(text: &str) -> Model {
    crate::model_of(text, None)
}

/// Goal all with dlx: the outcome and every solution (checked by the model's validator).
fn all(model: &Model) -> (Outcome, Vec<Vec<usize>>) {
    let task = Task {
        goal: Goal::All,
        ..Task::default()
    };
    let c = model
        .solve_checked("dlx", &task, Run::new(Limits::default()), u64::MAX)
        .unwrap_or_else(|e| panic!("{e}"));
    (c.outcome, c.solutions)
}

/// What a search found that both formats must agree on: the count, nodes, updates and the
/// solutions drawn (option lists with their colours).
fn fruit(model: &Model) -> (Option<u128>, u64, Option<u64>, Vec<String>) {
    let (o, sols) = all(model);
    let pictures = sols
        .iter()
        .map(|s| format!("{:?}", model.picture(s)))
        .collect();
    (
        o.answer.count,
        o.stats.nodes,
        o.stats.counter("updates"),
        pictures,
    )
}

fn problem(model: &Model) -> &Problem {
    match model {
        Model::Cover(m) => &m.problem,
        _ => panic!("a cover model"),
    }
}

/// An item as data: its name, whether it is primary, its range.
type Item = (String, bool, (u32, u32));

/// The problem as data: items, and options as item names with colour names; equal for two
/// models that are one puzzle.
fn layout(model: &Model) -> (Vec<Item>, Vec<Vec<String>>) {
    let p = problem(model);
    let items = (0..p.num_items())
        .map(|i| (p.item_name(i).to_string(), p.is_primary(i), p.range(i)))
        .collect();
    let options = (0..p.num_options())
        .map(|k| match model.picture(&[k]) {
            boardsolve::render::Picture::Options(mut o) => o.remove(0),
            _ => unreachable!(),
        })
        .collect();
    (items, options)
}

/// The JSON answer of a run: count, nodes, updates.
fn json_counts(args: &[&str], stdin: Option<&str>) -> (u64, u64, u64) {
    let mut a = args.to_vec();
    // Updates are Dancing Links' measure: the run is dlx's, whatever auto would pick.
    if !a.contains(&"--strategy") {
        a.extend(["--strategy", "dlx"]);
    }
    a.extend(["--format", "json", "--quiet"]);
    let (code, out, err) = run_cli_with(&a, stdin);
    assert!(code == 0 || code == 3, "{args:?}: {out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    (
        v["count"].as_u64().unwrap(),
        v["stats"]["nodes"].as_u64().unwrap(),
        v["stats"]["updates"].as_u64().unwrap(),
    )
}

/// A puzzle written in Knuth's format by `--format knuth-input`.
fn written(args: &[&str]) -> String {
    let mut a = args.to_vec();
    a.extend(["--format", "knuth-input"]);
    let (code, out, err) = run_cli(&a);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

const KNUTH_TOML: &str = r#"
kind = "cover"
[rules]
items = ["a", "b", "c", "d", "e", "f", "g"]
options = [["c", "e"], ["a", "d", "g"], ["b", "c", "f"], ["a", "d", "f"], ["b", "g"], ["d", "e", "g"]]
"#;

#[test]
fn knuths_seven_item_example_has_one_solution() {
    let file = puzzle("knuth7.dlx");
    let text = std::fs::read_to_string(&file).unwrap();
    let model = knuth_model(&text);
    let (o, sols) = all(&model);
    assert_eq!(o.answer.count, Some(1));
    // Options 0 (c e), 3 (a d f) and 4 (b g), as from the TOML file.
    assert_eq!(sols, vec![vec![0, 3, 4]]);
    assert_eq!(fruit(&model), fruit(&toml_model(KNUTH_TOML)));
    assert_eq!(layout(&model), layout(&toml_model(KNUTH_TOML)));
    // The file's first comment line is the title.
    let (code, out, _) = run_cli(&[&file, "--goal", "all", "--quiet"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Knuth's 7-item example"), "{out}");
    assert!(out.contains("\nc e\na d f\nb g\n"), "{out}");
}

#[test]
fn solutions_print_as_dlx1_prints_them() {
    let file = puzzle("knuth7.dlx");
    let (code, out, err) = run_cli(&[&file, "--goal", "all", "--format", "knuth", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "1:\n c e\n a d f\n b g\nAltogether 1 solution, 29 updates, 6 nodes.\n"
    );
    // Goal count prints the statistics line alone, as DLX1 does without `m`; colours show
    // as written.
    let (_, out, _) = run_cli_with(
        &["-", "--input", "knuth", "--format", "knuth", "--quiet"],
        Some("a b | x\na x:0\nb x:0\na b\n"),
    );
    assert_eq!(out, "Altogether 2 solutions, 6 updates, 4 nodes.\n");
    let (_, out, _) = run_cli_with(
        &[
            "-", "--input", "knuth", "--format", "knuth", "--goal", "all", "--quiet",
        ],
        Some("a b | x\na x:0\nb x:0\na b\n"),
    );
    assert_eq!(
        out,
        "1:\n a x:0\n b x:0\n2:\n a b\nAltogether 2 solutions, 6 updates, 4 nodes.\n"
    );
    // Only exact covers have options to print.
    let (code, _, err) = run_cli(&[&puzzle("queens8.toml"), "--format", "knuth"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--format knuth prints the chosen options"),
        "{err}"
    );
}

/// `--format knuth` refused, `knuth-input` named as what the kinds write: this puzzle where
/// its kind is one, else every kind that is (sudoku among them).
#[test]
fn the_knuth_refusal_names_the_kinds_knuth_input_writes() {
    for name in [
        "sudoku9.toml",
        "killer.toml",
        "queens8.toml",
        "pentominoes6x10.toml",
    ] {
        let (code, _, err) = run_cli(&[&puzzle(name), "--format", "knuth"]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.contains("`--format knuth-input` writes this puzzle as an exact cover"),
            "{name}: {err}"
        );
    }
    let (code, _, err) = run_cli(&[&puzzle("tour5x5.toml"), "--format", "knuth"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("writes a puzzle of kind independent, cover, tiling or sudoku as an exact"),
        "{err}"
    );
    let (code, _, err) = run_cli(&[&puzzle("tour5x5.toml"), "--format", "knuth-input"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the kinds independent, cover, tiling and sudoku are"),
        "{err}"
    );
}

/// What the refusals list as the kinds `--format knuth-input` writes is what
/// `Model::exact_cover` does: a puzzle of each kind (from puzzles/) is written exactly where
/// its kind is listed, and refused as having no exact cover elsewhere.
#[test]
fn the_kinds_listed_as_exact_covers_are_those_written_as_one() {
    use boardsolve::kinds::{NoExactCover, writes_exact_cover};
    use boardsolve::spec::Kind;
    let mut seen = Vec::new();
    let dir = format!("{}/puzzles", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let Ok(spec) = Spec::parse("t.toml", &text, &Overrides::default()) else {
            continue;
        };
        let kind = spec.kind();
        // One puzzle a kind, small enough to write in a moment.
        if seen.contains(&kind) || text.len() > 20_000 {
            continue;
        }
        let Ok(model) = Model::compile(&spec) else {
            continue;
        };
        seen.push(kind);
        let written = model.exact_cover(kind.default_goal(), false);
        let f = f.display();
        if writes_exact_cover(kind) {
            assert!(written.is_ok(), "{f}: {:?}", written.err());
        } else {
            let why = written.err().unwrap_or_else(|| panic!("{f}: written"));
            let boardsolve::engine::Refusal::Kind(k) = &why else {
                panic!("{f}: {why:?}");
            };
            assert_eq!(k.get::<NoExactCover>(), Some(&NoExactCover(kind)), "{f}");
        }
    }
    seen.sort_by_key(|k| k.name());
    let mut all = Kind::ALL.to_vec();
    all.sort_by_key(|k| k.name());
    assert_eq!(seen, all, "a puzzle of every kind");
}

/// Knuth's example for DLX3 (multiplicities and colours): its unique solution is
/// `A C X:1 Y:1`, `B X:1`, `C Y:1`. And the TOML puzzle that says the same finds the same,
/// node for node.
#[test]
fn colours_and_multiplicities_agree_with_the_toml_puzzle() {
    let knuth = "| A simple example of color controls\nA B 2:3|C | X Y\nA B X:0 Y:0\n\
                 A C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";
    let toml = r#"
kind = "cover"
[rules]
items = ["A", "B", "C"]
secondary = ["X", "Y"]
options = [["A", "B", "X:0", "Y:0"], ["A", "C", "X:1", "Y:1"], ["C", "X:0"], ["B", "X:1"], ["C", "Y:1"]]
[rules.multiplicity]
C = [2, 3]
"#;
    let (k, t) = (knuth_model(knuth), toml_model(toml));
    assert_eq!(layout(&k), layout(&t));
    let f = fruit(&k);
    assert_eq!(f, fruit(&t));
    assert_eq!(f.0, Some(1));
    assert_eq!(
        f.3,
        [r#"Options([["A", "C", "X:1", "Y:1"], ["B", "X:1"], ["C", "Y:1"]])"#]
    );
}

/// Small random problems with colours and ranges, each written both ways: one layout, one
/// search (count, nodes, updates, solutions).
#[test]
fn random_covers_agree_in_both_formats() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut searched = 0;
    for case in 0..40 {
        let primary = 3 + next(5) as usize;
        let secondary = next(4) as usize;
        let ranged = case % 2 == 1;
        let mut first = Vec::new();
        let mut ranges = Vec::new();
        for i in 0..primary {
            let (lo, hi) = if ranged && next(3) == 0 {
                let hi = 1 + next(3) as u32;
                (next(u64::from(hi) + 1) as u32, hi)
            } else {
                (1, 1)
            };
            ranges.push((lo, hi));
            first.push(match (lo, hi) {
                (1, 1) => format!("p{i}"),
                (l, h) if l == h => format!("{h}|p{i}"),
                (l, h) => format!("{l}:{h}|p{i}"),
            });
        }
        if secondary > 0 {
            first.push("|".into());
            first.extend((0..secondary).map(|j| format!("s{j}")));
        }
        let mut knuth = format!("| case {case}\n{}\n", first.join(" "));
        let mut options = Vec::new();
        for _ in 0..(4 + next(14)) {
            let mut opt = vec![format!("p{}", next(primary as u64))];
            for i in 0..primary {
                if next(3) == 0 && !opt.contains(&format!("p{i}")) {
                    opt.push(format!("p{i}"));
                }
            }
            for j in 0..secondary {
                match next(4) {
                    0 => opt.push(format!("s{j}")),
                    1 => opt.push(format!("s{j}:{}", ["red", "blue"][next(2) as usize])),
                    _ => {}
                }
            }
            knuth.push_str(&opt.join(" "));
            knuth.push('\n');
            options.push(opt);
        }
        let quoted = |v: &[String]| {
            v.iter()
                .map(|s| format!("\"{s}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let names = |prefix: &str, n: usize| -> Vec<String> {
            (0..n).map(|i| format!("{prefix}{i}")).collect()
        };
        let mut toml = format!(
            "kind = \"cover\"\n[rules]\nitems = [{}]\nsecondary = [{}]\noptions = [{}]\n",
            quoted(&names("p", primary)),
            quoted(&names("s", secondary)),
            options
                .iter()
                .map(|o| format!("[{}]", quoted(o)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        toml.push_str("[rules.multiplicity]\n");
        for (i, (lo, hi)) in ranges.iter().enumerate() {
            if (*lo, *hi) != (1, 1) {
                toml.push_str(&format!("p{i} = [{lo}, {hi}]\n"));
            }
        }
        let (k, t) = (knuth_model(&knuth), toml_model(&toml));
        assert_eq!(layout(&k), layout(&t), "case {case}:\n{knuth}");
        let f = fruit(&k);
        assert_eq!(f, fruit(&t), "case {case}:\n{knuth}");
        searched += usize::from(f.0.unwrap_or(0) > 0);
        // And what `--format knuth-input` writes of it reads back the same.
        let mut out = Vec::new();
        boardsolve::render::write_knuth_input(&mut out, Some("case"), problem(&t), &colours(&t))
            .unwrap();
        let back = knuth_model(&String::from_utf8(out).unwrap());
        assert_eq!(layout(&back), layout(&t), "case {case}");
    }
    assert!(searched >= 5, "only {searched} of the cases had solutions");
}

fn colours(model: &Model) -> Vec<String> {
    match model {
        Model::Cover(m) => m.colours().to_vec(),
        _ => Vec::new(),
    }
}

/// Every error of the format, one by one: the file, line and column, what is wrong and what
/// is accepted, exit status 2.
#[test]
fn each_error_names_its_line_and_column() {
    let cases: &[(&str, &str, &[&str])] = &[
        ("a b\na c\n", "2:3", &["\"c\" is not an item", "on line 1"]),
        ("| c\na | x\n\nx\n", "4:1", &["no primary item", "accepted"]),
        (
            "a b\n| c\nb a b\n",
            "3:5",
            &["item \"b\" appears twice", "each once"],
        ),
        (
            "a | x\nx a:red\n",
            "2:4",
            &["primary item and takes no colour"],
        ),
        ("a | x\na x:\n", "2:4", &["colour after ':' is empty"]),
        (
            "a | x\na x:r:g\n",
            "2:5",
            &[
                "\"x:r:g\" (option 1): an item takes one colour",
                "holds no ':' or '|'",
                "accepted: name:colour",
            ],
        ),
        ("a | x\na :red\n", "2:3", &["no item name before ':'"]),
        (
            "3:2|a\na\n",
            "1:1",
            &["lower bound 3 exceeds the upper bound 2", "0 <= a <= b"],
        ),
        ("b 0|a\na\n", "1:3", &["upper bound is 0"]),
        ("b 0:0|a\na\n", "1:3", &["upper bound is 0"]),
        ("x|a\na\n", "1:1", &["\"x\" is not a whole number"]),
        ("1:y|a\na\n", "1:1", &["\"y\" is not a whole number"]),
        ("-1:2|a\na\n", "1:1", &["\"-1\" is not a whole number"]),
        ("9999999999|a\na\n", "1:1", &["too large"]),
        ("2|\na\n", "1:1", &["names no item"]),
        ("a | 2|x\na\n", "1:6", &["for a primary item"]),
        ("a | x |\na\n", "1:7", &["a second `|`"]),
        ("a b a\na\n", "1:5", &["item \"a\" is declared twice"]),
        ("a | x a\na\n", "1:7", &["item \"a\" is declared twice"]),
        ("a x:y\na\n", "1:4", &["holds no ':' or '|'"]),
        ("| just a comment\n\n", "3:1", &["no items", "first line"]),
        ("", "1:1", &["no items"]),
    ];
    for &(text, at, needles) in cases {
        let (code, out, err) = run_cli_with(&["-", "--input", "knuth"], Some(text));
        assert_eq!(code, 2, "{text:?}: {out}{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(
            err.starts_with(&format!("error: <stdin>:{at}: ")),
            "{text:?}: expected <stdin>:{at}: in {err}"
        );
        for n in needles {
            assert!(err.contains(n), "{text:?}: expected {n:?} in {err}");
        }
    }
    // A file is named by its path; `check` refuses what solving refuses.
    let dir = temp_dir("errors");
    let path = dir.join("bad.xcc");
    std::fs::write(&path, "a b\na\nb c\n").unwrap();
    let path = path.to_str().unwrap();
    for args in [vec![path], vec!["check", path]] {
        let (code, _, err) = run_cli(&args);
        assert_eq!(code, 2);
        assert!(
            err.contains(&format!("{path}:3:3: \"c\" is not an item")),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn temp_dir(what: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("boardsolve-knuth-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Which files are read in Knuth's format: *.dlx, *.xcc, *.mcc, or `--input knuth`;
/// `--input toml` reads a *.dlx file as TOML. Flags for keys or boards are refused.
#[test]
fn input_format_by_extension_or_flag() {
    let dir = temp_dir("input");
    let text = std::fs::read_to_string(puzzle("knuth7.dlx")).unwrap();
    for name in ["a.dlx", "a.XCC", "a.mcc", "a.txt"] {
        let path = dir.join(name);
        std::fs::write(&path, &text).unwrap();
        let path = path.to_str().unwrap();
        let (code, out, err) = run_cli(&[path, "--quiet"]);
        if name == "a.txt" {
            assert_eq!(code, 2, "{out}");
            let (code, out, _) = run_cli(&[path, "--input", "knuth", "--quiet"]);
            assert_eq!((code, out.ends_with("1 solution\n")), (0, true), "{out}");
        } else {
            assert_eq!(code, 0, "{name}: {err}");
            assert!(out.ends_with("1 solution\n"), "{out}");
        }
    }
    let dlx = dir.join("a.dlx");
    let dlx = dlx.to_str().unwrap();
    let (code, _, err) = run_cli(&[dlx, "--input", "toml"]);
    assert_eq!(code, 2);
    assert!(err.contains(&format!("{dlx}:")), "{err}");
    // Standard input is TOML unless named.
    let (code, _, _) = run_cli_with(&["-"], Some(&text));
    assert_eq!(code, 2);
    for (args, says) in [
        (vec!["--set", "solve.goal=all"], "no keys to set"),
        (vec!["--size", "8"], "no board"),
        (
            vec!["--goal", "maximize"],
            "goal \"maximize\" does not apply",
        ),
    ] {
        let mut a = vec![dlx];
        a.extend(args);
        let (code, _, err) = run_cli(&a);
        assert_eq!(code, 2, "{a:?}");
        assert!(err.contains(says), "{a:?}: {err}");
    }
    // The goal, limits and parts come from the command line as for any file.
    let (code, out, _) = run_cli(&[dlx, "--goal", "first", "--format", "knuth", "--quiet"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("1:\n c e\n"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The cover puzzles shipped in puzzles/, written in Knuth's format and read back: the same
/// items, ranges and options, and the same search (count, nodes, updates).
#[test]
fn cover_puzzles_round_trip() {
    for name in ["sudoku.toml", "pentominoes.toml", "pentominoes-unique.toml"] {
        let file = puzzle(name);
        let text = written(&[&file]);
        let toml = std::fs::read_to_string(&file).unwrap();
        assert_eq!(
            layout(&knuth_model(&text)),
            layout(&toml_model(&toml)),
            "{name}"
        );
        // The title travels as the first comment line.
        let title = toml_model_title(&toml);
        assert!(text.starts_with(&format!("| {title}\n")), "{name}");
        // The whole pentominoes take seconds: both searches stop at one node limit, where
        // their counts must agree all the same (on one thread, where the limit is exact).
        let limit: &[&str] = if name == "pentominoes.toml" {
            &["--node-limit", "300000", "--threads", "1"]
        } else {
            &[]
        };
        let mut toml_args = vec![file.as_str()];
        toml_args.extend(limit);
        let mut knuth_args = vec!["-", "--input", "knuth"];
        knuth_args.extend(limit);
        let ours = json_counts(&toml_args, None);
        assert_eq!(ours, json_counts(&knuth_args, Some(&text)), "{name}");
        match name {
            "sudoku.toml" => assert_eq!(ours, (1, 82, 873)),
            "pentominoes-unique.toml" => assert_eq!((ours.0, ours.1), (2339, 904_970)),
            _ => assert_eq!(ours.1, 300_000),
        }
    }
}

fn toml_model_title(toml: &str) -> String {
    Spec::parse("t.toml", toml, &Overrides::default())
        .unwrap()
        .title
        .unwrap()
}

/// N-Queens as the independent kind's dlx strategy builds it, written in Knuth's format:
/// rows and columns from the centre outwards, so the file read back makes DLX1's node and
/// update counts (known-answers.md), as the strategy itself does.
#[test]
fn queens_written_as_exact_cover_give_dlx1_counts() {
    let queens = puzzle("queens8.toml");
    for (n, count, nodes, updates) in [(8, 92, 1_049, 16_680), (10, 724, 11_578, 198_264)] {
        let size = n.to_string();
        let text = written(&[&queens, "--size", &size]);
        assert!(text.starts_with("| Eight queens"), "{text}");
        let want = (count, nodes, updates);
        assert_eq!(
            json_counts(&["-", "--input", "knuth"], Some(&text)),
            want,
            "N = {n}"
        );
        assert_eq!(
            json_counts(&[&queens, "--size", &size, "--strategy", "dlx"], None),
            want,
            "N = {n}"
        );
    }
    // Parts of the file read back add up as the strategy's do; their records carry
    // `--input knuth`, so that a missing part can be run alike.
    let text = written(&[&queens]);
    let mut sum = (0, 0);
    for part in ["1/3", "2/3", "3/3"] {
        let args = ["-", "--input", "knuth", "--part", part, "--format", "json"];
        let (code, out, err) = run_cli_with(&args, Some(&text));
        assert_eq!(code, 0, "{err}");
        let record: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(record["args"], serde_json::json!(["--input", "knuth"]));
        let count: u64 = record["count"].as_str().unwrap().parse().unwrap();
        sum = (sum.0 + count, sum.1 + record["nodes"].as_u64().unwrap());
    }
    assert_eq!(sum, (92, 1_049));
}

/// What cannot be written is refused before anything is written: kinds without one exact
/// cover, names Knuth's format cannot hold. Names beyond his 8 characters are written, with
/// a note.
#[test]
fn knuth_input_refusals_and_notes() {
    let (code, out, err) = run_cli(&[&puzzle("knights8.toml"), "--format", "knuth-input"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("kind \"domination\" is not written"), "{err}");
    let bar = "kind = \"cover\"\n[rules]\nitems = [\"a|b\"]\noptions = [[\"a|b\"]]\n";
    let (code, out, err) = run_cli_with(&["-", "--format", "knuth-input"], Some(bar));
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("item \"a|b\" cannot be written"), "{err}");
    let long = "kind = \"cover\"\n[rules]\nitems = [\"position9\"]\noptions = [[\"position9\"]]\n";
    let (code, out, err) = run_cli_with(&["-", "--format", "knuth-input"], Some(long));
    assert_eq!((code, out.as_str()), (0, "position9\nposition9\n"), "{err}");
    assert!(err.contains("longer than 8 characters"), "{err}");
    let (_, _, err) = run_cli_with(&["-", "--format", "knuth-input", "--quiet"], Some(long));
    assert_eq!(err, "");
}
