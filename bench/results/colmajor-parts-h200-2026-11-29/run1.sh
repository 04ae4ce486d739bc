# Call 1: build, then parts.c over six matrices at N = 8-128. Logs into $OUT/call1.tgz.
set -u
L=/tmp/parts-logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build.log 2>&1 && cmake --build /tmp/b -j16 --target tcspmm_static >> $L/build.log 2>&1 || { tail -30 $L/build.log; exit 1; }
D=bench/results/colmajor-parts-h200-2026-11-29
gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $D/parts.c tools/families.c /tmp/b/libtcspmm.a -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/parts || exit 1
for m in gen:stencil3d:100:100:100:7 gen:stencil2d:1000:1000:5 .devdata/hs/cnr-2000.mtx.gz .devdata/hs/cont-201.mtx.gz .devdata/hs/pkustk04.mtx.gz data/astro-ph.mtx.gz; do
  /tmp/parts $m 8 16 32 64 128
done 2>&1 | tee $L/parts.txt
tar czf $OUT/call1.tgz -C $L .
