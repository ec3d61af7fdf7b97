//! Lines: one entry per strategy on the 6x6 "Less Than Three" (all 42 solutions) and
//! on no-three-in-line. Counts are asserted so a fast wrong answer cannot pass for a speed-up.

use boardsolve::engine::Task;
use criterion::{Criterion, criterion_group, criterion_main};

mod common;
use common::{count, model};

fn lines(c: &mut Criterion) {
    let mut group = c.benchmark_group("lines");
    group.sample_size(10);
    let task = Task::default();
    let ltt = model("lessthanthree.toml", None, &[]);
    for s in ["rows", "dlx", "bitmask"] {
        group.bench_function(format!("{s}/lessthanthree"), |b| {
            b.iter(|| assert_eq!(count(&ltt, s, &task), 42))
        });
    }
    let no3 = |n: usize| {
        model(
            "no-three-in-line.toml",
            Some(n),
            &[format!("rules.per_color={}", 2 * n)],
        )
    };
    let no3_8 = no3(8);
    for s in ["rows", "dlx", "bitmask"] {
        group.bench_function(format!("{s}/no-three-in-line-8"), |b| {
            b.iter(|| assert_eq!(count(&no3_8, s, &task), 380))
        });
    }
    let no3_9 = no3(9);
    group.bench_function("bitmask/no-three-in-line-9", |b| {
        b.iter(|| assert_eq!(count(&no3_9, "bitmask", &task), 368))
    });
    group.finish();
}

criterion_group!(benches, lines);
criterion_main!(benches);
