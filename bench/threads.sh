#!/usr/bin/env bash
# bench/threads.sh — how the typed read scales from 1 to 2 threads, for two
# builds side by side (a base commit's and this tree's), interleaved: each
# repetition runs base 1T, new 1T, base 2T, new 2T, then the machine's own
# 2-core scaling: one 1-thread read alone, then two at once (separate
# processes, nothing shared but the hardware).  Prints per build and thread
# count the median read seconds (simdsv_table_read + Arrow export, as
# bench_read reports it) and the medians of the process's user and system
# seconds (/usr/bin/time: fresh output pages are system time, and how much
# depends on the huge pages the VM has free); then the 2T/1T speedups by
# median wall and by median user+sys, and the pair's speedup (2 x alone /
# pair wall: what two independent reads get from two cores).  The load
# average is printed before and after.
#
#   BASE=path/to/base/bench_read bench/threads.sh FILE...
#   env: REPEAT=5 NEW=build/bench/bench_read OPTS="" (more bench_read options
#        for both builds, e.g. "--escape \\" or "--lenient 1": then give as
#        BASE a build that has them)
#
# A base build: git worktree add /tmp/base COMMIT && cmake -S /tmp/base -B
# /tmp/base/build -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/base/build
# --target bench_read
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPEAT=${REPEAT:-5}
NEW=${NEW:-$ROOT/build/bench/bench_read}
BASE=${BASE:?set BASE to the base build\'s bench_read}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
med() { sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'; }
# BINARY FILE THREADS -> "read_seconds user sys" (one line)
one() {
  # shellcheck disable=SC2086
  /usr/bin/time -f "%U %S" -o "$TMP/time" "$1" "$2" --threads "$3" ${OPTS:-} > "$TMP/out"
  echo "$(sed -n 's/.* seconds=\([0-9.]*\).*/\1/p' "$TMP/out") $(cat "$TMP/time")"
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for f in "$@"; do
  cat "$f" > /dev/null
  awk -v f="$f" -v b="$(stat -c %s "$f")" -v o="${OPTS:-}" \
    'BEGIN { printf "%s (%.1f MB) %s, %d repetitions\n", f, b / 1e6, o, '"$REPEAT"' }'
  : > "$TMP/rows"
  for _ in $(seq "$REPEAT"); do
    for t in 1 2; do
      for who in base new; do
        bin=$BASE; [ "$who" = new ] && bin=$NEW
        echo "$who $t $(one "$bin" "$f" "$t")" >> "$TMP/rows"
      done
    done
    echo "alone $(one "$NEW" "$f" 1)" >> "$TMP/rows"
    one "$NEW" "$f" 1 > "$TMP/pair1" & one "$NEW" "$f" 1 > "$TMP/pair2"; wait
    echo "pair $(cat "$TMP/pair1" "$TMP/pair2" | awk '{ if ($1 > w) w = $1 } END { print w }')" >> "$TMP/rows"
  done
  printf '  %-5s %3s %8s %8s %8s\n' build thr read_s user_s sys_s
  for who in base new; do
    for t in 1 2; do
      sel() { awk -v w="$who" -v t="$t" -v c="$1" '$1 == w && $2 == t { print $c }' "$TMP/rows" | med; }
      cpu=$(awk -v w="$who" -v t="$t" '$1 == w && $2 == t { print $4 + $5 }' "$TMP/rows" | med)
      printf '  %-5s %3s %8s %8s %8s\n' "$who" "$t" "$(sel 3)" "$(sel 4)" "$(sel 5)"
      eval "wall_${who}_$t=$(sel 3) cpu_${who}_$t=$cpu"
    done
    awk -v w="$who" -v a="$(eval echo "\$wall_${who}_1")" -v b="$(eval echo "\$wall_${who}_2")" \
      -v c="$(eval echo "\$cpu_${who}_1")" -v d="$(eval echo "\$cpu_${who}_2")" \
      'BEGIN { printf "  => %s: 2T/1T %.2fx by median wall; CPU 2T/1T %.2f (user+sys)\n", w, a / b, d / c }'
  done
  alone=$(awk '$1 == "alone" { print $2 }' "$TMP/rows" | med)
  pair=$(awk '$1 == "pair" { print $2 }' "$TMP/rows" | med)
  awk -v a="$alone" -v p="$pair" \
    'BEGIN { printf "  => the machine: one 1T read alone %.3f s, two at once %.3f s: %.2fx from 2 cores\n", a, p, 2 * a / p }'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
