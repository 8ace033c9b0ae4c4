#!/usr/bin/env bash
# Seed corpus for the fuzz targets: every conformance case, prefixed with the
# 6 option bytes that fuzz_decode() reads (several dialect/mode variants).
set -euo pipefail
out=${1:?usage: make_seeds.sh OUTDIR}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
i=0
for f in "$here"/tests/conformance/*/*.csv; do
  for header in '\x00\x00\x00\x00\x00\x00' '\x00\x08\x01\x07\x00\x00' '\x20\x05\x02\x11\x00\x00' '\x01\x30\x03\x20\x00\x00'; do
    { printf "$header"; cat "$f"; } > "$out/seed-$i"
    i=$((i + 1))
  done
done
echo "seeds: $i files in $out"
