# tests/sparse24.cmake: the 2:4 / 1:2 structured-sparsity tests.
tcspmm_add_test(test_sparse24 SOURCES test_sparse24.c sparse24_gen.c LABELS cpu)
tcspmm_add_test(gpu_sparse24 SOURCES gpu_sparse24.c matgen.c sparse24_gen.c LABELS gpu)
# The same on an H100 or H200 as on devices without wgmma.sp or 100 KB blocks.
add_test(NAME gpu_sparse24_small_device COMMAND gpu_sparse24 --small-device
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(gpu_sparse24_small_device PROPERTIES LABELS gpu SKIP_RETURN_CODE 77
  ENVIRONMENT "TCSPMM_DATA=${PROJECT_SOURCE_DIR}/data")
