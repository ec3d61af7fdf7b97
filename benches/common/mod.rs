//! What every bench needs: a shipped puzzle compiled with overrides, and a count. Each bench
//! uses part of it, hence the allowance.
#![allow(dead_code)]

use boardsolve::engine::{Limits, Run, Task};
use boardsolve::kinds::Model;
use boardsolve::spec::{Overrides, Spec};

/// `puzzles/<path>` compiled as `solve` would, with `--size` and `--set key=value` overrides.
pub fn model(path: &str, size: Option<usize>, set: &[String]) -> Model {
    let file = format!("{}/puzzles/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&file).unwrap();
    let overrides = Overrides {
        size,
        set: set.to_vec(),
        ..Overrides::default()
    };
    Model::compile(&Spec::parse(&file, &text, &overrides).unwrap()).unwrap()
}

/// The count one strategy gives (asserted by the caller, so a fast wrong answer cannot pass
/// for a speed-up), solved as `solve` solves: every solution checked.
pub fn count(m: &Model, strategy: &str, task: &Task) -> u128 {
    let run = Run::new(Limits::default());
    let checked = m.solve_checked(strategy, task, run, 0).unwrap();
    checked.outcome.answer.count.unwrap()
}
