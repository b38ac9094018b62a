#!/usr/bin/env bash
# Runs real tshark with the plugin on captures made by ws_capgen (and on
# captures/*.pcap when present) and checks what it shows.
#
#   test_tshark.sh TEST PLUGIN.so WS_CAPGEN TSHARK SRCDIR MAJOR.MINOR [UALINK-DECODE [UALINK-GEN | MKCAP]]
#
# tshark ignores WIRESHARK_PLUGIN_DIR and the personal plugin folder when run
# as root, so as root it runs as nobody; everything it reads is copied into a
# fresh world-readable folder first.
set -euo pipefail

what=$1 so=$2 capgen=$3 tshark=$4 src=$5 majmin=$6 decode=${7:-} gen=${8:-}
py=${UAL_PYTHON:-python3}   # ctest gives the interpreter CMake chose

work=$(mktemp -d /tmp/ualink-ws.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -p "$work/plugins/$majmin/epan" "$work/home/.config/wireshark" "$work/cap"
cp "$so" "$work/plugins/$majmin/epan/ualink.so"
"$capgen" gen "$work/cap"
shopt -s nullglob
samples=()
for f in "$src"/../captures/*.pcap; do
  cp "$f" "$work/cap/sample-$(basename "$f")"
  samples+=("$work/cap/sample-$(basename "$f")")
done
cmp_samples=("${samples[@]}")
chmod -R a+rX "$work"
if [ "$(id -u)" -eq 0 ]; then chown -R nobody "$work/home"; fi

ts() {
  if [ "$(id -u)" -eq 0 ]; then
    env HOME="$work/home" WIRESHARK_PLUGIN_DIR="$work/plugins" \
      setpriv --reuid=nobody --regid=nogroup --clear-groups "$tshark" "$@"
  else
    env HOME="$work/home" WIRESHARK_PLUGIN_DIR="$work/plugins" "$tshark" "$@"
  fi
}

fails=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
check() { local msg=$1; shift; if "$@"; then pass "$msg"; else fail "$msg"; fi; }

# Frame numbers a display filter selects, comma-separated.
frames() { ts -r "$1" -Y "$2" -T fields -e frame.number | paste -sd, -; }

# All fields of the table and the expert rule IDs, compared with libdecode's
# decode frame by frame. compare_all PCAP [--stateless] [tshark options]
compare_all() {
  local pcap=$1 out mode=()
  shift
  if [ "${1:-}" = --stateless ]; then mode=(--stateless); shift; set -- -o ualink.analyze:FALSE "$@"; fi
  out="$work/$(basename "$pcap").fields"
  mapfile -t fields < <("$capgen" fields)
  local args=()
  for f in "${fields[@]}"; do args+=(-e "$f"); done
  ts -r "$pcap" "$@" -T fields -E occurrence=a -E 'aggregator=|' -e frame.number "${args[@]}" \
    -e _ws.expert.message > "$out"
  case " $* " in *" -2 "*) mode+=(--two-pass) ;; esac   # PCIe requests then name their completions
  "$capgen" compare "${mode[@]}" "$pcap" "$out"
}

# Fields against ualink-decode --json (compare_json.py), frame by frame.
# Both sides decode without the stateful analyzer here (ualink-decode
# --stateless, tshark with ualink.analyze off); the analysis is compared by
# compare_state and the injection checks.
json_opts=(-o ualink.analyze:FALSE)
compare_json() {
  local pcap=$1 jf args=()
  mapfile -t jf < <("$py" "$src/tests/compare_json.py" --fields)
  for f in "${jf[@]}"; do args+=(-e "$f"); done
  "$decode" --stateless --json "$pcap" > "$work/decode.jsonl" 2> /dev/null || true
  ts -r "$pcap" "${json_opts[@]}" -T fields -E occurrence=a -E 'aggregator=|' -e frame.number "${args[@]}" > "$work/tshark.tsv"
  "$py" "$src/tests/compare_json.py" "$work/decode.jsonl" "$work/tshark.tsv"
}

# The analysis subtree (ws_capgen state) against tshark: compare_state PCAP
compare_state() {
  "$capgen" state "$1" > "$work/state-want.txt"
  ts -r "$1" -T fields -E occurrence=a -E 'aggregator=|' -e frame.number -e ualink.ltssm.state \
    -e ualink.ltssm.peer_state -e ualink.replay.unacked -e ualink.tev.kind -e ualink.neg.latency_ns \
    > "$work/state-got.txt"
  diff "$work/state-want.txt" "$work/state-got.txt"
}

# -z expert's lines of findings, "group protocol rule": expert_lines FILE
# (a line is: count, group, protocol, "ID:", text)
expert_lines() { awk '$4 ~ /^[A-Z][A-Z]-[A-Z0-9-]+:$/ { sub(/:$/, "", $4); print $2, $3, $4 }' "$1"; }

# Rule IDs -z expert lists for a capture, sorted: expert_rules PCAP [tshark options]
expert_rules() {
  local p=$1
  shift
  ts -r "$p" "$@" -q -z expert | expert_lines /dev/stdin | cut -d' ' -f3 | sort -u | paste -sd' ' -   # no shared file: two workers call it
}

case $what in
plugin)
  ts -G plugins > "$work/plugins.txt"
  check "plugin listed by tshark -G plugins" grep -qE '^ualink\.so[[:space:]]+0\.1\.0[[:space:]]+dissector' "$work/plugins.txt"
  ts -G protocols > "$work/protocols.txt"
  check "protocol ualink registered" grep -qP '^UALink 128G DL/PL\tUALink\tualink(\t|$)' "$work/protocols.txt"
  check "protocols pcie and ub registered as PCIe and UB" \
    bash -c "grep -qP '^PCI Express\tPCIe\tpcie(\t|$)' '$work/protocols.txt' && grep -qP '^UnifiedBus data link\tUB\tub(\t|$)' '$work/protocols.txt'"
  ts -G dissector-tables > /dev/null
  ts -G decodes > "$work/decodes.txt"
  check "registered on wtap_encap USER0 and udp.port 17762" \
    bash -c "grep -qP '^wtap_encap\t45\tualink$' '$work/decodes.txt' && grep -qP '^udp.port\t17762\tualink$' '$work/decodes.txt'"
  ts -G heuristic-decodes > "$work/heur.txt"
  check "UDP heuristic registered and enabled" grep -qP '^udp\tualink\tT(\t|$)' "$work/heur.txt"
  ;;
fields)
  ts -G fields > "$work/fields.txt"
  missing=0
  while read -r f; do
    grep -qP "^F\t[^\t]*\t${f//./\\.}\t" "$work/fields.txt" || { echo "missing field $f" >&2; missing=$((missing + 1)); }
  done < <("$capgen" fields)
  check "every field-table abbrev is a Wireshark field ($("$capgen" fields | wc -l) fields)" test "$missing" -eq 0
  # Types and masks generated from the table.
  for want in \
      $'ualink.fh.seq\tFT_UINT16\tualink\tBASE_DEC\t0x3ff' \
      $'ualink.fh.replay_cmd\tFT_UINT16\tualink\tBASE_DEC\t0xc00' \
      $'ualink.sh.tlbeat\tFT_UINT8\tualink\tBASE_DEC\t0x7c' \
      $'ualink.sh.alt\tFT_BOOLEAN\tualink\t8\t0x1' \
      $'ualink.flit.crc\tFT_UINT64\tualink\tBASE_HEX\t0x0' \
      $'ualink.link_width.target\tFT_UINT32\tualink\tBASE_DEC\t0xf0000' \
      $'ualink.uart_credit.data_fc_seq\tFT_UINT32\tualink\tBASE_DEC\t0xfff00000' \
      $'pcie.fdllp.type\tFT_UINT8\tpcie\tBASE_HEX\t0x0' \
      $'ualink.flit.crc_ok\tFT_BOOLEAN\tualink\t0\t0x0'; do
    check "field ${want%%$'\t'*} has type/base/mask from the table" grep -qF "$want" "$work/fields.txt"
  done
  missing=0
  while read -r r; do
    grep -qP "^F\t${r}: [^\t]*\tualink\.rule\.${r}\tFT_NONE\t" "$work/fields.txt" || { echo "no expert field for $r" >&2; missing=$((missing + 1)); }
  done < <("$capgen" rules)
  check "one expert field ualink.rule.<ID> per rule ($("$capgen" rules | wc -l) rules)" test "$missing" -eq 0
  ts -G values > "$work/values.txt"
  check "value strings from the table (TLBeat, replay command)" \
    bash -c "grep -qP '^V\tualink.sh.tlbeat\t18\tTL flit \(M1=1\)$' '$work/values.txt' && grep -qP '^V\tualink.fh.replay_cmd\t3\tNak \(selective\)$' '$work/values.txt'"
  ;;
decode)
  for p in "$work/cap/clean.pcap" "$work/cap/bad.pcap" "${cmp_samples[@]}"; do
    check "all table fields and findings of $(basename "$p") equal libdecode's analyzer" compare_all "$p"
    check "... and libdecode's stateless decode with ualink.analyze off" compare_all "$p" --stateless
  done
  # The second pass decodes every frame from its first-pass snapshot.
  re=(-e frame.number -e ualink.tl.data -e ualink.tl.start_frame -e ualink.dlm.summary -e ualink.dlm.payload
      -e _ws.col.Info -e ualink.ltssm.state -e ualink.ltssm.peer_state -e ualink.chan.ch0 -e ualink.chan.ch4
      -e ualink.neg.width -e ualink.replay.unacked -e ualink.replay.is_duplicate -e ualink.tev.text
      -e _ws.expert.message)
  for p in "$work/cap/clean.pcap" "${cmp_samples[@]}"; do
    for mode in "" --stateless; do
      check "two-pass (-2) $(basename "$p") $mode equals libdecode" compare_all "$p" $mode -2
    done
    ts -r "$p" -T fields "${re[@]}" > "$work/pass1.txt"
    ts -r "$p" -2 -T fields "${re[@]}" > "$work/pass2.txt"
    check "$(basename "$p"): reassembly and analysis fields identical in one and two passes" \
      diff "$work/pass1.txt" "$work/pass2.txt"
  done
  # Sequence numbers and replay commands as the generator built them.
  ts -r "$work/cap/clean.pcap" -T fields -e ualink.fh.seq -e ualink.fh.replay_cmd > "$work/seq.txt"
  check "fh.seq / fh.replay_cmd as built" diff "$work/cap/clean.seq" "$work/seq.txt"
  # Reassembly: the 6-DWord UART transport completes in the flit after its header.
  got=$(ts -r "$work/cap/clean.pcap" -Y 'ualink.dlm.summary contains "UART Transport"' \
          -T fields -e frame.number -e ualink.dlm.start_frame -e ualink.dlm.payload)
  hdr=$(frames "$work/cap/clean.pcap" 'ualink.uart_transport.length == 5')
  want="$((hdr + 2))	$hdr	0x11110001,0x22220002,0x33330003,0x44440004,0x55550005,0x66660006"
  check "UART transport reassembled with a link to frame $hdr" test "$got" = "$want"
  n=$(ts -r "$work/cap/clean.pcap" -Y 'ualink.tl.start_frame < frame.number' -T fields -e frame.number | wc -l)
  check "TL flits spanning flits shown where they complete ($n frames)" test "$n" -gt 0
  ;;
json)
  [ -n "$decode" ] || { echo "json: needs ualink-decode" >&2; exit 2; }
  for p in "$work/cap/clean.pcap" "$work/cap/bad.pcap" "${cmp_samples[@]}"; do
    check "$(basename "$p"): tshark fields equal ualink-decode --json" compare_json "$p"
  done
  ;;
udpfields)
  # The export header's fields (ualink.udp.*) of a saved export: ualink-decode
  # -T fields and -Y agree with tshark on the datagrams to its port (it
  # follows one port's sequence; the plugin's heuristic takes the other port
  # too), with and without the analysis; plain datagrams have none.
  [ -n "$decode" ] || { echo "udpfields: needs ualink-decode" >&2; exit 2; }
  q=$work/cap/udp-seq.pcap
  e=(-e frame.number -e ualink.udp.type -e ualink.udp.len -e ualink.udp.seq -e ualink.udp.lost -e ualink.udp)
  ts -r "$q" -Y 'udp.dstport == 17762' -T fields "${e[@]}" > "$work/udp-ts.tsv"
  for mode in "" --stateless; do
    "$decode" $mode -T fields "${e[@]}" "$q" > "$work/udp-dec.tsv" 2> /dev/null
    check "udp-seq.pcap: ualink-decode $mode -T fields of ualink.udp.* equals tshark's ($(wc -l < "$work/udp-ts.tsv") datagrams)" \
      cmp -s "$work/udp-ts.tsv" "$work/udp-dec.tsv"
  done
  check "udp-seq.pcap: the sequence numbers are there (not all empty)" grep -qP '^\d+\t0x81\t8\t\d+' "$work/udp-ts.tsv"
  for y in 'ualink.udp' 'ualink.udp.seq >= 10' 'ualink.udp.seq == 13' 'ualink.udp.lost' 'ualink.udp.lost == 3' \
           'ualink.udp.lost_before' 'ualink.udp.type == 0x81 && ualink.udp.len == 8' '!ualink.udp.lost'; do
    want=$(frames "$q" "($y) && udp.dstport == 17762")
    got=$("$decode" -Y "$y" -T fields -e frame.number "$q" 2> /dev/null | paste -sd, -)
    check "-Y '$y' selects frames ${want:-none} in both" test "$got" = "$want" -a -n "$want"
  done
  n=$("$decode" -Y 'ualink.udp' -T fields -e frame.number "$work/cap/udp.pcap" 2> /dev/null | wc -l)
  m=$(ts -r "$work/cap/udp.pcap" -Y 'ualink.udp' | wc -l)
  check "plain datagrams (udp.pcap): no ualink.udp in either ($n, $m)" test "$n" -eq 0 -a "$m" -eq 0
  ;;
text)
  # The tree texts: every row of ualink-decode -V as tshark -V shows it.
  [ -n "$decode" ] || { echo "text: needs ualink-decode" >&2; exit 2; }
  for p in "$work/cap/clean.pcap" "$work/cap/bad.pcap" "${samples[@]}"; do
    "$decode" -V --no-color "$p" > "$work/decode-V.txt" 2> /dev/null || true
    ts -r "$p" -V > "$work/tshark-V.txt"
    check "$(basename "$p"): tshark -V shows every ualink-decode -V row" \
      "$py" "$src/tests/compare_text.py" "$work/decode-V.txt" "$work/tshark-V.txt"
  done
  ;;
antree)
  # The analysis subtree (replay state, negotiations, events) reads the same
  # in ualink-decode -V and tshark -V: negotiations in negotiation.pcap,
  # Naks and replays in errors.pcap, and the other samples.
  [ -n "$decode" ] || { echo "antree: needs ualink-decode" >&2; exit 2; }
  for p in "${samples[@]}"; do
    need=()
    case $(basename "$p") in
      sample-negotiation.pcap) need=("Negotiation outcome: request (0)" "Negotiation outcome: ack (1)"
                                     "Negotiation outcome: complete (4)" "Negotiation latency (ns): 6") ;;
      sample-errors.pcap) need=("Event: nak (8)" "Event: replay (9)" "Duplicate (discarded): False") ;;
    esac
    "$decode" -V --no-color "$p" > "$work/decode-V.txt" 2> /dev/null || true
    ts -r "$p" -V > "$work/tshark-V.txt"
    check "$(basename "$p"): the analysis subtree of ualink-decode -V is tshark -V's" \
      "$py" "$src/tests/compare_analysis.py" "$work/decode-V.txt" "$work/tshark-V.txt" "${need[@]}"
  done
  [ ${#samples[@]} -gt 0 ] || fail "antree: no sample captures"
  ;;
gen)
  # Captures of every ualink-gen scenario, and one per injectable rule.
  [ -n "$decode" ] && [ -n "$gen" ] || { echo "gen: needs ualink-decode and ualink-gen" >&2; exit 2; }
  # The generator runs bounded: at most 60 s and 64 MB per capture.
  bounded_gen() { ( ulimit -f 65536; timeout 60 "$gen" "$@" --truth /dev/null > /dev/null 2>&1 ); }
  for sc in bringup traffic uart negotiation l1 l0p errors; do
    p=$work/cap/gen-$sc.pcap
    bounded_gen -s "$sc" -c 400 -w "$p" || { fail "ualink-gen -s $sc"; continue; }
    chmod a+r "$p"
    check "ualink-gen $sc: all table fields equal libdecode's decode" compare_all "$p"
    check "ualink-gen $sc: tshark fields equal ualink-decode --json" compare_json "$p"
    n=$(ts -r "$p" -Y '_ws.malformed' | wc -l)
    check "ualink-gen $sc: no Malformed/exception items" test "$n" -eq 0
  done
  # One injection's checks; a worker w takes every second rule (2 cores).
  # Its capture is kept for the check without the analyzer, below.
  mkdir -p "$work/cap/inject"
  inject_one() {
    local rule=$1 p=$2 keep=$3 want got
    rm -f "$p"
    if ! bounded_gen --inject "$rule" -c 600 -w "$p" && ! bounded_gen --inject "$rule" -c 3000 -w "$p"; then
      echo "skip: ualink-gen --inject $rule -c 600/3000 failed or ran past the bounds"
      skipped="$skipped $rule"
      return
    fi
    chmod a+r "$p"
    total=$((total + 1))
    # with the analyzer: the rules libdecode's analyzer raises
    want=$("$capgen" found "$p" | cut -d' ' -f1 | sort -u | paste -sd' ' -)
    got=$(expert_rules "$p")
    check "--inject $rule: -z expert lists the analyzer's rules ($want)" test "$got" = "$want"
    case " $want " in *" $rule "*) both=$((both + 1)) ;; esac
    case " $got " in *" $rule "*) found=$((found + 1)) ;; esac
    mv "$p" "$keep"
  }
  mapfile -t rules < <("$gen" --list-injections | cut -d' ' -f1)
  for w in 0 1; do
    (
      found=0 both=0 total=0 skipped="" fails=0
      for ((i = w; i < ${#rules[@]}; i += 2)); do
        inject_one "${rules[$i]}" "$work/cap/inject-$w.pcap" "$(printf '%s/cap/inject/%03d-%s.pcap' "$work" "$i" "${rules[$i]}")"
      done
      rm -f "$work/cap/inject-$w.pcap"
      echo "$found $both $total $fails $skipped" > "$work/inject-$w.counts"
    ) > "$work/inject-$w.log" 2>&1 &
  done
  wait
  found=0 both=0 total=0 skipped=""
  for w in 0 1; do
    cat "$work/inject-$w.log"
    [ -s "$work/inject-$w.counts" ] || { fail "injection worker $w ended without its counts"; continue; }
    read -r f b t n sk < "$work/inject-$w.counts"
    found=$((found + f)) both=$((both + b)) total=$((total + t)) fails=$((fails + n))
    [ -n "${sk:-}" ] && skipped="$skipped $sk"
  done
  echo "injected rules listed by -z expert: $found of $total (libdecode's analyzer finds $both); generator skipped:${skipped:- none}"
  # Without the analyzer: the findings of every frame of the injection
  # captures, one after another in one file, against ualink-decode
  # --stateless on that file (both carry the per-direction unpacker state
  # across the joins alike): one tshark run for all rules.
  joined=$work/cap/inject-joined.pcap
  "$py" "$src/tests/join_pcap.py" "$joined" "$work"/cap/inject/*.pcap > "$work/joined.map"
  "$decode" --stateless --json "$joined" > "$work/joined.jsonl" 2> /dev/null || true
  ts -r "$joined" "${json_opts[@]}" -T fields -E occurrence=a -E aggregator=, -e frame.number -e ualink.rule \
    > "$work/joined.tsv"
  check "without the analyzer: every frame's findings in the $(wc -l < "$work/joined.map") injection captures joined equal ualink-decode --stateless's" \
    "$py" - "$work/joined.jsonl" "$work/joined.tsv" "$work/joined.map" <<'PY'
import bisect, json, sys
want, got = {}, {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("findings") and "frame" in r:
        want[r["frame"]] = sorted(f["rule"] for f in r["findings"])
for l in open(sys.argv[2]):
    n, _, rules = l.rstrip("\n").partition("\t")
    if rules:
        got[int(n)] = sorted(rules.split(","))
starts = [l.split() for l in open(sys.argv[3])]
firsts = [int(a) for a, _ in starts]
bad = sorted(f for f in set(want) | set(got) if want.get(f) != got.get(f))
for f in bad[:10]:
    a, name = starts[bisect.bisect_right(firsts, f) - 1]
    print("frame %d (%s, its frame %d): ualink-decode %s, tshark %s" % (f, name, f - int(a) + 1, want.get(f), got.get(f)))
print("%d frames with findings, %d rules, %d frames differ" % (len(want), sum(map(len, want.values())), len(bad)))
sys.exit(1 if bad or not want else 0)
PY
  check "-z expert lists every injected rule the analyzer finds" test "$found" -eq "$both"
  check "most injected rules reach -z expert ($found of $total)" test "$((found * 4))" -ge "$((total * 3))"
  ;;
analysis)
  # The analysis subtree against libdecode's analyzer, frame by frame.
  for p in "$work/cap/clean.pcap" "${samples[@]}"; do
    check "$(basename "$p"): LTSSM states, unacked counts, events and latencies equal the analyzer's" \
      compare_state "$p"
  done
  if [ ${#samples[@]} -gt 0 ]; then
    all=$(for p in "${samples[@]}"; do
            ts -r "$p" -T fields -e ualink.ltssm.state -e ualink.neg.latency_ns -e ualink.replay.is_duplicate; done)
    l0=$(ts -G values | awk -F'\t' '$2 == "ualink.ltssm.state" && $4 == "L0" { print $3 }')
    check "some frame reaches LTSSM L0 ($l0)" bash -c "printf '%s\n' \"\$1\" | cut -f1 | grep -qx '$l0'" _ "$all"
    check "negotiation latencies shown" bash -c "printf '%s\n' \"\$1\" | cut -f2 | grep -q '[0-9]'" _ "$all"
  fi
  r=$work/cap/replay.pcap
  want=$(cut -d' ' -f1 "$work/cap/replay.frames" | paste -sd, -)
  check "ualink.replay.is_duplicate marks the replayed copies ($want)" test "$(frames "$r" 'ualink.replay.is_duplicate == 1')" = "$want"
  check "ualink.rule.RP-DUPLICATE marks the same frames" test "$(frames "$r" 'ualink.rule.RP-DUPLICATE')" = "$want"
  check "replay.pcap: LTSSM states, unacked counts and events equal the analyzer's" compare_state "$r"
  check "replay.pcap: all fields and findings equal the analyzer's" compare_all "$r"
  ;;
filter)
  c=$work/cap/clean.pcap
  want=$(awk -F'\t' '$1 == 5 && $2 == 0 { print NR }' "$work/cap/clean.seq" | paste -sd, -)
  check "ualink.fh.seq == 5 && replay_cmd == 0 selects frames $want" \
    test "$(frames "$c" 'ualink.fh.seq == 5 && ualink.fh.replay_cmd == 0')" = "$want"
  want=$(awk -F'\t' '$2 == 1 { print NR }' "$work/cap/clean.seq" | paste -sd, -)
  check "ualink.fh.replay_cmd == 1 (Ack) selects frames $want" test "$(frames "$c" 'ualink.fh.replay_cmd == 1')" = "$want"
  want=$(awk -F'\t' '$1 == 0 && $2 == 0 { print NR }' "$work/cap/clean.seq" | paste -sd, -)
  check "ualink.flit.kind == 2 (IDLE) selects frames $want" test "$(frames "$c" 'ualink.flit.kind == 2')" = "$want"
  check "ualink.msg.type == 4 (Link Width) selects 3 frames" \
    test "$(frames "$c" 'ualink.msg.type == 4' | tr ',' '\n' | wc -l)" -eq 3
  check "ualink.sh.tlbeat == 0x1e selects the M0=M1=1 TL flit starts" test -n "$(frames "$c" 'ualink.sh.tlbeat == 0x1e')"
  while read -r frame rule; do
    check "ualink.rule.$rule selects frame $frame of bad.pcap" test "$(frames "$work/cap/bad.pcap" "ualink.rule.$rule")" = "$frame"
  done < "$work/cap/bad.frames"
  ;;
expert)
  ts -r "$work/cap/bad.pcap" -q -z expert > "$work/expert.txt"
  cat "$work/expert.txt"
  # Section of each summary line: Errors / Warnings / Notes.
  awk '/^(Errors|Warns|Notes|Chats|Comments) \(/ { sec = $1 } $4 ~ /^[A-Z][A-Z]-[A-Z0-9-]+:$/ { print sec, $4 }' \
    "$work/expert.txt" | sed 's/:$//' | sort -u > "$work/expert-rules.txt"
  while read -r rule sev; do
    case $sev in error) sec=Errors ;; warning) sec=Warns ;; *) sec=Notes ;; esac
    check "-z expert lists $rule under $sec" grep -qx "$sec $rule" "$work/expert-rules.txt"
  done < "$work/cap/bad.rules"
  while read -r frame rule; do
    check "injected $rule found by libdecode" grep -q "^$rule " "$work/cap/bad.rules"
  done < "$work/cap/bad.frames"
  check "-z expert lists the malformed record" grep -q "Malformed record: unknown record kind" "$work/expert.txt"
  check "expert group Checksum for PL-CRC" grep -qE 'Checksum +UALink  PL-CRC: ' "$work/expert.txt"
  # A capture that starts mid-stream: AN-SYNC where each direction synchronized
  # (captures/README.md: frames 1 and 6), as ualink-decode --stats says
  mid=$work/cap/sample-mid-traffic.pcap
  if [ -f "$mid" ]; then
    got=$(frames "$mid" 'ualink.rule.AN-SYNC')
    check "mid-traffic.pcap: AN-SYNC at frames 1 and 6 ($got)" test "$got" = "1,6"
  fi
  ;;
clean)
  for p in "$work/cap/clean.pcap" "$work/cap/udp.pcap" "${samples[@]}"; do
    n=$(ts -r "$p" -Y '_ws.malformed || _ws.expert.group == 0x07000000 || ualink.malformed' | wc -l)
    check "no Malformed/exception items in $(basename "$p")" test "$n" -eq 0
  done
  # Truncated records (snap length) are reported as malformed, not as exceptions.
  editcap -s 100 "$work/cap/clean.pcap" "$work/short.pcap" 2>/dev/null || cp "$work/cap/clean.pcap" "$work/short.pcap"
  chmod a+r "$work/short.pcap"
  # (a PI_MALFORMED expert item also sets _ws.malformed; exceptions do not set ualink.malformed)
  n=$(ts -r "$work/short.pcap" -Y '_ws.malformed && !ualink.malformed' | wc -l)
  m=$(ts -r "$work/short.pcap" -Y 'ualink.malformed' | wc -l)
  x=$(ts -r "$work/short.pcap" -V | grep -c 'Exception occurred' || true)
  check "truncated flit records: $m reported malformed, $n+$x exceptions" test "$n" -eq 0 -a "$x" -eq 0 -a "$m" -gt 0
  ts -r "$work/cap/clean.pcap" -q -z expert > "$work/expert.txt"
  got=$(expert_lines "$work/expert.txt" | cut -d' ' -f3 | sort -u | paste -sd' ' -)
  want=$(cut -d' ' -f1 "$work/cap/clean.rules" | sort -u | paste -sd' ' -)
  check "expert info of clean.pcap equals libdecode's findings ('$want')" test "$got" = "$want"
  ts -r "$work/cap/clean.pcap" -V > "$work/verbose.txt" 2> "$work/stderr.txt"
  check "tshark -V runs without warnings" test ! -s "$work/stderr.txt"
  ;;
stats)
  ts -r "$work/cap/clean.pcap" -q -z ualink,stat > "$work/stat.txt"
  cat "$work/stat.txt"
  for kind in 0:Payload 1:NOP 2:IDLE; do
    a=$(frames "$work/cap/clean.pcap" "ualink.flit.kind == ${kind%%:*} && ualink.rec.dir == 0" | tr ',' '\n' | grep -c . || true)
    b=$(frames "$work/cap/clean.pcap" "ualink.flit.kind == ${kind%%:*} && ualink.rec.dir == 1" | tr ',' '\n' | grep -c . || true)
    check "-z ualink,stat: ${kind#*:} flits $a / $b" grep -qE "^  ${kind#*:} +$a +$b\$" "$work/stat.txt"
  done
  n=$(ts -r "$work/cap/clean.pcap" -T fields -e ualink.dlm.summary | tr ',' '\n' | grep -c . || true)
  got=$(sed -n '/^DL messages/,/^[A-Z]/{/^  /p}' "$work/stat.txt" | awk '{ s += $(NF-1) + $NF } END { print s + 0 }')
  check "-z ualink,stat: DL messages total $got = completed messages $n" test "$got" -eq "$n" -a "$n" -gt 0
  ts -r "$work/cap/bad.pcap" -q -z ualink,stat > "$work/stat-bad.txt"
  check "-z ualink,stat: findings per rule" grep -qE '^  PL-CRC \(error\) +1 +0$' "$work/stat-bad.txt"
  ts -r "$work/cap/bad.pcap" -q -z "ualink,stat,ualink.rec.dir == 1" > "$work/stat-b.txt"
  check "-z ualink,stat with a filter" grep -qE '^  PL-USAGE \(error\) +0 +1$' "$work/stat-b.txt"
  check "-z ualink,stat with a filter drops side A" bash -c "! grep -q 'PL-CRC ' '$work/stat-b.txt'"
  ts -r "$work/cap/clean.pcap" -q -z ualink,tree > "$work/tree.txt"
  cat "$work/tree.txt"
  check "-z ualink,tree counts flits" grep -qE '^ +Payload +[0-9]+' "$work/tree.txt"
  ;;
udp)
  u=$work/cap/udp.pcap
  total=$(ts -r "$u" | wc -l)
  n=$(ts -r "$u" -Y ualink | wc -l)
  check "every UDP datagram dissected as UALink ($n of $total)" test "$n" -eq "$total"
  n=$(ts -r "$u" -Y 'ualink && udp.dstport == 40001' | wc -l)
  check "heuristic finds records on a non-default port ($n)" test "$n" -gt 0
  n=$(ts -r "$u" -Y 'ualink.rec.kind == 4 && pcie.dllp.type && udp.dstport == 40001' | wc -l)
  check "heuristic takes PCIe DLLP records (kind 4, PCIe roles, link 9): $n of 4" test "$n" -eq 4
  n=$(ts -r "$work/cap/udp-noise.pcap" -Y ualink | wc -l)
  m=$(ts -r "$work/cap/udp-noise.pcap" | wc -l)
  check "heuristic refuses $m near-records (wrong version/kind/flags/link/rate/width/roles/length): $n taken" \
    test "$n" -eq 0 -a "$m" -eq 11
  check "all table fields of udp.pcap equal libdecode's decode" compare_all "$u"
  n2=$(ts -r "$u" -Y ualink --disable-heuristic ualink_udp | wc -l)
  check "without the heuristic only port 17762 is dissected ($n2 of $total)" test "$n2" -lt "$total" -a "$n2" -gt 0
  n3=$(ts -r "$u" -Y 'ualink && udp.dstport == 40001' --disable-heuristic ualink_udp -o ualink.udp.port:40001 | wc -l)
  check "UDP port preference ualink.udp.port selects the port ($n3 + $n2 = $total)" test "$((n2 + n3))" -eq "$total"
  # The export with its header and datagrams left out (5-7, 12, 20-24):
  # the gaps counted, said as expert items, and the analysis starts over at
  # the record after each: nothing is judged across a gap.
  q=$work/cap/udp-seq.pcap
  total=$(ts -r "$q" | wc -l)
  n=$(ts -r "$q" -Y 'ualink.rec.kind' | wc -l)
  check "every datagram of the export dissected, header form, both ports ($n of $total)" test "$n" -eq "$total"
  got=$(ts -r "$q" -Y 'ualink.udp.lost' -T fields -e ualink.udp.lost | tr '\n' ' ')
  check "the datagrams lost counted at each gap ($got)" test "$got" = "3 1 5 "
  n=$(ts -r "$q" -Y 'ualink.rec.lost == 1' | wc -l)
  check "the record after each gap marked lost ($n)" test "$n" -eq 3
  n=$(ts -r "$q" -Y 'ualink.udp.lost_before' | wc -l)
  check "an expert item at each gap ($n)" test "$n" -eq 3
  a=$(ts -r "$work/cap/clean.pcap" -Y 'ualink.severity == "error" || ualink.severity == "warning"' | wc -l)
  b=$(ts -r "$q" -Y 'ualink.severity == "error" || ualink.severity == "warning"' | wc -l)
  check "no error or warning finding across the gaps ($b; the whole capture $a)" test "$b" -eq "$a"
  ts -r "$u" -T fields -e _ws.col.Source -e _ws.col.Destination -e _ws.col.Protocol -c 3 > "$work/cols.txt"
  check "src/dst columns are Side A / Side B and protocol UALink" \
    grep -qP '^Side B\tSide A\tUALink$' "$work/cols.txt"
  ;;
color)
  cp "$src/ualink.colorfilters" "$work/home/.config/wireshark/colorfilters"
  chmod a+r "$work/home/.config/wireshark/colorfilters"
  while IFS= read -r line; do
    case $line in @*) ;; *) continue ;; esac
    name=$(printf '%s' "$line" | cut -d@ -f2)
    filter=$(printf '%s' "$line" | cut -d@ -f3)
    check "colouring rule '$name' compiles" ts -r "$work/cap/clean.pcap" -Y "$filter" -c 1 -q
  done < "$src/ualink.colorfilters"
  # With --color the frame tree names the rule that matched.
  rule() { ts -r "$1" --color -T fields -e frame.coloring_rule.name 2> "$work/color-err.txt" | sed -n "${2}p"; }
  crc=$(awk '$2 == "PL-CRC" { print $1 }' "$work/cap/bad.frames")
  check "bad-CRC frame $crc coloured 'UALink error'" test "$(rule "$work/cap/bad.pcap" "$crc")" = "UALink error"
  check "tshark --color loads the rules without complaint" test ! -s "$work/color-err.txt"
  idle=$(awk -F'\t' '$1 == 0 && $2 == 0 { print NR; exit }' "$work/cap/clean.seq")
  check "IDLE frame $idle coloured 'UALink IDLE flit'" test "$(rule "$work/cap/clean.pcap" "$idle")" = "UALink IDLE flit"
  dup=$(head -1 "$work/cap/replay.frames" | cut -d' ' -f1)
  check "replayed frame $dup coloured 'UALink replay'" test "$(rule "$work/cap/replay.pcap" "$dup")" = "UALink replay"
  msg=$(frames "$work/cap/clean.pcap" 'ualink.msg.type == 4' | cut -d, -f1)
  check "DL message frame $msg coloured 'UALink DL message'" test "$(rule "$work/cap/clean.pcap" "$msg")" = "UALink DL message"
  ;;
fabrics)
  # PCIe and UB records are their own protocols: the Protocol column, the
  # item over the record body, the protocol of their expert infos; CRC
  # failures of every fabric are in the Checksum group.
  [ -n "$decode" ] && [ -n "$gen" ] || { echo "fabrics: needs ualink-decode and ualink-gen" >&2; exit 2; }
  for c in "PD-CRC pcie PCIe Checksum" "PS-TO-TAG-UNIQUE pcie-flit PCIe Protocol" "UB-BCRC ub-traffic UB Checksum" \
           "PL-CRC traffic UALink Checksum"; do
    read -r rule sc short group <<< "$c"
    p=$work/cap/$sc-$rule.pcap
    "$gen" -q -s "$sc" --inject "$rule" -c 400 -w "$p" --truth "$p.truth" > /dev/null 2>&1 || { fail "ualink-gen -s $sc --inject $rule"; continue; }
    chmod a+r "$p"
    # the fabric of each record by ualink-decode's JSON kind, as the column
    # should name it (link events go by their link: not judged here)
    "$decode" --json "$p" 2> /dev/null | "$py" -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    k = r.get("kind", "")
    if "frame" in r and k != "event":
        print(r["frame"], "PCIe" if k.startswith("pcie") else "UB" if k == "ub" else "UALink")' > "$work/want-proto.txt"
    ts -r "$p" -T fields -e frame.number -e _ws.col.Protocol | tr '\t' ' ' > "$work/got-proto.txt"
    n=$(grep -c " $short\$" "$work/want-proto.txt" || true)
    check "$sc: the Protocol column names each record's fabric ($n $short records)" \
      bash -c "test $n -gt 100 && diff '$work/want-proto.txt' <(grep -Fxf '$work/want-proto.txt' '$work/got-proto.txt')"
    if [ "$short" != UALink ]; then
      filt=$(echo "$short" | tr 'A-Z' 'a-z')
      want=$(awk -v s="$short" '$2 == s { print $1 }' "$work/want-proto.txt" | paste -sd, -)
      check "$sc: -Y $filt selects the $short records" test "$(frames "$p" "$filt")" = "$want"
      ts -r "$p" -c 3 -V > "$work/V.txt"
      check "$sc: the record body is a top-level $short item" grep -qE "^$short [a-zA-Z ]+: " "$work/V.txt"
    fi
    ts -r "$p" -q -z expert > "$work/expert.txt"
    frame=$("$py" -c 'import json, sys; print(next(json.loads(l)["frame"] for l in open(sys.argv[1]) if json.loads(l)["rule"] == sys.argv[2]))' "$p.truth" "$rule")
    check "$sc: $rule injected at frame $frame is found there" test "$(frames "$p" "ualink.rule.$rule")" = "$frame"
    check "$sc: -z expert files $rule under $group, protocol $short" grep -qx "$group $short $rule" <(expert_lines "$work/expert.txt")
    other=$(expert_lines "$work/expert.txt" | awk -v s="$short" '$2 != s && $2 != "UALink"' | wc -l)
    check "$sc: no finding filed under another fabric ($other)" test "$other" -eq 0
  done
  # -z ualink,links: a section per link of a Root Complex (three Root
  # Ports), its records by direction as -Y counts them
  p=$work/cap/pcie-rc.pcap
  "$gen" -q -s pcie-rc -c 600 -w "$p" --truth /dev/null > /dev/null 2>&1 || fail "ualink-gen -s pcie-rc"
  chmod a+r "$p"
  ts -r "$p" -q -z ualink,links > "$work/links.txt"
  cat "$work/links.txt"
  for k in 0 1 2; do
    check "pcie-rc: -z ualink,links has Root Port $k's section" grep -qx "PCIe: RP$k <-> EP (link $k)" "$work/links.txt"
    a=$(ts -r "$p" -Y "ualink.rec.link == $k && ualink.rec.dir == 0" | wc -l)
    b=$(ts -r "$p" -Y "ualink.rec.link == $k && ualink.rec.dir == 1" | wc -l)
    got=$(awk -v h="PCIe: RP$k <-> EP (link $k)" '$0 == h { on = 1; next } /^PCIe: / { on = 0 } on && $1 == "Records" { print $2, $3, $4 }' "$work/links.txt")
    check "pcie-rc link $k: records $a / $b by direction ($got)" test "$got" = "$a $b $((a + b))"
  done
  n=$(grep -c '^PCIe: ' "$work/links.txt" || true)
  check "pcie-rc: three links, no more ($n)" test "$n" -eq 3
  # each record's tree has its own link's state rows from the model, per
  # side: at the last record of each Root Port, the requests it still has
  # outstanding are the open transactions of ualink-decode --transactions
  "$decode" --transactions "$p" > "$work/txns.txt" 2> /dev/null || true
  for k in 0 1 2; do
    last=$(frames "$p" "ualink.rec.link == $k && pcie" | tr ',' '\n' | tail -1)
    ts -r "$p" -V -Y "frame.number == $last" > "$work/last.txt"
    check "pcie-rc frame $last: the state rows of its own link, RP$k" \
      grep -q "Link state after this record: RP$k <-> EP (A: Root Port, B: Endpoint)" "$work/last.txt"
    o=$(awk -v l="L$k" '$3 == l && $6 == "open" { n[$4]++ } END { printf "%d requests | %d requests", n["A"], n["B"] }' "$work/txns.txt")
    check "pcie-rc link $k: outstanding requests at its last record as --transactions leaves open ($o)" \
      grep -q "outstanding requests: $o\$" "$work/last.txt"
    check "pcie-rc frame $last: no UALink row" bash -c "! grep -qE 'channel 0|negotiated (speed|width)' '$work/last.txt'"
  done
  ts -r "$p" -q -z "ualink,links,ualink.rec.link == 1" > "$work/links1.txt"
  check "-z ualink,links with a filter: link 1 alone" \
    bash -c "test \$(grep -c '^PCIe: ' '$work/links1.txt') -eq 1 && grep -qx 'PCIe: RP1 <-> EP (link 1)' '$work/links1.txt'"
  ;;
pcie)
  # PCIe flit mode (kind 5): mkcap's pcie_flit.pcap (tests/cli/mkcap.c).
  mkcap=$gen
  [ -n "$decode" ] && [ -n "$mkcap" ] || { echo "pcie: needs ualink-decode and mkcap" >&2; exit 2; }
  mkdir -p "$work/mk"
  "$mkcap" "$work/mk"
  p=$work/cap/pcie_flit.pcap
  cp "$work/mk/pcie_flit.pcap" "$p"
  chmod a+r "$p"
  check "pcie_flit.pcap: all table fields (pcie.tlp.*, pcie.ohc_*) and findings equal libdecode's analyzer" compare_all "$p"
  check "... with -2 (requests name their completions: pcie.tlp.response_in)" compare_all "$p" -2
  check "... and the stateless decode with ualink.analyze off (no TLPs)" compare_all "$p" --stateless
  got=$(ts -r "$p" -2 -Y pcie.tlp.response_in -T fields -e frame.number -e pcie.tlp.response_in | paste -sd' ' -)
  check "response_in (-2): frame 2's CfgWr0/MRd32/MRd64 in 3,3,8, frame 6's MRd32 in 8 ($got)" test "$got" = "2	3,3,8 6	8"
  check "response_in absent in one pass, as ualink-decode has it" test -z "$(frames "$p" pcie.tlp.response_in)"
  got=$(ts -r "$p" -Y pcie.tlp.response_to -T fields -e frame.number -e pcie.tlp.response_to -e pcie.tlp.latency_ns | paste -sd' ' -)
  check "response_to and latency_ns of the completions ($got)" test "$got" = "3	2,2	2,2 5	2	6 8	2,6	12,4"
  check "no finding on this conformant traffic (both streams in sync from Detect)" test -z "$(frames "$p" ualink.rule)"
  check "the straddling MWr64 shown in frame 6, begun in frame 4" test "$(frames "$p" 'pcie.tlp.start_frame == 4')" = "6"
  # addresses and register offsets show, filter and export in place (issue 36): the full address
  for q in 'pcie.tlp.addr64 == 0x100002000|pcie.tlp.addr64|2	0x0000000100002000' \
           'pcie.tlp.addr64 == 0x100008000|pcie.tlp.addr64|6	0x0000000100008000' \
           'pcie.tlp.addr32 == 0x3000|pcie.tlp.addr32|6	0x00003000' \
           'pcie.tlp.reg == 0x10|pcie.tlp.reg|2	0x10'; do
    IFS='|' read -r flt fld want <<< "$q"
    got=$(ts -r "$p" -Y "$flt" -T fields -e frame.number -e "$fld" | paste -sd' ' -)
    check "tshark -Y '$flt' -e $fld: '$want' ($got)" test "$got" = "$want"
    got=$("$decode" -Y "$flt" -T fields -e frame.number -e "$fld" "$p" | paste -sd' ' -)
    check "ualink-decode -Y '$flt' -e $fld: '$want' ($got)" test "$got" = "$want"
  done
  check "no shifted address matches" test -z "$(frames "$p" 'pcie.tlp.addr64 == 0x40000800')"
  # -z ualink,tree and ualink,stat show PCIe's counters from the model, not zeros (issue 36)
  ts -r "$p" -q -z ualink,tree > "$work/pcie-tree.txt"
  ts -r "$p" -q -z ualink,stat > "$work/pcie-stat.txt"
  cat "$work/pcie-tree.txt" "$work/pcie-stat.txt"
  want=$("$decode" --json "$p" | "$py" -c 'import json, sys
n = [0, 0]; b = [0, 0]
for l in sys.stdin:
    o = json.loads(l)
    t = (o.get("pcie_flit") or {}).get("tlps", [])
    d = 0 if o.get("dir") == "A>B" else 1
    n[d] += len(t); b[d] += sum(4 * (x["prefixes"] + x["size_dw"]) for x in t)
print(n[0], n[1], b[0], b[1])')
  read -r na nb ba bb <<< "$want"
  check "-z ualink,tree: PCIe TLPs total $((na + nb)) as ualink-decode --json lists them" \
    grep -qE "^ +PCIe TLPs \(NOP TLPs not counted\): total +$((na + nb)) " "$work/pcie-tree.txt"
  check "-z ualink,stat: PCIe TLP bytes $ba / $bb by direction" \
    grep -qE "^  PCIe TLP bytes: total +$ba +$bb\$" "$work/pcie-stat.txt"
  check "TLPs counted at all ($na / $nb)" test "$na" -gt 0 -a "$nb" -gt 0
  "$decode" -V --no-color "$p" > "$work/decode-V.txt" 2> /dev/null || true
  ts -r "$p" -V > "$work/tshark-V.txt"
  check "pcie_flit.pcap: tshark -V shows every ualink-decode -V row" \
    "$py" "$src/tests/compare_text.py" "$work/decode-V.txt" "$work/tshark-V.txt"
  ;;
*)
  echo "unknown test $what" >&2
  exit 2
  ;;
esac

if [ "$fails" -ne 0 ]; then
  echo "$fails check(s) failed" >&2
  exit 1
fi
