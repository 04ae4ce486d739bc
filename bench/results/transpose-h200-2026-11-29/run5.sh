# Call 5: the small matrices at small n again (call 3 and 4 had astro-ph at n = 16 0.955x-0.982x),
# the same tree as call 4 against 378d659 (.devbase): parts.c at n = 8, 16, 32 on astro-ph,
# viscorocks, cont-201 and pkustk04, three rounds, old first in rounds 1 and 3 and new first
# in round 2. Logs into $OUT/call5.tgz.
set -u
L=/tmp/tlogs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
P=bench/results/colmajor-parts-h200-2026-11-29
(cmake -S .devbase -B /tmp/b-old -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-old.log 2>&1 && cmake --build /tmp/b-old --target tcspmm_static -j8 >> $L/build-old.log 2>&1) &
(cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-new.log 2>&1 && cmake --build /tmp/b --target tcspmm_static -j8 >> $L/build-new.log 2>&1) &
wait
for v in old new; do
  lib=/tmp/b/libtcspmm.a; [ $v = old ] && lib=/tmp/b-old/libtcspmm.a
  gcc -O2 -fopenmp -std=c11 -Iinclude -Isrc -Itools -isystem /usr/local/cuda/include $P/parts.c tools/families.c $lib -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/parts-$v || { tail -20 $L/build-$v.log; exit 1; }
done
for r in 1 2 3; do
  order="old new"; [ $r = 2 ] && order="new old"
  for m in data/astro-ph.mtx.gz .devdata/cm/viscorocks.mtx.gz .devdata/cm/cont-201.mtx.gz .devdata/cm/pkustk04.mtx.gz; do
    for v in $order; do echo "$v tf32"; /tmp/parts-$v $m 8 16 32 | grep -v vpanels; done
  done > $L/parts-$r.txt 2>&1
  python3 $P/summarize.py $L/parts-$r.txt | tail -3
done
tar czf $OUT/call5.tgz -C $L .
