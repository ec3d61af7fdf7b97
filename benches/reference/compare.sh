#!/usr/bin/env bash
# Time our N-Queens counter against the classic mirror-halved C counter (Jeff Somers style).
# Usage: benches/reference/compare.sh [N...]   (default 15 16 17); THREADS=2 for ours.
# Builds the C program with gcc -O3 -march=native into target/ and the example
# queens_count with cargo --release, then prints the median wall time of each with hyperfine
# when it is installed, else of RUNS (default 3) runs under /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(15 16 17)
threads=${THREADS:-1}
runs=${RUNS:-3}
mkdir -p target
gcc -O3 -march=native -o target/nqueens_somers benches/reference/nqueens_somers.c
cargo build --release --quiet --example queens_count
ours=target/release/examples/queens_count
ref=target/nqueens_somers

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

time_cmd() { # prints the median wall seconds of "$@"
    if command -v hyperfine >/dev/null; then
        hyperfine --runs "$runs" --style none --export-json /tmp/compare.$$.json "$*" >/dev/null
        python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["results"][0]["median"])' /tmp/compare.$$.json
        rm -f /tmp/compare.$$.json
    else
        for _ in $(seq "$runs"); do
            /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1
        done | median
    fi
}

printf '%-4s %-12s %-12s %-8s %s\n' N "C (s)" "ours (s)" ratio "ours: total unique"
for n in "${sizes[@]}"; do
    c=$(time_cmd "$ref" "$n")
    o=$(time_cmd "$ours" "$n" "$threads")
    counts=$("$ours" "$n" "$threads" | sed -E 's/.*total=([0-9]+) unique=([0-9]+).*/\1 \2/')
    printf '%-4s %-12s %-12s %-8s %s\n' "$n" "$c" "$o" "$(awk -v a="$o" -v b="$c" 'BEGIN{printf "%.2f", a/b}')" "$counts"
done
