#!/usr/bin/env bash
# Builds the .vsix for one VS Code platform with the language server inside it.
#
#   scripts/package-platform.sh TARGET BINARY
#
# TARGET is a VS Code platform (linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64);
# BINARY is the release build of `ctlpgn` for it, made without the png feature, which no editor
# uses (`cargo build --profile dist -p ctlpgn --no-default-features`: 5.6 MB instead of 9.2 on
# linux-x64). The binary goes to server/ctlpgn (.exe on Windows), where the extension looks
# first when `ctlpgn.server.path` is not set, and the package is written to ctlpgn-TARGET.vsix.
# CI runs this for linux-x64; the release workflow (.github/workflows/release.yml) for every
# target.
set -euo pipefail
target=${1:?usage: package-platform.sh TARGET BINARY}
binary=${2:?usage: package-platform.sh TARGET BINARY}
cd "$(dirname "$0")/.."

case "$target" in
  win32-*) name=ctlpgn.exe ;;
  linux-*|darwin-*|alpine-*) name=ctlpgn ;;
  *) echo "package-platform.sh: unknown target $target" >&2; exit 2 ;;
esac
test -f "$binary" || { echo "package-platform.sh: no binary at $binary" >&2; exit 2; }

# The server folder exists only while packaging, so that the universal package stays without.
rm -rf server
mkdir server
trap 'rm -rf server' EXIT
install -m 0755 "$binary" "server/$name"
npx vsce package --no-dependencies --target "$target" --out "ctlpgn-$target.vsix"
