#!/usr/bin/env bash
# `cmake --install --prefix P` (P outside $HOME) puts ualink-extcap into
# P/libexec/ualink-tools with a link to it in P's Wireshark extcap folder,
# and the installed extcap finds the installed ualink-gen and its help page
# by itself.
#
#   test_install.sh CMAKE BUILD-DIR EXTCAP-DIR
set -euo pipefail
cmake=$1 build=$2 xdir=$3
d=$(mktemp -d /tmp/ualink-xci.XXXXXX)
trap 'rm -rf "$d"' EXIT
prefix=/opt/ualink-test
DESTDIR=$d "$cmake" --install "$build" --prefix "$prefix" > "$d/install.log"
case $xdir in /*) link=$d$xdir/ualink-extcap ;; *) link=$d$prefix/$xdir/ualink-extcap ;; esac
x=$d$prefix/libexec/ualink-tools/ualink-extcap
fails=0
if [ -x "$x" ]; then echo "ok: installed as ${x#"$d"}"; else echo "FAIL: no $x" >&2; fails=1; fi
to=$(readlink "$link" || true)
if [ "$to" = "$prefix/libexec/ualink-tools/ualink-extcap" ]; then echo "ok: ${link#"$d"} -> $to"
else echo "FAIL: ${link#"$d"} links to '$to'" >&2; fails=1; fi
if [ -f "$d$prefix/share/man/man1/ualink-extcap.1" ]; then echo "ok: man page installed"; else echo "FAIL: no man page" >&2; fails=1; fi
# No PATH, no UALINK_GEN: the generator is found through the bin folder of the prefix.
n=$(env -i PATH=/nonexistent "$x" --extcap-interface ualink-generator --extcap-config | grep -c '^value {arg=0}' || true)
want=$(( $("$d$prefix/bin/ualink-gen" --list-scenarios | wc -l) + 1 ))
if [ "$n" -eq "$want" ]; then echo "ok: the installed extcap lists the installed generator's $want scenario choices"
else echo "FAIL: $n scenario choices, want $want" >&2; fails=1; fi
# Its help link is the installed page.
url=$("$x" --extcap-interfaces | sed -n 's/^extcap {version=[^}]*}{help=\(.*\)}$/\1/p')
if [ "$url" = "file://$d$prefix/share/ualink-tools/wireshark/README-wireshark.md" ]; then echo "ok: help link $url"
else echo "FAIL: help link '$url'" >&2; fails=1; fi
exit "$fails"
