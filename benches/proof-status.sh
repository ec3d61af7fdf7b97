#!/usr/bin/env bash
# The state of a proof in parts from its log (see benches/proof-parts.sh): how many of the N
# parts are searched, which are missing, the work they took, and whether every searched part
# reports the same subtree count, bar and list fingerprint. Exits 0 only when the proof is
# complete: every part searched, all agreeing.
# Usage: benches/proof-status.sh LOG N
set -euo pipefail
log=$1 n=$2
awk -v n="$n" '
    # "[part 3/102: 1 of 102 subtrees below 63 (list 5db2f9128d57d3a5) searched: ..." and
    # "| 235.37 s wall, 234.62 s user" at the end of the line.
    match($0, /\[part [0-9]+\/[0-9]+: [0-9]+ of [0-9]+ subtrees below [0-9]+( \(list [0-9a-f]+\))?/) {
        head = substr($0, RSTART, RLENGTH)
        split(head, w, /[ \/:()]+/)
        if (w[3] != n) next
        if (index($0, "searched: none smaller than") == 0) { stopped++; next }
        i = w[2]
        key = w[6] " subtrees below " w[9] (w[11] != "" ? ", list " w[11] : "")
        keys[key]++
        if (!(i in done)) { done[i] = 1; count++ }
        if (match($0, /, [0-9.]+ s user/)) {
            split(substr($0, RSTART + 2), u, " ")
            user += u[1]
        }
    }
    END {
        missing = ""
        for (i = 1; i <= n; i++) if (!(i in done)) missing = missing " " i
        printf "%d of %d parts searched, %.1f h of user time; %d stopped runs\n", count, n, user / 3600, stopped
        for (k in keys) { printf "  %d parts: %s\n", keys[k], k; kinds++ }
        if (missing != "") printf "missing:%s\n", missing
        if (kinds > 1) print "the parts disagree: not one proof"
        exit (count == n && kinds == 1) ? 0 : 1
    }
' "$log"
