#!/usr/bin/env bash
# ualink-extcap with real tshark, which finds it in the personal extcap folder.
#
#   test_extcap.sh TEST EXTCAP UALINK-GEN UALINK-DECODE TSHARK SRCDIR MAJOR.MINOR [PLUGIN.so]
#
# tshark runs as nobody when the test runs as root (it ignores personal
# folders as root); everything it reads is copied into a fresh folder first.
# ualink-gen is kept out of the extcap folder (Wireshark runs every program
# there) and given through the interface option "generator".
set -euo pipefail

what=$1 xc=$2 gen=$3 decode=$4 tshark=$5 src=$6 majmin=$7 so=${8:-}
py=${UAL_PYTHON:-python3}   # ctest gives the interpreter CMake chose
tool="$py $src/tests/xctool.py"

work=$(mktemp -d /tmp/ualink-xc.XXXXXX)
pids=()
main=$BASHPID
cleanup() {
  [ "$BASHPID" = "$main" ] || return 0   # a background job killed before its exec runs this trap too
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
# Wireshark 4.0 takes personal extcaps from ~/.config/wireshark/extcap; 4.1 and later from ~/.local/lib/wireshark/extcap.
case $majmin in
  3.* | 4.0) xdir=$work/home/.config/wireshark/extcap ;;
  *) xdir=$work/home/.local/lib/wireshark/extcap ;;
esac
mkdir -p "$xdir" "$work/bin" "$work/libexec/ualink-tools" "$work/plugins/$majmin/epan" "$work/out"
# the installed layout (prefix $work): the program in libexec, linked from the extcap folder
cp "$xc" "$work/libexec/ualink-tools/ualink-extcap"
ln -s "$work/libexec/ualink-tools/ualink-extcap" "$xdir/ualink-extcap"
cp "$gen" "$work/bin/ualink-gen"
if [ -n "$so" ]; then cp "$so" "$work/plugins/$majmin/epan/ualink.so"; fi
chmod -R a+rX "$work"
chmod 777 "$work/out"
if [ "$(id -u)" -eq 0 ]; then chown -R nobody "$work/home" "$work/out"; fi

asuser() {
  if [ "$(id -u)" -eq 0 ]; then
    timeout 120 env HOME="$work/home" WIRESHARK_PLUGIN_DIR="$work/plugins" setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
  else
    timeout 120 env HOME="$work/home" WIRESHARK_PLUGIN_DIR="$work/plugins" "$@"
  fi
}
ts() { asuser "$tshark" "$@"; }
X=$xdir/ualink-extcap
genopt=(-o "extcap.ualink_generator.generator:$work/bin/ualink-gen")

fails=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
check() { local msg=$1; shift; if "$@"; then pass "$msg"; else fail "$msg"; fi; }

# The records (hex) of a capture, without timestamps: records FILE [FIRST-N]
records() { $tool hex "$@"; }

# Waits until pid has exited (at most $2 tenths of a second); 0 when it has.
gone() { local i; for ((i = 0; i < $2; i++)); do kill -0 "$1" 2> /dev/null || return 0; sleep 0.1; done; return 1; }

case $what in
protocol)
  ts -D > "$work/ifaces.txt" 2> "$work/ifaces.err" || true
  check "tshark -D lists the generator" grep -qE '^[0-9]+\. ualink-generator \(UALink generator\)$' "$work/ifaces.txt"
  check "tshark -D lists the UDP export" grep -qE '^[0-9]+\. ualink-udp \(UALink UDP export\)$' "$work/ifaces.txt"
  check "tshark -D: nothing on stderr about ualink" bash -c "! grep -i ualink '$work/ifaces.err'"
  "$X" --extcap-interfaces --extcap-version=4.0 > "$work/if.txt"
  check "--extcap-interfaces: extcap line with version and help" \
    grep -qE '^extcap \{version=[0-9]+\.[0-9]+\.[0-9]+\}\{help=[^{}]+\}$' "$work/if.txt"
  check "--extcap-interfaces: two interfaces" test "$(grep -c '^interface {value=ualink-[a-z]*}{display=UALink [^{}]*}$' "$work/if.txt")" -eq 2
  for i in ualink-generator ualink-udp; do
    got=$("$X" --extcap-interface "$i" --extcap-dlts)
    check "--extcap-dlts $i: LINKTYPE_USER0" test "$got" = 'dlt {number=147}{name=USER0}{display=UALink capture records (LINKTYPE_USER0)}'
  done
  check "--extcap-version" test "$("$X" --extcap-version)" = "ualink-extcap $("$gen" --version | cut -d' ' -f2)"
  # --extcap-config parses line by line, and the lists come from the generator.
  "$X" --extcap-interface ualink-generator --extcap-config --generator "$work/bin/ualink-gen" > "$work/cfg-gen.txt"
  check "--extcap-config ualink-generator parses" bash -c "$tool config < '$work/cfg-gen.txt' > '$work/cfg-gen.sum'"
  cat "$work/cfg-gen.sum"
  nsc=$("$gen" --list-scenarios | wc -l)
  ninj=$("$gen" --list-injections | wc -l)
  check "scenario selector: auto and the $nsc scenarios" grep -qx -- "--scenario selector $((nsc + 1))" "$work/cfg-gen.sum"
  check "injections multicheck: the $ninj injectable rules" grep -qx -- "--inject multicheck $ninj" "$work/cfg-gen.sum"
  check "rate and width selectors" bash -c "grep -qx -- '--rate selector 7' '$work/cfg-gen.sum' && grep -qx -- '--width selector 4' '$work/cfg-gen.sum'"
  check "seed, count and pace are ranged integers with defaults" \
    bash -c "grep -cE '^arg .*\{call=--(seed|count|pace)\}.*\{type=unsigned\}\{range=0,[0-9]+\}\{default=[0-9]+\}' '$work/cfg-gen.txt' | grep -qx 3"
  "$X" --extcap-interface ualink-udp --extcap-config > "$work/cfg-udp.txt"
  check "--extcap-config ualink-udp parses" bash -c "$tool config < '$work/cfg-udp.txt' > /dev/null"
  check "UDP port 1..65535, default 17762" grep -qF '{call=--port}{display=UDP port}{type=unsigned}{range=1,65535}{default=17762}' "$work/cfg-udp.txt"
  # tshark reads the same listing: its preferences carry the defaults.
  ts -G currentprefs > "$work/prefs.txt" 2> /dev/null
  check "tshark has the options as preferences" bash -c "grep -qx '#extcap.ualink_generator.pace: 1000' '$work/prefs.txt' && grep -qx '#extcap.ualink_udp.port: 17762' '$work/prefs.txt'"
  # Capture filter validation: empty answer = valid.
  check "capture filter 'b flit link 0' valid" test -z "$("$X" --extcap-capture-filter 'b flit link 0' --extcap-interface ualink-udp)"
  got=$("$X" --extcap-capture-filter 'udp port 1' --extcap-interface ualink-udp)
  check "capture filter 'udp port 1' refused with a message ($got)" test "$got" = "capture filter: unknown term 'udp' (a, b, flit, os, event, link N)"
  # Bad values: a message on stderr and a non-zero exit, before any fifo is opened.
  for bad in "--pace -5" "--rate 100" "--width 3" "--load 2" "--seed x" "--port 1"; do
    rc=0
    "$X" --extcap-interface ualink-generator --capture --fifo "$work/nofifo" $bad 2> "$work/bad.err" || rc=$?
    check "'$bad' refused: $(cat "$work/bad.err")" bash -c "[ $rc -ne 0 ] && grep -q '^ualink-extcap: --' '$work/bad.err' && [ ! -e '$work/nofifo' ]"
  done
  rc=0
  ts -i ualink-generator "${genopt[@]}" -f 'bogus' -a duration:5 -w "$work/out/x.pcapng" > /dev/null 2> "$work/f.err" || rc=$?
  check "tshark shows a bad capture filter's message" bash -c "[ $rc -ne 0 ] && grep -qE \"Error (by|from) extcap pipe: ualink-extcap: capture filter: unknown term 'bogus'\" '$work/f.err'"
  rc=0
  ts -i ualink-generator -o "extcap.ualink_generator.generator:$work/bin/none" -a duration:5 -w "$work/out/x.pcapng" > /dev/null 2> "$work/g.err" || rc=$?
  rc=0
  ts -i ualink-generator "${genopt[@]}" -o extcap.ualink_generator.scenario:nosuch -a duration:5 -w "$work/out/x.pcapng" \
     > /dev/null 2> "$work/s.err" || rc=$?
  check "tshark shows the generator's own error" \
    bash -c "[ $rc -ne 0 ] && grep -q \"ualink-gen: --scenario: 'nosuch' is not a scenario\" '$work/s.err' && grep -q 'exited with status 2' '$work/s.err'"
  check "tshark shows a missing generator" bash -c "[ $rc -ne 0 ] && grep -q 'ualink-extcap: --generator $work/bin/none: not an executable file' '$work/g.err'"
  ;;
generator)
  out=$work/out/gen.pcapng
  t0=$(date +%s%N)
  ts -i ualink-generator "${genopt[@]}" -o extcap.ualink_generator.seed:7 -o extcap.ualink_generator.inject:DL-TLBEAT \
     -o "extcap.ualink_generator.truth:$work/out/truth.jsonl" -a packets:2000 -w "$out" -q > /dev/null 2> "$work/cap.err" &
  pids+=($!)
  rc=0
  wait "${pids[-1]}" || rc=$?
  t1=$(date +%s%N)
  check "tshark -i ualink-generator -a packets:2000 exits 0" test "$rc" -eq 0
  read -r lt res n _ < <($tool info "$out")
  check "capture: LINKTYPE_USER0, nanosecond timestamps, 2000 records ($lt $res $n)" test "$lt $res $n" = "147 9 2000"
  ms=$(((t1 - t0) / 1000000))
  check "paced at the default 1000 records/s: 2000 records took $ms ms" test "$ms" -ge 1900
  first=$($tool info "$out" | cut -d' ' -f4)
  check "timestamps start at the capture's start ($first ns, start $t0)" test "$(((first - t0) / 1000000000))" -lt 30 -a "$first" -ge "$((t0 - 1000000000))"
  # The same generator run written to a file: the same records, in order, none lost.
  "$gen" -q --seed 7 --inject DL-TLBEAT -w "$work/ref.pcap" --truth "$work/ref.truth.jsonl"
  records "$work/ref.pcap" 2000 > "$work/ref.hex"
  records "$out" > "$work/got.hex"
  check "the 2000 records are ualink-gen's first 2000, byte for byte" cmp -s "$work/ref.hex" "$work/got.hex"
  # ualink-decode reads the saved capture: every record, the truth's findings.
  "$decode" --stateless --json "$out" > "$work/dec.jsonl"
  check "ualink-decode decodes 2000 records, none malformed" \
    bash -c "[ \$(wc -l < '$work/dec.jsonl') -eq 2000 ] && ! grep -q '\"kind\": *\"malformed\"' '$work/dec.jsonl'"
  check "the extcap's --truth file was written" test -s "$work/out/truth.jsonl"
  check "its truth equals ualink-gen's" cmp -s "$work/out/truth.jsonl" "$work/ref.truth.jsonl"
  f=$($tool findings "$work/dec.jsonl" "$work/out/truth.jsonl" 2000) && r=0 || r=$?
  check "ualink-decode's findings are the truth's ($f)" test "$r" -eq 0
  case " $f " in *:DL-TLBEAT*) pass "the injected DL-TLBEAT is among them" ;; *) fail "DL-TLBEAT not in the truth" ;; esac
  "$decode" "$out" > /dev/null 2> "$work/dec.err" || true
  check "ualink-decode (text) reads it without complaint" test ! -s "$work/dec.err"
  if [ -n "$so" ]; then
    n=$(ts -r "$out" -Y ualink 2> /dev/null | wc -l)
    check "the plugin dissects all 2000 records ($n)" test "$n" -eq 2000
    ts -r "$out" -q -z expert 2> /dev/null | grep -q 'UALink  DL-TLBEAT' && pass "-z expert lists DL-TLBEAT" || fail "-z expert lists DL-TLBEAT"
  fi
  # A capture filter: side B's flits only, unpaced.
  ts -i ualink-generator "${genopt[@]}" -o extcap.ualink_generator.seed:7 -o extcap.ualink_generator.pace:0 \
     -f 'b flit' -a packets:300 -w "$work/out/b.pcapng" -q > /dev/null 2>&1 || true
  records "$work/ref.pcap" | grep -E '^0101(01|03|05|07)' > "$work/ref-all-b.hex"
  head -300 "$work/ref-all-b.hex" > "$work/ref-b.hex"
  records "$work/out/b.pcapng" > "$work/got-b.hex"
  check "-f 'b flit': the first 300 side-B flits ($(wc -l < "$work/got-b.hex") records)" \
    bash -c "[ \$(wc -l < '$work/got-b.hex') -eq 300 ] && cmp -s '$work/ref-b.hex' '$work/got-b.hex'"
  # Live: at 100 records/s, 3 s of capture hold about 300 records (the pace counts what passes the filter).
  ts -i ualink-generator "${genopt[@]}" -o extcap.ualink_generator.pace:100 -f b -a duration:3 -w "$work/out/live.pcapng" -q \
     > /dev/null 2>&1 || true
  n=$($tool info "$work/out/live.pcapng" | cut -d' ' -f3)
  check "pace 100 records/s for 3 s with filter 'b': $n records" test "$n" -ge 220 -a "$n" -le 400
  ;;
udp)
  port=$($tool freeport)
  "$gen" -q --seed 3 -s errors --run-scale 0.2 -c 4000 -w "$work/ref.pcap"
  records "$work/ref.pcap" > "$work/ref.hex"
  n=$(wc -l < "$work/ref.hex")
  ts -i ualink-udp -o "extcap.ualink_udp.port:$port" -a packets:"$n" -a duration:60 -w "$work/out/udp.pcapng" -q \
     > /dev/null 2> "$work/udp.err" &
  tpid=$!
  pids+=($tpid)
  for _ in $(seq 100); do $tool bound "$port" && break; sleep 0.1; done
  check "the UDP interface listens on port $port" $tool bound "$port"
  "$gen" -q --seed 3 -s errors --run-scale 0.2 -c 4000 --udp "127.0.0.1:$port" --rate-limit 20000
  rc=0
  wait "$tpid" || rc=$?
  check "tshark stops after the $n records ualink-gen --udp sent" test "$rc" -eq 0
  records "$work/out/udp.pcapng" > "$work/got.hex"
  check "all $n records arrive, byte for byte and in order ($(wc -l < "$work/got.hex") captured)" cmp -s "$work/ref.hex" "$work/got.hex"
  read -r lt res _ < <($tool info "$work/out/udp.pcapng")
  check "UDP capture: LINKTYPE_USER0 with nanosecond timestamps ($lt $res)" test "$lt $res" = "147 9"
  "$decode" --stateless --json "$work/out/udp.pcapng" > "$work/udp.jsonl"
  "$decode" --stateless --json "$work/ref.pcap" > "$work/ref.jsonl"
  $tool rules "$work/udp.jsonl" > "$work/udp.rules"
  $tool rules "$work/ref.jsonl" > "$work/ref.rules"
  check "ualink-decode: the same $(wc -l < "$work/ref.rules") findings as on ualink-gen's file" \
    bash -c "[ -s '$work/ref.rules' ] && cmp -s '$work/ref.rules' '$work/udp.rules'"
  # Datagrams lost on the way (left out of the sequence): a records-dropped
  # event says how many, and the record after each gap is marked lost.
  mkfifo "$work/f4"
  cat "$work/f4" > "$work/lossy.pcap" &
  pids+=($!)
  "$X" --extcap-interface ualink-udp --capture --fifo "$work/f4" --port "$port" 2> "$work/lossy.err" &
  xpid=$!
  pids+=($xpid)
  for _ in $(seq 100); do $tool bound "$port" && break; sleep 0.1; done
  $tool send "$work/ref.pcap" "$port" 500-509,2000-2000,3000-3099
  sleep 1
  kill -TERM "$xpid"
  wait "$xpid" || true
  sleep 0.2
  "$decode" -T fields -e ualink.event.value -Y 'ualink.event.code == 8' "$work/lossy.pcap" > "$work/lossy.ev"
  check "lost datagrams said in records-dropped events: $(tr '\n' ' ' < "$work/lossy.ev")" \
    test "$(tr '\n' ' ' < "$work/lossy.ev")" = "10 1 100 "
  got=$("$decode" -Y 'ualink.rec.lost == 1' "$work/lossy.pcap" | wc -l)
  check "the record after each of the 3 gaps marked lost ($got)" test "$got" -eq 3
  got=$($tool info "$work/lossy.pcap" | cut -d' ' -f3)
  check "every datagram sent handed on, and the 3 events ($got records)" test "$got" -eq $((n - 111 + 3))
  # A busy port: Wireshark shows why.
  "$py" -c 'import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", int(sys.argv[1]))); time.sleep(30)' "$port" &
  pids+=($!)
  for _ in $(seq 50); do $tool bound "$port" && break; sleep 0.1; done
  rc=0
  ts -i ualink-udp -o "extcap.ualink_udp.port:$port" -a duration:5 -w "$work/out/busy.pcapng" > /dev/null 2> "$work/busy.err" || rc=$?
  check "busy port: tshark fails with the extcap's message" \
    bash -c "[ $rc -ne 0 ] && grep -qE 'Error (by|from) extcap pipe: ualink-extcap: cannot listen on UDP 127.0.0.1 port $port: Address already in use' '$work/busy.err'"
  rc=0
  "$X" --extcap-interface ualink-udp --capture --fifo "$work/nofifo" --port "$port" 2> "$work/busy2.err" || rc=$?
  check "busy port: exit $rc, message on stderr, no fifo opened" \
    bash -c "[ $rc -eq 1 ] && grep -q 'Address already in use' '$work/busy2.err' && [ ! -e '$work/nofifo' ]"
  ;;
stop)
  export UALINK_GEN=$work/bin/ualink-gen
  # SIGTERM while paced: exits 0 soon, the generator is gone, the truth file and the pcap are whole.
  mkfifo "$work/f1"
  cat "$work/f1" > "$work/s1.pcap" &
  pids+=($!)
  "$X" --extcap-interface ualink-generator --capture --fifo "$work/f1" --pace 500 --inject PL-CRC --inject-at 100 \
       --truth "$work/s1.truth.jsonl" 2> "$work/s1.err" &
  xpid=$!
  pids+=($xpid)
  child=
  for _ in $(seq 100); do child=$(pgrep -P "$xpid" || true); [ -n "$child" ] && break; sleep 0.1; done
  sleep 1.5
  check "the generator runs as the extcap's child ($child)" test -n "$child"
  kill -TERM "$xpid"
  t0=$(date +%s%N)
  rc=0
  wait "$xpid" || rc=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  check "SIGTERM: exit status $rc after $ms ms" test "$rc" -eq 0 -a "$ms" -lt 3000
  check "SIGTERM: nothing on stderr" test ! -s "$work/s1.err"
  check "SIGTERM: the generator has exited" gone "${child:-0}" 30
  sleep 0.2
  read -r lt res n _ < <($tool info "$work/s1.pcap")
  check "SIGTERM: the records so far form a whole pcap ($n records at 500/s in 1.5 s)" test "$n" -ge 300 -a "$n" -le 1000
  check "SIGTERM: the generator wrote its truth (PL-CRC)" grep -q '"rule": "PL-CRC"' "$work/s1.truth.jsonl"
  # The reader closes the fifo: EPIPE is a normal stop.
  mkfifo "$work/f2"
  head -c 50000 "$work/f2" > /dev/null &
  pids+=($!)
  rc=0
  timeout 20 "$X" --extcap-interface ualink-generator --capture --fifo "$work/f2" --pace 0 --count 100000 \
       2> "$work/s2.err" || rc=$?
  check "reader gone (EPIPE): exit status $rc, stderr empty" bash -c "[ $rc -eq 0 ] && [ ! -s '$work/s2.err' ]"
  # The UDP interface idle: SIGTERM stops it at once.
  mkfifo "$work/f3"
  cat "$work/f3" > "$work/s3.pcap" &
  pids+=($!)
  port=$($tool freeport)
  "$X" --extcap-interface ualink-udp --capture --fifo "$work/f3" --port "$port" 2> "$work/s3.err" &
  xpid=$!
  pids+=($xpid)
  for _ in $(seq 100); do $tool bound "$port" && break; sleep 0.1; done
  kill -TERM "$xpid"
  rc=0
  wait "$xpid" || rc=$?
  check "UDP idle, SIGTERM: exit status $rc, stderr empty" bash -c "[ $rc -eq 0 ] && [ ! -s '$work/s3.err' ]"
  sleep 0.2
  check "UDP idle: a pcap with no records" test "$($tool info "$work/s3.pcap")" = "147 9 0 -"
  # tshark's own stop (-a duration) leaves no extcap or generator behind.
  ts -i ualink-generator "${genopt[@]}" -a duration:2 -w "$work/out/d.pcapng" -q > /dev/null 2> "$work/d.err" && rc=0 || rc=$?
  check "tshark -a duration:2 exits 0" test "$rc" -eq 0
  sleep 0.5
  # ("[bh]": the pattern does not match this script's own command lines)
  none_left() { ! pgrep -f "$work/[bh]" > /dev/null; }
  check "no ualink-extcap or ualink-gen of this test left running" none_left
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
