#!/usr/bin/env bash
# Sudoku: `solve --input lines` beside tdoku's own benchmark program (run_benchmark, from
# github.com/t-dillon/tdoku, built with its optional solvers) on the public data sets of
# sudoku puzzles one a line, in one run. Both prove each puzzle unique (tdoku's benchmark
# asks every solver for up to 2 solutions; `solve` counts with --limit 2). tdoku's program
# times its solvers on the puzzles held in memory, per thread CPU time where built with the
# CPU-time clock, and prints puzzles a second; `solve` is timed whole (reading the file and
# writing a line a puzzle included) by hyperfine, and its puzzles a second are the lines
# over the median.
# Usage: TDOKU=DIR DATA=DIR benches/reference/sudoku.sh
#   TDOKU: the folder holding run_benchmark (tdoku's build/); DATA: the data sets, one
#   puzzle a line, named SET.txt; SETS="17_clue magictour_top1465 ..." (default: the five
#   below); SOLVERS: tdoku's solver ids to run (default: tdoku and the generic ones of its
#   table); RUNS=N (default 5); SECS=N, tdoku's seconds a solver (default 5).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${TDOKU:?TDOKU=DIR: the folder holding run_benchmark, built from tdoku}"
: "${DATA:?DATA=DIR: the folder holding the data sets (SET.txt)}"
sets=${SETS:-17_clue magictour_top1465 forum_hardest_1905_11plus forum_hardest_1106 serg_benchmark}
solvers=${SOLVERS:-tdoku,norvig,minisat_augmented,_tdev_dpll_triad,gss1,kudoku,fast_solv_9r2,zerodoku}
runs=${RUNS:-5}
secs=${SECS:-5}
cargo build --release --quiet
solve=$PWD/target/release/solve
dir=target/sudoku
mkdir -p "$dir"
threads=$(nproc)
for set in $sets; do
    file=$DATA/$set.txt
    lines=$(grep -c . "$file")
    echo "== $set ($lines puzzles)"
    for t in 1 "$threads"; do
        hyperfine -N --style basic --warmup 1 --runs "$runs" --export-json "$dir/$set-$t.json" \
            "$solve $file --input lines --goal count --limit 2 --threads $t --quiet --output /dev/null" \
            >/dev/null
        python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))["results"][0]
print("solve, %s thread(s): median %.3f s, %.0f puzzles/s" % (sys.argv[3], r["median"], int(sys.argv[2]) / r["median"]))' \
            "$dir/$set-$t.json" "$lines" "$t"
    done
    "$TDOKU/run_benchmark" -t"$secs" -w1 -e1 -s "$solvers" "$file" | grep -E '^\|'
done
