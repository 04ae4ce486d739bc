#!/usr/bin/env bash
set -u
L=/tmp/tcspmm-logs; rm -rf $L; mkdir -p $L
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader > $L/device.txt
cmake -S . -B /tmp/fb -DCMAKE_CUDA_ARCHITECTURES=90 -DTCSPMM_GIT_COMMIT=$COMMIT > /tmp/fbl 2>&1 && cmake --build /tmp/fb -j32 >> /tmp/fbl 2>&1; echo "build rc $?"
mkdir -p /tmp/base && tar xzf .devdata/base32.tgz -C /tmp/base
(cmake -S /tmp/base -B /tmp/bb -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/bbl 2>&1 && cmake --build /tmp/bb -j32 --target spmm_run >> /tmp/bbl 2>&1; echo "base build rc $?") &
(cd /tmp/fb && timeout 300 ctest -V -L gpu > $L/ctest.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*" $L/ctest.log | tail -8
grep -E "^[0-9]+: .*passed|GPUs: plans|one GPU" $L/ctest.log
wait
/tmp/fb/spmm_run data/ted_B.mtx.gz --check --info > $L/readme-command.txt 2>&1; echo "README command rc $? $(grep -c PASS $L/readme-command.txt) PASS"
for r in 1 2; do for b in bb fb; do for f in data/*.mtx*; do for n in 1 32 128; do
  /tmp/$b/spmm_run $f --n $n --bench --reps 30 --json 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); print('$b r$r', '$f'.split('/')[-1], $n, d.get('path'), round(d['time_ms'],4), round(d['cusparse_ms'],4), round(d['speedup'],3))" >> $L/ab.txt
done; done; done; done
python3 - <<'PY'
import collections
rows=collections.defaultdict(list)
for l in open('/tmp/tcspmm-logs/ab.txt'):
    b,r,f,n,path,t,c,s=l.split()
    rows[(f,int(n),b)].append(float(t))
out=open('/tmp/tcspmm-logs/ab-summary.txt','w')
for (f,n,b) in sorted(k for k in rows if k[2]=='fb'):
    old=rows[(f,n,'bb')]; new=rows[(f,n,'fb')]
    line=f"{f} N={n}: before {min(old):.4f}-{max(old):.4f} ms, after {min(new):.4f}-{max(new):.4f} ms, ratio of medians-of-2 {sum(old)/sum(new):.3f}"
    print(line); out.write(line+'\n')
PY
cp /tmp/fbl $L/build.log
tar czf $OUT/device-run.tgz -C $L .
