//! Exact cover with Dancing Links: Knuth's queens formulation and the 6x10 pentominoes; and
//! Langford pairs counted by `dxz` (the memo branching on the fewest options, the levels
//! branching on the first slot) beside `dlx`.

use boardsolve::dlx::{Branch, Dxz, Levels, Solver};
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

criterion_group!(benches, cover);
criterion_main!(benches);
