# Call 2: parts.c with the split panels counted, with the default plan and with one made for
# one SM holding one block (NOSPLIT=1: no split panels). Logs into $OUT/call2.tgz.
set -u
L=/tmp/parts-logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build.log 2>&1 && cmake --build /tmp/b -j16 --target tcspmm_static >> $L/build.log 2>&1 || { tail -30 $L/build.log; exit 1; }
D=bench/results/colmajor-parts-h200-2026-11-29
gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $D/parts.c tools/families.c /tmp/b/libtcspmm.a -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/parts || exit 1
for m in .devdata/hs/cnr-2000.mtx.gz .devdata/hs/cont-201.mtx.gz gen:stencil2d:1000:1000:5 .devdata/hs/pkustk04.mtx.gz; do
  for ns in 0 1; do echo "NOSPLIT=$ns"; NOSPLIT=$ns /tmp/parts $m 32 128; done
done 2>&1 | tee $L/parts.txt
tar czf $OUT/call2.tgz -C $L .
