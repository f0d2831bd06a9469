#!/usr/bin/env bash
# Trunk post-build hook (see Trunk.toml), run in the project folder with TRUNK_STAGING_DIR set:
# 1. builds the widgets module (src/bin/ie-widgets.rs) the way Trunk builds the shell:
#    cargo for wasm32, wasm-bindgen, and wasm-opt -Oz in release builds;
# 2. runs src/bin/prerender.rs, which copies it in under hashed names and writes the
#    per-lesson pages, the CSP and the service worker.
set -euo pipefail
profile="${TRUNK_PROFILE:-debug}"
target_dir="${CARGO_TARGET_DIR:-target}"
out="$target_dir/ie-widgets/$profile"
release=()
[ "$profile" = release ] && release=(--release)

# Leptos's `erase_components` boxes each component's view instead of nesting their types: the
# widgets' wasm is ~14% smaller (brotli) for it. Its own target folder, so that the shell's
# build and clippy keep their cache.
widgets_target="$target_dir/widgets-erased"
RUSTFLAGS="--cfg erase_components" CARGO_TARGET_DIR="$widgets_target" \
  cargo build --quiet --target wasm32-unknown-unknown --bin ie-widgets "${release[@]}"
rm -rf "$out" && mkdir -p "$out"
wasm-bindgen --target=web --no-typescript --out-dir="$out" --out-name=ie-widgets \
  "$widgets_target/wasm32-unknown-unknown/$profile/ie-widgets.wasm"
if [ "$profile" = release ]; then
  wasm-opt -Oz --output="$out/ie-widgets_bg.wasm" "$out/ie-widgets_bg.wasm"
fi
export IE_SQL_DIR="$target_dir/ie-sql/$profile" && tools/build-sql.sh "$IE_SQL_DIR" "$profile"
IE_WIDGETS_DIR="$out" cargo run --quiet --bin prerender
