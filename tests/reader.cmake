# reader.cmake: tests of the Matrix Market reader and writer (src/format/mtx*).
tcspmm_add_test(test_mtx_read SOURCES test_mtx_read.c LABELS cpu)
tcspmm_add_test(test_mtx_number SOURCES test_mtx_number.c LABELS cpu)
tcspmm_add_test(test_mtx_write SOURCES test_mtx_write.c LABELS cpu)
tcspmm_add_test(test_mtx_fuzz SOURCES test_mtx_fuzz.c LABELS cpu)
