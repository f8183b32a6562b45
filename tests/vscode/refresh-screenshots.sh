#!/usr/bin/env bash
# Makes the screenshots the docs embed (docs/images: the board panel, a hover, playing on the
# board) by running the real VS Code test, which takes them as a person sees them:
#
#   tests/vscode/refresh-screenshots.sh
#
# It needs what the test needs (Debian's chromium, Node.js 20, npm) and builds the rest: the
# server (profile dist), the linux-x64 package and code-server, cached in target/.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
tests/vscode/install-code-server.sh "$root/target/code-server"
cargo build --profile dist --locked -p ctlpgn --no-default-features
(
  cd editors/vscode
  npm ci --no-audit --no-fund
  scripts/package-platform.sh linux-x64 "$root/target/dist/ctlpgn"
)
mkdir -p docs/images
cd tests/vscode
npm ci --no-audit --no-fund
CTLPGN_CODE_SERVER="$root/target/code-server" \
  CTLPGN_VSIX="$root/editors/vscode/ctlpgn-linux-x64.vsix" \
  CTLPGN_BIN="$root/target/dist/ctlpgn" \
  CTLPGN_DOCS_SHOTS="$root/docs/images" \
  npm test
