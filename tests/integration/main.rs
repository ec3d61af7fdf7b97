//! One integration-test binary (as ripgrep does): modules by subject, shared helpers here.

mod bad_input;
mod cli;
mod cover;
mod dlx;
mod domination;
mod engines;
mod independent;
mod layers;
mod lines;
mod parts;
mod tour;
mod validate;

use boardsolve::engine::{Goal, Limits, Outcome, Run, Status, Task};
use boardsolve::kinds::Model;
use boardsolve::spec::{Overrides, Spec};

/// Solve a puzzle text with one strategy; solutions (first/all) are collected.
pub fn solve(
    text: &str,
    size: Option<usize>,
    strategy: &str,
    goal: Goal,
    unique: bool,
    threads: usize,
) -> (Outcome, Vec<Vec<usize>>, Model) {
    let overrides = Overrides {
        size,
        ..Overrides::default()
    };
    let spec = Spec::parse("test.toml", text, &overrides).unwrap_or_else(|e| panic!("{e}"));
    let model = Model::compile(&spec).unwrap_or_else(|e| panic!("{e}"));
    let task = Task {
        goal,
        unique,
        threads,
        ..Task::default()
    };
    let run = Run::new(Limits {
        solutions: (goal == Goal::First).then_some(1),
        ..Limits::default()
    });
    // Every solution is checked by the model's validator on its way out, as the CLI does.
    let checked = model
        .solve_checked(strategy, &task, run, u64::MAX)
        .unwrap_or_else(|e| panic!("{e}"));
    let (outcome, sols) = (checked.outcome, checked.solutions);
    (outcome, sols, model)
}

/// The path of a puzzle shipped in puzzles/.
/// Run the `solve` binary: exit status, standard output, standard error.
pub fn run_cli(args: &[&str]) -> (i32, String, String) {
    run_cli_with(args, None)
}

/// `run_cli` with text on standard input.
pub fn run_cli_with(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = assert_cmd::Command::cargo_bin("solve").unwrap();
    cmd.args(args);
    if let Some(s) = stdin {
        cmd.write_stdin(s);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn puzzle(name: &str) -> String {
    format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Whether `strategy` applies to the puzzle with goal count.
pub fn applies(text: &str, strategy: &str) -> bool {
    let spec = Spec::parse("test.toml", text, &Overrides::default()).unwrap();
    let model = Model::compile(&spec).unwrap();
    model
        .strategies(&Task::default())
        .iter()
        .any(|s| s.name == strategy && s.applies.is_ok())
}

/// One part (`--part I/N`, or `I/N,J/M` with `sub`) of a puzzle text, every solution it
/// reports (goal all) checked by the model's validator on its way out.
pub fn solve_part(
    text: &str,
    strategy: &str,
    goal: Goal,
    threads: usize,
    part: (usize, usize),
    sub: Option<(usize, usize)>,
) -> (Outcome, Vec<Vec<usize>>) {
    let spec = Spec::parse("test.toml", text, &Overrides::default()).unwrap();
    let model = Model::compile(&spec).unwrap();
    let task = Task {
        goal,
        threads,
        part: Some(part),
        subpart: sub,
        ..Task::default()
    };
    let checked = model
        .solve_checked(strategy, &task, Run::new(Limits::default()), u64::MAX)
        .unwrap_or_else(|e| panic!("{strategy} part {part:?},{sub:?}: {e}"));
    (checked.outcome, checked.solutions)
}

/// The parts of a split search against one whole run (one thread): for N in 1, 2, 3 and 7,
/// and part 2/3 split in 4, the parts' counts (goal all: their solutions, each checked) add
/// up to the whole's, every part of one N cuts one list (the same subtrees and fingerprint,
/// the parts alternating one thread and two), and with `exact_nodes` their nodes add up to
/// the whole run's too.
pub fn parts_add_up(text: &str, strategy: &str, goal: Goal, exact_nodes: bool) {
    use boardsolve::engine::PartialWork;
    let (whole, sols, _) = solve(text, None, strategy, goal, false, 1);
    assert_eq!(whole.status, Status::Solved, "{strategy}");
    let want = whole.answer.count.unwrap();
    if goal == Goal::All {
        assert_eq!(sols.len() as u128, want);
    }
    let one = |threads, part, sub| {
        let (o, sols) = solve_part(text, strategy, goal, threads, part, sub);
        let name = format!("{strategy} part {part:?},{sub:?} threads {threads}");
        assert_eq!(o.status, Status::Part, "{name}");
        let p = o.answer.partial.clone().unwrap();
        assert_eq!(p.work, PartialWork::Counted, "{name}");
        let c = o.answer.count.unwrap();
        if goal == Goal::All {
            assert_eq!(sols.len() as u128, c, "{name}");
        }
        (c, o.stats.nodes, p)
    };
    for n in [1, 2, 3, 7] {
        let (mut count, mut nodes, mut list) = (0, 0, None);
        let mut taken = 0;
        for i in 1..=n {
            let (c, k, p) = one(1 + i % 2, (i, n), None);
            assert!(list.is_none_or(|l| l == p.list), "{strategy} {i}/{n}");
            list = Some(p.list);
            count += c;
            nodes += k;
            taken += p.taken;
        }
        let list = list.unwrap();
        assert_eq!(taken, list.subtrees, "{strategy} n = {n}");
        assert_eq!(count, want, "{strategy} n = {n}");
        if exact_nodes {
            assert_eq!(nodes, whole.stats.nodes, "{strategy} n = {n}");
        }
        // The same list on two threads.
        let (_, _, p) = one(2, (1, n), None);
        assert_eq!(p.list, list, "{strategy} n = {n}, two threads");
    }
    let (c, k, _) = one(1, (2, 3), None);
    let (mut count, mut nodes, mut sub) = (0, 0, None);
    for j in 1..=4 {
        let (cj, kj, p) = one(1 + j % 2, (2, 3), Some((j, 4)));
        let s = p.subpart.unwrap();
        assert!(
            sub.is_none_or(|f| f == s.fingerprint),
            "{strategy} 2/3,{j}/4"
        );
        sub = Some(s.fingerprint);
        count += cj;
        nodes += kj;
    }
    assert_eq!(count, c, "{strategy} 2/3 in 4");
    if exact_nodes {
        assert_eq!(nodes, k, "{strategy} 2/3 in 4");
    }
}
