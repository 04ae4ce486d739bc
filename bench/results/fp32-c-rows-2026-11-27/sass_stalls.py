"""sass_stalls.py: for each hrpb_tf32_kernel in a cuobjdump -sass listing,
the instructions of its main loop (the shortest backward branch around all
its HMMAs) and the sum of the stall counts their control codes give (bits
41-44 of each instruction's second word): a static measure of how tightly
the compiler scheduled the loop, not a time.
    cuobjdump -sass hrpb_tf32.cubin > k.sass; python3 sass_stalls.py k.sass"""
import re
import sys


def kernels(path):
    found, name, last = {}, None, None
    for line in open(path):
        m = re.match(r'\s+Function : (\S+)', line)
        if m:
            name = m.group(1)
            found[name] = []
            continue
        if name is None:
            continue
        m = re.search(r'/\*([0-9a-f]{4,5})\*/\s+(.*?);\s*/\* (0x[0-9a-f]+) \*/', line)
        if m:
            last = [int(m.group(1), 16), m.group(2).strip(), None]
            found[name].append(last)
            continue
        m = re.match(r'\s+/\* (0x[0-9a-f]+) \*/', line)
        if m and last and last[2] is None:
            last[2] = int(m.group(1), 16)
    return found


for name, code in kernels(sys.argv[1]).items():
    if 'hrpb_tf32_kernel' not in name:
        continue
    mma = [at for at, text, _ in code if 'HMMA' in text]
    loop = None
    for at, text, _ in code:
        m = re.search(r'BRA\s+0x([0-9a-f]+)', text)
        if m and int(m.group(1), 16) <= mma[0] and at >= mma[-1]:
            if loop is None or at - int(m.group(1), 16) < loop[1] - loop[0]:
                loop = (int(m.group(1), 16), at)
    body = [hi for at, _, hi in code if loop[0] <= at <= loop[1]]
    args = re.search(r'kernelI(.*?)EEv', name).group(1)
    print(args, 'instructions', len(body), 'stalls', sum(hi >> 41 & 0xf for hi in body))
