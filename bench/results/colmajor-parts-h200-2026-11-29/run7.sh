# Call 7: row-major products with 16-byte B copies whose last N tile is partly empty (n = 68,
# 132; ldb = ldc = n), and column-major ones at n = 68, 96, against 8d708ac (.devbase), same
# code as call 6. Logs into $OUT/call7.tgz.
set -u
L=/tmp/parts-logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
D=bench/results/colmajor-parts-h200-2026-11-29
(cmake -S .devbase -B /tmp/b-old -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-old.log 2>&1 && cmake --build /tmp/b-old --target tcspmm_static -j8 >> $L/build-old.log 2>&1) &
(cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-new.log 2>&1 && cmake --build /tmp/b --target tcspmm_static -j8 >> $L/build-new.log 2>&1) &
wait
for v in old new; do
  lib=/tmp/b/libtcspmm.a; [ $v = old ] && lib=/tmp/b-old/libtcspmm.a
  gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $D/parts.c tools/families.c $lib -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/parts-$v || { tail -20 $L/build-$v.log; exit 1; }
done
for m in gen:stencil2d:1000:1000:5 .devdata/cm/cnr-2000.mtx.gz .devdata/cm/pkustk04.mtx.gz .devdata/cm/viscorocks.mtx.gz; do
  for r in 1 2; do for v in old new; do echo "$v tf32"; /tmp/parts-$v $m 68 96 132 | grep -v vpanels; done; done
done > $L/parts.txt 2>&1
python3 $D/summarize.py $L/parts.txt | tail -3
python3 - $L/parts.txt <<'PY'
import re, sys, collections
d = collections.defaultdict(lambda: collections.defaultdict(list)); v = None
for l in open(sys.argv[1]):
    m = re.match(r'(old|new) ', l)
    if m: v = m.group(1)
    m = re.search(r'(\S+)\s+ldc\+\d n=(\d+)\s+rm ([\d.]+)\s+cm ([\d.]+)', l)
    if m: d[(int(m.group(2)), m.group(1)[-20:])][v].append((float(m.group(3)), float(m.group(4))))
for k in sorted(d):
    o, n = d[k]['old'], d[k]['new']
    print(k, 'rm old/new', ' '.join('%.3f' % (a[0] / b[0]) for a, b in zip(o, n)), '| cm', ' '.join('%.3f' % (a[1] / b[1]) for a, b in zip(o, n)))
PY
tar czf $OUT/call7.tgz -C $L .
