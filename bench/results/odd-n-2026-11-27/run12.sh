#!/usr/bin/env bash
# Session 35 scratch: a row-major B with unaligned rows copied into aligned rows (dense_pad_rows)
# against reading it in place. Build, gpu_hrpb and memcheck, then gpu_hrpb --time.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j16 > $OUT/build.log 2>&1) || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
if [ "${TESTS:-1}" = 1 ]; then
  TCSPMM_DATA=$PWD/data timeout 300 build/tests/gpu_hrpb > $OUT/gpu_hrpb.log 2>&1; echo "gpu_hrpb rc $? $(tail -1 $OUT/gpu_hrpb.log)"
  TCSPMM_DATA=$PWD/data compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_hrpb --quick > $OUT/san-memcheck.log 2>&1
  echo "memcheck gpu_hrpb --quick: exit $? $(grep -E 'ERROR SUMMARY' $OUT/san-memcheck.log | tail -1)"
fi
echo "tests done at $(( $(date +%s) - t0 )) s"
TCSPMM_DATA=$PWD/data timeout ${TLIMIT:-400} build/tests/gpu_hrpb --time --n ${NS:-7,15,31,33,50,63,65,97,129,257} $INPUTS > $OUT/time.log 2>&1
echo "time rc $? at $(( $(date +%s) - t0 )) s; $(grep -c '^TIME' $OUT/time.log) lines"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
