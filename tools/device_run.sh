#!/usr/bin/env bash
# tools/device_run.sh: everything one call on the GPU machine does, run from
# the repository root: build, the GPU tests, compute-sanitizer on small cases,
# and a benchmark sweep over the inputs given (matrix folders, files, gen:
# specs). All logs are bundled into $OUT/device-run.tgz (the device returns
# few files); a summary is printed last.
#   tools/device_run.sh [--no-tests] [--sanitize] [--n 32,128,512] [--reps R]
#                       [--path P] [--name NAME] [SWEEP_INPUT...]
# COMMIT=<hash> in the environment labels the results where the tree has no .git.
set -uo pipefail
OUT=${OUT:-/tmp/tcspmm-out}
logs=/tmp/tcspmm-logs
rm -rf $logs && mkdir -p $logs "$OUT"
tests=1; sanitize=0; ns=32,128,512; reps=50; path=auto; name=sweep
while [ $# -gt 0 ]; do
  case $1 in
    --no-tests) tests=0; shift ;;
    --sanitize) sanitize=1; shift ;;
    --n) ns=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --path) path=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    *) break ;;
  esac
done
finish() { tar czf "$OUT/device-run.tgz" -C $logs . ; }
trap finish EXIT

{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total \
    --format=csv; nproc; git rev-parse --short HEAD 2>/dev/null; git status --short | head; } >$logs/device.txt 2>&1
cat $logs/device.txt

build=/tmp/tcspmm-build
cmake -S . -B $build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" >$logs/build.log 2>&1 &&
  cmake --build $build -j16 >>$logs/build.log 2>&1 || { tail -40 $logs/build.log; exit 1; }
echo "build ok"

if [ $tests = 1 ]; then
  ctest --test-dir $build --output-on-failure -L gpu >$logs/ctest.log 2>&1
  grep -E "tests passed|tests failed|Failed|\*\*\*" $logs/ctest.log | tail -20
fi

if [ $sanitize = 1 ]; then
  for t in "gpu_hrpb --quick" "gpu_sparse24 --small"; do
    for tool in memcheck racecheck; do
      log=$logs/sanitize-${t%% *}-$tool.log
      compute-sanitizer --tool $tool --error-exitcode 9 $build/tests/$t >$log 2>&1
      echo "compute-sanitizer $tool $t: exit $?, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $log | tail -1)"
    done
  done
fi

if [ $# -gt 0 ]; then
  python3 tools/sweep.py run --spmm-run $build/spmm_run --out $logs/$name --n "$ns" --reps "$reps" \
    --extra="--path $path" "$@" >$logs/$name.log 2>&1
  tail -3 $logs/$name.log
  python3 tools/sweep.py report --csv $logs/$name/sweep.csv --out $logs/$name >>$logs/$name.log 2>&1
  grep -E "^\|" $logs/$name/summary.md | head -30
fi
