# Call 5: the staged column-major epilogue from n = 65 (tree) against 8d708ac (.devbase):
# parts.c built on each library, in turn per matrix, TF32 at n = 64-512 with leading
# dimensions rows (+ 0) and rows + 1, FP32 mode at 128 and 256; then the GPU tests of
# the HRPB kernel on the new build. Logs into $OUT/call5.tgz.
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
  for k in 0 1; do for v in old new; do echo "$v tf32"; LDC=$k /tmp/parts-$v $m 64 65 100 128 256 512 | grep -v vpanels; done; done
  for v in old new; do echo "$v fp32"; FP32=1 /tmp/parts-$v $m 128 256 | grep -v vpanels; done
done > $L/parts.txt 2>&1
TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=8 ctest --test-dir /tmp/b -j3 --output-on-failure -R "gpu_hrpb$|gpu_fp32|gpu_offset_operands|gpu_colmajor_scratch|gpu_lobpcg" > $L/ctest.log 2>&1; grep -E "tests passed|Failed|\*\*\*" $L/ctest.log | head
tar czf $OUT/call5.tgz -C $L .
