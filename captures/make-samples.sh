#!/bin/sh
# Writes the sample captures of this folder with ualink-gen.
#   captures/make-samples.sh [path/to/ualink-gen]
# Without an argument the generator is looked for in build*/cli/gen/.
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

cd "$here"
run() {
  out=$1
  shift
  "$gen" -q --seed 1 "$@" -w "$out"
  size=$(wc -c < "$out")
  [ "$size" -lt 204800 ] || { echo "$out is $size bytes, over 200 KB" >&2; exit 1; }
  printf '%-18s %7d bytes  ualink-gen --seed 1 %s\n' "$out" "$size" "$*"
}

run bringup.pcap     -s bringup --width 4 --train-os 4 --run-scale 0.3
run traffic.pcap     -s traffic --run-scale 0.1 -c 650
run uart.pcap        -s uart --run-scale 0.25 -c 640
run errors.pcap      -s errors --run-scale 0.15 -c 560 --truth errors.truth.jsonl
run pcie-dllp.pcap   -s pcie -c 300 --inject PD-CRC,PD-TYPE,PD-RESERVED,PD-FC-ORDER,PD-FC-INIT-CHANGED,PD-FC-BACKWARDS,PD-FC-INFINITE,PD-FC-SCALE,PD-ACK-BACKWARDS,PD-NAK,PD-PM-ORDER --truth pcie-dllp.truth.jsonl
run l1.pcap          -s l1 --width 4 --run-scale 0.1
run l0p.pcap         -s l0p --run-scale 0.1
run negotiation.pcap -s negotiation --width 4 --run-scale 0.02 --latency 2 --train-os 2
run violations.pcap  -s traffic --run-scale 0.1 -c 420 --truth violations.truth.jsonl \
    --inject DL-TLBEAT@60,DM-UNKNOWN@110,PL-NOP-DLLP@160,DL-ZERO-FILL@210,PL-CRC@260,DM-RATE-RANGE@320
run ub-ber.pcap      -s ub-ber -c 1200 --truth ub-ber.truth.jsonl
run ub-mode.pcap     -s ub-mode -c 1200
run ub-violations.pcap -s ub-init -c 400 --truth ub-violations.truth.jsonl --inject UB-INIT-FEATURE,UB-RETRY-SET-FIELDS
