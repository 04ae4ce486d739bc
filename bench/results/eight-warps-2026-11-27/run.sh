#!/usr/bin/env bash
# Session 35 scratch: eight-warp HRPB blocks for N > 128. Build, GPU tests, sanitizer on
# gpu_hrpb --quick, the SASS spill sites, then sweeps with TCSPMM_AB_MAX_WARPS=4 (the old
# launch) against the default, alternating per N.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j16 > $OUT/build.log 2>&1) || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
if [ "${TESTS:-1}" = 1 ]; then
  (cd build && TCSPMM_DATA=$PWD/../data ctest -L gpu --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
  grep -E "tests passed|tests failed|Failed|\(Failed\)" $OUT/ctest.log | tail -8
  for tool in memcheck racecheck; do
    TCSPMM_DATA=$PWD/data compute-sanitizer --tool $tool --error-exitcode 9 build/tests/gpu_hrpb --quick > $OUT/san-$tool.log 2>&1
    echo "sanitizer $tool gpu_hrpb --quick: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1)"
  done
  cuobjdump -sass build/spmm_run 2>/dev/null | awk '/Function : _Z16hrpb_tf32_kernelILi16ELi8ELi2ELb1ELb0E/{p=1;next} p&&/Function : /{p=0} p' > $OUT/k8.sass
  echo "k8 sass lines $(wc -l < $OUT/k8.sass); STL/LDL at: $(grep -n 'STL\|LDL' $OUT/k8.sass | cut -d: -f1 | tr '\n' ' '); HMMA first/last: $(grep -n HMMA $OUT/k8.sass | sed -n '1p;$p' | cut -d: -f1 | tr '\n' ' '); BAR: $(grep -n 'BAR.SYNC' $OUT/k8.sass | cut -d: -f1 | tr '\n' ' ')"
  gzip -f $OUT/k8.sass
fi
echo "tests done at $(( $(date +%s) - t0 )) s"
NS=${NS:-256,512}; INPUTS=${INPUTS:-.devdata/ss}
for n in ${NS//,/ }; do
  for v in base new; do
    if [ $v = base ]; then export TCSPMM_AB_MAX_WARPS=4; else unset TCSPMM_AB_MAX_WARPS; fi
    python3 tools/sweep.py run --spmm-run build/spmm_run --out $OUT/sw-$v-n$n --n $n --reps ${REPS:-20} \
      --extra="--path hrpb" $INPUTS > $OUT/sw-$v-n$n.log 2>&1
    echo "sweep $v N=$n: $(tail -1 $OUT/sw-$v-n$n.log) at $(( $(date +%s) - t0 )) s"
  done
done
unset TCSPMM_AB_MAX_WARPS
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
