#!/usr/bin/env bash
# sass_compare.sh [LANDED]: without a GPU, whether each kernel of the landed commit (default
# HEAD) is one that ran on the H200 this session: the bf16 and fp16 128 x 128 and 128 x 64
# kernels of sp24_wgmma.cu (C evict first) against 6d2ee83's (calls 3 and 4); every other
# kernel of sp24_wgmma.cu, and those of sp24_mma.cu and hrpb_kernels_16bit.cu, against
# 88b53db's (plain stores; the kernels of cdbf1b5, which passed ctest -L gpu in session 64).
# Compiled as tools/sass_build.py does (nvcc -O3 -DNDEBUG), disassembled by nvdisasm
# (NVDISASM, or where sass_build finds it). Run from the repository root.
set -euo pipefail
landed=${1:-HEAD}
here=$(dirname "$0")
nvd=${NVDISASM:-$(python3 -c 'import sys; sys.path.insert(0, "tools"); import sass_build
print(sass_build.find_nvdisasm() or "")')}
[ -x "$nvd" ] || { echo "nvdisasm not found: set NVDISASM or pip install nvidia-cuda-nvdisasm"; exit 77; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
for c in "$landed" 6d2ee83 88b53db; do mkdir -p "$w/$c"; git archive "$c" include src | tar x -C "$w/$c"; done
sass() { # commit file arch
  nvcc -O3 -DNDEBUG -std=c++17 -arch=$3 -cubin -I"$w/$1/include" -I"$w/$1/src" \
    "$w/$1/src/kernels/$2" -o "$w/$1-$2.cubin"
  "$nvd" -c "$w/$1-$2.cubin" > "$w/$1-$2.sass"
}
sass "$landed" sp24_wgmma.cu sm_90a & sass 6d2ee83 sp24_wgmma.cu sm_90a & wait
sass 88b53db sp24_wgmma.cu sm_90a & sass "$landed" sp24_mma.cu sm_90 & wait
sass 88b53db sp24_mma.cu sm_90 & sass "$landed" hrpb_kernels_16bit.cu sm_90 & wait
sass 88b53db hrpb_kernels_16bit.cu sm_90
cmp() { python3 "$here/sass_compare.py" "$w/$1" "$w/$2" "${3:-.}"; }
# the kernel's template arguments: precision (0 tf32, 2 bf16, 3 fp16), BN, MW, ...
evict='precision[23]ELi(128|64)ELi1E'
echo "== $landed sp24_wgmma.cu, bf16 and fp16 128 x 128 and 128 x 64, against 6d2ee83"
cmp "$landed-sp24_wgmma.cu.sass" 6d2ee83-sp24_wgmma.cu.sass "$evict"
echo "== the same kernels against 88b53db (they must differ)"
cmp "$landed-sp24_wgmma.cu.sass" 88b53db-sp24_wgmma.cu.sass "$evict" | tail -1
echo "== $landed sp24_wgmma.cu, every other kernel, against 88b53db"
cmp "$landed-sp24_wgmma.cu.sass" 88b53db-sp24_wgmma.cu.sass "^(?!.*$evict)"
echo "== $landed sp24_mma.cu against 88b53db"
cmp "$landed-sp24_mma.cu.sass" 88b53db-sp24_mma.cu.sass
echo "== $landed hrpb_kernels_16bit.cu against 88b53db"
cmp "$landed-hrpb_kernels_16bit.cu.sass" 88b53db-hrpb_kernels_16bit.cu.sass
