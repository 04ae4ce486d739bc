# Call 9 (session 60): the landed fix (378d659) against 8d708ac (.devbase) in FP32 mode at
# n = 33, 48, 64 (two-warp blocks; FP32=1 parts.c), ldc = rows and rows + 1, each library in
# turn; rm (row-major) and cm (column-major) both printed. Then compute-sanitizer memcheck and
# racecheck of gpu_hrpb --quick and gpu_fp32 --quick on 378d659. Logs into $OUT/call9.tgz.
set -u
L=/tmp/parts-logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
D=bench/results/colmajor-parts-h200-2026-11-29
(cmake -S .devbase -B /tmp/b-old -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-old.log 2>&1 && cmake --build /tmp/b-old --target tcspmm_static -j6 >> $L/build-old.log 2>&1) &
(cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-new.log 2>&1 && cmake --build /tmp/b --target tcspmm_static gpu_hrpb gpu_fp32 -j10 >> $L/build-new.log 2>&1) &
wait
for v in old new; do
  lib=/tmp/b/libtcspmm.a; [ $v = old ] && lib=/tmp/b-old/libtcspmm.a
  gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $D/parts.c tools/families.c $lib -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/parts-$v || { tail -20 $L/build-$v.log; exit 1; }
done
for m in gen:stencil2d:1000:1000:5 .devdata/cm/cnr-2000.mtx.gz .devdata/cm/pkustk04.mtx.gz data/astro-ph.mtx.gz; do
  for k in 0 1; do for v in new old; do echo "$v fp32"; FP32=1 LDC=$k /tmp/parts-$v $m 33 48 64 | grep -v vpanels; done; done
done > $L/parts.txt 2>&1
python3 $D/summarize.py $L/parts.txt | tail -4
for tool in memcheck racecheck; do for t in "gpu_hrpb --quick" "gpu_fp32 --quick"; do
  log=$L/sanitizer-$tool-$(echo $t | tr -d ' -').log
  compute-sanitizer --tool $tool --error-exitcode 9 /tmp/b/tests/$t > $log 2>&1
  echo "compute-sanitizer $tool $t: exit $?, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $log | tail -1)"
done; done
tar czf $OUT/call9.tgz -C $L .
