#!/bin/bash
# bench/cli.sh — CLI commands, one build against another, interleaved.
#
#   bench/cli.sh OLD_SIMDSV NEW_SIMDSV FILE [RUNS]
#   SET=all bench/cli.sh ...   every command (FILE must be taxi-shaped: 17+ columns)
#   ONLY='REGEX' bench/cli.sh ...   only the commands matching REGEX (grep -E)
#   BLOCK=N bench/cli.sh ...   each timing is N runs in a row, divided by N (for
#                              commands that take about the clock's millisecond)
#   bench/cli.sh xan SIMDSV FILE [RUNS]   simdsv against the xan CLI (XAN=path,
#                              default ../shared/peers/bin-rust/bin/xan) on the jobs
#                              of issue #22 (any shape with 3+ columns): select 1,2,3,
#                              search -c 2 1, frequency --select 2, count, slice,
#                              convert --to csv (xan fmt: both write the CSV again);
#                              xan is given the same jobs in its own syntax (0-based
#                              columns) and its output is not compared
#
# Runs each command RUNS times (default 7) with both binaries taking turns,
# output to /dev/null, and prints per command and binary the median wall
# time, the median CPU time (user + system) and the throughput from the
# median wall time; then NEW/OLD ratios of the medians.  On a busy machine
# the CPU time is the steadier of the two.
set -u
OLD=${1:?usage: cli.sh OLD_SIMDSV NEW_SIMDSV FILE [RUNS]}
NEW=${2:?}
FILE=${3:?}
RUNS=${4:-7}
BYTES=$(stat -c %s "$FILE")
TIMEFORMAT='%R %U %S'

# In xan mode each command is "SIMDSV ARGS|XAN ARGS".
if [ "$OLD" = xan ]; then
    OLD=${XAN:-$(cd "$(dirname "$0")" && pwd)/../../shared/peers/bin-rust/bin/xan}
    [ -x "$OLD" ] || { echo "cli.sh: no xan at $OLD (set XAN)" >&2; exit 2; }
    OLD_NAME=xan
    commands=(
        "select 1,2,3|select 0,1,2"
        "search -c 2 1|search -s 1 1"
        "frequency --select 2|frequency -s 1"
        "count --threads 1|count"
        "slice --start 1000000 --end 1000100|slice -s 1000000 -e 1000100"
        "convert --to csv|fmt"
    )
else
    OLD_NAME=old
commands=(
    "select 1,5,13"
    "search -- -73.961326"
    "search -i nyc"
    "search -c 9 Y"
    "convert --to csv"
    "slice --start 1000000 --end 1000100"
    "count"
)
# Every command of the CLI, for the before/after table of a refactor: the
# record commands above plus the typed ones.  Columns 1 (vendor), 9
# (store-and-forward flag) and 13 (fare) of the taxi shape.
if [ "${SET:-}" = all ]; then
    commands+=(
        "check"
        "headers"
        "head -n 1000"
        "tail -n 1000"
        "table"
        "frequency --select 1,9"
        "schema"
        "stats"
        "convert --to jsonl"
        "cat rows"
    )
fi
fi

OLD_TIMES=$(mktemp) NEW_TIMES=$(mktemp) # (several people may run this at once)
trap 'rm -f "$OLD_TIMES" "$NEW_TIMES"' EXIT

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

for pair in "${commands[@]}"; do
    cmd=${pair%%|*}
    old_cmd=${pair##*|} # the same command but in xan mode
    if [ -n "${ONLY:-}" ] && ! grep -Eq -- "${ONLY}" <<<"$cmd"; then
        continue
    fi
    : >"$OLD_TIMES"
    : >"$NEW_TIMES"
    for ((i = 0; i < RUNS; i++)); do
        # shellcheck disable=SC2086
        { time (for ((j = 0; j < ${BLOCK:-1}; j++)); do "$OLD" $old_cmd "$FILE" >/dev/null; done); } 2>>"$OLD_TIMES"
        # shellcheck disable=SC2086
        { time (for ((j = 0; j < ${BLOCK:-1}; j++)); do "$NEW" $cmd "$FILE" >/dev/null; done); } 2>>"$NEW_TIMES"
    done
    ow=$(awk -v b="${BLOCK:-1}" '{print $1 / b}' "$OLD_TIMES" | median)
    oc=$(awk -v b="${BLOCK:-1}" '{print ($2 + $3) / b}' "$OLD_TIMES" | median)
    nw=$(awk -v b="${BLOCK:-1}" '{print $1 / b}' "$NEW_TIMES" | median)
    nc=$(awk -v b="${BLOCK:-1}" '{print ($2 + $3) / b}' "$NEW_TIMES" | median)
    awk -v c="$cmd" -v ow="$ow" -v oc="$oc" -v nw="$nw" -v nc="$nc" -v b="$BYTES" -v o="$OLD_NAME" 'BEGIN {
        if (o == "xan")
            printf "%-38s xan wall %.4f s cpu %.4f s | simdsv wall %.4f s cpu %.4f s (%.2f GB/s) | xan/simdsv wall %.2fx cpu %.2fx\n",
                c, ow, oc, nw, nc, b / nw / 1e9, ow / nw, oc / nc
        else
            printf "%-38s old wall %.4f s cpu %.4f s (%.2f GB/s) | new wall %.4f s cpu %.4f s (%.2f GB/s) | new/old wall %.2f cpu %.2f\n",
                c, ow, oc, b / ow / 1e9, nw, nc, b / nw / 1e9, nw / ow, nc / oc }'
done
