#!/usr/bin/env bash
# One command from a fresh clone to every test tier: installs what the tests need, then runs
#   1. formatting, the browser scripts' syntax (node --check), clippy (native and wasm32),
#      warnings as errors;
#   2. native tests: the maths, the content pipeline, storage, routes, the build driver
#      (cargo test --workspace);
#   3. the release build at the root and under a sub-path (the latter with the test hooks), and
#      the size budgets;
#   4. end-to-end tests in Debian's Chromium with Playwright, against those builds served by a
#      plain static server;
#   5. a smoke run of the root build in Debian's Firefox ESR (puppeteer-core over WebDriver BiDi).
#
#   tools/test.sh           # all of it (what CI runs)
#   tools/test.sh --quick   # 1 and 2 only: no build, no browser (a few minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=false
[ "${1:-}" = --quick ] && quick=true
if $quick; then tools/setup.sh build; else tools/setup.sh test; fi
source tools/env.sh
# A run of the test command gains nothing from cargo's incremental state (5 GB for the native
# tests on a fresh machine), so it is off unless CARGO_INCREMENTAL is set.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

# Each step's heading says how long the run has taken so far.
step() { printf '\n\033[1m== %s\033[0m (%d min %02d s in)\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }

step "format"
cargo fmt --all -- --check

step "browser scripts (node --check; none left in Rust strings)"
for f in js/*.js; do node --check "$f"; done
if grep -rn 'inline_js' src; then
  echo "JavaScript belongs in js/*.js, imported with #[wasm_bindgen(module = \"/js/…\")]" >&2
  exit 1
fi

step "clippy (native, all targets)"
cargo clippy --workspace --all-targets --locked -- -D warnings
step "clippy (wasm32)"
cargo clippy --target wasm32-unknown-unknown --lib --bins --locked -- -D warnings
cargo clippy --target wasm32-unknown-unknown --features sql,test-hooks --bin ie-sql --bin ie-widgets --locked -- -D warnings

step "native tests"
cargo test --workspace --locked

if $quick; then
  step "done (quick: no build, no browser)"
  exit 0
fi

step "release build at / and at /some/sub/path/ (with the test hooks)"
trunk build --release --locked
IE_TEST_HOOKS=1 trunk build --release --locked --public-url /some/sub/path/ --dist target/dist-sub
mkdir -p target/e2e-sub/some/sub
ln -sfn ../../../dist-sub target/e2e-sub/some/sub/path

step "size budgets (brotli, first load of every page)"
node tools/size-report.mjs dist --budget-kb 150 --budgets tools/size-budgets.json

step "end-to-end (Chromium)"
(cd tests/e2e && CI=1 npx playwright test)

step "end-to-end smoke (Firefox ESR)"
node tests/firefox/smoke.mjs

step "done"
