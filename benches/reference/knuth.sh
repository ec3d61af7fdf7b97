#!/usr/bin/env bash
# `solve --strategy dlx` beside Knuth's DLX1 and SSXCC on the same Knuth-format files: queens
# N = 14 as exact cover, the pentominoes 6x10 with X in one quadrant, and all 9,356 of them.
# Each job times four commands: `solve` on one thread, `solve` on every core (its default),
# SSXCC and DLX1, in RUNS rounds (default 7) of one hyperfine run each (shell, one run of
# every command, a warmup before the first round), so that the four take turns and a slower
# minute of the machine falls on all of them; it prints each command's median wall time
# over the rounds (and median user time) and each `solve` median over SSXCC's.
#
# Knuth's programs are not in this repository: build them from their CWEB sources (dlx1.w,
# ssxcc.w with gb_flip.w, e.g. from github.com/ascherer/cwebtest) with
#   ctangle dlx1.w; ctangle ssxcc.w; ctangle gb_flip.w
#   gcc -O3 -march=native dlx1.c gb_flip.c -o dlx1   (and ssxcc likewise)
# and name their folder with KNUTH=DIR.
# Usage: KNUTH=DIR benches/reference/knuth.sh      (RUNS=N, JOBS="queens14 pentx pentall")
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${KNUTH:?KNUTH=DIR: the folder holding dlx1 and ssxcc}"
runs=${RUNS:-7}
jobs=${JOBS:-"queens14 pentx pentall"}
cargo build --release --quiet
solve=$PWD/target/release/solve
dir=target/knuth
mkdir -p "$dir"
declare -A args=(
    [queens14]="puzzles/queens8.toml --size 14 --strategy dlx"
    [pentx]="puzzles/pentominoes-unique.toml"
    [pentall]="puzzles/pentominoes.toml")
declare -A want=([queens14]=365596 [pentx]=2339 [pentall]=9356)
for job in $jobs; do
    file=$dir/$job.dlx
    # shellcheck disable=SC2086 # a list of words
    "$solve" ${args[$job]} --format knuth-input >"$file"
    count=$("$solve" "$file" --strategy dlx --format json 2>/dev/null | python3 -c \
        'import json,sys; print(json.load(sys.stdin)["count"])')
    [ "$count" = "${want[$job]}" ] || { echo "$job: solve counts $count" >&2; exit 1; }
    "$KNUTH/dlx1" <"$file" 2>&1 >/dev/null | grep -q "Altogether ${want[$job]} solutions" ||
        { echo "$job: DLX1 does not count ${want[$job]}" >&2; exit 1; }
    for round in $(seq "$runs"); do
        warmup=0
        [ "$round" = 1 ] && warmup=1
        hyperfine --warmup "$warmup" --runs 1 --style basic --export-json "$dir/$job.$round.json" \
            "$solve $file --strategy dlx --quiet --threads 1" \
            "$solve $file --strategy dlx --quiet" \
            "$KNUTH/ssxcc <$file >/dev/null 2>&1" \
            "$KNUTH/dlx1 <$file >/dev/null 2>&1" >/dev/null
    done
    python3 - "$job" "$dir/$job".*.json <<'EOF'
import json, statistics, sys
rounds = [json.load(open(f))["results"] for f in sys.argv[2:]]
names = ["solve, 1 thread", "solve, every core", "SSXCC", "DLX1"]
med = [statistics.median(r[k]["times"][0] for r in rounds) for k in range(4)]
user = [statistics.median(r[k]["user"] for r in rounds) for k in range(4)]
print(f"## {sys.argv[1]} ({len(rounds)} rounds)")
for n, m, u in zip(names, med, user):
    print(f"  {n:<18} {m:7.3f} s  (user {u:.3f} s)  {m / med[2]:.2f} of SSXCC")
EOF
    rm -f "$dir/$job".*.json
done
