#!/usr/bin/env bash
# A Debian 13 (trixie: Wireshark 4.4, GCC 14) root made with debootstrap, for
# building and testing this checkout there (as root, on a Debian machine).
#   scripts/debian13-root.sh DIR prepare   make DIR once, copy the checkout into
#                                          DIR/src, install what deps.sh lists
#   scripts/debian13-root.sh DIR run CMD…  run CMD in DIR/src inside the root
#   scripts/debian13-root.sh DIR umount    undo the mounts of a run cut short
# The mirror is the one this machine's apt uses (debootstrap's own default
# when apt names none).
set -euo pipefail
root=${1:?usage: debian13-root.sh DIR prepare|run CMD...|umount}
what=${2:?usage: debian13-root.sh DIR prepare|run CMD...|umount}
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)

mounted=()
unmount() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
}
trap unmount EXIT
bind() {  # the host's /proc, /sys and /dev: tmux, chromium and setpriv need them
  local d
  for d in proc sys dev dev/pts dev/shm; do
    mkdir -p "$root/$d"
    mount --bind "/$d" "$root/$d"
    mounted+=("$root/$d")
  done
}
inside() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

case "$what" in
  prepare)
    if [ ! -e "$root/etc/debian_version" ] || ! grep -q '^13' "$root/etc/debian_version"; then
      command -v debootstrap >/dev/null || apt-get install -y -q --no-install-recommends debootstrap
      mirror=$(apt-get indextargets --format '$(REPO_URI)' 'Identifier: Packages' 2>/dev/null |
               grep -v -- '-security' | head -n 1 || true)
      rm -rf "$root"
      # shellcheck disable=SC2086
      debootstrap --variant=minbase trixie "$root" $mirror
    fi
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    rm -rf "$root/src"
    mkdir -p "$root/src"
    # the checkout without its build folders
    tar -C "$src" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$root/src" -xf -
    bind
    inside bash /src/scripts/deps.sh ;;
  run)
    bind
    inside bash -c 'cd /src && "$@"' _ "$@" ;;
  umount)
    # the mount points below DIR, deepest first
    root=$(realpath -m "$root")
    awk -v r="$root/" 'index($2, r) == 1 { print $2 }' /proc/mounts | sort -r |
      while read -r m; do umount -l "$m" 2>/dev/null || true; done ;;
  *) echo "usage: debian13-root.sh DIR prepare|run CMD...|umount" >&2; exit 2 ;;
esac
