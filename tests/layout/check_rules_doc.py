#!/usr/bin/env python3
"""docs/rules.md against libdecode's rule table.

  check_rules_doc.py RULE_TABLE_PROGRAM docs/rules.md
  check_rules_doc.py --self-test RULE_TABLE_PROGRAM docs/rules.md

The document must list every rule of the table exactly once, no rule the
table lacks, each with the table's severity. Rules are the table rows
whose first cell is an ID such as PL-CRC. --self-test checks that doctored
copies of the document (a row dropped, a row added, a severity changed, a
row doubled) are each reported.
"""
import re
import subprocess
import sys

ROW = re.compile(r'^\|\s*([A-Z]{2}-[A-Z0-9-]+)\s*\|\s*(\w+)\s*\|', re.M)


def table(prog):
    out = subprocess.run([prog], check=True, capture_output=True, text=True).stdout
    return [tuple(line.split()) for line in out.splitlines() if line.strip()]


def problems(rules, doc):
    want = dict(rules)
    seen = {}
    out = []
    for rid, sev in ROW.findall(doc):
        if rid in seen:
            out.append('%s listed twice' % rid)
        seen[rid] = sev
        if rid not in want:
            out.append('%s is not in the rule table' % rid)
        elif want[rid] != sev:
            out.append('%s: severity %s in the document, %s in the table' % (rid, sev, want[rid]))
    for rid, _ in rules:
        if rid not in seen:
            out.append('%s is missing from the document' % rid)
    return out


def self_test(rules, doc):
    rows = ROW.findall(doc)
    if len(rows) < 2:
        print('self-test: the document has no rule rows')
        return 1
    first = re.search(r'^\|\s*%s\s*\|.*\n' % re.escape(rows[0][0]), doc, re.M).group(0)
    other = 'info' if rows[1][1] != 'info' else 'error'
    cases = {
        'dropped': (doc.replace(first, '', 1), '%s is missing' % rows[0][0]),
        'added': (doc + '\n| XX-NOT-A-RULE | error | nothing |\n', 'XX-NOT-A-RULE is not in the rule table'),
        'severity': (re.sub(r'^(\|\s*%s\s*\|\s*)\w+' % re.escape(rows[1][0]), r'\g<1>' + other, doc, count=1, flags=re.M),
                     '%s: severity %s in the document' % (rows[1][0], other)),
        'doubled': (doc + '\n' + first, '%s listed twice' % rows[0][0]),
    }
    bad = 0
    if problems(rules, doc):
        print('self-test: the document itself does not match')
        bad += 1
    for name, (text, want) in cases.items():
        found = problems(rules, text)
        if not any(want in p for p in found):
            print('self-test: %s not reported (%s)' % (name, found))
            bad += 1
    print('self-test', 'FAILED' if bad else 'passed')
    return 1 if bad else 0


def main():
    args = sys.argv[1:]
    selftest = args[:1] == ['--self-test']
    if selftest:
        args = args[1:]
    if len(args) != 2:
        print(__doc__)
        return 2
    rules = table(args[0])
    doc = open(args[1], encoding='utf-8').read()
    if selftest:
        return self_test(rules, doc)
    found = problems(rules, doc)
    for p in found:
        print(p)
    print('%d rules in the table, %d rows in %s, %d problems' % (len(rules), len(ROW.findall(doc)), args[1], len(found)))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
