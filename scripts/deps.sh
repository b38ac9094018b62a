#!/usr/bin/env bash
# Installs the Debian 12 packages the build and the tests need (as root).
set -euo pipefail
PKGS=(build-essential cmake pkg-config python3 libpcap-dev libncurses-dev
      libwireshark-dev libwiretap-dev libglib2.0-dev libpcre2-dev tshark tmux
      clang libclang-rt-14-dev valgrind util-linux iproute2 bc chromium
      python3-distributed python3-dask)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "deps.sh: missing packages: ${missing[*]} (run as root to install them)" >&2
  exit 1
fi
echo "deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer no without a prompt.
echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
