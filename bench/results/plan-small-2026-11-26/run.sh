set -u
cmake -S . -B /tmp/fb -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/b.log 2>&1 && cmake --build /tmp/fb -j16 --target plan_profile >> /tmp/b.log 2>&1; echo "build rc $?"
nsys --version 2>&1 | head -1
timeout 120 /tmp/fb/plan_profile --reps 7 data/cora.mtx data/ted_B.mtx.gz data/astro-ph.mtx.gz data/de2010.mtx.gz 2>&1 | tee $OUT/pp.txt
