#!/bin/sh
# Writes the sample captures of this folder with ualink-gen.
#   captures/make-samples.sh [path/to/ualink-gen [path/to/test_anywhere]]
# Without arguments the generator is looked for in build*/cli/gen/, the cut
# helper (for the captures that start mid-stream) in build*/tests/.
# The output is deterministic: the same generator gives the same bytes.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
gen=${1:-}
if [ -z "$gen" ]; then
  for g in "$here"/../build/cli/gen/ualink-gen "$here"/../build*/cli/gen/ualink-gen; do
    if [ -x "$g" ]; then gen=$g; break; fi
  done
fi
[ -n "$gen" ] && [ -x "$gen" ] || { echo "usage: $0 path/to/ualink-gen (none found in build*/cli/gen/)" >&2; exit 2; }
cut=${2:-}
if [ -z "$cut" ]; then
  for c in "$here"/../build/tests/test_anywhere "$here"/../build*/tests/test_anywhere; do
    if [ -x "$c" ]; then cut=$c; break; fi
  done
fi
[ -n "$cut" ] && [ -x "$cut" ] || { echo "usage: $0 path/to/ualink-gen path/to/test_anywhere (none found in build*/tests/)" >&2; exit 2; }

cd "$here"
check_size() {
  size=$(wc -c < "$1")
  [ "$size" -lt 204800 ] || { echo "$1 is $size bytes, over 200 KB" >&2; exit 1; }
}
run() {
  out=$1
  shift
  "$gen" -q --seed 1 "$@" -w "$out"
  check_size "$out"
  printf '%-18s %7d bytes  ualink-gen --seed 1 %s\n' "$out" "$size" "$*"
}
# run_cut OUT K ARGS...: the generator's capture from record K on (a trace
# that starts mid-stream)
run_cut() {
  out=$1
  k=$2
  shift 2
  "$gen" -q --seed 1 "$@" -w "$out.whole"
  "$cut" --cut "$k" "$out.whole" "$out"
  rm -f "$out.whole"
  check_size "$out"
  printf '%-18s %7d bytes  ualink-gen --seed 1 %s, from record %s on\n' "$out" "$size" "$*" "$k"
}

run bringup.pcap     -s bringup --width 4 --train-os 4 --run-scale 0.3
run traffic.pcap     -s traffic --run-scale 0.1 -c 650
run uart.pcap        -s uart --run-scale 0.25 -c 640
run errors.pcap      -s errors --run-scale 0.15 -c 560 --truth errors.truth.jsonl
run pcie-dllp.pcap   -s pcie -c 300 --inject PD-CRC,PD-TYPE,PD-RESERVED,PD-FC-ORDER,PD-FC-INIT-CHANGED,PD-FC-BACKWARDS,PD-FC-INFINITE,PD-FC-SCALE,PD-ACK-BACKWARDS,PD-NAK,PD-PM-ORDER --truth pcie-dllp.truth.jsonl
run pcie-flit.pcap   -s pcie-flit
# a switch (upstream link 0, downstream link 1) and a Root Complex (Root
# Ports on links 0-2): several links in one capture
run pcie-switch.pcap -s pcie-switch
run pcie-rc.pcap     -s pcie-rc
run l1.pcap          -s l1 --width 4 --run-scale 0.1
run l0p.pcap         -s l0p --run-scale 0.1
run negotiation.pcap -s negotiation --width 4 --run-scale 0.02 --latency 2 --train-os 2
run violations.pcap  -s traffic --run-scale 0.1 -c 420 --truth violations.truth.jsonl \
    --inject DL-TLBEAT@60,DM-UNKNOWN@110,PL-NOP-DLLP@160,DL-ZERO-FILL@210,PL-CRC@260,DM-RATE-RANGE@320
run ub-ber.pcap      -s ub-ber -c 1200 --truth ub-ber.truth.jsonl
run ub-mode.pcap     -s ub-mode -c 1200
run ub-violations.pcap -s ub-init -c 400 --truth ub-violations.truth.jsonl --inject UB-INIT-FEATURE,UB-RETRY-SET-FIELDS
# the same as traffic.pcap and errors.pcap, cut: TL flits and a UART
# transport under way, and a go-back-N replay after a Nak
run_cut mid-traffic.pcap 126 -s traffic --run-scale 0.1 -c 650
run_cut mid-errors.pcap  154 -s errors --run-scale 0.15 -c 560
