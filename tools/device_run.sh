#!/usr/bin/env bash
# tools/device_run.sh: everything one call on the GPU machine does, run from
# the repository root: build, the GPU tests, compute-sanitizer on small cases,
# and a benchmark sweep over the inputs given (matrix folders, files, gen:
# specs), once per --sweep NAME=ARGS (ARGS: more spmm_run arguments; default
# one sweep, sweep=--path auto). All logs are bundled into
# $OUT/device-run.tgz (the device returns few files); a summary is printed last.
# Exits with ctest's status where the tests ran (1 where the build failed).
#   tools/device_run.sh [--no-tests] [--sanitize] [--n 32,128,512] [--reps R]
#                       [--sweep NAME=ARGS]... [SWEEP_INPUT...]
# e.g. --sweep tf32='--path hrpb' --sweep fp32='--path hrpb --precision fp32'
# COMMIT=<hash> in the environment labels the results where the tree has no .git.
set -uo pipefail
OUT=${OUT:-/tmp/tcspmm-out}
logs=/tmp/tcspmm-logs
rm -rf $logs && mkdir -p $logs "$OUT"
tests=1; sanitize=0; ns=32,128,512; reps=50; sweeps=()
while [ $# -gt 0 ]; do
  case $1 in
    --no-tests) tests=0; shift ;;
    --sanitize) sanitize=1; shift ;;
    --n) ns=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --sweep) sweeps+=("$2"); shift 2 ;;
    *) break ;;
  esac
done
finish() { tar czf "$OUT/device-run.tgz" -C $logs . ; }
trap finish EXIT

{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total \
    --format=csv; nproc; echo "commit: ${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"; } >$logs/device.txt 2>&1
cat $logs/device.txt

build=/tmp/tcspmm-build
cmake -S . -B $build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}" >$logs/build.log 2>&1 &&
  cmake --build $build -j16 >>$logs/build.log 2>&1 || { tail -40 $logs/build.log; exit 1; }
echo "build ok"

if [ $tests = 1 ]; then
  # Four at a time, each with four OpenMP threads: with one thread per core
  # each, four test processes oversubscribed the cores, and ctest -L gpu -j4
  # took 237 s against 122 s (bench/results/ctest-omp-threads-2026-11-28/).
  TCSPMM_REQUIRE_GPU=1 OMP_NUM_THREADS=4 ctest --test-dir $build -j4 --output-on-failure -L gpu >$logs/ctest.log 2>&1
  ctest_status=$?
  cp $build/Testing/Temporary/LastTest.log $logs/ctest-last.log # every test's own lines
  grep -E "tests passed|tests failed|Failed|\*\*\*" $logs/ctest.log | tail -20
  echo "ctest -L gpu: exit $ctest_status"
fi

if [ $sanitize = 1 ]; then
  for t in "gpu_hrpb --quick" "gpu_fp32 --quick" "gpu_sparse24 --small" "gpu_hrpb_build" "gpu_csr_check" \
           "gpu_device_input" "gpu_graph" "gpu_set_values" "gpu_cusparse_values" "gpu_csr_transpose" \
           "gpu_devices"; do
    for tool in memcheck racecheck; do
      log=$logs/sanitize-${t%% *}-$tool.log
      compute-sanitizer --tool $tool --error-exitcode 9 $build/tests/$t >$log 2>&1
      echo "compute-sanitizer $tool $t: exit $?, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $log | tail -1)"
    done
  done
fi

[ ${#sweeps[@]} -eq 0 ] && sweeps=("sweep=--path auto")
if [ $# -gt 0 ]; then
  for sweep in "${sweeps[@]}"; do
    name=${sweep%%=*}; extra=${sweep#*=}
    python3 tools/sweep.py run --spmm-run $build/spmm_run --out $logs/$name --n "$ns" --reps "$reps" \
      --extra="$extra" "$@" >$logs/$name.log 2>&1
    echo "== $name ($extra): $(tail -1 $logs/$name.log)"
    python3 tools/sweep.py report --csv $logs/$name/sweep.csv --out $logs/$name >>$logs/$name.log 2>&1
    grep -E "^\|" $logs/$name/summary.md | head -30
  done
fi
exit "${ctest_status:-0}" # the GPU tests decide the script's status (the logs are bundled on exit)
