# core.cmake: tests of the public API, spmm_run, the cuSPARSE path and the
# installed package.
tcspmm_add_test(test_api SOURCES test_api.c matgen.c)
# opt.host_threads: the scope a plan call runs its host work in.
tcspmm_add_test(test_host_threads SOURCES test_host_threads.c matgen.c)
tcspmm_add_test(test_csr_transpose SOURCES test_csr_transpose.c matgen.c)
# A^T on the device, and new values of A reaching a plan of A^T (label gpu).
tcspmm_add_test(gpu_csr_transpose SOURCES gpu_csr_transpose.c device_csr.c matgen.c LABELS gpu)
tcspmm_add_test(gpu_cusparse SOURCES gpu_cusparse.c matgen.c LABELS gpu)
# New values for a plan's matrix on every GPU path (label gpu).
tcspmm_add_test(gpu_set_values SOURCES gpu_set_values.c device_csr.c matgen.c sparse24_gen.c LABELS gpu)
# cuSPARSE's preprocessing kept across new values (label gpu).
tcspmm_add_test(gpu_cusparse_values SOURCES gpu_cusparse_values.c matgen.c LABELS gpu)

add_test(NAME test_spmm_run
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_spmm_run.sh $<TARGET_FILE:spmm_run>
          ${PROJECT_SOURCE_DIR}/data ${CMAKE_CURRENT_SOURCE_DIR}/run_cases)
set_tests_properties(test_spmm_run PROPERTIES LABELS cpu)

add_test(NAME test_install
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_install.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
set_tests_properties(test_install PROPERTIES LABELS cpu)
# The entry checks and structure detection a plan runs on the device.
tcspmm_add_test(gpu_csr_check SOURCES gpu_csr_check.c matgen.c sparse24_gen.c LABELS gpu)
# The upload of a host CSR, staged and plain (label gpu).
tcspmm_add_test(gpu_csr_upload SOURCES gpu_csr_upload.c matgen.c LABELS gpu)
# Plans and products with the device memory nearly all taken (label gpu).
tcspmm_add_test(gpu_oom SOURCES gpu_oom.c matgen.c LABELS gpu)
# It takes nearly all the GPU's memory: nothing else may run beside it under ctest -j.
set_tests_properties(gpu_oom PROPERTIES RUN_SERIAL TRUE)
# Plans from a CSR already in device memory (label gpu).
tcspmm_add_test(gpu_device_input SOURCES gpu_device_input.c device_csr.c matgen.c sparse24_gen.c LABELS gpu)
# A plan on one GPU leaves the caller's current device alone (label gpu; two GPUs to mean it).
tcspmm_add_test(gpu_devices SOURCES gpu_devices.c device_csr.c matgen.c LABELS gpu)
# A CUDA error the caller left pending stays the caller's (label gpu).
tcspmm_add_test(gpu_pending_error SOURCES gpu_pending_error.c device_csr.c matgen.c LABELS gpu)
# A NaN in B reaches C on every GPU path (label gpu).
tcspmm_add_test(gpu_nan_b SOURCES gpu_nan_b.c matgen.c sparse24_gen.c LABELS gpu)
tcspmm_add_test(gpu_scale_only SOURCES gpu_scale_only.c matgen.c sparse24_gen.c LABELS gpu)
# B and C 4, 8 or 12 bytes past a 16-byte boundary, on every GPU path (label gpu).
tcspmm_add_test(gpu_offset_operands SOURCES gpu_offset_operands.c matgen.c sparse24_gen.c LABELS gpu)
# bf16 and fp16 B and C on the plans whose kernels take floats (label gpu).
tcspmm_add_test(gpu_16bit_operands SOURCES gpu_16bit_operands.c matgen.c sparse24_gen.c LABELS gpu)
