//! Independent placement: one entry per strategy and board size.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

use boardsolve::engine::{Limits, Run};
use boardsolve::kinds::independent::queens::count_queens;

fn independent(c: &mut Criterion) {
    let mut group = c.benchmark_group("independent");
    group.sample_size(10);
    for n in [12, 14] {
        group.bench_with_input(BenchmarkId::new("queens_fast", n), &n, |b, &n| {
            b.iter(|| {
                let mut run = Run::new(Limits::default());
                count_queens(n, 1, &mut run).expect("no limit set")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, independent);
criterion_main!(benches);
