//! Exact cover with Dancing Links: Knuth's queens formulation and the 6x10 pentominoes.

use boardsolve::dlx::Solver;
use boardsolve::engine::{Limits, Run};
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
    group.finish();
}

criterion_group!(benches, cover);
criterion_main!(benches);
