#!/usr/bin/env bash
# Builds the SQL engine module (src/bin/ie-sql.rs: SQLite compiled to wasm, feature `sql`) the
# way tools/postbuild.sh builds the widgets: cargo for wasm32 with Rust nightly
# (tools/wasm-nightly.sh), wasm-bindgen --target=web, and wasm-opt -Oz in release builds
# (tools/wasm-opt-cached.sh). Called by tools/postbuild.sh; the
# prerender step then copies it in under hashed names. SQLite's C code is compiled by clang
# (tools/setup.sh installs it).
#
#   tools/build-sql.sh OUT_DIR [release]
set -euo pipefail
out="${1:?usage: tools/build-sql.sh OUT_DIR [release]}"
profile="${2:-debug}"
target_dir="${CARGO_TARGET_DIR:-target}"
release=()
[ "$profile" = release ] && release=(--release)

# Its own target folder: the nightly build (and its std) stays apart from the shell's stable one.
sql_target="$target_dir/sql-nightly"
source "$(dirname "$0")/wasm-nightly.sh"
RUSTFLAGS="$wasm_rustflags" CARGO_TARGET_DIR="$sql_target" \
  wasm_cargo_build --features sql --bin ie-sql "${release[@]}"
rm -rf "$out" && mkdir -p "$out"
wasm-bindgen --target=web --no-typescript --out-dir="$out" --out-name=ie-sql \
  "$sql_target/wasm32-unknown-unknown/$profile/ie-sql.wasm"
if [ "$profile" = release ]; then
  tools/wasm-opt-cached.sh "$out/ie-sql_bg.wasm" $wasm_opt_flags
fi
