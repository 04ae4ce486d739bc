#!/usr/bin/env python3
"""test_sp24_ab_summary.py: tools/sp24_ab_summary.py on hand-made sp24_bench tables, without a
GPU. Rounds that only one variant ran (first, middle) are left out of the ratios, which pair
rounds by number; each variant's own mean covers all its rounds; --c16 reads the 16-bit C
column, for the cuSPARSELt ratios too, and leaves tf32 out; contenders that did not run (at
-1, as under --ours-only, in every round or in one) give no ratios to them, and there is no
cuSPARSELt-normalised ratio unless both variants have cuSPARSELt times in every shared round;
a variant sharing no round with the base says so. A missing argument, --c16 twice, an empty
directory, a base that is not a variant, a product listed twice in one table and a misnamed
file are refused with a message. Usage: test_sp24_ab_summary.py PATH/TO/sp24_ab_summary.py"""
import os
import subprocess
import sys
import tempfile

HEAD = ('| prec | M=K | N | ours 16-bit B | ours 16-bit B, C | ours fp32 B | mma.sp | cuSPARSELt '
        '| cuBLAS dense | HRPB | vs cuSPARSELt | vs cuSPARSELt, 16-bit C | vs cuBLAS | diff |\n'
        '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n')


def row(prec, n, ours16, ours16c, ours32, lt=-1.0, blas=-1.0):
    cells = [prec, '4096', str(n)] + ['%8.4f %6.1f' % (t, 1.0) for t in
                                      (ours16, ours16c, ours32, -1.0, lt, blas, -1.0)]
    return '| ' + ' | '.join(cells) + ' | 0.00 | 0.00 | 0.00 | nan |\n'


def write(directory, rnd, variant, rows, name=None):
    name = name or 'bench-r%d-x-%s.md' % (rnd, variant)
    with open(os.path.join(directory, name), 'w') as f:
        f.write('device: test\n\n' + HEAD + ''.join(rows))


def call(tool, *args):
    return subprocess.run([sys.executable, tool] + list(args), capture_output=True, text=True)


def run(tool, *args):
    got = call(tool, *args)
    return got.returncode, got.stdout


def refused(tool, why, *args):
    """Whether the tool exits non-zero with `why` in its message."""
    got = call(tool, *args)
    return got.returncode != 0 and why in got.stderr


def line_of(out, start):
    lines = [l for l in out.splitlines() if l.startswith(start)]
    return lines[0] if len(lines) == 1 else ''


def main():
    tool = sys.argv[1]
    failures = 0

    def check(what, ok):
        nonlocal failures
        print('%s: %s' % ('ok' if ok else 'FAILED', what))
        failures += not ok

    with tempfile.TemporaryDirectory() as d:
        # --ours-only. fp16, 16-bit B: base 1.0, 5.0, 1.2 ms in rounds 1-3; new 0.8 and 1.0 in
        # rounds 1 and 3 (not 2). 16-bit C: base 2.0, new 4.0. tf32 (fp32 B): 3.0 in both.
        for rnd, b16 in ((1, 1.0), (2, 5.0), (3, 1.2)):
            write(d, rnd, 'base', [row('fp16', 512, b16, 2.0, 9.0), row('tf32', 512, -1, -1, 3.0)])
        for rnd, n16 in ((1, 0.8), (3, 1.0)):
            write(d, rnd, 'new', [row('fp16', 512, n16, 4.0, 9.0), row('tf32', 512, -1, -1, 3.0)])
            write(d, rnd, 'full', [row('fp16', 512, n16, 4.0, 9.0, 2.0, 3.0)])
        rc, out = run(tool, d, 'base')
        fp16 = line_of(out, 'fp16 4096 x 512')
        check('runs, one fp16 line', rc == 0 and fp16 != '')
        check('each variant\'s mean over all its rounds', 'base 2.4000 ms' in fp16 and
              'new 0.9000 ms' in fp16)
        check('ratio over rounds 1 and 3, paired by number: 2.2 / 1.8',
              'base/new time 1.222 (rounds 1.200-1.250)' in fp16)
        parts = fp16.split(': ', 1)[-1].split(' | ')
        check('no cuSPARSELt or cuBLAS ratios from --ours-only', len(parts) == 5 and all(
            x not in p for p in parts if not p.startswith('full') for x in ('vs ', 'Lt-norm')))
        check('no cuSPARSELt-normalised ratio where only the variant has cuSPARSELt',
              'base/full time 1.222 (rounds 1.200-1.250)' in parts)
        check('tf32 reads fp32 B', 'tf32 4096 x 512: base 3.0000 ms' in out)
        rc, out = run(tool, d, 'base', '--c16')
        fp16 = line_of(out, 'fp16 4096 x 512')
        check('--c16: the 16-bit C column', rc == 0 and
              'base/new time 0.500 (rounds 0.500-0.500)' in fp16)
        check('--c16: tf32 left out', rc == 0 and fp16 != '' and 'tf32' not in out)
        rc2, out2 = run(tool, '--c16', d, 'base')
        check('--c16 first reads the same', rc2 == 0 and out2 == out)
        check('--c16 twice is refused', refused(tool, 'DIR BASE', d, 'base', '--c16', '--c16'))
        check('a missing argument is refused', refused(tool, 'DIR BASE', d))
        check('a base that is not a variant is refused', refused(tool, 'no variant old', d, 'old'))
    with tempfile.TemporaryDirectory() as d:
        # Full tables. bf16, 16-bit B: base 1.0, 1.0, 2.0 ms in rounds 1-3 (cuSPARSELt 2, 2,
        # 8; cuBLAS 3), new 0.5 and 1.0 in rounds 2 and 3 (cuSPARSELt 2 and 8). 16-bit C:
        # base 2.0, new 1.0. "late" ran round 9 only; "plain" has no cuSPARSELt times.
        for rnd, b16, lt in ((1, 1.0, 2.0), (2, 1.0, 2.0), (3, 2.0, 8.0)):
            write(d, rnd, 'base', [row('bf16', 64, b16, 2.0, 1.0, lt, 3.0)])
        for rnd, n16, lt in ((2, 0.5, 2.0), (3, 1.0, 8.0)):
            write(d, rnd, 'new', [row('bf16', 64, n16, 1.0, 1.0, lt, 3.0)])
            write(d, rnd, 'plain', [row('bf16', 64, n16, 1.0, 1.0)])
        write(d, 2, 'mixed', [row('bf16', 64, 0.5, 1.0, 1.0, 2.0, 3.0)])
        write(d, 3, 'mixed', [row('bf16', 64, 1.0, 1.0, 1.0, -1.0, 3.0)])
        write(d, 9, 'late', [row('bf16', 64, 1.0, 1.0, 1.0, 2.0, 3.0)])
        rc, out = run(tool, d, 'base')
        bf16 = line_of(out, 'bf16 4096 x 64')
        check('full tables: ratios to cuSPARSELt and cuBLAS per round',
              rc == 0 and 'new 0.7500 ms, vs Lt 4.00/8.00, vs BLAS 6.000/3.000' in bf16)
        check('cuSPARSELt-normalised ratio over rounds 2 and 3: 6 / 3',
              'base/new time 2.000 (rounds 2.000-2.000), Lt-norm 2.000' in bf16)
        check('no cuSPARSELt-normalised ratio where one variant lacks cuSPARSELt',
              'base/plain time 2.000 (rounds 2.000-2.000) |' in bf16 or
              bf16.endswith('base/plain time 2.000 (rounds 2.000-2.000)'))
        check('a variant sharing no round with the base', 'base/late: no round ran both' in bf16)
        check('no cuSPARSELt ratios where a round lacks them',
              'mixed 0.7500 ms, vs BLAS 6.000/3.000 |' in bf16 and
              'base/mixed time 2.000 (rounds 2.000-2.000) |' in bf16)
        rc, out = run(tool, d, 'base', '--c16')
        check('--c16: cuSPARSELt ratios against the 16-bit C column',
              rc == 0 and 'new 1.0000 ms, vs Lt 2.00/8.00' in out)
    with tempfile.TemporaryDirectory() as d:
        check('an empty directory is refused', refused(tool, 'no sp24_bench tables', d, 'base'))
        write(d, 1, 'base', [row('bf16', 64, 1.0, 1.0, 1.0)] * 2)
        check('a product twice in one table is refused', refused(tool, 'twice', d, 'base'))
    with tempfile.TemporaryDirectory() as d:
        write(d, 1, 'base', [row('bf16', 64, 1.0, 1.0, 1.0)])
        write(d, 1, 'base', [row('bf16', 64, 1.0, 1.0, 1.0)], name='bench-r1-x-a-b.md')
        check('a misnamed file is refused', refused(tool, 'bench-r1-x-a-b.md', d, 'base'))
    print('%d failed' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
