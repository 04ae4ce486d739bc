#!/usr/bin/env bash
# tools/device_run.sh: everything one call on the GPU machine does, run from
# the repository root: build, the GPU tests, compute-sanitizer on small cases,
# and (given matrix folders or gen: specs) the benchmark sweep. Logs go
# under $OUT. usage: tools/device_run.sh [--no-tests] [--sanitize] [SWEEP_INPUT...]
set -uo pipefail
OUT=${OUT:-/tmp/tcspmm-out}
mkdir -p "$OUT"
tests=1; sanitize=0
while [ $# -gt 0 ]; do
  case $1 in
    --no-tests) tests=0; shift ;;
    --sanitize) sanitize=1; shift ;;
    *) break ;;
  esac
done

{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total \
    --format=csv; nproc; git rev-parse --short HEAD 2>/dev/null; } >"$OUT/device.txt" 2>&1
cat "$OUT/device.txt"

build=/tmp/tcspmm-build
cmake -S . -B $build -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/build.log" 2>&1 &&
  cmake --build $build -j16 >>"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "build ok"

if [ $tests = 1 ]; then
  ctest --test-dir $build --output-on-failure -L gpu >"$OUT/ctest.log" 2>&1
  grep -E "tests passed|tests failed|Failed|\*\*\*" "$OUT/ctest.log" | tail -20
fi

if [ $sanitize = 1 ]; then
  for t in "gpu_hrpb --quick" "gpu_sparse24 --small"; do
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 $build/tests/$t \
        >"$OUT/sanitize-${t%% *}-$tool.log" 2>&1
      echo "compute-sanitizer $tool $t: exit $? ($(grep -c 'ERROR SUMMARY: 0 errors' "$OUT/sanitize-${t%% *}-$tool.log") clean summaries)"
    done
  done
fi

if [ $# -gt 0 ]; then
  python3 tools/sweep.py run --spmm-run $build/spmm_run --out "$OUT" "$@" >"$OUT/sweep.log" 2>&1
  tail -5 "$OUT/sweep.log"
  python3 tools/sweep.py report --csv "$OUT/sweep.csv" --out "$OUT" >>"$OUT/sweep.log" 2>&1
  tail -30 "$OUT/summary.md" 2>/dev/null
fi
