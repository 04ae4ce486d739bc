#!/usr/bin/env bash
set -u
L=/tmp/lob-logs; rm -rf $L; mkdir -p $L
export LOBPCG_MATRICES="a2nnsnsl worms20_10NN" LOBPCG_CONFIGS="hrpb fp32,cusparse fp32,auto fp32"
OUT=$L/new COMMIT=707de47 bash examples/lobpcg/bench_device.sh > $L/new.log 2>&1; echo "new rc $?"
/tmp/lobpcg-bench-prefix/bin/spmm_run .devdata/lobpcg/jan99jac060.mtx.gz --n 16 --layout col --bench --check --reps 50 > $L/jan.txt 2>&1
for i in 1 2 3; do /tmp/lobpcg-bench-prefix/bin/spmm_run .devdata/lobpcg/jan99jac060.mtx.gz --n 16 --layout col --bench --reps 50 | grep bench: ; done >> $L/jan.txt 2>&1
cat $L/jan.txt
rm -rf /tmp/base37 && mkdir -p /tmp/base37 && tar xzf .devdata/base37.tgz -C /tmp/base37 && mkdir -p /tmp/base37/.devdata && cp -r .devdata/lobpcg /tmp/base37/.devdata/
(cd /tmp/base37 && OUT=$L/base COMMIT=37d443a bash examples/lobpcg/bench_device.sh > $L/base.log 2>&1; echo "base rc $?")
for who in new base; do echo "== $who"; cut -d'|' -f2,5,6,8,11,12,13,15 $L/$who/lobpcg.md | tail -12; done
tar czf $OUT/lob.tgz -C $L .
