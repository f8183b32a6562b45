#!/usr/bin/env bash
# Installs Neovim 0.10, Debian 13's package (the Neovim of Debian 13 and of recent Ubuntu), into
# DIR for the editor tests (server/tests/neovim.rs), on a machine of another Debian release:
#
#   tests/e2e/install-neovim-0.10.sh DIR      # then DIR/bin/nvim
#
# PyPI has no wheel of 0.10, so the packages come from Debian's archive, through the mirror the
# machine's own apt sources name, with apt-get run on lists of its own under DIR (the machine's
# sources and lists are left as they are). Debian 13's Neovim is built against a newer C library
# than Debian 12's, so the C library comes too, and patchelf (Debian's package) points the
# binary at that library's loader and folders. Only Neovim's own process uses them: the programs
# it starts (the server, a C compiler, Neovim itself for its terminal interface) keep the
# machine's libraries, and Neovim finds its runtime and the parsers Debian ships
# (usr/lib/nvim/parser) beside its binary, as the installed package does.
# Idempotent: a DIR that already holds a working install is left as it is.
set -euo pipefail
dir=${1:?usage: install-neovim-0.10.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

command -v patchelf >/dev/null || { echo "install-neovim-0.10.sh: needs patchelf" >&2; exit 1; }
if [ -x "$dir/bin/nvim" ] && "$dir/bin/nvim" --version 2>/dev/null | head -1 | grep -q '^NVIM v0\.10\.'; then
  exit 0
fi

# The machine's Debian mirror: the first archive (not security) URI of its apt sources.
mirror=$(
  { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources || true
    grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list || true
  } | awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\// && $i !~ /security/) { print $i; exit } }'
)
if [ -z "$mirror" ]; then
  echo "install-neovim-0.10.sh: no Debian mirror in the apt sources" >&2
  exit 1
fi

apt="$dir/apt"
rm -rf "$apt" "$dir/root" "$dir/bin"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$dir/root" "$dir/bin"
echo "deb $mirror trixie main" >"$apt/sources.list"
options=(
  -o "Dir::Etc::SourceList=$apt/sources.list"
  -o "Dir::Etc::SourceParts=/dev/null"
  -o "Dir::State::Lists=$apt/lists"
  -o "Dir::Cache=$apt/cache"
  -o "APT::Sandbox::User=root"
  -o "Acquire::Languages=none"
)
apt-get -qq "${options[@]}" update
# Neovim, its runtime, and what `apt-cache depends neovim` names, the C library among them.
(cd "$apt/debs" && apt-get -qq "${options[@]}" download \
  neovim neovim-runtime libc6 libluajit-5.1-2 libmsgpack-c2 libtree-sitter0.22 \
  libunibilium4 libuv1t64 libvterm0 lua-lpeg lua-luv)
for package in "$apt"/debs/*.deb; do
  dpkg-deb -x "$package" "$dir/root"
done
root="$dir/root"
libraries="$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu"
# The loader and RPATH (which, unlike RUNPATH, also serves the libraries' own dependencies).
patchelf --set-interpreter "$root/usr/lib64/ld-linux-x86-64.so.2" \
  --force-rpath --set-rpath "$libraries" "$root/usr/bin/nvim"
ln -s ../root/usr/bin/nvim "$dir/bin/nvim"
"$dir/bin/nvim" --version | head -1
