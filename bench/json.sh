#!/bin/bash
# bench/json.sh FILE [REPEAT] — CSV to JSON lines, whole-process time, side by
# side and interleaved in one run: simdsv convert --to jsonl at 1 and 2
# threads, DuckDB's COPY ... (FORMAT json) at 1 and 2 threads
# (bench/duckdb_json.js over ../shared/peers/node), Miller 6 (mlr --icsv
# --ojsonl cat, once: it is 20-100x slower) when installed.  Output goes to
# /dev/null for every tool.  Prints per job the median wall and CPU
# (user+sys) seconds, input GB/s by wall and by CPU, and peak RSS.
#   SIMDSV=build/simdsv  PEERS=../shared/peers  MLR=0 to skip Miller
set -u
FILE=${1:?usage: bench/json.sh FILE [REPEAT]}
REPEAT=${2:-5}
S=${SIMDSV:-build/simdsv}
PEERS=${PEERS:-$(dirname "$0")/../../shared/peers}
export NODE_PATH=$PEERS/node/node_modules
HERE=$(dirname "$0")
SIZE=$(stat -c %s "$FILE")
LOG=$(mktemp)
trap 'rm -f "$LOG" "$LOG.t"' EXIT
cat "$FILE" >/dev/null

one() { # NAME COMMAND...
    local name=$1
    shift
    /usr/bin/time -o "$LOG.t" -f "%e %U %S %M" "$@" >/dev/null 2>/dev/null || { echo "$name failed" >&2; return; }
    echo "$name $(cat "$LOG.t")" >>"$LOG"
}

for _ in $(seq "$REPEAT"); do
    one simdsv-1 "$S" convert --to jsonl --threads 1 "$FILE"
    one duckdb-1 node "$HERE/duckdb_json.js" "$FILE" /dev/null 1
    one simdsv-2 "$S" convert --to jsonl --threads 2 "$FILE"
    one duckdb-2 node "$HERE/duckdb_json.js" "$FILE" /dev/null 2
done
if [ "${MLR:-1}" = 1 ] && command -v mlr >/dev/null; then
    one miller mlr --icsv --ojsonl cat "$FILE"
fi

printf '%-9s %5s %8s %8s %9s %9s %7s\n' job runs wall_s cpu_s GB/s_wall GB/s_cpu rss_MB
for job in simdsv-1 simdsv-2 duckdb-1 duckdb-2 miller; do
    grep "^$job " "$LOG" | awk -v job="$job" -v size="$SIZE" '
        { wall[NR] = $2; cpu[NR] = $3 + $4; if ($5 > rss) rss = $5 }
        function median(a, n,   i, j, t) {
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        END { if (NR) { w = median(wall, NR); c = median(cpu, NR)
              printf "%-9s %5d %8.2f %8.2f %9.3f %9.3f %7d\n", job, NR, w, c, size / w / 1e9, size / c / 1e9, rss / 1024 } }'
done
