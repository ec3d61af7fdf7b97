#!/bin/bash
# Every legal start of every 3xn and 4xn board from n = FROM to TO (default 5 to 60):
# divide builds an open tour from it, and solve checks it. Prints one line a run ("ok" or
# "FAIL", the board, the start, divide's time); boards and starts without a tour print the
# existence rule's reason as a FAIL line (3x5, 3x6, 3x7 [1,3], 3x8 [1,2] and [1,5]).
# Usage: bash benches/tour-thin-starts.sh [FROM] [TO]   (after cargo build --release)
cd "$(dirname "$0")/.." || exit 2
S="target/release/solve puzzles/closed16.toml --set rules.closed=false --strategy divide --output /dev/null"
for n in $(seq "${1:-5}" "${2:-60}"); do
  for rows in 3 4; do
    for c in $(seq 0 $((n - 1))); do
      for r in $(seq 0 $((rows - 1))); do
        if [ "$rows" = 4 ] && { [ "$r" = 1 ] || [ "$r" = 2 ]; }; then continue; fi
        if [ "$rows" = 3 ] && [ $((n % 2)) = 1 ] && [ $(((r + c) % 2)) = 1 ]; then continue; fi
        out=$($S --width "$n" --height "$rows" --set "rules.start=[$r, $c]" 2>&1 | tail -1)
        case "$out" in
          "1 solution"*) echo "ok ${rows}x$n [$r,$c] $(echo "$out" | awk -F'|' '{print $4}')" ;;
          *) echo "FAIL ${rows}x$n [$r,$c] $out" ;;
        esac
      done
    done
  done
done
