#!/usr/bin/env bash
# The state of a proof in parts from its log (see benches/proof-parts.sh): how many of the N
# parts are searched, which are missing, the work they took, and whether every searched part
# reports the same subtree count, bar and list fingerprint (lines from a binary that prints
# no fingerprint carry none). A part split once more
# (`--part I/N,J/M`) counts as searched when all M of its subparts are, on one sublist.
# Exits 0 only when the proof is complete: every part searched, all agreeing.
# Usage: benches/proof-status.sh LOG N [missing]
#   with "missing": only the missing parts' numbers, one line, for proof-parts.sh.
set -euo pipefail
log=$1 n=$2 mode=${3:-}
awk -v n="$n" -v mode="$mode" '
    # "[part 3/102: 1 of 102 subtrees below 63 (list 5db2f9128d57d3a5) searched: ..." or
    # "[part 5/102,2/8: 4 of the 32 descendants of 1 of 102 subtrees below 63 (list ...,
    # sublist ...) searched: ...", and "| 235.37 s wall, 234.62 s user" at the end.
    match($0, /\[part [0-9]+\/[0-9]+(,[0-9]+\/[0-9]+)?: [^\]]*/) {
        head = substr($0, RSTART, RLENGTH)
        split(head, w, /[ \/:(),]+/)
        if (w[3] != n) next
        if (index($0, "searched: none smaller than") == 0) { stopped++; next }
        i = w[2]
        if (match($0, /, [0-9.]+ s user/)) {
            split(substr($0, RSTART + 2), u, " ")
            user += u[1]
        }
        if (head ~ /descendants/) {
            # w: [part I N J M k of the c descendants of x of T subtrees below B list L sublist S
            j = w[4]; m = w[5]
            key = w[14] " subtrees below " w[17]
            lists[w[19]]++
            subs[i, m, j] = 1
            subkey[i, m] = subkey[i, m] == "" || subkey[i, m] == w[21] ? w[21] : "two"
            subkeys[i, m] = key
            subm[i] = subm[i] " " m
            next
        }
        key = w[6] " subtrees below " w[9]
        if (w[10] == "list") lists[w[11]]++; else bare++
        keys[key]++
        if (!(i in done)) { done[i] = 1; count++ }
    }
    END {
        # Parts done by all their subparts.
        for (i = 1; i <= n; i++) {
            if (i in done || !(i in subm)) continue
            split(subm[i], ms, " ")
            for (x in ms) {
                m = ms[x]; all = 1
                for (j = 1; j <= m; j++) if (!((i, m, j) in subs)) all = 0
                if (all && subkey[i, m] != "two") {
                    done[i] = 1; count++; keys[subkeys[i, m]]++
                    break
                }
            }
        }
        missing = ""
        for (i = 1; i <= n; i++) if (!(i in done)) missing = missing " " i
        if (mode == "missing") { print substr(missing, 2); exit 0 }
        printf "%d of %d parts searched, %.1f h of user time; %d stopped runs\n", count, n, user / 3600, stopped
        for (k in keys) { printf "  %d parts: %s\n", keys[k], k; kinds++ }
        # Lines from a binary that prints no fingerprint carry none; those that do must agree.
        for (l in lists) { printf "  %d lines with list %s\n", lists[l], l; kinds += nl++ > 0 }
        if (bare) printf "  %d lines without a list fingerprint (a binary that prints none)\n", bare
        if (missing != "") printf "missing:%s\n", missing
        if (kinds > 1) print "the parts disagree: not one proof"
        exit (count == n && kinds == 1) ? 0 : 1
    }
' "$log"
