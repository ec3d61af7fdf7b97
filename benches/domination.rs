//! Domination: knights on n x n, plain and independent, one entry per strategy and size.
//! Optima are asserted so a fast wrong answer cannot pass for a speed-up. bnb also runs on
//! two threads (`bnb-2t`); `bands` is bnb with the band bound. Larger boards (16, 20) are
//! timed with hyperfine through the binary; see the README.

use boardsolve::engine::{Goal, Limits, Run, Task};
use boardsolve::kinds::Model;
use criterion::{Criterion, criterion_group, criterion_main};

mod common;

fn knights(n: usize, independent: bool) -> Model {
    let set = [format!("rules.independent={independent}")];
    common::model("knights8.toml", Some(n), &set)
}

fn optimum(m: &Model, strategy: &str, threads: usize) -> u64 {
    let task = Task {
        goal: Goal::Minimize,
        threads,
        ..Task::default()
    };
    let mut run = Run::new(Limits::default());
    let answer = m.solve(strategy, &task, &mut run).unwrap();
    run.finish(strategy, answer).answer.optimum.unwrap()
}

fn domination(c: &mut Criterion) {
    let mut group = c.benchmark_group("domination");
    group.sample_size(10);
    // (strategy, threads, independent, n, optimum): A342576 independent, A006075 plain.
    let cases: &[(&str, usize, bool, usize, u64)] = &[
        ("bnb", 1, true, 8, 14),
        ("bnb", 1, true, 10, 16),
        ("bnb", 1, true, 12, 24),
        ("bnb", 1, true, 13, 29),
        ("bnb", 1, true, 14, 33),
        ("bnb", 2, true, 14, 33),
        ("bnb", 1, true, 15, 36),
        ("bnb", 2, true, 16, 40),
        ("bnb", 1, false, 8, 12),
        ("bnb", 1, false, 10, 16),
        ("bnb", 1, false, 12, 24),
        ("bnb", 1, false, 13, 28),
        ("bnb", 1, false, 14, 32),
        ("bnb", 2, false, 14, 32),
        ("bnb", 1, false, 15, 36),
        ("bands", 1, true, 12, 24),
        ("bands", 1, false, 12, 24),
        ("bands", 1, false, 14, 32),
        ("dlx", 1, true, 6, 8),
        ("dlx", 1, true, 8, 14),
        ("dlx", 1, false, 6, 8),
        ("dlx", 1, false, 7, 10),
        ("blocks", 1, true, 8, 14),
        ("blocks", 1, false, 7, 10),
    ];
    for &(s, threads, independent, n, opt) in cases {
        let m = knights(n, independent);
        let name = if independent { "independent" } else { "plain" };
        let label = if threads > 1 {
            format!("{s}-{threads}t")
        } else {
            s.to_string()
        };
        group.bench_function(format!("{label}/knights-{name}{n}"), |b| {
            b.iter(|| assert_eq!(optimum(&m, s, threads), opt))
        });
    }
    group.finish();
}

/// The first incumbent of `bnb` (greedy rounds, then the local search with the patience
/// `bnb` gives it) on boards the search does not prove: it must reach the published optimum.
fn first_incumbent(c: &mut Criterion) {
    let mut group = c.benchmark_group("domination-incumbent");
    group.sample_size(10);
    // (independent, n, optimum): A342576 and A006075.
    for &(independent, n, opt) in &[(true, 17, 47), (false, 20, 62), (true, 20, 63)] {
        let Model::Domination(m) = knights(n, independent) else {
            unreachable!("knights8.toml is a domination puzzle")
        };
        let name = if independent { "independent" } else { "plain" };
        group.bench_function(format!("local/knights-{name}{n}"), |b| {
            b.iter(|| {
                let mut run = Run::new(Limits::default());
                let start = m.heuristic(8, &mut run).unwrap();
                let best = m
                    .local_search(&start, m.local_patience(), &mut run)
                    .unwrap();
                assert_eq!(best.len() as u64, opt);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, domination, first_incumbent);
criterion_main!(benches);
