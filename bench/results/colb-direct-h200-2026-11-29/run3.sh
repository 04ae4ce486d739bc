# Third call: tools/device_run.sh (build, ctest -L gpu), memcheck of gpu_hrpb --quick, then
# colb.c against the old build (HEAD before the change, in .devbase) at n = 1-4, TF32 and
# FP32. Logs into $OUT/device-run.tgz and $OUT/colb3.tgz.
set -u
bash tools/device_run.sh
L=/tmp/colb-logs; rm -rf $L; mkdir -p $L
compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/tcspmm-build/tests/gpu_hrpb --quick > $L/memcheck-gpu_hrpb-quick.log 2>&1
echo "memcheck gpu_hrpb --quick: exit $?, $(grep 'ERROR SUMMARY' $L/memcheck-gpu_hrpb-quick.log | tail -1)"
D=bench/results/colb-direct-h200-2026-11-29
cmake -S .devbase -B /tmp/b-old -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-old.log 2>&1 && cmake --build /tmp/b-old --target tcspmm_static -j16 >> $L/build-old.log 2>&1 || { tail $L/build-old.log; exit 1; }
for v in old new; do
  lib=/tmp/b-old/libtcspmm.a; [ $v = new ] && lib=/tmp/tcspmm-build/libtcspmm.a
  gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $D/colb.c tools/families.c $lib -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/colb-$v || exit 1
done
for m in gen:stencil3d:100:100:100:7 gen:stencil3d:100:100:100:27 gen:stencil2d:1000:1000:5 \
         data/astro-ph.mtx.gz .devdata/hs/cnr-2000.mtx.gz .devdata/hs/pubmed.mtx.gz .devdata/hs/viscorocks.mtx.gz \
         .devdata/hs/cont-201.mtx.gz .devdata/hs/pkustk04.mtx.gz .devdata/hs/lp_nug30.mtx.gz .devdata/hs/mult_dcop_02.mtx.gz; do
  for n in 1 2 3 4; do for v in old new; do echo -n "$v "; /tmp/colb-$v $m $n; done; done
  for v in old new; do echo -n "$v "; /tmp/colb-$v $m 2 fp32; done
done > $L/colb3.txt 2>&1
tar czf $OUT/colb3.tgz -C $L .
echo "colb lines: $(wc -l < $L/colb3.txt)"
