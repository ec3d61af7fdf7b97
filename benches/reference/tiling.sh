#!/usr/bin/env bash
# Tilings: the time to compile a puzzle file (`solve check`, process included), the 6x10
# pentominoes through `tiling` beside the same instance written out as options
# (puzzles/pentominoes.toml), --unique beside the full count, and `solve` beside Knuth's DLX1
# and SSXCC on the exact cover `solve --format knuth-input` writes for each puzzle (with
# --unique where the restriction alone is exact, so that the three count the same classes).
# Every `solve` on one thread. Knuth's programs: see benches/reference/knuth.sh for how to
# build them; name their folder with KNUTH=DIR.
# Usage: KNUTH=DIR benches/reference/tiling.sh      (RUNS=N, default 5; JOBS="scott:u soma:"
# for the comparisons, a puzzle and "u" where its --unique problem is written)
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${KNUTH:?KNUTH=DIR: the folder holding dlx1 and ssxcc}"
runs=${RUNS:-5}
cargo build --release --quiet
solve=$PWD/target/release/solve
dir=target/tiling
mkdir -p "$dir"
hf() { hyperfine -N --style basic --export-json "$dir/$1.json" "${@:2}" >/dev/null; \
    python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]:
    print("%10.4f s  %s" % (r["median"], r["command"]))' "$dir/$1.json"; }
echo "== compile (solve check)"
for p in pentominoes6x10 scott pentominoes8x8 soma bedlam calendar dominoes-tiling; do
    hf "check-$p" --warmup 3 --runs 20 "$solve check puzzles/$p.toml"
done
echo "== 6x10: tiling file beside the 2,056-option cover file; --unique beside all"
hf pent --warmup 1 --runs "$runs" \
    "$solve puzzles/pentominoes6x10.toml --threads 1 --quiet" \
    "$solve puzzles/pentominoes.toml --threads 1 --quiet" \
    "$solve puzzles/pentominoes6x10.toml --threads 1 --quiet --unique"
echo "== Soma cube, all 240 classes; Bedlam cube, 19,186 classes (one thread)"
hf soma --warmup 1 --runs "$runs" "$solve puzzles/soma.toml --threads 1 --quiet --unique"
hf bedlam --runs 1 "$solve puzzles/bedlam.toml --threads 1 --quiet --unique"
echo "== beside DLX1 and SSXCC on the knuth-input"
for job in ${JOBS:-pentominoes6x10:u scott:u pentominoes8x8:u soma:}; do
    p=${job%%:*}
    flag=${job#*:}
    file=$dir/$p.dlx
    "$solve" "puzzles/$p.toml" ${flag:+--unique} --format knuth-input --output "$file"
    hf "knuth-$p" --runs "$runs" \
        "$solve $file --threads 1 --quiet" \
        "sh -c '$KNUTH/dlx1 <$file'" \
        "sh -c '$KNUTH/ssxcc <$file'"
done
