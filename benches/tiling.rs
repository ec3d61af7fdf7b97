//! Tilings: compiling a puzzle file into its exact cover, and the searches on it, one entry
//! per strategy: the 6x10 pentominoes up to symmetry (`dlx --unique`), the Soma cube's 240
//! classes, Scott's 65, and the domino tilings of 8x8 counted by `dxz`.

use boardsolve::engine::{Goal, Limits, Run, Task};
use boardsolve::kinds::Model;
use boardsolve::spec::{Overrides, Spec};
use criterion::{Criterion, criterion_group, criterion_main};

fn puzzle(name: &str) -> String {
    std::fs::read_to_string(format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn compile(text: &str) -> Model {
    let spec = Spec::parse("bench.toml", text, &Overrides::default()).unwrap();
    Model::compile(&spec).unwrap()
}

fn count(m: &Model, strategy: &str, unique: bool) -> u128 {
    let task = Task {
        goal: Goal::Count,
        unique,
        threads: 1,
        ..Task::default()
    };
    let mut run = Run::new(Limits::default());
    let answer = m.solve(strategy, &task, &mut run).unwrap();
    answer.count.unwrap_or(run.stats.solutions)
}

fn tiling(c: &mut Criterion) {
    let mut group = c.benchmark_group("tiling");
    group.sample_size(10);
    for name in ["pentominoes6x10.toml", "bedlam.toml", "calendar.toml"] {
        let text = puzzle(name);
        group.bench_function(format!("compile_{}", name.trim_end_matches(".toml")), |b| {
            b.iter(|| compile(&text))
        });
    }
    let pentominoes = compile(&puzzle("pentominoes6x10.toml"));
    group.bench_function("pentominoes6x10_unique_dlx", |b| {
        b.iter(|| assert_eq!(count(&pentominoes, "dlx", true), 2339))
    });
    let soma = compile(&puzzle("soma.toml"));
    group.bench_function("soma_unique_dlx", |b| {
        b.iter(|| assert_eq!(count(&soma, "dlx", true), 240))
    });
    group.bench_function("soma_dxz", |b| {
        b.iter(|| assert_eq!(count(&soma, "dxz", false), 11520))
    });
    let scott = compile(&puzzle("scott.toml"));
    group.bench_function("scott_unique_dlx", |b| {
        b.iter(|| assert_eq!(count(&scott, "dlx", true), 65))
    });
    let dominoes = compile(&puzzle("dominoes-tiling.toml"));
    group.bench_function("dominoes8x8_dxz", |b| {
        b.iter(|| assert_eq!(count(&dominoes, "dxz", false), 12_988_816))
    });
    group.finish();
}

criterion_group!(benches, tiling);
criterion_main!(benches);
