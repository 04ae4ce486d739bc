# FindCUSPARSELT.cmake: finds cuSPARSELt (optional; used by tools/sp24_bench).
# Hints: -DCUSPARSELT_ROOT=<dir with include/ and lib/> or the environment
# variable CUSPARSELT_ROOT; otherwise the python site-packages folders
# nvidia/cusparselt and nvidia/cu13 (pip install nvidia-cusparselt-cu13).
# Defines CUSPARSELT_FOUND, CUSPARSELT_INCLUDE_DIR, CUSPARSELT_LIBRARY and
# the imported target CUSPARSELT::cusparseLt.
set(_cusparselt_hints ${CUSPARSELT_ROOT} $ENV{CUSPARSELT_ROOT})
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  execute_process(
    COMMAND ${Python3_EXECUTABLE} -c
      "import site; print(';'.join(site.getsitepackages() + [site.getusersitepackages()]))"
    OUTPUT_VARIABLE _cusparselt_site OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  foreach(dir ${_cusparselt_site})
    list(APPEND _cusparselt_hints ${dir}/nvidia/cusparselt ${dir}/nvidia/cu13)
  endforeach()
endif()

find_path(CUSPARSELT_INCLUDE_DIR cusparseLt.h HINTS ${_cusparselt_hints} PATH_SUFFIXES include)
find_library(CUSPARSELT_LIBRARY NAMES cusparseLt libcusparseLt.so.0
  HINTS ${_cusparselt_hints} PATH_SUFFIXES lib lib64)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CUSPARSELT REQUIRED_VARS CUSPARSELT_LIBRARY CUSPARSELT_INCLUDE_DIR)
if(CUSPARSELT_FOUND AND NOT TARGET CUSPARSELT::cusparseLt)
  add_library(CUSPARSELT::cusparseLt UNKNOWN IMPORTED)
  set_target_properties(CUSPARSELT::cusparseLt PROPERTIES
    IMPORTED_LOCATION ${CUSPARSELT_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${CUSPARSELT_INCLUDE_DIR})
endif()
mark_as_advanced(CUSPARSELT_INCLUDE_DIR CUSPARSELT_LIBRARY)
