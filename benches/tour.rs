//! Tours: one entry per strategy. Counts are asserted and built tours checked, so a fast
//! wrong answer cannot pass for a speed-up.

use boardsolve::engine::{Goal, Limits, Run, Task};
use boardsolve::kinds::Model;
use criterion::{Criterion, criterion_group, criterion_main};

mod common;
use common::model;

fn count(m: &Model, strategy: &str) -> u128 {
    common::count(m, strategy, &Task::default())
}

/// Build one tour and check it (compact answers through the model's own check).
fn first(m: &Model, strategy: &str) {
    let task = Task {
        goal: Goal::First,
        ..Task::default()
    };
    let found = std::sync::Mutex::new(false);
    let mut run = Run::new(Limits {
        solutions: Some(1),
        ..Limits::default()
    })
    .with_sink(Box::new(|s: &[usize]| {
        m.check(s).unwrap();
        *found.lock().unwrap() = true;
        std::ops::ControlFlow::Continue(())
    }));
    let answer = m.solve(strategy, &task, &mut run).unwrap();
    drop(run);
    match &answer.compact {
        Some(c) => m.check_compact(c).unwrap(),
        None => assert!(*found.lock().unwrap()),
    }
}

fn tour(c: &mut Criterion) {
    let mut group = c.benchmark_group("tour");
    group.sample_size(10);
    let t5 = model("tour5x5.toml", None, &[]);
    group.bench_function("backtrack/5x5-open-count", |b| {
        b.iter(|| assert_eq!(count(&t5, "backtrack"), 1728))
    });
    group.bench_function("count/5x5-open", |b| {
        b.iter(|| assert_eq!(count(&t5, "count"), 1728))
    });
    let c6 = model("closed6x6-count.toml", None, &[]);
    group.bench_function("count/6x6-closed", |b| {
        b.iter(|| assert_eq!(count(&c6, "count"), 9862))
    });
    let o6 = model("tour5x5.toml", Some(6), &[]);
    group.bench_function("count/6x6-open", |b| {
        b.iter(|| assert_eq!(count(&o6, "count"), 6_637_920))
    });
    let c100 = model("closed16.toml", Some(100), &[]);
    group.bench_function("warnsdorff/100x100-closed", |b| {
        b.iter(|| first(&c100, "warnsdorff"))
    });
    let c1000 = model("closed16.toml", Some(1000), &[]);
    group.bench_function("divide/1000x1000-closed", |b| {
        b.iter(|| first(&c1000, "divide"))
    });
    group.finish();
}

criterion_group!(benches, tour);
criterion_main!(benches);
