#!/usr/bin/env bash
# Final checks of this session's code: GPU tests, memcheck on the changed tests, and the
# plan creation of sparse24 plans without updatable values, base (f403e6e) against this tree.
set -u
L=/tmp/tcspmm-logs
( mkdir -p /tmp/base && tar xzf .devdata/base.tgz -C /tmp/base &&
  cmake -S /tmp/base -B /tmp/base-build -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/base-build.log 2>&1 &&
  cmake --build /tmp/base-build --target spmm_run -j8 >>/tmp/base-build.log 2>&1; echo "base build rc $?" ) &
COMMIT=$COMMIT tools/device_run.sh --no-tests
wait
B=/tmp/tcspmm-build
(cd $B && ctest -V -L gpu > $L/ctest.log 2>&1)
grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -14
for t in gpu_set_values gpu_csr_check; do
  compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/$t > $L/memcheck-$t.log 2>&1
  echo "memcheck $t: $? $(grep 'ERROR SUMMARY' $L/memcheck-$t.log | tail -1) $(grep 'passed, ' $L/memcheck-$t.log | tail -1)"
done
for round in 1 2; do for who in base new; do
  bin=$B/spmm_run; [ $who = base ] && bin=/tmp/base-build/spmm_run
  for spec in "gen:prune24:8192:8192:1 bf16" "gen:prune12:8192:8192:1 tf32"; do
    set -- $spec
    $bin $1 --path sparse24 --precision $2 --bench --n 128 --reps 20 --json > $L/plan-$who-$2-$round.json 2>&1
    python3 -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')][-1]; print(sys.argv[2], sys.argv[3], sys.argv[4], 'plan', r.get('plan_ms'), 'warm', r.get('plan_ms_warm'), 'prod', r.get('time_ms'))" $L/plan-$who-$2-$round.json $who $2 $round
  done
done; done
tar czf $OUT/device-run.tgz -C $L .
