#!/usr/bin/env bash
# write.sh — CSV to Parquet (zstd) and to Arrow IPC: simdsv against DuckDB and
# Polars (../shared/peers/peer.sh), side by side and interleaved (each round
# runs every tool once), medians of REPEAT rounds; then peak RSS of simdsv
# from a 200 MB file and from ten times that through a pipe.
#
#   bench/write.sh [FILE...]     default: bench/data/mixed_200mb.csv bench/data/taxi_200.csv
#   REPEAT=5 THREADS="1 2" BUILD=build PEERS=../shared/peers RSS=1
#
# Wall seconds: simdsv's whole process; the peers' own `seconds=` (their
# in-process time, node's start-up excluded).  cpu: user + system seconds.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
REPEAT=${REPEAT:-5}
THREADS=${THREADS:-"1 2"}
BUILD=${BUILD:-build}
PEERS=${PEERS:-$ROOT/../shared/peers}
RSS=${RSS:-1}
SIMDSV=$BUILD/simdsv
# The peers' node scripts find DuckDB and Polars in tests/readers (the same
# pinned versions) when the peers folder has no node_modules of its own.
[ -d "$PEERS/node/node_modules" ] || export NODE_PATH=$ROOT/tests/readers/node_modules
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(bench/data/mixed_200mb.csv bench/data/taxi_200.csv)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "NA"; else print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }

# simdsv ARGS...: "seconds cpu rss_kib bytes" of one run writing $out/s.out
run_simdsv() {
  local t
  t=$( { /usr/bin/time -f '%e %U %S %M' "$SIMDSV" convert "$@" -o "$out/s.out" 2>&1 >/dev/null; } | tail -1)
  read -r wall user sys rss <<<"$t"
  echo "$wall $(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}') $rss $(stat -c %s "$out/s.out")"
}

# peer PEER FILE OP THREADS: "seconds cpu - bytes"
run_peer() {
  local line
  line=$("$PEERS/peer.sh" "$1" "$2" "$3" "$4" 2>/dev/null | grep -o 'seconds=.*')
  local secs cpu bytes
  secs=$(grep -o 'seconds=[0-9.]*' <<<"$line" | cut -d= -f2)
  cpu=$(grep -o 'cpu=[0-9.]*' <<<"$line" | cut -d= -f2)
  bytes=$(grep -o 'out_bytes=[0-9]*' <<<"$line" | cut -d= -f2)
  echo "$secs $cpu - $bytes"
}

declare -A m
echo "# bench/write.sh $(date -u +%FT%TZ), REPEAT=$REPEAT, load $(cut -d' ' -f1-3 /proc/loadavg)"
for f in "${files[@]}"; do
  for t in $THREADS; do
    declare -A col=()
    for ((r = 0; r < REPEAT; r++)); do
      col[sp]+="$(run_simdsv "$f" --to parquet --compression zstd --threads "$t")"$'\n'
      col[dp]+="$(run_peer duckdb "$f" parquet "$t")"$'\n'
      col[pp]+="$(run_peer polars "$f" parquet "$t")"$'\n'
      col[sa]+="$(run_simdsv "$f" --to arrow --threads "$t")"$'\n'
      col[pa]+="$(run_peer polars "$f" ipc "$t")"$'\n'
    done
    for k in sp dp pp sa pa; do
      m[$k.s]=$(awk 'NF {print $1}' <<<"${col[$k]}" | median)
      m[$k.c]=$(awk 'NF {print $2}' <<<"${col[$k]}" | median)
      m[$k.b]=$(awk 'NF {print $4}' <<<"${col[$k]}" | median)
    done
    echo "## $(basename "$f"), $t thread(s): median wall s (cpu s), output MB"
    printf '%-28s %8s %8s %8s\n' tool wall cpu MB
    for k in sp:simdsv-parquet-zstd dp:duckdb-parquet-zstd pp:polars-parquet-zstd sa:simdsv-arrow pa:polars-ipc; do
      printf '%-28s %8s %8s %8.1f\n' "${k#*:}" "${m[${k%%:*}.s]}" "${m[${k%%:*}.c]}" \
        "$(awk -v b="${m[${k%%:*}.b]}" 'BEGIN {print b / 1e6}')"
    done
    awk -v s="${m[sp.s]}" -v d="${m[dp.s]}" -v p="${m[pp.s]}" -v a="${m[sa.s]}" -v q="${m[pa.s]}" \
        -v sb="${m[sp.b]}" -v db="${m[dp.b]}" 'BEGIN {
      best = d < p ? d : p
      printf "parquet: %.2fx the faster peer (target >= 2); size %.3f of DuckDB (target within 10%%); ipc: %.2fx Polars (target >= 3)\n",
        best / s, sb / db, q / a }'
    unset col
  done
done

if [ "$RSS" = 1 ]; then
  f=${files[-1]}
  echo "## peak RSS of simdsv (KiB): $(basename "$f") as a file, through a pipe, and 10x through a pipe"
  for fmt in parquet arrow; do
    file=$(/usr/bin/time -f %M "$SIMDSV" convert "$f" --to $fmt --compression zstd -o "$out/r.out" 2>&1 >/dev/null | tail -1)
    pipe=$( { cat "$f" | /usr/bin/time -f %M "$SIMDSV" convert - --to $fmt --compression zstd -o "$out/r.out"; } 2>&1 | tail -1)
    big=$( { for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$f"; done | awk 'NR == 1 || !/^VendorID|^id,/' |
      /usr/bin/time -f %M "$SIMDSV" convert - --to $fmt --compression zstd -o "$out/r.out"; } 2>&1 | tail -1)
    echo "$fmt: file $file, pipe $pipe, 10x pipe $big"
  done
fi
