#!/bin/bash
# bench_reader_device.sh: the reader throughput comparison on the device
# machine's CPU (16 cores), from the repository root, carrying .devdata/
# (cnr-2000.mtx.gz) and .whl/ (the fast_matrix_market wheel for Python 3.12).
# Builds mtx_read_bench with gcc alone (no CUDA compile: the reader is host
# code; -O3 as in CMake's Release build), then runs tools/bench_reader.py at
# 1, 2, 4, 8 and 16 threads on the .gz file and on its decompressed .mtx.
# Writes $OUT/reader_device.md and $OUT/reader_device.log.
set -euo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
exec > >(tee "$OUT/reader_device.log") 2>&1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site
CUDA_HOME=$(dirname "$(dirname "$(command -v nvcc)")")
CUDA_LIB=$(dirname "$(find -L "$CUDA_HOME"/ -name 'libcudart.so*' | head -1)")
gcc -std=gnu11 -O3 -DNDEBUG -Wno-deprecated-declarations -fopenmp -Iinclude -Isrc \
  -I"$CUDA_HOME/include" \
  src/error.c src/format/csr.c src/format/mtx_*.c src/format/coo_to_csr.c \
  src/format/large_alloc.c tools/mtx_read_bench.c \
  -L"$CUDA_LIB" -Wl,-rpath,"$CUDA_LIB" -lcudart -lcusparse -lz -lm -o /tmp/mtx_read_bench
gunzip -c .devdata/cnr-2000.mtx.gz > /tmp/cnr-2000.mtx
echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p')"
python3 -c "import scipy, fast_matrix_market as f; print('scipy', scipy.__version__, 'fast_matrix_market', f.__version__)"
python3 tools/bench_reader.py --bench /tmp/mtx_read_bench \
  --files /tmp/cnr-2000.mtx .devdata/cnr-2000.mtx.gz --threads 1 2 4 8 16 \
  --rounds 3 --reps 2 | tee "$OUT/reader_device.md"
