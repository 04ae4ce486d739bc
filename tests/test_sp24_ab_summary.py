#!/usr/bin/env python3
"""test_sp24_ab_summary.py: tools/sp24_ab_summary.py on hand-made sp24_bench tables, without a
GPU. Two variants over three rounds, one of which only the base ran: the ratio of mean times
and its range cover the two rounds both ran; --c16 reads the 16-bit C column and leaves tf32
out; tables from --ours-only (cuSPARSELt and cuBLAS at -1) give no ratios to them, full ones
do. Usage: test_sp24_ab_summary.py PATH/TO/sp24_ab_summary.py"""
import os
import subprocess
import sys
import tempfile

HEAD = ('| prec | M=K | N | ours 16-bit B | ours 16-bit B, C | ours fp32 B | mma.sp | cuSPARSELt '
        '| cuBLAS dense | HRPB | vs cuSPARSELt | vs cuSPARSELt, 16-bit C | vs cuBLAS | diff |\n'
        '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n')


def row(prec, n, ours16, ours16c, ours32, lt, blas):
    cells = [prec, '4096', str(n)] + ['%8.4f %6.1f' % (t, 1.0) for t in
                                      (ours16, ours16c, ours32, -1.0, lt, blas, -1.0)]
    return '| ' + ' | '.join(cells) + ' | 0.00 | 0.00 | 0.00 | nan |\n'


def write(directory, rnd, variant, rows):
    with open(os.path.join(directory, 'bench-r%d-x-%s.md' % (rnd, variant)), 'w') as f:
        f.write('device: test\n\n' + HEAD + ''.join(rows))


def run(tool, *args):
    got = subprocess.run([sys.executable, tool] + list(args), capture_output=True, text=True)
    return got.returncode, got.stdout


def main():
    tool = sys.argv[1]
    failures = 0

    def check(what, ok):
        nonlocal failures
        print('%s: %s' % ('ok' if ok else 'FAILED', what))
        failures += not ok

    with tempfile.TemporaryDirectory() as d:
        # ours-only: base 1.0 and 1.2 ms (16-bit B) in rounds 1 and 2, 5.0 in round 3 (new did not
        # run); new 0.8 and 1.0. 16-bit C: base 2.0 and 2.0, new 4.0 and 4.0. tf32 (fp32 B) 3 and 3.
        for rnd, b16, n16 in ((1, 1.0, 0.8), (2, 1.2, 1.0)):
            write(d, rnd, 'base', [row('fp16', 512, b16, 2.0, 9.0, -1, -1),
                                   row('tf32', 512, -1, -1, 3.0, -1, -1)])
            write(d, rnd, 'new', [row('fp16', 512, n16, 4.0, 9.0, -1, -1),
                                  row('tf32', 512, -1, -1, 3.0, -1, -1)])
        write(d, 3, 'base', [row('fp16', 512, 5.0, 2.0, 9.0, -1, -1)])
        rc, out = run(tool, d, 'base')
        check('runs', rc == 0)
        fp16 = [l for l in out.splitlines() if l.startswith('fp16 4096 x 512')]
        check('one fp16 line', len(fp16) == 1)
        check('base mean over its three rounds', fp16 and 'base 2.4000 ms' in fp16[0])
        check('ratio over the two rounds both ran: 2.2 / 1.8',
              fp16 and 'base/new time 1.222 (rounds 1.200-1.250)' in fp16[0])
        check('no cuSPARSELt or cuBLAS ratios from --ours-only',
              fp16 and 'vs Lt' not in fp16[0] and 'Lt-norm' not in fp16[0])
        check('tf32 reads fp32 B', 'tf32 4096 x 512: base 3.0000 ms' in out)
        rc, out = run(tool, d, 'base', '--c16')
        check('--c16: the 16-bit C column', rc == 0 and 'base/new time 0.500 (rounds 0.500-0.500)'
              in out)
        check('--c16: tf32 left out', 'tf32' not in out)
    with tempfile.TemporaryDirectory() as d:
        write(d, 1, 'base', [row('bf16', 64, 1.0, 1.0, 1.0, 2.0, 3.0)])
        write(d, 1, 'new', [row('bf16', 64, 0.5, 1.0, 1.0, 2.0, 3.0)])
        rc, out = run(tool, d, 'base')
        check('full tables: ratios to cuSPARSELt and cuBLAS',
              rc == 0 and 'new 0.5000 ms, vs Lt 4.00, vs BLAS 6.000' in out and
              'Lt-norm 2.000' in out)
        rc, _ = run(tool, d)
        check('a missing argument is refused', rc != 0)
    print('%d failed' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
