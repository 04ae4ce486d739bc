#!/usr/bin/env python3
"""sp24_ab_summary.py: the summary of an A/B of tools/sp24_bench runs.

Reads DIR/bench-r<round>-<type>-<variant>.md (one sp24_bench table per
process; variant e.g. old, new, mode0) and prints, per (type, M = K, N), for
each variant: ours' mean time over that variant's rounds (16-bit B; tf32:
fp32 B; with --c16, 16-bit B and C, and the tf32 rows left out), and where
cuSPARSELt and cuBLAS ran (not under --ours-only) time(cuSPARSELt)/time(ours)
and time(cuBLAS)/time(ours) per round (under --c16, against ours' 16-bit C:
cuSPARSELt's C is 16-bit too, cuBLAS's float). Then, for each other variant
against BASE, over the rounds both ran: the ratio of their mean times (> 1:
the variant is faster), its lowest and highest single round, and where
cuSPARSELt ran, the ratio of mean cuSPARSELt ratios (cuSPARSELt, timed in the
same process, takes out clock drift between processes). A product listed
twice for one variant in one round, a file name of another form, no tables
or no BASE among the variants is an error.

  sp24_ab_summary.py DIR BASE [--c16]
"""
import collections
import glob
import os
import re
import sys

# sp24_bench's table columns (after splitting on '|')
PREC, M, N, OURS16, OURS16C, OURS32, LT, BLAS = 1, 2, 3, 4, 5, 6, 8, 9


def ms(cell):
    return float(cell.split()[0])


def load(directory, c16):
    """{(type, M, N): {variant: {round: (ours, Lt / ours or None, BLAS / ours or None)}}}"""
    runs = collections.defaultdict(lambda: collections.defaultdict(dict))
    for path in sorted(glob.glob(os.path.join(directory, 'bench-r*.md'))):
        got = re.match(r'bench-r(\d+)-\w+?-(\w+)\.md$', os.path.basename(path))
        if not got:
            sys.exit('sp24_ab_summary: %s is not bench-r<round>-<type>-<variant>.md' % path)
        rnd, variant = int(got.group(1)), got.group(2)
        for line in open(path):
            c = [x.strip() for x in line.split('|')]
            if len(c) < 14 or c[PREC] not in ('bf16', 'fp16', 'tf32'):
                continue
            if c16 and c[PREC] == 'tf32':
                continue
            ours = ms(c[OURS32 if c[PREC] == 'tf32' else OURS16C if c16 else OURS16])
            ratio = [ms(c[i]) / ours if ms(c[i]) > 0 else None for i in (LT, BLAS)]
            key = (c[PREC], int(c[M]), int(c[N]))
            if rnd in runs[key][variant]:
                sys.exit('sp24_ab_summary: %s %d x %d twice for %s in round %d (%s)' % (
                    key + (variant, rnd, path)))
            runs[key][variant][rnd] = (ours, ratio[0], ratio[1])
    return runs


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs)


def describe(variant, rounds):
    ours = mean(r[0] for r in rounds.values())
    text = '%s %.4f ms' % (variant, ours)
    for name, i, form in (('Lt', 1, '%.2f'), ('BLAS', 2, '%.3f')):
        if all(r[i] is not None for r in rounds.values()):
            text += ', vs %s %s' % (name, '/'.join(form % rounds[k][i] for k in sorted(rounds)))
    return text


def against(base, b, variant, r):
    both = sorted(set(b) & set(r))
    if not both:
        return '%s/%s: no round ran both' % (base, variant)
    per_round = [b[k][0] / r[k][0] for k in both]
    text = '%s/%s time %.3f (rounds %.3f-%.3f)' % (
        base, variant, mean(x[0] for x in b.values()) / mean(x[0] for x in r.values()),
        min(per_round), max(per_round))
    if all(x[k][1] is not None for x in (b, r) for k in both):
        text += ', Lt-norm %.3f' % (mean(r[k][1] for k in both) / mean(b[k][1] for k in both))
    return text


def main():
    args = [a for a in sys.argv[1:] if a != '--c16']
    if len(args) != 2 or sys.argv.count('--c16') > 1:
        sys.exit(__doc__)
    directory, base = args
    runs = load(directory, '--c16' in sys.argv)
    if not runs:
        sys.exit('sp24_ab_summary: no sp24_bench tables in %s' % directory)
    if not any(base in variants for variants in runs.values()):
        sys.exit('sp24_ab_summary: no variant %s in %s' % (base, directory))
    for key, variants in sorted(runs.items()):
        parts = [describe(v, r) for v, r in sorted(variants.items())]
        if base in variants:
            parts += [against(base, variants[base], v, r)
                      for v, r in sorted(variants.items()) if v != base]
        print('%s %d x %d: %s' % (key[0], key[1], key[2], ' | '.join(parts)))


if __name__ == '__main__':
    main()
