#!/usr/bin/env bash
# Installs what this project needs on a fresh machine of its kind (Debian with rustup, Node.js
# and npm; root). Idempotent: each step is skipped when its tool is already there.
#
#   tools/setup.sh build   # Rust's wasm target and the pinned nightly (tools/wasm-toolchain.toml),
#                          # Trunk, clang, wasm-bindgen-cli, wasm-opt (binaryen 132) and esbuild
#   tools/setup.sh test    # the above, plus Chromium, chromedriver and Playwright, and Firefox ESR
#                          # with puppeteer-core (the second-engine smoke run)
#
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-build}"

say() { printf '\033[1m== %s\033[0m\n' "$*"; }

setup_build() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32 target"
    rustup target add wasm32-unknown-unknown
  fi
  rustup component list --installed | grep -q '^clippy' || rustup component add clippy
  # Every wasm module is built with the nightly named in tools/wasm-toolchain.toml (the why is
  # there), with the standard library's source; the build driver checks it is there.
  local wasm_toolchain
  wasm_toolchain=$(sed -n 's/^channel = "\(.*\)"$/\1/p' tools/wasm-toolchain.toml)
  if ! rustup run "$wasm_toolchain" rustc --version >/dev/null 2>&1 \
    || ! rustup component list --toolchain "$wasm_toolchain" --installed | grep -q '^rust-src'; then
    say "installing Rust $wasm_toolchain (minimal, with rust-src and wasm32)"
    rustup toolchain install "$wasm_toolchain" --profile minimal --component rust-src \
      --target wasm32-unknown-unknown
  fi
  rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
  # Trunk 0.22 needs a newer rustc than this machine has; 0.21 is verified here.
  if ! trunk --version 2>/dev/null | grep -q '^trunk 0\.21\.'; then
    # Unoptimised (opt-level 0, no LTO, many codegen units): 2 min 40 s on a 2-core machine,
    # against 6 min 51 s optimised without LTO and 9 min 38 s with Trunk's own release profile. Trunk only copies files, runs the
    # build driver and serves: a warm `trunk build --release` took 3.4 s with either binary.
    say "installing Trunk 0.21 (about 3 minutes, once)"
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=false \
      CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 CARGO_PROFILE_RELEASE_DEBUG=false \
      cargo install trunk --version '~0.21' --locked
  fi
  # clang compiles SQLite's C code for wasm32 (the SQL engine module, xtask/src/modules.rs).
  if ! command -v clang >/dev/null; then
    say "installing clang (Debian package)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null
  fi
  # wasm-bindgen-cli must match the wasm-bindgen crate in Cargo.lock exactly. Without --locked:
  # with it, a pinned dependency is missing from the registry.
  local want
  want=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
  if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $want"; then
    say "installing wasm-bindgen-cli $want"
    cargo install wasm-bindgen-cli --version "=$want"
  fi
  # wasm-opt from npm's binaryen 132: Debian's binaryen 108 emits a module that fails at load.
  # esbuild minifies the build's scripts and stylesheets (xtask finds both in tools/node_modules).
  if [ ! -x tools/node_modules/.bin/wasm-opt ] || [ ! -x tools/node_modules/.bin/esbuild ]; then
    say "installing wasm-opt (binaryen 132) and esbuild (npm)"
    (cd tools && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

setup_test() {
  setup_build
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    say "installing Chromium and chromedriver (Debian packages)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
  if [ ! -d tests/e2e/node_modules/@playwright/test ]; then
    say "installing Playwright (no browser download: the tests use Debian's Chromium)"
    (cd tests/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  fi
  if ! command -v firefox-esr >/dev/null; then
    say "installing Firefox ESR (Debian package)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr >/dev/null
  fi
  if [ ! -d tests/firefox/node_modules/puppeteer-core ]; then
    say "installing puppeteer-core (no browser download: the smoke run uses Debian's Firefox ESR)"
    (cd tests/firefox && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  fi
}

case "$what" in
  build) setup_build ;;
  test) setup_test ;;
  *) echo "usage: tools/setup.sh build|test" >&2; exit 2 ;;
esac
