//! Domination: knights on n x n, plain and independent, one entry per strategy and size.
//! Optima are asserted so a fast wrong answer cannot pass for a speed-up. Larger boards
//! (14, 16, 20) are timed with hyperfine through the binary; see the README.

use boardsolve::engine::{Goal, Limits, Run, Task};
use boardsolve::kinds::Model;
use boardsolve::spec::{Overrides, Spec};
use criterion::{Criterion, criterion_group, criterion_main};

fn knights(n: usize, independent: bool) -> Model {
    let file = format!("{}/puzzles/knights8.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&file).unwrap();
    let overrides = Overrides {
        size: Some(n),
        set: vec![format!("rules.independent={independent}")],
        ..Overrides::default()
    };
    Model::compile(&Spec::parse(&file, &text, &overrides).unwrap()).unwrap()
}

fn optimum(m: &Model, strategy: &str) -> u64 {
    let task = Task {
        goal: Goal::Minimize,
        ..Task::default()
    };
    let mut run = Run::new(Limits::default());
    let answer = m.solve(strategy, &task, &mut run).unwrap();
    run.finish(strategy, answer).answer.optimum.unwrap()
}

fn domination(c: &mut Criterion) {
    let mut group = c.benchmark_group("domination");
    group.sample_size(10);
    // (strategy, independent, n, optimum): A342576 independent, A006075 plain.
    let cases: &[(&str, bool, usize, u64)] = &[
        ("bnb", true, 8, 14),
        ("bnb", true, 10, 16),
        ("bnb", true, 12, 24),
        ("bnb", true, 13, 29),
        ("bnb", false, 8, 12),
        ("bnb", false, 10, 16),
        ("bnb", false, 12, 24),
        ("bnb", false, 13, 28),
        ("dlx", true, 6, 8),
        ("dlx", true, 8, 14),
        ("dlx", false, 6, 8),
        ("dlx", false, 7, 10),
        ("blocks", true, 8, 14),
        ("blocks", false, 7, 10),
    ];
    for &(s, independent, n, opt) in cases {
        let m = knights(n, independent);
        let name = if independent { "independent" } else { "plain" };
        group.bench_function(format!("{s}/knights-{name}{n}"), |b| {
            b.iter(|| assert_eq!(optimum(&m, s), opt))
        });
    }
    group.finish();
}

criterion_group!(benches, domination);
criterion_main!(benches);
