#!/usr/bin/env bash
# bench/stats.sh — `simdsv stats` against DuckDB's SUMMARIZE (the same
# statistics and more: DuckDB gives min, max, approx_unique, avg, std,
# q25/q50/q75, count, null_percentage), 1 and 2 threads, interleaved in one
# run so that a slow stretch of a shared machine hits both alike.  Whole
# process wall time, CPU time (user + system) and peak RSS (GNU time),
# medians of REPEAT runs, and the ratio DuckDB / simdsv at the same threads
# (wall; on a machine shared with other work, CPU time is the steadier one).
#
#   bench/stats.sh FILE...     env: REPEAT=5 BUILD=build NODE_MODULES=../shared/peers/node/node_modules
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPEAT=${REPEAT:-5}
BUILD=${BUILD:-build}
export NODE_PATH=${NODE_MODULES:-$ROOT/../shared/peers/node/node_modules}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# one NAME CMD...: appends "seconds rss_kib cpu_seconds" to $TMP/NAME
one() {
  local name=$1
  shift
  /usr/bin/time -f "%e %M %U %S" -o "$TMP/t" "$@" >/dev/null
  awk '{ print $1, $2, $3 + $4 }' "$TMP/t" >>"$TMP/$name"
}
for f in "$@"; do
  cat "$f" >/dev/null
  rm -f "$TMP"/s* "$TMP"/d*
  for _ in $(seq "$REPEAT"); do
    for threads in 1 2; do
      one "s$threads" "$ROOT/$BUILD/simdsv" stats --threads "$threads" "$f"
      one "d$threads" node "$ROOT/bench/duckdb_summarize.js" "$f" "$threads"
    done
  done
  awk -v f="$f" -v b="$(stat -c %s "$f")" 'BEGIN { printf "%s (%.0f MB), median of '"$REPEAT"' runs\n", f, b / 1e6 }'
  printf '  %-22s %7s %10s %10s %12s\n' job threads seconds "CPU s" "peak RSS"
  for threads in 1 2; do
    s=$(cut -d' ' -f1 "$TMP/s$threads" | median)
    d=$(cut -d' ' -f1 "$TMP/d$threads" | median)
    sm=$(cut -d' ' -f2 "$TMP/s$threads" | median)
    dm=$(cut -d' ' -f2 "$TMP/d$threads" | median)
    sc=$(cut -d' ' -f3 "$TMP/s$threads" | median)
    dc=$(cut -d' ' -f3 "$TMP/d$threads" | median)
    printf '  %-22s %7s %10s %10s %8s MiB\n' "simdsv stats" "$threads" "$s" "$sc" "$((sm / 1024))"
    printf '  %-22s %7s %10s %10s %8s MiB\n' "DuckDB SUMMARIZE" "$threads" "$d" "$dc" "$((dm / 1024))"
    awk -v s="$s" -v d="$d" -v sc="$sc" -v dc="$dc" -v t="$threads" \
      'BEGIN { printf "  DuckDB / simdsv at %s thread(s): %.1fx wall, %.1fx CPU\n", t, d / s, dc / sc }'
  done
  s1=$(cut -d' ' -f1 "$TMP/s1" | median)
  s2=$(cut -d' ' -f1 "$TMP/s2" | median)
  awk -v a="$s1" -v b="$s2" 'BEGIN { printf "  simdsv stats, 1 thread / 2 threads: %.2fx\n", a / b }'
done
