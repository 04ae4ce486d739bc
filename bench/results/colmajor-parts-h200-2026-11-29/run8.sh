# Call 8: the write-out rewritten so that the 4-warp kernels' block loop is as long as at
# 8d708ac again (tree), against 8d708ac (.devbase): parts.c at n = 65 and 128 on three
# matrices, then the GPU tests that run the HRPB kernel's epilogues. Logs into $OUT/call8.tgz.
set -u
L=/tmp/parts-logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
D=bench/results/colmajor-parts-h200-2026-11-29
(cmake -S .devbase -B /tmp/b-old -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-old.log 2>&1 && cmake --build /tmp/b-old --target tcspmm_static -j8 >> $L/build-old.log 2>&1) &
(cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-new.log 2>&1 && cmake --build /tmp/b -j10 --target tcspmm_static gpu_hrpb gpu_fp32 gpu_offset_operands gpu_16bit_operands >> $L/build-new.log 2>&1) &
wait
for v in old new; do
  lib=/tmp/b/libtcspmm.a; [ $v = old ] && lib=/tmp/b-old/libtcspmm.a
  gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $D/parts.c tools/families.c $lib -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/parts-$v || { tail -20 $L/build-$v.log; exit 1; }
done
for m in gen:stencil2d:1000:1000:5 .devdata/cm/pkustk04.mtx.gz .devdata/cm/cnr-2000.mtx.gz; do
  for v in new old; do echo "$v tf32"; LDC=1 /tmp/parts-$v $m 65 128 | grep -v vpanels; done
done > $L/parts.txt 2>&1
python3 $D/summarize.py $L/parts.txt | head -6
for t in gpu_hrpb gpu_fp32 gpu_offset_operands gpu_16bit_operands; do
  TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=8 timeout 60 /tmp/b/tests/$t > $L/$t.log 2>&1; echo "$t: exit $? $(tail -1 $L/$t.log)"
done
tar czf $OUT/call8.tgz -C $L .
