# tools/ab_common.sh: what the A/B scripts (tools/hrpb_ab.sh, tools/sp24_ab.sh)
# share, sourced by them from the repository root.

# ab_device_header OUT: the GPU, its driver and clocks, and $COMMIT into
# OUT/device.txt, also printed.
ab_device_header() {
  { date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv;
    echo "commit: ${COMMIT:-unknown}"; } >"$1/device.txt" 2>&1
  cat "$1/device.txt"
}

# ab_variant_tree SRC DIR: a copy of the tree's sources at SRC, with the files
# under DIR laid over it (DIR "-": the tree as it is). A DIR holding
# CMakeLists.txt, include/tcspmm.h and src/ (a git archive of a base commit)
# is a whole tree: it replaces the sources, so that files the tree added
# stay out; the tree's data/ is used where it has none.
ab_variant_tree() {
  rm -rf "$1" && mkdir -p "$1" || return
  if [ -f "$2/CMakeLists.txt" ] && [ -f "$2/include/tcspmm.h" ] && [ -d "$2/src" ]; then
    cp -r "$2"/. "$1"/ && { [ -d "$1/data" ] || cp -r data "$1"/; }
  else
    cp -r CMakeLists.txt cmake include src tests tools data examples "$1"/ &&
      { [ "$2" = - ] || cp -r "$2"/. "$1"/; }
  fi
}
