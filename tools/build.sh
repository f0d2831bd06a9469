#!/usr/bin/env bash
# Builds the static site for a public path into dist/ (or --dist DIR):
#   tools/build.sh /                 # served at the root of a host
#   tools/build.sh /some/sub/path/   # served under a sub-path, e.g. GitHub Pages
set -euo pipefail
cd "$(dirname "$0")/.."
public_url="${1:-/}"
shift || true
tools/setup.sh build
source tools/env.sh
trunk build --release --public-url "$public_url" "$@"
