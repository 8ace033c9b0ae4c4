#!/usr/bin/env bash
# bench/peers.sh — simdsv and the peer CSV readers counting the records of the
# same files, side by side, in one run.  Called by bench/run.sh; usable alone:
#
#   bench/peers.sh FILE...
#
# env: REPEAT=5                 runs of each (peer, threads) per file
#      PEER_SET="polars:1 duckdb:1 rust-csv:1 libcsv:1 polars:2"   PEER:THREADS
#      PEERS_DIR=...            folder holding peer.sh with the peers installed
#                               (default: the first installed of ./shared/peers,
#                               ../shared/peers, /tmp/peers)
#      BUILD=build              where bench_scan and simdsv are
#
# The runs are interleaved (rep 1 of every peer, then rep 2, ...), so a slow
# stretch of this noisy VM hits every reader alike.  Per reader it prints the
# median and the best of REPEAT runs of:
#   parse_s  the reader's own timer around the count (peers' `seconds`; no
#            process or interpreter start).  For simdsv-cli it is the whole
#            process wall time (open + read() + count + exit), measured here.
#   proc_s   the whole process wall time (interpreter/module start included).
#   GB/s     bytes / parse_s (1 GB = 1e9 bytes); cpu_s is user+sys of the best run.
#   check    ok when rows equal simdsv's count of the same file.
# simdsv-scan is bench_scan --op count with the best kernel (file preloaded
# into RAM, median/best of REPEAT inside one process).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
REPEAT=${REPEAT:-5}
PEER_SET=${PEER_SET:-"polars:1 duckdb:1 rust-csv:1 libcsv:1 polars:2"}
BUILD=${BUILD:-build}
SIMDSV=$BUILD/simdsv
BENCH_SCAN=$BUILD/bench/bench_scan

find_peers() {
  local d
  for d in ${PEERS_DIR:-} "$ROOT/shared/peers" "$ROOT/../shared/peers" /tmp/peers; do
    if [ -x "$d/peer.sh" ] && [ -d "$d/node/node_modules/nodejs-polars" ] \
       && [ -x "$d/rust-csv/target/release/peer-rust-csv" ] && [ -x "$d/libcsv/libcsv_count" ]; then
      (cd "$d" && pwd)
      return 0
    fi
  done
  return 1
}

if [ $# -eq 0 ]; then
  echo "usage: bench/peers.sh FILE..." >&2
  exit 2
fi
if ! PEERS=$(find_peers); then
  echo "peers: SKIPPED — no installed peers found (run /work/shared/peers/install.sh, or copy that folder" \
       "to /tmp/peers and run install.sh there; or set PEERS_DIR)"
  exit 0
fi
for exe in "$SIMDSV" "$BENCH_SCAN"; do
  [ -x "$exe" ] || { echo "peers.sh: $exe not built (BUILD=$BUILD)" >&2; exit 1; }
done

raw=$(mktemp)
trap 'rm -f "$raw"' EXIT

echo "peers: $PEERS/peer.sh, REPEAT=$REPEAT, runs interleaved; simdsv kernel: $("$SIMDSV" --version)"
printf '%-10s %-20s %-12s %3s %10s %8s %8s %8s %8s %7s %7s %10s %s\n' \
  measure file reader thr bytes parse_med parse_bst proc_med GB/s_med GB/s_bst cpu_s rows check
for file in "$@"; do
  bytes=$(stat -c %s "$file")
  cat "$file" > /dev/null # page cache warm for every reader
  ref=$("$SIMDSV" count "$file")
  : > "$raw"
  for ((rep = 1; rep <= REPEAT; rep++)); do
    # simdsv CLI: whole process, mmap path
    t0=$EPOCHREALTIME
    rows=$("$SIMDSV" count "$file")
    t1=$EPOCHREALTIME
    echo "simdsv-cli 1 PROC $t0 $t1 NA $rows" >> "$raw"
    for pt in $PEER_SET; do
      peer=${pt%%:*} thr=${pt##*:}
      t0=$EPOCHREALTIME
      if out=$("$PEERS/peer.sh" "$peer" "$file" count "$thr" 2>/tmp/peer_err.$$); then
        t1=$EPOCHREALTIME
        s=$(sed -n 's/.* seconds=\([^ ]*\).*/\1/p' <<< "$out")
        c=$(sed -n 's/.* cpu=\([^ ]*\).*/\1/p' <<< "$out")
        r=$(sed -n 's/.* rows=\([^ ]*\).*/\1/p' <<< "$out")
        echo "$peer $thr ${s:-NA} $t0 $t1 ${c:-NA} ${r:-NA}" >> "$raw"
      else
        echo "$peer $thr FAIL 0 0 NA $(head -c 240 /tmp/peer_err.$$ | tr -s ' \n' ' ' | tr ' ' '_')" >> "$raw"
      fi
    done
  done
  rm -f /tmp/peer_err.$$
  scan=$("$BENCH_SCAN" "$file" --op count --repeat "$REPEAT")
  python3 - "$raw" "$file" "$bytes" "$ref" "$PEER_SET" "$scan" <<'PY'
import sys, statistics
raw, path, nbytes, ref, peer_set, scan = sys.argv[1:]
nbytes = int(nbytes)
name = path.rsplit('/', 1)[-1]
order = ["simdsv-cli:1"] + peer_set.split()
runs = {}
for line in open(raw):
    peer, thr, s, t0, t1, c, r = line.split()
    w = float(t1) - float(t0)
    if s == "PROC":
        s = str(w)
    runs.setdefault(f"{peer}:{thr}", []).append((s, w, c, r))
def row(reader, thr, pmed, pbst, wmed, cpu, rows, check):
    f = lambda x, d=3: "NA" if x is None else f"{x:.{d}f}"
    gmed = None if pmed is None else nbytes / pmed / 1e9
    gbst = None if pbst is None else nbytes / pbst / 1e9
    print(f"{'peer-count':<10} {name:<20} {reader:<12} {thr:>3} {nbytes:>10} {f(pmed):>8} {f(pbst):>8} "
          f"{f(wmed):>8} {f(gmed, 2):>8} {f(gbst, 2):>7} {cpu:>7} {rows:>10} {check}")
# simdsv-scan line from bench_scan: "op=count kernel=K bytes=N GB/s=X best=Y check=R"
kv = dict(p.split('=', 1) for p in scan.split())
g, b = float(kv["GB/s"]), float(kv["best"])
row("simdsv-scan", "1", nbytes / g / 1e9, nbytes / b / 1e9, None, "NA", kv["check"],
    ("ok" if kv["check"] == ref else "MISMATCH") + f" (in-memory, kernel {kv['kernel']})")
for key in order:
    peer, thr = key.split(":")
    rs = runs.get(key, [])
    ok = [x for x in rs if x[0] != "FAIL"]
    if not ok:
        why = rs[0][3] if rs else "not run"
        print(f"{'peer-count':<10} {name:<20} {peer:<12} {thr:>3} {nbytes:>10} FAILED: {why.replace('_', ' ')}")
        continue
    ps = [float(x[0]) for x in ok]
    ws = [float(x[1]) for x in ok]
    best = min(range(len(ok)), key=lambda i: ps[i])
    rows = ok[best][3]
    check = "ok" if rows == ref else f"MISMATCH (simdsv {ref})"
    if len(ok) < len(rs):
        check += f" ({len(rs) - len(ok)} of {len(rs)} runs failed)"
    if peer == "simdsv-cli":
        check += " (parse_s = process wall: simdsv count FILE)"
    row(peer, thr, statistics.median(ps), min(ps), statistics.median(ws), ok[best][2], rows, check)
PY
done
