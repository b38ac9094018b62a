#!/usr/bin/env bash
# What a display filter costs: ualink-decode -q --stats on the same capture
# without a filter and with each filter below, in one run, alternating the
# runs and keeping each one's best CPU time (user + system) of N. Prints the
# throughput and the ratio to the run without a filter. No pass/fail.
#
#   bench_filter.sh DECODER GEN [RECORDS] [N]
set -euo pipefail
dec=$1 gen=$2 records=${3:-1000000} n=${4:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cap=$tmp/traffic.pcap
"$gen" -s traffic -c "$records" --seed 1 -w "$cap" >/dev/null
bytes=$(stat -c %s "$cap")
filters=("" 'ualink.rule == "RP-NAK"' 'ualink.fh.replay_cmd == 2' 'frame.number > 10 && ualink.rec.dir == 1'
         'ualink.severity == "error" || ualink.flit.fec_status == 1')
best=()
for ((k = 0; k < n; k++)); do
  for i in "${!filters[@]}"; do
    f=${filters[$i]}
    args=(-q --stats)
    [ -n "$f" ] && args+=(-Y "$f")
    t=$( { /usr/bin/time -f '%U %S' "$dec" "${args[@]}" "$cap" >/dev/null; } 2>&1 | awk '{print $1 + $2}')
    if [ -z "${best[$i]:-}" ] || awk -v a="$t" -v b="${best[$i]}" 'BEGIN{exit !(a < b)}'; then best[$i]=$t; fi
  done
done
base=${best[0]}
printf '%d records, %d bytes; best CPU time of %d runs each\n' "$records" "$bytes" "$n"
for i in "${!filters[@]}"; do
  f=${filters[$i]}
  awk -v t="${best[$i]}" -v b="$base" -v by="$bytes" -v f="${f:-(no filter)}" \
    'BEGIN { printf "%-58s %6.2f s  %6.0f MB/s  %5.1f %% of the time without a filter\n", f, t, by / t / 1e6, 100 * t / b }'
done
