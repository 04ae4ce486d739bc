#!/usr/bin/env bash
# Session 42, call 4: the structured benchmark with the contenders in a new
# random order each round (tools/sp24_bench.c, working tree) against
# 5c07460's block-wise timing (.devdata/v42-block/sp24_bench.c): same library
# build, same call. bf16 and fp16 full tables twice, alternating the two;
# then tf32 full with the new timing. nvidia-smi samples clocks and power.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
B=/tmp/b SP24_BUILD_ONLY=1 OUT=$OUT/build bash tools/sp24_device.sh > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
cp /tmp/b/sp24_bench /tmp/b/sp24_bench_random
LT=$(grep -o "cuSPARSELt: .*" $OUT/build.log | head -1 | sed 's/cuSPARSELt: //')
echo "cuSPARSELt: $LT; built in $(( $(date +%s) - t0 )) s"
LTLIB=$(ls "$LT"/lib/libcusparseLt.so* | head -1)
g++ -x c++ -std=c++17 -O2 -fopenmp -Wno-deprecated-declarations -Iinclude -Isrc -Itests \
  -I/usr/local/cuda/include .devdata/v42-block/sp24_bench.c -x c tests/sparse24_gen.c -x none -o /tmp/b/sp24_bench_block \
  /tmp/b/libtcspmm.a -DTCSPMM_HAVE_CUSPARSELT -I$LT/include $LTLIB -Wl,-rpath,$LT/lib \
  -L/usr/local/cuda/lib64 -lcublas -lcusparse -lcudart -lz -lm -lstdc++ > $OUT/build-block.log 2>&1 || { cat $OUT/build-block.log; exit 1; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 250 > $OUT/smi.csv 2>&1 &
smi=$!
run() { # run NAME PREC [args]
  local name=$1 prec=$2; shift 2
  echo "## $name, $prec, started at $(( $(date +%s) - t0 )) s"
  timeout 150 /tmp/b/sp24_bench_$name --precision $prec --reps 20 --no-hrpb "$@" 2>&1 | grep -v workspace
}
{
  for p in bf16 fp16; do run random $p; run block $p; done
  for p in bf16 fp16; do
    [ $(( $(date +%s) - t0 )) -gt 400 ] && break
    run block $p; run random $p
  done
  [ $(( $(date +%s) - t0 )) -lt 470 ] && run random tf32
} > $OUT/bench.md
kill $smi
grep -E "^## |16384 \|  8192|4096 \|  4096" $OUT/bench.md | cut -c1-200
echo "done at $(( $(date +%s) - t0 )) s"
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
