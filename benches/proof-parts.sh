#!/usr/bin/env bash
# Parts of a long knights domination proof (`solve --part I/N`), one after another on
# $THREADS threads (default 2) until a deadline, each part's answer line appended to a log.
# The N parts, run at any time or on any machines, together prove what one run proves,
# provided all report the same subtree count, bar and list fingerprint (see proofs/README.md
# and docs/domination-notes.md).
# Usage: benches/proof-parts.sh SIZE INDEPENDENT N DEADLINE LOG I...
#   (an I of the form I,J/M runs part J of M of part I's descendants: `--part I/N,J/M`)
#   e.g. THREADS=1 benches/proof-parts.sh 20 true 102 "12:40 UTC" \
#            proofs/knights20-independent.log $(seq 1 102)
# Run it from a clone checked out at the proof's commit, so that building elsewhere does not
# change the binary under it. Parts the log already holds as searched are skipped, so the
# same list can be given again in a later run; two runners (one a core, THREADS=1)
# may share a log: each claims a part before it starts it (LOG.claims/I, void after that
# runner's deadline), and the other skips it. A part still running at the deadline is stopped
# by --time-limit; its line then says "not all searched", and it is run again later.
# With ESTIMATES=FILE (lines "I NODES ...", as in proofs/*.estimates), a part is not started
# when its estimate (a subpart I,J/M: I's over M) times NODE_US microseconds a node (default
# 25) times SLACK (default 3: estimates fall short, and three runners on two cores) exceeds the
# time left; the runner goes on down the list. So a list from the largest part down spends
# a runner's last hour on parts that can end in it instead of one the deadline cuts.
set -uo pipefail
cd "$(dirname "$0")/.."
size=$1 independent=$2 n=$3 deadline=$(date -d "$4" +%s) log=$5
shift 5
cargo build --release --quiet
commit=$(git rev-parse --short HEAD)
claims="$log.claims"
mkdir -p "$claims"
for i in "$@"; do
    # I, or I,J/M for part J of M of part I's descendants (a part too long for one run).
    case $i in
        *,*) part="${i%%,*}/$n,${i#*,}" ;;
        *) part="$i/$n" ;;
    esac
    if grep -F "part $part: " "$log" 2>/dev/null | grep -qF "searched: none smaller than"; then
        continue
    fi
    left=$((deadline - $(date +%s)))
    [ "$left" -lt 60 ] && break
    if [ -n "${ESTIMATES:-}" ]; then
        nodes=$(awk -v p="${i%%,*}" '$1 == p { print $2; exit }' "$ESTIMATES")
        ways=1
        case $i in *,*) ways=${i##*/} ;; esac
        if [ -n "$nodes" ] && awk -v n="$nodes" -v w="$ways" -v us="${NODE_US:-25}" \
            -v k="${SLACK:-3}" -v left="$left" 'BEGIN { exit !(n / w * us * 1e-6 * k > left) }'; then
            continue
        fi
    fi
    claim="$claims/${i//\//_}"
    if ! mkdir "$claim" 2>/dev/null; then
        until=$(cat "$claim/until" 2>/dev/null || echo 0)
        [ "$until" -gt "$(date +%s)" ] && continue
    fi
    echo "$deadline" > "$claim/until"
    start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    tmp=$(mktemp)
    /usr/bin/time -f "%e s wall, %U s user" target/release/solve puzzles/knights8.toml \
        --size "$size" --set "rules.independent=$independent" --threads "${THREADS:-2}" --part "$part" \
        --time-limit "$left" --quiet > "$tmp" 2>&1
    rc=$?
    # The answer line (a part exits 3 even when done: alone it proves nothing) and the times.
    out="$(grep -F "[part $part: " "$tmp" | tail -1) | $(tail -1 "$tmp")"
    rm -f "$tmp"
    line="$size independent=$independent part $part, commit $commit, from $start, exit $rc: $out"
    # The log is tracked by git, and a checkout or reset of the working tree rolls it back
    # and loses the lines since; the journal beside it, which git ignores, keeps every line
    # too.
    echo "$line" >> "$log"
    echo "$line" >> "$log.journal"
    rm -rf "$claim"
done
