# lobpcg.cmake: the LOBPCG example (examples/lobpcg), built against the
# installed library as a consumer builds it: on the CPU backend, with its
# eigenvalues checked and (where the CUDA toolkit is) the GPU backend
# compiled (label cpu), and run on the GPU backend (label gpu).
add_test(NAME test_lobpcg
  COMMAND sh ${PROJECT_SOURCE_DIR}/examples/lobpcg/tests/test_cpu.sh ${PROJECT_BINARY_DIR}
          ${PROJECT_SOURCE_DIR} $<TARGET_FILE:spmm_gen> ${TCSPMM_SANITIZE}
          "${CMAKE_CUDA_ARCHITECTURES}")
set_tests_properties(test_lobpcg PROPERTIES LABELS cpu)

add_test(NAME gpu_lobpcg
  COMMAND sh ${PROJECT_SOURCE_DIR}/examples/lobpcg/tests/test_gpu.sh ${PROJECT_BINARY_DIR}
          ${PROJECT_SOURCE_DIR} $<TARGET_FILE:spmm_gen> "${CMAKE_CUDA_ARCHITECTURES}")
set_tests_properties(gpu_lobpcg PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
