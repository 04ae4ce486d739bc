#!/bin/bash
# tools/sp24_device.sh: the structured-sparsity run on the GPU machine: build,
# CPU and GPU tests, compute-sanitizer (memcheck, racecheck) on the small GPU
# cases, then tools/sp24_bench (built as C++ with a direct g++ line, since
# some cusparseLt.h versions are C++ only; with cuSPARSELt
# when python's nvidia/cusparselt or nvidia/cu13 has it). Logs go to $OUT.
# SP24_SKIP_TESTS=1 skips the tests; SP24_BUILD_ONLY=1 also the benchmarks
# (tools/sp24_ab.sh builds its trees this way).
#   tools/sp24_device.sh [bench arguments for the bf16 run]
set -u
OUT=${OUT:-/tmp/sp24_out}
B=${B:-/tmp/b}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$OUT/gpu.txt" 2>&1
# The library straight from its sources, when the CMake tree does not
# configure (another area mid-edit).
build_direct() {
  mkdir -p $B/direct $B/tests
  for f in src/*.c src/format/*.c src/loadbalance/*.c; do
    gcc -std=c11 -O2 -fopenmp -Iinclude -Isrc -I/usr/local/cuda/include -c "$f" \
      -o "$B/direct/$(echo "$f" | tr / _).o" &
  done
  for f in src/kernels/*.cu; do
    arch=sm_90; [ "$f" = src/kernels/sp24_wgmma.cu ] && arch=sm_90a
    nvcc -std=c++17 -arch=$arch -O3 -lineinfo -Iinclude -Isrc -Xcompiler -fopenmp -c "$f" \
      -o "$B/direct/$(echo "$f" | tr / _).o" &
  done
  wait
  rm -f $B/libtcspmm.a && ar rcs $B/libtcspmm.a $B/direct/*.o || return 1
  for t in test_sparse24 gpu_sparse24; do
    gcc -std=c11 -O2 -fopenmp -Iinclude -Isrc -Itests -I/usr/local/cuda/include tests/$t.c \
      tests/sparse24_gen.c tests/harness.c -o $B/tests/$t $B/libtcspmm.a \
      -L/usr/local/cuda/lib64 -lcusparse -lcudart -lz -lm -lstdc++ || return 1
  done
}
{ { cmake -S . -B $B -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_BUILD_TESTS=ON &&
    cmake --build $B -j16 --target tcspmm_static test_sparse24 gpu_sparse24; } ||
  { echo "CMake build failed: building directly"; build_direct; }; } > "$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log"; exit 1; }

if [ -z "${SP24_SKIP_TESTS:-}${SP24_BUILD_ONLY:-}" ]; then
$B/tests/test_sparse24 > "$OUT/test_cpu.log" 2>&1; echo "cpu test rc=$?: $(tail -1 "$OUT/test_cpu.log")"
timeout 300 $B/tests/gpu_sparse24 > "$OUT/test_gpu.log" 2>&1; echo "gpu test rc=$?"; cat "$OUT/test_gpu.log"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/gpu_sparse24 --small \
  > "$OUT/memcheck.log" 2>&1; echo "memcheck rc=$?: $(grep -E 'ERROR SUMMARY|passed' "$OUT/memcheck.log" | tr '\n' ' ')"
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $B/tests/gpu_sparse24 --small \
  > "$OUT/racecheck.log" 2>&1; echo "racecheck rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|passed' "$OUT/racecheck.log" | tr '\n' ' ')"
fi

LT=$(python3 -c "
import site, os
for d in site.getsitepackages() + [site.getusersitepackages()]:
    for sub in ('nvidia/cusparselt', 'nvidia/cu13'):
        p = os.path.join(d, sub)
        if os.path.exists(os.path.join(p, 'include', 'cusparseLt.h')): print(p); raise SystemExit
" 2>/dev/null)
LTFLAGS=""
if [ -n "$LT" ]; then
  LTLIB=$(ls "$LT"/lib/libcusparseLt.so* | head -1)
  LTFLAGS="-DTCSPMM_HAVE_CUSPARSELT -I$LT/include $LTLIB -Wl,-rpath,$LT/lib"
fi
echo "cuSPARSELt: ${LT:-missing}"
g++ -x c++ -std=c++17 -O2 -fopenmp -Wno-deprecated-declarations -Iinclude -Isrc -Itests \
  -I/usr/local/cuda/include tools/sp24_bench.c -x c tests/sparse24_gen.c -x none -o $B/sp24_bench \
  $B/libtcspmm.a $LTFLAGS -L/usr/local/cuda/lib64 -lcublas -lcusparse -lcudart -lz -lm -lstdc++ \
  > "$OUT/bench_build.log" 2>&1 || { cat "$OUT/bench_build.log"; exit 1; }
[ -n "${SP24_BUILD_ONLY:-}" ] && exit 0
timeout 200 $B/sp24_bench --precision bf16 "$@" 2>&1 | tee "$OUT/bench_bf16.md"
timeout 200 $B/sp24_bench --precision tf32 --reps 5 2>&1 | tee "$OUT/bench_tf32.md"
timeout 60 $B/sp24_bench --precision fp16 --m 8192 --reps 5 2>&1 | tee "$OUT/bench_fp16.md"
