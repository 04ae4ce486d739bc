# tests/gen.cmake: the spmm_gen matrix families (tools/families.c), the
# benchmark sweep script (tools/sweep.py) and the auto rule's calibration
# (tools/calibrate_auto.py).
tcspmm_add_test(test_families SOURCES test_families.c ${PROJECT_SOURCE_DIR}/tools/families.c
  LABELS cpu)
target_include_directories(test_families PRIVATE ${PROJECT_SOURCE_DIR}/tools)

find_program(TCSPMM_PYTHON3 python3)
if(TCSPMM_PYTHON3)
  add_test(NAME test_sweep COMMAND ${TCSPMM_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/test_sweep.py
    ${PROJECT_SOURCE_DIR}/tools/sweep.py)
  set_tests_properties(test_sweep PROPERTIES LABELS cpu)
  add_test(NAME test_calibrate_auto COMMAND ${TCSPMM_PYTHON3}
    ${PROJECT_SOURCE_DIR}/tests/test_calibrate_auto.py ${PROJECT_SOURCE_DIR}/tools/calibrate_auto.py)
  set_tests_properties(test_calibrate_auto PROPERTIES LABELS cpu)
else()
  message(STATUS "python3 not found: test_sweep and test_calibrate_auto are not registered")
endif()
