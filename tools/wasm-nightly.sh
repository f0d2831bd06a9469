# Sourced by tools/postbuild.sh and tools/build-sql.sh: how this project's wasm modules (the
# widgets modules and the SQL engine; not the shell, which Trunk builds on stable) are compiled.
# A lesson's first load is its widgets module, so they are built with Rust nightly (tools/setup.sh
# installs it, with rust-src) and a build of the standard library of their own, without what a
# panic would print:
# - `-Zbuild-std`: std compiled with the crate, at opt-level z and through LTO with it, with
#   std's `optimize_for_size` (its smaller sorting and formatting);
# - `-Cpanic=immediate-abort`: a panic traps at once, as `panic = "abort"` ends in anyway (the
#   loader's notice and restart, `src/app/widget_slot.rs`), without formatting its message;
# - `-Zfmt-debug=none`, `-Zlocation-detail=none`: no `Debug` output and no source locations
#   (nothing a page shows is written with `{:?}`; the native tests, on stable, keep both);
# - and after wasm-bindgen, wasm-opt's `--low-memory-unused` (`$wasm_opt_flags`): it may fold
#   `p + k` into a load's offset, for k under 1024, which differs only when the sum wraps to an
#   address under 1024. Rust's linker puts the stack there, growing down from 1 MB, so only a
#   stack 1 MB deep reaches it, and that has overrun the stack already.
# Together 10–13% of each widgets module (brotli), 22–33 KB off each lesson's first load, and
# 3.5% (12 KB) of the SQL engine.
#
#   RUSTFLAGS="$wasm_rustflags" wasm_cargo_build --bin NAME [--release] …
wasm_rustflags="-Zunstable-options -Cpanic=immediate-abort -Zfmt-debug=none -Zlocation-detail=none"
wasm_opt_flags="--low-memory-unused"
wasm_cargo_build() {
  cargo +nightly build --quiet --locked --target wasm32-unknown-unknown \
    -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size "$@"
}
