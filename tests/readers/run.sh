#!/bin/sh
# run.sh install | SIMDSV GROUP [DIR] — the real-reader tests (check.mjs).
# "install" runs npm ci from the committed lock file when node_modules is
# missing (once, as the ctest fixture the other tests need).  Without node
# or npm the tests are skipped (exit 77) with a message saying so.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "SKIPPED: node and npm are needed for the real-reader tests (apt-get install nodejs npm)"
  exit 77
fi
if [ "$1" = install ]; then
  if [ ! -d "$here/node_modules/@duckdb/node-api" ] || [ ! -d "$here/node_modules/nodejs-polars" ] ||
     [ ! -d "$here/node_modules/apache-arrow" ]; then
    echo "installing the readers: npm ci in $here"
    (cd "$here" && npm ci --no-audit --no-fund)
  fi
  exit 0
fi
exec node "$here/check.mjs" "$@"
