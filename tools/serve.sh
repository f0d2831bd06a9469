#!/usr/bin/env bash
# One command from a fresh clone to the course at http://127.0.0.1:8080 (rebuilds on change).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh build
source tools/env.sh
exec trunk serve --release "$@"
