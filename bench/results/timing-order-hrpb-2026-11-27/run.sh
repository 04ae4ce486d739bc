#!/usr/bin/env bash
# Session 42, call 5: spmm_run --bench with ours and the three cuSPARSE
# algorithms timed in turns, in a random order each round (working tree:
# gpu_timer_turns) against ae9d469's block timing (ours' runs, then each
# algorithm's; overlay .devdata/v42-blockbench), same kernels. HRPB at
# N = 32, 128, 512 over 12 shared matrices, and at N = 128 over the three
# large generated matrices; then gpu_cusparse (the library's own races now
# run in random turns too). nvidia-smi samples clocks and power.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
for v in block:.devdata/v42-blockbench turns:-; do
  name=${v%%:*} dir=${v#*:}
  ab_variant_tree /tmp/v-$name $dir
  (cd /tmp/v-$name && cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/build-$name.log 2>&1 &&
    cmake --build build -j8 --target spmm_run gpu_cusparse >> $OUT/build-$name.log 2>&1; echo "build $name: $?") &
done
wait
echo "built at $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 250 > $OUT/smi.csv 2>&1 &
smi=$!
sweep() { # sweep NAME N OUT INPUTS...
  local name=$1 n=$2 out=$3; shift 3
  python3 tools/sweep.py run --spmm-run /tmp/v-$name/build/spmm_run --out $OUT/$out-$name --n $n --reps 50 \
    --extra="--path hrpb" "$@" > $OUT/$out-$name.log 2>&1
  echo "$out $name: $(tail -1 $OUT/$out-$name.log) at $(( $(date +%s) - t0 )) s"
}
GEN="gen:geometric:2000000:24:3 gen:stencil3d:100:100:100:27 gen:blockdiag:24:.devdata/pk/pkustk04.mtx.gz"
sweep block 128 gen $GEN; sweep turns 128 gen $GEN
for n in 128 32 512; do
  [ $(( $(date +%s) - t0 )) -gt 420 ] && break
  sweep turns $n m12-n$n .devdata/m39; sweep block $n m12-n$n .devdata/m39
done
kill $smi
(cd /tmp/v-turns/build && TCSPMM_REQUIRE_GPU=1 TCSPMM_DATA=$PWD/../data timeout $(( 590 - ($(date +%s) - t0) )) ctest -R "gpu_cusparse$" --output-on-failure) > $OUT/gpu_cusparse.log 2>&1
echo "gpu_cusparse (turns): $(grep -E 'tests passed|tests failed' $OUT/gpu_cusparse.log) at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
