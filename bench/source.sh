#!/usr/bin/env bash
# bench/source.sh — is the file the bottleneck?  The typed read of the same
# file mapped (SIMDSV_OPT_MMAP=1, bench_read's default) and read with read()
# (the library's and Python's default), and Python's read_csv(...).to_arrow()
# (read(), a fresh interpreter per run, pyarrow imported before the timer),
# at 1 and 2 threads, interleaved round by round; then the record count in
# memory against the count of the file opened by path, by read() and mapped
# (bench_scan); then `simdsv count FILE` as a whole process against Polars'
# `scan_csv(FILE).select(pl.len())` (../shared/peers/peer.sh py-polars, timed
# in-process around the count after a warm-up, as issue #22 compares them),
# at 1 and 2 threads, interleaved.  Prints the medians of the seconds and of
# the CPU seconds (user + system, all threads: on a shared machine the
# steadier number) and the ratios to the mapped read, or Polars over simdsv.
#
#   bench/source.sh FILE...
#   env: REPEAT=5 BUILD=build PY=build-py/venv/bin/python (none: no Python)
#        PARTS="read count cli": which of the three parts run
#        PEER=../shared/peers/peer.sh (absent: the cli part has no Polars)
#        IDLE=1.5: seconds between runs.  A VM that hands freed memory back
#        to its host (free page reporting) makes fresh memory slow for about
#        2 s after a process frees it: with IDLE=0 each run gets the warm
#        pages of the one before, as no user's first read does.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPEAT=${REPEAT:-5}
BUILD=${BUILD:-build}
IDLE=${IDLE:-1.5}
PY=${PY-$ROOT/build-py/venv/bin/python}
[ -x "$PY" ] || PY=
PARTS=${PARTS:-read count cli}
PEER=${PEER:-$ROOT/../shared/peers/peer.sh}
[ -x "$PEER" ] || PEER=
has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
med() { sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'; }
cat > "$TMP/py_read.py" <<'EOF'
import resource, sys, time
import pyarrow  # noqa: F401  (imported before the timer, as a pyarrow user has it)
import simdsv

def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime

c0, t0 = cpu(), time.perf_counter()
simdsv.read_csv(sys.argv[1], threads=int(sys.argv[2])).to_arrow()
print(f"seconds={time.perf_counter() - t0:.3f} cpu={cpu() - c0:.3f}")
EOF
# WHO FILE THREADS -> "seconds cpu"
one() {
  local out
  case $1 in
    c_mmap) out=$("$ROOT/$BUILD/bench/bench_read" "$2" --threads "$3" --mmap 1) ;;
    c_read) out=$("$ROOT/$BUILD/bench/bench_read" "$2" --threads "$3" --mmap 0) ;;
    py_read) out=$("$PY" "$TMP/py_read.py" "$2" "$3") ;;
    cli_count) # the whole process; bash's time gives wall, user and system in ms
      out=$( { TIMEFORMAT='seconds=%R cpu=%U+%S'; time "$ROOT/$BUILD/simdsv" count --threads "$3" "$2" > /dev/null; } 2>&1 |
        awk -F'[= +]' '{ printf "seconds=%s cpu=%.3f", $2, $4 + $5 }') ;;
    polars_count) out=$("$PEER" py-polars "$2" count "$3") ;;
  esac
  echo "$out" | sed -n 's/.*seconds=\([0-9.]*\) cpu=\([0-9.]*\).*/\1 \2/p'
}
# FILE WHO BASE BASE_NAME: REPEAT interleaved rounds of each of WHO at 1 and
# 2 threads, then the medians and the ratios to BASE's.
table() {
  local f=$1 who=$2 base=$3
  : > "$TMP/rows"
  for _ in $(seq "$REPEAT"); do
    for t in 1 2; do
      for w in $who; do
        sleep "$IDLE"
        echo "$w $t $(one "$w" "$f" "$t")" >> "$TMP/rows"
      done
    done
  done
  printf '  %-12s %3s %8s %8s %10s %10s\n' who thr seconds cpu_s "s/$4" "cpu/$4"
  for t in 1 2; do
    for w in $who; do
      sel() { awk -v w="$w" -v t="$t" -v c="$1" '$1 == w && $2 == t { print $c }' "$TMP/rows" | med; }
      base() { awk -v b="$base" -v t="$t" -v c="$1" '$1 == b && $2 == t { print $c }' "$TMP/rows" | med; }
      awk -v w="$w" -v t="$t" -v s="$(sel 3)" -v c="$(sel 4)" -v bs="$(base 3)" -v bc="$(base 4)" \
        'BEGIN { printf "  %-12s %3s %8.3f %8.3f %9.2fx %9.2fx\n", w, t, s, c, s / bs, c / bc }'
    done
  done
}
who="c_mmap c_read"
[ -n "$PY" ] && who="$who py_read"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for f in "$@"; do
  cat "$f" > /dev/null
  awk -v f="$f" -v b="$(stat -c %s "$f")" \
    'BEGIN { printf "%s (%.1f MB), %d rounds, '"$IDLE"' s idle between runs\n", f, b / 1e6, '"$REPEAT"' }'
  if has read; then
    table "$f" "$who" c_mmap mmap
  fi
  if has count; then
    for op in count count-file count-map; do
      "$ROOT/$BUILD/bench/bench_scan" "$f" --op "$op" --repeat "$REPEAT" |
        sed -n 's/^op=\([a-z-]*\).* GB\/s=\([0-9.]*\).* cpu_GB\/s=\([0-9.]*\).*/  \1: \2 GB\/s (median wall), \3 GB\/s of CPU/p'
    done
  fi
  if has cli; then
    cli_who=cli_count
    [ -n "$PEER" ] && cli_who="$cli_who polars_count"
    table "$f" "$cli_who" cli_count simdsv
  fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
