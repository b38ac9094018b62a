#!/usr/bin/env bash
# `cmake --install --prefix P` puts ualink-extcap into P's Wireshark extcap
# folder, and the installed extcap finds the installed ualink-gen by itself.
#
#   test_install.sh CMAKE BUILD-DIR EXTCAP-DIR
set -euo pipefail
cmake=$1 build=$2 xdir=$3
d=$(mktemp -d /tmp/ualink-xci.XXXXXX)
trap 'rm -rf "$d"' EXIT
prefix=/opt/ualink-test
DESTDIR=$d "$cmake" --install "$build" --prefix "$prefix" > "$d/install.log"
case $xdir in /*) x=$d$xdir/ualink-extcap ;; *) x=$d$prefix/$xdir/ualink-extcap ;; esac
fails=0
if [ -x "$x" ]; then echo "ok: installed as ${x#"$d"}"; else echo "FAIL: no $x" >&2; fails=1; fi
if [ -f "$d$prefix/share/man/man1/ualink-extcap.1" ]; then echo "ok: man page installed"; else echo "FAIL: no man page" >&2; fails=1; fi
# No PATH, no UALINK_GEN: the generator is found through the bin folder of the prefix.
n=$(env -i PATH=/nonexistent "$x" --extcap-interface ualink-generator --extcap-config | grep -c '^value {arg=0}' || true)
want=$(( $("$d$prefix/bin/ualink-gen" --list-scenarios | wc -l) + 1 ))
if [ "$n" -eq "$want" ]; then echo "ok: the installed extcap lists the installed generator's $want scenario choices"
else echo "FAIL: $n scenario choices, want $want" >&2; fails=1; fi
exit "$fails"
