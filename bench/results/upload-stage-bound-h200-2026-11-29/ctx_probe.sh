#!/usr/bin/env bash
# does starting CUDA right before the first plan cause its 37-91 ms outliers?
# base: spmm_run as at HEAD (cudaFree(NULL) just before tcspmm_plan_create);
# new: the tree's spmm_run (cudaFree(NULL) before reading the matrix).
set -u
rm -rf /tmp/vt && mkdir -p /tmp/vt && cp -r CMakeLists.txt cmake include src tests tools data examples /tmp/vt/
cp .devdata/spmm_run_base.c /tmp/vt/tools/spmm_run.c
cmake -S /tmp/vt -B /tmp/vt/build -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/vt-build.log 2>&1 &&
  cmake --build /tmp/vt/build -j16 --target spmm_run >> /tmp/vt-build.log 2>&1 || { tail -20 /tmp/vt-build.log; exit 1; }
mkdir -p /tmp/base-bin /tmp/new-bin && cp /tmp/vt/build/spmm_run /tmp/base-bin/
cp tools/spmm_run.c /tmp/vt/tools/spmm_run.c && cmake --build /tmp/vt/build -j16 --target spmm_run >> /tmp/vt-build.log 2>&1 &&
  cp /tmp/vt/build/spmm_run /tmp/new-bin/ || exit 1
echo "built at $(date +%T)"
VARIANTS="base:=/tmp/base-bin new:=/tmp/new-bin" ROUNDS=${ROUNDS:-6} REPS=5 \
  bash tools/plan_ab.sh .devdata/hs/viscorocks.mtx.gz .devdata/hs/lp_nug30.mtx.gz .devdata/hs/cnr-2000.mtx.gz 2>&1 | tail -48
