#!/bin/sh
# The Dask run against the serial decode (issue 18): a generated capture of
# COUNT flits decoded with --json by ualink-decode -j 1 and by
# scripts/ualink-dask.py (a LocalCluster of WORKERS processes, PARTS parts);
# prints both wall times, the ratio and whether the outputs are identical.
#   bench_dask.sh DECODER GEN [COUNT] [WORKERS] [PARTS]
set -eu
DEC=$1 GEN=$2 COUNT=${3:-400000} WORKERS=${4:-2} PARTS=${5:-4}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$GEN" -s traffic -c "$COUNT" --seed 1 -w "$T/cap.pcap" > /dev/null
now() { date +%s.%N; }
t0=$(now); "$DEC" -j 1 --json "$T/cap.pcap" > "$T/serial" 2> /dev/null || true; t1=$(now)
"$PY" "$HERE/../scripts/ualink-dask.py" --decoder "$DEC" -N "$PARTS" --workers "$WORKERS" "$T/cap.pcap" -- --json \
  > "$T/dask" 2> "$T/dask.err" || true; t2=$(now)
same=no; cmp -s "$T/serial" "$T/dask" && same=yes
awk -v s="$t0" -v a="$t1" -v d="$t2" -v w="$WORKERS" -v p="$PARTS" -v b="$(stat -c %s "$T/cap.pcap")" -v same="$same" 'BEGIN {
  printf "dask: %.1f MB, serial -j 1 %.2f s, Dask %d workers %d parts %.2f s (start-up included): %.2fx serial, output identical: %s\n",
         b / 1e6, a - s, w, p, d - a, (a - s) / (d - a), same }'
