#!/usr/bin/env python3
"""sp24_ab_summary.py: the summary of an A/B of tools/sp24_bench runs.

Reads DIR/bench-r<round>-<type>-<variant>.md (one sp24_bench table per
process; variant e.g. old, new, mode0) and prints, per (type, M = K, N), for
each variant: ours' mean time over rounds (16-bit B; tf32: fp32 B),
time(cuSPARSELt)/time(ours) and time(cuBLAS)/time(ours) per round; then for
each other variant against BASE the ratio of mean times (> 1: the variant
is faster) and of mean cuSPARSELt ratios (cuSPARSELt, timed in the same
process, takes out clock drift between processes).

  sp24_ab_summary.py DIR BASE
"""
import collections
import glob
import os
import re
import sys

# sp24_bench's table columns (after splitting on '|')
PREC, M, N, OURS16, OURS32, LT, BLAS = 1, 2, 3, 4, 6, 8, 9


def ms(cell):
    return float(cell.split()[0])


def load(directory):
    runs = collections.defaultdict(lambda: collections.defaultdict(list))
    for path in sorted(glob.glob(os.path.join(directory, 'bench-r*-*-*.md'))):
        variant = re.match(r'bench-r\d+-\w+?-(\w+)\.md$', os.path.basename(path)).group(1)
        for line in open(path):
            c = [x.strip() for x in line.split('|')]
            if len(c) < 14 or c[PREC] not in ('bf16', 'fp16', 'tf32'):
                continue
            ours = ms(c[OURS32 if c[PREC] == 'tf32' else OURS16])
            runs[(c[PREC], int(c[M]), int(c[N]))][variant].append(
                (ours, ms(c[LT]) / ours, ms(c[BLAS]) / ours))
    return runs


def mean(rows, i):
    return sum(r[i] for r in rows) / len(rows)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    base = sys.argv[2]
    for key, variants in sorted(load(sys.argv[1]).items()):
        parts = ['%s %.4f ms, vs Lt %s, vs BLAS %s' % (
            v, mean(r, 0), '/'.join('%.2f' % x[1] for x in r),
            '/'.join('%.3f' % x[2] for x in r)) for v, r in sorted(variants.items())]
        if base in variants:
            b = variants[base]
            parts += ['%s/%s time %.3f, Lt-norm %.3f' % (
                base, v, mean(b, 0) / mean(r, 0), mean(r, 1) / mean(b, 1))
                for v, r in sorted(variants.items()) if v != base]
        print('%s %d x %d: %s' % (key[0], key[1], key[2], ' | '.join(parts)))


if __name__ == '__main__':
    main()
