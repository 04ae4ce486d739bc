# Call 8 (run in the next session, 2026-11-29): write-out-loop.diff applied to the tree (git apply
# bench/results/colmajor-parts-h200-2026-11-29/write-out-loop.diff), against 8d708ac
# (.devbase = git archive 8d708ac): parts.c at n = 65 and 128 on three matrices; a bf16 B on
# HRPB (row-major, spmm_run --b-type bf16) at N = 64 and 128, each build in turn; then
# ctest -L gpu on the tree. Logs into $OUT/call8.tgz.
set -u
L=/tmp/parts-logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
D=bench/results/colmajor-parts-h200-2026-11-29
(cmake -S .devbase -B /tmp/b-old -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-old.log 2>&1 && cmake --build /tmp/b-old --target tcspmm_static spmm_run -j8 >> $L/build-old.log 2>&1) &
(cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-new.log 2>&1 && cmake --build /tmp/b -j10 >> $L/build-new.log 2>&1) &
wait
for v in old new; do
  lib=/tmp/b/libtcspmm.a; [ $v = old ] && lib=/tmp/b-old/libtcspmm.a
  gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $D/parts.c tools/families.c $lib -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/parts-$v || { tail -20 $L/build-$v.log; exit 1; }
done
for m in gen:stencil2d:1000:1000:5 .devdata/cm/pkustk04.mtx.gz .devdata/cm/cnr-2000.mtx.gz; do
  for v in new old; do echo "$v tf32"; LDC=1 /tmp/parts-$v $m 65 128 | grep -v vpanels; done
done > $L/parts.txt 2>&1
python3 $D/summarize.py $L/parts.txt | tail -3
for m in gen:stencil2d:1000:1000:5 .devdata/cm/pkustk04.mtx.gz .devdata/cm/cnr-2000.mtx.gz; do
  for n in 64 128; do for v in new old; do
    b=/tmp/b; [ $v = old ] && b=/tmp/b-old
    echo "$v $m $n $($b/spmm_run $m --n $n --path hrpb --b-type bf16 --bench --json 2>&1 | tail -1)"
  done; done
done > $L/bf16.txt 2>&1
TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=8 ctest --test-dir /tmp/b -L gpu -j3 --output-on-failure > $L/ctest.log 2>&1; grep -E "tests passed|Failed|\*\*\*" $L/ctest.log | head
tar czf $OUT/call8.tgz -C $L .
