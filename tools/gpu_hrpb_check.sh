#!/bin/sh
# gpu_hrpb_check.sh: everything the HRPB TF32 kernel needs checked on the
# device machine, in one call: build, the kernel's resource report and SASS
# checks (HMMA present, no local memory), the GPU tests, compute-sanitizer
# memcheck and racecheck on the quick test, and the timing mode on a
# generated stencil plus the matrices given as arguments. Logs go to $OUT
# (default /tmp/gpu_hrpb_check); a summary is printed last.
#   [NCU=0] sh tools/gpu_hrpb_check.sh [matrix.mtx.gz ...]
set -u
OUT=${OUT:-/tmp/gpu_hrpb_check}
BUILD=${BUILD:-/tmp/b}
mkdir -p "$OUT"
summary=""
note() { summary="$summary
$1"; }

if ! { cmake -S . -B "$BUILD" -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_BUILD_TESTS=ON &&
       cmake --build "$BUILD" -j16 --target gpu_hrpb; } >"$OUT/build.log" 2>&1; then
    tail -40 "$OUT/build.log"
    echo "BUILD FAILED"
    exit 1
fi
note "build: ok"

: >"$OUT/resources.txt"; : >"$OUT/sass.txt"
for obj in $(find "$BUILD" -name 'hrpb_kernels_*.cu.o'); do # the kernel's three modules
    cuobjdump --dump-resource-usage "$obj" >>"$OUT/resources.txt" 2>&1
    cuobjdump --dump-sass "$obj" >>"$OUT/sass.txt" 2>&1
done
note "resources: $(grep -c 'REG:' "$OUT/resources.txt") kernels; max REG $(grep -o 'REG:[0-9]*' "$OUT/resources.txt" | cut -d: -f2 | sort -n | tail -1); STACK non-zero: $(grep -o 'STACK:[0-9]*' "$OUT/resources.txt" | grep -vc 'STACK:0$')"
note "sass: HMMA $(grep -c HMMA "$OUT/sass.txt"), LDL/STL $(grep -cE 'LDL|STL' "$OUT/sass.txt"), LDGSTS $(grep -c LDGSTS "$OUT/sass.txt")"

test_bin="$BUILD/tests/gpu_hrpb"
TCSPMM_DATA=$PWD/data timeout 180 "$test_bin" >"$OUT/tests.log" 2>&1
note "tests (rc $?): $(tail -1 "$OUT/tests.log")"

for tool in memcheck racecheck; do
    TCSPMM_DATA=/nonexistent timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 "$test_bin" --quick \
        >"$OUT/$tool.log" 2>&1
    note "$tool (rc $?): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$tool.log" | tail -1) / $(grep -E 'passed' "$OUT/$tool.log" | tail -1)"
done

timeout 240 "$test_bin" --time "$@" >"$OUT/time.log" 2>&1
note "timing (rc $?):"

# Nsight Compute on one launch (skipped with NCU=0): the stencil's first
# row-major TM=16 run at N = 128 (after the 3 warm-ups and 4 x 53 launches at N = 32).
[ "${NCU:-1}" = 0 ] || timeout 120 ncu --launch-skip 215 --launch-count 1 -k regex:hrpb_tf32_kernel \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
    --section SchedulerStats --section WarpStateStats "$test_bin" --time >"$OUT/ncu.log" 2>&1
note "ncu (rc $?): $(grep -E 'Memory Throughput|DRAM Throughput|L2 Cache Throughput|L2 Hit Rate|Achieved Occupancy|Duration' "$OUT/ncu.log" | tr -s ' ' | tr '\n' ';')"
echo "$summary"
grep TIME "$OUT/time.log"
grep -E 'FAIL|->' "$OUT/tests.log" | head -20
