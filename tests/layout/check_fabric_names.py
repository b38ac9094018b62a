#!/usr/bin/env python3
"""The generic front-end files name no fabric (issue 35): no PCIe or UB
identifier (ual_pcie_, UAL_PCIE_, ual_ub_, UAL_UB_) and no UALink-only one
(its flit, LTSSM, DL message, negotiation and analyzer-summary names) in
cli/decode, tui and wireshark-plugin, except in the per-fabric files listed
here, in one place. A fabric's presentation that is really its own lives
in such a file behind a registration table (cli/decode/fab_<fabric>.c).

Files not converted to the presentation model yet are listed with the
number of lines that name a fabric today: the count may only go down (the
check fails when it grows, and asks to lower it when it dropped).

usage: check_fabric_names.py SRCDIR
"""
import os
import re
import sys

NAMES = re.compile(r'\b(ual_pcie_|UAL_PCIE_|ual_ub_|UAL_UB_|'
                   r'ual_flit_|UAL_FK_|UAL_RC_|ual_lt_|UAL_LT_|UAL_MT_|ual_msg_types|ual_analysis_summary|'
                   r'ual_ualink_|UAL_TEV_NEGOTIATION|ual_dlmsg|ual_unpack|ual_neg_)')

DIRS = ['cli/decode', 'tui', 'wireshark-plugin']

# Per-fabric front-end files: one file per fabric per front-end.
PER_FABRIC = {
    'cli/decode/fab_ualink.c', 'cli/decode/fab_pcie.c', 'cli/decode/fab_ub.c',
    'cli/decode/report_ualink.c', 'cli/decode/report_ub.c',
}

# Not converted yet: lines naming a fabric at most.
NOT_YET = {
    'cli/decode/chunk.c': 1,          # the UALink analysis' hash proves chunk boundaries
    'cli/decode/dcli.h': 1,
    'cli/decode/input.c': 1,
    'cli/decode/main.c': 3,
    'cli/decode/pre.c': 1,
    'cli/decode/pre.h': 1,
    'cli/decode/print_json.c': 45,    # the flit/os/dllp/pcie_flit/ub objects of the record JSON
    'cli/decode/print_text.c': 2,
    'cli/decode/report.c': 20,        # the report's bins, ladders and markers
    'cli/decode/report.h': 2,
    'cli/decode/report_page.c': 7,
    'cli/decode/timeline.c': 3,
    # wt-tuiws' files, not converted when this check landed
    'tui/model.c': 16,
    'tui/model.h': 4,
    'wireshark-plugin/packet-ualink.c': 1,
    'wireshark-plugin/ualink-state.c': 23,
    'wireshark-plugin/ualink-stats.c': 4,
}


def main():
    src = sys.argv[1]
    bad = []
    for d in DIRS:
        for name in sorted(os.listdir(os.path.join(src, d))):
            if not name.endswith(('.c', '.h')):
                continue
            rel = d + '/' + name
            if rel in PER_FABRIC:
                continue
            with open(os.path.join(src, rel), encoding='utf-8', errors='replace') as f:
                hits = [(i + 1, l.rstrip()) for i, l in enumerate(f) if NAMES.search(l)]
            allowed = NOT_YET.get(rel, 0)
            if len(hits) > allowed:
                bad.append('%s: %d lines name a fabric (at most %d):' % (rel, len(hits), allowed))
                bad += ['  %d: %s' % h for h in hits[:8]]
            elif len(hits) < allowed:
                bad.append('%s: %d lines name a fabric now: lower its count in check_fabric_names.py from %d'
                           % (rel, len(hits), allowed))
    for rel in list(PER_FABRIC) + list(NOT_YET):
        if not os.path.exists(os.path.join(src, rel)):
            bad.append('%s is listed but does not exist' % rel)
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print('generic front-end files name no fabric; %d per-fabric files, %d not converted yet' %
          (len(PER_FABRIC), len(NOT_YET)))


if __name__ == '__main__':
    main()
