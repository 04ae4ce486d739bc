#!/usr/bin/env bash
# sass_compare.sh [LANDED]: without a GPU, whether each kernel of the landed commit (default
# HEAD) is one that ran on the H200: its bf16 and fp16 128 x 128 and 128 x 64 kernels of
# sp24_wgmma.cu (C stored evict first) against 6d2ee83's (tested and timed in calls 3 and 4),
# and every other kernel of sp24_wgmma.cu, sp24_mma.cu and hrpb_kernels_16bit.cu against
# 88b53db's (plain stores; 88b53db's kernel sources are cdbf1b5's but for a comment and a line
# wrap, and cdbf1b5 passed ctest -L gpu in session 64). Each commit's file is compiled by that
# commit's tools/sass_build.py and disassembled by nvdisasm (NVDISASM, or where sass_build
# finds it); sass_compare.py compares them. Exit status 1 if any kernel is not as expected.
# Run from the repository root.
set -euo pipefail
landed=$(git rev-parse --short "${1:-HEAD}")
here=$(cd "$(dirname "$0")" && pwd)
nvd=${NVDISASM:-$(python3 -c 'import sys; sys.path.insert(0, "tools"); import sass_build
print(sass_build.find_nvdisasm() or "")')}
[ -x "$nvd" ] ||
  { echo "nvdisasm not found: set NVDISASM or pip install nvidia-cuda-nvdisasm"; exit 77; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
for c in "$landed" 6d2ee83 88b53db; do
  mkdir -p "$w/$c" && git archive "$c" include src tools | tar x -C "$w/$c"
done
sass() { # commit file arch: that commit's sass_build compiles its file
  python3 - "$w/$1" "$2" "$3" "$nvd" > "$w/$1-$2.sass" <<'PY'
import sys
root, name, arch, nvdisasm = sys.argv[1:]
sys.path.insert(0, root + "/tools")
import sass_build
sys.stdout.write(sass_build.cubin_sass(root + "/src/kernels/" + name, arch, nvdisasm)[0])
PY
}
both() { # job job: two compiles at a time, each one's failure the script's
  eval "$1" & local p=$!
  eval "$2"
  wait $p
}
both "sass $landed sp24_wgmma.cu sm_90a" "sass 6d2ee83 sp24_wgmma.cu sm_90a"
both "sass 88b53db sp24_wgmma.cu sm_90a" "sass $landed sp24_mma.cu sm_90"
both "sass 88b53db sp24_mma.cu sm_90" "sass $landed hrpb_kernels_16bit.cu sm_90"
sass 88b53db hrpb_kernels_16bit.cu sm_90
cmp() { python3 "$here/sass_compare.py" "$w/$landed-$1.sass" "$w/$2-$1.sass" "${@:3}"; }
# the kernel's template arguments: precision (0 tf32, 2 bf16, 3 fp16), BN, MW, STAGES, NMAJOR,
# CL, C's type; 2 precisions x 2 tiles x 2 B kinds x 2 C types = 16 kernels
evict='precision[23]ELi(128|64)ELi1E'
echo "== $landed sp24_wgmma.cu, bf16 and fp16 128 x 128 and 128 x 64, against 6d2ee83"
cmp sp24_wgmma.cu 6d2ee83 --match "$evict" --count 16
echo "== the same kernels against 88b53db (they must differ)"
cmp sp24_wgmma.cu 88b53db --match "$evict" --count 16 --expect differ
echo "== $landed sp24_wgmma.cu, every other kernel, against 88b53db"
cmp sp24_wgmma.cu 88b53db --match "^(?!.*$evict)"
echo "== $landed sp24_mma.cu against 88b53db"
cmp sp24_mma.cu 88b53db
echo "== $landed hrpb_kernels_16bit.cu against 88b53db"
cmp hrpb_kernels_16bit.cu 88b53db
