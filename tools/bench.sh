#!/usr/bin/env bash
# The benchmark (README, "Benchmark"): installs what it needs, builds the release site into
# target/bench-dist, serves it on 127.0.0.1 with brotli, and measures cold loads, input → paint
# for each widget, the distillation run's frames and Lighthouse, unthrottled and at 4× CPU.
# Arguments go to bench/bench.mjs, e.g. --runs 11, --no-lighthouse, --out FILE,
# or --compare old.json new.json (which builds nothing).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --compare ]; then
  exec node bench/bench.mjs "$@"
fi
tools/setup.sh test
source tools/env.sh
(cd bench && npm ci --no-audit --no-fund --loglevel=error)
trunk build --release --locked --dist target/bench-dist
exec node bench/bench.mjs --dist target/bench-dist "$@"
