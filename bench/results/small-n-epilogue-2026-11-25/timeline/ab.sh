#!/bin/bash
# scratch A/B: base = exp/base.tar (HEAD), new = working tree. Builds both,
# runs new's gpu_sparse24 + sanitizers, then tf32 benches alternating.
set -u
OUT=${OUT:-/tmp/abl}; mkdir -p $OUT
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $OUT/gpu.txt 2>&1
rm -rf /tmp/base && mkdir -p /tmp/base && tar xf exp/base.tar -C /tmp/base
LT=$(python3 -c "
import site, os
for d in site.getsitepackages() + [site.getusersitepackages()]:
    for sub in ('nvidia/cusparselt', 'nvidia/cu13'):
        p = os.path.join(d, sub)
        if os.path.exists(os.path.join(p, 'include', 'cusparseLt.h')): print(p); raise SystemExit
" 2>/dev/null)
LTFLAGS=""
if [ -n "$LT" ]; then LTLIB=$(ls "$LT"/lib/libcusparseLt.so* | head -1); LTFLAGS="-DTCSPMM_HAVE_CUSPARSELT -I$LT/include $LTLIB -Wl,-rpath,$LT/lib"; fi
build() { # tree builddir lt
  (cd $1 && cmake -S . -B $2 -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_BUILD_TESTS=ON >/dev/null &&
   cmake --build $2 -j8 --target tcspmm_static test_sparse24 gpu_sparse24 test_api >/dev/null &&
   g++ -x c++ -std=c++17 -O2 -fopenmp -Wno-deprecated-declarations -Iinclude -Isrc -Itests \
     -I/usr/local/cuda/include tools/sp24_bench.c -x c tests/sparse24_gen.c -x none -o $2/sp24_bench \
     $2/libtcspmm.a $3 -L/usr/local/cuda/lib64 -lcublas -lcusparse -lcudart -lz -lm -lstdc++)
}
t0=$(date +%s)
if [ -n "${SKIP_BUILD:-}" ] && [ -x /tmp/bn/sp24_bench ]; then echo "reusing builds"; else
build $PWD /tmp/bn "$LTFLAGS" > $OUT/build_new.log 2>&1 & p1=$!
[ -z "${SKIP_BASE:-}" ] && { build /tmp/base /tmp/bb "" > $OUT/build_base.log 2>&1 & p2=$!; }
wait $p1 || { echo "new build failed"; tail -30 $OUT/build_new.log; exit 1; }
[ -z "${SKIP_BASE:-}" ] && { wait $p2 || { echo "base build failed"; tail -30 $OUT/build_base.log; }; }
echo "built in $(( $(date +%s) - t0 )) s"
fi
OBJ=$(find /tmp/bn -name 'sp24_wgmma.cu.o' | head -1)
cuobjdump -sass "$OBJ" > $OUT/sass.txt 2>&1
python3 - $OUT/sass.txt <<'PY' | tee $OUT/sass_summary.txt
import sys, re
fn = None; counts = {}
for line in open(sys.argv[1]):
    m = re.search(r'Function : (\S+)', line)
    if m: fn = m.group(1); counts[fn] = {}; continue
    if fn:
        m = re.search(r'\b(LDG|STS|LDS|LDL|STL|HGMMA|SYNCS|BAR)\S*', line)
        if m: counts[fn][m.group(1)] = counts[fn].get(m.group(1), 0) + 1
for f, c in counts.items():
    if 'precision0' in f: print(f[-60:], c)
PY
if [ -z "${SKIP_TESTS:-}" ]; then
  /tmp/bn/tests/test_api > $OUT/test_api.log 2>&1; echo "test_api rc=$? $(tail -1 $OUT/test_api.log)"
  /tmp/bn/tests/test_sparse24 > $OUT/test_sparse24.log 2>&1; echo "test_sparse24 rc=$? $(tail -1 $OUT/test_sparse24.log)"
  timeout 240 /tmp/bn/tests/gpu_sparse24 > $OUT/test_gpu.log 2>&1; echo "gpu test rc=$? $(tail -1 $OUT/test_gpu.log)"
  grep -E "FAIL|fail" $OUT/test_gpu.log | head -20
  [ -n "${SAN:-}" ] && timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/bn/tests/gpu_sparse24 --small > $OUT/memcheck.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/memcheck.log)"
  [ -n "${SAN:-}" ] && timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/bn/tests/gpu_sparse24 --small > $OUT/racecheck.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $OUT/racecheck.log | tr '\n' ' ')"
  echo "tests done at $(( $(date +%s) - t0 )) s"
fi
rm -f $OUT/sass.txt
for r in ${ROUNDS:-1}; do
  ba=${BENCH_ARGS:---m 4096,8192 --n 4096,8192 --reps 10}
  for prec in ${PRECS:-tf32}; do
  for tree in ${TREES:-base new}; do
    b=/tmp/bn; [ $tree = base ] && b=/tmp/bb
    timeout ${BT:-150} $b/sp24_bench --precision $prec --no-hrpb $ba > $OUT/$prec-$tree-$r.md 2>&1
    echo "bench $prec $tree $r rc=$? at $(( $(date +%s) - t0 )) s"
  done
  done
done
if [ -n "${SMALL:-}" ]; then
  for tree in base new; do
    b=/tmp/bn; [ $tree = base ] && b=/tmp/bb
    timeout 150 $b/sp24_bench --precision tf32 --no-hrpb --m 4096,8192,16384 --n 64,128,512 --reps 20 > $OUT/tf32-small-$tree.md 2>&1
    echo "small $tree rc=$? at $(( $(date +%s) - t0 )) s"
  done
fi
tar czf /tmp/abl.tgz -C /tmp abl
