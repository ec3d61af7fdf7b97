#!/usr/bin/env bash
# The N-Queens and Dancing Links figures of docs/performance.md, measured through the real
# `solve` binary with hyperfine (median of RUNS runs, default 5), each reference in the same
# run as ours.
# Usage: benches/figures.sh            (needs hyperfine and gcc; about 5 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
cargo build --release --quiet
mkdir -p target
gcc -O3 -march=native -o target/nqueens_somers benches/reference/nqueens_somers.c
solve=target/release/solve

median() { # median wall seconds of a command
    hyperfine --runs "$runs" --warmup 1 --style none -N --export-json /tmp/figures.$$.json "$1" >/dev/null
    python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["results"][0]["median"])' /tmp/figures.$$.json
    rm -f /tmp/figures.$$.json
}

echo "## N-Queens counting (bitmask strategy; C = classic mirror-halved bitmask counter)"
printf '%-4s %-10s %-10s %-10s %s\n' N "C (s)" "1 thread" "2 threads" "count (checked against OEIS A000170)"
declare -A oeis=([15]=2279184 [16]=14772512 [17]=95815104 [18]=666090624)
for n in 15 16 17; do
    c=$(median "target/nqueens_somers $n")
    one=$(median "$solve puzzles/queens8.toml --size $n --threads 1 --quiet")
    two=$(median "$solve puzzles/queens8.toml --size $n --threads 2 --quiet")
    count=$($solve puzzles/queens8.toml --size $n --quiet | tail -1 | tr -d ,)
    [ "$count" = "${oeis[$n]} solutions" ] || { echo "WRONG COUNT for $n: $count"; exit 1; }
    printf '%-4s %-10s %-10s %-10s %s\n' "$n" "$c" "$one" "$two" "$count"
done
start=$(date +%s%N)
count=$($solve puzzles/queens8.toml --size 18 --threads 2 --quiet | tail -1 | tr -d ,)
[ "$count" = "${oeis[18]} solutions" ] || { echo "WRONG COUNT for 18: $count"; exit 1; }
ms=$((($(date +%s%N) - start) / 1000000))
printf '18   (one run, 2 threads) %d.%03d s: %s\n' $((ms / 1000)) $((ms % 1000)) "$count"

echo
echo "## Dancing Links"
for args in "puzzles/queens8.toml --strategy dlx --size 14" "puzzles/pentominoes-unique.toml" "puzzles/pentominoes.toml"; do
    t=$(median "$solve $args --quiet")
    stats=$($solve $args 2>&1 >/dev/null | tail -1)
    echo "$t s  solve $args   [$stats]"
done
