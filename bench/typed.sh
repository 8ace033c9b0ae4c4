#!/usr/bin/env bash
# bench/typed.sh — the typed read (all columns, and one column) of simdsv and
# Polars side by side, 1 and 2 threads, interleaved so that a slow stretch of
# a noisy machine hits both alike.  Prints median and best seconds and MB/s.
#
#   bench/typed.sh FILE...        env: REPEAT=5 BUILD=build PEERS_DIR=/tmp/peers COL=id
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPEAT=${REPEAT:-5}
BUILD=${BUILD:-build}
PEERS_DIR=${PEERS_DIR:-/tmp/peers}
COL=${COL:-1}
stats() { sort -n | awk '{a[NR]=$1} END {m=a[int((NR+1)/2)]; printf "%.3f %.3f\n", m, a[1]}'; }
for f in "$@"; do
  bytes=$(stat -c %s "$f")
  cat "$f" > /dev/null
  awk -v f="$f" -v b="$bytes" 'BEGIN { printf "%s (%.1f MB)\n", f, b / 1e6 }'
  printf '  %-8s %-5s %3s %9s %9s %9s\n' reader op thr median_s best_s MB/s
  for threads in 1 2; do
    for op in read read1; do
      s_times=() p_times=()
      for _ in $(seq "$REPEAT"); do
        if [ "$op" = read ]; then
          s=$("$ROOT/$BUILD/bench/bench_read" "$f" --threads "$threads" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
        else
          s=$("$ROOT/$BUILD/bench/bench_read" "$f" --threads "$threads" --columns "#$COL" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
        fi
        s_times+=("$s")
        p=$(PEER_COL=$((COL - 1)) "$PEERS_DIR/peer.sh" polars "$f" "$op" "$threads" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
        p_times+=("$p")
      done
      for who in simdsv polars; do
        if [ $who = simdsv ]; then read -r med best < <(printf '%s\n' "${s_times[@]}" | stats)
        else read -r med best < <(printf '%s\n' "${p_times[@]}" | stats); fi
        awk -v w=$who -v o=$op -v t="$threads" -v m="$med" -v b="$best" -v n="$bytes" 'BEGIN { printf "  %-8s %-5s %3s %9s %9s %9.0f\n", w, o, t, m, b, n / 1e6 / m }'
      done
    done
  done
done
