#!/usr/bin/env bash
# Builds the engine's two wasm modules (simd128, and simd128 + relaxed SIMD) for the browser:
# cargo, wasm-bindgen --target web, wasm-opt -Oz. Output: target/lm-pkg/{simd128,relaxed}/.
# Prints each module's size raw and brotli-compressed.
#
#   crates/lm/bench/build.sh            # release profile as the workspace sets it (opt-level 3 for ie-lm)
#   LM_OPT=z crates/lm/bench/build.sh   # another opt-level for the engine (to compare speed and size)
set -euo pipefail
cd "$(dirname "$0")/../../.."
wasm_opt=${WASM_OPT:-tools/node_modules/.bin/wasm-opt}
[ -x "$wasm_opt" ] || wasm_opt=/work/main/tools/node_modules/.bin/wasm-opt
# Brotli at quality 11 through Node's zlib (no brotli binary needed).
brotli_size() {
  node -e 'const z=require("zlib");const b=require("fs").readFileSync(process.argv[1]);
    console.log(z.brotliCompressSync(b,{params:{[z.constants.BROTLI_PARAM_QUALITY]:11}}).length)' "$1"
}
for variant in simd128 relaxed; do
  case $variant in
    simd128) features="+simd128" ;;
    relaxed) features="+simd128,+relaxed-simd" ;;
  esac
  target_dir="target/lm-$variant${LM_OPT:+-o$LM_OPT}"
  env RUSTFLAGS="-C target-feature=$features" CARGO_TARGET_DIR="$target_dir" \
    ${LM_OPT:+CARGO_PROFILE_RELEASE_PACKAGE_IE_LM_OPT_LEVEL=$LM_OPT} \
    cargo build -p ie-lm --target wasm32-unknown-unknown --release --locked -q
  out="target/lm-pkg/$variant"
  mkdir -p "$out"
  wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name ie_lm \
    "$target_dir/wasm32-unknown-unknown/release/ie_lm.wasm"
  "$wasm_opt" -Oz --enable-simd --enable-relaxed-simd --enable-bulk-memory \
    --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    --enable-reference-types --enable-multivalue \
    "$out/ie_lm_bg.wasm" -o "$out/ie_lm_bg.wasm"
  raw=$(wc -c < "$out/ie_lm_bg.wasm")
  br=$(brotli_size "$out/ie_lm_bg.wasm")
  js_br=$(brotli_size "$out/ie_lm.js")
  echo "$variant: ie_lm_bg.wasm $raw B raw, $br B brotli; ie_lm.js $(wc -c < "$out/ie_lm.js") B raw, $js_br B brotli"
done
