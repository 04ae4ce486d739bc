#!/usr/bin/env bash
# Session 37 scratch: TF32 rounding of the HRPB kernel, NaN-safe variants against the old
# integer add: VARIANTS dirs laid over the tree, each built (spmm_run, gpu_nan_b), gpu_nan_b
# run, then HRPB at N = 32, 128 on .devdata/ho in alternate processes.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
. tools/ab_common.sh
ab_device_header $OUT
t0=$(date +%s)
VARIANTS=${VARIANTS:-"old:.devdata/base rn:.devdata/v-rn rna:.devdata/v-rna"}
names=()
for spec in $VARIANTS; do
  name=${spec%%:*} dir=${spec#*:}
  ab_variant_tree build-$name/src $dir
  (cmake -S build-$name/src -B build-$name/b -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT="${COMMIT:-}-$name" > $OUT/cfg-$name.log 2>&1 && cmake --build build-$name/b -j5 --target spmm_run gpu_nan_b > $OUT/build-$name.log 2>&1) &
  names+=($name)
done
wait
echo "built in $(( $(date +%s) - t0 )) s"
for v in "${names[@]}"; do
  build-$v/b/tests/gpu_nan_b > $OUT/gpu_nan_b-$v.log 2>&1; echo "gpu_nan_b $v: exit $? $(tail -1 $OUT/gpu_nan_b-$v.log)"
done
NS=${NS:-32,128}; INPUTS=${INPUTS:-.devdata/ho}
for n in ${NS//,/ }; do
  for v in "${names[@]}"; do
    python3 tools/sweep.py run --spmm-run build-$v/b/spmm_run --out $OUT/sw-$v-n$n --n $n --reps ${REPS:-20} \
      --extra="--path hrpb ${EXTRA:-}" $INPUTS > $OUT/sw-$v-n$n.log 2>&1
    echo "sweep $v N=$n: $(tail -1 $OUT/sw-$v-n$n.log) at $(( $(date +%s) - t0 )) s"
  done
done
(cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v '^all.tgz$'))
