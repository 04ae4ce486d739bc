#!/usr/bin/env bash
set -u
L=/tmp/lob-logs
export LOBPCG_MATRICES="a2nnsnsl worms20_10NN" LOBPCG_CONFIGS="hrpb fp32,cusparse fp32,auto fp32"
rm -rf /tmp/lobpcg-bench-build /tmp/lobpcg-bench-example /tmp/lobpcg-bench-prefix /tmp/base37 $L/base
mkdir -p /tmp/base37 && tar xzf .devdata/base37.tgz -C /tmp/base37 && mkdir -p /tmp/base37/.devdata && cp -r .devdata/lobpcg /tmp/base37/.devdata/
(cd /tmp/base37 && OUT=$L/base COMMIT=37d443a bash examples/lobpcg/bench_device.sh > $L/base.log 2>&1; echo "base rc $?")
rm -rf /tmp/lobpcg-bench-build /tmp/lobpcg-bench-example /tmp/lobpcg-bench-prefix $L/new2
OUT=$L/new2 COMMIT=707de47 bash examples/lobpcg/bench_device.sh > $L/new2.log 2>&1; echo "new2 rc $?"
for who in new base new2; do echo "== $who"; cut -d'|' -f2,5,6,8,11,12,13,15 $L/$who/lobpcg.md | tail -12; done
nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader
tar czf $OUT/lob.tgz -C $L .
