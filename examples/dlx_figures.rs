//! One timed Dancing Links run with Knuth's statistics, for comparing with his programs:
//! `cargo run --release --example dlx_figures -- queens 14` or `-- pentominoes [all]`.

use boardsolve::dlx::Solver;
use boardsolve::engine::{Limits, Run};
use std::time::Instant;

mod instances {
    use boardsolve::dlx::Problem;
    include!("../tests/common/cover_instances.rs");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let problem = match args.first().map(String::as_str) {
        Some("queens") => instances::queens(args.get(1).and_then(|n| n.parse().ok()).unwrap_or(14)),
        Some("pentominoes") => {
            instances::pentominoes(6, 10, args.get(1).map(String::as_str) != Some("all"))
        }
        _ => {
            eprintln!("usage: dlx_figures queens N | pentominoes [all]");
            std::process::exit(2);
        }
    };
    let mut solver = Solver::new(&problem);
    let mut run = Run::new(Limits::default());
    let started = Instant::now();
    solver.search(&mut run);
    let elapsed = started.elapsed();
    let updates = run.stats.counter("updates").unwrap_or(0);
    println!(
        "{} solutions, {} nodes, {} updates, {:.3} s, {:.1} M updates/s",
        run.stats.solutions,
        run.stats.nodes,
        updates,
        elapsed.as_secs_f64(),
        updates as f64 / elapsed.as_secs_f64() / 1e6
    );
}
