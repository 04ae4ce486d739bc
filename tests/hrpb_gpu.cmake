# hrpb_gpu.cmake: the HRPB TF32 kernel's device test (label gpu; skipped
# without a GPU). `gpu_hrpb --time [files]` is its timing mode.
tcspmm_add_test(gpu_hrpb SOURCES gpu_hrpb.c matgen.c LABELS gpu)
# The FP32-accurate (3xTF32) mode against cuSPARSE's FP32 error (label gpu).
tcspmm_add_test(gpu_fp32 SOURCES gpu_fp32.c matgen.c LABELS gpu)
# The device HRPB builder against the host one, byte for byte (label gpu);
# `gpu_hrpb_build FILE...` also times both builds.
tcspmm_add_test(gpu_hrpb_build SOURCES gpu_hrpb_build.c matgen.c LABELS gpu)
# A column-major B's transpose scratch stays one of the largest n (label gpu);
# it reads the device's free memory, so nothing may run beside it.
tcspmm_add_test(gpu_colmajor_scratch SOURCES gpu_colmajor_scratch.c matgen.c LABELS gpu)
set_tests_properties(gpu_colmajor_scratch PROPERTIES RUN_SERIAL TRUE)
