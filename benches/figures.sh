#!/usr/bin/env bash
# The N-Queens and Dancing Links figures of docs/performance.md, measured through the real
# `solve` binary with hyperfine (median of RUNS runs, default 5).
#
# N-Queens: for each N of SIZES (default "16 17 18"), ONE hyperfine run times, side by side:
#   ours, 1 and 2 threads   solve puzzles/queens8.toml --size N --threads T --quiet
#   NQueensFAF CPU, 1 and 2 threads (Java)   if FAF is set, or target/reference/nqueensfaf-cpu.jar exists
#   m-queens (C, one thread)                 if MQUEENS, or target/reference/m-queens, is executable
#   C counter (benches/reference/nqueens_somers.c, built here with gcc -O3 -march=native)
# Each command is run once untimed first (this is also hyperfine's warm-up) and its count is
# checked against OEIS A000170; ours is read from `--format json`.
#
# The other programs are not part of this repository and are not built by it. Build them
# from their public repositories as their own documentation says, then point the script at
# them:
#   FAF      a command with {n} and {t} for the board size and thread count that runs
#            NQueensFAF's CpuSolver and prints the count, e.g.
#            FAF='java -jar /path/to/nqueensfaf-cli.jar -n {n} cpu -t {t}'
#            (words split on spaces, no shell quoting; default, when the file exists:
#            'java -jar target/reference/nqueensfaf-cpu.jar {n} {t}', a jar whose main
#            class takes N and THREADS and prints the count)
#   MQUEENS  the m-queens binary (default target/reference/m-queens), one thread
# A missing one is named, with where to get it, and left out of the run.
#
# REFS (default "faf m-queens c") names the other programs to time; at N = 18 the two C
# counters take most of the hour, so REFS=faf times NQueensFAF alone beside ours.
#
# Usage: benches/figures.sh                 (needs hyperfine, gcc and python3; N = 18 takes
#                                             most of the time, about an hour with every program)
#        SIZES="15 16" RUNS=3 benches/figures.sh
#        SIZES=18 RUNS=3 REFS=faf benches/figures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
read -r -a sizes <<<"${SIZES:-16 17 18}"
cargo build --release --quiet
mkdir -p target
gcc -O3 -march=native -o target/nqueens_somers benches/reference/nqueens_somers.c
solve=target/release/solve
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { # median wall seconds of a command
    hyperfine --runs "$runs" --warmup 1 --style none -N --export-json "$tmp/median.json" "$1" >/dev/null
    python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$tmp/median.json"
}

solve_json() { # the JSON fields named in $1 (space-separated, dotted for nesting) of `solve ARGS --format json`
    local fields=$1
    shift
    "$solve" "$@" --format json | python3 -c '
import json, sys
doc = json.load(sys.stdin)
out = []
for path in sys.argv[1].split():
    v = doc
    for key in path.split("."):
        v = v[key]
    out.append(str(v))
print(" ".join(out))' "$fields"
}

fail() { echo "WRONG COUNT: $*" >&2; exit 1; }

# --- the other programs ---------------------------------------------------------------
faf=${FAF:-}
if [ -z "$faf" ] && [ -f target/reference/nqueensfaf-cpu.jar ]; then
    faf="java -jar target/reference/nqueensfaf-cpu.jar {n} {t}"
fi
mqueens=${MQUEENS:-target/reference/m-queens}
[ -x "$mqueens" ] || mqueens=
refs=" ${REFS:-faf m-queens c} "
[[ $refs == *" faf "* ]] || faf=
[[ $refs == *" m-queens "* ]] || mqueens=
if [ -z "$faf" ] && [[ $refs == *" faf "* ]]; then
    echo "NOT TIMED: NQueensFAF CPU solver. Source: git clone https://github.com/olepoeschl/NQueensFAF"
    echo "  then set FAF to a command running its CpuSolver for {n} and {t}, printing the count"
    echo "  (or put such a jar, main class taking N THREADS, at target/reference/nqueensfaf-cpu.jar)."
fi
if [ -z "$mqueens" ] && [[ $refs == *" m-queens "* ]]; then
    echo "NOT TIMED: m-queens. Source: git clone https://github.com/sudden6/m-queens"
    echo "  then set MQUEENS to its binary (or put it at target/reference/m-queens)."
fi
faf_cmd() { # FAF's command for board size $1 on $2 threads
    local c=${faf//\{n\}/$1}
    echo "${c//\{t\}/$2}"
}
group() { sed -E ':a; s/([0-9])([0-9]{3})($|[^0-9])/\1,\2\3/; ta' <<<"$1"; } # 14200 -> 14,200
ungroup() { sed -E ':a; s/([0-9])[,._]([0-9]{3})/\1\2/; ta'; } # 14,200 or 14.200 -> 14200

echo "## N-Queens counting (one hyperfine run per N; median seconds of $runs runs)"
echo "FAF = NQueensFAF CPU solver (Java, JVM start included); m-queens one thread;"
echo "C = classic mirror-halved bitmask counter; counts checked against OEIS A000170"
declare -A oeis=([12]=14200 [13]=73712 [14]=365596 [15]=2279184 [16]=14772512 [17]=95815104
    [18]=666090624 [19]=4968057848 [20]=39029188884)
header_done=
for n in "${sizes[@]}"; do
    expected=${oeis[$n]:-}
    [ -n "$expected" ] || { echo "no OEIS A000170 count for N = $n here (12..20)" >&2; exit 1; }
    hf=()
    for t in 1 2; do
        count=$(solve_json count puzzles/queens8.toml --size "$n" --threads "$t" --quiet)
        [ "$count" = "$expected" ] || fail "ours, N = $n, $t threads: $count, not $expected"
        hf+=(-n "ours-$t" "$solve puzzles/queens8.toml --size $n --threads $t --quiet")
    done
    if [ -n "$faf" ]; then
        for t in 1 2; do
            cmd=$(faf_cmd "$n" "$t")
            # shellcheck disable=SC2086 # FAF is a command line split on spaces
            out=$($cmd) || fail "NQueensFAF, N = $n, $t threads ($cmd) failed"
            ungroup <<<"$out" | grep -qw "$expected" || fail "NQueensFAF, N = $n, $t threads ($cmd): no $expected in its output"
            hf+=(-n "faf-$t" "$cmd")
        done
    fi
    if [ -n "$mqueens" ]; then
        out=$("$mqueens" "$n") || fail "m-queens, N = $n: $out"
        grep -Eq "Solutions +$expected," <<<"$out" || fail "m-queens, N = $n: not $expected"
        hf+=(-n m-queens "$mqueens $n")
    fi
    if [[ $refs == *" c "* ]]; then
        out=$(target/nqueens_somers "$n")
        grep -q "total=$expected " <<<"$out" || fail "C counter, N = $n: $out"
        hf+=(-n c "target/nqueens_somers $n")
    fi

    hyperfine -N --runs "$runs" --style none --export-json "$tmp/queens.json" "${hf[@]}" >/dev/null
    python3 - "$tmp/queens.json" "$n" "$expected" "${header_done:-header}" <<'EOF'
import json, sys
path, n, count, header = sys.argv[1:]
med = {r["command"]: r["median"] for r in json.load(open(path))["results"]}
cols = ["ours-1", "ours-2", "faf-1", "faf-2", "m-queens", "c"]
def sec(k):
    return "%.3f" % med[k] if k in med else "-"
def ratio(a, b):
    return "%.2f" % (med[a] / med[b]) if a in med and b in med else "-"
if header == "header":
    print("%-3s %9s %9s %9s %9s %9s %9s  %9s %9s %9s %9s  %s" % (
        "N", "ours 1t", "ours 2t", "FAF 1t", "FAF 2t", "m-queens", "C",
        "ours/FAF", "ours/FAF", "ours/mq", "ours/C", "count"))
    print("%-3s %9s %9s %9s %9s %9s %9s  %9s %9s %9s %9s" % (
        "", "(s)", "(s)", "(s)", "(s)", "(s)", "(s)", "1t", "2t", "1t", "1t"))
print("%-3s %9s %9s %9s %9s %9s %9s  %9s %9s %9s %9s  %s" % (
    n, *[sec(k) for k in cols],
    ratio("ours-1", "faf-1"), ratio("ours-2", "faf-2"),
    ratio("ours-1", "m-queens"), ratio("ours-1", "c"), f"{int(count):,}"))
EOF
    header_done=done
done

echo
echo "## Dancing Links (one thread, median seconds of $runs runs each; counts, nodes and updates from --format json)"
declare -A dlx_count=(
    ["puzzles/queens8.toml --strategy dlx --size 14"]=365596
    ["puzzles/pentominoes-unique.toml"]=2339
    ["puzzles/pentominoes.toml"]=9356)
for args in "puzzles/queens8.toml --strategy dlx --size 14" "puzzles/pentominoes-unique.toml" "puzzles/pentominoes.toml"; do
    t=$(median "$solve $args --quiet --threads 1")
    # shellcheck disable=SC2086 # $args is a list of words
    read -r count nodes updates <<<"$(solve_json "count stats.nodes stats.updates" $args --quiet)"
    [ "$count" = "${dlx_count[$args]}" ] || fail "solve $args: $count, not ${dlx_count[$args]}"
    printf '%s s  solve %s   [%s solutions, %s nodes, %s updates]\n' "$t" "$args" \
        "$(group "$count")" "$(group "$nodes")" "$(group "$updates")"
done
