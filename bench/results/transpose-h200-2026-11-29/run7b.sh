# Call 7b: call 7's timing half, mended. 73bba67 gave dense_transpose_to_row_major an SM-count
# argument, so parts.c is built against each tree's own headers, and for the new library from a copy
# that passes the plan's count (132 on an H200). Builds both libraries if the machine is bare.
set -u
L=/tmp/tlogs7b; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: ${COMMIT:-?}"; } > $L/device.txt
P=bench/results/colmajor-parts-h200-2026-11-29
[ -f /tmp/b-old/libtcspmm.a ] || (cmake -S .devbase -B /tmp/b-old -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-old.log 2>&1 && cmake --build /tmp/b-old --target tcspmm_static -j5 >> $L/build-old.log 2>&1) &
[ -f /tmp/b/libtcspmm.a ] || (cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-new.log 2>&1 && cmake --build /tmp/b --target tcspmm_static -j11 >> $L/build-new.log 2>&1) &
wait
sed 's/j->Bt, ldt, NULL)/j->Bt, ldt, 132, NULL)/' $P/parts.c > /tmp/parts-new.c
for v in old new; do
  src=$P/parts.c lib=/tmp/b-old/libtcspmm.a root=.devbase
  [ $v = new ] && src=/tmp/parts-new.c lib=/tmp/b/libtcspmm.a root=.
  gcc -O2 -fopenmp -std=c11 -I$root/include -I$root/src -I$root/tools -isystem /usr/local/cuda/include $src $root/tools/families.c $lib -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/parts-$v || exit 1
done
for m in gen:stencil2d:1000:1000:5 .devdata/cm/cnr-2000.mtx.gz .devdata/cm/cont-201.mtx.gz; do
  for v in new old; do echo "$v fp32"; FP32=1 /tmp/parts-$v $m 64 100 128 | grep -v vpanels; done
done > $L/parts.txt 2>&1
python3 $P/summarize.py $L/parts.txt | tail -3
tar czf $OUT/call7b.tgz -C $L .
