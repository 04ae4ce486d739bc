# Call 4: the rule that keeps four elements a thread where eight would make under two waves of
# resident transpose blocks, against 378d659 (.devbase), each library in turn: parts.c at
# n = 16, 48, 64, 100 on the four smaller matrices (TF32); then ctest -L gpu on the new tree.
# Logs into $OUT/call4.tgz.
set -u
L=/tmp/tlogs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
P=bench/results/colmajor-parts-h200-2026-11-29
(cmake -S .devbase -B /tmp/b-old -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-old.log 2>&1 && cmake --build /tmp/b-old --target tcspmm_static -j6 >> $L/build-old.log 2>&1) &
(cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-new.log 2>&1 && cmake --build /tmp/b -j10 >> $L/build-new.log 2>&1) &
wait
for v in old new; do
  lib=/tmp/b/libtcspmm.a; [ $v = old ] && lib=/tmp/b-old/libtcspmm.a
  gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $P/parts.c tools/families.c $lib -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/parts-$v || { tail -20 $L/build-$v.log; exit 1; }
done
for m in .devdata/cm/cnr-2000.mtx.gz .devdata/cm/cont-201.mtx.gz .devdata/cm/pkustk04.mtx.gz data/astro-ph.mtx.gz; do
  for v in new old; do echo "$v tf32"; /tmp/parts-$v $m 16 48 64 100 | grep -v vpanels; done
done > $L/parts.txt 2>&1
python3 $P/summarize.py $L/parts.txt | tail -5
TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=8 ctest --test-dir /tmp/b -L gpu -j3 --output-on-failure > $L/ctest.log 2>&1; grep -E "tests passed|Failed|\*\*\*" $L/ctest.log | head
tar czf $OUT/call4.tgz -C $L .
