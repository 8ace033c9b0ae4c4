#!/bin/sh
# bench/sniff.sh BIN FILE [RUNS] — the cost of automatic detection: the same
# command with detection and with --no-sniff plus the options it detects,
# interleaved, RUNS times each (default 9); prints the medians of CPU time
# (task-clock in ms, from perf stat: the machine is shared, wall time measures
# the neighbours)
# and their ratio, per command.
set -eu
BIN=$1 FILE=$2 RUNS=${3:-9}
OPTS=$("$BIN" sniff --json "$FILE" | python3 -c 'import json,sys; print(json.load(sys.stdin)["options"])')
median() { tr ' ' '\n' | grep . | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
# task-clock of the command (perf stat: to the microsecond; /usr/bin/time counts 10 ms ticks)
cpu() { sh -c "perf stat -x, -e task-clock $1 2>&1 >/dev/null" | awk -F, '/task-clock/ {printf "%.1f", $1}'; }
for cmd in count check "select 1"; do
    auto="" given=""
    for i in $(seq "$RUNS"); do
        auto="$auto $(cpu "\"$BIN\" $cmd --no-progress \"$FILE\"")"
        given="$given $(cpu "\"$BIN\" $cmd --no-progress --no-sniff $OPTS \"$FILE\"")"
    done
    ma=$(echo $auto | median)
    mg=$(echo $given | median)
    echo "$cmd: CPU ms, detected $ma, options given $mg, ratio $(echo "$ma $mg" | awk '{printf "%.3f", $1/$2}')"
done
