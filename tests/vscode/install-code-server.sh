#!/usr/bin/env bash
# Installs code-server (VS Code's server and workbench, the same editor in a browser) from the
# npm registry into DIR, without its install scripts, which download from GitHub:
#
#   tests/vscode/install-code-server.sh DIR
#
# What those scripts do is done here by hand (see the steps). Idempotent: a DIR that already
# holds a working install is left as it is.
set -euo pipefail
dir=${1:?usage: install-code-server.sh DIR}
version=4.96.4
root="$dir/node_modules/code-server"
vscode="$root/lib/vscode"

if [ -f "$dir/.installed-$version" ]; then
  exit 0
fi
mkdir -p "$dir"

# 1. The package itself, scripts skipped.
npm install --prefix "$dir" "code-server@$version" --ignore-scripts --no-audit --no-fund

# 2. One dependency of VS Code's is pinned to a git URL; the registry has the same version
#    with the same integrity, so point the shrinkwrap at the registry's tarball.
node - "$vscode/npm-shrinkwrap.json" <<'JS'
const fs = require('fs');
const { execFileSync } = require('child_process');
const file = process.argv[2];
const shrinkwrap = JSON.parse(fs.readFileSync(file, 'utf8'));
for (const [key, entry] of Object.entries(shrinkwrap.packages || {})) {
  if (typeof entry.resolved === 'string' && /^git(\+|:)/.test(entry.resolved)) {
    const name = key.replace(/^.*node_modules\//, '');
    const tarball = execFileSync('npm', ['view', `${name}@${entry.version}`, 'dist.tarball'], { encoding: 'utf8' }).trim();
    entry.resolved = tarball;
  }
}
fs.writeFileSync(file, JSON.stringify(shrinkwrap, null, 2));
JS

# 3. VS Code's own dependencies, and its native modules built for this Node.
(cd "$vscode" && npm install --omit=dev --ignore-scripts --no-audit --no-fund)
(cd "$vscode" && npm rebuild @parcel/watcher @vscode/deviceid @vscode/spdlog native-watchdog node-pty)

# 4. The links code-server's postinstall makes.
ln -sfn node_modules "$vscode/node_modules.asar"
ln -sfn code-linux.sh "$vscode/bin/remote-cli/code-server"
ln -sfn browser-linux.sh "$vscode/bin/helpers/browser.sh"

# 5. The built-in extensions' dependencies; argon2 is loaded at start even without a password.
(cd "$vscode/extensions" && npm install --omit=dev --ignore-scripts --no-audit --no-fund)
(cd "$dir" && npm rebuild argon2)

# 6. Search wants ripgrep: Debian's.
mkdir -p "$vscode/node_modules/@vscode/ripgrep/bin"
ln -sfn "$(command -v rg)" "$vscode/node_modules/@vscode/ripgrep/bin/rg"

touch "$dir/.installed-$version"
