#!/usr/bin/env bash
# The training run of UAL_PGO (CMakeLists.txt): the instrumented ualink-decode
# of BUILD decodes generated traffic of every fabric and the bundled samples
# in its usual modes, and its profile is left in DATA for the build proper.
#   pgo-train.sh BUILD DATA SAMPLES_DIR
# A failure here leaves the build without a profile, not broken: it says so
# and exits 0 (the build then compiles as without UAL_PGO).
set -uo pipefail
build=$1 data=$2 samples=$3
gen=$build/cli/gen/ualink-gen
dec=$build/cli/ualink-decode
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$gen" -s traffic --seed 7 --load 0.7 -c 200000 -w "$tmp/traffic.pcap" 2>/dev/null
"$gen" -s errors --seed 9 -c 40000 -w "$tmp/errors.pcap" 2>/dev/null
"$gen" -s all --seed 5 -w "$tmp/all.pcap" 2>/dev/null
for s in pcie pcie-flit ub-all; do "$gen" -s $s --seed 3 -c 20000 -w "$tmp/$s.pcap" 2>/dev/null; done
# the generator's own counts are not the decoder's
rm -rf "$data"
mkdir -p "$data"

# the exit status says whether error findings came, which some captures have on purpose
run() { "$dec" "$@" >/dev/null 2>&1; }
for f in "$tmp"/*.pcap; do
  run -q --stats -j 1 "$f"
  run -q -j 2 "$f"
  run -c 4000 "$f"
  run --json -c 2000 "$f"
done
for f in "$samples"/*.pcap; do
  run -q --stats "$f"
  run -V "$f"
  run --timeline "$f"
done
n=$(find "$data" -name '*.gcda' | wc -l)
if [ "$n" -eq 0 ]; then
  echo "pgo-train.sh: warning: no profile was written to $data; ualink-decode is built without one" >&2
  exit 0
fi
echo "pgo-train.sh: $n profiles in $data"
