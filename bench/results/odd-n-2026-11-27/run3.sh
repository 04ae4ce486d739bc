#!/usr/bin/env bash
# Session 35 scratch: row-major C with unaligned rows staged through shared memory, against the
# old scalar stores (TCSPMM_AB_OLD_C=1), with B in place and copied; gpu_hrpb and sanitizers.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
(cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" > $OUT/cfg.log 2>&1 && cmake --build build -j16 > $OUT/build.log 2>&1) || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
TCSPMM_DATA=$PWD/data timeout 300 build/tests/gpu_hrpb > $OUT/gpu_hrpb.log 2>&1; echo "gpu_hrpb rc $? $(tail -1 $OUT/gpu_hrpb.log)"
TCSPMM_DATA=$PWD/data timeout 300 build/tests/gpu_fp32 > $OUT/gpu_fp32.log 2>&1; echo "gpu_fp32 rc $? $(tail -1 $OUT/gpu_fp32.log)"
for tool in memcheck racecheck; do
  TCSPMM_DATA=$PWD/data compute-sanitizer --tool $tool --error-exitcode 9 build/tests/gpu_hrpb --quick > $OUT/san-$tool.log 2>&1
  echo "$tool gpu_hrpb --quick: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1)"
done
cuobjdump -sass build/spmm_run 2>/dev/null | awk '/Function : _Z16hrpb_tf32_kernelILi16ELi4ELi3ELb1ELb1E/{p=1;next} p&&/Function : /{p=0} p' > $OUT/split.sass
echo "split sass $(wc -l < $OUT/split.sass) lines; STL/LDL at: $(grep -n 'STL\|LDL' $OUT/split.sass | cut -d: -f1 | tr '\n' ' '); HMMA first/last: $(grep -n HMMA $OUT/split.sass | sed -n '1p;$p' | cut -d: -f1 | tr '\n' ' '); back edges: $(grep -n 'BRA 0x' $OUT/split.sass | awk '{print $1}' | tr '\n' ' ' | cut -c1-300)"
gzip -f $OUT/split.sass
echo "tests done at $(( $(date +%s) - t0 )) s"
for v in old new; do
  if [ $v = old ]; then export TCSPMM_AB_OLD_C=1; else unset TCSPMM_AB_OLD_C; fi
  TCSPMM_DATA=$PWD/data timeout 250 build/tests/gpu_hrpb --time --n ${NS:-7,15,31,33,63,97,129,257} $INPUTS > $OUT/time-$v.log 2>&1
  echo "time $v rc $? at $(( $(date +%s) - t0 )) s; $(grep -c '^TIME' $OUT/time-$v.log) lines"
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
