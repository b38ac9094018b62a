#!/usr/bin/env bash
# End-to-end: drive ualink-tui in tmux like a person and read the screen.
# usage: tui_e2e.sh TUI CAPTURES_DIR BUILD_DIR
set -euo pipefail
TUI=$1 CAP=$2 BUILD=$3
py=${UAL_PYTHON:-python3}   # ctest gives the interpreter CMake chose
GEN=$BUILD/cli/gen/ualink-gen
DECODE=$BUILD/cli/ualink-decode
SAMPLE=$CAP/traffic.pcap
S=ualtui$$
T=(tmux -u -L "ualtui$$")   # a server of its own, UTF-8
TMPD=$(mktemp -d)
VETH=
fails=0 passes=0

cleanup() {
  "${T[@]}" kill-server 2>/dev/null || true
  rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/ualtui$$"
  [ -n "${GENPID:-}" ] && kill "$GENPID" 2>/dev/null || true
  [ -n "$VETH" ] && ip link del "$VETH" 2>/dev/null || true
  rm -rf "$TMPD"
}
trap cleanup EXIT

screen() { "${T[@]}" capture-pane -p -t "$S"; }
# wait_for TEXT [SECONDS]: until the screen shows TEXT
wait_for() {
  local t=${2:-10} i=0
  while [ $i -lt $((t * 10)) ]; do
    screen | grep -qF -- "$1" && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}
check() { # check NAME TEXT [SECONDS]
  if wait_for "$2" "${3:-5}"; then passes=$((passes + 1)); echo "ok: $1";
  else fails=$((fails + 1)); echo "FAIL: $1 (screen did not show '$2')"; screen | sed 's/^/  | /'; fi
}
check_not() { # check_not NAME REGEX [LINES] (on the list rows)
  sleep 0.5
  if screen | sed -n "${3:-3,40}p" | grep -qE -- "$2"; then fails=$((fails + 1)); echo "FAIL: $1"; screen | sed 's/^/  | /';
  else passes=$((passes + 1)); echo "ok: $1"; fi
}
# check_line NAME LINE_NO REGEX: screen line LINE_NO (1-based) matches
check_line() {
  sleep 0.5
  if screen | sed -n "${2}p" | grep -qE -- "$3"; then passes=$((passes + 1)); echo "ok: $1";
  else fails=$((fails + 1)); echo "FAIL: $1 (line $2 does not match '$3')"; screen | sed 's/^/  | /'; fi
}
check_eq() { # check_eq NAME GOT WANT
  if [ "$2" = "$3" ]; then passes=$((passes + 1)); echo "ok: $1";
  else fails=$((fails + 1)); echo "FAIL: $1: got '$2', want '$3'"; fi
}
keys() { "${T[@]}" send-keys -t "$S" "$@"; sleep 0.3; }

"${T[@]}" new-session -d -s "$S" -x 150 -y 45 "env LANG=C.UTF-8 LC_ALL=C.UTF-8 bash --norc --noprofile"
"${T[@]}" set-option -t "$S" remain-on-exit on >/dev/null
keys "PS1='$ '" Enter
keys "$TUI $SAMPLE; echo TUI-EXIT=\$?" Enter

check "header shows the file" "ualink-tui | Flits | file"
check "status bar counts the screens there are" "1-5 screens"
check_not "no screen 6 in the status bar" "1-6 screens" "45"
check_not "one link: no Link column" "^Frame +Time +Dir +Link" "2"
check "rows are listed" "A>B"
check "rows of the other side" "B>A"
keys "/" ; keys "ualink.rec.dir == 1"
check "the prompt checks the filter as it is typed" "valid filter (Enter sets it)"
keys Enter
check "filter shown in the footer" "filter: ualink.rec.dir == 1"
check "the footer counts the matches" "records match"
keys f
check_not "only B>A rows after 'f'" " A>B "
keys f
keys "/" ; keys "ualink.flit.kind == Payload" Enter
keys Enter
check "detail pane shows the flit header" "Flit header"
check "detail shows a decoded field" "Flit Sequence Number"
check "hex pane" "0000  01 01"
# UTF-8 locale: ncursesw draws the separator as box drawing, not as "qqqq"
check "detail separator drawn as a line" "────────"
check_not "no unmapped line drawing" "qqqqqqqq" "1,45"
keys q
keys 2
check "link state panel: the link" "link 0 (UALink, link 0)"
check "UALink's own rows" "channel 0 (TL)"
check "roles from the record header" "accelerator"
keys 3
check "statistics screen" "Flits by usage"
keys 4
check "findings screen" "Findings"
keys "?"
check "help screen" "autoscroll (toggle)"
keys 1
keys q
check "clean exit restores the terminal" "TUI-EXIT=0"
keys clear Enter

# Other fabrics: each link-state screen shows the fabric's own rows and
# none of UALink's; the whole screen, read page by page
UALINK_ONLY='channel 0 \(TL\)|channel 4 \(UART\)|negotiated (speed|width|link state)|TL rate|alternate protocol|unacknowledged'
pages() { # pages N: the screen and N pages below it, scrolled with Space
  local i
  keys g
  for ((i = 0; i <= $1; i++)); do screen; keys Space; done
}
check_pages() { # check_pages NAME REGEX PAGES (present) / check_pages_not
  if pages "$3" | grep -qE -- "$2"; then passes=$((passes + 1)); echo "ok: $1"; else fails=$((fails + 1)); echo "FAIL: $1 (no '$2')"; fi
}
check_pages_not() {
  if pages "$3" | grep -qE -- "$2"; then fails=$((fails + 1)); echo "FAIL: $1 ('$2' shown)"; else passes=$((passes + 1)); echo "ok: $1"; fi
}
keys "$TUI $CAP/pcie-flit.pcap" Enter
check "PCIe capture opens" "pcie-flit.pcap"
keys 2
check "the PCIe link named by its ports" "RP0 <-> EP (PCIe, link 0)"
check "PCIe roles named by the PCIe encoding" "Root Port"
check "the Endpoint side" "Endpoint"
check_pages "PCIe's own rows: DL state" "DL state +DL_" 3
check_pages "... per VC" "Flow control VC0" 3
check_pages "... outstanding requests" "outstanding requests" 3
check_pages "... Segment Captured" "Segment Captured" 3
check_pages_not "no UALink row on a PCIe link" "$UALINK_ONLY" 3
keys 3
flits=$("$DECODE" -q --stats --json "$CAP/pcie-flit.pcap" | "$py" -c 'import json,sys; d=[json.loads(l) for l in sys.stdin][-1]["pcie_flit"]; print(d["A>B"]["flits"], d["B>A"]["flits"])')
check "PCIe flits counted as --stats counts them" "$(echo "$flits" | awk '{printf "%-44s %14d %14d %14d", "  PCIe flits", $1, $2, $1 + $2}')"
check_not "no UALink flit usage on a PCIe link" "Flits by usage|payload \(flits\)" "1,45"
keys q
keys clear Enter
keys "$TUI $CAP/ub-ber.pcap" Enter
check "UB capture opens" "ub-ber.pcap"
keys 2
check "UB's own rows: DLL state" "DLL state"
check "... retry state" "retry state"
check "... VL credits" "VL0 credits held"
check_pages_not "no UALink row on a UB link" "$UALINK_ONLY|LTSSM" 2
keys 3
bcrc=$("$DECODE" -q --stats --json "$CAP/ub-ber.pcap" | "$py" -c 'import json,sys; d=[json.loads(l) for l in sys.stdin][-1]["dirs"]; print(d["A>B"]["ub"]["bcrc_bad"], d["B>A"]["ub"]["bcrc_bad"])')
check "UB BCRC failures counted as --stats counts them" "$(echo "$bcrc" | awk '{printf "%-44s %14d %14d %14d", "  BCRC bad (flits)", $1, $2, $1 + $2}')"
keys 5
check "UB retry episodes as transactions" "UB     A     retry"
keys q
keys clear Enter

# A Root Complex: every Root Port a section of its own, the list shows the
# link, the transactions screen lists ualink-decode --transactions' rows
"$GEN" -q -s pcie-rc -c 600 -w "$TMPD/rc.pcap" --truth /dev/null
keys "$TUI $TMPD/rc.pcap" Enter
check "pcie-rc opens" "rc.pcap"
check "the list has a Link column" "Frame    Time            Dir  Link Content"
check "records of link 2 say so" " L2   PCIe"
keys 2
for p in 0 1 2; do check_pages "Root Port $p has its own link-state section" "RP$p <-> EP \(PCIe, link $p\)" 6; done
keys 3
for p in 0 1 2; do check_pages "Root Port $p has its own statistics" "RP$p <-> EP \(PCIe, link $p\)" 6; done
keys 5
n=$("$DECODE" --transactions "$TMPD/rc.pcap" | wc -l)
check "every transaction of ualink-decode --transactions ($n)" "$n transactions"
keys s ; keys s
check "sorted by latency" "sorted by latency"
want=$("$DECODE" --transactions "$TMPD/rc.pcap" | awk '{ print $7 }' | sort -n | head -1)
check_line "the shortest latency first ($want ns)" 4 " $want ok "
keys r
want=$("$DECODE" --transactions "$TMPD/rc.pcap" | awk '{ print $7 }' | sort -n | tail -1)
check_line "reversed: the longest first ($want ns)" 4 " $want ok "
keys q
keys clear Enter

# A microsecond fraction above 999999 (mkcap's usfrac.pcap): said once on the status line
keys "$TUI $BUILD/tests/inputs/usfrac.pcap" Enter
check "the fraction is said on the status line" "usfrac.pcap: frame 3: microsecond pcap with a fraction of 1234567 (> 999999)"
keys 3
check_not "a key clears it" "microsecond pcap" "1,45"
keys q
keys clear Enter

# The / prompt: the old filter is selected, typing replaces it; readline keys
keys "$TUI $SAMPLE" Enter
check "prompt test starts" "ualink-tui | Flits | file"
keys / ; keys "ualink.rec.dir==0" Enter
check "first filter" "filter: ualink.rec.dir==0"
keys / ; keys "ualink.flit.kind==0" Enter
check "typing replaces the old filter" "filter: ualink.flit.kind==0"
check_not "no appended filter" "dir==0ualink|neither a field" "45"
keys / ; keys C-u "ualink.rec.dir==1 && frame.number<=10" Enter
check "Ctrl-U clears the line" "filter: ualink.rec.dir==1 && frame.number<=10"
keys / ; keys End C-w "frame.number<=30" Enter
check "Ctrl-W deletes the last word" "filter: ualink.rec.dir==1 && frame.number<=30"
keys / ; keys End BSpace BSpace "40" Enter
check "Backspace deletes" "filter: ualink.rec.dir==1 && frame.number<=40"
keys / ; keys "ualink.fh.seq == zz"
check "a syntax error shows while typing" '"zz" is not a valid number.'
check "with a caret under the token" "                   ^~"
keys Escape
sleep 0.3
check "Esc leaves the filter as it was" "filter: ualink.rec.dir==1 && frame.number<=40"
check_not "Esc applies nothing" "not a valid number" "45"
keys / ; keys Home C-k "ualink.rec.dir==1" Enter
check "Home, Ctrl-K" "filter: ualink.rec.dir==1"
keys / ; keys Enter
check "Enter keeps the selected filter" "filter: ualink.rec.dir==1"
keys q
keys clear Enter

# A full ring: times stay relative to the first record of the capture, and
# with f the matches the ring no longer holds stay reachable.
keys "$TUI --ring 50 $SAMPLE" Enter
keys G
last=$("$DECODE" "$SAMPLE" | tail -1 | awk '{print $1 " +" $2}')
check_line "last frame's time relative to frame 1, as ualink-decode gives it" 44 "^$last "
keys / ; keys "ualink.rec.dir == 1" Enter
keys f ; keys g
want=$("$DECODE" --dir B "$SAMPLE" | tail -50 | head -1 | awk '{print $1}')
check_line "f reaches the 50th last match, before the ring" 3 "^$want +[0-9.]+ B>A"
keys q
keys clear Enter

# Rates: link-time rates from the capture's timestamps, labelled
keys "$TUI $SAMPLE" Enter
keys 3
span=$("$DECODE" -q --stats --json "$SAMPLE" | "$py" -c 'import json,sys; d=[json.loads(l) for l in sys.stdin][-1]; print(d["span_ns"], d["by_kind"]["flit"])')
mean=$(echo "$span" | awk '{printf "%.1f/us", $2 / $1 * 1000}')
check "rates labelled as link time" "Rates in link time (capture timestamps)"
check "mean flit rate per us of capture time" "$mean"
check_not "no wall-clock rates for a file" "wall-clock" "1,45"
keys q
keys clear Enter

# CRC bad on the statistics screen equals ualink-decode --stats
keys "$TUI $CAP/errors.pcap" Enter
keys 3
crc=$("$DECODE" -q --stats --json "$CAP/errors.pcap" | "$py" -c 'import json,sys; d=[json.loads(l) for l in sys.stdin][-1]["dirs"]; print(d["A>B"]["crc"]["bad"], d["B>A"]["crc"]["bad"])')
check "CRC bad as --stats counts it" "$(echo "$crc" | awk '{printf "%-44s %14d %14d %14d", "  bad (flits)", $1, $2, $1 + $2}')"
keys q
keys clear Enter

# A truncated stdin is said on screen when it happens
head -c 30000 "$SAMPLE" > "$TMPD/cut.pcap"
keys "cat $TMPD/cut.pcap | $TUI -" Enter
check "truncated stdin reported while running" "stdin: the input ends inside the record after frame" 5
keys q
check "and once more on stderr after quitting" "stdin: the input ends inside the record after frame"
keys clear Enter
head -c 24 "$SAMPLE" > "$TMPD/header-only.pcap"
keys "cat $TMPD/header-only.pcap | $TUI -" Enter
check "stdin without records says so" "stdin holds no records" 5
keys q
keys clear Enter

# -F on a file that has no pcap header yet waits for it, as tail -F would
: > "$TMPD/later.pcap"
keys "$TUI -F $TMPD/later.pcap; echo FOLLOW-EXIT=\$?" Enter
check "-F waits for the pcap header" "following $TMPD/later.pcap: waiting for its pcap header" 5
head -c 10 "$SAMPLE" > "$TMPD/later.pcap"
sleep 0.5
check "-F still waits with part of the header" "waiting for its pcap header" 5
cat "$SAMPLE" > "$TMPD/later.pcap"
check "-F reads the records once the header is there" "A>B" 10
want=$("$DECODE" "$SAMPLE" | wc -l)
check "-F counts every record" "$want records" 10
keys q
check "exit after -F" "FOLLOW-EXIT=0"
keys clear Enter

# A stream on stdin
keys "$GEN --scenario traffic -c 2000 --seed 3 -w - | $TUI -; echo PIPE-EXIT=\$?" Enter
check "pcap stream on stdin" "ualink-tui | Flits | stdin" 10
check "stdin records decoded" "payload" 10
keys q
check "exit after stdin" "PIPE-EXIT=0"

# Live capture of the UDP export on lo
PORT=$((20000 + $$ % 20000))
keys "$TUI -i lo --port $PORT; echo LIVE-EXIT=\$?" Enter
check "live capture starts" "ualink-tui | Flits | live lo" 10
check "an empty live source says so" "listening on lo for UDP port $PORT: nothing received for" 5
"$GEN" --scenario all --seed 5 -c 30000 --udp "127.0.0.1:$PORT" --rate-limit 20000 >/dev/null 2>&1 &
GENPID=$!
check "live records arrive" "payload" 15
keys 2
check "link state from live traffic" "Physical layer" 10
check "link state reaches L0" " L0" 15
check "channel 0 online" "online" 15
keys 3
check "wall-clock rates live" "Rates in wall-clock time (arrivals here)" 5
wait "$GENPID" || true
GENPID=
check "a live source gone quiet says so" "nothing new for" 5
keys q
check "exit after live" "LIVE-EXIT=0"
keys clear Enter

# Joining a live link mid-stream: the analysis says where it synchronized
# and raises nothing from the traffic it did not see (clean traffic, at a
# rate a loaded 2-core machine captures without drops).
"$GEN" --scenario traffic --seed 9 -c 100000 --udp "127.0.0.1:$PORT" --rate-limit 4000 >/dev/null 2>&1 &
GENPID=$!
sleep 2
keys "$TUI -i lo --port $PORT; echo MID-EXIT=\$?" Enter
check "mid-stream live records arrive" "payload" 15
sleep 2
keys 4
check "mid-stream live: synchronized" "AN-SYNC" 10
check_not "mid-stream live: no error or warning finding" " (error|warning) " "3,40"
keys q
check "exit after mid-stream live" "MID-EXIT=0"
kill "$GENPID" 2>/dev/null || true
wait "$GENPID" 2>/dev/null || true
GENPID=
keys clear Enter

# A live source whose interface goes away says so on screen
if ip link add "ualtui$$a" type veth peer name "ualtui$$b" 2>/dev/null; then
  VETH="ualtui$$a"
  ip link set "$VETH" up
  keys "$TUI -i $VETH" Enter
  check "capture on the veth" "live $VETH" 10
  ip link del "$VETH"
  check "disconnected live source said on screen" "$VETH: capture stopped" 5
  VETH=
  keys q
  keys clear Enter
else
  echo "skip: no veth pair to unplug (needs CAP_NET_ADMIN)"
fi

# Small and large terminals: every screen at 80x24 and 160x48 shows each
# row as a terminal 400 columns wide shows it, cut at the right edge: no row
# wraps into the next one. The title row is intact and the footer keeps the
# filter and its match count.
layout() { # layout CAPTURE FILTER
  local cap=$1 filt=$2 want
  want=$("$DECODE" -Y "$filt" "$cap" | wc -l)
  keys "$TUI $cap" Enter
  check "layout: $(basename "$cap") opens" "ualink-tui | Flits" 10
  keys / ; keys "$filt" Enter
  keys g
  local scr
  for scr in list detail link stats findings transactions help; do
    case $scr in
      list) keys 1 ;; detail) keys 1 ; keys Enter ;; link) keys q ; keys 2 ;;
      stats) keys 3 ;; findings) keys 4 ;; transactions) keys 5 ;; help) keys "?" ;;
    esac
    for size in 80x24 160x48; do
      local w=${size%x*} h=${size#*x}
      "${T[@]}" resize-window -t "$S" -x 400 -y "$h"; sleep 0.6
      screen > "$TMPD/ref.txt"
      "${T[@]}" resize-window -t "$S" -x "$w" -y "$h"; sleep 0.6
      screen > "$TMPD/got.txt"
      if out=$("$py" - "$TMPD/ref.txt" "$TMPD/got.txt" "$w" "$h" "$filt" "$want" "$scr" <<'PY'
import re, sys
ref, got = (open(p, encoding="utf-8").read().split("\n") for p in sys.argv[1:3])
w, h, filt, want, scr = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6], sys.argv[7]
ref, got = (x + [""] * h for x in (ref, got))
bars = re.compile(r"\[[ .:=+*#-]*\]$")
bad = []
titles = {"list": "Flits", "detail": "Frame ", "link": "Link state", "stats": "Statistics",
          "findings": "Findings", "transactions": "Transactions", "help": "Help"}
if not got[0].startswith(" ualink-tui | " + titles[scr]):
    bad.append("title row: %r" % got[0])
for i in range(h - 1):
    g, r = got[i].rstrip(), ref[i][:w].rstrip()
    if bars.search(ref[i].rstrip()):
        if not g.endswith("]"):
            bad.append("row %d: sparkline cut: %r" % (i + 1, g))
        g, r = bars.sub("", g).rstrip(), bars.sub("", ref[i].rstrip()).rstrip()[:w].rstrip()
    if g != r:
        bad.append("row %d: %r, as 400 columns show it: %r" % (i + 1, g, r))
foot = got[h - 1]
if "filter: " + filt not in foot or "(%s records match)" % want not in foot:
    bad.append("footer without the filter and its count: %r" % foot)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
      ); then
        passes=$((passes + 1)); echo "ok: layout $(basename "$cap") $scr at $size"
      else
        fails=$((fails + 1)); echo "FAIL: layout $(basename "$cap") $scr at $size"; echo "$out" | sed 's/^/  | /'
      fi
    done
  done
  "${T[@]}" resize-window -t "$S" -x 150 -y 45; sleep 0.3
  keys q
  keys clear Enter
}
layout "$CAP/errors.pcap" "ualink.rec.dir == 1"
layout "$CAP/ub-ber.pcap" "ualink.rec.dir == 0 && frame.number <= 900"
layout "$CAP/pcie-flit.pcap" "ualink.rec.dir == 1"

# An interface that cannot be opened gives a clean message and exit 2
keys "$TUI -i no-such-if0; echo BAD-EXIT=\$?" Enter
check "bad interface message" "no-such-if0: cannot capture" 5
check "bad interface exit code" "BAD-EXIT=2"

# Command-line errors: a file named once, each bad option on its own line
err() { "$TUI" "$@" 2>&1 >/dev/null || true; }
check_eq "missing file named once" "$(err "$TMPD/nonexist.pcap")" "ualink-tui: $TMPD/nonexist.pcap: No such file or directory"
: > "$TMPD/empty.pcap"
check_eq "empty file" "$(err "$TMPD/empty.pcap")" "ualink-tui: $TMPD/empty.pcap: empty file"
check_eq "--ring 0 alone" "$(err --ring 0 "$SAMPLE" | head -1)" "ualink-tui: --ring: '0' is not a positive count of records"
out=$(err --port 0 --ring x --dlt 1 "$SAMPLE")
check_eq "three bad options, three lines" "$(echo "$out" | grep -c -- "is not")" 3
check_eq "unknown option named" "$(err -tt "$SAMPLE" | head -1)" "ualink-tui: unknown option '-t'"
check_eq "not a terminal" "$("$TUI" "$SAMPLE" 2>&1 >/dev/null </dev/null; echo "rc=$?")" \
  "$(printf 'ualink-tui: needs a terminal (ualink-decode writes decodes to files and pipes)\nrc=2')"
check_eq "extra operand" "$(err "$SAMPLE" "$SAMPLE" | head -1)" "ualink-tui: one capture at a time: '$SAMPLE' is extra"

echo "tui e2e: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
