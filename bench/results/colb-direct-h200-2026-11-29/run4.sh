# Fourth call: with the rule at n <= 3, the HRPB GPU tests, and colb.c (this build only: in
# place against transposed) at n = 3 in FP32 and TF32. Logs into $OUT/colb4.tgz.
set -u
L=/tmp/colb-logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build.log 2>&1 && cmake --build /tmp/b -j16 >> $L/build.log 2>&1 || { tail -30 $L/build.log; exit 1; }
TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=8 ctest --test-dir /tmp/b -j3 --output-on-failure -R "gpu_hrpb$|gpu_fp32|gpu_lobpcg" > $L/ctest.log 2>&1; grep -E "tests passed|Failed" $L/ctest.log
D=bench/results/colb-direct-h200-2026-11-29
gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $D/colb.c tools/families.c /tmp/b/libtcspmm.a -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/colb || exit 1
for m in gen:stencil3d:100:100:100:7 gen:stencil3d:100:100:100:27 gen:stencil2d:1000:1000:5 \
         data/astro-ph.mtx.gz .devdata/hs/cnr-2000.mtx.gz .devdata/hs/pubmed.mtx.gz .devdata/hs/viscorocks.mtx.gz \
         .devdata/hs/cont-201.mtx.gz .devdata/hs/pkustk04.mtx.gz .devdata/hs/lp_nug30.mtx.gz .devdata/hs/mult_dcop_02.mtx.gz; do
  /tmp/colb $m 3 fp32; /tmp/colb $m 3
done > $L/colb4.txt 2>&1
tar czf $OUT/colb4.tgz -C $L .
awk '{print $1,$2,$3,$5,$8,$11,$13}' $L/colb4.txt
