#!/bin/sh
# bench/sniff.sh BIN FILE [RUNS] — the cost of automatic detection: the same
# command with detection and with --no-sniff plus the options it detects,
# interleaved, RUNS times each (default 7); prints the medians and the ratio.
set -eu
BIN=$1 FILE=$2 RUNS=${3:-7}
OPTS=$("$BIN" sniff --json "$FILE" | python3 -c 'import json,sys; print(json.load(sys.stdin)["options"])')
for cmd in count "select 1"; do
    auto="" given=""
    for i in $(seq "$RUNS"); do
        a=$( { /usr/bin/time -f %e sh -c "\"$BIN\" $cmd --no-progress \"$FILE\" >/dev/null" ; } 2>&1 )
        g=$( { /usr/bin/time -f %e sh -c "\"$BIN\" $cmd --no-progress --no-sniff $OPTS \"$FILE\" >/dev/null" ; } 2>&1 )
        auto="$auto $a" given="$given $g"
    done
    ma=$(echo $auto | tr ' ' '\n' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
    mg=$(echo $given | tr ' ' '\n' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
    echo "$cmd: detected ${ma}s, options given ${mg}s, ratio $(echo "$ma $mg" | awk '{printf "%.3f", $1/$2}')"
done
