#!/usr/bin/env bash
# The SASS figures of this folder's README and of bench/NOTES.md's session-64 section,
# without a GPU: the structured kernel compiled by each commit's tools/sass_build.py (nvcc
# -O3 -DNDEBUG -arch=sm_90a, that commit's include paths, nvdisasm -c) at b122688 (whose
# kernel is ba8dfe9's), e1bc7cd (e0 and e1 in the unit loop) and e5a50fc (a 16-bit C in whole
# rows, reverted); tools/check_meta_regs.py (this tree's) and ptxas's C7513 messages for each;
# per kernel, whether b122688 -> e1bc7cd left the SASS the same (label numbers and constants
# aside) and its local loads and stores before and after; whether e1bc7cd -> e5a50fc left
# the float-C kernels the same; and the opcodes whose counts differ between the float-C and
# 16-bit-C kernels of fp16's 128 x 128 tile. Run from the repository root; prints the record.
#   NVDISASM=/path/to/nvdisasm bash bench/results/sp24-unit-words-2026-11-30/sass_record.sh
set -u
T=$(mktemp -d); ND=${NVDISASM:-nvdisasm}
K=src/kernels/sp24_wgmma.cu
nvcc --version | tail -1
for v in b122688 e1bc7cd e5a50fc; do
  mkdir -p $T/$v && git archive $v include src tools | tar -x -C $T/$v
  python3 -c "import sys; sys.path.insert(0, '$T/$v/tools'); import sass_build
sass, messages = sass_build.cubin_sass('$T/$v/$K', 'sm_90a', '$ND')
open('$T/$v/k.sass', 'w').write(sass); open('$T/$v/msgs.txt', 'w').write(messages)" &
  [ $v = e1bc7cd ] && wait
done
wait
for v in b122688 e1bc7cd e5a50fc; do
  echo "== $v: $(python3 tools/check_meta_regs.py --sass $T/$v/k.sass | tail -1);" \
    "C7513 messages: $(grep -c C7513 $T/$v/msgs.txt)"
done
python3 - $T <<'PY'
import collections, re, sys
T = sys.argv[1]

def functions(path):
    out, cur = {}, None
    for line in open(path):
        m = re.match(r'\s*\.text\.(\S+):', line)
        if m:
            cur = m.group(1)
            out[cur] = []
        elif cur:
            m = re.search(r'/\*[0-9a-f]{4,}\*/\s+(.*?);', line)
            if m:
                out[cur].append(m.group(1))
    return out

def plain(code):  # label numbers and constants aside
    return [re.sub(r'\.L_x_\d+', 'L', re.sub(r'0x[0-9a-f]+', 'X', x)) for x in code]

def tile(name):
    m = re.search(r'precision(\d)ELi(\d+)ELi(\d)ELi(\d)ELb(\d)ELi(\d)E(\w+?)Ev14', name)
    prec = {'0': 'tf32', '2': 'bf16', '3': 'fp16'}[m.group(1)]
    bn, mw, st, nm, cl, ct = m.group(2, 3, 4, 5, 6, 7)
    return '%s BN=%s MW=%s stages=%s B-in-place=%s CL=%s C=%s' % (
        prec, bn, mw, st, nm, cl, 'float' if ct == 'f' else '16-bit')

old, new, rows = (functions('%s/%s/k.sass' % (T, v)) for v in ('b122688', 'e1bc7cd', 'e5a50fc'))
local = lambda f, k: sum(1 for x in f[k] if 'STL' in x or 'LDL' in x)
print('b122688 -> e1bc7cd: SASS, local loads and stores before -> after')
for k in sorted(old, key=tile):
    print('  %-58s %-7s %2d -> %d' % (tile(k), 'same' if plain(old[k]) == plain(new[k])
                                      else 'differs', local(old, k), local(new, k)))
print('e1bc7cd -> e5a50fc: float-C kernels')
for k in sorted(new, key=tile):
    if tile(k).endswith('float'):
        print('  %-58s %s' % (tile(k), 'same' if plain(new[k]) == plain(rows[k]) else 'differs'))
pick = lambda ct: [k for k in new if 'precision3ELi128ELi1ELi4ELb1ELi1E' + ct in k][0]
count = lambda k: collections.Counter(re.sub(r'^@!?U?P\w+\s+', '', x).split()[0] for x in new[k])
f, h = count(pick('fE')), count(pick('6__half'))
print('e1bc7cd, fp16 128 x 128, B in place: opcodes whose counts differ, float C and 16-bit C')
for op in sorted(set(f) | set(h)):
    if f[op] != h[op]:
        print('  %-26s %4d %4d' % (op, f[op], h[op]))
PY
rm -rf $T
