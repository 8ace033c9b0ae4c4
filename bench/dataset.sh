#!/usr/bin/env bash
# dataset.sh — many files as one table (issue 24): simdsv against DuckDB
# (read_csv of a glob, union_by_name), Polars (scan_csv of each file,
# concatenated diagonally: one file has an extra column) and pyarrow
# (dataset(...).to_table()), side by side and interleaved (each round runs
# every tool once), medians of REPEAT rounds, at each thread count.
#
#   bench/dataset.sh [FILES [MB]]      default: 200 files of 10 MiB
#   DATA=/work/data-dataset REPEAT=3 THREADS="1 2" BUILD=build PY=../shared/peers/python/venv/bin/python
#
# The data (made once, kept in DATA/FILESxMB/, never in git): gen.py taxi
# files with 10 seeds, copied round; the 8th file has an extra column, the
# 4th and the 12th are gzipped.
# Jobs: "arrow" the files into one Arrow table (simdsv: bench_dataset
# --chunks --mmap, in process: a record batch per file, files mapped, as
# Python's read_csv of many files reads them and as the peers' tables are
# chunked; the peers in their Python process), "parquet" the files into one
# Parquet file compressed with zstd on every side (simdsv convert
# --compression zstd; DuckDB COPY with COMPRESSION zstd, whose default is
# snappy; Polars sink_parquet with compression "zstd").  Wall
# seconds as each tool times itself (simdsv convert: its whole process), and
# CPU seconds (every thread's, getrusage; the steadier measure on a shared
# machine), each as "wall/cpu".
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
FILES=${1:-200}
MB=${2:-10}
DATA=${DATA:-/work/data-dataset}
REPEAT=${REPEAT:-3}
THREADS=${THREADS:-"1 2"}
BUILD=${BUILD:-build}
PY=${PY:-$ROOT/../shared/peers/python/venv/bin/python}
DIR=$DATA/${FILES}x${MB}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

if [ ! -f "$DIR/.complete" ]; then
    mkdir -p "$DIR"
    for s in 0 1 2 3 4 5 6 7 8 9; do
        [ -f "$DATA/seed-$MB-$s.csv" ] || python3 "$ROOT/../shared/datasets/gen.py" taxi "$MB" --seed "$s" -o "$DATA/seed-$MB-$s.csv" >/dev/null
    done
    for i in $(seq 0 $((FILES - 1))); do
        f=$(printf '%s/part-%04d.csv' "$DIR" "$i")
        if [ "$i" = 7 ]; then # an extra column
            awk -F, 'NR == 1 { print $0 ",note"; next } { print $0 ",n" NR }' "$DATA/seed-$MB-$((i % 10)).csv" >"$f"
        else
            cp "$DATA/seed-$MB-$((i % 10)).csv" "$f"
        fi
        if [ "$i" = 3 ] || [ "$i" = 11 ]; then gzip -f "$f"; fi
    done
    touch "$DIR/.complete"
fi

median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "NA"; else print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }

# peer TOOL JOB THREADS: one timed run in a fresh Python (thread pools are
# sized at import); prints the seconds, or nothing when it failed.
peer() {
    POLARS_MAX_THREADS=$3 "$PY" - "$1" "$2" "$3" "$DIR" "$out/$1.parquet" <<'EOF' 2>>"$out/peer.err" || true
import glob, resource, sys, time
tool, job, threads, folder, target = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
files = sorted(glob.glob(folder + "/part-*"))
if tool == "duckdb":
    import duckdb
    con = duckdb.connect()
    con.execute(f"SET threads={threads}")
    query = f"SELECT * FROM read_csv('{folder}/part-*', union_by_name=true)"
    start, cpu = time.time(), resource.getrusage(resource.RUSAGE_SELF)
    if job == "arrow":
        rows = con.execute(query).to_arrow_table().num_rows
    else:
        con.execute(f"COPY ({query}) TO '{target}' (FORMAT parquet, COMPRESSION zstd)")
elif tool == "polars":
    import polars as pl
    start, cpu = time.time(), resource.getrusage(resource.RUSAGE_SELF)
    frame = pl.concat([pl.scan_csv(f) for f in files], how="diagonal_relaxed")
    if job == "arrow":
        rows = frame.collect().to_arrow().num_rows
    else:
        frame.sink_parquet(target, compression="zstd")
elif tool == "pyarrow":
    import pyarrow, pyarrow.dataset as ds
    pyarrow.set_cpu_count(threads)
    pyarrow.set_io_thread_count(threads)
    if job != "arrow":
        sys.exit(1)
    start, cpu = time.time(), resource.getrusage(resource.RUSAGE_SELF)
    rows = ds.dataset(files, format="csv").to_table().num_rows
end = resource.getrusage(resource.RUSAGE_SELF)
used = end.ru_utime + end.ru_stime - cpu.ru_utime - cpu.ru_stime
print(f"{time.time() - start:.4f} {used:.4f}")
EOF
}

simdsv_arrow() {
    "$BUILD/bench/bench_dataset" --chunks --mmap "$1" 1 "$DIR" 2>>"$out/simdsv.err" | sed -n 's/^seconds=\([0-9.]*\) cpu=\([0-9.]*\).*/\1 \2/p'
}

simdsv_parquet() {
    /usr/bin/time -f '%e %U %S' -o "$out/time" "$BUILD/simdsv" convert --union-by-name --compression zstd --threads "$1" "$DIR" \
        -o "$out/simdsv.parquet" 2>>"$out/simdsv.err" || return 0
    awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$out/time"
}

echo "# $FILES files of $MB MiB ($(du -sh "$DIR" | cut -f1) on disk), medians of $REPEAT rounds, seconds"
for t in $THREADS; do
    for r in $(seq "$REPEAT"); do
        simdsv_arrow "$t" >>"$out/arrow.simdsv.$t"
        for tool in duckdb polars pyarrow; do peer $tool arrow "$t" >>"$out/arrow.$tool.$t"; done
        simdsv_parquet "$t" >>"$out/parquet.simdsv.$t"
        for tool in duckdb polars; do peer $tool parquet "$t" >>"$out/parquet.$tool.$t"; done
    done
done
# col N FILE: median of field N of FILE's lines ("NA" when there are none)
col() { [ -f "$2" ] && cut -d' ' -f"$1" <"$2" | median || echo NA; }
printf '%-8s %-3s %15s %15s %15s %15s  %s\n' job thr "simdsv w/cpu" "duckdb w/cpu" "polars w/cpu" "pyarrow w/cpu" \
    "fastest peer / simdsv (wall, cpu)"
for job in arrow parquet; do
    for t in $THREADS; do
        line="$(printf '%-8s %-3s' "$job" "$t")"
        ratios=""
        for m in 1 2; do
            s=$(col $m "$out/$job.simdsv.$t")
            best=$(for tool in duckdb polars pyarrow; do col $m "$out/$job.$tool.$t"; done | grep -v NA | sort -g | head -1)
            ratios="$ratios $( [ -n "$best" ] && [ "$s" != NA ] && echo "scale=2; $best / $s" | bc || echo NA)"
        done
        for tool in simdsv duckdb polars pyarrow; do
            line="$line $(printf '%15s' "$(col 1 "$out/$job.$tool.$t")/$(col 2 "$out/$job.$tool.$t")")"
        done
        echo "$line $ratios"
    done
done
if [ -s "$out/peer.err" ]; then echo "# peer errors (a failed run has no time):"; sort -u "$out/peer.err" | tail -5 | sed 's/^/#   /'; fi
if [ -s "$out/simdsv.err" ]; then echo "# simdsv errors:"; sort -u "$out/simdsv.err" | tail -5 | sed 's/^/#   /'; fi
