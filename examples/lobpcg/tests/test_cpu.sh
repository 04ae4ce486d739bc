#!/bin/sh
# test_cpu.sh: the LOBPCG example on the CPU backend, as a consumer builds it:
# installs the tcspmm build into a scratch prefix, builds examples/lobpcg
# against it with -DLOBPCG_GPU=OFF, then checks the eigenvalues of 2D and 3D
# Laplacians (analytic), of data/ted_B and data/de2010 (scipy's eigsh,
# committed in reference_eigsh.txt) and the errors on bad input. Where nvcc,
# cuBLAS and cuSOLVER are found it also builds the GPU backend and, where
# there is no GPU, checks that it refuses to run.
# usage: test_cpu.sh BUILD_DIR SOURCE_DIR SPMM_GEN SANITIZE(ON|OFF) CUDA_ARCHITECTURES
build=$1; src=$2; gen=$3; sanitize=$4; archs=$5
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$src/examples/lobpcg/tests/lib.sh"

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null || { echo "install failed"; exit 1; }
flags=""
# A sanitized library needs its runtime in the consumer too.
[ "$sanitize" = ON ] && flags="-fsanitize=address,undefined -fno-omit-frame-pointer"
if build_example "$src" "$tmp/prefix" "$tmp/cpu" -DLOBPCG_GPU=OFF -DCMAKE_C_FLAGS="$flags"; then
    ok "build (CPU backend)"
else
    bad "build (CPU backend)"; echo "$pass passed, $fail failed"; exit 1
fi
run="$tmp/cpu/lobpcg"

"$gen" stencil2d:30:40:5 "$tmp/l2d.mtx" 2>/dev/null && "$gen" stencil3d:12:10:14:7 "$tmp/l3d.mtx" 2>/dev/null &&
    "$gen" uniform:300:300:5:1 "$tmp/unsym.mtx" 2>/dev/null || { echo "spmm_gen failed"; exit 1; }

# Laplacians: the k smallest eigenvalues against the analytic ones.
analytic 10 30 40 >"$tmp/want"
"$run" "$tmp/l2d.mtx" --k 10 --path cpu >"$tmp/out" 2>&1
compare "laplacian 2D 30x40, k 10" "$tmp/want" 1e-5
analytic 12 12 10 14 >"$tmp/want"
"$run" "$tmp/l3d.mtx" --k 12 --guard 6 --path cpu --seed 7 >"$tmp/out" 2>&1
compare "laplacian 3D 12x10x14, k 12" "$tmp/want" 1e-5
# OpenMP teams smaller than asked for (a thread limit): the Gram matrices sum only
# the threads that ran.
analytic 10 30 40 >"$tmp/want"
OMP_NUM_THREADS=8 OMP_THREAD_LIMIT=2 "$run" "$tmp/l2d.mtx" --k 10 --path cpu >"$tmp/out" 2>&1
compare "laplacian 2D 30x40, k 10, OMP_THREAD_LIMIT=2 of 8" "$tmp/want" 1e-5

# Real symmetric files: the k largest against scipy's eigsh.
for f in ted_B.mtx.gz de2010.mtx.gz; do
    reference "$f" largest 6 "$src/examples/lobpcg/reference_eigsh.txt" >"$tmp/want"
    "$run" "$src/data/$f" --k 6 --largest >"$tmp/out" 2>&1
    compare "$f largest 6 vs eigsh" "$tmp/want" 1e-5
done

# The output states the residual and the plan; the exit statuses.
expect header 0 '^# residual = \|\|A x - lambda x\|\|_2 / \(normA \|\|x\|\|_2\), normA = max_i sum_j \|a_ij\| \(Gershgorin bound\) = 8$' -- \
    "$run" "$tmp/l2d.mtx" --k 2
expect plan_info 0 '^plan_path cpu$' -- "$run" "$tmp/l2d.mtx" --k 2
expect maxit 1 '^stop_reason maxit$' -- "$run" "$tmp/l2d.mtx" --k 4 --maxit 3
expect help 0 '^usage: lobpcg FILE' -- "$run" --help
expect missing_file 2 '^lobpcg: reading .*no_such_file.mtx: ' -- "$run" "$tmp/no_such_file.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n2 x 2.0\n' >"$tmp/bad.mtx"
expect parse_error 2 '^lobpcg: reading .*bad.mtx:4' -- "$run" "$tmp/bad.mtx"
expect not_symmetric 2 '^lobpcg: the matrix is not symmetric: a\(' -- "$run" "$tmp/unsym.mtx"
expect rectangular 2 '^lobpcg: the matrix is 16675 x 23541' -- "$run" "$src/data/lp_stocfor3.mtx.gz"
expect block_too_wide 2 '^lobpcg: a block of 500 columns' -- "$run" "$tmp/l2d.mtx" --k 400
expect gpu_path 2 '^lobpcg: --path hrpb needs the GPU backend' -- "$run" "$tmp/l2d.mtx" --path hrpb
expect bad_value 2 "^lobpcg: bad value 'x' for --k" -- "$run" "$tmp/l2d.mtx" --k x
expect fractional_k 2 "^lobpcg: bad value '1.5' for --k" -- "$run" "$tmp/l2d.mtx" --k 1.5
expect bad_row_order 2 "^lobpcg: bad value 'x' for --row-order" -- "$run" "$tmp/l2d.mtx" --row-order x
expect bad_option 2 '^lobpcg: unknown option --frobnicate' -- "$run" "$tmp/l2d.mtx" --frobnicate

# The GPU backend compiles wherever its toolkit is (not run: no GPU here).
# Skipped in sanitized builds: nvcc links the GPU backend and cannot take
# the sanitizer runtime.
if [ "$sanitize" = ON ]; then
    echo "skip build (GPU backend): sanitized build"
elif build_example "$src" "$tmp/prefix" "$tmp/gpu-probe" -DCMAKE_CUDA_ARCHITECTURES="$archs" &&
     grep -q '^LOBPCG_GPU:BOOL=ON' "$tmp/gpu-probe/CMakeCache.txt"; then
    ok "build (GPU backend)"
    # Without a GPU the library plans on the cpu path, which the GPU backend refuses.
    if ! nvidia-smi -L >/dev/null 2>&1; then
        expect gpu_backend_no_gpu 2 '^lobpcg: the GPU backend needs a plan on a GPU path; this one is on the cpu path' -- \
            "$tmp/gpu-probe/lobpcg" "$tmp/l2d.mtx" --k 2
    fi
elif grep -q '^LOBPCG_GPU:BOOL=OFF' "$tmp/gpu-probe/CMakeCache.txt" 2>/dev/null; then
    echo "skip build (GPU backend): nvcc, cuBLAS or cuSOLVER not found"
else
    bad "build (GPU backend)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
