#!/usr/bin/env bash
# session 56's last device call: tests, set_values A/B, first-plan profile per process
COMMIT=$1 bash tools/device_run.sh > $OUT/device-run.txt 2>&1; tail -3 $OUT/device-run.txt
export KEYS="set_values_host_ms set_values_host_warm_ms set_values_ms"
VARIANTS="base:.devbase new:=/tmp/tcspmm-build" ARGS="--path hrpb --new-values --check" ROUNDS=2 REPS=20 \
  timeout 150 bash tools/plan_ab.sh gen:geometric:2000000:24:3 2>&1 | tail -5
mv $OUT/plan-ab.tgz $OUT/set-values-hrpb.tgz
VARIANTS="base:=/tmp/pv-_devbase/build new:=/tmp/tcspmm-build" ARGS="--precision bf16 --new-values --check" ROUNDS=2 REPS=20 \
  timeout 60 bash tools/plan_ab.sh gen:prune24:8192:8192:1 2>&1 | tail -5
mv $OUT/plan-ab.tgz $OUT/set-values-sparse24.tgz
for input in .devdata/hs/viscorocks.mtx.gz .devdata/hs/cnr-2000.mtx.gz; do
  for p in 1 2 3 4 5 6; do
    f=$OUT/profile-$(basename $input .mtx.gz)-$p.txt
    timeout 20 /tmp/tcspmm-build/plan_profile --reps 1 $input > $f 2>&1
    echo "$(basename $input) $p: $(grep -E 'staging lock|CSR upload|device build|wave split|plan_create  ' $f | tr -s ' ' | tr '\n' ';')"
  done
done
cd $OUT && tar czf profiles.tgz profile-*.txt && rm profile-*.txt
