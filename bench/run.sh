#!/usr/bin/env bash
# bench/run.sh — the whole benchmark of simdsv, run by `make bench`.  Never run
# by the tests.  Re-runnable: it makes only what is missing, and leaves the
# report in bench/results/latest.txt (plus a dated copy next to it).
#
# What it measures, each section against a floor or a peer timed in the same
# run (the reference machine is a noisy 2-core VM: every number is a median
# AND a best of several runs; compare within one report, not across reports):
#   1. data     the shapes under bench/data/ (generated when missing)
#   2. floor    bench_bw: one thread streaming a buffer as big as the files
#   3. scan     bench_scan per shape and per kernel the CPU has: count,
#               index (every field boundary), iterate (every field touched)
#   4. cli      wall time of `simdsv count FILE` (mmap) vs `simdsv count - < FILE`
#               vs `cat FILE | simdsv count -` vs the floors `cat FILE | wc -c`
#               and `cat FILE > /dev/null`
#   5. rss      peak RSS of 1 GiB through a pipe: count and convert --to csv
#   6. peers    bench/peers.sh: polars, duckdb, rust-csv, libcsv (1 thread),
#               polars (2 threads), simdsv, counting the same files
#   7. targets  the issue's targets: measured, met or missed, by how much
#
# env (defaults):
#   SIZE_MB=200        size of each generated shape (gen.py: MiB; mixed: MB)
#   REPEAT=5           runs per bench_scan op, per peer, per floor
#   CLI_RUNS=7         hyperfine runs per CLI command (after 1 warm-up)
#   RSS_RUNS=3         runs per peak-RSS command (the max RSS is reported)
#   BIG_MIB=1024       size of the big pipe files; BIG_SHAPES="taxi quoted_text"
#   SHAPES="taxi wide_num quoted_text short_fields strings_ids mixed"
#   KERNELS            default: scalar sse42 avx2 avx512 (x86-64), scalar neon (arm)
#   BUILD=build        build folder (falls back to build-bench, tests off,
#                      when the configure or build of $BUILD fails)
#   SKIP_PEERS=1       leave out section 6; PEERS_DIR: see bench/peers.sh
#   GEN_PY, GEN_MIXED  the generators (default: ../shared/datasets/gen.py,
#                      ../shared/peers/gen_mixed.py, found like the peers)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

SIZE_MB=${SIZE_MB:-200}
REPEAT=${REPEAT:-5}
CLI_RUNS=${CLI_RUNS:-7}
RSS_RUNS=${RSS_RUNS:-3}
BIG_MIB=${BIG_MIB:-1024}
BIG_SHAPES=${BIG_SHAPES:-"taxi quoted_text"}
SHAPES=${SHAPES:-"taxi wide_num quoted_text short_fields strings_ids mixed"}
BUILD=${BUILD:-build}
DATA=bench/data
RESULTS=bench/results
JOBS=$(nproc 2>/dev/null || echo 2)
case $(uname -m) in
  x86_64 | amd64) KERNELS=${KERNELS:-"scalar sse42 avx2 avx512"} ;;
  aarch64 | arm64) KERNELS=${KERNELS:-"scalar neon"} ;;
  *) KERNELS=${KERNELS:-"scalar"} ;;
esac

first_file() { # first existing path among the arguments
  local p
  for p in "$@"; do [ -n "$p" ] && [ -f "$p" ] && { echo "$p"; return 0; }; done
  return 1
}
GEN_PY=${GEN_PY:-$(first_file "$ROOT/shared/datasets/gen.py" "$ROOT/../shared/datasets/gen.py" || true)}
GEN_MIXED=${GEN_MIXED:-$(first_file "$ROOT/shared/peers/gen_mixed.py" "$ROOT/../shared/peers/gen_mixed.py" \
                                    /tmp/peers/gen_mixed.py || true)}

mkdir -p "$DATA" "$RESULTS"
stamp=$(date +%Y%m%d-%H%M%S)
OUT=$RESULTS/run-$stamp.txt
declare -A R # results the targets section reads

# --- helpers ----------------------------------------------------------------
steal_prev=""
vm_line() { # load average, and the share of CPU time the hypervisor stole since the previous call
  local user nice sys idle iow irq sirq steal rest total
  read -r _ user nice sys idle iow irq sirq steal rest < /proc/stat
  total=$((user + nice + sys + idle + iow + irq + sirq + steal))
  if [ -n "$steal_prev" ]; then
    local dt=$((total - ${steal_prev% *})) ds=$((steal - ${steal_prev#* }))
    [ "$dt" -gt 0 ] || dt=1
    printf 'vm: load %s (1/5/15 min); CPU time stolen by the hypervisor since the previous vm line: %d.%d%%\n' \
      "$(cut -d' ' -f1-3 /proc/loadavg)" $((ds * 100 / dt)) $((ds * 1000 / dt % 10))
  else
    printf 'vm: load %s (1/5/15 min)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
  fi
  steal_prev="$total $steal"
  local busy # other processes competing for the 2 cores right now (top's %CPU over its sample)
  busy=$(top -b -n 1 -w 200 2> /dev/null | awk 'NR > 7 && $9 + 0 >= 20 {printf "%s %s(%s%%)", sep, $12, $9; sep = ","}')
  [ -z "$busy" ] || echo "vm: busy processes (>= 20% CPU) at this moment: $busy"
}
section() { printf '\n== %s\n' "$*"; }
kv() { sed -n "s#.* $1=\\([^ ]*\\).*#\\1#p" <<< " $2"; } # kv KEY "k=v k=v"
ratio() { python3 -c "import sys; a,b=map(float,sys.argv[1:]); print(f'{a/b:.2f}')" "$1" "$2"; }

main() {
# --- 0. header and build ------------------------------------------------------
echo "simdsv benchmark report — bench/run.sh, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')" \
     "($(git status --porcelain 2>/dev/null | wc -l) files modified or untracked in the working tree)"
echo "uncommitted source changes built into this run: $(git status --porcelain -- src include cli CMakeLists.txt bench/CMakeLists.txt 2>/dev/null | tr -s ' \n' ' ' || true)"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs online," \
     "$(free -g | awk '/^Mem:/ {print $2}') GiB RAM, kernel $(uname -r)"
vm_line

build_in() { # build_in DIR [cmake args...]
  local dir=$1
  shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" > "$RESULTS/build.log" 2>&1 &&
    cmake --build "$dir" -j "$JOBS" --target simdsv_cli bench_scan bench_bw >> "$RESULTS/build.log" 2>&1
}
if ! build_in "$BUILD"; then
  echo "build: $BUILD failed (see $RESULTS/build.log); building build-bench with tests off instead"
  BUILD=build-bench
  build_in "$BUILD" -DSIMDSV_BUILD_TESTS=OFF || { cat "$RESULTS/build.log"; exit 1; }
fi
SIMDSV=$BUILD/simdsv
BENCH_SCAN=$BUILD/bench/bench_scan
BENCH_BW=$BUILD/bench/bench_bw
BEST_KERNEL=$("$SIMDSV" --version | sed -n 's/.*kernel: \([a-z0-9]*\).*/\1/p')
echo "build: $BUILD ($(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$BUILD/CMakeCache.txt")," \
     "$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt")" \
     "$("$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt")" --version | head -1));" \
     "$("$SIMDSV" --version)"

# --- 1. data ------------------------------------------------------------------
section "1. data: $DATA (generated when missing; quote share = '\"' bytes / all bytes)"
gen_shape() { # gen_shape SHAPE OUT
  local tmp=$2.tmp
  if [ "$1" = mixed ]; then
    [ -n "$GEN_MIXED" ] || { echo "cannot generate $2: gen_mixed.py not found (set GEN_MIXED)"; exit 1; }
    python3 "$GEN_MIXED" "$tmp" --mb "$SIZE_MB" > "$RESULTS/gen.log" 2>&1 || { cat "$RESULTS/gen.log"; exit 1; }
  else
    [ -n "$GEN_PY" ] || { echo "cannot generate $2: gen.py not found (set GEN_PY)"; exit 1; }
    python3 "$GEN_PY" "$1" "$SIZE_MB" -o "$tmp" > "$RESULTS/gen.log" 2>&1 || { cat "$RESULTS/gen.log"; exit 1; }
  fi
  mv "$tmp" "$2"
}
declare -gA FILE
for shape in $SHAPES; do
  if [ "$shape" = mixed ]; then f=$DATA/mixed_${SIZE_MB}mb.csv; else f=$DATA/${shape}_${SIZE_MB}.csv; fi
  made=present
  if [ ! -s "$f" ]; then
    gen_shape "$shape" "$f"
    made=generated
  fi
  FILE[$shape]=$f
  bytes=$(stat -c %s "$f")
  quotes=$(tr -cd '"' < "$f" | wc -c)
  printf 'data %-13s %-32s %11d bytes  %9s records  quote share %5.2f%%  (%s)\n' "$shape" "$f" "$bytes" \
    "$("$SIMDSV" count "$f")" "$(python3 -c "print($quotes * 100 / $bytes)")" "$made"
done

# --- 2. memory floor ------------------------------------------------------------
floor() { # floor LABEL
  local bytes line
  bytes=$(stat -c %s "${FILE[${SHAPES%% *}]}")
  line=$("$BENCH_BW" "$(python3 -c "print($bytes / 1e6)")" --repeat $((REPEAT * 2 + 1)))
  printf 'floor mem-read-1thread (%s): %s GB/s median, %s GB/s best of %d (bench_bw, %s bytes)\n' \
    "$1" "$(kv 'GB/s' "$line")" "$(kv best "$line")" $((REPEAT * 2 + 1)) "$(kv bytes "$line")"
  R[floor_$1]=$(kv 'GB/s' "$line")
  R[floor_best_$1]=$(kv best "$line")
}
section "2. memory-bandwidth floor: 1 thread XOR-reading an in-RAM buffer of the files' size with 16-byte loads"
floor start

# --- 3. scan ------------------------------------------------------------------
section "3. scan: bench_scan FILE --kernel K --repeat $REPEAT (1 thread, file preloaded into RAM; GB/s = 1e9 B/s; med = median, best = fastest of $REPEAT)"
echo "count = records (quote-aware); index = kernel finds every field boundary; iterate = every field's pointer and length touched; batch = the same through simdsv_reader_next_batch"
printf '%-6s %-13s %-7s %8s %8s %8s %8s %8s %8s %8s %8s %10s %s\n' measure shape kernel count_med count_bst \
  index_med index_bst iter_med iter_bst batch_med batch_bst records "count_med/floor"
for shape in $SHAPES; do
  for k in $KERNELS; do
    set +e
    out=$("$BENCH_SCAN" "${FILE[$shape]}" --kernel "$k" --repeat "$REPEAT" 2>&1)
    rc=$?
    set -e
    if [ $rc -eq 77 ]; then
      printf '%-6s %-13s %-7s %s\n' scan "$shape" "$k" "not supported by this CPU (bench_scan exit 77)"
      continue
    elif [ $rc -ne 0 ]; then
      printf '%-6s %-13s %-7s FAILED (exit %d): %s\n' scan "$shape" "$k" $rc "$(head -c 200 <<< "$out")"
      continue
    fi
    c=$(grep '^op=count' <<< "$out") i=$(grep '^op=index' <<< "$out") t=$(grep '^op=iterate' <<< "$out")
    b=$(grep '^op=batch' <<< "$out")
    printf '%-6s %-13s %-7s %8s %8s %8s %8s %8s %8s %8s %8s %10s %14s%%\n' scan "$shape" "$k" \
      "$(kv 'GB/s' "$c")" "$(kv best "$c")" "$(kv 'GB/s' "$i")" "$(kv best "$i")" \
      "$(kv 'GB/s' "$t")" "$(kv best "$t")" "$(kv 'GB/s' "$b")" "$(kv best "$b")" "$(kv check "$c")" \
      "$(python3 -c "print(round($(kv 'GB/s' "$c") * 100 / ${R[floor_start]}))")"
    grep -v '^op=' <<< "$out" | sed "s/^/scan $shape $k stderr: /" || true
    for op in count iterate index batch; do
      line=$(grep "^op=$op" <<< "$out")
      R[${op}_${shape}_$k]=$(kv 'GB/s' "$line")
      R[${op}_best_${shape}_$k]=$(kv best "$line")
    done
  done
done
floor after_scan
vm_line

# --- 4. CLI: mmap vs stdin vs pipe vs floors --------------------------------------
# Since 5f5ac12 the library read()s files unless SIMDSV_OPT_MMAP=1, and the CLI sets no such option;
# a CLI flag for it is used when `simdsv count --help` lists one.
MMAP_FLAG=$("$SIMDSV" count --help 2>&1 | grep -o -- '--mmap\b' | head -1 || true)
if [ -n "$MMAP_FLAG" ]; then PATH_MODE="path"; else PATH_MODE="read(); no CLI mmap"; fi
section "4. cli wall time: hyperfine, 1 warm-up + $CLI_RUNS runs, page cache warm; GB/s = file bytes / wall; x base = median / median of the first row"
printf '%-8s %-13s %-36s %8s %8s %8s %8s %8s\n' measure shape command med_s best_s GB/s_med GB/s_bst "x base"
for shape in $SHAPES; do
  f=${FILE[$shape]}
  cat "$f" > /dev/null
  json=$RESULTS/hyperfine-$shape.json
  want=$("$SIMDSV" count "$f")
  got=$(cat "$f" | "$SIMDSV" count -)
  [ "$got" = "$want" ] || echo "cli $shape: MISMATCH: pipe count $got, mmap count $want"
  # name<TAB>command, the baseline (simdsv count FILE) first
  cmds=("simdsv count FILE ($PATH_MODE)	$SIMDSV count $f")
  [ -n "$MMAP_FLAG" ] && cmds+=("simdsv count $MMAP_FLAG FILE (mmap)	$SIMDSV count $MMAP_FLAG $f")
  cmds+=("simdsv count - < FILE (stdin file)	$SIMDSV count - < $f"
         "cat FILE | simdsv count - (pipe)	cat $f | $SIMDSV count -"
         "cat FILE | wc -c (pipe floor)	cat $f | wc -c"
         "cat FILE > /dev/null (read floor)	cat $f > /dev/null")
  if command -v hyperfine > /dev/null; then
    hargs=()
    for c in "${cmds[@]}"; do hargs+=(-n "${c%%	*}" "${c#*	}"); done
    hyperfine --style none --warmup 1 --runs "$CLI_RUNS" --export-json "$json" "${hargs[@]}" \
      > /dev/null 2> "$RESULTS/hyperfine.err" ||
      { echo "cli $shape: hyperfine FAILED: $(grep -v Warning "$RESULTS/hyperfine.err" | head -c 300)"; continue; }
    rm -f "$RESULTS/hyperfine.err"
  else # fallback without hyperfine: perf_counter around subprocess, includes the shell start
    printf '%s\n' "${cmds[@]}" | python3 -c '
import json, subprocess, sys, time
out, runs = sys.argv[1], int(sys.argv[2])
res = []
for line in sys.stdin:
    name, c = line.rstrip("\n").split("\t", 1)
    ts = []
    for i in range(runs + 1):
        t0 = time.perf_counter(); subprocess.run(c, shell=True, check=True, stdout=subprocess.DEVNULL); ts.append(time.perf_counter() - t0)
    res.append({"command": name, "times": ts[1:]})
json.dump({"results": res}, open(out, "w"))' "$json" "$CLI_RUNS"
  fi
  python3 - "$json" "$shape" "$(stat -c %s "$f")" <<'PY' > "$RESULTS/cli-$shape.txt"
import json, statistics, sys
res = json.load(open(sys.argv[1]))["results"]
shape, nbytes = sys.argv[2], int(sys.argv[3])
base = statistics.median(res[0]["times"])
for r in res:
    med, best = statistics.median(r["times"]), min(r["times"])
    print(f"{'cli':<8} {shape:<13} {r['command']:<36} {med:8.3f} {best:8.3f} {nbytes/med/1e9:8.2f} {nbytes/best/1e9:8.2f} {med/base:8.2f}")
PY
  cat "$RESULTS/cli-$shape.txt"
  pick() { grep -F "$1" "$RESULTS/cli-$shape.txt" | awk -v c="$2" '{print $(NF - c)}'; } # median: c=4, best: c=3
  R[cli_path_$shape]=$(pick "simdsv count FILE" 4)
  R[cli_path_best_$shape]=$(pick "simdsv count FILE" 3)
  R[cli_mmap_$shape]=$(pick "(mmap)" 4)
  R[cli_mmap_best_$shape]=$(pick "(mmap)" 3)
  R[cli_pipe_$shape]=$(pick "(pipe)" 4)
  R[cli_pipe_best_$shape]=$(pick "(pipe)" 3)
  R[cli_wc_$shape]=$(pick "(pipe floor)" 4)
  rm -f "$RESULTS/cli-$shape.txt"
done
vm_line

# --- 5. peak RSS, 1 GiB through a pipe -------------------------------------------
section "5. rss: peak RSS (/usr/bin/time -f %M on simdsv alone; max of $RSS_RUNS runs) of ~${BIG_MIB} MiB files built by repeating data rows"
make_big() { # make_big SRC OUT: header + data rows repeated; quote-free sources are cut after the
  # first LF past BIG_MIB MiB, quoted ones end after the whole copy that crosses it (an LF may be in a quote)
  python3 - "$1" "$2.tmp" "$BIG_MIB" <<'PY'
import sys
src, out, mib = sys.argv[1], sys.argv[2], float(sys.argv[3])
target = int(mib * 1048576)
data = open(src, "rb").read()
nl = data.index(b"\n") + 1
header, rows = data[:nl], data[nl:]
quoted = b'"' in rows
with open(out, "wb") as f:
    f.write(header)
    total = len(header)
    while total < target:
        if not quoted and total + len(rows) > target:
            cut = rows.index(b"\n", target - total - 1) + 1
            f.write(rows[:cut]); total += cut
        else:
            f.write(rows); total += len(rows)
PY
  mv "$2.tmp" "$2"
}
printf '%-6s %-30s %-44s %9s %8s %8s %s\n' measure file command peak_MiB wall_med GB/s target
rss_run() { # rss_run FILE LABEL KEY MODE: MODE pipe|mmap|floor|convert
  local f=$1 label=$2 key=$3 mode=$4 tf i rss=0 walls=() r w st
  tf=$(mktemp)
  for ((i = 0; i < RSS_RUNS; i++)); do
    set +e
    case $mode in
      pipe) cat "$f" | /usr/bin/time -f '%M %e' -o "$tf" "$SIMDSV" count - > /dev/null ;;
      convert) cat "$f" | /usr/bin/time -f '%M %e' -o "$tf" "$SIMDSV" convert --to csv - > /dev/null ;;
      mmap) /usr/bin/time -f '%M %e' -o "$tf" "$SIMDSV" count "$f" > /dev/null ;;
      floor) cat "$f" | /usr/bin/time -f '%M %e' -o "$tf" wc -c > /dev/null ;;
    esac
    st=$?
    set -e
    if [ $st -ne 0 ]; then
      printf '%-6s %-30s %-44s FAILED (exit %d): %s\n' rss "$(basename "$f")" "$label" $st "$(head -c 200 "$tf")"
      rm -f "$tf"
      return 0
    fi
    read -r r w < <(tail -1 "$tf")
    [ "$r" -gt "$rss" ] && rss=$r
    walls+=("$w")
  done
  rm -f "$tf"
  local wmed tgt=""
  wmed=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  case $mode in pipe | convert) tgt="(target < 16 MiB: $(python3 -c "print('met' if $rss < 16384 else 'MISSED')"))" ;; esac
  printf '%-6s %-30s %-44s %9.1f %8s %8s %s\n' rss "$(basename "$f")" "$label" \
    "$(python3 -c "print($rss / 1024)")" "$wmed" \
    "$(python3 -c "print(f'{$(stat -c %s "$f") / max($wmed, 0.01) / 1e9:.2f}')")" "$tgt"
  R[$key]=$(python3 -c "print(f'{$rss / 1024:.1f}')")
}
for shape in $BIG_SHAPES; do
  big=$DATA/${shape}_${BIG_MIB}mib_cat.csv
  [ -s "$big" ] || make_big "${FILE[$shape]:-$DATA/${shape}_${SIZE_MB}.csv}" "$big"
  cat "$big" > /dev/null
  echo "rss $(basename "$big"): $(stat -c %s "$big") bytes, $("$SIMDSV" count "$big") records"
  rss_run "$big" "cat BIG | simdsv count -" "rss_count_$shape" pipe
  rss_run "$big" "cat BIG | simdsv convert --to csv - >/dev/null" "rss_convert_$shape" convert
  rss_run "$big" "simdsv count BIG (file path, no pipe)" "rss_mmap_$shape" mmap
  rss_run "$big" "cat BIG | wc -c (a minimal process)" "rss_wc_$shape" floor
done
vm_line

# --- 6. peers -----------------------------------------------------------------
section "6. peers: record count of the same files (bench/peers.sh; REPEAT=$REPEAT, interleaved; parse_s = the reader's own timer)"
if [ "${SKIP_PEERS:-0}" = 1 ]; then
  echo "peers: SKIPPED (SKIP_PEERS=1)"
else
  files=()
  for shape in $SHAPES; do files+=("${FILE[$shape]}"); done
  REPEAT=$REPEAT BUILD=$BUILD bench/peers.sh "${files[@]}" | tee "$RESULTS/peers.txt"
  rm -f "$RESULTS/peers.txt"
fi
floor end
vm_line

# --- 7. targets -----------------------------------------------------------------
section "7. targets (kernel $BEST_KERNEL = the one this CPU picks; value = median, best = fastest run; RSS = max over runs)"
target_line() { # target_line NAME MEASURED_MED MEASURED_BEST GOAL higher|lower UNIT
  python3 - "$@" <<'PY'
import sys
name, med, best, goal, better, unit = sys.argv[1:]
if med in ("", "NA"):
    print(f"target {name}: not measured"); sys.exit()
single = best == "-"  # one value (peak RSS is the max over the runs): no separate best
best = med if single else best
med, best, goal = float(med), float(best), float(goal)
ok = med >= goal if better == "higher" else med < goal
ok_best = best >= goal if better == "higher" else best < goal
if better == "higher":
    gap = f"{med / goal * 100:.0f}% of the target" + ("" if ok else f", {goal / med:.2f}x short")
else:
    gap = f"{med / goal * 100:.0f}% of the limit" + ("" if ok else f", {med / goal:.2f}x over")
print(f"target {name}: {med:g} {unit}" + ("" if single else f" (best {best:g})") +
      f" vs {'>=' if better == 'higher' else '<'} {goal:g} -> {'met' if ok else 'MISSED'} ({gap}" +
      ("" if single else f"; best run {'meets' if ok_best else 'misses'} it") + ")")
PY
}
k=$BEST_KERNEL
target_line "count taxi >= 8 GB/s" "${R[count_taxi_$k]:-NA}" "${R[count_best_taxi_$k]:-NA}" 8 higher GB/s
target_line "iterate taxi >= 4 GB/s" "${R[iterate_taxi_$k]:-NA}" "${R[iterate_best_taxi_$k]:-NA}" 4 higher GB/s
target_line "batch taxi >= 4 GB/s" "${R[batch_taxi_$k]:-NA}" "${R[batch_best_taxi_$k]:-NA}" 4 higher GB/s
# pipe vs mmap: the CLI's mmap row when it has a flag for it, else its file-path row (read() since 5f5ac12)
for shape in $SHAPES; do
  [ -n "${R[cli_pipe_$shape]:-}" ] || continue
  if [ -n "${R[cli_mmap_$shape]:-}" ]; then base=mmap; else base=path; fi
  target_line "pipe/$base wall $shape <= 1.5x$([ $base = path ] && echo ' (no CLI mmap: vs simdsv count FILE, read())')" \
    "$(ratio "${R[cli_pipe_$shape]}" "${R[cli_${base}_$shape]}")" \
    "$(ratio "${R[cli_pipe_best_$shape]}" "${R[cli_${base}_best_$shape]}")" 1.5 lower x
done
for shape in $SHAPES; do
  [ -n "${R[cli_pipe_$shape]:-}" ] || continue
  bytes=$(stat -c %s "${FILE[$shape]}")
  echo "fact pipe $shape: cat|simdsv count - ${R[cli_pipe_$shape]} s, cat|wc -c ${R[cli_wc_$shape]} s" \
       "(pipe/(cat|wc) = $(ratio "${R[cli_pipe_$shape]}" "${R[cli_wc_$shape]}")x), simdsv count FILE ${R[cli_path_$shape]} s;" \
       "in-memory count ${R[count_${shape}_$BEST_KERNEL]:-NA} GB/s = $(python3 -c "
r = '${R[count_${shape}_$BEST_KERNEL]:-}'
print(f'{$bytes / float(r) / 1e9:.3f} s' if r else 'NA')")"
done
for shape in $BIG_SHAPES; do
  for op in count convert; do
    [ -n "${R[rss_${op}_$shape]:-}" ] &&
      target_line "1 GiB pipe $op $shape peak RSS < 16 MiB" "${R[rss_${op}_$shape]}" - 16 lower MiB
  done
done
echo "fact floor mem-read-1thread: start ${R[floor_start]} / after scan ${R[floor_after_scan]} / end ${R[floor_end]} GB/s" \
     "(best ${R[floor_best_start]} / ${R[floor_best_after_scan]} / ${R[floor_best_end]}); count taxi = " \
     "$(python3 -c "print(round(${R[count_taxi_$k]:-0} * 100 / ${R[floor_start]}))")% of the start floor"
}

if main 2>&1 | tee "$OUT"; then
  cp "$OUT" "$RESULTS/latest.txt"
  echo "report: $OUT, copied to $RESULTS/latest.txt"
else
  echo "bench/run.sh FAILED; partial report in $OUT ($RESULTS/latest.txt left as it was)"
  exit 1
fi
