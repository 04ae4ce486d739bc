#!/bin/sh
# bench_preprocess_device.sh: CSR -> HRPB preprocessing throughput on the
# device machine's CPU at 1, 2, 4, 8 and 16 threads (tools/hrpb_bench), on the
# matrices carried in .devdata/preprocess/ and on a generated banded matrix of
# 50M non-zeros. Logs go to $OUT (or ./preprocess-out).
#   run with carry [".devdata/preprocess"]: sh tools/bench_preprocess_device.sh
set -u
OUT=${OUT:-preprocess-out}
mkdir -p "$OUT"
B=/tmp/hrpb-bench-build
{ nproc; lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Socket|NUMA node\(s\)'; date -u; } > "$OUT/host.txt" 2>&1
# The host sources alone, with CMake's Release flags: no CUDA kernels to
# compile, so the device time goes to measuring.
mkdir -p $B
ls src/*.c src/format/*.c src/loadbalance/*.c | xargs -P 16 -I{} sh -c \
    'gcc -std=gnu11 -O3 -DNDEBUG -fopenmp -Iinclude -Isrc -I/usr/local/cuda/include -c {} -o '$B'/$(echo {} | tr / _).o' \
    > "$OUT/build.txt" 2>&1
ar rcs $B/libhost.a $B/*.o &&
gcc -std=gnu11 -O3 -DNDEBUG -fopenmp -Iinclude -Isrc tools/hrpb_bench.c $B/libhost.a \
    -L/usr/local/cuda/lib64 -lcudart -lcusparse -lz -lm -o $B/hrpb_bench >> "$OUT/build.txt" 2>&1 || exit 1
BENCH=$B/hrpb_bench
for m in .devdata/preprocess/*.mtx*; do
    $BENCH "$m" --threads 1,2,4,8,16 --reps 7 >> "$OUT/preprocess.txt" 2>&1
done
$BENCH --gen banded:5000000:10:7 --threads 1,2,4,8,16 --reps 5 >> "$OUT/preprocess.txt" 2>&1
$BENCH --gen banded:5000000:10:7 --tm 32 --threads 1,16 --reps 5 >> "$OUT/preprocess.txt" 2>&1
cat "$OUT/host.txt" "$OUT/preprocess.txt"
