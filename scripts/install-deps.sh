#!/usr/bin/env bash
# Installs the Debian 12 packages mapsim needs to build, test and run, if any is missing.
# Safe to run repeatedly: it calls apt-get only when something is not installed yet.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config
  libboost-graph-dev libboost-program-options-dev libboost-context-dev libtbb-dev libsqlite3-dev sqlite3 libfmt-dev
  libyaml-cpp-dev libssl-dev gnuplot-nox chromium
  libotf2-trace-dev otf2-tools libscotch-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
