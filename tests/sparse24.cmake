# tests/sparse24.cmake: the 2:4 / 1:2 structured-sparsity tests.
tcspmm_add_test(test_sparse24 SOURCES test_sparse24.c sparse24_gen.c LABELS cpu)
tcspmm_add_test(gpu_sparse24 SOURCES gpu_sparse24.c matgen.c sparse24_gen.c LABELS gpu)
# The same on an H100 or H200 as on devices without wgmma.sp or 100 KB blocks.
add_test(NAME gpu_sparse24_small_device COMMAND gpu_sparse24 --small-device
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(gpu_sparse24_small_device PROPERTIES LABELS gpu SKIP_RETURN_CODE 77
  ENVIRONMENT "TCSPMM_DATA=${PROJECT_SOURCE_DIR}/data")
# tools/check_meta_regs.py, the SASS check of the wgmma.sp kernel's metadata registers: on
# hand-written SASS (label cpu), and on the kernel itself, compiled for sm_90a and read with
# nvdisasm (label sass: about two minutes of compiling, so not in CI's second, sanitized pass;
# skipped where no nvdisasm is found).
find_program(TCSPMM_PYTHON3 python3)
if(TCSPMM_PYTHON3)
  add_test(NAME test_check_meta_regs COMMAND ${TCSPMM_PYTHON3}
    ${PROJECT_SOURCE_DIR}/tests/test_check_meta_regs.py
    ${PROJECT_SOURCE_DIR}/tools/check_meta_regs.py)
  set_tests_properties(test_check_meta_regs PROPERTIES LABELS cpu)
  add_test(NAME sass_meta_regs_sp24 COMMAND ${TCSPMM_PYTHON3}
    ${PROJECT_SOURCE_DIR}/tools/check_meta_regs.py ${TCSPMM_SM90A_SOURCE}
    --nvcc ${CMAKE_CUDA_COMPILER})
  set_tests_properties(sass_meta_regs_sp24 PROPERTIES LABELS sass SKIP_RETURN_CODE 77)
  # tools/sp24_ab_summary.py, the summary of the structured path's A/B runs
  add_test(NAME test_sp24_ab_summary COMMAND ${TCSPMM_PYTHON3}
    ${PROJECT_SOURCE_DIR}/tests/test_sp24_ab_summary.py
    ${PROJECT_SOURCE_DIR}/tools/sp24_ab_summary.py)
  set_tests_properties(test_sp24_ab_summary PROPERTIES LABELS cpu)
  # tools/sp24_ab.sh, the structured path's A/B call, on a stub build
  add_test(NAME test_sp24_ab COMMAND bash ${PROJECT_SOURCE_DIR}/tests/test_sp24_ab.sh
    ${PROJECT_SOURCE_DIR})
  set_tests_properties(test_sp24_ab PROPERTIES LABELS cpu)
endif()
