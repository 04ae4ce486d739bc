#!/usr/bin/env bash
# Session 37 scratch. STAGE=tests: build HEAD (build/) and, beside it, HEAD with the
# eight-warp patch (build8/), then ctest -L gpu on HEAD and memcheck on the changed tests.
# STAGE=sweep: the held-out A/B of eight-warp blocks (TCSPMM_AB_MAX_WARPS=4: the old
# launch) on .devdata/ho, alternating per N.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
if [ "${STAGE:-tests}" = tests ]; then
  ab_variant_tree build8/src - && (cd build8/src && patch -p1 < ../../bench/results/eight-warps-2026-11-27/eight-warps.patch) > $OUT/patch.log 2>&1 || { cat $OUT/patch.log; exit 1; }
  (cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j10 > $OUT/build.log 2>&1) &
  (cmake -S build8/src -B build8/b -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}+w8" > $OUT/cfg8.log 2>&1 && cmake --build build8/b -j6 --target spmm_run gpu_hrpb > $OUT/build8.log 2>&1) &
  wait
  [ -x build/tests/gpu_pending_error ] || { tail -30 $OUT/build.log; exit 1; }
  [ -x build8/b/spmm_run ] || { tail -30 $OUT/build8.log; }
  echo "built in $(( $(date +%s) - t0 )) s"
  (cd build && TCSPMM_DATA=$PWD/../data ctest -L gpu -j4 --output-on-failure --timeout 300) > $OUT/ctest.log 2>&1
  grep -E "tests passed|tests failed|\(Failed\)" $OUT/ctest.log | tail -8
  echo "ctest done at $(( $(date +%s) - t0 )) s"
  compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 build/tests/gpu_pending_error > $OUT/san-gpu_pending_error.log 2>&1
  echo "memcheck gpu_pending_error: exit $? $(grep -E 'ERROR SUMMARY' $OUT/san-gpu_pending_error.log | tail -1)"
  TCSPMM_DATA=$PWD/data build8/b/tests/gpu_hrpb > $OUT/gpu_hrpb-w8.log 2>&1; echo "gpu_hrpb with eight warps: exit $? $(tail -1 $OUT/gpu_hrpb-w8.log) at $(( $(date +%s) - t0 )) s"
else
  NS=${NS:-512,1024}; INPUTS=${INPUTS:-.devdata/ho}
  for n in ${NS//,/ }; do
    for v in base new; do
      if [ $v = base ]; then export TCSPMM_AB_MAX_WARPS=4; else unset TCSPMM_AB_MAX_WARPS; fi
      python3 tools/sweep.py run --spmm-run build8/b/spmm_run --out $OUT/sw-$v-n$n --n $n --reps ${REPS:-20} \
        --extra="--path hrpb" $INPUTS > $OUT/sw-$v-n$n.log 2>&1
      echo "sweep $v N=$n: $(tail -1 $OUT/sw-$v-n$n.log) at $(( $(date +%s) - t0 )) s"
    done
  done
  unset TCSPMM_AB_MAX_WARPS
fi
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
