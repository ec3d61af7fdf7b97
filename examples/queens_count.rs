//! `queens_count N [THREADS]`: count N-Queens solutions, print total, unique and seconds.
//! Used by benches/reference/compare.sh to time the counter against a C reference.

use std::time::Instant;

use boardsolve::engine::{Limits, Run};
use boardsolve::kinds::independent::queens::{MAX_N, count_queens};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    if n > MAX_N {
        eprintln!("n must be at most {MAX_N}");
        std::process::exit(2);
    }
    let mut run = Run::new(Limits::default());
    let start = Instant::now();
    let count = count_queens(n, threads, &mut run).expect("no limit was set");
    println!(
        "n={n} threads={threads} total={} unique={} nodes={} seconds={:.3}",
        count.total,
        count.unique,
        run.stats.nodes,
        start.elapsed().as_secs_f64()
    );
}
