//! Exact cover with Dancing Links: Knuth's queens formulation and the 6x10 pentominoes; and
//! Langford pairs counted by `dxz` (the memo branching on the fewest options, the levels
//! branching on the first slot) beside `dlx`. Then the cover kind's strategies on the
//! puzzle files, one thread: `bitmask` beside `dlx` on the 6x10 pentominoes and Langford
//! pairs n = 12, and `auto`'s choice between them (its estimate included).

use boardsolve::dlx::{Branch, Dxz, Levels, Solver};
use boardsolve::engine::{Goal, Limits, Run, Task};
use boardsolve::kinds::Model;
use boardsolve::spec::{Overrides, Spec};
use criterion::{Criterion, criterion_group, criterion_main};

mod instances {
    use boardsolve::dlx::Problem;
    include!("../tests/common/cover_instances.rs");
}

fn count(solver: &mut Solver) -> u128 {
    let mut run = Run::new(Limits::default());
    solver.search(&mut run);
    run.stats.solutions
}

fn cover(c: &mut Criterion) {
    let mut group = c.benchmark_group("cover");
    group.sample_size(10);
    let mut queens = Solver::new(&instances::queens(14));
    group.bench_function("queens14", |b| {
        b.iter(|| assert_eq!(count(&mut queens), 365_596))
    });
    let mut pentominoes = Solver::new(&instances::pentominoes(6, 10, true));
    group.bench_function("pentominoes6x10_x_quadrant", |b| {
        b.iter(|| assert_eq!(count(&mut pentominoes), 2339))
    });
    let langford = instances::langford(12);
    let mut solver = Solver::new(&langford);
    group.bench_function("langford12_dlx", |b| {
        b.iter(|| assert_eq!(count(&mut solver), 108_144))
    });
    group.bench_function("langford12_dxz_fewest", |b| {
        b.iter(|| {
            let mut dxz = Dxz::new(&langford, Branch::Fewest, 1 << 30);
            let got = dxz.count(&mut Run::new(Limits::default())).count;
            assert_eq!(got, Some(108_144))
        })
    });
    let levels = Levels::<1>::new(&langford, 1 << 30);
    group.bench_function("langford12_dxz_first_levels", |b| {
        b.iter(|| {
            let got = levels.count(&mut Run::new(Limits::default())).count;
            assert_eq!(got, Some(108_144))
        })
    });
    group.finish();
}

fn compile(name: &str) -> Model {
    let path = format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let spec = Spec::parse(name, &text, &Overrides::default()).unwrap();
    Model::compile(&spec).unwrap()
}

fn cover_strategies(c: &mut Criterion) {
    let mut group = c.benchmark_group("cover_kind");
    group.sample_size(10);
    let task = Task {
        goal: Goal::Count,
        threads: 1,
        ..Task::default()
    };
    for (name, want) in [("pentominoes.toml", 9356u128), ("langford12.toml", 108_144)] {
        let m = compile(name);
        for strategy in ["bitmask", "dlx", "auto"] {
            let id = format!("{}_{strategy}", name.trim_end_matches(".toml"));
            group.bench_function(id, |b| {
                b.iter(|| {
                    let chosen = match strategy {
                        "auto" => m.auto_strategy(&task).unwrap(),
                        s => s,
                    };
                    let mut run = Run::new(Limits::default());
                    let answer = m.solve(chosen, &task, &mut run).unwrap();
                    assert_eq!(answer.count.unwrap_or(run.stats.solutions), want)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, cover, cover_strategies);
criterion_main!(benches);
