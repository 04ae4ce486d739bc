set -u
cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/bl 2>&1 && cmake --build /tmp/b --target tcspmm_static -j16 >> /tmp/bl 2>&1 || tail -20 /tmp/bl
gcc -O2 -fopenmp -Iinclude -Isrc -isystem /usr/local/cuda/include .devdata/colparts.c /tmp/b/libtcspmm.a -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/colparts
for m in .devdata/ssb/cnr-2000.mtx.gz .devdata/ssb/lp_nug30.mtx.gz data/astro-ph.mtx.gz .devdata/lobpcg/a2nnsnsl.mtx.gz; do for n in 16 64 128; do /tmp/colparts $m $n; done; done
/tmp/colparts .devdata/lobpcg/a2nnsnsl.mtx.gz 16 fp32; /tmp/colparts .devdata/lobpcg/a2nnsnsl.mtx.gz 64 fp32
