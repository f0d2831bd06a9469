#!/usr/bin/env bash
# One command from a fresh clone to every test tier: installs what the tests need, then runs
#   1. formatting and clippy (native and wasm32), warnings as errors;
#   2. native tests: the maths, the content pipeline, storage, routes (cargo test);
#   3. the release build at the root and under a sub-path, with wasm-opt, and the size budget;
#   4. end-to-end tests in Debian's Chromium with Playwright, against those builds served by a
#      plain static server;
#   5. a smoke run of the root build in Debian's Firefox ESR (puppeteer-core over WebDriver BiDi).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh test
source tools/env.sh

# Each step's heading says how long the run has taken so far.
step() { printf '\n\033[1m== %s\033[0m (%d min %02d s in)\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }

step "format"
cargo fmt --all -- --check

step "clippy (native, all targets)"
cargo clippy --all-targets --locked -- -D warnings
step "clippy (wasm32)"
cargo clippy --target wasm32-unknown-unknown --lib --bins --locked -- -D warnings
cargo clippy --target wasm32-unknown-unknown --features sql --bin ie-sql --locked -- -D warnings

step "native tests"
cargo test --locked

step "release build at / and at /some/sub/path/"
trunk build --release --locked
trunk build --release --locked --public-url /some/sub/path/ --dist target/dist-sub
mkdir -p target/e2e-sub/some/sub
ln -sfn ../../../dist-sub target/e2e-sub/some/sub/path

step "size budgets (brotli, first load of every page)"
node tools/size-report.mjs dist --budget-kb 150 --budgets tools/size-budgets.json

step "end-to-end (Chromium)"
(cd tests/e2e && CI=1 npx playwright test)

step "end-to-end smoke (Firefox ESR)"
node tests/firefox/smoke.mjs
