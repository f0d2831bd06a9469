#!/usr/bin/env bash
# wasm-opt -Oz on FILE, in place, through a cache in the target folder: the same input (and
# the same wasm-opt) gives the same output, and -Oz is most of the time a module takes after
# cargo, so the test command's second release build (under a sub-path, same code) takes each
# module from the cache instead of optimizing it again. Used by postbuild.sh and build-sql.sh.
#
#   tools/wasm-opt-cached.sh FILE [FLAG...]   # FLAGs go to wasm-opt after -Oz (and into the key)
#
# IE_WASM_KEEP_NAMES=1 keeps the functions' names (wasm-opt -g), for a profile or `twiggy`
# to read: `IE_WASM_KEEP_NAMES=1 tools/build.sh / --dist target/named-dist`.
set -euo pipefail
file="${1:?usage: tools/wasm-opt-cached.sh FILE [FLAG...]}"
shift
cache="${CARGO_TARGET_DIR:-target}/wasm-opt-cache"
mkdir -p "$cache"
flags=(-Oz "$@")
extra="$*"
if [ "${IE_WASM_KEEP_NAMES:-}" = 1 ]; then
  flags+=(-g)
  extra="$extra -g"
fi
# Only a flag beyond -Oz joins the key, so that the usual build's entries keep their keys.
key=$( (wasm-opt --version && printf '%s' "$extra" && sha256sum <"$file") | sha256sum | cut -c1-64)
if [ ! -f "$cache/$key.wasm" ]; then
  wasm-opt "${flags[@]}" --output="$cache/$key.tmp.$$" "$file"
  mv "$cache/$key.tmp.$$" "$cache/$key.wasm"
fi
cp "$cache/$key.wasm" "$file"
# Used now: the clean-up below keeps it.
touch "$cache/$key.wasm"
# Entries no build has used for a day are from older code.
find "$cache" -name '*.wasm' -mmin +1440 -delete
