#!/bin/sh
# test_install.sh: installs the build into a scratch prefix, then builds a
# consumer project against it with find_package(tcspmm) and a C file with
# pkg-config, and runs both on a bundled matrix.
# usage: test_install.sh BUILD_DIR SOURCE_DIR
set -e
build=$1; src=$2
prefix=$(mktemp -d); trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/include/tcspmm.h"
cmake -S "$src/tests/consumer" -B "$prefix/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
out=$("$prefix/consumer-build/consumer" "$src/data/cora.mtx")
echo "$out"
# cora is a 0/1 pattern with 10556 entries: the sum of A*ones is 10556.
echo "$out" | grep -q 'sum(A\*1) = 10556.0'
libdir=$(ls -d "$prefix"/lib*/pkgconfig | head -n 1)
PKG_CONFIG_PATH=$libdir pkg-config --exists tcspmm
cc "$src/tests/consumer/main.c" -o "$prefix/pc-consumer" \
   $(PKG_CONFIG_PATH=$libdir pkg-config --cflags --libs tcspmm) -Wl,-rpath,"${libdir%/pkgconfig}"
"$prefix/pc-consumer" "$src/data/cora.mtx" | grep -q 'sum(A\*1) = 10556.0'
echo "1 passed, 0 failed"
