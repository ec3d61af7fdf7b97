//! Sudoku, one entry per strategy: the 17-clue sudoku of puzzles/ and a hard one (the first
//! of the Enjoy Sudoku forum's hardest list of 2011-06-26, HardestDatabase110626), each
//! solved and proven unique (count, at most 2); the Latin squares of order 5 and the 4x4
//! grids counted; and the killer puzzle, cages as options, solved and proven unique.

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

/// Solutions counted, stopping at `limit` when given.
fn count(m: &Model, strategy: &str, limit: Option<u64>) -> u128 {
    let task = Task {
        goal: Goal::Count,
        threads: 1,
        ..Task::default()
    };
    let mut run = Run::new(Limits {
        solutions: limit,
        ..Limits::default()
    });
    let answer = m.solve(strategy, &task, &mut run).unwrap();
    answer.count.unwrap_or(run.stats.solutions)
}

/// A hard sudoku: the first of the forum's list of the hardest.
const HARD: &str = "kind = \"sudoku\"\n[rules]\ngivens = \
    \"........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3\"\n";

fn sudoku(c: &mut Criterion) {
    let mut group = c.benchmark_group("sudoku");
    group.sample_size(20);
    let seventeen = compile(&puzzle("sudoku17.toml"));
    let hard = compile(HARD);
    for strategy in ["bitmask", "dlx"] {
        group.bench_function(format!("17_clue_unique_{strategy}"), |b| {
            b.iter(|| assert_eq!(count(&seventeen, strategy, Some(2)), 1))
        });
        group.bench_function(format!("hard_unique_{strategy}"), |b| {
            b.iter(|| assert_eq!(count(&hard, strategy, Some(2)), 1))
        });
    }
    let latin = compile(&puzzle("latin-square.toml"));
    let four = compile(&puzzle("sudoku4.toml"));
    for strategy in ["bitmask", "dlx"] {
        group.bench_function(format!("latin5_{strategy}"), |b| {
            b.iter(|| assert_eq!(count(&latin, strategy, None), 161_280))
        });
        group.bench_function(format!("grids4_{strategy}"), |b| {
            b.iter(|| assert_eq!(count(&four, strategy, None), 288))
        });
    }
    let killer = compile(&puzzle("killer.toml"));
    group.bench_function("killer_dlx", |b| {
        b.iter(|| assert_eq!(count(&killer, "dlx", Some(2)), 1))
    });
    group.finish();
}

criterion_group!(benches, sudoku);
criterion_main!(benches);
