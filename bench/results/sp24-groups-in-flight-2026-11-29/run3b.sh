#!/usr/bin/env bash
# Call 3b, on call 3's warm machine and build (7e87f7a): the bf16 and tf32 tables call 3 had
# no time for, and racecheck of gpu_sparse24 --small with a longer limit (call 3's 100 s ran
# out). Files into $OUT/c3b (committed as call3b.tgz).
set -u; L=$OUT/c3b; mkdir -p $L; t0=$(date +%s); ls build/sp24_bench build/tests/gpu_sparse24 >/dev/null || exit 3; for p in bf16 tf32; do timeout 70 build/sp24_bench --precision $p --reps 20 --no-hrpb 2>&1 | grep -v workspace > $L/bench-$p.md; echo "bench $p rc $? at $(( $(date +%s) - t0 )) s"; done; timeout 140 compute-sanitizer --tool racecheck --error-exitcode 9 build/tests/gpu_sparse24 --small > $L/racecheck-gpu_sparse24.log 2>&1; echo "racecheck rc $? at $(( $(date +%s) - t0 )) s: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|passed' $L/racecheck-gpu_sparse24.log | tail -2 | tr '\n' ' ')"
