#!/usr/bin/env bash
# The web site in one command, into web/dist/: the WebAssembly module (ctlpgn-web, profile
# web), made smaller by wasm-opt when Debian's binaryen is there, then the playground and the
# <ctlpgn-viewer> element bundled by esbuild from the locked npm dependencies. Installs what
# it needs as .ci/run does: the wasm32 target, clang (tree-sitter's C for wasm32), binaryen.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
missing=()
command -v clang >/dev/null || missing+=(clang)
command -v wasm-opt >/dev/null || missing+=(binaryen)
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cargo build --locked -p ctlpgn-web --target wasm32-unknown-unknown --profile web
mkdir -p web/dist
built=target/wasm32-unknown-unknown/web/ctlpgn_web.wasm
if command -v wasm-opt >/dev/null; then
  # The features rustc enables for wasm32-unknown-unknown, which the browsers of 2023 on have.
  wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
    "$built" -o web/dist/ctlpgn_web.wasm
else
  echo "wasm-opt not found (Debian's binaryen): the module is left as rustc wrote it" >&2
  cp "$built" web/dist/ctlpgn_web.wasm
fi

cd web
npm ci --no-audit --no-fund
node scripts/bundle.js
echo "web/dist: $(ls dist | tr '\n' ' ')"
