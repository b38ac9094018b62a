#!/usr/bin/env bash
# End-to-end: drive ualink-tui in tmux like a person and read the screen.
# usage: tui_e2e.sh TUI CAPTURES_DIR BUILD_DIR
set -euo pipefail
TUI=$1 CAP=$2 BUILD=$3
GEN=$BUILD/cli/gen/ualink-gen
SAMPLE=$CAP/traffic.pcap
S=ualtui$$
fails=0 passes=0

cleanup() { tmux kill-session -t "$S" 2>/dev/null || true; [ -n "${GENPID:-}" ] && kill "$GENPID" 2>/dev/null || true; }
trap cleanup EXIT

screen() { tmux capture-pane -p -t "$S"; }
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
check_not() { # check_not NAME REGEX (on the list rows)
  sleep 0.5
  if screen | sed -n '3,40p' | grep -qE -- "$2"; then fails=$((fails + 1)); echo "FAIL: $1"; screen | sed 's/^/  | /';
  else passes=$((passes + 1)); echo "ok: $1"; fi
}
keys() { tmux send-keys -t "$S" "$@"; sleep 0.3; }

tmux new-session -d -s "$S" -x 150 -y 45 "bash --norc --noprofile"
tmux set-option -t "$S" remain-on-exit on >/dev/null
keys "PS1='$ '" Enter
keys "$TUI $SAMPLE; echo TUI-EXIT=\$?" Enter

check "header shows the file" "ualink-tui | Flits | file"
check "rows are listed" "A>B"
check "rows of the other side" "B>A"
keys "/" ; keys "dir=B" Enter
check "filter shown in the footer" "filter: dir=B"
keys f
check_not "only B>A rows after 'f'" " A>B "
keys f
keys "/" ; keys "usage=payload" Enter
keys Enter
check "detail pane shows the flit header" "Flit header"
check "detail shows a decoded field" "Flit Sequence Number"
check "hex pane" "0000  01 01"
keys q
keys 2
check "link state panel" "Side A"
check "roles from the record header" "accelerator"
keys 3
check "statistics screen" "payload flits"
keys 4
check "findings screen" "Findings"
keys "?"
check "help screen" "autoscroll (toggle)"
keys 1
keys q
check "clean exit restores the terminal" "TUI-EXIT=0"

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
"$GEN" --scenario all --seed 5 -c 30000 --udp "127.0.0.1:$PORT" --rate-limit 20000 >/dev/null 2>&1 &
GENPID=$!
check "live records arrive" "payload" 15
keys 2
check "link state from live traffic" "Side B" 10
check "link state reaches L0" " L0" 15
check "channel 0 online" "online" 15
wait "$GENPID" || true
GENPID=
keys q
check "exit after live" "LIVE-EXIT=0"

# An interface that cannot be opened gives a clean message and exit 2
keys "$TUI -i no-such-if0; echo BAD-EXIT=\$?" Enter
check "bad interface message" "no-such-if0: cannot capture" 5
check "bad interface exit code" "BAD-EXIT=2"

echo "tui e2e: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
