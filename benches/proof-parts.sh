#!/usr/bin/env bash
# Parts of a long knights domination proof (`solve --part I/N`), one after another on
# $THREADS threads (default 2) until a deadline, each part's answer line appended to a log. The N parts, run in
# any sessions or on any machines, together prove what one run proves, provided all report
# the same subtree count and bar (see the README, "For proofs too long for one run").
# Usage: benches/proof-parts.sh SIZE INDEPENDENT N DEADLINE LOG I...
#   e.g. benches/proof-parts.sh 20 true 102 "12:40 UTC" proofs/knights20-independent.log 1 2 3
# THREADS=1 leaves the other core free. Run it from a clone checked out at the proof's commit
# (every part of one proof from the same binary: the subtree list comes from the root's
# search, which another commit may cut differently).
# A part still running at the deadline is stopped by --time-limit; its line then says so.
set -uo pipefail
cd "$(dirname "$0")/.."
size=$1 independent=$2 n=$3 deadline=$(date -d "$4" +%s) log=$5
shift 5
cargo build --release --quiet
commit=$(git rev-parse --short HEAD)
for i in "$@"; do
    left=$((deadline - $(date +%s)))
    [ "$left" -lt 60 ] && break
    start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    tmp=$(mktemp)
    /usr/bin/time -f "%e s wall, %U s user" target/release/solve puzzles/knights8.toml \
        --size "$size" --set "rules.independent=$independent" --threads "${THREADS:-2}" --part "$i/$n" \
        --time-limit "$left" --quiet > "$tmp" 2>&1
    rc=$?
    # The answer line (a part exits 3 even when done: alone it proves nothing) and the times.
    out="$(grep -F "[part $i/$n" "$tmp" | tail -1) | $(tail -1 "$tmp")"
    rm -f "$tmp"
    echo "$size independent=$independent part $i/$n, commit $commit, from $start, exit $rc: $out" >> "$log"
done
