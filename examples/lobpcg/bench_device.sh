#!/bin/bash
# bench_device.sh: LOBPCG timings on the GPU machine. Builds and installs
# tcspmm, builds examples/lobpcg (GPU backend) against it, then runs it on
# a 3D 7-point Laplacian of 128^3 = 2,097,152 rows (smallest eigenpairs) and
# on two real symmetric matrices of the shared set (largest eigenpairs),
# with k = 16 and 64 and A*X on --path hrpb --precision fp32, --path hrpb
# --precision tf32 and --path cusparse (or the LOBPCG_CONFIGS given; LOBPCG_MATRICES
# picks matrices by name). Writes to $OUT: lobpcg.csv,
# lobpcg.md (the table, from bench_table.py), runs.log (every run's output),
# build.log. COMMIT=<hash> labels the tables where the tree has no .git.
# Run from the repository root with the matrices carried in .devdata/lobpcg/:
#   run carry [".devdata/lobpcg"]: bash examples/lobpcg/bench_device.sh
# (copy them first: cp /work/shared/data/suitesparse/{a2nnsnsl,worms20_10NN}.mtx.gz .devdata/lobpcg/)
set -u
OUT=${OUT:-lobpcg-bench-out}
mkdir -p "$OUT"
build=/tmp/lobpcg-bench-build prefix=/tmp/lobpcg-bench-prefix example=/tmp/lobpcg-bench-example
{
    cmake -S . -B $build -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_BUILD_TESTS=OFF &&
        cmake --build $build -j16 && cmake --install $build --prefix $prefix &&
        cmake -S examples/lobpcg -B $example -DCMAKE_PREFIX_PATH=$prefix -DLOBPCG_GPU=ON \
            -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build $example -j16
} >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
lobpcg=$example/lobpcg
$prefix/bin/spmm_gen stencil3d:128:128:128:7 /tmp/lap3d_128.mtx >>"$OUT/build.log" 2>&1 || exit 1

# name file end maxit(k=16) maxit(k=64). The Laplacian's smallest eigenvalues
# are the slow end of its spectrum: 520 iterations at k = 16 on hrpb fp32, at
# about 8 ms an iteration, and about 55 ms an iteration at k = 64 (H100); the
# two shared matrices' largest converge in under 100 iterations at k = 16 (on
# the CPU path). Each run is also cut at 75 s, and runs are skipped once the
# script has spent 7 minutes.
matrices=(
    "lap3d_128 /tmp/lap3d_128.mtx smallest 800 600"
    "a2nnsnsl .devdata/lobpcg/a2nnsnsl.mtx.gz largest 400 400"
    "worms20_10NN .devdata/lobpcg/worms20_10NN.mtx.gz largest 400 400"
)
# LOBPCG_MATRICES="name name ..." runs only those of the three.
if [ -n "${LOBPCG_MATRICES:-}" ]; then
    chosen=()
    for entry in "${matrices[@]}"; do
        [[ " $LOBPCG_MATRICES " == *" ${entry%% *} "* ]] && chosen+=("$entry")
    done
    matrices=("${chosen[@]}")
fi
# LOBPCG_CONFIGS="path precision,path precision,..." replaces the three configurations.
IFS=, read -ra configs <<<"${LOBPCG_CONFIGS:-hrpb fp32,hrpb tf32,cusparse tf32}"
device=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)

commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
: >"$OUT/runs.log"
for entry in "${matrices[@]}"; do
    read -r name file end maxit16 maxit64 <<<"$entry"
    flag=""; [ "$end" = largest ] && flag=--largest
    for k in 16 64; do
        maxit=$maxit16; [ $k = 64 ] && maxit=$maxit64
        for config in "${configs[@]}"; do
            read -r path precision <<<"$config"
            log=/tmp/lobpcg-run.log
            t0=$(date +%s.%N)
            if [ $SECONDS -lt 420 ]; then
                timeout 75 "$lobpcg" "$file" --k "$k" $flag --maxit "$maxit" --path "$path" \
                    --precision "$precision" >$log 2>&1
                status=$?
            else
                echo "skipped: the script's 7 minutes are spent" >$log
                status=skipped
            fi
            wall=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.3f}')")
            # status: 0 converged, 1 not converged, 2 error, 124 timeout, skipped
            { echo "=== $name k=$k --path $path --precision $precision --maxit $maxit $flag: exit $status wall $wall"
              cat $log; } >>"$OUT/runs.log"
            echo "$name k=$k $path $precision: exit $status, $wall s"
        done
    done
done

python3 examples/lobpcg/bench_table.py "$OUT/runs.log" --csv "$OUT/lobpcg.csv" --md "$OUT/lobpcg.md" \
    --device "$device" --date "$(date -u +%Y-%m-%d)" --commit "$commit"
cat "$OUT/lobpcg.md"
