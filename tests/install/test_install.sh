#!/usr/bin/env bash
# cmake --install --prefix P puts everything under P, the Wireshark plugin
# included, in the layout the README states: P/bin, P/share/man/man1,
# P/lib/wireshark/plugins/<major.minor>/epan/ualink.so (WIRESHARK_PLUGIN_DIR
# layout <dir>/4.0/epan/), and what is installed runs from there.
# usage: test_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=$1 SRC=$2
P=$(mktemp -d)
trap 'rm -rf "$P"' EXIT
chmod 755 "$P"
fails=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fails=$((fails + 1)); }
has() { if [ -e "$P/$1" ]; then ok "installed $1"; else bad "missing $1"; fi; }

cmake --install "$BUILD" --prefix "$P" >"$P.log" 2>&1 || { cat "$P.log"; rm -f "$P.log"; exit 1; }
if grep -v -- "$P" "$P.log" | grep -E "^-- (Installing|Up-to-date): /"; then
  bad "something was installed outside the prefix"
else
  ok "everything under the prefix"
fi
rm -f "$P.log"

for b in ualink-decode ualink-gen ualink-tui; do
  if [ -e "$BUILD/$( [ $b = ualink-tui ] && echo tui || { [ $b = ualink-gen ] && echo cli/gen || echo cli; })/$b" ]; then
    has "bin/$b"
    has "share/man/man1/$b.1"
    if groff -man -ww -z "$P/share/man/man1/$b.1" 2>"$P/groff.err" && [ ! -s "$P/groff.err" ]; then ok "$b.1 renders cleanly"
    else bad "$b.1: $(cat "$P/groff.err")"; fi
  fi
done
out=$("$P/bin/ualink-decode" -q --stats "$SRC/captures/errors.pcap" | grep -c "CRC-64" || true)
[ "$out" = 1 ] && ok "installed ualink-decode runs" || bad "installed ualink-decode does not run"

if [ -e "$BUILD/plugins" ]; then
  so=$(cd "$P" && ls lib/wireshark/plugins/*/epan/ualink.so 2>/dev/null || true)
  majmin=$(ls "$BUILD/plugins")
  if [ "$so" = "lib/wireshark/plugins/$majmin/epan/ualink.so" ]; then ok "plugin at P/$so"; else bad "plugin not at P/lib/wireshark/plugins/$majmin/epan (found '$so')"; fi
  # tshark takes plugins from WIRESHARK_PLUGIN_DIR=<dir> with <dir>/4.0/epan only when not root
  if command -v tshark >/dev/null && command -v setpriv >/dev/null && [ -n "$so" ]; then
    mkdir -p "$P/home" && chmod 777 "$P/home"
    run=(env HOME="$P/home" WIRESHARK_PLUGIN_DIR="$P/lib/wireshark/plugins" tshark)
    [ "$(id -u)" -eq 0 ] && run=(env HOME="$P/home" WIRESHARK_PLUGIN_DIR="$P/lib/wireshark/plugins"
                                 setpriv --reuid=nobody --regid=nogroup --clear-groups tshark)
    if "${run[@]}" -G plugins 2>/dev/null | grep -q "ualink.so"; then ok "tshark loads the installed plugin"
    else bad "tshark does not load P/$so through WIRESHARK_PLUGIN_DIR"; fi
  fi
fi
echo "install: $fails failed"
[ "$fails" -eq 0 ]
