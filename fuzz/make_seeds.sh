#!/usr/bin/env bash
# Seed corpora for the fuzz targets:
#   OUTDIR/lib  every conformance case, prefixed with the 6 option bytes that
#               fuzz_decode() reads (several dialect/mode variants);
#   OUTDIR/cli  for fuzz_cli: the conformance cases and the first 60 kB of
#               each file of ../shared/datasets/real/ (when it is there), each
#               prefixed with the 7 bytes that pick a command and its options
#               and the two string arguments (see fuzz_cli.c); every real
#               file goes through every command.
set -euo pipefail
out=${1:?usage: make_seeds.sh OUTDIR}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out/lib" "$out/cli"
i=0
for f in "$here"/tests/conformance/*/*.csv; do
  for header in '\x00\x00\x00\x00\x00\x00' '\x00\x08\x01\x07\x00\x00' '\x20\x05\x02\x11\x00\x00' '\x01\x30\x03\x20\x00\x00'; do
    { printf "$header"; cat "$f"; } > "$out/lib/seed-$i"
    i=$((i + 1))
  done
done
echo "seeds: $i files in $out/lib"

# cli_seed FILE COMMAND DELIMITER_INDEX: command byte, dialect byte, five
# option bytes (-n 10 / --limit 10 / --width 10), then the string arguments:
# "a" (a search pattern, a --schema) and "2,1" (a selection).
commands=17
cli_seed() {
  printf "\\x$(printf %02x "$2")\\x$(printf %02x "$3")\\x00\\x00\\x05\\x00\\x08\\x01a\\x032,1"
  head -c 60000 "$1"
}
j=0
for f in "$here"/tests/conformance/*/*.csv; do
  cli_seed "$f" $((j % commands)) 0 > "$out/cli/seed-$j"
  j=$((j + 1))
done
real="$here/../shared/datasets/real"
if [ -d "$real" ]; then
  for f in "$real"/*.csv "$real"/*.tsv; do
    case $f in *.tsv) d=2 ;; *) d=0 ;; esac
    for ((c = 0; c < commands; c++)); do
      cli_seed "$f" $c $d > "$out/cli/seed-$j"
      j=$((j + 1))
    done
  done
else
  echo "note: $real is absent: the CLI seeds are the conformance cases only"
fi
echo "seeds: $j files in $out/cli"
