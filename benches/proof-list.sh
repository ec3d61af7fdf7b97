#!/usr/bin/env bash
# The items left of a proof in parts, for benches/proof-parts.sh, largest first: the parts
# the log does not yet hold as searched (benches/proof-status.sh ... missing), each heavy one
# as its M subparts `I,1/M .. I,M/M` (a part whose estimate is at least SPLIT nodes, default
# 4e7, as 8; a part the log already holds subparts of, as the M it was split into, so the
# done ones count), ordered by estimated nodes an item, descending (parts with no estimate
# last). A list from the largest part down lets a runner with ESTIMATES spend the time before
# its deadline on parts that fit.
# Usage: benches/proof-list.sh LOG N ESTIMATES
#   e.g. benches/proof-list.sh proofs/knights20-plain.log 169 proofs/knights20-plain.estimates
set -euo pipefail
log=$1 n=$2 estimates=$3
missing=$("$(dirname "$0")/proof-status.sh" "$log" "$n" missing)
[ -z "$missing" ] && exit 0
awk -v n="$n" -v missing="$missing" -v split_at="${SPLIT:-4e7}" '
    FILENAME == ARGV[1] {
        # Estimates: "I NODES ..." (comments start with #).
        if ($0 !~ /^#/ && NF >= 2) est[$1] = $2 + 0
        next
    }
    # Subparts already run: "[part I/N,J/M: ...".
    match($0, "\\[part [0-9]+/" n ",[0-9]+/[0-9]+: ") {
        split(substr($0, RSTART + 6, RLENGTH - 8), w, /[\/,]/)
        ways[w[1]] = w[4]
    }
    END {
        k = split(missing, parts, " ")
        for (x = 1; x <= k; x++) {
            i = parts[x]
            m = (i in ways) ? ways[i] : (i in est && est[i] >= split_at + 0) ? 8 : 1
            size = (i in est) ? est[i] / m : -1
            if (m == 1) { printf "%.6e %s\n", size, i; continue }
            for (j = 1; j <= m; j++) printf "%.6e %s,%d/%d\n", size, i, j, m
        }
    }
' "$estimates" "$log" | sort -s -k1,1gr | awk '{ printf "%s%s", (NR > 1 ? " " : ""), $2 } END { print "" }'
