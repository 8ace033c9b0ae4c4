#!/usr/bin/env bash
# bench/typed.sh — the typed read (all columns, and one column) of simdsv and
# its peers (Polars, fread, DuckDB by default) side by side, 1 and 2 threads,
# interleaved: each repetition runs every reader once, so that a slow stretch
# of a noisy machine hits all of them alike.  Prints, per reader, the median
# and best wall seconds, the median CPU seconds (user + system, all threads:
# the steadier number on a shared machine) and MB/s; then simdsv's ratio to
# the fastest peer, by median wall and by median CPU.  The load average is
# printed before and after.
#
#   bench/typed.sh FILE...
#   env: REPEAT=5 BUILD=build PEERS="polars fread duckdb" PEERS_DIR=../shared/peers
#        COL=1 (1-based column of read1)  OPS="read read1"  THREADS="1 2"
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPEAT=${REPEAT:-5}
BUILD=${BUILD:-build}
PEERS=${PEERS:-polars fread duckdb}
PEERS_DIR=${PEERS_DIR:-$ROOT/../shared/peers}
COL=${COL:-1}
OPS=${OPS:-read read1}
THREADS=${THREADS:-1 2}
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p"; }
# "median best" of the numbers on stdin
stats() { sort -n | awk '{a[NR]=$1} END {printf "%.3f %.3f\n", a[int((NR+1)/2)], a[1]}'; }
one() { # READER FILE OP THREADS -> "seconds cpu"
  local out
  if [ "$1" = simdsv ]; then
    if [ "$3" = read ]; then
      out=$("$ROOT/$BUILD/bench/bench_read" "$2" --threads "$4")
    else
      out=$("$ROOT/$BUILD/bench/bench_read" "$2" --threads "$4" --columns "#$COL")
    fi
  else
    out=$(PEER_COL=$((COL - 1)) "$PEERS_DIR/peer.sh" "$1" "$2" "$3" "$4")
  fi
  echo "$(echo " $out" | field seconds) $(echo " $out" | field cpu)"
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for f in "$@"; do
  bytes=$(stat -c %s "$f")
  cat "$f" > /dev/null
  awk -v f="$f" -v b="$bytes" 'BEGIN { printf "%s (%.1f MB)\n", f, b / 1e6 }'
  printf '  %-8s %-5s %3s %9s %9s %9s %7s\n' reader op thr median_s best_s cpu_s MB/s
  for threads in $THREADS; do
    for op in $OPS; do
      declare -A wall=() cpu=()
      for _ in $(seq "$REPEAT"); do
        for who in simdsv $PEERS; do
          read -r s c < <(one "$who" "$f" "$op" "$threads")
          wall[$who]+="$s "
          cpu[$who]+="$c "
        done
      done
      best_peer_wall="" best_peer_cpu=""
      for who in simdsv $PEERS; do
        read -r med best < <(tr ' ' '\n' <<< "${wall[$who]}" | grep . | stats)
        read -r cmed _ < <(tr ' ' '\n' <<< "${cpu[$who]}" | grep . | stats)
        awk -v w="$who" -v o="$op" -v t="$threads" -v m="$med" -v b="$best" -v c="$cmed" -v n="$bytes" \
          'BEGIN { printf "  %-8s %-5s %3s %9s %9s %9s %7.0f\n", w, o, t, m, b, c, n / 1e6 / m }'
        if [ "$who" = simdsv ]; then
          own_wall=$med own_cpu=$cmed
        else
          best_peer_wall=$(awk -v a="$best_peer_wall" -v b="$med" 'BEGIN { print (a == "" || b < a) ? b : a }')
          best_peer_cpu=$(awk -v a="$best_peer_cpu" -v b="$cmed" 'BEGIN { print (a == "" || b < a) ? b : a }')
        fi
      done
      if [ -n "$best_peer_wall" ]; then
        awk -v w="$own_wall" -v c="$own_cpu" -v pw="$best_peer_wall" -v pc="$best_peer_cpu" \
          'BEGIN { printf "  => simdsv vs fastest peer: %.2fx by median wall, %.2fx by median cpu\n", pw / w, pc / c }'
      fi
      unset wall cpu
    done
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
