#!/bin/sh
# The memory test: every command over a big generated taxi-like CSV (gen.c)
# through a pipe, its peak resident memory (GNU time's %M) asserted below a
# fixed bound that does not depend on the input's size; then a dataset of
# 100 files (two gzipped) read as one table, within the same bounds.  A test script, not
# a timed unit test: `make test-memory` (2 GiB per command, minutes), and a
# 200 MiB round in .ci/run.
#
#   tests/memory/run.sh SIMDSV [SIZE]     SIZE: bytes with K, M or G (default 2G)
#
# Each command is reported on one line: its peak RSS, its exit status, and
# PASS or FAIL (over the bound, or a failed command).  The exit status is 1 when any failed.
# MEMORY_SKIP="name,name": commands not run at all (reported as SKIP), e.g.
# those that would hold gigabytes on a shared machine.
# The Parquet writer holds one row group (131,072 rows) before it writes it:
# bounded by the row group, not the file, so it has its own bound.
# frequency is given the low-cardinality columns: its memory grows with the
# distinct values it counts (the answer), by design.
set -u
BIN=${1:?usage: run.sh SIMDSV [SIZE]}
SIZE=${2:-2G}
BOUND_KB=$((64 * 1024))
ROW_GROUP_BOUND_KB=$((160 * 1024))
HERE=$(cd "$(dirname "$0")" && pwd)
TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then
    echo "run.sh: GNU time is needed (apt-get install time)" >&2
    exit 2
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/simdsv-memory.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM
GEN=$TMP/gen
${CC:-cc} -O2 -o "$GEN" "$HERE/gen.c" || exit 2

failed=0
# measure NAME GEN-ARGS -- SIMDSV-ARGS...: gen | simdsv ARGS - (standard input)
measure() {
    name=$1
    gen_args=$2
    shift 2
    bound=$BOUND_KB
    case "$name" in
    "convert --to parquet") bound=$ROW_GROUP_BOUND_KB ;;
    esac
    case ",${MEMORY_SKIP:-}," in
    *",$name,"*)
        printf '%-5s %s\n' SKIP "$name"
        return
        ;;
    esac
    # the generator's status is not the command's: head stops reading early
    "$GEN" $gen_args | "$TIME" -f %M -o "$TMP/rss" "$BIN" "$@" - >"$TMP/out" 2>"$TMP/err"
    rss=$(tail -n 1 "$TMP/rss")
    status=$(sed -n 's/^Command exited with non-zero status \([0-9]*\)$/\1/p' "$TMP/rss")
    [ -n "$status" ] || status=0
    if [ "$status" = 0 ] && [ "$rss" -le "$bound" ] 2>/dev/null; then
        verdict=PASS
    else
        verdict=FAIL
        failed=1
    fi
    printf '%-5s %-34s peak RSS %7s KiB (bound %s KiB)  exit %s\n' "$verdict" "$name" "$rss" "$bound" "$status"
    if [ "$status" != 0 ]; then
        head -c 300 "$TMP/err" | sed 's/^/       /'
    fi
}

echo "memory test: $SIZE of taxi-like CSV through a pipe, per command"
measure "count" "$SIZE" count
measure "check" "$SIZE" check
measure "headers" "$SIZE" headers
measure "schema" "$SIZE" schema
measure "stats" "$SIZE" stats
measure "stats, a late misfit" "$SIZE --late-misfit" stats
measure "stats --format json" "$SIZE" stats --format json
measure "frequency (low-cardinality)" "$SIZE" frequency --select VendorID,passenger_count,RatecodeID,store_and_fwd_flag,payment_type,mta_tax
measure "convert --to csv" "$SIZE" convert --to csv
measure "convert --to json" "$SIZE" convert --to json
measure "convert --to jsonl" "$SIZE" convert --to jsonl
measure "convert --to arrows" "$SIZE" convert --to arrows -o "$TMP/out.arrows"
measure "convert --to parquet" "$SIZE" convert --to parquet -o "$TMP/out.parquet"
measure "select" "$SIZE" select 1,5,13
measure "search" "$SIZE" search -c store_and_fwd_flag Y
measure "head" "$SIZE" head -n 5
measure "tail" "$SIZE" tail -n 5
measure "slice" "$SIZE" slice --start 1000000 --end 1000010
measure "table" "$SIZE" table
measure "cat rows" "$SIZE" cat rows
rm -f "$TMP/out.arrows" "$TMP/out.parquet"

# Many files as one table: 100 files of SIZE / 100 (two gzipped), read one
# file at a time whatever their number: the same bounds as one input.
kib() {
    case $1 in
    *K) echo "${1%K}" ;;
    *M) echo $((${1%M} * 1024)) ;;
    *G) echo $((${1%G} * 1048576)) ;;
    *) echo $(($1 / 1024)) ;;
    esac
}
PER_FILE=$(($(kib "$SIZE") / 100))K
mkdir -p "$TMP/files"
i=0
while [ $i -lt 100 ]; do
    "$GEN" "$PER_FILE" >"$TMP/files/part-$(printf %03d $i).csv"
    i=$((i + 1))
done
if command -v gzip >/dev/null 2>&1; then
    gzip "$TMP/files/part-010.csv" "$TMP/files/part-020.csv"
fi
# measure_files NAME SIMDSV-ARGS...: simdsv ARGS over the files (no standard input)
measure_files() {
    name=$1
    shift
    bound=$BOUND_KB
    case "$name" in
    *parquet*) bound=$ROW_GROUP_BOUND_KB ;;
    esac
    "$TIME" -f %M -o "$TMP/rss" "$BIN" "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
    rss=$(tail -n 1 "$TMP/rss")
    status=$(sed -n 's/^Command exited with non-zero status \([0-9]*\)$/\1/p' "$TMP/rss")
    [ -n "$status" ] || status=0
    if [ "$status" = 0 ] && [ "$rss" -le "$bound" ] 2>/dev/null; then
        verdict=PASS
    else
        verdict=FAIL
        failed=1
    fi
    printf '%-5s %-34s peak RSS %7s KiB (bound %s KiB)  exit %s\n' "$verdict" "$name" "$rss" "$bound" "$status"
    if [ "$status" != 0 ]; then
        head -c 300 "$TMP/err" | sed 's/^/       /'
    fi
}
measure_files "100 files: convert --to parquet" convert "$TMP/files" -o "$TMP/out.parquet"
measure_files "100 files: convert --to arrows" convert "$TMP/files/*.csv*" -o "$TMP/out.arrows"
measure_files "100 files: stats" stats "$TMP/files"
rm -rf "$TMP/files" "$TMP/out.arrows" "$TMP/out.parquet"
[ "$failed" = 0 ] && echo "memory test: every command within its bound" || echo "memory test: FAILED"
exit "$failed"
