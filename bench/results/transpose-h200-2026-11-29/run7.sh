# Call 7 (prepared for the next session, not run): at the current commit, ctest -L gpu (with
# gpu_colmajor_scratch's checks at n = 4, 12, 100 from 4aaed02), compute-sanitizer memcheck of
# gpu_hrpb --quick and of gpu_colmajor_scratch (at most 300 s), racecheck of gpu_hrpb --quick;
# then FP32 mode's column-major products at n = 64, 100, 128 against 378d659 (.devbase =
# git archive 378d659 without bench/results; .devdata/cm carried), each library in turn.
# Logs into $OUT/call7.tgz.
set -u
L=/tmp/tlogs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
P=bench/results/colmajor-parts-h200-2026-11-29
(cmake -S .devbase -B /tmp/b-old -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-old.log 2>&1 && cmake --build /tmp/b-old --target tcspmm_static -j5 >> $L/build-old.log 2>&1) &
(cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-new.log 2>&1 && cmake --build /tmp/b -j11 >> $L/build-new.log 2>&1) &
wait
TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=8 ctest --test-dir /tmp/b -L gpu -j3 --output-on-failure > $L/ctest.log 2>&1; grep -E "tests passed|Failed|\*\*\*" $L/ctest.log | head
for t in "memcheck gpu_hrpb --quick" "racecheck gpu_hrpb --quick" "memcheck gpu_colmajor_scratch"; do
  set -- $t; log=$L/sanitizer-$1-$2.log
  timeout 300 compute-sanitizer --tool $1 --error-exitcode 9 /tmp/b/tests/$2 ${3:-} > $log 2>&1
  echo "compute-sanitizer $t: exit $?, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $log | tail -1)"
done
for v in old new; do
  lib=/tmp/b/libtcspmm.a; [ $v = old ] && lib=/tmp/b-old/libtcspmm.a
  gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $P/parts.c tools/families.c $lib -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/parts-$v || { tail -20 $L/build-$v.log; exit 1; }
done
for m in gen:stencil2d:1000:1000:5 .devdata/cm/cnr-2000.mtx.gz .devdata/cm/cont-201.mtx.gz; do
  for v in new old; do echo "$v fp32"; FP32=1 /tmp/parts-$v $m 64 100 128 | grep -v vpanels; done
done > $L/parts.txt 2>&1
python3 $P/summarize.py $L/parts.txt | tail -3
tar czf $OUT/call7.tgz -C $L .
