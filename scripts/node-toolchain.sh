#!/usr/bin/env bash
# The Node.js versions this project supports, from the npm registry's official binaries (the
# node-<os>-<arch> packages), installed into .cache/node/<version> (git-ignored) and reused when
# present. Any node and npm already on the machine (even Node 20) can run the installation.
#
#   scripts/node-toolchain.sh [24|22|<version>]        install when missing; print its bin directory
#   eval "$(scripts/node-toolchain.sh env [24|22])"    put it first on PATH in this shell
#   scripts/node-toolchain.sh run 22 npm test          run one command with it
#   scripts/node-toolchain.sh versions                 the pinned versions: "24.x 22.x"
#
# The bin directory holds `node`, and `npm`/`npx` (the pinned npm, run by that node): `npm ci` with
# it installs node_modules for that Node (native addons are built by the Node that runs them).
set -euo pipefail

# Node 24: the active LTS. Node 22: the oldest version the dependencies accept (engines:
# @nestjs/schematics ^22.22.3, typeorm ^22.13), which package.json's engines repeats.
NODE_24=24.21.0
NODE_22=22.22.3
# One npm for both: package.json's allowScripts is read by npm 11.16 and newer; Node 22 ships npm 10.
NPM_VERSION=11.19.1

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${NODE_TOOLCHAIN_CACHE:-$root/.cache/node}"

resolve() {
  case "${1:-24}" in
    24) echo "$NODE_24" ;;
    22) echo "$NODE_22" ;;
    [0-9]*.[0-9]*.[0-9]*) echo "$1" ;;
    *) echo "unknown Node version '$1': 24, 22 or x.y.z" >&2; exit 2 ;;
  esac
}

platform() {
  local os arch
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) echo "no Node package for $(uname -s): install Node $NODE_24 yourself" >&2; exit 2 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "no Node package for $(uname -m): install Node $NODE_24 yourself" >&2; exit 2 ;;
  esac
  echo "node-$os-$arch"
}

# Installs `version` when missing (into a temporary folder first, so an interrupted download is
# never mistaken for an installation) and prints its bin directory.
install() {
  local version dir pkg tmp
  version="$(resolve "${1:-24}")"
  dir="$cache/$version"
  if [ ! -x "$dir/bin/node" ] || [ ! -x "$dir/bin/npm" ]; then
    pkg="$(platform)"
    echo "installing Node $version ($pkg@$version, npm@$NPM_VERSION) into $dir" >&2
    mkdir -p "$cache"
    tmp="$(mktemp -d "$cache/.install-$version.XXXXXX")"
    chmod 755 "$tmp"
    # Scripts off: the packages are plain files (the binary, npm's JavaScript).
    # Exact versions: npm's own cache (~/.npm) serves a fresh clone without asking the registry again.
    if ! npm install --prefix "$tmp" --prefer-offline --no-save --no-package-lock --no-audit --no-fund --ignore-scripts \
      --loglevel=error "$pkg@$version" "npm@$NPM_VERSION" >&2; then
      rm -rf "$tmp"
      # The registry has every linux-x64 release; the other platforms' packages have gaps.
      echo "could not install $pkg@$version from the npm registry: install Node $version yourself (nvm, fnm, ...)" >&2
      exit 1
    fi
    mkdir -p "$tmp/bin"
    ln -s "../node_modules/$pkg/bin/node" "$tmp/bin/node"
    # npm and npx always under this node, whatever `node` the caller's PATH finds first. node-gyp
    # builds native addons against this node's own headers (the package ships include/node), not
    # the machine's `nodedir` (Node 20's headers here) nor a download.
    for tool in npm npx; do
      cat >"$tmp/bin/$tool" <<EOF
#!/bin/sh
here="\$(cd "\$(dirname "\$0")" && pwd)"
npm_config_nodedir="\$here/../node_modules/$pkg"
export npm_config_nodedir
exec "\$here/node" "\$here/../node_modules/npm/bin/$tool-cli.js" "\$@"
EOF
      chmod +x "$tmp/bin/$tool"
    done
    [ "$("$tmp/bin/node" --version)" = "v$version" ] || {
      echo "the installed node is not v$version" >&2
      exit 1
    }
    rm -rf "$dir"
    mv "$tmp" "$dir"
  fi
  echo "$dir/bin"
}

case "${1:-24}" in
  env)
    bin="$(install "${2:-24}")"
    echo "export PATH=\"$bin:\$PATH\""
    ;;
  run)
    [ $# -ge 3 ] || { echo "usage: $0 run <24|22|version> <command> [args...]" >&2; exit 2; }
    bin="$(install "$2")"
    shift 2
    PATH="$bin:$PATH" exec "$@"
    ;;
  versions) echo "$NODE_24 $NODE_22" ;;
  *) install "${1:-24}" ;;
esac
