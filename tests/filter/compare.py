#!/usr/bin/env python3
"""ualink-decode -Y / -T fields / -G fields against tshark 4.0 running the
UALink plugin.

On every capture (the samples in captures/, mkcap's PCIe flit capture and
one generated capture of every ualink-gen scenario): every filter of filters.txt must select the
same frames, and -T fields with the fields of fields.txt must print the
same bytes; with each -E option on five of them joined in one file. Every
filter of errors.txt must be rejected by both, with the same message and
caret (exit 2). tshark evaluates all filters in one pass
per capture through Lua tap listeners (one per filter, the same display
filter engine as -Y). It runs unprivileged (it ignores plugin folders as
root) from a fresh world-readable folder holding the plugin and captures.

usage: compare.py BUILD_DIR SOURCE_DIR"""
import os, re, shutil, subprocess, sys, tempfile

build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
decode = os.path.join(build, 'cli', 'ualink-decode')
gen = os.path.join(build, 'cli', 'gen', 'ualink-gen')
# the Wireshark major.minor the plugin was built for (4.0, 4.4)
majmin = os.listdir(os.path.join(build, 'plugins'))[0]
plugin = os.path.join(build, 'plugins', majmin, 'epan', 'ualink.so')


def lines(path):
    return [l.rstrip('\n') for l in open(path) if l.strip() and not l.startswith('#')]


filters = lines(os.path.join(src, 'tests', 'filter', 'filters.txt'))
bad_filters = lines(os.path.join(src, 'tests', 'filter', 'errors.txt'))
fields = ' '.join(lines(os.path.join(src, 'tests', 'filter', 'fields.txt'))).split()

# ualink-decode -Y reads Wireshark 4.0's filter dialect. Under 4.2 and later
# the filters whose meaning changed (only-4.0.txt) are left out, booleans in
# -T fields, which 4.2 prints as True/False, are read as 1/0, and the two -E
# options whose escaping 4.2 changed are not compared.
ver = subprocess.run(['tshark', '--version'], capture_output=True).stdout.decode().split('\n')[0]
vm = re.search(r'\b(\d+)\.(\d+)\.\d+', ver)
dialect40 = not vm or (int(vm.group(1)), int(vm.group(2))) < (4, 2)
if not dialect40:
    only40 = set(lines(os.path.join(src, 'tests', 'filter', 'only-4.0.txt')))
    left = [f for f in filters if f in only40]
    filters = [f for f in filters if f not in only40]
    print('%s: %d filters of 4.0\'s dialect not compared: %s' % (ver, len(left), left))


tmp = tempfile.mkdtemp(prefix='ual-filter-')
plugdir, capdir, luadir = (os.path.join(tmp, d) for d in ('plugins', 'caps', 'lua'))
os.makedirs(os.path.join(plugdir, majmin, 'epan'))
os.makedirs(capdir)
os.makedirs(luadir)
shutil.copy(plugin, os.path.join(plugdir, majmin, 'epan', 'ualink.so'))
caps = []
for name in sorted(os.listdir(os.path.join(src, 'captures'))):
    if name.endswith('.pcap'):
        shutil.copy(os.path.join(src, 'captures', name), capdir)
        caps.append(name)
# PCIe flit mode (kind 5): mkcap's pcie_flit.pcap (tests/cli/mkcap.c)
mk = os.path.join(tmp, 'mkcap')
os.makedirs(mk)
subprocess.run([os.path.join(build, 'tests', 'mkcap'), mk], check=True, stdout=subprocess.DEVNULL)
shutil.copy(os.path.join(mk, 'pcie_flit.pcap'), capdir)
shutil.rmtree(mk)
caps.append('pcie_flit.pcap')
scen = [l.split()[0] for l in subprocess.run([gen, '--list-scenarios'], capture_output=True, text=True,
                                             check=True).stdout.splitlines() if l.strip()]
for s in scen:
    name = 'gen-%s.pcap' % s
    subprocess.run([gen, '-s', s, '-c', '1200', '--seed', '7', '-w', os.path.join(capdir, name)], check=True,
                   stdout=subprocess.DEVNULL)
    caps.append(name)
with open(os.path.join(luadir, 'filters.lua'), 'w') as f:
    f.write('local filters = {\n')
    for flt in filters:
        assert ']==]' not in flt
        f.write('  [==[%s]==],\n' % flt)
    f.write('''}
for i, f in ipairs(filters) do
  local ok, l = pcall(Listener.new, nil, f)
  if ok then
    function l.packet(pinfo) io.write(i, " ", pinfo.number, "\\n") end
  else
    io.write("error ", i, "\\n")
  end
end
''')
for dp, dn, fn in os.walk(tmp):
    os.chmod(dp, 0o755)
    for x in fn:
        os.chmod(os.path.join(dp, x), 0o644)

as_nobody = [] if os.getuid() != 0 else ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups']
env = dict(os.environ, HOME=tmp, WIRESHARK_PLUGIN_DIR=plugdir)


def tshark(args):
    return subprocess.run(as_nobody + ['tshark'] + args, capture_output=True, env=env, cwd=capdir)


def ours(args):
    return subprocess.run([decode] + args, capture_output=True, cwd=capdir)


# The plugin must be loaded: a missing plugin is only a warning to tshark.
g = tshark(['-G', 'plugins']).stdout.decode()
if 'ualink.so' not in g:
    sys.exit('tshark did not load the plugin:\n' + g)

failures = checks = 0


def fail(msg):
    global failures
    failures += 1
    if failures <= 60:
        print('FAIL ' + msg)


def check(what, a, b):
    global checks
    checks += 1
    if a != b:
        fail('%s:\n  tshark %r\n  ours   %r' % (what, a, b))


# -G fields: our list is tshark's lines of the plugin's protocols, in order.
ours_protos = {'ualink', 'pcie', 'ub'}
def plugin_line(l):
    c = l.split('\t')
    return (c[0] == 'P' and c[-1] in ours_protos) or (c[0] == 'F' and len(c) > 4 and c[4] in ours_protos)
t = [l for l in tshark(['-G', 'fields']).stdout.decode().splitlines() if plugin_line(l)]
o = ours(['-G', 'fields']).stdout.decode().splitlines()
check('-G fields line count', len(t), len(o))
for a, b in zip(t, o):
    if a != b:
        check('-G fields', a, b)
        break

# Filters tshark rejects: the same exit status and message, caret included,
# after the program's name.
def rejection(r, prog):
    text = r.stderr.decode()
    return r.returncode, text[len(prog) + 2:] if text.startswith(prog + ': ') else text
nrej = 0
for flt in bad_filters:
    t = rejection(tshark(['-r', caps[0], '-Y', flt]), 'tshark')
    o = rejection(ours(['-Y', flt, caps[0]]), 'ualink-decode')
    if not dialect40:
        # 4.2 words its messages otherwise and accepts some of 4.0's errors:
        # what both reject, ours rejects too
        if t[0] == 2:
            check('-Y %r rejected (exit status)' % flt, t[0], o[0])
            nrej += 1
        continue
    if t[0] != 2:
        fail('tshark does not reject %r (errors.txt lists only filters it rejects)' % flt)
    check('-Y %r rejected' % flt, t, o)
    nrej += 1
print('%d rejected filters compared' % nrej)

eopts = [[], ['-E', 'header=y'], ['-E', 'header=n'], ['-E', 'separator=/s'], ['-E', 'separator=;'],
         ['-E', 'separator=/t'], ['-E', 'occurrence=f'], ['-E', 'occurrence=l'], ['-E', 'occurrence=a'],
         ['-E', 'aggregator=;'], ['-E', 'aggregator=/s'], ['-E', 'quote=d'], ['-E', 'quote=s'], ['-E', 'quote=n'],
         ['-E', 'header=y', '-E', 'quote=d', '-E', 'separator=,', '-E', 'occurrence=l']]
every_e = {'errors.pcap', 'violations.pcap', 'gen-all.pcap', 'gen-uart.pcap', 'pcie_flit.pcap'}
fargs = sum((['-e', f] for f in fields), [])
selected = {}
def compare_filters(cap, tshark_opts, our_opts, label):
    r = tshark(['-q', '-r', cap] + tshark_opts + ['-X', 'lua_script:' + os.path.join(luadir, 'filters.lua')])
    got = {i: [] for i in range(1, len(filters) + 1)}
    for l in r.stdout.decode().splitlines():
        k, v = l.split()
        if k == 'error':
            fail('%s: tshark rejects %r' % (cap, filters[int(v) - 1]))
        else:
            got[int(k)].append(int(v))
    for i, flt in enumerate(filters, 1):
        b = ours(our_opts + ['-Y', flt, '-T', 'fields', '-e', 'frame.number', cap])
        mine = [int(x) for x in b.stdout.split()]
        if b.returncode:
            fail('%s: %r: exit %d: %s' % (cap, flt, b.returncode, b.stderr.decode().strip()))
            continue
        check('%s%s: -Y %r frames' % (cap, label, flt), got[i], mine)
        selected[flt] = selected.get(flt, 0) + len(mine)


def compare_fields(cap, eo):
    a = tshark(['-r', cap, '-T', 'fields'] + fargs + eo)
    b = ours(['-T', 'fields'] + fargs + eo + [cap])
    what = '%s: -T fields %s' % (cap, ' '.join(eo))
    al, bl = a.stdout.decode().splitlines(), b.stdout.decode().splitlines()
    if not dialect40:
        al = [re.sub(r'\bFalse\b', '0', re.sub(r'\bTrue\b', '1', x)) for x in al]
    check(what + ' exit', a.returncode, b.returncode)
    check(what + ' lines', len(al), len(bl))
    for x, y in zip(al, bl):
        if x != y:
            check(what + ' first different line', x, y)
            break


for cap in caps:
    compare_filters(cap, [], [], '')
    if cap in every_e:   # the plugin without its analyzer is --stateless
        compare_filters(cap, ['-o', 'ualink.analyze:FALSE'], ['--stateless'], ' (stateless)')
    compare_fields(cap, [])
    print('%s: %d filters, %d fields compared' % (cap, len(filters), len(fields)))

# Every -E option on the every_e captures joined in one file (one tshark
# run an option, not one an option and capture): the records one after
# another, which both decode alike.
joined = 'every-e-joined.pcap'
subprocess.run([sys.executable, os.path.join(src, 'wireshark-plugin', 'tests', 'join_pcap.py'),
                os.path.join(capdir, joined)] + [os.path.join(capdir, c) for c in sorted(every_e)],
               check=True, stdout=subprocess.DEVNULL)
for eo in eopts:
    if not dialect40 and eo in (['-E', 'separator=/s'], ['-E', 'quote=s']):
        continue   # 4.2 escapes separators and quotes inside values; -T fields writes as 4.0 does
    compare_fields(joined, eo)
print('%s (%s): %d -E option sets compared' % (joined, ' '.join(sorted(every_e)), len(eopts)))

never = [f for f in filters if not selected.get(f)]
if never:
    print('filters that select nothing in any capture: %s' % never)
shutil.rmtree(tmp)
print('%d checks, %d failures' % (checks, failures))
sys.exit(1 if failures else 0)
