//! Independent placement: one entry per strategy on N-Queens, and on kings around holes;
//! `construct` on 10^6 and 10^7 queens.
//! Counts are asserted so a fast wrong answer cannot pass for a speed-up.

use boardsolve::engine::{Goal, Task};
use criterion::{Criterion, criterion_group, criterion_main};

mod common;
use common::{count, model};

fn independent(c: &mut Criterion) {
    let mut group = c.benchmark_group("independent");
    group.sample_size(10);
    let task = Task::default();
    let queens8 = model("queens8.toml", None, &[]);
    group.bench_function("brute/queens8", |b| {
        b.iter(|| assert_eq!(count(&queens8, "brute", &task), 92))
    });
    let queens11 = model("queens8.toml", Some(11), &[]);
    for s in ["backtrack", "flags", "bitmask", "dlx"] {
        group.bench_function(format!("{s}/queens11"), |b| {
            b.iter(|| assert_eq!(count(&queens11, s, &task), 2680))
        });
    }
    // The bitmask strategy counts full N-Queens by border constellations.
    for (n, total) in [(12, 14_200), (14, 365_596)] {
        let queens = model("queens8.toml", Some(n), &[]);
        group.bench_function(format!("bitmask/queens{n}"), |b| {
            b.iter(|| assert_eq!(count(&queens, "bitmask", &task), total))
        });
    }
    // A first placement by formula, checked by the validator: the compact answer.
    let first = Task {
        goal: Goal::First,
        ..Task::default()
    };
    for n in [1_000_000, 10_000_000] {
        let queens = model("queens8.toml", Some(n), &[]);
        group.bench_function(format!("construct/queens{n}"), |b| {
            b.iter(|| assert_eq!(count(&queens, "construct", &first), 1))
        });
    }
    let kings = model("kings-holes.toml", None, &[]);
    for s in ["brute", "backtrack", "bitmask", "dlx"] {
        group.bench_function(format!("{s}/kings-holes"), |b| {
            b.iter(|| assert_eq!(count(&kings, s, &task), 3104))
        });
    }
    group.finish();
}

criterion_group!(benches, independent);
criterion_main!(benches);
