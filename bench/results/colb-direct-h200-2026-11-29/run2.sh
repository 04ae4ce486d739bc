# Second call: the old direct gather (HEAD, .devbase) against the new by-column one at small N,
# both against the transpose, on the same matrices. Logs into $OUT/colb2.tgz.
set -u
L=/tmp/colb-logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
D=bench/results/colb-direct-h200-2026-11-29
for v in old new; do
  src=.; [ $v = old ] && src=.devbase
  (cmake -S $src -B /tmp/b-$v -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-$v.log 2>&1 && cmake --build /tmp/b-$v --target tcspmm_static -j16 >> $L/build-$v.log 2>&1) &
done; wait
for v in old new; do
  gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $D/colb.c tools/families.c /tmp/b-$v/libtcspmm.a -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/colb-$v || { tail $L/build-$v.log; exit 1; }
done
for m in gen:stencil3d:100:100:100:7 gen:stencil3d:100:100:100:27 gen:stencil2d:1000:1000:5 \
         data/astro-ph.mtx.gz .devdata/hs/cnr-2000.mtx.gz .devdata/hs/pubmed.mtx.gz .devdata/hs/viscorocks.mtx.gz \
         .devdata/hs/cont-201.mtx.gz .devdata/hs/pkustk04.mtx.gz .devdata/hs/lp_nug30.mtx.gz .devdata/hs/mult_dcop_02.mtx.gz; do
  for n in 1 2 4 8; do for v in old new; do echo -n "$v "; /tmp/colb-$v $m $n; done; done
done 2>&1 | tee $L/colb2.txt | awk '{print $1,$2,$3,$6,$9,$12,$14}'
tar czf $OUT/colb2.tgz -C $L .
