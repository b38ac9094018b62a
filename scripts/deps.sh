#!/usr/bin/env bash
# Installs the packages the build and the tests need (as root), on Debian 12
# (Wireshark 4.0, GCC 12) and Debian 13 (Wireshark 4.4, GCC 14): the names
# are the same on both except clang's sanitizer runtime, which follows
# clang's major version.
set -euo pipefail
PKGS=(build-essential cmake pkg-config python3 libpcap-dev libncurses-dev
      libwireshark-dev libwiretap-dev libglib2.0-dev libpcre2-dev tshark tmux
      clang valgrind util-linux iproute2 bc chromium groff-base
      python3-distributed python3-dask)

missing() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || echo "$p"
  done
}

updated=0
install() {
  [ $# -gt 0 ] || return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "deps.sh: missing packages: $* (run as root to install them)" >&2
    exit 1
  fi
  echo "deps.sh: installing $*"
  export DEBIAN_FRONTEND=noninteractive
  # tshark asks whether non-root users may capture; answer no without a prompt.
  echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
  if [ $updated -eq 0 ]; then apt-get update -q; updated=1; fi
  apt-get install -y -q --no-install-recommends "$@"
}

mapfile -t need < <(missing "${PKGS[@]}")
install "${need[@]}"
# ASan/UBSan and libFuzzer with clang need the runtime of clang's own version.
clang_major=$(clang -dumpversion | cut -d. -f1)
mapfile -t need < <(missing "libclang-rt-$clang_major-dev")
install "${need[@]}"
