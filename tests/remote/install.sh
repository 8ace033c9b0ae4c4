#!/usr/bin/env bash
# The real servers the remote-storage tests start and stop (python/tests/remote_servers.py):
#   versitygw  an S3-compatible gateway over a local folder (Apache-2.0), built at a pinned version from the
#              Go module proxy once and cached, so later runs cost nothing;
#   nginx      Debian's (nginx-light), which honours Range requests and HTTP basic authentication.
# Run by `make python-test` and .ci/run; it returns at once when both are there.  Prints nothing then.
# MinIO and Garage are AGPL: not used.
set -euo pipefail

VERSITYGW_VERSION=v1.8.0
cache="${SIMDSV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simdsv}"
gateway="$cache/versitygw-$VERSITYGW_VERSION/versitygw"

if [ ! -x "$gateway" ]; then
  go=$(command -v go || true)
  [ -n "$go" ] || go=/usr/local/go/bin/go
  if [ ! -x "$go" ]; then
    echo "tests/remote/install.sh: building versitygw $VERSITYGW_VERSION needs Go 1.25 or later (go not found)" >&2
    exit 1
  fi
  echo "== building versitygw $VERSITYGW_VERSION from the Go module proxy (once; cached in $cache)"
  mkdir -p "$cache"
  staging=$(mktemp -d "$cache/versitygw-build.XXXXXX")
  trap 'rm -rf "$staging"' EXIT
  # A failed or interrupted build leaves no binary behind: it is moved into place only when whole.
  GOBIN="$staging" GOFLAGS=-trimpath "$go" install "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION"
  mkdir -p "$(dirname "$gateway")"
  mv "$staging/versitygw" "$gateway"
fi

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "tests/remote/install.sh: nginx is missing: apt-get install nginx-light (as root)" >&2
    exit 1
  fi
  echo "== installing nginx-light (Debian)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
fi
