#!/usr/bin/env bash
# `cmake --install --prefix ~/.local`, as a user installs: tshark, run as that
# user with no WIRESHARK_PLUGIN_DIR and nothing copied by hand, loads the
# plugin and the extcap from the folders of the Wireshark version built
# against, lists the generator interface and captures from it.
# usage: test_home.sh CMAKE BUILD_DIR   (exit 77: skipped)
set -euo pipefail
cmake=$1 BUILD=$2
for t in tshark capinfos setpriv; do
  command -v $t > /dev/null || { echo "skip: no $t"; exit 77; }
done
[ -d "$BUILD/plugins" ] || { echo "skip: the Wireshark plugin was not built"; exit 77; }
majmin=$(ls "$BUILD/plugins")
H=$(mktemp -d)   # the user's home
trap 'rm -rf "$H"' EXIT
chmod 755 "$H"
HOME=$H "$cmake" --install "$BUILD" --prefix "$H/.local" > "$H/install.log"
mkdir -p "$H/out"
if [ "$(id -u)" -eq 0 ]; then chown -R nobody:nogroup "$H"; fi
# as the user: only the system PATH, so the extcap must find ualink-gen itself
asuser() {
  if [ "$(id -u)" -eq 0 ]; then
    timeout 120 env -i HOME="$H" PATH=/usr/bin:/bin setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
  else
    timeout 120 env -i HOME="$H" PATH=/usr/bin:/bin "$@"
  fi
}
fails=0
check() { local msg=$1; shift; if "$@"; then echo "ok: $msg"; else echo "FAIL: $msg" >&2; fails=$((fails + 1)); fi; }

case $majmin in
  3.* | 4.0) xdir=$H/.config/wireshark/extcap ;;
  *) xdir=$H/.local/lib/wireshark/extcap ;;
esac
check "extcap linked into Wireshark $majmin's personal folder ${xdir#"$H"/}" test -x "$xdir/ualink-extcap"
url=$(asuser "$xdir/ualink-extcap" --extcap-interfaces | sed -n 's/^extcap {version=[^}]*}{help=\(.*\)}$/\1/p')
check "its help link points into the prefix ($url)" test "$url" = "file://$H/.local/share/ualink-tools/wireshark/README-wireshark.md"

asuser tshark -G plugins > "$H/plugins.txt" 2>&1 || true
check "tshark loads the plugin from ~/.local/lib/wireshark/plugins/$majmin/epan" \
  grep -q "ualink.so.*$H/.local/lib/wireshark/plugins/$majmin/epan/ualink.so" "$H/plugins.txt"
asuser tshark -D > "$H/ifaces.txt" 2> "$H/ifaces.err" || true
check "tshark -D lists the generator" grep -qE '^[0-9]+\. ualink-generator \(UALink generator\)$' "$H/ifaces.txt"
check "tshark -D lists the UDP export" grep -qE '^[0-9]+\. ualink-udp \(UALink UDP export\)$' "$H/ifaces.txt"

rc=0
asuser tshark -i ualink-generator -o extcap.ualink_generator.seed:3 -a packets:300 -w "$H/out/gen.pcapng" -q \
  > /dev/null 2> "$H/cap.err" || rc=$?
check "tshark -i ualink-generator -a packets:300 exits 0 ($(tr '\n' ' ' < "$H/cap.err"))" test "$rc" -eq 0
n=$(capinfos -M -c "$H/out/gen.pcapng" 2> /dev/null | sed -n 's/^Number of packets: *//p')
check "the capture holds 300 records ($n)" test "$n" = 300
n=$(asuser tshark -r "$H/out/gen.pcapng" -Y ualink 2> /dev/null | wc -l)
check "the plugin decodes all 300 ($n)" test "$n" -eq 300
echo "home install: $fails failed"
[ "$fails" -eq 0 ]
