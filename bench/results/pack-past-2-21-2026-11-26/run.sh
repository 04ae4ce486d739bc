#!/usr/bin/env bash
# session 33: pack_b A/B: base (9c5dc49), loop (y blocks loop in kernel), hostloop (launches of <= 65535 y blocks)
set -u
L=/tmp/logs; rm -rf $L; mkdir -p $L
{ date -u; nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm --format=csv; echo "commit: $COMMIT"; } > $L/device.txt 2>&1; cat $L/device.txt
mkdir -p /tmp/v/base && tar xzf .devdata/base33.tgz -C /tmp/v/base
for v in loop hostloop; do mkdir -p /tmp/v/$v && cp -r CMakeLists.txt cmake include src tests tools data examples /tmp/v/$v/; done
cp -r .devdata/v_hostloop/. /tmp/v/hostloop/
for v in base loop hostloop; do
  t="sp24_bench"; [ $v = hostloop ] && t="sp24_bench gpu_sparse24"
  (cmake -S /tmp/v/$v -B /tmp/v/$v/b -DCMAKE_CUDA_ARCHITECTURES=90 > $L/build-$v.log 2>&1 && cmake --build /tmp/v/$v/b -j5 --target $t >> $L/build-$v.log 2>&1; echo "build $v rc $?") &
done
wait
for n in 512 8192; do for v in base loop hostloop; do
  echo "## ncu pack_b, $v, tf32 4096 x $n"
  timeout 100 ncu --clock-control none -k regex:pack_b --launch-count 8 --metrics gpu__time_duration.sum \
    /tmp/v/$v/b/sp24_bench --precision tf32 --m 4096 --n $n --reps 3 --no-hrpb 2>&1 | grep -E "gpu__time" | awk '{print $(NF-1)":"$NF}' | tr '\n' ' '; echo
done; done | tee $L/ncu.txt
for r in 1 2; do for v in base loop hostloop; do
  echo "## round $r $v"; timeout 100 /tmp/v/$v/b/sp24_bench --precision tf32 --m 4096,8192 --n 512,8192 --reps 20 --no-hrpb 2>&1 | grep -v workspace
done; done > $L/sp24-ab.md 2>&1
grep -E "^## |^\| tf32" $L/sp24-ab.md | awk -F'|' '/^##/{print; next}{print $3,$4,"ours32",$7,"mma.sp",$9,"Lt",$10}'
timeout 200 /tmp/v/hostloop/b/tests/gpu_sparse24 > $L/gpu_sparse24-hostloop.log 2>&1; echo "gpu_sparse24 hostloop rc $? $(tail -1 $L/gpu_sparse24-hostloop.log)"; grep 2097 $L/gpu_sparse24-hostloop.log
tar czf $OUT/pack_ab.tgz -C $L .
