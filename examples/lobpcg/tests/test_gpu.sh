#!/bin/sh
# test_gpu.sh: the LOBPCG example on the GPU backend: installs the tcspmm
# build into a scratch prefix, builds examples/lobpcg against it with
# -DLOBPCG_GPU=ON, and checks the k smallest eigenvalues of 2D and 3D
# Laplacians against the analytic ones with A*X on the HRPB path in FP32
# (3xTF32) and on cuSPARSE; plain TF32 runs as a smoke test (its residuals
# stall near 1e-4 x normA, its eigenvalues stay close). Exits 77 (skipped)
# without a GPU, 1 if TCSPMM_REQUIRE_GPU is set then.
# usage: test_gpu.sh BUILD_DIR SOURCE_DIR SPMM_GEN CUDA_ARCHITECTURES
build=$1; src=$2; gen=$3; archs=$4
if ! nvidia-smi -L >/dev/null 2>&1; then
    case ${TCSPMM_REQUIRE_GPU:-0} in 0|"") echo "no GPU (nvidia-smi -L fails): skipped"; exit 77 ;; esac
    echo "FAIL: no GPU (nvidia-smi -L fails) and TCSPMM_REQUIRE_GPU is set"; exit 1
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$src/examples/lobpcg/tests/lib.sh"

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null || { echo "install failed"; exit 1; }
if build_example "$src" "$tmp/prefix" "$tmp/gpu" -DLOBPCG_GPU=ON -DCMAKE_CUDA_ARCHITECTURES="$archs"; then
    ok "build (GPU backend)"
else
    bad "build (GPU backend)"; echo "$pass passed, $fail failed"; exit 1
fi
run="$tmp/gpu/lobpcg"
"$gen" stencil2d:30:40:5 "$tmp/l2d.mtx" 2>/dev/null && "$gen" stencil3d:12:10:14:7 "$tmp/l3d.mtx" 2>/dev/null ||
    { echo "spmm_gen failed"; exit 1; }
analytic 10 30 40 >"$tmp/want2d"
analytic 12 12 10 14 >"$tmp/want3d"

for p in "hrpb fp32" "cusparse tf32"; do
    set -- $p
    "$run" "$tmp/l2d.mtx" --k 10 --path "$1" --precision "$2" >"$tmp/out" 2>&1
    compare "laplacian 2D 30x40, k 10, --path $1 --precision $2" "$tmp/want2d" 1e-5
    # Both runs must be FP32-accurate: the plan says what arithmetic it used.
    grep -q "^plan_path $1\$" "$tmp/out" && grep -q '^plan_precision fp32$' "$tmp/out" &&
        ok "plan $1 fp32" || bad "plan: want path $1, precision fp32"
    "$run" "$tmp/l3d.mtx" --k 12 --guard 6 --seed 7 --path "$1" --precision "$2" >"$tmp/out" 2>&1
    compare "laplacian 3D 12x10x14, k 12, --path $1 --precision $2" "$tmp/want3d" 1e-5
done
# HRPB on clustered rows (C keeps A's row order): the same eigenpairs.
"$run" "$tmp/l3d.mtx" --k 12 --guard 6 --seed 7 --path hrpb --precision fp32 --row-order clustered \
    >"$tmp/out" 2>&1
compare "laplacian 3D 12x10x14, k 12, --path hrpb --precision fp32 --row-order clustered" \
    "$tmp/want3d" 1e-5
grep -q '^plan_row_order clustered$' "$tmp/out" && ok "plan row order clustered" ||
    bad "plan: want row order clustered"
"$run" "$tmp/l2d.mtx" --k 10 --path hrpb --precision tf32 --maxit 300 >"$tmp/out" 2>&1
compare "laplacian 2D, --path hrpb --precision tf32 (eigenvalues to 1e-4)" "$tmp/want2d" 1e-4 unconverged
expect gpu_cpu_path 2 '^lobpcg: --path cpu needs the CPU backend' -- "$run" "$tmp/l2d.mtx" --path cpu
expect gpu_missing_file 2 '^lobpcg: reading .*no_such_file.mtx: ' -- "$run" "$tmp/no_such_file.mtx"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
