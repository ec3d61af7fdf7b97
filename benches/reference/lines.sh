#!/usr/bin/env bash
# The lines figures of docs/performance.md: 6x6 "Less Than Three" (all 42 solutions listed)
# by each strategy against the straightforward C row backtracker (lessthanthree.c), all in
# one hyperfine run; then no-three-in-line counts. Needs hyperfine and gcc.
# Usage: benches/reference/lines.sh      (RUNS, default 20, for the 6x6 runs)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-20}
cargo build --release --quiet
mkdir -p target
gcc -O3 -march=native -o target/lessthanthree benches/reference/lessthanthree.c
solve=target/release/solve
target/lessthanthree 6
hyperfine -N --warmup 3 --runs "$runs" \
    "target/lessthanthree 6" \
    "$solve puzzles/lessthanthree.toml --goal all --quiet" \
    "$solve puzzles/lessthanthree.toml --goal all --quiet --strategy dlx" \
    "$solve puzzles/lessthanthree.toml --goal all --quiet --strategy rows"
hyperfine -N --runs 3 \
    "$solve puzzles/no-three-in-line.toml --quiet" \
    "$solve puzzles/no-three-in-line.toml --quiet --unique"
