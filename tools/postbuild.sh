#!/usr/bin/env bash
# Trunk post-build hook (see Trunk.toml), run in the project folder with TRUNK_STAGING_DIR set:
# 1. builds the widgets modules (src/bin/ie-widgets*.rs; src/widgets/modules.rs lists them and
#    their widgets) the way Trunk builds the shell: cargo for wasm32, wasm-bindgen, and
#    wasm-opt -Oz in release builds;
# 2. runs src/bin/prerender.rs, which copies them in under hashed names and writes the
#    per-lesson pages (each naming the modules), the CSP and the service worker;
# 3. in release builds, minifies the scripts and stylesheets the pages fetch (esbuild, in place).
set -euo pipefail
profile="${TRUNK_PROFILE:-debug}"
target_dir="${CARGO_TARGET_DIR:-target}"
out="$target_dir/ie-widgets/$profile"
release=()
[ "$profile" = release ] && release=(--release)

modules=()
for f in src/bin/ie-widgets*.rs; do modules+=("$(basename "$f" .rs)"); done
bins=()
for m in "${modules[@]}"; do bins+=(--bin "$m"); done

# Leptos's `erase_components` boxes each component's view instead of nesting their types: the
# widgets' wasm is ~14% smaller (brotli) for it. Its own target folder, so that the shell's
# build and clippy keep their cache. One cargo run builds the crate once and links each module.
# Built with Rust nightly, at their smallest: how and why in tools/wasm-nightly.sh.
widgets_target="$target_dir/widgets-erased"
source tools/wasm-nightly.sh
RUSTFLAGS="--cfg erase_components $wasm_rustflags" CARGO_TARGET_DIR="$widgets_target" \
  wasm_cargo_build "${bins[@]}" "${release[@]}"
rm -rf "$out" && mkdir -p "$out"
# wasm-bindgen, then in release builds the exports no page calls dropped (tools/drop-exports.mjs)
# and wasm-opt (through a cache: the same input is optimized once): two modules at a time.
finish() {
  wasm-bindgen --target=web --no-typescript --out-dir="$out" --out-name="$1" \
    "$widgets_target/wasm32-unknown-unknown/$profile/$1.wasm"
  if [ "$profile" = release ]; then
    node tools/drop-exports.mjs "$out/${1}_bg.wasm"
    tools/wasm-opt-cached.sh "$out/${1}_bg.wasm" $wasm_opt_flags
  fi
}
export -f finish
export out profile widgets_target wasm_opt_flags
printf '%s\n' "${modules[@]}" | xargs -P 2 -I{} bash -c 'finish "$1"' _ {}
# The SQL engine module, loaded only when a reader turns on execution grading.
export IE_SQL_DIR="$target_dir/ie-sql/$profile" && tools/build-sql.sh "$IE_SQL_DIR" "$profile"
IE_WIDGETS_DIR="$out" cargo run --quiet --bin prerender
# Minified: the wasm-bindgen glue of every module and its snippets, the diagrams' script, the
# worker that compiles a page's wasm first, and the widgets' stylesheets (comments and long
# names are a third of a lesson's JavaScript and CSS).
# And main.css and boot.js, which every page loads (comments are a fifth of the one and two
# thirds of the other): the pages name them with an integrity hash of what Trunk wrote, so that
# hash is replaced by the minified file's in every page (tools/rehash.mjs).
# esbuild keeps each file's kind: a module's names are its own, a classic script's stay global.
# (wasm-bindgen names one snippet twice in its imports object, the same module both times.)
if [ "$profile" = release ]; then
  staging="${TRUNK_STAGING_DIR:?run this as a Trunk post_build hook}"
  mapfile -t files < <(cd "$staging" && find . \( -name 'ie-*.js' -o -path './snippets/*.js' \
    -o -name 'diagrams-*.js' -o -name 'warmup-*.js' -o -name 'widgets-*.css' -o -name 'main-*.css' -o -name 'boot-*.js' \) \
    -type f | sort)
  (cd "$staging" && esbuild "${files[@]}" --minify --log-level=warning --allow-overwrite \
    --log-override:duplicate-object-key=silent --outbase=. --outdir=.)
  mapfile -t named < <(find "$staging" -maxdepth 1 \( -name 'main-*.css' -o -name 'boot-*.js' \) -type f)
  node tools/rehash.mjs "$staging" "${named[@]}"
fi
