#!/usr/bin/env bash
# Builds gridsat's page into web/dist/: the web crate compiled to WebAssembly, wasm-bindgen's
# glue, and the page (web/www). Run from the project root:
#
#     web/build.sh && python3 -m http.server -d web/dist
#
# then open http://localhost:8000/. The folder works from any static host: no server code.
# Installs what it needs when missing: the wasm32-unknown-unknown target (rustup) and
# wasm-bindgen-cli at the version web/Cargo.toml pins (cargo install; without --locked, which
# fails on a yanked dependency of 0.2.130's lock file). wasm-opt (binaryen) runs when present,
# before wasm-bindgen: Debian's binaryen 108 run after wasm-bindgen breaks the function table.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' web/Cargo.toml)
[ -n "$version" ] || { echo "web/build.sh: no pinned wasm-bindgen version in web/Cargo.toml" >&2; exit 1; }
out=web/dist
target=${CARGO_TARGET_DIR:-target}

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "== installing the wasm32-unknown-unknown target (rustup)"
  rustup target add wasm32-unknown-unknown
fi
if ! wasm-bindgen --version 2>/dev/null | grep -q " $version\$"; then
  echo "== installing wasm-bindgen-cli $version (cargo install; a few minutes)"
  cargo install wasm-bindgen-cli --version "$version" --force
fi

echo "== cargo build --release --target wasm32-unknown-unknown (web/)"
cargo build --manifest-path web/Cargo.toml --release --target wasm32-unknown-unknown --target-dir "$target"
wasm="$target/wasm32-unknown-unknown/release/gridsat_web.wasm"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if command -v wasm-opt >/dev/null 2>&1; then
  level=${WASM_OPT_LEVEL:--O3}
  echo "== wasm-opt $level ($(wasm-opt --version))"
  # Rust's wasm32 target emits these proposals; binaryen must be told it may keep them.
  # --low-memory-unused lets binaryen fold a constant added to a pointer into the load's
  # offset (5 KB gzip smaller, within the 600 KB budget). It differs only where pointer plus
  # constant wraps past 4 GiB into the first KB, which no valid Rust pointer does.
  wasm-opt "$level" --low-memory-unused --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
    "$wasm" -o "$tmp/gridsat_web.wasm"
  wasm="$tmp/gridsat_web.wasm"
else
  echo "== wasm-opt not found: the module is left as rustc made it"
fi

echo "== wasm-bindgen --target no-modules"
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target no-modules --no-typescript --out-dir "$out" --out-name gridsat "$wasm"
cp web/www/* "$out/"

total=0
echo "== $out (bytes: as served, gzip -9)"
for f in "$out"/*; do
  raw=$(wc -c <"$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  total=$((total + gz))
  printf '   %-22s %9d %9d\n' "$(basename "$f")" "$raw" "$gz"
done
printf '== %s: %d bytes gzip-compressed (%d KB; the budget is 600 KB)\n' "$out" "$total" $(((total + 1023) / 1024))
