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

use boardsolve::engine::{Goal, Limits, Outcome, Run, Task};
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
