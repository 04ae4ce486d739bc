# Call 4: the staged column-major epilogue (tree) against 8d708ac (.devbase): parts.c built
# on each library, in turn per matrix, leading dimensions rows (+ 0) and rows + 1; then
# spmm_run --bench with column-major B and C (new build), then ctest -L gpu on the new build.
# Logs into $OUT/call4.tgz.
set -u
L=/tmp/parts-logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
D=bench/results/colmajor-parts-h200-2026-11-29
(cmake -S .devbase -B /tmp/b-old -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-old.log 2>&1 && cmake --build /tmp/b-old --target tcspmm_static -j8 >> $L/build-old.log 2>&1) &
(cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-new.log 2>&1 && cmake --build /tmp/b -j12 >> $L/build-new.log 2>&1) &
wait
for v in old new; do
  lib=/tmp/b/libtcspmm.a; [ $v = old ] && lib=/tmp/b-old/libtcspmm.a
  gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $D/parts.c tools/families.c $lib -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/parts-$v || { tail -20 $L/build-$v.log; exit 1; }
done
for m in gen:stencil2d:1000:1000:5 gen:stencil3d:100:100:100:7 .devdata/cm/cnr-2000.mtx.gz .devdata/cm/cont-201.mtx.gz \
         .devdata/cm/pkustk04.mtx.gz .devdata/cm/viscorocks.mtx.gz data/astro-ph.mtx.gz; do
  for k in 0 1; do for v in old new; do echo -n "$v "; LDC=$k /tmp/parts-$v $m 1 2 4 16 64 128 | grep -v vpanels | sed '2,$s/^/    /'; done; done
done 2>&1 | tee $L/parts.txt | grep -E "n=(1|4|128) "
for m in .devdata/cm/cnr-2000.mtx.gz .devdata/cm/cont-201.mtx.gz gen:stencil2d:1001:1000:5; do
  for n in 16 128; do /tmp/b/spmm_run $m --n $n --layout col --path auto --bench --check --json >> $L/spmm_run.jsonl 2>> $L/spmm_run.err; done
done
python3 -c "
import json
for l in open('$L/spmm_run.jsonl'):
    try: r=json.loads(l)
    except Exception: continue
    print(r.get('file'), r.get('n'), r.get('path_run'), r.get('time_ms'), r.get('cusparse_ms'), r.get('speedup'), r.get('check_pass'), r.get('check_rel_err'))
" 2>&1 | tail -8
TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=8 ctest --test-dir /tmp/b -L gpu -j3 --output-on-failure > $L/ctest.log 2>&1; grep -E "tests passed|Failed|\*\*\*" $L/ctest.log | head
tar czf $OUT/call4.tgz -C $L .
