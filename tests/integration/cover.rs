//! The cover kind: exact cover straight from the file, through the real reader.

use boardsolve::engine::{Goal, Status};

use crate::{puzzle, solve};

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
