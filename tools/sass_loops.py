#!/usr/bin/env python3
"""sass_loops.py: the length of each HRPB kernel's block loop, read from its SASS, without a GPU.

    python3 tools/sass_loops.py src/kernels/hrpb_kernels_tf32.cu [--arch sm_90] [--nvdisasm PATH]

Reads the file's SASS (sass_build.py: nvcc -O3 to a cubin, disassembled by nvdisasm) and
prints, per kernel instance (its template arguments):
its instructions, those of the innermost loop around all its HMMAs (the loop over a panel's
blocks), and its local-memory spill instructions (STL/LDL), in all and inside that loop.
An epilogue change that lengthens the block loop (ptxas recomputing addresses under a register
cap) can cost time where nothing else changed: bench/results/colmajor-parts-h200-2026-11-29/.
"""
import argparse
import re
import sys

import sass_build


def kernels(sass):
    """{template arguments: (instructions, {label: index})} of each hrpb_tf32_kernel."""
    found, cur = {}, None
    for line in sass.splitlines():
        m = re.match(r'^\.text\._Z16hrpb_tf32_kernelI(\w+?)EEvPK.*:$', line)
        if m:
            cur = found.setdefault(m.group(1), ([], {}))
            continue
        if cur is None:
            continue
        if re.match(r'^\.text\..*:$', line):
            cur = None
            continue
        ins, labels = cur
        m = re.match(r'^(\.L_x_\d+):', line.strip())
        if m:
            labels[m.group(1)] = len(ins)
            continue
        m = re.search(r'/\*[0-9a-f]+\*/\s+(.*?);', line)
        if m:
            ins.append(m.group(1))
    return found


def block_loop(ins, labels):
    """(first, last) index of the innermost backward branch's loop around every HMMA, or None."""
    mma = [i for i, x in enumerate(ins) if 'HMMA' in x]
    if not mma:
        return None
    loops = []
    for i, x in enumerate(ins):
        m = re.search(r'BRA.*`\((\.L_x_\d+)\)', x)
        if m and labels.get(m.group(1), i + 1) <= i:
            loops.append((labels[m.group(1)], i))
    around = [(a, b) for a, b in loops if a <= mma[0] and b >= mma[-1]]
    return min(around, key=lambda ab: ab[1] - ab[0]) if around else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('source')
    ap.add_argument('--arch', default='sm_90')
    ap.add_argument('--nvdisasm', default=None)
    a = ap.parse_args()
    nvdisasm = sass_build.find_nvdisasm(a.nvdisasm)
    if nvdisasm is None:
        sys.exit('sass_loops: no nvdisasm (pip install nvidia-cuda-nvdisasm)')
    sass, _ = sass_build.cubin_sass(a.source, a.arch, nvdisasm)
    found = kernels(sass)
    if not found:
        sys.exit('sass_loops: no hrpb_tf32_kernel in ' + a.source)
    print('%-34s %7s %10s %7s %14s' % ('<TM,WARPS,STAGES,VEC,SPLIT,BK,CK>', 'instrs',
                                       'block loop', 'spills', 'spills in loop'))
    for mangled, (ins, labels) in sorted(found.items()):
        name = '<%s>' % ','.join(v for _, v in re.findall(r'L([ib])(\d+)E', mangled + 'E'))
        loop = block_loop(ins, labels)
        spills = [i for i, x in enumerate(ins) if re.search(r'\b(STL|LDL)\b', x)]
        inside = [i for i in spills if loop and loop[0] <= i <= loop[1]]
        print('%-34s %7d %10s %7d %14d' % (name, len(ins), loop[1] - loop[0] if loop else '-',
                                           len(spills), len(inside)))


if __name__ == '__main__':
    main()
