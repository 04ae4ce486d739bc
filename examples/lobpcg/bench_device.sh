#!/bin/bash
# bench_device.sh: LOBPCG timings on the GPU machine. Builds and installs
# tcspmm, builds examples/lobpcg (GPU backend) against it, then runs it on
# a 3D 7-point Laplacian of 128^3 = 2,097,152 rows (smallest eigenpairs) and
# on two real symmetric matrices of the shared set (largest eigenpairs),
# with k = 16 and 64 and A*X on --path hrpb --precision fp32, --path hrpb
# --precision tf32 and --path cusparse. Writes to $OUT: lobpcg.csv,
# lobpcg.md (the table), runs.log (every run's output), build.log.
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
configs=("hrpb fp32" "hrpb tf32" "cusparse tf32")
device=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)

csv="$OUT/lobpcg.csv"
echo "matrix,rows,nnz,end,k,path,precision,plan_path,plan_precision,status,iterations,converged,stop_reason,max_residual,wall_s,read_s,plan_s,solve_s,spmm_s,rest_s,spmm_calls" >"$csv"
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
            t1=$(date +%s.%N)
            { echo "=== $name k=$k --path $path --precision $precision --maxit $maxit $flag: exit $status"
              cat $log; } >>"$OUT/runs.log"
            # status: 0 converged, 1 not converged, 2 error, 124 timeout, skipped
            awk -v name="$name" -v end="$end" -v k="$k" -v path="$path" -v prec="$precision" \
                -v status="$status" -v wall="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" '
                /^# lobpcg: / { rows = $(NF - 6); nnz = $(NF - 3) }
                /^eigenvalue / { if (found == "" || $5 + 0 > res) res = $5 + 0; found = 1 }
                /^[a-z_]+ [^ ]+$/ { v[$1] = $2 }
                END {
                    printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s,%s,%s,%s,%s,%s\n",
                        name, rows, nnz, end, k, path, prec, v["plan_path"], v["plan_precision"],
                        status == "0" ? "ok" : status == "1" ? "not_converged" :
                        status == "124" ? "timeout" : status == "skipped" ? "skipped" : "error",
                        v["iterations"], v["converged"], v["stop_reason"],
                        found ? sprintf("%.3e", res) : "", wall, v["time_read_s"],
                        v["time_plan_s"], v["time_solve_s"], v["time_spmm_s"], v["time_rest_s"],
                        v["spmm_calls"]
                }' $log >>"$csv"
            tail -1 "$csv"
        done
    done
done

{
    echo "# LOBPCG on tcspmm: $device, $(date -u +%Y-%m-%d)"
    echo
    echo "Relative residual ||A x - lambda x|| / (normA ||x||), normA = max_i sum_j |a_ij|; tol 1e-6;"
    echo "guard columns max(4, k/4). Times in seconds: wall = the whole command (read, plan, solve);"
    echo "SpMM = inside tcspmm_spmm (synchronized); rest = solve - SpMM (dense work, casts, copies)."
    echo
    echo "| matrix | rows | end | k | A*X | plan | status | iters | max residual | wall | solve | SpMM | rest |"
    echo "|---|---:|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|"
    tail -n +2 "$csv" | awk -F, '{
        printf "| %s | %s | %s | %s | %s %s | %s %s | %s | %s | %s | %s | %s | %s | %s |\n",
            $1, $2, $4, $5, $6, $7, $8, $9, ($10 == "ok" ? "converged" : $10 == "not_converged" ? $13 : $10),
            $11, $14, $15, $18, $19, $20 }'
} >"$OUT/lobpcg.md"
cat "$OUT/lobpcg.md"
