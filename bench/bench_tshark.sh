#!/usr/bin/env bash
# tshark with the UALink plugin against ualink-decode on the same ~100 MB
# capture: frames/s of each, measured in the same run. tshark runs as nobody
# (it ignores plugin folders as root).
# usage: bench/bench_tshark.sh BUILD_DIR [MB]
set -euo pipefail
BUILD=${1:-build} MB=${2:-100}
BUILD=$(cd "$BUILD" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
majmin=$(ls "$BUILD/plugins")
mkdir -p "$work/plugins/$majmin/epan" "$work/home"
cp "$BUILD/plugins/$majmin/epan/ualink.so" "$work/plugins/$majmin/epan/"
chmod -R a+rX "$work"
records=$((MB * 1000000 / 280))
"$BUILD/cli/gen/ualink-gen" -q --scenario traffic --load 0.9 -c "$records" -w "$work/cap.pcap"
chmod a+r "$work/cap.pcap"
size=$(stat -c %s "$work/cap.pcap")
frames=$(capinfos -c -M "$work/cap.pcap" | awk '/Number of packets/ {print $NF}')
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc -l; }
ts() { env HOME="$work/home" WIRESHARK_PLUGIN_DIR="$work/plugins" setpriv --reuid=nobody --regid=nogroup --clear-groups tshark "$@"; }
t_dec=$(secs "$BUILD/cli/ualink-decode" -q "$work/cap.pcap")
t_q=$(secs ts -r "$work/cap.pcap" -q)
t_stat=$(secs ts -r "$work/cap.pcap" -q -z ualink,stat)
t_filter=$(secs ts -r "$work/cap.pcap" -Y 'ualink.fh.replay_cmd == 2')
printf 'capture: %.1f MB, %d frames\n' "$(echo "$size / 1000000" | bc -l)" "$frames"
for row in "ualink-decode -q:$t_dec" "tshark -q:$t_q" "tshark -q -z ualink,stat:$t_stat" "tshark -Y filter (full dissection):$t_filter"; do
  name=${row%:*} t=${row##*:}
  printf '%-40s %8.2f s %10.0f frames/s  %6.2f x ualink-decode\n' "$name" "$t" "$(echo "$frames / $t" | bc -l)" "$(echo "$t_dec / $t" | bc -l)"
done
