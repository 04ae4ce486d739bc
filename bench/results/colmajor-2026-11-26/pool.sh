set -u
cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/bl 2>&1 && cmake --build /tmp/b --target tcspmm_static -j16 >> /tmp/bl 2>&1 || tail -20 /tmp/bl
gcc -O2 -fopenmp -Iinclude -isystem /usr/local/cuda/include .devdata/pool_exp.c /tmp/b/libtcspmm.a -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/pool_exp
for m in .devdata/ssb/lp_nug30.mtx.gz .devdata/ssb/cnr-2000.mtx.gz data/astro-ph.mtx.gz; do for n in 16 128; do /tmp/pool_exp $m $n; done; done
