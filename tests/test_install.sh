#!/bin/sh
# test_install.sh: installs the build into a scratch prefix, then builds a
# consumer project against it with find_package(tcspmm) and a C file with
# pkg-config, and runs both on a bundled matrix: each multiplies it by a
# pseudo-random B and checks C against its own float64 product.
# usage: test_install.sh BUILD_DIR SOURCE_DIR
set -e
build=$1; src=$2
prefix=$(mktemp -d); trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/include/tcspmm.h"
cmake -S "$src/tests/consumer" -B "$prefix/consumer-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
# each consumer exits non-zero where its product is wrong
"$prefix/consumer-build/consumer" "$src/data/cora.mtx"
libdir=$(ls -d "$prefix"/lib*/pkgconfig | head -n 1)
PKG_CONFIG_PATH=$libdir pkg-config --exists tcspmm
cc "$src/tests/consumer/main.c" -o "$prefix/pc-consumer" \
   $(PKG_CONFIG_PATH=$libdir pkg-config --cflags --libs tcspmm) -lm -Wl,-rpath,"${libdir%/pkgconfig}"
"$prefix/pc-consumer" "$src/data/cora.mtx"
echo "1 passed, 0 failed"
