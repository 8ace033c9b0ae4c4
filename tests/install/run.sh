#!/bin/sh
# tests/install/run.sh — the installed package works from any prefix.
#
#   sh run.sh CMAKE BUILD_DIR SOURCE_DIR CC
#
# Installs BUILD_DIR to a temporary prefix (not the configured one), then
# builds examples/arrow_export.c and arrow_stream.c against it twice, with
# pkg-config and with find_package(simdsv), and runs them on the sample.
# Exit 77 (skipped) without pkg-config.
set -eu
CMAKE=$1
BUILD=$2
SRC=$3
CC=$4
command -v pkg-config >/dev/null 2>&1 || { echo "skip: no pkg-config"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/simdsv-install.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
PREFIX=$T/prefix
"$CMAKE" --install "$BUILD" --prefix "$PREFIX" >/dev/null
SAMPLE=$SRC/examples/sample.csv

check() { # check WHAT OUTPUT EXPECTED
    case $2 in
    *"$3"*) ;;
    *) echo "FAIL: $1: output lacks '$3':"; echo "$2"; exit 1 ;;
    esac
}

# pkg-config, from the installed .pc only (static link: nothing to find at run time).
PC=$(find "$PREFIX" -name simdsv.pc)
[ -n "$PC" ] || { echo "FAIL: no simdsv.pc under $PREFIX"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$PC")
export PKG_CONFIG_LIBDIR=$PKG_CONFIG_PATH
case $(pkg-config --cflags simdsv) in
*"$PREFIX"*) ;;
*) echo "FAIL: pkg-config --cflags does not point into $PREFIX: $(pkg-config --cflags simdsv)"; exit 1 ;;
esac
LIBDIR=$(pkg-config --variable=libdir simdsv)
# shellcheck disable=SC2046 # the flags are words
"$CC" -o "$T/export_pc" "$SRC/examples/arrow_export.c" $(pkg-config --cflags simdsv) \
    "$LIBDIR/libsimdsv.a" $(pkg-config --static --libs-only-other simdsv) -lm
"$CC" -o "$T/stream_pc" "$SRC/examples/arrow_stream.c" $(pkg-config --cflags --libs simdsv) -Wl,-rpath,"$LIBDIR"
check "pkg-config arrow_export" "$("$T/export_pc" "$SAMPLE" 2)" "struct array: 6 rows, 7 columns"
check "pkg-config arrow_stream" "$("$T/stream_pc" "$SAMPLE" 4)" "6 rows in 2 batches"

# find_package(simdsv)
"$CMAKE" -S "$SRC/tests/install" -B "$T/consumer" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_COMPILER="$CC" \
    -DEXAMPLES="$SRC/examples" >/dev/null
"$CMAKE" --build "$T/consumer" >/dev/null
check "find_package arrow_export" "$("$T/consumer/arrow_export" "$SAMPLE" 2)" "struct array: 6 rows, 7 columns"
check "find_package arrow_stream" "$("$T/consumer/arrow_stream" "$SAMPLE" 4)" "6 rows in 2 batches"
echo "installed package: pkg-config and find_package builds pass"
