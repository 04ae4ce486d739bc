set -u
cmake -S . -B /tmp/b -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/bl 2>&1 && cmake --build /tmp/b --target tcspmm_static spmm_gen -j16 >> /tmp/bl 2>&1 || tail -20 /tmp/bl
gcc -O2 -fopenmp -Iinclude -Isrc -isystem /usr/local/cuda/include .devdata/colparts.c /tmp/b/libtcspmm.a -L/usr/local/cuda/lib64 -lcusparse -lcudart -lcuda -lz -lstdc++ -lm -o /tmp/colparts
/tmp/b/spmm_gen stencil3d:100:100:100:7 /tmp/lap.mtx > /dev/null 2>&1
for m in .devdata/ssb/cnr-2000.mtx.gz /tmp/lap.mtx; do for n in 16 64 128; do /tmp/colparts $m $n; /tmp/colparts $m $n tm32; done; done
